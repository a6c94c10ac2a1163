//! What `merge` checks of every shard before it writes anything (issue 43): each record of
//! `puzzles.jsonl` against itself and against its row of `puzzles.csv`, and each record of
//! `overflow.jsonl` against itself. A shard that keeps one form only (`--books csv` or `json`)
//! has its records checked in that form: a CSV row is rebuilt as the JSON object it stands for
//! (`rebuilt`) and checked as one. A damaged shard is refused (exit 2) with the file, the line
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
use crate::book::layout::Layout;
use crate::book::record::{canonical_hex, header, header_line, json_object, round_steps, Values};
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

/// One record as read: its JSON line and its CSV row, each with its place, as the shard keeps
/// them (at least one).
struct Pair {
    json: Option<(String, String)>,
    csv: Option<(String, String)>,
}

/// Check every record of the shard in `dir`, kept as `layout` says; `paths`: the run recorded
/// solution paths.
pub fn shard<K: Kind>(dir: &Path, layout: Layout, paths: bool) -> Result<()> {
    let csv = if layout.csv() {
        let mut csv = Lines::open(dir.join(layout.name("puzzles.csv")))?;
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
        Some(csv)
    } else {
        None
    };
    let jsonl = if layout.json() { Some(Lines::open(dir.join(layout.name("puzzles.jsonl")))?) } else { None };
    check_file::<K>(jsonl, csv, paths)?;
    let overflow = dir.join(layout.name("overflow.jsonl"));
    if overflow.exists() {
        check_file::<K>(Some(Lines::open(overflow)?), None, paths)?;
    }
    Ok(())
}

/// Every record of `jsonl` and `csv` (one or both), batch by batch. Where the files end
/// unequally, the records before are checked first: a line missing in the middle is then
/// reported where it is missing.
fn check_file<K: Kind>(mut jsonl: Option<Lines>, mut csv: Option<Lines>, paths: bool) -> Result<()> {
    loop {
        let mut batch = Vec::with_capacity(BATCH);
        let mut end = None;
        while batch.len() < BATCH && end.is_none() {
            match next_pair(jsonl.as_mut(), csv.as_mut()) {
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

/// The next line of `f`, with its place.
fn placed(f: &mut Lines) -> Result<Option<(String, String)>> {
    let line = f.next()?;
    Ok(line.map(|l| (l, format!("{} line {}", f.path.display(), f.line))))
}

/// The next record of `jsonl` and its CSV row, as the shard keeps them; either file ending
/// before the other is refused.
fn next_pair(jsonl: Option<&mut Lines>, csv: Option<&mut Lines>) -> Result<Option<Pair>> {
    let (jsonl, csv) = match (jsonl, csv) {
        (None, None) => return Ok(None),
        (Some(j), None) => return Ok(placed(j)?.map(|json| Pair { json: Some(json), csv: None })),
        (None, Some(c)) => return Ok(placed(c)?.map(|row| Pair { json: None, csv: Some(row) })),
        (Some(j), Some(c)) => (j, c),
    };
    match (placed(jsonl)?, placed(csv)?) {
        (None, None) => Ok(None),
        (Some(json), Some(row)) => Ok(Some(Pair { json: Some(json), csv: Some(row) })),
        (Some((_, json_at)), None) => Err(refuse(format!(
            "{json_at}: a record that {} lacks (it ends at line {}): the shard is damaged",
            csv.path.display(),
            csv.line
        ))),
        (None, Some((_, csv_at))) => Err(refuse(format!(
            "{csv_at}: a record that {} lacks (it ends at line {}): the shard is damaged",
            jsonl.path.display(),
            jsonl.line
        ))),
    }
}

/// One record: the JSON object checked, then its CSV row against it; or a row alone, rebuilt
/// as the JSON object it stands for and checked as one.
fn check_pair<K: Kind>(p: &Pair, paths: bool) -> Result<(), String> {
    let names = header::<K>(paths);
    let (got, want, json_at) = match (&p.json, &p.csv) {
        (Some((json, json_at)), row) => {
            let json = json.trim_end_matches('\n');
            let want = expected::<K>(json, paths).map_err(|e| format!("{json_at}: {e}: the shard is damaged"))?;
            let Some((row, csv_at)) = row else { return Ok(()) };
            (columns(row, csv_at, &names, Some(json_at))?, want, Some(json_at))
        }
        (None, Some((row, csv_at))) => {
            let got = columns(row, csv_at, &names, None)?;
            let (_, want) = rebuilt::<K>(&got, paths).map_err(|e| format!("{csv_at}: {e}: the shard is damaged"))?;
            (got, want, None)
        }
        (None, None) => return Ok(()),
    };
    let csv_at = &p.csv.as_ref().expect("a CSV row").1;
    if got[0] != want[0] {
        let of = json_at.map_or(String::new(), |at| format!(" of {at}"));
        return Err(format!(
            "{csv_at} is not the record{of} (id {} against {}): a line is missing or changed, the shard is damaged",
            got[0], want[0]
        ));
    }
    match (0..names.len()).find(|&i| got[i] != want[i]) {
        None => Ok(()),
        Some(i) => Err(match json_at {
            Some(json_at) => format!(
                "{csv_at} and {json_at} disagree on {} ({}): the shard is damaged",
                names[i],
                difference(&got[i], &want[i])
            ),
            None => format!(
                "{csv_at}: {} is not the puzzle's ({}): the shard is damaged",
                names[i],
                difference(&got[i], &want[i])
            ),
        }),
    }
}

/// A CSV row's fields, unquoted, as many as the header has.
fn columns(row: &str, csv_at: &str, names: &[String], json_at: Option<&str>) -> Result<Vec<String>, String> {
    let got: Vec<String> = fields(row).into_iter().map(unquoted).collect();
    if got.len() != names.len() {
        let of = json_at.map_or(String::new(), |at| format!(" (the record of {at})"));
        return Err(format!(
            "{csv_at}: {} columns, the header has {}{of}: the shard is damaged",
            got.len(),
            names.len()
        ));
    }
    Ok(got)
}

/// A CSV row (its fields, unquoted, as many as the header has) rebuilt as the JSON object it
/// stands for, byte for byte as the run wrote it (`record::json_object`), with the CSV fields
/// that object implies. The puzzle is read from its text and solved for its solution, which
/// must be the row's; kind, givens, canonical key and the kind's extra columns are recomputed
/// (the caller compares them with the row's).
fn rebuilt<K: Kind>(got: &[String], paths: bool) -> Result<(String, Vec<String>), String> {
    let names = header::<K>(paths);
    // The rebuilt object names the merge's kind: a row of another kind is refused here.
    if got[1] != K::NAME {
        return Err(format!("kind {}, but the shards are of kind {}", got[1], K::NAME));
    }
    let puzzle = K::parse(&got[8], &K::Params::default()).map_err(|e| format!("the puzzle cannot be read ({e})"))?;
    let solution = first_solution::<K>(&puzzle)?;
    if K::solution_text(&solution) != got[9] {
        return Err("the recorded solution does not solve the puzzle".into());
    }
    let count = |i: usize| -> Result<u64, String> {
        got[i].parse().map_err(|_| format!("{} {:?} is not a count", names[i], got[i]))
    };
    let small = |i: usize| -> Result<u8, String> {
        count(i).and_then(|n| u8::try_from(n).map_err(|_| format!("{} {n} is out of range", names[i])))
    };
    let techniques = K::Tech::ALL.len();
    let usage = (12..12 + techniques)
        .map(|i| count(i).and_then(|n| u32::try_from(n).map_err(|_| format!("{} {n} is out of range", names[i]))))
        .collect::<Result<Vec<u32>, String>>()?;
    let steps: f64 = got[5].parse().map_err(|_| format!("steps {:?} is not a step count", got[5]))?;
    let n = got.len();
    let tail = if paths {
        let b = got[n - 2].parse::<f64>().map_err(|_| format!("bottleneck {:?} is not a number", got[n - 2]))?;
        let s = got[n - 1].parse::<bool>().map_err(|_| format!("shortcut {:?} is not true or false", got[n - 1]))?;
        Some((b, s))
    } else {
        None
    };
    let grade = Grade::from_name(&got[4]).ok_or_else(|| format!("unknown grade {}", got[4]))?;
    let json = json_object::<K>(&Values {
        id: &got[0],
        seed: count(2)?,
        index: count(3)?,
        grade,
        steps,
        hardest_level: small(6)?,
        givens: count(7)? as usize,
        puzzle: &K::puzzle_json_text(&puzzle),
        solution: &K::solution_json_text(&solution),
        canonical: &got[10],
        steer: small(11)?,
        usage: &usage,
        extras: &K::extra_values(&puzzle, &solution),
        paths: tail,
    });
    let v: Map<String, Value> = serde_json::from_str(&json).map_err(|e| format!("not a record ({e})"))?;
    Ok((json, implied::<K>(&v, &puzzle, &solution, paths)?))
}

/// The JSON object of a book record kept as a CSV row only (`--books csv`), as the run wrote it:
/// for `merge` to put the record into `overflow.jsonl`.
pub fn json_of_row<K: Kind>(row: &str, paths: bool) -> Result<String> {
    let got: Vec<String> = fields(row).into_iter().map(unquoted).collect();
    if got.len() != header::<K>(paths).len() {
        return Err(refuse(format!("a row of {} columns is not a record of this run", got.len())));
    }
    rebuilt::<K>(&got, paths).map(|(json, _)| json).map_err(refuse)
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
    let (puzzle, solution) = solved::<K>(get("puzzle")?, get("solution")?)?;
    implied::<K>(&v, &puzzle, &solution, paths)
}

/// The CSV fields of a JSON record whose puzzle and solution are `puzzle` and `solution`
/// (checked against them), in header order.
fn implied<K: Kind>(
    v: &Map<String, Value>,
    puzzle: &K::Puzzle,
    solution: &K::Solution,
    paths: bool,
) -> Result<Vec<String>, String> {
    let get = |k: &str| v.get(k).ok_or_else(|| format!("the record has no `{k}`"));
    let uint = |k: &str| get(k)?.as_u64().map(|n| n.to_string()).ok_or_else(|| format!("`{k}` is not a count"));
    let text = |k: &str| get(k)?.as_str().map(str::to_string).ok_or_else(|| format!("`{k}` is not a string"));
    let id = text("id")?;
    let (seed, index) = (uint("seed")?, uint("index")?);
    if !id.ends_with(&format!("-{seed}-{index}")) {
        return Err(format!("id {id} is not that of seed {seed}, index {index}"));
    }
    let kind = text("kind")?;
    if kind != K::NAME {
        return Err(format!("kind {kind}, but the shards are of kind {}", K::NAME));
    }
    let grade = text("grade")?;
    if !Grade::ALL.iter().any(|g| g.name() == grade) {
        return Err(format!("unknown grade {grade}"));
    }
    let steps = get("steps")?.as_f64().filter(|s| s.is_finite() && *s >= 0.0 && round_steps(*s) == *s);
    let steps = steps
        .ok_or_else(|| format!("steps {} is not a step count in hundredths", v.get("steps").unwrap_or(&Value::Null)))?;
    let givens = uint("givens")?;
    if givens != K::givens(puzzle).to_string() {
        return Err(format!("givens {givens}, but the puzzle has {}", K::givens(puzzle)));
    }
    let canonical = text("canonical")?;
    let key = canonical_hex(K::canonical(puzzle, solution));
    if canonical != key {
        return Err(format!("canonical key {canonical}, but the puzzle's is {key}"));
    }
    let mut f = vec![id, kind, seed, index, grade, format!("{steps:.2}"), uint("hardest_level")?, givens];
    f.extend([K::puzzle_text(puzzle), K::solution_text(solution), canonical, uint("steer")?]);
    f.extend(usage::<K>(get("techniques")?)?);
    f.extend(extras::<K>(v, puzzle, solution)?);
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
        Value::String(s) => K::parse(s, &K::Params::default()),
        other => K::parse(&other.to_string(), &K::Params::default()),
    }
    .map_err(|e| format!("the puzzle cannot be read ({e})"))?;
    if K::puzzle_json(&p) != *puzzle {
        return Err("the puzzle is not in the form the program writes".into());
    }
    let s = first_solution::<K>(&p)?;
    if K::solution_json(&s) != *solution {
        return Err("the recorded solution does not solve the puzzle".into());
    }
    Ok((p, s))
}

/// The first solution the kind's solver finds (`SOLUTIONS`).
fn first_solution<K: Kind>(p: &K::Puzzle) -> Result<K::Solution, String> {
    let found = K::solve(p, SOLUTIONS);
    found.first.filter(|_| found.count > 0).ok_or_else(|| {
        if found.undecided {
            "the solver could not decide the puzzle".into()
        } else {
            "the puzzle has no solution".into()
        }
    })
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
