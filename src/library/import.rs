//! Puzzles into the library: a book folder's records, each a row of `puzzles`, all of a call in
//! one transaction (whole or absent, whatever kills the process). A puzzle whose canonical key
//! the library already holds for its kind and shape is not added again.

use super::db::Val;
use super::Library;
use crate::config::UsageError;
use anyhow::{Context as _, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The fields of a book record the library keeps apart from the record itself.
#[derive(Deserialize)]
struct Fields<'a> {
    #[serde(borrow)]
    id: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    kind: std::borrow::Cow<'a, str>,
    seed: u64,
    index: u64,
    #[serde(borrow)]
    grade: std::borrow::Cow<'a, str>,
    steps: f64,
    hardest_level: i64,
    #[serde(borrow)]
    canonical: std::borrow::Cow<'a, str>,
    #[serde(default)]
    techniques: serde_json::Map<String, serde_json::Value>,
}

/// One puzzle as the library stores it.
pub struct Row {
    pub kind: String,
    pub shape: String,
    pub params: String,
    pub canonical: String,
    pub puzzle_id: String,
    pub grade: String,
    pub steps: f64,
    pub hardest: i64,
    pub techniques: String,
    pub record: String,
    pub run: String,
    pub seed: u64,
    pub index: u64,
}

/// The shape part of a puzzle id: `<kind>-<shape>[.<hash>]-<seed>-<index>` gives `<shape>`.
pub fn shape_of(id: &str, kind: &str, seed: u64, index: u64) -> Option<String> {
    let rest = id.strip_prefix(kind)?.strip_prefix('-')?;
    let rest = rest.strip_suffix(&format!("-{seed}-{index}"))?;
    let shape = rest.split('.').next()?;
    (!shape.is_empty()).then(|| shape.to_string())
}

/// A record line of a book of kind `book_kind` (the manifest's) with parameters `params`.
pub fn row(line: &str, book_kind: &str, params: &str) -> Result<Row, String> {
    let f: Fields = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let shape = shape_of(&f.id, &f.kind, f.seed, f.index)
        .ok_or_else(|| format!("id \"{}\" is not <kind>-<shape>-<seed>-<index>", f.id))?;
    if crate::grade::Grade::from_name(&f.grade).is_none() {
        return Err(format!("grade \"{}\" is none of easy, medium, hard, expert", f.grade));
    }
    if f.canonical.is_empty() {
        return Err("no canonical key".into());
    }
    let mut techniques = String::from(" ");
    for (name, n) in &f.techniques {
        if n.as_u64().unwrap_or(0) > 0 {
            techniques.push_str(name);
            techniques.push(' ');
        }
    }
    let run = f.id.strip_suffix(&format!("-{}", f.index)).unwrap_or(&f.id).to_string();
    Ok(Row {
        kind: book_kind.to_string(),
        shape,
        params: params.to_string(),
        canonical: f.canonical.into_owned(),
        puzzle_id: f.id.into_owned(),
        grade: f.grade.into_owned(),
        steps: f.steps,
        hardest: f.hardest_level,
        techniques,
        record: line.to_string(),
        run,
        seed: f.seed,
        index: f.index,
    })
}

const INSERT: &str = "INSERT INTO puzzles (kind, shape, params, canonical, puzzle_id, grade, steps, hardest, \
                      techniques, record, run, seed, idx, added) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, \
                      ?11, ?12, ?13, ?14) ON CONFLICT DO NOTHING";

/// What an import did.
#[derive(Default, Debug, Clone, Copy)]
pub struct Added {
    /// Records read.
    pub read: u64,
    /// New puzzles.
    pub added: u64,
}

/// A book folder's kind (the manifest's) and parameters (compact JSON).
pub fn folder_kind(dir: &Path) -> Result<(String, String)> {
    let path = dir.join("manifest.json");
    let bytes = std::fs::read(&path).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    let m: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    let kind = m["kind"]
        .as_str()
        .filter(|k| !k.is_empty())
        .ok_or_else(|| UsageError(format!("{}: no kind", path.display())))?
        .to_string();
    Ok((kind, m["parameters"].to_string()))
}

/// The records file of a book folder.
pub fn records_file(dir: &Path) -> Result<PathBuf> {
    for name in ["puzzles.jsonl", ".records.jsonl"] {
        let p = dir.join(name);
        if p.is_file() {
            return Ok(p);
        }
    }
    Err(UsageError(format!("{}: no puzzles.jsonl: not a book folder", dir.display())).into())
}

/// Rows per statement batch (one transaction holds them all).
const BATCH: usize = 4096;

impl Library {
    /// Add the puzzles of book folders, all in one transaction.
    pub fn import(&mut self, dirs: &[PathBuf], mut progress: impl FnMut(u64)) -> Result<Added> {
        // Read every folder's manifest first: a bad folder is refused before anything is written.
        let mut folders = Vec::new();
        for d in dirs {
            let (kind, params) = folder_kind(d)?;
            folders.push((d.clone(), kind, params, records_file(d)?));
        }
        let added = super::now();
        self.write(|db| {
            let mut total = Added::default();
            for (_, kind, params, file) in &folders {
                let f = std::fs::File::open(file).with_context(|| format!("reading {}", file.display()))?;
                let mut lines = std::io::BufRead::lines(std::io::BufReader::with_capacity(1 << 20, f));
                let mut batch: Vec<Vec<Val>> = Vec::with_capacity(BATCH);
                let mut n = 0usize;
                loop {
                    let line = lines.next();
                    let end = line.is_none();
                    if let Some(line) = line {
                        n += 1;
                        let line = line.with_context(|| format!("reading {} line {n}", file.display()))?;
                        let line = line.strip_prefix('\u{feff}').unwrap_or(&line);
                        if line.trim().is_empty() {
                            continue;
                        }
                        let r = row(line, kind, params)
                            .map_err(|e| UsageError(format!("{} line {n}: {e}", file.display())))?;
                        batch.push(vec![
                            r.kind.into(),
                            r.shape.into(),
                            r.params.into(),
                            r.canonical.into(),
                            r.puzzle_id.into(),
                            r.grade.into(),
                            r.steps.into(),
                            r.hardest.into(),
                            r.techniques.into(),
                            r.record.into(),
                            r.run.into(),
                            Val::Text(r.seed.to_string()),
                            Val::Int(r.index as i64),
                            Val::Text(added.clone()),
                        ]);
                    }
                    if batch.len() >= BATCH || (end && !batch.is_empty()) {
                        total.read += batch.len() as u64;
                        total.added += db.exec_many(INSERT, &batch)? as u64;
                        batch.clear();
                        progress(total.read);
                    }
                    if end {
                        break;
                    }
                }
            }
            Ok(total)
        })
    }
}
