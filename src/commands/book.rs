//! `book`: a generated (or merged) book folder printed as one PDF, or as one SVG per puzzle and
//! per solution. The kind comes from the folder's manifest; each kind draws its own grid
//! (`Kind::draw`), `print::layout` places the grids on pages and `print::pdf` writes the PDF.

use crate::book::atomic::AtomicFile;
use crate::book::layout::{self as files, Books, Layout};
use crate::commands::explain::step_text;
use crate::config::UsageError;
use crate::grade::Grade;
use crate::kinds::{Kind, KindId, KindVisitor};
use crate::print::kdp::Trim;
use crate::print::layout::{self, Answers, Item, Matter, Options, Section, Style, WorkedStep};
use crate::print::strings::Strings;
use crate::print::{self, Drawing};
use crate::rate::{PathStep, Trace};
use anyhow::{Context as _, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::io::{BufRead, IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The flags of `book --in` that shape its pages.
pub struct Print {
    pub trim: Trim,
    pub per_page: usize,
    pub large_print: bool,
    pub solutions: Answers,
    pub title: String,
    pub bleed: bool,
}

pub struct Args {
    pub input: PathBuf,
    pub out: PathBuf,
    pub grades: Vec<Grade>,
    pub print: Print,
    pub quiet: bool,
    /// Worked solutions for the first `worked` puzzles of each grade.
    pub worked: usize,
    pub hints: bool,
}

/// One record of the book, as `book` needs it.
pub(super) struct Record {
    /// Where it was read: `puzzles.jsonl line 4`.
    pub at: String,
    pub id: String,
    pub grade: Grade,
    pub puzzle: String,
    pub solution: serde_json::Value,
}

pub fn book(a: Args) -> Result<ExitCode> {
    check_title(&a.print.title, "--title")?;
    let svg_dir = a.out.as_os_str().to_string_lossy().ends_with('/') || a.out.is_dir();
    if !svg_dir && a.out.extension().is_none_or(|e| !e.eq_ignore_ascii_case("pdf")) {
        return Err(UsageError(format!(
            "--out {}: give a file ending in .pdf for a PDF book, or a folder ending in / for SVG files",
            a.out.display()
        ))
        .into());
    }
    let (kind, _) = manifest(&a.input, "--in")?;
    check_out(&a.input, &a.out, svg_dir)?;
    struct Go(Args, bool);
    impl KindVisitor for Go {
        type Output = Result<ExitCode>;
        fn visit<K: Kind>(self) -> Result<ExitCode> {
            print_book::<K>(self.0, self.1)
        }
    }
    kind.visit(Go(a, svg_dir))
}

/// A book folder's kind and manifest; `what` names the folder in errors (`--in`, a plan's
/// section).
pub(super) fn manifest(dir: &Path, what: &str) -> Result<(KindId, serde_json::Value), UsageError> {
    let path = dir.join("manifest.json");
    let bytes = std::fs::read(&path).map_err(|e| UsageError(format!("{what} {}: {e}", path.display())))?;
    let manifest: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    let name = manifest["kind"].as_str().unwrap_or_default().to_string();
    let kind =
        KindId::from_key(&name).ok_or_else(|| UsageError(format!("{}: unknown kind '{name}'", path.display())))?;
    Ok((kind, manifest))
}

/// A title (or other one-line text) goes into SVG text and the PDF's metadata: a control
/// character is refused, naming `what` (XML cannot hold most of them, and a tab or line break
/// would be folded into a space), as are U+FFFE and U+FFFF, which XML cannot hold either.
pub(super) fn check_title(title: &str, what: &str) -> Result<(), UsageError> {
    let bad = |c: char| c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}');
    match title.chars().enumerate().find(|&(_, c)| bad(c)) {
        Some((i, c)) => Err(UsageError(format!(
            "{what}: character {} is the control character U+{:04X}: a title is one line of printable text",
            i + 1,
            c as u32
        ))),
        None => Ok(()),
    }
}

/// The output may not be the book folder or lie inside it (600 SVG files among the book's own,
/// or a PDF there, which the next `generate --force` would refuse as a file not the program's);
/// an SVG folder that is a symbolic link is refused rather than written through. (A PDF at a
/// link replaces the link: `AtomicFile` renames over it.)
fn check_out(input: &Path, out: &Path, svg_dir: bool) -> Result<(), UsageError> {
    // Without a trailing `/`, so that a link is seen as the link.
    let plain: PathBuf = out.components().collect();
    if svg_dir && std::fs::symlink_metadata(&plain).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(UsageError(format!(
            "--out {}: the SVG folder is a symbolic link; give the folder itself (files are never written through a \
             link)",
            out.display()
        )));
    }
    let (Ok(book), Some(at)) = (input.canonicalize(), location(&plain)) else { return Ok(()) };
    if at.starts_with(&book) {
        let place = if at == book { "the book folder" } else { "inside the book folder" };
        let what = if svg_dir { "SVG files" } else { "PDF" };
        return Err(UsageError(format!(
            "--out {} is {place} --in {}: write the {what} elsewhere",
            out.display(),
            input.display()
        )));
    }
    Ok(())
}

/// Where `p` would be written: its folder with links, `.` and `..` resolved as far as it
/// exists (the rest taken as named), then its own last name, not followed.
fn location(p: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(p).ok()?;
    let (mut dir, name) = match abs.file_name() {
        Some(name) => (abs.parent()?.to_path_buf(), Some(name.to_owned())),
        None => (abs.clone(), None), // ends in `..` (or is `/`): a folder, resolved whole
    };
    let mut rest = Vec::new();
    while !dir.exists() {
        rest.push(dir.components().next_back()?.as_os_str().to_owned());
        dir.pop();
    }
    let mut at = dir.canonicalize().ok()?;
    for c in rest.iter().rev() {
        match c.to_str() {
            Some("..") => {
                at.pop();
            }
            Some(".") => {}
            _ => at.push(c),
        }
    }
    at.extend(name);
    Some(at)
}

/// The book's records: from `puzzles.jsonl`, or in a book kept as CSV only (`--books csv`)
/// from `puzzles.csv`, either plain or zstd-compressed (`.zst`).
pub(super) fn read_records(dir: &Path) -> Result<Vec<Record>> {
    if let Some(path) = files::find(dir, "puzzles.jsonl") {
        return read_jsonl(&path);
    }
    if let Some(path) = files::find(dir, "puzzles.csv") {
        return read_csv(&path);
    }
    let books = manifest(dir, "--in").ok().and_then(|(_, m)| Layout::of_manifest(&m, "").ok()).map(|l| l.books);
    let why = if books == Some(Books::None) {
        "it was made with --books none, which keeps the puzzles in a library, not in the folder"
    } else {
        "no puzzles.jsonl or puzzles.csv (plain or .zst) in it"
    };
    Err(UsageError(format!("--in {}: {why}", dir.display())).into())
}

/// A file's name for messages (`puzzles.csv.zst line 4: ...`).
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

fn read_jsonl(path: &Path) -> Result<Vec<Record>> {
    let f = files::open(path).map_err(|e| UsageError(format!("--in {}: {e}", path.display())))?;
    let name = file_name(path);
    let mut out = Vec::new();
    let shown = path.display().to_string();
    for (i, line) in f.lines().enumerate() {
        let line = line.with_context(|| format!("{}: line {}", path.display(), i + 1))?;
        let line = if i == 0 { super::lines::without_bom(&line) } else { line.as_str() };
        out.extend(parse_record(line, i + 1, &shown, &name)?);
    }
    Ok(out)
}

/// One record line (`puzzles.jsonl`'s, or the library's), line `n` of `source` (`name` in
/// short, for the record's place); None when blank.
pub(super) fn parse_record(line: &str, n: usize, source: &str, name: &str) -> Result<Option<Record>, UsageError> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    let bad = |what: &str| UsageError(format!("{source}: line {n}: {what}"));
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
    let grade = v["grade"].as_str().and_then(Grade::from_name);
    let puzzle = match &v["puzzle"] {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => return Err(bad("no puzzle")),
        other => other.to_string(),
    };
    Ok(Some(Record {
        at: format!("{name} line {n}"),
        id: v["id"].as_str().ok_or_else(|| bad("no id"))?.to_string(),
        grade: grade.ok_or_else(|| bad("no grade"))?,
        puzzle,
        solution: v["solution"].clone(),
    }))
}

/// The records of a book's `puzzles.csv`: the columns `id`, `grade`, `puzzle` and `solution`
/// by their header names; a solution written as JSON (a grid's rows) is read as JSON.
fn read_csv(path: &Path) -> Result<Vec<Record>> {
    let f = files::open(path).map_err(|e| UsageError(format!("--in {}: {e}", path.display())))?;
    let name = file_name(path);
    let mut r = csv::Reader::from_reader(f);
    let header = r.headers().with_context(|| format!("reading {}", path.display()))?.clone();
    let col = |want: &str| {
        header.iter().position(|h| h.trim_start_matches('\u{feff}') == want).ok_or_else(|| {
            UsageError(format!("{}: line 1: no column {want}: not a book's puzzles.csv", path.display()))
        })
    };
    let (id, grade, puzzle, solution) = (col("id")?, col("grade")?, col("puzzle")?, col("solution")?);
    let mut out = Vec::new();
    for row in r.records() {
        let row = row.map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
        let line = row.position().map_or(0, |p| p.line());
        let bad = |what: &str| UsageError(format!("{}: line {line}: {what}", path.display()));
        let field = |i: usize, what: &str| row.get(i).filter(|s| !s.is_empty()).ok_or_else(|| bad(what));
        let text = field(solution, "no solution")?;
        let solution = if text.starts_with('[') {
            serde_json::from_str(text).map_err(|e| bad(&format!("solution: {e}")))?
        } else {
            serde_json::Value::String(text.to_string())
        };
        out.push(Record {
            at: format!("{name} line {line}"),
            id: field(id, "no id")?.to_string(),
            grade: Grade::from_name(field(grade, "no grade")?).ok_or_else(|| bad("unknown grade"))?,
            puzzle: field(puzzle, "no puzzle")?.to_string(),
            solution,
        });
    }
    Ok(out)
}

pub(super) fn bar(len: u64, quiet: bool, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        let t = format!("{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {what}");
        bar.set_style(ProgressStyle::with_template(&t).expect("valid template"));
    }
    bar
}

fn print_book<K: Kind>(a: Args, svg_dir: bool) -> Result<ExitCode> {
    let records = read_records(&a.input)?;
    let grades: Vec<Grade> = if a.grades.is_empty() { Grade::ALL.to_vec() } else { a.grades.clone() };
    let chosen: Vec<&Record> = grades.iter().flat_map(|g| records.iter().filter(move |r| r.grade == *g)).collect();
    if chosen.is_empty() {
        return Err(UsageError(format!(
            "--in {}: no puzzle of grade {} in the book",
            a.input.display(),
            grades.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ")
        ))
        .into());
    }
    // The position of each chosen record within its grade, for `--worked`.
    let mut seen = [0usize; 4];
    let rank: Vec<usize> = chosen
        .iter()
        .map(|r| {
            seen[r.grade.index()] += 1;
            seen[r.grade.index()] - 1
        })
        .collect();
    type Drawn = (Drawing, Drawing, Option<String>, Option<Vec<WorkedStep>>);
    let drawn: Vec<Drawn> = chosen
        .par_iter()
        .zip(&rank)
        .map(|(r, &rank)| {
            let at = |e: String| anyhow::anyhow!("{}: {e}", r.at);
            let p = K::parse(&r.puzzle, &K::Params::default()).map_err(at)?;
            let digits = print::solution_digits(&r.solution).map_err(at)?;
            let puzzle = K::draw(&p, None);
            let (hint, worked) = if a.hints || rank < a.worked {
                let path = solution_path::<K>(&p).map_err(at)?;
                let hint = a.hints.then(|| first_hint(&path));
                let worked = (rank < a.worked).then(|| worked_steps(&puzzle, &path));
                (hint, worked)
            } else {
                (None, None)
            };
            Ok((puzzle, K::draw(&p, Some(&digits)), hint, worked))
        })
        .collect::<Result<_>>()?;
    if svg_dir {
        let drawn = drawn.into_iter().map(|(p, s, _, _)| (p, s)).collect();
        return write_svgs(&a, &chosen, drawn);
    }
    let p = &a.print;
    let mut sections: Vec<Section> = Vec::new();
    for (k, (r, (puzzle, solution, hint, worked))) in chosen.iter().zip(drawn).enumerate() {
        let item = Item { number: k + 1, id: r.id.clone(), puzzle, solution, hint, worked };
        match sections.last_mut() {
            Some(s) if s.name == r.grade.name() => s.items.push(item),
            _ => sections.push(Section {
                name: r.grade.name().to_string(),
                items: vec![item],
                per_page: p.per_page,
                heading: false,
                intro: Vec::new(),
                divider: false,
                how_to: None,
            }),
        }
    }
    let book = layout::Book { front: vec![Matter::Contents], sections, back: Vec::new(), booklet: Vec::new() };
    let options = Options {
        trim: p.trim.clone(),
        large_print: p.large_print,
        answers: p.solutions,
        title: p.title.clone(),
        author: String::new(),
        bleed: p.bleed,
        style: Style::new(print::FONT_FAMILY, p.large_print),
        margin: if p.large_print { 0.75 } else { 0.5 },
        inside: None,
        measure: print::Measure::new(&print::pdf::svg_options()),
    };
    let (strings, _) = Strings::load("en", None)?;
    let laid = layout::pages(&options, &book, &strings).map_err(UsageError)?;
    let floor = if p.large_print { layout::MIN_TEXT_LARGE } else { layout::MIN_TEXT };
    let per = laid.per_page.iter().copied().min().unwrap_or(p.per_page);
    if per < p.per_page {
        eprintln!(
            "note: {per} grid(s) a page instead of {}: with more, the clues would be set under {floor} pt",
            p.per_page
        );
    }
    let smallest = laid.smallest.iter().copied().fold(f64::INFINITY, f64::min);
    if smallest < floor {
        eprintln!(
            "note: the largest grid's clues come out at {smallest:.1} pt even one to a page, under the {floor} pt \
             that reads well: a larger --trim prints them bigger"
        );
    }
    let progress = bar((laid.pages.len() + laid.booklet.len()) as u64, a.quiet, "pages");
    let pdf = print::pdf::render(&laid.pages, &p.title, || progress.inc(1))?;
    let booklet = if laid.booklet.is_empty() {
        None
    } else {
        Some(print::pdf::render(&laid.booklet, &p.title, || progress.inc(1))?)
    };
    progress.finish_and_clear();
    let mut outputs: Vec<(PathBuf, &[u8], String)> = Vec::new();
    if let Some(booklet) = &booklet {
        let (_, file) = split_path(&a.out)?;
        outputs.push((a.out.with_file_name(answers_name(&file)), booklet, format!("{} pages", laid.booklet.len())));
    }
    outputs.push((a.out.clone(), &pdf, format!("{} puzzles, {} pages", chosen.len(), laid.pages.len())));
    write_together(&outputs)?;
    Ok(ExitCode::SUCCESS)
}

/// Files (path, bytes, what they hold) each written and synced under a scratch name before the
/// first is renamed into place, so a crash leaves the old set or the new (or, between two
/// renames, part of the new beside the old); never half a file. Errors name the file.
pub(super) fn write_together(files: &[(PathBuf, &[u8], String)]) -> Result<()> {
    let mut staged = Vec::new();
    for (path, bytes, what) in files {
        let (dir, file) = split_path(path)?;
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let mut f = AtomicFile::create(&dir, &file)?;
        f.writer().write_all(bytes).map_err(|e| crate::book::atomic::named(e, path))?;
        f.ready()?;
        staged.push((f, path, what));
    }
    for (f, path, what) in staged {
        f.commit()?;
        eprintln!("wrote {} ({what})", path.display());
    }
    Ok(())
}

/// The rater's path of a book's puzzle (solved again: the record holds its solution only as
/// digits).
fn solution_path<K: Kind>(p: &K::Puzzle) -> Result<Vec<PathStep>, String> {
    let s = super::lines::unique_solution::<K>(p)?;
    let mut trace = Trace { path: Some(Vec::new()), ..Trace::default() };
    if !K::rate(p, &s, Some(&mut trace)).solved {
        return Err("the rater could not finish this puzzle".into());
    }
    Ok(trace.path.unwrap_or_default())
}

/// The first step beyond level 1, as text; or that singles solve it.
fn first_hint(path: &[PathStep]) -> String {
    match path.iter().find(|s| s.level > 1) {
        Some(s) => step_text(s),
        None => "singles solve it".into(),
    }
}

/// A path as worked-solution entries: runs of level-1 steps as one line of text (placements
/// `r1c2=5`, removals `r3c8≠1,2`), every other step with a diagram (the puzzle's grid with the
/// digits placed so far in grey, the cells the step rests on shaded light and the cells it
/// changes darker).
fn worked_steps(grid: &Drawing, path: &[PathStep]) -> Vec<WorkedStep> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < path.len() {
        let start = i;
        while i < path.len() && path[i].level == 1 {
            i += 1;
        }
        if i > start {
            let list: Vec<String> = path[start..i].iter().map(level1_text).collect();
            let (what, range) = if i - start == 1 {
                ("Step", format!("{}", start + 1))
            } else {
                ("Steps", format!("{}\u{2013}{}", start + 1, i))
            };
            out.push(WorkedStep { text: format!("{what} {range}, level 1: {}", list.join(", ")), diagram: None });
            continue;
        }
        let s = &path[i];
        let mut d = Drawing { body: String::new(), ..grid.clone() };
        let (x0, y0) = grid.grid_at;
        for &[r, c] in &s.cells {
            d.rect(x0 + c as f64, y0 + r as f64, 1.0, 1.0, "#dcdcdc");
        }
        for &[r, c, _] in s.place.iter().chain(&s.remove) {
            d.rect(x0 + c as f64, y0 + r as f64, 1.0, 1.0, "#a8a8a8");
        }
        d.body.push_str(&grid.body);
        // The digits placed so far, in grey beside the black givens.
        for &[r, c, digit] in path[..i].iter().flat_map(|s| &s.place) {
            let (x, y) = (x0 + c as f64 + 0.5, y0 + r as f64 + 0.72);
            d.text(x, y, 0.62, "middle", "digit", (r, c), "#707070", &digit.to_string());
        }
        out.push(WorkedStep { text: format!("Step {}: {}", i + 1, step_text(s)), diagram: Some(d) });
        i += 1;
    }
    out
}

/// A level-1 step in a few characters: `r1c2=5`, or `r3c8≠1,2` per cell it removes from.
fn level1_text(s: &PathStep) -> String {
    let name = |r: usize, c: usize| format!("r{}c{}", r + 1, c + 1);
    if let Some(&[r, c, d]) = s.place.first() {
        return format!("{}={d}", name(r, c));
    }
    let mut cells: Vec<(usize, usize)> = s.remove.iter().map(|x| (x[0], x[1])).collect();
    cells.dedup();
    let parts: Vec<String> = cells
        .iter()
        .map(|&(r, c)| {
            let ds: Vec<String> =
                s.remove.iter().filter(|x| (x[0], x[1]) == (r, c)).map(|x| x[2].to_string()).collect();
            format!("{}\u{2260}{}", name(r, c), ds.join(","))
        })
        .collect();
    parts.join(" ")
}

/// The answer booklet's file name beside a book's: `book.pdf` → `book-answers.pdf`.
pub(super) fn answers_name(file: &str) -> String {
    match file.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}-answers.{ext}"),
        None => format!("{file}-answers.pdf"),
    }
}

pub(super) fn split_path(p: &Path) -> Result<(PathBuf, String)> {
    let file = p.file_name().context("--out has no file name")?.to_string_lossy().into_owned();
    let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    Ok((dir, file))
}

/// One SVG per puzzle (`<id>.svg`) and per solution (`<id>-solution.svg`), 28 pt a cell.
fn write_svgs(a: &Args, chosen: &[&Record], drawn: Vec<(Drawing, Drawing)>) -> Result<ExitCode> {
    std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let progress = bar(chosen.len() as u64, a.quiet, "puzzles");
    chosen.par_iter().zip(drawn).try_for_each(|(r, (puzzle, solution))| -> Result<()> {
        let name = r.id.replace(['/', '\\'], "_");
        AtomicFile::write_all(&a.out, &format!("{name}.svg"), puzzle.to_svg(28.0, 0.25).as_bytes())?;
        if a.print.solutions != Answers::None {
            AtomicFile::write_all(&a.out, &format!("{name}-solution.svg"), solution.to_svg(28.0, 0.25).as_bytes())?;
        }
        progress.inc(1);
        Ok(())
    })?;
    progress.finish_and_clear();
    eprintln!(
        "wrote {} SVG files into {}",
        chosen.len() * if a.print.solutions != Answers::None { 2 } else { 1 },
        a.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
