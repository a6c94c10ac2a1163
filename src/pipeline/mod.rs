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
    /// Names the candidate stream (with the master seed and the kind): the configured
    /// parameters', whatever the steering level.
    pub params_key: String,
    pub thresholds: Thresholds,
    /// The parameters of each steering level, 0 (`params`) to `K::STEER_LEVELS`.
    pub steered: Vec<K::Params>,
    /// A shard's run goes through its own sequence of the run's candidates.
    pub shard: Option<crate::cli::Shard>,
}

impl<K: Kind> Context<K> {
    pub fn new(master: u64, params: K::Params, thresholds: Thresholds) -> Self {
        let params_key = K::params_key(&params);
        let steered =
            (0..=K::STEER_LEVELS).map(|l| if l == 0 { params.clone() } else { K::steer(&params, l) }).collect();
        Context { master, params, params_key, thresholds, steered, shard: None }
    }

    /// The run's candidate at position `j` of this process's sequence.
    pub fn candidate(&self, j: u64) -> u64 {
        self.shard.map_or(j, |s| s.candidate(j))
    }
}

/// A candidate that became a puzzle.
pub struct Accepted<K: Kind> {
    pub puzzle: K::Puzzle,
    pub solution: K::Solution,
    pub rating: Rating,
    pub grade: Grade,
    /// `Kind::canonical` of the puzzle.
    pub canonical: u128,
}

/// Wall time spent per stage, for calibration.json.
#[derive(Clone, Copy, Default, Debug, serde::Serialize, serde::Deserialize)]
pub struct StageTimes {
    pub generate: Duration,
    pub unique: Duration,
    pub rate: Duration,
}

pub struct Processed<K: Kind> {
    pub index: u64,
    /// The steering level it was generated with.
    pub steer: u8,
    /// Repairs the generator made to reach a unique solution.
    pub repairs: u32,
    pub outcome: Result<Accepted<K>, Reject>,
    pub times: StageTimes,
}

/// Run candidate `index` through every stage. `log` receives the rater's level tries.
pub fn process<K: Kind>(ctx: &Context<K>, index: u64, log: Option<&mut Vec<LogEntry>>) -> Processed<K> {
    process_steered(ctx, index, 0, log)
}

/// `process` with the parameters of steering level `steer` (0 to `K::STEER_LEVELS`; larger
/// levels are clamped). The candidate's random stream is the same at every level.
pub fn process_steered<K: Kind>(
    ctx: &Context<K>,
    index: u64,
    steer: u8,
    log: Option<&mut Vec<LogEntry>>,
) -> Processed<K> {
    let steer = steer.min(K::STEER_LEVELS);
    let mut times = StageTimes::default();
    let mut repairs = 0;
    let outcome = run_stages(ctx, index, &ctx.steered[steer as usize], log, &mut times, &mut repairs);
    Processed { index, steer, repairs, outcome, times }
}

fn run_stages<K: Kind>(
    ctx: &Context<K>,
    index: u64,
    params: &K::Params,
    log: Option<&mut Vec<LogEntry>>,
    times: &mut StageTimes,
    repairs: &mut u32,
) -> Result<Accepted<K>, Reject> {
    let mut rng = seed::candidate_rng(ctx.master, K::ID.name(), &ctx.params_key, index);
    let t = Instant::now();
    let generated = K::generate(params, &mut rng);
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
    let canonical = K::canonical(&puzzle, &solution);
    Ok(Accepted { puzzle, solution, rating: rated.rating, grade, canonical })
}
