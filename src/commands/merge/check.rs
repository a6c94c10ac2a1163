//! Which folders `merge` takes: the finished shards of one run, each K of N exactly once.
//! Anything else is refused (exit 2) with a message naming the folder and what is wrong.

use crate::book::layout::{Books, Layout};
use crate::book::outdir::{resolve, saved_state};
use crate::config::UsageError;
use crate::pipeline::order::Shard;
use anyhow::Result;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The manifest keys that define a run: shards of one run agree on all of them (and on N).
pub const RUN_KEYS: [&str; 13] = [
    "program",
    "version",
    "kind",
    "parameters",
    "seed",
    "count",
    "quota",
    "steering",
    "overflow",
    "exclude",
    "config",
    "books",
    "compress",
];

/// One finished shard.
pub struct ShardDir {
    pub dir: PathBuf,
    pub manifest: Value,
    pub shard: Shard,
}

fn refuse(msg: String) -> anyhow::Error {
    UsageError(msg).into()
}

/// Read and check one folder: a finished book made with `--shard`.
fn read_shard(dir: &Path) -> Result<ShardDir> {
    let shown = dir.display();
    if saved_state(dir)?.is_some() {
        return Err(refuse(format!(
            "{shown}: this shard is unfinished (a run is saved for it): finish it with `generate --resume --out \
             {shown}`, then merge"
        )));
    }
    if !dir.is_dir() {
        return Err(refuse(format!("{shown}: no such folder (not a finished shard)")));
    }
    let path = dir.join("manifest.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| refuse(format!("{shown}: no finished book here ({}: {e})", path.display())))?;
    let manifest: Value = serde_json::from_str(&text)
        .map_err(|e| refuse(format!("{}: not a manifest of puzzle-factory ({e})", path.display())))?;
    if manifest.get("program").and_then(Value::as_str) != Some("puzzle-factory") {
        return Err(refuse(format!("{}: not a manifest of puzzle-factory", path.display())));
    }
    if !manifest.get("merged_shards").is_none_or(Value::is_null) {
        return Err(refuse(format!("{shown}: this is a merged book, not a shard")));
    }
    if Layout::of_manifest(&manifest, &path.display().to_string())?.books == Books::None {
        return Err(refuse(format!(
            "{shown}: this shard was made with --books none: its puzzles are in the library it was made for, not \
             in the folder, so there is nothing to merge (the library holds the whole run)"
        )));
    }
    let shard: Shard = match manifest.get("shard") {
        Some(v) if !v.is_null() => serde_json::from_value(v.clone())
            .map_err(|e| refuse(format!("{}: shard {v} cannot be read ({e})", path.display())))?,
        _ => return Err(refuse(format!("{shown}: not a shard (made without --shard)"))),
    };
    Ok(ShardDir { dir: dir.to_path_buf(), manifest, shard })
}

/// The shards in `dirs`, checked and ordered by K.
pub fn shards(dirs: &[PathBuf]) -> Result<Vec<ShardDir>> {
    let mut shards = Vec::new();
    for d in dirs {
        shards.push(read_shard(d)?);
    }
    let first = &shards[0];
    for s in &shards[1..] {
        for key in RUN_KEYS {
            let (a, b) = (&first.manifest[key], &s.manifest[key]);
            if a != b {
                return Err(refuse(format!(
                    "{}: {key} {} differs from {} ({}): not shards of one run",
                    s.dir.display(),
                    short(b),
                    first.dir.display(),
                    short(a)
                )));
            }
        }
        if s.shard.n != first.shard.n {
            return Err(refuse(format!(
                "{}: shard {} is one of {}, {} is one of {}: not shards of one run",
                s.dir.display(),
                s.shard,
                s.shard.n,
                first.dir.display(),
                first.shard.n
            )));
        }
    }
    shards.sort_by_key(|s| s.shard.k);
    for w in shards.windows(2) {
        if w[0].shard.k == w[1].shard.k {
            return Err(refuse(format!(
                "shard {} is given twice: {} and {}",
                w[0].shard,
                w[0].dir.display(),
                w[1].dir.display()
            )));
        }
    }
    let n = shards[0].shard.n;
    let missing: Vec<String> =
        (0..n).filter(|k| !shards.iter().any(|s| s.shard.k == *k)).map(|k| k.to_string()).collect();
    if !missing.is_empty() {
        return Err(refuse(format!(
            "shards missing: K = {} of N = {n} (given {} of {n})",
            missing.join(", "),
            shards.len()
        )));
    }
    Ok(shards)
}

/// `--out` must not be one of the shards (the merged book would replace it).
pub fn out_is_no_shard(out: &Path, shards: &[ShardDir]) -> Result<()> {
    let target = resolve(out)?.0;
    let mut found = None;
    for s in shards {
        if resolve(&s.dir)?.0 == target {
            found = Some(s);
        }
    }
    match found {
        Some(s) => Err(refuse(format!(
            "--out {} is the shard {} itself: choose another folder for the merged book",
            out.display(),
            s.shard
        ))),
        None => Ok(()),
    }
}

/// A manifest value for a message: its JSON, cut short.
fn short(v: &Value) -> String {
    let t = v.to_string();
    if t.chars().count() > 80 {
        format!("{}…", t.chars().take(80).collect::<String>())
    } else {
        t
    }
}
