//! Sudoku text form: 81 characters row by row, `1`-`9` givens, `.` (or `0`) blanks.
//!
//! Input lines may carry further fields after the puzzle (as reference files do: `PUZZLE,LABEL`);
//! only the first field, up to a tab, comma or space, is the puzzle. A book record (a JSON object,
//! a line of `puzzles.jsonl`) is read by its `puzzle` string.

use super::Grid;

pub fn parse(line: &str) -> Result<Grid, String> {
    let t = line.trim();
    if t.starts_with('{') {
        // A book record (`puzzles.jsonl`): its `puzzle` string.
        let v: serde_json::Value = serde_json::from_str(t).map_err(|e| format!("not a JSON record: {e}"))?;
        return match v.get("puzzle") {
            Some(serde_json::Value::String(p)) if !p.trim_start().starts_with('{') => parse(p),
            _ => Err("a JSON line without a \"puzzle\" string of 81 characters".into()),
        };
    }
    let field = t.split(['\t', ',', ' ']).next().unwrap_or("");
    if field.chars().count() != 81 {
        return Err(format!("expected 81 characters (1-9, '.' or '0'), found {}", field.chars().count()));
    }
    let mut g = [0u8; 81];
    for (i, ch) in field.chars().enumerate() {
        g[i] = match ch {
            '1'..='9' => ch as u8 - b'0',
            '.' | '0' => 0,
            other => return Err(format!("character {} is {:?}, expected 1-9, '.' or '0'", i + 1, other)),
        };
    }
    Ok(g)
}

/// `parse` for the usual line, byte by byte: 81 characters from `1-9.0`, then the end or a tab,
/// comma or space. `None` for any other line, which `parse` then reads (or explains).
pub fn parse_plain(line: &[u8]) -> Option<Grid> {
    let field: &[u8; 81] = line.get(..81)?.try_into().ok()?;
    if !matches!(line.get(81), None | Some(b'\t' | b',' | b' ')) {
        return None;
    }
    let mut g = [0u8; 81];
    let mut bad = false;
    for (g, &c) in g.iter_mut().zip(field) {
        let d = c.wrapping_sub(b'0');
        bad |= d > 9 && c != b'.';
        *g = if d <= 9 { d } else { 0 };
    }
    (!bad).then_some(g)
}

pub fn to_text(g: &Grid) -> String {
    let mut out = Vec::with_capacity(81);
    write_text(g, &mut out);
    String::from_utf8(out).expect("digits and dots are ASCII")
}

/// `to_text` as a JSON string (digits and dots need no escaping).
pub fn quoted_text(g: &Grid) -> String {
    let mut out = Vec::with_capacity(83);
    out.push(b'"');
    write_text(g, &mut out);
    out.push(b'"');
    String::from_utf8(out).expect("digits and dots are ASCII")
}

/// `to_text`, appended to a byte buffer.
pub fn write_text(g: &Grid, out: &mut Vec<u8>) {
    out.extend(g.iter().map(|&d| if d == 0 { b'.' } else { b'0' + d }));
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn round_trip_and_errors() {
        let s = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        assert_eq!(to_text(&parse(s).unwrap()), s);
        assert_eq!(parse(&s.replace('.', "0")).unwrap(), parse(s).unwrap());
        assert!(parse(&format!("{s},hard,3.4")).is_ok());
        assert!(parse("123").unwrap_err().contains("81"));
        // A book record reads by its puzzle string; a record without one, or nested, is refused.
        let record = format!(r#"{{"id":"sudoku-9-1-0","kind":"sudoku","puzzle":"{s}","solution":"x"}}"#);
        assert_eq!(parse(&record).unwrap(), parse(s).unwrap());
        assert!(parse(r#"{"id":"x","grade":"easy"}"#).unwrap_err().contains("puzzle"));
        assert!(parse(r#"{"puzzle":"{\"puzzle\":1}"}"#).is_err());
        assert!(parse(r#"{"puzzle":"#).unwrap_err().contains("JSON"));
        assert!(parse(&s.replacen('.', "x", 1)).unwrap_err().contains("character 2"));
        // The byte path reads what `parse` reads, and leaves everything else to it.
        for line in [s.to_string(), s.replace('.', "0"), format!("{s},hard"), format!("{s}\tx"), format!("{s} 1")] {
            assert_eq!(parse_plain(line.as_bytes()), Some(parse(&line).unwrap()), "{line}");
        }
        for line in [format!(" {s}"), format!("{s}x"), format!("{s}\r"), s.replacen('.', "x", 1), s[1..].to_string()] {
            assert_eq!(parse_plain(line.as_bytes()), None, "{line}");
        }
        let mut out = Vec::new();
        write_text(&parse(s).unwrap(), &mut out);
        assert_eq!(out, s.as_bytes());
    }
}
