//! A kind's rules written out plainly, and a simple solver that knows nothing else: the
//! conformance suite's independent check that a generated puzzle has exactly one solution.
//!
//! `Rules` are cells on a row-major board (a cell may be no cell at all: a Kakuro block), the
//! digits 1 to `symbols`, and groups of cells: each without repeats or not, and with an
//! arithmetic clue or not. The solver is a plain depth-first search that fills the open cell
//! with the fewest digits the groups allow. It shares no code with any kind's solver and is far
//! slower: it is a witness, not a tool.

use crate::common::cage::Op;

/// A board's cells and the groups that constrain them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The board's width: cell `i` is at row `i / width`, column `i % width` (as paths name
    /// cells).
    pub width: usize,
    /// Row-major: `None` where there is no cell, `Some(0)` for an open cell, `Some(d)` a given.
    pub cells: Vec<Option<u8>>,
    /// Every cell holds a digit from 1 to `symbols`.
    pub symbols: u8,
    pub groups: Vec<Group>,
}

/// Cells that together obey a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub cells: Vec<usize>,
    /// No digit twice.
    pub distinct: bool,
    /// An arithmetic clue on the cells' digits: the operation and its result.
    pub clue: Option<(Op, u32)>,
}

impl Group {
    /// Cells without repeats and without a clue (a row, a column, a box).
    pub fn house(cells: Vec<usize>) -> Group {
        Group { cells, distinct: true, clue: None }
    }
}

/// What the simple solver found: the number of solutions up to the limit, and the first, as the
/// board's digits (0 where there is no cell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub count: usize,
    pub first: Option<Vec<u8>>,
}

/// Count the solutions of `rules` up to `limit`.
pub fn count(rules: &Rules, limit: usize) -> Found {
    let mut of_cell = vec![Vec::new(); rules.cells.len()];
    for (g, group) in rules.groups.iter().enumerate() {
        for &c in &group.cells {
            of_cell[c].push(g);
        }
    }
    let mut s = Search {
        rules,
        of_cell,
        values: rules.cells.iter().map(|c| c.unwrap_or(0)).collect(),
        found: Found { count: 0, first: None },
        limit,
    };
    if (0..rules.groups.len()).all(|g| s.holds(g)) {
        s.search();
    }
    s.found
}

struct Search<'a> {
    rules: &'a Rules,
    of_cell: Vec<Vec<usize>>,
    values: Vec<u8>,
    found: Found,
    limit: usize,
}

impl Search<'_> {
    /// Whether group `g` can still be completed, judged by its digits so far.
    fn holds(&self, g: usize) -> bool {
        let group = &self.rules.groups[g];
        let digits: Vec<u8> = group.cells.iter().map(|&c| self.values[c]).filter(|&d| d > 0).collect();
        if group.distinct {
            let mut seen = 0u64;
            for &d in &digits {
                if seen & (1 << d) != 0 {
                    return false;
                }
                seen |= 1 << d;
            }
        }
        let Some((op, target)) = group.clue else { return true };
        let open = (group.cells.len() - digits.len()) as u32;
        if open == 0 {
            // Every cell filled: the clue holds as the operation defines it.
            return op.satisfied(target, &digits);
        }
        // Cells still open: can the clue still be met?
        let sum_fits = || {
            let s: u32 = digits.iter().map(|&d| d as u32).sum();
            s + open <= target && target <= s + open * self.rules.symbols as u32
        };
        let product_fits = || (target as u64).is_multiple_of(digits.iter().map(|&d| d as u64).product());
        match op {
            Op::Add => sum_fits(),
            Op::Mul => product_fits(),
            // An unknown operator on more than two cells: `+` or `*`.
            Op::Any if group.cells.len() > 2 => sum_fits() || product_fits(),
            // `-`, `/`, a given and an unknown operator on two cells are decided once full.
            _ => true,
        }
    }

    /// The digits cell `c` may take now.
    fn allowed(&mut self, c: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for d in 1..=self.rules.symbols {
            self.values[c] = d;
            if self.of_cell[c].iter().all(|&g| self.holds(g)) {
                out.push(d);
            }
        }
        self.values[c] = 0;
        out
    }

    fn search(&mut self) {
        let mut best: Option<(usize, Vec<u8>)> = None;
        for c in 0..self.values.len() {
            if self.values[c] != 0 || self.rules.cells[c].is_none() {
                continue;
            }
            let a = self.allowed(c);
            if best.as_ref().is_none_or(|(_, b)| a.len() < b.len()) {
                let empty = a.is_empty();
                best = Some((c, a));
                if empty {
                    break;
                }
            }
        }
        let Some((c, digits)) = best else {
            self.found.count += 1;
            if self.found.first.is_none() {
                self.found.first = Some(self.values.clone());
            }
            return;
        };
        for d in digits {
            self.values[c] = d;
            self.search();
            if self.found.count >= self.limit {
                break;
            }
        }
        self.values[c] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4×4 Latin square with its rows and columns.
    fn latin(givens: &[u8]) -> Rules {
        let mut groups = Vec::new();
        for i in 0..4 {
            groups.push(Group::house((0..4).map(|j| i * 4 + j).collect()));
            groups.push(Group::house((0..4).map(|j| j * 4 + i).collect()));
        }
        Rules { width: 4, cells: givens.iter().map(|&d| Some(d)).collect(), symbols: 4, groups }
    }

    #[test]
    fn counts_latin_squares_and_stops_at_the_limit() {
        // 576 Latin squares of order 4.
        assert_eq!(count(&latin(&[0; 16]), 1000).count, 576);
        assert_eq!(count(&latin(&[0; 16]), 2).count, 2);
        let mut g = [0u8; 16];
        g[..4].copy_from_slice(&[1, 2, 3, 4]);
        assert_eq!(count(&latin(&g), 1000).count, 24);
        g[4] = 1; // a repeat in column 0
        assert_eq!(count(&latin(&g), 1000).count, 0);
    }

    #[test]
    fn clues_narrow_the_squares() {
        let mut r = latin(&[0; 16]);
        // The first row's cells 0 and 1: a difference of 3 (1 and 4); a product of 12 on 2 and 3.
        r.groups.push(Group { cells: vec![0, 1], distinct: false, clue: Some((Op::Sub, 3)) });
        r.groups.push(Group { cells: vec![2, 3], distinct: false, clue: Some((Op::Mul, 6)) });
        let all = count(&r, 1000);
        assert!(all.count > 0);
        let first = all.first.unwrap();
        assert_eq!(first[0].abs_diff(first[1]), 3);
        assert_eq!(first[2] as u32 * first[3] as u32, 6);
        // A cell that is no cell stays 0 and constrains nothing.
        let none = Rules {
            width: 3,
            cells: vec![None, Some(0), Some(0)],
            symbols: 9,
            groups: vec![Group { cells: vec![1, 2], distinct: true, clue: Some((Op::Add, 3)) }],
        };
        let f = count(&none, 10);
        assert_eq!((f.count, f.first), (2, Some(vec![0, 1, 2])));
    }
}
