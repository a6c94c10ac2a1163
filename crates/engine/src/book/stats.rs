//! Run statistics for `calibration.json`: candidates tried and rejected, per grade the counts,
//! hardest levels and technique usage, and the step counts whose exact figures `exact` computes.
//!
//! Memory stays flat: a run keeps no per-puzzle values. Each grade's step counts are appended
//! to a scratch file in the staging folder (`.steps-<grade>`, 8 bytes per puzzle, the same file
//! the saved run state points into), [`SPILL`] at a time, and read again after the run.

use super::calibration::{
    Calibration, Candidates, GradeStats, Grades, Named, PathFigures, TechniqueInfo, TechniqueUse, ThresholdFigures,
    TimeSeconds, HISTOGRAM_DEFINITION, MEAN_DEFINITION, QUANTILE_DEFINITION,
};
use super::exact::{centi, Exact, StepFiles};
use crate::pipeline::{Processed, StageTimes};
use anyhow::{Context as _, Result};
use pf_core::grade::{Grade, Thresholds};
use pf_core::kind::{Kind, Reject};
use pf_core::rate::Technique;
use serde::{Deserialize, Serialize};
use std::fs::OpenOptions;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Step values a grade holds in memory before they go to its step file.
pub const SPILL: usize = 8192;

/// What is counted per puzzle besides its steps: hardest levels and technique usage.
#[derive(Clone, Serialize, Deserialize)]
struct Counters {
    count: u64,
    hardest_level: Vec<u64>,
    /// Per technique: puzzles that used it, and successes applied in total.
    puzzles_using: Vec<u64>,
    applied: Vec<u64>,
    /// Puzzles with a recorded path (`--paths`), those a lucky guess breaks (`shortcut`), and
    /// the sum of their bottlenecks.
    #[serde(default)]
    traced: u64,
    #[serde(default)]
    shortcut: u64,
    #[serde(default)]
    bottleneck_sum: f64,
}

impl Counters {
    fn new(techniques: usize, levels: usize) -> Self {
        Counters {
            count: 0,
            hardest_level: vec![0; levels + 1],
            puzzles_using: vec![0; techniques],
            applied: vec![0; techniques],
            traced: 0,
            shortcut: 0,
            bottleneck_sum: 0.0,
        }
    }

    /// A puzzle's `bottleneck` and `shortcut` (runs with `--paths`).
    fn add_path(&mut self, bottleneck: f64, shortcut: bool) {
        self.traced += 1;
        self.shortcut += u64::from(shortcut);
        self.bottleneck_sum += bottleneck;
    }

    fn add(&mut self, hardest_level: u8, usage: &[u32]) {
        self.count += 1;
        self.hardest_level[hardest_level as usize] += 1;
        for (i, &u) in usage.iter().enumerate() {
            self.applied[i] += u64::from(u);
            self.puzzles_using[i] += u64::from(u > 0);
        }
    }

    /// The figures of these puzzles, given the exact step figures of the same puzzles.
    fn stats<T: Technique>(&self, exact: Option<Exact>) -> GradeStats {
        GradeStats {
            count: self.count,
            steps: exact.as_ref().map(Exact::summary),
            histogram: exact.as_ref().map(Exact::histogram).unwrap_or_default(),
            hardest_level: (0u8..).zip(self.hardest_level.iter().copied()).collect(),
            techniques: T::ALL
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let u = TechniqueUse { puzzles: self.puzzles_using[i], applied: self.applied[i] };
                    (t.name().to_string(), u)
                })
                .collect(),
            paths: (self.traced > 0).then(|| {
                let t = self.traced as f64;
                PathFigures {
                    puzzles: self.traced,
                    shortcut: self.shortcut,
                    shortcut_share: (self.shortcut as f64 / t * 10000.0).round() / 10000.0,
                    bottleneck_mean: (self.bottleneck_sum / t * 10000.0).round() / 10000.0,
                }
            }),
        }
    }
}

/// What a run counts for `calibration.json`.
///
/// A run saves it at chunk boundaries (`.run.json`, resume): the counters as JSON and the step
/// values appended to one scratch file per grade (`save_steps`, `load_steps`). With a folder
/// (`in_dir`), step values go to those files as they come, [`SPILL`] at a time, so memory does
/// not grow with the run; without one they stay in memory.
#[derive(Serialize, Deserialize)]
pub struct Stats {
    tried: u64,
    repairs: u64,
    repaired: u64,
    /// Variants made (grade targeting): equals `tried` without it.
    #[serde(default)]
    variants: u64,
    rejected: [u64; Reject::ALL.len()],
    /// Per grade, in `Grade::ALL` order: step values (centi-steps) not yet in the grade's step
    /// file.
    #[serde(skip)]
    pending: [Vec<u64>; 4],
    /// The folder of the step files, if any.
    #[serde(skip)]
    dir: Option<PathBuf>,
    grades: [Counters; 4],
    all: Counters,
    times: StageTimes,
    /// The slowest candidate so far: (seconds, index).
    #[serde(default)]
    slowest: Option<(f64, u64)>,
}

fn secs(d: Duration) -> f64 {
    (d.as_secs_f64() * 1000.0).round() / 1000.0
}

impl Stats {
    pub fn new<K: Kind>() -> Self {
        let c = Counters::new(K::Tech::ALL.len(), K::Tech::max_level() as usize);
        Stats {
            tried: 0,
            repairs: 0,
            repaired: 0,
            variants: 0,
            rejected: [0; Reject::ALL.len()],
            pending: Default::default(),
            dir: None,
            grades: std::array::from_fn(|_| c.clone()),
            all: c,
            times: StageTimes::default(),
            slowest: None,
        }
    }

    /// Keep the step values in step files in `dir` (a new run's staging folder).
    pub fn in_dir(mut self, dir: &Path) -> Self {
        self.dir = Some(dir.to_path_buf());
        self
    }

    pub fn add<K: Kind>(&mut self, p: &Processed<K>) -> Result<()> {
        self.add_as(p, None)
    }

    /// `add`, but counting an accepted candidate as rejected for `reason` (a duplicate).
    pub fn add_as<K: Kind>(&mut self, p: &Processed<K>, reject: Option<Reject>) -> Result<()> {
        self.tried += 1;
        self.repairs += p.repairs as u64;
        self.repaired += (p.repairs > 0) as u64;
        self.variants += p.attempts as u64;
        self.times += p.times;
        let took = (p.times.generate + p.times.unique + p.times.rate).as_secs_f64();
        if self.slowest.is_none_or(|(s, _)| took > s) {
            self.slowest = Some((took, p.index));
        }
        match (&p.outcome, reject) {
            (_, Some(reason)) => self.reject(reason),
            (Ok(acc), None) => {
                let r = &acc.rating;
                self.add_record(acc.grade, centi(r.steps), r.hardest_level, &r.usage)?;
                if let Some(path) = &acc.path {
                    self.add_path(acc.grade, pf_core::rate::bottleneck(path), acc.shortcut.unwrap_or(false));
                }
            }
            (Err(reason), None) => self.reject(*reason),
        }
        Ok(())
    }

    /// A shard's candidate counts (`merge`): tried, rejected per reason, repairs, and its stage
    /// times, added to these. Its accepted puzzles come one by one through `add_record`.
    pub fn add_shard(&mut self, c: &Candidates, t: &TimeSeconds) {
        self.tried += c.tried;
        self.repairs += c.repairs;
        self.repaired += c.repaired;
        self.variants += c.variants.unwrap_or(c.tried);
        for (i, r) in Reject::ALL.iter().enumerate() {
            self.rejected[i] += c.rejected.get(r.name()).copied().unwrap_or(0);
        }
        self.times.generate += Duration::from_secs_f64(t.generate);
        self.times.unique += Duration::from_secs_f64(t.unique);
        self.times.rate += Duration::from_secs_f64(t.rate);
        if let Some(w) = t.slowest_candidate {
            if self.slowest.is_none_or(|(s, _)| w.seconds > s) {
                self.slowest = Some((w.seconds, w.index));
            }
        }
    }

    /// One accepted puzzle read back from a book (`merge`): its grade, steps in centi-steps,
    /// hardest level and technique usage.
    pub fn add_record(&mut self, g: Grade, centi_steps: u64, hardest_level: u8, usage: &[u32]) -> Result<()> {
        let g = g.index();
        self.pending[g].push(centi_steps);
        self.grades[g].add(hardest_level, usage);
        self.all.add(hardest_level, usage);
        if self.pending[g].len() >= SPILL {
            if let Some(dir) = self.dir.clone() {
                self.append(&dir, g)?;
            }
        }
        Ok(())
    }

    /// An accepted puzzle's `bottleneck` and `shortcut` (runs with `--paths`).
    pub fn add_path(&mut self, g: Grade, bottleneck: f64, shortcut: bool) {
        self.grades[g.index()].add_path(bottleneck, shortcut);
        self.all.add_path(bottleneck, shortcut);
    }

    /// A puzzle that a shard accepted but the merge drops as a duplicate (already counted as
    /// tried by `add_shard`).
    pub fn add_duplicate(&mut self) {
        self.reject(Reject::Duplicate);
    }

    fn reject(&mut self, reason: Reject) {
        self.rejected[Reject::ALL.iter().position(|r| *r == reason).expect("a reason")] += 1;
    }

    /// Append grade `g`'s pending values to its step file in `dir`; the file, open for fsync.
    fn append(&mut self, dir: &Path, g: usize) -> Result<std::fs::File> {
        let path = Self::steps_path(dir, g);
        let ctx = || format!("writing {}", path.display());
        let file = OpenOptions::new().create(true).append(true).open(&path).with_context(ctx)?;
        let mut w = BufWriter::new(file);
        for c in self.pending[g].drain(..) {
            w.write_all(&c.to_le_bytes()).with_context(ctx)?;
        }
        w.into_inner().map_err(|e| e.into_error()).with_context(ctx)
    }

    /// The step file of grade `g` in `dir`.
    fn steps_path(dir: &Path, g: usize) -> PathBuf {
        dir.join(format!(".steps-{}", Grade::ALL[g].name()))
    }

    /// Append the step values added since the last save to the grade step files in `dir`
    /// (8 bytes each, little-endian centi-steps); returns the files' lengths and handles to
    /// fsync them with.
    pub fn save_steps(&mut self, dir: &Path) -> Result<([u64; 4], Vec<std::fs::File>)> {
        let mut lens = [0; 4];
        let mut handles = Vec::new();
        for (g, len) in lens.iter_mut().enumerate() {
            let file = self.append(dir, g)?;
            *len = file.metadata().with_context(|| format!("reading {}", Self::steps_path(dir, g).display()))?.len();
            handles.push(file);
        }
        Ok((lens, handles))
    }

    /// Take up the step files saved in `dir`, each first cut to its saved length.
    pub fn load_steps(&mut self, dir: &Path, lens: [u64; 4]) -> Result<()> {
        for (g, &len) in lens.iter().enumerate() {
            let path = Self::steps_path(dir, g);
            let ctx = || format!("reading {}", path.display());
            let file = OpenOptions::new().write(true).create(true).truncate(false).open(&path).with_context(ctx)?;
            file.set_len(len).with_context(ctx)?;
            self.pending[g].clear();
        }
        self.dir = Some(dir.to_path_buf());
        Ok(())
    }

    pub fn accepted(&self) -> u64 {
        self.all.count
    }

    pub fn count(&self, g: Grade) -> u64 {
        self.grades[g.index()].count
    }

    /// The step values of some grades, wherever they are.
    fn values(&self, grades: &[usize]) -> StepFiles<'_> {
        StepFiles {
            files: grades.iter().filter_map(|&g| self.dir.as_deref().map(|d| Self::steps_path(d, g))).collect(),
            memory: grades.iter().map(|&g| self.pending[g].as_slice()).collect(),
        }
    }

    /// The contents of calibration.json. `wall` and `write` are the run's elapsed and writing
    /// times. Reads the step files (if any) a few times.
    pub fn to_json<K: Kind>(&self, thresholds: &Thresholds, wall: Duration, write: Duration) -> Result<Calibration> {
        let [k1, k2, k3] = thresholds.k();
        let mut grades = Vec::with_capacity(4);
        for g in 0..4 {
            grades.push(self.grades[g].stats::<K::Tech>(Exact::of(&self.values(&[g]))?));
        }
        let grades: [GradeStats; 4] = grades.try_into().unwrap_or_else(|_| unreachable!("four grades"));
        let all = self.all.stats::<K::Tech>(Exact::of(&self.values(&[0, 1, 2, 3]))?);
        Ok(Calibration {
            kind: K::NAME.to_string(),
            thresholds: ThresholdFigures { k1, k2, k3, level_floor: thresholds.floor(), source: None },
            candidates: Candidates {
                tried: self.tried,
                accepted: self.accepted(),
                rejected: Reject::ALL.iter().zip(self.rejected).map(|(r, n)| (r.name().to_string(), n)).collect(),
                repaired: self.repaired,
                variants: Some(self.variants),
                repairs: self.repairs,
            },
            order: None,
            grades: Grades::from_array(grades),
            all,
            quantile_definition: QUANTILE_DEFINITION.to_string(),
            mean_definition: MEAN_DEFINITION.to_string(),
            histogram_definition: HISTOGRAM_DEFINITION.to_string(),
            techniques: K::Tech::ALL
                .iter()
                .map(|t| {
                    (t.name().to_string(), TechniqueInfo { level: t.level(), situation: t.situation().to_string() })
                })
                .collect::<Named<_>>(),
            time_seconds: TimeSeconds {
                note: "summed over worker threads for the stages; wall and write on the main thread".to_string(),
                generate: secs(self.times.generate),
                unique: secs(self.times.unique),
                rate: secs(self.times.rate),
                write: secs(write),
                wall: secs(wall),
                slowest_candidate: self
                    .slowest
                    .map(|(s, index)| crate::book::calibration::Slowest { index, seconds: (s * 1e6).round() / 1e6 }),
            },
        })
    }
}
