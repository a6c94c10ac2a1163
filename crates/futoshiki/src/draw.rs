//! Futoshiki for print: each cell a square of its own, the marks as chevrons in the gaps
//! between neighbours (the point towards the smaller digit), givens and solution digits centred.

use super::Futoshiki;
use pf_core::draw::{Digits, Drawing, THICK};

/// Half the gap between two cells' squares, in cell units.
const GAP: f64 = 0.1;
/// Half a chevron's length along the gap, and across it.
const ALONG: f64 = 0.055;
const ACROSS: f64 = 0.09;

pub fn draw(p: &Futoshiki, digits: Digits) -> Drawing {
    let n = p.size as usize;
    let mut d = Drawing::new(n as f64, n as f64);
    for r in 0..n {
        for c in 0..n {
            let (x0, y0, x1, y1) = (c as f64 + GAP, r as f64 + GAP, c as f64 + 1.0 - GAP, r as f64 + 1.0 - GAP);
            for (a, b, e, f) in [(x0, y0, x1, y0), (x0, y1, x1, y1), (x0, y0, x0, y1), (x1, y0, x1, y1)] {
                d.line(a, b, e, f, THICK * 0.6);
            }
        }
    }
    for &(a, b) in &p.less {
        let (a, b) = (a as usize, b as usize);
        let (small, big) = ((a / n, a % n), (b / n, b % n));
        if small.0 == big.0 {
            // Across: the point towards the smaller, at the gap's middle.
            let x = small.1.max(big.1) as f64;
            let y = small.0 as f64 + 0.5;
            let dir = if small.1 < big.1 { -1.0 } else { 1.0 };
            d.line(x - dir * ALONG, y - ACROSS, x + dir * ALONG, y, THICK * 0.6);
            d.line(x + dir * ALONG, y, x - dir * ALONG, y + ACROSS, THICK * 0.6);
        } else {
            let y = small.0.max(big.0) as f64;
            let x = small.1 as f64 + 0.5;
            let dir = if small.0 < big.0 { -1.0 } else { 1.0 };
            d.line(x - ACROSS, y - dir * ALONG, x, y + dir * ALONG, THICK * 0.6);
            d.line(x, y + dir * ALONG, x + ACROSS, y - dir * ALONG, THICK * 0.6);
        }
    }
    for (i, &v) in p.givens.iter().enumerate() {
        if v != 0 {
            d.centred(i / n, i % n, 0.5, "given", "#000", &v.to_string());
        }
    }
    if let Some(ds) = digits {
        for (i, &v) in ds.iter().enumerate().take(n * n) {
            if v != 0 && p.givens[i] == 0 {
                d.centred(i / n, i % n, 0.45, "digit", "#555", &v.to_string());
            }
        }
    }
    d
}
