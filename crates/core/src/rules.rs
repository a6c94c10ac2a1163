//! A kind's rules written out plainly, and a simple solver that knows nothing else: the
//! conformance suite's independent check that a generated puzzle has exactly one solution.
//!
//! `Rules` are cells on a row-major board (a cell may be no cell at all: a Kakuro block), the
//! digits 1 to `symbols`, groups of cells (each without repeats or not, and with an arithmetic
//! clue or not) and relations between cells (one smaller than another; how many of a line's
//! cells a viewer at its start sees). The solver is a plain depth-first search that fills the open cell
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
    pub relations: Vec<Relation>,
}

/// A rule between cells that is not a group's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Relation {
    /// The first cell's digit is smaller than the second's (Futoshiki's marks).
    Less(usize, usize),
    /// Seen from before `cells[0]`, along the cells in order, a digit is visible when it is
    /// larger than every digit before it; exactly `count` are (Skyscrapers' clues).
    Sees { cells: Vec<usize>, count: u8 },
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
    let mut relations_of = vec![Vec::new(); rules.cells.len()];
    for (i, r) in rules.relations.iter().enumerate() {
        match r {
            Relation::Less(a, b) => {
                relations_of[*a].push(i);
                relations_of[*b].push(i);
            }
            Relation::Sees { cells, .. } => cells.iter().for_each(|&c| relations_of[c].push(i)),
        }
    }
    let mut s = Search {
        rules,
        of_cell,
        relations_of,
        values: rules.cells.iter().map(|c| c.unwrap_or(0)).collect(),
        found: Found { count: 0, first: None },
        limit,
    };
    if (0..rules.groups.len()).all(|g| s.holds(g)) && (0..rules.relations.len()).all(|r| s.relation_holds(r)) {
        s.search();
    }
    s.found
}

struct Search<'a> {
    rules: &'a Rules,
    of_cell: Vec<Vec<usize>>,
    relations_of: Vec<Vec<usize>>,
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

    /// Whether relation `r` can still hold, judged by its digits so far.
    fn relation_holds(&self, r: usize) -> bool {
        let n = self.rules.symbols;
        match &self.rules.relations[r] {
            Relation::Less(a, b) => match (self.values[*a], self.values[*b]) {
                (0, 0) => true,
                (x, 0) => x < n,
                (0, y) => y > 1,
                (x, y) => x < y,
            },
            Relation::Sees { cells, count } => {
                // The cells filled from the start: those seen so far, and how many more could be.
                let (mut seen, mut top, mut filled) = (0u8, 0u8, 0usize);
                for &c in cells {
                    let d = self.values[c];
                    if d == 0 {
                        break;
                    }
                    filled += 1;
                    if d > top {
                        seen += 1;
                        top = d;
                    }
                }
                if filled == cells.len() {
                    return seen == *count;
                }
                // Each cell left may add one more, and only digits above the tallest so far can.
                let left = (cells.len() - filled) as u8;
                seen <= *count && seen + left.min(n - top) >= *count
            }
        }
    }

    /// The digits cell `c` may take now.
    fn allowed(&mut self, c: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for d in 1..=self.rules.symbols {
            self.values[c] = d;
            if self.of_cell[c].iter().all(|&g| self.holds(g))
                && self.relations_of[c].iter().all(|&r| self.relation_holds(r))
            {
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
        Rules { width: 4, cells: givens.iter().map(|&d| Some(d)).collect(), symbols: 4, groups, relations: Vec::new() }
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
            relations: Vec::new(),
        };
        let f = count(&none, 10);
        assert_eq!((f.count, f.first), (2, Some(vec![0, 1, 2])));
    }

    #[test]
    fn relations_narrow_the_squares() {
        // Row 0 increasing left to right: 1 2 3 4, and the other rows any way: 24 squares.
        let mut r = latin(&[0; 16]);
        r.relations = (0..3).map(|c| Relation::Less(c, c + 1)).collect();
        assert_eq!(count(&r, 1000).count, 24);
        assert_eq!(count(&r, 1000).first.unwrap()[..4], [1, 2, 3, 4]);
        // A cycle can never hold.
        r.relations.push(Relation::Less(3, 0));
        assert_eq!(count(&r, 1000).count, 0);
        // Row 0 seen from the left shows 4 (so it is 1 2 3 4), from the right 1 (4 last).
        let mut r = latin(&[0; 16]);
        r.relations.push(Relation::Sees { cells: vec![0, 1, 2, 3], count: 4 });
        r.relations.push(Relation::Sees { cells: vec![3, 2, 1, 0], count: 1 });
        let all = count(&r, 1000);
        assert_eq!(all.count, 24);
        assert_eq!(all.first.unwrap()[..4], [1, 2, 3, 4]);
        // Seen from the left 2: the lines of 4 digits with two visible are 11 of 24, each with
        // the 6 ways of the rest... counted against a brute force over the row's orders.
        let mut r = latin(&[0; 16]);
        r.relations.push(Relation::Sees { cells: vec![0, 1, 2, 3], count: 2 });
        let seen = |p: &[u8]| p.iter().fold((0, 0), |(n, top), &d| if d > top { (n + 1, d) } else { (n, top) }).0;
        let mut rows = 0;
        for p in permutations(&[1, 2, 3, 4]) {
            if seen(&p) == 2 {
                rows += 1;
            }
        }
        assert_eq!(count(&r, 100_000).count, rows * 24);
    }

    fn permutations(items: &[u8]) -> Vec<Vec<u8>> {
        if items.len() <= 1 {
            return vec![items.to_vec()];
        }
        let mut out = Vec::new();
        for i in 0..items.len() {
            let mut rest = items.to_vec();
            let x = rest.remove(i);
            for mut p in permutations(&rest) {
                p.insert(0, x);
                out.push(p);
            }
        }
        out
    }
}
