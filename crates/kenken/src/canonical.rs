//! The canonical key of a KenKen up to the 8 symmetries of the square (rotations and
//! reflections; cage operations and targets kept, digits not relabelled): the smallest of the 8
//! images' encodings, hashed. An encoding lists the cells in row-major order, each as its cage's
//! number by first appearance, operation and target, so it does not depend on how the cages are
//! listed or their cells ordered.

use super::KenKen;
use pf_core::common::canon::KeyHasher;

/// The encoding of `p` seen through `map` (old cell → new cell).
fn encode(p: &KenKen, map: impl Fn(usize, usize) -> (usize, usize)) -> Vec<u32> {
    let n = p.size as usize;
    let mut cage_of = vec![usize::MAX; n * n];
    for (i, cage) in p.cages.iter().enumerate() {
        for &c in &cage.cells {
            let (r, col) = map(c as usize / n, c as usize % n);
            cage_of[r * n + col] = i;
        }
    }
    let mut number = vec![u32::MAX; p.cages.len()];
    let mut next = 0;
    let mut out = Vec::with_capacity(3 * n * n + 1);
    out.push(n as u32);
    for &i in &cage_of {
        if number[i] == u32::MAX {
            number[i] = next;
            next += 1;
        }
        out.extend([number[i], p.cages[i].op as u32, p.cages[i].target]);
    }
    out
}

/// The canonical key of a (valid) KenKen; the solution is not needed.
pub fn canonical_key(p: &KenKen) -> u128 {
    let m = p.size as usize - 1;
    type Map = fn(usize, usize, usize) -> (usize, usize);
    let maps: [Map; 8] = [
        |_, r, c| (r, c),
        |m, r, c| (c, m - r),
        |m, r, c| (m - r, m - c),
        |m, r, c| (m - c, r),
        |_, r, c| (c, r),
        |m, r, c| (m - c, m - r),
        |m, r, c| (r, m - c),
        |m, r, c| (m - r, c),
    ];
    let best = maps.iter().map(|f| encode(p, |r, c| f(m, r, c))).min().expect("8 images");
    let mut h = KeyHasher::default();
    for v in best {
        h.bytes(&v.to_le_bytes());
    }
    h.finish()
}

/// A copy of puzzle `p` and solution `s` under one of the square's 8 symmetries, drawn with
/// `rng` (the cages and the digits move with the cells).
pub fn symmetric(p: &KenKen, s: &[u8], rng: &mut impl rand::Rng) -> (KenKen, Vec<u8>) {
    let n = p.size as usize;
    let m = n - 1;
    let k = rng.gen_range(0..8);
    let to = |cell: usize| {
        let (r, c) = pf_core::common::canon::square_symmetry(k, m, cell / n, cell % n);
        r * n + c
    };
    let cages = p
        .cages
        .iter()
        .map(|g| crate::Cage {
            op: g.op,
            target: g.target,
            cells: g.cells.iter().map(|&c| to(c as usize) as u8).collect(),
        })
        .collect();
    let mut solution = vec![0u8; n * n];
    for (cell, &d) in s.iter().enumerate() {
        solution[to(cell)] = d;
    }
    (KenKen { size: p.size, cages }, solution)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{KenKenKind, KenKenParams};
    use pf_core::kind::Kind;

    fn rotate(p: &KenKen) -> KenKen {
        let n = p.size as usize;
        let mut q = p.clone();
        for cage in &mut q.cages {
            for c in &mut cage.cells {
                let (r, col) = (*c as usize / n, *c as usize % n);
                *c = (col * n + (n - 1 - r)) as u8;
            }
        }
        q.cages.reverse();
        q
    }

    fn mirror(p: &KenKen) -> KenKen {
        let n = p.size as usize;
        let mut q = p.clone();
        for cage in &mut q.cages {
            for c in &mut cage.cells {
                let (r, col) = (*c as usize / n, *c as usize % n);
                *c = (r * n + (n - 1 - col)) as u8;
            }
        }
        q
    }

    #[test]
    fn the_eight_images_share_the_key_and_other_puzzles_do_not() {
        let params = KenKenParams::default();
        let mut keys = std::collections::HashSet::new();
        for i in 0..40 {
            let mut rng = pf_core::seed::candidate_rng(5, "kenken", "test", i);
            let Ok(g) = KenKenKind::generate(&params, &mut rng) else { continue };
            let k = canonical_key(&g.puzzle);
            assert!(keys.insert(k), "two generated puzzles share a key");
            let mut q = g.puzzle.clone();
            for _ in 0..4 {
                q = rotate(&q);
                assert!(q.validate().is_ok());
                assert_eq!(canonical_key(&q), k);
                assert_eq!(canonical_key(&mirror(&q)), k);
            }
            let mut other = g.puzzle.clone();
            other.cages[0].target += 1;
            assert_ne!(canonical_key(&other), k);
        }
        assert!(keys.len() > 20);
    }
}
