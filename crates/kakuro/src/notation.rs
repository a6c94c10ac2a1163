//! Kakuro text forms: the SPEC JSON object (`#` block, `.` white, `D\R` clue block; bare or
//! under `"puzzle"` in a book record), and the MiniZinc `.dzn` data files of the
//! minizinc-benchmarks collection in both of their syntaxes (`h_clue = [| row, col, len, sum |
//! ... |]` and `h_clue = [(row: r, col: c, len: l, sum: s), ...]`; clues 1-based, naming the
//! clue block, the run being the `len` cells right of it or below it).

use super::solve::Layout;
use super::{Cell, Grid, Kakuro, MAX_READ_SIDE};
use serde_json::{json, Value};

fn cell_text(c: Cell) -> String {
    match c {
        Cell::White => ".".into(),
        Cell::Block { down: 0, right: 0 } => "#".into(),
        Cell::Block { down, right } => {
            let part = |x: u8| if x == 0 { String::new() } else { x.to_string() };
            format!("{}\\{}", part(down), part(right))
        }
    }
}

pub fn to_json(p: &Kakuro) -> Value {
    let rows: Vec<Value> =
        p.cells.chunks(p.cols).map(|row| Value::Array(row.iter().map(|&c| cell_text(c).into()).collect())).collect();
    json!({"rows": p.rows, "cols": p.cols, "cells": rows})
}

/// A full board grid (0 on blocks) as an array of rows. Needs the column count.
pub fn grid_rows(g: &[u8], cols: usize) -> Value {
    Value::Array(g.chunks(cols.max(1)).map(|row| row.iter().map(|&d| Value::from(d)).collect()).collect())
}

/// A solution as an array of rows (0 on blocks).
pub fn grid_json(g: &Grid) -> Value {
    grid_rows(&g.digits, g.cols)
}

fn parse_cell(s: &str) -> Result<Cell, String> {
    let s = s.trim();
    match s {
        "." | "" | "_" => Ok(Cell::White),
        "#" => Ok(Cell::Block { down: 0, right: 0 }),
        _ => {
            let (d, r) = s.split_once('\\').ok_or_else(|| format!("cell {s:?} is not #, . or D\\R"))?;
            let num = |x: &str| -> Result<u8, String> {
                if x.trim().is_empty() {
                    return Ok(0);
                }
                match x.trim().parse::<u8>() {
                    Ok(v @ 1..=45) => Ok(v),
                    _ => Err(format!("cell {s:?}: sum {x:?} is not a number from 1 to 45")),
                }
            };
            Ok(Cell::Block { down: num(d)?, right: num(r)? })
        }
    }
}

fn from_json(v: &Value) -> Result<Kakuro, String> {
    let v = v.get("puzzle").filter(|p| p.is_object()).unwrap_or(v);
    let size = |key: &str| -> Result<usize, String> {
        let n = v.get(key).and_then(Value::as_u64).ok_or_else(|| format!("missing \"{key}\" (a number)"))?;
        if !(1..=MAX_READ_SIDE as u64).contains(&n) {
            return Err(format!("\"{key}\" must be 1 to {MAX_READ_SIDE}, got {n}"));
        }
        Ok(n as usize)
    };
    let (rows, cols) = (size("rows")?, size("cols")?);
    let grid = v.get("cells").and_then(Value::as_array).ok_or("missing \"cells\" (an array of rows)")?;
    if grid.len() != rows {
        return Err(format!("\"cells\" has {} rows, \"rows\" says {rows}", grid.len()));
    }
    let mut cells = Vec::with_capacity(rows * cols);
    for (r, row) in grid.iter().enumerate() {
        let row = row.as_array().ok_or_else(|| format!("row {r} of \"cells\" is not an array"))?;
        if row.len() != cols {
            return Err(format!("row {r} of \"cells\" has {} cells, \"cols\" says {cols}", row.len()));
        }
        for (c, x) in row.iter().enumerate() {
            let s = x.as_str().ok_or_else(|| format!("cell [{r}, {c}] is not a string"))?;
            cells.push(parse_cell(s).map_err(|e| format!("cell [{r}, {c}]: {e}"))?);
        }
    }
    let p = Kakuro { rows, cols, cells };
    Layout::new(&p)?;
    Ok(p)
}

/// Strip `%` comments, then split `name = value;` statements.
fn dzn_statements(text: &str) -> Vec<(String, String)> {
    let clean: String = text.lines().map(|l| l.split('%').next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    clean
        .split(';')
        .filter_map(|s| s.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

fn integers(text: &str) -> Result<Vec<i64>, String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<i64>().map_err(|_| format!("{t:?} is not a number")))
        .collect()
}

/// Read a MiniZinc kakuro data file (either syntax).
pub fn from_dzn(text: &str) -> Result<Kakuro, String> {
    let stmts = dzn_statements(text);
    let get = |k: &str| stmts.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let grid_text = get("grid_data").ok_or("dzn: missing grid_data")?;
    let inner = grid_text.trim().trim_start_matches('[').trim_end_matches(']').trim_matches('|');
    let grid_rows: Vec<Vec<i64>> =
        inner.split('|').map(integers).filter(|r| !matches!(r, Ok(v) if v.is_empty())).collect::<Result<_, _>>()?;
    let rows = grid_rows.len();
    let cols = grid_rows.first().map_or(0, Vec::len);
    if rows == 0 || cols == 0 || grid_rows.iter().any(|r| r.len() != cols) {
        return Err("dzn: grid_data rows are empty or of different lengths".into());
    }
    for (key, n) in [("h", rows), ("w", cols)] {
        if let Some(v) = get(key) {
            if integers(v)? != [n as i64] {
                return Err(format!("dzn: {key} = {v} does not match grid_data ({rows}×{cols})"));
            }
        }
    }
    if rows > MAX_READ_SIDE || cols > MAX_READ_SIDE {
        return Err(format!("dzn: board {rows}×{cols} is larger than {MAX_READ_SIDE}×{MAX_READ_SIDE}"));
    }
    let mut cells: Vec<Cell> = grid_rows
        .iter()
        .flatten()
        .map(|&x| match x {
            1 => Ok(Cell::White),
            0 => Ok(Cell::Block { down: 0, right: 0 }),
            _ => Err(format!("dzn: grid_data holds {x} (only 0 and 1)")),
        })
        .collect::<Result<_, _>>()?;
    for (key, across) in [("h_clue", true), ("v_clue", false)] {
        let text = get(key).ok_or_else(|| format!("dzn: missing {key}"))?;
        let stripped = ["row:", "col:", "len:", "sum:"].iter().fold(text.to_string(), |t, k| t.replace(k, " "));
        let nums = integers(&stripped)?;
        if nums.len() % 4 != 0 {
            return Err(format!("dzn: {key} does not hold (row, col, len, sum) groups"));
        }
        for (i, q) in nums.chunks(4).enumerate() {
            let what = |m: String| format!("dzn: {key} clue {}: {m}", i + 1);
            let (r, c, len, sum) = (q[0], q[1], q[2], q[3]);
            if !(1..=rows as i64).contains(&r) || !(1..=cols as i64).contains(&c) {
                return Err(what(format!("row {r}, col {c} is outside the board")));
            }
            if !(1..=45).contains(&sum) {
                return Err(what(format!("sum {sum} is not 1 to 45")));
            }
            let (r, c) = (r as usize - 1, c as usize - 1);
            let Cell::Block { down, right } = &mut cells[r * cols + c] else {
                return Err(what(format!("row {}, col {} is a white cell", r + 1, c + 1)));
            };
            if across {
                *right = sum as u8
            } else {
                *down = sum as u8
            };
            let (dr, dc) = if across { (0, 1) } else { (1, 0) };
            let run = (1..)
                .map(|k| (r + dr * k, c + dc * k))
                .take_while(|&(rr, cc)| rr < rows && cc < cols && grid_rows[rr][cc] == 1)
                .count();
            if run as i64 != len {
                return Err(what(format!("len {len}, but the run from row {}, col {} has {run} cells", r + 1, c + 1)));
            }
        }
    }
    let p = Kakuro { rows, cols, cells };
    Layout::new(&p).map_err(|e| format!("dzn: {e}"))?;
    Ok(p)
}

/// Read one line: the JSON form (bare or inside a record) or a `.dzn` file's text.
pub fn parse(line: &str) -> Result<Kakuro, String> {
    let t = line.trim();
    if t.starts_with('{') {
        let v: Value = serde_json::from_str(t).map_err(|e| format!("not valid JSON: {e}"))?;
        from_json(&v)
    } else if t.contains("grid_data") {
        from_dzn(t)
    } else {
        Err("expected a Kakuro JSON object {\"rows\": …, \"cols\": …, \"cells\": […]} or .dzn data".into())
    }
}
