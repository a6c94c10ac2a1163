//! Pages of a printed book, each an SVG in points: page 1 the title and contents, then one
//! section per grade (each starting on a new page), then the solutions, smaller and several to a
//! page. Every page has its running head (the section) and its number.
//!
//! Margins follow the usual print-on-demand minimums: 0.5 in top, bottom and outside (0.75 in
//! with `--large-print`), and an inside gutter that grows with the page count (0.375 in up to
//! 150 pages, 0.5 in to 300, 0.625 in to 500, 0.75 in to 700, 0.875 in beyond). With `--bleed`
//! the page grows by 0.125 in at the outside edge, top and bottom, and the PDF's trim box marks
//! the trim.

use super::{escape, Drawing, FONT_FAMILY};
use std::fmt::Write as _;

pub const INCH: f64 = 72.0;
/// The smallest clue text, in points, a puzzle page is laid out for (normal, large print).
pub const MIN_TEXT: f64 = 6.0;
pub const MIN_TEXT_LARGE: f64 = 9.0;
pub const BLEED: f64 = 0.125 * INCH;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Trim {
    /// US letter, 8.5 × 11 in.
    Letter,
    /// A4, 210 × 297 mm.
    A4,
    /// 6 × 9 in, the common trade paperback.
    #[value(name = "6x9")]
    SixByNine,
    /// 8.5 × 11 in (the same page as letter, by the name print-on-demand services use).
    #[value(name = "8.5x11")]
    EightHalfByEleven,
    /// A5, 148 × 210 mm.
    A5,
}

impl Trim {
    /// Width and height in points.
    pub fn size(self) -> (f64, f64) {
        let mm = INCH / 25.4;
        match self {
            Trim::Letter | Trim::EightHalfByEleven => (8.5 * INCH, 11.0 * INCH),
            Trim::A4 => (210.0 * mm, 297.0 * mm),
            Trim::SixByNine => (6.0 * INCH, 9.0 * INCH),
            Trim::A5 => (148.0 * mm, 210.0 * mm),
        }
    }
    fn small(self) -> bool {
        matches!(self, Trim::SixByNine | Trim::A5)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Solutions {
    /// Solutions at the back, smaller, several to a page.
    Back,
    /// No solutions.
    None,
}

pub struct Options {
    pub trim: Trim,
    pub per_page: usize,
    pub large_print: bool,
    pub solutions: Solutions,
    pub title: String,
    pub bleed: bool,
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

/// A section: a grade's name and its puzzles.
pub struct Section {
    pub name: String,
    pub items: Vec<Item>,
}

/// What one page holds.
enum Content<'a> {
    Contents,
    Puzzles {
        section: &'a str,
        items: &'a [Item],
    },
    Solutions {
        items: Vec<&'a Item>,
    },
    /// Steps `from..to` of an item's worked solution (`from == 0`: its first page).
    Worked {
        section: &'a str,
        item: &'a Item,
        from: usize,
        to: usize,
    },
}

/// A page ready to draw: its SVG, its size, and where the trim sits on it (with bleed).
pub struct Page {
    pub svg: String,
    pub width: f64,
    pub height: f64,
    /// x, y, width, height of the trim on the page.
    pub trim: (f64, f64, f64, f64),
}

fn grid_shape(n: usize) -> (usize, usize) {
    match n {
        1 => (1, 1),
        2 => (1, 2),
        4 => (2, 2),
        _ => (2, 3),
    }
}

/// The inside margin for a book of `pages` pages.
pub fn gutter(pages: usize) -> f64 {
    INCH * match pages {
        0..=150 => 0.375,
        151..=300 => 0.5,
        301..=500 => 0.625,
        501..=700 => 0.75,
        _ => 0.875,
    }
}

struct Geometry {
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
}

impl Geometry {
    fn new(o: &Options, pages: usize) -> Geometry {
        let (w, h) = o.trim.size();
        let m = if o.large_print { 0.75 * INCH } else { 0.5 * INCH };
        let k = if o.large_print { 1.35 } else { 1.0 };
        Geometry {
            w,
            h,
            top: m,
            bottom: m,
            outer: m,
            inner: gutter(pages).max(if o.large_print { 0.75 * INCH } else { 0.0 }),
            head: 22.0 * k,
            foot: 20.0 * k,
            text: 10.0 * k,
            label: 9.0 * k,
            small_label: 7.0 * k,
            gap: if o.large_print { 12.0 } else { 18.0 },
            min_text: if o.large_print { MIN_TEXT_LARGE } else { MIN_TEXT },
        }
    }

    /// The live area of page `number` (1-based; odd pages are right-hand): x, y, w, h in trim
    /// coordinates.
    fn area(&self, number: usize) -> (f64, f64, f64, f64) {
        let left = if number % 2 == 1 { self.inner } else { self.outer };
        let right = if number % 2 == 1 { self.outer } else { self.inner };
        (left, self.top, self.w - left - right, self.h - self.top - self.bottom)
    }
}

/// The cell size, in points, of the largest grid (`largest`: width and height in cells) in a
/// slot of a puzzle page holding `per` grids.
fn slot_cell(g: &Geometry, per: usize, largest: (f64, f64, f64)) -> f64 {
    let (_, _, aw, ah) = g.area(1);
    let (cols, rows) = grid_shape(per);
    let sw = (aw - g.gap * (cols - 1) as f64) / cols as f64;
    let sh = (ah - g.head - g.foot - g.gap * (rows - 1) as f64) / rows as f64 - g.label * 1.8;
    (sw / largest.0).min(sh / largest.1)
}

/// The slot grid of a puzzle page: `per` puzzles a page, shrunk until the grids' smallest text
/// is at least `min_text` points (or one to a page). `largest` is the largest grid and the
/// smallest text in cell units.
fn puzzle_slots(o: &Options, g: &Geometry, largest: (f64, f64, f64)) -> usize {
    let mut per = o.per_page;
    while per > 1 && slot_cell(g, per, largest) * largest.2 < g.min_text {
        per = match per {
            6 => 4,
            4 => 2,
            _ => 1,
        };
    }
    per
}

fn solution_shape(o: &Options) -> (usize, usize) {
    if o.large_print {
        (2, 2)
    } else if o.trim.small() {
        (2, 3)
    } else {
        (3, 4)
    }
}

/// The pages of a book, the grids per puzzle page actually used (`--per-page`, or fewer where
/// a grid's text would come out too small to read) and the smallest clue text in points.
pub fn pages(o: &Options, sections: &[Section]) -> (Vec<Page>, usize, f64) {
    let largest = sections.iter().flat_map(|s| &s.items).fold((1.0f64, 1.0f64, f64::INFINITY), |a, i| {
        let t = if i.puzzle.min_text > 0.0 { i.puzzle.min_text } else { f64::INFINITY };
        (a.0.max(i.puzzle.width), a.1.max(i.puzzle.height), a.2.min(t))
    });
    // The page count decides the gutter, which may shrink the grids: plan with the count of
    // the first plan (the slots only change where a grid sits near the size limit).
    let mut plan_pages = 0;
    let mut per = o.per_page;
    for _ in 0..2 {
        let g = Geometry::new(o, plan_pages);
        per = puzzle_slots(o, &g, largest);
        plan_pages = plan(o, &g, sections, per).len();
    }
    let g = Geometry::new(o, plan_pages);
    let contents = plan(o, &g, sections, per);
    let starts = section_starts(&contents);
    let pages = contents.iter().enumerate().map(|(i, c)| draw_page(o, &g, i + 1, c, sections, &starts, per)).collect();
    (pages, per, slot_cell(&g, per, largest) * largest.2)
}

fn plan<'a>(o: &Options, g: &Geometry, sections: &'a [Section], per: usize) -> Vec<Content<'a>> {
    let mut out = vec![Content::Contents];
    for s in sections {
        for chunk in s.items.chunks(per) {
            out.push(Content::Puzzles { section: &s.name, items: chunk });
        }
        for item in &s.items {
            let Some(steps) = &item.worked else { continue };
            let mut from = 0;
            while from < steps.len() {
                let to = worked_page_end(g, steps, from);
                out.push(Content::Worked { section: &s.name, item, from, to });
                from = to;
            }
        }
    }
    if o.solutions == Solutions::Back {
        let (c, r) = solution_shape(o);
        let all: Vec<&Item> = sections.iter().flat_map(|s| &s.items).collect();
        for chunk in all.chunks(c * r) {
            out.push(Content::Solutions { items: chunk.to_vec() });
        }
    }
    out
}

/// (name, first page, first and last puzzle number) of each section, then the solutions.
fn section_starts(contents: &[Content]) -> Vec<(String, usize, usize, usize)> {
    let mut out: Vec<(String, usize, usize, usize)> = Vec::new();
    for (i, c) in contents.iter().enumerate() {
        let (name, first, last) = match c {
            Content::Contents => continue,
            Content::Puzzles { section, items } => {
                (section.to_string(), items[0].number, items[items.len() - 1].number)
            }
            Content::Solutions { items } => ("Solutions".to_string(), items[0].number, items[items.len() - 1].number),
            Content::Worked { .. } => continue,
        };
        match out.last_mut() {
            Some(last_entry) if last_entry.0 == name => last_entry.3 = last,
            _ => out.push((name, i + 1, first, last)),
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

    /// A grid fitted into the box (x, y, w, h), centred; returns the box of the grid drawn.
    fn grid(&mut self, d: &Drawing, x: f64, y: f64, w: f64, h: f64) -> (f64, f64, f64, f64) {
        let s = (w / d.width).min(h / d.height);
        let (gw, gh) = (d.width * s, d.height * s);
        let (gx, gy) = (x + (w - gw) / 2.0, y + (h - gh) / 2.0);
        let _ = write!(self.s, r##"<g transform="translate({gx:.3} {gy:.3}) scale({s:.5})">{}</g>"##, d.body);
        (gx, gy, gw, gh)
    }
}

/// Grids in a `cols` × `rows` slot grid over the box `area` (x, y, w, h), each with
/// `number · id` under it in `label`-point text.
fn place_grids<'a>(
    svg: &mut Svg,
    grids: impl Iterator<Item = (&'a Drawing, &'a Item)>,
    (cols, rows): (usize, usize),
    (ax, ay, aw, ah): (f64, f64, f64, f64),
    gap: f64,
    label: f64,
) {
    let sw = (aw - gap * (cols - 1) as f64) / cols as f64;
    let sh = (ah - gap * (rows - 1) as f64) / rows as f64;
    let grids: Vec<(&Drawing, &Item)> = grids.collect();
    // Room for up to three lines of hint under a solution's label.
    let hinted = grids.iter().any(|(d, i)| i.hint.is_some() && std::ptr::eq(*d, &i.solution));
    let extra = if hinted { label * 0.85 * 1.25 * 3.0 } else { 0.0 };
    for (k, (drawing, item)) in grids.into_iter().enumerate() {
        let (c, r) = (k % cols, k / cols);
        let (x, y) = (ax + c as f64 * (sw + gap), ay + r as f64 * (sh + gap));
        let (gx, gy, gw, gh) = svg.grid(drawing, x, y, sw, sh - label * 1.8 - extra);
        let text = format!("{}  \u{b7}  {}", item.number, item.id);
        svg.text(gx + gw / 2.0, gy + gh + label * 1.4, label, "middle", &text);
        if let (Some(hint), true) = (&item.hint, std::ptr::eq(drawing, &item.solution)) {
            // Under the label, in slightly smaller type, wrapped to the slot.
            let size = label * 0.85;
            for (i, line) in wrap(&format!("Hint: {hint}"), sw, size).iter().take(3).enumerate() {
                svg.text(x + sw / 2.0, gy + gh + label * 1.4 + size * 1.25 * (i + 1) as f64, size, "middle", line);
            }
        }
    }
}

/// `text` in lines of at most `width` points in `size`-point type (an average glyph taken as
/// half the size).
fn wrap(text: &str, width: f64, size: f64) -> Vec<String> {
    let max = ((width / (size * 0.5)) as usize).max(12);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Line height and diagram size of worked-solution pages.
fn worked_metrics(g: &Geometry) -> (f64, f64) {
    (g.label * 1.35, (g.w * 0.22).min(1.3 * INCH))
}

/// The height one worked step takes in a column `width` wide.
fn worked_height(g: &Geometry, step: &WorkedStep, width: f64) -> f64 {
    let (lh, dia) = worked_metrics(g);
    match &step.diagram {
        Some(_) => (wrap(&step.text, width - dia - g.gap, g.label).len() as f64 * lh).max(dia) + g.gap * 0.6,
        None => wrap(&step.text, width, g.label).len() as f64 * lh + g.gap * 0.4,
    }
}

/// Where the worked page starting at step `from` ends: as many steps as fit the body (always
/// at least one).
fn worked_page_end(g: &Geometry, steps: &[WorkedStep], from: usize) -> usize {
    let (_, _, aw, ah) = g.area(1);
    let mut room = ah - g.head - g.foot - g.label * 3.0;
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

fn draw_worked(svg: &mut Svg, g: &Geometry, item: &Item, from: usize, to: usize, (ax, y0, aw): (f64, f64, f64)) {
    let (lh, dia) = worked_metrics(g);
    let steps = item.worked.as_deref().unwrap_or_default();
    let mut y = y0 + g.label * 1.6;
    let title = format!("Puzzle {}  \u{b7}  {}{}", item.number, item.id, if from > 0 { "  (continued)" } else { "" });
    svg.text(ax, y, g.label * 1.2, "start", &title);
    y += g.label * 1.4;
    for step in &steps[from..to] {
        match &step.diagram {
            Some(d) => {
                svg.grid(d, ax, y, dia, dia);
                let mut ty = y + g.label;
                for line in wrap(&step.text, aw - dia - g.gap, g.label) {
                    svg.text(ax + dia + g.gap, ty, g.label, "start", &line);
                    ty += lh;
                }
            }
            None => {
                let mut ty = y + g.label;
                for line in wrap(&step.text, aw, g.label) {
                    svg.text(ax, ty, g.label, "start", &line);
                    ty += lh;
                }
            }
        }
        y += worked_height(g, step, aw);
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_page(
    o: &Options,
    g: &Geometry,
    number: usize,
    content: &Content,
    sections: &[Section],
    starts: &[(String, usize, usize, usize)],
    per: usize,
) -> Page {
    let (bx, by) = if o.bleed { (if number % 2 == 1 { 0.0 } else { BLEED }, BLEED) } else { (0.0, 0.0) };
    let (pw, ph) = if o.bleed { (g.w + BLEED, g.h + 2.0 * BLEED) } else { (g.w, g.h) };
    let mut svg = Svg { s: String::new() };
    let (ax, ay, aw, ah) = g.area(number);
    // Running head (section name outside, title inside) and page number, inside the live area.
    let outside_left = number.is_multiple_of(2);
    let head = match content {
        Content::Contents => None,
        Content::Puzzles { section, .. } => Some(capital(section)),
        Content::Solutions { .. } => Some("Solutions".to_string()),
        Content::Worked { section, .. } => Some(format!("{} \u{b7} worked solutions", capital(section))),
    };
    if let Some(head) = head {
        let base = ay + g.text;
        let (l, r) = if outside_left { (head.as_str(), o.title.as_str()) } else { (o.title.as_str(), head.as_str()) };
        svg.text(ax, base, g.text, "start", l);
        svg.text(ax + aw, base, g.text, "end", r);
        let _ = write!(
            svg.s,
            r##"<line x1="{ax:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="#000" stroke-width="0.5"/>"##,
            base + 4.0,
            ax + aw,
            base + 4.0
        );
    }
    svg.text(ax + aw / 2.0, ay + ah - 2.0, g.text, "middle", &number.to_string());
    let body_y = ay + g.head;
    let body_h = ah - g.head - g.foot;
    match content {
        Content::Contents => {
            let total: usize = sections.iter().map(|s| s.items.len()).sum();
            let big = if o.large_print { 34.0 } else { 26.0 };
            let mut y = ay + ah * 0.18;
            svg.text(ax + aw / 2.0, y, big, "middle", &o.title);
            y += big * 1.4;
            let what = if total == 1 { "1 puzzle".to_string() } else { format!("{total} puzzles") };
            svg.text(ax + aw / 2.0, y, g.text * 1.3, "middle", &what);
            y += g.text * 5.0;
            svg.text(ax, y, g.text * 1.6, "start", "Contents");
            y += g.text * 2.6;
            for (name, page, first, last) in starts {
                let label = format!("{}  (puzzles {first}\u{2013}{last})", capital(name));
                svg.text(ax, y, g.text * 1.2, "start", &label);
                svg.text(ax + aw, y, g.text * 1.2, "end", &page.to_string());
                y += g.text * 2.2;
            }
        }
        Content::Puzzles { items, .. } => {
            let grids = items.iter().map(|i| (&i.puzzle, i));
            place_grids(&mut svg, grids, grid_shape(per), (ax, body_y, aw, body_h), g.gap, g.label);
        }
        Content::Solutions { items } => {
            let grids = items.iter().map(|i| (&i.solution, *i));
            place_grids(&mut svg, grids, solution_shape(o), (ax, body_y, aw, body_h), g.gap, g.small_label);
        }
        Content::Worked { item, from, to, .. } => {
            draw_worked(&mut svg, g, item, *from, *to, (ax, body_y, aw));
        }
    }
    let svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{pw:.3}" height="{ph:.3}" viewBox="0 0 {pw:.3} {ph:.3}" font-family="{FONT_FAMILY}"><rect width="100%" height="100%" fill="#fff"/><g transform="translate({bx:.3} {by:.3})">{}</g></svg>"##,
        svg.s
    );
    Page { svg, width: pw, height: ph, trim: (bx, by, g.w, g.h) }
}
