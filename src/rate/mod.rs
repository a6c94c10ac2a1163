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
    }
}
