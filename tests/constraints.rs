//! Technique constraints on `generate` (`--teach`, `--require`, `--max-level`), checked from
//! outside the run: every accepted puzzle's path (`--paths`) uses what it must and nothing it
//! may not, and `rate` confirms the technique is needed (the puzzle does not solve with it and
//! trial switched off, and solves with trial alone off). Steering (`--teach` digs towards the
//! technique) must make more such puzzles than filtering the same candidates.

use crate::common;
use common::{run, stderr};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

struct Book {
    records: Vec<Value>,
    paths: Vec<Value>,
    levels: HashMap<String, u64>,
    tried: u64,
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn generate(args: &[&str]) -> Book {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("book");
    let mut all = vec!["generate", "--seed", "7", "--paths", "--quiet", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = run(&all, None);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let cal: Value = serde_json::from_str(&std::fs::read_to_string(out.join("calibration.json")).unwrap()).unwrap();
    let levels =
        cal["techniques"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v["level"].as_u64().unwrap())).collect();
    let (records, paths) = (lines(&out.join("puzzles.jsonl")), lines(&out.join("paths.jsonl")));
    assert_eq!(records.len(), paths.len());
    Book { records, paths, levels, tried: cal["candidates"]["tried"].as_u64().unwrap() }
}

/// The puzzles as `rate` reads them, one per line.
fn puzzle_lines(book: &Book) -> String {
    book.records
        .iter()
        .map(|r| match &r["puzzle"] {
            Value::String(s) => format!("{s}\n"),
            v => format!("{v}\n"),
        })
        .collect()
}

/// Lines `rate` could not finish with `forbid` switched off.
fn unfinished(kind_args: &[&str], book: &Book, forbid: &str) -> usize {
    let mut args = kind_args.to_vec();
    args.extend_from_slice(&["rate", "--forbid", forbid, "-"]);
    let o = run(&args, Some(&puzzle_lines(book)));
    stderr(&o).lines().filter(|l| l.contains("could not finish")).count()
}

/// Every puzzle needs `tech`: its path uses it, it fails without it (and trial), and solves
/// with only trial off. With `teach`, every other step is a basic one: a single, or for Kakuro
/// a level-2 step (a crossing-run intersection or a pair sum).
fn check_needed(kind_args: &[&str], book: &Book, tech: &str, teach: bool) {
    let basic = if kind_args.contains(&"kakuro") { 2 } else { 1 };
    assert!(!book.records.is_empty(), "{kind_args:?} {tech}: some puzzles");
    for (rec, path) in book.records.iter().zip(&book.paths) {
        let steps = path["steps"].as_array().unwrap();
        assert!(steps.iter().any(|s| s["technique"] == tech), "{}: path without {tech}", rec["id"]);
        if teach {
            for s in steps {
                let name = s["technique"].as_str().unwrap();
                assert!(name == tech || book.levels[name] <= basic, "{}: teaching {tech} uses {name}", rec["id"]);
            }
        }
    }
    let n = book.records.len();
    assert_eq!(unfinished(kind_args, book, &format!("{tech},trial")), n, "{kind_args:?}: all need {tech}");
    assert_eq!(unfinished(kind_args, book, "trial"), 0, "{kind_args:?}: all solve without trial");
}

#[test]
fn teach_makes_puzzles_that_need_the_technique_and_otherwise_singles() {
    let b = generate(&["--count", "300", "--teach", "intersection", "--symmetry", "none"]);
    check_needed(&[], &b, "intersection", true);
    let b = generate(&["--kind", "kakuro", "--count", "300", "--teach", "combination_elimination"]);
    check_needed(&["--kind", "kakuro"], &b, "combination_elimination", true);
}

#[test]
fn steering_the_family_beats_filtering() {
    let args = ["--diagonals", "--count", "150", "--teach", "intersection", "--symmetry", "none"];
    let steered = generate(&args);
    check_needed(&["--kind", "sudoku"], &steered, "intersection", true);
    let mut plain = args.to_vec();
    plain.push("--no-steer");
    let filtered = generate(&plain);
    assert_eq!((steered.tried, filtered.tried), (150, 150));
    assert!(
        steered.records.len() >= 20 && steered.records.len() > 5 * filtered.records.len(),
        "steered {} against filtered {}",
        steered.records.len(),
        filtered.records.len()
    );
    let jigsaw = generate(&["--jigsaw", "--size", "9", "--count", "40", "--teach", "intersection"]);
    check_needed(&["--kind", "sudoku"], &jigsaw, "intersection", true);
}

#[test]
fn require_keeps_puzzles_that_need_each_technique() {
    let b = generate(&["--kind", "kenken", "--size", "6", "--count", "100", "--require", "cage_line"]);
    check_needed(&["--kind", "kenken"], &b, "cage_line", false);
    let b = generate(&["--kind", "kakuro", "--count", "100", "--require", "combination_elimination"]);
    check_needed(&["--kind", "kakuro"], &b, "combination_elimination", false);
}

#[test]
fn max_level_and_forbid_keep_the_path_within_bounds() {
    let b = generate(&["--count", "200", "--max-level", "2", "--forbid", "naked_pair"]);
    assert!(b.records.len() > 50, "{}", b.records.len());
    for (rec, path) in b.records.iter().zip(&b.paths) {
        assert!(rec["hardest_level"].as_u64().unwrap() <= 2, "{}", rec["id"]);
        for s in path["steps"].as_array().unwrap() {
            assert!(s["level"].as_u64().unwrap() <= 2 && s["technique"] != "naked_pair", "{}: {s}", rec["id"]);
        }
    }
}
