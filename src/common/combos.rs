//! Small combinatorics the raters share: visiting k-subsets and counting them.

/// Visit every k-subset (k <= 4) of `0..n` as sorted indices, in lexicographic order.
pub fn combos(n: usize, k: usize, mut f: impl FnMut(&[usize])) {
    assert!(k <= 4, "subsets of at most 4");
    if k == 0 || k > n {
        return;
    }
    let mut idx = [0usize, 1, 2, 3];
    loop {
        f(&idx[..k]);
        let mut i = k;
        while i > 0 && idx[i - 1] == n - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return;
        }
        idx[i - 1] += 1;
        for j in i..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// C(n, k) for the small n and k of a house, a line or a cell's peers.
pub fn binom(n: usize, k: usize) -> u32 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn counts_match() {
        for (n, k) in [(9, 2), (9, 3), (9, 4), (20, 3), (3, 3), (2, 3), (5, 1)] {
            let mut c = 0;
            combos(n, k, |_| c += 1);
            assert_eq!(c, binom(n, k), "C({n},{k})");
        }
        assert_eq!(binom(20, 3), 1140);
    }
}
