//! Steering levels (quota runs, `Kind::steer`): level L generates with `max_level` L, clues
//! removed only while the techniques up to ladder level L solve the puzzle (givens added first
//! until they do), as Tatham's Unequal makes its levels. Level 0 is the configured generator
//! (minimal puzzles, mostly hard and expert). The run picks among them by what each has made so
//! far (`generate`'s sink).

use super::FutoshikiParams;

pub const LEVELS: u8 = 4;

pub fn steer(params: &FutoshikiParams, level: u8) -> FutoshikiParams {
    let mut p = params.clone();
    if level > 0 {
        p.max_level = level.min(LEVELS);
    }
    p
}
