//! The family's counter: candidates as bit masks per cell, propagated by naked singles, hidden
//! singles over every house and, on killer boards, cage combinations (a cell keeps only digits
//! of some digit set that reaches the cage's sum, fits its cells and holds its placed digits);
//! then branch on a cell with the fewest candidates.
//!
//! Used for uniqueness (count to 2), for filling random grids (digits tried in a random order)
//! and for `solve`. The search stops after `budget` nodes and says so (`undecided`): no input
//! runs for minutes. A plain backtracker in the tests checks it.

use super::shape::{full, Mask, Shape};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The digit sets of `k` distinct digits from 1..=n that add up to `sum`, as masks.
pub fn cage_sets(n: usize, k: usize, sum: u32) -> std::sync::Arc<Vec<Mask>> {
    type Table = HashMap<(usize, usize, u32), std::sync::Arc<Vec<Mask>>>;
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    let table = TABLE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(v) = table.lock().expect("cage table").get(&(n, k, sum)) {
        return v.clone();
    }
    let mut out = Vec::new();
    // Depth-first over digits in increasing order, pruned by what is still reachable.
    fn walk(n: u32, k: u32, sum: u32, from: u32, mask: Mask, out: &mut Vec<Mask>) {
        if k == 0 {
            if sum == 0 {
                out.push(mask);
            }
            return;
        }
        for d in from..=n {
            // The smallest the remaining k digits can add is d + (d+1) + … .
            let min = k * d + k * (k - 1) / 2;
            if min > sum {
                break;
            }
            let max = k * n - k * (k - 1) / 2;
            if max < sum {
                return;
            }
            walk(n, k - 1, sum - d, d + 1, mask | 1 << d, out);
        }
    }
    walk(n as u32, k as u32, sum, 1, 0, &mut out);
    let v = std::sync::Arc::new(out);
    table.lock().expect("cage table").insert((n, k, sum), v.clone());
    v
}

/// What a count found.
#[derive(Clone, Debug)]
pub struct Count {
    /// Solutions found, at most the limit.
    pub count: usize,
    pub first: Option<Vec<u8>>,
    /// The budget ran out before the count was decided.
    pub undecided: bool,
    pub nodes: u64,
}

/// What propagation still has to look at: cells that became single, houses and cages whose
/// cells changed.
struct Work {
    singles: Vec<u16>,
    houses: Vec<usize>,
    house_dirty: Vec<bool>,
    cages: Vec<usize>,
    cage_dirty: Vec<bool>,
}

impl Work {
    fn new(shape: &Shape) -> Work {
        Work {
            singles: Vec::with_capacity(shape.n * 2),
            houses: Vec::with_capacity(shape.houses.len()),
            house_dirty: vec![false; shape.houses.len()],
            cages: Vec::new(),
            cage_dirty: vec![false; shape.cages.len()],
        }
    }
    fn all_dirty(&mut self, shape: &Shape) {
        (0..shape.houses.len()).for_each(|h| self.dirty_house(h));
        (0..shape.cages.len()).for_each(|k| self.dirty_cage(k));
    }
    #[inline]
    fn dirty_house(&mut self, h: usize) {
        if !self.house_dirty[h] {
            self.house_dirty[h] = true;
            self.houses.push(h);
        }
    }
    #[inline]
    fn dirty_cage(&mut self, k: usize) {
        if !self.cage_dirty[k] {
            self.cage_dirty[k] = true;
            self.cages.push(k);
        }
    }
}

/// The search, with the board's tables borrowed.
pub struct Solver<'a> {
    shape: &'a Shape,
    /// Per cage: its digit sets.
    cage_sets: Vec<std::sync::Arc<Vec<Mask>>>,
    all: Mask,
    pub nodes: u64,
    budget: u64,
}

/// Candidates of every cell; a placed cell has one bit.
type Cands = Vec<Mask>;

impl<'a> Solver<'a> {
    pub fn new(shape: &'a Shape, budget: u64) -> Solver<'a> {
        let cage_sets = shape.cages.iter().map(|c| cage_sets(shape.n, c.cells.len(), c.sum)).collect();
        Solver { shape, cage_sets, all: full(shape.n), nodes: 0, budget }
    }

    /// The starting candidates of a puzzle (0 = blank), or None if the givens clash.
    pub fn start(&self, givens: &[u8]) -> Option<Cands> {
        let mut cand = vec![self.all; self.shape.cells()];
        for (c, &d) in givens.iter().enumerate() {
            if d != 0 {
                if d as usize > self.shape.n || cand[c] & 1 << d == 0 {
                    return None;
                }
                cand[c] = 1 << d;
                for &p in &self.shape.peers[c] {
                    cand[p as usize] &= !(1 << d);
                }
            }
        }
        Some(cand)
    }

    /// Propagate to a fixpoint from scratch (every cell, house and cage looked at). False on a
    /// contradiction.
    pub fn propagate(&self, cand: &mut Cands) -> bool {
        let mut work = Work::new(self.shape);
        for (c, &m) in cand.iter().enumerate() {
            if m == 0 {
                return false;
            }
            if m & (m - 1) == 0 {
                work.singles.push(c as u16);
            }
        }
        work.all_dirty(self.shape);
        self.settle(cand, &mut work)
    }

    /// Narrow cell `c` to `m` (a subset of its candidates), noting what to look at again.
    #[inline]
    fn narrow(&self, cand: &mut Cands, work: &mut Work, c: usize, m: Mask) -> bool {
        if m == cand[c] {
            return true;
        }
        if m == 0 {
            return false;
        }
        cand[c] = m;
        if m & (m - 1) == 0 {
            work.singles.push(c as u16);
        }
        for &h in &self.shape.cell_houses[c] {
            work.dirty_house(h as usize);
        }
        let k = self.shape.cage_of[c];
        if k != u16::MAX {
            work.dirty_cage(k as usize);
        }
        true
    }

    /// Propagate what `work` holds until nothing is left to look at. False on a contradiction.
    ///
    /// Shaped as a work list rather than rescans: on 16×16 and 25×25 boards most of a node's
    /// propagation touches a few houses, and a full rescan per pass cost most of the time.
    fn settle(&self, cand: &mut Cands, work: &mut Work) -> bool {
        let shape = self.shape;
        loop {
            if let Some(c) = work.singles.pop() {
                let m = cand[c as usize];
                for &p in &shape.peers[c as usize] {
                    let pm = cand[p as usize];
                    if pm & m != 0 && !self.narrow(cand, work, p as usize, pm & !m) {
                        return false;
                    }
                }
                continue;
            }
            if let Some(h) = work.houses.pop() {
                work.house_dirty[h] = false;
                // Hidden singles: a digit with one place in a house goes there.
                let cells = &shape.houses[h];
                let (mut once, mut twice) = (0 as Mask, 0 as Mask);
                for &c in cells {
                    let m = cand[c as usize];
                    twice |= once & m;
                    once |= m;
                }
                if once != self.all {
                    return false;
                }
                let single = once & !twice;
                if single == 0 {
                    continue;
                }
                for &c in cells {
                    let m = cand[c as usize];
                    let s = m & single;
                    if s != 0 && m != s {
                        if s & (s - 1) != 0 {
                            return false; // two digits that each must go here
                        }
                        if !self.narrow(cand, work, c as usize, s) {
                            return false;
                        }
                    }
                }
                continue;
            }
            if let Some(k) = work.cages.pop() {
                work.cage_dirty[k] = false;
                if !self.cage(cand, work, k) {
                    return false;
                }
                continue;
            }
            return true;
        }
    }

    /// Cage combinations: each cell keeps the digits of some digit set that reaches the sum,
    /// holds the cage's placed digits and gives every cell a candidate.
    fn cage(&self, cand: &mut Cands, work: &mut Work, k: usize) -> bool {
        let cage = &self.shape.cages[k];
        let (mut union, mut placed) = (0 as Mask, 0 as Mask);
        for &c in &cage.cells {
            let m = cand[c as usize];
            union |= m;
            if m & (m - 1) == 0 {
                if placed & m != 0 {
                    return false;
                }
                placed |= m;
            }
        }
        let mut allowed = 0 as Mask;
        for &set in self.cage_sets[k].iter() {
            if set & placed == placed && set & union == set && cage.cells.iter().all(|&c| cand[c as usize] & set != 0) {
                allowed |= set;
            }
        }
        if allowed == 0 {
            return false;
        }
        for &c in &cage.cells {
            let m = cand[c as usize];
            let mut keep = m & allowed;
            if m & (m - 1) != 0 {
                keep &= !placed;
            }
            if !self.narrow(cand, work, c as usize, keep) {
                return false;
            }
        }
        true
    }

    /// Fix `cell` to `digit` (one of its candidates) and propagate. False on a contradiction.
    pub fn assign(&self, cand: &mut Cands, cell: usize, digit: u8) -> bool {
        let mut work = Work::new(self.shape);
        self.narrow(cand, &mut work, cell, 1 << digit) && self.settle(cand, &mut work)
    }

    /// Take `digit` out of `cell`'s candidates and propagate. False on a contradiction.
    pub fn exclude(&self, cand: &mut Cands, cell: usize, digit: u8) -> bool {
        let mut work = Work::new(self.shape);
        let m = cand[cell] & !(1 << digit);
        self.narrow(cand, &mut work, cell, m) && self.settle(cand, &mut work)
    }

    /// The open cell with the fewest candidates, or None when every cell is placed.
    fn branch_cell(cand: &Cands) -> Option<usize> {
        let mut best: Option<(u32, usize)> = None;
        for (c, &m) in cand.iter().enumerate() {
            let k = m.count_ones();
            if k > 1 && best.is_none_or(|(b, _)| k < b) {
                best = Some((k, c));
                if k == 2 {
                    break;
                }
            }
        }
        best.map(|(_, c)| c)
    }

    /// Count solutions from `cand` (propagated) up to `limit`, digits tried in `order` (a permutation of
    /// 1..=n, or None for increasing).
    pub fn count(&mut self, cand: Cands, limit: usize, order: Option<&[u8]>, out: &mut Count) {
        if out.count >= limit || out.undecided {
            return;
        }
        if self.nodes >= self.budget {
            out.undecided = true;
            return;
        }
        self.nodes += 1;
        let Some(cell) = Self::branch_cell(&cand) else {
            out.count += 1;
            if out.first.is_none() {
                out.first = Some(cand.iter().map(|m| m.trailing_zeros() as u8).collect());
            }
            return;
        };
        let m = cand[cell];
        let digits: Vec<u8> = match order {
            Some(o) => o.iter().copied().filter(|&d| m & 1 << d != 0).collect(),
            None => (1..=self.shape.n as u8).filter(|&d| m & 1 << d != 0).collect(),
        };
        for d in digits {
            let mut next = cand.clone();
            if !self.assign(&mut next, cell, d) {
                continue;
            }
            self.count(next, limit, order, out);
            if out.count >= limit || out.undecided {
                return;
            }
        }
    }
}

impl Solver<'_> {
    /// The first solution other than `known` (its digit tried last at every branch), or None
    /// when there is none or the budget ran out (`out.undecided`).
    pub fn find_other(&mut self, cand: Cands, known: &[u8], out: &mut Count) -> Option<Vec<u8>> {
        if out.undecided {
            return None;
        }
        if self.nodes >= self.budget {
            out.undecided = true;
            return None;
        }
        self.nodes += 1;
        let Some(cell) = Self::branch_cell(&cand) else {
            let grid: Vec<u8> = cand.iter().map(|m| m.trailing_zeros() as u8).collect();
            return (grid != known).then_some(grid);
        };
        let m = cand[cell];
        let k = known[cell];
        let digits = (1..=self.shape.n as u8).filter(|&d| d != k).chain(std::iter::once(k));
        for d in digits.filter(|&d| m & 1 << d != 0) {
            let mut next = cand.clone();
            if !self.assign(&mut next, cell, d) {
                continue;
            }
            if let Some(g) = self.find_other(next, known, out) {
                return Some(g);
            }
            if out.undecided {
                return None;
            }
        }
        None
    }
}

/// The default node budget of `solve` and `rate` inputs (SPEC: bounded, `undecided`).
pub const BUDGET: u64 = 1 << 20;

/// Count the solutions of a puzzle up to `limit` within `budget` nodes.
pub fn count_solutions(shape: &Shape, givens: &[u8], limit: usize, budget: u64) -> Count {
    let mut solver = Solver::new(shape, budget);
    let mut out = Count { count: 0, first: None, undecided: false, nodes: 0 };
    if let Some(mut cand) = solver.start(givens) {
        if solver.propagate(&mut cand) {
            solver.count(cand, limit, None, &mut out);
        }
    }
    out.nodes = solver.nodes;
    out
}

/// A random full grid of the board (cages ignored), or None if the budget ran out.
pub fn random_grid(shape: &Shape, rng: &mut impl Rng, budget: u64) -> Option<Vec<u8>> {
    let plain;
    let shape = if shape.is_killer() {
        plain = shape.without_cages();
        &plain
    } else {
        shape
    };
    let mut solver = Solver::new(shape, budget);
    let mut givens = vec![0u8; shape.cells()];
    // Seed the search with a random first row, so grids differ from the first branch on.
    let mut row: Vec<u8> = (1..=shape.n as u8).collect();
    row.shuffle(rng);
    givens[..shape.n].copy_from_slice(&row);
    let mut order: Vec<u8> = (1..=shape.n as u8).collect();
    order.shuffle(rng);
    let mut out = Count { count: 0, first: None, undecided: false, nodes: 0 };
    let mut cand = solver.start(&givens)?;
    if !solver.propagate(&mut cand) {
        return None;
    }
    solver.count(cand, 1, Some(&order), &mut out);
    out.first
}

#[cfg(test)]
mod tests {
    use super::super::shape::Cage;
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn cage_sets_match_a_plain_enumeration() {
        for n in [4usize, 6, 9, 12] {
            for k in 1..=n.min(5) {
                for sum in 1..=80u32 {
                    let mut want: Vec<Mask> = (0u32..1 << n)
                        .map(|b| b << 1)
                        .filter(|m| {
                            m.count_ones() as usize == k
                                && (1..=n).filter(|&d| m & 1 << d != 0).sum::<usize>() == sum as usize
                        })
                        .collect();
                    want.sort_unstable();
                    let mut got = cage_sets(n, k, sum).to_vec();
                    got.sort_unstable();
                    assert_eq!(got, want, "n {n} k {k} sum {sum}");
                }
            }
        }
    }

    /// A plain backtracker: reading order, every house and cage checked at the end of each
    /// placement, no propagation.
    fn plain_count(shape: &Shape, grid: &mut Vec<u8>, at: usize, limit: usize) -> usize {
        if at == grid.len() {
            return usize::from(shape.is_solution(grid));
        }
        if grid[at] != 0 {
            return plain_count(shape, grid, at + 1, limit);
        }
        let mut found = 0;
        for d in 1..=shape.n as u8 {
            if shape.peers[at].iter().any(|&p| grid[p as usize] == d) {
                continue;
            }
            grid[at] = d;
            let cage_ok = match shape.cage_of[at] {
                u16::MAX => true,
                i => {
                    let cage = &shape.cages[i as usize];
                    let vals: Vec<u32> = cage.cells.iter().map(|&c| grid[c as usize] as u32).collect();
                    let distinct = cage.cells.iter().all(|&a| {
                        grid[a as usize] == 0
                            || cage.cells.iter().filter(|&&b| grid[b as usize] == grid[a as usize]).count() == 1
                    });
                    let s: u32 = vals.iter().sum();
                    distinct && if vals.contains(&0) { s < cage.sum } else { s == cage.sum }
                }
            };
            if cage_ok {
                found += plain_count(shape, grid, at + 1, limit - found);
            }
            grid[at] = 0;
            if found >= limit {
                break;
            }
        }
        found
    }

    #[test]
    fn counts_agree_with_a_plain_backtracker() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for (n, b) in [(4, (2, 2)), (6, (2, 3)), (6, (3, 2))] {
            for diag in [false, true] {
                let shape = Shape::new(n, Some(b), None, diag, Vec::new()).unwrap();
                let Some(grid) = random_grid(&shape, &mut rng, 1 << 20) else { panic!("no grid {n}") };
                assert!(shape.is_solution(&grid));
                for keep in [0.5, 0.35, 0.25] {
                    let givens: Vec<u8> = grid.iter().map(|&d| if rng.gen_bool(keep) { d } else { 0 }).collect();
                    let got = count_solutions(&shape, &givens, 2, 1 << 20);
                    let want = plain_count(&shape, &mut givens.clone(), 0, 2);
                    assert_eq!(got.count, want, "n {n} diag {diag} keep {keep}");
                    assert!(got.first.is_some_and(|s| shape.is_solution(&s)));
                }
            }
        }
        // Killer: dominoes over a 4×4 grid, sums from a random grid, no givens.
        for _ in 0..10 {
            let plain = Shape::new(4, Some((2, 2)), None, false, Vec::new()).unwrap();
            let grid = random_grid(&plain, &mut rng, 1 << 20).unwrap();
            let cages: Vec<Cage> = (0..8)
                .map(|i| {
                    let cells = vec![(2 * i) as u16, (2 * i + 1) as u16];
                    Cage { sum: cells.iter().map(|&c| grid[c as usize] as u32).sum(), cells }
                })
                .collect();
            let shape = plain.with_cages(cages).unwrap();
            let givens = vec![0u8; 16];
            let got = count_solutions(&shape, &givens, 2, 1 << 20);
            assert_eq!(got.count, plain_count(&shape, &mut givens.clone(), 0, 2));
            assert!(got.count >= 1);
        }
    }

    #[test]
    fn big_grids_fill() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        for (r, c) in [(4, 4), (5, 5), (3, 4)] {
            let shape = Shape::new(r * c, Some((r, c)), None, false, Vec::new()).unwrap();
            let g = random_grid(&shape, &mut rng, 1 << 16).expect("fills");
            assert!(shape.is_solution(&g));
        }
    }
}
