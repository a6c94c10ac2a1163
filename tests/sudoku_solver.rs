//! The fast band solver agrees with the simple reference solver.

use crate::common;
use common::{grid, read_data, simple_count};
use puzzle_factory::kinds::sudoku::solve::{count_solutions, has_other_solution};
use rand::{Rng, SeedableRng};

#[test]
fn agrees_with_the_reference_on_hard_and_minimal_puzzles() {
    let mut puzzles: Vec<[u8; 81]> = read_data("sudoku/top1465.txt").lines().take(200).map(grid).collect();
    puzzles.extend(read_data("sudoku/sudoku17_first10000.txt").lines().take(200).map(grid));
    for p in &puzzles {
        let f = count_solutions(p, 2);
        assert_eq!(f.count, 1);
        let s = f.first.unwrap();
        assert_eq!(simple_count(&s, 2), 1);
        assert!((0..81).all(|i| p[i] == 0 || p[i] == s[i]));
    }
}

#[test]
fn agrees_on_puzzles_with_clues_taken_away() {
    // Removing clues from unique puzzles gives many with 2+ solutions, and some with one.
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    let base: Vec<[u8; 81]> = read_data("sudoku/top1465.txt").lines().take(150).map(grid).collect();
    let (mut multi, mut unique) = (0, 0);
    for p in &base {
        let sol = count_solutions(p, 1).first.unwrap();
        let mut q = *p;
        let givens: Vec<usize> = (0..81).filter(|&i| q[i] != 0).collect();
        let c = givens[rng.gen_range(0..givens.len())];
        q[c] = 0;
        let want = simple_count(&q, 2);
        assert_eq!(count_solutions(&q, 2).count, want);
        assert_eq!(has_other_solution(&q, &[c as u8], &sol), want > 1);
        if want > 1 {
            multi += 1
        }
        // A clue added from the solution keeps the puzzle unique, and it cannot differ there.
        let mut more = *p;
        let blank = (0..81).filter(|&i| more[i] == 0).nth(rng.gen_range(0..20)).unwrap();
        more[blank] = sol[blank];
        assert_eq!(count_solutions(&more, 2).count, simple_count(&more, 2));
        if !has_other_solution(&more, &[blank as u8], &sol) {
            unique += 1;
        }
        // And a clash is never solvable.
        let mut bad = *p;
        let other = (0..81).find(|&i| bad[i] == 0 && i / 9 == c / 9).unwrap_or(c);
        bad[other] = sol[c];
        bad[c] = sol[c];
        if other != c {
            assert_eq!(count_solutions(&bad, 2).count, 0);
        }
    }
    assert!(multi > 100 && unique == base.len(), "{multi} {unique}");
}
