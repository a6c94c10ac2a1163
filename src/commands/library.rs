//! `library`: import book folders, select and reserve puzzles, release books, list books and
//! statistics. The names a user gives (kinds, grades, techniques, dates) are checked here
//! against the kinds' own lists, so that the library itself knows nothing of the kinds.

use crate::book::outdir::OutDir;
use crate::cli::{LibraryAction, QueryFormat, Selection};
use crate::config::UsageError;
use crate::grade::Grade;
use crate::kinds::{Kind, KindId, KindVisitor};
use crate::library::select::{Book, Filter, Picked, Use};
use crate::library::{self, Library};
use crate::rate::Technique;
use anyhow::{Context as _, Result};
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

pub fn run(action: LibraryAction, kind: KindId, quiet: bool) -> Result<ExitCode> {
    match action {
        LibraryAction::Import { dirs, library } => {
            let mut lib = Library::open(&library.library, true)?;
            let bar = super::book::bar(0, quiet, "puzzles read");
            let started = std::time::Instant::now();
            let added = lib.import(&dirs, |n| bar.set_position(n))?;
            bar.finish_and_clear();
            lib.checkpoint()?;
            let secs = started.elapsed().as_secs_f64();
            println!(
                "{} puzzle(s) read from {} folder(s), {} added, {} already in the library {} ({:.1} s, {:.0} a second)",
                added.read,
                dirs.len(),
                added.added,
                added.read - added.added,
                lib.name(),
                secs,
                added.read as f64 / secs.max(1e-9)
            );
            Ok(ExitCode::SUCCESS)
        }
        LibraryAction::Query { select, count, format, out, force, reserve, title, isbn, date, library } => {
            let filter = filter(kind, &select)?;
            let date = match date {
                Some(d) if !library::is_date(&d) => {
                    return Err(UsageError(format!("--date {d}: give a date as YYYY-MM-DD")).into())
                }
                Some(d) => d,
                None => library::today(),
            };
            let mut lib = Library::open(&library.library, false)?;
            let picked = match (&reserve, count) {
                (Some(name), Some(n)) => {
                    if name.trim().is_empty() {
                        return Err(UsageError("--reserve: give the book a name".into()).into());
                    }
                    let book = Book {
                        name: name.clone(),
                        title: title.unwrap_or_else(|| name.clone()),
                        isbn,
                        date,
                        plan: format!("library query: {}", describe(&filter, n)),
                    };
                    let (mut got, _) = lib.reserve(&book, &[Some((filter.clone(), n))], true)?;
                    got.remove(0)
                }
                (None, Some(n)) if out.is_some() || format != QueryFormat::Counts => Some(lib.select(&filter, n)?),
                _ => None,
            };
            if let (Some(dir), Some(picked)) = (&out, &picked) {
                if picked.is_empty() {
                    return Err(UsageError("no puzzle matches: nothing was written".into()).into());
                }
                write_folder(dir, force, picked, lib.name(), &describe(&filter, picked.len()), reserve.as_deref())?;
                if !quiet {
                    eprintln!("{} puzzle(s) written to {}", picked.len(), dir.display());
                }
                if let Some(name) = &reserve {
                    eprintln!("recorded as used by book \"{name}\" in {}", lib.name());
                }
                return Ok(ExitCode::SUCCESS);
            }
            let mut stdout = std::io::stdout().lock();
            match (format, picked) {
                (QueryFormat::Jsonl | QueryFormat::Ids, Some(p)) => lines(&mut stdout, &p, format)?,
                // Every match (no --count), a page at a time.
                (QueryFormat::Jsonl | QueryFormat::Ids, None) => {
                    lib.select_all(&filter, |page| Ok(lines(&mut stdout, page, format)?))?
                }
                (QueryFormat::Counts, Some(p)) => {
                    writeln!(
                        stdout,
                        "{} puzzle(s) recorded as used by book \"{}\"",
                        p.len(),
                        reserve.unwrap_or_default()
                    )?;
                }
                (QueryFormat::Counts, None) => {
                    let counts = lib.count(&filter)?;
                    writeln!(stdout, "{:<15} {:<8} {:<8} {:>10}", "kind", "shape", "grade", "puzzles")?;
                    for c in &counts {
                        writeln!(stdout, "{:<15} {:<8} {:<8} {:>10}", c.kind, c.shape, c.grade, c.puzzles)?;
                    }
                    writeln!(
                        stdout,
                        "{:<15} {:<8} {:<8} {:>10}",
                        "total",
                        "",
                        "",
                        counts.iter().map(|c| c.puzzles).sum::<i64>()
                    )?;
                }
            }
            stdout.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        LibraryAction::Release { name, library } => {
            let mut lib = Library::open(&library.library, false)?;
            let n = lib.release(&name)?;
            println!("book \"{name}\" released: its {n} puzzle(s) are free again");
            Ok(ExitCode::SUCCESS)
        }
        LibraryAction::Books { name, library } => {
            let mut lib = Library::open(&library.library, false)?;
            let mut stdout = std::io::stdout().lock();
            match name {
                Some(name) => {
                    let rows = lib.book_puzzles(&name)?;
                    if rows.is_empty() && !lib.books()?.iter().any(|(b, _)| b.name == name) {
                        return Err(UsageError(format!("library {} holds no book \"{name}\"", lib.name())).into());
                    }
                    writeln!(stdout, "section\tnumber\tid")?;
                    for (s, n, id) in rows {
                        writeln!(stdout, "{}\t{n}\t{id}", s + 1)?;
                    }
                }
                None => {
                    writeln!(stdout, "date\tpuzzles\tisbn\tname\ttitle")?;
                    for (b, n) in lib.books()? {
                        writeln!(stdout, "{}\t{n}\t{}\t{}\t{}", b.date, b.isbn, b.name, b.title)?;
                    }
                }
            }
            stdout.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        LibraryAction::Stats { library } => {
            let mut lib = Library::open(&library.library, false)?;
            let rows = lib.stats()?;
            let (puzzles, uses, books) = lib.totals()?;
            let mut stdout = std::io::stdout().lock();
            writeln!(
                stdout,
                "{:<15} {:<8} {:<8} {:>10} {:>10} {:>10}",
                "kind", "shape", "grade", "puzzles", "used", "unused"
            )?;
            for (k, s, g, n, used) in &rows {
                writeln!(stdout, "{k:<15} {s:<8} {g:<8} {n:>10} {used:>10} {:>10}", n - used)?;
            }
            let used: i64 = rows.iter().map(|r| r.4).sum();
            writeln!(stdout, "{:<15} {:<8} {:<8} {puzzles:>10} {used:>10} {:>10}", "total", "", "", puzzles - used)?;
            writeln!(stdout, "{books} book(s) drawn from the library, holding {uses} puzzle(s)")?;
            stdout.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        LibraryAction::Check { library } => {
            let mut lib = Library::open(&library.library, false)?;
            let r = lib.integrity()?;
            println!("{}: {r}", lib.name());
            Ok(if r == "ok" { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
    }
}

/// The library kinds `--kind` (and `--shape`) select: the Sudoku family is kind
/// `sudoku-family` in the library, as in its books' manifests; classic 9×9 is `sudoku`.
pub fn library_kinds(kind: KindId, shape: Option<&str>) -> Vec<KindId> {
    match (kind, shape) {
        (KindId::Sudoku, Some("9")) => vec![KindId::Sudoku],
        (KindId::Sudoku, Some(_)) => vec![KindId::SudokuFamily],
        (KindId::Sudoku, None) => vec![KindId::Sudoku, KindId::SudokuFamily],
        (k, _) => vec![k],
    }
}

/// Technique names and levels of a kind.
fn techniques(kind: KindId) -> Vec<(&'static str, u8)> {
    struct T;
    impl KindVisitor for T {
        type Output = Vec<(&'static str, u8)>;
        fn visit<K: Kind>(self) -> Self::Output {
            K::Tech::ALL.iter().map(|t| (t.name(), t.level())).collect()
        }
    }
    kind.visit(T)
}

/// A selection as the command line gives it, its names checked.
pub fn filter(kind: KindId, s: &Selection) -> Result<Filter, UsageError> {
    let kinds = library_kinds(kind, s.shape.as_deref());
    let known: Vec<(&str, u8)> = kinds.iter().flat_map(|&k| techniques(k)).collect();
    let level = |flag: &str, t: &str| -> Result<u8, UsageError> {
        known.iter().find(|(n, _)| *n == t).map(|(_, l)| *l).ok_or_else(|| {
            let mut names: Vec<&str> = known.iter().map(|(n, _)| *n).collect();
            names.dedup();
            UsageError(format!(
                "--{flag} {t}: unknown technique of {}; the techniques are {}",
                kinds[0].key(),
                names.join(", ")
            ))
        })
    };
    let mut f = Filter {
        kinds: kinds.iter().map(|k| k.key().to_string()).collect(),
        shape: s.shape.clone(),
        min_steps: s.min_steps,
        max_steps: s.max_steps,
        ..Filter::default()
    };
    for g in &s.grades {
        let g = Grade::from_name(g).ok_or_else(|| {
            UsageError(format!("--grade {g}: unknown grade; the grades are easy, medium, hard, expert"))
        })?;
        f.grades.push(g.name().to_string());
    }
    for t in &s.uses {
        level("uses", t)?;
        f.uses.push(t.clone());
    }
    for t in &s.needs {
        let l = level("needs", t)?;
        f.needs.push((t.clone(), i64::from(l)));
    }
    let levels: Vec<i64> = f.needs.iter().map(|n| n.1).collect();
    if levels.windows(2).any(|w| w[0] != w[1]) {
        return Err(UsageError(
            "--needs: the techniques are of different levels, and a puzzle's hardest level is one".into(),
        ));
    }
    if let (Some(a), Some(b)) = (s.min_steps, s.max_steps) {
        if a > b {
            return Err(UsageError(format!("--min-steps {a} is above --max-steps {b}")));
        }
    }
    f.used = match (&s.unused, &s.unused_since) {
        (_, Some(d)) if !library::is_date(d) => {
            return Err(UsageError(format!("--unused-since {d}: give a date as YYYY-MM-DD")));
        }
        (_, Some(d)) => Use::NotSince(d.clone()),
        (true, None) => Use::Never,
        (false, None) => Use::Any,
    };
    Ok(f)
}

/// A selection in words, for the book's record and the folder's manifest.
pub fn describe(f: &Filter, n: usize) -> String {
    let mut parts = vec![format!("{n} of kind {}", f.kinds.join("|"))];
    if let Some(s) = &f.shape {
        parts.push(format!("shape {s}"));
    }
    if !f.grades.is_empty() {
        parts.push(format!("grade {}", f.grades.join(",")));
    }
    if let Some(v) = f.min_steps {
        parts.push(format!("steps >= {v}"));
    }
    if let Some(v) = f.max_steps {
        parts.push(format!("steps <= {v}"));
    }
    if !f.uses.is_empty() {
        parts.push(format!("using {}", f.uses.join(",")));
    }
    if !f.needs.is_empty() {
        parts.push(format!("needing {}", f.needs.iter().map(|n| n.0.as_str()).collect::<Vec<_>>().join(",")));
    }
    match &f.used {
        Use::Any => {}
        Use::Never => parts.push("unused".into()),
        Use::NotSince(d) => parts.push(format!("unused since {d}")),
    }
    parts.join(", ")
}

/// The picked puzzles' one kind and parameters; several are refused (a book folder is of one
/// kind and board).
pub fn one_board(picked: &[Picked]) -> Result<(KindId, serde_json::Value), UsageError> {
    let first = &picked[0];
    if let Some(other) = picked.iter().find(|p| p.kind != first.kind || p.shape != first.shape) {
        return Err(UsageError(format!(
            "the selection holds puzzles of {} {} and of {} {}: a book folder is of one kind and board; narrow it with \
             --shape",
            first.kind, first.shape, other.kind, other.shape
        )));
    }
    let kind = KindId::from_key(&first.kind).ok_or_else(|| {
        UsageError(format!("the library holds puzzles of kind {}, which this version does not know", first.kind))
    })?;
    let params = serde_json::from_str(&first.params).unwrap_or(serde_json::Value::Null);
    Ok((kind, params))
}

/// Write picked puzzles as a book folder `dir` (manifest.json, puzzles.jsonl and
/// book-<grade>.json), through a staging folder as generate's books are.
pub fn write_folder(
    dir: &Path,
    force: bool,
    picked: &[Picked],
    lib: &str,
    what: &str,
    book: Option<&str>,
) -> Result<()> {
    let (kind, params) = one_board(picked)?;
    let marker = serde_json::to_vec_pretty(&json!({"program": "puzzle-factory", "library query": what}))?;
    let out = OutDir::open(dir, force, &marker, false)?;
    let staging = out.staging().to_path_buf();
    let manifest = json!({
        "program": "puzzle-factory",
        "version": env!("CARGO_PKG_VERSION"),
        "kind": kind.key(),
        "parameters": params,
        "count": picked.len(),
        "library": {"file": library::redact(lib), "query": what, "book": book},
    });
    let mut jsonl = String::new();
    let mut grades: Vec<Vec<&str>> = vec![Vec::new(); 4];
    for p in picked {
        jsonl.push_str(&p.record);
        jsonl.push('\n');
        grades[p.grade.min(3)].push(&p.record);
    }
    let write = |name: &str, bytes: &[u8]| -> Result<()> {
        crate::book::outdir::write_synced(&staging.join(name), bytes).with_context(|| format!("writing {name}"))
    };
    write("puzzles.jsonl", jsonl.as_bytes())?;
    for g in Grade::ALL {
        let list = &grades[g.index()];
        let body = if list.is_empty() { "[]\n".to_string() } else { format!("[\n{}\n]\n", list.join(",\n")) };
        write(&format!("book-{}.json", g.name()), body.as_bytes())?;
    }
    let mut m = serde_json::to_vec_pretty(&manifest)?;
    m.push(b'\n');
    write("manifest.json", &m)?;
    let sealed = serde_json::to_vec_pretty(
        &json!({"program": "puzzle-factory", "library query": what, "finished": {"code": 0}}),
    )?;
    out.commit(&sealed)
}

/// The puzzles' records (`--format jsonl`) or ids (`--format ids`), a line each.
fn lines(out: &mut impl Write, page: &[Picked], format: QueryFormat) -> std::io::Result<()> {
    for x in page {
        writeln!(out, "{}", if format == QueryFormat::Ids { &x.id } else { &x.record })?;
    }
    Ok(())
}
