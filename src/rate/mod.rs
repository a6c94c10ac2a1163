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
pub fn try_cost(situations: u32, successes: u32) -> f64 {
    if successes > 0 {
        (situations as f64 + 1.0) / (successes as f64 + 1.0)
    } else {
        situations as f64
    }
}

/// Run the ladder to the end. `log`, when given, receives every level try.
pub fn rate<P: Solving>(pos: &mut P, mut log: Option<&mut Vec<LogEntry>>) -> Rating {
    let all = P::Tech::ALL;
    let max_level = P::Tech::max_level();
    let mut rating = Rating { steps: 0.0, hardest_level: 0, usage: vec![0; all.len()] };
    // Safety valve against a kind whose last level fails to progress: far above any real solve.
    let mut budget = 100_000u32;
    'solve: while !pos.is_solved() && budget > 0 {
        budget -= 1;
        for level in 1..=max_level {
            let mut level_tally: Tally<(P::Tech, P::Step)> = Tally::default();
            for &tech in all.iter().filter(|t| t.level() == level) {
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
            let applied = level_tally.first.map(|(tech, step)| {
                let text = log.as_ref().map(|_| format!("{}: {}", tech.name(), pos.describe(&step)));
                pos.apply(&step);
                rating.usage[tech.index()] += 1;
                rating.hardest_level = rating.hardest_level.max(level);
                text
            });
            let progressed = applied.is_some();
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
                continue 'solve;
            }
        }
        break;
    }
    rating
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
    fn safety_valve_stops_a_kind_that_never_finishes() {
        let mut pos = Tasks { stuck: true, ..tasks(&[Toy::A]) };
        let r = rate(&mut pos, None);
        // Each round: level 1 has 2 situations, 1 success: 3/2 steps.
        assert_eq!(r.usage, [100_000, 0, 0, 0]);
        assert_eq!(r.steps, 150_000.0);
        assert_eq!(r.hardest_level, 1);
    }
}
