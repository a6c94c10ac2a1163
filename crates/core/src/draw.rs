//! Drawing primitives every kind draws its grid with (`Kind::draw`): a `Drawing` of SVG
//! elements in cell units, and the text helpers its elements need. Turning drawings into pages
//! and PDFs is the print crate's.
//!
//! Coordinates of a `Drawing` are in cell units: the board spans (0, 0) to (width, height), one
//! unit a cell; line widths are in the same units, so they scale with the grid.

use std::fmt::Write as _;

/// The font every page and grid is set in; the print crate ships and embeds it.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// Thin cell lines and thick region lines (box, cage, border), in cell units.
pub const THIN: f64 = 0.025;
pub const THICK: f64 = 0.075;

/// A grid drawn in cell units.
#[derive(Clone, Debug, Default)]
pub struct Drawing {
    pub width: f64,
    pub height: f64,
    /// SVG elements (no `<svg>` wrapper).
    pub body: String,
    /// The smallest font size used, in cell units (0 when there is no text): the page layout
    /// keeps it readable.
    pub min_text: f64,
    /// Where the puzzle's cell (0, 0) starts, in cell units: (0, 0) unless the drawing has a
    /// border of its own before the grid (Skyscrapers' clues), so that what is drawn later over
    /// a cell (a worked step's shading) lands on it.
    pub grid_at: (f64, f64),
}

/// What the solution page shows: the digit of every cell to fill, row-major over the board (0
/// where there is none, e.g. Kakuro blocks).
pub type Digits<'a> = Option<&'a [u8]>;

impl Drawing {
    pub fn new(width: f64, height: f64) -> Self {
        Drawing { width, height, body: String::new(), min_text: 0.0, grid_at: (0.0, 0.0) }
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, width: f64) {
        let _ = write!(
            self.body,
            r##"<line x1="{x1:.4}" y1="{y1:.4}" x2="{x2:.4}" y2="{y2:.4}" stroke="#000" stroke-width="{width:.4}" stroke-linecap="square"/>"##
        );
    }

    /// A dashed line (killer cage outlines), `dash` the length of a dash and of a gap.
    pub fn dashed(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, width: f64, dash: f64) {
        let _ = write!(
            self.body,
            r##"<line x1="{x1:.4}" y1="{y1:.4}" x2="{x2:.4}" y2="{y2:.4}" stroke="#000" stroke-width="{width:.4}" stroke-dasharray="{dash:.4} {dash:.4}"/>"##
        );
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str) {
        let _ = write!(self.body, r##"<rect x="{x:.4}" y="{y:.4}" width="{w:.4}" height="{h:.4}" fill="{fill}"/>"##);
    }

    /// Text at (x, y) (the baseline), `size` in cell units; `anchor` start, middle or end;
    /// `class` names what it is (`given`, `digit`, `cage`, `down`, `across`) and `cell` the
    /// cell (row, column) it belongs to, so that a reader can take the grid back from the SVG.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        x: f64,
        y: f64,
        size: f64,
        anchor: &str,
        class: &str,
        cell: (usize, usize),
        fill: &str,
        content: &str,
    ) {
        self.min_text = if self.min_text == 0.0 { size } else { self.min_text.min(size) };
        let _ = write!(
            self.body,
            r##"<text x="{x:.4}" y="{y:.4}" font-size="{size:.4}" text-anchor="{anchor}" fill="{fill}" class="{class}" data-cell="{} {}">{}</text>"##,
            cell.0,
            cell.1,
            escape(content)
        );
    }

    /// A digit centred in cell (r, c), `size` of a cell high.
    pub fn centred(&mut self, r: usize, c: usize, size: f64, class: &str, fill: &str, content: &str) {
        // DejaVu's digits are 0.73 em high: the baseline sits 0.365 em below the centre.
        let y = r as f64 + 0.5 + 0.365 * size;
        self.text(c as f64 + 0.5, y, size, "middle", class, (r, c), fill, content);
    }

    /// Every line drawn `factor` times as heavy (a book's line weight).
    pub fn scale_lines(&mut self, factor: f64) {
        const KEY: &str = "stroke-width=\"";
        let mut out = String::with_capacity(self.body.len());
        let mut rest = self.body.as_str();
        while let Some(at) = rest.find(KEY) {
            let (head, tail) = rest.split_at(at + KEY.len());
            out.push_str(head);
            let end = tail.find('"').unwrap_or(tail.len());
            match tail[..end].parse::<f64>() {
                Ok(w) => {
                    let _ = write!(out, "{:.4}", w * factor);
                }
                Err(_) => out.push_str(&tail[..end]),
            }
            rest = &tail[end..];
        }
        out.push_str(rest);
        self.body = out;
    }

    /// The whole grid as a standalone SVG, `cell` points a cell, with `pad` cells around.
    pub fn to_svg(&self, cell: f64, pad: f64) -> String {
        let (w, h) = ((self.width + 2.0 * pad) * cell, (self.height + 2.0 * pad) * cell);
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.2}pt" height="{h:.2}pt" viewBox="{:.4} {:.4} {:.4} {:.4}" font-family="{FONT_FAMILY}"><rect x="{:.4}" y="{:.4}" width="100%" height="100%" fill="#fff"/>{}</svg>"##,
            -pad,
            -pad,
            self.width + 2.0 * pad,
            self.height + 2.0 * pad,
            -pad,
            -pad,
            self.body
        )
    }
}

/// `s` as SVG text: markup characters escaped, and the characters XML cannot hold at all (the
/// control characters but tab and line breaks; U+FFFE, U+FFFF) as U+FFFD, so that text from a
/// book file (an id) can never make a page fail to parse. (`book` refuses them in `--title`.)
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || matches!(c, '\u{fffe}' | '\u{ffff}') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The solution's digits from a book record's `solution` field: Sudoku's digit string, or
/// KenKen's and Kakuro's array of rows (0 on Kakuro blocks), row-major.
pub fn solution_digits(v: &serde_json::Value) -> Result<Vec<u8>, String> {
    match v {
        serde_json::Value::String(s) => s
            .chars()
            .map(|ch| ch.to_digit(36).map(|d| d as u8).ok_or_else(|| format!("solution digit {ch:?}")))
            .collect(),
        serde_json::Value::Array(rows) => {
            let mut out = Vec::new();
            for row in rows {
                for d in row.as_array().ok_or("solution rows must be arrays")? {
                    out.push(d.as_u64().filter(|&d| d < 256).ok_or("solution digits must be numbers")? as u8);
                }
            }
            Ok(out)
        }
        _ => Err("solution must be a string or an array of rows".into()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn scale_lines_scales_every_stroke_width_and_nothing_else() {
        let mut d = super::Drawing::new(2.0, 2.0);
        d.line(0.0, 0.0, 1.0, 1.0, 0.025);
        d.dashed(0.0, 1.0, 2.0, 1.0, 0.075, 0.1);
        d.scale_lines(2.0);
        assert!(
            d.body.contains(r#"stroke-width="0.0500""#) && d.body.contains(r#"stroke-width="0.1500""#),
            "{}",
            d.body
        );
        assert!(d.body.contains(r#"x2="1.0000""#) && d.body.contains("0.1000 0.1000"), "{}", d.body);
    }

    #[test]
    fn escape_leaves_nothing_xml_cannot_hold() {
        assert_eq!(super::escape("a<b>&\"c\""), "a&lt;b&gt;&amp;&quot;c&quot;");
        assert_eq!(super::escape("x\u{1}y\u{7f}\tz\u{ffff}"), "x\u{fffd}y\u{7f}\tz\u{fffd}");
        // Every escaped string parses as an SVG text's content.
        let all: String = (0u32..0x80).filter_map(char::from_u32).chain(['\u{fffe}', '\u{ffff}']).collect();
        let svg = format!("<svg xmlns=\"http://www.w3.org/2000/svg\"><text>{}</text></svg>", super::escape(&all));
        assert!(roxmltree::Document::parse(&svg).is_ok());
    }
}
