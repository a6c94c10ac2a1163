//! What `calibrate` prints and writes: the summary on stdout (levels, confusion table, gamma),
//! and with their flags the report (`report.md` with plots), the per-puzzle dump (CSV) and a
//! config file with the fitted thresholds.

use super::{Agreement, Args, Item, Split};
use crate::book::report::{self, Histogram, Report};
use crate::config::RunConfig;
use crate::grade::{Grade, Thresholds};
use crate::kinds::Kind;
use crate::rate::Technique;
use anyhow::{Context as _, Result};
use std::io::Write;
use std::path::Path;

/// Everything the outputs show.
pub(super) struct Outputs<'a> {
    pub args: &'a Args<'a>,
    pub levels: &'a [String],
    pub split: &'a Split,
    pub thresholds: Thresholds,
    pub agreement: &'a Agreement,
}

/// A `[grades]` table of fitted thresholds: k1, k2, k3 and level_floor.
pub(super) fn threshold_table(t: &Thresholds) -> toml::Table {
    let [k1, k2, k3] = t.k();
    let mut fitted = toml::Table::new();
    fitted.insert("k1".into(), k1.into());
    fitted.insert("k2".into(), k2.into());
    fitted.insert("k3".into(), k3.into());
    let floor = t.floor().iter().map(|&f| toml::Value::Integer(f as i64)).collect();
    fitted.insert("level_floor".into(), toml::Value::Array(floor));
    fitted
}

/// Steps of the puzzles at each reference level.
fn level_steps(items: &[Item], levels: usize) -> Vec<Vec<f64>> {
    (0..levels).map(|l| items.iter().filter(|x| x.0 == l).map(|x| x.1).collect()).collect()
}

impl Outputs<'_> {
    fn reference_name(&self) -> String {
        self.args.reference.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()
    }

    /// The summary on stdout (a closed pipe ends it quietly, see `main`).
    pub fn print_summary(&self) -> Result<()> {
        let (a, s, ag) = (self.args, self.split, self.agreement);
        let mut out = std::io::stdout().lock();
        let [k1, k2, k3] = self.thresholds.k();
        writeln!(
            out,
            "reference: {} ({} puzzles; fit {}, held out {})",
            a.reference.display(),
            s.items.len(),
            s.fit().len(),
            s.held_out()
        )?;
        writeln!(
            out,
            "method: {:?}; thresholds k1={k1:.2} k2={k2:.2} k3={k3:.2}; level_floor {:?}{}",
            a.method,
            self.thresholds.floor(),
            if a.floor { " (fitted)" } else { " (pure steps)" }
        )?;
        writeln!(out, "level     count   min      median    mean      max")?;
        for (name, mut xs) in self.levels.iter().zip(level_steps(&s.items, self.levels.len())) {
            if xs.is_empty() {
                continue;
            }
            xs.sort_by(f64::total_cmp);
            let mean = xs.iter().sum::<f64>() / xs.len() as f64;
            let (n, lo, med, hi) = (xs.len(), xs[0], super::stats::quantile(&xs, 0.5), xs[xs.len() - 1]);
            writeln!(out, "{name:<8} {n:>6} {lo:>8.1} {med:>9.1} {mean:>9.1} {hi:>9.1}")?;
        }
        writeln!(out, "confusion (held out): level × {}", Grade::ALL.map(|g| g.name()).join(" / "))?;
        for (name, row) in self.levels.iter().zip(&ag.table) {
            writeln!(out, "{name:<8} {}", row.iter().map(|n| format!("{n:>7}")).collect::<String>())?;
        }
        if self.levels.len() < 2 {
            writeln!(out, "one level only (an unlabelled sample): shares per grade, no agreement to measure")?;
        } else {
            let Agreement { gamma, lo, hi, tau, rho, .. } = ag;
            writeln!(
                out,
                "gamma (held out) = {gamma:.4}  [bootstrap 95%: {lo:.4}, {hi:.4}]   tau-b = {tau:.4}   \
                 spearman rho (steps vs level) = {rho:.4}"
            )?;
        }
        Ok(())
    }

    /// `report.md` with plots in `dir`.
    pub fn write_report<K: Kind>(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let (s, ag) = (self.split, self.agreement);
        let (min_steps, max_steps) = s.items.iter().fold((f64::INFINITY, 0.0f64), |(a, b), x| (a.min(x.1), b.max(x.1)));
        let mut per_grade: [Vec<f64>; 4] = Default::default();
        let mut grade_counts = [0u64; 4];
        let mut usage: [Vec<u64>; 4] = std::array::from_fn(|_| vec![0; K::Tech::ALL.len()]);
        for (x, u) in s.items.iter().zip(&s.usages) {
            let g = self.thresholds.grade(x.1, x.2).index();
            per_grade[g].push(x.1);
            grade_counts[g] += 1;
            for (t, &n) in u.iter().enumerate() {
                usage[g][t] += (n > 0) as u64;
            }
        }
        let summary = format!(
            "Reference `{}`: {} puzzles (fit {}, held out {}), method {:?}{}.\n\n\
             Held-out agreement: gamma {:.4} [bootstrap 95%: {:.4}, {:.4}], tau-b {:.4}, \
             Spearman rho (steps vs level) {:.4}.",
            self.reference_name(),
            s.items.len(),
            s.fit().len(),
            s.held_out(),
            self.args.method,
            if self.args.floor { ", hardest-level floor fitted" } else { "" },
            ag.gamma,
            ag.lo,
            ag.hi,
            ag.tau,
            ag.rho,
        );
        let r = Report {
            title: format!("puzzle-factory {} calibration report", K::NAME),
            summary,
            thresholds: self.thresholds,
            histograms: std::array::from_fn(|g| Histogram::of(&per_grade[g], min_steps, max_steps)),
            techniques: K::Tech::ALL.iter().map(|t| t.name().to_string()).collect(),
            grade_counts,
            usage,
            levels: Some((self.levels.to_vec(), level_steps(&s.items, self.levels.len()))),
        };
        report::write(dir, &r)?;
        writeln!(std::io::stdout(), "wrote {}", dir.join("report.md").display())?;
        Ok(())
    }

    /// One CSV row per reference puzzle, in input order: what the fit saw and made of it.
    pub fn write_dump(&self, path: &Path) -> Result<()> {
        let s = self.split;
        let mut order: Vec<usize> = (0..s.items.len()).collect();
        order.sort_by_key(|&i| s.lines[i]);
        let mut w = csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
        w.write_record(["line", "level", "steps", "hardest_level", "grade", "held_out"])?;
        for i in order {
            let (l, st, h) = s.items[i];
            w.write_record([
                s.lines[i].to_string(),
                self.levels[l].clone(),
                format!("{st:.2}"),
                h.to_string(),
                self.thresholds.grade(st, h).name().to_string(),
                ((i < s.n_test) as u8).to_string(),
            ])?;
        }
        w.flush()?;
        Ok(())
    }

    /// The configuration as used, with the fitted thresholds where they take effect: when every
    /// reference puzzle is of one variant with a table of its own, in `[grades.variant.NAME]`;
    /// else when they have the same grid size and the kind grades per size, in
    /// `[grades.size.N]` (the other sizes' tables kept); otherwise in `[grades]` (size tables
    /// kept too).
    pub fn write_config<K: Kind>(&self, cfg: &RunConfig<K::Params>, path: &Path) -> Result<()> {
        let mut table = cfg.table.clone();
        let fitted = threshold_table(&self.thresholds);
        let grades = table.entry("grades").or_insert_with(|| toml::Table::new().into());
        let grades = grades.as_table_mut().context("[grades] is a table")?;
        let one_size =
            self.split.sizes.first().copied().flatten().filter(|&n| self.split.sizes.iter().all(|&m| m == Some(n)));
        let vs = &self.split.variants;
        let one_variant = vs.first().cloned().flatten().filter(|v| vs.iter().all(|w| w.as_ref() == Some(v)));
        let place = match (one_variant, one_size) {
            (Some(v), _) => {
                let variants = grades.entry("variant").or_insert_with(|| toml::Table::new().into());
                variants.as_table_mut().context("[grades.variant] is a table")?.insert(v.clone(), fitted.into());
                format!("[grades.variant.{v}]")
            }
            (None, Some(n)) => {
                let sizes = grades.entry("size").or_insert_with(|| toml::Table::new().into());
                sizes.as_table_mut().context("[grades.size] is a table")?.insert(n.to_string(), fitted.into());
                format!("[grades.size.{n}]")
            }
            (None, None) => {
                for (k, v) in fitted {
                    grades.insert(k, v);
                }
                "[grades]".to_string()
            }
        };
        let ag = self.agreement;
        let header = format!(
            "# Written by `puzzle-factory calibrate --kind {}`: method {:?}, reference {}, fitted thresholds in\n\
             # {place}; gamma on held-out puzzles {:.4} [{:.4}, {:.4}].\n",
            K::NAME,
            self.args.method,
            self.reference_name(),
            ag.gamma,
            ag.lo,
            ag.hi
        );
        let body = toml::to_string_pretty(&table).context("writing the config")?;
        std::fs::write(path, header + &body).with_context(|| format!("writing {}", path.display()))?;
        writeln!(std::io::stdout(), "wrote {} (thresholds in {place})", path.display())?;
        Ok(())
    }
}
