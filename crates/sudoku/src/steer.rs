//! Steering levels (quota runs, `Kind::steer`): generation settings that shift the grade mix.
//! Measured over 3,000 candidates, seed 1 (`generate --count 3000 --symmetry S`), grades
//! easy/medium/hard/expert: rotate180 (level 0, the default) 144/1707/559/590; none 1/744/1142/1113;
//! rotate90 1388/1237/185/190. So level 1 (no symmetry: fewer clues) doubles hard and expert, and
//! level 2 (quarter-turn symmetry: clues go four at a time, more stay) makes easy ten times as
//! common. The run picks among them by what each has made so far (`generate`'s sink).

use super::generate::Symmetry;
use super::SudokuParams;

pub const LEVELS: u8 = 2;

/// The Sudoku family's further levels (`FamilyParams::keep`, `keep_share`): givens go only
/// while propagation alone solves the puzzle and at least a share of the cells stays given: no
/// share, or the size's turning share `turning(n)` moved by these offsets.
pub const KEEP: [Option<f64>; 4] = [None, Some(-0.04), Some(0.0), Some(0.04)];

/// The share of givens at which puzzles that propagation alone solves turn from medium to easy
/// on n symbols (about as many of each): 0.32 + 0.18 ln(n/8). Fitted on the share where easy and
/// medium cross, 40 candidates a share (`generate --box RxC`, seed 7, shares 0.2 to 0.7): 6×6
/// about 0.29, 8×8 0.32, 10×10 0.40, 12×12 0.41, 15×15 0.43, 16×16 0.45, 20×20 0.49, 25×25
/// 0.52; jigsaw 9 and X 9 0.29. The change is steep on large boards: 25×25 at shares 0.50 to
/// 0.54 made 2/3/35/0, 9/5/26/0, 17/9/14/0, 32/2/6/0 and 39/0/1/0 (easy/medium/hard/expert), so
/// the levels sit below the turn (hard and medium), at it, and above it (easy).
pub fn turning(n: usize) -> f64 {
    0.32 + 0.18 * (n as f64 / 8.0).ln()
}

/// The least share of givens at keep level `k` (an index into `KEEP`) on n symbols.
pub fn keep_share(n: usize, k: usize) -> f64 {
    KEEP[k].map_or(0.0, |offset| (turning(n) + offset).clamp(0.0, 1.0))
}

/// The levels of a killer without givens (`FamilyParams::without_givens`), which has no givens
/// to steer by: its cage layout, as weights of cage sizes 1, 2, 3, … (`[generate] cage_sizes`).
/// Small cages hold fewer digit sets, so their sums say more and the puzzle is easier. 9×9,
/// 200 candidates each, seed 1 (easy/medium/hard/expert; the killer tables refitted with the
/// exact digit sets of `cage_combination`): the default [0, 4, 4, 2, 1] makes 0/1/27/172,
/// [0, 8, 2] 4/62/109/25, [0, 10, 1] 13/77/99/11, pairs alone [0, 1] 200/0/0/0.
pub const CAGES: [&[u32]; 3] = [&[0, 1], &[0, 10, 1], &[0, 8, 2]];

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The turn moves up with the board's size, and each keep level keeps more than the one
    /// before at every size.
    #[test]
    fn keep_shares_grow_with_the_level_and_the_turn_with_the_size() {
        assert!((4..25).all(|n| turning(n) < turning(n + 1)));
        assert!((turning(8) - 0.32).abs() < 1e-9 && (turning(25) - 0.525).abs() < 0.01);
        for n in 4..=25 {
            let shares: Vec<f64> = (0..KEEP.len()).map(|k| keep_share(n, k)).collect();
            assert_eq!(shares[0], 0.0);
            assert!(shares.windows(2).all(|w| w[0] < w[1]), "{n}: {shares:?}");
            assert!(shares.iter().all(|s| (0.0..1.0).contains(s)), "{n}: {shares:?}");
        }
    }
}
