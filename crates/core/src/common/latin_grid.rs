//! The rater's position for the Latin-square kinds (Futoshiki, Skyscrapers): candidates as bit
//! sets (bit d for digit d), the cells placed, and the known solution every step is audited
//! against (`unsound`). Each kind's `Position` holds one (and derefs to it) and adds its clues'
//! techniques; what the kinds share is here once: placing and removing, the line techniques'
//! view (`latin`), the forcing chains' fixed point, and the parts of a step's `Effect` and text
//! that do not depend on the kind.

use super::latin::{line_name, LatinLines};
use super::latin_count::{self, Propagate};

/// Whether the ladder up to `level` solves `pos` (a Latin kind's position), and the cells it
/// leaves open: a generator's check of a level by the rater itself.
pub fn ladder_stall<P>(mut pos: P, level: u8) -> (bool, Vec<usize>)
where
    P: crate::rate::Solving + Clone + std::ops::Deref<Target = LatinGrid>,
{
    let off = crate::rate::level_mask::<P::Tech>(|l| l > level);
    crate::rate::rate_traced(&mut pos, Some(&mut crate::rate::Trace { off, ..Default::default() }));
    let open: Vec<usize> = (0..pos.placed.len()).filter(|&c| !pos.placed[c]).collect();
    (open.is_empty() && pos.unsound == 0, open)
}

/// `ladder_stall` from where the level-3 fixed point of the same rules stalls (`fixpoint`: no
/// contradiction, and its candidates), for a check at `level` 3 or above: the ladder's rules
/// include level 3's, each only removes candidates and fires in any order, so the ladder stalls
/// where it would from the start, without rating the steps of levels 1 to 3 on the way. A
/// fixed point that fills the grid answers without a position (`pos` is made only when needed).
pub fn ladder_from_fixpoint<P>(pos: impl FnOnce() -> P, fixpoint: (bool, Vec<u16>), level: u8) -> (bool, Vec<usize>)
where
    P: crate::rate::Solving + Clone + std::ops::DerefMut<Target = LatinGrid>,
{
    let (ok, cand) = fixpoint;
    if !ok || level < 3 {
        return ladder_stall(pos(), level);
    }
    if cand.iter().all(|m| m.count_ones() == 1) {
        return (true, Vec::new());
    }
    let mut pos = pos();
    pos.narrow_to(&cand);
    ladder_stall(pos, level)
}

#[derive(Clone)]
pub struct LatinGrid {
    pub n: usize,
    pub cand: Vec<u16>,
    pub placed: Vec<bool>,
    pub solution: Vec<u8>,
    /// Steps that removed a solution's digit or placed another: always 0 unless a technique is
    /// wrong.
    pub unsound: u32,
}

impl LatinGrid {
    /// Every digit open, then the givens (row-major, 0 blank) placed.
    pub fn new(n: usize, givens: &[u8], solution: &[u8]) -> LatinGrid {
        let mut g = LatinGrid {
            n,
            cand: vec![latin_count::full(n); n * n],
            placed: vec![false; n * n],
            solution: solution.to_vec(),
            unsound: 0,
        };
        for (c, &d) in givens.iter().enumerate() {
            if d != 0 {
                g.place(c, d);
            }
        }
        g
    }

    pub fn is_done(&self) -> bool {
        self.placed.iter().all(|&p| p)
    }

    /// Place `d` in `c`; it leaves the cell's row and column.
    pub fn place(&mut self, c: usize, d: u8) {
        if self.solution[c] != d {
            self.unsound += 1;
        }
        self.cand[c] = 1 << d;
        self.placed[c] = true;
        let (r, col) = (c / self.n, c % self.n);
        for i in 0..self.n {
            for p in [r * self.n + i, i * self.n + col] {
                if p != c {
                    self.cand[p] &= !(1 << d);
                }
            }
        }
    }

    /// Remove `digits` from the open `cells`.
    pub fn remove(&mut self, cells: &[usize], digits: u16) {
        for &c in cells {
            if !self.placed[c] && self.cand[c] & digits != 0 {
                if self.cand[c] & digits & (1 << self.solution[c]) != 0 {
                    self.unsound += 1;
                }
                self.cand[c] &= !digits;
            }
        }
    }

    /// Each open cell narrowed to `cand` (a fixed point of sound rules reached from this grid,
    /// so within it), a cell with one candidate left placed: a generator's ladder check starts
    /// where a cheaper fixed point of the same rules stalls.
    pub fn narrow_to(&mut self, cand: &[u16]) {
        for (c, &m) in cand.iter().enumerate() {
            if self.placed[c] {
                continue;
            }
            if m.count_ones() == 1 {
                self.place(c, m.trailing_zeros() as u8);
            } else {
                let out = self.cand[c] & !m;
                self.remove(&[c], out);
            }
        }
    }

    /// The open cells.
    pub fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.n * self.n).filter(|&c| !self.placed[c])
    }

    pub fn bivalue_cells(&self) -> Vec<usize> {
        self.empty_cells().filter(|&c| self.cand[c].count_ones() == 2).collect()
    }

    /// The position for the line techniques the core holds, over `lines` (rows, then columns).
    pub fn latin<'a>(&'a self, lines: &'a [Vec<usize>]) -> LatinLines<'a> {
        LatinLines { n: self.n, cand: &self.cand, placed: &self.placed, lines }
    }

    /// The candidates propagated by `rules` to their fixed point (None on a contradiction):
    /// computed once per scan of forcing chains or trial, for every assumption of it.
    pub fn fixpoint(&self, rules: &impl Propagate) -> Option<Vec<u16>> {
        let mut cand = self.cand.clone();
        rules.propagate(&mut cand).then_some(cand)
    }

    /// The candidates after assuming `d` in `c` from the fixed point `fix` and propagating by
    /// `rules`, or None when that fails.
    pub fn assume(&self, rules: &impl Propagate, fix: &Option<Vec<u16>>, c: usize, d: u8) -> Option<Vec<u16>> {
        let cand = fix.as_ref()?;
        if cand[c] >> d & 1 == 0 {
            return None;
        }
        latin_count::assume(rules, cand, c, d)
    }

    /// The (cell, digit) pairs removing `digits` from `cells` takes out (`Effect::remove`).
    pub fn removals(&self, cells: &[usize], digits: u16) -> Vec<(usize, u8)> {
        let n = self.n;
        cells
            .iter()
            .flat_map(|&c| (1..=n as u8).filter(move |&d| digits >> d & 1 == 1).map(move |d| (c, d)))
            .filter(|&(c, d)| !self.placed[c] && self.cand[c] >> d & 1 == 1)
            .collect()
    }

    /// A hidden single's pattern: the other cells of the line where `digit` has only `cell`
    /// left, and the line's name (just the cell when there is none).
    pub fn hidden_single_pattern(&self, lines: &[Vec<usize>], cell: usize, digit: u8) -> (Vec<usize>, Option<String>) {
        let only = |l: &Vec<usize>| {
            l.contains(&cell) && l.iter().filter(|&&o| !self.placed[o] && self.cand[o] >> digit & 1 == 1).count() == 1
        };
        match lines.iter().position(only) {
            Some(l) => (lines[l].iter().copied().filter(|&o| o != cell).collect(), Some(line_name(l, self.n))),
            None => (vec![cell], None),
        }
    }

    /// The name of the line holding every cell of `from`, if any.
    pub fn line_holding(&self, lines: &[Vec<usize>], from: &[usize]) -> Option<String> {
        if from.is_empty() {
            return None;
        }
        lines.iter().position(|l| from.iter().all(|c| l.contains(c))).map(|l| line_name(l, self.n))
    }

    /// `r2c3=4`.
    pub fn describe_place(&self, cell: usize, digit: u8) -> String {
        format!("r{}c{}={digit}", cell / self.n + 1, cell % self.n + 1)
    }

    /// `remove {12} from r1c1 r1c2`.
    pub fn describe_remove(&self, cells: &[usize], digits: u16) -> String {
        let name = |c: usize| format!("r{}c{}", c / self.n + 1, c % self.n + 1);
        let ds: Vec<String> = (1..=self.n).filter(|d| digits >> d & 1 == 1).map(|d| d.to_string()).collect();
        format!("remove {{{}}} from {}", ds.join(""), cells.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" "))
    }
}
