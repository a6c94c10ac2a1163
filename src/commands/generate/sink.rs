//! The sequential end of a run: takes each processed candidate in index order, drops
//! duplicates, fills the books up to their quotas, keeps the statistics, saves the run state at
//! chunk boundaries, decides the steering level of the chunks to come, and stops the run when
//! the quotas are met, the time is up or a signal came.

use super::state::{Progress, SavedRun};
use crate::book::dedup::Dedup;
use crate::book::outdir::OutDir;
use crate::book::{BookWriter, Record, Stats};
use crate::grade::Grade;
use crate::kinds::{Kind, Reject};
use crate::pipeline::batch::{Abandon, Boundary, Flow, Sink};
use crate::pipeline::order::Quota;
use crate::pipeline::plan::cover;
use crate::pipeline::Processed;
use anyhow::Result;
use indicatif::ProgressBar;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Candidates each steering level is tried for before the run judges it. Few, so that a board
/// whose candidates take a second each (25×25) reaches the levels that make its rare grades
/// within minutes: with 512, an order of 3 easy 25×25 spent 600 s at the configured settings
/// alone. The run keeps judging the level it chose by everything that level made, so a level
/// it misjudged on 64 candidates costs only those. (512 before; one thread, seed 1: 16×16
/// easy=3 62 s → 14 s, Futoshiki 9×9 hard=20 60.6 s → 2.8 s.)
pub const EXPLORE: u64 = 64;

/// Candidates of the grade it is aimed at that a level aimed at a grade (`[target] levels`) is
/// credited with before it has made any (`aimed_level`).
pub const PRIOR: f64 = 4.0;

/// Candidates a level is credited with before it has made any, in the shares its size's
/// `[target.size.N] mix` gives it (when the size has one, in place of `PRIOR`).
pub const MIX_PRIOR: f64 = 64.0;

/// Why the run stopped before its range ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    QuotasMet,
    TimeLimit,
    Interrupted,
}

/// A processed candidate with its record when accepted.
pub type Item<K> = (Processed<K>, Option<(Grade, Record)>);

pub struct RunSink<'a, K: Kind> {
    pub dir: &'a OutDir,
    pub saved: SavedRun,
    pub book: BookWriter,
    pub dedup: Dedup,
    pub stats: Stats,
    pub quota: Option<Quota>,
    pub steering: bool,
    pub progress: Progress,
    pub bar: ProgressBar,
    pub deadline: Option<Instant>,
    pub signal: Arc<AtomicBool>,
    pub stop: Option<Stop>,
    /// When this session started and what earlier sessions took.
    pub started: Instant,
    pub earlier: Duration,
    pub write_time: Duration,
    pub last_save: Instant,
    /// `[run] save_every`.
    pub save_every: Duration,
    pub saver: super::saver::Saver,
    /// The run's chunk size (`quota_chunk`), for the cost of exploring a steering level.
    pub chunk: u64,
    /// The steering levels that apply to the run (`Kind::steer_levels`).
    pub steer_levels: u8,
    /// `[target] levels`: the steering level aimed at each grade; all 0 when the kind has none.
    pub aimed: [u8; 4],
    /// `[target.size.N] mix` of the run's size (empty when none): each level's expected share
    /// of each grade, the planned steering's prior (`MIX_PRIOR`).
    pub mix: Vec<[f64; 4]>,
    pub _kind: std::marker::PhantomData<K>,
}

impl<K: Kind> RunSink<'_, K> {
    fn quotas_met(&self) -> bool {
        self.quota.is_some_and(|q| (0..4).all(|g| self.progress.emitted[g] >= q.0[g]))
    }

    /// The steering level for the chunks to come, from the counts so far (so a pure function of
    /// the run's definition): the level expected to fill the open quotas in the fewest
    /// candidates, judged by what each level has made per candidate tried. Each level is first
    /// tried for `EXPLORE` candidates, unless the configured settings (level 0, tried first)
    /// are expected to finish before that exploration would (small orders of common grades); a
    /// level that made nothing of a grade still needed is not expected to finish.
    fn steer_level(&self, at: Boundary) -> u8 {
        let (Some(q), true) = (self.quota, self.steering) else { return 0 };
        if super::planned(&self.aimed) {
            return self.aimed_level(at, q);
        }
        let next = at.next;
        let levels = self.steer_levels as usize + 1;
        let tried = |l: usize| self.progress.steering_levels.get(l).copied().unwrap_or(0);
        let made = |l: usize| self.progress.made.get(l).copied().unwrap_or_default();
        let open: Vec<usize> = (0..4).filter(|&g| self.progress.emitted[g] < q.0[g]).collect();
        let left = |g: usize| (q.0[g] - self.progress.emitted[g]) as f64;
        let cost = |l: usize| -> f64 {
            let made = made(l);
            open.iter()
                // One more than made: a level that made none yet is judged by its tries (it is
                // picked again while others look no better), not written off.
                .map(|&g| left(g) * tried(l) as f64 / (made[g] + 1) as f64)
                .fold(0.0, f64::max)
        };
        // While other levels are untried, the configured settings (tried first) keep the run
        // when they are expected to fill it in fewer candidates than trying those would take:
        // `EXPLORE` each, and as a level is chosen two chunks ahead and judged at a chunk's
        // end, about two chunks more (measured with chunks of 512 to 2,048: 3,072 candidates
        // spent at a level being explored, jigsaw 9 and X 9×9 orders).
        let untried = (1..levels).filter(|&l| tried(l) < EXPLORE).count() as u64;
        let chunk_here = crate::pipeline::batch::next_boundary(next, self.chunk.max(1)) - next;
        let explore = EXPLORE + 2 * chunk_here;
        // Only settings that made some of every grade still needed are expected to finish:
        // judged by its tries alone, a level that made none (a 25×25 easy order at the
        // configured settings) kept the run for 320 candidates of a second each.
        let made_each_open = open.iter().all(|&g| made(0)[g] > 0);
        if tried(0) >= EXPLORE && untried > 0 && made_each_open && cost(0) <= (untried * explore) as f64 {
            return 0;
        }
        if let Some(l) = (0..levels).find(|&l| tried(l) < EXPLORE) {
            return l as u8;
        }
        let mut best = 0;
        for l in 1..levels {
            if cost(l) < cost(best) {
                best = l;
            }
        }
        best as u8
    }

    /// Levels aimed at the grades (KenKen, `[target] levels`): the level with the most
    /// candidates in the plan that fills what the order still needs in the fewest candidates
    /// (`cover`), given each level's share of each grade. A level's shares are what it made so
    /// far, with `PRIOR` candidates of the grade it is aimed at counted beforehand: an untried
    /// level is tried when the plan wants its grade, and is then judged by what it makes, every
    /// grade counted (hardened levels make medium and hard on the way to expert). What the order
    /// still needs is counted after the chunk in flight (chosen two chunks ahead) makes its
    /// expected share. A grade no level makes (3×3 expert) fades from the plan as its aimed
    /// level's tries grow, and is tried again when it is the last open grade.
    fn aimed_level(&self, at: Boundary, q: Quota) -> u8 {
        let levels = self.steer_levels as usize + 1;
        let tried = |l: usize| self.progress.steering_levels.get(l).copied().unwrap_or(0) as f64;
        let made = |l: usize| self.progress.made.get(l).copied().unwrap_or_default();
        let aimed = |g: usize| (self.aimed[g] as usize).min(levels - 1);
        let measured = self.mix.len() >= levels;
        let share: Vec<[f64; 4]> = (0..levels)
            .map(|l| {
                let prior = |g: usize| match measured {
                    true => MIX_PRIOR * self.mix[l][g],
                    false if aimed(g) == l => PRIOR,
                    false => 0.0,
                };
                let total = tried(l) + (0..4).map(prior).sum::<f64>();
                std::array::from_fn(|g| if total > 0.0 { (made(l)[g] as f64 + prior(g)) / total } else { 0.0 })
            })
            .collect();
        let chunk = self.chunk.max(1);
        let in_flight = (crate::pipeline::batch::next_boundary(at.next, chunk) - at.next) as f64;
        let flying = (at.steer as usize).min(levels - 1);
        let left: [f64; 4] = std::array::from_fn(|g| {
            let left = q.0[g].saturating_sub(self.progress.emitted[g]) as f64;
            if left > 0.0 {
                (left - in_flight * share[flying][g]).max(0.0)
            } else {
                0.0
            }
        });
        let most_left = || {
            (0..4)
                .filter(|&g| self.progress.emitted[g] < q.0[g])
                .max_by_key(|&g| (q.0[g] - self.progress.emitted[g], std::cmp::Reverse(g)))
                .map_or(0, |g| aimed(g) as u8)
        };
        // Grades some level makes (a share of at least one in a thousand).
        let reachable: [f64; 4] =
            std::array::from_fn(|g| if share.iter().any(|s| s[g] >= 1e-3) { left[g] } else { 0.0 });
        if reachable.iter().all(|&x| x == 0.0) {
            // The chunk in flight is expected to fill the order, or no level makes what is left:
            // the level aimed at the grade with the most left.
            return most_left();
        }
        match cover(&share, &reachable) {
            Some(plan) => {
                let mut best = 0;
                for l in 1..levels {
                    if plan[l] > plan[best] + 1e-9 {
                        best = l;
                    }
                }
                best as u8
            }
            None => most_left(),
        }
    }

    fn emit(&mut self, p: &Processed<K>, grade: Grade, rec: &Record) -> Result<()> {
        let g = grade.index();
        let key = p.outcome.as_ref().map(|a| a.canonical).unwrap_or_default();
        if self.dedup.contains(key)? {
            self.stats.add_as(p, Some(Reject::Duplicate))?;
            return Ok(());
        }
        self.stats.add(p)?;
        let level = p.steer as usize;
        if self.progress.made.len() <= level {
            self.progress.made.resize(level + 1, [0; 4]);
        }
        self.progress.made[level][g] += 1;
        let t = Instant::now();
        if self.quota.is_some_and(|q| self.progress.emitted[g] >= q.0[g]) {
            self.progress.surplus[g] += 1;
            self.book.write_overflow(rec)?;
        } else {
            self.book.write(grade, rec)?;
            self.dedup.insert(key)?;
            self.progress.emitted[g] += 1;
            if self.quota.is_some() {
                self.bar.inc(1);
            }
        }
        self.write_time += t.elapsed();
        Ok(())
    }

    /// Save the progress at boundary `at`: the files flushed here, then fsynced and `.run.json`
    /// replaced by the saver thread (`wait`: before returning). Skipped, unless `wait`, while
    /// the previous save is under way.
    pub fn save(&mut self, at: Boundary, wait: bool) -> Result<()> {
        if self.saver.busy()? && !wait {
            return Ok(());
        }
        self.progress.next = at.next;
        self.progress.steer = at.steer;
        let (files, mut handles) = self.book.flush_for_save()?;
        self.progress.files = files;
        handles.push(self.dedup.flush_for_save()?);
        self.progress.keys = self.progress.emitted.iter().sum();
        let (steps, step_handles) = self.stats.save_steps(self.dir.staging())?;
        self.progress.steps = steps;
        handles.extend(step_handles);
        self.progress.stats = serde_json::to_value(&self.stats)?;
        self.progress.seconds = (self.earlier + self.started.elapsed()).as_secs_f64();
        self.progress.write_seconds = self.write_time.as_secs_f64();
        self.saved.progress = Some(self.progress.clone());
        self.saver.submit(handles, serde_json::to_vec_pretty(&self.saved)?, self.dir.staging().to_path_buf())?;
        if wait {
            self.saver.wait()?;
        }
        self.last_save = Instant::now();
        Ok(())
    }

    fn show(&self) {
        if let Some(q) = self.quota {
            let parts: Vec<String> = Grade::ALL
                .iter()
                .filter(|g| q.0[g.index()] > 0)
                .map(|g| format!("{} {}/{}", g.name(), self.progress.emitted[g.index()], q.0[g.index()]))
                .collect();
            self.bar.set_message(parts.join("  "));
        }
    }
}

impl<K: Kind> Sink<Item<K>> for RunSink<'_, K> {
    type Error = anyhow::Error;

    fn take(&mut self, (p, record): Item<K>) -> Result<()> {
        if self.stop.is_some() {
            return Ok(());
        }
        let level = p.steer as usize;
        if self.progress.steering_levels.len() <= level {
            self.progress.steering_levels.resize(level + 1, 0);
        }
        self.progress.steering_levels[level] += 1;
        match &record {
            Some((grade, rec)) => self.emit(&p, *grade, rec)?,
            None => self.stats.add(&p)?,
        }
        if self.quota.is_none() {
            self.bar.inc(1);
        }
        if self.quotas_met() {
            self.stop = Some(Stop::QuotasMet);
        }
        Ok(())
    }

    fn done(&self) -> bool {
        self.stop.is_some()
    }

    fn abandon(&self) -> Abandon {
        Abandon { flag: Some(self.signal.clone()), deadline: self.deadline }
    }

    fn boundary(&mut self, at: Boundary) -> Result<Flow> {
        // Compressed files end a frame at every chunk boundary, saved here or not: where the
        // frames end must not depend on when saves happen (`book::writer`).
        self.book.end_frames()?;
        self.show();
        if self.stop.is_some() {
            return Ok(Flow::Stop);
        }
        if self.signal.load(Ordering::SeqCst) {
            self.save(at, true)?;
            self.stop = Some(Stop::Interrupted);
            return Ok(Flow::Stop);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop = Some(Stop::TimeLimit);
            return Ok(Flow::Stop);
        }
        if self.last_save.elapsed() >= self.save_every {
            self.save(at, false)?;
        }
        Ok(Flow::Continue { steer_after: self.steer_level(at) })
    }
}
