//! Steering levels (quota runs, `Kind::steer`): level L generates with `max_level` L, clues
//! removed only while the techniques up to ladder level L solve the puzzle (givens added first
//! until they do), as Tatham's Unequal makes its levels. Level 0 is the configured generator
//! (minimal puzzles, mostly expert). The run picks among them by what each has made so
//! far (`generate`'s sink). `max_level` 5 makes more hard puzzles than 3 and 4 at 6x6 (68 % against
//! 31 % and 36 %) but costs 2.3 times as much as 3 at 9x9, where 3 makes hard puzzles already (53 of
//! 60); a quota order of 20 hard at 9x9 takes 24 s either way.

use super::FutoshikiParams;

pub const LEVELS: u8 = 4;

pub fn steer(params: &FutoshikiParams, level: u8) -> FutoshikiParams {
    let mut p = params.clone();
    if level > 0 {
        p.max_level = level.min(LEVELS);
    }
    p
}
