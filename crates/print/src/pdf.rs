//! Pages (SVG) to one PDF: usvg reads each page (in parallel) with the shipped font only,
//! krilla draws them in order and embeds the font's used glyphs. No date or random id goes
//! into the file: the same pages give the same bytes.

use super::layout::Page;
use super::{FONT_DATA, FONT_FAMILY};
use anyhow::{anyhow, Context as _, Result};
use krilla::geom::{Rect, Size};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::Document;
use krilla_svg::{SurfaceExt, SvgSettings};
use rayon::prelude::*;
use std::sync::Arc;

/// usvg options that know the shipped font and nothing else (no system fonts: the same bytes
/// on every machine).
pub fn svg_options() -> usvg::Options<'static> {
    with_font(None)
}

/// A page as the SVG library reads it, shown to `render_with`'s and `inspect_only`'s `inspect`.
pub type PageTree = usvg::Tree;

/// usvg options with the shipped font and `font` (a publisher's font file's bytes, already
/// checked to be a font), which becomes the default family when given.
pub fn with_font(font: Option<(&[u8], &str)>) -> usvg::Options<'static> {
    let mut db = usvg::fontdb::Database::new();
    db.load_font_data(FONT_DATA.to_vec());
    db.set_sans_serif_family(FONT_FAMILY);
    let family = match font {
        Some((data, family)) => {
            db.load_font_data(data.to_vec());
            family.to_string()
        }
        None => FONT_FAMILY.to_string(),
    };
    usvg::Options { fontdb: Arc::new(db), font_family: family, ..Default::default() }
}

/// Pages read by usvg at a time (in parallel), then drawn and dropped: memory stays bounded.
const BATCH: usize = 8;

/// The PDF of `pages`, titled `title`; `tick` is called once a page is drawn.
pub fn render(pages: &[Page], title: &str, tick: impl Fn()) -> Result<Vec<u8>> {
    render_with(pages, title, &svg_options(), tick, |_, _| {})
}

/// `render` with the given usvg options; `inspect` sees every page's tree (number from 1) before
/// it is drawn.
pub fn render_with(
    pages: &[Page],
    title: &str,
    opts: &usvg::Options,
    tick: impl Fn(),
    inspect: impl Fn(usize, &usvg::Tree) + Sync,
) -> Result<Vec<u8>> {
    let mut doc = Document::new();
    doc.set_metadata(Metadata::new().title(title.to_string()).creator("puzzle-factory".to_string()));
    for (b, batch) in pages.chunks(BATCH).enumerate() {
        let trees: Vec<usvg::Tree> = batch
            .par_iter()
            .enumerate()
            .map(|(i, p)| read(b * BATCH + i + 1, p, opts, &inspect))
            .collect::<Result<_>>()?;
        draw(&mut doc, batch, &trees, &tick)?;
    }
    doc.finish().map_err(|e| anyhow!("writing the PDF: {e:?}"))
}

/// Every page's tree (number from 1) to `inspect`, without drawing a PDF (`book --check`).
pub fn inspect_only(pages: &[Page], opts: &usvg::Options, inspect: impl Fn(usize, &usvg::Tree) + Sync) -> Result<()> {
    pages.par_iter().enumerate().try_for_each(|(i, p)| read(i + 1, p, opts, &inspect).map(drop))
}

/// Page `number`'s tree, shown to `inspect`.
fn read(number: usize, p: &Page, opts: &usvg::Options, inspect: &impl Fn(usize, &usvg::Tree)) -> Result<usvg::Tree> {
    let tree = usvg::Tree::from_str(&p.svg, opts).map_err(|e| anyhow!("page {number}: {e}"))?;
    inspect(number, &tree);
    Ok(tree)
}

fn draw(doc: &mut Document, pages: &[Page], trees: &[usvg::Tree], tick: &impl Fn()) -> Result<()> {
    for (p, tree) in pages.iter().zip(trees) {
        let size = Size::from_wh(p.width as f32, p.height as f32).context("page size")?;
        let mut settings = PageSettings::new(size);
        if p.trim.0 != 0.0 || p.trim.1 != 0.0 || (p.trim.2, p.trim.3) != (p.width, p.height) {
            let (x, y, w, h) = p.trim;
            // PDF boxes count y from the bottom.
            let trim = Rect::from_xywh(x as f32, (p.height - y - h) as f32, w as f32, h as f32).context("trim box")?;
            let bleed = Rect::from_xywh(0.0, 0.0, p.width as f32, p.height as f32).context("bleed box")?;
            settings = settings.with_trim_box(Some(trim)).with_bleed_box(Some(bleed));
        }
        let mut page = doc.start_page_with(settings);
        let mut surface = page.surface();
        surface.draw_svg(tree, size, SvgSettings::default()).context("drawing a page")?;
        surface.finish();
        page.finish();
        tick();
    }
    Ok(())
}
