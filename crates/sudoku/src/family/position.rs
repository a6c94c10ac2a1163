//! A family position as a person solving with pencil marks sees it: placed digits and the
//! candidates of every empty cell, on any board of the family.
//!
//! Invariants, kept by `place` and `remove` (the only writers): a placed cell has no
//! candidates; an empty cell never holds a digit placed in one of its peers or cage mates
//! (`blockers`). The position knows the solution only to audit soundness (`unsound` counts
//! steps that contradicted it) and for the trial level's last-resort guess.

use super::shape::{Mask, Shape};
use std::sync::Arc;

#[derive(Clone)]
pub struct Position {
    pub shape: Arc<Shape>,
    pub value: Vec<u8>,
    /// Candidates of empty cells; 0 for placed cells.
    pub cand: Vec<Mask>,
    pub solution: Vec<u8>,
    /// Steps applied that removed a solution digit or placed a wrong one (must stay 0).
    pub unsound: u32,
    pub empty: usize,
    /// Per cell: the cells that cannot share its digit (peers and cage mates).
    pub blockers: Arc<Vec<Vec<u16>>>,
    /// Killer boards: the 45 rule's tables (single houses, groups), fixed by the board.
    pub rule45: Option<Arc<[Vec<super::shape::Rule45>; 2]>>,
    /// Killer boards: the digit sets of each cage (looked up once, not at every look).
    pub cage_sets: Option<Arc<Vec<Arc<Vec<super::shape::Mask>>>>>,
    /// Killer boards: the houses each cage meets and which of them each cell lies in (fixed by
    /// the board).
    pub cage_touch: Option<Arc<Vec<CageTouch>>>,
    /// Killer boards: per cage, (digits every set still possible holds, digits some holds,
    /// digits placed, how many sets are still possible), for the position as it stands:
    /// computed once per look at the ladder's level (`cage_combination` and `cage_house` share
    /// it), dropped at every change.
    pub sets_left: Option<Vec<(Mask, Mask, Mask, u32)>>,
    /// The empty cells as a bit set, on boards of up to 128 cells (else 0).
    pub open_bits: u128,
}

/// The houses a cage's cells lie in, without repeats, and per cell the bit set of those it
/// lies in (bit i: `houses[i]`).
#[derive(Clone, Debug)]
pub struct CageTouch {
    pub houses: Vec<u16>,
    pub cells: Vec<(usize, u64)>,
}

impl CageTouch {
    fn new(shape: &Shape, cells: &[u16]) -> CageTouch {
        let mut houses: Vec<u16> = cells.iter().flat_map(|&c| shape.cell_houses[c as usize].iter().copied()).collect();
        houses.sort_unstable();
        houses.dedup();
        assert!(houses.len() <= 64, "a cage meets at most 64 houses");
        let cells = cells
            .iter()
            .map(|&c| {
                let slots = shape.cell_houses[c as usize]
                    .iter()
                    .fold(0u64, |m, h| m | 1 << houses.binary_search(h).expect("a house of the cage"));
                (c as usize, slots)
            })
            .collect();
        CageTouch { houses, cells }
    }
}

/// One move of the rater: place a digit, or remove digits from cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Place {
        cell: u16,
        digit: u8,
    },
    /// (cell, digits to remove), only cells that lose something; then the cells the removal
    /// rests on (solution paths).
    Remove(Vec<(u16, Mask)>, Vec<u16>),
}

/// Peers and cage mates of every cell.
pub fn blockers(shape: &Shape) -> Vec<Vec<u16>> {
    (0..shape.cells())
        .map(|c| {
            let mut b = shape.peers[c].clone();
            if let Some(cage) = shape.cages.get(shape.cage_of[c] as usize) {
                b.extend(cage.cells.iter().copied().filter(|&o| o as usize != c));
                b.sort_unstable();
                b.dedup();
            }
            b
        })
        .collect()
}

impl Position {
    pub fn new(shape: Arc<Shape>, givens: &[u8], solution: &[u8]) -> Position {
        let cells = shape.cells();
        let all = super::shape::full(shape.n);
        let blockers = Arc::new(blockers(&shape));
        let rule45 = shape.is_killer().then(|| shape.rule45());
        let cage_sets = shape.is_killer().then(|| {
            Arc::new(shape.cages.iter().map(|q| super::solve::cage_sets(shape.n, q.cells.len(), q.sum)).collect())
        });
        let cage_touch =
            shape.is_killer().then(|| Arc::new(shape.cages.iter().map(|q| CageTouch::new(&shape, &q.cells)).collect()));
        let mut p = Position {
            shape,
            value: vec![0; cells],
            cand: vec![all; cells],
            solution: solution.to_vec(),
            unsound: 0,
            empty: cells,
            blockers,
            rule45,
            cage_sets,
            cage_touch,
            sets_left: None,
            open_bits: if cells <= 128 { (0..cells).fold(0u128, |m, c| m | 1 << c) } else { 0 },
        };
        for (c, &d) in givens.iter().enumerate() {
            if d != 0 {
                p.place(c, d);
            }
        }
        p.unsound = 0;
        p
    }

    pub fn is_solved(&self) -> bool {
        self.empty == 0
    }

    pub fn place(&mut self, cell: usize, digit: u8) {
        self.sets_left = None;
        if self.solution[cell] != digit {
            self.unsound += 1;
        }
        if self.value[cell] == 0 {
            self.empty -= 1;
            if cell < 128 {
                self.open_bits &= !(1u128 << cell);
            }
        }
        self.value[cell] = digit;
        self.cand[cell] = 0;
        let bit = 1 << digit;
        for &b in self.blockers[cell].iter() {
            self.cand[b as usize] &= !bit;
        }
    }

    pub fn remove(&mut self, cell: usize, digits: Mask) {
        self.sets_left = None;
        if digits & self.cand[cell] & 1 << self.solution[cell] != 0 {
            self.unsound += 1;
        }
        self.cand[cell] &= !digits;
    }

    pub fn apply(&mut self, step: &Step) {
        match step {
            Step::Place { cell, digit } => self.place(*cell as usize, *digit),
            Step::Remove(list, _) => {
                for &(c, m) in list {
                    self.remove(c as usize, m);
                }
            }
        }
    }

    /// The removal of `digits` from those of `cells` that hold any, if some do, resting on the
    /// cells `from` lists.
    pub fn removal<I: IntoIterator<Item = usize>>(
        &self,
        cells: impl IntoIterator<Item = usize>,
        digits: Mask,
        from: impl FnOnce() -> I,
    ) -> Option<Step> {
        let list: Vec<(u16, Mask)> = cells
            .into_iter()
            .filter(|&c| self.cand[c] & digits != 0)
            .map(|c| (c as u16, self.cand[c] & digits))
            .collect();
        (!list.is_empty()).then(|| Step::Remove(list, from().into_iter().map(|c| c as u16).collect()))
    }

    /// Candidates as the counter reads them: placed cells hold their digit alone.
    pub fn counter_cands(&self) -> Vec<Mask> {
        self.cand.iter().zip(&self.value).map(|(&m, &v)| if v != 0 { 1 << v } else { m }).collect()
    }

    /// Whether two cells see each other (share a house or a cage).
    pub fn sees(&self, a: usize, b: usize) -> bool {
        self.blockers[a].binary_search(&(b as u16)).is_ok()
    }
}
