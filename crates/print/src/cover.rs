//! A paperback's full-wrap cover as one PDF page: back panel left, spine in the middle, front
//! panel right, with KDP's 0.125 in bleed all round (`kdp` has the rules and sizes).
//!
//! The front carries the title, subtitle and author; the spine the title and author, rotated to
//! read top to bottom (as on US books), from 79 pages; the back the back text above an empty
//! white barcode area (2 × 1.2 in, 0.25 in from the trim's bottom and from the spine fold).
//! Text keeps inside the safe zone: 0.125 in inside the trim edges and 0.0625 in from the spine
//! folds. A front or back image (PNG, JPEG or SVG, the type told by its content) fills its
//! panel and bleed, cropped to it and centred. The page is built as SVG, drawn by krilla-svg
//! with the font of the given usvg options; the PDF's trim box is the cover without its bleed.
//! Nothing varies between runs: the same input gives the same bytes.

use super::kdp::{self, Paper, Problem, Trim, BLEED_IN, INCH, SPINE_TEXT_MIN_PAGES};
use super::{escape, wrap, Measure};
use anyhow::{anyhow, bail, Context as _, Result};
use base64::Engine as _;
use krilla::geom::{Rect, Size};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::Document;
use krilla_svg::{SurfaceExt, SvgSettings};
use std::fmt::Write as _;
use std::path::PathBuf;

/// What the cover shows.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoverSpec {
    pub title: String,
    pub subtitle: Option<String>,
    pub author: Option<String>,
    /// Paragraphs of the back text.
    pub back_text: Vec<String>,
    pub front_image: Option<PathBuf>,
    pub back_image: Option<PathBuf>,
    /// CSS colours of the background (under any image) and of the text.
    pub background: String,
    pub text_colour: String,
    /// Title and author on the spine (only drawn from 79 pages).
    pub spine_text: bool,
}

impl Default for CoverSpec {
    fn default() -> Self {
        CoverSpec {
            title: String::new(),
            subtitle: None,
            author: None,
            back_text: Vec::new(),
            front_image: None,
            back_image: None,
            background: "#ffffff".into(),
            text_colour: "#000000".into(),
            spine_text: true,
        }
    }
}

/// A cover: its PDF, its size and spine in inches, whether the spine carries text, and what KDP
/// would object to (page count, image resolution, back text that does not fit).
#[derive(Debug)]
pub struct Cover {
    pub pdf: Vec<u8>,
    pub width: f64,
    pub height: f64,
    pub spine: f64,
    pub spine_text: bool,
    pub problems: Vec<Problem>,
}

/// The safe zone inside the trim, and beside each spine fold (inches).
const SAFE_IN: f64 = 0.125;
const FOLD_IN: f64 = 0.0625;
/// Extra room between the safe zone and the text of the panels (inches).
const PAD_IN: f64 = 0.25;
/// The barcode area: size, and distance from the trim's bottom and the spine fold (inches).
const BARCODE_IN: (f64, f64) = (2.0, 1.2);
const BARCODE_MARGIN_IN: f64 = 0.25;
/// Back text sizes tried, in points, largest first.
const BACK_SIZES: [f64; 7] = [11.0, 10.5, 10.0, 9.5, 9.0, 8.5, 8.0];

/// The cover of a `pages`-page book on `trim` and `paper`, set in the font `font.font_family`
/// (which `font.fontdb` must hold; `pdf::svg_options()` gives the shipped one).
pub fn cover(spec: &CoverSpec, trim: &Trim, paper: Paper, pages: usize, font: &usvg::Options) -> Result<Cover> {
    let (svg, mut cover) = cover_svg(spec, trim, paper, pages, font)?;
    let tree = usvg::Tree::from_str(&svg, font).map_err(|e| anyhow!("the cover's SVG: {e}"))?;
    let (w, h) = (cover.width * INCH, cover.height * INCH);
    let b = BLEED_IN * INCH;
    let size = Size::from_wh(w as f32, h as f32).context("cover size")?;
    let trim_box =
        Rect::from_xywh(b as f32, b as f32, (w - 2.0 * b) as f32, (h - 2.0 * b) as f32).context("trim box")?;
    let bleed_box = Rect::from_xywh(0.0, 0.0, w as f32, h as f32).context("bleed box")?;
    let mut doc = Document::new();
    doc.set_metadata(Metadata::new().title(spec.title.clone()).creator("puzzle-factory".to_string()));
    let mut page =
        doc.start_page_with(PageSettings::new(size).with_trim_box(Some(trim_box)).with_bleed_box(Some(bleed_box)));
    let mut surface = page.surface();
    surface.draw_svg(&tree, size, SvgSettings::default()).context("drawing the cover")?;
    surface.finish();
    page.finish();
    cover.pdf = doc.finish().map_err(|e| anyhow!("writing the cover PDF: {e:?}"))?;
    Ok(cover)
}

/// The cover as an SVG in points, and the cover without its PDF (`pdf` empty).
pub(crate) fn cover_svg(
    spec: &CoverSpec,
    trim: &Trim,
    paper: Paper,
    pages: usize,
    font: &usvg::Options,
) -> Result<(String, Cover)> {
    let (width, height) = kdp::cover_size(trim, pages, paper);
    let spine = kdp::spine_width(pages, paper);
    let mut problems: Vec<Problem> = kdp::page_count(pages).into_iter().collect();
    let m = Measure::new(font);
    let (w, h) = (width * INCH, height * INCH);
    let (tw, th) = trim.points();
    let (b, s) = (BLEED_IN * INCH, spine * INCH);
    let (safe, fold, pad) = (SAFE_IN * INCH, FOLD_IN * INCH, PAD_IN * INCH);
    colour("background", &spec.background)?;
    colour("text colour", &spec.text_colour)?;
    let (fg, bg) = (escape(&spec.text_colour), escape(&spec.background));
    let front_x = b + tw + s;
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w:.3}" height="{h:.3}" viewBox="0 0 {w:.3} {h:.3}" font-family="{}"><rect width="{w:.3}" height="{h:.3}" fill="{bg}"/>"##,
        escape(&font.font_family)
    );
    // Images over their panels and bleed.
    for (path, x, pw) in [(&spec.back_image, 0.0, b + tw), (&spec.front_image, front_x, w - front_x)] {
        if let Some(path) = path {
            let (href, px) = image(path, font)?;
            if let Some((px_w, px_h)) = px {
                let scale = (pw / px_w as f64).max(h / px_h as f64) / INCH;
                let file = path.display().to_string();
                problems.extend(kdp::image_dpi(&file, px_w, px_h, px_w as f64 * scale, px_h as f64 * scale));
            }
            let _ = write!(
                out,
                r##"<image x="{x:.3}" y="0" width="{pw:.3}" height="{h:.3}" preserveAspectRatio="xMidYMid slice" xlink:href="{href}"/>"##
            );
        }
    }
    let text = |out: &mut String, x: f64, y: f64, size: f64, anchor: &str, content: &str| {
        let _ = write!(
            out,
            r##"<text x="{x:.3}" y="{y:.3}" font-size="{size:.3}" text-anchor="{anchor}" fill="{fg}">{}</text>"##,
            escape(content)
        );
    };
    // Front: title a fifth of the way down, subtitle under it, author at the bottom.
    let (fx0, fx1) = (front_x + fold + pad, w - b - safe - pad);
    let (top, bottom) = (b + safe + pad, h - b - safe - pad);
    let (fw, cx) = (fx1 - fx0, (fx0 + fx1) / 2.0);
    let (title_size, title_lines) = fit(&m, &spec.title, fw, tw * 0.085, 12.0, 3);
    let mut y = top + (bottom - top) * 0.2 + title_size;
    for line in &title_lines {
        text(&mut out, cx, y, title_size, "middle", line);
        y += title_size * 1.2;
    }
    if let Some(sub) = &spec.subtitle {
        let (size, lines) = fit(&m, sub, fw, (title_size * 0.45).max(10.0), 8.0, 3);
        y += size * 0.6;
        for line in &lines {
            text(&mut out, cx, y, size, "middle", line);
            y += size * 1.3;
        }
    }
    // What does not fit the front at the smallest size is a problem, not a silent overflow.
    let title_fits = title_lines.len() <= 3 && title_lines.iter().all(|l| m.width(l, title_size) <= fw);
    if !title_fits {
        problems.push(Problem {
            page: None,
            file: None,
            what: format!("the cover's title does not fit the front in 3 lines at {title_size:.0} pt: shorten it"),
        });
    }
    if let Some(author) = &spec.author {
        let (size, lines) = fit(&m, author, fw, (title_size * 0.5).max(10.0), 8.0, 2);
        let mut y = bottom - size * 1.25 * (lines.len() as f64 - 1.0);
        for line in &lines {
            text(&mut out, cx, y, size, "middle", line);
            y += size * 1.25;
        }
    }
    // Spine: the text's ink, taken as 0.76 em above the baseline to 0.24 em below, fills the
    // spine less 0.0625 in either side (at most 60 % of it, and 24 pt).
    let spine_text = spec.spine_text && pages >= SPINE_TEXT_MIN_PAGES && s > 2.0 * fold && !spec.title.is_empty();
    if spine_text {
        let length = th - 2.0 * (safe + pad);
        let mut size = (s - 2.0 * fold).min(s * 0.6).min(24.0);
        let author = spec.author.as_deref().unwrap_or("");
        let gap = if author.is_empty() { 0.0 } else { 1.5 };
        let need = m.width(&spec.title, size) + m.width(author, size) + gap * size;
        if need > length {
            size *= length / need;
        }
        let x = b + tw + s / 2.0 - 0.26 * size;
        for (y, anchor, content) in
            [(b + safe + pad, "start", spec.title.as_str()), (b + th - safe - pad, "end", author)]
        {
            if !content.is_empty() {
                let _ = write!(
                    out,
                    r##"<text transform="translate({x:.3} {y:.3}) rotate(90)" font-size="{size:.3}" text-anchor="{anchor}" fill="{fg}">{}</text>"##,
                    escape(content)
                );
            }
        }
    }
    // Back: the barcode area, white, and the back text above it.
    let (bw, bh) = (BARCODE_IN.0 * INCH, BARCODE_IN.1 * INCH);
    let (bar_x, bar_y) = (b + tw - BARCODE_MARGIN_IN * INCH - bw, b + th - BARCODE_MARGIN_IN * INCH - bh);
    let _ = write!(out, r##"<rect x="{bar_x:.3}" y="{bar_y:.3}" width="{bw:.3}" height="{bh:.3}" fill="#ffffff"/>"##);
    let (bx0, bx1) = (b + safe + pad, b + tw - fold - pad);
    let room = bar_y - pad - top;
    let para =
        |size: f64| -> Vec<Vec<String>> { spec.back_text.iter().map(|p| wrap(&m, p, bx1 - bx0, size)).collect() };
    let text_height = |size: f64, paras: &[Vec<String>]| -> f64 {
        let lines: usize = paras.iter().map(Vec::len).sum();
        lines as f64 * size * 1.35 + paras.len().saturating_sub(1) as f64 * size * 0.6
    };
    let size = BACK_SIZES.into_iter().find(|&sz| text_height(sz, &para(sz)) <= room).unwrap_or(BACK_SIZES[6]);
    let mut y = top + size;
    let mut left_out = 0;
    for (i, lines) in para(size).iter().enumerate() {
        if i > 0 {
            y += size * 0.6;
        }
        for line in lines {
            // The last line's descenders (0.24 em) stay above the gap over the barcode.
            if y + 0.24 * size > bar_y - pad {
                left_out += 1;
                continue;
            }
            text(&mut out, bx0, y, size, "start", line);
            y += size * 1.35;
        }
    }
    if left_out > 0 {
        problems.push(Problem {
            page: None,
            file: None,
            what: format!("the back text does not fit above the barcode area at {size} pt ({left_out} lines left out)"),
        });
    }
    out.push_str("</svg>");
    Ok((out, Cover { pdf: Vec::new(), width, height, spine, spine_text, problems }))
}

/// An error unless `c` is a colour usvg reads (an unreadable fill would fall back to black;
/// an unreadable stroke is dropped, which tells).
fn colour(what: &str, c: &str) -> Result<()> {
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><path d="M0 0H1" fill="none" stroke="{}"/></svg>"#,
        escape(c)
    );
    let stroked = |tree: &usvg::Tree| {
        tree.root().children().iter().any(|n| matches!(n, usvg::Node::Path(p) if p.stroke().is_some()))
    };
    match usvg::Tree::from_str(&svg, &usvg::Options::default()) {
        Ok(tree) if stroked(&tree) => Ok(()),
        _ => bail!("{what} {c:?} is not a CSS colour"),
    }
}

/// An image file as a data: URL, and its size in pixels unless it is an SVG.
fn image(path: &std::path::Path, opts: &usvg::Options) -> Result<(String, Option<(u32, u32)>)> {
    let data = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let raster = |mime: &str, image: Result<krilla::image::Image, String>| {
        image.map(|i| (mime.to_string(), Some(i.size()))).map_err(|e| anyhow!("{}: {e}", path.display()))
    };
    let (mime, size) = if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        raster("image/png", krilla::image::Image::from_png(data.clone().into(), true))?
    } else if data.starts_with(&[0xff, 0xd8, 0xff]) {
        raster("image/jpeg", krilla::image::Image::from_jpeg(data.clone().into(), true))?
    } else if usvg::Tree::from_data(&data, opts).is_ok() {
        ("image/svg+xml".to_string(), None)
    } else {
        bail!("{}: not an image (PNG, JPEG or SVG)", path.display());
    };
    Ok((format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(&data)), size))
}

/// The largest size from `max` down to `min` (by 5 %) at which `text` wraps into at most
/// `most` lines, none wider than `width`; and its lines (at `min` if none fits).
fn fit(m: &Measure, text: &str, width: f64, max: f64, min: f64, most: usize) -> (f64, Vec<String>) {
    let mut size = max.max(min);
    loop {
        let lines = wrap(m, text, width, size);
        let fits = lines.len() <= most && lines.iter().all(|l| m.width(l, size) <= width);
        if fits || size <= min {
            return (size, lines);
        }
        size = (size * 0.95).max(min);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf::svg_options;

    fn spec() -> CoverSpec {
        CoverSpec {
            title: "Sudoku for the Weekend".into(),
            subtitle: Some("200 puzzles, easy to fiendish".into()),
            author: Some("A. Setter".into()),
            back_text: vec![
                "Two hundred puzzles, every one with a unique solution. ".repeat(4),
                "Solutions at the back.".into(),
            ],
            ..Default::default()
        }
    }

    #[test]
    fn a_title_too_long_for_the_front_is_a_problem() {
        let trim = Trim::parse("6x9").unwrap();
        let ok = cover(&spec(), &trim, Paper::White, 100, &svg_options()).unwrap();
        assert!(ok.problems.is_empty(), "{:?}", ok.problems);
        let long = CoverSpec { title: "Supercalifragilistic ".repeat(12), ..spec() };
        let c = cover(&long, &trim, Paper::White, 100, &svg_options()).unwrap();
        assert!(c.problems.iter().any(|p| p.what.contains("title does not fit")), "{:?}", c.problems);
    }

    #[test]
    fn sizes_match_kdp() {
        let trim = Trim::parse("6x9").unwrap();
        for (pages, paper) in [(24, Paper::White), (120, Paper::Cream), (300, Paper::Color), (828, Paper::Cream)] {
            let (_, c) = cover_svg(&spec(), &trim, paper, pages, &svg_options()).unwrap();
            let (w, h) = kdp::cover_size(&trim, pages, paper);
            assert_eq!((c.width, c.height, c.spine), (w, h, kdp::spine_width(pages, paper)));
            assert!(c.problems.is_empty(), "{:?}", c.problems);
        }
        let (_, c) = cover_svg(&spec(), &trim, Paper::White, 20, &svg_options()).unwrap();
        assert_eq!(c.problems[0].what, "20 pages; KDP prints 24-828");
    }

    #[test]
    fn spine_text_from_79_pages() {
        let trim = Trim::parse("8.5x11").unwrap();
        let rotated = |svg: &str| svg.matches("rotate(90)").count();
        let (svg, c) = cover_svg(&spec(), &trim, Paper::White, 79, &svg_options()).unwrap();
        assert!(c.spine_text);
        assert_eq!(rotated(&svg), 2, "{svg}");
        // The spine text's size leaves 0.0625 in either side of its ink.
        let size: f64 =
            svg.split("rotate(90)\" font-size=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
        assert!(size <= (c.spine - 2.0 * FOLD_IN) * INCH + 1e-3, "{size}");
        let (svg, c) = cover_svg(&spec(), &trim, Paper::White, 78, &svg_options()).unwrap();
        assert!(!c.spine_text);
        assert_eq!(rotated(&svg), 0);
        let off = CoverSpec { spine_text: false, ..spec() };
        let bad = CoverSpec { background: "blu".into(), ..spec() };
        let e = cover_svg(&bad, &trim, Paper::White, 79, &svg_options()).unwrap_err().to_string();
        assert_eq!(e, "background \"blu\" is not a CSS colour");
        let named = CoverSpec { background: "navy".into(), text_colour: "rgb(250, 250, 250)".into(), ..spec() };
        assert!(cover_svg(&named, &trim, Paper::White, 79, &svg_options()).is_ok());
        assert!(!cover_svg(&off, &trim, Paper::White, 300, &svg_options()).unwrap().1.spine_text);
    }

    #[test]
    fn images_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let trim = Trim::parse("5x8").unwrap();
        let text = dir.path().join("notes.png");
        std::fs::write(&text, "not an image").unwrap();
        let bad = CoverSpec { front_image: Some(text.clone()), ..spec() };
        let e = cover_svg(&bad, &trim, Paper::White, 100, &svg_options()).unwrap_err().to_string();
        assert!(e.contains("notes.png") && e.contains("not an image"), "{e}");
        // 100 dpi over the front panel and bleed (5.125 x 8.25 in).
        let png = dir.path().join("front.png");
        let (pw, ph) = (513u32, 825u32);
        let mut buf = Vec::new();
        let mut enc = png::Encoder::new(&mut buf, pw, ph);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let pixels: Vec<u8> = (0..pw * ph * 3).map(|i| (i % 251) as u8).collect();
        let mut writer = enc.write_header().unwrap();
        writer.write_image_data(&pixels).unwrap();
        writer.finish().unwrap();
        std::fs::write(&png, buf).unwrap();
        let low = CoverSpec { front_image: Some(png.clone()), ..spec() };
        let (svg, c) = cover_svg(&low, &trim, Paper::White, 100, &svg_options()).unwrap();
        assert!(svg.contains("data:image/png;base64,iVBORw0KGgo"));
        assert_eq!(c.problems.len(), 1, "{:?}", c.problems);
        let p = &c.problems[0];
        assert_eq!(p.file.as_deref(), Some(png.display().to_string().as_str()));
        assert!(p.what.starts_with("image at 100 dpi"), "{p}");
    }

    #[test]
    fn the_pdf_has_the_cover_size_and_the_same_bytes() {
        let trim = Trim::parse("6x9").unwrap();
        let c = cover(&spec(), &trim, Paper::Cream, 200, &svg_options()).unwrap();
        assert!(c.pdf.starts_with(b"%PDF"));
        let pdf = String::from_utf8_lossy(&c.pdf);
        let media = pdf.split("/MediaBox[").nth(1).expect("a MediaBox").split(']').next().unwrap();
        let nums: Vec<f64> = media.split_whitespace().map(|n| n.parse().unwrap()).collect();
        assert!((nums[2] - c.width * INCH).abs() < 0.01, "{media} vs {}", c.width * INCH);
        assert!((nums[3] - c.height * INCH).abs() < 0.01, "{media}");
        assert!(pdf.contains("/TrimBox[9 9 "), "trim box");
        assert_eq!(c.pdf, cover(&spec(), &trim, Paper::Cream, 200, &svg_options()).unwrap().pdf);
    }
}
