//! The step-count figures of `calibration.json`, exact at any scale.
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
//! Memory stays flat: the values are read (`Passes`: from memory, or from the step files that
//! `stats::Stats` appends each grade's step counts to) a fixed number of times: once for count,
//! min, max and sum; once to fill the histogram; then a radix selection finds both nearest-rank
//! values 16 bits at a time (at most four passes for any 64-bit value, two for counts under 2^32
//! centi-steps). No sorting, and memory is two arrays of 65,536 counters whatever the number of
//! puzzles. Step counts are clamped to 2^53 centi-steps (9·10^13 steps), where a centi-step
//! integer is still exact as an `f64`.

use super::calibration::{StepHistogram, StepSummary};
use anyhow::{Context as _, Result};
use std::io::Read as _;
use std::path::PathBuf;

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

/// Values read as often as the figures need: each call of `each` hands every value to `f` once.
pub trait Passes {
    fn each(&self, f: &mut dyn FnMut(u64)) -> Result<()>;
}

/// Values in memory (tests, small callers).
impl Passes for Vec<&[u64]> {
    fn each(&self, f: &mut dyn FnMut(u64)) -> Result<()> {
        self.iter().flat_map(|p| p.iter()).for_each(|&v| f(v));
        Ok(())
    }
}

/// Values in step files (8 bytes each, little-endian), followed by values still in memory.
pub struct StepFiles<'a> {
    pub files: Vec<PathBuf>,
    pub memory: Vec<&'a [u64]>,
}

impl Passes for StepFiles<'_> {
    fn each(&self, f: &mut dyn FnMut(u64)) -> Result<()> {
        let mut buf = vec![0u8; 1 << 16];
        for path in &self.files {
            let ctx = || format!("reading {}", path.display());
            let mut file = match std::fs::File::open(path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                r => r.with_context(ctx)?,
            };
            let mut have = 0;
            loop {
                let n = file.read(&mut buf[have..]).with_context(ctx)?;
                if n == 0 {
                    break;
                }
                have += n;
                let whole = have - have % 8;
                buf[..whole].chunks_exact(8).for_each(|b| f(u64::from_le_bytes(b.try_into().expect("8 bytes"))));
                buf.copy_within(whole..have, 0);
                have -= whole;
            }
        }
        self.memory.each(f)
    }
}

/// Up to this many values, `Exact::of` finds its ranks by sorting them in memory (512 KB at
/// most); beyond, by `select`'s passes.
const SORT_MAX: u64 = 1 << 16;

/// The 1-based `ranks` of values in `min..=max`, found 16 bits at a time from the top: each pass
/// counts, per rank, the values that share the bits found so far by their next 16 bits.
fn select(values: &dyn Passes, min: u64, max: u64, ranks: [u64; 2]) -> Result<[u64; 2]> {
    const DIGIT: u32 = 16;
    let bits = 64 - (max - min).leading_zeros();
    let passes = bits.div_ceil(DIGIT);
    let (mut prefix, mut rank) = ([0u64; 2], ranks);
    for pass in 0..passes {
        let shift = DIGIT * (passes - 1 - pass);
        let mut counts = [vec![0u64; 1 << DIGIT], vec![0u64; 1 << DIGIT]];
        values.each(&mut |v| {
            let d = v - min;
            let above = d.checked_shr(shift + DIGIT).unwrap_or(0);
            let digit = ((d >> shift) & 0xFFFF) as usize;
            for t in 0..2 {
                if above == prefix[t] {
                    counts[t][digit] += 1;
                }
            }
        })?;
        for t in 0..2 {
            let mut below = 0;
            let digit = counts[t]
                .iter()
                .position(|&c| {
                    below += c;
                    below >= rank[t]
                })
                .expect("the rank lies within the values");
            rank[t] -= below - counts[t][digit];
            prefix[t] = (prefix[t] << DIGIT) | digit as u64;
        }
    }
    Ok(prefix.map(|p| min + p))
}

/// 1-based nearest rank of the num/den-quantile of n values: ceil(num·n/den) clamped to 1..n.
pub(crate) fn nearest_rank(n: u64, num: u64, den: u64) -> u64 {
    ((u128::from(n) * u128::from(num)).div_ceil(u128::from(den)) as u64).clamp(1, n)
}

/// Bin edges in centi-steps for values from `lo` to `hi`: strictly increasing, first `lo`, last
/// `hi + 1`, at most `HISTOGRAM_BINS + 1` of them, the inner ones log-spaced in log(steps + 1).
pub(crate) fn log_edges(lo: u64, hi: u64) -> Vec<u64> {
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

/// The exact figures of some step counts, in centi-steps.
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
    /// The figures of `values`, in a few passes over them. `None` when there are none.
    pub fn of(values: &dyn Passes) -> Result<Option<Exact>> {
        let (mut count, mut min, mut max, mut sum) = (0u64, u64::MAX, 0u64, 0u128);
        values.each(&mut |v| {
            count += 1;
            min = min.min(v);
            max = max.max(v);
            sum += u128::from(v);
        })?;
        if count == 0 {
            return Ok(None);
        }
        let edges = log_edges(min, max);
        let mut counts = vec![0u64; edges.len() - 1];
        values.each(&mut |v| counts[edges.partition_point(|&e| e <= v) - 1] += 1)?;
        let ranks = [nearest_rank(count, 1, 2), nearest_rank(count, 9, 10)];
        let [median, p90] = if count <= SORT_MAX {
            // Few values: sorted in memory, not counted into 2 × 65,536 counters a pass.
            let mut all = Vec::with_capacity(count as usize);
            values.each(&mut |v| all.push(v))?;
            all.sort_unstable();
            ranks.map(|r| all[r as usize - 1])
        } else {
            select(values, min, max, ranks)?
        };
        // Half up: floor((2·sum + n) / 2n).
        let mean = ((2 * sum + u128::from(count)) / (2 * u128::from(count))) as u64;
        Ok(Some(Exact { count, min, median, mean, p90, max, edges, counts }))
    }

    /// The figures of step counts given as steps (rounded to centi-steps as the books print them).
    #[cfg(test)]
    pub(crate) fn of_steps(steps: &[f64]) -> Option<Exact> {
        let c: Vec<u64> = steps.iter().map(|&s| centi(s)).collect();
        Exact::of(&vec![c.as_slice()]).expect("values in memory")
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
        let values: Vec<Vec<u64>> = parts.iter().map(|p| p.iter().map(|&v| centi(v)).collect()).collect();
        let slices: Vec<&[u64]> = values.iter().map(|v| v.as_slice()).collect();
        let all: Vec<f64> = parts.concat();
        let e = Exact::of(&slices).unwrap().expect("values given");
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
        let e = Exact::of_steps(&parts[0]).unwrap();
        assert_eq!((e.min, e.median, e.mean, e.p90, e.max), (100, 5000, 5050, 9000, 10000));
    }

    #[test]
    fn large_small_and_equal_values() {
        check(&[vec![0.0]]);
        check(&[vec![1e7; 5]]);
        check(&[vec![19_999.5, 20_000.0, 20_000.004, 123_456.785, 1e7], vec![], vec![0.0, 0.005]]);
        // Above 2^32 centi-steps: three and four radix passes.
        check(&[vec![5e7, 4e7, 42_949_672.95, 42_949_672.96, 3.0], vec![6e7, 1.5]]);
        check(&[vec![9e13, 0.0, 7e12, 7e12, 1.0], vec![9e13 - 0.01]]);
        assert!(Exact::of_steps(&[]).is_none());
    }

    /// `select`'s radix passes (runs of over `SORT_MAX` values) rank as sorting does, with one to
    /// four passes; and a run just over `SORT_MAX` gets the figures the sort gives just under.
    #[test]
    fn radix_select_ranks_as_sorting() {
        let sets: Vec<Vec<u64>> = vec![
            vec![7],
            vec![3, 3, 3, 1],
            (0..5000u64).map(|i| i * 7919 % 4093).collect(),
            vec![5_000_000_000, 4_000_000_000, 4_294_967_295, 4_294_967_296, 300, 6_000_000_000, 150],
            vec![9_000_000_000_000_000, 0, 700_000_000_000_000, 700_000_000_000_000, 100],
            (0..3000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 3).collect(),
        ];
        for values in sets {
            let (min, max) = (*values.iter().min().unwrap(), *values.iter().max().unwrap());
            let n = values.len() as u64;
            let mut sorted = values.clone();
            sorted.sort_unstable();
            for ranks in [[1, n], [nearest_rank(n, 1, 2), nearest_rank(n, 9, 10)]] {
                let want = ranks.map(|r| sorted[r as usize - 1]);
                assert_eq!(select(&vec![values.as_slice()], min, max, ranks).unwrap(), want, "{values:?}");
            }
        }
        let big: Vec<u64> = (0..SORT_MAX + 3).map(|i| i * 7919 % 100_003).collect();
        let e = Exact::of(&vec![big.as_slice()]).unwrap().unwrap();
        let mut sorted = big.clone();
        sorted.sort_unstable();
        let n = big.len() as u64;
        assert_eq!(
            (e.median, e.p90),
            (sorted[nearest_rank(n, 1, 2) as usize - 1], sorted[nearest_rank(n, 9, 10) as usize - 1])
        );
    }

    #[test]
    fn kakuro_scale_histogram_is_40_log_bins() {
        let values: Vec<f64> = (0..2000).map(|i| 1e5 * 10f64.powf(i as f64 / 1999.0)).collect();
        let e = Exact::of_steps(&values).unwrap();
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

    /// Figures from step files plus values in memory equal those of the same values in memory.
    #[test]
    fn step_files_give_the_same_figures() {
        let dir = std::env::temp_dir().join(format!("pf-steps-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let values: Vec<u64> = (0..70_000u64).map(|i| (i * 7919) % 1_000_003 + (i % 3) * (1 << 33)).collect();
        let (a, b) = values.split_at(50_001);
        let path = dir.join("a");
        let bytes: Vec<u8> = a.iter().flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(&path, bytes).unwrap();
        let files = StepFiles { files: vec![path, dir.join("absent")], memory: vec![b] };
        let from_files = Exact::of(&files).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(from_files, Exact::of(&vec![values.as_slice()]).unwrap());
        let mut sorted = values.clone();
        sorted.sort();
        let e = from_files.unwrap();
        assert_eq!((e.median, e.p90), (sorted[35_000 - 1], sorted[63_000 - 1]));
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
