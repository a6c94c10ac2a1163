//! Naked and hidden singles to their fixpoint: the rater's level 1 without counting
//! situations. Steered generation asks whether the ladder with singles and one technique
//! finishes after every clue it removes; when singles alone fill the grid, so does that ladder
//! (it tries singles first and they never block each other), and otherwise it is asked only
//! about what they leave (`Kind::singles_fill`), about ten times faster than a whole rating.

use super::geometry::{HOUSE_MASK, PEERS};

/// The grid with naked and hidden singles applied until none is left (their fixpoint: singles
/// never block each other, so the order does not matter), or None when they meet a
/// contradiction. Candidates are kept as one 81-bit cell set per digit.
pub fn singles_fill(grid: &[u8; 81]) -> Option<[u8; 81]> {
    let mut out = *grid;
    const BOARD: u128 = (1 << 81) - 1;
    let mut cand = [BOARD; 10];
    let mut empty = BOARD;
    // Place d at c: c leaves every digit's set and the empty cells, d leaves c's peers.
    let place = |cand: &mut [u128; 10], empty: &mut u128, c: usize, d: usize| {
        let bit = 1u128 << c;
        for m in cand.iter_mut().skip(1) {
            *m &= !bit;
        }
        cand[d] &= !PEERS[c].0;
        *empty &= !bit;
    };
    let mut record = |c: usize, d: usize| out[c] = d as u8;
    for (c, &d) in grid.iter().enumerate() {
        if d != 0 {
            if cand[d as usize] >> c & 1 == 0 {
                return None;
            }
            place(&mut cand, &mut empty, c, d as usize);
        }
    }
    while empty != 0 {
        let before = empty;
        // Naked singles: cells with exactly one digit left (bit-sliced counting).
        let (mut ones, mut twos) = (0u128, 0u128);
        for m in &cand[1..] {
            twos |= ones & m;
            ones |= m;
        }
        if empty & !ones != 0 {
            return None;
        }
        let mut single = ones & !twos & empty;
        while single != 0 {
            let c = single.trailing_zeros() as usize;
            single &= single - 1;
            if let Some(d) = (1..10).find(|&d| cand[d] >> c & 1 == 1) {
                place(&mut cand, &mut empty, c, d);
                record(c, d);
            }
        }
        // Hidden singles: a digit with one place left in a house.
        for d in 1..10 {
            for h in HOUSE_MASK.iter() {
                let places = cand[d] & h.0;
                if places != 0 && places & (places - 1) == 0 {
                    let c = places.trailing_zeros() as usize;
                    place(&mut cand, &mut empty, c, d);
                    record(c, d);
                }
            }
        }
        if empty == before {
            break;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, Symmetry};
    use crate::techniques::Tech;
    use crate::Sudoku;
    use pf_core::kind::Kind;
    use pf_core::rate::{level_mask, Trace};
    use rand::SeedableRng;

    /// Whether singles alone fill the grid (a contradiction does not).
    fn singles_solve(grid: &[u8; 81]) -> bool {
        singles_fill(grid).is_some_and(|g| !g.contains(&0))
    }

    /// The same answer as the rater with level 1 alone, on puzzles dug to every depth; and the
    /// ladder with more techniques (all but trial) finishes the fixpoint exactly when it
    /// finishes the puzzle.
    #[test]
    fn agrees_with_the_ladder_of_singles() {
        let off = level_mask::<Tech>(|l| l > 1);
        let trial = level_mask::<Tech>(|l| l == 6);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..40 {
            let (puzzle, solution) = generate(Symmetry::None, &mut rng).unwrap();
            // From the full grid down to the puzzle, clue by clue.
            let mut g = solution;
            for c in (0..81).filter(|&c| puzzle[c] == 0) {
                g[c] = 0;
                let ladder = Sudoku::rate(&g, &solution, Some(&mut Trace { off, ..Trace::default() })).solved;
                let fast = singles_solve(&g);
                assert_eq!(fast, ladder, "{g:?}");
                let filled = singles_fill(&g).expect("a dug grid has no contradiction");
                let more = |p: &[u8; 81]| {
                    Sudoku::rate(p, &solution, Some(&mut Trace { off: trial, ..Trace::default() })).solved
                };
                assert_eq!(more(&g), more(&filled), "{g:?}");
                if fast {
                    yes += 1
                } else {
                    no += 1
                }
            }
        }
        assert!(yes > 1000 && no > 30, "{yes} {no}");
    }
}
