//! Steering levels (quota runs, `Kind::steer`): generation settings that shift the grade mix.
//! Measured (`generate --kind kenken --size N --seed 1`, 1,500 candidates at 6×6, 300 at 9×9),
//! grades easy/medium/hard/expert:
//!
//! | level | settings | 6×6 | 9×9 | 9×9 time |
//! | --- | --- | --- | --- | --- |
//! | 0 | as configured | 1284/30/67/119 | 250/18/23/9 | 1× |
//! | 1 | `ops = "+-*"` (no ÷) | 1209/37/86/168 | 182/49/31/38 | 1.4× |
//! | 2 | larger cages (`cage_weights = [20, 35, 30, 15]`), no one-cell givens | 1197/32/98/173 | 187/23/50/40 | 4.7× |
//! | 3 | `prefer_demanding = 0.4` (fewer × and ÷ choices) | 1154/26/82/238 | 128/23/54/95 | 10× |
//!
//! The run picks among them by what each has made so far (`generate`'s sink).

use super::KenKenParams;

pub const LEVELS: u8 = 3;

pub fn steer(params: &KenKenParams, level: u8) -> KenKenParams {
    let mut p = params.clone();
    match level {
        1 => p.ops = "+-*".into(),
        2 => {
            p.cage_weights = vec![20.0, 35.0, 30.0, 15.0];
            p.one_cell_share = 0.0;
        }
        3 => p.prefer_demanding = 0.4,
        _ => {}
    }
    p
}
