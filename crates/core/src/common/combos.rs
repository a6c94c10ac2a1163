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

/// Visit, in lexicographic order, the k-subsets (k <= 4) of `0..masks.len()` whose masks'
/// union has at most k bits, with that union. A prefix whose union already has more than k
/// bits is not extended, so subsets that cannot be naked or hidden subsets or fish cost
/// nothing each (the raters count every k-subset as a situation in closed form).
pub(crate) fn tight_unions(masks: &[u32], k: usize, mut f: impl FnMut(&[usize], u32)) {
    fn walk(
        masks: &[u32],
        k: usize,
        at: &mut [usize; 4],
        depth: usize,
        start: usize,
        union: u32,
        f: &mut impl FnMut(&[usize], u32),
    ) {
        let n = masks.len();
        for i in start..=n - (k - depth) {
            let u = union | masks[i];
            if u.count_ones() as usize > k {
                continue;
            }
            at[depth] = i;
            if depth + 1 == k {
                f(&at[..k], u);
            } else {
                walk(masks, k, at, depth + 1, i + 1, u, f);
            }
        }
    }
    assert!(k <= 4, "subsets of at most 4");
    if k == 0 || k > masks.len() {
        return;
    }
    walk(masks, k, &mut [0; 4], 0, 0, 0, &mut f)
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

    #[test]
    fn tight_unions_visit_exactly_the_small_unions_in_order() {
        let mut seed = 7u64;
        for _ in 0..300 {
            let n = (seed % 10) as usize;
            let masks: Vec<u32> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (seed >> 40) as u32 & 0x3fe
                })
                .collect();
            for k in 1..=4 {
                let mut want = Vec::new();
                combos(n, k, |ix| {
                    let u = ix.iter().fold(0, |a, &i| a | masks[i]);
                    if u.count_ones() as usize <= k {
                        want.push((ix.to_vec(), u));
                    }
                });
                let mut got = Vec::new();
                tight_unions(&masks, k, |ix, u| got.push((ix.to_vec(), u)));
                assert_eq!(got, want, "{masks:?} k={k}");
            }
        }
    }
}
