//! A Sudoku position as a person solving with pencil marks sees it: placed digits and the
//! candidates left in every empty cell, kept both per cell and per digit.
//!
//! Invariants: an empty cell's candidates never contain a digit placed in one of its peers
//! once `place` has run; `digit_cells[d]` is exactly the set of empty cells whose candidates
//! hold `d`. The position knows the solution only to audit soundness (`unsound` counts steps
//! that contradicted it) and for the trial level's last-resort guess.

use super::geometry::{Cells, PEERS};
use crate::common::DigitSet;

#[derive(Clone)]
pub struct Position {
    pub value: [u8; 81],
    pub cand: [DigitSet; 81],
    /// `digit_cells[d]` for d in 1..=9 (index 0 unused).
    pub digit_cells: [Cells; 10],
    pub empty: Cells,
    pub solution: [u8; 81],
    /// Steps applied that removed a solution digit or placed a wrong one (must stay 0).
    pub unsound: u32,
}

/// One move of the rater: place a digit, or remove some digits from some cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Place { cell: u8, digit: u8 },
    Remove { cells: Cells, digits: DigitSet },
}

impl Position {
    pub fn new(puzzle: &[u8; 81], solution: &[u8; 81]) -> Position {
        let mut p = Position {
            value: [0; 81],
            cand: [DigitSet::full(9); 81],
            digit_cells: [Cells(!0u128 >> 47); 10],
            empty: Cells(!0u128 >> 47),
            solution: *solution,
            unsound: 0,
        };
        p.digit_cells[0] = Cells::EMPTY;
        for (cell, &d) in puzzle.iter().enumerate() {
            if d != 0 {
                p.place(cell, d);
            }
        }
        p.unsound = 0;
        p
    }

    pub fn place(&mut self, cell: usize, digit: u8) {
        if self.solution[cell] != digit {
            self.unsound += 1;
        }
        self.value[cell] = digit;
        for d in self.cand[cell].iter() {
            self.digit_cells[d as usize] = self.digit_cells[d as usize].minus(Cells::one(cell));
        }
        self.cand[cell] = DigitSet::EMPTY;
        self.empty = self.empty.minus(Cells::one(cell));
        let hit = self.digit_cells[digit as usize].and(PEERS[cell]);
        for p in hit.iter() {
            self.cand[p].remove(digit);
        }
        self.digit_cells[digit as usize] = self.digit_cells[digit as usize].minus(hit);
    }

    pub fn remove(&mut self, cells: Cells, digits: DigitSet) {
        for d in digits.iter() {
            let hit = self.digit_cells[d as usize].and(cells);
            for c in hit.iter() {
                if self.solution[c] == d {
                    self.unsound += 1;
                }
                self.cand[c].remove(d);
            }
            self.digit_cells[d as usize] = self.digit_cells[d as usize].minus(hit);
        }
    }

    /// Would this removal take away at least one candidate?
    pub fn removes_any(&self, cells: Cells, digits: DigitSet) -> bool {
        digits.iter().any(|d| !self.digit_cells[d as usize].and(cells).is_empty())
    }

    pub fn apply(&mut self, step: &Step) {
        match *step {
            Step::Place { cell, digit } => self.place(cell as usize, digit),
            Step::Remove { cells, digits } => self.remove(cells, digits),
        }
    }
}
