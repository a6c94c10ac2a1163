//! `rate` and `solve`: one puzzle per input line, CSV to stdout, in input order.
//!
//! Lines are processed in parallel in ordered chunks. Blank lines and lines starting with `#`
//! are skipped, and so is a byte order mark at the start of the input. A bad line is reported
//! on stderr as `line N: <what is wrong>`; the others are still processed, and the exit code
//! is then 1. Bad lines include lines that are not UTF-8. A line over `MAX_LINE` bytes or
//! holding a NUL byte ends the input there (reported as its line; the lines before it are
//! processed): such an input is not puzzle text, and it may never end (`/dev/zero`), so it is
//! neither held whole nor read on. An input that cannot be opened (missing, a directory) is a
//! usage error; a read error stops the run once. A failed write of the output names standard
//! output (a broken pipe is left to `main`, which ends quietly).

use crate::book::record::{self, round_steps};
use crate::config::{RunConfig, UsageError};
use crate::kinds::Kind;
use crate::rate::Technique;
use anyhow::{Context as _, Result};
use rayon::prelude::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::ExitCode;

const CHUNK: usize = 4096;

/// The longest input line read, in bytes: a 1000×1000 Kakuro, the largest board read, is about
/// 5 MB as a JSON line (9 MB if every cell held two clues); most puzzle lines are a few
/// kilobytes. A longer line ends the input (`read_line_into`).
pub const MAX_LINE: usize = 16 << 20;

/// The largest `.dzn` file read (one puzzle spread over many lines): a 1000×1000 Kakuro is
/// 10 to 20 MB in either syntax.
const MAX_DZN: u64 = 64 << 20;

/// A numbered input record: its text, or what makes it unusable (too long, not UTF-8).
pub(crate) type Numbered = (usize, Result<String, String>);
/// Records in order; an `Err` is a read error that ends the input.
pub(crate) type Records = Box<dyn Iterator<Item = std::io::Result<Numbered>>>;

/// Lines of a reader, numbered from 1, each at most `MAX_LINE` bytes. After a read error, a line
/// too long or a NUL byte it ends (a directory or a failing disk would otherwise give the same
/// error forever; `/dev/zero` one endless line).
struct Lines<R> {
    reader: R,
    line: usize,
    done: bool,
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = std::io::Result<Numbered>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match read_line(&mut self.reader) {
            Ok(Some(text)) => {
                self.line += 1;
                self.done = matches!(&text, Err(e) if e.ends_with(STOPS));
                Some(Ok((self.line, text)))
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// One line without its end (`\n` or `\r\n`), or what makes it unusable; `Ok(None)` at the end
/// of the input. A line too long or holding a NUL byte ends the input: its error ends in `STOPS`.
fn read_line(r: &mut impl BufRead) -> std::io::Result<Option<Result<String, String>>> {
    let mut buf = Vec::new();
    Ok(match read_line_into(r, &mut buf)? {
        None => None,
        Some(Line::Text) => Some(String::from_utf8(buf).map_err(|e| not_utf8(e.utf8_error()))),
        Some(stop) => Some(Err(stop.error())),
    })
}

/// How an input's reading ends at a line that is not text: the end of every such error.
const STOPS: &str = "; reading stops here";

fn not_utf8(e: std::str::Utf8Error) -> String {
    format!("not valid UTF-8 (byte {})", e.valid_up_to() + 1)
}

/// What `read_line_into` read.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A line of at most `MAX_LINE` bytes without a NUL, in `buf`.
    Text,
    /// Over `MAX_LINE` bytes: the input ends here.
    TooLong,
    /// A NUL byte at this 1-based position: not a text input, which ends here.
    Nul(usize),
}

impl Line {
    /// The report of a line that ends the input.
    fn error(&self) -> String {
        match self {
            Line::Text => String::new(),
            Line::TooLong => format!("line too long (over {MAX_LINE} bytes){STOPS}"),
            Line::Nul(at) => format!("holds a NUL byte (byte {at}), not text{STOPS}"),
        }
    }
}

/// The next line into `buf` (cleared first; without its `\n` or `\r\n`), or `Ok(None)` at the
/// end of the input. At most `MAX_LINE + 1` bytes are read for a line: one that is longer, or
/// that holds a NUL byte, is reported and the caller stops reading (the rest of the input is
/// not read: it may be endless), so memory stays bounded whatever the input.
fn read_line_into(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<Line>> {
    buf.clear();
    // `read_until` finds the newline with the standard library's fast `memchr`.
    let limit = MAX_LINE + 1;
    let n = r.by_ref().take(limit as u64).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    // `contains` on bytes is a `memchr` too: a few nanoseconds on a puzzle line.
    if buf.contains(&0) {
        let at = buf.iter().position(|&b| b == 0).unwrap_or(0) + 1;
        *buf = Vec::new();
        return Ok(Some(Line::Nul(at)));
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if n == limit {
        *buf = Vec::new();
        return Ok(Some(Line::TooLong));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(Line::Text))
}

fn lines(r: impl BufRead + 'static) -> Records {
    Box::new(Lines { reader: r, line: 0, done: false })
}

/// The byte order mark U+FEFF that some editors put at the start of a UTF-8 file.
const BOM: char = '\u{feff}';

/// The text of an input's first line without a leading byte order mark: it is no part of the
/// puzzle (read as a character, it made "expected 81 characters, found 82").
pub(crate) fn without_bom(first: &str) -> &str {
    first.strip_prefix(BOM).unwrap_or(first)
}

/// Record 1 without its byte order mark (`without_bom`).
fn first_without_bom(record: std::io::Result<Numbered>) -> std::io::Result<Numbered> {
    record.map(|(n, text)| match text {
        Ok(t) if n == 1 && t.starts_with(BOM) => (n, Ok(without_bom(&t).to_string())),
        other => (n, other),
    })
}

/// Numbered input records: one per line, except that a MiniZinc data file (`*.dzn`, Kakuro
/// collections) is one puzzle spread over many lines, read whole as record 1.
pub(crate) fn open(input: Option<&Path>) -> Result<Records> {
    Ok(match open_source(input)? {
        Source::Lines(r) => Box::new(lines(r).map(first_without_bom)),
        Source::Whole(record) => Box::new(std::iter::once(first_without_bom(Ok((1, record))))),
    })
}

/// An opened input: lines to read, or one record read whole (`open`).
enum Source {
    Lines(Box<dyn BufRead>),
    Whole(Result<String, String>),
}

fn open_source(input: Option<&Path>) -> Result<Source> {
    let Some(p) = input.filter(|p| *p != Path::new("-")) else {
        return Ok(Source::Lines(Box::new(BufReader::with_capacity(1 << 16, std::io::stdin()))));
    };
    let refused = |why: String| UsageError(format!("cannot read the input {}: {why}", p.display()));
    let meta = std::fs::metadata(p).map_err(|e| refused(e.to_string()))?;
    if meta.is_dir() {
        return Err(refused("it is a directory".into()).into());
    }
    // A zstd file (a compressed book's `puzzles.jsonl.zst`) is read decompressed.
    let file = crate::book::layout::open(p).map_err(|e| refused(e.to_string()))?;
    if p.extension().is_some_and(|e| e == "dzn") {
        let mut bytes = Vec::new();
        file.take(MAX_DZN + 1).read_to_end(&mut bytes).with_context(|| format!("reading {}", p.display()))?;
        let record = if bytes.len() as u64 > MAX_DZN {
            Err(format!("file too large (over {MAX_DZN} bytes)"))
        } else {
            String::from_utf8(bytes).map_err(|e| not_utf8(e.utf8_error()))
        };
        return Ok(Source::Whole(record));
    }
    Ok(Source::Lines(file))
}

/// What a failed write of the results says (`error: writing to standard output: No space
/// left on device`).
pub(crate) const STDOUT: &str = "writing to standard output";

/// Report a bad line on stderr. A closed stderr is not worth a panic: the message is dropped.
fn report(n: usize, what: &str) {
    let _ = writeln!(std::io::stderr().lock(), "line {n}: {what}");
}

/// Lines per parallel task within a chunk: each task writes its rows into one buffer, so the
/// per-line cost is the work itself, not a row allocation.
const TASK: usize = 64;

/// One task's rows (CSV, each ending in a newline) and its bad lines (number, what is wrong).
type TaskOutput = (Vec<u8>, Vec<(usize, String)>);

/// Feed numbered lines through `work` in parallel chunks; rows go to stdout, errors to stderr.
/// `work` appends the line's CSV fields after the line number (no leading comma, no newline).
fn process_lines(
    input: Option<&Path>,
    header: &[String],
    work: impl Fn(&str, &mut Vec<u8>) -> Result<(), String> + Sync,
) -> Result<ExitCode> {
    process_records(input, Some(header), |n, line, out| {
        out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
        out.push(b',');
        work(line, out)?;
        out.push(b'\n');
        Ok(())
    })
}

/// `process_lines` for any output: `work(n, line, out)` appends line `n`'s whole output (none
/// of it is kept when it fails); `header`, when given, is written first as a CSV record.
pub(crate) fn process_records(
    input: Option<&Path>,
    header: Option<&[String]>,
    work: impl Fn(usize, &str, &mut Vec<u8>) -> Result<(), String> + Sync,
) -> Result<ExitCode> {
    let source = open_source(input)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Some(header) = header {
        let mut w = csv::Writer::from_writer(&mut out);
        w.write_record(header).context(STDOUT)?;
        w.flush().context(STDOUT)?;
    }
    let mut failed = false;
    // A chunk's lines back to back in `text`, each with its number and end: no allocation per
    // line (on 17-clue Sudoku, `solve` spends under 3 µs a puzzle, and the per-line `String`s
    // and number formatting cost several percent of that).
    let mut chunk = Chunk { text: String::new(), lines: Vec::with_capacity(CHUNK) };
    // A book's `puzzles.csv` (its header first): each row's puzzle field is the line's puzzle.
    let mut puzzle_col: Option<usize> = None;
    let mut first = true;
    let run_task = |text: &str, lines: &[(usize, usize, usize)], col: Option<usize>| {
        let mut rows = Vec::with_capacity(lines.len() * 100);
        let mut errors = Vec::new();
        for &(n, start, end) in lines {
            let row = rows.len();
            let field;
            let line = match col.map(|c| record::csv_field(&text[start..end], c)) {
                None => &text[start..end],
                Some(Ok(f)) => {
                    field = f;
                    field.as_str()
                }
                Some(Err(e)) => {
                    errors.push((n, e));
                    continue;
                }
            };
            match work(n, line, &mut rows) {
                Ok(()) => {}
                Err(e) => {
                    rows.truncate(row);
                    errors.push((n, e));
                }
            }
        }
        (rows, errors)
    };
    let flush =
        |chunk: &mut Chunk, out: &mut std::io::StdoutLock, failed: &mut bool, col: Option<usize>| -> Result<()> {
            let text = chunk.text.as_str();
            let results: Vec<TaskOutput> =
                chunk.lines.par_chunks(TASK).map(|lines| run_task(text, lines, col)).collect();
            for (rows, errors) in results {
                out.write_all(&rows).context(STDOUT)?;
                for (n, e) in errors {
                    *failed = true;
                    report(n, &e);
                }
            }
            chunk.text.clear();
            chunk.lines.clear();
            out.flush().context(STDOUT)?;
            Ok(())
        };
    let name = || input.map_or("standard input".into(), |p| p.display().to_string());
    match source {
        Source::Whole(Ok(text)) => chunk.push(1, without_bom(&text)),
        Source::Whole(Err(e)) => {
            failed = true;
            report(1, &e);
        }
        Source::Lines(mut reader) => {
            let (mut n, mut buf) = (0, Vec::new());
            while let Some(line) =
                read_line_into(&mut reader, &mut buf).with_context(|| format!("reading {}", name()))?
            {
                n += 1;
                if line != Line::Text {
                    // The lines before are processed (the flush below), then the run ends.
                    failed = true;
                    report(n, &line.error());
                    break;
                }
                match std::str::from_utf8(&buf) {
                    Ok(line) => {
                        let line = if n == 1 { without_bom(line) } else { line };
                        if first && !skipped(line) {
                            first = false;
                            match record::csv_puzzle_column(line) {
                                Some(Ok(col)) => {
                                    puzzle_col = Some(col);
                                    continue;
                                }
                                Some(Err(e)) => {
                                    failed = true;
                                    report(n, &e);
                                    continue;
                                }
                                None => {}
                            }
                        }
                        chunk.push(n, line)
                    }
                    Err(e) => {
                        failed = true;
                        report(n, &not_utf8(e));
                    }
                }
                // A chunk holds at most `CHUNK` lines and about `MAX_LINE` bytes.
                if chunk.lines.len() == CHUNK || chunk.text.len() >= MAX_LINE {
                    flush(&mut chunk, &mut out, &mut failed, puzzle_col)?;
                }
            }
        }
    }
    flush(&mut chunk, &mut out, &mut failed, puzzle_col)?;
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// A blank line or a comment (`#`): no puzzle, not an error (every command that reads puzzle
/// lines skips them).
pub(crate) fn skipped(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// Lines waiting for `process_lines`: `text[start..end]` is line number `n` for each
/// `(n, start, end)`.
struct Chunk {
    text: String,
    lines: Vec<(usize, usize, usize)>,
}

impl Chunk {
    /// Keep a line unless it is blank or a comment.
    fn push(&mut self, n: usize, line: &str) {
        if skipped(line) {
            return;
        }
        let start = self.text.len();
        self.text.push_str(line);
        self.lines.push((n, start, self.text.len()));
    }
}

/// Append `fields` to `out` as CSV fields (quoted where CSV needs it), for `process_lines`.
fn csv_fields(fields: &[String], out: &mut Vec<u8>) -> Result<(), String> {
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
    w.write_record(fields).map_err(|e| e.to_string())?;
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    out.extend_from_slice(bytes.strip_suffix(b"\n").unwrap_or(&bytes));
    Ok(())
}

/// A puzzle whose count stopped at the solver's node budget (KenKen: `SOLVE_BUDGET`).
const UNDECIDED: &str = "undecided: the solver stopped at its search budget (about 1 million nodes) before it \
                         could tell whether the solution is unique";

/// The one solution of a puzzle, or why there is not exactly one (`rate`, `calibrate`).
pub(super) fn unique_solution<K: Kind>(p: &K::Puzzle) -> Result<K::Solution, String> {
    let solved = K::solve(p, 2);
    if solved.undecided {
        return Err(UNDECIDED.into());
    }
    match (solved.count, solved.first) {
        (1, Some(s)) => Ok(s),
        (0, _) | (_, None) => Err("puzzle has no solution".into()),
        _ => Err("puzzle has more than one solution; only unique puzzles are rated".into()),
    }
}

/// `rate`; `off`: techniques switched off (`--forbid`).
pub fn rate<K: Kind>(cfg: &RunConfig<K::Params>, input: Option<&Path>, off: u64) -> Result<ExitCode> {
    let mut header: Vec<String> =
        ["line", "grade", "steps", "hardest_level", "givens"].iter().map(|s| s.to_string()).collect();
    header.extend(K::Tech::ALL.iter().map(|t| format!("used_{}", t.name())));
    process_lines(input, &header, |line, out| {
        let p = K::parse(line, &cfg.params)?;
        let s = unique_solution::<K>(&p)?;
        let mut trace = crate::rate::Trace { off, ..Default::default() };
        let rated = K::rate(&p, &s, (off != 0).then_some(&mut trace));
        if !rated.solved {
            return Err("the rater could not finish this puzzle".into());
        }
        let r = rated.rating;
        let mut row = vec![
            cfg.thresholds_for(&crate::kinds::GradeKey::of_puzzle::<K>(&p))
                .grade(K::difficulty(&p, r.steps), r.hardest_level)
                .name()
                .to_string(),
            format!("{:.2}", round_steps(r.steps)),
            r.hardest_level.to_string(),
            K::givens(&p).to_string(),
        ];
        row.extend(r.usage.iter().map(|u| u.to_string()));
        csv_fields(&row, out)
    })
}

pub fn solve<K: Kind>(cfg: &RunConfig<K::Params>, input: Option<&Path>) -> Result<ExitCode> {
    let header: Vec<String> = ["line", "solutions", "solution"].iter().map(|s| s.to_string()).collect();
    if let Some(fast) = K::SOLVE_FIELDS {
        return process_lines(input, &header, fast);
    }
    process_lines(input, &header, |line, out| {
        let p = K::parse(line, &cfg.params)?;
        let solved = K::solve(&p, 2);
        if solved.undecided {
            return Err(UNDECIDED.into());
        }
        let row = [solved.count.min(2).to_string(), solved.first.as_ref().map(K::solution_text).unwrap_or_default()];
        csv_fields(&row, out)
    })
}
