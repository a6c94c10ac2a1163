//! Random Latin squares that can be any Latin square: the Jacobson–Matthews Markov chain.
//!
//! A shuffled cyclic square reaches only one isotopy class; the chain's moves (±1 on the eight
//! corners of a sub-cube of the incidence cube, passing through "improper" squares with one -1
//! entry) connect all Latin squares of a size, and its stationary distribution is uniform.
//! We start from the cyclic square and run `N³` moves (the usual mixing budget), stopping on a
//! proper square.

use rand::Rng;

/// An N×N Latin square, row-major, symbols 1..=N.
pub fn random_latin_square(n: usize, rng: &mut impl Rng) -> Vec<u8> {
    assert!((1..=16).contains(&n));
    // cube[(r * n + c) * n + s] ∈ {-1, 0, 1}: 1 when cell (r, c) holds symbol s.
    let idx = |r: usize, c: usize, s: usize| (r * n + c) * n + s;
    let mut cube = vec![0i8; n * n * n];
    for r in 0..n {
        for c in 0..n {
            cube[idx(r, c, (r + c) % n)] = 1;
        }
    }
    if n <= 1 {
        return vec![1; n * n];
    }
    let mut improper: Option<(usize, usize, usize)> = None;
    let moves = n * n * n;
    let mut done = 0;
    while done < moves || improper.is_some() {
        done += 1;
        let (r, c, s, r2, c2, s2);
        match improper {
            None => {
                // A zero of the cube, and the 1s in its row, column and symbol lines.
                let (rr, cc, ss) = loop {
                    let (a, b, d) = (rng.gen_range(0..n), rng.gen_range(0..n), rng.gen_range(0..n));
                    if cube[idx(a, b, d)] == 0 {
                        break (a, b, d);
                    }
                };
                (r, c, s) = (rr, cc, ss);
                r2 = (0..n).find(|&x| cube[idx(x, c, s)] == 1).expect("proper square");
                c2 = (0..n).find(|&x| cube[idx(r, x, s)] == 1).expect("proper square");
                s2 = (0..n).find(|&x| cube[idx(r, c, x)] == 1).expect("proper square");
            }
            Some((rr, cc, ss)) => {
                // From the -1 entry: each of its lines holds two 1s; pick one of each at random.
                (r, c, s) = (rr, cc, ss);
                let pick = |cands: Vec<usize>, rng: &mut dyn rand::RngCore| cands[(rng.next_u32() % 2) as usize];
                r2 = pick((0..n).filter(|&x| cube[idx(x, c, s)] == 1).collect(), rng);
                c2 = pick((0..n).filter(|&x| cube[idx(r, x, s)] == 1).collect(), rng);
                s2 = pick((0..n).filter(|&x| cube[idx(r, c, x)] == 1).collect(), rng);
            }
        }
        cube[idx(r, c, s)] += 1;
        cube[idx(r, c2, s2)] += 1;
        cube[idx(r2, c, s2)] += 1;
        cube[idx(r2, c2, s)] += 1;
        cube[idx(r, c, s2)] -= 1;
        cube[idx(r, c2, s)] -= 1;
        cube[idx(r2, c, s)] -= 1;
        cube[idx(r2, c2, s2)] -= 1;
        improper = (cube[idx(r2, c2, s2)] == -1).then_some((r2, c2, s2));
    }
    let mut square = vec![0u8; n * n];
    for r in 0..n {
        for c in 0..n {
            square[r * n + c] = (0..n).find(|&s| cube[idx(r, c, s)] == 1).expect("proper square") as u8 + 1;
        }
    }
    square
}

/// True when every row and column of `sq` (N×N, symbols 1..=N) holds each symbol once.
pub fn is_latin(sq: &[u8], n: usize) -> bool {
    (0..n).all(|i| {
        let (mut row, mut col) = (0u32, 0u32);
        for j in 0..n {
            row |= 1 << sq[i * n + j];
            col |= 1 << sq[j * n + i];
        }
        let full = (1u32 << (n + 1)) - 2;
        row == full && col == full
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn squares_are_latin_and_varied() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        for n in 1..=12 {
            for _ in 0..5 {
                assert!(is_latin(&random_latin_square(n, &mut rng), n), "n={n}");
            }
        }
        // Every Latin square of order 4 has a 2×2 subsquare; and the chain varies first rows.
        let has_subsquare = |sq: &[u8]| {
            (0..4).any(|r1| {
                (r1 + 1..4).any(|r2| {
                    (0..4).any(|c1| {
                        (c1 + 1..4).any(|c2| sq[r1 * 4 + c1] == sq[r2 * 4 + c2] && sq[r1 * 4 + c2] == sq[r2 * 4 + c1])
                    })
                })
            })
        };
        let samples: Vec<Vec<u8>> = (0..200).map(|_| random_latin_square(4, &mut rng)).collect();
        assert!(samples.iter().all(|s| has_subsquare(s)));
        let rows: std::collections::HashSet<Vec<u8>> = samples.iter().map(|s| s[..4].to_vec()).collect();
        assert!(rows.len() > 12, "{}", rows.len());
    }

    #[test]
    fn reaches_more_than_the_cyclic_class_at_size_5() {
        // Every square isotopic to the cyclic 5×5 one has no 2×2 intercalate; the other isotopy
        // class of order 5 has some. A chain confined to the cyclic class would never show one.
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let intercalates = |sq: &[u8]| {
            let mut k = 0;
            for r1 in 0..5 {
                for r2 in r1 + 1..5 {
                    for c1 in 0..5 {
                        for c2 in c1 + 1..5 {
                            k += (sq[r1 * 5 + c1] == sq[r2 * 5 + c2] && sq[r1 * 5 + c2] == sq[r2 * 5 + c1]) as u32;
                        }
                    }
                }
            }
            k
        };
        let counts: Vec<u32> = (0..300).map(|_| intercalates(&random_latin_square(5, &mut rng))).collect();
        assert!(counts.contains(&0) && counts.iter().any(|&k| k > 0), "{counts:?}");
    }
}
