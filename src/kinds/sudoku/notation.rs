//! Sudoku text form: 81 characters row by row, `1`-`9` givens, `.` (or `0`) blanks.
//!
//! Input lines may carry further fields after the puzzle (as reference files do: `PUZZLE,LABEL`);
//! only the first field, up to a tab, comma or space, is the puzzle.

use super::Grid;

pub fn parse(line: &str) -> Result<Grid, String> {
    let field = line.trim().split(['\t', ',', ' ']).next().unwrap_or("");
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

pub fn to_text(g: &Grid) -> String {
    g.iter().map(|&d| if d == 0 { '.' } else { (b'0' + d) as char }).collect()
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
        assert!(parse(&s.replacen('.', "x", 1)).unwrap_err().contains("character 2"));
    }
}
