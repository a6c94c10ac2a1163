//! One candidate through the stages: seed → generate → unique? → rate → grade.
//!
//! `process` is pure: its result depends only on the context and the index, never on which
//! thread runs it or when. The ordered-chunk driver is in `batch`.

pub mod batch;

use crate::grade::{Grade, Thresholds};
use crate::kinds::{Kind, Reject};
use crate::rate::{LogEntry, Rating};
use crate::seed;
use std::time::{Duration, Instant};

/// What every candidate of a run shares.
pub struct Context<K: Kind> {
    pub master: u64,
    pub params: K::Params,
    pub params_key: String,
    pub thresholds: Thresholds,
}

impl<K: Kind> Context<K> {
    pub fn new(master: u64, params: K::Params, thresholds: Thresholds) -> Self {
        let params_key = K::params_key(&params);
        Context { master, params, params_key, thresholds }
    }
}

/// A candidate that became a puzzle.
pub struct Accepted<K: Kind> {
    pub puzzle: K::Puzzle,
    pub solution: K::Solution,
    pub rating: Rating,
    pub grade: Grade,
}

/// Wall time spent per stage, for calibration.json.
#[derive(Clone, Copy, Default, Debug)]
pub struct StageTimes {
    pub generate: Duration,
    pub unique: Duration,
    pub rate: Duration,
}

pub struct Processed<K: Kind> {
    pub index: u64,
    /// Repairs the generator made to reach a unique solution.
    pub repairs: u32,
    pub outcome: Result<Accepted<K>, Reject>,
    pub times: StageTimes,
}

/// Run candidate `index` through every stage. `log` receives the rater's level tries.
pub fn process<K: Kind>(ctx: &Context<K>, index: u64, log: Option<&mut Vec<LogEntry>>) -> Processed<K> {
    let mut times = StageTimes::default();
    let mut repairs = 0;
    let outcome = run_stages(ctx, index, log, &mut times, &mut repairs);
    Processed { index, repairs, outcome, times }
}

fn run_stages<K: Kind>(
    ctx: &Context<K>,
    index: u64,
    log: Option<&mut Vec<LogEntry>>,
    times: &mut StageTimes,
    repairs: &mut u32,
) -> Result<Accepted<K>, Reject> {
    let mut rng = seed::candidate_rng(ctx.master, K::ID.name(), &ctx.params_key, index);
    let t = Instant::now();
    let generated = K::generate(&ctx.params, &mut rng);
    times.generate = t.elapsed();
    let generated = generated?;
    *repairs = generated.repairs;
    let puzzle = generated.puzzle;

    let t = Instant::now();
    let solved = K::solve(&puzzle, 2);
    times.unique = t.elapsed();
    let solution = match (solved.count, solved.first) {
        (1, Some(s)) => s,
        (0, _) | (_, None) => return Err(Reject::NoSolution),
        _ => return Err(Reject::NotUnique),
    };

    let t = Instant::now();
    let rated = K::rate(&puzzle, &solution, log);
    times.rate = t.elapsed();
    if !rated.solved {
        return Err(Reject::RatingIncomplete);
    }
    let grade = ctx.thresholds.grade(rated.rating.steps, rated.rating.hardest_level);
    Ok(Accepted { puzzle, solution, rating: rated.rating, grade })
}
