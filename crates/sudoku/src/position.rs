//! A Sudoku position as a person solving with pencil marks sees it: placed digits and the
//! candidates left in every empty cell, kept per cell, per digit, and (for the singles level)
//! as running counts per house.
//!
//! Invariants, kept by `drop_candidate`, the one place a candidate leaves:
//! * an empty cell's candidates never contain a digit placed in one of its peers once `place`
//!   has run; `digit_cells[d]` is exactly the set of empty cells whose candidates hold `d`;
//! * `places[h][d]` is the number of cells of house `h` that can still take `d`;
//!   `once[h]` holds the digits with exactly one place in `h`; `open_pairs` and `hidden` count
//!   the (house, digit) pairs with at least one and exactly one place; `single_cells` are the
//!   empty cells with one candidate. The singles level reads these instead of rescanning the
//!   grid after every placement (the rater's hottest loop).
//!
//! The position knows the solution only to audit soundness (`unsound` counts steps that
//! contradicted it) and for the trial level's last-resort guess.

use super::geometry::{houses_of, Cells, HOUSES, HOUSE_MASK, PEERS};
use pf_core::common::DigitSet;

#[derive(Clone)]
pub struct Position {
    pub value: [u8; 81],
    pub cand: [DigitSet; 81],
    /// `digit_cells[d]` for d in 1..=9 (index 0 unused).
    pub digit_cells: [Cells; 10],
    pub empty: Cells,
    pub solution: [u8; 81],
    /// Steps applied that removed a solution digit or placed a wrong one (must stay 0).
    pub unsound: u32,
    places: [[u8; 10]; 27],
    once: [u16; 27],
    open_pairs: u32,
    hidden: u32,
    single_cells: Cells,
    /// Bumped whenever a candidate leaves a cell of the house: what the subset techniques'
    /// per-house results are keyed by.
    pub(super) house_gen: [u32; 27],
    /// Those results (`scan_cache::SubsetCache`), made at the first subset scan.
    pub(super) subsets: Option<super::scan_cache::SubsetCache>,
    /// Fish results per digit (`scan_cache::FishCache`), made at the first fish scan.
    pub(super) fish: Option<super::scan_cache::FishCache>,
}

pub use super::step::Step;

impl Drop for Position {
    /// Its scan caches go to the next position rated on this thread (`scan_cache::give_back`).
    fn drop(&mut self) {
        super::scan_cache::give_back(self.subsets.take(), self.fish.take());
    }
}

impl Position {
    /// The position after placing the givens, built in one pass: the same state as placing
    /// them one by one (`place`), without the several hundred single-candidate removals that
    /// took (measured) a fifth of a rating.
    pub fn new(puzzle: &[u8; 81], solution: &[u8; 81]) -> Position {
        let mut placed = [0u16; 27];
        for (cell, &d) in puzzle.iter().enumerate() {
            if d != 0 {
                for h in houses_of(cell) {
                    placed[h] |= 1 << d;
                }
            }
        }
        let mut p = Position {
            value: *puzzle,
            cand: [DigitSet::EMPTY; 81],
            digit_cells: [Cells::EMPTY; 10],
            empty: Cells::EMPTY,
            solution: *solution,
            unsound: 0,
            places: [[0; 10]; 27],
            once: [0; 27],
            open_pairs: 0,
            hidden: 0,
            single_cells: Cells::EMPTY,
            house_gen: [0; 27],
            subsets: None,
            fish: None,
        };
        for cell in (0..81).filter(|&c| puzzle[c] == 0) {
            let hs = houses_of(cell);
            let cand = DigitSet::full(9).without(DigitSet::from_bits(placed[hs[0]] | placed[hs[1]] | placed[hs[2]]));
            p.cand[cell] = cand;
            p.empty = p.empty.or(Cells::one(cell));
            if cand.len() == 1 {
                p.single_cells = p.single_cells.or(Cells::one(cell));
            }
        }
        // Digit by digit, without a branch: its places are the empty cells outside the houses
        // holding it, and a house's count is a popcount. (Counting cell by cell, candidate by
        // candidate, chained every update through memory: 3% of a generation run, perf.)
        for d in 1..=9 {
            let blocked = HOUSE_MASK
                .iter()
                .zip(&placed)
                .fold(0u128, |m, (house, &digits)| m | (house.0 & u128::from(digits >> d & 1).wrapping_neg()));
            let cells = p.empty.0 & !blocked;
            p.digit_cells[d] = Cells(cells);
            for (h, house) in HOUSE_MASK.iter().enumerate() {
                let n = (cells & house.0).count_ones();
                p.places[h][d] = n as u8;
                p.open_pairs += u32::from(n > 0);
                p.once[h] |= u16::from(n == 1) << d;
            }
        }
        p.hidden = p.once.iter().map(|m| m.count_ones()).sum();
        p
    }

    /// Take `d` out of empty cell `c`'s candidates (it must be there), keeping every count.
    #[inline]
    fn drop_candidate(&mut self, c: usize, d: u8) {
        // Without a branch on the counts left (which way they go is data, and mispredicted):
        // by the invariants, a cell is in `single_cells` exactly when it has one candidate,
        // and `d` is in `once[h]` exactly when it has one place in `h`.
        self.cand[c].remove(d);
        let bit = Cells::one(c);
        self.digit_cells[d as usize] = self.digit_cells[d as usize].minus(bit);
        let one_left = u128::from(self.cand[c].len() == 1);
        self.single_cells = Cells((self.single_cells.0 & !bit.0) | (bit.0 & one_left.wrapping_neg()));
        for h in houses_of(c) {
            self.house_gen[h] = self.house_gen[h].wrapping_add(1);
            let n = &mut self.places[h][d as usize];
            *n -= 1;
            let (once, none) = (*n == 1, *n == 0);
            self.once[h] = (self.once[h] & !(1 << d)) | u16::from(once) << d;
            // Going to one place adds a hidden single, going from one to none takes it away.
            self.hidden = self.hidden + u32::from(once) - u32::from(none);
            self.open_pairs -= u32::from(none);
        }
    }

    pub fn place(&mut self, cell: usize, digit: u8) {
        if self.solution[cell] != digit {
            self.unsound += 1;
        }
        for d in self.cand[cell].iter() {
            self.drop_candidate(cell, d);
        }
        self.value[cell] = digit;
        self.empty = self.empty.minus(Cells::one(cell));
        self.single_cells = self.single_cells.minus(Cells::one(cell));
        for p in self.digit_cells[digit as usize].and(PEERS[cell]).iter() {
            self.drop_candidate(p, digit);
        }
    }

    pub fn remove(&mut self, cells: Cells, digits: DigitSet) {
        for d in digits.iter() {
            for c in self.digit_cells[d as usize].and(cells).iter() {
                if self.solution[c] == d {
                    self.unsound += 1;
                }
                self.drop_candidate(c, d);
            }
        }
    }

    /// Would this removal take away at least one candidate?
    pub fn removes_any(&self, cells: Cells, digits: DigitSet) -> bool {
        digits.iter().any(|d| !self.digit_cells[d as usize].and(cells).is_empty())
    }

    pub fn apply(&mut self, step: &Step) {
        match *step {
            Step::Place { cell, digit } => self.place(cell as usize, digit),
            Step::Remove { cells, digits, .. } => self.remove(cells, digits),
        }
    }

    /// Naked singles: (empty cells, cells with one candidate, the first such cell).
    pub fn naked_singles(&self) -> (u32, u32, Option<usize>) {
        (self.empty.len(), self.single_cells.len(), self.single_cells.first())
    }

    /// Hidden singles: ((house, digit) pairs still open, those with one place, the first such
    /// pair in house order then digit order as (cell, digit)).
    pub fn hidden_singles(&self) -> (u32, u32, Option<(usize, u8)>) {
        let first = self.once.iter().position(|&m| m != 0).map(|h| {
            let d = self.once[h].trailing_zeros() as u8;
            let cell = HOUSES[h].iter().find(|&&c| self.cand[c as usize].contains(d)).expect("counted place");
            (*cell as usize, d)
        });
        (self.open_pairs, self.hidden, first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::HOUSE_MASK;

    /// The running counts equal a recount from scratch.
    fn assert_counts(p: &Position) {
        let (mut open, mut once_total) = (0, 0);
        for (h, mask) in HOUSE_MASK.iter().enumerate() {
            for d in 1..=9u8 {
                let n = p.digit_cells[d as usize].and(*mask).len();
                assert_eq!(p.places[h][d as usize] as u32, n, "house {h} digit {d}");
                open += (n > 0) as u32;
                once_total += (n == 1) as u32;
                assert_eq!(p.once[h] >> d & 1 == 1, n == 1);
            }
        }
        assert_eq!((p.open_pairs, p.hidden), (open, once_total));
        let singles = p.empty.iter().filter(|&c| p.cand[c].len() == 1).fold(Cells::EMPTY, |a, c| a.or(Cells::one(c)));
        assert_eq!(p.single_cells, singles);
    }

    /// The position of `new` is the one placing the givens one by one gives.
    #[test]
    fn new_equals_placing_the_givens_one_by_one() {
        let params = crate::SudokuParams::default();
        use pf_core::kind::Kind;
        for i in 0..200 {
            let mut rng = pf_core::seed::candidate_rng(3, "sudoku", "test", i);
            let g = crate::Sudoku::generate(&params, &mut rng).unwrap();
            // Every third candidate with a wrong given too (a digit its house already has).
            let mut puzzle = g.puzzle;
            if i % 3 == 0 {
                let c = (0..81).find(|&c| puzzle[c] == 0).unwrap();
                let d = (0..81).find(|&x| x / 9 == c / 9 && puzzle[x] != 0).map_or(1, |x| puzzle[x]);
                puzzle[c] = d;
            }
            let a = Position::new(&puzzle, &g.solution);
            assert_counts(&a);
            let all = Cells(!0u128 >> 47);
            let mut b = Position {
                value: [0; 81],
                cand: [DigitSet::full(9); 81],
                digit_cells: [all; 10],
                empty: all,
                solution: g.solution,
                unsound: 0,
                places: [[9; 10]; 27],
                once: [0; 27],
                open_pairs: 27 * 9,
                hidden: 0,
                single_cells: Cells::EMPTY,
                house_gen: [0; 27],
                subsets: None,
                fish: None,
            };
            b.digit_cells[0] = Cells::EMPTY;
            for h in b.places.iter_mut() {
                h[0] = 0;
            }
            for (cell, &d) in puzzle.iter().enumerate() {
                if d != 0 {
                    b.place(cell, d);
                }
            }
            b.unsound = 0;
            assert_eq!(a.value, b.value);
            assert_eq!(a.cand, b.cand);
            assert_eq!(a.digit_cells, b.digit_cells);
            assert_eq!(a.empty, b.empty);
            assert_eq!(a.places, b.places);
            assert_eq!(a.once, b.once);
            assert_eq!((a.open_pairs, a.hidden, a.single_cells), (b.open_pairs, b.hidden, b.single_cells));
        }
    }

    #[test]
    fn running_counts_match_a_recount() {
        let puzzle =
            crate::notation::parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
                .unwrap();
        let solution = crate::solve::count_solutions(&puzzle, 1).first.unwrap();
        let mut p = Position::new(&puzzle, &solution);
        assert_counts(&p);
        // Remove every wrong candidate of a few cells, then place their digits.
        for c in (0..81).filter(|&c| puzzle[c] == 0).take(12) {
            p.remove(Cells::one(c), p.cand[c].without(DigitSet::single(solution[c])));
            assert_counts(&p);
            p.place(c, solution[c]);
            assert_counts(&p);
        }
        assert_eq!(p.unsound, 0);
    }
}
