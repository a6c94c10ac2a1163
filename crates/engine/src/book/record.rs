//! One book record: the columns every kind shares (SPEC.md), then the technique usage counts
//! (`used_<technique>`), then the kind's extra columns. The CSV line and the JSON object are
//! built from the same values, so the two forms always agree.
//!
//! Each form is written straight into one `String`: records are made on the worker threads and
//! dropped on the writing thread, and a handful of allocations per record instead of dozens
//! keeps the allocator from serialising the threads.

use crate::pipeline::Accepted;
use pf_core::common::json::push_number;
use pf_core::grade::Grade;
use pf_core::kind::Kind;
use pf_core::rate::Technique;
use serde_json::Value;
use std::fmt::Write as _;

pub struct Record {
    /// The CSV line, with its newline.
    pub csv: String,
    /// The JSON object, without a newline.
    pub json: String,
    /// The `paths.jsonl` line (runs with `--paths`), without a newline.
    pub path: Option<String>,
}

/// Steps rounded to two decimals, as every output prints them.
pub fn round_steps(steps: f64) -> f64 {
    (steps * 100.0).round() / 100.0
}

/// Append one CSV field, quoted when it holds a comma, a quote or a line break.
pub fn push_csv_field(line: &mut String, field: &str) {
    if !line.is_empty() && !line.ends_with('\n') {
        line.push(',');
    }
    // Byte by byte (the four are ASCII, never part of a longer UTF-8 character): matching a
    // set of chars decodes every character, 2,300 instructions a KenKen puzzle field.
    if field.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r')) {
        line.push('"');
        if field.as_bytes().contains(&b'"') {
            line.push_str(&field.replace('"', "\"\""));
        } else {
            line.push_str(field);
        }
        line.push('"');
    } else {
        line.push_str(field);
    }
}

/// The columns of a book; `paths`: a run with `--paths`, whose records end with `bottleneck`
/// and `shortcut`.
pub fn header<K: Kind>(paths: bool) -> Vec<String> {
    let mut h: Vec<String> = [
        "id",
        "kind",
        "seed",
        "index",
        "grade",
        "steps",
        "hardest_level",
        "givens",
        "puzzle",
        "solution",
        "canonical",
        "steer",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    h.extend(K::Tech::ALL.iter().map(|t| format!("used_{}", t.name())));
    h.extend(K::extra_names().iter().map(|s| s.to_string()));
    if paths {
        h.extend(["bottleneck".to_string(), "shortcut".to_string()]);
    }
    h
}

/// The header as a CSV line.
pub fn header_line<K: Kind>(paths: bool) -> String {
    let mut line = String::new();
    for f in header::<K>(paths) {
        push_csv_field(&mut line, &f);
    }
    line.push('\n');
    line
}

/// The `puzzle` column of a book's CSV header line (`id,kind,...,puzzle,...`), which commands
/// that read puzzle lines take as a whole file of them: None when the line is not such a
/// header (no puzzle line of any kind starts with `id,`), an error when it names no `puzzle`.
pub fn csv_puzzle_column(line: &str) -> Option<Result<usize, String>> {
    if !line.trim().starts_with("id,") {
        return None;
    }
    Some(csv_column(line, "puzzle").ok_or_else(|| "a CSV header without a puzzle column".to_string()))
}

/// The column a book's CSV header line names `name` (its names are plain, never quoted).
pub fn csv_column(header: &str, name: &str) -> Option<usize> {
    header.trim().split(',').position(|h| h == name)
}

/// Field `col` of one CSV row of a book (its puzzle, with `csv_puzzle_column`'s index). The CSV
/// parser is the `csv` crate's own core, made once per thread: building one per row (a
/// `csv::Reader`) was nine tenths of `solve`'s time on a book's CSV.
pub fn csv_field(line: &str, col: usize) -> Result<String, String> {
    use csv_core::ReadRecordResult;
    thread_local! {
        static PARSER: std::cell::RefCell<csv_core::Reader> = std::cell::RefCell::new(csv_core::Reader::new());
    }
    PARSER.with(|p| {
        let mut p = p.borrow_mut();
        p.reset();
        // Unquoting only shortens a row, and a row has at most one field per byte and one more.
        let mut out = vec![0u8; line.len()];
        let mut ends = vec![0usize; line.len() + 1];
        let (mut input, mut written, mut fields) = (line.as_bytes(), 0, 0);
        loop {
            let (result, read, o, e) = p.read_record(input, &mut out[written..], &mut ends[fields..]);
            input = &input[read..];
            // Field ends count from the row's start, over every call for the row.
            (written, fields) = (written + o, fields + e);
            match result {
                // All of the line read: the next call, with no input, ends the row.
                ReadRecordResult::InputEmpty => {}
                ReadRecordResult::Record => break,
                ReadRecordResult::End => return Err("empty CSV row".to_string()),
                ReadRecordResult::OutputFull | ReadRecordResult::OutputEndsFull => {
                    return Err("not a CSV row: longer than its line".to_string())
                }
            }
        }
        if col >= fields {
            return Err("the row has no puzzle column".to_string());
        }
        let start = if col == 0 { 0 } else { ends[col - 1] };
        String::from_utf8(out[start..ends[col]].to_vec()).map_err(|e| format!("not a CSV row: {e}"))
    })
}

/// A canonical key as written in the books: 32 lower-case hex digits.
pub fn canonical_hex(key: u128) -> String {
    (0..32).rev().map(|i| char::from(b"0123456789abcdef"[(key >> (4 * i)) as usize & 15])).collect()
}

/// Steps as the books print them, two decimals (`{:.2}`): `steps` is already rounded to
/// hundredths (`round_steps`), so its hundredths are a whole number written with a point.
fn push_steps(out: &mut String, steps: f64) {
    let cents = (steps * 100.0).round() as u64;
    push_number(out, cents / 100);
    out.push('.');
    out.push(char::from(b'0' + (cents / 10 % 10) as u8));
    out.push(char::from(b'0' + (cents % 10) as u8));
}

/// `s` as a JSON string. Text with nothing to escape (puzzles, ids) is copied between quotes;
/// anything else goes through serde_json.
fn json_string(out: &mut String, s: &str) {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\' && b < 0x7f) {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        out.push_str(&serde_json::to_string(s).expect("string serialises"));
    }
}

/// The field separator before a field that needs no quoting (`push_csv_field`'s rule).
fn csv_sep(line: &mut String) {
    if !line.is_empty() && !line.ends_with('\n') {
        line.push(',');
    }
}

/// A record's values, as its JSON object prints them (`json_object`).
pub struct Values<'a> {
    pub id: &'a str,
    pub seed: u64,
    pub index: u64,
    pub grade: Grade,
    /// Rounded to hundredths (`round_steps`).
    pub steps: f64,
    pub hardest_level: u8,
    pub givens: usize,
    /// The puzzle and solution in their JSON forms as compact JSON text
    /// (`Kind::puzzle_json_text`, `Kind::solution_json_text`).
    pub puzzle: &'a str,
    pub solution: &'a str,
    /// 32 hex digits (`canonical_hex`).
    pub canonical: &'a str,
    pub steer: u8,
    /// Per technique, in the ladder's order.
    pub usage: &'a [u32],
    /// The kind's extra values, in `extra_names` order.
    pub extras: &'a [Value],
    /// A run with paths: the bottleneck (rounded to thousandths) and shortcut.
    pub paths: Option<(f64, bool)>,
}

/// The JSON object of a record (one line of `puzzles.jsonl`, without its newline): the one
/// writer of it, for the run's records and for those `merge` rebuilds from CSV rows.
pub fn json_object<K: Kind>(v: &Values) -> String {
    let mut json = String::with_capacity(512 + v.puzzle.len() + v.solution.len());
    json.push_str("{\"id\":");
    json_string(&mut json, v.id);
    json.push_str(",\"kind\":");
    json_string(&mut json, K::NAME);
    json.push_str(",\"seed\":");
    push_number(&mut json, v.seed);
    json.push_str(",\"index\":");
    push_number(&mut json, v.index);
    json.push_str(",\"grade\":\"");
    json.push_str(v.grade.name());
    json.push_str("\",\"steps\":");
    json.push_str(&serde_json::to_string(&v.steps).expect("finite steps"));
    json.push_str(",\"hardest_level\":");
    push_number(&mut json, u64::from(v.hardest_level));
    json.push_str(",\"givens\":");
    push_number(&mut json, v.givens as u64);
    json.push_str(",\"puzzle\":");
    json.push_str(v.puzzle);
    json.push_str(",\"solution\":");
    json.push_str(v.solution);
    json.push_str(",\"canonical\":\"");
    json.push_str(v.canonical);
    json.push_str("\",\"steer\":");
    push_number(&mut json, u64::from(v.steer));
    json.push_str(",\"techniques\":{");
    for (i, (t, &u)) in K::Tech::ALL.iter().zip(v.usage).enumerate() {
        json.push_str(if i == 0 { "\"" } else { ",\"" });
        json.push_str(t.name());
        json.push_str("\":");
        push_number(&mut json, u64::from(u));
    }
    json.push('}');
    for (name, x) in K::extra_names().iter().zip(v.extras) {
        let _ = write!(json, ",\"{name}\":{x}");
    }
    if let Some((b, shortcut)) = v.paths {
        let _ = write!(json, ",\"bottleneck\":{b},\"shortcut\":{shortcut}");
    }
    json.push('}');
    json
}

impl Record {
    /// The record of candidate `index` of the run with master seed `master`, generated at
    /// steering level `steer`; `id` is its id.
    pub fn new<K: Kind>(id: &str, master: u64, index: u64, steer: u8, acc: &Accepted<K>) -> Record {
        let kind = K::NAME;
        let steps = round_steps(acc.rating.steps);
        let givens = K::givens(&acc.puzzle);
        let puzzle_text = K::puzzle_text(&acc.puzzle);
        let solution_text = K::solution_text(&acc.solution);
        let extras = K::extra_values(&acc.puzzle, &acc.solution);
        let canonical = canonical_hex(acc.canonical);
        // Numbers, grade names and hex keys never need quoting.
        let field = |line: &mut String, v: u64| {
            csv_sep(line);
            push_number(line, v);
        };

        let mut csv = String::with_capacity(256 + puzzle_text.len() + solution_text.len());
        push_csv_field(&mut csv, id);
        push_csv_field(&mut csv, kind);
        field(&mut csv, master);
        field(&mut csv, index);
        csv_sep(&mut csv);
        csv.push_str(acc.grade.name());
        csv_sep(&mut csv);
        push_steps(&mut csv, steps);
        field(&mut csv, u64::from(acc.rating.hardest_level));
        field(&mut csv, givens as u64);
        push_csv_field(&mut csv, &puzzle_text);
        push_csv_field(&mut csv, &solution_text);
        csv_sep(&mut csv);
        csv.push_str(&canonical);
        field(&mut csv, u64::from(steer));
        for &u in &acc.rating.usage {
            field(&mut csv, u64::from(u));
        }
        for v in &extras {
            match v {
                Value::String(s) => push_csv_field(&mut csv, s),
                // No value (a KenKen too large for Keen has no keen_id): an empty field.
                Value::Null => push_csv_field(&mut csv, ""),
                other => push_csv_field(&mut csv, &other.to_string()),
            }
        }
        let traced = acc.path.as_ref().map(|p| (p, (pf_core::rate::bottleneck(p) * 1000.0).round() / 1000.0));
        if let Some((_, b)) = traced {
            push_csv_field(&mut csv, &b.to_string());
            push_csv_field(&mut csv, &acc.shortcut.unwrap_or(false).to_string());
        }
        csv.push('\n');

        let traced_path = traced.map(|(path, b)| {
            let mut line = String::with_capacity(64 + 96 * path.len());
            line.push_str("{\"id\":");
            json_string(&mut line, id);
            line.push_str(",\"steps\":");
            line.push_str(&serde_json::to_string(path).expect("path serialises"));
            line.push('}');
            (line, b)
        });
        let json = json_object::<K>(&Values {
            id,
            seed: master,
            index,
            grade: acc.grade,
            steps,
            hardest_level: acc.rating.hardest_level,
            givens,
            puzzle: &K::puzzle_json_text(&acc.puzzle),
            solution: &K::solution_json_text(&acc.solution),
            canonical: &canonical,
            steer,
            usage: &acc.rating.usage,
            extras: &extras,
            paths: traced_path.as_ref().map(|(_, b)| (*b, acc.shortcut.unwrap_or(false))),
        });
        let path = traced_path.map(|(line, _)| line);
        Record { csv, json, path }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `csv_field` reads each field as the `csv` crate does (it once built a `csv::Reader` per
    /// row), on our own rows and on quoting, empty fields, short rows and broken quotes.
    #[test]
    fn csv_fields_read_as_the_csv_crate_reads_them() {
        let rows = [
            "sudoku-9-1-0,sudoku,1,0,easy,12.50,1,30,4..5.7,123,abc,0",
            r#"kenken-5-1-0,kenken,1,0,hard,"{""size"":5,""cages"":[[1,2]]}",x"#,
            r#"a,"b,c",,"d""e",é"#,
            ",,",
            "one",
            r#""broken,x"#,
            r#"a,"b"c,d"#,
            "a,b\rc",
            "",
        ];
        for row in rows {
            let mut r = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(row.as_bytes());
            let want: Option<Vec<String>> =
                r.records().next().map(|rec| rec.unwrap().iter().map(str::to_string).collect());
            for col in 0..6 {
                let expect = match &want {
                    None => Err("empty CSV row".to_string()),
                    Some(f) => f.get(col).cloned().ok_or_else(|| "the row has no puzzle column".to_string()),
                };
                assert_eq!(csv_field(row, col), expect, "{row:?} column {col}");
            }
        }
    }
    #[test]
    fn strings_read_as_serde_json_writes_them() {
        for t in ["", "4..5.7", "sudoku-1-0", "say \"hi\"", "back\\slash", "tab\there", "é", "\u{7f}"] {
            let mut s = String::new();
            json_string(&mut s, t);
            assert_eq!(s, serde_json::to_string(t).unwrap(), "{t:?}");
        }
    }

    #[test]
    fn steps_and_keys_read_as_format_writes_them() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..20_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Step counts as the rater makes them (sums of fractions), rounded as the books do.
            let steps = round_steps((x % 4_000_000) as f64 / 997.0 + i as f64 / 3.0);
            let mut s = String::new();
            push_steps(&mut s, steps);
            assert_eq!(s, format!("{steps:.2}"));
            let key = u128::from(x) << (i % 70) | u128::from(i);
            assert_eq!(canonical_hex(key), format!("{key:032x}"));
        }
        assert_eq!(canonical_hex(0), "0".repeat(32));
        let mut s = String::new();
        push_steps(&mut s, 0.0);
        assert_eq!(s, "0.00");
    }

    #[test]
    fn integers_read_as_to_string_writes_them() {
        for v in [0, 7, 10, 99, 100, 12_345, u64::from(u32::MAX), u64::MAX] {
            let mut s = String::from("x");
            push_number(&mut s, v);
            assert_eq!(s, format!("x{v}"));
        }
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        let mut line = String::new();
        for f in ["a", "b,c", "say \"hi\"", "x"] {
            push_csv_field(&mut line, f);
        }
        assert_eq!(line, "a,\"b,c\",\"say \"\"hi\"\"\",x");
        let text = format!("h1,h2,h3,h4\n{line}\n");
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let rec = r.records().next().unwrap().unwrap();
        assert_eq!(&rec[1], "b,c");
        assert_eq!(&rec[2], "say \"hi\"");
    }
}
