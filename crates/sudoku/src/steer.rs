//! Steering levels (quota runs, `Kind::steer`): generation settings that shift the grade mix.
//! Measured over 3,000 candidates, seed 1 (`generate --count 3000 --symmetry S`), grades
//! easy/medium/hard/expert: rotate180 (level 0, the default) 144/1707/559/590; none 1/744/1142/1113;
//! rotate90 1388/1237/185/190. So level 1 (no symmetry: fewer clues) doubles hard and expert, and
//! level 2 (quarter-turn symmetry: clues go four at a time, more stay) makes easy ten times as
//! common. The run picks among them by what each has made so far (`generate`'s sink).

use super::generate::Symmetry;
use super::SudokuParams;

pub const LEVELS: u8 = 2;

/// The Sudoku family's further levels (`FamilyParams::keep`): givens go only while propagation
/// alone solves the puzzle and at least this share of the cells stays given. Measured on
/// 16×16 (100 candidates each, seed 1, easy/medium/hard/expert): keep 0 makes 0/6/94/0, 0.45
/// makes 36/36/28/0, 0.5 makes 99/0/1/0 (removing givens while the solution stays unique:
/// 0/0/3/197).
pub const KEEP: [f64; 4] = [0.0, 0.45, 0.55, 0.65];

pub fn steer(params: &SudokuParams, level: u8) -> SudokuParams {
    SudokuParams { symmetry: symmetry(params.symmetry, level) }
}

/// The givens' symmetry at steering level `level` (`configured` at level 0), for classic
/// Sudoku and the family's boards with givens alike.
pub fn symmetry(configured: Symmetry, level: u8) -> Symmetry {
    match level {
        1 => Symmetry::None,
        2 => Symmetry::Rotate90,
        _ => configured,
    }
}
