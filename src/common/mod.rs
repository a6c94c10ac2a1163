//! What the puzzle kinds share: a typed set of digits and small helpers.
//!
//! Kept free of any one kind's rules so that Sudoku, KenKen and Kakuro can all build their
//! candidate grids from the same pieces.

pub mod bitset;
pub mod cage;
pub mod combos;
pub mod latin;

pub use bitset::DigitSet;

/// INTERIM (replaced by each kind's canonical form): a 128-bit hash of a puzzle's text.
pub fn interim_key(text: &str) -> u128 {
    let a = crate::seed::fnv1a(text.as_bytes());
    let b = crate::seed::fnv1a(format!("{text}#").as_bytes());
    (u128::from(a) << 64) | u128::from(b)
}
