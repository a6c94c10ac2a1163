//! The fast counter: candidates as bit sets (bit d for height d), propagated to a fixed point by
//! the Latin rules (the core's `latin_count`) and by every clue exactly (`LineDp`: the heights
//! each cell of a clue's line takes in some filling of the line that shows the clue), then the
//! core's search on the open cell with the fewest candidates.

use crate::{clue_cells, Skyscrapers};
pub(crate) use pf_core::common::latin_count::{count_from, high, Count, Propagate};
use pf_core::common::latin_count::{propagate_line, shared_square_lines};
use std::cell::RefCell;

/// The counter's search gives up after this many nodes (the puzzle is then `undecided`).
pub const SOLVE_BUDGET: u64 = 1 << 22;

/// The largest line: cells of a line are at most this many.
pub(crate) const MAX_N: usize = 12;

/// `LineDp::allowed_from` where no count is allowed: above every count.
const NONE: u8 = u8::MAX;

/// A clue in force: the cells it looks along (nearest first) and the counts it allows (bit k:
/// k buildings seen; one bit for a clue, more when the generator looks for a solution that
/// breaks it).
#[derive(Clone, Debug)]
pub(crate) struct ClueLine {
    /// The clue's index in `Skyscrapers::clues`.
    pub index: usize,
    pub cells: Vec<usize>,
    pub allowed: u16,
}

/// The puzzle's structure for propagation.
pub(crate) struct Board {
    pub n: usize,
    /// Every row, then every column, as cell indices.
    pub lines: &'static [Vec<usize>],
    /// The clues given (non-zero), in `Skyscrapers::clues` order.
    pub clues: Vec<ClueLine>,
    /// For each cell, the clues (bits of `clues` positions) whose line holds it.
    clues_of: Vec<u64>,
}

impl Board {
    pub fn new(p: &Skyscrapers) -> Board {
        Board::with_allowed(p, None)
    }

    /// The board with clue `broken` (an index in `p.clues`) allowing every count but its own:
    /// a solution of it is one of the puzzle without that clue that the clue rules out.
    pub fn breaking(p: &Skyscrapers, broken: usize) -> Board {
        Board::with_allowed(p, Some(broken))
    }

    fn with_allowed(p: &Skyscrapers, broken: Option<usize>) -> Board {
        let n = p.size as usize;
        let every = ((1u32 << (n + 1)) - 2) as u16;
        let clues: Vec<ClueLine> = (0..4 * n)
            .filter(|&i| p.clues[i] != 0)
            .map(|i| {
                let own = 1u16 << p.clues[i];
                let allowed = if broken == Some(i) { every & !own } else { own };
                ClueLine { index: i, cells: clue_cells(n, i), allowed }
            })
            .collect();
        let mut clues_of = vec![0u64; n * n];
        for (k, cl) in clues.iter().enumerate() {
            for &c in &cl.cells {
                clues_of[c] |= 1 << k;
            }
        }
        Board { n, lines: shared_square_lines(n), clues, clues_of }
    }

    /// The starting candidates: every height, a given's alone.
    pub fn start(&self, givens: &[u8]) -> Vec<u16> {
        pf_core::common::latin_count::start(self.n, givens)
    }
}

impl Propagate for Board {
    fn n(&self) -> usize {
        self.n
    }

    fn lines(&self) -> &[Vec<usize>] {
        self.lines
    }

    /// Propagate to a fixed point; false on a contradiction. Work lists: a line is looked at
    /// again when one of its cells changed, a clue when a cell of its line did.
    fn propagate(&self, cand: &mut [u16]) -> bool {
        let n = self.n;
        let mut lines: u32 = (1u32 << (2 * n)) - 1;
        let mut clues: u64 = if self.clues.len() == 64 { u64::MAX } else { (1u64 << self.clues.len()) - 1 };
        let touch = |c: usize, lines: &mut u32, clues: &mut u64| {
            *lines |= 1 << (c / n) | 1 << (n + c % n);
            *clues |= self.clues_of[c];
        };
        with_line_dp(|dp| loop {
            if lines != 0 {
                let l = lines.trailing_zeros() as usize;
                lines &= lines - 1;
                if !propagate_line(n, &self.lines[l], cand, |c| touch(c, &mut lines, &mut clues)) {
                    return false;
                }
                continue;
            }
            if clues == 0 {
                return true;
            }
            let k = clues.trailing_zeros() as usize;
            clues &= clues - 1;
            let cl = &self.clues[k];
            let mut line = [0u16; MAX_N];
            for (j, &c) in cl.cells.iter().enumerate() {
                line[j] = cand[c];
            }
            let Some(union) = dp.union_memo(&line[..n], cl.allowed) else {
                return false;
            };
            for (j, &c) in cl.cells.iter().enumerate() {
                if union[j] != cand[c] {
                    cand[c] = union[j];
                    touch(c, &mut lines, &mut clues);
                }
            }
        })
    }
}

thread_local! {
    static LINE_DP: RefCell<LineDp> = RefCell::new(LineDp::default());
}

/// `f` with this thread's line DP, whose tables are allocated once (not while it is lent out:
/// `f` must not propagate).
pub(crate) fn with_line_dp<R>(f: impl FnOnce(&mut LineDp) -> R) -> R {
    LINE_DP.with(|dp| f(&mut dp.borrow_mut()))
}

/// The fillings of one line seen from one end, by dynamic programming over (heights used so
/// far, buildings seen so far): the position is the number of heights used, and the tallest so
/// far is the largest of them, so the pair decides what the rest of the line can still show.
/// Each pair's answer (can the rest be filled to show an allowed count?) is kept, stamped with
/// the call it belongs to, so one call looks at each pair once.
#[derive(Default)]
pub(crate) struct LineDp {
    stamp: u32,
    /// Each pair's answer: the call's stamp, shifted left once, with bit 0 set when the rest of
    /// the line can be filled (one word a pair: its stamp and answer on one cache line).
    state: Vec<u32>,
    n: usize,
    cand: [u16; MAX_N],
    allowed: u16,
    /// For each count k, the least count allowed from k up (`NONE` when there is none).
    allowed_from: [u8; 16],
    union: [u16; MAX_N],
    /// `union_both`: for each set T of heights below n (bit d of T at bit d − 1), bit b when the
    /// last |T| cells, seen from the far end, can hold T and show b buildings.
    reach: Vec<u16>,
    /// `union_both`'s two clues: the one at the end it fills from, and the other.
    near: u32,
    far: u32,
    /// `union_memo`'s answers by (size, allowed counts, candidates).
    memo: rustc_hash::FxHashMap<[u16; MAX_N + 2], Option<[u16; MAX_N]>>,
}

impl LineDp {
    /// The heights each cell (nearest the clue first) takes in some filling of the line with
    /// distinct heights from `cand` that shows a count in `allowed`, or None when none does.
    pub fn union(&mut self, cand: &[u16], allowed: u16) -> Option<[u16; MAX_N]> {
        self.fresh(cand);
        self.allowed = allowed;
        let mut least = NONE;
        for k in (0..16).rev() {
            if allowed >> k & 1 == 1 {
                least = k as u8;
            }
            self.allowed_from[k] = least;
        }
        self.go(0, 0, 0, 0).then_some(self.union)
    }

    /// A new call on the line `cand`: every pair's answer forgotten (a new stamp).
    fn fresh(&mut self, cand: &[u16]) {
        let n = cand.len();
        let size = 16usize << n;
        if self.state.len() < size {
            self.state = vec![0; size];
            self.stamp = 0;
        }
        self.stamp += 1;
        if self.stamp == 1 << 31 {
            self.state.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.n = n;
        self.cand[..n].copy_from_slice(cand);
        self.union = [0; MAX_N];
    }

    /// `union`, remembered: the generator propagates its puzzle again from the start for every
    /// clue it tries, and asks the same lines again and again. The memo is per thread and is
    /// emptied when it holds 16,384 lines (about 1 MB).
    pub fn union_memo(&mut self, cand: &[u16], allowed: u16) -> Option<[u16; MAX_N]> {
        let mut key = [0u16; MAX_N + 2];
        key[0] = cand.len() as u16;
        key[1] = allowed;
        key[2..2 + cand.len()].copy_from_slice(cand);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let answer = self.union(cand, allowed);
        if self.memo.len() >= 1 << 14 {
            self.memo.clear();
        }
        self.memo.insert(key, answer);
        answer
    }

    /// Whether the line can be completed from `pos` cells filled with heights `used`, `seen`
    /// buildings seen; each height that completes it is added to `union`. A pair already
    /// answered in this call is looked up before the call to it is made (half the pairs met).
    /// `top` is the tallest height used (0 for none).
    fn go(&mut self, used: u16, pos: usize, seen: u32, top: u32) -> bool {
        let n = self.n;
        // Cells left after this one.
        let left = (n - pos - 1) as u32;
        let allowed = self.allowed as u32;
        let mut ok = false;
        let mut m = self.cand[pos] & !used;
        while m != 0 {
            let d = m.trailing_zeros();
            m &= m - 1;
            let now = seen + (d > top) as u32;
            let tallest = d.max(top);
            // Bounds on what the rest can add: at least one more (the tallest, N) unless it is
            // up; at most one per height above the tallest (none of them is used yet) and one
            // per cell left.
            let most = now + (n as u32 - tallest).min(left);
            let least = now + (tallest < n as u32) as u32;
            // An allowed count between them (`least` is at most n + 1).
            if self.allowed_from[least as usize] as u32 > most {
                continue;
            }
            let next = used | 1 << d;
            let fits = if left == 0 {
                allowed >> now & 1 == 1
            } else {
                match self.answered(next, now) {
                    Some(fits) => fits,
                    None => self.go(next, pos + 1, now, tallest),
                }
            };
            if fits {
                self.union[pos] |= 1 << d;
                ok = true;
            }
        }
        self.answer(used, seen, ok)
    }

    /// A pair's place in `state`: heights `used` (bit d for height d, no bit 0) and `seen`.
    fn key(used: u16, seen: u32) -> usize {
        (used as usize >> 1) << 4 | seen as usize
    }

    /// The pair's answer, when this call has given one.
    fn answered(&self, used: u16, seen: u32) -> Option<bool> {
        let s = self.state[Self::key(used, seen)];
        (s >> 1 == self.stamp).then_some(s & 1 == 1)
    }

    /// Record the pair's answer for this call, and return it.
    fn answer(&mut self, used: u16, seen: u32, ok: bool) -> bool {
        self.state[Self::key(used, seen)] = self.stamp << 1 | ok as u32;
        ok
    }

    /// `union` with a clue at each end (`front` and `back`, both given). The tallest building, n,
    /// splits a filling: the front sees the records before it and n, the back the records after
    /// it and n. So a pass from the front fills the cells up to n's, and takes n in a cell when
    /// the cells after it can hold exactly the heights left and show `back` − 1 (`reach`, worked
    /// out first from the back); a pass from the back does the same for the cells after n. (It
    /// replaced a walk through every filling the front clue allows, a fifth of a 9×9 hard run.)
    fn union_both(&mut self, cand: &[u16], front: u8, back: u8) -> Option<[u16; MAX_N]> {
        let n = cand.len();
        let mut rev = [0u16; MAX_N];
        for j in 0..n {
            rev[j] = cand[n - 1 - j];
        }
        let ahead = self.split_pass(cand, &rev[..n], front as u32, back as u32);
        let behind = self.split_pass(&rev[..n], cand, back as u32, front as u32);
        let mut union = [0u16; MAX_N];
        for j in 0..n {
            union[j] = ahead[j] | behind[n - 1 - j];
        }
        union[..n].iter().all(|&u| u != 0).then_some(union)
    }

    /// From the end of `cand` whose clue is `near` (`other`: the line from the far end, whose
    /// clue is `far`): the heights each cell up to n's takes in a filling that shows both.
    fn split_pass(&mut self, cand: &[u16], other: &[u16], near: u32, far: u32) -> [u16; MAX_N] {
        let n = cand.len();
        let below_n = ((1u32 << n) - 2) as u16;
        self.reach.clear();
        self.reach.resize(1 << (n - 1), 0);
        self.reach[0] = 1;
        // Sets in increasing order: each after every set it grows from.
        for t in 0..1usize << (n - 1) {
            let seen = self.reach[t];
            let used = (t << 1) as u16;
            let k = used.count_ones() as usize;
            if seen == 0 || k == n - 1 {
                continue;
            }
            let top = if used == 0 { 0 } else { high(used) };
            let mut m = other[k] & below_n & !used;
            while m != 0 {
                let d = m.trailing_zeros();
                m &= m - 1;
                self.reach[(used | 1 << d) as usize >> 1] |= if d > top { seen << 1 } else { seen };
            }
        }
        self.fresh(cand);
        (self.near, self.far) = (near, far);
        self.split_go(0, 0, 0, 0);
        self.union
    }

    /// `go` for `split_pass`: whether the cells from `pos` can be filled up to n's, n included,
    /// so that both clues can be shown, `used` (below n) and `seen` as in `go`.
    fn split_go(&mut self, used: u16, pos: usize, seen: u32, top: u32) -> bool {
        let n = self.n;
        let below_n = ((1u32 << n) - 2) as u16;
        let mut ok = false;
        let mut m = self.cand[pos] & !used;
        while m != 0 {
            let d = m.trailing_zeros();
            m &= m - 1;
            if d as usize == n {
                // n here: this end sees one more; the cells after it hold the heights left.
                if seen + 1 == self.near && self.reach[(below_n & !used) as usize >> 1] >> (self.far - 1) & 1 == 1 {
                    self.union[pos] |= 1 << d;
                    ok = true;
                }
                continue;
            }
            // n is still to come, in a later cell: before it this end sees at most one record
            // per height above the tallest (but n) and one per cell left before n's.
            if pos + 2 > n {
                continue;
            }
            let now = seen + (d > top) as u32;
            let tallest = d.max(top);
            let most = now + 1 + (n as u32 - 1 - tallest).min((n - pos - 2) as u32);
            if now + 1 > self.near || most < self.near {
                continue;
            }
            let next = used | 1 << d;
            let fits = match self.answered(next, now) {
                Some(fits) => fits,
                None => self.split_go(next, pos + 1, now, tallest),
            };
            if fits {
                self.union[pos] |= 1 << d;
                ok = true;
            }
        }
        self.answer(used, seen, ok)
    }
}

/// The heights each cell of a line (the cells' candidates `cand`, nearest the first clue first)
/// takes in some filling with distinct heights that shows `front` from its start and `back` from
/// its end (0: no clue), or None when none does. Both clues at once: `LineDp::union_both`.
pub(crate) fn line_union(cand: &[u16], front: u8, back: u8) -> Option<[u16; MAX_N]> {
    let n = cand.len();
    let all = ((1u32 << (n + 1)) - 2) as u16;
    let allow = |c: u8| if c == 0 { all } else { 1u16 << c };
    with_line_dp(|dp| {
        if back == 0 {
            return dp.union(cand, allow(front));
        }
        if front == 0 {
            let rev: Vec<u16> = cand.iter().rev().copied().collect();
            let u = dp.union(&rev, allow(back))?;
            let mut out = [0u16; MAX_N];
            for j in 0..n {
                out[j] = u[n - 1 - j];
            }
            return Some(out);
        }
        dp.union_both(cand, front, back)
    })
}

/// Count the solutions up to `limit`, within `budget` search nodes.
pub fn count_within(p: &Skyscrapers, limit: usize, budget: u64) -> Count {
    let board = Board::new(p);
    let cand = board.start(&p.givens);
    count_from(&board, cand, limit, budget)
}

pub fn count_solutions(p: &Skyscrapers, limit: usize) -> Count {
    count_within(p, limit, SOLVE_BUDGET)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seen;

    fn permutations(n: u8) -> Vec<Vec<u8>> {
        let mut out = vec![vec![]];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|p: Vec<u8>| {
                    (1..=n).filter(|d| !p.contains(d)).map(|d| [p.clone(), vec![d]].concat()).collect::<Vec<_>>()
                })
                .collect();
        }
        out
    }

    #[test]
    fn line_unions_match_brute_force() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        for n in [4u8, 5, 6, 7] {
            let perms = permutations(n);
            for _ in 0..300 {
                let cand: Vec<u16> = (0..n).map(|_| rng.gen_range(1u16..1 << n) << 1).collect();
                let (front, back) = (rng.gen_range(0..=n), rng.gen_range(0..=n));
                let mut want = [0u16; MAX_N];
                let mut any = false;
                for p in &perms {
                    let fits = p.iter().enumerate().all(|(j, &d)| cand[j] >> d & 1 == 1)
                        && (front == 0 || seen(p.iter().copied()) == front)
                        && (back == 0 || seen(p.iter().rev().copied()) == back);
                    if fits {
                        any = true;
                        for (j, &d) in p.iter().enumerate() {
                            want[j] |= 1 << d;
                        }
                    }
                }
                let got = line_union(&cand, front, back);
                assert_eq!(got, any.then_some(want), "n {n}, {cand:?}, front {front}, back {back}");
            }
        }
    }

    #[test]
    fn counts_towers_with_clues() {
        // No clue: 576 Latin squares of order 4.
        let empty = Skyscrapers { size: 4, clues: vec![0; 16], givens: vec![0; 16] };
        assert_eq!(count_within(&empty, 1000, u64::MAX).count, 576);
        // Seen 4 from the left of row 0: the row is 1 2 3 4, 24 squares.
        let mut rising = empty.clone();
        rising.clues[8] = 4;
        let c = count_within(&rising, 1000, u64::MAX);
        assert_eq!(c.count, 24);
        assert_eq!(c.first.unwrap()[..4], [1, 2, 3, 4]);
        // Seen 4 from both ends: none.
        rising.clues[12] = 4;
        assert_eq!(count_within(&rising, 10, u64::MAX).count, 0);
    }
}
