//! The strategy-step ladder, generic over a kind's techniques.
//!
//! The rater behaves like a solver that always tries the easiest level first and goes back to
//! level 1 after every success. At each try of a level, `s` is the number of situations that
//! level's techniques could be tried on and `r` the number that succeed; the try costs
//! `(s+1)/(r+1)` steps when `r > 0` (expected tries until the first success when drawing
//! situations at random without replacement) and `s` steps when `r = 0`. The puzzle's step
//! count is the sum over the whole solve (SPEC.md, "Step count").
//!
//! Invariant: a kind's last level must always make progress (its trial technique falls back
//! to a guess), so the ladder terminates on every uniquely solvable puzzle.

pub mod assume;

use serde::Serialize;

/// A technique of one puzzle kind. `ALL` lists them in ladder order (by level, easiest first);
/// names, CSV columns and help text all come from that one list.
pub trait Technique: Copy + Eq + std::fmt::Debug + Send + Sync + 'static {
    const ALL: &'static [Self];
    /// Short machine name, used as the CSV column suffix and JSON key.
    fn name(self) -> &'static str;
    /// Ladder level, 1 = easiest.
    fn level(self) -> u8;
    /// What one situation of this technique is, and what counts as a success.
    fn situation(self) -> &'static str;

    fn index(self) -> usize {
        Self::ALL.iter().position(|&t| t == self).expect("technique listed in ALL")
    }
    fn max_level() -> u8 {
        Self::ALL.iter().map(|t| t.level()).max().unwrap_or(0)
    }
    /// Whether a teaching puzzle (`generate --teach T`) may use this technique beside T: the
    /// singles, level 1, unless a kind's basic moves reach further.
    fn basic(self) -> bool {
        self.level() == 1
    }
}

/// What one scan of one technique found: how many situations, how many of them succeed, and
/// the first success (the one the ladder applies).
pub struct Tally<S> {
    pub situations: u32,
    pub successes: u32,
    pub first: Option<S>,
}

impl<S> Default for Tally<S> {
    fn default() -> Self {
        Tally { situations: 0, successes: 0, first: None }
    }
}

impl<S> Tally<S> {
    /// Count many situations at once (for scans that count with bit tricks); `first` is the
    /// first success among them in the technique's enumeration order.
    #[inline]
    pub fn record_many(&mut self, situations: u32, successes: u32, first: impl FnOnce() -> Option<S>) {
        self.situations += situations;
        self.successes += successes;
        if successes > 0 && self.first.is_none() {
            self.first = first();
        }
    }

    /// Count every k-subset of `all` items as a situation, but examine (through `f`) only
    /// the k-subsets of the first `fit` items, those that could succeed: the others are counted
    /// without a look. Same counts and same first success as examining all of them, in a
    /// fraction of the time (the wings' scans are the rater's hot spot on hard puzzles).
    pub fn subsets_of_fit(&mut self, all: usize, fit: usize, k: usize, mut f: impl FnMut(&[usize], &mut Self)) {
        self.situations += crate::common::combos::binom(all, k) - crate::common::combos::binom(fit, k);
        crate::common::combos::combos(fit, k, |ix| f(ix, self));
    }

    /// Count one situation; `found` is the step it yields if it succeeds.
    #[inline]
    pub fn record(&mut self, found: Option<S>) {
        self.situations += 1;
        if let Some(step) = found {
            self.successes += 1;
            if self.first.is_none() {
                self.first = Some(step);
            }
        }
    }
}

/// A position being solved by techniques: the kind's side of the ladder.
pub trait Solving {
    type Tech: Technique;
    type Step: std::fmt::Debug;
    fn is_solved(&self) -> bool;
    /// Scan every situation of `tech`, recording each in `tally`.
    fn scan(&mut self, tech: Self::Tech, tally: &mut Tally<Self::Step>);
    /// Apply a step found by `scan`. Must make progress.
    fn apply(&mut self, step: &Self::Step);
    /// A human-readable description of a step, for the replay log.
    fn describe(&self, step: &Self::Step) -> String {
        format!("{step:?}")
    }
    /// What `step`, found by `tech`, places and removes and which cells it rests on, read
    /// before it is applied (solution paths).
    fn effect(&self, tech: Self::Tech, step: &Self::Step) -> Effect;
    /// A cell's `[row, col]` in the puzzle's own grid (Kakuro: clue border included).
    fn coord(&self, cell: usize) -> (usize, usize);
    /// The number of cells (indices 0 to this, as `coord` and the steps use them).
    fn cell_count(&self) -> usize;
    /// Whether the cell holds a digit (a given, or placed since).
    fn is_placed(&self, cell: usize) -> bool;
    /// The open cells with exactly two candidates (`shortcut`).
    fn bivalue_cells(&self) -> Vec<usize>;
    /// The step that places the solution's digit in `cell` (`shortcut`).
    fn place_solution(&self, cell: usize) -> Self::Step;
    /// False when the open cells fall into two or more groups that no house, cage or run links
    /// (`shortcut`: a guess then leaves the other groups as stuck as before). Kinds that do not
    /// say answer true, and `shortcut` tries every two-candidate cell.
    fn open_cells_linked(&self) -> bool {
        true
    }
}

/// The result of rating one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct Rating {
    /// The step count d.
    pub steps: f64,
    /// Highest level whose technique was applied (0 if nothing was needed).
    pub hardest_level: u8,
    /// Successes applied per technique, indexed like `Technique::ALL`.
    pub usage: Vec<u32>,
}

/// One try of one level, for the replay log.
#[derive(Clone, Debug, Serialize)]
pub struct LogEntry {
    pub level: u8,
    pub situations: u32,
    pub successes: u32,
    pub cost: f64,
    pub applied: Option<String>,
}

/// The cost of one try of a level (SPEC.md).
pub(crate) fn try_cost(situations: u32, successes: u32) -> f64 {
    if successes > 0 {
        (situations as f64 + 1.0) / (successes as f64 + 1.0)
    } else {
        situations as f64
    }
}

/// What one step does and what it rests on, read from the position before it is applied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    /// Digits placed, as (cell, digit).
    pub place: Vec<(usize, u8)>,
    /// Candidates removed, as (cell, digit): only those the cell still held.
    pub remove: Vec<(usize, u8)>,
    /// The cells the reasoning rests on: the pattern, not the targets.
    pub cells: Vec<usize>,
    /// The house, cage or run the step is about, when there is one (`box 5`), for the text form.
    pub unit: Option<String>,
}

/// One step of a solution path (SPEC.md, "Solution paths"): coordinates are the puzzle's own
/// `[row, col]`, 0-based.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PathStep {
    pub technique: &'static str,
    pub level: u8,
    pub place: Vec<[usize; 3]>,
    pub remove: Vec<[usize; 3]>,
    pub cells: Vec<[usize; 2]>,
    #[serde(skip)]
    pub unit: Option<String>,
    /// The step count spent since the previous step, this step's level try included.
    #[serde(skip)]
    pub cost: f64,
}

impl PathStep {
    pub fn places(&self) -> bool {
        !self.place.is_empty()
    }
}

/// How to rate, and what to record beside the count (each only when asked for).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Techniques switched off, bit i for `Technique::ALL[i]` (`--forbid`, `--max-level`,
    /// `--teach`): the ladder never tries them.
    pub off: u64,
    /// Every level try (`replay`).
    pub log: Option<Vec<LogEntry>>,
    /// The solution path.
    pub path: Option<Vec<PathStep>>,
    /// Set to decide `shortcut` (SPEC.md); the answer lands in `shortcut`.
    pub want_shortcut: bool,
    pub shortcut: Option<bool>,
    /// Cells (`[row, col]` as `Solving::coord` gives them) to fill with the solution's digit
    /// before the ladder starts: the digits a player entered (`hint`, after checking them).
    pub enter: Vec<(usize, usize)>,
    /// Stop once the path holds this many steps (0: solve to the end).
    pub stop_after: usize,
    /// Give up as soon as the rating is sure to reach a grade above the one wanted (grade
    /// targeting: such a variant is a miss, however it ends); `gave_up` then says so.
    pub give_up: Option<GiveUp>,
    pub gave_up: bool,
}

/// When a rating may stop early: once its step count reaches `steps`, or a technique of level
/// `level` or above is applied (0: never on the level). Step counts only grow, and so does the
/// hardest level, so either bound, once reached, holds for the whole rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GiveUp {
    pub steps: f64,
    pub level: u8,
}

impl GiveUp {
    fn reached(&self, rating: &Rating) -> bool {
        rating.steps >= self.steps || (self.level > 0 && rating.hardest_level >= self.level)
    }
}

impl Trace {
    pub fn with_path() -> Trace {
        Trace { path: Some(Vec::new()), want_shortcut: true, ..Trace::default() }
    }
}

/// SPEC.md `bottleneck`: the largest share of the step count spent between two consecutive
/// placements (from the start to the first, between two, or after the last).
pub fn bottleneck(path: &[PathStep]) -> f64 {
    let total: f64 = path.iter().map(|s| s.cost).sum();
    if total <= 0.0 {
        return 0.0;
    }
    let (mut worst, mut run) = (0.0f64, 0.0);
    for s in path {
        run += s.cost;
        if s.places() {
            worst = worst.max(run);
            run = 0.0;
        }
    }
    worst.max(run) / total
}

/// Run the ladder to the end. `log`, when given, receives every level try.
pub fn rate<P: Solving>(pos: &mut P, log: Option<&mut Vec<LogEntry>>) -> Rating {
    match log {
        None => ladder(pos, 0, None, None, 0, None).0,
        Some(log) => ladder(pos, 0, Some(log), None, 0, None).0,
    }
}

/// Run the ladder as `trace` asks, recording what it asks for; without a trace, `rate`.
pub fn rate_traced<P: Solving + Clone>(pos: &mut P, trace: Option<&mut Trace>) -> Rating {
    let Some(trace) = trace else { return ladder(pos, 0, None, None, 0, None).0 };
    if !trace.enter.is_empty() {
        let at: std::collections::HashMap<(usize, usize), usize> =
            (0..pos.cell_count()).map(|c| (pos.coord(c), c)).collect();
        for rc in &trace.enter {
            if let Some(&c) = at.get(rc).filter(|&&c| !pos.is_placed(c)) {
                let step = pos.place_solution(c);
                pos.apply(&step);
            }
        }
    }
    if trace.want_shortcut {
        trace.shortcut = Some(shortcut(pos));
    }
    let (rating, gave_up) =
        ladder(pos, trace.off, trace.log.as_mut(), trace.path.as_mut(), trace.stop_after, trace.give_up);
    trace.gave_up = gave_up;
    rating
}

/// Apply level-1 steps until none is left; true when that solves the position.
pub fn singles_only<P: Solving>(pos: &mut P) -> bool {
    let level1: Vec<P::Tech> = P::Tech::ALL.iter().copied().filter(|t| t.level() == 1).collect();
    'solve: while !pos.is_solved() {
        for &tech in &level1 {
            let mut t = Tally::default();
            pos.scan(tech, &mut t);
            if let Some(step) = t.first {
                pos.apply(&step);
                continue 'solve;
            }
        }
        return false;
    }
    true
}

/// SPEC.md `shortcut`: from the position where the level-1 techniques (Sudoku: naked and
/// hidden singles) alone get stuck, placing the solution's digit in some two-candidate cell
/// lets them alone finish. False when they solve the puzzle without help.
pub fn shortcut<P: Solving + Clone>(pos: &P) -> bool {
    let mut stuck = pos.clone();
    if singles_only(&mut stuck) {
        return false;
    }
    // Level-1 techniques work within a linked group of open cells: with two stuck groups no
    // guess finishes the puzzle. Said at once, not after a copy of the position per cell (a
    // large Kakuro of many parts has thousands of two-candidate cells).
    if !stuck.open_cells_linked() {
        return false;
    }
    stuck.bivalue_cells().into_iter().any(|c| {
        let mut p = stuck.clone();
        let step = p.place_solution(c);
        p.apply(&step);
        singles_only(&mut p)
    })
}

fn ladder<P: Solving>(
    pos: &mut P,
    off: u64,
    mut log: Option<&mut Vec<LogEntry>>,
    mut path: Option<&mut Vec<PathStep>>,
    stop_after: usize,
    give_up: Option<GiveUp>,
) -> (Rating, bool) {
    let all = P::Tech::ALL;
    let max_level = P::Tech::max_level();
    let mut rating = Rating { steps: 0.0, hardest_level: 0, usage: vec![0; all.len()] };
    // Step count spent since the last step recorded in the path.
    let mut since = 0.0;
    // Safety valve against a kind whose last level fails to progress: far above any real solve.
    // Each step places a digit or removes a candidate, so a solve takes at most (digits + 1)
    // steps a cell (26 with 25 symbols): the valve grows with boards of over 3,125 cells (large
    // Kakuro; a 1000×1000 board has some 600,000 white cells).
    let mut budget = (pos.cell_count() as u64 * 32).max(100_000);
    // Each level's techniques not switched off, as a bit set over `ALL` (at most 64, as `off`):
    // chosen once, not on every step.
    let by_level: Vec<u64> = (1..=max_level)
        .map(|level| all.iter().enumerate().filter(|(_, t)| t.level() == level).fold(0, |m, (i, _)| m | 1 << i) & !off)
        .collect();
    'solve: while !pos.is_solved() && budget > 0 {
        budget -= 1;
        for (level, &techs) in (1..=max_level).zip(&by_level) {
            if techs == 0 {
                continue;
            }
            let mut level_tally: Tally<(P::Tech, P::Step)> = Tally::default();
            let mut left = techs;
            while left != 0 {
                let tech = all[left.trailing_zeros() as usize];
                left &= left - 1;
                let mut t = Tally::default();
                pos.scan(tech, &mut t);
                level_tally.situations += t.situations;
                level_tally.successes += t.successes;
                if level_tally.first.is_none() {
                    level_tally.first = t.first.map(|s| (tech, s));
                }
            }
            let cost = try_cost(level_tally.situations, level_tally.successes);
            rating.steps += cost;
            since += cost;
            let applied = level_tally.first.map(|(tech, step)| {
                let text = log.as_ref().map(|_| format!("{}: {}", tech.name(), pos.describe(&step)));
                if let Some(path) = path.as_deref_mut() {
                    path.push(path_step(pos, tech, &step, since));
                    since = 0.0;
                }
                pos.apply(&step);
                rating.usage[tech.index()] += 1;
                rating.hardest_level = rating.hardest_level.max(level);
                text
            });
            let progressed = applied.is_some();
            if give_up.is_some_and(|g| g.reached(&rating)) {
                return (rating, true);
            }
            if let Some(log) = log.as_deref_mut() {
                log.push(LogEntry {
                    level,
                    situations: level_tally.situations,
                    successes: level_tally.successes,
                    cost,
                    applied: applied.flatten(),
                });
            }
            if progressed {
                if stop_after > 0 && path.as_ref().is_some_and(|p| p.len() >= stop_after) {
                    break 'solve;
                }
                continue 'solve;
            }
        }
        break;
    }
    (rating, false)
}

/// The path step for `step` of `tech`, read before it is applied.
pub(crate) fn path_step<P: Solving>(pos: &P, tech: P::Tech, step: &P::Step, cost: f64) -> PathStep {
    let e = pos.effect(tech, step);
    let at = |c: usize| {
        let (r, col) = pos.coord(c);
        [r, col]
    };
    let with_digit = |&(c, d): &(usize, u8)| {
        let [r, col] = at(c);
        [r, col, d as usize]
    };
    PathStep {
        technique: tech.name(),
        level: tech.level(),
        place: e.place.iter().map(with_digit).collect(),
        remove: e.remove.iter().map(with_digit).collect(),
        cells: e.cells.iter().map(|&c| at(c)).collect(),
        unit: e.unit,
        cost,
    }
}

/// The lines a fish's pattern lies in, 1-based: `rows 2,7, columns 3,8`.
pub fn fish_unit(cells: &[(usize, usize)]) -> String {
    let list = |mut v: Vec<usize>| {
        v.sort_unstable();
        v.dedup();
        v.iter().map(|x| (x + 1).to_string()).collect::<Vec<_>>().join(",")
    };
    let rows = list(cells.iter().map(|c| c.0).collect());
    let cols = list(cells.iter().map(|c| c.1).collect());
    format!("rows {rows}, columns {cols}")
}

/// The bit mask of the techniques `keep` accepts (bit i for `Technique::ALL[i]`).
pub fn mask_where<T: Technique>(keep: impl Fn(T) -> bool) -> u64 {
    T::ALL.iter().filter(|&&t| keep(t)).fold(0u64, |m, t| m | 1 << t.index())
}

/// The bit mask of the techniques whose level `keep` accepts (bit i for `Technique::ALL[i]`).
pub fn level_mask<T: Technique>(keep: impl Fn(u8) -> bool) -> u64 {
    mask_where::<T>(|t| keep(t.level()))
}

/// The bit mask of the techniques named (bit i for `Technique::ALL[i]`); an unknown name is an
/// error naming `flag` and the kind's techniques.
pub fn technique_mask<T: Technique>(names: &[String], flag: &str) -> Result<u64, String> {
    names.iter().try_fold(0u64, |m, name| match technique_named::<T>(name.trim()) {
        Some(t) => Ok(m | 1 << t.index()),
        None => Err(format!(
            "--{flag} {name}: no such technique (the techniques are {})",
            T::ALL.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
        )),
    })
}

/// The technique named `name`, if the kind has one.
pub fn technique_named<T: Technique>(name: &str) -> Option<T> {
    T::ALL.iter().copied().find(|t| t.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn cost_formula() {
        assert_eq!(try_cost(9, 0), 9.0);
        assert_eq!(try_cost(9, 1), 5.0);
        assert_eq!(try_cost(9, 9), 1.0);
        assert_eq!(try_cost(0, 0), 0.0);
        // (s+1)/(r+1) when r > 0, s (not s+1) when r = 0.
        assert_eq!(try_cost(10, 3), 2.75);
        assert_eq!(try_cost(1, 1), 1.0);
        assert_eq!(try_cost(7, 0), 7.0);
        assert_eq!(try_cost(1, 0), 1.0);
    }

    #[test]
    fn tallies_count_every_situation_and_keep_the_first_success() {
        let mut t = Tally::default();
        t.record(None);
        t.record(Some('a'));
        t.record(Some('b'));
        assert_eq!((t.situations, t.successes, t.first), (3, 2, Some('a')));
        let mut m: Tally<char> = Tally::default();
        m.record_many(4, 0, || Some('x'));
        assert_eq!((m.situations, m.successes, m.first), (4, 0, None));
        m.record_many(5, 2, || Some('y'));
        m.record_many(3, 1, || Some('z'));
        assert_eq!((m.situations, m.successes, m.first), (12, 3, Some('y')));
    }

    /// A toy kind with exact arithmetic: a list of tasks, each needing one technique. Every
    /// technique sees every open task as a situation and succeeds on the tasks that need it;
    /// applying a success closes its task. `A` and `B` are level 1, `C` level 2, `Trial` level 3.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Toy {
        A,
        B,
        C,
        Trial,
    }

    impl Technique for Toy {
        const ALL: &'static [Toy] = &[Toy::A, Toy::B, Toy::C, Toy::Trial];
        fn name(self) -> &'static str {
            match self {
                Toy::A => "a",
                Toy::B => "b",
                Toy::C => "c",
                Toy::Trial => "trial",
            }
        }
        fn level(self) -> u8 {
            match self {
                Toy::A | Toy::B => 1,
                Toy::C => 2,
                Toy::Trial => 3,
            }
        }
        fn situation(self) -> &'static str {
            "an open task"
        }
    }

    /// Open tasks (`None` = closed). With `stuck`, applying closes nothing (a broken kind).
    #[derive(Clone)]
    struct Tasks {
        open: Vec<Option<Toy>>,
        stuck: bool,
    }

    impl Solving for Tasks {
        type Tech = Toy;
        type Step = usize;
        fn is_solved(&self) -> bool {
            self.open.iter().all(Option::is_none)
        }
        fn scan(&mut self, tech: Toy, t: &mut Tally<usize>) {
            for (i, task) in self.open.iter().enumerate() {
                if let Some(need) = task {
                    t.record((*need == tech).then_some(i));
                }
            }
        }
        fn apply(&mut self, step: &usize) {
            if !self.stuck {
                self.open[*step] = None;
            }
        }
        fn effect(&self, _tech: Toy, step: &usize) -> Effect {
            Effect { place: vec![(*step, 1)], cells: vec![*step], ..Effect::default() }
        }
        fn coord(&self, cell: usize) -> (usize, usize) {
            (0, cell)
        }
        fn cell_count(&self) -> usize {
            self.open.len()
        }
        fn is_placed(&self, cell: usize) -> bool {
            self.open[cell].is_none()
        }
        /// The open tasks that need level 2 or more: one guess closes them.
        fn bivalue_cells(&self) -> Vec<usize> {
            (0..self.open.len()).filter(|&i| self.open[i].is_some_and(|t| t.level() > 1)).collect()
        }
        fn place_solution(&self, cell: usize) -> usize {
            cell
        }
    }

    fn tasks(open: &[Toy]) -> Tasks {
        Tasks { open: open.iter().map(|&t| Some(t)).collect(), stuck: false }
    }

    #[test]
    fn toy_technique_order() {
        assert_eq!(Toy::max_level(), 3);
        assert_eq!(Toy::ALL.iter().map(|t| t.index()).collect::<Vec<_>>(), [0, 1, 2, 3]);
    }

    #[test]
    fn a_rating_gives_up_once_a_bound_is_reached_and_only_then() {
        use Toy::*;
        let run = |give_up| {
            let mut trace = Trace { give_up: Some(give_up), ..Trace::default() };
            let r = rate_traced(&mut tasks(&[Trial, C, B, A, A]), Some(&mut trace));
            (r.steps, r.hardest_level, trace.gave_up)
        };
        // Rated to the end: 18.75 steps, hardest level 3 (see the test below).
        for bound in [0.5, 2.75, 10.0, 14.75, 18.75] {
            let (steps, _, gave_up) = run(GiveUp { steps: bound, level: 0 });
            assert!(gave_up && steps >= bound && steps < 18.75 || bound == 18.75, "{bound}: {steps}");
            // The try that reaches the bound is the last one counted.
            assert!(steps - bound < 4.0 + 1e-9, "{bound}: {steps}");
        }
        assert_eq!(run(GiveUp { steps: 18.75, level: 0 }), (18.75, 3, true));
        assert_eq!(run(GiveUp { steps: 18.76, level: 0 }), (18.75, 3, false));
        // On the level: C (level 2) is applied after 14.75 steps.
        assert_eq!(run(GiveUp { steps: 100.0, level: 2 }), (14.75, 2, true));
        assert_eq!(run(GiveUp { steps: 100.0, level: 3 }), (18.75, 3, true));
        assert_eq!(run(GiveUp { steps: 100.0, level: 4 }), (18.75, 3, false));
    }

    #[test]
    fn ladder_goes_back_to_level_1_after_each_success_and_tries_trial_last() {
        use Toy::*;
        let mut log = Vec::new();
        let r = rate(&mut tasks(&[Trial, C, B, A, A]), Some(&mut log));
        let got: Vec<(u8, u32, u32, f64, Option<&str>)> =
            log.iter().map(|e| (e.level, e.situations, e.successes, e.cost, e.applied.as_deref())).collect();
        // n open tasks: level 1 has 2n situations (A and B each see every task), levels 2 and 3 n.
        let want = [
            (1, 10, 3, 2.75, Some("a: 3")), // A before B: first success in ladder order
            (1, 8, 2, 3.0, Some("a: 4")),   // back to level 1
            (1, 6, 1, 3.5, Some("b: 2")),
            (1, 4, 0, 4.0, None), // r = 0 costs s
            (2, 2, 1, 1.5, Some("c: 1")),
            (1, 2, 0, 2.0, None), // back to level 1 after the level-2 success
            (2, 1, 0, 1.0, None),
            (3, 1, 1, 1.0, Some("trial: 0")), // trial only once levels 1 and 2 fail
        ];
        assert_eq!(got, want);
        assert_eq!(r.steps, 18.75);
        assert_eq!(r.hardest_level, 3);
        assert_eq!(r.usage, [2, 1, 1, 1]);
        // The log does not change the rating.
        let quiet = rate(&mut tasks(&[Trial, C, B, A, A]), None);
        assert_eq!((quiet.steps, quiet.hardest_level, quiet.usage), (18.75, 3, vec![2, 1, 1, 1]));
    }

    #[test]
    fn ladder_stops_at_once_on_solved_and_after_a_failed_ladder() {
        let mut log = Vec::new();
        let r = rate(&mut tasks(&[]), Some(&mut log));
        assert!(log.is_empty());
        assert_eq!((r.steps, r.hardest_level, r.usage), (0.0, 0, vec![0; 4]));
        // One C task: level 2 solves it, then nothing more is tried.
        let r = rate(&mut tasks(&[Toy::C]), Some(&mut log));
        assert_eq!(log.len(), 2);
        assert_eq!((r.steps, r.hardest_level), (2.0 + 1.0, 2));
    }

    #[test]
    fn path_records_each_applied_step_with_the_cost_since_the_previous() {
        use Toy::*;
        let mut trace = Trace::with_path();
        let mut pos = tasks(&[Trial, C, B, A, A]);
        let r = rate_traced(&mut pos, Some(&mut trace));
        let path = trace.path.unwrap();
        let got: Vec<(&str, u8, f64, Vec<[usize; 3]>)> =
            path.iter().map(|s| (s.technique, s.level, s.cost, s.place.clone())).collect();
        // Costs as in the ladder test above: failed tries count toward the next applied step.
        let want = [
            ("a", 1, 2.75, vec![[0, 3, 1]]),
            ("a", 1, 3.0, vec![[0, 4, 1]]),
            ("b", 1, 3.5, vec![[0, 2, 1]]),
            ("c", 2, 4.0 + 1.5, vec![[0, 1, 1]]),
            ("trial", 3, 2.0 + 1.0 + 1.0, vec![[0, 0, 1]]),
        ];
        assert_eq!(got, want);
        assert_eq!(path.iter().map(|s| s.cost).sum::<f64>(), r.steps);
        assert_eq!(bottleneck(&path), 5.5 / 18.75);
        // Level 1 alone closes the A and B tasks; one guess on either open task then leaves a
        // task that level 1 cannot close: no shortcut. With one hard task, the guess finishes.
        assert_eq!(trace.shortcut, Some(false));
        assert!(shortcut(&tasks(&[C, A, B])));
        assert!(!shortcut(&tasks(&[A, B])), "level 1 alone solves it: nothing to shortcut");
    }

    #[test]
    fn techniques_switched_off_are_never_tried() {
        use Toy::*;
        // C switched off: level 2 has no technique left, so no try of it is logged or paid
        // for, and the toy's trial cannot close a C task: the ladder stops unsolved.
        let mut trace = Trace { off: 1 << C.index(), log: Some(Vec::new()), ..Trace::default() };
        let mut pos = tasks(&[C, A]);
        let r = rate_traced(&mut pos, Some(&mut trace));
        assert_eq!(r.usage, [1, 0, 0, 0]);
        assert!(!pos.is_solved());
        let log = trace.log.unwrap();
        assert!(log.iter().all(|e| e.level != 2));
        assert_eq!(log.iter().filter(|e| e.level == 3).count(), 1);
        // Trial switched off: a trial task stays open; with it on, it closes.
        let mut trace = Trace { off: 1 << Trial.index(), ..Trace::default() };
        let mut pos = tasks(&[Trial, A]);
        rate_traced(&mut pos, Some(&mut trace));
        assert!(!pos.is_solved());
        let mut pos = tasks(&[Trial, A]);
        rate_traced(&mut pos, Some(&mut Trace::default()));
        assert!(pos.is_solved());
    }

    #[test]
    fn bottleneck_of_an_empty_path_is_zero() {
        assert_eq!(bottleneck(&[]), 0.0);
    }

    #[test]
    fn safety_valve_stops_a_kind_that_never_finishes() {
        let mut pos = Tasks { stuck: true, ..tasks(&[Toy::A]) };
        let r = rate(&mut pos, None);
        // Each round: level 1 has 2 situations, 1 success: 3/2 steps.
        assert_eq!(r.usage, [100_000, 0, 0, 0]);
        assert_eq!(r.steps, 150_000.0);
        assert_eq!(r.hardest_level, 1);
    }
}
