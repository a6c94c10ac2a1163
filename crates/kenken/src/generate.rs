//! KenKen generation: a random Latin square, cages grown from random free cells, operations
//! chosen from the most demanding that fits, then repair until the solution is unique.
//!
//! Cages: start at a random uncovered cell, draw a target size (1 with `one_cell_share`, else
//! from `cage_weights` over 2..=max), and grow into free neighbours, trying directions in the
//! configured order from a random cell of the cage. A cell left alone with nowhere to grow joins
//! its smallest neighbouring cage. Operations: ÷ (two cells, exact quotient), − (two cells), ×
//! (product within the cap), + (always); each that fits is taken with `prefer_demanding`, the
//! last one that fits always. Repair: when a second solution exists, a cage where the two differ
//! gets another operation that tells them apart, or loses that cell as a given (with the rest
//! re-clued); each repair is counted.

use super::solve::{count_within, MAX_CELLS};

/// Search nodes one uniqueness count of the repair loop may take; past it the candidate is
/// rejected as `undecided` (the rare candidate whose check would take seconds at 12×12).
const GENERATE_BUDGET: u64 = 5_000;
use super::{Cage, KenKen, KenKenParams};
use pf_core::common::cage::Op;
use pf_core::common::latin::random_latin_square;
use pf_core::kind::{Generated, Reject};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

const NONE: usize = usize::MAX;

fn neighbours(c: usize, n: usize, order: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let (r, col) = (c / n, c % n);
    order.iter().filter_map(move |&d| match d {
        b'r' if col + 1 < n => Some(c + 1),
        b'd' if r + 1 < n => Some(c + n),
        b'l' if col > 0 => Some(c - 1),
        b'u' if r > 0 => Some(c - n),
        _ => None,
    })
}

fn target_size(p: &KenKenParams, rng: &mut Xoshiro256PlusPlus) -> usize {
    if rng.gen::<f64>() < p.one_cell_share {
        return 1;
    }
    let max = p.max_cage().max(2);
    let weights: Vec<f64> = (2..=max).map(|s| p.cage_weights.get(s - 2).copied().unwrap_or(0.0)).collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return 2;
    }
    let mut x = rng.gen::<f64>() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i + 2;
        }
        x -= w;
    }
    max
}

/// Grow the cage layout: `cage_of[cell]` and the cells of each cage.
fn grow_cages(p: &KenKenParams, rng: &mut Xoshiro256PlusPlus) -> Vec<Vec<usize>> {
    let n = p.size as usize;
    let mut cage_of = vec![NONE; n * n];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    let mut free: Vec<usize> = (0..n * n).collect();
    let mut order: Vec<u8> = p.directions.bytes().collect();
    while !free.is_empty() {
        let start = free.swap_remove(rng.gen_range(0..free.len()));
        if cage_of[start] != NONE {
            continue;
        }
        let k = cages.len();
        let want = target_size(p, rng);
        let mut cells = vec![start];
        cage_of[start] = k;
        while cells.len() < want {
            if p.directions == "random" {
                order = b"rdlu".to_vec();
                order.shuffle(rng);
            }
            let mut tries: Vec<usize> = cells.clone();
            tries.shuffle(rng);
            let next = tries.iter().find_map(|&c| neighbours(c, n, &order).find(|&x| cage_of[x] == NONE));
            match next {
                Some(x) => {
                    cage_of[x] = k;
                    cells.push(x);
                }
                None => break,
            }
        }
        if cells.len() == 1 && want > 1 {
            // Nowhere to grow: join the smallest neighbouring cage.
            let best = neighbours(start, n, b"rdlu")
                .map(|x| cage_of[x])
                .filter(|&o| o != NONE)
                .min_by_key(|&o| cages[o].len());
            if let Some(o) = best {
                cage_of[start] = o;
                cages[o].push(start);
                continue;
            }
        }
        cages.push(cells);
    }
    for c in cages.iter_mut() {
        c.sort_unstable();
    }
    cages
}

/// The operations that fit these digits, most demanding first.
fn fitting(p: &KenKenParams, digits: &[u8]) -> Vec<(Op, u32)> {
    if digits.len() == 1 {
        return vec![(Op::Given, digits[0] as u32)];
    }
    let mut out = Vec::new();
    for (sym, op) in [('/', Op::Div), ('-', Op::Sub), ('*', Op::Mul), ('+', Op::Add)] {
        if !p.ops.contains(sym) {
            continue;
        }
        if let Some(v) = op.value(digits) {
            if op != Op::Mul || v <= p.product_cap {
                out.push((op, v));
            }
        }
    }
    if out.is_empty() {
        // Nothing fits within the cap (e.g. ops = "*"): the product, uncapped.
        out.push((Op::Mul, Op::Mul.value(digits).unwrap_or(0)));
    }
    out
}

fn choose_op(p: &KenKenParams, digits: &[u8], rng: &mut Xoshiro256PlusPlus) -> (Op, u32) {
    let options = fitting(p, digits);
    for (i, &o) in options.iter().enumerate() {
        if i + 1 == options.len() || rng.gen::<f64>() < p.prefer_demanding {
            return o;
        }
    }
    unreachable!("the last option is always taken")
}

fn digits_of(cells: &[u8], grid: &[u8]) -> Vec<u8> {
    cells.iter().map(|&c| grid[c as usize]).collect()
}

/// Split `cells` (after removing one) into connected parts.
fn components(cells: &[u8], n: usize) -> Vec<Vec<u8>> {
    let mut left: Vec<u8> = cells.to_vec();
    let mut parts = Vec::new();
    while let Some(first) = left.pop() {
        let mut part = vec![first];
        let mut i = 0;
        while i < part.len() {
            let c = part[i] as usize;
            let mut j = 0;
            while j < left.len() {
                let x = left[j] as usize;
                if side_by_side(c, x, n) {
                    part.push(left.swap_remove(j));
                } else {
                    j += 1;
                }
            }
            i += 1;
        }
        part.sort_unstable();
        parts.push(part);
    }
    parts
}

/// One repair where `solution` and `other` differ. Returns false when nothing can be done.
fn repair(puzzle: &mut KenKen, p: &KenKenParams, solution: &[u8], other: &[u8], rng: &mut Xoshiro256PlusPlus) -> bool {
    let n = puzzle.size as usize;
    let mut differ: Vec<usize> = (0..n * n).filter(|&c| solution[c] != other[c]).collect();
    differ.shuffle(rng);
    // First choice: another operation on a cage where they differ that tells them apart.
    for &c in &differ {
        let k = puzzle.cages.iter().position(|cg| cg.cells.contains(&(c as u8))).expect("covered");
        let cage = &puzzle.cages[k];
        let (mine, theirs) = (digits_of(&cage.cells, solution), digits_of(&cage.cells, other));
        if let Some(&(op, v)) =
            fitting(p, &mine).iter().find(|&&(op, v)| (op, v) != (cage.op, cage.target) && op.value(&theirs) != Some(v))
        {
            puzzle.cages[k].op = op;
            puzzle.cages[k].target = v;
            return true;
        }
    }
    // Else split a differing cell off as a given, re-clueing what is left of its cage.
    let Some(&c) =
        differ.iter().find(|&&c| puzzle.cages.iter().any(|cg| cg.cells.len() > 1 && cg.cells.contains(&(c as u8))))
    else {
        return false;
    };
    let k = puzzle.cages.iter().position(|cg| cg.cells.contains(&(c as u8))).expect("covered");
    let rest: Vec<u8> = puzzle.cages[k].cells.iter().copied().filter(|&x| x as usize != c).collect();
    puzzle.cages[k] = Cage { op: Op::Given, target: solution[c] as u32, cells: vec![c as u8] };
    for part in components(&rest, n) {
        let (op, target) = choose_op(p, &digits_of(&part, solution), rng);
        puzzle.cages.push(Cage { op, target, cells: part });
    }
    true
}

/// The search nodes `harden` aims at: `p.aim` at 6×6, growing as the size to the fourth (the
/// nodes a unique count takes grow so at equal grade: hard puzzles 4.6 at 6×6, 13 at 9×9;
/// expert 9.3 and 55), at least 2.
pub(crate) fn aim_nodes(p: &KenKenParams) -> u64 {
    ((p.aim as f64 * (p.size as f64 / 6.0).powi(4)).round() as u64).max(2)
}

/// Whether cells `a` and `b` of an n×n grid share a side.
fn side_by_side(a: usize, b: usize, n: usize) -> bool {
    (a / n == b / n && a.abs_diff(b) == 1) || a.abs_diff(b) == n
}

/// Whether two cages share a side.
fn adjacent(a: &[u8], b: &[u8], n: usize) -> bool {
    a.iter().any(|&x| b.iter().any(|&y| side_by_side(x as usize, y as usize, n)))
}

/// Make a unique puzzle harder while it stays unique, until its uniqueness count takes
/// `aim_nodes` search nodes (the cheap estimate of its grade: nodes grow with the grade, and
/// the count must run anyway; `nodes` is those of the count that proved the puzzle as given
/// unique): each step gives a random cage the next less demanding operation that fits, or
/// merges it with a neighbouring cage (a given included) within the largest cage size, and is
/// kept when the puzzle stays unique and its count takes no fewer nodes.
fn harden(
    puzzle: &mut KenKen,
    p: &KenKenParams,
    solution: &[u8],
    mut others_seen: Vec<Vec<u8>>,
    mut nodes: u64,
    rng: &mut Xoshiro256PlusPlus,
) {
    let n = puzzle.size as usize;
    let want = aim_nodes(p);
    let tries = 4 * n;
    // Other solutions met by the repairs and by earlier tries: a try that one of them still
    // solves has two solutions, and is undone without a count (the count would say the same).
    for _ in 0..tries {
        if nodes >= want {
            break;
        }
        let k = rng.gen_range(0..puzzle.cages.len());
        let cage = &puzzle.cages[k];
        let options = fitting(p, &digits_of(&cage.cells, solution));
        let here = options.iter().position(|&o| o == (cage.op, cage.target));
        // The try is made on the puzzle itself and undone when it is not kept (a copy of the
        // puzzle per try was most of the generator's allocations).
        let undo = match here {
            Some(i) if i + 1 < options.len() && rng.gen::<bool>() => {
                let was = (cage.op, cage.target);
                (puzzle.cages[k].op, puzzle.cages[k].target) = options[i + 1];
                Undo::Operation(was)
            }
            _ => {
                let max = p.max_cage().max(2);
                let others: Vec<usize> = (0..puzzle.cages.len())
                    .filter(|&j| {
                        j != k
                            && puzzle.cages[j].cells.len() + cage.cells.len() <= max
                            && adjacent(&cage.cells, &puzzle.cages[j].cells, n)
                    })
                    .collect();
                let Some(&j) = others.choose(rng) else { continue };
                let mut cells = cage.cells.clone();
                cells.extend(&puzzle.cages[j].cells);
                cells.sort_unstable();
                let (op, target) = choose_op(p, &digits_of(&cells, solution), rng);
                let was_k = std::mem::replace(&mut puzzle.cages[k], Cage { op, target, cells });
                let was_j = puzzle.cages.swap_remove(j);
                Undo::Merge { was_k, j, was_j }
            }
        };
        if !others_seen.iter().any(|grid| solves(puzzle, grid)) {
            let found = count_within(puzzle, 2, GENERATE_BUDGET, Some(solution));
            if !found.aborted && found.count == 1 && found.nodes >= nodes {
                nodes = found.nodes;
                continue;
            }
            let other = [found.first, found.second].into_iter().flatten().find(|g| g[..] != solution[..]);
            if let Some(grid) = other.filter(|_| others_seen.len() < MAX_OTHERS) {
                others_seen.push(grid);
            }
        }
        match undo {
            Undo::Operation((op, target)) => (puzzle.cages[k].op, puzzle.cages[k].target) = (op, target),
            Undo::Merge { was_k, j, was_j } => {
                // Back where `swap_remove` took it from (the last cage had moved to `j`, and
                // moves back to the end), then cage `k` as it was.
                puzzle.cages.push(was_j);
                let last = puzzle.cages.len() - 1;
                puzzle.cages.swap(j, last);
                puzzle.cages[k] = was_k;
            }
        }
    }
}

/// The most other solutions `harden` keeps to test its tries against.
const MAX_OTHERS: usize = 16;

/// Whether `grid` (a Latin square of the puzzle's size) meets every cage of `puzzle`.
fn solves(puzzle: &KenKen, grid: &[u8]) -> bool {
    let mut digits = [0u8; MAX_CELLS];
    puzzle.cages.iter().all(|cage| {
        for (d, &c) in digits.iter_mut().zip(&cage.cells) {
            *d = grid[c as usize];
        }
        cage.op.satisfied(cage.target, &digits[..cage.cells.len()])
    })
}

/// How to take back one of `harden`'s tries: cage `k`'s operation and target as they were, or
/// the two cages a merge replaced (`k`, and `j` that `swap_remove` took out).
enum Undo {
    Operation((Op, u32)),
    Merge { was_k: Cage, j: usize, was_j: Cage },
}

pub fn generate(p: &KenKenParams, rng: &mut Xoshiro256PlusPlus) -> Result<Generated<super::KenKenKind>, Reject> {
    let n = p.size as usize;
    let solution = random_latin_square(n, rng);
    let cages = grow_cages(p, rng)
        .into_iter()
        .map(|cells| {
            let cells: Vec<u8> = cells.into_iter().map(|c| c as u8).collect();
            let (op, target) = choose_op(p, &digits_of(&cells, &solution), rng);
            Cage { op, target, cells }
        })
        .collect();
    let mut puzzle = KenKen { size: p.size, cages };
    let mut repairs = 0;
    let mut proven_unique = false;
    // The search nodes of the last count (the one that proved the puzzle unique, if it is).
    let mut nodes;
    // The other solutions the repairs took away: hardening may let one back in.
    let mut others_seen = Vec::new();
    loop {
        // The known solution's digits first: a second solution, if any, is met soon after.
        let found = count_within(&puzzle, 2, GENERATE_BUDGET, Some(&solution));
        if found.aborted {
            return Err(Reject::Undecided);
        }
        nodes = found.nodes;
        if found.count < 2 {
            proven_unique = found.count == 1 && found.first.as_deref() == Some(&solution[..]);
            break;
        }
        if repairs >= p.max_repairs {
            break;
        }
        let other = [found.first, found.second]
            .into_iter()
            .flatten()
            .find(|s| *s != solution)
            .ok_or(Reject::GeneratorFailed)?;
        let repaired = repair(&mut puzzle, p, &solution, &other, rng);
        if others_seen.len() < MAX_OTHERS {
            others_seen.push(other);
        }
        if !repaired {
            break;
        }
        repairs += 1;
    }
    if p.aim > 0 && proven_unique {
        harden(&mut puzzle, p, &solution, others_seen, nodes, rng);
    }
    // Cages in order of their first cell, as Keen lists clues.
    puzzle.cages.sort_by_key(|c| c.cells[0]);
    Ok(Generated { puzzle, solution, repairs, proven_unique })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf_core::common::latin::is_latin;
    use rand::SeedableRng;

    #[test]
    fn solves_accepts_the_solution_and_refuses_another_square() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        let p = KenKenParams { size: 6, ..KenKenParams::default() };
        for _ in 0..20 {
            let g = generate(&p, &mut rng).unwrap();
            assert!(solves(&g.puzzle, &g.solution));
            // Another Latin square: two rows swapped, which a unique puzzle does not allow.
            let mut other = g.solution.clone();
            let (a, b) = other.split_at_mut(6);
            a.swap_with_slice(&mut b[..6]);
            if g.proven_unique {
                assert!(!solves(&g.puzzle, &other));
            }
        }
    }

    #[test]
    fn generated_puzzles_are_valid_and_mostly_unique() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        for size in [3u8, 4, 6, 9] {
            let p = KenKenParams { size, ..KenKenParams::default() };
            let mut unique = 0;
            for _ in 0..20 {
                let g = generate(&p, &mut rng).unwrap();
                g.puzzle.validate().unwrap();
                assert!(is_latin(&g.solution, size as usize));
                for cage in &g.puzzle.cages {
                    assert!(cage.cells.len() <= p.max_cage() + 1, "{cage:?}");
                    assert!(cage.op.satisfied(cage.target, &digits_of(&cage.cells, &g.solution)), "{cage:?}");
                    assert_eq!(components(&cage.cells, size as usize).len(), 1, "cage not connected: {cage:?}");
                }
                unique += (super::super::solve::count_solutions(&g.puzzle, 2).count == 1) as u32;
            }
            assert!(unique >= 19, "size {size}: {unique}/20 unique");
        }
    }

    #[test]
    fn hardening_keeps_the_solution_unique_and_deepens_the_search() {
        for size in [4u8, 6, 9] {
            let (mut plain, mut hard) = (0u64, 0u64);
            for aim in [0, 4] {
                let p = KenKenParams { size, aim, ..KenKenParams::default() };
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
                for _ in 0..30 {
                    let g = generate(&p, &mut rng).unwrap();
                    g.puzzle.validate().unwrap();
                    for cage in &g.puzzle.cages {
                        assert!(cage.cells.len() <= p.max_cage() + 1, "{cage:?}");
                        assert!(cage.op.satisfied(cage.target, &digits_of(&cage.cells, &g.solution)), "{cage:?}");
                        assert_eq!(components(&cage.cells, size as usize).len(), 1, "cage not connected: {cage:?}");
                    }
                    let found = super::super::solve::count_solutions(&g.puzzle, 2);
                    if g.proven_unique {
                        assert_eq!((found.count, found.first.as_deref()), (1, Some(&g.solution[..])));
                    }
                    *if aim == 0 { &mut plain } else { &mut hard } += found.nodes;
                }
            }
            assert!(hard > plain, "size {size}: search nodes {hard} hardened, {plain} not");
        }
    }
}
