//! Run statistics for `calibration.json`, exact at any scale.
//!
//! Every accepted puzzle's step count is kept as the integer number of centi-steps that
//! `puzzles.csv` prints (`record::round_steps`: steps rounded to two decimals), and every figure
//! is computed from those integers after the run, so each one equals a recomputation from the
//! `steps` column:
//! - `min`, `max`: the smallest and largest printed step count;
//! - `median`, `p90`: nearest rank. With the n values sorted ascending, the q-quantile is the
//!   value at 1-based rank ceil(q·n) clamped to 1..n, for q = 1/2 and 9/10, in integers;
//! - `mean`: the exact sum of the printed values over n, rounded to two decimals, half up;
//! - `histogram`: at most [`HISTOGRAM_BINS`] bins with explicit `edges`, log-spaced in
//!   log(steps + 1) between min and max (the report plots steps on a log axis) and rounded to
//!   0.01 steps; bin i holds edges\[i\] ≤ steps < edges\[i+1\], edges\[0\] = min and the last edge
//!   is max + 0.01, so each puzzle falls in exactly one bin, also when min == max or steps are 0.
//!
//! The same sentences go into the file (`calibration::QUANTILE_DEFINITION` and its siblings).
//!
//! Memory: 4 bytes per accepted puzzle (a `u32` of centi-steps, up to 42,949,672.95 steps; a rare
//! larger count takes 8 bytes in a side list, values sort as the `u32` list followed by it), so
//! 4 MB per million puzzles. A grade's values are kept once: the figures for all puzzles merge
//! the four sorted grade lists instead of holding a second copy. Step counts are clamped to 2^53
//! centi-steps (9·10^13 steps), where a centi-step integer is still exact as an `f64`.

use super::calibration::{
    Calibration, Candidates, GradeStats, Grades, Named, StepHistogram, StepSummary, TechniqueInfo, TechniqueUse,
    ThresholdFigures, TimeSeconds, HISTOGRAM_DEFINITION, MEAN_DEFINITION, QUANTILE_DEFINITION,
};
use crate::grade::{Grade, Thresholds};
use crate::kinds::{Kind, Reject};
use crate::pipeline::{Processed, StageTimes};
use crate::rate::Technique;
use anyhow::{Context as _, Result};
use serde::{Deserialize, Serialize};
use std::fs::OpenOptions;
use std::io::{BufWriter, Read as _, Write as _};
use std::iter::Peekable;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The most histogram bins; fewer when edges rounded to 0.01 steps coincide (narrow ranges).
pub const HISTOGRAM_BINS: usize = 40;
/// The largest centi-step count kept exactly (2^53).
const MAX_CENTI: u64 = 1 << 53;

/// Steps as the integer centi-steps that the books print: `round_steps(steps) * 100`, exactly.
/// Negative or NaN counts (which the rater never makes) count as 0.
pub fn centi(steps: f64) -> u64 {
    ((steps * 100.0).round().max(0.0) as u64).min(MAX_CENTI)
}

/// Centi-steps back to steps, as written into the file (exact: `centi` < 2^53).
fn steps_of(centi: u64) -> f64 {
    centi as f64 / 100.0
}

/// Step counts in centi-steps, in the order added until `sort`.
#[derive(Clone, Debug, Default)]
pub struct StepValues {
    /// Values below 2^32 centi-steps.
    narrow: Vec<u32>,
    /// The rest: all larger than any value in `narrow`.
    wide: Vec<u64>,
}

impl StepValues {
    pub fn push(&mut self, steps: f64) {
        let c = centi(steps);
        match u32::try_from(c) {
            Ok(small) => self.narrow.push(small),
            Err(_) => self.wide.push(c),
        }
    }

    pub fn len(&self) -> usize {
        self.narrow.len() + self.wide.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn sort(&mut self) {
        self.narrow.sort_unstable();
        self.wide.sort_unstable();
    }

    /// The values in ascending order; call `sort` first.
    fn ascending(&self) -> impl Iterator<Item = u64> + '_ {
        self.narrow.iter().map(|&c| u64::from(c)).chain(self.wide.iter().copied())
    }

    fn first(&self) -> Option<u64> {
        self.narrow.first().map(|&c| u64::from(c)).or(self.wide.first().copied())
    }

    fn last(&self) -> Option<u64> {
        self.wide.last().copied().or(self.narrow.last().map(|&c| u64::from(c)))
    }
}

/// Ascending merge of ascending sequences (a handful: one per grade, so a linear scan of the
/// heads is cheaper than a heap).
struct Merge<I: Iterator<Item = u64>> {
    heads: Vec<Peekable<I>>,
}

impl<I: Iterator<Item = u64>> Iterator for Merge<I> {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        let mut best: Option<(usize, u64)> = None;
        for (i, h) in self.heads.iter_mut().enumerate() {
            if let Some(&v) = h.peek() {
                if best.is_none_or(|(_, b)| v < b) {
                    best = Some((i, v));
                }
            }
        }
        let (i, _) = best?;
        self.heads[i].next()
    }
}

/// 1-based nearest rank of the num/den-quantile of n values: ceil(num·n/den) clamped to 1..n.
pub fn nearest_rank(n: u64, num: u64, den: u64) -> u64 {
    ((u128::from(n) * u128::from(num)).div_ceil(u128::from(den)) as u64).clamp(1, n)
}

/// Bin edges in centi-steps for values from `lo` to `hi`: strictly increasing, first `lo`, last
/// `hi + 1`, at most `HISTOGRAM_BINS + 1` of them, the inner ones log-spaced in log(steps + 1).
pub fn log_edges(lo: u64, hi: u64) -> Vec<u64> {
    let end = hi.max(lo) + 1;
    let (a, b) = (((lo + 100) as f64).ln(), ((end + 100) as f64).ln());
    let mut edges = vec![lo];
    for i in 1..HISTOGRAM_BINS {
        let e = ((a + (b - a) * i as f64 / HISTOGRAM_BINS as f64).exp().round() as u64).saturating_sub(100);
        if e > edges[edges.len() - 1] && e < end {
            edges.push(e);
        }
    }
    edges.push(end);
    edges
}

/// The exact figures of some sorted step lists taken together, in centi-steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    pub count: u64,
    pub min: u64,
    pub median: u64,
    pub mean: u64,
    pub p90: u64,
    pub max: u64,
    pub edges: Vec<u64>,
    pub counts: Vec<u64>,
}

impl Exact {
    /// One pass over the merged ascending values. `None` when there are none.
    pub fn of(parts: &[&StepValues]) -> Option<Exact> {
        let count = parts.iter().map(|p| p.len() as u64).sum::<u64>();
        let min = parts.iter().filter_map(|p| p.first()).min()?;
        let max = parts.iter().filter_map(|p| p.last()).max()?;
        let (r50, r90) = (nearest_rank(count, 1, 2), nearest_rank(count, 9, 10));
        let edges = log_edges(min, max);
        let mut counts = vec![0u64; edges.len() - 1];
        let (mut median, mut p90, mut sum, mut bin) = (0, 0, 0u128, 0);
        let merged = Merge { heads: parts.iter().map(|p| p.ascending().peekable()).collect() };
        for (i, v) in (1u64..).zip(merged) {
            if i == r50 {
                median = v;
            }
            if i == r90 {
                p90 = v;
            }
            sum += u128::from(v);
            while v >= edges[bin + 1] {
                bin += 1;
            }
            counts[bin] += 1;
        }
        // Half up: floor((2·sum + n) / 2n).
        let mean = ((2 * sum + u128::from(count)) / (2 * u128::from(count))) as u64;
        Some(Exact { count, min, median, mean, p90, max, edges, counts })
    }

    pub fn summary(&self) -> StepSummary {
        StepSummary {
            min: steps_of(self.min),
            median: steps_of(self.median),
            mean: steps_of(self.mean),
            p90: steps_of(self.p90),
            max: steps_of(self.max),
        }
    }

    pub fn histogram(&self) -> StepHistogram {
        StepHistogram { edges: self.edges.iter().map(|&e| steps_of(e)).collect(), counts: self.counts.clone() }
    }
}

/// What is counted per puzzle besides its steps: hardest levels and technique usage.
#[derive(Clone, Serialize, Deserialize)]
struct Counters {
    count: u64,
    hardest_level: Vec<u64>,
    /// Per technique: puzzles that used it, and successes applied in total.
    puzzles_using: Vec<u64>,
    applied: Vec<u64>,
}

impl Counters {
    fn new(techniques: usize, levels: usize) -> Self {
        Counters {
            count: 0,
            hardest_level: vec![0; levels + 1],
            puzzles_using: vec![0; techniques],
            applied: vec![0; techniques],
        }
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
        }
    }
}

///
/// A run saves it at chunk boundaries (`run.json`, resume): the counters as JSON and the step
/// values appended to one scratch file per grade (`save_steps`, `load_steps`).
#[derive(Serialize, Deserialize)]
pub struct Stats {
    tried: u64,
    repairs: u64,
    repaired: u64,
    rejected: [u64; Reject::ALL.len()],
    /// Per grade, in `Grade::ALL` order: step values and counters.
    #[serde(skip)]
    steps: [StepValues; 4],
    /// Per grade, the narrow and wide step values already in the grade's step file.
    #[serde(skip)]
    saved: [(usize, usize); 4],
    grades: [Counters; 4],
    all: Counters,
    times: StageTimes,
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
            rejected: [0; Reject::ALL.len()],
            steps: Default::default(),
            saved: Default::default(),
            grades: std::array::from_fn(|_| c.clone()),
            all: c,
            times: StageTimes::default(),
        }
    }

    pub fn add<K: Kind>(&mut self, p: &Processed<K>) {
        self.add_as(p, None);
    }

    /// `add`, but counting an accepted candidate as rejected for `reason` (a duplicate).
    pub fn add_as<K: Kind>(&mut self, p: &Processed<K>, reject: Option<Reject>) {
        self.tried += 1;
        self.repairs += p.repairs as u64;
        self.repaired += (p.repairs > 0) as u64;
        self.times.generate += p.times.generate;
        self.times.unique += p.times.unique;
        self.times.rate += p.times.rate;
        match (&p.outcome, reject) {
            (_, Some(reason)) => self.rejected[Reject::ALL.iter().position(|x| *x == reason).unwrap()] += 1,
            (Ok(acc), None) => {
                let r = &acc.rating;
                let g = acc.grade.index();
                self.steps[g].push(r.steps);
                self.grades[g].add(r.hardest_level, &r.usage);
                self.all.add(r.hardest_level, &r.usage);
            }
            (Err(reason), None) => self.rejected[Reject::ALL.iter().position(|x| x == reason).unwrap()] += 1,
        }
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
        for g in 0..4 {
            let path = Self::steps_path(dir, g);
            let ctx = || format!("writing {}", path.display());
            let file = OpenOptions::new().create(true).append(true).open(&path).with_context(ctx)?;
            let mut w = BufWriter::new(file);
            let (n, wd) = self.saved[g];
            let v = &self.steps[g];
            for c in v.narrow[n..].iter().map(|&c| u64::from(c)).chain(v.wide[wd..].iter().copied()) {
                w.write_all(&c.to_le_bytes()).with_context(ctx)?;
            }
            let file = w.into_inner().map_err(|e| e.into_error()).with_context(ctx)?;
            self.saved[g] = (v.narrow.len(), v.wide.len());
            lens[g] = file.metadata().with_context(ctx)?.len();
            handles.push(file);
        }
        Ok((lens, handles))
    }

    /// Read the step values saved in `dir`, each grade's file first cut to its saved length.
    pub fn load_steps(&mut self, dir: &Path, lens: [u64; 4]) -> Result<()> {
        for (g, &len) in lens.iter().enumerate() {
            let path = Self::steps_path(dir, g);
            let ctx = || format!("reading {}", path.display());
            let mut file = OpenOptions::new().read(true).write(true).open(&path).with_context(ctx)?;
            file.set_len(len).with_context(ctx)?;
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).with_context(ctx)?;
            let v = &mut self.steps[g];
            for c in bytes.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))) {
                match u32::try_from(c) {
                    Ok(small) => v.narrow.push(small),
                    Err(_) => v.wide.push(c),
                }
            }
            self.saved[g] = (v.narrow.len(), v.wide.len());
        }
        Ok(())
    }

    /// Remove the step files from `dir` (before the book is committed).
    pub fn remove_steps(dir: &Path) -> Result<()> {
        for g in 0..4 {
            let path = Self::steps_path(dir, g);
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(e).with_context(|| format!("removing {}", path.display()))
                }
                _ => {}
            }
        }
        Ok(())
    }

    pub fn accepted(&self) -> u64 {
        self.all.count
    }

    pub fn count(&self, g: Grade) -> u64 {
        self.grades[g.index()].count
    }

    /// The contents of calibration.json. `wall` and `write` are the run's elapsed and writing
    /// times. Sorts the kept step values (in place, so no copy is made); adding more afterwards
    /// is fine.
    pub fn to_json<K: Kind>(&mut self, thresholds: &Thresholds, wall: Duration, write: Duration) -> Calibration {
        for s in &mut self.steps {
            s.sort();
        }
        let [k1, k2, k3] = thresholds.k();
        let grades = std::array::from_fn(|g| self.grades[g].stats::<K::Tech>(Exact::of(&[&self.steps[g]])));
        let all = self.all.stats::<K::Tech>(Exact::of(&self.steps.each_ref()));
        Calibration {
            kind: K::ID.name().to_string(),
            thresholds: ThresholdFigures { k1, k2, k3, level_floor: thresholds.floor() },
            candidates: Candidates {
                tried: self.tried,
                accepted: self.accepted(),
                rejected: Reject::ALL.iter().zip(self.rejected).map(|(r, n)| (r.name().to_string(), n)).collect(),
                repaired: self.repaired,
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
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::record::round_steps;
    use proptest::prelude::*;

    /// The plain reference: the printed strings, parsed back to centi-steps, sorted, ranked.
    fn brute(values: &[f64]) -> (u64, u64, u64, u64, u64, u64) {
        let mut c: Vec<u64> =
            values.iter().map(|&v| format!("{:.2}", round_steps(v)).replace('.', "").parse().unwrap()).collect();
        c.sort();
        let n = c.len();
        let at = |num: usize, den: usize| c[(num * n).div_ceil(den).clamp(1, n) - 1];
        let (sum, n64) = (c.iter().sum::<u64>(), n as u64);
        // sum / n to the nearest centi-step, a remainder of exactly half rounding up.
        let mean = sum / n64 + u64::from(2 * (sum % n64) >= n64);
        (n64, c[0], at(1, 2), mean, at(9, 10), c[n - 1])
    }

    fn check(parts: &[Vec<f64>]) {
        let values: Vec<StepValues> = parts
            .iter()
            .map(|p| {
                let mut s = StepValues::default();
                p.iter().for_each(|&v| s.push(v));
                s.sort();
                s
            })
            .collect();
        let all: Vec<f64> = parts.concat();
        let e = Exact::of(&values.iter().collect::<Vec<_>>()).expect("values given");
        assert_eq!((e.count, e.min, e.median, e.mean, e.p90, e.max), brute(&all));
        assert_histogram_covers(&e, &all);
    }

    /// Counts sum to the count, edges increase, and each value sits in the bin whose edges hold it.
    fn assert_histogram_covers(e: &Exact, values: &[f64]) {
        assert!(e.edges.len() >= 2 && e.edges.len() <= HISTOGRAM_BINS + 1);
        assert_eq!(e.counts.len() + 1, e.edges.len());
        assert!(e.edges.windows(2).all(|w| w[0] < w[1]), "{:?}", e.edges);
        assert_eq!((e.edges[0], e.edges[e.edges.len() - 1]), (e.min, e.max + 1));
        assert_eq!(e.counts.iter().sum::<u64>(), e.count);
        let mut recount = vec![0u64; e.counts.len()];
        for &v in values {
            let c = centi(v);
            let bin = (0..e.counts.len()).find(|&i| e.edges[i] <= c && c < e.edges[i + 1]).expect("a bin holds it");
            recount[bin] += 1;
        }
        assert_eq!(recount, e.counts);
    }

    #[test]
    fn figures_of_one_to_a_hundred() {
        let parts = vec![(1..=100).map(f64::from).collect::<Vec<_>>()];
        check(&parts);
        let mut s = StepValues::default();
        parts[0].iter().for_each(|&v| s.push(v));
        s.sort();
        let e = Exact::of(&[&s]).unwrap();
        assert_eq!((e.min, e.median, e.mean, e.p90, e.max), (100, 5000, 5050, 9000, 10000));
    }

    #[test]
    fn large_small_and_equal_values() {
        check(&[vec![0.0]]);
        check(&[vec![1e7; 5]]);
        check(&[vec![19_999.5, 20_000.0, 20_000.004, 123_456.785, 1e7], vec![], vec![0.0, 0.005]]);
        // Above u32 centi-steps: the side list, still in order.
        check(&[vec![5e7, 4e7, 42_949_672.95, 42_949_672.96, 3.0], vec![6e7, 1.5]]);
        assert!(Exact::of(&[&StepValues::default()]).is_none());
    }

    #[test]
    fn kakuro_scale_histogram_is_40_log_bins() {
        let mut s = StepValues::default();
        let values: Vec<f64> = (0..2000).map(|i| 1e5 * 10f64.powf(i as f64 / 1999.0)).collect();
        values.iter().for_each(|&v| s.push(v));
        s.sort();
        let e = Exact::of(&[&s]).unwrap();
        assert_eq!(e.counts.len(), HISTOGRAM_BINS);
        assert_histogram_covers(&e, &values);
        // Log spacing: about 50 values per bin throughout.
        assert!(e.counts.iter().all(|&c| (40..=60).contains(&c)), "{:?}", e.counts);
    }

    #[test]
    fn nearest_rank_is_ceil_clamped() {
        assert_eq!(nearest_rank(1, 1, 2), 1);
        assert_eq!(nearest_rank(2, 1, 2), 1);
        assert_eq!(nearest_rank(3, 1, 2), 2);
        assert_eq!(nearest_rank(10, 9, 10), 9);
        assert_eq!(nearest_rank(11, 9, 10), 10);
        assert_eq!(nearest_rank(5, 0, 10), 1);
    }

    /// Step values as the rater makes them: any two-decimal or finer value, many repeats.
    fn step_value() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(0.0),
            Just(1e7),
            (0u32..20).prop_map(f64::from),
            (0u64..1_000_000_000).prop_map(|c| c as f64 / 100.0),
            0.0..1e7f64,
        ]
    }

    proptest! {
        #[test]
        fn every_figure_equals_brute_force(parts in prop::collection::vec(
            prop::collection::vec(step_value(), 0..1500), 1..5)) {
            prop_assume!(parts.iter().any(|p| !p.is_empty()));
            check(&parts);
        }
    }
}
