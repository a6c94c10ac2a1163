//! Reading a shard's records back, one at a time and in candidate order: `puzzles.csv` and
//! `puzzles.jsonl` line by line together (the book records, both forms as written, so the merged
//! files are byte for byte the shards'), or the one of them a shard made with `--books csv` or
//! `--books json` keeps, or `overflow.jsonl` alone (the puzzles made beyond a quota, JSON only).
//! Compressed files (`.zst`) are read decompressed (`layout::open`).

use crate::book::layout::{self, Layout};
use crate::config::UsageError;
use crate::grade::Grade;
use crate::kinds::Kind;
use crate::rate::Technique;
use anyhow::{Context as _, Result};
use serde::Deserialize;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// A damaged shard is refused like any other folder that is not a finished shard (exit 2).
fn refuse(msg: String) -> anyhow::Error {
    UsageError(msg).into()
}

/// One record of a shard.
pub struct InRecord {
    pub index: u64,
    pub grade: Grade,
    pub centi_steps: u64,
    pub hardest_level: u8,
    pub canonical: u128,
    pub steer: u8,
    pub usage: Vec<u32>,
    /// A record of the shard's book (else of its overflow).
    pub book: bool,
    /// The CSV line with its newline (book records of a shard that keeps CSV).
    pub csv: Option<String>,
    /// The JSON object without its newline (records of a shard that keeps JSON, and overflow).
    pub json: Option<String>,
    /// The record's `paths.jsonl` line (without its newline) and its bottleneck and shortcut,
    /// when the shard recorded paths.
    pub path: Option<(String, f64, bool)>,
}

/// The fields of a JSON record the merge needs; the rest is carried as text.
#[derive(Deserialize)]
struct Head {
    index: u64,
    grade: String,
    steps: f64,
    hardest_level: u8,
    canonical: String,
    steer: u8,
    techniques: serde_json::Map<String, serde_json::Value>,
    bottleneck: Option<f64>,
    shortcut: Option<bool>,
}

/// A file read line by line, counting lines (for messages).
pub(super) struct Lines {
    pub(super) path: PathBuf,
    r: Box<dyn BufRead>,
    /// The number of the line last read (1-based).
    pub(super) line: u64,
}

impl Lines {
    pub(super) fn open(path: PathBuf) -> Result<Lines> {
        let r = layout::open(&path).map_err(|e| refuse(format!("{}: {e}: not a finished shard", path.display())))?;
        Ok(Lines { path, r, line: 0 })
    }

    /// The next line with its newline, or None at the end.
    pub(super) fn next(&mut self) -> Result<Option<String>> {
        let mut s = String::new();
        let n = self.r.read_line(&mut s).map_err(|e| {
            let at = format!("{} line {}", self.path.display(), self.line + 1);
            refuse(format!("{at}: {e}: the shard is damaged"))
        })?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        if !s.ends_with('\n') {
            return Err(refuse(format!(
                "{} line {}: cut short (no newline): the shard's book is damaged",
                self.path.display(),
                self.line
            )));
        }
        Ok(Some(s))
    }
}

/// The records of one shard file (or pair of files), in order.
pub struct Stream {
    csv: Option<Lines>,
    jsonl: Option<Lines>,
    /// `paths.jsonl`, read in step with the book's records.
    paths: Option<Lines>,
    last: Option<u64>,
    /// The shard's book (else its overflow).
    book: bool,
}

impl Stream {
    /// The book records of the shard in `dir`, from the files its layout keeps.
    pub fn book(dir: &Path, layout: Layout) -> Result<Stream> {
        let csv = if layout.csv() {
            let mut csv = Lines::open(dir.join(layout.name("puzzles.csv")))?;
            csv.next()?; // the header
            Some(csv)
        } else {
            None
        };
        let jsonl = if layout.json() { Some(Lines::open(dir.join(layout.name("puzzles.jsonl")))?) } else { None };
        let paths = dir.join(layout.name("paths.jsonl"));
        let paths = if paths.exists() { Some(Lines::open(paths)?) } else { None };
        Ok(Stream { csv, jsonl, paths, last: None, book: true })
    }

    /// The shard's `overflow.jsonl`, if it has one.
    pub fn overflow(dir: &Path, layout: Layout) -> Result<Option<Stream>> {
        let path = dir.join(layout.name("overflow.jsonl"));
        if !path.exists() {
            return Ok(None);
        }
        Ok(Some(Stream { csv: None, jsonl: Some(Lines::open(path)?), paths: None, last: None, book: false }))
    }

    /// The next record, checked: both forms (where both are kept) agree and indices increase.
    pub fn next<K: Kind>(&mut self) -> Result<Option<InRecord>> {
        let json = match &mut self.jsonl {
            Some(j) => j.next()?,
            None => None,
        };
        let csv = match &mut self.csv {
            Some(c) => c.next()?,
            None => None,
        };
        let (mut rec, tail, at) = match (json, csv) {
            (None, None) => return Ok(None),
            (None, Some(_)) if self.jsonl.is_some() => {
                let c = self.csv.as_ref().expect("a CSV file");
                return Err(refuse(format!("{} has more records than puzzles.jsonl", c.path.display())));
            }
            (Some(_), None) if self.csv.is_some() => {
                let j = self.jsonl.as_ref().expect("a JSON file");
                return Err(refuse(format!(
                    "{} line {}: puzzles.csv has fewer records than puzzles.jsonl",
                    j.path.display(),
                    j.line
                )));
            }
            (json, Some(line)) => {
                let c = self.csv.as_ref().expect("a CSV file");
                let at = match &self.jsonl {
                    Some(j) => format!("{} line {}", j.path.display(), j.line),
                    None => format!("{} line {}", c.path.display(), c.line),
                };
                let json = json.map(|mut j| {
                    j.pop();
                    j
                });
                let rec = from_csv::<K>(line, json, &at)?;
                let f = rec.csv.as_deref().map(fields).unwrap_or_default();
                let tail = match f.as_slice() {
                    [.., b, s] => b.parse::<f64>().ok().zip(s.parse::<bool>().ok()),
                    _ => None,
                };
                (rec, tail, at)
            }
            (Some(mut json), None) => {
                json.pop();
                let j = self.jsonl.as_ref().expect("a JSON file");
                let at = format!("{} line {}", j.path.display(), j.line);
                let (rec, tail) = from_json::<K>(json, &at, self.book)?;
                (rec, tail, at)
            }
        };
        if let Some(paths) = &mut self.paths {
            let Some(mut line) = paths.next()? else {
                return Err(refuse(format!("{at}: paths.jsonl has fewer lines than the book has records")));
            };
            line.pop();
            let id = rec.id();
            if !line.starts_with(&format!("{{\"id\":\"{id}\"")) {
                return Err(refuse(format!("{} line {}: not the path of {id}", paths.path.display(), paths.line)));
            }
            let Some((b, s)) = tail else {
                return Err(refuse(format!("{at}: a record of a run with paths ends with bottleneck,shortcut")));
            };
            rec.path = Some((line, b, s));
        }
        if self.last.is_some_and(|l| l >= rec.index) {
            return Err(refuse(format!("{at}: candidate {} is out of order", rec.index)));
        }
        self.last = Some(rec.index);
        Ok(Some(rec))
    }
}

impl InRecord {
    /// The record's id, from the form it was read in.
    fn id(&self) -> String {
        match (&self.json, &self.csv) {
            (Some(json), _) => json.split('"').nth(3).unwrap_or_default().to_string(),
            (None, Some(csv)) => fields(csv)[0].to_string(),
            (None, None) => String::new(),
        }
    }
}

fn grade_named(name: &str, at: &str) -> Result<Grade> {
    Grade::from_name(name).with_context(|| format!("{at}: unknown grade {name}"))
}

/// The fields of one CSV line, as written (a quoted field keeps its quotes: the fields read
/// here are numbers and names, never quoted).
pub(super) fn fields(line: &str) -> Vec<&str> {
    let mut out = Vec::with_capacity(32);
    let (mut start, mut quoted) = (0, false);
    for (i, b) in line.bytes().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => {
                out.push(&line[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(line[start..].trim_end_matches(['\n', '\r']));
    out
}

/// A book record from its CSV line (the fields `record::header` puts first, then the
/// `used_<technique>` counts), checked against its JSON object's id when there is one.
fn from_csv<K: Kind>(csv: String, json: Option<String>, at: &str) -> Result<InRecord> {
    let f = fields(&csv);
    let techniques = K::Tech::ALL.len();
    if f.len() < 12 + techniques {
        return Err(refuse(format!(
            "{at}: puzzles.csv has {} fields, a record has at least {}",
            f.len(),
            12 + techniques
        )));
    }
    if json.as_ref().is_some_and(|j| !j.starts_with(&format!("{{\"id\":\"{}\"", f[0]))) {
        return Err(refuse(format!("{at}: puzzles.csv does not hold the same record ({})", f[0])));
    }
    let num = |i: usize, what: &str| -> Result<u64> {
        f[i].parse().with_context(|| format!("{at}: {what} '{}' in puzzles.csv", f[i]))
    };
    let steps: f64 = f[5].parse().with_context(|| format!("{at}: steps '{}' in puzzles.csv", f[5]))?;
    let usage = (0..techniques).map(|t| num(12 + t, "technique count").map(|u| u as u32)).collect::<Result<_>>()?;
    Ok(InRecord {
        index: num(3, "index")?,
        grade: grade_named(f[4], at)?,
        centi_steps: crate::book::exact::centi(steps),
        hardest_level: num(6, "hardest level")? as u8,
        canonical: u128::from_str_radix(f[10], 16).with_context(|| format!("{at}: canonical key"))?,
        steer: num(11, "steer")? as u8,
        usage,
        book: true,
        csv: Some(csv),
        json,
        path: None,
    })
}

/// A record from its JSON object alone (`overflow.jsonl`, or the book of a shard that keeps
/// JSON only), with its bottleneck and shortcut when it has them.
fn from_json<K: Kind>(json: String, at: &str, book: bool) -> Result<(InRecord, Option<(f64, bool)>)> {
    let head: Head = serde_json::from_str(&json).with_context(|| format!("{at}: not a book record"))?;
    let usage = K::Tech::ALL
        .iter()
        .map(|t| head.techniques.get(t.name()).and_then(|v| v.as_u64()).unwrap_or(0) as u32)
        .collect();
    let tail = head.bottleneck.zip(head.shortcut);
    let rec = InRecord {
        index: head.index,
        grade: grade_named(&head.grade, at)?,
        centi_steps: crate::book::exact::centi(head.steps),
        hardest_level: head.hardest_level,
        canonical: u128::from_str_radix(&head.canonical, 16).with_context(|| format!("{at}: canonical key"))?,
        steer: head.steer,
        usage,
        book,
        csv: None,
        json: Some(json),
        path: None,
    };
    Ok((rec, tail))
}
