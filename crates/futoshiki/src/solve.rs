//! The fast counter: candidates as bit sets (bit d for digit d), propagated to a fixed point
//! by the Latin rules (a placed digit leaves its row and column; a digit with one place left in
//! a line goes there) and the marks (a < b: a's candidates below b's largest, b's above a's
//! smallest), then a search on the open cell with the fewest candidates.

use crate::Futoshiki;

/// The counter's search gives up after this many nodes (the puzzle is then `undecided`).
pub const SOLVE_BUDGET: u64 = 1 << 22;

/// What a count found.
pub struct Count {
    pub count: usize,
    /// The first solution, row-major digits.
    pub first: Option<Vec<u8>>,
    /// The second, when there is one (the generator adds a given where the two differ).
    pub second: Option<Vec<u8>>,
    /// The budget ran out before the count was decided.
    pub aborted: bool,
}

/// Bits of the digits below `d` (1..d-1).
#[inline]
pub(crate) fn below(d: u32) -> u16 {
    ((1u32 << d) - 2) as u16
}

/// Bits of the digits above `d` up to `n`.
#[inline]
pub(crate) fn above(d: u32, n: usize) -> u16 {
    (((1u32 << (n + 1)) - 1) & !((1u32 << (d + 1)) - 1)) as u16
}

#[inline]
pub(crate) fn high(m: u16) -> u32 {
    15 - m.leading_zeros()
}

#[inline]
pub(crate) fn low(m: u16) -> u32 {
    m.trailing_zeros()
}

/// The puzzle's structure for propagation: lines and marks per cell.
pub(crate) struct Board {
    pub n: usize,
    /// Every row, then every column, as cell indices.
    pub lines: Vec<Vec<usize>>,
    /// The marks as (smaller, larger).
    pub less: Vec<(usize, usize)>,
    /// For each cell, the marks it is in.
    pub marks_of: Vec<Vec<usize>>,
}

impl Board {
    pub fn new(p: &Futoshiki) -> Board {
        let n = p.size as usize;
        let mut lines = Vec::with_capacity(2 * n);
        for i in 0..n {
            lines.push((0..n).map(|j| i * n + j).collect());
        }
        for i in 0..n {
            lines.push((0..n).map(|j| j * n + i).collect());
        }
        // In board order (by the pair's first cell, then its second), whatever order the puzzle
        // lists them in: the ladder scans marks in this order, so a puzzle read back from its
        // JSON (which sorts them) rates exactly as the one generated.
        let mut less: Vec<(usize, usize)> = p.less.iter().map(|&(a, b)| (a as usize, b as usize)).collect();
        less.sort_unstable_by_key(|&(a, b)| (a.min(b), a.max(b)));
        let mut marks_of = vec![Vec::new(); n * n];
        for (i, &(a, b)) in less.iter().enumerate() {
            marks_of[a].push(i);
            marks_of[b].push(i);
        }
        Board { n, lines, less, marks_of }
    }

    /// The starting candidates: every digit, a given's alone.
    pub fn start(&self, givens: &[u8]) -> Vec<u16> {
        let all = ((1u32 << (self.n + 1)) - 2) as u16;
        givens.iter().map(|&d| if d == 0 { all } else { 1 << d }).collect()
    }

    /// Propagate to a fixed point; false on a contradiction (a cell with no candidate, a digit
    /// with no place in a line). Work lists: a mark is looked at again when one of its cells
    /// changed, a line when one of its cells did.
    pub fn propagate(&self, cand: &mut [u16]) -> bool {
        let n = self.n;
        let full = ((1u32 << (n + 1)) - 2) as u16;
        let mut lines: u32 = (1u32 << (2 * n)) - 1;
        let mut marks = [0u64; MARK_WORDS];
        for i in 0..self.less.len() {
            marks[i / 64] |= 1 << (i % 64);
        }
        // Cell `c` now holds `m` (a strict subset of what it held): its lines and marks again.
        let touch = |c: usize, lines: &mut u32, marks: &mut [u64; MARK_WORDS]| {
            *lines |= 1 << (c / n) | 1 << (n + c % n);
            for &i in &self.marks_of[c] {
                marks[i / 64] |= 1 << (i % 64);
            }
        };
        loop {
            if let Some(w) = marks.iter().position(|&x| x != 0) {
                let i = w * 64 + marks[w].trailing_zeros() as usize;
                marks[w] &= marks[w] - 1;
                let (a, b) = self.less[i];
                let (ca, cb) = (cand[a], cand[b]);
                let na = ca & below(high(cb));
                let nb = cb & above(low(ca), n);
                if na == 0 || nb == 0 {
                    return false;
                }
                if na != ca {
                    cand[a] = na;
                    touch(a, &mut lines, &mut marks);
                }
                if nb != cb {
                    cand[b] = nb;
                    touch(b, &mut lines, &mut marks);
                }
                continue;
            }
            if lines == 0 {
                return true;
            }
            let l = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            let line = &self.lines[l];
            // Placed digits leave the others; a digit with one place goes there.
            let mut placed = 0u16;
            for &c in line {
                if cand[c].count_ones() == 1 {
                    if placed & cand[c] != 0 {
                        return false;
                    }
                    placed |= cand[c];
                }
            }
            let (mut once, mut twice) = (0u16, 0u16);
            for &c in line {
                let m = cand[c];
                let m = if m.count_ones() > 1 {
                    let nm = m & !placed;
                    if nm == 0 {
                        return false;
                    }
                    if nm != m {
                        cand[c] = nm;
                        touch(c, &mut lines, &mut marks);
                    }
                    nm
                } else {
                    m
                };
                twice |= once & m;
                once |= m;
            }
            if once != full {
                return false;
            }
            let single = once & !twice & !placed;
            if single != 0 {
                for &c in line {
                    let hit = cand[c] & single;
                    // The only place of two digits: a contradiction, whatever else it holds.
                    if hit.count_ones() > 1 {
                        return false;
                    }
                    if hit != 0 && cand[c] != hit {
                        cand[c] = hit;
                        touch(c, &mut lines, &mut marks);
                    }
                }
            }
        }
    }
}

/// Words of the marks' work list: 2·N·(N−1) marks, 264 at N = 12.
const MARK_WORDS: usize = 5;

/// Count the solutions up to `limit`, within `budget` search nodes.
pub fn count_within(p: &Futoshiki, limit: usize, budget: u64) -> Count {
    let board = Board::new(p);
    let cand = board.start(&p.givens);
    count_from(&board, cand, limit, budget)
}

/// Count the solutions from candidates `cand` (each cell's digits still allowed).
pub(crate) fn count_from(board: &Board, mut cand: Vec<u16>, limit: usize, budget: u64) -> Count {
    let mut out = Count { count: 0, first: None, second: None, aborted: false };
    if board.propagate(&mut cand) {
        let mut nodes = 0u64;
        search(board, cand, limit, budget, &mut nodes, &mut out);
    }
    out
}

pub fn count_solutions(p: &Futoshiki, limit: usize) -> Count {
    count_within(p, limit, SOLVE_BUDGET)
}

fn search(board: &Board, cand: Vec<u16>, limit: usize, budget: u64, nodes: &mut u64, out: &mut Count) {
    *nodes += 1;
    if *nodes > budget {
        out.aborted = true;
        return;
    }
    // Branch on the open cell with the fewest candidates, or on the (line, digit) with the fewest
    // places when that is fewer.
    let pick = (0..cand.len()).filter(|&c| cand[c].count_ones() > 1).min_by_key(|&c| cand[c].count_ones());
    let Some(c) = pick else {
        let digits: Vec<u8> = cand.iter().map(|&m| low(m) as u8).collect();
        out.count += 1;
        if out.first.is_none() {
            out.first = Some(digits);
        } else if out.second.is_none() {
            out.second = Some(digits);
        }
        return;
    };
    let width = cand[c].count_ones();
    let mut best_line: Option<(usize, u8, u32)> = None;
    if width > 2 {
        for (l, line) in board.lines.iter().enumerate() {
            for d in 1..=board.n as u8 {
                let bit = 1u16 << d;
                let mut places = 0;
                let mut single = false;
                for &x in line {
                    if cand[x] & bit != 0 {
                        places += 1;
                        single |= cand[x] == bit;
                    }
                }
                if !single && places < width && best_line.is_none_or(|b| places < b.2) {
                    best_line = Some((l, d, places));
                }
            }
        }
    }
    if let Some((l, d, _)) = best_line {
        for &x in &board.lines[l] {
            if cand[x] >> d & 1 == 0 {
                continue;
            }
            let mut next = cand.clone();
            next[x] = 1 << d;
            if board.propagate(&mut next) {
                search(board, next, limit, budget, nodes, out);
            }
            if out.count >= limit || out.aborted {
                return;
            }
        }
        return;
    }
    let mut m = cand[c];
    while m != 0 {
        let d = low(m);
        m &= m - 1;
        let mut next = cand.clone();
        next[c] = 1 << d;
        if board.propagate(&mut next) {
            search(board, next, limit, budget, nodes, out);
        }
        if out.count >= limit || out.aborted {
            return;
        }
    }
}

/// The candidates after assuming digit `d` in cell `c` and propagating, or None when that fails
/// (forcing chains and trial).
pub(crate) fn assume(board: &Board, cand: &[u16], c: usize, d: u8) -> Option<Vec<u16>> {
    let mut next = cand.to_vec();
    next[c] = 1 << d;
    board.propagate(&mut next).then_some(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(below(1), 0);
        assert_eq!(below(4), 0b1110);
        assert_eq!(above(2, 4), 0b11000);
        assert_eq!(above(4, 4), 0);
        assert_eq!((high(0b10100), low(0b10100)), (4, 2));
    }

    #[test]
    fn counts_latin_squares_with_marks() {
        // No clue at all: 576 Latin squares of order 4.
        let empty = Futoshiki { size: 4, givens: vec![0; 16], less: Vec::new() };
        assert_eq!(count_within(&empty, 1000, u64::MAX).count, 576);
        // Row 0 rising: 24.
        let rising = Futoshiki { less: vec![(0, 1), (1, 2), (2, 3)], ..empty.clone() };
        let c = count_within(&rising, 1000, u64::MAX);
        assert_eq!(c.count, 24);
        assert_eq!(c.first.unwrap()[..4], [1, 2, 3, 4]);
        // A cycle: none.
        let cycle = Futoshiki { less: vec![(0, 1), (1, 5), (5, 4), (4, 0)], ..empty };
        assert_eq!(count_within(&cycle, 10, u64::MAX).count, 0);
    }
}
