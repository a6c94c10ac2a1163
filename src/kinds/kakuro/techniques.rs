//! Kakuro techniques in six levels, each defined once with what one situation is and what a
//! success is (see `Technique::situation`), and the `Solving` position the ladder drives.
//!
//! "The combinations of a run" below are the table's sets for its (sum, length) that hold
//! every digit already placed in it. Forcing chains and trial propagate with the fast
//! counter's `Propagator`, which never removes a digit of a solution the position still
//! allows; `Position::unsound` audits every step against the known solution.

use super::solve::{combo_support, Layout, Propagator, State, ALL};
use crate::common::latin;
use crate::rate::{assume, Effect, Solving, Tally, Technique};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tech {
    NakedSingle,
    LastRunCell,
    UniqueCombination,
    RunIntersection,
    HiddenSingle,
    NakedPair,
    NakedTriple,
    CombinationElimination,
    AreaSum,
    ForcingChain,
    Trial,
}

impl Technique for Tech {
    const ALL: &'static [Tech] = &[
        Tech::NakedSingle,
        Tech::LastRunCell,
        Tech::UniqueCombination,
        Tech::RunIntersection,
        Tech::HiddenSingle,
        // Naked subsets before the combination check, which subsumes them within a run: listed
        // after it they would never be the step applied.
        Tech::NakedPair,
        Tech::NakedTriple,
        Tech::CombinationElimination,
        Tech::AreaSum,
        Tech::ForcingChain,
        Tech::Trial,
    ];

    fn name(self) -> &'static str {
        match self {
            Tech::NakedSingle => "naked_single",
            Tech::LastRunCell => "last_run_cell",
            Tech::UniqueCombination => "unique_combination",
            Tech::RunIntersection => "run_intersection",
            Tech::HiddenSingle => "hidden_single",
            Tech::CombinationElimination => "combination_elimination",
            Tech::NakedPair => "naked_pair",
            Tech::NakedTriple => "naked_triple",
            Tech::AreaSum => "area_sum",
            Tech::ForcingChain => "forcing_chain",
            Tech::Trial => "trial",
        }
    }

    fn level(self) -> u8 {
        match self {
            Tech::NakedSingle | Tech::LastRunCell | Tech::UniqueCombination => 1,
            Tech::RunIntersection | Tech::HiddenSingle => 2,
            Tech::CombinationElimination | Tech::NakedPair | Tech::NakedTriple => 3,
            Tech::AreaSum => 4,
            Tech::ForcingChain => 5,
            Tech::Trial => 6,
        }
    }

    fn situation(self) -> &'static str {
        match self {
            Tech::NakedSingle => "an empty cell; succeeds when one candidate is left",
            Tech::LastRunCell => {
                "a run with an empty cell; succeeds when it has one empty cell left (the sum less the placed digits)"
            }
            Tech::UniqueCombination => {
                "a run with an empty cell; succeeds when its sum and length allow one combination and an empty cell \
                 holds a digit outside it"
            }
            Tech::RunIntersection => {
                "an empty cell; succeeds when a candidate lies in none of the combinations of its across run or of \
                 its down run"
            }
            Tech::HiddenSingle => {
                "a (run, digit) with the digit in every combination of the run and not yet placed; succeeds when \
                 one empty cell of the run can take it"
            }
            Tech::CombinationElimination => {
                "a run with an empty cell; succeeds when, keeping only the combinations its cells' candidates can \
                 realise as distinct digits, a candidate of a cell fits no assignment and is removed"
            }
            Tech::NakedPair | Tech::NakedTriple => {
                "a set of k empty cells of one run; succeeds when their candidates number exactly k and another \
                 cell of the run loses one"
            }
            Tech::AreaSum => {
                "a band of whole rows (or columns) whose cells outside the down (across) runs lying wholly inside \
                 it are 1 to 5 empty cells: they add up to the band's across sums less those runs' sums; succeeds \
                 when a candidate of one cannot reach that total with the others' candidates"
            }
            Tech::ForcingChain => {
                "a two-candidate cell; succeeds when propagating each candidate (run combinations, singles) removes \
                 a common candidate elsewhere, or one of them fails"
            }
            Tech::Trial => {
                "a digit of a fewest-candidate cell; succeeds when assuming it fails by propagation; when none does, \
                 the correct digit of the first such cell is placed as a guess"
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Place {
        cell: usize,
        digit: u8,
    },
    /// (cell, digits to remove) pairs; then the cells the removal rests on (solution paths).
    Remove(Vec<(usize, u16)>, Vec<usize>),
}

/// A band for the area-sum technique: the cells outside the crossing runs lying wholly inside
/// it and what they add up to.
#[derive(Clone)]
struct Band {
    cells: Vec<usize>,
    total: i32,
}

#[derive(Clone)]
pub struct Position<'a> {
    lay: &'a Layout,
    pub cand: Vec<u16>,
    pub placed: Vec<bool>,
    solution: Vec<u8>,
    pub unsound: u32,
    /// Per run: placed digits (mask), their sum, empty cells; kept by `place`.
    run_placed: Vec<(u16, i32, usize)>,
    /// Per run: union and intersection of its combinations that hold its placed digits
    /// (`combos_of`), kept by `place` (level-2 scans read every run's on every try).
    run_combos: Vec<(u16, u16)>,
    /// Area-sum bands, built on the first level-4 try (most puzzles never get there).
    bands: std::cell::OnceCell<Vec<Band>>,
    /// Bumped whenever a cell of the run changes; `keep_memo` is valid while it matches.
    run_version: Vec<u32>,
    keep_memo: std::cell::RefCell<Vec<(u32, [u16; 9])>>,
}

/// Union and intersection of the combinations in `combos` that hold every digit of `placed`.
fn union_must(combos: &[u16], placed: u16) -> (u16, u16) {
    let (mut union, mut must) = (0u16, ALL);
    for &c in combos.iter().filter(|&&c| c & placed == placed) {
        union |= c;
        must &= c;
    }
    (union, must)
}

fn bands(lay: &Layout) -> Vec<Band> {
    let mut out: Vec<Band> = Vec::new();
    for across in [true, false] {
        // Position of a white cell along the band axis (its row for row bands).
        let axis = |w: u32| {
            let g = lay.whites[w as usize] as usize;
            if across {
                g / lay.cols
            } else {
                g % lay.cols
            }
        };
        let span: Vec<(usize, usize)> =
            lay.runs.iter().map(|r| (axis(r.cells[0]), axis(*r.cells.last().expect("runs have cells")))).collect();
        let extent = if across { lay.rows } else { lay.cols };
        for lo in 1..extent {
            for hi in lo..extent {
                let mut total = 0i32;
                let mut covered = vec![false; lay.whites.len()];
                let mut any_cross = false;
                for (run, &(a, b)) in lay.runs.iter().zip(&span) {
                    if a < lo || b > hi {
                        continue;
                    }
                    if run.across == across {
                        total += run.sum as i32;
                    } else {
                        total -= run.sum as i32;
                        any_cross = true;
                        for &w in &run.cells {
                            covered[w as usize] = true;
                        }
                    }
                }
                if !any_cross {
                    continue;
                }
                let cells: Vec<usize> =
                    (0..lay.whites.len()).filter(|&w| (lo..=hi).contains(&axis(w as u32)) && !covered[w]).collect();
                if (1..=8).contains(&cells.len()) && !out.iter().any(|b| b.cells == cells) {
                    out.push(Band { cells, total });
                }
            }
        }
    }
    out
}

impl<'a> Position<'a> {
    pub fn new(lay: &'a Layout, solution: &super::Grid) -> Position<'a> {
        Position {
            lay,
            cand: vec![ALL; lay.whites.len()],
            placed: vec![false; lay.whites.len()],
            solution: lay.from_grid(solution),
            unsound: 0,
            run_placed: lay.runs.iter().map(|r| (0, 0, r.cells.len())).collect(),
            run_combos: lay.runs.iter().map(|r| union_must(r.combos, 0)).collect(),
            bands: std::cell::OnceCell::new(),
            run_version: vec![0; lay.runs.len()],
            keep_memo: std::cell::RefCell::new(vec![(u32::MAX, [0; 9]); lay.runs.len()]),
        }
    }

    pub fn is_done(&self) -> bool {
        self.placed.iter().all(|&p| p)
    }

    fn touch(&mut self, c: usize) {
        for r in self.lay.cell_runs[c] {
            self.run_version[r as usize] += 1;
        }
    }

    fn place(&mut self, c: usize, d: u8) {
        if self.solution[c] != d {
            self.unsound += 1;
        }
        self.cand[c] = 1 << d;
        self.placed[c] = true;
        self.touch(c);
        for r in self.lay.cell_runs[c] {
            let p = &mut self.run_placed[r as usize];
            *p = (p.0 | 1 << d, p.1 + d as i32, p.2 - 1);
            self.run_combos[r as usize] = union_must(self.lay.runs[r as usize].combos, p.0);
        }
        for r in self.lay.cell_runs[c] {
            for &p in &self.lay.runs[r as usize].cells {
                let p = p as usize;
                if p != c && self.cand[p] >> d & 1 == 1 {
                    self.cand[p] &= !(1 << d);
                    self.touch(p);
                }
            }
        }
    }

    fn remove(&mut self, pairs: &[(usize, u16)]) {
        for &(c, digits) in pairs {
            if !self.placed[c] && self.cand[c] & digits != 0 {
                if self.cand[c] & digits & (1 << self.solution[c]) != 0 {
                    self.unsound += 1;
                }
                self.cand[c] &= !digits;
                self.touch(c);
            }
        }
    }

    /// Placed digits (mask), their sum, and the empty cells of run `r`.
    fn run_state(&self, r: usize) -> (u16, i32, usize) {
        self.run_placed[r]
    }

    /// Union and intersection of the run's combinations that hold its placed digits.
    fn combos_of(&self, r: usize) -> (u16, u16) {
        self.run_combos[r]
    }

    fn removal(&self, pairs: Vec<(usize, u16)>, from: impl FnOnce() -> Vec<usize>) -> Option<Step> {
        let pairs: Vec<(usize, u16)> = pairs
            .into_iter()
            .filter(|&(c, d)| !self.placed[c] && self.cand[c] & d != 0)
            .map(|(c, d)| (c, self.cand[c] & d))
            .collect();
        (!pairs.is_empty()).then(|| Step::Remove(pairs, from()))
    }

    /// "across 16 at r2c4": the run's direction, sum and first cell.
    fn run_name(&self, r: usize) -> String {
        let run = &self.lay.runs[r];
        let (row, col) = self.coord(run.cells[0] as usize);
        format!("{} {} at r{}c{}", if run.across { "across" } else { "down" }, run.sum, row + 1, col + 1)
    }

    fn run_cells(&self, r: usize) -> Vec<usize> {
        self.lay.runs[r].cells.iter().map(|&w| w as usize).collect()
    }

    fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.cand.len()).filter(|&c| !self.placed[c])
    }

    fn open_runs(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.lay.runs.len()).filter(|&r| self.run_placed[r].2 > 0)
    }

    fn naked_single(&self, t: &mut Tally<Step>) {
        for c in self.empty_cells() {
            let m = self.cand[c];
            t.record((m.count_ones() == 1).then(|| Step::Place { cell: c, digit: m.trailing_zeros() as u8 }));
        }
    }

    fn last_run_cell(&self, t: &mut Tally<Step>) {
        for r in self.open_runs() {
            let (_, sum, empty) = self.run_state(r);
            let found = (empty == 1).then(|| {
                let c = self.lay.runs[r].cells.iter().map(|&w| w as usize).find(|&w| !self.placed[w]).unwrap();
                let d = self.lay.runs[r].sum as i32 - sum;
                ((1..=9).contains(&d) && self.cand[c] >> d & 1 == 1).then_some(Step::Place { cell: c, digit: d as u8 })
            });
            t.record(found.flatten());
        }
    }

    fn unique_combination(&self, t: &mut Tally<Step>) {
        for r in self.open_runs() {
            let run = &self.lay.runs[r];
            let outside = ALL & !run.combos[0];
            let hit = run.combos.len() == 1
                && run.cells.iter().any(|&w| !self.placed[w as usize] && self.cand[w as usize] & outside != 0);
            t.record(
                hit.then(|| {
                    self.removal(run.cells.iter().map(|&w| (w as usize, outside)).collect(), || self.run_cells(r))
                })
                .flatten(),
            );
        }
    }

    fn run_intersection(&self, t: &mut Tally<Step>) {
        for c in self.empty_cells() {
            let [a, d] = self.lay.cell_runs[c];
            let keep = self.combos_of(a as usize).0 & self.combos_of(d as usize).0;
            t.record((self.cand[c] & !keep != 0).then(|| {
                let mut from = self.run_cells(a as usize);
                from.extend(self.run_cells(d as usize));
                from.retain(|&o| o != c);
                Step::Remove(vec![(c, self.cand[c] & !keep)], from)
            }));
        }
    }

    fn hidden_single(&self, t: &mut Tally<Step>) {
        for r in self.open_runs() {
            let (placed, _, _) = self.run_state(r);
            let must = self.combos_of(r).1 & !placed;
            let cells = &self.lay.runs[r].cells;
            let mut m = must;
            while m != 0 {
                let d = m.trailing_zeros() as u8;
                m &= m - 1;
                let mut holders =
                    cells.iter().map(|&w| w as usize).filter(|&w| !self.placed[w] && self.cand[w] >> d & 1 == 1);
                let first = holders.next();
                let found = match (first, holders.next()) {
                    (Some(c), None) => Some(Step::Place { cell: c, digit: d }),
                    _ => None,
                };
                t.record(found);
            }
        }
    }

    fn combination_elimination(&self, t: &mut Tally<Step>) {
        for r in self.open_runs() {
            let run = &self.lay.runs[r];
            let keep = self.run_keep(r);
            let hit = run
                .cells
                .iter()
                .enumerate()
                .any(|(i, &w)| !self.placed[w as usize] && self.cand[w as usize] & !keep[i] != 0);
            t.record(
                hit.then(|| {
                    self.removal(
                        run.cells.iter().enumerate().map(|(i, &w)| (w as usize, ALL & !keep[i])).collect(),
                        || self.run_cells(r),
                    )
                })
                .flatten(),
            );
        }
    }

    /// The digits each cell of run `r` keeps when only assignments of a combination count,
    /// remembered until a cell of the run changes.
    fn run_keep(&self, r: usize) -> [u16; 9] {
        let version = self.run_version[r];
        let memo = self.keep_memo.borrow()[r];
        if memo.0 == version {
            return memo.1;
        }
        let run = &self.lay.runs[r];
        let mut cells = [0u16; 9];
        for (i, &w) in run.cells.iter().enumerate() {
            cells[i] = self.cand[w as usize];
        }
        let cells = &cells[..run.cells.len()];
        let mut keep = [0u16; 9];
        for &combo in run.combos {
            if let Some(s) = combo_support(cells, combo) {
                for i in 0..cells.len() {
                    keep[i] |= s[i];
                }
            }
        }
        self.keep_memo.borrow_mut()[r] = (version, keep);
        keep
    }

    fn naked_subset(&self, k: usize, t: &mut Tally<Step>) {
        for r in self.open_runs() {
            let cells = &self.lay.runs[r].cells;
            let mut house = [0u16; 9];
            for (i, &w) in cells.iter().enumerate() {
                house[i] = if self.placed[w as usize] { 0 } else { self.cand[w as usize] };
            }
            latin::naked_subsets(&house[..cells.len()], k, t, |subset, others, digits| {
                let pairs =
                    (0..cells.len()).filter(|i| others >> i & 1 == 1).map(|i| (cells[i] as usize, digits as u16));
                let from = || (0..cells.len()).filter(|i| subset >> i & 1 == 1).map(|i| cells[i] as usize).collect();
                self.removal(pairs.collect(), from).unwrap_or(Step::Remove(Vec::new(), Vec::new()))
            });
        }
    }

    fn area_sum(&self, t: &mut Tally<Step>) {
        for band in self.bands.get_or_init(|| bands(self.lay)) {
            let mut total = band.total;
            let mut open: Vec<usize> = Vec::with_capacity(band.cells.len());
            for &c in &band.cells {
                if self.placed[c] {
                    total -= self.cand[c].trailing_zeros() as i32;
                } else {
                    open.push(c);
                }
            }
            if open.is_empty() || open.len() > 5 || total < 0 {
                continue;
            }
            // Sums reachable by each prefix and suffix of the open cells (bit s = sum s).
            let reach = |m: u64, cand: u16| {
                let mut out = 0u64;
                for d in 1..=9 {
                    if cand >> d & 1 == 1 {
                        out |= m << d;
                    }
                }
                out
            };
            let n = open.len();
            let mut pre = vec![1u64; n + 1];
            let mut suf = vec![1u64; n + 1];
            for i in 0..n {
                pre[i + 1] = reach(pre[i], self.cand[open[i]]);
                suf[n - 1 - i] = reach(suf[n - i], self.cand[open[n - 1 - i]]);
            }
            let mut pairs = Vec::new();
            for i in 0..n {
                let mut others = 0u64;
                for s in 0..64 {
                    if pre[i] >> s & 1 == 1 {
                        others |= suf[i + 1] << s;
                    }
                }
                let fits = (1..=9).filter(|d| (0..64).contains(&(total - d)) && others >> (total - d) & 1 == 1);
                let keep = fits.fold(0u16, |m, d| m | 1 << d);
                pairs.push((open[i], ALL & !keep));
            }
            t.record(self.removal(pairs, || band.cells.clone()));
        }
    }

    /// The position's propagation fixpoint (None if it fails, which a sound position never
    /// does): assumptions start from it, so each needs only the propagation its cell starts.
    fn base(&self) -> Option<State> {
        let mut st = State::new(self.lay);
        st.cand.copy_from_slice(&self.cand);
        Propagator::new(self.lay).propagate_all(&mut st).then_some(st)
    }

    /// Propagate `cell = digit` from the fixpoint `base`; the candidates after, or None on failure.
    fn assume(&self, base: &State, prop: &mut Propagator, cell: usize, digit: u8) -> Option<Vec<u16>> {
        if base.cand[cell] >> digit & 1 == 0 {
            return None;
        }
        let mut st = base.clone();
        st.cand[cell] = 1 << digit;
        prop.propagate_cell(&mut st, cell).then_some(st.cand)
    }

    fn forcing_chain(&self, t: &mut Tally<Step>) {
        let Some(base) = self.base() else { return };
        let mut prop = Propagator::new(self.lay);
        let remove = |pivot: usize, c: usize, digits: u16| Step::Remove(vec![(c, digits)], vec![pivot]);
        assume::forcing_chains(
            &self.cand,
            &self.placed,
            &self.solution,
            |c, d| self.assume(&base, &mut prop, c, d),
            remove,
            t,
        );
    }

    fn trial(&self, t: &mut Tally<Step>) {
        let Some(base) = self.base() else { return };
        let mut prop = Propagator::new(self.lay);
        let remove = |c: usize, digits: u16| Step::Remove(vec![(c, digits)], vec![c]);
        let guess = |c: usize| Step::Place { cell: c, digit: self.solution[c] };
        assume::trial(&self.cand, &self.placed, |c, d| self.assume(&base, &mut prop, c, d), remove, guess, t);
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
            Tech::NakedSingle => self.naked_single(t),
            Tech::LastRunCell => self.last_run_cell(t),
            Tech::UniqueCombination => self.unique_combination(t),
            Tech::RunIntersection => self.run_intersection(t),
            Tech::HiddenSingle => self.hidden_single(t),
            Tech::CombinationElimination => self.combination_elimination(t),
            Tech::NakedPair => self.naked_subset(2, t),
            Tech::NakedTriple => self.naked_subset(3, t),
            Tech::AreaSum => self.area_sum(t),
            Tech::ForcingChain => self.forcing_chain(t),
            Tech::Trial => self.trial(t),
        }
    }

    fn apply(&mut self, step: &Step) {
        match step {
            Step::Place { cell, digit } => self.place(*cell, *digit),
            Step::Remove(pairs, _) => self.remove(pairs),
        }
    }

    fn effect(&self, tech: Tech, step: &Step) -> Effect {
        let lay = self.lay;
        match step {
            &Step::Place { cell, digit } => {
                let run =
                    |r: usize| (self.run_cells(r).into_iter().filter(|&o| o != cell).collect(), Some(self.run_name(r)));
                let runs = lay.cell_runs[cell].map(|r| r as usize);
                let (cells, unit) = match tech {
                    Tech::LastRunCell => {
                        match runs.into_iter().find(|&r| {
                            let (_, sum, empty) = self.run_state(r);
                            empty == 1 && lay.runs[r].sum as i32 - sum == digit as i32
                        }) {
                            Some(r) => run(r),
                            None => (vec![cell], None),
                        }
                    }
                    Tech::HiddenSingle => match runs.into_iter().find(|&r| {
                        let must = self.combos_of(r).1 & !self.run_state(r).0;
                        must >> digit & 1 == 1
                            && lay.runs[r].cells.iter().all(|&w| {
                                let w = w as usize;
                                w == cell || self.placed[w] || self.cand[w] >> digit & 1 == 0
                            })
                    }) {
                        Some(r) => run(r),
                        None => (vec![cell], None),
                    },
                    _ => (vec![cell], None),
                };
                Effect { place: vec![(cell, digit)], remove: Vec::new(), cells, unit }
            }
            Step::Remove(pairs, from) => {
                let remove = pairs
                    .iter()
                    .flat_map(|&(c, m)| (1..=9u8).filter(move |&d| m >> d & 1 == 1).map(move |d| (c, d)))
                    .filter(|&(c, d)| !self.placed[c] && self.cand[c] >> d & 1 == 1)
                    .collect();
                let unit = match tech {
                    Tech::ForcingChain | Tech::Trial | Tech::AreaSum | Tech::RunIntersection => None,
                    _ => (0..lay.runs.len())
                        .find(|&r| !from.is_empty() && from.iter().all(|&c| lay.runs[r].cells.contains(&(c as u32))))
                        .map(|r| self.run_name(r)),
                };
                Effect { place: Vec::new(), remove, cells: from.clone(), unit }
            }
        }
    }

    fn coord(&self, cell: usize) -> (usize, usize) {
        let g = self.lay.whites[cell] as usize;
        (g / self.lay.cols, g % self.lay.cols)
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
        let name = |c: usize| {
            let g = self.lay.whites[c] as usize;
            format!("[{},{}]", g / self.lay.cols, g % self.lay.cols)
        };
        let digits = |m: u16| (1..=9).filter(|d| m >> d & 1 == 1).map(|d| d.to_string()).collect::<String>();
        match step {
            Step::Place { cell, digit } => format!("{}={digit}", name(*cell)),
            Step::Remove(pairs, _) => {
                let parts: Vec<String> = pairs.iter().map(|&(c, m)| format!("{}-{{{}}}", name(c), digits(m))).collect();
                format!("remove {}", parts.join(" "))
            }
        }
    }
}
