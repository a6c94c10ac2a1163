//! `generate`: the main job. Streams every accepted candidate into the book, counts the rest,
//! and drives the progress bar, all on the main thread in candidate order. The book is written
//! into the output folder's staging folder and committed in one step at the end (`outdir`).
//!
//! A run is either N candidates (`--count`) or an order (`--quota`): then it goes until each
//! grade's book holds exactly its quota, in candidate order, or the `--count` cap or the
//! `--time-limit` is reached (exit 3). Duplicates up to the kind's symmetries, within the run or
//! against `--exclude` files, are rejected (`book::dedup`). The run's state is saved at chunk
//! boundaries (`state`), so `--resume` continues it after a kill with the same result as an
//! uninterrupted run; SIGINT and SIGTERM save it, print the resume command and exit 130.
//!
//! Which puzzle files the book keeps, and whether compressed, is the run's `Layout`
//! (`--books`, `--compress`; `book::layout`), recorded in the manifest and checked on resume.
//! `--books none` needs `--library`, which then holds the puzzles (`books_need_library`); the
//! commit adds the book to the library (`add_to_library`).

mod exclude;
mod saver;
mod sink;
pub mod state;

use crate::book::dedup::Dedup;
use crate::book::id::IdPrefix;
use crate::book::layout::{Books, Layout};
use crate::book::outdir::{crash_point, OutDir, Resume};
use crate::book::report;
use crate::book::{BookWriter, Calibration, Record, Stats};
use crate::config::RunConfig;
use crate::config::UsageError;
use crate::grade::Grade;
use crate::kinds::{GradeKey, Kind};
use crate::pipeline::batch::{self, Boundary, Ended};
use crate::pipeline::order::{Quota, Shard};
use crate::pipeline::{Constraint, Context, Processed};
use crate::rate::{Technique, Trace};
use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use sink::{RunSink, Stop};
use state::{Finished, Progress, SavedRun};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Candidates of a run without --count or --quota.
pub const DEFAULT_COUNT: u64 = 1000;

/// What the command line asks of `generate`.
pub struct Request<'a> {
    /// `--count` as given (for a shard too: the run's, not the shard's).
    pub count: Option<u64>,
    pub seed: u64,
    /// What this process fills: the order, or a shard's part of it (`Shard::share`).
    pub quota: Option<Quota>,
    /// The whole order as given.
    pub order: Option<Quota>,
    pub shard: Option<Shard>,
    pub time_limit: Option<Duration>,
    pub out: &'a Path,
    pub force: bool,
    pub exclude: &'a [PathBuf],
    /// `--library`: its puzzles are duplicates, and the commit adds the book to it.
    pub library: Option<&'a str>,
    pub steer: bool,
    pub overflow: bool,
    /// Which puzzle files the book keeps, and how (`--books`, `--compress`).
    pub layout: Layout,
    pub quiet: bool,
    /// The command line as given, saved with the run.
    pub argv: Vec<String>,
    pub techniques: &'a Techniques,
}

/// `--paths` and the technique constraints, as given.
#[derive(Debug, Default)]
pub struct Techniques {
    pub paths: bool,
    pub require: Vec<String>,
    pub forbid: Vec<String>,
    pub max_level: Option<u8>,
    pub teach: Option<String>,
    pub no_shortcut: bool,
    /// Steer generation toward `--require`/`--teach` (off with `--no-steer`).
    pub steer: bool,
}

impl Techniques {
    /// The rating trace and the constraint these ask for (`None`: rate plainly); an unknown
    /// technique name or level is a usage error naming the flag.
    pub fn build<K: Kind>(&self, quota: Option<Quota>) -> Result<(Option<Trace>, Constraint), UsageError> {
        let bit = |flag: &str, name: &str| -> Result<u64, UsageError> {
            crate::rate::technique_mask::<K::Tech>(std::slice::from_ref(&name.to_string()), flag).map_err(UsageError)
        };
        let trial = crate::rate::level_mask::<K::Tech>(|l| l == K::Tech::max_level());
        let mut off = 0u64;
        // What `needed` is judged against: trial and the run's own switched-off techniques,
        // not the ones --teach leaves out.
        let mut need_off = trial;
        for name in &self.forbid {
            off |= bit("forbid", name)?;
        }
        if let Some(l) = self.max_level {
            if !(1..=K::Tech::max_level()).contains(&l) {
                return Err(UsageError(format!("--max-level {l}: levels go from 1 to {}", K::Tech::max_level())));
            }
            off |= crate::rate::level_mask::<K::Tech>(|level| level > l);
        }
        need_off |= off;
        let mut need = 0u64;
        for name in &self.require {
            need |= bit("require", name)?;
        }
        if let Some(name) = &self.teach {
            let t = bit("teach", name)?;
            let basic = crate::rate::mask_where::<K::Tech>(|u| u.basic());
            if t & basic != 0 || t & trial != 0 {
                let names: Vec<&str> = K::Tech::ALL.iter().filter(|u| u.basic()).map(|u| u.name()).collect();
                return Err(UsageError(format!(
                    "--teach {name}: choose a technique beyond the basic ones ({}), not trial",
                    names.join(", ")
                )));
            }
            off |= !(basic | t) & ((1u64 << K::Tech::ALL.len()) - 1);
            need |= t;
        }
        if need & off != 0 {
            return Err(UsageError("--require names a technique that --forbid or --max-level switches off".into()));
        }
        let no_shortcut = if self.no_shortcut {
            match quota {
                Some(q) => Grade::ALL.into_iter().filter(|g| q.0[g.index()] > 0).collect(),
                None => Grade::ALL.to_vec(),
            }
        } else {
            Vec::new()
        };
        // Steering (--teach): clue removal while singles and the taught technique still solve
        // the puzzle. --require only filters: a two-stage removal (first without the required
        // technique, then with it) took more candidates per accepted puzzle than filtering
        // (X-wing 833 against 588, XY-wing 113 against 59; scripts/technique-constraints.sh).
        let steer_off = if self.steer && self.teach.is_some() { vec![off | trial] } else { Vec::new() };
        let constraint = Constraint { require: need, need_off, no_shortcut, steer_off };
        let trace = (self.paths || off != 0 || self.no_shortcut).then(|| Trace {
            off,
            path: self.paths.then(Vec::new),
            want_shortcut: self.paths || self.no_shortcut,
            ..Trace::default()
        });
        Ok((trace, constraint))
    }
}

impl Request<'_> {
    /// The run's candidates in count mode, or its cap with --quota.
    fn run_count(&self) -> u64 {
        match (self.quota, self.count) {
            (None, c) => c.unwrap_or(DEFAULT_COUNT),
            (Some(_), c) => c.unwrap_or(u64::MAX),
        }
    }

    /// The last position + 1 in this process's sequence of candidates (a shard's own).
    fn end(&self) -> u64 {
        match (self.shard, self.run_count()) {
            (Some(s), u64::MAX) => u64::MAX / s.n,
            (Some(s), c) => s.local_count(c),
            (None, c) => c,
        }
    }

    /// The most puzzles the run can emit (to size the duplicate filter).
    fn most_emitted(&self) -> u64 {
        self.quota.map_or(self.end(), |q| q.total())
    }
}

fn progress_bar(req: &Request) -> ProgressBar {
    let len = req.quota.map_or(req.end(), |q| q.total());
    let bar = ProgressBar::new(len);
    if req.quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        let template = if req.quota.is_some() {
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} puzzles ETA {eta} {msg}"
        } else {
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} {per_sec} ETA {eta} {msg}"
        };
        bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
    }
    bar
}

fn manifest<K: Kind>(
    cfg: &RunConfig<K::Params>,
    req: &Request,
    excluded: &[(String, u64)],
    library: Option<u64>,
) -> serde_json::Value {
    let quota = req.order.map(|q| {
        let m: serde_json::Map<String, serde_json::Value> =
            Grade::ALL.iter().map(|g| (g.name().to_string(), q.0[g.index()].into())).collect();
        m
    });
    let mut m = json!({
        "program": "puzzle-factory",
        "version": env!("CARGO_PKG_VERSION"),
        "kind": K::KEY,
        "parameters": cfg.params,
        "seed": req.seed,
        "count": if req.quota.is_some() { req.count.map(serde_json::Value::from).unwrap_or_default() } else { req.run_count().into() },
        "quota": quota,
        "steering": req.quota.is_some() && req.steer,
        "overflow": req.overflow,
        "exclude": excluded.iter().map(|(f, n)| json!({"file": f, "puzzles": n})).collect::<Vec<_>>(),
        "config": cfg.table,
        "shard": req.shard,
        "merged_shards": serde_json::Value::Null,
    });
    if let Some(m) = m.as_object_mut() {
        req.layout.add_to(m);
    }
    // Only with --library, so that other runs' manifests stay as they were.
    if let (Some(spec), Some(n)) = (req.library, library) {
        m["library"] = json!({"library": crate::library::redact(spec), "puzzles": n});
    }
    m
}

/// `generate --library`: the canonical keys the library holds for this kind and board (they
/// count as duplicates, as `--exclude`'s do); the library is made if there is none.
fn library_keys<K: Kind>(spec: &str, params: &K::Params) -> Result<Vec<u128>> {
    let mut lib = crate::library::Library::open(spec, true)?;
    lib.keys(K::KEY, &K::shape(params))
}

/// The commit's step for `--library`: the sealed book's puzzles into the library, in one
/// transaction (again after a kill: those already there are not added twice).
fn add_to_library(spec: Option<&str>, staging: &Path) -> Result<()> {
    // No records left (a `--books none` run killed while its scratch files were being removed,
    // which starts only once the library has them): nothing to add.
    let Some(spec) = spec.filter(|_| crate::library::import::records_file(staging).is_ok()) else { return Ok(()) };
    let mut lib = crate::library::Library::open(spec, true)?;
    lib.bulk()?;
    lib.import(&[staging.to_path_buf()], |_| {})?;
    Ok(())
}

/// Ctrl-C and SIGTERM set the flag (the run saves at the next chunk boundary and exits 130);
/// a second one ends the process at once, exit 130 (the last saved state still resumes).
fn signals() -> Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register_conditional_shutdown(sig, 130, Arc::clone(&flag))?;
        signal_hook::flag::register(sig, Arc::clone(&flag))?;
    }
    Ok(flag)
}

/// A fresh run: read the exclude files, take the folder, create every file, save the state.
fn start<'a, K: Kind>(
    cfg: &RunConfig<K::Params>,
    req: &Request,
    dir_slot: &'a mut Option<OutDir>,
) -> Result<RunSink<'a, K>> {
    let (mut keys, per_file) = exclude::read::<K>(req.exclude, &cfg.params)?;
    let known = match req.library {
        Some(spec) => {
            let k = library_keys::<K>(spec, &cfg.params)?;
            let n = k.len() as u64;
            keys.extend(k);
            Some(n)
        }
        None => None,
    };
    let saved = SavedRun {
        program: "puzzle-factory".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        argv: req.argv.clone(),
        config: toml::to_string(&cfg.table)?,
        manifest: manifest::<K>(cfg, req, &per_file, known),
        progress: None,
        finished: None,
        library: req.library.map(str::to_string),
    };
    let dir = dir_slot.insert(OutDir::open(req.out, req.force, &serde_json::to_vec_pretty(&saved)?, true)?);
    let book = BookWriter::create::<K>(dir.staging(), req.layout, req.overflow, req.techniques.paths)?;
    let dedup = Dedup::create(dir.staging(), keys, req.most_emitted())?;
    let state = State { book, dedup, stats: Stats::new::<K>().in_dir(dir.staging()), progress: Progress::default() };
    let mut sink = new_sink::<K>(dir, saved, state, req, cfg)?;
    sink.save(Boundary { next: 0, steer: 0 }, true)?;
    Ok(sink)
}

/// A saved run: reopen its files at their saved lengths and restore the counts.
fn reopen<'a, K: Kind>(
    cfg: &RunConfig<K::Params>,
    dir: &'a OutDir,
    saved: SavedRun,
    req: &Request,
) -> Result<RunSink<'a, K>> {
    let progress = saved.progress.clone().expect("a started run");
    let recorded = Layout::of_manifest(&saved.manifest, &format!("--out {}: the saved run", req.out.display()))?;
    if recorded != req.layout {
        return Err(UsageError(format!(
            "--out {}: the saved run keeps --books {} --compress {}, not {} {}: leave them out to resume, or --force \
             to start over",
            req.out.display(),
            recorded.books.name(),
            recorded.compress.name(),
            req.layout.books.name(),
            req.layout.compress.name()
        ))
        .into());
    }
    let book = BookWriter::reopen(dir.staging(), req.layout, &progress.files, progress.emitted)?;
    let dedup = Dedup::resume(dir.staging(), progress.keys, req.most_emitted())?;
    let mut stats: Stats = serde_json::from_value(progress.stats.clone())?;
    stats.load_steps(dir.staging(), progress.steps)?;
    new_sink::<K>(dir, saved, State { book, dedup, stats, progress }, req, cfg)
}

/// What a run carries from chunk to chunk: its open files, keys, statistics and counts.
struct State {
    book: BookWriter,
    dedup: Dedup,
    stats: Stats,
    progress: Progress,
}

fn new_sink<'a, K: Kind>(
    dir: &'a OutDir,
    saved: SavedRun,
    state: State,
    req: &Request,
    cfg: &RunConfig<K::Params>,
) -> Result<RunSink<'a, K>> {
    let run = &cfg.run;
    let State { book, dedup, stats, progress } = state;
    // The limit is the run's, over all its sessions.
    let deadline = req.time_limit.map(|t| Instant::now() + t.saturating_sub(Duration::from_secs_f64(progress.seconds)));
    let bar = progress_bar(req);
    bar.set_position(if req.quota.is_some() { progress.emitted.iter().sum() } else { progress.next });
    Ok(RunSink {
        dir,
        earlier: Duration::from_secs_f64(progress.seconds),
        write_time: Duration::from_secs_f64(progress.write_seconds),
        saved,
        book,
        dedup,
        stats,
        quota: req.quota,
        steering: req.steer,
        progress,
        bar,
        deadline,
        signal: signals()?,
        stop: None,
        started: Instant::now(),
        last_save: Instant::now(),
        save_every: Duration::from_secs_f64(run.save_every),
        saver: saver::Saver::new()?,
        chunk: quota_chunk(run.chunk, req.quota, planned(&cfg.target.levels)) as u64,
        steer_levels: K::steer_levels(&cfg.params),
        aimed: cfg.target.levels,
        mix: cfg.target_for(GradeKey::of_run::<K>(&cfg.params).size).mix,
        _kind: std::marker::PhantomData,
    })
}

/// The chunk size of a run: `[run] chunk`, or for a quota run at most a quarter of the order
/// (a sixteenth when the run plans its steering: `planned`), rounded up to a power of two, at
/// least `MIN_CHUNK`. The chunk in which the order fills
/// has been computed in full by then, so up to a chunk of candidates is made for nothing: with
/// chunks of 2,048, an order of 100 hard jigsaw 9 puzzles (590 candidates) computed 1,024 and
/// took 1.23 s instead of 0.69. Every candidate makes at most one puzzle, so the loss stays
/// under a quarter of the work. A function of the run's settings, so a resumed run sees the
/// same chunks.
pub fn quota_chunk(chunk: usize, quota: Option<crate::pipeline::order::Quota>, planned: bool) -> usize {
    let part = if planned { 16 } else { 4 };
    match quota {
        Some(q) => chunk.min((q.total() / part).next_power_of_two().max(batch::MIN_CHUNK) as usize),
        None => chunk,
    }
}

/// Whether a quota run plans each chunk's steering level (`sink::aimed_level`): the kind has
/// levels aimed at the grades (`[target] levels`, KenKen). Such a run takes at most a sixteenth
/// of its order a chunk, so the plan follows what is left closely: 100 per grade at 9×9 (seeds 1
/// to 8, one thread) took 461 candidates instead of 529 with a quarter, at 6×6 462 instead of 475.
pub fn planned(levels: &[u8; 4]) -> bool {
    levels.iter().any(|&l| l > 0)
}

/// `--books none` keeps no puzzle file in the book: a run's records then reach only the
/// library that `--library` names (taken in from the scratch file `layout::RECORDS` at the
/// run's commit), so without one it would throw its puzzles away. `--books csv` keeps no JSON
/// record for the library to take in, so it does not go with `--library`.
pub fn books_need_library(books: Books, library: Option<&str>) -> Result<(), UsageError> {
    match (books, library) {
        (Books::None, None) => Err(UsageError(
            "--books none keeps no puzzles: it needs --library FILE to keep them in; to keep fewer files, use --books \
             csv or --books json (and --compress zstd)"
                .into(),
        )),
        (Books::Csv, Some(_)) => Err(UsageError(
            "--books csv keeps no JSON records for --library to take in: use --books json, all or none with a \
             library (`library query --out` writes a book folder when you need one)"
                .into(),
        )),
        _ => Ok(()),
    }
}

/// What `--books` and `--compress` cannot go with: `none` writes no puzzle file, so there is
/// nothing to compress, and no `paths.jsonl` (`--paths`) or `overflow.jsonl` (`--overflow`).
pub fn check_layout(layout: Layout, paths: bool, overflow: bool) -> Result<(), UsageError> {
    if layout.books != Books::None {
        return Ok(());
    }
    let why = match (layout.compressed(), paths, overflow) {
        (true, _, _) => "--compress zstd has nothing to compress: --books none keeps no puzzle file",
        (_, true, _) => "--paths writes paths.jsonl, a puzzle file, and --books none keeps none: leave one out",
        (_, _, true) => "--overflow writes overflow.jsonl, a puzzle file, and --books none keeps none: leave one out",
        _ => return Ok(()),
    };
    Err(UsageError(why.into()))
}

/// Run `generate`, fresh or resumed (`resumed`: the folder and its saved run).
pub fn generate<K: Kind>(
    cfg: &RunConfig<K::Params>,
    ids: &IdPrefix,
    req: &Request,
    resumed: Option<(OutDir, SavedRun)>,
) -> Result<ExitCode> {
    let key = GradeKey::of_run::<K>(&cfg.params);
    let mut ctx = Context::<K>::new(req.seed, cfg.params.clone(), cfg.thresholds_for(&key))
        .with_target(cfg.target_for_run(key.size, req.order.is_some()));
    ctx.shard = req.shard;
    (ctx.trace, ctx.constraint) = req.techniques.build::<K>(req.order)?;
    let mut slot = None;
    let mut sink = match &resumed {
        Some((dir, saved)) => reopen::<K>(cfg, dir, saved.clone(), req)?,
        None => start::<K>(cfg, req, &mut slot)?,
    };
    let master = req.seed;
    let prepare = |p: Processed<K>| {
        let record = p
            .outcome
            .as_ref()
            .ok()
            .map(|acc| (acc.grade, Record::new(&ids.id(master, p.index), master, p.index, p.steer, acc)));
        (p, record)
    };
    let from = Boundary { next: sink.progress.next, steer: sink.progress.steer };
    let shown = req.out.display();
    let saved_note = || format!("the run is saved: `puzzle-factory generate --resume --out {shown}` continues it");
    let ended = batch::run_chunks(&ctx, from, req.end(), sink.chunk as usize, prepare, &mut sink)
        .map_err(|e| noted(e, saved_note()))?;
    sink.bar.finish_and_clear();
    sink.saver.wait()?;
    if let Ended::Stopped(at) = ended {
        if sink.stop == Some(Stop::Interrupted) {
            eprintln!(
                "interrupted at candidate {}: the run is saved; continue it with\n  puzzle-factory generate --resume --out {}",
                at.next,
                req.out.display()
            );
            drop(sink);
            let dir = resumed.map(|(d, _)| d).or(slot).expect("an open folder");
            dir.keep();
            return Ok(ExitCode::from(130));
        }
    }
    let (mut calibration, code) = finish(&ctx, &mut sink, req)?;
    calibration.thresholds.source = Some(cfg.thresholds_source(&key));
    summary::<K>(&sink, req, &calibration);
    let RunSink { book, dedup, mut saved, .. } = sink;
    let staging = resumed.as_ref().map(|(d, _)| d).or(slot.as_ref()).expect("an open folder").staging().to_path_buf();
    drop(dedup);
    book.finish(&calibration, &saved.manifest).map_err(|e| noted(e, saved_note()))?;
    crash_point("books-closed");
    report::write_run::<K>(&staging, req.seed, ctx.thresholds, &calibration).map_err(|e| noted(e, saved_note()))?;
    crash_point("report-written");
    saved.finished = Some(Finished { code: if code == ExitCode::SUCCESS { 0 } else { 3 } });
    let dir = resumed.map(|(d, _)| d).or(slot).expect("an open folder");
    let library = saved.library.clone();
    dir.commit_with(&serde_json::to_vec_pretty(&saved)?, |staging| add_to_library(library.as_deref(), staging))
        .map_err(|e| {
            let note = format!(
            "the new book is complete but not yet in place: `puzzle-factory generate --resume --out {shown}` moves it \
             there"
        );
            noted(e, note)
        })?;
    Ok(code)
}

/// `e` followed by a note on a line of its own (what is saved, how to go on), of the same kind
/// (a usage error stays one).
fn noted(e: anyhow::Error, note: String) -> anyhow::Error {
    let text = format!("{e:#}\n{note}");
    match e.downcast_ref::<UsageError>() {
        Some(_) => UsageError(text).into(),
        None => anyhow::anyhow!(text),
    }
}

/// `--resume` of a sealed run: its book is complete; move it into place and exit as the run
/// would have.
pub fn complete(dir: OutDir, saved: &SavedRun, out: &Path, quiet: bool) -> Result<ExitCode> {
    let code = saved.finished.as_ref().map_or(0, |f| f.code);
    dir.complete_with(|staging| add_to_library(saved.library.as_deref(), staging))?;
    if !quiet {
        eprintln!("--out {}: the run had finished its book; it is now in place", out.display());
    }
    Ok(ExitCode::from(code))
}

/// calibration.json's contents and the exit code (3 when stopped short of the quotas).
fn finish<K: Kind>(ctx: &Context<K>, sink: &mut RunSink<K>, req: &Request) -> Result<(Calibration, ExitCode)> {
    let wall = sink.earlier + sink.started.elapsed();
    let mut cal = sink.stats.to_json::<K>(&ctx.thresholds, wall, sink.write_time)?;
    let met = sink.quota.is_none_or(|q| (0..4).all(|g| sink.progress.emitted[g] >= q.0[g]));
    let stopped = match sink.stop {
        Some(Stop::TimeLimit) => "time limit",
        _ if req.quota.is_none() => "done",
        _ if met => "quotas met",
        _ => "count reached",
    };
    let quota = req.quota.map(|q| {
        Grade::ALL
            .iter()
            .map(|g| {
                let i = g.index();
                let e = sink.progress.emitted[i];
                let f = crate::book::calibration::QuotaFigures {
                    ordered: q.0[i],
                    emitted: e,
                    surplus: sink.progress.surplus[i],
                    missing: q.0[i].saturating_sub(e),
                };
                (g.name().to_string(), f)
            })
            .collect()
    });
    cal.order = Some(crate::book::calibration::OrderFigures {
        stopped: stopped.into(),
        quota,
        excluded_keys: sink.dedup.excluded() as u64,
        steering: (0..sink.progress.steering_levels.len())
            .map(|l| crate::book::calibration::SteeringFigures {
                level: l as u8,
                tried: sink.progress.steering_levels[l],
                made: Grade::ALL
                    .iter()
                    .map(|g| {
                        let made = sink.progress.made.get(l).map_or(0, |m| m[g.index()]);
                        (g.name().to_string(), made)
                    })
                    .collect(),
            })
            .collect(),
    });
    let short = !met || sink.stop == Some(Stop::TimeLimit) && req.quota.is_none();
    Ok((cal, if short { ExitCode::from(3) } else { ExitCode::SUCCESS }))
}

fn summary<K: Kind>(sink: &RunSink<K>, req: &Request, cal: &Calibration) {
    if req.quiet {
        return;
    }
    let per_grade: Vec<String> = Grade::ALL
        .iter()
        .map(|g| match req.quota {
            Some(q) => format!("{} {}/{}", g.name(), sink.progress.emitted[g.index()], q.0[g.index()]),
            None => format!("{} {}", g.name(), sink.progress.emitted[g.index()]),
        })
        .collect();
    let order = cal.order.as_ref().map_or("", |o| o.stopped.as_str());
    eprintln!(
        "{} of {} candidates accepted ({}; {order}) in {:.1}s → {}",
        cal.candidates.accepted,
        cal.candidates.tried,
        per_grade.join(", "),
        cal.time_seconds.wall,
        req.out.display()
    );
    if let Some(q) = req.quota {
        let made: Vec<u64> = (0..4).map(|i| sink.progress.emitted[i] + sink.progress.surplus[i]).collect();
        for line in missing_grades(&q.0, &made, cal.candidates.tried, cal.time_seconds.wall) {
            eprintln!("  {line}");
        }
    }
}

/// For a quota run that stopped short: one line per grade still missing puzzles, saying whether
/// more time would fill it (at the rate this run made it) or whether the grade looks out of
/// reach of these settings (none in `tried` candidates: its share is below 3/tried, the
/// 95 % bound of the rule of three; out of reach when that bound is under 0.1 %).
fn missing_grades(quota: &[u64; 4], made: &[u64], tried: u64, seconds: f64) -> Vec<String> {
    Grade::ALL
        .iter()
        .filter(|g| made[g.index()] < quota[g.index()])
        .map(|g| {
            let (m, q) = (made[g.index()], quota[g.index()]);
            if tried == 0 {
                format!("{}: no candidate finished; give the run more time", g.name())
            } else if m == 0 {
                let bound = 3.0 / tried as f64;
                let verdict = if bound < 1e-3 {
                    "not reachable in practice with these settings"
                } else {
                    "more time may fill it, or other settings"
                };
                format!("{}: none of {tried} candidates; its share is below {bound:.2e} (95%): {verdict}", g.name())
            } else {
                let more = seconds / m as f64 * (q - m) as f64;
                format!("{}: {m} of {q}; at this run's rate about {more:.0} s more would fill it", g.name())
            }
        })
        .collect()
}

/// `--resume`: the run saved for `out`, or what to do instead.
pub enum Resumable {
    /// An unfinished run to continue.
    Run(OutDir, Box<SavedRun>),
    /// A sealed run: its book is complete, its commit to be completed (`complete`).
    Sealed(OutDir, Box<SavedRun>),
    /// DIR holds a finished book and nothing to resume.
    Finished,
    /// A run saved before its files existed: start it again with its saved flags.
    Restart,
    /// Nothing saved.
    Nothing,
}

pub fn find_resumable(out: &Path) -> Result<Resumable> {
    Ok(match OutDir::resume(out)? {
        Resume::Unfinished(dir, bytes) => {
            let saved = SavedRun::from_bytes(&bytes, &format!("--out {}", out.display()))?;
            if saved.finished.is_some() {
                Resumable::Sealed(dir, Box::new(saved))
            } else if saved.progress.is_none() {
                // Killed before its files existed: nothing to continue.
                dir.discard()?;
                Resumable::Restart
            } else {
                Resumable::Run(dir, Box::new(saved))
            }
        }
        Resume::Finished => Resumable::Finished,
        Resume::Nothing => Resumable::Nothing,
    })
}

#[cfg(test)]
mod missing_tests {
    #[test]
    fn missing_grades_say_reachable_or_not() {
        let lines = super::missing_grades(&[5, 5, 5, 0], &[5, 0, 2, 9], 1000, 10.0);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("medium: none of 1000") && lines[0].contains("3.00e-3"), "{lines:?}");
        assert!(lines[0].ends_with("more time may fill it, or other settings"), "{lines:?}");
        assert_eq!(lines[1], "hard: 2 of 5; at this run's rate about 15 s more would fill it");
        let lines = super::missing_grades(&[0, 5, 0, 0], &[0, 0, 0, 0], 100_000, 10.0);
        assert!(lines[0].ends_with("not reachable in practice with these settings"), "{lines:?}");
        let lines = super::missing_grades(&[0, 0, 0, 1], &[0, 0, 0, 0], 0, 1.0);
        assert_eq!(lines, ["expert: no candidate finished; give the run more time"]);
    }
}

#[cfg(test)]
mod chunk_tests {
    use crate::pipeline::order::Quota;

    #[test]
    fn quota_runs_take_chunks_of_at_most_a_quarter_of_the_order_or_a_sixteenth_when_planned() {
        let q = |n: u64| Some(Quota([n, 0, 0, n]));
        assert_eq!(super::quota_chunk(2048, q(50), false), 32, "25 rounds up to 32");
        assert_eq!(super::quota_chunk(2048, q(500), false), 256);
        assert_eq!(super::quota_chunk(2048, q(1), false), 32, "never under MIN_CHUNK");
        assert_eq!(super::quota_chunk(2048, q(100_000), false), 2048, "never over [run] chunk");
        assert_eq!(super::quota_chunk(100, q(100_000), false), 100);
        assert_eq!(super::quota_chunk(2048, None, false), 2048, "count runs keep [run] chunk");
        // Planned steering (levels aimed at the grades): a sixteenth.
        assert!(super::planned(&[1, 2, 3, 4]) && !super::planned(&[0; 4]));
        assert_eq!(super::quota_chunk(256, Some(Quota([100; 4])), true), 32, "400 / 16 = 25 rounds up to 32");
        assert_eq!(super::quota_chunk(256, Some(Quota([1000; 4])), true), 256, "4000 / 16 = 250: 256");
        assert_eq!(super::quota_chunk(2048, q(500), true), 64);
        assert_eq!(super::quota_chunk(2048, None, true), 2048);
    }
}
