//! The canonical key of a Kakuro up to transposition, the one board symmetry that keeps every
//! clue at the start of its run (rows become columns, down sums become right sums): the smaller
//! of the two encodings (size, then each cell row-major: white, or a block with its two sums),
//! hashed.

use super::{Cell, Kakuro};
use pf_core::common::canon::KeyHasher;

fn encode(p: &Kakuro, transposed: bool) -> Vec<u8> {
    let (rows, cols) = if transposed { (p.cols, p.rows) } else { (p.rows, p.cols) };
    let mut out = Vec::with_capacity(8 + 3 * rows * cols);
    out.extend((rows as u32).to_le_bytes());
    out.extend((cols as u32).to_le_bytes());
    for r in 0..rows {
        for c in 0..cols {
            let cell = if transposed { p.cells[c * p.cols + r] } else { p.cells[r * p.cols + c] };
            match cell {
                Cell::White => out.extend([0, 0, 0]),
                Cell::Block { down, right } if transposed => out.extend([1, right, down]),
                Cell::Block { down, right } => out.extend([1, down, right]),
            }
        }
    }
    out
}

/// The canonical key of a Kakuro; the solution is not needed.
pub fn canonical_key(p: &Kakuro) -> u128 {
    let best = encode(p, false).min(encode(p, true));
    KeyHasher::default().bytes(&best).finish()
}

/// A copy of puzzle `p` and solution `s` under the key's one symmetry, drawn with `rng`: as it
/// is, or transposed (across clues become down clues).
pub fn symmetric(p: &Kakuro, s: &crate::Grid, rng: &mut impl rand::Rng) -> (Kakuro, crate::Grid) {
    if !rng.gen::<bool>() {
        return (p.clone(), s.clone());
    }
    let (rows, cols) = (p.rows, p.cols);
    let mut cells = Vec::with_capacity(rows * cols);
    let mut digits = Vec::with_capacity(rows * cols);
    for c in 0..cols {
        for r in 0..rows {
            cells.push(match p.cells[r * cols + c] {
                crate::Cell::Block { down, right } => crate::Cell::Block { down: right, right: down },
                white => white,
            });
            digits.push(s.digits[r * cols + c]);
        }
    }
    (Kakuro { rows: cols, cols: rows, cells }, crate::Grid { cols: rows, digits })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{KakuroKind, KakuroParams};
    use pf_core::kind::Kind;

    fn transpose(p: &Kakuro) -> Kakuro {
        let cells = (0..p.cols)
            .flat_map(|c| (0..p.rows).map(move |r| (r, c)))
            .map(|(r, c)| match p.cells[r * p.cols + c] {
                Cell::Block { down, right } => Cell::Block { down: right, right: down },
                Cell::White => Cell::White,
            })
            .collect();
        Kakuro { rows: p.cols, cols: p.rows, cells }
    }

    #[test]
    fn the_transpose_shares_the_key_and_other_puzzles_do_not() {
        let params = KakuroParams::default();
        let mut keys = std::collections::HashSet::new();
        for i in 0..30 {
            let mut rng = pf_core::seed::candidate_rng(5, "kakuro", "test", i);
            let Ok(g) = KakuroKind::generate(&params, &mut rng) else { continue };
            let k = canonical_key(&g.puzzle);
            assert!(keys.insert(k), "two generated puzzles share a key");
            let t = transpose(&g.puzzle);
            assert_eq!(KakuroKind::solve(&t, 2).count, 1);
            assert_eq!(canonical_key(&t), k);
            assert_eq!(canonical_key(&transpose(&t)), k);
        }
        assert!(keys.len() > 10);
    }
}
