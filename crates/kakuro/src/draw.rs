//! Kakuro for print: blocks shaded; a clue block split by a diagonal, the down sum in its
//! lower-left half and the across sum in its upper-right half; white cells empty (or holding
//! the solution's digits).

use super::{Cell, Kakuro};
use pf_core::draw::{Digits, Drawing, THICK, THIN};

pub fn draw(p: &Kakuro, digits: Digits) -> Drawing {
    let (rows, cols) = (p.rows, p.cols);
    let mut d = Drawing::new(cols as f64, rows as f64);
    for (i, cell) in p.cells.iter().enumerate() {
        let (r, c) = (i / cols, i % cols);
        let (x, y) = (c as f64, r as f64);
        match *cell {
            Cell::Block { down, right } => {
                d.rect(x, y, 1.0, 1.0, "#d4d4d4");
                if down > 0 || right > 0 {
                    d.line(x, y, x + 1.0, y + 1.0, THIN);
                }
                if down > 0 {
                    d.text(x + 0.08, y + 0.9, 0.3, "start", "down", (r, c), "#000", &down.to_string());
                }
                if right > 0 {
                    d.text(x + 0.92, y + 0.36, 0.3, "end", "across", (r, c), "#000", &right.to_string());
                }
            }
            Cell::White => {
                if let Some(&v) = digits.and_then(|ds| ds.get(i)).filter(|&&v| v != 0) {
                    d.centred(r, c, 0.6, "digit", "#333", &v.to_string());
                }
            }
        }
    }
    for r in 0..=rows {
        let w = if r == 0 || r == rows { THICK } else { THIN };
        d.line(0.0, r as f64, cols as f64, r as f64, w);
    }
    for c in 0..=cols {
        let w = if c == 0 || c == cols { THICK } else { THIN };
        d.line(c as f64, 0.0, c as f64, rows as f64, w);
    }
    d
}
