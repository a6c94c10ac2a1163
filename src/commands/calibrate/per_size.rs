//! `calibrate` on a reference of several grid sizes (KenKen): every size is fitted and measured
//! on its own puzzles (the step count grows with the grid), with the same seeded fit/holdout
//! split; the summary ends with the per-size table, `--report` adds one report per size and
//! `sizes.svg` (steps against reference level, one panel per size), and `--write-config` writes
//! every fitted size into its `[grades.size.N]`.

use super::output::Outputs;
use super::{check_fit, fit_thresholds, Agreement, Args, Split};
use crate::book::atomic::AtomicFile;
use crate::book::report;
use crate::config::{RunConfig, UsageError};
use crate::grade::Thresholds;
use crate::kinds::Kind;
use anyhow::{Context as _, Result};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::BTreeSet;
use std::io::Write;

/// One size's fit: its puzzles, and the thresholds and agreement when it could be fitted.
struct SizeFit {
    size: usize,
    split: Split,
    fitted: Result<(Thresholds, Agreement), String>,
}

/// The puzzles of one size, in the split's order (held-out ones first).
fn of_size(split: &Split, n: usize) -> Split {
    let keep: Vec<usize> = (0..split.items.len()).filter(|&i| split.sizes[i] == Some(n)).collect();
    Split {
        items: keep.iter().map(|&i| split.items[i]).collect(),
        lines: keep.iter().map(|&i| split.lines[i]).collect(),
        usages: keep.iter().map(|&i| split.usages[i].clone()).collect(),
        sizes: keep.iter().map(|&i| split.sizes[i]).collect(),
        variants: keep.iter().map(|&i| split.variants[i].clone()).collect(),
        n_test: keep.iter().filter(|&&i| i < split.n_test).count(),
    }
}

pub(super) fn calibrate<K: Kind>(
    cfg: &RunConfig<K::Params>,
    a: &Args,
    levels: &[String],
    split: &Split,
    sizes: &BTreeSet<usize>,
    rng: &mut Xoshiro256PlusPlus,
) -> Result<()> {
    let mut fits = Vec::new();
    for &n in sizes {
        let sub = of_size(split, n);
        let present: BTreeSet<usize> = sub.items.iter().map(|x| x.0).collect();
        let fitted = if sub.fit().len() < 4 || present.len() < 2 {
            Err(format!("{} puzzles over {} level(s): too few to fit", sub.items.len(), present.len()))
        } else {
            fit_thresholds(a, levels, sub.fit()).map_err(|e| e.to_string()).and_then(|t| {
                let ag = Agreement::measure(levels.len(), sub.test(), &t, rng);
                check_fit(t.k(), levels, &ag)?;
                Ok((t, ag))
            })
        };
        fits.push(SizeFit { size: n, split: sub, fitted });
    }
    if fits.iter().all(|f| f.fitted.is_err()) {
        let why: Vec<String> =
            fits.iter().filter_map(|f| f.fitted.as_ref().err().map(|e| format!("{n}x{n}: {e}", n = f.size))).collect();
        return Err(UsageError(format!("no grid size could be fitted ({}); nothing written", why.join("; "))).into());
    }
    let mut out = std::io::stdout().lock();
    for f in &fits {
        writeln!(out, "== size {n}x{n}", n = f.size)?;
        match &f.fitted {
            Ok((t, ag)) => {
                drop(out);
                let o = Outputs { args: a, levels, split: &f.split, thresholds: *t, agreement: ag };
                o.print_summary()?;
                if let Some(dir) = a.report {
                    o.write_report::<K>(&dir.join(format!("size-{}", f.size)))?;
                }
                out = std::io::stdout().lock();
            }
            Err(why) => writeln!(out, "not fitted: {why}")?,
        }
    }
    writeln!(out, "per size (gamma on the held-out puzzles of that size, or all with --holdout 0):")?;
    writeln!(
        out,
        "{:>5} {:>7} {:>10} {:>10} {:>10} {:>10} {:>8}  95% interval",
        "size", "puzzles", "k1", "k2", "k3", "floor", "gamma"
    )?;
    let mut rows = String::new();
    for f in &fits {
        let line = match &f.fitted {
            Ok((t, ag)) => {
                let [k1, k2, k3] = t.k();
                format!(
                    "{:>5} {:>7} {k1:>10.1} {k2:>10.1} {k3:>10.1} {:>10} {:>8.4}  [{:.4}, {:.4}]",
                    f.size,
                    f.split.items.len(),
                    format!("{:?}", t.floor()).replace(' ', ""),
                    ag.gamma,
                    ag.lo,
                    ag.hi
                )
            }
            Err(why) => format!("{:>5} {:>7} not fitted ({why})", f.size, f.split.items.len()),
        };
        writeln!(out, "{line}")?;
        rows += &line;
        rows.push('\n');
    }
    let gammas: Vec<f64> = fits.iter().filter_map(|f| f.fitted.as_ref().ok().map(|x| x.1.gamma)).collect();
    if !gammas.is_empty() {
        writeln!(out, "mean gamma over the fitted sizes: {:.4}", gammas.iter().sum::<f64>() / gammas.len() as f64)?;
    }
    drop(out);
    if let Some(dir) = a.report {
        write_overview::<K>(a, levels, &fits, &rows, dir)?;
    }
    if let Some(path) = a.write_config {
        write_config::<K>(cfg, a, &fits, path)?;
    }
    if let Some(path) = a.dump {
        write_dump(levels, &fits, path)?;
    }
    Ok(())
}

/// `--dump`: one CSV row per reference puzzle in input order, graded by its size's fit (empty
/// grade where the size was not fitted).
fn write_dump(levels: &[String], fits: &[SizeFit], path: &std::path::Path) -> Result<()> {
    let mut rows = Vec::new();
    for f in fits {
        let t = f.fitted.as_ref().ok().map(|x| x.0);
        for (i, &(l, st, h)) in f.split.items.iter().enumerate() {
            let grade = t.map(|t| t.grade(st, h).name().to_string()).unwrap_or_default();
            rows.push((f.split.lines[i], f.size, levels[l].clone(), st, h, grade, i < f.split.n_test));
        }
    }
    rows.sort_by_key(|r| r.0);
    let mut w = csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record(["line", "size", "level", "steps", "hardest_level", "grade", "held_out"])?;
    for (line, size, level, st, h, grade, held) in rows {
        w.write_record([
            line.to_string(),
            size.to_string(),
            level,
            format!("{st:.2}"),
            h.to_string(),
            grade,
            (held as u8).to_string(),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// `report.md` for all sizes: the per-size table, `sizes.svg`, links to each size's report.
fn write_overview<K: Kind>(
    a: &Args,
    levels: &[String],
    fits: &[SizeFit],
    rows: &str,
    dir: &std::path::Path,
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let panels: Vec<_> = fits
        .iter()
        .filter_map(|f| {
            let (t, ag) = f.fitted.as_ref().ok()?;
            let steps =
                (0..levels.len()).map(|l| f.split.items.iter().filter(|x| x.0 == l).map(|x| x.1).collect()).collect();
            Some((format!("{n}x{n}: gamma {:.3}", ag.gamma, n = f.size), levels.to_vec(), steps, t.k()))
        })
        .collect();
    AtomicFile::write_all(dir, "sizes.svg", report::size_panels(&panels)?.as_bytes()).context("writing sizes.svg")?;
    let mut md = format!(
        "# puzzle-factory {} calibration report, per grid size\n\nReference `{}`, method {:?}{}: every size \
         fitted and measured on its own puzzles.\n\n```\n{}```\n\n![steps per reference level, one panel per \
         size](sizes.svg)\n\n",
        K::NAME,
        a.reference.display(),
        a.method,
        if a.floor { ", hardest-level floor fitted" } else { "" },
        rows
    );
    for f in fits.iter().filter(|f| f.fitted.is_ok()) {
        md += &format!("- [{n}x{n}](size-{n}/report.md)\n", n = f.size);
    }
    AtomicFile::write_all(dir, "report.md", md.as_bytes()).context("writing report.md")?;
    writeln!(std::io::stdout(), "wrote {}", dir.join("report.md").display())?;
    Ok(())
}

/// The configuration as used, every fitted size's thresholds in its `[grades.size.N]` (sizes
/// not fitted keep their tables).
fn write_config<K: Kind>(cfg: &RunConfig<K::Params>, a: &Args, fits: &[SizeFit], path: &std::path::Path) -> Result<()> {
    let mut table = cfg.table.clone();
    let grades = table.entry("grades").or_insert_with(|| toml::Table::new().into());
    let grades = grades.as_table_mut().context("[grades] is a table")?;
    let sizes = grades.entry("size").or_insert_with(|| toml::Table::new().into());
    let sizes = sizes.as_table_mut().context("[grades.size] is a table")?;
    let mut written = Vec::new();
    for f in fits {
        if let Ok((t, _)) = &f.fitted {
            sizes.insert(f.size.to_string(), super::output::threshold_table(t).into());
            written.push(f.size.to_string());
        }
    }
    let header = format!(
        "# Written by `puzzle-factory calibrate --kind {}`: method {:?}, reference {}, fitted per size in\n\
         # [grades.size.N] for N = {}.\n",
        K::NAME,
        a.method,
        a.reference.display(),
        written.join(", ")
    );
    let body = toml::to_string_pretty(&table).context("writing the config")?;
    std::fs::write(path, header + &body).with_context(|| format!("writing {}", path.display()))?;
    writeln!(
        std::io::stdout(),
        "wrote {} (thresholds in [grades.size.N] for N = {})",
        path.display(),
        written.join(", ")
    )?;
    Ok(())
}
