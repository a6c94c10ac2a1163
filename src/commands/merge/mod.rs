//! `merge`: the finished shards of one run (`generate --shard K/N`) into one book.
//!
//! The shards' records are read back in candidate order (a k-way merge by index: shard K holds
//! candidates K, K+N, ...), duplicates across shards are dropped by canonical key (the first in
//! candidate order stays, as in one run), and the books, `puzzles.*` and `calibration.json` are
//! written as one run writes them: the statistics are recomputed from the records, the candidate
//! counts summed from the shards. In count mode the result is byte for byte the single run's
//! (timing fields aside; the manifest also lists the shards merged). With --quota the books take
//! the first puzzles of each grade up to the order, and the rest (the shards' reserves and
//! surplus) go to `overflow.jsonl`. Memory does not grow with the shards' size: one record per
//! shard is held, the keys and step values go to scratch files.
//!
//! The merged book keeps the files the shards keep (`--books`, `--compress`, which they agree
//! on): a shard that keeps CSV only is read from its CSV rows (a row moved to `overflow.jsonl` is
//! rebuilt as its JSON object), one that keeps JSON only from its JSON lines, compressed files
//! decompressed; compressed output ends its frames at the single run's chunk boundaries
//! (`Frames`), so count-mode shards still merge to the single run's bytes. Shards made with
//! `--books none` hold no puzzles (theirs went to a library) and are refused.
//!
//! Before anything is written, every record of every shard is checked (`verify`): its CSV row
//! and JSON object agree, and its solution solves its puzzle. A damaged shard is refused (exit
//! 2) naming the file and line, and no output folder is made.

mod check;
mod read;
mod verify;

use crate::book::calibration::{Calibration, Named, OrderFigures, QuotaFigures, SteeringFigures};
use crate::book::dedup::Dedup;
use crate::book::layout::Layout;
use crate::book::outdir::OutDir;
use crate::book::{report, BookWriter, Record, Stats};
use crate::config::UsageError;
use crate::grade::{Grade, Thresholds};
use crate::kinds::{Kind, KindId, KindVisitor};
use crate::pipeline::batch::next_boundary;
use crate::pipeline::order::Quota;
use anyhow::Result;
use check::ShardDir;
use read::{InRecord, Stream};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Merge the shards in `dirs` into `out`.
pub fn merge(dirs: &[PathBuf], out: &Path, force: bool, quiet: bool) -> Result<ExitCode> {
    struct Go<'a>(Vec<ShardDir>, &'a Path, bool, bool);
    impl KindVisitor for Go<'_> {
        type Output = Result<ExitCode>;
        fn visit<K: Kind>(self) -> Result<ExitCode> {
            merge_kind::<K>(&self.0, self.1, self.2, self.3)
        }
    }
    let shards = check::shards(dirs)?;
    check::out_is_no_shard(out, &shards)?;
    let name = shards[0].manifest["kind"].as_str().unwrap_or_default().to_string();
    let kind = KindId::from_key(&name)
        .ok_or_else(|| UsageError(format!("{}: unknown kind '{name}'", shards[0].dir.display())))?;
    kind.visit(Go(shards, out, force, quiet))
}

/// What the merge counts as it goes, per grade and steering level.
#[derive(Default)]
struct Tally {
    emitted: [u64; 4],
    surplus: [u64; 4],
    made: Vec<[u64; 4]>,
    duplicates: u64,
}

/// A shard's `calibration.json`; missing or unreadable, the shard is refused (exit 2).
fn calibration_of(dir: &Path) -> Result<Calibration> {
    let path = dir.join("calibration.json");
    let refuse = |e: &dyn std::fmt::Display| UsageError(format!("{}: {e}: not a finished shard", path.display()));
    let text = std::fs::read_to_string(&path).map_err(|e| refuse(&e))?;
    Ok(serde_json::from_str(&text).map_err(|e| refuse(&e))?)
}

/// The order in a manifest (`quota`: grade → n), if any.
fn order_of(manifest: &Value) -> Option<Quota> {
    let q = manifest.get("quota")?.as_object()?;
    Some(Quota(Grade::ALL.map(|g| q.get(g.name()).and_then(Value::as_u64).unwrap_or(0))))
}

fn merge_kind<K: Kind>(shards: &[ShardDir], out: &Path, force: bool, quiet: bool) -> Result<ExitCode> {
    let started = Instant::now();
    let cals: Vec<Calibration> = shards.iter().map(|s| calibration_of(&s.dir)).collect::<Result<_>>()?;
    let order = order_of(&shards[0].manifest);
    let marker = serde_json::to_vec_pretty(&json!({
        "program": "puzzle-factory",
        "version": env!("CARGO_PKG_VERSION"),
        "merge": shards.iter().map(|s| s.dir.display().to_string()).collect::<Vec<_>>(),
    }))?;
    if !force {
        let saved = crate::book::outdir::saved_state(out)?;
        if saved.is_some_and(|b| serde_json::from_slice::<Value>(&b).is_ok_and(|v| v.get("merge").is_some())) {
            return Err(UsageError(format!(
                "--out {}: a merge into it was interrupted: run the merge again with --force",
                out.display()
            ))
            .into());
        }
    }
    // The shards agree on the layout (`check::RUN_KEYS`); the merged book keeps the same.
    let layout = Layout::of_manifest(&shards[0].manifest, &shards[0].dir.join("manifest.json").display().to_string())?;
    let frames = Frames::of_run(&shards[0], order)?;
    let paths = shards.iter().map(|s| s.dir.join(layout.name("paths.jsonl")).exists()).collect::<Vec<_>>();
    if paths.iter().any(|&p| p != paths[0]) {
        return Err(UsageError("some shards recorded solution paths (--paths) and others did not".into()).into());
    }
    for s in shards {
        verify::shard::<K>(&s.dir, layout, paths[0])?;
    }
    let dir = OutDir::open(out, force, &marker, false)?;
    let staging = dir.staging().to_path_buf();
    let mut book = BookWriter::create::<K>(&staging, layout, order.is_some(), paths[0])?;
    let expected = cals.iter().map(|c| c.candidates.accepted).sum::<u64>();
    let mut dedup = Dedup::create(&staging, Vec::new(), expected)?;
    let mut stats = Stats::new::<K>().in_dir(&staging);
    for c in &cals {
        stats.add_shard(&c.candidates, &c.time_seconds);
    }
    let mut tally = Tally::default();
    let mut streams = Vec::new();
    for s in shards {
        streams.push(Stream::book(&s.dir, layout)?);
        streams.extend(Stream::overflow(&s.dir, layout)?);
    }
    let write_started = Instant::now();
    let mut merger = Merger {
        order,
        dedup: &mut dedup,
        stats: &mut stats,
        book: &mut book,
        tally: &mut tally,
        frames,
        paths: paths[0],
    };
    merger.merge_records::<K>(&mut streams)?;
    // The run's last chunk boundary, after its last record.
    book.end_frames()?;
    let write = write_started.elapsed();

    let t = &cals[0].thresholds;
    let thresholds = Thresholds::new(t.k1, t.k2, t.k3).and_then(|x| x.with_floor(t.level_floor)).map_err(UsageError)?;
    let mut cal = stats.to_json::<K>(&thresholds, started.elapsed(), write)?;
    cal.thresholds.source = t.source.clone();
    let met = order.is_none_or(|q| (0..4).all(|g| tally.emitted[g] >= q.0[g]));
    cal.order = Some(order_figures(&cals, order, &tally, met));
    let manifest = merged_manifest(shards, &cals);
    book.finish(&cal, &manifest)?;
    drop(dedup);
    let seed = shards[0].manifest["seed"].as_u64().unwrap_or_default();
    report::write_run::<K>(&staging, seed, thresholds, &cal)?;
    let short = !met || cal.order.as_ref().is_some_and(|o| o.stopped == "time limit");
    let mut sealed: Value = serde_json::from_slice(&marker)?;
    sealed["finished"] = json!({ "code": if short { 3 } else { 0 } });
    dir.commit(&serde_json::to_vec_pretty(&sealed)?)?;
    if !quiet {
        summary(shards.len(), &cal, &tally, order, started.elapsed(), out);
    }
    Ok(if short { ExitCode::from(3) } else { ExitCode::SUCCESS })
}

/// Where the single run's chunks end: a merged book's compressed files end their frames there,
/// as the run's do (`book::writer`), so merged shards give the single run's bytes.
struct Frames {
    /// The run's chunk size (`generate::quota_chunk` of its `[run] chunk`, order and levels).
    chunk: u64,
    /// The end of the chunk the records written last belong to.
    end: u64,
}

impl Frames {
    /// The single run's chunks, from a shard's manifest (its configuration as used).
    fn of_run(shard: &ShardDir, order: Option<Quota>) -> Result<Frames> {
        let chunk = shard.manifest["config"]["run"]["chunk"].as_u64().filter(|&c| c > 0).ok_or_else(|| {
            UsageError(format!("{}: the manifest has no config.run.chunk: not a finished shard", shard.dir.display()))
        })?;
        // Levels aimed at the grades: the run planned its steering (`generate::planned`).
        let levels = serde_json::from_value::<[u8; 4]>(shard.manifest["config"]["target"]["levels"].clone());
        let planned = levels.is_ok_and(|l| super::generate::planned(&l));
        let chunk = super::generate::quota_chunk(chunk as usize, order, planned) as u64;
        Ok(Frames { chunk, end: next_boundary(0, chunk) })
    }

    /// Before the record of candidate `index`: end the frames if a chunk boundary lies between
    /// it and the record before.
    fn before(&mut self, index: u64, book: &mut BookWriter) -> Result<()> {
        if index < self.end {
            return Ok(());
        }
        while self.end <= index {
            self.end = next_boundary(self.end, self.chunk);
        }
        book.end_frames()
    }
}

/// Where the merged records go, and what the merge counts of them.
struct Merger<'a> {
    order: Option<Quota>,
    dedup: &'a mut Dedup,
    stats: &'a mut Stats,
    book: &'a mut BookWriter,
    tally: &'a mut Tally,
    frames: Frames,
    /// The shards recorded solution paths.
    paths: bool,
}

impl Merger<'_> {
    /// Every record of every stream, in candidate order, into the book (or overflow).
    fn merge_records<K: Kind>(&mut self, streams: &mut [Stream]) -> Result<()> {
        let mut heads: Vec<Option<InRecord>> = Vec::with_capacity(streams.len());
        for s in streams.iter_mut() {
            heads.push(s.next::<K>()?);
        }
        loop {
            let Some(i) =
                (0..heads.len()).filter(|&i| heads[i].is_some()).min_by_key(|&i| heads[i].as_ref().map(|r| r.index))
            else {
                return Ok(());
            };
            let rec = std::mem::replace(&mut heads[i], streams[i].next::<K>()?).expect("a record");
            self.frames.before(rec.index, self.book)?;
            self.take::<K>(rec)?;
        }
    }

    /// One record in candidate order: dropped as a duplicate, or into the book or overflow.
    fn take<K: Kind>(&mut self, rec: InRecord) -> Result<()> {
        let tally = &mut *self.tally;
        if self.dedup.contains(rec.canonical)? {
            self.stats.add_duplicate();
            tally.duplicates += 1;
            return Ok(());
        }
        self.dedup.insert(rec.canonical)?;
        self.stats.add_record(rec.grade, rec.centi_steps, rec.hardest_level, &rec.usage)?;
        if let Some((_, b, s)) = &rec.path {
            self.stats.add_path(rec.grade, *b, *s);
        }
        let g = rec.grade.index();
        let level = rec.steer as usize;
        if tally.made.len() <= level {
            tally.made.resize(level + 1, [0; 4]);
        }
        tally.made[level][g] += 1;
        let room = self.order.is_none_or(|q| tally.emitted[g] < q.0[g]);
        if rec.book && room {
            let (csv, json) = (rec.csv.unwrap_or_default(), rec.json.unwrap_or_default());
            self.book.write(rec.grade, &Record { csv, json, path: rec.path.map(|p| p.0) })?;
            tally.emitted[g] += 1;
        } else {
            // overflow.jsonl is JSON: a record of a shard that keeps CSV only is rebuilt as one.
            let json = match (rec.json, rec.csv) {
                (Some(json), _) => json,
                (None, Some(row)) => verify::json_of_row::<K>(&row, self.paths)?,
                (None, None) => unreachable!("a record is read in one form at least"),
            };
            self.book.write_overflow(&Record { csv: String::new(), json, path: None })?;
            tally.surplus[g] += 1;
        }
        Ok(())
    }
}

/// calibration.json's `order`: how the shards ended, the quotas as merged, steering summed.
fn order_figures(cals: &[Calibration], order: Option<Quota>, tally: &Tally, met: bool) -> OrderFigures {
    let stopped_by = |what: &str| cals.iter().any(|c| c.order.as_ref().is_some_and(|o| o.stopped == what));
    let stopped = match order {
        _ if stopped_by("time limit") && !(order.is_some() && met) => "time limit",
        None => "done",
        Some(_) if met => "quotas met",
        Some(_) => "count reached",
    };
    let mut tried: Vec<u64> = Vec::new();
    for o in cals.iter().filter_map(|c| c.order.as_ref()) {
        for s in &o.steering {
            let l = s.level as usize;
            if tried.len() <= l {
                tried.resize(l + 1, 0);
            }
            tried[l] += s.tried;
        }
    }
    let levels = tried.len().max(tally.made.len());
    let named = |f: &dyn Fn(usize) -> u64| -> Named<u64> {
        Grade::ALL.iter().map(|g| (g.name().to_string(), f(g.index()))).collect()
    };
    OrderFigures {
        stopped: stopped.into(),
        quota: order.map(|q| {
            Grade::ALL
                .iter()
                .map(|g| {
                    let i = g.index();
                    let (ordered, emitted) = (q.0[i], tally.emitted[i]);
                    let f = QuotaFigures {
                        ordered,
                        emitted,
                        surplus: tally.surplus[i],
                        missing: ordered.saturating_sub(emitted),
                    };
                    (g.name().to_string(), f)
                })
                .collect()
        }),
        excluded_keys: cals[0].order.as_ref().map_or(0, |o| o.excluded_keys),
        steering: (0..levels)
            .map(|l| SteeringFigures {
                level: l as u8,
                tried: tried.get(l).copied().unwrap_or(0),
                made: named(&|g| tally.made.get(l).map_or(0, |m| m[g])),
            })
            .collect(),
    }
}

/// The shards' common manifest, as one run's, with the shards merged listed.
fn merged_manifest(shards: &[ShardDir], cals: &[Calibration]) -> Value {
    let mut m = shards[0].manifest.clone();
    m["shard"] = Value::Null;
    m["merged_shards"] = shards
        .iter()
        .zip(cals)
        .map(|(s, c)| {
            json!({
                "shard": s.shard.to_string(),
                "folder": s.dir.display().to_string(),
                "tried": c.candidates.tried,
                "accepted": c.candidates.accepted,
            })
        })
        .collect();
    m
}

fn summary(n: usize, cal: &Calibration, tally: &Tally, order: Option<Quota>, took: Duration, out: &Path) {
    let per_grade: Vec<String> = Grade::ALL
        .iter()
        .map(|g| match order {
            Some(q) => format!("{} {}/{}", g.name(), tally.emitted[g.index()], q.0[g.index()]),
            None => format!("{} {}", g.name(), tally.emitted[g.index()]),
        })
        .collect();
    eprintln!(
        "merged {n} shards: {} of {} candidates accepted ({}; {} duplicates across shards) in {:.1}s → {}",
        cal.candidates.accepted,
        cal.candidates.tried,
        per_grade.join(", "),
        tally.duplicates,
        took.as_secs_f64(),
        out.display()
    );
}
