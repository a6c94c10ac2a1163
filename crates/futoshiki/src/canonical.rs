//! The canonical key of a Futoshiki up to its symmetries: the square's 8 (rotations and
//! reflections; the marks turn with the cells) and the digits reversed (d → N+1−d, every mark
//! flipped), 16 in all. The key hashes the smallest of the 16 images' encodings: the size, then
//! per cell in row-major order its given and the marks to its right and below (0 none, 1 it is
//! smaller, 2 larger), so it does not depend on the order the marks are listed in.

use super::{Futoshiki, Grid};
use pf_core::common::canon::{square_symmetry, KeyHasher};

/// `p` under square symmetry `k`, digits reversed when `reverse`.
fn image(p: &Futoshiki, k: usize, reverse: bool) -> Futoshiki {
    let n = p.size as usize;
    let m = n - 1;
    let to = |c: usize| {
        let (r, col) = square_symmetry(k, m, c / n, c % n);
        r * n + col
    };
    let mut givens = vec![0u8; n * n];
    for c in 0..n * n {
        let d = p.givens[c];
        givens[to(c)] = if reverse && d != 0 { n as u8 + 1 - d } else { d };
    }
    let less = p
        .less
        .iter()
        .map(|&(a, b)| {
            let (a, b) = (to(a as usize) as u8, to(b as usize) as u8);
            if reverse {
                (b, a)
            } else {
                (a, b)
            }
        })
        .collect();
    Futoshiki { size: p.size, givens, less }
}

/// The encoding of `image(p, k, reverse)` into `out` (`1 + 3 n²` bytes), made without the
/// image: the size, then per cell its given and the marks to its right and below.
fn encode_image(p: &Futoshiki, k: usize, reverse: bool, out: &mut [u8]) {
    let n = p.size as usize;
    let m = n - 1;
    let to = |c: usize| {
        let (r, col) = square_symmetry(k, m, c / n, c % n);
        r * n + col
    };
    out.fill(0);
    out[0] = p.size;
    for (c, &d) in p.givens.iter().enumerate() {
        out[1 + 3 * to(c)] = if reverse && d != 0 { n as u8 + 1 - d } else { d };
    }
    for &(a, b) in &p.less {
        let (a, b) = (to(a as usize), to(b as usize));
        let (a, b) = if reverse { (b, a) } else { (a, b) };
        // The mark sits with the upper or left cell of the pair: slot 1 right, 2 below.
        let (first, slot, first_smaller) =
            if a < b { (a, if b == a + 1 { 1 } else { 2 }, true) } else { (b, if a == b + 1 { 1 } else { 2 }, false) };
        out[1 + 3 * first + slot] = if first_smaller { 1 } else { 2 };
    }
}

/// The canonical key of a (valid) Futoshiki; the solution is not needed. (Each image encoded
/// in place: building the 16 images and their encodings was 48 allocations a key, and the key
/// a fifteenth of an easy 6×6 run.)
pub fn canonical_key(p: &Futoshiki) -> u128 {
    let len = 1 + 3 * p.givens.len();
    let (mut best, mut image) = (vec![0u8; len], vec![0u8; len]);
    encode_image(p, 0, false, &mut best);
    for i in 1..16 {
        encode_image(p, i % 8, i >= 8, &mut image);
        if image < best {
            std::mem::swap(&mut image, &mut best);
        }
    }
    let mut h = KeyHasher::default();
    h.bytes(&best);
    h.finish()
}

/// A copy of puzzle `p` and solution `s` under one of its 16 symmetries, drawn with `rng`.
pub fn symmetric(p: &Futoshiki, s: &Grid, rng: &mut impl rand::Rng) -> (Futoshiki, Grid) {
    let (k, reverse) = (rng.gen_range(0..8), rng.gen_bool(0.5));
    let q = image(p, k, reverse);
    let sol = Futoshiki { size: p.size, givens: s.clone(), less: Vec::new() };
    (q, image(&sol, k, reverse).givens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// The encoding as it was first written: of the image itself.
    fn encode(p: &Futoshiki) -> Vec<u8> {
        let n = p.size as usize;
        let mut out = vec![0u8; 1 + 3 * n * n];
        out[0] = p.size;
        for c in 0..n * n {
            out[1 + 3 * c] = p.givens[c];
        }
        for &(a, b) in &p.less {
            let (a, b) = (a as usize, b as usize);
            let (first, slot, first_smaller) = if a < b {
                (a, if b == a + 1 { 1 } else { 2 }, true)
            } else {
                (b, if a == b + 1 { 1 } else { 2 }, false)
            };
            out[1 + 3 * first + slot] = if first_smaller { 1 } else { 2 };
        }
        out
    }

    #[test]
    fn an_image_encoded_in_place_is_the_image_encoded() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for i in 0..40 {
            let params = crate::FutoshikiParams { size: 4 + (i % 6) as u8, ..Default::default() };
            let (p, _) = crate::generate::generate(&params, &mut rng).unwrap();
            let mut out = vec![0u8; 1 + 3 * p.givens.len()];
            for k in 0..16 {
                encode_image(&p, k % 8, k >= 8, &mut out);
                assert_eq!(out, encode(&image(&p, k % 8, k >= 8)), "puzzle {i}, image {k}");
            }
        }
    }

    #[test]
    fn images_share_the_key_and_a_changed_mark_does_not() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let params = crate::FutoshikiParams { size: 5, ..Default::default() };
        let (p, s) = crate::generate::generate(&params, &mut rng).unwrap();
        let key = canonical_key(&p);
        for k in 0..8 {
            for reverse in [false, true] {
                let q = image(&p, k, reverse);
                q.validate().unwrap();
                assert_eq!(canonical_key(&q), key, "symmetry {k}, reversed {reverse}");
            }
        }
        let (q, t) = symmetric(&p, &s, &mut rng);
        let f = crate::solve::count_solutions(&q, 2);
        assert_eq!((f.count, f.first), (1, Some(t)));
        let mut flipped = p.clone();
        let (a, b) = flipped.less[0];
        flipped.less[0] = (b, a);
        assert_ne!(canonical_key(&flipped), key);
    }
}
