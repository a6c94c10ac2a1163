//! Futoshiki text forms, read and written: the SPEC JSON object (bare, or under `"puzzle"` in a
//! book record) and Tatham's Unequal game ID (`unequal_id`); read only: janko.at's character
//! grid (bare, or the scraper's object with `"problem"`).
//!
//! JSON (SPEC.md): `{"size": N, "givens": [[row of N digits, 0 blank] × N], "less": [[[r1, c1],
//! [r2, c2]], …]}`, each `less` pair two neighbouring cells, the first holding the smaller digit.

use super::Futoshiki;
use pf_core::common::json;
use serde_json::{json, Value};

/// The largest board read (generated: 4 to 12).
pub const MAX_SIZE: u64 = 12;

pub fn to_json(p: &Futoshiki) -> Value {
    let n = p.size as usize;
    let givens: Vec<Value> = p.givens.chunks(n).map(|row| json!(row)).collect();
    let mut less: Vec<[[usize; 2]; 2]> =
        p.less.iter().map(|&(a, b)| [[a as usize / n, a as usize % n], [b as usize / n, b as usize % n]]).collect();
    less.sort_unstable();
    json!({"size": p.size, "givens": givens, "less": less})
}

/// `to_json(p)` as compact JSON text, byte for byte, written without building the value:
/// every book record holds it twice, and building the value was a tenth of an easy run.
pub fn to_json_text(p: &Futoshiki) -> String {
    use pf_core::common::json::{push_number, push_square_grid};
    let n = (p.size as usize).max(1);
    let mut less: Vec<[usize; 4]> =
        p.less.iter().map(|&(a, b)| [a as usize / n, a as usize % n, b as usize / n, b as usize % n]).collect();
    less.sort_unstable();
    let mut out = String::with_capacity(48 + 3 * p.givens.len() + 20 * less.len());
    out.push_str("{\"size\":");
    push_number(&mut out, u64::from(p.size));
    out.push_str(",\"givens\":");
    push_square_grid(&mut out, &p.givens);
    out.push_str(",\"less\":[");
    for (i, [ar, ac, br, bc]) in less.into_iter().enumerate() {
        out.push_str(if i == 0 { "[[" } else { ",[[" });
        push_number(&mut out, ar as u64);
        out.push(',');
        push_number(&mut out, ac as u64);
        out.push_str("],[");
        push_number(&mut out, br as u64);
        out.push(',');
        push_number(&mut out, bc as u64);
        out.push_str("]]");
    }
    out.push_str("]}");
    out
}

pub fn grid_json(g: &[u8]) -> Value {
    pf_core::common::json::square_grid(g)
}

fn from_json(v: &Value) -> Result<Futoshiki, String> {
    let v = v.get("puzzle").filter(|p| p.is_object()).unwrap_or(v);
    let v = v.get("data").filter(|p| p.is_object()).unwrap_or(v);
    if v.get("problem").is_some() {
        return from_janko(v);
    }
    let size = json::whole(v, "size", 1..=MAX_SIZE)?;
    let n = size as usize;
    let rows = v.get("givens").and_then(Value::as_array).ok_or("missing \"givens\" (an array of rows)")?;
    if rows.len() != n {
        return Err(format!("\"givens\" has {} rows, the size is {n}", rows.len()));
    }
    let mut givens = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let row =
            row.as_array().filter(|a| a.len() == n).ok_or_else(|| format!("givens row {}: not {n} digits", r + 1))?;
        for (c, d) in row.iter().enumerate() {
            match d.as_u64() {
                Some(d) if d <= size => givens.push(d as u8),
                _ => return Err(format!("givens row {}, column {}: {d} is not a digit 0 to {n}", r + 1, c + 1)),
            }
        }
    }
    let marks = v.get("less").and_then(Value::as_array).ok_or("missing \"less\" (an array of [[r1, c1], [r2, c2]])")?;
    let mut less = Vec::with_capacity(marks.len());
    for (i, m) in marks.iter().enumerate() {
        let what = |e: &str| format!("mark {}: {e}", i + 1);
        let pair = m.as_array().filter(|a| a.len() == 2).ok_or_else(|| what("not [[r1, c1], [r2, c2]]"))?;
        let mut x = Vec::with_capacity(4);
        for cell in pair {
            let rc = cell.as_array().filter(|a| a.len() == 2).ok_or_else(|| what("a cell is not [row, col]"))?;
            x.extend(rc.iter().map(|v| v.as_u64().unwrap_or(u64::MAX)));
        }
        if x.iter().any(|&x| x >= size) {
            return Err(what("a cell outside the grid"));
        }
        less.push(((x[0] as usize * n + x[1] as usize) as u8, (x[2] as usize * n + x[3] as usize) as u8));
    }
    let p = Futoshiki { size: size as u8, givens, less };
    p.validate()?;
    Ok(p)
}

/// janko.at's (2n−1)×(2n−1) grid: cells at even row and column (`?` blank or a digit); marks
/// between them, `«` (left smaller) and `»` across, `A` (upper smaller) and `V` down; `.` or `-`
/// nothing. The rows may be an array of arrays of strings or of strings.
fn from_janko(v: &Value) -> Result<Futoshiki, String> {
    let rows = v.get("problem").and_then(Value::as_array).ok_or("\"problem\" is not an array of rows")?;
    let grid: Vec<Vec<String>> = rows
        .iter()
        .map(|r| match r {
            Value::Array(a) => {
                a.iter().map(|x| x.as_str().map(str::to_string).ok_or("a grid entry is not a string")).collect()
            }
            Value::String(s) => Ok(s.chars().map(String::from).collect()),
            _ => Err("a grid row is neither an array nor a string"),
        })
        .collect::<Result<_, _>>()?;
    let m = grid.len();
    if m == 0 || m.is_multiple_of(2) || m > 2 * MAX_SIZE as usize - 1 || grid.iter().any(|r| r.len() != m) {
        return Err(format!("\"problem\" must be a square grid of odd side 1 to {}", 2 * MAX_SIZE - 1));
    }
    let n = m.div_ceil(2);
    let mut givens = vec![0u8; n * n];
    let mut less = Vec::new();
    for (i, row) in grid.iter().enumerate() {
        for (j, s) in row.iter().enumerate() {
            // A doubly encoded « or » (Â« Â») reads as itself.
            let s = s.trim_start_matches('Â');
            let at = || format!("problem row {}, column {}", i + 1, j + 1);
            match (i % 2, j % 2) {
                (0, 0) => {
                    givens[i / 2 * n + j / 2] = match s {
                        "?" | "." | "-" | "" => 0,
                        d => match d.parse::<u8>() {
                            Ok(d) if (1..=n as u8).contains(&d) => d,
                            _ => return Err(format!("{}: {s:?} is not a digit 1 to {n} or ?", at())),
                        },
                    }
                }
                (0, 1) => {
                    let (l, r) = ((i / 2 * n + j / 2) as u8, (i / 2 * n + j / 2 + 1) as u8);
                    match s {
                        "«" | "<" => less.push((l, r)),
                        "»" | ">" => less.push((r, l)),
                        "." | "-" | "" | " " => {}
                        _ => return Err(format!("{}: {s:?} is not a mark across (« » or .)", at())),
                    }
                }
                (1, 0) => {
                    let (u, d) = ((i / 2 * n + j / 2) as u8, ((i / 2 + 1) * n + j / 2) as u8);
                    match s {
                        "A" | "^" | "∧" => less.push((u, d)),
                        "V" | "v" | "∨" => less.push((d, u)),
                        "." | "-" | "" | " " => {}
                        _ => return Err(format!("{}: {s:?} is not a mark down (A V or .)", at())),
                    }
                }
                _ => {}
            }
        }
    }
    let p = Futoshiki { size: n as u8, givens, less };
    p.validate()?;
    Ok(p)
}

/// Read one line: the JSON form (bare, in a record, or janko's object) or an Unequal game ID.
pub fn parse(line: &str) -> Result<Futoshiki, String> {
    let t = line.trim();
    if t.starts_with('{') {
        let v: Value = serde_json::from_str(t).map_err(|e| format!("not valid JSON: {e}"))?;
        from_json(&v)
    } else if t.chars().next().is_some_and(|c| c.is_ascii_digit()) && t.contains(':') {
        parse_unequal(t.split_whitespace().next().unwrap_or(t))
    } else {
        Err("expected a Futoshiki JSON object or an Unequal game ID (N:...)".into())
    }
}

/// Tatham's Unequal game ID (normal mode): `N:` then one entry per cell in reading order, each
/// followed by a comma: the cell's digit (0 blank), then a letter for each neighbour it is
/// larger than, `U`, `R`, `D`, `L` for the one above, right, below or left. The adjacent mode
/// (`Na:`, bars for consecutive digits) is another puzzle and is refused.
pub fn parse_unequal(id: &str) -> Result<Futoshiki, String> {
    let (size, body) = id.split_once(':').ok_or("an Unequal game ID is N:CELLS")?;
    if size.ends_with('a') {
        return Err("Unequal game ID: the adjacent mode (Na:) is not Futoshiki".into());
    }
    let n: usize = size.parse().map_err(|_| format!("Unequal game ID: size {size:?} is not a number"))?;
    if !(1..=MAX_SIZE as usize).contains(&n) {
        return Err(format!("Unequal game ID: size {n} is not 1 to {MAX_SIZE}"));
    }
    // Entries in reading order; a lowercase letter before one stands for that many blank cells
    // (a 1, b 2, …), as Unequal's reader takes it (its writer never uses them).
    let mut cells: Vec<&str> = Vec::with_capacity(n * n);
    for e in body.trim_end_matches(',').split(',') {
        let skip = e.chars().next().filter(char::is_ascii_lowercase).map_or(0, |l| l as usize - 'a' as usize + 1);
        cells.extend(std::iter::repeat_n("0", skip.min(n * n + 1)));
        let rest = &e[if skip > 0 { 1 } else { 0 }..];
        if !rest.is_empty() || skip == 0 {
            cells.push(rest);
        }
    }
    if cells.len() != n * n {
        return Err(format!("Unequal game ID: {} cells for a {n}×{n} grid ({} needed)", cells.len(), n * n));
    }
    let mut givens = vec![0u8; n * n];
    let mut less = Vec::new();
    for (c, e) in cells.iter().enumerate() {
        let digits: String = e.chars().take_while(|ch| ch.is_ascii_digit()).collect();
        let d: u8 = digits.parse().map_err(|_| format!("Unequal game ID: cell {} ({e:?}) has no digit", c + 1))?;
        if d as usize > n {
            return Err(format!("Unequal game ID: cell {}: digit {d} above {n}", c + 1));
        }
        givens[c] = d;
        let (r, col) = (c / n, c % n);
        // A flag sits on the larger cell and points at the smaller neighbour.
        for flag in e[digits.len()..].chars() {
            let other = match flag {
                'U' if r > 0 => c - n,
                'D' if r + 1 < n => c + n,
                'L' if col > 0 => c - 1,
                'R' if col + 1 < n => c + 1,
                _ => {
                    return Err(format!(
                        "Unequal game ID: cell {} ({e:?}): flag {flag:?} points off the grid or is not U, R, D or L",
                        c + 1
                    ))
                }
            };
            less.push((other as u8, c as u8));
        }
    }
    let p = Futoshiki { size: n as u8, givens, less };
    p.validate()?;
    Ok(p)
}

/// The puzzle as an Unequal game ID (see `parse_unequal`).
pub fn unequal_id(p: &Futoshiki) -> String {
    let n = p.size as usize;
    let mut out = format!("{n}:");
    for c in 0..n * n {
        out.push_str(&p.givens[c].to_string());
        for (flag, other) in [
            ('U', c.checked_sub(n)),
            ('R', (c % n + 1 < n).then_some(c + 1)),
            ('D', Some(c + n).filter(|&o| o < n * n)),
            ('L', (c % n > 0).then(|| c - 1)),
        ] {
            if other.is_some_and(|o| p.less.contains(&(o as u8, c as u8))) {
                out.push(flag);
            }
        }
        out.push(',');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_unequal_round_trip_and_janko_reads() {
        let p = Futoshiki { size: 3, givens: vec![0, 0, 3, 0, 0, 0, 0, 0, 0], less: vec![(0, 1), (4, 1), (6, 3)] };
        let back = parse(&to_json(&p).to_string()).unwrap();
        let mut a = back.less.clone();
        a.sort();
        assert_eq!(a, vec![(0, 1), (4, 1), (6, 3)]);
        assert_eq!(back.givens, p.givens);
        let id = unequal_id(&p);
        let again = parse(&id).unwrap();
        assert_eq!(unequal_id(&again), id);
        let janko = r#"{"data":{"size":3,"problem":[["?","«","?",".","3"],[".","-","A","-","."],["?","»","?",".","?"],["A","-",".","-","."],["?",".","?",".","?"]]}}"#;
        let j = parse(janko).unwrap();
        assert_eq!(j.givens, vec![0, 0, 3, 0, 0, 0, 0, 0, 0]);
        assert!(
            j.less.contains(&(0, 1))
                && j.less.contains(&(1, 4))
                && j.less.contains(&(4, 3))
                && j.less.contains(&(3, 6))
        );
    }

    #[test]
    fn reads_unequals_own_id() {
        // Unequal `5de#1` and its solution (Tatham's generator).
        let p = parse("5:0D,0L,0,0D,3,0,0,0,0,0,4,0L,0,0L,0,0,0,0,0,0,0,0,0U,0R,0,").unwrap();
        let s = [2, 4, 1, 5, 3, 1, 3, 4, 2, 5, 4, 5, 2, 3, 1, 5, 2, 3, 1, 4, 3, 1, 5, 4, 2];
        for &(a, b) in &p.less {
            assert!(s[a as usize] < s[b as usize], "{a} < {b}");
        }
        assert_eq!(p.less.len(), 7);
        let f = crate::solve::count_solutions(&p, 2);
        assert_eq!((f.count, f.first), (1, Some(s.to_vec())));
        assert_eq!(unequal_id(&p), "5:0D,0L,0,0D,3,0,0,0,0,0,4,0L,0,0L,0,0,0,0,0,0,0,0,0U,0R,0,");
        // The reader's run-length blanks.
        assert_eq!(parse("5:0D,0L,a0D,3,e4,0L,0,0L,h0U,0R,0,").unwrap().givens, p.givens);
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        assert!(parse("{\"size\": 3}").unwrap_err().contains("givens"));
        assert!(parse("3:0,0,0").unwrap_err().contains("cells"));
        assert!(parse("hello").is_err());
        let two_marks = r#"{"size":2,"givens":[[0,0],[0,0]],"less":[[[0,0],[0,1]],[[0,1],[0,0]]]}"#;
        assert!(parse(two_marks).unwrap_err().contains("both ways"));
        let far = r#"{"size":3,"givens":[[0,0,0],[0,0,0],[0,0,0]],"less":[[[0,0],[2,2]]]}"#;
        assert!(parse(far).unwrap_err().contains("neighbour"));
    }
}
