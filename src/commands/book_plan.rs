//! `book --plan`: a book of many sections from a plan (TOML). The plan names the book's words
//! (title, copyright, language), its trim, paper and type, its front matter, its sections (each
//! drawn from a book folder: grades, how many, in what order, how many a page) and where the
//! answers go; `print::layout` sets the pages, `print::pdf` writes them, `print::kdp` checks
//! them against KDP's rules and `print::cover` makes the full-wrap cover. The same plan and
//! folders give the same bytes.
//!
//! Paths in the plan (font, strings, images) are relative to the plan's folder; section folders
//! to `--runs DIR`, or the plan's folder.

use super::book::{self, Record};
use crate::config::UsageError;
use crate::grade::Grade;
use crate::kinds::{Kind, KindId, KindVisitor};
use crate::library::select::{Book, Filter, Picked};
use crate::library::Library;
use crate::print::kdp::{self, Paper, Problem, Trim};
use crate::print::layout::{self, Answers, Item, Matter, Options, Section, Style};
use crate::print::strings::{HowTo, Strings};
use crate::print::{self, cover};
use anyhow::{Context as _, Result};
use rand::seq::SliceRandom as _;
use rand::SeedableRng as _;
use rayon::prelude::*;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

pub struct Args {
    pub plan: PathBuf,
    pub runs: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub cover: Option<PathBuf>,
    pub check: bool,
    pub quiet: bool,
    /// The library that `query` sections draw from.
    pub library: String,
}

/// A book plan, as its TOML file holds it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Plan {
    book: Meta,
    #[serde(default)]
    style: StyleSpec,
    /// Front matter pages in order: "title", "copyright", "contents", "how-to-play" (one page per
    /// kind and variant of the sections that ask for it), "blank".
    #[serde(default = "default_front")]
    front: Vec<Front>,
    #[serde(rename = "section", default)]
    sections: Vec<SectionSpec>,
    #[serde(default)]
    back: Back,
    #[serde(default)]
    cover: CoverPlan,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Meta {
    title: String,
    #[serde(default)]
    subtitle: String,
    #[serde(default)]
    author: String,
    #[serde(default)]
    publisher: String,
    #[serde(default)]
    isbn: String,
    year: Option<u32>,
    /// The book's date (YYYY-MM-DD) as the library records it (default: today); a library
    /// section's `unused_since` compares with it.
    date: Option<String>,
    /// Default: the strings table's "edition".
    edition: Option<String>,
    /// The rights paragraph of the copyright page; default: the strings table's.
    rights: Option<String>,
    #[serde(default = "default_language")]
    language: String,
    /// A strings table of the user's (TOML), over the built-in ones.
    strings: Option<PathBuf>,
    #[serde(default = "default_trim")]
    trim: String,
    #[serde(default = "default_paper")]
    paper: Paper,
    #[serde(default)]
    bleed: bool,
    #[serde(default = "default_answers")]
    answers: Answers,
    #[serde(default)]
    large_print: bool,
    /// Top, bottom and outside margins in inches (default 0.5, 0.75 with large print).
    margin: Option<f64>,
    /// The inside (gutter) margin in inches; default KDP's minimum for the page count.
    inside_margin: Option<f64>,
    /// "kdp" (default): KDP's rules refuse the build; "none": they are printed as notes.
    #[serde(default = "default_rules")]
    rules: String,
}

#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
struct StyleSpec {
    /// A TrueType or OpenType font file every page is set in (default: the shipped DejaVu Sans).
    font: Option<PathBuf>,
    /// Sizes in points: body text and running heads, headings, the title page's title.
    body: f64,
    heading: f64,
    title: f64,
    /// Grid line weight, a factor of the usual (1.0).
    line_weight: f64,
    head_inside: String,
    head_outside: String,
    foot: String,
    show_ids: bool,
}

impl Default for StyleSpec {
    fn default() -> Self {
        let s = Style::new(print::FONT_FAMILY, false);
        StyleSpec {
            font: None,
            body: s.body,
            heading: s.heading,
            title: s.title,
            line_weight: 1.0,
            head_inside: s.head_inside,
            head_outside: s.head_outside,
            foot: s.foot,
            show_ids: false,
        }
    }
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
enum Front {
    Title,
    Copyright,
    Contents,
    HowToPlay,
    Blank,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Back {
    /// Lined notes pages at the end.
    #[serde(default)]
    notes: usize,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "kebab-case")]
enum Order {
    /// As the folder holds them.
    #[default]
    Book,
    /// Shuffled by the section's seed.
    Shuffle,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SectionSpec {
    /// A book folder (`generate`'s, `merge`'s, `library query --out`'s)…
    folder: Option<PathBuf>,
    /// …or a selection from the library (`book --plan --library`): the puzzles are recorded
    /// as this book's when it is built.
    query: Option<QuerySpec>,
    /// Grades to take, in this order (default: all four, easy to expert).
    #[serde(default)]
    grades: Vec<String>,
    /// How many (default: every puzzle of those grades).
    count: Option<usize>,
    #[serde(default)]
    order: Order,
    #[serde(default = "default_seed")]
    seed: u64,
    #[serde(default = "default_per_page")]
    per_page: usize,
    /// Default: the kind and grades ("Killer Sudoku, Hard").
    heading: Option<String>,
    #[serde(default)]
    intro: Vec<String>,
    #[serde(default = "yes")]
    how_to_play: bool,
    #[serde(default)]
    divider: bool,
}

/// A library section's selection; the section's `grades` and `count` complete it.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct QuerySpec {
    #[serde(default = "default_kind")]
    kind: String,
    shape: Option<String>,
    min_steps: Option<f64>,
    max_steps: Option<f64>,
    #[serde(default)]
    uses: Vec<String>,
    #[serde(default)]
    needs: Vec<String>,
    /// Puzzles no book dated on or after this day holds (default: no book holds them).
    unused_since: Option<String>,
}

fn default_kind() -> String {
    "sudoku".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CoverPlan {
    front_image: Option<PathBuf>,
    back_image: Option<PathBuf>,
    #[serde(default)]
    back_text: Vec<String>,
    #[serde(default = "white")]
    background: String,
    #[serde(default = "black")]
    text_colour: String,
    #[serde(default = "yes")]
    spine_text: bool,
}

impl Default for CoverPlan {
    fn default() -> Self {
        CoverPlan {
            front_image: None,
            back_image: None,
            back_text: Vec::new(),
            background: white(),
            text_colour: black(),
            spine_text: true,
        }
    }
}

fn default_front() -> Vec<Front> {
    vec![Front::Title, Front::Copyright, Front::Contents, Front::HowToPlay]
}
fn default_paper() -> Paper {
    Paper::White
}
fn default_language() -> String {
    "en".into()
}
fn default_trim() -> String {
    "6x9".into()
}
fn default_answers() -> Answers {
    Answers::Back
}
fn default_rules() -> String {
    "kdp".into()
}
fn default_seed() -> u64 {
    1
}
fn default_per_page() -> usize {
    2
}
fn yes() -> bool {
    true
}
fn white() -> String {
    "#ffffff".into()
}
fn black() -> String {
    "#000000".into()
}

/// A plan read and checked: its own folder, for the paths in it.
struct Loaded {
    plan: Plan,
    name: String,
    dir: PathBuf,
    trim: Trim,
}

fn load(path: &Path) -> Result<Loaded, UsageError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| UsageError(format!("--plan {name}: {e}")))?;
    let plan: Plan = toml::from_str(&text).map_err(|e| UsageError(format!("{name}: {}", e.to_string().trim_end())))?;
    let bad = |key: &str, what: String| UsageError(format!("{name}: {key}: {what}"));
    book::check_title(&plan.book.title, &format!("{name}: book.title"))?;
    let trim = Trim::parse(&plan.book.trim).map_err(|e| bad("book.trim", e))?;
    if plan.sections.is_empty() {
        return Err(bad("section", "the plan has no [[section]]: a book needs at least one".into()));
    }
    if let Some(d) = plan.book.date.as_ref().filter(|d| !crate::library::is_date(d)) {
        return Err(bad("book.date", format!("\"{d}\": a date is YYYY-MM-DD")));
    }
    for (k, s) in plan.sections.iter().enumerate() {
        match (&s.folder, &s.query) {
            (Some(_), Some(_)) | (None, None) => {
                return Err(bad(
                    &format!("section {}", k + 1),
                    "give a folder or a query (a selection from the library), one of the two".into(),
                ))
            }
            (None, Some(_)) if s.count.is_none() => {
                return Err(bad(&format!("section {} count", k + 1), "a query section says how many puzzles".into()))
            }
            _ => {}
        }
        if ![1, 2, 4, 6].contains(&s.per_page) {
            return Err(bad(
                &format!("section {} per_page", k + 1),
                format!("{}: puzzles per page are 1, 2, 4 or 6", s.per_page),
            ));
        }
    }
    for (key, v) in
        [("style.body", plan.style.body), ("style.heading", plan.style.heading), ("style.title", plan.style.title)]
    {
        if !(4.0..=96.0).contains(&v) {
            return Err(bad(key, format!("{v} pt: sizes are 4 to 96 pt")));
        }
    }
    for (key, t) in [
        ("style.head_inside", &plan.style.head_inside),
        ("style.head_outside", &plan.style.head_outside),
        ("style.foot", &plan.style.foot),
    ] {
        let mut rest = t.as_str();
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').map(|c| open + c);
            let name = close.map(|c| &rest[open + 1..c]);
            if !matches!(name, Some("title" | "section" | "author" | "page")) {
                return Err(bad(
                    key,
                    format!("\"{t}\": the placeholders are {{title}}, {{section}}, {{author}} and {{page}}"),
                ));
            }
            rest = &rest[close.unwrap_or(rest.len()) + 1..];
        }
    }
    if !(0.25..=4.0).contains(&plan.style.line_weight) {
        return Err(bad("style.line_weight", format!("{}: a factor from 0.25 to 4", plan.style.line_weight)));
    }
    if plan.book.title.trim().is_empty() {
        return Err(bad("book.title", "empty: a book needs a title".into()));
    }
    for (key, v) in [("book.margin", plan.book.margin), ("book.inside_margin", plan.book.inside_margin)] {
        if let Some(v) = v.filter(|v| !(0.0..=3.0).contains(v)) {
            return Err(bad(key, format!("{v} in: margins are 0 to 3 in")));
        }
    }
    if plan.back.notes > kdp::MAX_PAGES {
        return Err(bad("back.notes", format!("{}: a book holds at most {} pages", plan.back.notes, kdp::MAX_PAGES)));
    }
    if !["kdp", "none"].contains(&plan.book.rules.as_str()) {
        return Err(bad("book.rules", format!("\"{}\": \"kdp\" or \"none\"", plan.book.rules)));
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    Ok(Loaded { plan, name, dir, trim })
}

/// A how-to-play entry of the strings table and its placeholders' values.
type HowToKey = (String, Vec<(String, String)>);

/// A section's puzzles, drawn, with its how-to-play keys and its kind's name key.
struct Drawn {
    items: Vec<(String, print::Drawing, print::Drawing)>,
    how_to: Vec<HowToKey>,
    kind_key: String,
    /// The grid's size where the kind's name should carry it (" 16×16"; KenKen always, the
    /// Sudoku family off 9×9), else empty.
    size: String,
}

/// The how-to-play entries of a folder's kind and variant (with their placeholders), and the
/// key of its kind's name.
fn how_to_keys(kind: KindId, manifest: &serde_json::Value) -> (Vec<HowToKey>, String) {
    let p = &manifest["parameters"];
    let mut keys = Vec::new();
    let name = match kind.key() {
        "sudoku-family" => {
            let boxes = p["boxes"].as_array().map(|b| b.iter().filter_map(|x| x.as_u64()).collect::<Vec<_>>());
            let n = match &boxes {
                Some(b) if b.len() == 2 => b[0] * b[1],
                _ => p["jigsaw_size"].as_u64().unwrap_or(9),
            };
            let b = boxes.filter(|b| b.len() == 2).map(|b| format!("{}\u{d7}{}", b[1], b[0])).unwrap_or_default();
            let args = vec![("n".to_string(), n.to_string()), ("box".to_string(), b.clone())];
            let jigsaw = b.is_empty();
            let (killer, x) = (p["killer"].as_bool() == Some(true), p["diagonals"].as_bool() == Some(true));
            // The most specific entry first (it states the whole rules), then the rule of each
            // further variant: X's diagonals, a jigsaw killer's cages (the killer entry speaks
            // of boxes).
            let primary = if killer && !jigsaw {
                "killer"
            } else if x && !jigsaw {
                "x"
            } else if jigsaw {
                "jigsaw"
            } else {
                "sudoku"
            };
            keys.push((primary.to_string(), args.clone()));
            if x && primary != "x" {
                keys.push(("x".into(), args.clone()));
            }
            if killer && primary != "killer" {
                keys.push(("killer".into(), args));
            }
            if killer {
                "killer"
            } else if jigsaw {
                "jigsaw"
            } else if x {
                "x"
            } else {
                "sudoku"
            }
        }
        "sudoku" => {
            keys.push(("sudoku".into(), vec![("n".into(), "9".into()), ("box".into(), "3\u{d7}3".into())]));
            "sudoku"
        }
        // A square kind (KenKen, Futoshiki, Skyscrapers): `size` is its n.
        other => {
            let n = p["size"].as_u64().map(|n| vec![("n".to_string(), n.to_string())]);
            keys.push((other.to_string(), n.unwrap_or_default()));
            other
        }
    };
    (keys, name.to_string())
}

fn draw_all<K: Kind>(records: &[&Record], line_weight: f64) -> Result<Vec<(String, print::Drawing, print::Drawing)>> {
    records
        .par_iter()
        .map(|r| {
            let at = |e: String| anyhow::anyhow!("{}: {e}", r.at);
            let p = K::parse(&r.puzzle, &K::Params::default()).map_err(at)?;
            let digits = print::solution_digits(&r.solution).map_err(at)?;
            let mut puzzle = K::draw(&p, None);
            let mut solution = K::draw(&p, Some(&digits));
            if line_weight != 1.0 {
                puzzle.scale_lines(line_weight);
                solution.scale_lines(line_weight);
            }
            Ok((r.id.clone(), puzzle, solution))
        })
        .collect()
}

/// A section's folder read, its puzzles chosen as the plan says and drawn.
fn section(l: &Loaded, runs: &Path, k: usize, picked: Option<&[Picked]>) -> Result<Drawn> {
    let spec = &l.plan.sections[k];
    let key = format!("{}: section {}", l.name, k + 1);
    if let Some(picked) = picked {
        return library_section(l, k, &key, picked);
    }
    let folder = runs.join(spec.folder.as_ref().expect("a folder section"));
    if !folder.is_dir() {
        return Err(UsageError(format!("{key}: folder = \"{}\": no such folder", folder.display())).into());
    }
    let (kind, manifest) = book::manifest(&folder, &format!("{key}: folder"))?;
    let grades: Vec<Grade> = if spec.grades.is_empty() {
        Grade::ALL.to_vec()
    } else {
        spec.grades
            .iter()
            .map(|g| {
                Grade::from_name(g).ok_or_else(|| {
                    UsageError(format!(
                        "{key}: grades: unknown grade \"{g}\": the grades are easy, medium, hard, expert"
                    ))
                })
            })
            .collect::<Result<_, _>>()?
    };
    let records = book::read_records(&folder)?;
    let mut chosen: Vec<&Record> = grades.iter().flat_map(|g| records.iter().filter(move |r| r.grade == *g)).collect();
    if let Order::Shuffle = spec.order {
        chosen.shuffle(&mut rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(spec.seed));
    }
    let names: Vec<&str> = grades.iter().map(|g| g.name()).collect();
    match spec.count {
        Some(0) => return Err(UsageError(format!("{key}: count = 0: a section holds at least one puzzle")).into()),
        Some(n) if n > chosen.len() => {
            return Err(UsageError(format!(
                "{key}: count = {n}, but {} holds {} puzzle(s) of grade {}",
                folder.display(),
                chosen.len(),
                names.join(", ")
            ))
            .into())
        }
        Some(n) => chosen.truncate(n),
        None if chosen.is_empty() => {
            return Err(UsageError(format!(
                "{key}: {} holds no puzzle of grade {}",
                folder.display(),
                names.join(", ")
            ))
            .into())
        }
        None => {}
    }
    drawn(l, kind, &manifest, &chosen).with_context(|| format!("{key}: {}", folder.display()))
}

/// A library section: its puzzles as reserved (or, for `--check`, as they would be).
fn library_section(l: &Loaded, k: usize, key: &str, picked: &[Picked]) -> Result<Drawn> {
    let spec = &l.plan.sections[k];
    let (kind, params) = super::library::one_board(picked).map_err(|e| UsageError(format!("{key}: {}", e.0)))?;
    let manifest = serde_json::json!({ "kind": kind.key(), "parameters": params });
    let records: Vec<Record> = picked
        .iter()
        .enumerate()
        .map(|(i, p)| book::parse_record(&p.record, i + 1, "the library's record", "the library's record"))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    let mut chosen: Vec<&Record> = records.iter().collect();
    if let Order::Shuffle = spec.order {
        chosen.shuffle(&mut rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(spec.seed));
    }
    drawn(l, kind, &manifest, &chosen).with_context(|| format!("{key}: the library's puzzles"))
}

/// Chosen records drawn, with the section's how-to-play keys and name.
fn drawn(l: &Loaded, kind: KindId, manifest: &serde_json::Value, chosen: &[&Record]) -> Result<Drawn> {
    struct Go<'a>(&'a [&'a Record], f64);
    impl KindVisitor for Go<'_> {
        type Output = Result<Vec<(String, print::Drawing, print::Drawing)>>;
        fn visit<K: Kind>(self) -> Self::Output {
            draw_all::<K>(self.0, self.1)
        }
    }
    let items = kind.visit(Go(chosen, l.plan.style.line_weight))?;
    let (how_to, kind_key) = how_to_keys(kind, manifest);
    let n = how_to.first().and_then(|(_, args)| args.iter().find(|(k, _)| k == "n")).map(|(_, v)| v.clone());
    // The grid's size after the kind's name ("KenKen 6×6"), but not for the 9×9 Sudoku family.
    let size = match (kind.key(), n) {
        ("sudoku" | "sudoku-family", Some(n)) if n == "9" => String::new(),
        (_, Some(n)) => format!(" {n}\u{d7}{n}"),
        _ => String::new(),
    };
    Ok(Drawn { items, how_to, kind_key, size })
}

/// The section's default heading: its kind and grades ("Killer Sudoku, Hard", "Sudoku, Easy–Medium").
fn heading(s: &Strings, kind: &str, size: &str, grades: &[String]) -> String {
    let names: Vec<String> = if grades.is_empty() {
        Vec::new()
    } else {
        grades.iter().filter_map(|g| Grade::from_name(g)).map(|g| s.grade(g).to_string()).collect()
    };
    let kind = format!("{}{size}", s.kind_name(kind));
    match names.as_slice() {
        [] => kind,
        [one] => s.fill("section_of", &[("kind", &kind), ("grade", one)]),
        [first, .., last] => s.fill("section_of", &[("kind", &kind), ("grade", &format!("{first}\u{2013}{last}"))]),
    }
}

/// The copyright page's paragraphs.
fn copyright(m: &Meta, s: &Strings) -> Vec<String> {
    let mut out = vec![m.title.clone()];
    if let Some(year) = m.year {
        out.push(s.fill("copyright", &[("year", &year.to_string()), ("author", &m.author)]));
    }
    out.push(m.rights.clone().unwrap_or_else(|| s.word("rights").to_string()));
    out.push(m.edition.clone().unwrap_or_else(|| s.word("edition").to_string()));
    if !m.isbn.is_empty() {
        out.push(s.fill("isbn", &[("isbn", &m.isbn)]));
    }
    if !m.publisher.is_empty() {
        out.push(s.fill("published_by", &[("publisher", &m.publisher)]));
    }
    out.push(s.word("made_with").to_string());
    out
}

/// Everything a build makes, in memory, and the problems KDP would refuse.
struct Built {
    interior: Vec<u8>,
    pages: usize,
    booklet: Option<(Vec<u8>, usize)>,
    cover: Option<cover::Cover>,
    problems: Vec<Problem>,
    puzzles: usize,
}

pub fn build(a: Args) -> Result<ExitCode> {
    let l = load(&a.plan)?;
    if let Some(out) = &a.out {
        if out.extension().is_none_or(|e| !e.eq_ignore_ascii_case("pdf")) {
            return Err(UsageError(format!(
                "--out {}: a book from a plan is a PDF: give a file ending in .pdf",
                out.display()
            ))
            .into());
        }
    }
    // Only a build that writes the book records its library puzzles as used; `--check` and a
    // cover alone see what it would take.
    let keep = a.out.is_some() && !a.check;
    let (picked, reserved) = library_picks(&l, &a, keep)?;
    let r = finish_build(&l, &a, &picked);
    // A book that was not written gives back the puzzles this build recorded for it.
    if let Some((mut lib, name)) = reserved {
        if !matches!(r, Ok(ExitCode::SUCCESS)) || r.is_err() {
            lib.release(&name)?;
        } else if !a.quiet {
            eprintln!("recorded in {} as book \"{name}\"", lib.name());
        }
    }
    r
}

/// Each section's puzzles from the library (None for a folder section), and when the build
/// recorded a new book in it, the library and the book's name.
type Picks = (Vec<Option<Vec<Picked>>>, Option<(Library, String)>);

fn library_picks(l: &Loaded, a: &Args, keep: bool) -> Result<Picks> {
    let mut sections = Vec::new();
    for (k, spec) in l.plan.sections.iter().enumerate() {
        let Some(q) = &spec.query else {
            sections.push(None);
            continue;
        };
        let key = format!("{}: section {} query", l.name, k + 1);
        // A `--kind` name: the family is not one (its boards are shapes of `sudoku`).
        let kind = <KindId as clap::ValueEnum>::from_str(&q.kind, false)
            .map_err(|_| UsageError(format!("{key}: kind \"{}\": the kinds are sudoku, kenken, kakuro", q.kind)))?;
        let sel = crate::cli::Selection {
            shape: q.shape.clone(),
            grades: spec.grades.clone(),
            min_steps: q.min_steps,
            max_steps: q.max_steps,
            uses: q.uses.clone(),
            needs: q.needs.clone(),
            unused: q.unused_since.is_none(),
            unused_since: q.unused_since.clone(),
        };
        let filter: Filter = super::library::filter(kind, &sel).map_err(|e| UsageError(format!("{key}: {}", e.0)))?;
        sections.push(Some((filter, spec.count.expect("checked: a query section has a count"))));
    }
    if sections.iter().all(Option::is_none) {
        return Ok((sections.iter().map(|_| None).collect(), None));
    }
    let mut lib = Library::open(&a.library, false)?;
    let m = &l.plan.book;
    let book = Book {
        name: m.title.clone(),
        title: m.title.clone(),
        isbn: m.isbn.clone(),
        date: m.date.clone().unwrap_or_else(crate::library::today),
        plan: std::fs::read_to_string(&a.plan).unwrap_or_default(),
    };
    let (picked, fresh) = lib.reserve(&book, &sections, keep).map_err(|e| match e.downcast::<UsageError>() {
        Ok(u) => UsageError(format!("{}: {}", l.name, u.0)).into(),
        Err(e) => e,
    })?;
    if keep && !fresh && !a.quiet {
        // A second build of the same book: the puzzles recorded by the first, not new ones.
        eprintln!(
            "note: book \"{}\" is already recorded in {}: this build prints the same puzzles \
             (`library release \"{}\"` gives them back, for a book that is not printed)",
            book.name,
            lib.name(),
            book.name
        );
    }
    Ok((picked, (keep && fresh).then_some((lib, book.name))))
}

fn finish_build(l: &Loaded, a: &Args, picked: &[Option<Vec<Picked>>]) -> Result<ExitCode> {
    let built = make(l, a, picked)?;
    let kdp = l.plan.book.rules == "kdp";
    for p in &built.problems {
        eprintln!("{}: {p}", if kdp { "problem" } else { "note" });
    }
    if kdp && !built.problems.is_empty() {
        eprintln!(
            "error: {} problem(s) KDP would refuse{}",
            built.problems.len(),
            if a.check { "" } else { "; nothing was written (book.rules = \"none\" builds anyway)" }
        );
        return Ok(ExitCode::from(2));
    }
    if let Some(c) = &built.cover {
        println!(
            "cover: {:.3} x {:.3} in ({:.3} x {:.3} pt), spine {:.3} in for {} pages on {} paper{}",
            c.width,
            c.height,
            c.width * 72.0,
            c.height * 72.0,
            c.spine,
            built.pages,
            paper_name(l.plan.book.paper),
            if c.spine_text { ", spine text" } else { ", no spine text (under 79 pages)" }
        );
    }
    if a.check {
        eprintln!("ok: {} pages, {} puzzles: nothing KDP would refuse", built.pages, built.puzzles);
        return Ok(ExitCode::SUCCESS);
    }
    // Everything was made before anything is written; every file is written and synced under
    // a scratch name before the first is renamed into place, so a crash leaves either the old
    // set or the new (or, between two renames, part of the new beside the old).
    let mut outputs: Vec<(PathBuf, &[u8], String)> = Vec::new();
    if let Some(out) = &a.out {
        if let Some((bytes, pages)) = &built.booklet {
            let (_, file) = book::split_path(out)?;
            outputs.push((out.with_file_name(book::answers_name(&file)), bytes, format!("{pages} pages")));
        }
        let what = format!("{} puzzles, {} pages", built.puzzles, built.pages);
        outputs.push((out.clone(), &built.interior, what));
    }
    if let (Some(path), Some(c)) = (&a.cover, &built.cover) {
        outputs.push((path.clone(), &c.pdf, "cover".into()));
    }
    book::write_together(&outputs)?;
    Ok(ExitCode::SUCCESS)
}

/// Build the book; `picked`: each library section's puzzles (None for a folder section).
fn make(l: &Loaded, a: &Args, picked: &[Option<Vec<Picked>>]) -> Result<Built> {
    let m = &l.plan.book;
    let (strings, fallback) = Strings::load(&m.language, m.strings.as_ref().map(|p| l.dir.join(p)).as_deref())
        .map_err(|e| UsageError(format!("{}: book.strings: {e:#}", l.name)))?;
    if !fallback.is_empty() && !a.quiet {
        eprintln!(
            "note: language \"{}\" lacks {} word(s), set in English: {}",
            m.language,
            fallback.len(),
            fallback.join(", ")
        );
    }
    let mut problems = Vec::new();
    // The font: checked before anything is drawn with it.
    let font = match &l.plan.style.font {
        Some(p) => {
            let path = l.dir.join(p);
            let data = std::fs::read(&path)
                .map_err(|e| UsageError(format!("{}: style.font: {}: {e}", l.name, path.display())))?;
            match kdp::font(&path.display().to_string(), &data) {
                Ok(family) => Some((data, family)),
                Err(p) if p.what.contains("not a font") => {
                    return Err(UsageError(format!("{}: style.font: {p}", l.name)).into())
                }
                Err(p) => {
                    problems.push(p);
                    None
                }
            }
        }
        None => None,
    };
    let family = font.as_ref().map_or(print::FONT_FAMILY.to_string(), |f| f.1.clone());
    let runs = a.runs.clone().unwrap_or_else(|| l.dir.clone());
    let drawn: Vec<Drawn> = (0..l.plan.sections.len())
        .map(|k| section(l, &runs, k, picked.get(k).and_then(|p| p.as_deref())))
        .collect::<Result<_>>()?;
    // No puzzle twice in one book.
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (k, d) in drawn.iter().enumerate() {
        for (id, _, _) in &d.items {
            if let Some(first) = seen.insert(id, k) {
                return Err(UsageError(format!(
                    "{}: sections {} and {} both take puzzle {id}: a book prints each puzzle once",
                    l.name,
                    first + 1,
                    k + 1
                ))
                .into());
            }
        }
    }
    // How-to-play pages: in the front matter where it says so, else opening each section.
    let in_front = l.plan.front.contains(&Front::HowToPlay);
    let how_to = |d: &Drawn| -> Option<HowTo> {
        let mut parts = d.how_to.iter().filter_map(|(key, args)| {
            let args: Vec<(&str, &str)> = args.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
            strings.how_to_play(key, &args)
        });
        let mut first = parts.next()?;
        for more in parts {
            // A further variant's own rule: its second paragraph (the first restates the grid's).
            first.text.extend(more.text.into_iter().nth(1));
        }
        first.title = format!("{}{}", strings.kind_name(&d.kind_key), d.size);
        Some(first)
    };
    let mut number = 0;
    let mut sections = Vec::new();
    let mut front_how: Vec<HowTo> = Vec::new();
    for (spec, d) in l.plan.sections.iter().zip(drawn) {
        let h = if spec.how_to_play { how_to(&d) } else { None };
        let opener = match h {
            Some(h) if in_front => {
                if !front_how.iter().any(|x| x.title == h.title && x.text == h.text) {
                    front_how.push(h);
                }
                None
            }
            other => other,
        };
        let name = spec.heading.clone().unwrap_or_else(|| heading(&strings, &d.kind_key, &d.size, &spec.grades));
        let items = d
            .items
            .into_iter()
            .map(|(id, puzzle, solution)| {
                number += 1;
                Item { number, id, puzzle, solution, hint: None, worked: None }
            })
            .collect();
        sections.push(Section {
            name,
            items,
            per_page: spec.per_page,
            heading: true,
            intro: spec.intro.clone(),
            divider: spec.divider,
            how_to: opener,
        });
    }
    let mut front = Vec::new();
    for f in &l.plan.front {
        match f {
            Front::Title => front.push(Matter::Title { subtitle: m.subtitle.clone(), publisher: m.publisher.clone() }),
            Front::Copyright => front.push(Matter::Copyright(copyright(m, &strings))),
            Front::Contents => front.push(Matter::Contents),
            Front::HowToPlay => front.extend(front_how.iter().cloned().map(Matter::HowTo)),
            Front::Blank => front.push(Matter::Blank),
        }
    }
    let back = (0..l.plan.back.notes).map(|_| Matter::Notes).collect();
    // The answer booklet: a title page naming it, its blank back, its contents.
    let booklet = vec![
        Matter::Title { subtitle: strings.word("answer_booklet").to_string(), publisher: m.publisher.clone() },
        Matter::Blank,
        Matter::Contents,
    ];
    let book_ = layout::Book { front, sections, back, booklet };
    let mut style = Style::new(&family, m.large_print);
    let st = &l.plan.style;
    (style.body, style.heading, style.title) = (st.body, st.heading, st.title);
    (style.head_inside, style.head_outside, style.foot) =
        (st.head_inside.clone(), st.head_outside.clone(), st.foot.clone());
    style.show_ids = st.show_ids;
    let opts = print::pdf::with_font(font.as_ref().map(|(d, f)| (d.as_slice(), f.as_str())));
    let options = Options {
        measure: print::Measure::new(&opts),
        trim: l.trim.clone(),
        large_print: m.large_print,
        answers: m.answers,
        title: m.title.clone(),
        author: m.author.clone(),
        bleed: m.bleed,
        style,
        margin: m.margin.unwrap_or(if m.large_print { 0.75 } else { 0.5 }),
        inside: m.inside_margin,
    };
    let laid = layout::pages(&options, &book_, &strings).map_err(|e| UsageError(format!("{}: {e}", l.name)))?;
    let floor = if m.large_print { layout::MIN_TEXT_LARGE } else { layout::MIN_TEXT };
    for ((s, &per), &small) in book_.sections.iter().zip(&laid.per_page).zip(&laid.smallest) {
        if per < s.per_page {
            eprintln!("note: section \"{}\": {per} grid(s) a page instead of {}: with more, the clues would be set under {floor} pt", s.name, s.per_page);
        }
        if small < floor {
            eprintln!("note: section \"{}\": the clues come out at {small:.1} pt even one to a page, under the {floor} pt that reads well", s.name);
        }
    }
    let pages = laid.pages.len();
    problems.extend(kdp::page_count(pages));
    if !laid.booklet.is_empty() {
        problems.extend(kdp::page_count(laid.booklet.len()).map(|mut p| {
            p.what = format!("the answer booklet: {}", p.what);
            p
        }));
    }
    let (top, outside) = (options.margin, options.margin);
    problems.extend(kdp::margins(pages, m.bleed, laid.gutter, outside, top, top));
    let found = Mutex::new(Vec::new());
    let progress = book::bar((pages + laid.booklet.len()) as u64, a.quiet, "pages");
    let geometry = kdp::PageGeometry { trim: l.trim.points(), bleed: m.bleed, pages };
    let inspect = |n: usize, tree: &print::pdf::PageTree| {
        let mut problems = kdp::content_bounds(n, tree, &geometry);
        if !problems.is_empty() {
            found.lock().unwrap().append(&mut problems);
        }
    };
    // Without --out no PDF is drawn: every page is only read, for the checks.
    let draw = a.out.is_some();
    let interior = if draw {
        print::pdf::render_with(&laid.pages, &m.title, &opts, || progress.inc(1), inspect)?
    } else {
        print::pdf::inspect_only(&laid.pages, &opts, inspect)?;
        Vec::new()
    };
    let booklet = if laid.booklet.is_empty() || !draw {
        None
    } else {
        let title = format!("{} \u{b7} {}", m.title, strings.word("answer_booklet"));
        Some((
            print::pdf::render_with(&laid.booklet, &title, &opts, || progress.inc(1), |_, _| {})?,
            laid.booklet.len(),
        ))
    };
    progress.finish_and_clear();
    let mut found = found.into_inner().unwrap();
    found.sort_by_key(|p| p.page);
    problems.extend(found);
    let cover = if a.cover.is_some() || a.check {
        let c = &l.plan.cover;
        let spec = cover::CoverSpec {
            title: m.title.clone(),
            subtitle: (!m.subtitle.is_empty()).then(|| m.subtitle.clone()),
            author: (!m.author.is_empty()).then(|| m.author.clone()),
            back_text: c.back_text.clone(),
            front_image: c.front_image.as_ref().map(|p| l.dir.join(p)),
            back_image: c.back_image.as_ref().map(|p| l.dir.join(p)),
            background: c.background.clone(),
            text_colour: c.text_colour.clone(),
            spine_text: c.spine_text,
        };
        let made = cover::cover(&spec, &l.trim, m.paper, pages, &opts)
            .map_err(|e| UsageError(format!("{}: cover: {e:#}", l.name)))?;
        problems.extend(made.problems.iter().filter(|p| !problems.contains(p)).cloned().collect::<Vec<_>>());
        Some(made)
    } else {
        None
    };
    let puzzles = book_.sections.iter().map(|s| s.items.len()).sum();
    Ok(Built { interior, pages, booklet, cover, problems, puzzles })
}

fn paper_name(p: Paper) -> &'static str {
    match p {
        Paper::White => "white",
        Paper::Cream => "cream",
        Paper::Color => "color",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A book of any registered kind has its name for headings and its how-to-play page, in
    /// every built-in language (Futoshiki and Skyscrapers books had neither: their headings read
    /// "futoshiki, Hard" and their how-to-play pages were left out).
    #[test]
    fn every_kind_has_its_name_and_how_to_play_in_every_language() {
        struct Manifest;
        impl KindVisitor for Manifest {
            type Output = serde_json::Value;
            fn visit<K: Kind>(self) -> serde_json::Value {
                serde_json::json!({ "kind": K::KEY, "parameters": K::Params::default() })
            }
        }
        for &lang in Strings::BUILTIN {
            let (s, _) = Strings::load(lang, None).unwrap();
            for &kind in KindId::ALL {
                let (keys, name) = how_to_keys(kind, &kind.visit(Manifest));
                assert_ne!(s.kind_name(&name), name, "{lang}: no name for {}", kind.key());
                for (key, args) in keys {
                    let args: Vec<(&str, &str)> = args.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
                    let h = s.how_to_play(&key, &args).unwrap_or_else(|| panic!("{lang}: no how-to-play for {key}"));
                    let all = [h.title, h.text.join(" "), h.tip.unwrap_or_default()].join(" ");
                    assert!(!all.contains(['{', '}']), "{lang} {key}: a placeholder left: {all}");
                }
            }
        }
    }
}
