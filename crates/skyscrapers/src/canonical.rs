//! The canonical key of a Skyscrapers up to its symmetries: the square's 8 (rotations and
//! reflections), each clue moving with its line so that it still looks along the same cells in
//! the same order. (Reversing the heights is no symmetry: it changes what is seen.)
//!
//! The puzzle is written as an (N+2)×(N+2) bordered grid: the givens inside, each clue on the
//! border cell at the end of its line (top clue of column k at (0, k+1), bottom at (N+1, k+1),
//! left of row k at (k+1, 0), right at (k+1, N+1)), the corners 0. A symmetry of that square
//! turns the grid and carries every clue to the end of the line its line becomes. The key
//! hashes the smallest of the 8 images' encodings: the size, then the bordered grid row-major.

use super::{clue_place, Edge, Grid, Skyscrapers};
use pf_core::common::canon::{square_symmetry, KeyHasher};

/// The bordered cell (row, column) of clue `i` of an N×N board.
fn clue_spot(n: usize, i: usize) -> (usize, usize) {
    let (edge, k) = clue_place(n, i);
    match edge {
        Edge::Top => (0, k + 1),
        Edge::Bottom => (n + 1, k + 1),
        Edge::Left => (k + 1, 0),
        Edge::Right => (k + 1, n + 1),
    }
}

/// The (N+2)² bordered grid of `p`, row-major.
fn bordered(p: &Skyscrapers) -> Vec<u8> {
    let n = p.size as usize;
    let w = n + 2;
    let mut b = vec![0u8; w * w];
    for (i, &c) in p.clues.iter().enumerate() {
        let (r, col) = clue_spot(n, i);
        b[r * w + col] = c;
    }
    for (c, &d) in p.givens.iter().enumerate() {
        b[(c / n + 1) * w + c % n + 1] = d;
    }
    b
}

/// Bordered grid `b` (side `w`) under square symmetry `k`.
fn turned(b: &[u8], w: usize, k: usize) -> Vec<u8> {
    let mut out = vec![0u8; w * w];
    for (c, &x) in b.iter().enumerate() {
        let (r2, c2) = square_symmetry(k, w - 1, c / w, c % w);
        out[r2 * w + c2] = x;
    }
    out
}

/// `p` under square symmetry `k`.
fn image(p: &Skyscrapers, k: usize) -> Skyscrapers {
    let n = p.size as usize;
    let w = n + 2;
    let b = turned(&bordered(p), w, k);
    let clues = (0..4 * n)
        .map(|i| {
            let (r, c) = clue_spot(n, i);
            b[r * w + c]
        })
        .collect();
    let givens = (0..n * n).map(|c| b[(c / n + 1) * w + c % n + 1]).collect();
    Skyscrapers { size: p.size, clues, givens }
}

/// The canonical key of a (valid) Skyscrapers; the solution is not needed.
pub fn canonical_key(p: &Skyscrapers) -> u128 {
    let w = p.size as usize + 2;
    let b = bordered(p);
    let best = (0..8).map(|k| turned(&b, w, k)).min().expect("8 images");
    let mut h = KeyHasher::default();
    h.bytes(&[p.size]).bytes(&best);
    h.finish()
}

/// A copy of puzzle `p` and solution `s` under one of the square's 8 symmetries, drawn with `rng`.
pub fn symmetric(p: &Skyscrapers, s: &Grid, rng: &mut impl rand::Rng) -> (Skyscrapers, Grid) {
    let k = rng.gen_range(0..8);
    let sol = Skyscrapers { size: p.size, clues: vec![0; 4 * p.size as usize], givens: s.clone() };
    (image(p, k), image(&sol, k).givens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clues_of;
    use pf_core::common::latin::random_latin_square;
    use rand::{Rng, SeedableRng};

    /// A puzzle from a random Latin square: some of its clues and a few givens.
    fn puzzle(n: usize, rng: &mut impl Rng) -> (Skyscrapers, Grid) {
        let s = random_latin_square(n, rng);
        let clues = clues_of(n, &s).into_iter().map(|c| if rng.gen_bool(0.6) { c } else { 0 }).collect();
        let givens = s.iter().map(|&d| if rng.gen_bool(0.15) { d } else { 0 }).collect();
        (Skyscrapers { size: n as u8, clues, givens }, s)
    }

    #[test]
    fn images_share_the_key_and_keep_their_clues_true() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for n in [1, 4, 5, 6, 7, 9, 12] {
            let (p, s) = puzzle(n, &mut rng);
            let key = canonical_key(&p);
            let mut seen = std::collections::BTreeSet::new();
            for k in 0..8 {
                let q = image(&p, k);
                q.validate().unwrap();
                assert_eq!(canonical_key(&q), key, "size {n}, symmetry {k}");
                let sol = Skyscrapers { size: p.size, clues: vec![0; 4 * n], givens: s.clone() };
                let t = image(&sol, k).givens;
                assert!(pf_core::common::latin::is_latin(&t, n));
                let all = clues_of(n, &t);
                for i in 0..4 * n {
                    assert!(q.clues[i] == 0 || q.clues[i] == all[i], "size {n}, symmetry {k}, clue {i}");
                }
                // Every clue of the solution, moved, is the moved solution's clue.
                let full = Skyscrapers { size: p.size, clues: clues_of(n, &s), givens: vec![0; n * n] };
                assert_eq!(image(&full, k).clues, all, "size {n}, symmetry {k}");
                for c in 0..n * n {
                    assert!(q.givens[c] == 0 || q.givens[c] == t[c], "size {n}, symmetry {k}, cell {c}");
                }
                assert_eq!(q.clues.iter().filter(|&&c| c != 0).count(), p.clues.iter().filter(|&&c| c != 0).count());
                seen.insert(q.clues.clone());
            }
            if n >= 5 {
                assert_eq!(seen.len(), 8, "size {n}: the 8 symmetries are not 8 different images");
            }
            let (q, t) = symmetric(&p, &s, &mut rng);
            assert_eq!(canonical_key(&q), key);
            assert!(q.givens.iter().zip(&t).all(|(&g, &d)| g == 0 || g == d));
        }
    }

    #[test]
    fn a_changed_clue_or_given_changes_the_key() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(8);
        let (p, _) = puzzle(6, &mut rng);
        let key = canonical_key(&p);
        let mut q = p.clone();
        let i = q.clues.iter().position(|&c| c != 0).unwrap();
        q.clues[i] = 0;
        assert_ne!(canonical_key(&q), key);
        let mut q = p.clone();
        let c = q.givens.iter().position(|&d| d == 0).unwrap();
        q.givens[c] = 1 + (c as u8 % 6);
        assert_ne!(canonical_key(&q), key);
        // Reversed heights are another puzzle.
        let reversed =
            Skyscrapers { givens: p.givens.iter().map(|&d| if d == 0 { 0 } else { 7 - d }).collect(), ..p.clone() };
        if reversed.givens != p.givens {
            assert_ne!(canonical_key(&reversed), key);
        }
    }
}
