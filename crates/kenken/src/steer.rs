//! Steering levels (quota runs, `Kind::steer`, and the settings `[target] levels` aims
//! variants with): generation settings that shift the grade mix, one aimed at each grade.
//! Measured (1,000 candidates at 9×9, 3,000 at 6×6, one core): the grade mix per 1,000 and the
//! milliseconds per puzzle of each grade (candidates of every grade counted):
//!
//! | level | settings | 9×9 mix | 9×9 ms | 6×6 mix | 6×6 ms |
//! | --- | --- | --- | --- | --- | --- |
//! | 0 | as configured | 239/350/278/133 | 2.8/1.9/2.4/5.0 | 571/267/83/80 | 0.22/0.47/1.5/1.6 |
//! | 1 | `one_cell_share = 0.25` (more givens) | 601/286/95/18 | 0.78/1.7/5.0/26 | 781/165/29/25 | 0.15/0.72/4.1/4.8 |
//! | 2 | smaller cages (`cage_weights = [70, 25, 5]`) | 346/355/240/59 | 1.4/1.4/2.1/8.5 | 632/233/81/53 | 0.20/0.56/1.6/2.4 |
//! | 3 | hardened until the uniqueness count takes 2 nodes at 6×6 (`aim = 2`) | 0/28/582/390 | –/38/1.8/2.7 | 48/303/410/239 | 4.4/0.71/0.52/0.90 |
//! | 4 | the same to 4 nodes (`aim = 4`) | 0/8/342/650 | –/171/4.0/2.1 | 62/188/378/372 | 4.0/1.3/0.67/0.68 |
//!
//! Hardening (`generate::harden`) gives cages less demanding operations and merges them with
//! their neighbours while the puzzle stays unique, until the count's search nodes, which grow
//! with the grade, reach the aim: the cheap estimate, checked by the rater. The levels it
//! replaced (no ÷; larger cages; `prefer_demanding = 0.4`) made hard and expert 9×9 puzzles in
//! 2.2/3.2, 3.8/3.2 and 6.1/3.5 ms.
//!
//! A quota run picks among them by what each has made so far (`generate`'s sink). Each size's
//! measured mix per level (`[target.size.N] mix` in config/kenken.toml, `scripts/kenken-mix.sh`)
//! lets a count run plan its variants over all five levels and a quota order start from it.

use super::KenKenParams;

pub const LEVELS: u8 = 4;

pub fn steer(params: &KenKenParams, level: u8) -> KenKenParams {
    let mut p = params.clone();
    match level {
        1 => p.one_cell_share = 0.25,
        2 => p.cage_weights = vec![70.0, 25.0, 5.0],
        3 => p.aim = 2,
        4 => p.aim = 4,
        _ => {}
    }
    p
}
