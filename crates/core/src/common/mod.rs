//! What the puzzle kinds share: a typed set of digits and small helpers.
//!
//! Kept free of any one kind's rules so that Sudoku, KenKen and Kakuro can all build their
//! candidate grids from the same pieces.

pub mod bitset;
pub mod cage;
pub mod canon;
pub mod combos;
pub mod json;
pub mod latin;
pub mod latin_count;
pub mod latin_grid;

pub use bitset::DigitSet;
