//! Orders (SPEC.md, "Runs and the output folder"): quotas filled exactly, stops short with exit 3,
//! `--resume` after SIGTERM and SIGKILL giving the same book as an uninterrupted run, flags that
//! differ from the saved run refused, and `--exclude` rejecting transformed copies of earlier
//! puzzles as duplicates. `scripts/kill-resume.sh` kills at 20 random moments.

use crate::common;

use common::{bin, run, stderr};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

fn gen(out: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["generate", "--quiet", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    run(&all, None)
}

fn calibration(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("calibration.json")).unwrap()).unwrap()
}

fn rows(dir: &Path, file: &str) -> usize {
    std::fs::read_to_string(dir.join(file)).unwrap().lines().count() - 1
}

/// Every book file equal, and calibration.json equal apart from its times.
fn assert_same_book(a: &Path, b: &Path) {
    let mut names: Vec<String> =
        std::fs::read_dir(a).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let mut other: Vec<String> =
        std::fs::read_dir(b).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    other.sort();
    assert_eq!(names, other);
    for n in &names {
        if n == "calibration.json" {
            let (mut x, mut y) = (calibration(a), calibration(b));
            x.as_object_mut().unwrap().remove("time_seconds");
            y.as_object_mut().unwrap().remove("time_seconds");
            assert_eq!(x, y, "calibration.json differs beyond its times");
        } else if n != "report.md" && n != ".written.json" && !n.ends_with(".svg") {
            assert!(std::fs::read(a.join(n)).unwrap() == std::fs::read(b.join(n)).unwrap(), "{n} differs");
        }
    }
}

#[test]
fn quotas_are_filled_exactly_in_candidate_order_for_every_kind() {
    let tmp = tempfile::tempdir().unwrap();
    for (kind, extra, quota) in [
        ("sudoku", vec![], "easy=3,medium=4,hard=2,expert=5"),
        ("kenken", vec!["--size", "6"], "easy=3,medium=1,expert=2"),
        ("kakuro", vec![], "easy=2,hard=2"),
    ] {
        let out = tmp.path().join(kind);
        let mut args = vec!["--kind", kind, "--seed", "3", "--quota", quota];
        args.extend(extra.iter());
        let o = gen(&out, &args);
        assert!(o.status.success(), "{kind}: {}", stderr(&o));
        let cal = calibration(&out);
        let order = &cal["order"];
        assert_eq!(order["stopped"], "quotas met");
        let mut total = 0;
        for g in ["easy", "medium", "hard", "expert"] {
            let want: usize =
                quota.split(',').find_map(|p| p.strip_prefix(&format!("{g}="))).map_or(0, |n| n.parse().unwrap());
            assert_eq!(rows(&out, &format!("book-{g}.csv")), want, "{kind} {g}");
            assert_eq!(order["quota"][g]["emitted"], want as u64);
            assert_eq!(order["quota"][g]["missing"], 0);
            total += want;
        }
        assert_eq!(rows(&out, "puzzles.csv"), total);
        // Candidate order, and the last candidate tried is the one that filled the order.
        let idx: Vec<u64> = std::fs::read_to_string(out.join("puzzles.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["index"].as_u64().unwrap())
            .collect();
        assert!(idx.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(cal["candidates"]["tried"].as_u64().unwrap(), idx.last().unwrap() + 1, "{kind}");
        // The same order with 1 thread: the same book.
        let one = tmp.path().join(format!("{kind}-1"));
        let mut args1 = args.clone();
        args1.extend(["--threads", "1"]);
        assert!(gen(&one, &args1).status.success());
        assert_same_book(&out, &one);
    }
}

/// Family quota runs steer (`Kind::steer`: no symmetry, the quarter turn) once the common
/// grades are full: hard 6×6 puzzles are rare under the default half-turn symmetry (about 1.5
/// in 100), so an order of 100 steered needs fewer candidates than the same order with
/// `--no-steer` (seed 2: 8,681 against 10,305). Smaller orders fill at the configured settings
/// before exploring the six steering levels would pay.
#[test]
fn family_quota_runs_steer_toward_the_open_grades() {
    let tmp = tempfile::tempdir().unwrap();
    let mut tried = Vec::new();
    for steer in [true, false] {
        let out = tmp.path().join(format!("steer-{steer}"));
        let mut args = vec!["--box", "2x3", "--seed", "2", "--quota", "hard=100", "--count", "200000"];
        if !steer {
            args.push("--no-steer");
        }
        let o = gen(&out, &args);
        assert!(o.status.success(), "{}", stderr(&o));
        let cal = calibration(&out);
        assert_eq!(rows(&out, "book-hard.csv"), 100);
        let levels: Vec<u64> =
            cal["order"]["steering"].as_array().unwrap().iter().map(|l| l["level"].as_u64().unwrap()).collect();
        assert_eq!(levels.len() > 1, steer, "steering levels used: {levels:?}");
        tried.push(cal["candidates"]["tried"].as_u64().unwrap());
        if steer {
            // Steered, the book does not depend on the thread count either.
            let one = tmp.path().join("steer-1");
            args.extend(["--threads", "1"]);
            assert!(gen(&one, &args).status.success());
            assert_same_book(&out, &one);
        }
    }
    assert!(tried[0] < tried[1], "steered {} against unsteered {} candidates", tried[0], tried[1]);
}

/// Killers without givens steer by their cage layout (`steer::CAGES`): an easy 9×9 killer is
/// about 1 in 2,000 at the default cages (seed 1: 1 of 2,000), so an order of 10 easy fills
/// only once the run tries smaller cages, where it takes 10 candidates (seed 1: 106 in all,
/// 96 of them at the default cages, which made no easy one).
#[test]
fn killer_quota_runs_steer_by_cage_layout() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("killer");
    let o = gen(&out, &["--box", "3x3", "--killer", "--seed", "1", "--quota", "easy=10", "--count", "2000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows(&out, "book-easy.csv"), 10);
    let cal = calibration(&out);
    assert!(cal["candidates"]["tried"].as_u64().unwrap() < 400, "{}", cal["candidates"]);
    for level in cal["order"]["steering"].as_array().unwrap() {
        let easy = level["made"]["easy"].as_u64().unwrap();
        assert_eq!(easy > 0, level["level"].as_u64().unwrap() > 0, "{level}");
    }
}

/// A small order of a common grade costs no more candidates steered than at the configured
/// settings alone (`--no-steer`): the other levels are explored only when that is expected to
/// pay. Classic, easy=100, seed 1: 1,243 candidates steered against 2,088 at level 0 (with
/// chunks of 2,048 instead of a quarter of the order, exploring cost 4,191).
#[test]
fn a_small_order_of_a_common_grade_costs_no_more_than_the_configured_settings() {
    let tmp = tempfile::tempdir().unwrap();
    let mut tried = Vec::new();
    for steer in [true, false] {
        let out = tmp.path().join(if steer { "steered" } else { "plain" });
        let mut args = vec!["--seed", "1", "--quota", "easy=100"];
        if !steer {
            args.push("--no-steer");
        }
        let o = gen(&out, &args);
        assert!(o.status.success(), "{}", stderr(&o));
        tried.push(calibration(&out)["candidates"]["tried"].as_u64().unwrap());
    }
    assert!(tried[0] <= tried[1], "steered {} against {} at the configured settings", tried[0], tried[1]);
}

#[test]
fn a_run_stopped_short_keeps_its_book_and_exits_3() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("cap");
    let o = gen(&out, &["--quota", "expert=1000", "--count", "300"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let order = &calibration(&out)["order"];
    assert_eq!(order["stopped"], "count reached");
    let made = rows(&out, "book-expert.csv") as u64;
    assert!(made > 0 && made < 1000);
    assert_eq!(order["quota"]["expert"]["missing"], 1000 - made);
    assert_eq!(rows(&out, "book-easy.csv"), 0);

    let out = tmp.path().join("time");
    let o = gen(&out, &["--quota", "expert=100000000", "--time-limit", "1s"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(calibration(&out)["order"]["stopped"], "time limit");
}

#[test]
fn bad_order_flags_are_usage_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("x");
    for (args, says) in [
        (vec!["--quota", "easy=2,tough=1"], "unknown grade 'tough'"),
        (vec!["--quota", "easy=0"], "orders no puzzle"),
        (vec!["--time-limit", "soon"], "not a duration"),
        (vec!["--no-steer"], "--quota runs only"),
        (vec!["--exclude", "/nonexistent/file"], "cannot read"),
    ] {
        let o = gen(&out, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    assert!(!out.exists());
}

fn spawn(out: &Path, args: &[&str]) -> std::process::Child {
    bin()
        .args(["generate", "--quiet", "--out", out.to_str().unwrap()])
        .args(args)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn resume_after_sigterm_and_sigkill_gives_the_uninterrupted_book() {
    let tmp = tempfile::tempdir().unwrap();
    let args = ["--kind", "kenken", "--seed", "8", "--quota", "easy=60,medium=60,hard=60,expert=25"];
    let whole = tmp.path().join("whole");
    assert!(gen(&whole, &args).status.success());

    for (signal, code) in [(libc::SIGTERM, Some(130)), (libc::SIGKILL, None)] {
        let out = tmp.path().join(format!("cut-{signal}"));
        let child = spawn(&out, &args);
        std::thread::sleep(Duration::from_millis(1200));
        unsafe { libc::kill(child.id() as i32, signal) };
        let o = child.wait_with_output().unwrap();
        if o.status.success() {
            // Finished before the signal (a fast machine): nothing to resume; still the same.
            assert_same_book(&whole, &out);
            continue;
        }
        assert_eq!(o.status.code(), code, "{}", stderr(&o));
        if signal == libc::SIGTERM {
            assert!(stderr(&o).contains("generate --resume --out"), "{}", stderr(&o));
        }
        // A flag that differs is refused; the flags may be left out or repeated.
        let o = gen(&out, &["--resume", "--seed", "9"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("--seed 9 differs from the saved run"), "{}", stderr(&o));
        let mut again = vec!["--resume", "--threads", "1"];
        again.extend_from_slice(&args[..4]);
        let o = gen(&out, &again);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_same_book(&whole, &out);
        // Resuming a finished run says so and exits 0.
        let o = gen(&out, &["--resume"]);
        assert!(o.status.success() && stderr(&o).contains("nothing to resume"), "{}", stderr(&o));
    }
    // --resume where nothing was started: a fresh run with the flags given.
    let fresh = tmp.path().join("fresh");
    let mut a = vec!["--resume"];
    a.extend_from_slice(&args);
    assert!(gen(&fresh, &a).status.success());
    assert_same_book(&whole, &fresh);
}

/// Sudoku: relabel digits (d → 10 - d), transpose, swap the first two bands.
fn transform_sudoku(p: &str) -> String {
    let g: Vec<char> = p.chars().collect();
    let band = |r: usize| {
        if r < 3 {
            r + 3
        } else if r < 6 {
            r - 3
        } else {
            r
        }
    };
    (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            let ch = g[c * 9 + band(r)];
            ch.to_digit(10).map_or('.', |d| if d == 0 { '.' } else { char::from_digit(10 - d, 10).unwrap() })
        })
        .collect()
}

/// KenKen: rotate a quarter turn ([r, c] → [c, n-1-r]).
fn transform_kenken(p: &Value) -> Value {
    let n = p["size"].as_u64().unwrap();
    let mut q = p.clone();
    for cage in q["cages"].as_array_mut().unwrap() {
        for cell in cage["cells"].as_array_mut().unwrap() {
            let (r, c) = (cell[0].as_u64().unwrap(), cell[1].as_u64().unwrap());
            *cell = serde_json::json!([c, n - 1 - r]);
        }
    }
    q
}

/// Kakuro: transpose, swapping down and right clues.
fn transform_kakuro(p: &Value) -> Value {
    let cells = p["cells"].as_array().unwrap();
    let (rows, cols) = (cells.len(), cells[0].as_array().unwrap().len());
    let t: Vec<Vec<Value>> = (0..cols)
        .map(|c| {
            (0..rows)
                .map(|r| {
                    let s = cells[r][c].as_str().unwrap();
                    match s.split_once('\\') {
                        Some((d, rt)) => Value::from(format!("{rt}\\{d}")),
                        None => Value::from(s),
                    }
                })
                .collect()
        })
        .collect();
    serde_json::json!({"rows": cols, "cols": rows, "cells": t})
}

#[test]
fn transformed_copies_of_earlier_puzzles_are_rejected_as_duplicates() {
    let tmp = tempfile::tempdir().unwrap();
    for (kind, extra) in
        [("sudoku", vec![]), ("kenken", vec!["--size", "5"]), ("kakuro", vec!["--rows", "7", "--cols", "7"])]
    {
        let first = tmp.path().join(format!("{kind}-a"));
        let mut args = vec!["--kind", kind, "--seed", "2", "--count", "40"];
        args.extend(extra.iter());
        assert!(gen(&first, &args).status.success());
        let jsonl = std::fs::read_to_string(first.join("puzzles.jsonl")).unwrap();
        let made = jsonl.lines().count();
        assert!(made > 3, "{kind}: {made}");
        let copies: Vec<String> = jsonl
            .lines()
            .map(|l| {
                let rec: Value = serde_json::from_str(l).unwrap();
                match kind {
                    "sudoku" => transform_sudoku(rec["puzzle"].as_str().unwrap()),
                    "kenken" => transform_kenken(&rec["puzzle"]).to_string(),
                    _ => transform_kakuro(&rec["puzzle"]).to_string(),
                }
            })
            .collect();
        let file = tmp.path().join(format!("{kind}-copies.txt"));
        std::fs::write(&file, copies.join("\n")).unwrap();
        // The same run again, excluding the transformed copies: every puzzle is a duplicate.
        let second = tmp.path().join(format!("{kind}-b"));
        let mut again = args.clone();
        again.extend(["--exclude", file.to_str().unwrap()]);
        let o = gen(&second, &again);
        assert!(o.status.success(), "{kind}: {}", stderr(&o));
        let cal = calibration(&second);
        assert_eq!(cal["candidates"]["rejected"]["duplicate"], made as u64, "{kind}");
        assert_eq!(rows(&second, "puzzles.csv"), 0, "{kind}");
        // Keys as printed in the book exclude the same puzzles.
        let keys: Vec<String> = std::fs::read_to_string(first.join("puzzles.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["canonical"].as_str().unwrap().to_string())
            .collect();
        let kfile = tmp.path().join(format!("{kind}-keys.txt"));
        std::fs::write(&kfile, keys.join("\n")).unwrap();
        let third = tmp.path().join(format!("{kind}-c"));
        let book_csv = first.join("puzzles.csv");
        let mut with_keys = args.clone();
        with_keys.extend(["--exclude", kfile.to_str().unwrap(), book_csv.to_str().unwrap()]);
        assert!(gen(&third, &with_keys).status.success());
        assert_eq!(calibration(&third)["candidates"]["rejected"]["duplicate"], made as u64, "{kind}");
        assert_eq!(calibration(&third)["order"]["excluded_keys"], made as u64, "{kind}");
    }
}
