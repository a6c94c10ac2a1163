//! The fast counter: candidates as bit sets (bit d for digit d), propagated to a fixed point
//! by the Latin rules (the core's `latin_count`) and the marks (a < b: a's candidates below b's
//! largest, b's above a's smallest), then the core's search on the open cell with the fewest
//! candidates.

use crate::Futoshiki;
pub(crate) use pf_core::common::latin_count::Propagate;
pub(crate) use pf_core::common::latin_count::{above, below, count_from, high, low, Count};
use pf_core::common::latin_count::{propagate_line, shared_square_lines};

/// The counter's search gives up after this many nodes (the puzzle is then `undecided`).
pub const SOLVE_BUDGET: u64 = 1 << 22;

/// The puzzle's structure for propagation: lines and marks per cell.
pub(crate) struct Board {
    pub n: usize,
    /// Every row, then every column, as cell indices.
    pub lines: &'static [Vec<usize>],
    /// The marks as (smaller, larger).
    pub less: Vec<(usize, usize)>,
    /// The marks each cell is in: cell c's are `mark_list[mark_start[c]..mark_start[c + 1]]`
    /// (two lists for the board, not one per cell: a board is built at every clue the generator
    /// tries).
    mark_start: Vec<u32>,
    mark_list: Vec<usize>,
}

/// The order of the board's marks: by the pair's first cell, then its second.
pub(crate) fn mark_order(&(a, b): &(usize, usize)) -> (usize, usize) {
    (a.min(b), a.max(b))
}

impl Board {
    pub fn new(p: &Futoshiki) -> Board {
        let n = p.size as usize;
        // In board order, whatever order the puzzle lists them in: the ladder scans marks in
        // this order, so a puzzle read back from its JSON (which sorts them) rates exactly as the
        // one generated. The generator's lists are in this order already.
        let mut less: Vec<(usize, usize)> = p.less.iter().map(|&(a, b)| (a as usize, b as usize)).collect();
        if !less.is_sorted_by_key(mark_order) {
            less.sort_unstable_by_key(mark_order);
        }
        let mut mark_start = vec![0u32; n * n + 1];
        for &(a, b) in &less {
            mark_start[a + 1] += 1;
            mark_start[b + 1] += 1;
        }
        for c in 0..n * n {
            mark_start[c + 1] += mark_start[c];
        }
        let mut next: Vec<u32> = mark_start[..n * n].to_vec();
        let mut mark_list = vec![0; 2 * less.len()];
        for (i, &(a, b)) in less.iter().enumerate() {
            for c in [a, b] {
                mark_list[next[c] as usize] = i;
                next[c] += 1;
            }
        }
        Board { n, lines: shared_square_lines(n), less, mark_start, mark_list }
    }

    /// The marks cell `c` is in, in board order.
    pub fn marks_of(&self, c: usize) -> &[usize] {
        &self.mark_list[self.mark_start[c] as usize..self.mark_start[c + 1] as usize]
    }

    /// The starting candidates: every digit, a given's alone.
    pub fn start(&self, givens: &[u8]) -> Vec<u16> {
        pf_core::common::latin_count::start(self.n, givens)
    }
}

impl Propagate for Board {
    fn n(&self) -> usize {
        self.n
    }

    fn lines(&self) -> &[Vec<usize>] {
        self.lines
    }

    /// Propagate to a fixed point; false on a contradiction (a cell with no candidate, a digit
    /// with no place in a line). Work lists: a mark is looked at again when one of its cells
    /// changed, a line when one of its cells did.
    fn propagate(&self, cand: &mut [u16]) -> bool {
        let n = self.n;
        let mut lines: u32 = (1u32 << (2 * n)) - 1;
        let mut marks = [0u64; MARK_WORDS];
        for i in 0..self.less.len() {
            marks[i / 64] |= 1 << (i % 64);
        }
        // Cell `c` now holds `m` (a strict subset of what it held): its lines and marks again.
        let touch = |c: usize, lines: &mut u32, marks: &mut [u64; MARK_WORDS]| {
            *lines |= 1 << (c / n) | 1 << (n + c % n);
            for &i in self.marks_of(c) {
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
            if !propagate_line(n, &self.lines[l], cand, |c| touch(c, &mut lines, &mut marks)) {
                return false;
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

pub fn count_solutions(p: &Futoshiki, limit: usize) -> Count {
    count_within(p, limit, SOLVE_BUDGET)
}

#[cfg(test)]
mod tests {
    use super::*;

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
