//! A 128-bit hash of a canonical form, for `Kind::canonical`: two independent 64-bit FNV-1a
//! streams, each finished with SplitMix64 mixing. Not cryptographic; two different canonical
//! forms share a key with probability about 2^-128 per pair.

pub struct KeyHasher {
    a: u64,
    b: u64,
}

impl Default for KeyHasher {
    fn default() -> Self {
        KeyHasher { a: 0xcbf2_9ce4_8422_2325, b: 0x6c62_272e_07bb_0142 }
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl KeyHasher {
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        for &x in bytes {
            self.a = (self.a ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3);
            self.b = (self.b ^ u64::from(x)).wrapping_mul(0x0000_0100_0000_01b3 ^ 0x2_0000);
        }
        self
    }

    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    pub fn finish(&self) -> u128 {
        (u128::from(mix(self.a ^ 0x9e37_79b9_7f4a_7c15)) << 64) | u128::from(mix(self.b.rotate_left(29)))
    }
}

/// Old cell (r, c) → new cell under symmetry `k` (0 to 7) of the square whose last row and
/// column are `m`: 0 the identity, 1-3 the quarter turns, 4-7 the reflections.
pub fn square_symmetry(k: usize, m: usize, r: usize, c: usize) -> (usize, usize) {
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

/// A random order of `bands · size` lines that keeps each band of `size` lines together: the
/// bands shuffled, and the lines within each band (Sudoku's row and column symmetries).
/// `out[i]` is the old line that goes to line `i`.
pub fn band_preserving_order(bands: usize, size: usize, rng: &mut impl rand::Rng) -> Vec<usize> {
    use rand::seq::SliceRandom;
    let mut order: Vec<usize> = (0..bands).collect();
    order.shuffle(rng);
    let mut out = Vec::with_capacity(bands * size);
    for b in order {
        let mut lines: Vec<usize> = (0..size).collect();
        lines.shuffle(rng);
        out.extend(lines.into_iter().map(|l| b * size + l));
    }
    out
}
