//! Kakuro techniques in six levels, each defined once with what one situation is and what a
//! success is (see `Technique::situation`), and the `Solving` position the ladder drives.
//!
//! "The combinations of a run" below are the table's sets for its (sum, length) that hold
//! every digit already placed in it. Forcing chains and trial propagate with the fast
//! counter's `Propagator`, which never removes a digit of a solution the position still
//! allows; `Position::unsound` audits every step against the known solution.

use super::scan_cache::UnitTallies;
use super::solve::{combo_support, Layout, Propagator, State, ALL};
use pf_core::common::latin;
use pf_core::rate::{assume, Effect, Solving, Tally, Technique};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tech {
    NakedSingle,
    LastRunCell,
    UniqueCombination,
    HiddenSingle,
    RunIntersection,
    PairSum,
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
        Tech::HiddenSingle,
        Tech::RunIntersection,
        Tech::PairSum,
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
            Tech::PairSum => "pair_sum",
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
            // Both singles at level 1, as in Sudoku's ladder; a two-cell run's partner digits
            // (the sum less each candidate) at level 2, beside the crossing-run intersection:
            // people take both before they weigh a longer run's combinations (level 3).
            Tech::NakedSingle | Tech::LastRunCell | Tech::UniqueCombination | Tech::HiddenSingle => 1,
            Tech::RunIntersection | Tech::PairSum => 2,
            Tech::CombinationElimination | Tech::NakedPair | Tech::NakedTriple => 3,
            Tech::AreaSum => 4,
            Tech::ForcingChain => 5,
            Tech::Trial => 6,
        }
    }

    /// A teaching puzzle may use the crossing-run intersection and the pair sum beside the
    /// singles: nearly every Kakuro needs both, as a first move of every solver.
    fn basic(self) -> bool {
        self.level() <= 2
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
                "a (run with two or more empty cells, digit) with the digit in every combination of the run and \
                 not yet placed; succeeds when one empty cell of the run can take it"
            }
            Tech::PairSum => {
                "a run of two cells with an empty cell; succeeds when a candidate of one cell has no partner (the \
                 sum less it, another digit) among the other cell's candidates"
            }
            Tech::CombinationElimination => {
                "a run of three or more cells with an empty cell; succeeds when, keeping only the combinations \
                 its cells' candidates can realise as distinct digits, a candidate of a cell fits no assignment and \
                 is removed"
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
    /// Empty cells left (`is_done` on every step of the ladder).
    open: usize,
    /// Per technique of levels 1 to 3 (`cached_slot`): its tally per cell or run, kept from
    /// one try to the next (`scan_cache`).
    caches: [UnitTallies; CACHED],
}

/// The techniques whose scans are cached: they look at one cell (and its two runs) or one run.
const CACHED: usize = 9;

/// The cache slot of `tech`, and whether its units are cells (else runs); None when its
/// scan is not cached.
fn cached_slot(tech: Tech) -> Option<(usize, bool)> {
    Some(match tech {
        Tech::NakedSingle => (0, true),
        Tech::RunIntersection => (1, true),
        Tech::LastRunCell => (2, false),
        Tech::UniqueCombination => (3, false),
        Tech::HiddenSingle => (4, false),
        Tech::NakedPair => (5, false),
        Tech::NakedTriple => (6, false),
        Tech::CombinationElimination => (7, false),
        Tech::PairSum => (8, false),
        Tech::AreaSum | Tech::ForcingChain | Tech::Trial => return None,
    })
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
                let mut unknown = false;
                for (run, &(a, b)) in lay.runs.iter().zip(&span) {
                    if a < lo || b > hi {
                        continue;
                    }
                    if run.is_free() {
                        // A free run along the band leaves its total unknown; one across it
                        // is a cell like any other outside the crossing runs.
                        unknown |= run.across == across;
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
                if !any_cross || unknown {
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
            solution: lay.whites_of(solution),
            unsound: 0,
            run_placed: lay.runs.iter().map(|r| (0, 0, r.cells.len())).collect(),
            run_combos: lay.runs.iter().map(|r| union_must(r.combos, 0)).collect(),
            bands: std::cell::OnceCell::new(),
            run_version: vec![0; lay.runs.len()],
            keep_memo: std::cell::RefCell::new(vec![(u32::MAX, [0; 9]); lay.runs.len()]),
            open: lay.whites.len(),
            caches: Default::default(),
        }
    }

    pub fn is_done(&self) -> bool {
        self.open == 0
    }

    /// Cell `c` changed: its runs' versions move on, and its units and its runs' are marked
    /// for the scan caches.
    fn touch(&mut self, c: usize) {
        let (cell_caches, run_caches) = self.caches.split_at_mut(2);
        for cache in cell_caches {
            cache.mark(c);
        }
        for r in self.lay.cell_runs[c] {
            self.run_version[r as usize] += 1;
            for cache in run_caches.iter_mut() {
                cache.mark(r as usize);
            }
        }
    }

    fn place(&mut self, c: usize, d: u8) {
        if self.solution[c] != d {
            self.unsound += 1;
        }
        if !self.placed[c] {
            self.open -= 1;
        }
        self.cand[c] = 1 << d;
        self.placed[c] = true;
        self.touch(c);
        // The runs' combinations change: run intersection reads them at every cell of the runs.
        for r in self.lay.cell_runs[c] {
            for &p in &self.lay.runs[r as usize].cells {
                self.caches[1].mark(p as usize);
            }
        }
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

    /// "across 16 from r2c4": the run's direction, sum and first cell ("from", since the
    /// explanation lists the cells a step rests on after "at").
    fn run_name(&self, r: usize) -> String {
        let run = &self.lay.runs[r];
        let (row, col) = self.coord(run.cells[0] as usize);
        format!("{} {} from r{}c{}", if run.across { "across" } else { "down" }, run.sum, row + 1, col + 1)
    }

    fn run_cells(&self, r: usize) -> Vec<usize> {
        self.lay.runs[r].cells.iter().map(|&w| w as usize).collect()
    }

    fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.cand.len()).filter(|&c| !self.placed[c])
    }

    /// Scan one unit (a cell or a run, as `cached_slot` says) of a cached technique: the
    /// technique's plain scan is this over every unit in index order.
    fn scan_unit(&self, tech: Tech, u: usize, t: &mut Tally<Step>) {
        let run_open = || self.run_placed[u].2 > 0;
        match tech {
            Tech::NakedSingle if !self.placed[u] => self.naked_single(u, t),
            Tech::RunIntersection if !self.placed[u] => self.run_intersection(u, t),
            Tech::LastRunCell if run_open() => self.last_run_cell(u, t),
            Tech::UniqueCombination if run_open() => self.unique_combination(u, t),
            // A run's last empty cell is the last run cell's situation, not a hidden single's.
            Tech::HiddenSingle if self.run_placed[u].2 > 1 => self.hidden_single(u, t),
            Tech::NakedPair if run_open() => self.naked_subset(2, u, t),
            Tech::NakedTriple if run_open() => self.naked_subset(3, u, t),
            // A two-cell run's combination check is the pair sum; the longer runs' is level 3.
            Tech::PairSum if run_open() && self.lay.runs[u].cells.len() == 2 => self.combination_elimination(u, t),
            Tech::CombinationElimination if run_open() && self.lay.runs[u].cells.len() > 2 => {
                self.combination_elimination(u, t)
            }
            _ => {}
        }
    }

    /// The plain scan of a cached technique: every unit, in index order.
    #[cfg(test)]
    fn scan_plain(&self, tech: Tech, t: &mut Tally<Step>) {
        let (_, cells) = cached_slot(tech).expect("a cached technique");
        let units = if cells { self.cand.len() } else { self.lay.runs.len() };
        for u in 0..units {
            self.scan_unit(tech, u, t);
        }
    }

    /// The cached scan: the units touched since the last scan are scanned again, the totals
    /// kept, and the first success is found in the lowest unit holding one.
    fn scan_cached(&mut self, tech: Tech, t: &mut Tally<Step>) {
        let (slot, cells) = cached_slot(tech).expect("a cached technique");
        let units = if cells { self.cand.len() } else { self.lay.runs.len() };
        let mut cache = std::mem::take(&mut self.caches[slot]);
        cache.refresh(units, |u| {
            let mut part = Tally::default();
            self.scan_unit(tech, u, &mut part);
            (part.situations, part.successes)
        });
        let (situations, successes) = cache.totals();
        t.record_many(situations, successes, || {
            let mut part = Tally::default();
            self.scan_unit(tech, cache.first_hit()?, &mut part);
            part.first
        });
        self.caches[slot] = cache;
    }

    fn naked_single(&self, c: usize, t: &mut Tally<Step>) {
        let m = self.cand[c];
        t.record((m.count_ones() == 1).then(|| Step::Place { cell: c, digit: m.trailing_zeros() as u8 }));
    }

    fn last_run_cell(&self, r: usize, t: &mut Tally<Step>) {
        let (_, sum, empty) = self.run_state(r);
        let found = (empty == 1).then(|| {
            let c = self.lay.runs[r].cells.iter().map(|&w| w as usize).find(|&w| !self.placed[w]).unwrap();
            let d = self.lay.runs[r].sum as i32 - sum;
            ((1..=9).contains(&d) && self.cand[c] >> d & 1 == 1).then_some(Step::Place { cell: c, digit: d as u8 })
        });
        t.record(found.flatten());
    }

    fn unique_combination(&self, r: usize, t: &mut Tally<Step>) {
        let run = &self.lay.runs[r];
        let outside = ALL & !run.combos[0];
        let hit = run.combos.len() == 1
            && run.cells.iter().any(|&w| !self.placed[w as usize] && self.cand[w as usize] & outside != 0);
        t.record(
            hit.then(|| self.removal(run.cells.iter().map(|&w| (w as usize, outside)).collect(), || self.run_cells(r)))
                .flatten(),
        );
    }

    fn run_intersection(&self, c: usize, t: &mut Tally<Step>) {
        let [a, d] = self.lay.cell_runs[c];
        let keep = self.combos_of(a as usize).0 & self.combos_of(d as usize).0;
        t.record((self.cand[c] & !keep != 0).then(|| {
            let mut from = self.run_cells(a as usize);
            from.extend(self.run_cells(d as usize));
            from.retain(|&o| o != c);
            Step::Remove(vec![(c, self.cand[c] & !keep)], from)
        }));
    }

    fn hidden_single(&self, r: usize, t: &mut Tally<Step>) {
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

    fn combination_elimination(&self, r: usize, t: &mut Tally<Step>) {
        let run = &self.lay.runs[r];
        let keep = self.run_keep(r);
        let hit = run
            .cells
            .iter()
            .enumerate()
            .any(|(i, &w)| !self.placed[w as usize] && self.cand[w as usize] & !keep[i] != 0);
        t.record(
            hit.then(|| {
                self.removal(run.cells.iter().enumerate().map(|(i, &w)| (w as usize, ALL & !keep[i])).collect(), || {
                    self.run_cells(r)
                })
            })
            .flatten(),
        );
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

    fn naked_subset(&self, k: usize, r: usize, t: &mut Tally<Step>) {
        let cells = &self.lay.runs[r].cells;
        let mut house = [0u16; 9];
        for (i, &w) in cells.iter().enumerate() {
            house[i] = if self.placed[w as usize] { 0 } else { self.cand[w as usize] };
        }
        latin::naked_subsets(&house[..cells.len()], k, t, |subset, others, digits| {
            let pairs = (0..cells.len()).filter(|i| others >> i & 1 == 1).map(|i| (cells[i] as usize, digits as u16));
            let from = || (0..cells.len()).filter(|i| subset >> i & 1 == 1).map(|i| cells[i] as usize).collect();
            self.removal(pairs.collect(), from).unwrap_or(Step::Remove(Vec::new(), Vec::new()))
        });
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
            Tech::AreaSum => self.area_sum(t),
            Tech::ForcingChain => self.forcing_chain(t),
            Tech::Trial => self.trial(t),
            _ => self.scan_cached(tech, t),
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
                // The first run holding every cell of `from`: one of its first cell's two runs
                // (across before down, as the runs are numbered).
                let unit = match (tech, from.first()) {
                    (Tech::ForcingChain | Tech::Trial | Tech::AreaSum | Tech::RunIntersection, _) | (_, None) => None,
                    (_, Some(&first)) => lay.cell_runs[first]
                        .into_iter()
                        .map(|r| r as usize)
                        .find(|&r| from.iter().all(|&c| lay.runs[r].cells.contains(&(c as u32))))
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

    /// Whether every open cell is reached from the first through runs holding open cells.
    fn open_cells_linked(&self) -> bool {
        let Some(start) = self.empty_cells().next() else { return true };
        let mut seen = vec![false; self.cand.len()];
        let mut run_seen = vec![false; self.lay.runs.len()];
        let (mut stack, mut reached) = (vec![start], 1);
        seen[start] = true;
        while let Some(c) = stack.pop() {
            for r in self.lay.cell_runs[c].map(|r| r as usize) {
                if std::mem::replace(&mut run_seen[r], true) {
                    continue;
                }
                for w in self.lay.runs[r].cells.iter().map(|&w| w as usize) {
                    if !self.placed[w] && !std::mem::replace(&mut seen[w], true) {
                        reached += 1;
                        stack.push(w);
                    }
                }
            }
        }
        reached == self.open
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{generate::generate, Cell, Grid, Kakuro, KakuroParams};
    use pf_core::rate::{rate_traced, Trace};
    use rand::SeedableRng;

    /// A position whose every cached scan is checked against the plain scan of every unit.
    #[derive(Clone)]
    struct Checked<'a>(Position<'a>, u32);

    impl<'a> Solving for Checked<'a> {
        type Tech = Tech;
        type Step = Step;
        fn is_solved(&self) -> bool {
            self.0.is_solved()
        }
        fn scan(&mut self, tech: Tech, t: &mut Tally<Step>) {
            if cached_slot(tech).is_some() {
                let mut plain = Tally::default();
                self.0.scan_plain(tech, &mut plain);
                let mut cached = Tally::default();
                self.0.scan(tech, &mut cached);
                let got = (cached.situations, cached.successes, &cached.first);
                assert_eq!(got, (plain.situations, plain.successes, &plain.first), "{tech:?}");
                self.1 += 1;
            }
            self.0.scan(tech, t);
        }
        fn apply(&mut self, step: &Step) {
            self.0.apply(step)
        }
        fn effect(&self, tech: Tech, step: &Step) -> Effect {
            self.0.effect(tech, step)
        }
        fn coord(&self, cell: usize) -> (usize, usize) {
            self.0.coord(cell)
        }
        fn cell_count(&self) -> usize {
            self.0.cell_count()
        }
        fn is_placed(&self, cell: usize) -> bool {
            self.0.is_placed(cell)
        }
        fn bivalue_cells(&self) -> Vec<usize> {
            self.0.bivalue_cells()
        }
        fn place_solution(&self, cell: usize) -> Step {
            self.0.place_solution(cell)
        }
        fn open_cells_linked(&self) -> bool {
            self.0.open_cells_linked()
        }
    }

    /// `rate::shortcut` without the linked-groups test: every two-candidate cell is tried.
    fn plain_shortcut(pos: &Position) -> bool {
        let mut stuck = pos.clone();
        if pf_core::rate::singles_only(&mut stuck) {
            return false;
        }
        stuck.bivalue_cells().into_iter().any(|c| {
            let mut p = stuck.clone();
            p.apply(&p.place_solution(c));
            pf_core::rate::singles_only(&mut p)
        })
    }

    /// Two generated puzzles side by side on one board (the second's clue border ends the
    /// first's across runs), with their solutions.
    fn side_by_side(a: &Kakuro, b: &Kakuro, sa: &Grid, sb: &Grid) -> (Kakuro, Grid) {
        let (rows, cols) = (a.rows.max(b.rows), a.cols + b.cols);
        let mut cells = vec![Cell::Block { down: 0, right: 0 }; rows * cols];
        let mut digits = vec![0u8; rows * cols];
        for (p, s, c0) in [(a, sa, 0), (b, sb, a.cols)] {
            for r in 0..p.rows {
                for c in 0..p.cols {
                    cells[r * cols + c0 + c] = p.cells[r * p.cols + c];
                    digits[r * cols + c0 + c] = s.digits[r * p.cols + c];
                }
            }
        }
        (Kakuro { rows, cols, cells }, Grid { cols, digits })
    }

    #[test]
    fn shortcut_agrees_with_trying_every_cell() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(44);
        // Where the stuck open cells are linked both try every cell; where they are split the
        // test answers false at once, and trying every cell must agree (generated Kakuro rarely
        // have a shortcut at all: none in these 600).
        let (mut yes, mut split, mut tried) = (0, 0, 0);
        while tried < 600 {
            let side = 6 + tried % 5;
            let params = KakuroParams { rows: side as u16, cols: side as u16, ..Default::default() };
            let (Ok(a), Ok(b)) = (generate(&params, &mut rng), generate(&params, &mut rng)) else { continue };
            tried += 2;
            let joined = side_by_side(&a.puzzle, &b.puzzle, &a.solution, &b.solution);
            for (p, s) in [(&a.puzzle, &a.solution), (&b.puzzle, &b.solution), (&joined.0, &joined.1)] {
                let lay = Layout::new(p).unwrap();
                let pos = Position::new(&lay, s);
                let fast = pf_core::rate::shortcut(&pos);
                assert_eq!(fast, plain_shortcut(&pos));
                yes += fast as u32;
                let mut stuck = pos.clone();
                if !pf_core::rate::singles_only(&mut stuck) && !stuck.open_cells_linked() {
                    split += 1;
                }
            }
        }
        assert!(split >= 100, "shortcuts {yes}, split stuck positions {split} in {tried} puzzles");
    }

    #[test]
    fn cached_scans_equal_plain_scans_at_every_step() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(43);
        let (mut rated, mut checks, mut levels) = (0, 0, [0u32; 7]);
        for (rows, cols) in [(8, 10), (10, 10), (12, 12), (15, 15)].into_iter().cycle().take(60) {
            let params = KakuroParams { rows, cols, ..Default::default() };
            let Ok(g) = generate(&params, &mut rng) else { continue };
            let lay = Layout::new(&g.puzzle).unwrap();
            let mut pos = Checked(Position::new(&lay, &g.solution), 0);
            // With a path (the `effect` of every step) and the shortcut's clones.
            let r = rate_traced(&mut pos, Some(&mut Trace::with_path()));
            assert!(pos.0.is_done() && pos.0.unsound == 0);
            levels[r.hardest_level as usize] += 1;
            checks += pos.1;
            rated += 1;
        }
        assert!(rated >= 40, "{rated}");
        // Hard puzzles too: the caches must survive level 4-6 steps between their scans.
        assert!(levels[5] + levels[6] >= 5 && levels[3] >= 5, "{levels:?}");
        assert!(checks > 10_000, "{checks}");
    }
}
