//! Shards and merge (SPEC.md, "Runs and the output folder"): N shards of a count run merged
//! equal the single run byte for byte (timing fields and the manifest's list of shards aside),
//! for every kind; a shard re-run alone (or taken with `--shard auto` from a Slurm array's
//! environment) completes the set; a quota order split into shards ends with exactly the quota
//! and no duplicate canonical key, also when the shards made the same puzzles; mismatched sets
//! are refused with exit 2 and a message naming what is wrong.

use crate::common;

use common::{bin, run, stderr};
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;

fn gen(out: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["generate", "--quiet", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    run(&all, None)
}

fn merge(out: &Path, dirs: &[&Path]) -> std::process::Output {
    let mut all = vec!["merge", "--quiet", "--out", out.to_str().unwrap()];
    all.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    run(&all, None)
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Every file equal; calibration.json apart from its times, manifest.json apart from the
/// shards merged, report.md apart from its time lines.
fn assert_same_as_single(single: &Path, merged: &Path) {
    let names = |d: &Path| {
        let mut v: Vec<String> =
            std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    };
    assert_eq!(names(single), names(merged));
    for n in names(single) {
        let (a, b) = (single.join(&n), merged.join(&n));
        match n.as_str() {
            "calibration.json" => {
                let (mut x, mut y) = (json(&a), json(&b));
                x.as_object_mut().unwrap().remove("time_seconds");
                y.as_object_mut().unwrap().remove("time_seconds");
                assert_eq!(x, y, "calibration.json differs beyond its times");
            }
            "manifest.json" => {
                let (x, mut y) = (json(&a), json(&b));
                assert!(x["merged_shards"].is_null());
                assert_eq!(y["merged_shards"].as_array().map(Vec::len), Some(4));
                y["merged_shards"] = Value::Null;
                assert_eq!(x, y, "manifest.json differs beyond the shards merged");
            }
            // The record of the files written: its fingerprints follow the files' times.
            ".written.json" => {}
            "report.md" => {
                let strip = |p: &Path| {
                    std::fs::read_to_string(p)
                        .unwrap()
                        .lines()
                        .filter(|l| !l.contains("second"))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                assert_eq!(strip(&a), strip(&b), "report.md differs");
            }
            _ => assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(), "{n} differs"),
        }
    }
}

#[test]
fn four_shards_of_a_count_run_merge_to_the_single_run_for_every_kind() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str]); 3] = [
        ("sudoku", &["--kind", "sudoku", "--count", "1500", "--seed", "5"]),
        ("kenken", &["--kind", "kenken", "--size", "6", "--count", "203", "--seed", "2"]),
        ("kakuro", &["--kind", "kakuro", "--count", "61", "--seed", "3"]),
    ];
    for (kind, args) in cases {
        let single = tmp.path().join(format!("{kind}-single"));
        assert!(gen(&single, args).status.success());
        let shard = |k: usize| tmp.path().join(format!("{kind}-{k}"));
        for k in [0, 1, 3] {
            let spec = format!("{k}/4");
            let mut a = args.to_vec();
            a.extend(["--shard", &spec]);
            assert!(gen(&shard(k), &a).status.success(), "{kind} shard {k}");
        }
        let (s0, s1, s2, s3) = (shard(0), shard(1), shard(2), shard(3));
        let out = tmp.path().join(format!("{kind}-merged"));
        // Shard 2 not made yet: refused, naming it.
        let o = merge(&out, &[&s0, &s1, &s3]);
        assert_eq!(o.status.code(), Some(2), "{kind}: {}", stderr(&o));
        assert!(stderr(&o).contains("K = 2 of N = 4"), "{}", stderr(&o));
        assert!(!out.exists());
        // Shard 2 as a Slurm array task would run it (task ids 5..8, this one 7).
        let mut a = vec!["generate", "--quiet", "--out", s2.to_str().unwrap(), "--shard", "auto"];
        a.extend_from_slice(args);
        let o = bin()
            .args(&a)
            .env("SLURM_ARRAY_TASK_ID", "7")
            .env("SLURM_ARRAY_TASK_MIN", "5")
            .env("SLURM_ARRAY_TASK_COUNT", "4")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(json(&s2.join("manifest.json"))["shard"], serde_json::json!({"k": 2, "n": 4}));
        let o = merge(&out, &[&s3, &s1, &s2, &s0]);
        assert!(o.status.success(), "{kind}: {}", stderr(&o));
        assert_same_as_single(&single, &out);
        // Together the shards tried exactly the single run's candidates.
        let tried: u64 = [&s0, &s1, &s2, &s3]
            .iter()
            .map(|d| json(&d.join("calibration.json"))["candidates"]["tried"].as_u64().unwrap())
            .sum();
        assert_eq!(tried, json(&single.join("calibration.json"))["candidates"]["tried"].as_u64().unwrap());
    }
}

fn book_rows(dir: &Path, file: &str) -> Vec<csv::StringRecord> {
    csv::Reader::from_path(dir.join(file)).unwrap().records().map(|r| r.unwrap()).collect()
}

#[test]
fn a_quota_order_in_shards_merges_to_exactly_the_quota_without_duplicates() {
    // 3x3 KenKen has few distinct puzzles, so the shards make the same ones: the merge drops
    // them and the reserves keep every quota exact. (Few distinct mediums exist: eight, shared
    // as 3 per shard with the reserve, found only 7 once quota orders stopped making variants.)
    let tmp = tempfile::tempdir().unwrap();
    let quota = "easy=20,medium=6";
    let dirs: Vec<_> = (0..4).map(|k| tmp.path().join(format!("q{k}"))).collect();
    for (k, d) in dirs.iter().enumerate() {
        let spec = format!("{k}/4");
        let o = gen(d, &["--kind", "kenken", "--size", "3", "--quota", quota, "--seed", "3", "--shard", &spec]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let out = tmp.path().join("merged");
    let refs: Vec<&Path> = dirs.iter().map(|d| d.as_path()).collect();
    let o = merge(&out, &refs);
    assert!(o.status.success(), "{}", stderr(&o));
    let cal = json(&out.join("calibration.json"));
    assert_eq!(cal["order"]["stopped"], "quotas met");
    assert!(cal["candidates"]["rejected"]["duplicate"].as_u64().unwrap() > 0, "the shards made the same puzzles");
    for (g, want) in [("easy", 20), ("medium", 6), ("hard", 0), ("expert", 0)] {
        let rows = book_rows(&out, &format!("book-{g}.csv"));
        assert_eq!(rows.len(), want, "{g}");
        assert_eq!(cal["order"]["quota"][g]["emitted"], want);
        assert_eq!(cal["order"]["quota"][g]["missing"], 0);
    }
    let all = book_rows(&out, "puzzles.csv");
    assert_eq!(all.len(), 26);
    let keys: HashSet<String> = all.iter().map(|r| r[10].to_string()).collect();
    assert_eq!(keys.len(), 26, "a canonical key twice");
    let index: Vec<u64> = all.iter().map(|r| r[3].parse().unwrap()).collect();
    assert!(index.windows(2).all(|w| w[0] < w[1]), "not in candidate order");
    // Every puzzle the shards made beyond the books is in overflow.jsonl, none twice.
    let overflow = std::fs::read_to_string(out.join("overflow.jsonl")).unwrap();
    let surplus: u64 = ["easy", "medium", "hard", "expert"]
        .iter()
        .map(|g| cal["order"]["quota"][g]["surplus"].as_u64().unwrap())
        .sum();
    assert_eq!(overflow.lines().count() as u64, surplus);
    assert_eq!(cal["candidates"]["accepted"].as_u64().unwrap(), 26 + surplus);
}

#[test]
fn mismatched_shards_are_refused_naming_the_mismatch() {
    let tmp = tempfile::tempdir().unwrap();
    let p = |n: &str| tmp.path().join(n);
    let make = |name: &str, extra: &[&str]| {
        let mut a = vec!["--count", "200"];
        if !extra.contains(&"--seed") {
            a.extend(["--seed", "5"]);
        }
        a.extend_from_slice(extra);
        let o = gen(&p(name), &a);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    };
    for k in 0..3 {
        make(&format!("s{k}"), &["--shard", &format!("{k}/3")]);
    }
    make("seed6", &["--shard", "2/3", "--seed", "6"]);
    make("sym", &["--shard", "2/3", "--symmetry", "none"]);
    make("n4", &["--shard", "2/4"]);
    make("single", &[]);
    // An unfinished shard: its run saved (SIGKILL after the first save), not finished.
    let mut child = bin()
        .args(["generate", "--quiet", "--count", "50000000", "--seed", "5", "--shard", "2/3", "--out"])
        .arg(p("killed"))
        .spawn()
        .unwrap();
    let staging = tmp.path().join(".killed.staging/.run.json");
    let start = std::time::Instant::now();
    while !staging.exists() && start.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let cases = [
        ("seed6", "seed 6 differs"),
        ("sym", "parameters"),
        ("n4", "one of 4"),
        ("s1", "given twice"),
        ("single", "not a shard"),
        ("killed", "unfinished"),
        ("absent", "no such folder"),
    ];
    for (third, want) in cases {
        let o = merge(&p("out"), &[&p("s0"), &p("s1"), &p(third)]);
        assert_eq!(o.status.code(), Some(2), "{third}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{third}: {}", stderr(&o));
        assert!(!p("out").exists());
    }
    // --out may not be a shard, not even with --force.
    let o = run(
        &[
            "merge",
            "--quiet",
            "--force",
            "--out",
            p("s1").to_str().unwrap(),
            p("s0").to_str().unwrap(),
            p("s1").to_str().unwrap(),
            p("s2").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is the shard 1/3 itself"), "{}", stderr(&o));
    let o = merge(&p("out"), &[&p("s0"), &p("s1"), &p("s2")]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A merged book is no shard, and a finished --out is refused without --force.
    let o = merge(&p("out"), &[&p("s0"), &p("s1"), &p("s2")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    let o = merge(&p("again"), &[&p("s0"), &p("s1"), &p("out")]);
    assert!(stderr(&o).contains("merged book"), "{}", stderr(&o));
}

#[test]
fn bad_shard_flags_are_usage_errors() {
    let tmp = tempfile::tempdir().unwrap();
    for (spec, want) in [("4/4", "K must be 0 to N-1"), ("1/0", "N must be"), ("x", "not K/N"), ("auto", "SLURM_ARRAY")]
    {
        let o = bin()
            .args(["generate", "--quiet", "--shard", spec, "--out"])
            .arg(tmp.path().join("o"))
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("SLURM_ARRAY_TASK_COUNT")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{spec}");
        assert!(stderr(&o).contains(want), "{spec}: {}", stderr(&o));
    }
}

/// A copy of the book folder `from` at `to` (a book folder holds files only).
fn copy_book(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Line `n` (1-based) of `file` in `dir` replaced by `f` of it, or removed when `f` gives None.
fn edit_line(dir: &Path, file: &str, n: usize, f: impl Fn(&str) -> Option<String>) {
    let path = dir.join(file);
    let mut lines: Vec<String> = std::fs::read_to_string(&path).unwrap().lines().map(str::to_string).collect();
    match f(&lines[n - 1]) {
        Some(l) => lines[n - 1] = l,
        None => drop(lines.remove(n - 1)),
    }
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
}

/// `line` with the byte at `at` (an ASCII digit) changed to another digit from 1 to 9.
fn other_digit(line: &str, at: usize) -> String {
    let d = line.as_bytes()[at] - b'0';
    let mut b = line.as_bytes().to_vec();
    b[at] = b'0' + d % 9 + 1;
    String::from_utf8(b).unwrap()
}

/// `line` with the Sudoku solution that starts at byte `at` (81 digits) changed: cell 0 swapped
/// with the first other cell of row 0 that differs (the row keeps its digits, two columns break).
fn swap_solution(line: &str, at: usize) -> String {
    let mut b = line.as_bytes().to_vec();
    let j = (1..9).find(|&j| b[at + j] != b[at]).unwrap();
    b.swap(at, at + j);
    String::from_utf8(b).unwrap()
}

/// Nothing of a refused merge into `out` is left: no folder, no scratch beside it.
fn assert_nothing_left(out: &Path) {
    assert!(!out.exists(), "{} was made", out.display());
    let name = format!(".{}", out.file_name().unwrap().to_string_lossy());
    let left: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&name))
        .collect();
    assert!(left.is_empty(), "left beside the output: {left:?}");
}

#[test]
fn a_damaged_shard_is_refused_naming_the_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let p = |n: &str| tmp.path().join(n);
    for k in 0..3 {
        let o = gen(&p(&format!("s{k}")), &["--count", "300", "--seed", "9", "--shard", &format!("{k}/3")]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = merge(&p("whole"), &[&p("s0"), &p("s1"), &p("s2")]);
    assert!(o.status.success(), "undamaged shards merge: {}", stderr(&o));
    // Record 20 of shard 1: line 20 of puzzles.jsonl, line 21 of puzzles.csv (after the header).
    let given = |l: &str| {
        let at = l.find("\"puzzle\":\"").unwrap() + 10;
        at + l[at..].find(|c: char| c.is_ascii_digit()).unwrap()
    };
    let steps = |l: &str| l.match_indices(',').nth(4).unwrap().0 + 1;
    let records = std::fs::read_to_string(p("s1/puzzles.jsonl")).unwrap().lines().count();
    assert!(records > 20);
    let (last, last_csv) = (
        format!("bad/puzzles.jsonl line {records}: cut short"),
        format!("bad/puzzles.csv line {}: a record that ", records + 1),
    );
    type Damage = Box<dyn Fn(&Path)>;
    let cases: Vec<(&str, Damage, Vec<&str>)> = vec![
        (
            "a given's digit changed in puzzles.jsonl",
            Box::new(move |d| edit_line(d, "puzzles.jsonl", 20, |l| Some(other_digit(l, given(l))))),
            vec!["bad/puzzles.jsonl line 20: the ", "solution"],
        ),
        (
            "a digit of the steps changed in puzzles.csv",
            Box::new(move |d| edit_line(d, "puzzles.csv", 21, |l| Some(other_digit(l, steps(l))))),
            vec!["bad/puzzles.csv line 21 and ", "bad/puzzles.jsonl line 20 disagree on steps"],
        ),
        (
            "the solution changed in both files alike",
            Box::new(|d| {
                edit_line(d, "puzzles.jsonl", 20, |l| Some(swap_solution(l, l.find("\"solution\":\"").unwrap() + 12)));
                edit_line(d, "puzzles.csv", 21, |l| Some(swap_solution(l, l.match_indices(',').nth(8).unwrap().0 + 1)));
            }),
            vec!["bad/puzzles.jsonl line 20: the recorded solution does not solve the puzzle"],
        ),
        (
            "a line removed from puzzles.csv",
            Box::new(|d| edit_line(d, "puzzles.csv", 21, |_| None)),
            vec!["bad/puzzles.csv line 21 is not the record of ", "bad/puzzles.jsonl line 20"],
        ),
        (
            "a line removed from puzzles.jsonl",
            Box::new(|d| edit_line(d, "puzzles.jsonl", 20, |_| None)),
            vec!["bad/puzzles.csv line 21 is not the record of ", "bad/puzzles.jsonl line 20"],
        ),
        (
            "the last record of puzzles.jsonl removed",
            Box::new(move |d| edit_line(d, "puzzles.jsonl", records, |_| None)),
            vec![last_csv.as_str(), "puzzles.jsonl lacks"],
        ),
        (
            "puzzles.jsonl cut short",
            Box::new(|d| {
                let f = std::fs::OpenOptions::new().write(true).open(d.join("puzzles.jsonl")).unwrap();
                f.set_len(f.metadata().unwrap().len() - 7).unwrap();
            }),
            vec![last.as_str()],
        ),
    ];
    for (what, damage, want) in cases {
        copy_book(&p("s1"), &p("bad"));
        damage(&p("bad"));
        let o = merge(&p("out"), &[&p("s0"), &p("bad"), &p("s2")]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{what}: {e}");
        assert!(want.iter().all(|w| e.contains(w)), "{what}: {e}");
        assert_nothing_left(&p("out"));
    }
}

/// `dir`'s manifest.json with `f` applied.
fn edit_manifest(dir: &Path, f: impl Fn(&mut Value)) {
    let mut m = json(&dir.join("manifest.json"));
    f(&mut m);
    std::fs::write(dir.join("manifest.json"), serde_json::to_vec_pretty(&m).unwrap()).unwrap();
}

/// The bad merges `mismatched_shards_are_refused_naming_the_mismatch` does not make: a third
/// shard of another kind, count, config, quota, version or program, without its manifest, with
/// a corrupt calibration.json, or with solution paths where the others have none.
#[test]
fn more_mismatched_shards_are_refused_naming_the_mismatch() {
    let tmp = tempfile::tempdir().unwrap();
    let p = |n: &str| tmp.path().join(n);
    let make = |name: &str, extra: &[&str]| {
        let mut a = vec!["--seed", "5"];
        if !extra.contains(&"--quota") && !extra.contains(&"--count") {
            a.extend(["--count", if extra.contains(&"--kind") { "30" } else { "200" }]);
        }
        a.extend_from_slice(extra);
        let o = gen(&p(name), &a);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    };
    for k in 0..3 {
        make(&format!("s{k}"), &["--shard", &format!("{k}/3")]);
    }
    let config = p("k1.toml");
    std::fs::write(&config, "[grades]\nk1 = 200.0\n").unwrap();
    make("kenken", &["--shard", "2/3", "--kind", "kenken", "--size", "4"]);
    make("count", &["--shard", "2/3", "--count", "300"]);
    make("config", &["--shard", "2/3", "--config", config.to_str().unwrap()]);
    make("quota", &["--shard", "2/3", "--quota", "easy=5"]);
    make("paths", &["--shard", "2/3", "--paths"]);
    for name in ["version", "program", "nomanifest", "calibration"] {
        copy_book(&p("s2"), &p(name));
    }
    edit_manifest(&p("version"), |m| m["version"] = "0.0.1".into());
    edit_manifest(&p("program"), |m| m["program"] = "sudoku-maker".into());
    std::fs::remove_file(p("nomanifest/manifest.json")).unwrap();
    std::fs::write(p("calibration/calibration.json"), "{\"thresholds\": ").unwrap();
    let cases = [
        ("kenken", "kind \"kenken\" differs"),
        ("count", "count 300 differs"),
        ("config", "config "),
        ("quota", "differs"),
        ("version", "version \"0.0.1\" differs"),
        ("program", "not a manifest of puzzle-factory"),
        ("nomanifest", "no finished book here"),
        ("calibration", "calibration/calibration.json"),
        ("paths", "some shards recorded solution paths"),
    ];
    for (third, want) in cases {
        let o = merge(&p("out"), &[&p("s0"), &p("s1"), &p(third)]);
        assert_eq!(o.status.code(), Some(2), "{third}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{third}: {}", stderr(&o));
        assert_nothing_left(&p("out"));
    }
}
