//! KenKen text forms: the SPEC JSON object (bare, or under `"puzzle"` in a book record) and
//! Tatham's Keen game ID (`N:LAYOUT,CLUES`, see ../shared/formats/keen-game-id.md), read and
//! written. Our JSON also reads op `"?"` (target with no operator, as some collections print).

use super::{Cage, KenKen};
use pf_core::common::cage::Op;
use pf_core::common::json;
use serde_json::{json, Value};

pub fn to_json(p: &KenKen) -> Value {
    let n = p.size as usize;
    let cages: Vec<Value> = p
        .cages
        .iter()
        .map(|c| {
            let cells: Vec<Value> = c.cells.iter().map(|&x| json!([x as usize / n, x as usize % n])).collect();
            json!({"op": c.op.symbol(), "target": c.target, "cells": cells})
        })
        .collect();
    json!({"size": p.size, "cages": cages})
}

/// `to_json` as compact JSON text, byte for byte, written without building the value: every
/// book record holds the puzzle twice (its CSV row and its JSON line), and building the value
/// took a fifth of a 6×6 order's time.
pub fn to_json_text(p: &KenKen) -> String {
    let n = p.size as usize;
    let cells: usize = p.cages.iter().map(|c| c.cells.len()).sum();
    let mut out = String::with_capacity(24 + 40 * p.cages.len() + 8 * cells);
    out.push_str("{\"size\":");
    json::push_number(&mut out, u64::from(p.size));
    out.push_str(",\"cages\":[");
    for (i, c) in p.cages.iter().enumerate() {
        out.push_str(if i == 0 { "{\"op\":\"" } else { ",{\"op\":\"" });
        out.push_str(c.op.symbol());
        out.push_str("\",\"target\":");
        json::push_number(&mut out, u64::from(c.target));
        out.push_str(",\"cells\":[");
        for (j, &x) in c.cells.iter().enumerate() {
            out.push_str(if j == 0 { "[" } else { ",[" });
            json::push_number(&mut out, (x as usize / n) as u64);
            out.push(',');
            json::push_number(&mut out, (x as usize % n) as u64);
            out.push(']');
        }
        out.push_str("]}");
    }
    out.push_str("]}");
    out
}

pub fn grid_json(g: &[u8]) -> Value {
    json::square_grid(g)
}

fn from_json(v: &Value) -> Result<KenKen, String> {
    let v = v.get("puzzle").filter(|p| p.is_object()).unwrap_or(v);
    let size = json::whole(v, "size", 1..=12)?;
    let n = size as usize;
    let cages = v.get("cages").and_then(Value::as_array).ok_or("missing \"cages\" (an array)")?;
    let mut out = Vec::with_capacity(cages.len());
    for (i, c) in cages.iter().enumerate() {
        let what = |m: &str| format!("cage {}: {m}", i + 1);
        let op_text = c.get("op").and_then(Value::as_str).ok_or_else(|| what("missing \"op\""))?;
        let op = Op::from_symbol(op_text).ok_or_else(|| what(&format!("unknown op {op_text:?} (+ - * / = ?)")))?;
        let target = json::whole(c, "target", 0..=u32::MAX as u64).map_err(|e| what(&e))?;
        let cells = c.get("cells").and_then(Value::as_array).ok_or_else(|| what("missing \"cells\""))?;
        let mut idx = Vec::with_capacity(cells.len());
        for cell in cells {
            let pair = cell.as_array().filter(|a| a.len() == 2).ok_or_else(|| what("a cell is not [row, col]"))?;
            let (r, col) = (pair[0].as_u64().unwrap_or(u64::MAX), pair[1].as_u64().unwrap_or(u64::MAX));
            if r >= size || col >= size {
                return Err(what(&format!("cell [{}, {}] is outside the grid", pair[0], pair[1])));
            }
            idx.push((r as usize * n + col as usize) as u8);
        }
        out.push(Cage { op, target: target as u32, cells: idx });
    }
    let p = KenKen { size: size as u8, cages: out };
    p.validate()?;
    Ok(p)
}

/// Read one line: the JSON form (bare or inside a record) or a Keen game ID.
pub fn parse(line: &str) -> Result<KenKen, String> {
    let t = line.trim();
    if t.starts_with('{') {
        let v: Value = serde_json::from_str(t).map_err(|e| format!("not valid JSON: {e}"))?;
        from_json(&v)
    } else if t.chars().next().is_some_and(|c| c.is_ascii_digit()) && t.contains(':') {
        parse_keen(t.split_whitespace().next().unwrap_or(t))
    } else {
        Err("expected a KenKen JSON object or a Keen game ID (N:LAYOUT,CLUES)".into())
    }
}

/// The border positions of a w×w grid in Keen order: vertical borders in reading order, then
/// horizontal borders column by column. Each is the pair of cells it separates.
fn borders(w: usize) -> Vec<(usize, usize)> {
    let mut b = Vec::with_capacity(2 * w * (w - 1));
    for y in 0..w {
        for x in 0..w - 1 {
            b.push((y * w + x, y * w + x + 1));
        }
    }
    for x in 0..w {
        for y in 0..w - 1 {
            b.push((y * w + x, (y + 1) * w + x));
        }
    }
    b
}

/// The Keen game ID of a puzzle (sizes 3 to 9, which Keen loads); `None` otherwise.
pub fn keen_id(p: &KenKen) -> Option<String> {
    let w = p.size as usize;
    if !(3..=9).contains(&w) || p.cages.iter().any(|c| c.op == Op::Any) {
        return None;
    }
    let mut cage_of = vec![0usize; w * w];
    for (k, c) in p.cages.iter().enumerate() {
        for &x in &c.cells {
            cage_of[x as usize] = k;
        }
    }
    // Runs of open borders between walls; the virtual border at the end is a wall.
    let mut runs = Vec::new();
    let mut open = 0usize;
    for (a, b) in borders(w) {
        if cage_of[a] == cage_of[b] {
            open += 1;
        } else {
            runs.push(open);
            open = 0;
        }
    }
    runs.push(open);
    let mut symbols = Vec::new();
    for mut k in runs {
        while k > 25 {
            symbols.push('z');
            k -= 25;
        }
        symbols.push(if k == 0 { '_' } else { (b'a' + k as u8 - 1) as char });
    }
    let mut layout = String::new();
    let mut i = 0;
    while i < symbols.len() {
        let c = symbols[i];
        let mut j = i;
        while j < symbols.len() && symbols[j] == c {
            j += 1;
        }
        let reps = j - i;
        if reps >= 3 {
            layout.push(c);
            layout.push_str(&reps.to_string());
        } else {
            (0..reps).for_each(|_| layout.push(c));
        }
        i = j;
    }
    let mut order: Vec<usize> = (0..p.cages.len()).collect();
    order.sort_by_key(|&k| p.cages[k].cells.iter().min().copied());
    let mut clues = String::new();
    for k in order {
        let c = &p.cages[k];
        let letter = match c.op {
            Op::Add | Op::Given => 'a',
            Op::Mul => 'm',
            Op::Sub => 's',
            Op::Div => 'd',
            Op::Any => unreachable!("checked above"),
        };
        clues.push(letter);
        clues.push_str(&c.target.to_string());
    }
    Some(format!("{w}:{layout},{clues}"))
}

/// Read a Keen game ID `PARAMS:LAYOUT,CLUES`.
pub(crate) fn parse_keen(id: &str) -> Result<KenKen, String> {
    let (params, desc) = id.split_once(':').ok_or("a Keen ID needs ':'")?;
    let digits: String = params.chars().take_while(|c| c.is_ascii_digit()).collect();
    let w: usize = digits.parse().map_err(|_| format!("Keen ID size {params:?} is not a number"))?;
    if !(3..=9).contains(&w) {
        return Err(format!("Keen ID size must be 3 to 9, got {w}"));
    }
    let (layout, clue_text) = desc.split_once(',').ok_or("a Keen ID needs LAYOUT,CLUES")?;
    let cells = keen_layout(layout, w)?;
    let clues = keen_clues(clue_text)?;
    if clues.len() != cells.len() {
        return Err(format!("the Keen layout has {} cages but {} clues", cells.len(), clues.len()));
    }
    let cages = cells
        .into_iter()
        .zip(clues)
        .map(|(cells, (op, target))| {
            let op = if cells.len() == 1 && op == Op::Add { Op::Given } else { op };
            Cage { op, target, cells }
        })
        .collect();
    let p = KenKen { size: w as u8, cages };
    p.validate()?;
    Ok(p)
}

/// Union-find root of `x`, with path compression.
fn find(p: &mut [usize], x: usize) -> usize {
    let mut r = x;
    while p[r] != r {
        r = p[r];
    }
    let mut y = x;
    while p[y] != r {
        let next = p[y];
        p[y] = r;
        y = next;
    }
    r
}

/// The cages of a Keen layout string (run-length coded open edges and walls between cells), as
/// cell lists in order of their smallest cell.
fn keen_layout(layout: &str, w: usize) -> Result<Vec<Vec<u8>>, String> {
    let bs = borders(w);
    let mut parent: Vec<usize> = (0..w * w).collect();
    let chars: Vec<char> = layout.chars().collect();
    let (mut pos, mut i) = (0usize, 0usize);
    let end = bs.len() + 1;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        let mut reps = String::new();
        while i < chars.len() && chars[i].is_ascii_digit() {
            reps.push(chars[i]);
            i += 1;
        }
        let reps: usize = if reps.is_empty() { 1 } else { reps.parse().map_err(|_| "bad repeat count")? };
        let (open, wall) = match c {
            '_' => (0, true),
            'a'..='y' => (c as usize - 'a' as usize + 1, true),
            'z' => (25, false),
            other => return Err(format!("unexpected {other:?} in the Keen layout")),
        };
        for _ in 0..reps {
            for _ in 0..open {
                let &(a, b) = bs.get(pos).ok_or("too much data in the Keen layout")?;
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                parent[ra] = rb;
                pos += 1;
            }
            if wall {
                pos += 1;
            }
            if pos > end {
                return Err("too much data in the Keen layout".into());
            }
        }
    }
    if pos != end {
        return Err("not enough data in the Keen layout".into());
    }
    let mut root_to_cage = std::collections::HashMap::new();
    let mut cells: Vec<Vec<u8>> = Vec::new();
    for x in 0..w * w {
        let r = find(&mut parent, x);
        let k = *root_to_cage.entry(r).or_insert_with(|| {
            cells.push(Vec::new());
            cells.len() - 1
        });
        cells[k].push(x as u8);
    }
    Ok(cells)
}

/// The clues of a Keen ID: a letter (a, m, s, d) and a number each.
fn keen_clues(text: &str) -> Result<Vec<(Op, u32)>, String> {
    let mut clues = Vec::new();
    let cs: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let letter = cs[i];
        i += 1;
        let mut num = String::new();
        while i < cs.len() && cs[i].is_ascii_digit() {
            num.push(cs[i]);
            i += 1;
        }
        let target: u32 = num.parse().map_err(|_| format!("clue {:?} has no number", letter))?;
        let op = match letter {
            'a' => Op::Add,
            'm' => Op::Mul,
            's' => Op::Sub,
            'd' => Op::Div,
            other => return Err(format!("unknown Keen clue letter {other:?} (a, m, s, d)")),
        };
        clues.push((op, target));
    }
    Ok(clues)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC_ID: &str = "4:aa_aab_a_a_4b,d2s2m4m6a10a9";

    #[test]
    fn reads_the_documented_keen_example_and_writes_it_back() {
        let p = parse(DOC_ID).unwrap();
        assert_eq!(p.cages.len(), 6);
        assert_eq!(p.cages[0], Cage { op: Op::Div, target: 2, cells: vec![0, 1] });
        assert_eq!(p.cages[3].cells, vec![5, 9, 10]);
        assert_eq!(p.cages[4], Cage { op: Op::Add, target: 10, cells: vec![6, 7, 11, 15] });
        assert_eq!(keen_id(&p).unwrap(), DOC_ID);
        let f = super::super::solve::count_solutions(&p, 2);
        assert_eq!(f.count, 1);
        assert_eq!(f.first.unwrap(), vec![2, 4, 1, 3, 4, 1, 3, 2, 1, 3, 2, 4, 3, 2, 4, 1]);
    }

    #[test]
    fn json_text_is_the_values_json_at_every_size() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for size in 3..=12u8 {
            let params = crate::KenKenParams { size, ..Default::default() };
            for _ in 0..3 {
                let g = crate::generate::generate(&params, &mut rng).unwrap();
                assert_eq!(to_json_text(&g.puzzle), to_json(&g.puzzle).to_string());
            }
        }
        let p = parse(DOC_ID).unwrap();
        assert_eq!(to_json_text(&p), to_json(&p).to_string());
    }

    #[test]
    fn json_round_trip_and_errors() {
        let p = parse(DOC_ID).unwrap();
        let text = to_json(&p).to_string();
        assert_eq!(parse(&text).unwrap(), p);
        let record = format!("{{\"id\":\"x\",\"puzzle\":{text}}}");
        assert_eq!(parse(&record).unwrap(), p);
        assert!(parse("{\"size\":4}").unwrap_err().contains("cages"));
        assert!(parse(&text.replace("\"/\"", "\"%\"")).unwrap_err().contains("unknown op"));
        assert!(parse("4:aa_aab_a_a_4,d2s2m4m6a10a9").unwrap_err().contains("not enough data"));
        assert!(parse("hello").is_err());
    }

    #[test]
    fn numbers_out_of_range_are_named_not_missing() {
        let cage =
            |target: &str| format!("{{\"size\":1,\"cages\":[{{\"op\":\"=\",\"target\":{target},\"cells\":[[0,0]]}}]}}");
        assert!(parse(&cage("1")).is_ok());
        for (target, says) in [
            ("1e30", "\"target\" 1e+30 is out of range (0 to 4294967295)"),
            ("4294967296", "out of range"),
            ("-3", "\"target\" -3 is out of range"),
            ("2.5", "must be a whole number, got 2.5"),
            ("\"7\"", "must be a number"),
        ] {
            let e = parse(&cage(target)).unwrap_err();
            assert!(e.contains(says) && e.starts_with("cage 1: "), "{target}: {e}");
        }
        assert!(parse("{\"size\":4,\"cages\":[{\"op\":\"+\",\"cells\":[]}]}")
            .unwrap_err()
            .contains("missing \"target\""));
        let e = parse("{\"size\":1e30,\"cages\":[]}").unwrap_err();
        assert!(e.contains("\"size\" 1e+30 is out of range (1 to 12)"), "{e}");
        assert!(parse("{\"size\":13,\"cages\":[]}").unwrap_err().contains("out of range (1 to 12)"));
    }
}
