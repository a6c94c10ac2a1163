//! Puzzles into the library: a book folder's records, each a row of `puzzles`, all of a call in
//! one transaction (whole or absent, whatever kills the process). A puzzle whose canonical key
//! the library already holds for its kind and shape is not added again.

use super::db::{Db, Val};
use super::Library;
use crate::book::layout;
use crate::config::UsageError;
use anyhow::{Context as _, Result};
use serde::Deserialize;
use std::collections::HashMap;
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
    /// The names of the techniques used (a count above 0), as the library stores them.
    #[serde(default = "space", deserialize_with = "used_names")]
    techniques: String,
}

fn space() -> String {
    " ".into()
}

/// ` name name `: the keys of a `{"name": count, …}` object whose count is above 0.
fn used_names<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = String;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object of technique counts")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<String, A::Error> {
            let mut out = String::from(" ");
            while let Some((name, n)) = m.next_entry::<std::borrow::Cow<'de, str>, u64>()? {
                if n > 0 {
                    out.push_str(&name);
                    out.push(' ');
                }
            }
            Ok(out)
        }
    }
    d.deserialize_map(V)
}

/// One puzzle as the library stores it, before its board and run are numbered.
pub struct Row {
    pub kind: String,
    pub shape: String,
    /// The id without its index.
    pub run: String,
    pub seed: u64,
    pub index: u64,
    pub key: u128,
    pub grade: i64,
    pub steps: f64,
    pub hardest: i64,
    pub techniques: String,
    pub record: String,
}

/// The shape part of a puzzle id: `<kind>-<shape>[.<hash>]-<seed>-<index>` gives `<shape>`.
pub fn shape_of(id: &str, kind: &str, seed: u64, index: u64) -> Option<String> {
    let rest = id.strip_prefix(kind)?.strip_prefix('-')?;
    let rest = rest.strip_suffix(&format!("-{seed}-{index}"))?;
    let shape = rest.split('.').next()?;
    (!shape.is_empty()).then(|| shape.to_string())
}

/// A canonical key as records print it: 32 hex digits.
pub fn parse_key(text: &str) -> Option<u128> {
    (text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit())).then(|| u128::from_str_radix(text, 16).ok())?
}

/// The two signed halves a key is stored as.
pub fn halves(key: u128) -> (i64, i64) {
    ((key >> 64) as u64 as i64, key as u64 as i64)
}

/// A record line of a book of kind `book_kind` (the manifest's).
pub fn row(line: &str, book_kind: &str) -> Result<Row, String> {
    let f: Fields = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let shape = shape_of(&f.id, &f.kind, f.seed, f.index)
        .ok_or_else(|| format!("id \"{}\" is not <kind>-<shape>-<seed>-<index>", f.id))?;
    let grade = crate::grade::Grade::from_name(&f.grade)
        .ok_or_else(|| format!("grade \"{}\" is none of easy, medium, hard, expert", f.grade))?;
    let key = parse_key(&f.canonical).ok_or_else(|| format!("canonical \"{}\" is not 32 hex digits", f.canonical))?;
    let techniques = f.techniques;
    let run = f.id.strip_suffix(&format!("-{}", f.index)).unwrap_or(&f.id).to_string();
    Ok(Row {
        kind: book_kind.to_string(),
        shape,
        run,
        seed: f.seed,
        index: f.index,
        key,
        grade: grade.index() as i64,
        steps: f.steps,
        hardest: f.hardest_level,
        techniques,
        record: line.to_string(),
    })
}

const INSERT: &str = "INSERT INTO puzzles (board, key_hi, key_lo, run, idx, grade, steps, hardest, techniques, \
                      record) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT DO NOTHING";

/// Boards and runs by name, numbered as they are met (within one transaction).
#[derive(Default)]
struct Numbers {
    boards: HashMap<(String, String), i64>,
    runs: HashMap<String, i64>,
}

impl Numbers {
    fn board(&mut self, db: &mut dyn Db, kind: &str, shape: &str) -> Result<i64> {
        if let Some(&id) = self.boards.get(&(kind.to_string(), shape.to_string())) {
            return Ok(id);
        }
        let p = [Val::from(kind), Val::from(shape)];
        db.exec("INSERT INTO boards (kind, shape) VALUES (?1, ?2) ON CONFLICT DO NOTHING", &p)?;
        let id = db.rows("SELECT id FROM boards WHERE kind = ?1 AND shape = ?2", &p)?[0][0].int();
        self.boards.insert((kind.to_string(), shape.to_string()), id);
        Ok(id)
    }

    fn run(&mut self, db: &mut dyn Db, r: &Row, board: i64, params: &str, added: &str) -> Result<i64> {
        if let Some(&id) = self.runs.get(&r.run) {
            return Ok(id);
        }
        db.exec(
            "INSERT INTO runs (run, board, params, seed, added) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
            &[
                Val::from(r.run.as_str()),
                Val::Int(board),
                Val::from(params),
                Val::Text(r.seed.to_string()),
                Val::from(added),
            ],
        )?;
        let id = db.rows("SELECT id FROM runs WHERE run = ?1", &[Val::from(r.run.as_str())])?[0][0].int();
        self.runs.insert(r.run.clone(), id);
        Ok(id)
    }
}

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

/// The records file of a book folder: `puzzles.jsonl`, plain or zstd, or a `--books none`
/// run's scratch records (in its staging folder, at its commit).
pub fn records_file(dir: &Path) -> Result<PathBuf> {
    if let Some(p) = layout::find(dir, "puzzles.jsonl") {
        return Ok(p);
    }
    let scratch = dir.join(layout::RECORDS);
    if scratch.is_file() {
        return Ok(scratch);
    }
    let why = if layout::find(dir, "puzzles.csv").is_some() {
        "a book kept as CSV only (--books csv) has no JSON records for the library"
    } else {
        "no puzzles.jsonl (plain or .zst): not a book folder"
    };
    Err(UsageError(format!("{}: {why}", dir.display())).into())
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
            let mut numbers = Numbers::default();
            for (_, kind, params, file) in &folders {
                let f = layout::open(file).with_context(|| format!("reading {}", file.display()))?;
                let mut lines = std::io::BufRead::lines(f);
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
                        let r = row(line, kind).map_err(|e| UsageError(format!("{} line {n}: {e}", file.display())))?;
                        let board = numbers.board(db, &r.kind, &r.shape)?;
                        let run = numbers.run(db, &r, board, params, &added)?;
                        let (hi, lo) = halves(r.key);
                        batch.push(vec![
                            Val::Int(board),
                            Val::Int(hi),
                            Val::Int(lo),
                            Val::Int(run),
                            Val::Int(r.index as i64),
                            Val::Int(r.grade),
                            Val::Real(r.steps),
                            Val::Int(r.hardest),
                            Val::Text(r.techniques),
                            Val::Text(r.record),
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
