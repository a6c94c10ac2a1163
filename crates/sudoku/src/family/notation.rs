//! The family's formats (SPEC.md, "The Sudoku family"): the JSON object (`size`, `box`,
//! `regions`, `diagonals`, `givens`, `cages`), text lines of n² characters for box puzzles
//! without cages or diagonals (`1`-`9` then `A`-`Z`, `.` or `0` blank; the most square box),
//! and Tatham Solo game IDs (`solo_id`). Every reader names what is wrong and never panics.

use super::shape::{default_box, Cage, Shape};
use super::solo_id;
use serde_json::{json, Value};

/// The symbol of a digit in text lines: 1-9 then A-Z.
pub fn symbol(d: u8) -> char {
    std::char::from_digit(d as u32, 36).map_or('?', |c| c.to_ascii_uppercase())
}

/// Read a text line, a JSON object (bare or a book record's `puzzle`) or a Solo game ID.
/// Read one line; a text line of n² characters takes `text_box` when R·C = n (the run's
/// `--box`), else the most square box.
pub fn parse(line: &str, text_box: Option<(usize, usize)>) -> Result<(Shape, Vec<u8>), String> {
    let t = line.trim();
    if t.starts_with('{') {
        let v: Value = serde_json::from_str(t).map_err(|e| format!("not JSON: {e}"))?;
        let v = match v.get("puzzle") {
            Some(p) if p.is_object() => p.clone(),
            Some(Value::String(s)) => return parse(s, text_box),
            _ => v,
        };
        return from_json(&v);
    }
    if t.contains(':') {
        return solo_id::parse(t);
    }
    parse_text(t, text_box)
}

/// Whether an input line is a family puzzle rather than a classic 9×9 line: a JSON object with
/// a `size` (bare or under `puzzle`), a Solo game ID, or a grid of n² characters for n ≠ 9.
pub fn is_family_line(line: &str) -> bool {
    let t = line.split(['\t', ',']).next().unwrap_or("").trim();
    if t.starts_with('{') {
        return line.contains("\"size\"");
    }
    if t.contains(':') {
        return t.chars().next().is_some_and(|c| c.is_ascii_digit());
    }
    let len = t.chars().count();
    len != 81 && (4..=super::shape::MAX_N).any(|n| n * n == len)
}

/// Read `--box RxC`.
pub(crate) fn parse_box(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{s:?}: expected RxC, e.g. 3x4");
    let (r, c) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?))
}

/// The value parser of `--box` (every command that takes it): `RxC` with R and C at least 2
/// (a box one cell tall or wide is a row or a column, and the board a Latin square, not a
/// Sudoku) and R·C from 4 to 25. The value is kept as given.
pub(crate) fn box_value(s: &str) -> Result<String, String> {
    let (r, c) = parse_box(s)?;
    if r < 2 || c < 2 {
        return Err(format!(
            "a box needs at least 2 rows and 2 columns ({r}x{c} makes a Latin square, not a Sudoku); boxes go from \
             2x2 to 5x5"
        ));
    }
    if r * c > super::shape::MAX_N {
        return Err(format!("{r}x{c} makes {} symbols: 4 to {} are possible", r * c, super::shape::MAX_N));
    }
    Ok(s.to_string())
}

/// An n² character line with the most square box (or `text_box` when it fits).
pub(crate) fn parse_text(t: &str, text_box: Option<(usize, usize)>) -> Result<(Shape, Vec<u8>), String> {
    let len = t.chars().count();
    let n = (4..=super::shape::MAX_N).find(|n| n * n == len).ok_or_else(|| {
        format!("{len} characters: a text puzzle has n² characters for n from 4 to {}", super::shape::MAX_N)
    })?;
    let mut givens = Vec::with_capacity(len);
    for (i, ch) in t.chars().enumerate() {
        let d = match ch {
            '.' | '0' => 0,
            _ => match ch.to_digit(36) {
                Some(d) if d as usize <= n => d as u8,
                _ => return Err(format!("character {} ({ch:?}) is not a digit 1 to {n} or a blank", i + 1)),
            },
        };
        givens.push(d);
    }
    let b = text_box.filter(|(r, c)| r * c == n).unwrap_or(default_box(n));
    if b.0 < 2 {
        return Err(format!(
            "{len} characters: no box of at least 2x2 makes {n} symbols (give a {n}x{n} jigsaw as a JSON object \
             with \"regions\")"
        ));
    }
    let shape = Shape::new(n, Some(b), None, false, Vec::new())?;
    Ok((shape, givens))
}

fn grid_rows(v: &Value, n: usize, what: &str) -> Result<Vec<u8>, String> {
    let rows = v.as_array().ok_or_else(|| format!("{what} must be an array of rows"))?;
    if rows.len() != n {
        return Err(format!("{what} has {} rows, expected {n}", rows.len()));
    }
    let mut out = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let row = row.as_array().ok_or_else(|| format!("{what} row {r} is not an array"))?;
        if row.len() != n {
            return Err(format!("{what} row {r} has {} entries, expected {n}", row.len()));
        }
        for x in row {
            let d = x.as_u64().filter(|&d| d <= 255).ok_or_else(|| format!("{what} row {r}: {x} is not a number"))?;
            out.push(d as u8);
        }
    }
    Ok(out)
}

/// Read the JSON object form.
pub fn from_json(v: &Value) -> Result<(Shape, Vec<u8>), String> {
    let n = pf_core::common::json::whole(v, "size", 4..=super::shape::MAX_N as u64)? as usize;
    let boxes = match v.get("box") {
        None | Some(Value::Null) => None,
        Some(b) => {
            let b = b.as_array().filter(|b| b.len() == 2).ok_or("\"box\" must be [R, C] or null")?;
            let r = b[0].as_u64().ok_or("\"box\" must hold numbers")? as usize;
            let c = b[1].as_u64().ok_or("\"box\" must hold numbers")? as usize;
            Some((r, c))
        }
    };
    let regions = match v.get("regions") {
        None | Some(Value::Null) => None,
        Some(r) => Some(grid_rows(r, n, "regions")?),
    };
    if boxes.is_none() && regions.is_none() {
        return Err("a jigsaw (\"box\": null) needs \"regions\"".into());
    }
    let diagonals = match v.get("diagonals") {
        None | Some(Value::Null) => false,
        Some(d) => d.as_bool().ok_or("\"diagonals\" must be true or false")?,
    };
    let givens = match v.get("givens") {
        None => vec![0; n * n],
        Some(g) => grid_rows(g, n, "givens")?,
    };
    if let Some(i) = givens.iter().position(|&d| d as usize > n) {
        return Err(format!("givens: {} at [{}, {}] is above {n}", givens[i], i / n, i % n));
    }
    let mut cages = Vec::new();
    if let Some(cs) = v.get("cages").filter(|c| !c.is_null()) {
        let cs = cs.as_array().ok_or("\"cages\" must be an array")?;
        for (i, c) in cs.iter().enumerate() {
            let sum = pf_core::common::json::whole(c, "sum", 0..=u32::MAX as u64)
                .map_err(|e| format!("cage {}: {e}", i + 1))?;
            let cells =
                c.get("cells").and_then(Value::as_array).ok_or_else(|| format!("cage {}: \"cells\" missing", i + 1))?;
            let mut list = Vec::new();
            for cell in cells {
                let rc = cell
                    .as_array()
                    .filter(|a| a.len() == 2)
                    .ok_or_else(|| format!("cage {}: a cell is not [r, c]", i + 1))?;
                let (r, col) = (rc[0].as_u64().unwrap_or(u64::MAX), rc[1].as_u64().unwrap_or(u64::MAX));
                if r >= n as u64 || col >= n as u64 {
                    return Err(format!("cage {}: cell {cell} is outside the grid", i + 1));
                }
                list.push((r as usize * n + col as usize) as u16);
            }
            cages.push(Cage { sum: sum as u32, cells: list });
        }
    }
    let shape = Shape::new(n, boxes, regions, diagonals, cages)?;
    Ok((shape, givens))
}

fn rows(n: usize, cells: &[u8]) -> Value {
    Value::Array(cells.chunks(n).map(|r| json!(r)).collect())
}

/// The JSON object form.
pub fn to_json(shape: &Shape, givens: &[u8]) -> Value {
    let n = shape.n;
    let mut v = json!({
        "size": n,
        "box": shape.boxes.map(|(r, c)| json!([r, c])),
        "regions": rows(n, &shape.regions),
        "diagonals": shape.diagonals,
        "givens": rows(n, givens),
    });
    if shape.is_killer() {
        v["cages"] = shape
            .cages
            .iter()
            .map(|k| json!({"sum": k.sum, "cells": k.cells.iter().map(|&c| json!([c as usize / n, c as usize % n])).collect::<Vec<_>>()}))
            .collect();
    }
    v
}

/// The text line, where the puzzle has one (default box, no diagonals, no cages).
pub(crate) fn to_text(shape: &Shape, givens: &[u8]) -> Option<String> {
    (shape.boxes == Some(default_box(shape.n)) && !shape.diagonals && !shape.is_killer())
        .then(|| givens.iter().map(|&d| if d == 0 { '.' } else { symbol(d) }).collect())
}

/// A full grid as an array of rows.
pub fn solution_json(grid: &[u8]) -> Value {
    let n = (grid.len() as f64).sqrt().round() as usize;
    rows(n.max(1), grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_line_takes_the_box_it_is_given_when_the_sizes_match() {
        let six = ".".repeat(36);
        assert_eq!(parse(&six, None).unwrap().0.boxes, Some((2, 3)));
        assert_eq!(parse(&six, Some((3, 2))).unwrap().0.boxes, Some((3, 2)));
        // A box of another size leaves the most square one.
        assert_eq!(parse(&six, Some((2, 4))).unwrap().0.boxes, Some((2, 3)));
    }

    #[test]
    fn text_and_json_round_trip() {
        let line = "1..4.4..2..1..3.";
        let (s, g) = parse(line, None).unwrap();
        assert_eq!((s.n, s.boxes), (4, Some((2, 2))));
        assert_eq!(to_text(&s, &g).unwrap(), line);
        let v = to_json(&s, &g);
        let (s2, g2) = from_json(&v).unwrap();
        assert_eq!((s2, g2), (s.clone(), g.clone()));
        let record = json!({"id": "x", "puzzle": v}).to_string();
        assert_eq!(parse(&record, None).unwrap().1, g);
        let big: String = "A".to_string() + &".".repeat(255);
        let (s16, g16) = parse(&big, None).unwrap();
        assert_eq!((s16.n, g16[0]), (16, 10));
    }

    #[test]
    fn bad_input_is_named() {
        assert!(parse("12345", None).unwrap_err().contains("5 characters"));
        assert!(parse("5..4.4..2..1..3.", None).unwrap_err().contains("character 1"));
        assert!(parse("{\"size\": 4}", None).is_err());
        assert!(parse("{\"size\": 4, \"box\": [2, 2], \"givens\": [[1]]}", None).unwrap_err().contains("givens"));
        assert!(parse("{\"size\": 4, \"box\": null}", None).unwrap_err().contains("regions"));
        let cage = "{\"size\": 4, \"box\": [2, 2], \"cages\": [{\"sum\": 3, \"cells\": [[0, 0], [9, 9]]}]}";
        assert!(parse(cage, None).unwrap_err().contains("outside"));
        assert!(parse("{not json", None).is_err());
    }
}
