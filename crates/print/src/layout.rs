//! Pages of a printed book, each an SVG in points: front matter (title, copyright, how to play,
//! contents), then the sections in order, each starting on a new page (a divider page first if
//! asked), their answers where the book puts them, then back matter (notes pages). Every grid of
//! a section is drawn at one scale; every page but the title and copyright pages has its page
//! number, and puzzle and answer pages a running head.
//!
//! Margins: the top, bottom and outside margins are given (0.5 in by default, 0.75 in with large
//! print); the inside (gutter) margin is 0.125 in over KDP's minimum for the page count
//! (`kdp::min_gutter`) unless given. Odd pages are right-hand pages, with the gutter on the left. With bleed
//! the page grows by 0.125 in at the outside edge, top and bottom, and the PDF's trim box marks
//! the trim.

use super::kdp::{self, Trim};
use super::strings::{HowTo, Strings};
use super::{escape, Drawing, Measure};
use std::fmt::Write as _;

pub const INCH: f64 = 72.0;
/// The smallest clue text, in points, a puzzle page is laid out for (normal, large print).
pub const MIN_TEXT: f64 = 6.0;
pub const MIN_TEXT_LARGE: f64 = 9.0;
pub const BLEED: f64 = 0.125 * INCH;

/// Where the answers go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answers {
    /// At the back, smaller, several to a page.
    Back,
    /// After each section.
    Section,
    /// On the page after each puzzle page, in the same places.
    NextPage,
    /// Small and upside down at the foot of the puzzle's own page (1 or 2 puzzles a page).
    Foot,
    /// In an answer booklet of their own.
    Separate,
    /// No answers.
    None,
}

impl pf_core::kind::Choice for Answers {
    const CHOICES: &'static [(Answers, &'static str, &'static str)] = &[
        (Answers::Back, "back", "At the back, smaller, several to a page"),
        (Answers::Section, "section", "After each section"),
        (Answers::NextPage, "next-page", "On the page after each puzzle page, in the same places"),
        (Answers::Foot, "foot", "Small and upside down at the foot of the puzzle's own page (1 or 2 puzzles a page)"),
        (Answers::Separate, "separate", "In an answer booklet of their own"),
        (Answers::None, "none", "No answers"),
    ];
}

/// Type sizes (points), line weight and running heads of a book.
#[derive(Clone, Debug)]
pub struct Style {
    /// The font family every page is set in (the shipped DejaVu Sans or the plan's font).
    pub family: String,
    /// Running heads, page numbers and body text.
    pub body: f64,
    /// Section headings and page titles.
    pub heading: f64,
    /// The book's title on its title page.
    pub title: f64,
    /// Running heads: the inside and outside text (`{title}`, `{section}`, `{author}`
    /// replaced; empty for none) and the foot (`{page}` replaced).
    pub head_inside: String,
    pub head_outside: String,
    pub foot: String,
    /// Print each puzzle's id beside its number.
    pub show_ids: bool,
}

impl Style {
    pub fn new(family: &str, large_print: bool) -> Style {
        let k = if large_print { 1.35 } else { 1.0 };
        Style {
            family: family.to_string(),
            body: 10.0 * k,
            heading: 16.0 * k,
            title: if large_print { 34.0 } else { 26.0 },
            head_inside: "{title}".into(),
            head_outside: "{section}".into(),
            foot: "{page}".into(),
            show_ids: true,
        }
    }
}

pub struct Options {
    pub trim: Trim,
    pub large_print: bool,
    pub answers: Answers,
    pub title: String,
    pub author: String,
    pub bleed: bool,
    pub style: Style,
    /// Top, bottom and outside margins, and the inside margin when given (else KDP's minimum
    /// for the page count), in inches.
    pub margin: f64,
    pub inside: Option<f64>,
    /// Text widths in the book's font, for wrapping.
    pub measure: Measure,
}

/// One puzzle of the book: its number (1, 2, ... through the book), id, and its two drawings;
/// with `--hints` its first step beyond singles (printed under its solution), with `--worked`
/// its worked solution (pages after its section).
pub struct Item {
    pub number: usize,
    pub id: String,
    pub puzzle: Drawing,
    pub solution: Drawing,
    pub hint: Option<String>,
    pub worked: Option<Vec<WorkedStep>>,
}

/// One entry of a worked solution: its text, and for a step beyond singles a small diagram of
/// the grid with the cells it rests on and the cells it changes shaded.
pub struct WorkedStep {
    pub text: String,
    pub diagram: Option<Drawing>,
}

/// A section: its name (running head and contents), its puzzles and how they are set.
pub struct Section {
    pub name: String,
    pub items: Vec<Item>,
    /// Puzzles a page asked for: 1, 2, 4 or 6.
    pub per_page: usize,
    /// The name as a heading over the first puzzles, with the intro paragraphs under it.
    pub heading: bool,
    pub intro: Vec<String>,
    /// A divider page (right-hand) before the section: its name, intro and how to play.
    pub divider: bool,
    /// How to play, on the divider page, or on a page of its own opening the section.
    pub how_to: Option<HowTo>,
}

/// Pages outside the sections.
pub enum Matter {
    /// Title, subtitle, author, publisher.
    Title {
        subtitle: String,
        publisher: String,
    },
    /// Paragraphs at the foot of the page.
    Copyright(Vec<String>),
    HowTo(HowTo),
    Contents,
    Notes,
    Blank,
}

pub struct Book {
    pub front: Vec<Matter>,
    pub sections: Vec<Section>,
    pub back: Vec<Matter>,
    /// The answer booklet's front matter (`Answers::Separate`); a contents page when empty.
    pub booklet: Vec<Matter>,
}

/// A page ready to draw: its SVG, its size, and where the trim sits on it (with bleed).
pub struct Page {
    pub svg: String,
    pub width: f64,
    pub height: f64,
    /// x, y, width, height of the trim on the page.
    pub trim: (f64, f64, f64, f64),
}

/// A laid-out book: the interior pages, the answer booklet's (with `Answers::Separate`), and per
/// section the grids a page actually used and its smallest clue text in points.
pub struct Laid {
    pub pages: Vec<Page>,
    pub booklet: Vec<Page>,
    pub per_page: Vec<usize>,
    pub smallest: Vec<f64>,
    /// The inside margin used, in inches.
    pub gutter: f64,
}

/// What one page holds.
enum Content<'a> {
    Matter(&'a Matter),
    Divider(usize),
    /// A section's how-to-play page when it has no divider.
    Opener(usize),
    /// Puzzles of section `s`; `first` is the section's first page (its heading).
    Puzzles {
        s: usize,
        items: &'a [Item],
        first: bool,
    },
    /// The answers of `items` in the slots of their puzzle page (`Answers::NextPage`).
    Beside {
        s: usize,
        items: &'a [Item],
    },
    /// Answer page: its running head, the heading over its first grid (a section's name where
    /// the section's answers begin), the items.
    Solutions {
        head: String,
        headings: Vec<(usize, String)>,
        items: Vec<&'a Item>,
    },
    /// Steps `from..to` of an item's worked solution (`from == 0`: its first page).
    Worked {
        s: usize,
        item: &'a Item,
        from: usize,
        to: usize,
    },
}

fn grid_shape(n: usize) -> (usize, usize) {
    match n {
        1 => (1, 1),
        2 => (1, 2),
        4 => (2, 2),
        _ => (2, 3),
    }
}

struct Geometry<'a> {
    m: &'a Measure,
    /// Trim size.
    w: f64,
    h: f64,
    top: f64,
    bottom: f64,
    outer: f64,
    inner: f64,
    head: f64,
    foot: f64,
    /// Font sizes: running head and page number, labels under grids, solution labels.
    text: f64,
    label: f64,
    small_label: f64,
    gap: f64,
    /// Smallest text, in points, a puzzle grid's clues may be set in (fewer grids a page
    /// below).
    min_text: f64,
    large: bool,
}

impl Geometry<'_> {
    fn new(o: &Options, pages: usize) -> Geometry<'_> {
        let (w, h) = o.trim.points();
        let m = o.margin * INCH;
        let k = o.style.body / 10.0;
        let inner = match o.inside {
            Some(i) => i * INCH,
            // An eighth of an inch over KDP's minimum, so that no glyph's overhang reaches it.
            None => ((kdp::min_gutter(pages) + 0.125) * INCH).max(if o.large_print { 0.75 * INCH } else { 0.0 }),
        };
        Geometry {
            m: &o.measure,
            w,
            h,
            top: m,
            bottom: m,
            outer: m,
            inner,
            head: 22.0 * k,
            foot: 20.0 * k,
            text: o.style.body,
            label: 9.0 * k,
            small_label: 7.0 * k,
            gap: if o.large_print { 12.0 } else { 18.0 },
            min_text: if o.large_print { MIN_TEXT_LARGE } else { MIN_TEXT },
            large: o.large_print,
        }
    }

    /// The live area of page `number` (1-based; odd pages are right-hand): x, y, w, h in trim
    /// coordinates.
    fn area(&self, number: usize) -> (f64, f64, f64, f64) {
        let left = if number % 2 == 1 { self.inner } else { self.outer };
        let right = if number % 2 == 1 { self.outer } else { self.inner };
        (left, self.top, self.w - left - right, self.h - self.top - self.bottom)
    }

    /// The body of a page (under the running head, above the page number): y and height.
    fn body(&self) -> (f64, f64) {
        let (_, ay, _, ah) = self.area(1);
        (ay + self.head, ah - self.head - self.foot)
    }

    fn solution_shape(&self) -> (usize, usize) {
        if self.large {
            (2, 2)
        } else if self.w < 7.0 * INCH {
            (2, 3)
        } else {
            (3, 4)
        }
    }
}

/// The height under a section's heading that its first page gives up.
fn heading_height(g: &Geometry, o: &Options, s: &Section) -> f64 {
    if !s.heading {
        return 0.0;
    }
    let (_, _, aw, _) = g.area(1);
    let lines: usize = s.intro.iter().map(|p| wrap(g.m, p, aw, g.text).len()).sum();
    o.style.heading * 1.6 + lines as f64 * g.text * 1.35 + if lines > 0 { g.text } else { 0.0 }
}

/// The height the upside-down answers take at the foot of a puzzle page.
fn foot_height(g: &Geometry) -> f64 {
    let (_, bh) = g.body();
    bh * 0.24
}

/// Points per cell of a section's grids: the largest grid fits every slot of every page of the
/// section (the first page gives room to the heading, pages with answers at the foot to them).
fn section_scale(g: &Geometry, o: &Options, s: &Section, per: usize, largest: (f64, f64)) -> f64 {
    let (_, _, aw, _) = g.area(1);
    let (_, bh) = g.body();
    let (cols, rows) = grid_shape(per);
    let foot = if o.answers == Answers::Foot { foot_height(g) } else { 0.0 };
    let fit = |h: f64| {
        let sw = (aw - g.gap * (cols - 1) as f64) / cols as f64;
        let sh = (h - g.gap * (rows - 1) as f64) / rows as f64 - g.label * 1.8;
        (sw / (largest.0 + 0.2)).min(sh / (largest.1 + 0.2))
    };
    let first = bh - foot - heading_height(g, o, s);
    fit(bh - foot).min(fit(first))
}

/// The largest grid of a section (width, height in cells) and its smallest clue text in cells.
fn largest(s: &Section) -> (f64, f64, f64) {
    s.items.iter().fold((1.0f64, 1.0f64, f64::INFINITY), |a, i| {
        let t = if i.puzzle.min_text > 0.0 { i.puzzle.min_text } else { f64::INFINITY };
        (a.0.max(i.puzzle.width), a.1.max(i.puzzle.height), a.2.min(t))
    })
}

/// Grids a page for a section: its `per_page`, fewer until the clues are at least `min_text`
/// points (or one to a page).
fn section_per(g: &Geometry, o: &Options, s: &Section) -> usize {
    let l = largest(s);
    let mut per = s.per_page;
    while per > 1 && section_scale(g, o, s, per, (l.0, l.1)) * l.2 < g.min_text {
        per = match per {
            6 => 4,
            4 => 2,
            _ => 1,
        };
    }
    per
}

/// The pages of a book. An error where the book cannot be laid out as asked (answers at the
/// foot of pages with no room for them).
pub fn pages(o: &Options, book: &Book, s: &Strings) -> Result<Laid, String> {
    if o.answers == Answers::Foot {
        for sec in &book.sections {
            if sec.per_page > 2 {
                return Err(format!(
                    "answers = \"foot\": section \"{}\" prints {} puzzles a page, and a page has room at its foot for \
                     the answers of 1 or 2 only: set per_page to 1 or 2, or put the answers elsewhere",
                    sec.name, sec.per_page
                ));
            }
        }
    }
    // The page count decides the gutter, which may shrink the grids: plan again with the count
    // of the first plan (the slots only change where a grid sits near the size limit).
    let mut count = 0;
    let mut per = Vec::new();
    for _ in 0..2 {
        let g = Geometry::new(o, count);
        per = book.sections.iter().map(|sec| section_per(&g, o, sec)).collect();
        count = plan(o, &g, book, &per, s).0.len();
    }
    let g = Geometry::new(o, count);
    let (contents, booklet) = plan(o, &g, book, &per, s);
    let scales: Vec<f64> = book
        .sections
        .iter()
        .zip(&per)
        .map(|(sec, &p)| {
            let l = largest(sec);
            section_scale(&g, o, sec, p, (l.0, l.1))
        })
        .collect();
    if o.answers == Answers::Foot {
        for (sec, &sc) in book.sections.iter().zip(&scales) {
            let l = largest(sec);
            if sc * l.2 < g.min_text {
                return Err(format!(
                    "answers = \"foot\": section \"{}\": with the answers at the foot its clues would be set at \
                     {:.1} pt, under the {} pt that reads well: use one puzzle a page, a larger trim, or put the \
                     answers elsewhere",
                    sec.name,
                    sc * l.2,
                    g.min_text
                ));
            }
        }
    }
    let ctx = Ctx { o, g: &g, book, s, per: &per, scales: &scales };
    let toc = toc(&contents, book, s);
    let pages = contents.iter().enumerate().map(|(i, c)| draw_page(&ctx, i + 1, c, &toc)).collect();
    let booklet_toc = toc_of(&booklet);
    let booklet = booklet.iter().enumerate().map(|(i, c)| draw_page(&ctx, i + 1, c, &booklet_toc)).collect();
    let smallest = book.sections.iter().zip(&scales).map(|(sec, sc)| sc * largest(sec).2).collect();
    Ok(Laid { pages, booklet, per_page: per, smallest, gutter: g.inner / INCH })
}

struct Ctx<'a> {
    o: &'a Options,
    g: &'a Geometry<'a>,
    book: &'a Book,
    s: &'a Strings,
    per: &'a [usize],
    scales: &'a [f64],
}

/// The answer pages of `sections` (index, section), `shape` grids a page, each section's answers
/// starting with its heading; `head` the running head.
fn solution_pages<'a>(
    g: &Geometry,
    sections: impl Iterator<Item = &'a Section>,
    head: &str,
    s: &Strings,
    fresh_page_per_section: bool,
) -> Vec<Content<'a>> {
    let (c, r) = g.solution_shape();
    let mut out: Vec<Content> = Vec::new();
    for sec in sections {
        let heading = s.fill("answers_to", &[("section", &sec.name)]);
        let mut first = true;
        for chunk in sec.items.chunks(c * r) {
            let fits = match out.last() {
                Some(Content::Solutions { items, .. }) if !fresh_page_per_section => items.len() + chunk.len() <= c * r,
                _ => false,
            };
            if fits && first {
                if let Some(Content::Solutions { items, headings, .. }) = out.last_mut() {
                    headings.push((items.len(), heading.clone()));
                    items.extend(chunk.iter());
                }
            } else {
                let headings = if first { vec![(0, heading.clone())] } else { Vec::new() };
                out.push(Content::Solutions { head: head.to_string(), headings, items: chunk.iter().collect() });
            }
            first = false;
        }
    }
    out
}

/// The interior's pages, and the answer booklet's.
fn plan<'a>(
    o: &Options,
    g: &Geometry,
    book: &'a Book,
    per: &[usize],
    s: &Strings,
) -> (Vec<Content<'a>>, Vec<Content<'a>>) {
    let mut out: Vec<Content> = book.front.iter().map(Content::Matter).collect();
    let solutions = s.word("solutions");
    for (k, sec) in book.sections.iter().enumerate() {
        if sec.divider {
            if out.len() % 2 == 1 {
                out.push(Content::Matter(&Matter::Blank));
            }
            out.push(Content::Divider(k));
        } else if sec.how_to.is_some() {
            out.push(Content::Opener(k));
        }
        // With the answers on the next page, puzzles go on right-hand pages: the answers are
        // on the back of the leaf, not facing them.
        if o.answers == Answers::NextPage && out.len() % 2 == 1 {
            out.push(Content::Matter(&Matter::Blank));
        }
        for (n, chunk) in sec.items.chunks(per[k]).enumerate() {
            out.push(Content::Puzzles { s: k, items: chunk, first: n == 0 });
            if o.answers == Answers::NextPage {
                out.push(Content::Beside { s: k, items: chunk });
            }
        }
        for item in &sec.items {
            let Some(steps) = &item.worked else { continue };
            let mut from = 0;
            while from < steps.len() {
                let to = worked_page_end(g, steps, from);
                out.push(Content::Worked { s: k, item, from, to });
                from = to;
            }
        }
        if o.answers == Answers::Section {
            out.extend(solution_pages(g, std::iter::once(sec), solutions, s, true));
        }
    }
    if o.answers == Answers::Back {
        out.extend(solution_pages(g, book.sections.iter(), solutions, s, false));
    }
    out.extend(book.back.iter().map(Content::Matter));
    let booklet = if o.answers == Answers::Separate {
        let mut b: Vec<Content> = book.booklet.iter().map(Content::Matter).collect();
        if b.is_empty() {
            b.push(Content::Matter(&Matter::Contents));
        }
        b.extend(solution_pages(g, book.sections.iter(), solutions, s, false));
        b
    } else {
        Vec::new()
    };
    (out, booklet)
}

/// Contents entries: (name, page, first and last puzzle number or none).
type Toc = Vec<(String, usize, Option<(usize, usize)>)>;

fn toc(contents: &[Content], book: &Book, s: &Strings) -> Toc {
    let mut out: Toc = Vec::new();
    let mut seen = vec![false; book.sections.len()];
    for (i, c) in contents.iter().enumerate() {
        match c {
            Content::Matter(Matter::HowTo(h)) => out.push((h.title.clone(), i + 1, None)),
            Content::Matter(Matter::Notes) if !matches!(out.last(), Some((n, _, _)) if *n == s.word("notes")) => {
                out.push((s.word("notes").to_string(), i + 1, None))
            }
            Content::Divider(k) | Content::Opener(k) | Content::Puzzles { s: k, .. } if !seen[*k] => {
                seen[*k] = true;
                let sec = &book.sections[*k];
                let range = sec.items.first().zip(sec.items.last()).map(|(a, b)| (a.number, b.number));
                out.push((sec.name.clone(), i + 1, range));
            }
            _ => {}
        }
    }
    out.extend(toc_of(contents));
    out.sort_by_key(|e| e.1);
    out
}

/// The answer blocks of a page list as contents entries: one per heading ("Answers: Sudoku,
/// Easy"), with the puzzles it covers over the pages that follow it.
fn toc_of(contents: &[Content]) -> Toc {
    let mut out: Toc = Vec::new();
    for (i, c) in contents.iter().enumerate() {
        let Content::Solutions { headings, items, .. } = c else { continue };
        for (j, item) in items.iter().enumerate() {
            if let Some((_, text)) = headings.iter().find(|(at, _)| *at == j) {
                out.push((text.clone(), i + 1, Some((item.number, item.number))));
            } else if let Some(e) = out.last_mut() {
                e.2 = e.2.map(|(f, _)| (f, item.number));
            }
        }
    }
    out
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

struct Svg {
    s: String,
}

impl Svg {
    fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, content: &str) {
        let _ = write!(
            self.s,
            r##"<text x="{x:.2}" y="{y:.2}" font-size="{size:.2}" text-anchor="{anchor}" fill="#000">{}</text>"##,
            escape(content)
        );
    }

    /// Wrapped paragraphs from (x, y) in a column `w` wide; returns the y under them.
    fn paragraphs(&mut self, m: &Measure, x: f64, mut y: f64, w: f64, size: f64, paras: &[String]) -> f64 {
        for p in paras {
            for line in wrap(m, p, w, size) {
                y += size * 1.35;
                self.text(x, y, size, "start", &line);
            }
            y += size * 0.7;
        }
        y
    }

    /// A grid fitted into the box (x, y, w, h), centred, at most `scale` points a cell;
    /// returns the box of the grid drawn.
    fn grid(&mut self, d: &Drawing, x: f64, y: f64, w: f64, h: f64, scale: f64) -> (f64, f64, f64, f64) {
        // A tenth of a cell all round for the outer lines' half width.
        let s = (w / (d.width + 0.2)).min(h / (d.height + 0.2)).min(scale);
        let (gw, gh) = (d.width * s, d.height * s);
        let (gx, gy) = (x + (w - gw) / 2.0, y + (h - gh) / 2.0);
        let _ = write!(self.s, r##"<g transform="translate({gx:.3} {gy:.3}) scale({s:.5})">{}</g>"##, d.body);
        (gx, gy, gw, gh)
    }
}

/// A puzzle's label under its grid: its number, and its id when the book shows ids.
fn label(o: &Options, item: &Item) -> String {
    if o.style.show_ids {
        format!("{}  \u{b7}  {}", item.number, item.id)
    } else {
        item.number.to_string()
    }
}

/// Grids in a `cols` × `rows` slot grid over the box `area` (x, y, w, h), each with its label
/// under it in `label`-point text, at most `scale` points a cell.
#[allow(clippy::too_many_arguments)]
fn place_grids<'a>(
    o: &Options,
    svg: &mut Svg,
    grids: impl Iterator<Item = (&'a Drawing, &'a Item)>,
    (cols, rows): (usize, usize),
    (ax, ay, aw, ah): (f64, f64, f64, f64),
    gap: f64,
    label_size: f64,
    scale: f64,
) {
    let sw = (aw - gap * (cols - 1) as f64) / cols as f64;
    let sh = (ah - gap * (rows - 1) as f64) / rows as f64;
    let grids: Vec<(&Drawing, &Item)> = grids.collect();
    // Room for up to three lines of hint under a solution's label.
    let hinted = grids.iter().any(|(d, i)| i.hint.is_some() && std::ptr::eq(*d, &i.solution));
    let extra = if hinted { label_size * 0.85 * 1.25 * 3.0 } else { 0.0 };
    for (k, (drawing, item)) in grids.into_iter().enumerate() {
        let (c, r) = (k % cols, k / cols);
        let (x, y) = (ax + c as f64 * (sw + gap), ay + r as f64 * (sh + gap));
        let (gx, gy, gw, gh) = svg.grid(drawing, x, y, sw, sh - label_size * 1.8 - extra, scale);
        svg.text(gx + gw / 2.0, gy + gh + label_size * 1.4, label_size, "middle", &label(o, item));
        if let (Some(hint), true) = (&item.hint, std::ptr::eq(drawing, &item.solution)) {
            // Under the label, in slightly smaller type, wrapped to the slot.
            let size = label_size * 0.85;
            for (i, line) in wrap(&o.measure, &format!("Hint: {hint}"), sw, size).iter().take(3).enumerate() {
                svg.text(x + sw / 2.0, gy + gh + label_size * 1.4 + size * 1.25 * (i + 1) as f64, size, "middle", line);
            }
        }
    }
}

/// `text` cut to at most `width` points in `size`-point type, ending in an ellipsis when cut.
fn shorten(m: &Measure, text: &str, width: f64, size: f64) -> String {
    if m.width(text, size) <= width {
        return text.to_string();
    }
    let mut cut: String = text.to_string();
    while !cut.is_empty() && m.width(&format!("{cut}\u{2026}"), size) > width {
        cut.pop();
    }
    format!("{}\u{2026}", cut.trim_end())
}

/// `text` in lines of at most `width` points in `size`-point type.
fn wrap(m: &Measure, text: &str, width: f64, size: f64) -> Vec<String> {
    super::wrap(m, text, width, size)
}

/// Line height and diagram size of worked-solution pages.
fn worked_metrics(g: &Geometry) -> (f64, f64) {
    (g.label * 1.35, (g.w * 0.22).min(1.3 * INCH))
}

/// The height one worked step takes in a column `width` wide.
fn worked_height(g: &Geometry, step: &WorkedStep, width: f64) -> f64 {
    let (lh, dia) = worked_metrics(g);
    match &step.diagram {
        Some(_) => (wrap(g.m, &step.text, width - dia - g.gap, g.label).len() as f64 * lh).max(dia) + g.gap * 0.6,
        None => wrap(g.m, &step.text, width, g.label).len() as f64 * lh + g.gap * 0.4,
    }
}

/// Where the worked page starting at step `from` ends: as many steps as fit the body (always
/// at least one).
fn worked_page_end(g: &Geometry, steps: &[WorkedStep], from: usize) -> usize {
    let (_, _, aw, _) = g.area(1);
    let (_, bh) = g.body();
    let mut room = bh - g.label * 3.0;
    let mut to = from;
    while to < steps.len() {
        let h = worked_height(g, &steps[to], aw);
        if h > room && to > from {
            break;
        }
        room -= h;
        to += 1;
    }
    to
}

fn draw_worked(
    svg: &mut Svg,
    g: &Geometry,
    s: &Strings,
    item: &Item,
    from: usize,
    to: usize,
    (ax, y0, aw): (f64, f64, f64),
) {
    let (lh, dia) = worked_metrics(g);
    let steps = item.worked.as_deref().unwrap_or_default();
    let mut y = y0 + g.label * 1.6;
    let more = if from > 0 { format!("  ({})", s.word("continued")) } else { String::new() };
    let title = format!("{} {}  \u{b7}  {}{more}", s.word("puzzle"), item.number, item.id);
    svg.text(ax, y, g.label * 1.2, "start", &title);
    y += g.label * 1.4;
    for step in &steps[from..to] {
        match &step.diagram {
            Some(d) => {
                svg.grid(d, ax, y, dia, dia, f64::INFINITY);
                let mut ty = y + g.label;
                for line in wrap(g.m, &step.text, aw - dia - g.gap, g.label) {
                    svg.text(ax + dia + g.gap, ty, g.label, "start", &line);
                    ty += lh;
                }
            }
            None => {
                let mut ty = y + g.label;
                for line in wrap(g.m, &step.text, aw, g.label) {
                    svg.text(ax, ty, g.label, "start", &line);
                    ty += lh;
                }
            }
        }
        y += worked_height(g, step, aw);
    }
}

/// `template` with `{title}`, `{author}`, `{section}` and `{page}` replaced.
fn fill(template: &str, o: &Options, section: &str, page: usize) -> String {
    template
        .replace("{title}", &o.title)
        .replace("{author}", &o.author)
        .replace("{section}", section)
        .replace("{page}", &page.to_string())
}

/// A how-to-play block from y: its title, then its paragraphs.
fn how_to(svg: &mut Svg, c: &Ctx, h: &HowTo, (ax, y, aw): (f64, f64, f64)) -> f64 {
    let y = y + c.o.style.heading;
    svg.text(ax, y, c.o.style.heading, "start", &h.title);
    let mut paras = h.text.clone();
    if let Some(tip) = &h.tip {
        paras.push(format!("{}: {tip}", c.s.word("tip")));
    }
    svg.paragraphs(c.g.m, ax, y + c.o.style.heading * 0.6, aw, c.g.text * 1.1, &paras)
}

fn draw_page(c: &Ctx, number: usize, content: &Content, toc: &Toc) -> Page {
    let (o, g, s) = (c.o, c.g, c.s);
    let (bx, by) = if o.bleed { (if number % 2 == 1 { 0.0 } else { BLEED }, BLEED) } else { (0.0, 0.0) };
    let (pw, ph) = if o.bleed { (g.w + BLEED, g.h + 2.0 * BLEED) } else { (g.w, g.h) };
    let mut svg = Svg { s: String::new() };
    let (ax, ay, aw, ah) = g.area(number);
    // Running head (section name outside, title inside) and page number, inside the live area.
    let section_name = |k: usize| c.book.sections[k].name.clone();
    let head = match content {
        Content::Puzzles { s: k, .. } => Some(section_name(*k)),
        Content::Beside { s: k, .. } => Some(format!("{} \u{b7} {}", section_name(*k), s.word("solutions"))),
        Content::Solutions { head, .. } => Some(head.clone()),
        Content::Worked { s: k, .. } => Some(format!("{} \u{b7} {}", section_name(*k), s.word("worked_solution"))),
        _ => None,
    };
    if let Some(head) = &head {
        let base = ay + g.text;
        let (inside, outside) =
            (fill(&o.style.head_inside, o, head, number), fill(&o.style.head_outside, o, head, number));
        let (l, r) = if number.is_multiple_of(2) { (outside, inside) } else { (inside, outside) };
        // Each side keeps to its half of the line, shortened with an ellipsis where needed.
        let half = aw / 2.0 - g.text;
        let (l, r) = (shorten(g.m, &l, half, g.text), shorten(g.m, &r, half, g.text));
        svg.text(ax, base, g.text, "start", &l);
        svg.text(ax + aw, base, g.text, "end", &r);
        if !(l.is_empty() && r.is_empty()) {
            let _ = write!(
                svg.s,
                r##"<line x1="{ax:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="#000" stroke-width="0.5"/>"##,
                base + 4.0,
                ax + aw,
                base + 4.0
            );
        }
    }
    let numbered = !matches!(content, Content::Matter(Matter::Title { .. } | Matter::Copyright(_) | Matter::Blank));
    if numbered {
        let head = head.unwrap_or_default();
        svg.text(ax + aw / 2.0, ay + ah - 2.0, g.text, "middle", &fill(&o.style.foot, o, &head, number));
    }
    let (body_y, body_h) = g.body();
    match content {
        Content::Matter(m) => draw_matter(c, &mut svg, m, (ax, ay, aw, ah), toc),
        Content::Divider(k) => {
            let sec = &c.book.sections[*k];
            let mut y = ay + ah * 0.3;
            svg.text(ax + aw / 2.0, y, o.style.heading * 1.6, "middle", &sec.name);
            y += o.style.heading * 2.0;
            y = svg.paragraphs(g.m, ax, y, aw, g.text * 1.1, &sec.intro);
            if let Some(h) = &sec.how_to {
                how_to(&mut svg, c, h, (ax, y + g.text * 2.0, aw));
            }
        }
        Content::Opener(k) => {
            if let Some(h) = &c.book.sections[*k].how_to {
                how_to(&mut svg, c, h, (ax, ay + g.text * 2.0, aw));
            }
        }
        Content::Puzzles { s: k, items, first } => {
            let sec = &c.book.sections[*k];
            let mut y = body_y;
            if *first && sec.heading {
                let hh = heading_height(g, o, sec);
                svg.text(ax, y + o.style.heading, o.style.heading, "start", &sec.name);
                svg.paragraphs(g.m, ax, y + o.style.heading * 1.3, aw, g.text, &sec.intro);
                y += hh;
            }
            let foot = if o.answers == Answers::Foot { foot_height(g) } else { 0.0 };
            let h = body_y + body_h - foot - y;
            let grids = items.iter().map(|i| (&i.puzzle, i));
            place_grids(o, &mut svg, grids, grid_shape(c.per[*k]), (ax, y, aw, h), g.gap, g.label, c.scales[*k]);
            if foot > 0.0 {
                draw_foot(&mut svg, g, o, items, (ax, body_y + body_h - foot, aw, foot));
            }
        }
        Content::Beside { s: k, items } => {
            let grids = items.iter().map(|i| (&i.solution, i));
            let area = (ax, body_y, aw, body_h);
            place_grids(o, &mut svg, grids, grid_shape(c.per[*k]), area, g.gap, g.label, c.scales[*k]);
        }
        Content::Solutions { headings, items, .. } => {
            let (cols, rows) = g.solution_shape();
            // Headings sit at the top of the slot row where a section's answers begin.
            let sh = (body_h - g.gap * (rows - 1) as f64) / rows as f64;
            for (at, text) in headings {
                let y = body_y + (at / cols) as f64 * (sh + g.gap);
                svg.text(ax, y + g.small_label * 1.2, g.small_label * 1.3, "start", text);
            }
            let top = if headings.is_empty() { 0.0 } else { g.small_label * 2.0 };
            let grids = items.iter().map(|i| (&i.solution, *i));
            let area = (ax, body_y + top, aw, body_h - top);
            place_grids(o, &mut svg, grids, (cols, rows), area, g.gap, g.small_label, f64::INFINITY);
        }
        Content::Worked { item, from, to, .. } => {
            draw_worked(&mut svg, g, s, item, *from, *to, (ax, body_y, aw));
        }
    }
    let svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{pw:.3}" height="{ph:.3}" viewBox="0 0 {pw:.3} {ph:.3}" font-family="{}"><rect width="100%" height="100%" fill="#fff"/><g transform="translate({bx:.3} {by:.3})">{}</g></svg>"##,
        escape(&o.style.family),
        svg.s
    );
    Page { svg, width: pw, height: ph, trim: (bx, by, g.w, g.h) }
}

/// The answers of a page's puzzles, small and upside down in the strip (x, y, w, h) at its
/// foot, over a thin rule.
fn draw_foot(svg: &mut Svg, g: &Geometry, o: &Options, items: &[Item], (x, y, w, h): (f64, f64, f64, f64)) {
    let _ = write!(
        svg.s,
        r##"<line x1="{x:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="#000" stroke-width="0.4" stroke-dasharray="2 2"/>"##,
        y + g.gap * 0.4,
        x + w,
        y + g.gap * 0.4
    );
    let inner = Svg { s: String::new() };
    let mut inner = inner;
    let top = y + g.gap * 0.8;
    let grids = items.iter().map(|i| (&i.solution, i));
    place_grids(
        o,
        &mut inner,
        grids,
        (items.len().max(1), 1),
        (x, top, w, y + h - top),
        g.gap,
        g.small_label,
        f64::INFINITY,
    );
    // Turned half a turn about the strip's centre.
    let (cx, cy) = (x + w / 2.0, (top + y + h) / 2.0);
    let _ = write!(svg.s, r##"<g transform="rotate(180 {cx:.3} {cy:.3})">{}</g>"##, inner.s);
}

fn draw_matter(c: &Ctx, svg: &mut Svg, m: &Matter, (ax, ay, aw, ah): (f64, f64, f64, f64), toc: &Toc) {
    let (o, g, s) = (c.o, c.g, c.s);
    match m {
        Matter::Title { subtitle, publisher } => {
            let mut y = ay + ah * 0.3;
            for line in wrap(g.m, &o.title, aw, o.style.title) {
                svg.text(ax + aw / 2.0, y, o.style.title, "middle", &line);
                y += o.style.title * 1.25;
            }
            if !subtitle.is_empty() {
                y += o.style.heading * 0.5;
                for line in wrap(g.m, subtitle, aw, o.style.heading) {
                    svg.text(ax + aw / 2.0, y, o.style.heading, "middle", &line);
                    y += o.style.heading * 1.3;
                }
            }
            if !o.author.is_empty() {
                svg.text(ax + aw / 2.0, y + o.style.heading * 2.0, o.style.heading, "middle", &o.author);
            }
            if !publisher.is_empty() {
                svg.text(ax + aw / 2.0, ay + ah - g.text * 2.0, g.text * 1.2, "middle", publisher);
            }
        }
        Matter::Copyright(paras) => {
            let size = g.text * 0.9;
            let lines: usize = paras.iter().map(|p| wrap(g.m, p, aw, size).len()).sum();
            let height = lines as f64 * size * 1.35 + paras.len() as f64 * size * 0.7;
            svg.paragraphs(g.m, ax, ay + ah - height - g.text, aw, size, paras);
        }
        Matter::HowTo(h) => {
            how_to(svg, c, h, (ax, ay + g.text * 2.0, aw));
        }
        Matter::Contents => {
            let mut y = ay + ah * 0.12;
            // A book without a title page shows its title here.
            if !c.book.front.iter().any(|m| matches!(m, Matter::Title { .. })) {
                svg.text(ax + aw / 2.0, y, o.style.title, "middle", &o.title);
                y += o.style.title * 1.4;
                let total: usize = c.book.sections.iter().map(|s| s.items.len()).sum();
                let what = if total == 1 {
                    s.word("one_puzzle").to_string()
                } else {
                    s.fill("puzzles", &[("n", &total.to_string())])
                };
                svg.text(ax + aw / 2.0, y, g.text * 1.3, "middle", &what);
                y += g.text * 5.0;
            }
            svg.text(ax, y, o.style.heading, "start", s.word("contents"));
            y += g.text * 2.6;
            for (name, page, range) in toc {
                let label = match range {
                    Some((a, b)) => format!(
                        "{}  ({})",
                        capital(name),
                        s.fill("puzzles_range", &[("first", &a.to_string()), ("last", &b.to_string())])
                    ),
                    None => capital(name),
                };
                svg.text(ax, y, g.text * 1.2, "start", &label);
                svg.text(ax + aw, y, g.text * 1.2, "end", &page.to_string());
                y += g.text * 2.2;
            }
        }
        Matter::Notes => {
            svg.text(ax, ay + o.style.heading, o.style.heading, "start", s.word("notes"));
            let mut y = ay + o.style.heading * 3.0;
            while y < ay + ah - g.foot - g.text {
                let _ = write!(
                    svg.s,
                    r##"<line x1="{ax:.2}" y1="{y:.2}" x2="{:.2}" y2="{y:.2}" stroke="#999" stroke-width="0.5"/>"##,
                    ax + aw
                );
                y += g.text * 2.4;
            }
        }
        Matter::Blank => {}
    }
}
