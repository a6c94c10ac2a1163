//! Reading numbers out of puzzle JSON with messages that say what is wrong with them.

use serde_json::Value;

/// The whole number at `key` of `v`, within `range`. Missing, not a number, not whole
/// (`2.5`) and out of range (`99`, `-3`, `1e30`) each say so; before, any number beyond `u64`
/// was taken for a missing key.
pub fn whole(v: &Value, key: &str, range: std::ops::RangeInclusive<u64>) -> Result<u64, String> {
    let x = match v.get(key) {
        None | Some(Value::Null) => return Err(format!("missing \"{key}\" (a number)")),
        Some(Value::Number(x)) => x,
        Some(other) => return Err(format!("\"{key}\" must be a number, got {other}")),
    };
    let out = || format!("\"{key}\" {x} is out of range ({} to {})", range.start(), range.end());
    match x.as_u64() {
        Some(n) if range.contains(&n) => Ok(n),
        Some(_) => Err(out()),
        None if x.as_f64().is_some_and(|f| f.fract() != 0.0) => {
            Err(format!("\"{key}\" must be a whole number, got {x}"))
        }
        None => Err(out()),
    }
}

/// A full square grid (a Latin square's solution) as an array of rows of numbers.
pub fn square_grid(g: &[u8]) -> Value {
    let n = side(g);
    Value::Array(g.chunks(n).map(|row| row.iter().map(|&d| Value::from(d)).collect()).collect())
}

/// `square_grid` as compact JSON text (`[[1,2],[2,1]]`), written without building the value.
pub fn square_grid_text(g: &[u8]) -> String {
    let mut out = String::with_capacity(2 + g.len() * 3 + side(g) * 3);
    push_square_grid(&mut out, g);
    out
}

/// `square_grid_text` appended to `out`: for kinds that write a whole puzzle's JSON text.
pub fn push_square_grid(out: &mut String, g: &[u8]) {
    out.push('[');
    for (r, row) in g.chunks(side(g)).enumerate() {
        if r > 0 {
            out.push(',');
        }
        push_numbers(out, row);
    }
    out.push(']');
}

/// A list of numbers as compact JSON text (`[1,0,3]`, as `json!(list)` writes it), appended
/// to `out`.
pub fn push_numbers(out: &mut String, list: &[u8]) {
    out.push('[');
    for (i, &d) in list.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_number(out, u64::from(d));
    }
    out.push(']');
}

fn side(g: &[u8]) -> usize {
    ((g.len() as f64).sqrt().round() as usize).max(1)
}

/// An unsigned integer in decimal, as `to_string` and JSON write it, without the formatting
/// machinery and an allocation per number (`itoa`): a book record holds two dozen of them, and
/// building records took 7% of a Sudoku run's instructions (callgrind).
pub fn push_number(out: &mut String, v: u64) {
    out.push_str(itoa::Buffer::new().format(v));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_text_is_the_values_json() {
        for g in [vec![], vec![1], vec![1, 2, 2, 1], (0..144).map(|i| (i % 12 + 1) as u8).collect::<Vec<u8>>()] {
            assert_eq!(square_grid_text(&g), square_grid(&g).to_string(), "{g:?}");
        }
    }

    #[test]
    fn each_way_a_number_can_be_wrong_says_so() {
        let v: Value = serde_json::from_str(r#"{"a": 5, "b": 1e30, "c": -1, "d": 2.5, "e": "5", "f": null}"#).unwrap();
        assert_eq!(whole(&v, "a", 0..=9), Ok(5));
        assert_eq!(whole(&v, "a", 6..=9), Err("\"a\" 5 is out of range (6 to 9)".into()));
        assert_eq!(whole(&v, "b", 0..=9), Err("\"b\" 1e+30 is out of range (0 to 9)".into()));
        assert_eq!(whole(&v, "c", 0..=9), Err("\"c\" -1 is out of range (0 to 9)".into()));
        assert_eq!(whole(&v, "d", 0..=9), Err("\"d\" must be a whole number, got 2.5".into()));
        assert_eq!(whole(&v, "e", 0..=9), Err("\"e\" must be a number, got \"5\"".into()));
        assert_eq!(whole(&v, "f", 0..=9), Err("missing \"f\" (a number)".into()));
        assert_eq!(whole(&v, "g", 0..=9), Err("missing \"g\" (a number)".into()));
    }
}
