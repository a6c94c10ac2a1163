//! `generate`: the main job. Streams every accepted candidate into the book, counts the rest,
//! and drives the progress bar, all on the main thread in candidate order. The book is written
//! into the output folder's staging folder and committed in one step at the end (`outdir`).

use crate::book::id::IdPrefix;
use crate::book::outdir::OutDir;
use crate::book::report;
use crate::book::{BookWriter, Record, Stats};
use crate::config::RunConfig;
use crate::kinds::Kind;
use crate::pipeline::{batch, Context, Processed};
use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

fn progress(count: u64, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::new(count);
    if quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} {per_sec} ETA {eta} {msg}",
            )
            .expect("valid template"),
        );
    }
    bar
}

pub fn generate<K: Kind>(
    cfg: &RunConfig<K::Params>,
    ids: &IdPrefix,
    count: u64,
    master: u64,
    out: &Path,
    force: bool,
    quiet: bool,
) -> Result<Stats> {
    let started = Instant::now();
    let ctx = Context::<K>::new(master, cfg.params.clone(), cfg.thresholds_for(K::grading_size(&cfg.params)));
    let manifest = json!({
        "program": "puzzle-factory",
        "version": env!("CARGO_PKG_VERSION"),
        "kind": K::NAME,
        "parameters": cfg.params,
        "seed": master,
        "count": count,
        "config": cfg.table,
    });
    let dir = OutDir::open(out, force, &serde_json::to_vec_pretty(&manifest)?)?;
    let mut book = BookWriter::create::<K>(dir.staging())?;
    let mut stats = Stats::new::<K>();
    let bar = progress(count, quiet);
    let mut write_time = Duration::ZERO;
    let prepare = |p: Processed<K>| {
        let record =
            p.outcome.as_ref().ok().map(|acc| (acc.grade, Record::new(&ids.id(master, p.index), master, p.index, acc)));
        (p, record)
    };
    batch::run_ordered(&ctx, 0..count, cfg.run.chunk, prepare, |(p, record)| -> Result<()> {
        stats.add(&p);
        if let Some((grade, record)) = record {
            let t = Instant::now();
            book.write(grade, &record)?;
            write_time += t.elapsed();
        }
        bar.inc(1);
        Ok(())
    })?;
    bar.finish_and_clear();
    let calibration = stats.to_json::<K>(&ctx.thresholds, started.elapsed(), write_time);
    book.finish(&calibration, &manifest)?;
    let summary = format!(
        "Run of {count} candidates, master seed {master}, kind {}: {} accepted; figures in calibration.json.",
        K::NAME,
        stats.accepted()
    );
    let report = report::from_calibration(
        format!("puzzle-factory {} calibration report", K::NAME),
        summary,
        ctx.thresholds,
        &calibration,
    );
    report::write(dir.staging(), &report)?;
    dir.commit()?;
    if !quiet {
        let per_grade: Vec<String> =
            crate::grade::Grade::ALL.iter().map(|g| format!("{} {}", g.name(), stats.count(*g))).collect();
        eprintln!(
            "{} of {count} candidates accepted ({}) in {:.1}s → {}",
            stats.accepted(),
            per_grade.join(", "),
            started.elapsed().as_secs_f64(),
            out.display()
        );
    }
    Ok(stats)
}
