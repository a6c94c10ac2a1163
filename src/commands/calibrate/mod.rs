//! `calibrate`: fit k1<k2<k3 to reference puzzles labelled by an outside grader, and measure the
//! agreement on puzzles the fit did not see.
//!
//! Methods: `midpoint` (the published one: thresholds midway between the mean step counts of
//! adjacent reference levels; with more than four levels, the three cut points that maximise
//! Kendall's tau-b on the fit part, searched over a grid of step quantiles), `quantile`
//! (thresholds that give target shares per grade). Agreement: the confusion table of reference
//! level × our grade, gamma with a bootstrap 95% interval, and Spearman's rho of steps vs level.
//!
//! The story, one function a stage: check the flags → read the reference → name the levels →
//! rate every puzzle → seeded fit/holdout split → fit → measure → print and write (`output`).

mod output;
mod per_size;
mod stats;

pub use stats::{gamma_of_table, spearman, tau_b_of_table};

use crate::cli::CalibrationMethod;
use crate::config::{RunConfig, UsageError};
use crate::grade::Thresholds;
use crate::kinds::Kind;
use anyhow::Result;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::path::Path;
use std::process::ExitCode;

/// Label orders of the reference collections in ../shared/data (and Keen's levels).
const KNOWN_LEVELS: &[&[&str]] = &[
    &["EZ", "NO", "IM", "CH", "TF", "ST", "IN"],
    &["easy", "medium", "hard", "diabolical"],
    &["simple", "easy", "intermediate", "expert"],
    &["e", "n", "h", "x", "u"],
];

/// The level of puzzles given without a label (a generated sample, for `quantile`).
const UNLABELLED: &str = "sample";

/// A rated reference puzzle: (reference level index, steps, hardest level).
type Item = (usize, f64, u8);

/// A reference line read: (line number, puzzle, label).
type Entry<P> = (usize, P, String);

/// The flags of `calibrate` (see `cli.rs` for their meaning).
pub struct Args<'a> {
    pub reference: &'a Path,
    pub levels: Option<Vec<String>>,
    pub method: CalibrationMethod,
    pub shares: &'a [f64],
    pub holdout: f64,
    pub seed: u64,
    pub floor: bool,
    pub write_config: Option<&'a Path>,
    pub dump: Option<&'a Path>,
    pub report: Option<&'a Path>,
}

/// The rated reference puzzles in their seeded order: the first `n_test` are held out (none
/// when `n_test` is 0: then the fit and the measure both use all).
struct Split {
    items: Vec<Item>,
    lines: Vec<usize>,
    usages: Vec<Vec<u32>>,
    /// The grid size of each puzzle (kinds with per-size thresholds).
    sizes: Vec<Option<usize>>,
    /// The variant of each puzzle (kinds with `[grades.variant.NAME]` tables).
    variants: Vec<Option<String>>,
    n_test: usize,
}

impl Split {
    fn test(&self) -> &[Item] {
        if self.n_test == 0 {
            &self.items
        } else {
            &self.items[..self.n_test]
        }
    }
    fn fit(&self) -> &[Item] {
        &self.items[self.n_test..]
    }
    fn held_out(&self) -> usize {
        self.n_test
    }
}

/// The agreement of our grades with the reference levels on the held-out part.
struct Agreement {
    table: Vec<[u64; 4]>,
    gamma: f64,
    /// Bootstrap 95% interval of gamma.
    lo: f64,
    hi: f64,
    tau: f64,
    rho: f64,
}

/// A reference line's puzzle and label: fields split at tabs when the line has one, else at
/// commas. A JSON line without a tab is a bare puzzle or book record, labelled `UNLABELLED`
/// (quantile on a generated sample).
pub fn reference_fields(line: &str) -> (&str, &str) {
    if line.starts_with('{') && !line.contains('\t') {
        return (line, UNLABELLED);
    }
    let mut fields = if line.contains('\t') { line.split('\t') } else { line.split(',') };
    (fields.next().unwrap_or(""), fields.next().map(str::trim).unwrap_or(""))
}

/// Range checks of the flags, before any work: each failure names its flag (exit 2).
fn check_arguments(a: &Args) -> Result<()> {
    let refuse = |m: String| -> Result<()> { Err(UsageError(m).into()) };
    if !(0.0..1.0).contains(&a.holdout) {
        return refuse(format!("--holdout must be in [0, 1), got {}", a.holdout));
    }
    if a.shares.len() != 4 || a.shares.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
        return refuse(format!("--shares needs four positive numbers, got {:?}", a.shares));
    }
    if let Some(levels) = &a.levels {
        let distinct: std::collections::BTreeSet<&str> = levels.iter().map(|l| l.trim()).collect();
        if levels.len() < 2 || distinct.len() != levels.len() || distinct.contains("") {
            return refuse(format!("--levels needs at least 2 different non-empty labels, got {levels:?}"));
        }
    }
    if a.reference.is_dir() {
        return refuse(format!("--reference {} is a directory", a.reference.display()));
    }
    Ok(())
}

/// The reference lines as (line number, puzzle, label); bad lines are reported (`line N:`) and
/// make the second value true.
fn read_reference<K: Kind>(a: &Args, params: &K::Params) -> Result<(Vec<Entry<K::Puzzle>>, bool)> {
    // A zstd file is read decompressed, as every input of the program is.
    let text = crate::book::layout::read_to_string(a.reference)
        .map_err(|e| UsageError(format!("--reference {}: {e}", a.reference.display())))?;
    // A byte-order mark (as some editors save) is not part of the first puzzle.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut failed = false;
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if super::lines::skipped(line) {
            continue;
        }
        // A book's CSV (puzzles.csv or a book file) holds our own grades, not an outside
        // grader's labels: say so once instead of a bad-puzzle error on every line.
        if entries.is_empty() && !failed && line.starts_with("id,kind,") {
            return Err(UsageError(format!(
                "--reference {} line {}: a book's CSV (header id,kind,...): its grades are this program's \
                 own, not an outside grader's labels. Give puzzles labelled by another grader (a puzzle, then \
                 its label, a line each), or fit grade shares on the book's puzzles with its puzzles.jsonl \
                 and --method quantile",
                a.reference.display(),
                i + 1
            ))
            .into());
        }
        let (puzzle, label) = reference_fields(line.trim());
        let problem = if label == UNLABELLED && a.method != CalibrationMethod::Quantile {
            Some("no label (only --method quantile takes unlabelled puzzles)".to_string())
        } else if label.is_empty() {
            Some("no label after the puzzle".to_string())
        } else {
            match K::parse(puzzle, params) {
                Ok(p) => {
                    entries.push((i + 1, p, label.to_string()));
                    None
                }
                Err(e) => Some(e),
            }
        };
        if let Some(e) = problem {
            failed = true;
            eprintln!("line {}: {e}", i + 1);
        }
    }
    Ok((entries, failed))
}

/// The levels in order: as given, or the known label set that covers at least 90% of the lines
/// (the other lines then get `line N: unknown label` like any bad line).
fn resolve_levels<P>(given: Option<Vec<String>>, entries: &[Entry<P>]) -> Result<Vec<String>> {
    if let Some(l) = given {
        return Ok(l);
    }
    if entries.iter().all(|e| e.2 == UNLABELLED) {
        return Ok(vec![UNLABELLED.to_string()]);
    }
    let covered = |ls: &[&str]| entries.iter().filter(|e| ls.contains(&e.2.as_str())).count();
    let known = KNOWN_LEVELS
        .iter()
        .max_by_key(|ls| covered(ls))
        .filter(|ls| covered(ls) * 10 >= entries.len() * 9 && covered(ls) > 0);
    match known {
        Some(ls) => Ok(ls.iter().map(|s| s.to_string()).collect()),
        None => {
            let found: std::collections::BTreeSet<&str> = entries.iter().map(|e| e.2.as_str()).collect();
            Err(UsageError(format!(
                "--levels is needed (easiest first): the labels found are {}",
                found.into_iter().collect::<Vec<_>>().join(",")
            ))
            .into())
        }
    }
}

/// One reference puzzle rated: its level, steps (`Kind::difficulty`: the size-free form for
/// Kakuro), hardest level and technique usage.
fn rate_one<K: Kind>(p: &K::Puzzle, label: &str, levels: &[String]) -> Result<(Item, Vec<u32>), String> {
    let level = levels
        .iter()
        .position(|l| l == label)
        .ok_or_else(|| format!("unknown label {label:?} (levels: {})", levels.join(",")))?;
    let solution = super::lines::unique_solution::<K>(p)?;
    let rated = K::rate(p, &solution, None);
    if !rated.solved {
        return Err("the rater could not finish this puzzle".into());
    }
    Ok(((level, K::difficulty(p, rated.rating.steps), rated.rating.hardest_level), rated.rating.usage))
}

/// Rate every reference puzzle in parallel and split them, seeded, into fit and held-out parts.
/// Bad puzzles are reported (`line N:`) and make the second value true.
fn rate_and_split<K: Kind>(
    entries: &[Entry<K::Puzzle>],
    levels: &[String],
    holdout: f64,
    rng: &mut Xoshiro256PlusPlus,
) -> Result<(Split, bool)> {
    let rated: Vec<_> = entries
        .par_iter()
        .map(|(line, p, label)| {
            let key = crate::kinds::GradeKey::of_puzzle::<K>(p);
            (*line, (key.size, key.variants.into_iter().next()), rate_one::<K>(p, label, levels))
        })
        .collect();
    let mut failed = false;
    let mut good = Vec::new();
    for (line, size, r) in rated {
        match r {
            Ok((item, usage)) => good.push((line, item, usage, size)),
            Err(e) => {
                failed = true;
                eprintln!("line {line}: {e}");
            }
        }
    }
    if good.len() < 8 {
        anyhow::bail!("only {} usable reference puzzles; need at least 8", good.len());
    }
    good.shuffle(rng);
    let n_test = (good.len() as f64 * holdout).round() as usize;
    if n_test != 0 && (n_test < 2 || good.len() - n_test < 2) {
        return Err(UsageError(format!(
            "--holdout {holdout} holds out {n_test} of {} usable puzzles; each side needs at least 2",
            good.len()
        ))
        .into());
    }
    let split = Split {
        lines: good.iter().map(|x| x.0).collect(),
        items: good.iter().map(|x| x.1).collect(),
        usages: good.iter().map(|x| x.2.clone()).collect(),
        sizes: good.iter().map(|x| x.3 .0).collect(),
        variants: good.iter().map(|x| x.3 .1.clone()).collect(),
        n_test,
    };
    Ok((split, failed))
}

/// A reference needs puzzles of at least two of its levels (an unlabelled sample, for
/// `quantile`, aside): with one there is nothing to put thresholds between, gamma is undefined,
/// and a config written from such a fit grades everything alike (issue 43). `counts[l]`: the
/// puzzles of level `l`; `which`: what they are (read, or rated and usable).
fn check_levels(a: &Args, levels: &[String], counts: &[usize], which: &str) -> Result<()> {
    if levels == [UNLABELLED] {
        return Ok(());
    }
    let present: Vec<String> =
        levels.iter().zip(counts).filter(|(_, &n)| n > 0).map(|(l, n)| format!("{l}: {n}")).collect();
    if present.len() >= 2 {
        return Ok(());
    }
    Err(UsageError(format!(
        "--reference {}: the {which} puzzles are of {} level{} ({}) of the {} levels {}: calibrate needs \
         puzzles of at least two levels to fit thresholds between them; nothing written",
        a.reference.display(),
        present.len(),
        if present.len() == 1 { "" } else { "s" },
        if present.is_empty() { "none".to_string() } else { present.join(", ") },
        levels.len(),
        levels.join(",")
    ))
    .into())
}

/// Puzzles per level.
fn level_counts(levels: usize, of: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut n = vec![0; levels];
    for l in of {
        n[l] += 1;
    }
    n
}

/// A fit that may be written: finite, strictly increasing thresholds and a finite gamma (with
/// two or more levels). The error names the problem.
fn check_fit(k: [f64; 3], levels: &[String], ag: &Agreement) -> Result<(), String> {
    let [k1, k2, k3] = k;
    if !(k.iter().all(|x| x.is_finite()) && k1 < k2 && k2 < k3) {
        return Err(format!("the fitted thresholds k1={k1}, k2={k2}, k3={k3} are not finite and strictly increasing"));
    }
    if levels.len() >= 2 && !ag.gamma.is_finite() {
        let rows = ag.table.iter().filter(|r| r.iter().any(|&n| n > 0)).count();
        let grades: Vec<&str> =
            (0..4).filter(|&g| ag.table.iter().any(|r| r[g] > 0)).map(|g| crate::grade::Grade::ALL[g].name()).collect();
        return Err(format!(
            "gamma is undefined ({}): the held-out puzzles are of {rows} level(s) and the thresholds k1={k1:.2}, \
             k2={k2:.2}, k3={k3:.2} put them in {} grade(s) ({})",
            ag.gamma,
            grades.len(),
            grades.join(", ")
        ));
    }
    Ok(())
}

/// Fit the thresholds (and the floor with `--floor`) on the fit part.
fn fit_thresholds(a: &Args, names: &[String], fit: &[Item]) -> Result<Thresholds> {
    let levels = names.len();
    let thresholds = match a.method {
        CalibrationMethod::Midpoint if levels == 4 => {
            let counts = level_counts(4, fit.iter().map(|x| x.0));
            if let Some(l) = counts.iter().position(|&n| n == 0) {
                return Err(UsageError(format!(
                    "level {} has no puzzles in the fit part: the midpoint method needs all four levels (give \
                     --levels with the levels the reference has)",
                    names[l]
                ))
                .into());
            }
            let means: Vec<f64> = (0..4)
                .map(|l| {
                    let xs: Vec<f64> = fit.iter().filter(|x| x.0 == l).map(|x| x.1).collect();
                    xs.iter().sum::<f64>() / xs.len().max(1) as f64
                })
                .collect();
            Thresholds::new((means[0] + means[1]) / 2.0, (means[1] + means[2]) / 2.0, (means[2] + means[3]) / 2.0)
                .map_err(|e| UsageError(format!("level means are not increasing, so midpoints do not fit: {e}")))?
        }
        CalibrationMethod::Midpoint => stats::best_cuts(levels, fit).ok_or_else(|| {
            let mut steps: Vec<f64> = fit.iter().map(|x| x.1).collect();
            steps.sort_by(f64::total_cmp);
            steps.dedup();
            UsageError(format!(
                "no threshold triple fits: the step counts of the fit part take {} distinct value(s)",
                steps.len()
            ))
        })?,
        CalibrationMethod::Quantile => {
            let mut steps: Vec<f64> = fit.iter().map(|x| x.1).collect();
            steps.sort_by(f64::total_cmp);
            let total: f64 = a.shares.iter().sum();
            let mut acc = 0.0;
            let mut k = [0.0; 3];
            for (i, s) in a.shares[..3].iter().enumerate() {
                acc += s / total;
                k[i] = stats::quantile(&steps, acc);
            }
            Thresholds::new(k[0], k[1], k[2])
                .map_err(|e| UsageError(format!("the shares give equal thresholds: {e}")))?
        }
    };
    Ok(if a.floor { stats::best_floor(levels, fit, &thresholds) } else { thresholds })
}

impl Agreement {
    /// Gamma (with a 500-resample bootstrap interval drawn from `rng`), tau-b and Spearman's rho.
    fn measure(levels: usize, test: &[Item], t: &Thresholds, rng: &mut Xoshiro256PlusPlus) -> Agreement {
        let table = stats::table(levels, test, t);
        let gamma = gamma_of_table(&table);
        let mut boot: Vec<f64> = (0..500)
            .map(|_| {
                let sample: Vec<Item> = (0..test.len()).map(|_| test[rng.gen_range(0..test.len())]).collect();
                gamma_of_table(&stats::table(levels, &sample, t))
            })
            .filter(|g| g.is_finite())
            .collect();
        boot.sort_by(f64::total_cmp);
        let (lo, hi) = if boot.is_empty() {
            (f64::NAN, f64::NAN)
        } else {
            (stats::quantile(&boot, 0.025), stats::quantile(&boot, 0.975))
        };
        let tau = tau_b_of_table(&table);
        Agreement { rho: spearman(test), tau, gamma, lo, hi, table }
    }
}

/// Run `calibrate`.
pub fn calibrate<K: Kind>(cfg: &RunConfig<K::Params>, a: Args) -> Result<ExitCode> {
    check_arguments(&a)?;
    let (entries, bad_lines) = read_reference::<K>(&a, &cfg.params)?;
    let levels = resolve_levels(a.levels.clone(), &entries)?;
    let labelled = entries.iter().filter_map(|e| levels.iter().position(|l| *l == e.2));
    check_levels(&a, &levels, &level_counts(levels.len(), labelled), "labelled")?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(a.seed);
    let (split, bad_puzzles) = rate_and_split::<K>(&entries, &levels, a.holdout, &mut rng)?;
    check_levels(&a, &levels, &level_counts(levels.len(), split.items.iter().map(|x| x.0)), "usable")?;
    let exit = if bad_lines || bad_puzzles { ExitCode::from(1) } else { ExitCode::SUCCESS };
    let sizes: std::collections::BTreeSet<usize> = split.sizes.iter().flatten().copied().collect();
    if sizes.len() > 1 {
        per_size::calibrate::<K>(cfg, &a, &levels, &split, &sizes, &mut rng)?;
        return Ok(exit);
    }
    let thresholds = fit_thresholds(&a, &levels, split.fit())?;
    let agreement = Agreement::measure(levels.len(), split.test(), &thresholds, &mut rng);
    check_fit(thresholds.k(), &levels, &agreement).map_err(|e| UsageError(format!("{e}: nothing written")))?;
    let out = output::Outputs { args: &a, levels: &levels, split: &split, thresholds, agreement: &agreement };
    out.print_summary()?;
    if let Some(dir) = a.report {
        out.write_report::<K>(dir)?;
    }
    if let Some(path) = a.dump {
        out.write_dump(path)?;
    }
    if let Some(path) = a.write_config {
        out.write_config::<K>(cfg, path)?;
    }
    Ok(exit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agreement(table: Vec<[u64; 4]>) -> Agreement {
        let gamma = gamma_of_table(&table);
        Agreement { table, gamma, lo: f64::NAN, hi: f64::NAN, tau: f64::NAN, rho: f64::NAN }
    }

    #[test]
    fn a_fit_without_gamma_or_with_unordered_thresholds_is_refused_naming_it() {
        let levels: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let good = agreement(vec![[5, 1, 0, 0], [0, 2, 4, 0]]);
        assert!(check_fit([1.0, 2.0, 3.0], &levels, &good).is_ok());
        // Every held-out puzzle in one grade: no pair is ordered either way.
        let flat = agreement(vec![[0, 5, 0, 0], [0, 7, 0, 0]]);
        let e = check_fit([1.0, 2.0, 3.0], &levels, &flat).unwrap_err();
        assert!(e.contains("gamma is undefined (NaN)") && e.contains("1 grade(s) (medium)"), "{e}");
        // The held-out puzzles of one level.
        let e = check_fit([1.0, 2.0, 3.0], &levels, &agreement(vec![[3, 2, 1, 0], [0, 0, 0, 0]])).unwrap_err();
        assert!(e.contains("of 1 level(s)"), "{e}");
        for k in [[2.0, 2.0, 3.0], [1.0, 3.0, 2.0], [1.0, 2.0, f64::NAN], [f64::NEG_INFINITY, 2.0, 3.0]] {
            let e = check_fit(k, &levels, &good).unwrap_err();
            assert!(e.contains("not finite and strictly increasing"), "{k:?}: {e}");
        }
        // An unlabelled sample (quantile) has one level and no gamma to measure.
        assert!(check_fit([1.0, 2.0, 3.0], &[UNLABELLED.to_string()], &flat).is_ok());
    }
}
