//! One candidate through the stages: seed → generate → unique? → rate → grade.
//!
//! `process` is pure: its result depends only on the context and the index, never on which
//! thread runs it or when. The ordered-chunk driver is in `batch`.

pub mod batch;
pub mod order;
pub mod plan;

use crate::config::TargetSection;
use pf_core::grade::{Grade, Thresholds};
use pf_core::kind::{Kind, Reject};
use pf_core::rate::{GiveUp, LogEntry, PathStep, Rating, Trace};
use pf_core::seed;
use std::time::{Duration, Instant};

/// What every candidate of a run shares.
pub struct Context<K: Kind> {
    pub master: u64,
    pub params: K::Params,
    /// Names the candidate stream (with the master seed and the kind): the configured
    /// parameters', whatever the steering level.
    pub params_key: String,
    pub thresholds: Thresholds,
    /// The parameters of each steering level, 0 (`params`) to `K::steer_levels(params)`.
    pub steered: Vec<K::Params>,
    /// A shard's run goes through its own sequence of the run's candidates.
    pub shard: Option<order::Shard>,
    /// Grade targeting (`[target]`; attempts 0 = off).
    pub target: TargetSection,
    /// A count run's plan over the steering levels (`[target.size.N] mix` given, targeting
    /// on); `None`: each candidate draws a target grade.
    pub plan: Option<plan::Plan>,
    /// How candidates are rated and what is recorded (techniques switched off, paths,
    /// shortcut); `None` rates plainly, the fast path.
    pub trace: Option<Trace>,
    /// What an accepted candidate must show (technique constraints, `--no-shortcut`).
    pub constraint: Constraint,
}

/// Technique constraints on accepted candidates (SPEC.md, `generate --require …`); technique
/// sets are bit masks over `Technique::ALL`.
#[derive(Clone, Debug, Default)]
pub struct Constraint {
    /// Each must be needed: the path uses it, the puzzle solves with `need_off` (trial, and
    /// what `--forbid` and `--max-level` switch off) switched off, and not with the technique
    /// switched off too: every other technique allowed, whatever `--teach` rates with.
    pub require: u64,
    pub need_off: u64,
    /// Grades whose puzzles must not fall to one lucky guess (`--no-shortcut`).
    pub no_shortcut: Vec<Grade>,
    /// Steering (`Kind::generate_within`): clue removal in stages, stage i while the ladder
    /// with the techniques of `steer_off[i]` switched off still finishes.
    pub steer_off: Vec<u64>,
}

impl Constraint {
    pub fn is_empty(&self) -> bool {
        self.require == 0 && self.no_shortcut.is_empty()
    }

    /// Whether a rated candidate of grade `grade` meets the constraint.
    pub fn holds(&self, rating: &Rating, grade: Grade, shortcut: Option<bool>) -> bool {
        let used = rating.usage.iter().enumerate().fold(0u64, |m, (i, &u)| if u > 0 { m | 1 << i } else { m });
        used & self.require == self.require && !(self.no_shortcut.contains(&grade) && shortcut == Some(true))
    }
}

impl<K: Kind> Context<K> {
    pub fn new(master: u64, params: K::Params, thresholds: Thresholds) -> Self {
        let params_key = K::params_key(&params);
        let steered = (0..=K::steer_levels(&params))
            .map(|l| if l == 0 { params.clone() } else { K::steer(&params, l) })
            .collect();
        Context {
            master,
            params,
            params_key,
            thresholds,
            steered,
            shard: None,
            target: TargetSection::default(),
            plan: None,
            trace: None,
            constraint: Constraint::default(),
        }
    }

    /// The same context with grade targeting (`[target]`), planned when the target has a mix
    /// for the run's steering levels.
    pub fn with_target(self, target: TargetSection) -> Self {
        let levels = self.steered.len();
        let plan = (target.attempts > 0 && target.mix.len() >= levels)
            .then(|| plan::Plan::new(&target.mix[..levels], &target.shares))
            .flatten();
        Context { target, plan, ..self }
    }

    /// The grade candidate `index` aims at under `[target]`: a draw from the shares with the
    /// candidate's own seed.
    pub(crate) fn target_grade(&self, index: u64) -> Grade {
        let shares = self.target.shares;
        let total: f64 = shares.iter().sum();
        let mut x = seed::target_draw(self.master, K::NAME, &self.params_key, index) * total;
        for (g, s) in Grade::ALL.iter().zip(shares) {
            if x < s {
                return *g;
            }
            x -= s;
        }
        // Rounding at the top end: the last grade with a share.
        Grade::ALL.into_iter().zip(shares).rev().find(|(_, s)| *s > 0.0).map_or(Grade::Easy, |(g, _)| g)
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
    /// The solution path, when the run records paths.
    pub path: Option<Vec<PathStep>>,
    /// SPEC.md `shortcut`, when the run decides it.
    pub shortcut: Option<bool>,
}

/// Wall time spent per stage, for calibration.json.
#[derive(Clone, Copy, Default, Debug, serde::Serialize, serde::Deserialize)]
pub struct StageTimes {
    pub generate: Duration,
    pub unique: Duration,
    pub rate: Duration,
}

impl std::ops::AddAssign for StageTimes {
    fn add_assign(&mut self, t: StageTimes) {
        self.generate += t.generate;
        self.unique += t.unique;
        self.rate += t.rate;
    }
}

pub struct Processed<K: Kind> {
    pub index: u64,
    /// The steering level it was generated with.
    pub steer: u8,
    /// Repairs the generator made to reach a unique solution (in the variant kept).
    pub repairs: u32,
    /// Variants made (grade targeting; 1 without it).
    pub attempts: u32,
    pub outcome: Result<Accepted<K>, Reject>,
    pub times: StageTimes,
}

/// Run candidate `index` through every stage. `log` receives the rater's level tries.
pub fn process<K: Kind>(ctx: &Context<K>, index: u64, log: Option<&mut Vec<LogEntry>>) -> Processed<K> {
    process_steered(ctx, index, 0, log)
}

/// `process` with the parameters of steering level `steer` (0 to the run's
/// `K::steer_levels`; larger levels are clamped). The candidate's random stream is the same at every level.
pub fn process_steered<K: Kind>(
    ctx: &Context<K>,
    index: u64,
    steer: u8,
    log: Option<&mut Vec<LogEntry>>,
) -> Processed<K> {
    let steer = steer.min((ctx.steered.len() - 1) as u8);
    let params = &ctx.steered[steer as usize];
    let mut times = StageTimes::default();
    if ctx.target.attempts == 0 {
        let mut repairs = 0;
        let outcome = run_stages(ctx, index, Variant { attempt: 0, aim: None }, params, log, &mut times, &mut repairs)
            .expect("rated to the end without a grade to give up above");
        return Processed { index, steer, repairs, attempts: 1, outcome, times };
    }
    if let (Some(plan), 0) = (&ctx.plan, steer) {
        return process_planned(ctx, plan, index, log);
    }
    // Grade targeting, as Keen reaches its levels: variants until one has the target grade,
    // else the accepted variant nearest it (the first of equals), else the last rejection.
    let target = ctx.target_grade(index);
    // Variants aimed at the grade: made at the steering level whose settings make it most
    // (`[target] levels`), unless the candidate is steered already.
    let params = match steer {
        0 => &ctx.steered[(ctx.target.levels[target.index()] as usize).min(ctx.steered.len() - 1)],
        _ => params,
    };
    // A variant is rated only as far as it can still have the target grade (all but the last
    // attempt): one sure to grade above it is a miss, and a hit after it is kept whatever the
    // misses were. When no variant hits, the kept one depends on every miss's grade and
    // rejection, so then the variants given up are made again and rated to the end: the same
    // variants (each attempt has its own stream), the same choice as without giving up.
    let mut variant = |attempt: u32, aim: Option<Grade>| {
        let mut t = StageTimes::default();
        let mut repairs = 0;
        let outcome = run_stages(ctx, index, Variant { attempt, aim }, params, None, &mut t, &mut repairs);
        times += t;
        (repairs, outcome)
    };
    let mut made = 0;
    let mut misses = Vec::new();
    let mut hit = None;
    for attempt in 0..ctx.target.attempts {
        made += 1;
        let aim = (attempt + 1 < ctx.target.attempts).then_some(target);
        match variant(attempt, aim) {
            (repairs, Some(Ok(acc))) if acc.grade == target => {
                hit = Some((repairs, acc));
                break;
            }
            miss => misses.push(miss),
        }
    }
    let (best, last_err) = match hit {
        Some(hit) => (Some(hit), Reject::NoSolution),
        None => {
            let mut best: Option<(u32, Accepted<K>)> = None;
            let mut last_err = Reject::NoSolution;
            for (attempt, (repairs, outcome)) in misses.into_iter().enumerate() {
                let (repairs, outcome) = match outcome {
                    Some(outcome) => (repairs, outcome),
                    None => {
                        let (repairs, outcome) = variant(attempt as u32, None);
                        (repairs, outcome.expect("rated to the end without a grade to give up above"))
                    }
                };
                match outcome {
                    Ok(acc) => {
                        if best.as_ref().is_none_or(|b| distance(acc.grade, target) < distance(b.1.grade, target)) {
                            best = Some((repairs, acc));
                        }
                    }
                    Err(r) => last_err = r,
                }
            }
            (best, last_err)
        }
    };
    match best {
        Some((repairs, acc)) => {
            if let Some(log) = log {
                *log = kept_log(ctx, &acc);
            }
            Processed { index, steer, repairs, attempts: made, outcome: Ok(acc), times }
        }
        None => Processed { index, steer, repairs: 0, attempts: made, outcome: Err(last_err), times },
    }
}

/// A count run's candidate under a plan (`[target.size.N] mix`): variant after variant, each
/// made at a steering level drawn from `plan.weight` and kept when a draw below
/// `plan.keep[grade]` says so (both draws from the variant's own seed, made before it), so the
/// run's grades follow `shares` with the fewest variants the levels allow, every grade a
/// variant has counted (a variant aimed at a grade that misses it is lost). A variant sure to
/// grade above every grade its draw keeps is rated no further. The last attempt is kept,
/// whatever its grade, rated to the end.
fn process_planned<K: Kind>(
    ctx: &Context<K>,
    plan: &plan::Plan,
    index: u64,
    log: Option<&mut Vec<LogEntry>>,
) -> Processed<K> {
    let mut times = StageTimes::default();
    // At least one: `process_steered` handles targeting off (0 attempts) before any plan.
    let attempts = ctx.target.attempts;
    let mut outcome = Err(Reject::NoSolution);
    let mut kept_repairs = 0;
    let mut made = 0;
    for attempt in 0..attempts {
        made += 1;
        let (u_level, u_keep) = seed::plan_draws(ctx.master, K::NAME, &ctx.params_key, index, attempt);
        // The plan has a weight per steering level of the run (`with_target`).
        let level = plan.level(u_level);
        let keep = plan.kept(u_keep);
        let last = attempt + 1 == attempts;
        let aim = if last { None } else { plan::Plan::highest(&keep) };
        let mut t = StageTimes::default();
        let mut repairs = 0;
        let params = &ctx.steered[level as usize];
        let out = run_stages(ctx, index, Variant { attempt, aim }, params, None, &mut t, &mut repairs);
        times += t;
        match out {
            Some(Ok(acc)) if last || keep[acc.grade.index()] => {
                outcome = Ok(acc);
                kept_repairs = repairs;
                break;
            }
            Some(Err(r)) if last => outcome = Err(r),
            _ => {}
        }
    }
    if let (Some(log), Ok(acc)) = (log, &outcome) {
        *log = kept_log(ctx, acc);
    }
    Processed { index, steer: 0, repairs: kept_repairs, attempts: made, outcome, times }
}

/// The rater's log of the variant a targeted candidate kept (`replay`): the variants were rated
/// without one, so it is rated again.
fn kept_log<K: Kind>(ctx: &Context<K>, acc: &Accepted<K>) -> Vec<LogEntry> {
    let mut trace = Trace { log: Some(Vec::new()), ..ctx.trace.clone().unwrap_or_default() };
    K::rate(&acc.puzzle, &acc.solution, Some(&mut trace));
    trace.log.unwrap_or_default()
}

/// Whether the puzzle needs each required technique: with trial (and what the run switches
/// off) switched off it solves, and with the technique switched off too it does not.
fn needs_each<K: Kind>(ctx: &Context<K>, puzzle: &K::Puzzle, solution: &K::Solution) -> bool {
    let required = ctx.constraint.require;
    if required == 0 {
        return true;
    }
    let base = ctx.constraint.need_off;
    let solves = |off: u64| K::rate(puzzle, solution, Some(&mut Trace { off, ..Trace::default() })).solved;
    solves(base) && (0..64).filter(|i| required >> i & 1 == 1).all(|i| !solves(base | 1 << i))
}

fn distance(a: Grade, b: Grade) -> usize {
    a.index().abs_diff(b.index())
}

/// Which variant of a candidate `run_stages` makes (each attempt has its own random stream),
/// and the grade it is aimed at when a rating sure to grade above it may stop early (`None`:
/// rate to the end, and `run_stages` always answers).
struct Variant {
    attempt: u32,
    aim: Option<Grade>,
}

fn run_stages<K: Kind>(
    ctx: &Context<K>,
    index: u64,
    Variant { attempt, aim }: Variant,
    params: &K::Params,
    log: Option<&mut Vec<LogEntry>>,
    times: &mut StageTimes,
    repairs: &mut u32,
) -> Option<Result<Accepted<K>, Reject>> {
    let mut rng = seed::attempt_rng(ctx.master, K::NAME, &ctx.params_key, index, attempt);
    let t = Instant::now();
    let stages = &ctx.constraint.steer_off;
    let steered = (!stages.is_empty())
        .then(|| {
            // A ladder that keeps every level-1 technique applies them first until none is
            // left, and they never block each other: it finishes the puzzle exactly when it
            // finishes their fixpoint, which the kind may compute faster.
            let level1 = pf_core::rate::level_mask::<K::Tech>(|l| l == 1);
            let solvable = |p: &K::Puzzle, s: &K::Solution, stage: usize| {
                let mut trace = Trace { off: stages[stage], ..Trace::default() };
                match (stages[stage] & level1 == 0).then(|| K::singles_fill(p)).flatten() {
                    Some((true, _)) => true,
                    Some((false, filled)) => K::rate(&filled, s, Some(&mut trace)).solved,
                    None => K::rate(p, s, Some(&mut trace)).solved,
                }
            };
            K::generate_within(params, &mut rng, stages.len(), &solvable)
        })
        .flatten();
    let generated = steered.unwrap_or_else(|| K::generate(params, &mut rng));
    times.generate = t.elapsed();
    let generated = match generated {
        Ok(g) => g,
        Err(r) => return Some(Err(r)),
    };
    *repairs = generated.repairs;
    let puzzle = generated.puzzle;

    // The generator's own complete search already proved it (KenKen, Kakuro, Sudoku): not again.
    let solution = if generated.proven_unique {
        generated.solution
    } else {
        let t = Instant::now();
        let solved = K::solve(&puzzle, 2);
        times.unique = t.elapsed();
        if solved.undecided {
            return Some(Err(Reject::Undecided));
        }
        match (solved.count, solved.first) {
            (1, Some(s)) => s,
            (0, _) | (_, None) => return Some(Err(Reject::NoSolution)),
            _ => return Some(Err(Reject::NotUnique)),
        }
    };

    let t = Instant::now();
    // Aimed at a grade: stop rating once the grade is sure to be above it (`Kind::difficulty`
    // is the step count times a factor of the puzzle's; the bound a hair above, so that no
    // rounding gives up on a puzzle of the aimed grade).
    let give_up = aim.and_then(|g| ctx.thresholds.above(g)).and_then(|(k, level)| {
        let per_step = K::difficulty(&puzzle, 1.0);
        let steps = k / per_step;
        (per_step > 0.0 && steps.is_finite()).then(|| GiveUp { steps: steps + steps.abs() * 1e-9, level })
    });
    let mut trace = match (&ctx.trace, &log, give_up) {
        (None, None, None) => None,
        (t, _, _) => Some(Trace { log: log.as_ref().map(|_| Vec::new()), give_up, ..t.clone().unwrap_or_default() }),
    };
    let rated = K::rate(&puzzle, &solution, trace.as_mut());
    times.rate = t.elapsed();
    if trace.as_ref().is_some_and(|t| t.gave_up) {
        return None;
    }
    let (path, shortcut) = match trace {
        Some(t) => {
            if let Some(log) = log {
                *log = t.log.unwrap_or_default();
            }
            (t.path, t.shortcut)
        }
        None => (None, None),
    };
    if !rated.solved {
        // With techniques switched off, a puzzle that needs one of them.
        let constrained = ctx.trace.as_ref().is_some_and(|t| t.off != 0);
        return Some(Err(if constrained { Reject::Constraint } else { Reject::RatingIncomplete }));
    }
    let grade = ctx.thresholds.grade(K::difficulty(&puzzle, rated.rating.steps), rated.rating.hardest_level);
    if !ctx.constraint.holds(&rated.rating, grade, shortcut) || !needs_each(ctx, &puzzle, &solution) {
        return Some(Err(Reject::Constraint));
    }
    let canonical = K::canonical(&puzzle, &solution);
    Some(Ok(Accepted { puzzle, solution, rating: rated.rating, grade, canonical, path, shortcut }))
}
