//! KenKen for print: thin cell lines, thick cage outlines, each cage's target and operation
//! (+ − × ÷; the target alone for a one-cell cage or an unknown operation) in its first cell.

use super::KenKen;
use pf_core::common::cage::Op;
use pf_core::draw::{Digits, Drawing, THICK, THIN};

fn label(op: Op, target: u32) -> String {
    match op {
        Op::Add => format!("{target}+"),
        Op::Sub => format!("{target}\u{2212}"),
        Op::Mul => format!("{target}\u{d7}"),
        Op::Div => format!("{target}\u{f7}"),
        Op::Given | Op::Any => target.to_string(),
    }
}

pub fn draw(p: &KenKen, digits: Digits) -> Drawing {
    let n = p.size as usize;
    let mut d = Drawing::new(n as f64, n as f64);
    let mut cage_of = vec![usize::MAX; n * n];
    for (k, cage) in p.cages.iter().enumerate() {
        for &c in &cage.cells {
            cage_of[c as usize] = k;
        }
    }
    // Lines: each cell's right and bottom edge, thick where the cage changes.
    for r in 0..n {
        for c in 0..n {
            let i = r * n + c;
            let (x, y) = (c as f64, r as f64);
            if c + 1 < n {
                let w = if cage_of[i] != cage_of[i + 1] { THICK } else { THIN };
                d.line(x + 1.0, y, x + 1.0, y + 1.0, w);
            }
            if r + 1 < n {
                let w = if cage_of[i] != cage_of[i + n] { THICK } else { THIN };
                d.line(x, y + 1.0, x + 1.0, y + 1.0, w);
            }
        }
    }
    let s = n as f64;
    for (x1, y1, x2, y2) in [(0.0, 0.0, s, 0.0), (0.0, s, s, s), (0.0, 0.0, 0.0, s), (s, 0.0, s, s)] {
        d.line(x1, y1, x2, y2, THICK);
    }
    for cage in &p.cages {
        let Some(&first) = cage.cells.iter().min() else { continue };
        let (r, c) = (first as usize / n, first as usize % n);
        d.text(c as f64 + 0.07, r as f64 + 0.3, 0.24, "start", "cage", (r, c), "#000", &label(cage.op, cage.target));
    }
    if let Some(ds) = digits {
        for (i, &v) in ds.iter().enumerate().take(n * n) {
            if v != 0 {
                // A little below the centre, clear of the cage label.
                let (r, c) = (i / n, i % n);
                let y = r as f64 + 0.62 + 0.365 * 0.5;
                d.text(c as f64 + 0.5, y, 0.5, "middle", "digit", (r, c), "#333", &v.to_string());
            }
        }
    }
    d
}
