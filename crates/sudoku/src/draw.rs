//! Sudoku for print: thin cell lines, thick box lines and border, givens in black, the
//! solution's other digits in grey.

use super::Grid;
use pf_core::draw::{Digits, Drawing, THICK, THIN};

pub fn draw(p: &Grid, digits: Digits) -> Drawing {
    let n = 9;
    let mut d = Drawing::new(n as f64, n as f64);
    for (i, &v) in p.iter().enumerate() {
        let (r, c) = (i / n, i % n);
        if v != 0 {
            d.centred(r, c, 0.68, "given", "#000", &v.to_string());
        } else if let Some(&s) = digits.and_then(|ds| ds.get(i)) {
            d.centred(r, c, 0.62, "digit", "#555", &s.to_string());
        }
    }
    for i in 0..=n {
        let w = if i % 3 == 0 { THICK } else { THIN };
        let x = i as f64;
        d.line(x, 0.0, x, n as f64, w);
        d.line(0.0, x, n as f64, x, w);
    }
    d
}
