//! `rate` and `solve`: one puzzle per input line, CSV to stdout, in input order.
//!
//! Lines are processed in parallel in ordered chunks. Blank lines and lines starting with `#`
//! are skipped. A bad line is reported on stderr as `line N: <what is wrong>`; the others are
//! still processed, and the exit code is then 1.

use crate::book::record::round_steps;
use crate::config::RunConfig;
use crate::kinds::Kind;
use crate::rate::Technique;
use anyhow::{Context as _, Result};
use rayon::prelude::*;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::ExitCode;

const CHUNK: usize = 4096;

type Records = Box<dyn Iterator<Item = (usize, std::io::Result<String>)>>;

/// Numbered input records: one per line, except that a MiniZinc data file (`*.dzn`, Kakuro
/// collections) is one puzzle spread over many lines, read whole as record 1.
fn open(input: Option<&Path>) -> Result<Records> {
    let lines = |r: Box<dyn BufRead>| -> Records { Box::new(r.lines().enumerate().map(|(i, l)| (i + 1, l))) };
    Ok(match input {
        None => lines(Box::new(BufReader::new(std::io::stdin()))),
        Some(p) if p == Path::new("-") => lines(Box::new(BufReader::new(std::io::stdin()))),
        Some(p) if p.extension().is_some_and(|e| e == "dzn") => {
            let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            Box::new(std::iter::once((1, Ok(text))))
        }
        Some(p) => {
            lines(Box::new(BufReader::new(std::fs::File::open(p).with_context(|| format!("reading {}", p.display()))?)))
        }
    })
}

/// Feed numbered lines through `work` in parallel chunks; rows go to stdout, errors to stderr.
fn process_lines(
    input: Option<&Path>,
    header: &[String],
    work: impl Fn(&str) -> Result<Vec<String>, String> + Sync,
) -> Result<ExitCode> {
    let reader = open(input)?;
    let stdout = std::io::stdout();
    let mut out = csv::Writer::from_writer(stdout.lock());
    out.write_record(header)?;
    let mut failed = false;
    let mut chunk: Vec<(usize, String)> = Vec::with_capacity(CHUNK);
    let flush = |chunk: &mut Vec<(usize, String)>,
                 out: &mut csv::Writer<std::io::StdoutLock>,
                 failed: &mut bool|
     -> Result<()> {
        let results: Vec<(usize, Result<Vec<String>, String>)> =
            chunk.par_iter().map(|(n, line)| (*n, work(line))).collect();
        for (n, r) in results {
            match r {
                Ok(mut row) => {
                    row.insert(0, n.to_string());
                    out.write_record(&row)?;
                }
                Err(e) => {
                    *failed = true;
                    eprintln!("line {n}: {e}");
                }
            }
        }
        chunk.clear();
        out.flush()?;
        Ok(())
    };
    for (n, line) in reader {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                // Not valid UTF-8 (or an I/O error): report the line and go on.
                failed = true;
                eprintln!("line {n}: {e}");
                continue;
            }
        };
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        chunk.push((n, line));
        if chunk.len() == CHUNK {
            flush(&mut chunk, &mut out, &mut failed)?;
        }
    }
    flush(&mut chunk, &mut out, &mut failed)?;
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The one solution of a puzzle, or why there is not exactly one (`rate`, `calibrate`).
pub(super) fn unique_solution<K: Kind>(p: &K::Puzzle) -> Result<K::Solution, String> {
    let solved = K::solve(p, 2);
    match (solved.count, solved.first) {
        (1, Some(s)) => Ok(s),
        (0, _) | (_, None) => Err("puzzle has no solution".into()),
        _ => Err("puzzle has more than one solution; only unique puzzles are rated".into()),
    }
}

pub fn rate<K: Kind>(cfg: &RunConfig<K::Params>, input: Option<&Path>) -> Result<ExitCode> {
    let mut header: Vec<String> =
        ["line", "grade", "steps", "hardest_level", "givens"].iter().map(|s| s.to_string()).collect();
    header.extend(K::Tech::ALL.iter().map(|t| format!("used_{}", t.name())));
    process_lines(input, &header, |line| {
        let p = K::parse(line)?;
        let s = unique_solution::<K>(&p)?;
        let rated = K::rate(&p, &s, None);
        if !rated.solved {
            return Err("the rater could not finish this puzzle".into());
        }
        let r = rated.rating;
        let mut row = vec![
            cfg.thresholds_for(K::puzzle_size(&p)).grade(r.steps, r.hardest_level).name().to_string(),
            format!("{:.2}", round_steps(r.steps)),
            r.hardest_level.to_string(),
            K::givens(&p).to_string(),
        ];
        row.extend(r.usage.iter().map(|u| u.to_string()));
        Ok(row)
    })
}

pub fn solve<K: Kind>(_cfg: &RunConfig<K::Params>, input: Option<&Path>) -> Result<ExitCode> {
    let header: Vec<String> = ["line", "solutions", "solution"].iter().map(|s| s.to_string()).collect();
    process_lines(input, &header, |line| {
        let p = K::parse(line)?;
        let solved = K::solve(&p, 2);
        Ok(vec![solved.count.min(2).to_string(), solved.first.as_ref().map(K::solution_text).unwrap_or_default()])
    })
}
