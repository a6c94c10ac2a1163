//! Sudoku generation: a random full grid, then clue removal in random order while the solution
//! stays unique, one symmetry orbit at a time.
//!
//! The result is minimal with respect to its symmetry: no orbit of clues can be removed without
//! losing uniqueness (with `none`, no single clue can). Everything random comes from the
//! candidate's own RNG, so a candidate is a pure function of its seed.

use super::geometry::CELL_BIT;
#[cfg(test)]
use super::solve::count_solutions;
use super::solve::{
    digit_band_bit, digit_bands, has_other_solution_from, other_solution_cells_from, BandSolver, Bands, Blocked,
};
use super::Grid;
use pf_core::kind::Reject;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// How the clue pattern is kept symmetric, as publishers print grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Symmetry {
    None,
    Rotate180,
    Rotate90,
    Mirror,
}

impl pf_core::kind::Choice for Symmetry {
    const CHOICES: &'static [(Symmetry, &'static str, &'static str)] = &[
        (Symmetry::None, Symmetry::NAMES[0], ""),
        (Symmetry::Rotate180, Symmetry::NAMES[1], ""),
        (Symmetry::Rotate90, Symmetry::NAMES[2], ""),
        (Symmetry::Mirror, Symmetry::NAMES[3], ""),
    ];
}

impl Symmetry {
    pub const ALL: [Symmetry; 4] = [Symmetry::None, Symmetry::Rotate180, Symmetry::Rotate90, Symmetry::Mirror];
    /// The names `--symmetry` takes, in `ALL`'s order.
    pub const NAMES: [&'static str; 4] = ["none", "rotate180", "rotate90", "mirror"];
    pub fn name(self) -> &'static str {
        pf_core::kind::Choice::choice_name(self)
    }

    fn image(self, cell: usize) -> usize {
        let (r, c) = (cell / 9, cell % 9);
        match self {
            Symmetry::None => cell,
            Symmetry::Rotate180 => (8 - r) * 9 + (8 - c),
            Symmetry::Rotate90 => c * 9 + (8 - r),
            Symmetry::Mirror => r * 9 + (8 - c),
        }
    }

    /// The orbits of the 81 cells under this symmetry, in cell order.
    pub(crate) fn orbits(self) -> &'static [Vec<u8>] {
        static ORBITS: OnceLock<Vec<Vec<Vec<u8>>>> = OnceLock::new();
        let all = ORBITS.get_or_init(|| {
            Symmetry::ALL
                .iter()
                .map(|&s| {
                    let mut seen = [false; 81];
                    let mut orbits = Vec::new();
                    for start in 0..81 {
                        if seen[start] {
                            continue;
                        }
                        let mut orbit = Vec::new();
                        let mut c = start;
                        while !seen[c] {
                            seen[c] = true;
                            orbit.push(c as u8);
                            c = s.image(c);
                        }
                        orbits.push(orbit);
                    }
                    orbits
                })
                .collect()
        });
        &all[self as usize]
    }
}

/// A random full grid: random digits in the three independent diagonal boxes, completed by the
/// solver, then shuffled by validity-preserving moves (rows within bands, bands, columns within
/// stacks, stacks, transposition).
pub(crate) fn full_grid(rng: &mut Xoshiro256PlusPlus) -> Option<Grid> {
    let mut g = [0u8; 81];
    for b in [0usize, 4, 8] {
        let mut digits: Vec<u8> = (1..=9).collect();
        digits.shuffle(rng);
        for (k, &d) in digits.iter().enumerate() {
            g[(b / 3) * 27 + (b % 3) * 3 + (k / 3) * 9 + k % 3] = d;
        }
    }
    let filled = BandSolver::new(&g)?.first_classic()?;
    Some(shuffle_grid(&filled, rng))
}

fn shuffled_lines(rng: &mut Xoshiro256PlusPlus) -> [usize; 9] {
    pf_core::common::canon::band_preserving_order(3, 3, rng).try_into().expect("9 lines")
}

fn shuffle_grid(g: &Grid, rng: &mut Xoshiro256PlusPlus) -> Grid {
    let rows = shuffled_lines(rng);
    let cols = shuffled_lines(rng);
    let transpose = rng.gen_bool(0.5);
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose { (cols[c], rows[r]) } else { (rows[r], cols[c]) };
            out[r * 9 + c] = if transpose { g[sc * 9 + sr] } else { g[sr * 9 + sc] };
        }
    }
    out
}

/// Clue removal for one solution grid. Removal is tried orbit by orbit in a random order and
/// kept when the solution stays unique; two shortcuts give exactly the same result, faster:
///
/// * **group testing**: while many clues remain, several orbits are tried at once; if the
///   solution stays unique without all of them, it would have stayed unique removing them one
///   by one (fewer clues never make a puzzle "more unique"), else the group is split in halves;
/// * **unavoidable sets**: every second solution found differs from the first on a set of cells
///   that must keep at least one clue, so a later removal that would empty such a set is
///   refused without a search (only a group's second solution: see `try_remove`). The grid's
///   small unavoidable sets are known before any search ([`known_unavoidable`]): they turn
///   3.1 of the 8.3 failing searches per rotate180 candidate into refusals (20,000
///   candidates: 36 -> 31.5 µs each). Of 10.8 refusals per candidate, 6.7 come from sets of
///   4 cells and 3.0 from sets of 6.
struct Remover {
    solution: Grid,
    /// The solution in the solver's digit-bands.
    solution_bands: Bands,
    clues: u128,
    /// The clues sorted into the solver's digit-bands, kept up to date clue by clue, with the
    /// cells each digit's clues rule out for it.
    placed: [u32; 27],
    blocked: Blocked,
    unavoidable: Vec<u128>,
}

/// Small unavoidable sets of a solution grid, found without a search.
///
/// * **two digits**: in the 18 cells holding digits a and b, swapping a and b over a subset
///   keeps the grid valid when every row, column and box holds both cells of the subset or
///   neither; the smallest such subsets are the connected components of the graph joining the
///   a-cell and the b-cell of each row, column and box. Components of two rows are the
///   rectangles a b / b a.
/// * **two rows of a band** (or two columns of a stack): swapping the two rows' digits over a
///   set of columns keeps rows valid when the two rows hold the same digits there, which the
///   cycles of the column permutation "the digit row 2 has here sits in row 1 there" give;
///   columns swap within themselves, and each box keeps its digits because both rows lie in it.
///
/// Sets of all 18 cells of two digits or rows are left out: a puzzle almost never empties one.
fn known_unavoidable(g: &Grid) -> Vec<u128> {
    let mut sets = Vec::with_capacity(64);
    // For digit d: col_of[d][r], its column in row r; box_of[d][r], its box in row r;
    // row_bit[d][c], its row in column c as a bit; box_row_bit[d][b], its row in box b as a bit.
    let (mut col_of, mut box_of) = ([[0u8; 9]; 9], [[0u8; 9]; 9]);
    let (mut row_bit, mut box_row_bit) = ([[0u16; 9]; 9], [[0u16; 9]; 9]);
    for r in 0..9 {
        for c in 0..9 {
            let d = usize::from(g[r * 9 + c] - 1);
            let b = r / 3 * 3 + c / 3;
            (col_of[d][r], box_of[d][r]) = (c as u8, b as u8);
            (row_bit[d][c], box_row_bit[d][b]) = (1 << r, 1 << r);
        }
    }
    for a in 0..9 {
        for b in a + 1..9 {
            // Nodes are rows (each holds one a-cell and one b-cell); an edge per column and box.
            // Row r's neighbours: the rows holding b in the column and box of its a, and a in
            // those of its b (each written once: no read-modify-write through the array).
            let adj: [u16; 9] = std::array::from_fn(|r| {
                let (ca, cb) = (usize::from(col_of[a][r]), usize::from(col_of[b][r]));
                let (ba, bb) = (usize::from(box_of[a][r]), usize::from(box_of[b][r]));
                row_bit[b][ca] | row_bit[a][cb] | box_row_bit[b][ba] | box_row_bit[a][bb]
            });
            let mut left = 0x1ffu16;
            while left != 0 {
                // Flood from the lowest row left: `todo` holds rows reached but not expanded.
                let (mut comp, mut todo) = (left & left.wrapping_neg(), left & left.wrapping_neg());
                while todo != 0 {
                    let r = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let new = adj[r] & !comp;
                    comp |= new;
                    todo |= new;
                }
                left &= !comp;
                if comp != 0x1ff {
                    let (mut rows, mut cells) = (comp, 0u128);
                    while rows != 0 {
                        let r = rows.trailing_zeros() as usize;
                        rows &= rows - 1;
                        cells |=
                            CELL_BIT[r * 9 + usize::from(col_of[a][r])] | CELL_BIT[r * 9 + usize::from(col_of[b][r])];
                    }
                    sets.push(cells);
                }
            }
        }
    }
    // Row pairs of a band: column k goes to the column of row l1 holding row l2's digit at k.
    // Column pairs of a stack likewise, over rows; a cycle of k columns (rows) is 2k cells.
    let row_of = |d: usize, c: usize| row_bit[d][c].trailing_zeros() as usize;
    let spread_rows = |rows: u16| (0..9).filter(|&r| rows >> r & 1 == 1).fold(0u128, |m, r| m | 1 << (r * 9));
    for (l1, l2) in [(0, 1), (0, 2), (1, 2), (3, 4), (3, 5), (4, 5), (6, 7), (6, 8), (7, 8)] {
        for transpose in [false, true] {
            let next = |k: usize| match transpose {
                false => usize::from(col_of[usize::from(g[l2 * 9 + k] - 1)][l1]),
                true => row_of(usize::from(g[k * 9 + l2] - 1), l1),
            };
            let mut seen = 0u16;
            for start in 0..9 {
                if seen >> start & 1 == 1 {
                    continue;
                }
                let (mut k, mut cyc) = (start, 0u16);
                while seen >> k & 1 == 0 {
                    seen |= 1 << k;
                    cyc |= 1 << k;
                    k = next(k);
                }
                if (3..9).contains(&cyc.count_ones()) {
                    sets.push(match transpose {
                        false => u128::from(cyc) << (l1 * 9) | u128::from(cyc) << (l2 * 9),
                        true => spread_rows(cyc) << l1 | spread_rows(cyc) << l2,
                    });
                }
            }
        }
    }
    sets
}

fn mask_of(cells: &[&Vec<u8>]) -> u128 {
    cells.iter().flat_map(|o| o.iter()).fold(0u128, |m, &c| m | CELL_BIT[c as usize])
}

impl Remover {
    fn new(solution: Grid) -> Remover {
        let placed = digit_bands(&solution).expect("a solution grid holds digits 1-9");
        Remover {
            solution,
            solution_bands: placed,
            clues: (1u128 << 81) - 1,
            placed,
            blocked: Blocked::new(&placed),
            unavoidable: known_unavoidable(&solution),
        }
    }

    fn set(&mut self, orbits: &[&Vec<u8>], on: bool) {
        let mut digits = 0u16;
        for &c in orbits.iter().flat_map(|o| o.iter()) {
            let (sb, bit) = digit_band_bit(c as usize, self.solution[c as usize]);
            self.placed[sb] = if on { self.placed[sb] | bit } else { self.placed[sb] & !bit };
            digits |= 1 << (sb / 3);
        }
        while digits != 0 {
            self.blocked.update(&self.placed, digits.trailing_zeros() as usize);
            digits &= digits - 1;
        }
        let m = mask_of(orbits);
        self.clues = if on { self.clues | m } else { self.clues & !m };
    }

    /// The puzzle: the solution's digits at the clues.
    fn puzzle(&self) -> Grid {
        std::array::from_fn(|c| if self.clues >> c & 1 == 1 { self.solution[c] } else { 0 })
    }

    /// Remove `group` if the solution stays unique without it; otherwise split it.
    fn try_remove(&mut self, group: &[&Vec<u8>]) {
        let after = self.clues & !mask_of(group);
        if self.unavoidable.iter().any(|&u| u & after == 0) {
            match group {
                [orbit] => self.keep_for_good(orbit),
                _ => {
                    let (a, b) = group.split_at(group.len() / 2);
                    self.try_remove(a);
                    self.try_remove(b);
                }
            }
            return;
        }
        self.set(group, false);
        let base = BandSolver::from_solution_part(&self.placed, &self.blocked, self.clues);
        match group {
            [orbit] => {
                if has_other_solution_from(base, orbit, &self.solution) {
                    self.set(group, true);
                    // Its second solution differs on the orbit, which stays a clue: a set
                    // that could never refuse.
                    self.keep_for_good(orbit);
                }
            }
            _ => {
                if let Some(differs) = other_solution_cells_from(base, &self.solution_bands) {
                    self.set(group, true);
                    self.unavoidable.push(differs);
                    let (a, b) = group.split_at(group.len() / 2);
                    self.try_remove(a);
                    self.try_remove(b);
                }
            }
        }
    }

    /// A lone orbit that could not go is never tried again: every set holding one of its cells
    /// keeps a clue for good, so it is dropped from the sets checked.
    fn keep_for_good(&mut self, orbit: &[u8]) {
        let m = orbit.iter().fold(0u128, |m, &c| m | CELL_BIT[c as usize]);
        // `retain` without a branch per set: whether a set holds the orbit is a coin toss.
        let sets = &mut self.unavoidable;
        let mut kept = 0;
        for i in 0..sets.len() {
            let u = sets[i];
            sets[kept] = u;
            kept += usize::from(u & m == 0);
        }
        sets.truncate(kept);
    }
}

/// How many orbits to try at once with `clues` clues left, orbits holding `per_orbit` cells
/// on average: large groups only while removal almost never fails (measured: under 5% of
/// single removals fail above 50 clues). Sized in cells, so that every symmetry removes about
/// as many cells per try. With the known unavoidable sets refusing doomed groups early, larger
/// groups pay: 32/16/8/4 cells from 64/52/44/38 clues took 2-3% less time than 16/8/4 cells
/// from 60/48/40 (rotate180, 20,000 candidates), and 3% fewer instructions than the same
/// number of orbits (symmetry none, 1,500 candidates, callgrind).
fn group_size(clues: u32, per_orbit: usize) -> usize {
    let cells = match clues {
        64.. => 32,
        52..=63 => 16,
        44..=51 => 8,
        38..=43 => 4,
        _ => 1,
    };
    (cells / per_orbit).max(1)
}

/// Generate one candidate: (puzzle, solution). The puzzle is unique by construction; the
/// pipeline still confirms it with the counter.
pub fn generate(symmetry: Symmetry, rng: &mut Xoshiro256PlusPlus) -> Result<(Grid, Grid), Reject> {
    let solution = full_grid(rng).ok_or(Reject::GeneratorFailed)?;
    let mut order: Vec<&Vec<u8>> = symmetry.orbits().iter().collect();
    order.shuffle(rng);
    let mut r = Remover::new(solution);
    let per_orbit = (81 + order.len() / 2) / order.len();
    let mut next = 0;
    while next < order.len() {
        let take = group_size(r.clues.count_ones(), per_orbit).min(order.len() - next);
        r.try_remove(&order[next..next + take]);
        next += take;
    }
    Ok((r.puzzle(), solution))
}

/// Steered generation: in each stage, orbits are removed in one random order while
/// `solvable(puzzle, solution, stage)` still holds (a ladder with some techniques switched off
/// finishes it, which also proves it unique: every step is a deduction). With the easier
/// techniques first and the wanted one added in the last stage, the last stage's removals are
/// exactly those that make the wanted technique necessary against the easier ones.
pub fn generate_within(
    symmetry: Symmetry,
    rng: &mut Xoshiro256PlusPlus,
    stages: usize,
    solvable: &dyn Fn(&Grid, &Grid, usize) -> bool,
) -> Result<(Grid, Grid), Reject> {
    let solution = full_grid(rng).ok_or(Reject::GeneratorFailed)?;
    let mut puzzle = solution;
    let mut order: Vec<&Vec<u8>> = symmetry.orbits().iter().collect();
    order.shuffle(rng);
    dig_in_stages(&mut puzzle, &solution, &order, stages, |p, stage| {
        solvable(p.try_into().expect("a 9×9 grid"), &solution, stage)
    });
    Ok((puzzle, solution))
}

/// Clue removal in stages (classic and family `generate_within`): in each stage the orbits,
/// in the order given, are removed from `givens` (cells taking `solution`'s digits) while
/// `keep(givens, stage)` holds; an orbit whose removal breaks it is put back.
pub(crate) fn dig_in_stages<O: AsRef<[C]>, C: Copy + Into<usize>>(
    givens: &mut [u8],
    solution: &[u8],
    orbits: &[O],
    stages: usize,
    keep: impl Fn(&[u8], usize) -> bool,
) {
    for stage in 0..stages {
        for orbit in orbits {
            let orbit = orbit.as_ref();
            if orbit.iter().all(|&c| givens[c.into()] == 0) {
                continue;
            }
            for &c in orbit {
                givens[c.into()] = 0;
            }
            if !keep(givens, stage) {
                for &c in orbit {
                    givens[c.into()] = solution[c.into()];
                }
            }
        }
    }
}

/// The plain version of `generate`: one orbit at a time, one search each. Kept for the tests,
/// which check that the shortcuts above change nothing.
#[cfg(test)]
fn generate_plain(symmetry: Symmetry, rng: &mut Xoshiro256PlusPlus) -> Result<(Grid, Grid), Reject> {
    let solution = full_grid(rng).ok_or(Reject::GeneratorFailed)?;
    let mut puzzle = solution;
    let mut order: Vec<&Vec<u8>> = symmetry.orbits().iter().collect();
    order.shuffle(rng);
    for orbit in order {
        for &c in orbit {
            puzzle[c as usize] = 0;
        }
        if count_solutions(&puzzle, 2).count != 1 {
            for &c in orbit {
                puzzle[c as usize] = solution[c as usize];
            }
        }
    }
    Ok((puzzle, solution))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn valid(g: &Grid) -> bool {
        (0..9).all(|i| {
            let row: std::collections::HashSet<u8> = (0..9).map(|j| g[i * 9 + j]).collect();
            let col: std::collections::HashSet<u8> = (0..9).map(|j| g[j * 9 + i]).collect();
            let bx: std::collections::HashSet<u8> =
                (0..9).map(|j| g[(i / 3) * 27 + (i % 3) * 3 + (j / 3) * 9 + j % 3]).collect();
            row.len() == 9 && col.len() == 9 && bx.len() == 9 && !row.contains(&0)
        })
    }

    /// Clue removal keeps the clues' digit-bands and each digit's blocked cells up to date
    /// orbit by orbit instead of sorting the puzzle again: after any sequence of removals and
    /// restorings, the solver it builds is the one built from the puzzle itself.
    #[test]
    fn kept_digit_bands_build_the_puzzles_solver() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for symmetry in [Symmetry::None, Symmetry::Rotate180] {
            let orbits: Vec<&Vec<u8>> = symmetry.orbits().iter().collect();
            for _ in 0..20 {
                let mut r = Remover::new(full_grid(&mut rng).unwrap());
                for _ in 0..60 {
                    let k = rng.gen_range(1..4).min(orbits.len());
                    let at = rng.gen_range(0..=orbits.len() - k);
                    r.set(&orbits[at..at + k], rng.gen_bool(0.3));
                    let kept = BandSolver::from_solution_part(&r.placed, &r.blocked, r.clues);
                    let fresh = BandSolver::new(&r.puzzle()).expect("part of a solution");
                    assert_eq!(kept.candidates(), fresh.candidates());
                }
            }
        }
    }

    #[test]
    fn known_sets_are_unavoidable_and_hold_every_rectangle() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let (mut sizes, mut rectangles) = (std::collections::BTreeMap::new(), 0);
        for _ in 0..20 {
            let g = full_grid(&mut rng).unwrap();
            let sets = known_unavoidable(&g);
            for &set in &sets {
                *sizes.entry(set.count_ones()).or_insert(0) += 1;
                let mut p = g;
                for c in 0..81 {
                    if set >> c & 1 == 1 {
                        p[c] = 0;
                    }
                }
                assert_eq!(count_solutions(&p, 2).count, 2, "{set:#x}");
            }
            // Every rectangle a b / b a whose swap keeps the boxes (rows in one band or columns
            // in one stack), by brute force.
            for (r1, r2) in (0..9).flat_map(|r1| (r1 + 1..9).map(move |r2| (r1, r2))) {
                for (c1, c2) in (0..9).flat_map(|c1| (c1 + 1..9).map(move |c2| (c1, c2))) {
                    let (a, b) = (g[r1 * 9 + c1], g[r1 * 9 + c2]);
                    let boxes_kept = r1 / 3 == r2 / 3 || c1 / 3 == c2 / 3;
                    if boxes_kept && g[r2 * 9 + c1] == b && g[r2 * 9 + c2] == a {
                        rectangles += 1;
                        let m =
                            [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2].iter().fold(0u128, |m, &i| m | 1 << i);
                        assert!(sets.contains(&m), "rectangle {r1},{r2} x {c1},{c2}");
                    }
                }
            }
        }
        assert!(rectangles > 5, "{rectangles}");
        // Both families give sets of 6 and more cells.
        assert!(sizes.keys().any(|&k| k >= 6), "{sizes:?}");
    }

    #[test]
    fn shortcuts_change_nothing() {
        for s in Symmetry::ALL {
            for seed in 0..40 {
                let a = generate(s, &mut Xoshiro256PlusPlus::seed_from_u64(seed)).unwrap();
                let b = generate_plain(s, &mut Xoshiro256PlusPlus::seed_from_u64(seed)).unwrap();
                assert_eq!(a, b, "{s:?} seed {seed}");
            }
        }
    }

    #[test]
    fn orbits_partition_the_grid() {
        for s in Symmetry::ALL {
            let total: usize = s.orbits().iter().map(|o| o.len()).sum();
            assert_eq!(total, 81, "{s:?}");
        }
        assert_eq!(Symmetry::Rotate180.orbits().len(), 41);
        assert_eq!(Symmetry::Rotate90.orbits().len(), 21);
        assert_eq!(Symmetry::Mirror.orbits().len(), 45);
    }

    #[test]
    fn generated_puzzles_are_valid_symmetric_and_unique() {
        for s in Symmetry::ALL {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
            let (p, sol) = generate(s, &mut rng).unwrap();
            assert!(valid(&sol));
            assert_eq!(count_solutions(&p, 2).count, 1);
            for c in 0..81 {
                assert_eq!(p[c] != 0, p[s.image(c)] != 0, "{s:?} symmetric at {c}");
                if p[c] != 0 {
                    assert_eq!(p[c], sol[c]);
                }
            }
        }
    }
}
