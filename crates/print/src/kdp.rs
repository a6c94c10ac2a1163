//! Amazon KDP's paperback rules, and checks of a book's pages, images and font against them.
//!
//! From KDP's help pages "Paperback trim size, bleed and margins"
//! (<https://kdp.amazon.com/en_US/help/topic/GVBQ3CMEQW3W2VL6>) and "Create a paperback cover" /
//! the cover calculator (<https://kdp.amazon.com/en_US/help/topic/G201953020>,
//! <https://kdp.amazon.com/cover-calculator>):
//!
//! - Trim sizes: the standard list below, or a custom size 4–8.5 in wide and 6–11.69 in tall.
//! - 24 to 828 pages (the maximum depends on trim and paper; 828 is the largest of them); text on
//!   the spine only from 79 pages.
//! - Bleed 0.125 in: on the interior at the top, bottom and outside edge; on the cover all round.
//! - Minimum margins: the inside (gutter) grows with the page count (0.375 in up to 150 pages,
//!   0.5 to 300, 0.625 to 500, 0.75 to 700, 0.875 beyond); outside, top and bottom 0.25 in
//!   without bleed, 0.375 in with bleed.
//! - Spine width: the page count times the paper's thickness per page (white 0.002252 in, cream
//!   0.0025 in, premium colour 0.002347 in; standard colour is printed on white paper).
//! - Cover: width = bleed + back + spine + front + bleed, height = bleed + trim height + bleed.
//! - Images at least 300 dpi at their printed size; fonts embedded (so their licence must allow
//!   embedding).

use std::fmt;

pub const INCH: f64 = 72.0;
pub const BLEED_IN: f64 = 0.125;
pub const MIN_PAGES: usize = 24;
pub const MAX_PAGES: usize = 828;
/// The fewest pages whose spine may carry text.
pub const SPINE_TEXT_MIN_PAGES: usize = 79;
/// The least resolution of an image at its printed size.
pub const MIN_DPI: f64 = 300.0;
/// KDP's custom trim range, in inches.
pub const CUSTOM_WIDTH: (f64, f64) = (4.0, 8.5);
pub const CUSTOM_HEIGHT: (f64, f64) = (6.0, 11.69);

/// The standard trim names `Trim::parse` knows (besides a custom `WxH`).
pub const NAMES: &[&str] = &[
    "5x8",
    "5.06x7.81",
    "5.25x8",
    "5.5x8.5",
    "6x9",
    "6.14x9.21",
    "7x10",
    "7.5x9.25",
    "8x10",
    "8.25x11",
    "8.5x8.5",
    "8.5x11",
    "a4",
    "a5",
    "letter",
];

/// A trim size, in inches.
#[derive(Clone, Debug, PartialEq)]
pub struct Trim {
    pub name: String,
    pub width: f64,
    pub height: f64,
}

impl Trim {
    /// A standard name (`NAMES`; `×` for `x`, any case) or a custom `WxH` in inches within KDP's
    /// custom range.
    pub fn parse(s: &str) -> Result<Trim, String> {
        let name = s.trim().to_lowercase().replace('×', "x");
        let mm = 1.0 / 25.4;
        let (width, height) = match name.as_str() {
            "a4" => (210.0 * mm, 297.0 * mm),
            "a5" => (148.0 * mm, 210.0 * mm),
            "letter" => (8.5, 11.0),
            _ => {
                let size =
                    name.split_once('x').and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)));
                let Some((w, h)) = size.filter(|&(w, h): &(f64, f64)| w.is_finite() && h.is_finite()) else {
                    return Err(format!("unknown trim size {s:?}: one of {}, or WxH in inches", NAMES.join(", ")));
                };
                let inside = |v: f64, (lo, hi): (f64, f64)| (lo..=hi).contains(&v);
                if !inside(w, CUSTOM_WIDTH) || !inside(h, CUSTOM_HEIGHT) {
                    return Err(format!(
                        "trim {w} x {h} in is outside KDP's range ({}-{} in wide, {}-{} in tall)",
                        CUSTOM_WIDTH.0, CUSTOM_WIDTH.1, CUSTOM_HEIGHT.0, CUSTOM_HEIGHT.1
                    ));
                }
                // A standard size written as numbers keeps its standard name.
                let named = NAMES.iter().find(|n| {
                    n.split_once('x').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?))) == Some((w, h))
                });
                return Ok(Trim {
                    name: named.map_or_else(|| format!("{w}x{h}"), |n| n.to_string()),
                    width: w,
                    height: h,
                });
            }
        };
        Ok(Trim { name, width, height })
    }

    /// Width and height in points.
    pub fn points(&self) -> (f64, f64) {
        (self.width * INCH, self.height * INCH)
    }
}

/// The paper of the interior, which sets the spine's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Paper {
    White,
    Cream,
    /// Premium colour (standard colour is printed on white paper: use `White`).
    Color,
}

impl Paper {
    /// Thickness of one page, in inches (KDP's cover calculator).
    pub fn per_page(self) -> f64 {
        match self {
            Paper::White => 0.002252,
            Paper::Cream => 0.0025,
            Paper::Color => 0.002347,
        }
    }
}

/// The least inside margin (gutter) of a book of `pages` pages, in inches.
pub(crate) fn min_gutter(pages: usize) -> f64 {
    match pages {
        0..=150 => 0.375,
        151..=300 => 0.5,
        301..=500 => 0.625,
        501..=700 => 0.75,
        _ => 0.875,
    }
}

/// The page range `min_gutter` applies to, for messages.
fn gutter_range(pages: usize) -> &'static str {
    match pages {
        0..=150 => "24-150 pages",
        151..=300 => "151-300 pages",
        301..=500 => "301-500 pages",
        501..=700 => "501-700 pages",
        _ => "701-828 pages",
    }
}

/// The least outside, top and bottom margin, in inches.
pub(crate) fn min_outside(bleed: bool) -> f64 {
    if bleed {
        0.375
    } else {
        0.25
    }
}

/// The spine's width in inches.
pub(crate) fn spine_width(pages: usize, paper: Paper) -> f64 {
    pages as f64 * paper.per_page()
}

/// The full cover (back, spine, front, with bleed all round), width and height in inches.
pub(crate) fn cover_size(trim: &Trim, pages: usize, paper: Paper) -> (f64, f64) {
    (2.0 * (trim.width + BLEED_IN) + spine_width(pages, paper), trim.height + 2.0 * BLEED_IN)
}

/// One thing KDP would refuse or print badly: where (a page, a file) and what.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub page: Option<usize>,
    pub file: Option<String>,
    pub what: String,
}

impl Problem {
    fn new(what: String) -> Problem {
        Problem { page: None, file: None, what }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match (&self.file, self.page) {
            (Some(file), Some(p)) => write!(f, "{file}, page {p}: {}", self.what),
            (Some(file), None) => write!(f, "{file}: {}", self.what),
            (None, Some(p)) => write!(f, "page {p}: {}", self.what),
            (None, None) => write!(f, "{}", self.what),
        }
    }
}

impl std::error::Error for Problem {}

/// The page count outside KDP's 24–828.
pub fn page_count(pages: usize) -> Option<Problem> {
    (!(MIN_PAGES..=MAX_PAGES).contains(&pages))
        .then(|| Problem::new(format!("{pages} pages; KDP prints {MIN_PAGES}-{MAX_PAGES}")))
}

/// Margins (inches) under KDP's minimums for a book of `pages` pages.
pub fn margins(pages: usize, bleed: bool, inside: f64, outside: f64, top: f64, bottom: f64) -> Vec<Problem> {
    let least = min_outside(bleed);
    let with = if bleed { "with bleed" } else { "without bleed" };
    let mut out = Vec::new();
    if inside < min_gutter(pages) - 1e-9 {
        out.push(Problem::new(format!(
            "inside margin {inside:.3} in; at least {} in for {}",
            min_gutter(pages),
            gutter_range(pages)
        )));
    }
    for (name, v) in [("outside", outside), ("top", top), ("bottom", bottom)] {
        if v < least - 1e-9 {
            out.push(Problem::new(format!("{name} margin {v:.3} in; at least {least} in {with}")));
        }
    }
    out
}

/// An interior page as KDP sees it: the trim in points, bleed or not, and the book's page count
/// (which sets the gutter). With bleed the page is 0.125 in wider at the outside edge and 0.125
/// in taller at the top and at the bottom; the trim sits at the binding edge.
#[derive(Clone, Copy, Debug)]
pub struct PageGeometry {
    pub trim: (f64, f64),
    pub bleed: bool,
    pub pages: usize,
}

impl PageGeometry {
    /// The page's size in points.
    pub fn size(&self) -> (f64, f64) {
        let b = if self.bleed { BLEED_IN * INCH } else { 0.0 };
        (self.trim.0 + b, self.trim.1 + 2.0 * b)
    }
}

/// What is drawn on page `page_no` (1-based; odd pages are recto, bound at the left) outside the
/// page, or into its gutter, outside, top or bottom margin (KDP's minimums). Elements filled
/// white (and not stroked), hidden or fully transparent are not counted, so a white page
/// background is not; clip paths are not applied (a clipped element counts at its full size).
/// With bleed, an element that reaches a trim edge is bleed art on that side and is only
/// checked against the page's edge. The tree's user units are points.
pub fn content_bounds(page_no: usize, tree: &usvg::Tree, geometry: &PageGeometry) -> Vec<Problem> {
    let mut boxes = Vec::new();
    ink_boxes(tree.root(), &mut boxes);
    let (tw, th) = geometry.trim;
    let mut out = Vec::new();
    let at = |what: String| Problem { page: Some(page_no), file: None, what };
    let (size, want) = (tree.size(), geometry.size());
    if (size.width() as f64 - want.0).abs() > 0.5 || (size.height() as f64 - want.1).abs() > 0.5 {
        out.push(at(format!(
            "page is {:.3} x {:.3} in; the trim and bleed make {:.3} x {:.3} in",
            size.width() as f64 / INCH,
            size.height() as f64 / INCH,
            want.0 / INCH,
            want.1 / INCH
        )));
    }
    if boxes.is_empty() {
        return out;
    }
    let recto = page_no % 2 == 1;
    let b = if geometry.bleed { BLEED_IN * INCH } else { 0.0 };
    let x0 = if recto { 0.0 } else { b };
    // Distances in points from each trim edge, in from the trim (negative: beyond it), for
    // left, right, top, bottom.
    let dist = |r: &usvg::Rect| {
        let (l, t, rr, bb) = (r.left() as f64, r.top() as f64, r.right() as f64, r.bottom() as f64);
        [l - x0, x0 + tw - rr, t - b, b + th - bb]
    };
    let (inner, outer) = if recto { (0, 1) } else { (1, 0) };
    // How far beyond the trim each side's page edge lies.
    let mut room = [b, b, b, b];
    room[inner] = 0.0;
    let gutter = min_gutter(geometry.pages) * INCH;
    let edge = min_outside(geometry.bleed) * INCH;
    let least = {
        let mut l = [edge; 4];
        l[inner] = gutter;
        l
    };
    let names = {
        let mut n = ["outside edge", "outside edge", "top edge", "bottom edge"];
        n[inner] = "binding edge";
        n
    };
    for side in 0..4 {
        let worst = boxes.iter().map(|r| dist(r)[side]).fold(f64::INFINITY, f64::min);
        // Beyond the page (the trim plus any bleed on that side).
        if worst < -room[side] - 0.01 {
            let past = -worst - room[side];
            let what = if room[side] > 0.0 { "beyond the bleed" } else { "beyond the trim" };
            out.push(at(format!("drawn {what} ({:.2} in past the {})", past / INCH, names[side])));
            continue;
        }
        // Into the margin, leaving out bleed art (what reaches the trim edge, with bleed).
        let inside = boxes
            .iter()
            .map(|r| dist(r)[side])
            .filter(|&d| !(geometry.bleed && d <= 0.01))
            .fold(f64::INFINITY, f64::min);
        // A glyph's overhang of a few thousandths of an inch is no problem: 0.005 in is allowed.
        if inside < least[side] - 0.36 {
            let margin = match side {
                s if s == inner => "the gutter",
                s if s == outer => "the outside margin",
                2 => "the top margin",
                _ => "the bottom margin",
            };
            let rule = if side == inner {
                format!("at least {} in for {}", gutter / INCH, gutter_range(geometry.pages))
            } else {
                format!("at least {} in {}", edge / INCH, if geometry.bleed { "with bleed" } else { "without bleed" })
            };
            out.push(at(format!(
                "drawn into {margin} ({:.2} in from the {}; {rule})",
                inside.max(0.0) / INCH,
                names[side]
            )));
        }
    }
    out
}

/// The page boxes of what `group` draws (see `content_bounds`).
fn ink_boxes(group: &usvg::Group, out: &mut Vec<usvg::Rect>) {
    if group.opacity().get() == 0.0 {
        return;
    }
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => ink_boxes(g, out),
            // The text's own box: its flattened glyphs' boxes leave out the transforms of the
            // groups around it (a grid's digits, scaled into place).
            usvg::Node::Text(t) => out.push(t.abs_stroke_bounding_box()),
            usvg::Node::Image(i) => {
                if i.is_visible() {
                    out.push(i.abs_bounding_box());
                }
            }
            usvg::Node::Path(p) => {
                let shown = |paint: &usvg::Paint, opacity: f32| {
                    opacity > 0.0
                        && !matches!(paint, usvg::Paint::Color(c) if (c.red, c.green, c.blue) == (255, 255, 255))
                };
                let fill = p.fill().is_some_and(|f| shown(f.paint(), f.opacity().get()));
                let stroke = p.stroke().is_some_and(|s| shown(s.paint(), s.opacity().get()));
                if p.is_visible() && (fill || stroke) {
                    out.push(p.abs_stroke_bounding_box());
                }
            }
        }
    }
}

/// An image of `px_w` × `px_h` pixels printed at `printed_w_in` × `printed_h_in` inches under
/// 300 dpi (the lower of its two resolutions, rounded).
pub(crate) fn image_dpi(file: &str, px_w: u32, px_h: u32, printed_w_in: f64, printed_h_in: f64) -> Option<Problem> {
    let dpi = (px_w as f64 / printed_w_in).min(px_h as f64 / printed_h_in);
    (dpi.round() < MIN_DPI).then(|| Problem {
        page: None,
        file: Some(file.to_string()),
        what: format!(
            "image at {:.0} dpi ({px_w} x {px_h} px printed {printed_w_in:.2} x {printed_h_in:.2} in); at least {MIN_DPI} dpi",
            dpi
        ),
    })
}

/// The family name of the font in `data` (the first face of a collection), or why it cannot be
/// embedded: not a font, or its OS/2 fsType forbids embedding (restricted licence, bit 0x0002,
/// without the preview-and-print or editable bits) or the subset (0x0100) or outline (0x0200)
/// embedding a PDF needs.
pub fn font(file: &str, data: &[u8]) -> Result<String, Problem> {
    let problem = |what: &str| Problem { page: None, file: Some(file.to_string()), what: what.to_string() };
    let face = ttf_parser::Face::parse(data, 0).map_err(|_| problem("not a font file"))?;
    if let Some(os2) = face.tables().os2 {
        let fs_type = face
            .raw_face()
            .table(ttf_parser::Tag::from_bytes(b"OS/2"))
            .and_then(|t| t.get(8..10))
            .map_or(0, |b| u16::from_be_bytes([b[0], b[1]]));
        if fs_type & 0x0002 != 0 && fs_type & 0x000c == 0 {
            return Err(problem("the font's licence forbids embedding"));
        }
        if !os2.is_subsetting_allowed() || !os2.is_outline_embedding_allowed() {
            return Err(problem("the font's licence forbids embedding its outlines as a subset"));
        }
    }
    let name = |id: u16| {
        face.names().into_iter().filter(|n| n.name_id == id).find_map(|n| n.to_string()).filter(|s| !s.is_empty())
    };
    name(ttf_parser::name_id::TYPOGRAPHIC_FAMILY)
        .or_else(|| name(ttf_parser::name_id::FAMILY))
        .ok_or_else(|| problem("the font has no family name"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cover_sizes_follow_the_formula() {
        let trim = Trim::parse("6x9").unwrap();
        for (pages, paper, per) in [
            (24, Paper::White, 0.002252),
            (150, Paper::White, 0.002252),
            (600, Paper::White, 0.002252),
            (24, Paper::Cream, 0.0025),
            (150, Paper::Cream, 0.0025),
            (600, Paper::Cream, 0.0025),
            (24, Paper::Color, 0.002347),
            (150, Paper::Color, 0.002347),
            (600, Paper::Color, 0.002347),
        ] {
            let (w, h) = cover_size(&trim, pages, paper);
            assert!((w - (2.0 * 6.125 + pages as f64 * per)).abs() < 0.001, "{pages} {paper:?}: {w}");
            assert!((h - 9.25).abs() < 0.001);
        }
        // 600 cream pages: a 1.5 in spine, 13.75 in wide.
        assert!((cover_size(&trim, 600, Paper::Cream).0 - 13.75).abs() < 1e-9);
        assert_eq!(serde_json::to_string(&Paper::Cream).unwrap(), "\"cream\"");
    }

    #[test]
    fn every_trim_name_parses() {
        let sizes = [
            (5.0, 8.0),
            (5.06, 7.81),
            (5.25, 8.0),
            (5.5, 8.5),
            (6.0, 9.0),
            (6.14, 9.21),
            (7.0, 10.0),
            (7.5, 9.25),
            (8.0, 10.0),
            (8.25, 11.0),
            (8.5, 8.5),
            (8.5, 11.0),
            (8.27, 11.69),
            (5.83, 8.27),
            (8.5, 11.0),
        ];
        assert_eq!(NAMES.len(), sizes.len());
        for (name, (w, h)) in NAMES.iter().zip(sizes) {
            let t = Trim::parse(name).unwrap();
            assert_eq!(t.name, *name);
            assert!((t.width - w).abs() < 0.005 && (t.height - h).abs() < 0.005, "{name}: {t:?}");
        }
        assert_eq!(Trim::parse("6×9").unwrap().name, "6x9");
        assert_eq!(Trim::parse("A4").unwrap(), Trim::parse("a4").unwrap());
        assert_eq!(Trim::parse("6.0x9").unwrap().name, "6x9");
        let custom = Trim::parse("7.44x9.69").unwrap();
        assert_eq!((custom.name.as_str(), custom.width, custom.height), ("7.44x9.69", 7.44, 9.69));
        assert_eq!(custom.points(), (7.44 * 72.0, 9.69 * 72.0));
        let e = Trim::parse("9x12").unwrap_err();
        assert!(e.contains("4-8.5 in wide") && e.contains("6-11.69 in tall"), "{e}");
        let e = Trim::parse("pocket").unwrap_err();
        assert!(e.contains("6.14x9.21") && e.contains("letter"), "{e}");
    }

    #[test]
    fn gutter_steps_and_margins() {
        for (pages, g) in [(24, 0.375), (150, 0.375), (151, 0.5), (300, 0.5), (301, 0.625), (500, 0.625)] {
            assert_eq!(min_gutter(pages), g);
        }
        for (pages, g) in [(501, 0.75), (700, 0.75), (701, 0.875), (828, 0.875)] {
            assert_eq!(min_gutter(pages), g);
        }
        assert_eq!((min_outside(false), min_outside(true)), (0.25, 0.375));
        assert!(margins(200, false, 0.5, 0.25, 0.25, 0.25).is_empty());
        let p = margins(200, true, 0.4, 0.3, 0.5, 0.5);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].what, "inside margin 0.400 in; at least 0.5 in for 151-300 pages");
        assert_eq!(p[1].what, "outside margin 0.300 in; at least 0.375 in with bleed");
        assert!(page_count(24).is_none() && page_count(828).is_none());
        assert_eq!(page_count(23).unwrap().to_string(), "23 pages; KDP prints 24-828");
        assert!(page_count(829).is_some());
    }

    fn tree(svg: &str) -> usvg::Tree {
        usvg::Tree::from_str(svg, &crate::pdf::svg_options()).unwrap()
    }

    /// A 6 × 9 in page (432 × 648 pt) with a white background and `body`.
    fn page(body: &str) -> usvg::Tree {
        tree(&format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="432" height="648" viewBox="0 0 432 648"><rect width="100%" height="100%" fill="#fff"/>{body}</svg>"##
        ))
    }

    #[test]
    fn content_in_the_gutter_is_found() {
        let g = PageGeometry { trim: (432.0, 648.0), bleed: false, pages: 100 };
        // Inside 0.5 in margins all round: nothing on either side.
        let inside = page(
            r##"<rect x="36" y="36" width="360" height="576" fill="none" stroke="#000" stroke-width="1"/><text x="216" y="300">Fine</text>"##,
        );
        assert!(content_bounds(11, &inside, &g).is_empty());
        assert!(content_bounds(12, &inside, &g).is_empty());
        // A bar 0.21 in from the right edge: the gutter of a verso (even) page, the outside
        // margin of a recto.
        let right = page(r##"<rect x="300" y="100" width="116.88" height="50" fill="#000"/>"##);
        let p = content_bounds(12, &right, &g);
        assert_eq!(p.len(), 1);
        assert_eq!(
            p[0].to_string(),
            "page 12: drawn into the gutter (0.21 in from the binding edge; at least 0.375 in for 24-150 pages)"
        );
        let p = content_bounds(13, &right, &g);
        assert_eq!(p.len(), 1);
        assert!(p[0].what.starts_with("drawn into the outside margin (0.21 in from the outside edge"), "{}", p[0]);
        // Text spilling over the top and past the trim.
        let off = page(r##"<rect x="100" y="-10" width="100" height="50" fill="#000"/>"##);
        let p = content_bounds(1, &off, &g);
        assert_eq!(p[0].what, "drawn beyond the trim (0.14 in past the top edge)");
        // With bleed (441 × 666 pt), a full-bleed image-like rect on a recto is bleed art.
        let gb = PageGeometry { bleed: true, ..g };
        let bled = tree(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="441" height="666"><rect width="441" height="666" fill="#c00"/></svg>"##,
        );
        assert!(content_bounds(1, &bled, &gb).is_empty());
        // The page size is checked too.
        assert!(content_bounds(1, &inside, &gb)[0].what.starts_with("page is 6.000 x 9.000 in"));
    }

    #[test]
    fn low_resolution_images_are_found() {
        assert!(image_dpi("a.png", 1800, 2700, 6.0, 9.0).is_none());
        let p = image_dpi("a.png", 600, 2700, 6.0, 9.0).unwrap();
        assert_eq!(p.file.as_deref(), Some("a.png"));
        assert!(p.to_string().starts_with("a.png: image at 100 dpi"), "{p}");
    }

    #[test]
    fn fonts_are_checked() {
        assert_eq!(font("DejaVuSans.ttf", crate::FONT_DATA), Ok("DejaVu Sans".to_string()));
        let noise: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        assert_eq!(font("x.ttf", &noise).unwrap_err().what, "not a font file");
        // The same font with its OS/2 fsType set to restricted licence embedding.
        let mut restricted = crate::FONT_DATA.to_vec();
        let at = {
            let face = ttf_parser::Face::parse(&restricted, 0).unwrap();
            let os2 = face.raw_face().table(ttf_parser::Tag::from_bytes(b"OS/2")).unwrap();
            os2.as_ptr() as usize - restricted.as_ptr() as usize + 8
        };
        restricted[at..at + 2].copy_from_slice(&2u16.to_be_bytes());
        assert_eq!(font("r.ttf", &restricted).unwrap_err().what, "the font's licence forbids embedding");
    }
}
