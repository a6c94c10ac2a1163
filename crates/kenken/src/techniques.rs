//! KenKen techniques in six levels, each defined once with what one situation is and what a
//! success is (see `Technique::situation`), and the `Solving` position the ladder drives.
//!
//! Latin techniques work on the 2N lines (rows and columns); cage techniques use the tuple
//! enumeration of `common::cage`. Forcing chains and trial propagate with the fast counter's
//! `Board::propagate`, which never removes a digit of a solution that the position still allows;
//! `Position::unsound` audits every step against the known solution.

use super::solve::{Board, MAX_CELLS};
use super::KenKen;
use pf_core::common::cage::Op;
use pf_core::common::latin::{self, line_name};
use pf_core::rate::{assume, fish_unit, Effect, Solving, Tally, Technique};
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tech {
    NakedSingle,
    HiddenSingle,
    OneCellCage,
    LastCageCell,
    CageDigits,
    CageCombination,
    NakedPair,
    HiddenPair,
    CageLine,
    NakedTriple,
    HiddenTriple,
    LineSum,
    NakedQuad,
    HiddenQuad,
    XWing,
    ForcingChain,
    Trial,
}

impl Technique for Tech {
    const ALL: &'static [Tech] = &[
        Tech::NakedSingle,
        Tech::HiddenSingle,
        Tech::OneCellCage,
        Tech::LastCageCell,
        Tech::CageDigits,
        Tech::CageCombination,
        Tech::NakedPair,
        Tech::HiddenPair,
        Tech::CageLine,
        Tech::NakedTriple,
        Tech::HiddenTriple,
        Tech::LineSum,
        Tech::NakedQuad,
        Tech::HiddenQuad,
        Tech::XWing,
        Tech::ForcingChain,
        Tech::Trial,
    ];

    fn name(self) -> &'static str {
        match self {
            Tech::NakedSingle => "naked_single",
            Tech::HiddenSingle => "hidden_single",
            Tech::OneCellCage => "one_cell_cage",
            Tech::LastCageCell => "last_cage_cell",
            Tech::CageDigits => "cage_digits",
            Tech::CageCombination => "cage_combination",
            Tech::NakedPair => "naked_pair",
            Tech::HiddenPair => "hidden_pair",
            Tech::CageLine => "cage_line",
            Tech::NakedTriple => "naked_triple",
            Tech::HiddenTriple => "hidden_triple",
            Tech::LineSum => "line_sum",
            Tech::NakedQuad => "naked_quad",
            Tech::HiddenQuad => "hidden_quad",
            Tech::XWing => "x_wing",
            Tech::ForcingChain => "forcing_chain",
            Tech::Trial => "trial",
        }
    }

    fn level(self) -> u8 {
        match self {
            Tech::NakedSingle | Tech::HiddenSingle | Tech::OneCellCage | Tech::LastCageCell | Tech::CageDigits => 1,
            Tech::CageCombination | Tech::NakedPair | Tech::HiddenPair => 2,
            Tech::CageLine | Tech::NakedTriple | Tech::HiddenTriple | Tech::LineSum => 3,
            Tech::NakedQuad | Tech::HiddenQuad | Tech::XWing => 4,
            Tech::ForcingChain => 5,
            Tech::Trial => 6,
        }
    }

    fn situation(self) -> &'static str {
        match self {
            Tech::NakedSingle => "an empty cell; succeeds when one candidate is left",
            Tech::HiddenSingle => {
                "a (line, digit) with the digit still open in the line; succeeds when one cell can take it"
            }
            Tech::OneCellCage => "an empty one-cell cage; always succeeds (its target is the digit)",
            Tech::LastCageCell => {
                "a cage with one empty cell left; succeeds when one candidate completes the cage's operation"
            }
            Tech::CageDigits => {
                "a cage with an empty cell; succeeds when a candidate of its cells appears in no tuple that meets \
                 the operation and target, in any position (Keen's easy cage deduction: the cage's digits as a set)"
            }
            Tech::CageCombination => {
                "a cage with an empty cell; succeeds when a candidate of its cells appears in no tuple that meets \
                 the operation and target"
            }
            Tech::NakedPair | Tech::NakedTriple | Tech::NakedQuad => {
                "a set of k empty cells of one line; succeeds when their candidates number exactly k and another \
                 cell of the line loses one"
            }
            Tech::HiddenPair | Tech::HiddenTriple | Tech::HiddenQuad => {
                "a set of k digits open in one line; succeeds when they share exactly k cells holding other \
                 candidates"
            }
            Tech::CageLine => {
                "a (cage, digit) where every tuple of the cage uses the digit; succeeds when the cage cells that can \
                 hold it lie in one line and the digit leaves another cell of that line"
            }
            Tech::LineSum => {
                "a line with empty cells; succeeds when all of it but one empty cell is covered by sum cages inside \
                 the line and placed digits, fixing that cell (the line sums to N(N+1)/2)"
            }
            Tech::XWing => {
                "a digit and two parallel lines each holding it in two or more cells; succeeds when the places lie \
                 in two cross lines and the digit leaves another cell of them"
            }
            Tech::ForcingChain => {
                "a two-candidate cell; succeeds when propagating each candidate (singles and cage tuples) removes a \
                 common candidate elsewhere, or one of them fails"
            }
            Tech::Trial => {
                "a digit of a fewest-candidate cell; succeeds when assuming it fails by propagation; when none does, \
                 the correct digit of the first such cell is placed as a guess"
            }
        }
    }
}

/// One move of the rater; `from` is the pattern a removal rests on (solution paths).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Place { cell: usize, digit: u8 },
    Remove { cells: Vec<usize>, digits: u16, from: Vec<usize> },
}

/// What the cage techniques read of a cage, as last computed: a function of its cells'
/// candidates and placements, so kept while no cell of the cage changes (most cages do not
/// change between two scans).
#[derive(Clone)]
struct CageMemo {
    /// The cage's version it was computed at (`Position::cage_version`).
    version: u32,
    /// Whether a cell of the cage is empty.
    open: bool,
    /// The cage's only empty cell, when it has one, and the digits some tuple gives it (0 when
    /// no tuple fits).
    last: Option<(usize, u16)>,
    /// `cage_removals`' find: the first cell that holds a digit no tuple gives it, and the
    /// digits it keeps; by position (`[0]`, cage combination) and as a set (`[1]`, cage digits).
    removal: [Option<(usize, u16)>; 2],
}

/// Candidates and their propagation fixpoint (None on a contradiction).
type FixMemo = (Vec<u16>, Option<Vec<u16>>);

#[derive(Clone)]
pub struct Position<'a> {
    board: Rc<Board<'a>>,
    /// Bumped whenever a cell of the cage changes; the memo is valid while it matches.
    cage_version: Vec<u32>,
    cage_memo: std::cell::RefCell<Vec<Option<CageMemo>>>,
    /// The candidates `fixpoint` last saw and their propagation fixpoint.
    fix_memo: std::cell::RefCell<Option<FixMemo>>,
    n: usize,
    pub cand: Vec<u16>,
    pub placed: Vec<bool>,
    solution: Vec<u8>,
    pub unsound: u32,
    lines: Vec<Vec<usize>>,
}

impl<'a> Position<'a> {
    pub fn new(puzzle: &'a KenKen, solution: &[u8]) -> Position<'a> {
        let board = Board::new(puzzle);
        let n = board.n;
        let lines = (0..n)
            .map(|r| (0..n).map(|c| r * n + c).collect())
            .chain((0..n).map(|c| (0..n).map(|r| r * n + c).collect()))
            .collect();
        let full = board.full();
        let cages = board.cells.len();
        Position {
            n,
            cand: vec![full; n * n],
            placed: vec![false; n * n],
            solution: solution.to_vec(),
            unsound: 0,
            lines,
            cage_version: vec![0; cages],
            cage_memo: std::cell::RefCell::new(vec![None; cages]),
            fix_memo: std::cell::RefCell::new(None),
            board: Rc::new(board),
        }
    }

    pub fn is_done(&self) -> bool {
        self.placed.iter().all(|&p| p)
    }

    fn place(&mut self, c: usize, d: u8) {
        if self.solution[c] != d {
            self.unsound += 1;
        }
        self.cand[c] = 1 << d;
        self.placed[c] = true;
        self.cage_version[self.board.cage_of[c]] += 1;
        let (r, col) = (c / self.n, c % self.n);
        for i in 0..self.n {
            for p in [r * self.n + i, i * self.n + col] {
                if p != c && self.cand[p] & (1 << d) != 0 {
                    self.cand[p] &= !(1 << d);
                    self.cage_version[self.board.cage_of[p]] += 1;
                }
            }
        }
    }

    /// What the cage techniques read of every cage (`CageMemo`), each computed again only after
    /// a cell of its cage changed; brought up to date at once, as the level-1 cage techniques
    /// read them all after every step.
    fn memos(&self) -> std::cell::Ref<'_, [Option<CageMemo>]> {
        {
            let mut memos = self.cage_memo.borrow_mut();
            for (k, m) in memos.iter_mut().enumerate() {
                let version = self.cage_version[k];
                if m.as_ref().is_none_or(|m| m.version != version) {
                    *m = Some(self.compute_memo(k, version));
                }
            }
        }
        std::cell::Ref::map(self.cage_memo.borrow(), |m| &m[..])
    }

    /// Cage `k`'s memo at its version `version`.
    fn compute_memo(&self, k: usize, version: u32) -> CageMemo {
        let cells = &self.board.cells[k];
        // A buffer on the stack: the memo is computed again after nearly every step.
        let mut buffer = [0u16; MAX_CELLS];
        let union = &mut buffer[..cells.len()];
        let fits = self.board.cage_digits(k, &self.cand, union);
        let union = &*union;
        let mut empty = cells.iter().zip(union).filter(|(&c, _)| !self.placed[c]);
        let (first, second) = (empty.next(), empty.next());
        let last = match (first, second) {
            (Some((&c, &u)), None) => Some((c, if fits { u } else { 0 })),
            _ => None,
        };
        let removal = |as_set: bool| {
            if !fits {
                return None;
            }
            let any = union.iter().fold(0, |a, &u| a | u);
            cells
                .iter()
                .zip(union.iter())
                .map(|(&c, &u)| (c, if as_set { any } else { u }))
                .find(|&(c, keep)| !self.placed[c] && self.cand[c] & !keep != 0)
        };
        CageMemo { version, open: first.is_some(), last, removal: [removal(false), removal(true)] }
    }

    /// The digits every tuple of cage `k` uses (`None` when no tuple fits). Only `cage_line`
    /// (level 3) asks, so it is not kept in the memo.
    fn cage_must(&self, k: usize) -> Option<u16> {
        self.board.cage_options(k, &self.cand).map(|(_, must)| must)
    }

    fn remove(&mut self, cells: &[usize], digits: u16) {
        for &c in cells {
            if !self.placed[c] && self.cand[c] & digits != 0 {
                if self.cand[c] & digits & (1 << self.solution[c]) != 0 {
                    self.unsound += 1;
                }
                self.cand[c] &= !digits;
                self.cage_version[self.board.cage_of[c]] += 1;
            }
        }
    }

    fn removal(&self, cells: Vec<usize>, digits: u16, from: impl FnOnce() -> Vec<usize>) -> Option<Step> {
        let cells: Vec<usize> = cells.into_iter().filter(|&c| !self.placed[c] && self.cand[c] & digits != 0).collect();
        (!cells.is_empty()).then(|| Step::Remove { cells, digits, from: from() })
    }

    fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.n * self.n).filter(|&c| !self.placed[c])
    }

    fn one_cell_cage(&self, t: &mut Tally<Step>) {
        for cage in &self.board.puzzle.cages {
            if cage.op == Op::Given && !self.placed[cage.cells[0] as usize] {
                t.record(Some(Step::Place { cell: cage.cells[0] as usize, digit: cage.target as u8 }));
            }
        }
    }

    fn last_cage_cell(&self, t: &mut Tally<Step>) {
        let memos = self.memos();
        for (cells, memo) in self.board.cells.iter().zip(memos.iter()) {
            if cells.len() < 2 {
                continue;
            }
            let memo = memo.as_ref().expect("up to date");
            let Some((c, u)) = memo.last else { continue };
            t.record((u.count_ones() == 1).then(|| Step::Place { cell: c, digit: u.trailing_zeros() as u8 }));
        }
    }

    /// Keen's easy deduction: a cage's cells keep only the digits some tuple uses, wherever
    /// in the cage (the position-aware form is `cage_combination`, level 2).
    fn cage_digits(&self, t: &mut Tally<Step>) {
        self.cage_removals(t, true);
    }

    fn cage_combination(&self, t: &mut Tally<Step>) {
        self.cage_removals(t, false);
    }

    /// One situation per cage with an empty cell: one step removes, from the first cell that
    /// has any, the digits no tuple gives it (`as_set`: no tuple uses anywhere in the cage).
    fn cage_removals(&self, t: &mut Tally<Step>, as_set: bool) {
        let memos = self.memos();
        for (k, memo) in memos.iter().enumerate() {
            let memo = memo.as_ref().expect("up to date");
            if !memo.open {
                continue;
            }
            // The step is made only for the first success (most scans have several).
            let hit = memo.removal[as_set as usize];
            t.record_many(1, hit.is_some() as u32, || {
                hit.map(|(c, keep)| Step::Remove {
                    cells: vec![c],
                    digits: self.cand[c] & !keep,
                    from: self.board.cells[k].clone(),
                })
            });
        }
    }

    fn cage_line(&self, t: &mut Tally<Step>) {
        let n = self.n;
        for k in 0..self.board.cells.len() {
            let cells = &self.board.cells[k];
            if cells.iter().all(|&c| self.placed[c]) {
                continue;
            }
            let Some(must) = self.cage_must(k) else { continue };
            let mut m = must;
            while m != 0 {
                let d = m.trailing_zeros() as u8;
                m &= m - 1;
                let holders: Vec<usize> = cells.iter().copied().filter(|&c| self.cand[c] >> d & 1 == 1).collect();
                if holders.iter().any(|&c| self.placed[c]) {
                    continue;
                }
                let row = holders.iter().all(|&c| c / n == holders[0] / n);
                let col = holders.iter().all(|&c| c % n == holders[0] % n);
                let mut target = Vec::new();
                if row {
                    target.extend((0..n).map(|i| holders[0] / n * n + i));
                }
                if col {
                    target.extend((0..n).map(|i| i * n + holders[0] % n));
                }
                target.retain(|c| !cells.contains(c));
                t.record(self.removal(target, 1 << d, || holders.clone()));
            }
        }
    }

    fn line_sum(&self, t: &mut Tally<Step>) {
        for line in &self.lines {
            if line.iter().all(|&c| self.placed[c]) {
                continue;
            }
            let found = self.line_sum_fixed(line).map(|(c, v)| Step::Place { cell: c, digit: v });
            t.record(found);
        }
    }

    /// The cell of `line` that the line's sum fixes and its digit, when the sum cages inside
    /// the line and the placed digits cover all of it but that one cell (and the digit is one
    /// of its candidates, not yet alone).
    fn line_sum_fixed(&self, line: &[usize]) -> Option<(usize, u8)> {
        let n = self.n;
        let total = (n * (n + 1) / 2) as i64;
        let mut known = 0i64;
        let mut covered = vec![false; n];
        for (i, &c) in line.iter().enumerate() {
            if self.placed[c] {
                known += self.cand[c].trailing_zeros() as i64;
                covered[i] = true;
            }
        }
        for (k, cells) in self.board.cells.iter().enumerate() {
            let cage = &self.board.puzzle.cages[k];
            let inside = cells.iter().all(|c| line.contains(c));
            if inside && matches!(cage.op, Op::Add | Op::Given) && cells.iter().any(|&c| !self.placed[c]) {
                known += cage.target as i64
                    - cells
                        .iter()
                        .filter(|&&c| self.placed[c])
                        .map(|&c| self.cand[c].trailing_zeros() as i64)
                        .sum::<i64>();
                for c in cells {
                    covered[line.iter().position(|x| x == c).expect("inside")] = true;
                }
            }
        }
        let mut rest = (0..n).filter(|&i| !covered[i]).map(|i| line[i]);
        let (Some(c), None) = (rest.next(), rest.next()) else { return None };
        let v = total - known;
        ((1..=n as i64).contains(&v) && self.cand[c] != 1 << v && self.cand[c] >> v & 1 == 1).then_some((c, v as u8))
    }

    fn line_sum_fixes(&self, line: &[usize], cell: usize, digit: u8) -> bool {
        self.line_sum_fixed(line) == Some((cell, digit))
    }

    /// "cage 12× at r1c1": its operation, target and first cell.
    fn cage_name(&self, k: usize) -> String {
        let cage = &self.board.puzzle.cages[k];
        let c = self.board.cells[k].iter().copied().min().unwrap_or(0);
        let op = match cage.op {
            Op::Given => "",
            op => op.symbol(),
        };
        format!("cage {}{op} at r{}c{}", cage.target, c / self.n + 1, c % self.n + 1)
    }

    /// Propagate after fixing `d` at `c`: the resulting candidates, or `None` on a contradiction.
    ///
    /// Propagation's steps only remove digits and never remove more from fewer candidates, so
    /// its fixpoint below any candidates is unique: the fixpoint of the position with `d` at `c`
    /// is the fixpoint of (the position's own fixpoint with `d` at `c`). That one is computed
    /// once per position (`fixpoint`), and each assumption re-filters from `c`'s cage only
    /// instead of every cage (forcing chains and trial ask for dozens per scan).
    /// The lines for the Latin techniques the core holds.
    fn latin(&self) -> latin::LatinLines<'_> {
        latin::LatinLines { n: self.n, cand: &self.cand, placed: &self.placed, lines: &self.lines }
    }

    fn assume(&self, c: usize, d: u8) -> Option<Vec<u16>> {
        let mut cand = self.fixpoint()?;
        if cand[c] >> d & 1 == 0 {
            return None;
        }
        cand[c] = 1 << d;
        self.board.propagate_from(&mut cand, Some(c)).then_some(cand)
    }

    /// The propagation fixpoint of the current candidates (None on a contradiction), kept
    /// until the candidates change.
    fn fixpoint(&self) -> Option<Vec<u16>> {
        let mut memo = self.fix_memo.borrow_mut();
        if let Some((from, fix)) = &*memo {
            if *from == self.cand {
                return fix.clone();
            }
        }
        let mut cand = self.cand.clone();
        let fix = self.board.propagate(&mut cand).then_some(cand);
        *memo = Some((self.cand.clone(), fix.clone()));
        fix
    }

    fn forcing_chain(&self, t: &mut Tally<Step>) {
        let remove = |pivot: usize, c: usize, digits: u16| Step::Remove { cells: vec![c], digits, from: vec![pivot] };
        assume::forcing_chains(&self.cand, &self.placed, &self.solution, |c, d| self.assume(c, d), remove, t);
    }

    fn trial(&self, t: &mut Tally<Step>) {
        let remove = |c: usize, digits: u16| Step::Remove { cells: vec![c], digits, from: vec![c] };
        let guess = |c: usize| Step::Place { cell: c, digit: self.solution[c] };
        assume::trial(&self.cand, &self.placed, |c, d| self.assume(c, d), remove, guess, t);
    }
}

impl Solving for Position<'_> {
    type Tech = Tech;
    type Step = Step;

    fn is_solved(&self) -> bool {
        self.is_done()
    }

    fn scan(&mut self, tech: Tech, t: &mut Tally<Step>) {
        match tech {
            Tech::NakedSingle => self.latin().naked_single(t, |cell, digit| Step::Place { cell, digit }),
            Tech::HiddenSingle => self.latin().hidden_single(t, |cell, digit| Step::Place { cell, digit }),
            Tech::OneCellCage => self.one_cell_cage(t),
            Tech::LastCageCell => self.last_cage_cell(t),
            Tech::CageDigits => self.cage_digits(t),
            Tech::CageCombination => self.cage_combination(t),
            Tech::NakedPair => self.latin().naked(2, t, |cells, digits, from| Step::Remove { cells, digits, from }),
            Tech::HiddenPair => self.latin().hidden(2, t, |cells, digits, from| Step::Remove { cells, digits, from }),
            Tech::CageLine => self.cage_line(t),
            Tech::NakedTriple => self.latin().naked(3, t, |cells, digits, from| Step::Remove { cells, digits, from }),
            Tech::HiddenTriple => self.latin().hidden(3, t, |cells, digits, from| Step::Remove { cells, digits, from }),
            Tech::LineSum => self.line_sum(t),
            Tech::NakedQuad => self.latin().naked(4, t, |cells, digits, from| Step::Remove { cells, digits, from }),
            Tech::HiddenQuad => self.latin().hidden(4, t, |cells, digits, from| Step::Remove { cells, digits, from }),
            Tech::XWing => self.latin().fish(2, t, |cells, digits, from| Step::Remove { cells, digits, from }),
            Tech::ForcingChain => self.forcing_chain(t),
            Tech::Trial => self.trial(t),
        }
    }

    fn apply(&mut self, step: &Step) {
        match step {
            Step::Place { cell, digit } => self.place(*cell, *digit),
            Step::Remove { cells, digits, .. } => self.remove(cells, *digits),
        }
    }

    fn effect(&self, tech: Tech, step: &Step) -> Effect {
        let n = self.n;
        match step {
            &Step::Place { cell, digit } => {
                let cage = self.board.cage_of[cell];
                let (cells, unit) = match tech {
                    // The first line (rows, then columns) where the digit has no other place.
                    Tech::HiddenSingle => match self.lines.iter().position(|l| {
                        l.contains(&cell)
                            && l.iter().filter(|&&o| !self.placed[o] && self.cand[o] >> digit & 1 == 1).count() == 1
                    }) {
                        Some(l) => {
                            (self.lines[l].iter().copied().filter(|&o| o != cell).collect(), Some(line_name(l, n)))
                        }
                        None => (vec![cell], None),
                    },
                    Tech::LastCageCell => (
                        self.board.cells[cage].iter().copied().filter(|&o| o != cell).collect(),
                        Some(self.cage_name(cage)),
                    ),
                    Tech::OneCellCage => (vec![cell], Some(self.cage_name(cage))),
                    Tech::LineSum => {
                        let l = self.lines.iter().position(|l| l.contains(&cell)).unwrap_or(0);
                        // The row or the column: the one whose sum cages fix the cell.
                        let l = [cell / n, n + cell % n]
                            .into_iter()
                            .find(|&l| self.line_sum_fixes(&self.lines[l], cell, digit))
                            .unwrap_or(l);
                        (self.lines[l].iter().copied().filter(|&o| o != cell).collect(), Some(line_name(l, n)))
                    }
                    _ => (vec![cell], None),
                };
                Effect { place: vec![(cell, digit)], remove: Vec::new(), cells, unit }
            }
            Step::Remove { cells, digits, from } => {
                let remove = cells
                    .iter()
                    .flat_map(|&c| (1..=n as u8).filter(move |&d| digits >> d & 1 == 1).map(move |d| (c, d)))
                    .filter(|&(c, d)| !self.placed[c] && self.cand[c] >> d & 1 == 1)
                    .collect();
                let unit = match tech {
                    Tech::XWing => Some(fish_unit(&from.iter().map(|&c| (c / n, c % n)).collect::<Vec<_>>())),
                    Tech::CageDigits | Tech::CageCombination | Tech::CageLine => {
                        from.first().map(|&c| self.cage_name(self.board.cage_of[c]))
                    }
                    Tech::ForcingChain | Tech::Trial => None,
                    _ => (!from.is_empty())
                        .then(|| self.lines.iter().position(|l| from.iter().all(|c| l.contains(c))))
                        .flatten()
                        .map(|l| line_name(l, n)),
                };
                Effect { place: Vec::new(), remove, cells: from.clone(), unit }
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
        self.empty_cells().filter(|&c| self.cand[c].count_ones() == 2).collect()
    }

    fn place_solution(&self, cell: usize) -> Step {
        Step::Place { cell, digit: self.solution[cell] }
    }

    fn describe(&self, step: &Step) -> String {
        let name = |c: usize| format!("r{}c{}", c / self.n + 1, c % self.n + 1);
        match step {
            Step::Place { cell, digit } => format!("{}={digit}", name(*cell)),
            Step::Remove { cells, digits, .. } => {
                let ds: Vec<String> = (1..=self.n).filter(|d| digits >> d & 1 == 1).map(|d| d.to_string()).collect();
                format!(
                    "remove {{{}}} from {}",
                    ds.join(""),
                    cells.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" ")
                )
            }
        }
    }
}
