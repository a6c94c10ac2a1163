//! Skyscrapers techniques in six levels, each defined once with what one situation is and what a
//! success is (see `Technique::situation`), and the `Solving` position the ladder drives.
//!
//! The clue techniques read one clue's line from its edge: its static bounds (a clue c lets the
//! k-th cell be at most N − c + k), clues of 1 and N, the same bounds once tall buildings are
//! placed (a placed building hidden behind a taller one no longer counts), the last building
//! still to be seen, and then the visibility sequences themselves: every filling of the line's
//! candidates that shows the clue, first for one clue, then for a line against both its clues.
//! Latin techniques work on the 2N lines with the core's subset and fish scanners. Forcing
//! chains and trial propagate with the fast counter's `Board::propagate`, which never removes a
//! height of a solution the position still allows; `Position::unsound` audits every step against
//! the known solution.

use super::solve::{line_union, with_line_dp, Board, MAX_N};
use super::{clue_view, Skyscrapers};
use pf_core::common::latin::line_name;
use pf_core::common::latin_count::{above, LatinOnly};
use pf_core::common::latin_grid::LatinGrid;
use pf_core::rate::{assume, fish_unit, Effect, Solving, Tally, Technique};
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tech {
    NakedSingle,
    HiddenSingle,
    OneOrN,
    ClueBounds,
    VisibleBounds,
    LastVisible,
    ClueSequences,
    NakedPair,
    HiddenPair,
    LineSequences,
    NakedTriple,
    HiddenTriple,
    XWing,
    Swordfish,
    ForcingChain,
    Trial,
}

impl Technique for Tech {
    const ALL: &'static [Tech] = &[
        Tech::NakedSingle,
        Tech::HiddenSingle,
        Tech::OneOrN,
        Tech::ClueBounds,
        Tech::VisibleBounds,
        Tech::LastVisible,
        Tech::ClueSequences,
        Tech::NakedPair,
        Tech::HiddenPair,
        Tech::LineSequences,
        Tech::NakedTriple,
        Tech::HiddenTriple,
        Tech::XWing,
        Tech::Swordfish,
        Tech::ForcingChain,
        Tech::Trial,
    ];

    fn name(self) -> &'static str {
        match self {
            Tech::NakedSingle => "naked_single",
            Tech::HiddenSingle => "hidden_single",
            Tech::OneOrN => "one_or_n_clue",
            Tech::ClueBounds => "clue_bounds",
            Tech::VisibleBounds => "visible_bounds",
            Tech::LastVisible => "last_visible",
            Tech::ClueSequences => "clue_sequences",
            Tech::NakedPair => "naked_pair",
            Tech::HiddenPair => "hidden_pair",
            Tech::LineSequences => "line_sequences",
            Tech::NakedTriple => "naked_triple",
            Tech::HiddenTriple => "hidden_triple",
            Tech::XWing => "x_wing",
            Tech::Swordfish => "swordfish",
            Tech::ForcingChain => "forcing_chain",
            Tech::Trial => "trial",
        }
    }

    /// The levels mirror Tatham's Towers, whose solver allows at Easy the singles and the clue
    /// rules that read placed buildings, at Hard every sequence of one clue's line and the line
    /// subsets, at Extreme fish and forcing chains, and at Unreasonable guessing: singles, clues
    /// of 1 and N and the static bounds 1; the bounds with placed buildings and the last one to
    /// see 2; one clue's sequences and pairs 3; a line's sequences against both its clues and
    /// triples 4; fish and forcing chains 5; trial 6. There are no quads: with the sequences
    /// before them, a naked quad fired in 2 of 1,400 rated puzzles (Towers' and ours, 5×5 to
    /// 9×9) and was needed in none, a hidden quad in none, nor in 428 10×10 puzzles made to need
    /// level 4; a technique no puzzle needs cannot show that it fires (the conformance suite).
    fn level(self) -> u8 {
        match self {
            Tech::NakedSingle | Tech::HiddenSingle | Tech::OneOrN | Tech::ClueBounds => 1,
            Tech::VisibleBounds | Tech::LastVisible => 2,
            Tech::ClueSequences | Tech::NakedPair | Tech::HiddenPair => 3,
            Tech::LineSequences | Tech::NakedTriple | Tech::HiddenTriple => 4,
            Tech::XWing | Tech::Swordfish | Tech::ForcingChain => 5,
            Tech::Trial => 6,
        }
    }

    fn situation(self) -> &'static str {
        match self {
            Tech::NakedSingle => "an empty cell; succeeds when one candidate is left",
            Tech::HiddenSingle => {
                "a (line, height) with the height still open in the line; succeeds when one cell can take it"
            }
            Tech::OneOrN => {
                "an empty cell next to a clue of 1 (it holds N, the tallest) or on the line of a clue of N (the k-th \
                 cell from it holds k); always succeeds"
            }
            Tech::ClueBounds => {
                "a clue c and an empty cell among the first c - 1 of its line; succeeds when the k-th cell loses a \
                 candidate above N - c + k (the k - 1 cells before it and the c - k buildings seen from it on need \
                 taller ones behind)"
            }
            Tech::VisibleBounds => {
                "a clue c and a height h not hidden by a placed taller building closer to the clue, with i taller \
                 heights not so hidden; succeeds when h leaves one of the first c - 1 - i cells (from there too \
                 few buildings could be seen)"
            }
            Tech::LastVisible => {
                "a clue whose count the tallest buildings N, N-1, ... placed in its line fall short of by one, the \
                 nearest of them f cells away (f > 1), the first cell empty; succeeds when the first cell loses a \
                 height below f - 1 others that can stand before the nearest (it must hide them all)"
            }
            Tech::ClueSequences => {
                "a clue with an empty cell in its line; succeeds when a cell loses a candidate that no filling of \
                 the line's candidates with different heights showing the clue uses"
            }
            Tech::LineSequences => {
                "a row or column with clues at both ends and an empty cell; succeeds when a cell loses a candidate \
                 that no filling of the line's candidates showing both clues at once uses"
            }
            Tech::NakedPair | Tech::NakedTriple => {
                "a set of k empty cells of one line; succeeds when their candidates number exactly k and another \
                 cell of the line loses one"
            }
            Tech::HiddenPair | Tech::HiddenTriple => {
                "a set of k heights open in one line; succeeds when they share exactly k cells holding other \
                 candidates"
            }
            Tech::XWing | Tech::Swordfish => {
                "a height and k parallel lines each holding it in two or more cells (X-wing 2, swordfish 3); \
                 succeeds when the places lie in k cross lines and the height leaves another cell of them"
            }
            Tech::ForcingChain => {
                "a two-candidate cell; succeeds when propagating each candidate by the Latin rules (singles in its \
                 rows and columns) removes a common candidate elsewhere, or one of them fails"
            }
            Tech::Trial => {
                "a height of a fewest-candidate cell; succeeds when assuming it fails by propagation; when none \
                 does, the correct height of the first such cell is placed as a guess"
            }
        }
    }
}

/// One move of the rater; `from` is the pattern a removal rests on (solution paths), `clue` the
/// clue it reads (an index in `Skyscrapers::clues`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Place { cell: usize, digit: u8, clue: Option<usize> },
    Remove { cells: Vec<usize>, digits: u16, from: Vec<usize>, clue: Option<usize> },
}

fn place(cell: usize, digit: u8) -> Step {
    Step::Place { cell, digit, clue: None }
}

fn remove(cells: Vec<usize>, digits: u16, from: Vec<usize>) -> Step {
    Step::Remove { cells, digits, from, clue: None }
}

#[derive(Clone)]
pub struct Position {
    board: Rc<Board>,
    clues: Rc<[u8]>,
    g: LatinGrid,
}

impl std::ops::Deref for Position {
    type Target = LatinGrid;
    fn deref(&self) -> &LatinGrid {
        &self.g
    }
}

impl std::ops::DerefMut for Position {
    fn deref_mut(&mut self) -> &mut LatinGrid {
        &mut self.g
    }
}

impl Position {
    pub fn new(puzzle: &Skyscrapers, solution: &[u8]) -> Position {
        Position::on(Board::new(puzzle), puzzle, solution)
    }

    /// `new` on the puzzle's board, already built.
    pub(crate) fn on(board: Board, puzzle: &Skyscrapers, solution: &[u8]) -> Position {
        let g = LatinGrid::new(board.n, &puzzle.givens, solution);
        Position { g, board: Rc::new(board), clues: puzzle.clues.clone().into() }
    }

    /// The clues given, as (index in `Skyscrapers::clues`, count, line's cells nearest first).
    fn given_clues(&self) -> impl Iterator<Item = (usize, u8, &[usize])> + '_ {
        self.board.clues.iter().map(|cl| (cl.index, self.clues[cl.index], cl.cells.as_slice()))
    }

    /// The placed height of `cell`, 0 when empty.
    fn height(&self, cell: usize) -> u8 {
        if self.placed[cell] {
            self.cand[cell].trailing_zeros() as u8
        } else {
            0
        }
    }

    fn one_or_n(&self, t: &mut Tally<Step>) {
        let n = self.n;
        for (i, c, cells) in self.given_clues() {
            if c == 1 && !self.placed[cells[0]] {
                t.record(Some(Step::Place { cell: cells[0], digit: n as u8, clue: Some(i) }));
            } else if c as usize == n {
                for (j, &cell) in cells.iter().enumerate().filter(|&(_, &x)| !self.placed[x]) {
                    t.record(Some(Step::Place { cell, digit: j as u8 + 1, clue: Some(i) }));
                }
            }
        }
    }

    fn clue_bounds(&self, t: &mut Tally<Step>) {
        let n = self.n;
        for (i, c, cells) in self.given_clues() {
            for j in 0..(c as usize).saturating_sub(1) {
                let cell = cells[j];
                if self.placed[cell] {
                    continue;
                }
                // The (j+1)-th cell is at most N - c + j + 1.
                let out = self.cand[cell] & above((n + j + 1 - c as usize) as u32, n);
                t.record((out != 0).then(|| Step::Remove {
                    cells: vec![cell],
                    digits: out,
                    from: cells.to_vec(),
                    clue: Some(i),
                }));
            }
        }
    }

    fn visible_bounds(&self, t: &mut Tally<Step>) {
        for (i, c, cells) in self.given_clues() {
            let heights: Vec<u8> = cells.iter().map(|&x| self.height(x)).collect();
            for (h, reach) in visible_reaches(&heights, c as usize) {
                let open: Vec<usize> = cells[..reach].iter().copied().filter(|&x| !self.placed[x]).collect();
                if open.is_empty() {
                    continue;
                }
                let hit: Vec<usize> = open.into_iter().filter(|&x| self.cand[x] >> h & 1 == 1).collect();
                t.record((!hit.is_empty()).then(|| Step::Remove {
                    cells: hit,
                    digits: 1 << h,
                    from: cells.to_vec(),
                    clue: Some(i),
                }));
            }
        }
    }

    fn last_visible(&self, t: &mut Tally<Step>) {
        for (i, c, cells) in self.given_clues() {
            if self.placed[cells[0]] {
                continue;
            }
            let heights: Vec<u8> = cells.iter().map(|&x| self.height(x)).collect();
            let Some(out) = last_visible_out(&heights, c as usize) else { continue };
            let out = out & self.cand[cells[0]];
            t.record((out != 0).then(|| Step::Remove {
                cells: vec![cells[0]],
                digits: out,
                from: cells.to_vec(),
                clue: Some(i),
            }));
        }
    }

    /// The first cell of `cells` that loses a candidate to `union` (None: the line allows no
    /// filling, left to other techniques to show).
    fn first_loss(&self, cells: &[usize], union: Option<[u16; MAX_N]>, clue: usize) -> Option<Step> {
        let union = union?;
        let j = (0..cells.len()).find(|&j| !self.placed[cells[j]] && self.cand[cells[j]] & !union[j] != 0)?;
        Some(Step::Remove {
            cells: vec![cells[j]],
            digits: self.cand[cells[j]] & !union[j],
            from: cells.to_vec(),
            clue: Some(clue),
        })
    }

    fn clue_sequences(&self, t: &mut Tally<Step>) {
        with_line_dp(|dp| {
            for (k, (i, _, cells)) in self.given_clues().enumerate() {
                if cells.iter().all(|&x| self.placed[x]) {
                    continue;
                }
                let cand: Vec<u16> = cells.iter().map(|&x| self.cand[x]).collect();
                t.record(self.first_loss(cells, dp.union_memo(&cand, self.board.clues[k].allowed), i));
            }
        })
    }

    fn line_sequences(&self, t: &mut Tally<Step>) {
        let n = self.n;
        // Rows (left and right clues), then columns (top and bottom).
        for (front, back) in (0..n).map(|r| (2 * n + r, 3 * n + r)).chain((0..n).map(|c| (c, n + c))) {
            let (a, b) = (self.clues[front], self.clues[back]);
            let cells = crate::clue_cells(n, front);
            if a == 0 || b == 0 || cells.iter().all(|&x| self.placed[x]) {
                continue;
            }
            let cand: Vec<u16> = cells.iter().map(|&x| self.cand[x]).collect();
            t.record(self.first_loss(&cells, line_union(&cand, a, b), front));
        }
    }

    /// Forcing chains follow the Latin rules only (what a height forces in its row and
    /// column), as Towers' do; trial propagates the clues too.
    fn forcing_chain(&self, t: &mut Tally<Step>) {
        let step = |pivot: usize, c: usize, digits: u16| remove(vec![c], digits, vec![pivot]);
        let rules = LatinOnly(&*self.board);
        let fix = self.fixpoint(&rules);
        let assume = |c, d| self.assume(&rules, &fix, c, d);
        assume::forcing_chains(&self.cand, &self.placed, &self.solution, assume, step, t);
    }

    fn trial(&self, t: &mut Tally<Step>) {
        let step = |c: usize, digits: u16| remove(vec![c], digits, vec![c]);
        let guess = |c: usize| place(c, self.solution[c]);
        let rules = &*self.board;
        let fix = self.fixpoint(rules);
        assume::trial(&self.cand, &self.placed, |c, d| self.assume(rules, &fix, c, d), step, guess, t);
    }
}

/// `visible_bounds` on one line: the placed `heights` (nearest the clue first, 0 empty) and the
/// clue `c`. For each height not hidden behind a placed taller one, tallest first, the number of
/// first cells it cannot stand in: c − 1 less the taller heights not so hidden.
pub(crate) fn visible_reaches(heights: &[u8], c: usize) -> impl Iterator<Item = (u8, usize)> + '_ {
    let mut taller = 0usize;
    (1..=heights.len() as u8).rev().filter_map(move |h| {
        if let Some(p) = heights.iter().position(|&x| x == h) {
            if heights[..p].iter().any(|&x| x > h) {
                // Hidden: it is not seen, and counts for no lower height.
                return None;
            }
        }
        let reach = (h, c.saturating_sub(1 + taller));
        taller += 1;
        Some(reach)
    })
}

/// `last_visible` on one line (`heights` and `c` as for `visible_reaches`): when the tallest
/// heights placed, N down to the first not placed, fall short of the clue by one and the nearest
/// of them is f > 1 cells away, the heights the first cell cannot hold (it is the one seen before
/// that nearest, so taller than the f − 1 cells between, whose heights are others not placed
/// beyond them); None when the rule does not apply.
pub(crate) fn last_visible_out(heights: &[u8], c: usize) -> Option<u16> {
    let n = heights.len() as u8;
    let mut places = [0usize; MAX_N];
    let mut len = 0;
    for h in (1..=n).rev() {
        match heights.iter().position(|&x| x == h) {
            Some(p) => {
                places[len] = p;
                len += 1;
            }
            None => break,
        }
    }
    let run = &places[..len];
    let &nearest = run.iter().min()?;
    let seen_run = run.iter().enumerate().filter(|&(k, &p)| run[..k].iter().all(|&q| q > p)).count();
    if c != seen_run + 1 || nearest < 2 {
        return None;
    }
    // The nearest − 1 lowest heights not placed from `nearest` on.
    let free = (1..=n).filter(|&h| !heights[nearest..].contains(&h)).take(nearest - 1);
    Some(free.fold(0u16, |m, h| m | 1 << h))
}

impl Solving for Position {
    type Tech = Tech;
    type Step = Step;

    fn is_solved(&self) -> bool {
        self.is_done()
    }

    fn scan(&mut self, tech: Tech, t: &mut Tally<Step>) {
        match tech {
            Tech::NakedSingle => self.g.latin(self.board.lines).naked_single(t, place),
            Tech::HiddenSingle => self.g.latin(self.board.lines).hidden_single(t, place),
            Tech::OneOrN => self.one_or_n(t),
            Tech::ClueBounds => self.clue_bounds(t),
            Tech::VisibleBounds => self.visible_bounds(t),
            Tech::LastVisible => self.last_visible(t),
            Tech::ClueSequences => self.clue_sequences(t),
            Tech::LineSequences => self.line_sequences(t),
            Tech::NakedPair => self.g.latin(self.board.lines).naked(2, t, remove),
            Tech::HiddenPair => self.g.latin(self.board.lines).hidden(2, t, remove),
            Tech::NakedTriple => self.g.latin(self.board.lines).naked(3, t, remove),
            Tech::HiddenTriple => self.g.latin(self.board.lines).hidden(3, t, remove),
            Tech::XWing => self.g.latin(self.board.lines).fish(2, t, remove),
            Tech::Swordfish => self.g.latin(self.board.lines).fish(3, t, remove),
            Tech::ForcingChain => self.forcing_chain(t),
            Tech::Trial => self.trial(t),
        }
    }

    fn apply(&mut self, step: &Step) {
        match step {
            Step::Place { cell, digit, .. } => self.place(*cell, *digit),
            Step::Remove { cells, digits, .. } => self.remove(cells, *digits),
        }
    }

    fn effect(&self, tech: Tech, step: &Step) -> Effect {
        let n = self.n;
        match step {
            &Step::Place { cell, digit, clue } => {
                let (cells, unit) = match (tech, clue) {
                    (_, Some(i)) => (crate::clue_cells(n, i), Some(clue_view(n, i))),
                    (Tech::HiddenSingle, None) => self.hidden_single_pattern(self.board.lines, cell, digit),
                    _ => (vec![cell], None),
                };
                Effect { place: vec![(cell, digit)], remove: Vec::new(), cells, unit }
            }
            Step::Remove { cells, digits, from, clue } => {
                let unit = match (tech, clue) {
                    (Tech::LineSequences, Some(i)) => {
                        let l = if *i >= 2 * n { *i - 2 * n } else { n + *i };
                        Some(line_name(l, n))
                    }
                    (_, Some(i)) => Some(clue_view(n, *i)),
                    (Tech::XWing | Tech::Swordfish, None) => {
                        Some(fish_unit(&from.iter().map(|&c| (c / n, c % n)).collect::<Vec<_>>()))
                    }
                    (Tech::ForcingChain | Tech::Trial, None) => None,
                    _ => self.line_holding(self.board.lines, from),
                };
                Effect { place: Vec::new(), remove: self.removals(cells, *digits), cells: from.clone(), unit }
            }
        }
    }

    fn coord(&self, cell: usize) -> (usize, usize) {
        (cell / self.n, cell % self.n)
    }

    fn cell_count(&self) -> usize {
        self.cand.len()
    }

    fn is_placed(&self, cell: usize) -> bool {
        self.placed[cell]
    }

    fn bivalue_cells(&self) -> Vec<usize> {
        self.g.bivalue_cells()
    }

    fn place_solution(&self, cell: usize) -> Step {
        place(cell, self.solution[cell])
    }

    fn describe(&self, step: &Step) -> String {
        match step {
            Step::Place { cell, digit, .. } => self.describe_place(*cell, *digit),
            Step::Remove { cells, digits, .. } => self.describe_remove(cells, *digits),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf_core::rate;
    use rand::SeedableRng;

    #[test]
    fn generated_puzzles_rate_soundly_to_the_end() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let mut used = vec![0u32; Tech::ALL.len()];
        for i in 0..60 {
            let params = crate::SkyscrapersParams {
                size: 4 + (i % 4) as u8,
                max_level: (i % 3) as u8 * 2,
                ..Default::default()
            };
            let (p, s) = crate::generate::generate(&params, &mut rng).unwrap();
            let mut pos = Position::new(&p, &s);
            let r = rate::rate(&mut pos, None);
            assert!(pos.is_done(), "puzzle {i} not solved");
            assert_eq!(pos.unsound, 0, "puzzle {i}");
            used.iter_mut().zip(&r.usage).for_each(|(u, x)| *u += x);
        }
        for t in [Tech::ClueBounds, Tech::OneOrN, Tech::ClueSequences, Tech::NakedSingle] {
            assert!(used[t.index()] > 0, "{t:?} never used: {used:?}");
        }
    }

    /// A 5×5 with one clue, the left of row 0, and `row` placed in row 0 (0 empty).
    fn row_position(clue: u8, row: [u8; 5]) -> Position {
        let mut clues = vec![0; 20];
        clues[10] = clue;
        let p = Skyscrapers { size: 5, clues, givens: vec![0; 25] };
        // A solution with row 0 = 2 1 3 5 4 (seen 3 from the left).
        let s: Vec<u8> = [[2, 1, 3, 5, 4], [1, 3, 5, 4, 2], [3, 5, 4, 2, 1], [5, 4, 2, 1, 3], [4, 2, 1, 3, 5]].concat();
        let mut pos = Position::new(&p, &s);
        for (c, &d) in row.iter().enumerate() {
            if d != 0 {
                pos.place(c, d);
            }
        }
        pos
    }

    #[test]
    fn clue_bounds_and_visible_bounds() {
        // Seen 3: the first cell is at most 3, the second at most 4.
        let pos = row_position(3, [0; 5]);
        let mut t = Tally::default();
        pos.clue_bounds(&mut t);
        assert_eq!((t.situations, t.successes), (2, 2));
        assert_eq!(
            t.first,
            Some(Step::Remove { cells: vec![0], digits: 0b110000, from: vec![0, 1, 2, 3, 4], clue: Some(10) })
        );
        // With 5 placed fourth and 4 hidden behind it (last): 3 is the tallest that can still be
        // seen before 5 with 5 counted... 5 leaves the first 2 cells (already), 4 is hidden and
        // counts for nothing, so 3 leaves the first cell (3 - 1 - 1 = 1 cell).
        let pos = row_position(3, [0, 0, 0, 5, 4]);
        let mut t = Tally::default();
        pos.visible_bounds(&mut t);
        assert_eq!(
            t.first,
            Some(Step::Remove { cells: vec![0], digits: 1 << 3, from: vec![0, 1, 2, 3, 4], clue: Some(10) })
        );
    }

    #[test]
    fn the_last_building_to_see_hides_the_others() {
        // Seen 3 with 5 fourth and 4 fifth: 5 is seen, 4 is not, so two more are seen before 5:
        // not "one more". With clue 2: one more, seen first, taller than the two between.
        let pos = row_position(2, [0, 0, 0, 5, 4]);
        let mut t = Tally::default();
        pos.last_visible(&mut t);
        // The free heights before 5 are 1, 2, 3: the first cell is 3 (not 1 or 2).
        assert_eq!(
            t.first,
            Some(Step::Remove { cells: vec![0], digits: 0b110, from: vec![0, 1, 2, 3, 4], clue: Some(10) })
        );
        let pos = row_position(3, [0, 0, 0, 5, 4]);
        let mut t = Tally::default();
        pos.last_visible(&mut t);
        assert_eq!(t.situations, 0);
    }
}
