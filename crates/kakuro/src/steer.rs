//! Steering levels (quota runs, `Kind::steer`): generation settings that shift the grade mix.
//! Measured over 600 candidates at 8×10, seed 1, grades easy/medium/hard/expert: level 0
//! (`white_share = 0.7`) 201/153/112/63; level 1 (`white_share = 0.78`: longer runs, fewer
//! accepted) 22/48/64/78; level 2 (`white_share = 0.62`) 349/119/72/38. (`symmetric = false`
//! changed little: 172/166/126/61.) The run picks among them by what each has made so far.

use super::KakuroParams;

pub const LEVELS: u8 = 2;

pub fn steer(params: &KakuroParams, level: u8) -> KakuroParams {
    let mut p = params.clone();
    match level {
        1 => p.white_share = 0.78,
        2 => p.white_share = 0.62,
        _ => {}
    }
    p
}
