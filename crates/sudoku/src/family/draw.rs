//! The family for print: thin cell lines, thick region borders (boxes or jigsaw pieces) and
//! border, the diagonals of X shaded, killer cages as inset outlines with the sum in the cage's
//! top-left cell, givens in black, the solution's other digits in grey; digits above 9 printed
//! as numbers.

use super::shape::Shape;
use pf_core::draw::{Digits, Drawing, THICK, THIN};

/// Inset of a cage outline from the cell edges, in cells.
const INSET: f64 = 0.09;

pub fn draw(shape: &Shape, givens: &[u8], digits: Digits) -> Drawing {
    let n = shape.n;
    let s = n as f64;
    let mut d = Drawing::new(s, s);
    if shape.diagonals {
        for i in 0..n {
            d.rect(i as f64, i as f64, 1.0, 1.0, "#e4e4e4");
            if n - 1 - i != i {
                d.rect((n - 1 - i) as f64, i as f64, 1.0, 1.0, "#e4e4e4");
            }
        }
    }
    let size = if n > 9 { 0.5 } else { 0.68 };
    for (i, &v) in givens.iter().enumerate() {
        let (r, c) = (i / n, i % n);
        if v != 0 {
            d.centred(r, c, size, "given", "#000", &v.to_string());
        } else if let Some(&x) = digits.and_then(|ds| ds.get(i)) {
            d.centred(r, c, size * 0.9, "digit", "#555", &x.to_string());
        }
    }
    for r in 0..n {
        for c in 0..n {
            let i = r * n + c;
            let (x, y) = (c as f64, r as f64);
            if c + 1 < n {
                let w = if shape.regions[i] != shape.regions[i + 1] { THICK } else { THIN };
                d.line(x + 1.0, y, x + 1.0, y + 1.0, w);
            }
            if r + 1 < n {
                let w = if shape.regions[i] != shape.regions[i + n] { THICK } else { THIN };
                d.line(x, y + 1.0, x + 1.0, y + 1.0, w);
            }
        }
    }
    for (x1, y1, x2, y2) in [(0.0, 0.0, s, 0.0), (0.0, s, s, s), (0.0, 0.0, 0.0, s), (s, 0.0, s, s)] {
        d.line(x1, y1, x2, y2, THICK);
    }
    // Cages: along each cell edge that borders another cage, a line inset into the cell.
    let cage = |r: isize, c: isize| -> u16 {
        if r < 0 || c < 0 || r >= n as isize || c >= n as isize {
            u16::MAX - 1
        } else {
            shape.cage_of[r as usize * n + c as usize]
        }
    };
    // Each side of a cell that borders another cage gets a segment inset into the cell; its
    // ends reach the next segment of the same outline: the cell edge where the cage runs on
    // straight, a further inset past it at an inner corner, short of it at an outer one.
    let (dash, w) = (0.06, THIN * 0.9);
    for r in 0..n as isize {
        for c in 0..n as isize {
            let k = cage(r, c);
            if k == u16::MAX {
                continue;
            }
            let same = |dr: isize, dc: isize| cage(r + dr, c + dc) == k;
            let (x, y) = (c as f64, r as f64);
            // The end of a segment towards neighbour (dr, dc) along it, with (pr, pc) the side
            // the segment lies on: `lo` the cell edge coordinate on that end.
            let end = |edge: f64, out: f64, along: (isize, isize), diag: (isize, isize)| {
                if same(along.0, along.1) {
                    if same(diag.0, diag.1) {
                        edge + out * INSET
                    } else {
                        edge
                    }
                } else {
                    edge - out * INSET
                }
            };
            if !same(-1, 0) {
                let (a, b) = (end(x, -1.0, (0, -1), (-1, -1)), end(x + 1.0, 1.0, (0, 1), (-1, 1)));
                d.dashed(a, y + INSET, b, y + INSET, w, dash);
            }
            if !same(1, 0) {
                let (a, b) = (end(x, -1.0, (0, -1), (1, -1)), end(x + 1.0, 1.0, (0, 1), (1, 1)));
                d.dashed(a, y + 1.0 - INSET, b, y + 1.0 - INSET, w, dash);
            }
            if !same(0, -1) {
                let (a, b) = (end(y, -1.0, (-1, 0), (-1, -1)), end(y + 1.0, 1.0, (1, 0), (1, -1)));
                d.dashed(x + INSET, a, x + INSET, b, w, dash);
            }
            if !same(0, 1) {
                let (a, b) = (end(y, -1.0, (-1, 0), (-1, 1)), end(y + 1.0, 1.0, (1, 0), (1, 1)));
                d.dashed(x + 1.0 - INSET, a, x + 1.0 - INSET, b, w, dash);
            }
        }
    }
    for k in &shape.cages {
        let Some(&first) = k.cells.iter().min() else { continue };
        let (r, c) = (first as usize / n, first as usize % n);
        d.text(
            c as f64 + INSET + 0.03,
            r as f64 + INSET + 0.2,
            0.2,
            "start",
            "cage",
            (r, c),
            "#000",
            &k.sum.to_string(),
        );
    }
    d
}
