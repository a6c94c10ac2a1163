//! The canonical key of a family puzzle (`--exclude`, column `canonical`): the smallest
//! encoding over the symmetries of the square (rotations, reflections, transposition) that map
//! the board onto itself (regions onto regions, the diagonals onto the diagonals), with digits
//! relabelled by first appearance where relabelling keeps the puzzle (not on killer boards,
//! whose sums name digits), hashed to 128 bits.
//!
//! Cut scope: row and column swaps within bands and stacks and band and stack swaps are not
//! applied (classic 9×9 does apply them, in `super::super::canonical`); two family puzzles that
//! differ only by those are not recognised as the same.

use super::shape::Shape;
use crate::common::canon::KeyHasher;

/// Old cell (r, c) → new cell, for the 8 symmetries of the n×n square.
fn map(k: usize, m: usize, r: usize, c: usize) -> (usize, usize) {
    match k {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (m - r, c),
        6 => (c, r),
        _ => (m - c, m - r),
    }
}

/// Region ids renumbered 0, 1, 2, … in order of first appearance in reading order.
fn first_appearance(ids: &[u8], n: usize) -> Vec<u8> {
    let mut number = vec![u8::MAX; n];
    let mut next = 0;
    ids.iter()
        .map(|&id| {
            if number[id as usize] == u8::MAX {
                number[id as usize] = next;
                next += 1;
            }
            number[id as usize]
        })
        .collect()
}

/// Whether symmetry `k` maps the board onto itself: the regions moved, renumbered by first
/// appearance, are `own` (the board's regions renumbered the same way). Diagonals map onto
/// diagonals under every symmetry of the square.
fn maps_onto_itself(shape: &Shape, k: usize, own: &[u8]) -> bool {
    let n = shape.n;
    let mut moved = vec![0u8; n * n];
    for c in 0..n * n {
        let (r, col) = map(k, n - 1, c / n, c % n);
        moved[r * n + col] = shape.regions[c];
    }
    first_appearance(&moved, n) == own
}

/// The canonical key; the solution is not needed.
pub fn canonical_key(shape: &Shape, givens: &[u8], _solution: &[u8]) -> u128 {
    let n = shape.n;
    let relabel = !shape.is_killer();
    let own = first_appearance(&shape.regions, n);
    let mut best: Option<Vec<u32>> = None;
    for k in 0..8 {
        if !maps_onto_itself(shape, k, &own) {
            continue;
        }
        let mut cells = vec![0u32; n * n];
        let mut cage_at = vec![u32::MAX; n * n];
        for c in 0..n * n {
            let (r, col) = map(k, n - 1, c / n, c % n);
            cells[r * n + col] = givens[c] as u32;
            let q = shape.cage_of[c];
            if q != u16::MAX {
                cage_at[r * n + col] = q as u32;
            }
        }
        if relabel {
            let mut label = vec![0u32; n + 1];
            let mut next = 1;
            for v in cells.iter_mut().filter(|v| **v != 0) {
                if label[*v as usize] == 0 {
                    label[*v as usize] = next;
                    next += 1;
                }
                *v = label[*v as usize];
            }
        }
        let mut enc = Vec::with_capacity(3 * n * n + 3);
        enc.extend([n as u32, shape.diagonals as u32, shape.boxes.is_some() as u32]);
        enc.extend(&cells);
        if shape.is_killer() {
            let mut number = vec![u32::MAX; shape.cages.len()];
            let mut next = 0;
            for &q in &cage_at {
                if q == u32::MAX {
                    enc.extend([u32::MAX, 0]);
                    continue;
                }
                if number[q as usize] == u32::MAX {
                    number[q as usize] = next;
                    next += 1;
                }
                enc.extend([number[q as usize], shape.cages[q as usize].sum]);
            }
        }
        // The regions as this symmetry shows them: the same as the board's own.
        enc.extend(own.iter().map(|&x| x as u32));
        if best.as_ref().is_none_or(|b| enc < *b) {
            best = Some(enc);
        }
    }
    let mut h = KeyHasher::default();
    for v in best.expect("the identity maps the board onto itself") {
        h.bytes(&v.to_le_bytes());
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotated_and_relabelled_puzzles_share_a_key() {
        let shape = Shape::new(4, Some((2, 2)), None, false, Vec::new()).unwrap();
        let g: Vec<u8> = vec![1, 0, 0, 4, 0, 4, 0, 0, 0, 0, 1, 0, 3, 0, 0, 0];
        // Rotated 180° and digits swapped 1↔2.
        let mut rot: Vec<u8> = g.iter().rev().copied().collect();
        for v in rot.iter_mut() {
            *v = match *v {
                1 => 2,
                2 => 1,
                x => x,
            };
        }
        assert_eq!(canonical_key(&shape, &g, &[]), canonical_key(&shape, &rot, &[]));
        let mut other = g.clone();
        other[1] = 2;
        assert_ne!(canonical_key(&shape, &g, &[]), canonical_key(&shape, &other, &[]));
    }
}
