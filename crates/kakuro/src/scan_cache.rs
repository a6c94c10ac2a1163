//! The Kakuro rater's scan caches: each local technique's tally per unit (per cell or per
//! run), kept between ladder tries and brought up to date from the units touched since.
//!
//! Why: the ladder goes back to level 1 after every step and each try counts every situation
//! of the board, so a plain scan costs the board's size on every step and a board's rating
//! grows as its size squared (a 400×400 board took over a minute). A step changes a few
//! cells; only their units' tallies change. The totals are the sums of the units' tallies and
//! the first success is the first success of the lowest unit holding one (units are scanned
//! in index order), so the cached scan gives the plain scan's counts and step exactly
//! (`techniques::tests` checks both against each other at every step).

/// Per-unit tallies of one technique, their totals, and the units marked as touched since
/// they were last brought up to date. Empty until the technique's first scan.
#[derive(Clone, Default)]
pub(super) struct UnitTallies {
    live: bool,
    /// (situations, successes) per unit.
    counts: Vec<(u32, u32)>,
    situations: u32,
    successes: u32,
    /// The units with a success.
    hits: MinSet,
    queued: Vec<bool>,
    dirty: Vec<u32>,
}

impl UnitTallies {
    /// Note that unit `u`'s tally may have changed (nothing to do before the first scan).
    #[inline]
    pub(super) fn mark(&mut self, u: usize) {
        if self.live && !self.queued[u] {
            self.queued[u] = true;
            self.dirty.push(u as u32);
        }
    }

    /// Bring the tallies up to date: every one of the `units` on the first call, then those
    /// marked since. `tally_of(u)` scans unit `u` alone: (situations, successes).
    pub(super) fn refresh(&mut self, units: usize, mut tally_of: impl FnMut(usize) -> (u32, u32)) {
        if !self.live {
            *self = UnitTallies {
                live: true,
                counts: vec![(0, 0); units],
                hits: MinSet::new(units),
                queued: vec![false; units],
                ..UnitTallies::default()
            };
            for u in 0..units {
                self.set(u, tally_of(u));
            }
            return;
        }
        while let Some(u) = self.dirty.pop() {
            let u = u as usize;
            self.queued[u] = false;
            self.set(u, tally_of(u));
        }
    }

    fn set(&mut self, u: usize, (s, r): (u32, u32)) {
        let (old_s, old_r) = self.counts[u];
        self.situations = self.situations - old_s + s;
        self.successes = self.successes - old_r + r;
        self.counts[u] = (s, r);
        if old_r == 0 && r > 0 {
            self.hits.insert(u);
        } else if old_r > 0 && r == 0 {
            self.hits.remove(u);
        }
    }

    /// (situations, successes) over every unit.
    pub(super) fn totals(&self) -> (u32, u32) {
        (self.situations, self.successes)
    }

    /// The lowest unit with a success.
    pub(super) fn first_hit(&self) -> Option<usize> {
        self.hits.min()
    }
}

/// A set of indices below a bound with the smallest found in a few word reads: a bit per
/// index, and above it a bit per nonzero word, up to a single word.
#[derive(Clone, Default)]
struct MinSet {
    /// `levels[0]` has a bit per index; `levels[k + 1]` a bit per nonzero word of `levels[k]`.
    levels: Vec<Vec<u64>>,
}

impl MinSet {
    fn new(n: usize) -> MinSet {
        let mut levels = Vec::new();
        let mut len = n;
        loop {
            let words = len.div_ceil(64).max(1);
            levels.push(vec![0u64; words]);
            if words == 1 {
                return MinSet { levels };
            }
            len = words;
        }
    }

    fn insert(&mut self, mut i: usize) {
        for level in &mut self.levels {
            let was_empty = level[i / 64] == 0;
            level[i / 64] |= 1 << (i % 64);
            if !was_empty {
                return;
            }
            i /= 64;
        }
    }

    fn remove(&mut self, mut i: usize) {
        for level in &mut self.levels {
            level[i / 64] &= !(1 << (i % 64));
            if level[i / 64] != 0 {
                return;
            }
            i /= 64;
        }
    }

    fn min(&self) -> Option<usize> {
        let top = *self.levels.last()?.first()?;
        if top == 0 {
            return None;
        }
        let mut i = top.trailing_zeros() as usize;
        for level in self.levels.iter().rev().skip(1) {
            i = i * 64 + level[i].trailing_zeros() as usize;
        }
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn min_set_agrees_with_a_sorted_set() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for n in [1, 63, 64, 65, 4096, 4097, 300_000] {
            let mut fast = MinSet::new(n);
            let mut plain = std::collections::BTreeSet::new();
            for _ in 0..5000 {
                // Mostly low indices, so that the minimum moves often.
                let i = if rng.gen_bool(0.5) { rng.gen_range(0..n.min(200)) } else { rng.gen_range(0..n) };
                if rng.gen_bool(0.5) {
                    fast.insert(i);
                    plain.insert(i);
                } else {
                    fast.remove(i);
                    plain.remove(&i);
                }
                assert_eq!(fast.min(), plain.first().copied(), "n {n}");
            }
        }
    }

    #[test]
    fn tallies_follow_marked_units() {
        let mut t = UnitTallies::default();
        let mut counts = [(2u32, 0u32), (1, 1), (3, 2), (0, 0)];
        t.mark(0); // before the first scan: nothing to do
        t.refresh(4, |u| counts[u]);
        assert_eq!((t.totals(), t.first_hit()), ((6, 3), Some(1)));
        counts[1] = (1, 0);
        counts[0] = (2, 1);
        t.refresh(4, |u| counts[u]);
        assert_eq!((t.totals(), t.first_hit()), ((6, 3), Some(1)), "unmarked units keep their tallies");
        t.mark(1);
        t.mark(0);
        t.mark(1);
        t.refresh(4, |u| counts[u]);
        assert_eq!((t.totals(), t.first_hit()), ((6, 3), Some(0)));
        counts[0] = (0, 0);
        counts[2] = (0, 0);
        for u in 0..4 {
            t.mark(u);
        }
        t.refresh(4, |u| counts[u]);
        assert_eq!((t.totals(), t.first_hit()), ((1, 0), None));
    }
}
