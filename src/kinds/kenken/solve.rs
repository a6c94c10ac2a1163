//! The fast KenKen solution counter (count to a limit, usually 2).
//!
//! Candidates are digit bitmasks per cell. Propagation to a fixpoint: a fixed cell removes its
//! digit from its row and column; a digit with one place left in a line is fixed there; each
//! cage whose cells changed keeps only the digits that appear in some tuple meeting its
//! operation and target (`common::cage::for_each_tuple`). Search branches on the cell with the
//! fewest candidates. The plain reference solver is in the tests.

use super::KenKen;
use crate::common::cage::for_each_tuple;

/// A puzzle prepared for solving: cage membership and each cage's valid tuples.
pub struct Board<'a> {
    pub puzzle: &'a KenKen,
    pub n: usize,
    pub cage_of: Vec<usize>,
    /// Cell indices of each cage, in the puzzle's order.
    pub cells: Vec<Vec<usize>>,
    /// Per cage, every tuple that meets its operation and target with full candidates, flattened
    /// (`cells[k].len()` digits each); `None` when there would be too many to keep (huge cages),
    /// and those cages enumerate afresh. Filtering a fixed list by the current candidates is
    /// what makes propagation cheap: it runs at every node of the search.
    tuples: Vec<Option<Vec<u8>>>,
}

/// Most digits kept per cage's tuple list (above it, enumerate on demand).
const TUPLE_BUDGET: usize = 1 << 16;

impl<'a> Board<'a> {
    pub fn new(puzzle: &'a KenKen) -> Board<'a> {
        let n = puzzle.size as usize;
        let mut cage_of = vec![usize::MAX; n * n];
        let cells: Vec<Vec<usize>> =
            puzzle.cages.iter().map(|c| c.cells.iter().map(|&x| x as usize).collect()).collect();
        for (k, cs) in cells.iter().enumerate() {
            for &c in cs {
                cage_of[c] = k;
            }
        }
        let full = vec![((1u32 << (n + 1)) - 2) as u16; n * n];
        let tuples = cells
            .iter()
            .zip(&puzzle.cages)
            .map(|(cs, cage)| {
                let mut flat = Vec::new();
                let mut over = false;
                let clash = |i: usize, j: usize| cs[i] / n == cs[j] / n || cs[i] % n == cs[j] % n;
                for_each_tuple(cage.op, cage.target, cs, &full, &clash, &mut |t| {
                    if flat.len() + t.len() > TUPLE_BUDGET {
                        over = true;
                    } else {
                        flat.extend_from_slice(t);
                    }
                });
                (!over).then_some(flat)
            })
            .collect();
        Board { puzzle, n, cage_of, cells, tuples }
    }

    pub fn full(&self) -> u16 {
        ((1u32 << (self.n + 1)) - 2) as u16
    }

    /// The union of digits each cell of cage `k` takes over the cage's valid tuples, and the
    /// digits every tuple uses. `None` when no tuple fits.
    pub fn cage_options(&self, k: usize, cand: &[u16]) -> Option<(Vec<u16>, u16)> {
        let mut union = [0u16; 16];
        let must = self.cage_union(k, cand, &mut union)?;
        Some((union[..self.cells[k].len()].to_vec(), must))
    }

    /// `cage_options` into a fixed buffer, allocation-free (the propagation hot path).
    fn cage_union(&self, k: usize, cand: &[u16], union: &mut [u16; 16]) -> Option<u16> {
        let cells = &self.cells[k];
        let len = cells.len();
        let mut must = u16::MAX;
        let mut any = false;
        match &self.tuples[k] {
            Some(flat) => {
                for t in flat.chunks_exact(len.max(1)) {
                    if cells.iter().zip(t).all(|(&c, &d)| cand[c] >> d & 1 == 1) {
                        any = true;
                        let mut used = 0u16;
                        for (u, &d) in union.iter_mut().zip(t) {
                            *u |= 1 << d;
                            used |= 1 << d;
                        }
                        must &= used;
                    }
                }
            }
            None => {
                let cage = &self.puzzle.cages[k];
                let n = self.n;
                let clash = |i: usize, j: usize| cells[i] / n == cells[j] / n || cells[i] % n == cells[j] % n;
                for_each_tuple(cage.op, cage.target, cells, cand, &clash, &mut |t| {
                    any = true;
                    let mut used = 0u16;
                    for (u, &d) in union.iter_mut().zip(t) {
                        *u |= 1 << d;
                        used |= 1 << d;
                    }
                    must &= used;
                });
            }
        }
        any.then_some(must)
    }

    /// Propagate to a fixpoint from scratch. False on a contradiction.
    pub fn propagate(&self, cand: &mut [u16]) -> bool {
        self.propagate_from(cand, None)
    }

    /// Propagate after only `changed` was set (its cage and whatever changes after it are
    /// re-filtered; every cage when `None`). False on a contradiction.
    pub fn propagate_from(&self, cand: &mut [u16], changed: Option<usize>) -> bool {
        let n = self.n;
        let full = self.full();
        // Bit sets over cages and cells (at most 144 of each): no allocation per call.
        let mut dirty = match changed {
            None => u256::all(self.cells.len()),
            Some(c) => {
                let mut d = u256::ZERO;
                d.set(self.cage_of[c]);
                d
            }
        };
        let mut settled = u256::ZERO;
        loop {
            let mut changed = false;
            // Fixed cells clear their line peers.
            for c in 0..n * n {
                let m = cand[c];
                if m == 0 {
                    return false;
                }
                if m & (m - 1) == 0 && !settled.get(c) {
                    settled.set(c);
                    let (r, col) = (c / n, c % n);
                    for i in 0..n {
                        for p in [r * n + i, i * n + col] {
                            if p != c && cand[p] & m != 0 {
                                cand[p] &= !m;
                                if cand[p] == 0 {
                                    return false;
                                }
                                dirty.set(self.cage_of[p]);
                                changed = true;
                            }
                        }
                    }
                }
            }
            // Hidden singles in lines.
            for line in 0..2 * n {
                let cell = |i: usize| if line < n { line * n + i } else { i * n + (line - n) };
                let (mut once, mut twice) = (0u16, 0u16);
                for i in 0..n {
                    let m = cand[cell(i)];
                    twice |= once & m;
                    once |= m;
                }
                if once != full {
                    return false;
                }
                let mut single = once & !twice;
                while single != 0 {
                    let d = single & single.wrapping_neg();
                    single ^= d;
                    // Gone when another single of this line took its only cell: a contradiction.
                    let Some(c) = (0..n).map(cell).find(|&c| cand[c] & d != 0) else { return false };
                    if cand[c] != d {
                        cand[c] = d;
                        dirty.set(self.cage_of[c]);
                        changed = true;
                    }
                }
            }
            // Cages.
            let mut union = [0u16; 16];
            for k in 0..self.cells.len() {
                if !dirty.get(k) {
                    continue;
                }
                dirty.clear(k);
                union.fill(0);
                if self.cage_union(k, cand, &mut union).is_none() {
                    return false;
                }
                for (&c, &u) in self.cells[k].iter().zip(&union) {
                    if cand[c] & !u != 0 {
                        cand[c] &= u;
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }
}

/// A 256-bit set (cells or cages of grids up to 12×12, 16×16).
#[allow(non_camel_case_types)]
#[derive(Clone, Copy)]
struct u256([u64; 4]);

impl u256 {
    const ZERO: u256 = u256([0; 4]);
    fn all(n: usize) -> u256 {
        let mut s = u256::ZERO;
        for i in 0..n {
            s.set(i);
        }
        s
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
}

/// What a count found.
pub struct Found {
    pub count: usize,
    pub first: Option<Vec<u8>>,
    pub second: Option<Vec<u8>>,
}

fn grid(cand: &[u16]) -> Vec<u8> {
    cand.iter().map(|&m| m.trailing_zeros() as u8).collect()
}

fn search(board: &Board, mut cand: Vec<u16>, changed: Option<usize>, limit: usize, found: &mut Found) {
    if !board.propagate_from(&mut cand, changed) {
        return;
    }
    let pick = (0..cand.len()).filter(|&c| cand[c].count_ones() > 1).min_by_key(|&c| cand[c].count_ones());
    let Some(c) = pick else {
        match found.count {
            0 => found.first = Some(grid(&cand)),
            1 => found.second = Some(grid(&cand)),
            _ => {}
        }
        found.count += 1;
        return;
    };
    let mut m = cand[c];
    while m != 0 && found.count < limit {
        let d = m & m.wrapping_neg();
        m ^= d;
        let mut next = cand.clone();
        next[c] = d;
        search(board, next, Some(c), limit, found);
    }
}

/// Count the solutions of `puzzle` up to `limit`, keeping the first two.
pub fn count_solutions(puzzle: &KenKen, limit: usize) -> Found {
    let board = Board::new(puzzle);
    let mut found = Found { count: 0, first: None, second: None };
    if limit > 0 && board.cage_of.iter().all(|&k| k != usize::MAX) {
        search(&board, vec![board.full(); board.n * board.n], None, limit, &mut found);
    }
    found
}
