//! Skyscrapers text forms, read and written: the SPEC JSON object (bare, or under `"puzzle"` in
//! a book record) and Tatham's Towers game ID (`towers_id`); read only: the janko.at scraper's
//! object (`clabels`, `rlabels`, an optional `problem`).
//!
//! JSON (SPEC.md): `{"size": N, "top": [N clues], "bottom": [N], "left": [N], "right": [N],
//! "givens": [[row of N heights, 0 blank] × N]}`. The top and bottom lists run left to right, the
//! left and right ones top to bottom, 0 for no clue: the four lists one after the other are
//! `Skyscrapers::clues`. `givens` is always written; read, it is optional (all blank without it).
//!
//! Towers game ID: `N:CLUES[,GRID]` (the parameters may carry a difficulty, `5de:`, which is
//! ignored). CLUES are the 4N clues in `Skyscrapers::clues` order joined by `/`, an empty field
//! for no clue. GRID, present only when there is a given, runs over the N² cells row-major: a
//! letter `a` to `z` stands for 1 to 26 blank cells, a number for a given, and `_` parts two
//! givens that follow each other. Towers goes up to 9; a larger board has no game ID
//! (`towers_id` gives an empty string).

use super::{clue_name, Skyscrapers};
use pf_core::common::json;
use serde_json::{json, Value};

/// The largest board read (generated: 4 to 12).
pub const MAX_SIZE: u64 = 12;

/// The largest board a Towers game ID is written for (Towers' own limit).
const TOWERS_MAX: usize = 9;

/// The JSON keys of the four edges, in `Skyscrapers::clues` order.
const EDGES: [&str; 4] = ["top", "bottom", "left", "right"];

/// The SPEC JSON object (keys in the order size, top, bottom, left, right, givens).
pub fn to_json(p: &Skyscrapers) -> Value {
    let n = (p.size as usize).max(1);
    let edge = |e: usize| json!(p.clues[e * n..(e + 1) * n]);
    let givens: Vec<Value> = p.givens.chunks(n).map(|row| json!(row)).collect();
    json!({"size": p.size, "top": edge(0), "bottom": edge(1), "left": edge(2), "right": edge(3), "givens": givens})
}

/// `to_json(p)` as compact JSON text, byte for byte, written without building the value:
/// every book record holds it twice, and building the value was a tenth of an easy run.
pub fn to_json_text(p: &Skyscrapers) -> String {
    use pf_core::common::json::{push_number, push_numbers, push_square_grid};
    let n = (p.size as usize).max(1);
    let mut out = String::with_capacity(64 + 10 * n + 3 * p.givens.len());
    out.push_str("{\"size\":");
    push_number(&mut out, u64::from(p.size));
    for (e, name) in EDGES.iter().enumerate() {
        out.push_str(",\"");
        out.push_str(name);
        out.push_str("\":");
        push_numbers(&mut out, &p.clues[e * n..(e + 1) * n]);
    }
    out.push_str(",\"givens\":");
    push_square_grid(&mut out, &p.givens);
    out.push('}');
    out
}

/// A full grid (a solution) as an array of rows of numbers.
pub fn grid_json(g: &[u8]) -> Value {
    pf_core::common::json::square_grid(g)
}

fn from_json(v: &Value) -> Result<Skyscrapers, String> {
    let v = v.get("puzzle").filter(|p| p.is_object()).unwrap_or(v);
    let v = v.get("data").filter(|p| p.is_object()).unwrap_or(v);
    if v.get("clabels").is_some() || v.get("rlabels").is_some() {
        return from_janko(v);
    }
    let size = json::whole(v, "size", 1..=MAX_SIZE)?;
    let n = size as usize;
    let mut clues = Vec::with_capacity(4 * n);
    for name in EDGES {
        let list = v
            .get(name)
            .and_then(Value::as_array)
            .ok_or_else(|| format!("missing \"{name}\" (an array of {n} clues, 0 for none)"))?;
        if list.len() != n {
            return Err(format!("\"{name}\" has {} clues, the size is {n}", list.len()));
        }
        for c in list {
            match c.as_u64() {
                Some(c) if c <= size => clues.push(c as u8),
                _ => return Err(format!("{} (\"{name}\"): {c} is not a clue 0 to {n}", clue_name(n, clues.len()))),
            }
        }
    }
    let givens = match v.get("givens") {
        None | Some(Value::Null) => vec![0; n * n],
        Some(rows) => {
            let rows = rows.as_array().ok_or("\"givens\" is not an array of rows")?;
            if rows.len() != n {
                return Err(format!("\"givens\" has {} rows, the size is {n}", rows.len()));
            }
            let mut givens = Vec::with_capacity(n * n);
            for (r, row) in rows.iter().enumerate() {
                let row = row
                    .as_array()
                    .filter(|a| a.len() == n)
                    .ok_or_else(|| format!("givens row {}: not {n} heights", r + 1))?;
                for (c, d) in row.iter().enumerate() {
                    match d.as_u64() {
                        Some(d) if d <= size => givens.push(d as u8),
                        _ => {
                            return Err(format!("givens row {}, column {}: {d} is not a height 0 to {n}", r + 1, c + 1))
                        }
                    }
                }
            }
            givens
        }
    };
    let p = Skyscrapers { size: size as u8, clues, givens };
    p.validate()?;
    Ok(p)
}

/// One janko.at entry: `-` (or `?`, `.`, nothing) blank, else a number 1 to `n`, as a string
/// or a number.
fn janko_number(x: &Value, n: usize) -> Result<u8, String> {
    let bad = || format!("{x} is not 1 to {n} or -");
    match x {
        Value::Null => Ok(0),
        Value::String(s) => match s.trim() {
            "-" | "?" | "." | "" => Ok(0),
            d => d.parse::<u8>().ok().filter(|&d| (1..=n as u8).contains(&d)).ok_or_else(bad),
        },
        Value::Number(d) => d.as_u64().filter(|&d| d <= n as u64).map(|d| d as u8).ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// The janko.at scraper's object: `size`, `clabels` (the clues above the columns, then below
/// them, each left to right), `rlabels` (left of the rows, then right, each top to bottom), and
/// an optional `problem`, the grid of givens (`-` blank). A `depth` other than the size (a
/// variant with empty cells) is refused.
fn from_janko(v: &Value) -> Result<Skyscrapers, String> {
    let size = json::whole(v, "size", 1..=MAX_SIZE)?;
    let n = size as usize;
    if let Some(depth) = v.get("depth") {
        let d = depth.as_u64().or_else(|| depth.as_str().and_then(|s| s.trim().parse().ok()));
        if d != Some(size) {
            return Err(format!("\"depth\" {depth} is not the size {n} (a variant with empty cells)"));
        }
    }
    let mut clues = Vec::with_capacity(4 * n);
    for (key, what) in [("clabels", ["above", "below"]), ("rlabels", ["left of", "right of"])] {
        let lists = v
            .get(key)
            .and_then(Value::as_array)
            .filter(|a| a.len() == 2)
            .ok_or_else(|| format!("\"{key}\" is not two lists of {n} clues"))?;
        for (list, what) in lists.iter().zip(what) {
            let list = list
                .as_array()
                .filter(|a| a.len() == n)
                .ok_or_else(|| format!("\"{key}\": the clues {what} the lines are not a list of {n}"))?;
            for x in list {
                let c = janko_number(x, n).map_err(|e| format!("{}: {e}", clue_name(n, clues.len())))?;
                clues.push(c);
            }
        }
    }
    let mut givens = vec![0u8; n * n];
    if let Some(rows) = v.get("problem").filter(|p| !p.is_null()) {
        let rows = rows.as_array().filter(|a| a.len() == n).ok_or_else(|| format!("\"problem\" is not {n} rows"))?;
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<Value> = match row {
                Value::Array(a) => a.clone(),
                Value::String(s) => s.chars().map(|ch| Value::String(ch.to_string())).collect(),
                _ => return Err(format!("problem row {}: neither an array nor a string", r + 1)),
            };
            if cells.len() != n {
                return Err(format!("problem row {}: {} cells, the size is {n}", r + 1, cells.len()));
            }
            for (c, x) in cells.iter().enumerate() {
                givens[r * n + c] =
                    janko_number(x, n).map_err(|e| format!("problem row {}, column {}: {e}", r + 1, c + 1))?;
            }
        }
    }
    let p = Skyscrapers { size: size as u8, clues, givens };
    p.validate()?;
    Ok(p)
}

/// Read one line: the JSON form (bare, in a record, or janko's object) or a Towers game ID.
pub fn parse(line: &str) -> Result<Skyscrapers, String> {
    let t = line.trim();
    if t.starts_with('{') {
        let v: Value = serde_json::from_str(t).map_err(|e| format!("not valid JSON: {e}"))?;
        from_json(&v)
    } else if t.chars().next().is_some_and(|c| c.is_ascii_digit()) && t.contains(':') {
        parse_towers(t.split_whitespace().next().unwrap_or(t))
    } else {
        Err("expected a Skyscrapers JSON object or a Towers game ID (N:...)".into())
    }
}

/// A Towers game ID (see the module comment).
fn parse_towers(id: &str) -> Result<Skyscrapers, String> {
    let (params, desc) = id.split_once(':').ok_or("a Towers game ID is N:CLUES[,GRID]")?;
    let digits = params.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &params[digits..];
    if !(rest.is_empty() || rest.starts_with('d')) {
        return Err(format!("Towers game ID: parameters {params:?} are not N or N d<level>"));
    }
    let n: usize = params[..digits].parse().map_err(|_| format!("Towers game ID: size {params:?} is not a number"))?;
    if !(1..=MAX_SIZE as usize).contains(&n) {
        return Err(format!("Towers game ID: size {n} is not 1 to {MAX_SIZE}"));
    }
    let (clue_text, grid) = match desc.split_once(',') {
        Some((c, g)) => (c, Some(g)),
        None => (desc, None),
    };
    let fields: Vec<&str> = clue_text.split('/').collect();
    if fields.len() != 4 * n {
        return Err(format!(
            "Towers game ID: {} clue fields for a {n}×{n} grid ({} needed: top, bottom, left, right)",
            fields.len(),
            4 * n
        ));
    }
    let mut clues = Vec::with_capacity(4 * n);
    for (i, f) in fields.iter().enumerate() {
        let c = match *f {
            "" => 0,
            f => f
                .parse::<u8>()
                .ok()
                .filter(|&c| (1..=n as u8).contains(&c))
                .ok_or_else(|| format!("Towers game ID: {}: {f:?} is not a clue 1 to {n}", clue_name(n, i)))?,
        };
        clues.push(c);
    }
    let givens = match grid {
        Some(g) => towers_grid(g, n)?,
        None => vec![0; n * n],
    };
    let p = Skyscrapers { size: n as u8, clues, givens };
    p.validate()?;
    Ok(p)
}

/// The GRID part of a Towers game ID: the N² cells, row-major.
fn towers_grid(g: &str, n: usize) -> Result<Vec<u8>, String> {
    let mut givens: Vec<u8> = Vec::with_capacity(n * n);
    let mut rest = g;
    while let Some(ch) = rest.chars().next() {
        if givens.len() > n * n {
            break;
        }
        match ch {
            'a'..='z' => {
                givens.extend(std::iter::repeat_n(0, ch as usize - 'a' as usize + 1));
                rest = &rest[1..];
            }
            '_' => rest = &rest[1..],
            '0'..='9' => {
                let len = rest.bytes().take_while(u8::is_ascii_digit).count();
                let at = givens.len();
                let d = rest[..len].parse::<u8>().ok().filter(|&d| (1..=n as u8).contains(&d)).ok_or_else(|| {
                    format!(
                        "Towers game ID: grid cell {} (row {}, column {}): {:?} is not a height 1 to {n}",
                        at + 1,
                        at / n + 1,
                        at % n + 1,
                        &rest[..len]
                    )
                })?;
                givens.push(d);
                rest = &rest[len..];
            }
            _ => return Err(format!("Towers game ID: grid character {ch:?} is not a letter a to z, a digit or _")),
        }
    }
    if givens.len() != n * n {
        let many = if givens.len() > n * n { "more than".to_string() } else { givens.len().to_string() };
        return Err(format!("Towers game ID: the grid has {many} cells, a {n}×{n} grid has {}", n * n));
    }
    Ok(givens)
}

/// The puzzle as a Towers game ID, `N:CLUES[,GRID]` (see the module comment), GRID only when
/// there is a given. Towers stops at 9×9 and its grid holds one-digit givens only, so a larger
/// board gives an empty string (no ID).
pub fn towers_id(p: &Skyscrapers) -> String {
    let n = p.size as usize;
    if n > TOWERS_MAX {
        return String::new();
    }
    let fields: Vec<String> = p.clues.iter().map(|&c| if c == 0 { String::new() } else { c.to_string() }).collect();
    let mut out = format!("{n}:{}", fields.join("/"));
    if p.givens.iter().all(|&d| d == 0) {
        return out;
    }
    out.push(',');
    // Blank cells not yet written, and whether the last thing written was a given.
    let (mut blanks, mut after_given) = (0usize, false);
    let flush = |out: &mut String, blanks: &mut usize| {
        while *blanks > 0 {
            let run = (*blanks).min(26);
            out.push((b'a' + run as u8 - 1) as char);
            *blanks -= run;
        }
    };
    for &d in &p.givens {
        if d == 0 {
            blanks += 1;
            continue;
        }
        if blanks > 0 {
            flush(&mut out, &mut blanks);
        } else if after_given {
            out.push('_');
        }
        out.push_str(&d.to_string());
        after_given = true;
    }
    flush(&mut out, &mut blanks);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clues_of;

    /// Towers `5de`: its clues and one given, and the one solution (Tatham's generator).
    const TOWERS_5: &str = "5://////3/1/2//3/4//////3//,d3t";
    const SOLUTION_5: [u8; 25] = [2, 4, 1, 5, 3, 1, 3, 4, 2, 5, 4, 5, 2, 3, 1, 5, 2, 3, 1, 4, 3, 1, 5, 4, 2];

    #[test]
    fn json_round_trips_in_the_spec_form() {
        let p = Skyscrapers {
            size: 3,
            clues: vec![3, 0, 1, 0, 2, 0, 0, 0, 2, 1, 0, 0],
            givens: vec![0, 0, 3, 0, 0, 0, 0, 0, 0],
        };
        let text = to_json(&p).to_string();
        assert_eq!(
            text,
            r#"{"size":3,"top":[3,0,1],"bottom":[0,2,0],"left":[0,0,2],"right":[1,0,0],"givens":[[0,0,3],[0,0,0],[0,0,0]]}"#
        );
        assert_eq!(parse(&text).unwrap(), p);
        // In a book record, and without givens.
        let record = format!(r#"{{"id":"x","puzzle":{text}}}"#);
        assert_eq!(parse(&record).unwrap(), p);
        let bare = r#"{"size":3,"top":[3,0,1],"bottom":[0,2,0],"left":[0,0,2],"right":[1,0,0]}"#;
        assert_eq!(parse(bare).unwrap(), Skyscrapers { givens: vec![0; 9], ..p.clone() });
        assert_eq!(grid_json(&[1, 2, 2, 1]).to_string(), "[[1,2],[2,1]]");
    }

    #[test]
    fn towers_ids_read_as_tatham_writes_them_and_write_back() {
        let p = parse(TOWERS_5).unwrap();
        assert_eq!(p.clues[5..10], [0, 3, 1, 2, 0], "bottom");
        assert_eq!(p.clues[10..15], [3, 4, 0, 0, 0], "left");
        assert_eq!(p.clues[15..20], [0, 0, 3, 0, 0], "right");
        assert_eq!(p.clues[..5], [0; 5], "top");
        let mut givens = vec![0; 25];
        givens[4] = 3;
        assert_eq!(p.givens, givens);
        let all = clues_of(5, &SOLUTION_5);
        for (i, &c) in p.clues.iter().enumerate() {
            assert!(c == 0 || c == all[i], "{}", clue_name(5, i));
        }
        let f = crate::solve::count_solutions(&p, 2);
        assert_eq!((f.count, f.first), (1, Some(SOLUTION_5.to_vec())));
        assert_eq!(towers_id(&p), TOWERS_5);
        // The parameters may name a difficulty.
        assert_eq!(parse(&format!("5de{}", &TOWERS_5[1..])).unwrap(), p);

        let six = "6://2//4///3//2/3//2//3/////3///3/3,l1_4f2o";
        let q = parse(six).unwrap();
        let given: Vec<(usize, u8)> = q.givens.iter().enumerate().filter(|x| *x.1 != 0).map(|(i, &d)| (i, d)).collect();
        assert_eq!(given, vec![(12, 1), (13, 4), (20, 2)]);
        assert_eq!(towers_id(&q), six);
        let full = "5:1/4/3/3/2/3/1/2/2/2/1/5/3/2/2/2/1/3/2/3";
        assert_eq!(towers_id(&parse(full).unwrap()), full);
    }

    #[test]
    fn towers_ids_split_long_runs_and_stop_at_nine() {
        let mut p = Skyscrapers { size: 7, clues: vec![0; 28], givens: vec![0; 49] };
        p.clues[3] = 7;
        p.givens[0] = 1;
        p.givens[1] = 2;
        p.givens[48] = 5;
        let id = towers_id(&p);
        // 46 blanks between: a run of 26 and one of 20.
        assert_eq!(id, "7:///7////////////////////////,1_2zt5");
        assert_eq!(parse(&id).unwrap(), p);
        let big = Skyscrapers { size: 10, clues: vec![0; 40], givens: vec![0; 100] };
        assert_eq!(towers_id(&big), "");
        // The reader takes a larger board's numbers all the same.
        let ten = format!("10:10{},j10_j{}a", "/".repeat(39), "z".repeat(3));
        let t = parse(&ten).unwrap();
        assert_eq!((t.clues[0], t.givens[10], t.givens.len()), (10, 10, 100));
    }

    #[test]
    fn every_janko_line_reads_and_its_solution_meets_it() {
        let text = pf_core::data::read("skyscrapers/janko_skyscrapers.jsonl");
        let (mut lines, mut givens) = (0, 0);
        for (i, line) in text.lines().enumerate() {
            let v: Value = serde_json::from_str(line).unwrap();
            let file = v["file"].as_str().unwrap_or("?");
            let p = parse(line).unwrap_or_else(|e| panic!("line {}: {file}: {e}", i + 1));
            let n = p.size as usize;
            let solution: Vec<u8> = pf_core::data::janko_solution(&v);
            assert_eq!(solution.len(), n * n, "line {}: {file}", i + 1);
            let all = clues_of(n, &solution);
            for (k, &c) in p.clues.iter().enumerate() {
                assert!(
                    c == 0 || c == all[k],
                    "line {}: {file}: {} is {c}, the solution {}",
                    i + 1,
                    clue_name(n, k),
                    all[k]
                );
            }
            for (c, &d) in p.givens.iter().enumerate() {
                assert!(d == 0 || d == solution[c], "line {}: {file}: given {d} at cell {c}", i + 1);
            }
            givens += p.givens.iter().filter(|&&d| d != 0).count();
            lines += 1;
            // The JSON form reads back the same puzzle.
            assert_eq!(parse(&to_json(&p).to_string()).unwrap(), p);
        }
        // Four puzzles have givens: 1, 2, 2 and 2 of them.
        assert_eq!((lines, givens), (70, 7));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let err = |line: &str| parse(line).unwrap_err();
        assert!(err("hello").contains("expected"));
        assert!(err("{\"size\": 2}").contains("\"top\""));
        let short = r#"{"size":2,"top":[0],"bottom":[0,0],"left":[0,0],"right":[0,0]}"#;
        assert!(err(short).contains("\"top\" has 1 clues"), "{}", err(short));
        let high = r#"{"size":2,"top":[0,3],"bottom":[0,0],"left":[0,0],"right":[0,0]}"#;
        assert!(err(high).contains("above column 2"), "{}", err(high));
        let rows = r#"{"size":2,"top":[0,0],"bottom":[0,0],"left":[0,0],"right":[0,0],"givens":[[0,0]]}"#;
        assert!(err(rows).contains("1 rows"), "{}", err(rows));
        let cell = r#"{"size":2,"top":[0,0],"bottom":[0,0],"left":[0,0],"right":[0,0],"givens":[[0,0],[0,7]]}"#;
        assert!(err(cell).contains("row 2, column 2"), "{}", err(cell));
        assert!(err("5:1/2/3").contains("3 clue fields"));
        assert!(err("5:////6///////////////").contains("above column 5"));
        assert!(err("5:///////////////////,d3s").contains("24 cells"));
        assert!(err("5:///////////////////,z").contains("more than"));
        assert!(err("5:///////////////////,d6t").contains("row 1, column 5"));
        assert!(err("5:///////////////////,d3T").contains("'T'"));
        assert!(err("5x:///////////////////").contains("parameters"));
        assert!(err("13:").contains("size 13"));
        let janko = r#"{"data":{"size":2,"clabels":[["1","-"],["-","-"]],"rlabels":[["-","-"],["-","x"]]}}"#;
        assert!(err(janko).contains("right of row 2"), "{}", err(janko));
        let depth = r#"{"data":{"size":2,"depth":1,"clabels":[["-","-"],["-","-"]],"rlabels":[["-","-"],["-","-"]]}}"#;
        assert!(err(depth).contains("depth"), "{}", err(depth));
        let problem = r#"{"data":{"size":2,"clabels":[["-","-"],["-","-"]],"rlabels":[["-","-"],["-","-"]],"problem":[["-","-"],["3","-"]]}}"#;
        assert!(err(problem).contains("problem row 2, column 1"), "{}", err(problem));
    }
}
