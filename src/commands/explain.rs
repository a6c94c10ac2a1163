//! `explain` and `hint`: the rater's solution path, step by step (SPEC.md, "Solution paths").
//!
//! Both read puzzle lines as `rate` does, solve each to its one solution, and run the rater
//! with a path recorder: `explain` prints the whole path, `hint` the next step from the digits
//! a player has entered so far (after naming any entered digit that is wrong).

use super::lines::{process_records, unique_solution};
use crate::book::record::round_steps;
use crate::cli::PathFormat;
use crate::config::RunConfig;
use crate::kinds::{GradeKey, Kind};
use crate::rate::{bottleneck, PathStep, Trace};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

/// A puzzle's rating with its path.
pub struct Explained {
    pub grade: &'static str,
    pub steps: f64,
    pub hardest_level: u8,
    pub path: Vec<PathStep>,
    pub bottleneck: f64,
    pub shortcut: bool,
}

/// Rate `p` (solution `s`) recording its path, bottleneck and shortcut.
pub fn explain_one<K: Kind>(cfg: &RunConfig<K::Params>, p: &K::Puzzle, s: &K::Solution) -> Result<Explained, String> {
    let mut trace = Trace::with_path();
    let rated = K::rate(p, s, Some(&mut trace));
    if !rated.solved {
        return Err("the rater could not finish this puzzle".into());
    }
    let r = rated.rating;
    let path = trace.path.unwrap_or_default();
    let grade = cfg.thresholds_for(&GradeKey::of_puzzle::<K>(p)).grade(K::difficulty(p, r.steps), r.hardest_level);
    Ok(Explained {
        grade: grade.name(),
        steps: round_steps(r.steps),
        hardest_level: r.hardest_level,
        bottleneck: (bottleneck(&path) * 1000.0).round() / 1000.0,
        path,
        shortcut: trace.shortcut.unwrap_or(false),
    })
}

pub fn explain<K: Kind>(
    cfg: &RunConfig<K::Params>,
    input: Option<&Path>,
    format: PathFormat,
) -> anyhow::Result<ExitCode> {
    process_records(input, None, |n, line, out| {
        let p = K::parse(line, &cfg.params)?;
        let s = unique_solution::<K>(&p)?;
        let e = explain_one::<K>(cfg, &p, &s)?;
        let text = match format {
            PathFormat::Json => {
                let mut v = json!({
                    "line": n,
                    "grade": e.grade,
                    "step_count": e.steps,
                    "hardest_level": e.hardest_level,
                    "bottleneck": e.bottleneck,
                    "shortcut": e.shortcut,
                });
                v["steps"] = serde_json::to_value(&e.path).map_err(|e| e.to_string())?;
                v.to_string() + "\n"
            }
            PathFormat::Text => {
                let mut t = format!(
                    "line {n}: {}, {} steps, hardest level {}, bottleneck {}, shortcut {}\n",
                    e.grade,
                    e.steps,
                    e.hardest_level,
                    e.bottleneck,
                    if e.shortcut { "yes" } else { "no" }
                );
                for (i, step) in e.path.iter().enumerate() {
                    let _ = writeln!(t, "{:4}. {}", i + 1, step_text(step));
                }
                t.push('\n');
                t
            }
        };
        out.extend_from_slice(text.as_bytes());
        Ok(())
    })
}

pub fn hint<K: Kind>(
    cfg: &RunConfig<K::Params>,
    input: Option<&Path>,
    reveal: bool,
    format: PathFormat,
) -> anyhow::Result<ExitCode> {
    process_records(input, None, |n, line, out| {
        let (puzzle, current) = match line.split_once('\t') {
            Some((p, c)) => (p, Some(c.trim())),
            None => (line, None),
        };
        let p = K::parse(puzzle, &cfg.params)?;
        let s = unique_solution::<K>(&p)?;
        let solution = grid_of(&K::solution_json(&s))?;
        let entered = match current {
            Some(c) if !c.is_empty() => entries(c, &solution)?,
            _ => Vec::new(),
        };
        let wrong: Vec<[usize; 2]> =
            entered.iter().filter(|&&(r, c, d)| solution[r][c] != d).map(|&(r, c, _)| [r, c]).collect();
        let step = if wrong.is_empty() {
            let mut trace = Trace {
                path: Some(Vec::new()),
                enter: entered.iter().map(|&(r, c, _)| (r, c)).collect(),
                stop_after: 1,
                ..Trace::default()
            };
            K::rate(&p, &s, Some(&mut trace));
            trace.path.unwrap_or_default().into_iter().next().map(|mut step| {
                if !reveal {
                    step.place.clear();
                }
                step
            })
        } else {
            None
        };
        let text = match format {
            PathFormat::Json => {
                let v = json!({"line": n, "wrong": wrong, "step": step});
                v.to_string() + "\n"
            }
            PathFormat::Text => {
                let name = |&[r, c]: &[usize; 2]| format!("r{}c{}", r + 1, c + 1);
                if !wrong.is_empty() {
                    let cells: Vec<String> = wrong.iter().map(name).collect();
                    format!("line {n}: wrong: {}\n", cells.join(" "))
                } else {
                    match &step {
                        None => format!("line {n}: solved\n"),
                        Some(step) => format!("line {n}: {}\n", hint_text(step)),
                    }
                }
            }
        };
        out.extend_from_slice(text.as_bytes());
        Ok(())
    })
}

/// A solution as rows of digits (0 on Kakuro blocks), from its JSON form: an array of rows, or
/// (classic Sudoku) one string of n² digits.
fn grid_of(v: &Value) -> Result<Vec<Vec<u8>>, String> {
    let flat = crate::print::solution_digits(v)?;
    let width = match v {
        Value::Array(rows) => rows.first().and_then(Value::as_array).map_or(0, Vec::len),
        _ => (flat.len() as f64).sqrt().round() as usize,
    };
    if width == 0 {
        return Err("the solution has no cells".into());
    }
    Ok(flat.chunks(width).map(<[u8]>::to_vec).collect())
}

/// The digits entered in CURRENT, as (row, col, digit), checked against the board's shape:
/// CURRENT is a JSON array of rows (0 blank) or a text line of n² symbols (`.` or `0` blank,
/// `1`-`9` then `A`-`Z`), of the solution's size; a digit on a Kakuro block is an error.
fn entries(current: &str, solution: &[Vec<u8>]) -> Result<Vec<(usize, usize, u8)>, String> {
    let (rows, cols) = (solution.len(), solution[0].len());
    let grid: Vec<Vec<u8>> = if current.starts_with('[') || current.starts_with('{') {
        let v: Value = serde_json::from_str(current).map_err(|e| format!("CURRENT is not valid JSON: {e}"))?;
        // A family puzzle object: its givens are the grid.
        let v = v.get("givens").cloned().unwrap_or(v);
        let rows = v.as_array().ok_or("CURRENT must be an array of rows")?;
        rows.iter()
            .map(|r| {
                r.as_array()
                    .ok_or("CURRENT must be an array of rows".to_string())?
                    .iter()
                    .map(|d| {
                        d.as_u64()
                            .filter(|&d| d < 36)
                            .map(|d| d as u8)
                            .ok_or("CURRENT digits must be numbers 0 to 35".to_string())
                    })
                    .collect()
            })
            .collect::<Result<_, String>>()?
    } else {
        let symbols: Vec<u8> = current
            .chars()
            .map(|ch| match ch {
                '.' => Ok(0),
                _ => ch.to_digit(36).map(|d| d as u8).ok_or_else(|| format!("CURRENT has {ch:?}, not a digit or '.'")),
            })
            .collect::<Result<_, String>>()?;
        if symbols.len() != rows * cols {
            return Err(format!("CURRENT has {} cells; the puzzle has {}", symbols.len(), rows * cols));
        }
        symbols.chunks(cols).map(<[u8]>::to_vec).collect()
    };
    if grid.len() != rows || grid.iter().any(|r| r.len() != cols) {
        return Err(format!("CURRENT must be {rows} rows of {cols} cells, like the puzzle"));
    }
    let mut out = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        for (c, &d) in row.iter().enumerate() {
            if d != 0 {
                if solution[r][c] == 0 {
                    return Err(format!("CURRENT has a digit at r{}c{}, which is not a cell to fill", r + 1, c + 1));
                }
                out.push((r, c, d));
            }
        }
    }
    Ok(out)
}

/// A technique's name for people: `x_wing` as `X-wing`, `naked_pair` as `naked pair`.
pub fn technique_title(name: &str) -> String {
    match name {
        "x_wing" => "X-wing".into(),
        "xy_wing" => "XY-wing".into(),
        "xyz_wing" => "XYZ-wing".into(),
        "wxyz_wing" => "WXYZ-wing".into(),
        _ => name.replace('_', " "),
    }
}

fn cell_name(r: usize, c: usize) -> String {
    format!("r{}c{}", r + 1, c + 1)
}

/// What a step removes, by digit: `4 from r5c3, r9c8; 6 from r4c5`.
fn removals(remove: &[[usize; 3]]) -> String {
    let mut digits: Vec<usize> = remove.iter().map(|x| x[2]).collect();
    digits.sort_unstable();
    digits.dedup();
    digits
        .iter()
        .map(|&d| {
            let cells: Vec<String> = remove.iter().filter(|x| x[2] == d).map(|x| cell_name(x[0], x[1])).collect();
            format!("{d} from {}", cells.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// One step as a line of text: `r3c5 = 7 (hidden single in box 5)`, `X-wing on 4 in rows 2,7,
/// columns 3,8: removes 4 from r5c3, r9c8`; the cells it rests on are listed when no house,
/// cage or run names them.
pub fn step_text(step: &PathStep) -> String {
    let title = technique_title(step.technique);
    let within = step.unit.as_ref().map(|u| format!(" in {u}")).unwrap_or_default();
    if let Some(&[r, c, d]) = step.place.first() {
        if step.technique == "trial" {
            return format!(
                "{} = {d} (trial: no single assumption fails; the solution's digit is placed)",
                cell_name(r, c)
            );
        }
        return format!("{} = {d} ({title}{within})", cell_name(r, c));
    }
    // The pattern's cells, when few enough to read (a fish or a cage names its lines).
    let at = if (1..=6).contains(&step.cells.len()) {
        let list: Vec<String> = step.cells.iter().map(|&[r, c]| cell_name(r, c)).collect();
        format!(" at {}", list.join(" "))
    } else {
        String::new()
    };
    format!("{title}{within}{at}: removes {}", removals(&step.remove))
}

/// A hint: the technique and where to look, and the digit only when it was asked for.
fn hint_text(step: &PathStep) -> String {
    let title = technique_title(step.technique);
    let place = step.place.first().map(|&[r, c, d]| format!(": {} = {d}", cell_name(r, c))).unwrap_or_default();
    let remove = if step.remove.is_empty() { String::new() } else { format!(": removes {}", removals(&step.remove)) };
    let look = match &step.unit {
        Some(u) => format!("in {u}"),
        None => {
            let cells: Vec<String> = step.cells.iter().map(|&[r, c]| cell_name(r, c)).collect();
            format!("at {}", cells.join(" "))
        }
    };
    format!("{title} (level {}) {look}{place}{remove}", step.level)
}
