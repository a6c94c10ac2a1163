//! Skyscrapers for print: an (N+2)×(N+2) drawing whose inner N×N square, one cell in from each
//! side, is the grid (thin cell lines, a thick outline), each clue centred in the border cell at
//! the end of its line, givens and solution digits centred in their cells.
//!
//! Every text's `data-cell` is a cell of the grid, 0 to N−1, not of the drawing: a given's or
//! digit's own cell, a clue's the grid cell next to it (the top clue of column k: (0, k)), its
//! class (`top`, `bottom`, `left`, `right`) telling which side it stands on.

use super::{clue_place, Edge, Skyscrapers};
use pf_core::draw::{Digits, Drawing, THICK, THIN};

/// Font sizes, in cells: clues a little smaller than the givens.
const CLUE: f64 = 0.45;
const GIVEN: f64 = 0.5;
const DIGIT: f64 = 0.45;

/// The y of a baseline that centres a digit of `size` on `centre` (DejaVu's digits are 0.73 em
/// high).
fn baseline(centre: f64, size: f64) -> f64 {
    centre + 0.365 * size
}

/// Draw `p`, with the solution's digits (row-major, N²) when `digits` is given.
pub fn draw(p: &Skyscrapers, digits: Digits) -> Drawing {
    let n = p.size as usize;
    let side = n as f64 + 2.0;
    let mut d = Drawing::new(side, side);
    d.grid_at = (1.0, 1.0);
    let (lo, hi) = (1.0, n as f64 + 1.0);
    for i in 1..n {
        let at = lo + i as f64;
        d.line(lo, at, hi, at, THIN);
        d.line(at, lo, at, hi, THIN);
    }
    for (x1, y1, x2, y2) in [(lo, lo, hi, lo), (lo, hi, hi, hi), (lo, lo, lo, hi), (hi, lo, hi, hi)] {
        d.line(x1, y1, x2, y2, THICK);
    }
    for (i, &c) in p.clues.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let (edge, k) = clue_place(n, i);
        // The drawing's cell the clue stands in, and the grid cell beside it.
        let ((row, col), cell, class) = match edge {
            Edge::Top => ((0, k + 1), (0, k), "top"),
            Edge::Bottom => ((n + 1, k + 1), (n - 1, k), "bottom"),
            Edge::Left => ((k + 1, 0), (k, 0), "left"),
            Edge::Right => ((k + 1, n + 1), (k, n - 1), "right"),
        };
        let (x, y) = (col as f64 + 0.5, baseline(row as f64 + 0.5, CLUE));
        d.text(x, y, CLUE, "middle", class, cell, "#000", &c.to_string());
    }
    let cell_text = |d: &mut Drawing, i: usize, size: f64, class: &str, fill: &str, v: u8| {
        let (r, c) = (i / n, i % n);
        let (x, y) = (c as f64 + 1.5, baseline(r as f64 + 1.5, size));
        d.text(x, y, size, "middle", class, (r, c), fill, &v.to_string());
    };
    for (i, &v) in p.givens.iter().enumerate() {
        if v != 0 {
            cell_text(&mut d, i, GIVEN, "given", "#000", v);
        }
    }
    if let Some(ds) = digits {
        for (i, &v) in ds.iter().enumerate().take(n * n) {
            if v != 0 && p.givens[i] == 0 {
                cell_text(&mut d, i, DIGIT, "digit", "#555", v);
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts of a drawing, (class, row, column, text), read by a small reader of the
    /// `<text …>` elements `Drawing::text` writes (the crate has no XML dependency).
    fn texts(d: &Drawing) -> Vec<(String, usize, usize, String)> {
        let attr = |el: &str, name: &str| -> String {
            let key = format!("{name}=\"");
            let at = el.find(&key).unwrap() + key.len();
            el[at..at + el[at..].find('"').unwrap()].to_string()
        };
        d.body
            .split("<text ")
            .skip(1)
            .map(|el| {
                let head = &el[..el.find('>').unwrap()];
                let content = &el[head.len() + 1..el.find("</text>").unwrap()];
                let cell = attr(head, "data-cell");
                let (r, c) = cell.split_once(' ').unwrap();
                (attr(head, "class"), r.parse().unwrap(), c.parse().unwrap(), content.to_string())
            })
            .collect()
    }

    #[test]
    fn one_text_per_clue_and_given_on_its_grid_cell() {
        // Towers 5de (see notation's tests): 6 clues, one given.
        let p = crate::notation::parse("5://////3/1/2//3/4//////3//,d3t").unwrap();
        let d = draw(&p, None);
        assert_eq!((d.width, d.height), (7.0, 7.0));
        let mut got = texts(&d);
        got.sort();
        let mut want: Vec<(String, usize, usize, String)> = vec![
            ("bottom".into(), 4, 1, "3".into()),
            ("bottom".into(), 4, 2, "1".into()),
            ("bottom".into(), 4, 3, "2".into()),
            ("given".into(), 0, 4, "3".into()),
            ("left".into(), 0, 0, "3".into()),
            ("left".into(), 1, 0, "4".into()),
            ("right".into(), 2, 4, "3".into()),
        ];
        want.sort();
        assert_eq!(got, want);
        assert_eq!(got.len(), p.clues.iter().filter(|&&c| c != 0).count() + 1);
        // The given sits in the drawing's cell (1, 5): x 5.5.
        assert!(d.body.contains(r#"x="5.5000""#), "{}", d.body);

        let solution = [2, 4, 1, 5, 3, 1, 3, 4, 2, 5, 4, 5, 2, 3, 1, 5, 2, 3, 1, 4, 3, 1, 5, 4, 2];
        let s = texts(&draw(&p, Some(&solution)));
        let cells: Vec<&(String, usize, usize, String)> =
            s.iter().filter(|t| t.0 == "digit" || t.0 == "given").collect();
        assert_eq!(cells.len(), 25);
        for (_, r, c, t) in cells {
            assert_eq!(t, &solution[r * 5 + c].to_string(), "r{r}c{c}");
        }
    }
}
