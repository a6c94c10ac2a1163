//! The canonical key of a 9×9 Sudoku up to its symmetries (SPEC.md, `--exclude`): digit
//! relabelling, transposition, row swaps within a band, column swaps within a stack, band swaps
//! and stack swaps.
//!
//! A puzzle with one solution is canonicalised through the pair (solution, givens mask): the
//! canonical form is the lexicographically smallest transformed, relabelled solution, and among
//! the transformations that reach it (the grid's automorphisms, usually only one) the smallest
//! transformed mask. Two puzzles are the same up to symmetry exactly when their pairs are, so the
//! form is exact; the key is its 128-bit hash.
//!
//! The search: after relabelling, row 0 always reads 1…9, so the form is decided by row 1 first.
//! For each transposition, each row that becomes row 0 and each of the two rows of its band that
//! can follow it, and each of the 1,296 column orders that keep stacks (stack order × the order
//! inside each stack), row 1 is built digit by digit and dropped as soon as it exceeds the best
//! so far. The few survivors are completed greedily: row 2 is the band's last row, and each
//! further row is the smallest of the rows still allowed (rows are distinct in a solution, so
//! there are no ties) — which also orders the remaining bands.

use super::Grid;
use crate::common::canon::KeyHasher;
use std::sync::OnceLock;

/// The column orders that keep stacks: `order[new column] = old column`, with the inverse.
fn column_orders() -> &'static Vec<([u8; 9], [u8; 9])> {
    static ORDERS: OnceLock<Vec<([u8; 9], [u8; 9])>> = OnceLock::new();
    ORDERS.get_or_init(|| {
        let perms3: [[u8; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        let mut out = Vec::with_capacity(1296);
        for stacks in perms3 {
            for a in perms3 {
                for b in perms3 {
                    for c in perms3 {
                        let inner = [a, b, c];
                        let mut order = [0u8; 9];
                        for (s, &old_stack) in stacks.iter().enumerate() {
                            for k in 0..3 {
                                order[s * 3 + k] = old_stack * 3 + inner[s][k];
                            }
                        }
                        let mut inv = [0u8; 9];
                        for (new, &old) in order.iter().enumerate() {
                            inv[old as usize] = new as u8;
                        }
                        out.push((order, inv));
                    }
                }
            }
        }
        out
    })
}

fn transpose(g: &Grid) -> Grid {
    let mut t = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            t[c * 9 + r] = g[r * 9 + c];
        }
    }
    t
}

/// A transformation that reaches the smallest row 1: transposed or not, the old rows that
/// become rows 0 and 1, and the column order (index into `column_orders`).
#[derive(Clone, Copy)]
struct Start {
    t: usize,
    r0: usize,
    r1: usize,
    order: usize,
}

/// A row of digits 1-9 packed 4 bits each, first column most significant.
fn pack(row: impl Iterator<Item = u8>) -> u64 {
    row.fold(0u64, |v, d| (v << 4) | u64::from(d))
}

/// The starts with the smallest relabelled row 1.
fn starts(sols: &[Grid; 2]) -> Vec<Start> {
    let orders = column_orders();
    let (mut best, mut best2) = (u64::MAX, u64::MAX);
    let mut found = Vec::new();
    for (t, g) in sols.iter().enumerate() {
        for r0 in 0..9 {
            // where[d] = old column of digit d in row r0.
            let mut at = [0u8; 10];
            for c in 0..9 {
                at[g[r0 * 9 + c] as usize] = c as u8;
            }
            let band = r0 / 3 * 3;
            for r1 in (band..band + 3).filter(|&r| r != r0) {
                let r2 = 3 * band + 3 - r0 - r1;
                // p[j]: old column, in row r0, of row r1's digit at old column j.
                let p: [u8; 9] = std::array::from_fn(|j| at[g[r1 * 9 + j] as usize]);
                // Row 1 starts with label 4 at best (its first digit is in another stack of
                // row 0), reached exactly when new column 3 holds p[order[0]]: only those column
                // orders can be smallest. `column_orders` is laid out as stack order × inner
                // orders of the new stacks 0, 1, 2 (6 × 6 × 6 × 6), so whole blocks are skipped.
                for so in 0..6 {
                    for a in 0..6 {
                        let base = so * 216 + a * 36;
                        let j = orders[base].0[0] as usize;
                        if orders[base].0[3] / 3 != p[j] / 3 {
                            continue;
                        }
                        for b in 0..6 {
                            let block = base + b * 6;
                            if orders[block].0[3] != p[j] {
                                continue;
                            }
                            'orders: for oi in block..block + 6 {
                                let (order, inv) = &orders[oi];
                                let mut v = 0u64;
                                for c in 0..9 {
                                    // The new label of a digit is 1 + its new column in row 0.
                                    v = (v << 4) | u64::from(inv[p[order[c] as usize] as usize] + 1);
                                    if (v << (4 * (8 - c))) > best {
                                        continue 'orders;
                                    }
                                }
                                // Row 1 ties often (456789123 is common): row 2, the band's
                                // last row, decides most of them.
                                let v2 =
                                    pack((0..9).map(|c| inv[at[g[r2 * 9 + order[c] as usize] as usize] as usize] + 1));
                                if (v, v2) < (best, best2) {
                                    (best, best2) = (v, v2);
                                    found.clear();
                                }
                                if (v, v2) == (best, best2) {
                                    found.push(Start { t, r0, r1, order: oi });
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    found
}

/// The whole transformed grid of a start (rows packed) and its old row of each new row.
fn complete(g: &Grid, s: Start) -> ([u64; 9], [usize; 9]) {
    let (order, _) = &column_orders()[s.order];
    let mut label = [0u8; 10];
    for c in 0..9 {
        label[g[s.r0 * 9 + order[c] as usize] as usize] = c as u8 + 1;
    }
    let row = |r: usize| pack((0..9).map(|c| label[g[r * 9 + order[c] as usize] as usize]));
    let band = s.r0 / 3 * 3;
    let r2 = (band..band + 3).find(|&r| r != s.r0 && r != s.r1).expect("three rows a band");
    let mut rows = [s.r0, s.r1, r2, 0, 0, 0, 0, 0, 0];
    let mut used = [false; 9];
    for &r in &rows[..3] {
        used[r] = true;
    }
    for i in 3..9 {
        // Rows 3 and 6 open a band: any unused row; others: the unused rows of the open band.
        let open = rows[i / 3 * 3] / 3 * 3;
        let pick = (0..9)
            .filter(|&r| !used[r] && (i % 3 == 0 || r / 3 * 3 == open))
            .min_by_key(|&r| row(r))
            .expect("a row left");
        rows[i] = pick;
        used[pick] = true;
    }
    (rows.map(row), rows)
}

/// The canonical key of a puzzle `p` whose one solution is `s`.
pub fn canonical_key(p: &Grid, s: &Grid) -> u128 {
    let sols = [*s, transpose(s)];
    let masks = [*p, transpose(p)];
    let mut best: Option<([u64; 9], u128)> = None;
    for st in starts(&sols) {
        let (grid, rows) = complete(&sols[st.t], st);
        let (order, _) = &column_orders()[st.order];
        let mut mask = 0u128;
        for (nr, &r) in rows.iter().enumerate() {
            for c in 0..9 {
                mask = (mask << 1) | u128::from(masks[st.t][r * 9 + order[c] as usize] != 0);
            }
            let _ = nr;
        }
        if best.is_none_or(|(g, m)| (grid, mask) < (g, m)) {
            best = Some((grid, mask));
        }
    }
    let (grid, mask) = best.expect("a start");
    let mut h = KeyHasher::default();
    for r in grid {
        h.u64(r);
    }
    h.bytes(&mask.to_le_bytes());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::sudoku::Sudoku;
    use crate::kinds::Kind;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A random symmetry applied to a grid: (relabelling, transposition, row and column orders).
    struct Sym {
        relabel: [u8; 10],
        transpose: bool,
        rows: [usize; 9],
        cols: [usize; 9],
    }

    fn order(rng: &mut Xoshiro256PlusPlus) -> [usize; 9] {
        let mut bands = [0, 1, 2];
        bands.shuffle(rng);
        let mut out = [0; 9];
        for (b, &ob) in bands.iter().enumerate() {
            let mut inner = [0, 1, 2];
            inner.shuffle(rng);
            for k in 0..3 {
                out[b * 3 + k] = ob * 3 + inner[k];
            }
        }
        out
    }

    fn random_sym(rng: &mut Xoshiro256PlusPlus) -> Sym {
        let mut digits: Vec<u8> = (1..=9).collect();
        digits.shuffle(rng);
        let mut relabel = [0u8; 10];
        relabel[1..].copy_from_slice(&digits);
        Sym { relabel, transpose: rng.gen(), rows: order(rng), cols: order(rng) }
    }

    fn apply(sym: &Sym, g: &Grid) -> Grid {
        let g = if sym.transpose { transpose(g) } else { *g };
        std::array::from_fn(|i| sym.relabel[g[sym.rows[i / 9] * 9 + sym.cols[i % 9]] as usize])
    }

    fn puzzles(n: u64) -> Vec<(Grid, Grid)> {
        let params = crate::kinds::sudoku::SudokuParams::default();
        (0..n)
            .filter_map(|i| {
                let mut rng = crate::seed::candidate_rng(99, "sudoku", "test", i);
                let g = Sudoku::generate(&params, &mut rng).ok()?;
                Some((g.puzzle, g.solution))
            })
            .collect()
    }

    #[test]
    fn transformed_copies_share_the_key_and_other_puzzles_do_not() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let all = puzzles(60);
        let mut keys = std::collections::HashSet::new();
        for (p, s) in &all {
            let k = canonical_key(p, s);
            assert!(keys.insert(k), "two generated puzzles share a key");
            for _ in 0..5 {
                let sym = random_sym(&mut rng);
                let (tp, ts) = (apply(&sym, p), apply(&sym, s));
                assert_eq!(Sudoku::solve(&tp, 2).count, 1);
                assert_eq!(canonical_key(&tp, &ts), k);
            }
            // One given less (or changed): another puzzle.
            let i = p.iter().position(|&d| d != 0).unwrap();
            let mut fewer = *p;
            fewer[i] = 0;
            assert_ne!(canonical_key(&fewer, s), k);
        }
    }

    #[test]
    fn a_grid_with_automorphisms_keys_every_copy_alike() {
        // The most symmetric kind of grid: row r = the base row shifted by 3(r%3) + r/3.
        let g: Grid = std::array::from_fn(|i| {
            let (r, c) = (i / 9, i % 9);
            ((c + 3 * (r % 3) + r / 3) % 9 + 1) as u8
        });
        let mut mask = [0u8; 81];
        for i in (0..81).step_by(4) {
            mask[i] = g[i];
        }
        let k = canonical_key(&mask, &g);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..30 {
            let sym = random_sym(&mut rng);
            assert_eq!(canonical_key(&apply(&sym, &mask), &apply(&sym, &g)), k);
        }
        // The same grid with another mask is another puzzle.
        let mut other = mask;
        other[1] = g[1];
        assert_ne!(canonical_key(&other, &g), k);
    }

    #[test]
    fn fast_enough_for_the_hot_path() {
        let all = puzzles(40);
        let t = std::time::Instant::now();
        for (p, s) in &all {
            std::hint::black_box(canonical_key(p, s));
        }
        let per = t.elapsed().as_secs_f64() / all.len() as f64;
        eprintln!("sudoku canonical key: {:.1} µs per puzzle", per * 1e6);
        // A generous bound against a regression to brute force.
        assert!(per < 0.005, "{:.0} µs per key", per * 1e6);
    }
}
