//! One move of the Sudoku rater, shared by the position it changes and the scan caches that
//! keep the first move each scan found.

use super::geometry::Cells;
use pf_core::common::DigitSet;

/// One move of the rater: place a digit, or remove some digits from some cells; `from` is the
/// pattern the removal rests on (solution paths).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Place { cell: u8, digit: u8 },
    Remove { cells: Cells, digits: DigitSet, from: Cells },
}
