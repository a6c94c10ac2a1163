//! `--exclude FILE…`: the canonical keys of earlier puzzles.
//!
//! A file is a book's `puzzles.csv` (its header names a `puzzle` column), or one item per line:
//! a canonical key (32 hex digits, as column `canonical` prints it), a book record (a JSON
//! object with `puzzle`, as in `puzzles.jsonl`), or a puzzle line as `rate` reads it. Keys are
//! recomputed from the puzzles (solved for their one solution, then `Kind::canonical`), so
//! books from any version exclude correctly. Blank lines and `#` comments are skipped; a bad
//! line is an error naming the file and line (exit 2). Lines are worked on in parallel chunks.

use crate::commands::lines;
use crate::config::UsageError;
use crate::kinds::Kind;
use anyhow::{Context as _, Result};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

const CHUNK: usize = 4096;

/// One file's line, reduced to what the key is computed from.
enum Item {
    Key(u128),
    Puzzle(String),
}

/// What to key on in one line: `puzzle_col` is the `puzzle` column of a CSV book.
fn item(line: &str, puzzle_col: Option<usize>) -> Result<Item, String> {
    if let Some(col) = puzzle_col {
        return crate::book::record::csv_field(line, col).map(Item::Puzzle);
    }
    if let Some(k) = crate::library::import::parse_key(line.trim()) {
        return Ok(Item::Key(k));
    }
    let t = line.trim();
    if t.starts_with('{') {
        if let Ok(serde_json::Value::Object(o)) = serde_json::from_str::<serde_json::Value>(t) {
            match o.get("puzzle") {
                Some(serde_json::Value::String(s)) => return Ok(Item::Puzzle(s.clone())),
                Some(v) => return Ok(Item::Puzzle(v.to_string())),
                None => {}
            }
        }
    }
    Ok(Item::Puzzle(t.to_string()))
}

fn key_of<K: Kind>(item: Item, params: &K::Params) -> Result<u128, String> {
    match item {
        Item::Key(k) => Ok(k),
        Item::Puzzle(text) => {
            let p = K::parse(&text, params)?;
            let s = lines::unique_solution::<K>(&p)?;
            Ok(K::canonical(&p, &s))
        }
    }
}

/// The keys of one file, appended to `keys`; returns how many lines gave a key.
fn read_file<K: Kind>(path: &Path, params: &K::Params, keys: &mut Vec<u128>) -> Result<u64> {
    let shown = path.display();
    if path == Path::new("-") {
        return Err(UsageError("--exclude takes files, not standard input".into()).into());
    }
    let records = lines::open(Some(path)).map_err(|e| UsageError(format!("--exclude: {e:#}")))?;
    let mut puzzle_col = None;
    let mut chunk: Vec<(usize, String)> = Vec::with_capacity(CHUNK);
    let mut count = 0u64;
    let mut flush = |chunk: &mut Vec<(usize, String)>, puzzle_col: Option<usize>| -> Result<()> {
        let got: Vec<(usize, Result<u128, String>)> =
            chunk.par_iter().map(|(n, l)| (*n, item(l, puzzle_col).and_then(|i| key_of::<K>(i, params)))).collect();
        for (n, k) in got {
            let k = k.map_err(|e| UsageError(format!("--exclude {shown} line {n}: {e}")))?;
            keys.push(k);
            count += 1;
        }
        chunk.clear();
        Ok(())
    };
    let mut first = true;
    for record in records {
        let (n, line) = record.with_context(|| format!("reading {shown}"))?;
        let line = line.map_err(|e| UsageError(format!("--exclude {shown} line {n}: {e}")))?;
        if lines::skipped(&line) {
            continue;
        }
        if std::mem::take(&mut first) {
            if let Some(col) = crate::book::record::csv_puzzle_column(&line) {
                puzzle_col = Some(col.map_err(|e| UsageError(format!("--exclude {shown} line {n}: {e}")))?);
                continue;
            }
        }
        chunk.push((n, line));
        if chunk.len() == CHUNK {
            flush(&mut chunk, puzzle_col)?;
        }
    }
    flush(&mut chunk, puzzle_col)?;
    Ok(count)
}

/// Per `--exclude` file: its name and how many keys it gave.
pub type PerFile = Vec<(String, u64)>;

/// Every key of every file (repeats included) and, per file, its name and how many keys it gave;
/// puzzle lines are read with the run's parameters.
pub fn read<K: Kind>(files: &[PathBuf], params: &K::Params) -> Result<(Vec<u128>, PerFile)> {
    let mut keys = Vec::new();
    let mut per_file = Vec::new();
    for f in files {
        let n = read_file::<K>(f, params, &mut keys)?;
        per_file.push((f.display().to_string(), n));
    }
    Ok((keys, per_file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::sudoku::Sudoku;

    #[test]
    fn keys_from_csv_books_records_puzzle_lines_and_key_lines() {
        let puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let p = Sudoku::parse(puzzle, &Default::default()).unwrap();
        let key = Sudoku::canonical(&p, &lines::unique_solution::<Sudoku>(&p).unwrap());
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: String| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let files = [
            write(
                "book.csv",
                format!(
                    "id,kind,seed,index,grade,steps,hardest_level,givens,puzzle\nx,sudoku,1,0,easy,1,1,30,{puzzle}\n"
                ),
            ),
            write("book.jsonl", format!("{{\"id\":\"x\",\"puzzle\":\"{puzzle}\"}}\n")),
            write("lines.txt", format!("# a comment\n\n{puzzle}\n")),
            write("keys.txt", format!("{key:032x}\n")),
        ];
        let (keys, per_file) = read::<Sudoku>(&files, &Default::default()).unwrap();
        assert_eq!(keys, [key; 4]);
        assert!(per_file.iter().all(|(_, n)| *n == 1));

        let bad = write("bad.txt", format!("{puzzle}\nnot a puzzle\n"));
        let err = read::<Sudoku>(&[bad], &Default::default()).unwrap_err().to_string();
        assert!(err.contains("bad.txt line 2:"), "{err}");
        let two = write("two.txt", ".".repeat(81));
        assert!(read::<Sudoku>(&[two], &Default::default())
            .unwrap_err()
            .to_string()
            .contains("line 1: puzzle has more than one solution"));
        let missing = dir.path().join("missing.txt");
        assert!(read::<Sudoku>(&[missing], &Default::default()).unwrap_err().downcast_ref::<UsageError>().is_some());
    }
}
