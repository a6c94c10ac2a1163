//! `calibrate`: fit k1<k2<k3 to reference puzzles labelled by an outside grader, and measure the
//! agreement on puzzles the fit did not see.
//!
//! Methods: `midpoint` (the published one: thresholds midway between the mean step counts of
//! adjacent reference levels; with more than four levels, the three cut points that maximise
//! Kendall's tau-b on the fit part, searched over a grid of step quantiles), `quantile`
//! (thresholds that give target shares per grade). Agreement: the confusion table of reference
//! level × our grade, gamma with a bootstrap 95% interval, and Spearman's rho of steps vs level.

use crate::cli::CalibrationMethod;
use crate::config::{RunConfig, UsageError};
use crate::grade::{Grade, Thresholds};
use crate::kinds::Kind;
use crate::rate::Technique;
use anyhow::{Context as _, Result};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::io::Write;
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

/// A labelled puzzle rated (with its technique usage), or what was wrong with its line.
type LevelSteps = Result<(Item, Vec<u32>), String>;

/// Concordant and discordant pairs of a levels × grades table (pairs tied on either side are
/// in neither).
fn concordance(table: &[[u64; 4]]) -> (f64, f64) {
    let (mut c, mut d) = (0f64, 0f64);
    for i in 0..table.len() {
        for i2 in i + 1..table.len() {
            for j in 0..4 {
                for j2 in 0..4 {
                    let pairs = (table[i][j] * table[i2][j2]) as f64;
                    if j2 > j {
                        c += pairs;
                    } else if j2 < j {
                        d += pairs;
                    }
                }
            }
        }
    }
    (c, d)
}

/// Gamma from a levels × grades table: (concordant - discordant) / (concordant + discordant).
pub fn gamma_of_table(table: &[[u64; 4]]) -> f64 {
    let (c, d) = concordance(table);
    if c + d == 0.0 {
        f64::NAN
    } else {
        (c - d) / (c + d)
    }
}

/// Kendall's tau-b from the same table: like gamma, but pairs tied on one side count against
/// it, so lumping many reference levels into one grade does not look like agreement.
pub fn tau_b_of_table(table: &[[u64; 4]]) -> f64 {
    let n: f64 = table.iter().flatten().map(|&x| x as f64).sum();
    let pairs = |xs: &mut dyn Iterator<Item = f64>| xs.map(|x| x * (x - 1.0) / 2.0).sum::<f64>();
    let tied_level = pairs(&mut table.iter().map(|r| r.iter().map(|&x| x as f64).sum()));
    let tied_grade = pairs(&mut (0..4).map(|j| table.iter().map(|r| r[j] as f64).sum()));
    let n0 = n * (n - 1.0) / 2.0;
    let (c, d) = concordance(table);
    (c - d) / ((n0 - tied_level) * (n0 - tied_grade)).sqrt()
}

fn table(levels: usize, items: &[Item], t: &Thresholds) -> Vec<[u64; 4]> {
    let mut tab = vec![[0u64; 4]; levels];
    for &(l, s, h) in items {
        tab[l][t.grade(s, h).index()] += 1;
    }
    tab
}

/// The hardest-level floor (see `grade.rs`) that maximises tau-b on the fit part with the
/// thresholds fixed; among equals the one with the fewest and highest floors, so the pure
/// step grading stays unless a floor helps.
fn best_floor(levels: usize, fit: &[Item], t: &Thresholds) -> Thresholds {
    let top = fit.iter().map(|x| x.2).max().unwrap_or(0);
    let mut best = (tau_b_of_table(&table(levels, fit, t)), *t);
    for a in 0..=top {
        for b in 0..=top {
            for c in 0..=top {
                let Ok(f) = t.with_floor([a, b, c]) else { continue };
                let tau = tau_b_of_table(&table(levels, fit, &f));
                if tau > best.0 + 1e-9 {
                    best = (tau, f);
                }
            }
        }
    }
    best.1
}

fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut r = vec![0.0; xs.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && xs[idx[j + 1]] == xs[idx[i]] {
            j += 1;
        }
        for &k in &idx[i..=j] {
            r[k] = (i + j) as f64 / 2.0;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rho between reference level and steps.
pub fn spearman(items: &[Item]) -> f64 {
    let a = ranks(&items.iter().map(|x| x.0 as f64).collect::<Vec<_>>());
    let b = ranks(&items.iter().map(|x| x.1).collect::<Vec<_>>());
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(&b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let i = ((q * (sorted.len() - 1) as f64).round() as usize).min(sorted.len() - 1);
    sorted[i]
}

/// The three cut points maximising Kendall's tau-b (not gamma, which rewards lumping levels
/// into one grade), over a grid of step quantiles.
fn best_cuts(levels: usize, fit: &[Item]) -> Option<Thresholds> {
    let mut steps: Vec<f64> = fit.iter().map(|x| x.1).collect();
    steps.sort_by(f64::total_cmp);
    let mut grid: Vec<f64> = (1..60).map(|i| quantile(&steps, i as f64 / 60.0)).collect();
    grid.dedup();
    let mut best: Option<(f64, Thresholds)> = None;
    for a in 0..grid.len() {
        for b in a + 1..grid.len() {
            for c in b + 1..grid.len() {
                let t = Thresholds::new(grid[a], grid[b], grid[c]).ok()?;
                let g = tau_b_of_table(&table(levels, fit, &t));
                if best.as_ref().is_none_or(|(bg, _)| g > *bg + 1e-12) {
                    best = Some((g, t));
                }
            }
        }
    }
    best.map(|b| b.1)
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
fn check_arguments(reference: &Path, levels: Option<&[String]>, shares: &[f64], holdout: f64) -> Result<()> {
    let refuse = |m: String| -> Result<()> { Err(UsageError(m).into()) };
    if !(0.0..1.0).contains(&holdout) {
        return refuse(format!("--holdout must be in [0, 1), got {holdout}"));
    }
    if shares.len() != 4 || shares.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
        return refuse(format!("--shares needs four positive numbers, got {shares:?}"));
    }
    if let Some(levels) = levels {
        let distinct: std::collections::BTreeSet<&str> = levels.iter().map(|l| l.trim()).collect();
        if levels.len() < 2 || distinct.len() != levels.len() || distinct.contains("") {
            return refuse(format!("--levels needs at least 2 different non-empty labels, got {levels:?}"));
        }
    }
    if reference.is_dir() {
        return refuse(format!("--reference {} is a directory", reference.display()));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub fn calibrate<K: Kind>(
    cfg: &RunConfig<K::Params>,
    reference: &Path,
    levels: Option<Vec<String>>,
    method: CalibrationMethod,
    shares: &[f64],
    holdout: f64,
    seed: u64,
    floor: bool,
    write_config: Option<&Path>,
    dump: Option<&Path>,
    report_dir: Option<&Path>,
) -> Result<ExitCode> {
    check_arguments(reference, levels.as_deref(), shares, holdout)?;
    let text = std::fs::read_to_string(reference)
        .map_err(|e| UsageError(format!("--reference {}: {e}", reference.display())))?;
    let mut failed = false;
    let mut entries: Vec<(usize, K::Puzzle, String)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let (puzzle, label) = reference_fields(t);
        if label == UNLABELLED && method != CalibrationMethod::Quantile {
            failed = true;
            eprintln!("line {}: no label (only --method quantile takes unlabelled puzzles)", i + 1);
            continue;
        }
        if label.is_empty() {
            failed = true;
            eprintln!("line {}: no label after the puzzle", i + 1);
            continue;
        }
        match K::parse(puzzle) {
            Ok(p) => entries.push((i + 1, p, label.to_string())),
            Err(e) => {
                failed = true;
                eprintln!("line {}: {e}", i + 1);
            }
        }
    }
    let levels: Vec<String> = match levels {
        Some(l) => l,
        None if entries.iter().all(|e| e.2 == UNLABELLED) => vec![UNLABELLED.to_string()],
        None => {
            let found: std::collections::BTreeSet<&str> = entries.iter().map(|e| e.2.as_str()).collect();
            // The known label set that covers most lines, if it covers at least 90% of them:
            // the other lines then get `line N: unknown label` like any bad line.
            let covered = |ls: &[&str]| entries.iter().filter(|e| ls.contains(&e.2.as_str())).count();
            let known = KNOWN_LEVELS
                .iter()
                .max_by_key(|ls| covered(ls))
                .filter(|ls| covered(ls) * 10 >= entries.len() * 9 && covered(ls) > 0);
            match known {
                Some(ls) => ls.iter().map(|s| s.to_string()).collect(),
                None => {
                    return Err(UsageError(format!(
                        "--levels is needed (easiest first): the labels found are {}",
                        found.into_iter().collect::<Vec<_>>().join(",")
                    ))
                    .into())
                }
            }
        }
    };
    // Rate every labelled puzzle in parallel.
    let rated: Vec<(usize, LevelSteps)> = entries
        .par_iter()
        .map(|(line, p, label)| {
            let r = (|| {
                let level = levels
                    .iter()
                    .position(|l| l == label)
                    .ok_or_else(|| format!("unknown label {label:?} (levels: {})", levels.join(",")))?;
                let solution = super::lines::unique_solution::<K>(p)?;
                let rated = K::rate(p, &solution, None);
                if !rated.solved {
                    return Err("the rater could not finish this puzzle".into());
                }
                Ok(((level, rated.rating.steps, rated.rating.hardest_level), rated.rating.usage))
            })();
            (*line, r)
        })
        .collect();
    let mut items = Vec::new();
    for (line, r) in rated {
        match r {
            Ok((x, usage)) => items.push((line, x, usage)),
            Err(e) => {
                failed = true;
                eprintln!("line {line}: {e}");
            }
        }
    }
    if items.len() < 8 {
        anyhow::bail!("only {} usable reference puzzles; need at least 8", items.len());
    }
    // Seeded fit/holdout split.
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    items.shuffle(&mut rng);
    let lines: Vec<usize> = items.iter().map(|x| x.0).collect();
    let usages: Vec<Vec<u32>> = items.iter().map(|x| x.2.clone()).collect();
    let items: Vec<Item> = items.into_iter().map(|x| x.1).collect();
    let n_test = (items.len() as f64 * holdout).round() as usize;
    if n_test != 0 && (n_test < 2 || items.len() - n_test < 2) {
        return Err(UsageError(format!(
            "--holdout {holdout} holds out {n_test} of {} usable puzzles; each side needs at least 2",
            items.len()
        ))
        .into());
    }
    let (test, fit) = if n_test == 0 { (&items[..], &items[..]) } else { items.split_at(n_test) };
    let nl = levels.len();
    let thresholds = match method {
        CalibrationMethod::Midpoint if nl == 4 => {
            let means: Vec<f64> = (0..4)
                .map(|l| {
                    let xs: Vec<f64> = fit.iter().filter(|x| x.0 == l).map(|x| x.1).collect();
                    xs.iter().sum::<f64>() / xs.len().max(1) as f64
                })
                .collect();
            Thresholds::new((means[0] + means[1]) / 2.0, (means[1] + means[2]) / 2.0, (means[2] + means[3]) / 2.0)
                .map_err(|e| anyhow::anyhow!("level means are not increasing, so midpoints do not fit: {e}"))?
        }
        CalibrationMethod::Midpoint => best_cuts(nl, fit).context("no threshold triple fits")?,
        CalibrationMethod::Quantile => {
            let mut steps: Vec<f64> = fit.iter().map(|x| x.1).collect();
            steps.sort_by(f64::total_cmp);
            let total: f64 = shares.iter().sum();
            let mut acc = 0.0;
            let mut k = [0.0; 3];
            for (i, s) in shares[..3].iter().enumerate() {
                acc += s / total;
                k[i] = quantile(&steps, acc);
            }
            Thresholds::new(k[0], k[1], k[2]).map_err(|e| anyhow::anyhow!("the shares give equal thresholds: {e}"))?
        }
    };
    let thresholds = if floor { best_floor(nl, fit, &thresholds) } else { thresholds };
    // Agreement on the held-out part.
    let tab = table(nl, test, &thresholds);
    let gamma = gamma_of_table(&tab);
    let mut boot: Vec<f64> = (0..500)
        .map(|_| {
            let sample: Vec<Item> = (0..test.len()).map(|_| test[rng.gen_range(0..test.len())]).collect();
            gamma_of_table(&table(nl, &sample, &thresholds))
        })
        .filter(|g| g.is_finite())
        .collect();
    boot.sort_by(f64::total_cmp);
    let (lo, hi) =
        if boot.is_empty() { (f64::NAN, f64::NAN) } else { (quantile(&boot, 0.025), quantile(&boot, 0.975)) };
    let rho = spearman(test);
    let tau = tau_b_of_table(&tab);
    let [k1, k2, k3] = thresholds.k();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "reference: {} ({} puzzles; fit {}, held out {})",
        reference.display(),
        items.len(),
        fit.len(),
        if n_test == 0 { 0 } else { test.len() }
    )?;
    writeln!(
        out,
        "method: {method:?}; thresholds k1={k1:.2} k2={k2:.2} k3={k3:.2}; level_floor {:?}{}",
        thresholds.floor(),
        if floor { " (fitted)" } else { " (pure steps)" }
    )?;
    writeln!(out, "level     count   min      median    mean      max")?;
    for (l, name) in levels.iter().enumerate() {
        let mut xs: Vec<f64> = items.iter().filter(|x| x.0 == l).map(|x| x.1).collect();
        if xs.is_empty() {
            continue;
        }
        xs.sort_by(f64::total_cmp);
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        writeln!(
            out,
            "{name:<8} {:>6} {:>8.1} {:>9.1} {:>9.1} {:>9.1}",
            xs.len(),
            xs[0],
            quantile(&xs, 0.5),
            mean,
            xs[xs.len() - 1]
        )?;
    }
    writeln!(out, "confusion (held out): level × {}", Grade::ALL.map(|g| g.name()).join(" / "))?;
    for (l, name) in levels.iter().enumerate() {
        writeln!(out, "{name:<8} {}", tab[l].iter().map(|n| format!("{n:>7}")).collect::<String>())?;
    }
    if nl < 2 {
        writeln!(out, "one level only (an unlabelled sample): shares per grade, no agreement to measure")?;
    } else {
        writeln!(
        out,
        "gamma (held out) = {gamma:.4}  [bootstrap 95%: {lo:.4}, {hi:.4}]   tau-b = {tau:.4}   spearman rho (steps vs level) = {rho:.4}")?;
    }
    if let Some(dir) = report_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let all: Vec<f64> = items.iter().map(|x| x.1).collect();
        let (min_steps, max_steps) = all.iter().fold((f64::INFINITY, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
        let mut per_grade: [Vec<f64>; 4] = Default::default();
        let mut grade_counts = [0u64; 4];
        let mut usage: [Vec<u64>; 4] = std::array::from_fn(|_| vec![0; K::Tech::ALL.len()]);
        for (x, u) in items.iter().zip(&usages) {
            let g = thresholds.grade(x.1, x.2).index();
            per_grade[g].push(x.1);
            grade_counts[g] += 1;
            for (t, &n) in u.iter().enumerate() {
                usage[g][t] += (n > 0) as u64;
            }
        }
        let level_steps: Vec<Vec<f64>> =
            (0..nl).map(|l| items.iter().filter(|x| x.0 == l).map(|x| x.1).collect()).collect();
        let summary = format!(
            "Reference `{}`: {} puzzles (fit {}, held out {}), method {method:?}{}.\n\n\
             Held-out agreement: gamma {gamma:.4} [bootstrap 95%: {lo:.4}, {hi:.4}], tau-b {tau:.4}, \
             Spearman rho (steps vs level) {rho:.4}.",
            reference.file_name().map(|f| f.to_string_lossy()).unwrap_or_default(),
            items.len(),
            fit.len(),
            if n_test == 0 { 0 } else { test.len() },
            if floor { ", hardest-level floor fitted" } else { "" },
        );
        let report = crate::book::report::Report {
            title: format!("puzzle-factory {} calibration report", K::ID.name()),
            summary,
            thresholds,
            histograms: std::array::from_fn(|g| {
                crate::book::report::Histogram::of(&per_grade[g], min_steps, max_steps)
            }),
            techniques: K::Tech::ALL.iter().map(|t| t.name().to_string()).collect(),
            grade_counts,
            usage,
            levels: Some((levels.clone(), level_steps)),
        };
        crate::book::report::write(dir, &report)?;
        writeln!(out, "wrote {}", dir.join("report.md").display())?;
    }
    if let Some(path) = dump {
        // Per puzzle, in input order: what the fit saw and what it made of it.
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by_key(|&i| lines[i]);
        let mut w = csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
        w.write_record(["line", "level", "steps", "hardest_level", "grade", "held_out"])?;
        for i in order {
            let (l, st, h) = items[i];
            let held = n_test > 0 && i < n_test;
            w.write_record([
                lines[i].to_string(),
                levels[l].clone(),
                format!("{st:.2}"),
                h.to_string(),
                thresholds.grade(st, h).name().to_string(),
                (held as u8).to_string(),
            ])?;
        }
        w.flush()?;
    }
    if let Some(path) = write_config {
        let mut table = cfg.table.clone();
        let mut grades = toml::Table::new();
        grades.insert("k1".into(), k1.into());
        grades.insert("k2".into(), k2.into());
        grades.insert("k3".into(), k3.into());
        grades.insert(
            "level_floor".into(),
            toml::Value::Array(thresholds.floor().iter().map(|&f| toml::Value::Integer(f as i64)).collect()),
        );
        table.insert("grades".into(), toml::Value::Table(grades));
        let header = format!(
            "# Written by `puzzle-factory calibrate --kind {}`: method {method:?}, reference {},\n# gamma on held-out puzzles {gamma:.4} [{lo:.4}, {hi:.4}].\n",
            K::ID.name(),
            reference.file_name().map(|f| f.to_string_lossy()).unwrap_or_default()
        );
        let body = toml::to_string_pretty(&table).context("writing the config")?;
        std::fs::write(path, header + &body).with_context(|| format!("writing {}", path.display()))?;
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn gamma_and_rho() {
        // Perfect agreement on the diagonal; reversed gives -1.
        let t = vec![[5, 0, 0, 0], [0, 5, 0, 0], [0, 0, 5, 0], [0, 0, 0, 5]];
        assert_eq!(gamma_of_table(&t), 1.0);
        let r: Vec<[u64; 4]> = t.iter().rev().cloned().collect();
        assert_eq!(gamma_of_table(&r), -1.0);
        let items = vec![(0, 1.0, 1), (1, 2.0, 1), (2, 3.0, 2), (3, 10.0, 3)];
        assert!((spearman(&items) - 1.0).abs() < 1e-12);
    }
}
