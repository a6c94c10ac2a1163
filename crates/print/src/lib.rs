//! Print-ready books (`book`): each kind draws its grid as SVG elements (`Kind::draw`, in the
//! kind's folder), `layout` places them on the pages of a trim size, `pdf` turns the pages into
//! one PDF with the font embedded (krilla, krilla-svg), or the grids are written one SVG each.
//!
//! Coordinates of a `Drawing` are in cell units: the board spans (0, 0) to (width, height), one
//! unit a cell; line widths are in the same units, so they scale with the grid. Text is set in
//! the one font shipped with the program, DejaVu Sans (`assets/fonts`, licence beside it).
//!
//! Rule: depends on the core only (grades, and the drawing primitives it re-exports); it is the
//! only crate with the PDF, SVG and font libraries.

pub mod cover;
pub mod kdp;
pub mod layout;
pub mod pdf;
pub mod strings;

pub use pf_core::draw::*;

/// The font every page and grid is set in (`FONT_FAMILY`), embedded into every PDF.
pub static FONT_DATA: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// Widths of text in a font (glyph advances, no kerning): the default family of usvg options.
pub struct Measure {
    font: Option<(Vec<u8>, u32)>,
}

impl Measure {
    pub fn new(opts: &usvg::Options) -> Measure {
        let family = [usvg::fontdb::Family::Name(&opts.font_family)];
        let query = usvg::fontdb::Query { families: &family, ..Default::default() };
        let font = opts.fontdb.query(&query).and_then(|id| opts.fontdb.with_face_data(id, |d, i| (d.to_vec(), i)));
        Measure { font }
    }

    /// The width of `text` at `size` points (half an em a character without the font).
    pub fn width(&self, text: &str, size: f64) -> f64 {
        let face = self.font.as_ref().and_then(|(d, i)| ttf_parser::Face::parse(d, *i).ok());
        let Some(face) = face else { return text.chars().count() as f64 * 0.5 * size };
        let em = face.units_per_em() as f64;
        let advance = |c: char| face.glyph_index(c).and_then(|g| face.glyph_hor_advance(g)).map_or(em / 2.0, f64::from);
        text.chars().map(advance).sum::<f64>() / em * size
    }
}

/// `text` in lines at most `width` points wide at `size` (a longer word keeps its own line).
pub fn wrap(m: &Measure, text: &str, width: f64, size: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    // Broken at plain spaces only: a no-break space (French "mot\u{a0}:") holds its words together.
    for word in text.split([' ', '\t', '\n']).filter(|w| !w.is_empty()) {
        match lines.last_mut() {
            Some(line) if m.width(&format!("{line} {word}"), size) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    #[test]
    fn wrap_never_breaks_at_a_no_break_space() {
        let m = super::Measure::new(&super::pdf::svg_options());
        let text = "une ligne assez longue pour être coupée par\u{a0}: ici et là\u{a0}; encore";
        for width in [40.0, 60.0, 80.0, 120.0, 200.0] {
            for line in super::wrap(&m, text, width, 10.0) {
                assert!(!line.starts_with([':', ';']), "{width}: {line:?}");
            }
        }
    }
}
