//! What `merge` checks of every shard before it writes anything (issue 43): each record of
//! `puzzles.jsonl` against itself and against its row of `puzzles.csv`, and each record of
//! `overflow.jsonl` against itself. A damaged shard is refused (exit 2) with the file, the line
//! and what is wrong.
//!
//! A JSON record is checked against what the program would write for its puzzle: the puzzle
//! reads back in the same form; the kind's fast solver finds a solution and it is the recorded
//! one (so the givens agree with the solution and the solution obeys the kind's rules); `kind`,
//! `givens`, the canonical key and the kind's extra fields are recomputed from the puzzle and
//! its solution; the other fields have the type and range the writer gives them. Its CSV row
//! must then hold, column by column, what `Record::new` writes for those values. Steps, grade,
//! hardest level and technique counts cannot be recomputed without rating the puzzle again
//! (the most costly part of a run): they are held to the two forms agreeing.
//!
//! The solver stops at the first solution (limit 1): an undamaged record's puzzle has exactly
//! one, so the first is the recorded one, and any other first solution refuses the record. A
//! count to 2 (uniqueness again) would cost about twice as much for no damage it alone finds.
//! Records are checked in batches on the thread pool; the first bad record in file order is
//! reported.

use super::read::{fields, Lines};
use crate::book::record::{canonical_hex, header, header_line, round_steps};
use crate::config::UsageError;
use crate::grade::Grade;
use crate::kinds::Kind;
use crate::rate::Technique;
use anyhow::Result;
use rayon::prelude::*;
use serde_json::{Map, Value};
use std::path::Path;

/// Records checked together on the thread pool.
const BATCH: usize = 2048;

/// The solver's limit: see the module comment.
const SOLUTIONS: usize = 1;

fn refuse(msg: String) -> anyhow::Error {
    UsageError(msg).into()
}

/// One record as read: its JSON line and, for book records, its CSV row, with their places.
struct Pair {
    json: String,
    json_at: String,
    csv: Option<(String, String)>,
}

/// Check every record of the shard in `dir`; `paths`: the run recorded solution paths.
pub fn shard<K: Kind>(dir: &Path, paths: bool) -> Result<()> {
    let mut csv = Lines::open(dir.join("puzzles.csv"))?;
    let want = header_line::<K>(paths);
    match csv.next()? {
        Some(h) if h == want => {}
        Some(h) => {
            return Err(refuse(format!(
                "{} line 1: the header is not this run's ({} columns, expected {}): the shard is damaged",
                csv.path.display(),
                fields(&h).len(),
                header::<K>(paths).len()
            )))
        }
        None => return Err(refuse(format!("{}: empty (no header): the shard is damaged", csv.path.display()))),
    }
    let jsonl = Lines::open(dir.join("puzzles.jsonl"))?;
    check_file::<K>(jsonl, Some(csv), paths)?;
    let overflow = dir.join("overflow.jsonl");
    if overflow.exists() {
        check_file::<K>(Lines::open(overflow)?, None, paths)?;
    }
    Ok(())
}

/// Every record of `jsonl` (with its row of `csv`, when given), batch by batch. Where the files
/// end unequally, the records before are checked first: a line missing in the middle is then
/// reported where it is missing.
fn check_file<K: Kind>(mut jsonl: Lines, mut csv: Option<Lines>, paths: bool) -> Result<()> {
    loop {
        let mut batch = Vec::with_capacity(BATCH);
        let mut end = None;
        while batch.len() < BATCH && end.is_none() {
            match next_pair(&mut jsonl, csv.as_mut()) {
                Ok(Some(pair)) => batch.push(pair),
                Ok(None) => end = Some(Ok(())),
                Err(e) => end = Some(Err(e)),
            }
        }
        let results: Vec<Result<(), String>> = batch.par_iter().map(|p| check_pair::<K>(p, paths)).collect();
        if let Some(e) = results.into_iter().find_map(Result::err) {
            return Err(refuse(e));
        }
        if let Some(end) = end {
            return end;
        }
    }
}

/// The next record of `jsonl` and its CSV row; either file ending before the other is refused.
fn next_pair(jsonl: &mut Lines, csv: Option<&mut Lines>) -> Result<Option<Pair>> {
    let json = jsonl.next()?;
    let json_at = format!("{} line {}", jsonl.path.display(), jsonl.line);
    let Some(csv) = csv else {
        return Ok(json.map(|json| Pair { json, json_at, csv: None }));
    };
    let row = csv.next()?;
    let csv_at = format!("{} line {}", csv.path.display(), csv.line);
    match (json, row) {
        (None, None) => Ok(None),
        (Some(json), Some(row)) => Ok(Some(Pair { json, json_at, csv: Some((row, csv_at)) })),
        (Some(_), None) => Err(refuse(format!(
            "{json_at}: a record that {} lacks (it ends at line {}): the shard is damaged",
            csv.path.display(),
            csv.line
        ))),
        (None, Some(_)) => Err(refuse(format!(
            "{csv_at}: a record that {} lacks (it ends at line {}): the shard is damaged",
            jsonl.path.display(),
            jsonl.line
        ))),
    }
}

/// One record: the JSON object checked, then its CSV row against it.
fn check_pair<K: Kind>(p: &Pair, paths: bool) -> Result<(), String> {
    let json = p.json.trim_end_matches('\n');
    let want = expected::<K>(json, paths).map_err(|e| format!("{}: {e}: the shard is damaged", p.json_at))?;
    let Some((row, csv_at)) = &p.csv else { return Ok(()) };
    let got: Vec<String> = fields(row).into_iter().map(unquoted).collect();
    let names = header::<K>(paths);
    if got.len() != names.len() {
        return Err(format!(
            "{csv_at}: {} columns, the header has {} (the record of {}): the shard is damaged",
            got.len(),
            names.len(),
            p.json_at
        ));
    }
    if got[0] != want[0] {
        return Err(format!(
            "{csv_at} is not the record of {} (id {} against {}): a line is missing or changed, the shard is \
             damaged",
            p.json_at, got[0], want[0]
        ));
    }
    match (0..names.len()).find(|&i| got[i] != want[i]) {
        None => Ok(()),
        Some(i) => Err(format!(
            "{csv_at} and {} disagree on {} ({}): the shard is damaged",
            p.json_at,
            names[i],
            difference(&got[i], &want[i])
        )),
    }
}

/// A CSV field as `push_csv_field` wrote it, read back.
fn unquoted(f: &str) -> String {
    match f.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => f.to_string(),
    }
}

/// Two differing values for a message: whole when short, else from the first difference.
fn difference(csv: &str, json: &str) -> String {
    if csv.chars().count() <= 40 && json.chars().count() <= 40 {
        return format!("{csv:?} in the CSV, {json:?} in the JSON");
    }
    let at = csv.chars().zip(json.chars()).take_while(|(a, b)| a == b).count();
    let from = |s: &str| s.chars().skip(at).take(16).collect::<String>();
    format!("from character {}: {:?}… in the CSV, {:?}… in the JSON", at + 1, from(csv), from(json))
}

/// The CSV fields a JSON record implies, in header order, once the record is checked.
fn expected<K: Kind>(json: &str, paths: bool) -> Result<Vec<String>, String> {
    let v: Map<String, Value> = serde_json::from_str(json).map_err(|e| format!("not a JSON record ({e})"))?;
    let get = |k: &str| v.get(k).ok_or_else(|| format!("the record has no `{k}`"));
    let uint = |k: &str| get(k)?.as_u64().map(|n| n.to_string()).ok_or_else(|| format!("`{k}` is not a count"));
    let text = |k: &str| get(k)?.as_str().map(str::to_string).ok_or_else(|| format!("`{k}` is not a string"));
    let (puzzle, solution) = solved::<K>(get("puzzle")?, get("solution")?)?;
    let id = text("id")?;
    let (seed, index) = (uint("seed")?, uint("index")?);
    if !id.ends_with(&format!("-{seed}-{index}")) {
        return Err(format!("id {id} is not that of seed {seed}, index {index}"));
    }
    let kind = text("kind")?;
    if kind != K::ID.name() {
        return Err(format!("kind {kind}, but the shards are of kind {}", K::ID.name()));
    }
    let grade = text("grade")?;
    if !Grade::ALL.iter().any(|g| g.name() == grade) {
        return Err(format!("unknown grade {grade}"));
    }
    let steps = get("steps")?.as_f64().filter(|s| s.is_finite() && *s >= 0.0 && round_steps(*s) == *s);
    let steps = steps
        .ok_or_else(|| format!("steps {} is not a step count in hundredths", v.get("steps").unwrap_or(&Value::Null)))?;
    let givens = uint("givens")?;
    if givens != K::givens(&puzzle).to_string() {
        return Err(format!("givens {givens}, but the puzzle has {}", K::givens(&puzzle)));
    }
    let canonical = text("canonical")?;
    let key = canonical_hex(K::canonical(&puzzle, &solution));
    if canonical != key {
        return Err(format!("canonical key {canonical}, but the puzzle's is {key}"));
    }
    let mut f = vec![id, kind, seed, index, grade, format!("{steps:.2}"), uint("hardest_level")?, givens];
    f.extend([K::puzzle_text(&puzzle), K::solution_text(&solution), canonical, uint("steer")?]);
    f.extend(usage::<K>(get("techniques")?)?);
    f.extend(extras::<K>(&v, &puzzle, &solution)?);
    if paths {
        f.push(get("bottleneck")?.as_f64().map(|b| b.to_string()).ok_or("`bottleneck` is not a number")?);
        f.push(get("shortcut")?.as_bool().map(|s| s.to_string()).ok_or("`shortcut` is not true or false")?);
    }
    let keys = 13 + K::extra_names().len() + if paths { 2 } else { 0 };
    if v.len() != keys {
        return Err(format!("{} fields, a record of this run has {keys}", v.len()));
    }
    Ok(f)
}

/// The record's puzzle, read back in the form written, and its solution: the first the kind's
/// solver finds, which must be the recorded one.
fn solved<K: Kind>(puzzle: &Value, solution: &Value) -> Result<(K::Puzzle, K::Solution), String> {
    let p = match puzzle {
        Value::String(s) => K::parse(s),
        other => K::parse(&other.to_string()),
    }
    .map_err(|e| format!("the puzzle cannot be read ({e})"))?;
    if K::puzzle_json(&p) != *puzzle {
        return Err("the puzzle is not in the form the program writes".into());
    }
    let found = K::solve(&p, SOLUTIONS);
    let Some(s) = found.first.filter(|_| found.count > 0) else {
        return Err(if found.undecided {
            "the solver could not decide the puzzle".into()
        } else {
            "the puzzle has no solution".into()
        });
    };
    if K::solution_json(&s) != *solution {
        return Err("the recorded solution does not solve the puzzle".into());
    }
    Ok((p, s))
}

/// The `used_<technique>` counts of `techniques`, which must name every technique, in order.
fn usage<K: Kind>(t: &Value) -> Result<Vec<String>, String> {
    let t = t.as_object().ok_or("`techniques` is not an object")?;
    let names: Vec<&str> = K::Tech::ALL.iter().map(|t| t.name()).collect();
    if !t.keys().map(String::as_str).eq(names.iter().copied()) {
        return Err("`techniques` does not list this kind's techniques".into());
    }
    t.iter()
        .map(|(k, n)| n.as_u64().map(|n| n.to_string()).ok_or_else(|| format!("techniques.{k} is not a count")))
        .collect()
}

/// The kind's extra fields, recomputed from the puzzle, as the CSV writes them.
fn extras<K: Kind>(v: &Map<String, Value>, p: &K::Puzzle, s: &K::Solution) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (name, want) in K::extra_names().iter().zip(K::extra_values(p, s)) {
        if v.get(*name) != Some(&want) {
            return Err(format!("`{name}` is not the puzzle's"));
        }
        out.push(match want {
            Value::String(s) => s,
            Value::Null => String::new(),
            other => other.to_string(),
        });
    }
    Ok(out)
}
