//! The Sudoku family: any box shape (n = R·C from 4 to 25), jigsaw regions, X diagonals and
//! killer cages, alone or combined. Classic 9×9 keeps its own fast path (`super`); everything
//! else is built here on one model (`shape::Shape`) with a general counter and rater.

pub mod shape;
pub mod solve;
pub mod generate;
pub mod solo_id;

use super::Symmetry;
use serde::{Deserialize, Serialize};

/// Generation parameters of the family (config `[generate]` of `config/sudoku-family.toml`,
/// flags `--box`, `--jigsaw --size`, `--diagonals`, `--killer`, `--givens`, `--symmetry`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FamilyParams {
    /// Box shape (rows, columns); None for jigsaw regions.
    pub boxes: Option<(usize, usize)>,
    /// Symbols of a jigsaw board (ignored with boxes).
    pub jigsaw_size: usize,
    pub diagonals: bool,
    pub killer: bool,
    /// Killer: also give digits (removed while unique), instead of none.
    pub givens: bool,
    pub symmetry: Symmetry,
    /// Killer: weights of cage sizes 1, 2, 3, …; the largest size is the list's length.
    pub cage_sizes: Vec<u32>,
    /// Killer: repairs of the cages before a candidate with two solutions is given up.
    pub max_repairs: u32,
}

impl FamilyParams {
    pub fn size(&self) -> usize {
        self.boxes.map_or(self.jigsaw_size, |(r, c)| r * c)
    }
}
