//! The real binary, end to end, on Sudoku: books, determinism, replay, bad input, config errors.

use crate::common;
use common::{grid, run, simple_count, stderr, stdout};
use std::path::Path;

const BOOK_FILES: &[&str] = &[
    "puzzles.csv",
    "puzzles.jsonl",
    "book-easy.csv",
    "book-medium.csv",
    "book-hard.csv",
    "book-expert.csv",
    "book-easy.json",
    "book-medium.json",
    "book-hard.json",
    "book-expert.json",
    "manifest.json",
];

fn generate(dir: &Path, threads: &str, count: &str, seed: &str) {
    let o = run(
        &[
            "generate",
            "--count",
            count,
            "--seed",
            seed,
            "--out",
            dir.to_str().unwrap(),
            "--threads",
            threads,
            "--quiet",
        ],
        None,
    );
    assert!(o.status.success(), "generate failed: {}", stderr(&o));
}

fn calibration_without_times(dir: &Path) -> serde_json::Value {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("calibration.json")).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("time_seconds");
    v
}

#[test]
fn threads_1_and_2_give_identical_books() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("t1"), tmp.path().join("t2"));
    // A small chunk size so that the 2-thread run spans several chunks.
    let cfg = tmp.path().join("small-chunk.toml");
    std::fs::write(&cfg, "[run]\nchunk = 37\n").unwrap();
    for (dir, threads) in [(&a, "1"), (&b, "2")] {
        let o = run(
            &[
                "generate",
                "--count",
                "300",
                "--seed",
                "77",
                "--out",
                dir.to_str().unwrap(),
                "--threads",
                threads,
                "--quiet",
                "--config",
                cfg.to_str().unwrap(),
            ],
            None,
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    for f in BOOK_FILES {
        let (x, y) = (std::fs::read(a.join(f)).unwrap(), std::fs::read(b.join(f)).unwrap());
        assert!(x == y, "{f} differs between --threads 1 and --threads 2");
    }
    assert_eq!(calibration_without_times(&a), calibration_without_times(&b));
    // Nothing is left under a temporary name.
    let leftovers: Vec<_> = std::fs::read_dir(&a)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

/// calibration.json, read as its typed form, states per grade and for all exactly the figures a
/// plain recomputation from the `steps` column gives: nearest-rank median and p90, the mean
/// rounded half up, and a histogram holding every puzzle.
fn check_step_figures(dir: &Path, mut steps: std::collections::HashMap<String, Vec<u64>>) {
    let cal: puzzle_factory::book::Calibration =
        serde_json::from_str(&std::fs::read_to_string(dir.join("calibration.json")).unwrap()).unwrap();
    let all: Vec<u64> = steps.values().flatten().copied().collect();
    steps.insert("all".into(), all);
    let grades = cal.grades.as_array();
    for (name, entry) in ["easy", "medium", "hard", "expert", "all"].iter().zip(grades.into_iter().chain([&cal.all])) {
        let mut v = steps.remove(*name).unwrap_or_default();
        v.sort();
        let n = v.len();
        assert_eq!(entry.count as usize, n, "{name}");
        let Some(s) = entry.steps else { continue };
        let at = |num: usize, den: usize| v[(num * n).div_ceil(den).max(1) - 1] as f64 / 100.0;
        let sum: u64 = v.iter().sum();
        let mean = (sum / n as u64 + u64::from(2 * (sum % n as u64) >= n as u64)) as f64 / 100.0;
        let want = [v[0] as f64 / 100.0, at(1, 2), mean, at(9, 10), v[n - 1] as f64 / 100.0];
        assert_eq!([s.min, s.median, s.mean, s.p90, s.max], want, "{name}");
        let h = &entry.histogram;
        assert_eq!(h.counts.iter().sum::<u64>() as usize, n, "{name}");
        assert_eq!((h.edges[0], h.edges[h.edges.len() - 1]), (want[0], (v[n - 1] + 1) as f64 / 100.0));
    }
}

#[test]
fn book_puzzles_are_unique_consistent_and_graded() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("book");
    generate(&dir, "2", "400", "5");
    let mut rdr = csv::Reader::from_path(dir.join("puzzles.csv")).unwrap();
    let headers = rdr.headers().unwrap().clone();
    let names: Vec<&str> = headers.iter().collect();
    assert_eq!(
        &names[..10],
        ["id", "kind", "seed", "index", "grade", "steps", "hardest_level", "givens", "puzzle", "solution"]
    );
    let mut last_index = -1i64;
    let mut per_grade = std::collections::HashMap::new();
    let mut steps = std::collections::HashMap::new();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let (p, s) = (grid(&rec[8]), grid(&rec[9]));
        assert_eq!(simple_count(&p, 2), 1, "not unique: {}", &rec[8]);
        assert_eq!(simple_count(&s, 2), 1);
        for i in 0..81 {
            assert!(p[i] == 0 || p[i] == s[i]);
        }
        let index: i64 = rec[3].parse().unwrap();
        assert!(index > last_index, "rows out of candidate order");
        last_index = index;
        assert_eq!(rec[7].parse::<usize>().unwrap(), p.iter().filter(|&&d| d != 0).count());
        *per_grade.entry(rec[4].to_string()).or_insert(0) += 1;
        // The printed steps as integer centi-steps, for the statistics check below.
        let centi: u64 = rec[5].replace('.', "").parse().unwrap();
        steps.entry(rec[4].to_string()).or_insert_with(Vec::new).push(centi);
    }
    check_step_figures(&dir, steps);
    // Per-grade books hold exactly the rows of their grade, in CSV and JSON alike.
    for (g, n) in &per_grade {
        let csv_rows = csv::Reader::from_path(dir.join(format!("book-{g}.csv"))).unwrap().records().count();
        assert_eq!(csv_rows, *n, "{g}");
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(format!("book-{g}.json"))).unwrap()).unwrap();
        assert_eq!(json.as_array().unwrap().len(), *n);
        assert!(json.as_array().unwrap().iter().all(|r| r["grade"] == g.as_str()));
    }
    let cal: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("calibration.json")).unwrap()).unwrap();
    assert_eq!(cal["candidates"]["tried"], 400);
    assert_eq!(cal["candidates"]["accepted"].as_u64().unwrap() as usize, per_grade.values().sum::<usize>());
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["seed"], 5);
    assert_eq!(manifest["kind"], "sudoku");
}

#[test]
fn replay_reproduces_a_row_with_its_step_log() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("book");
    generate(&dir, "2", "40", "9");
    let jsonl = std::fs::read_to_string(dir.join("puzzles.jsonl")).unwrap();
    let line = jsonl.lines().nth(17).unwrap();
    let index = serde_json::from_str::<serde_json::Value>(line).unwrap()["index"].to_string();
    let o = run(&["replay", "--seed", "9", "--index", &index], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().next().unwrap(), line);
    assert!(out.lines().filter(|l| l.starts_with("# try")).count() > 10, "{out}");
}

#[test]
fn rate_reports_bad_lines_and_goes_on() {
    let good = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let input = format!("{good}\nnot a sudoku\n\n{}\n{good},extra,fields\n", "1".repeat(81));
    let o = run(&["rate", "-"], Some(&input));
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("line 2: expected 81 characters"), "{err}");
    assert!(err.contains("line 4: puzzle has no solution"), "{err}");
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().collect();
    assert!(rows[0].starts_with("line,grade,steps,hardest_level,givens,used_naked_single"));
    assert_eq!(rows.len(), 3, "{out}");
    assert!(rows[1].starts_with("1,") && rows[2].starts_with("5,"));
}

#[test]
fn solve_counts_to_two() {
    let unique = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let empty = ".".repeat(81);
    let input = format!("{unique}\n{empty}\n{}\n", "1".repeat(81));
    let o = run(&["solve"], Some(&input));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let rows: Vec<Vec<&str>> = out.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0][1], "1");
    assert_eq!(simple_count(&grid(rows[0][2]), 2), 1);
    assert_eq!(rows[1][1], "2");
    assert_eq!((rows[2][1], rows[2][2]), ("0", ""));
}

#[test]
fn config_and_usage_errors_exit_2_naming_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.toml");
    std::fs::write(&bad, "[grades]\nk1 = 10.0\nk2 = 5.0\nk3 = 30.0\n").unwrap();
    let o = run(
        &[
            "generate",
            "--count",
            "1",
            "--config",
            bad.to_str().unwrap(),
            "--out",
            tmp.path().join("x").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("k1=10") && stderr(&o).contains("k2=5"), "{}", stderr(&o));
    std::fs::write(&bad, "[generate]\nsymetry = \"none\"\n").unwrap();
    let o = run(&["rate", "--config", bad.to_str().unwrap()], Some(""));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("symetry"), "{}", stderr(&o));
    let o = run(&["generate", "--size", "6", "--count", "1", "--out", tmp.path().join("y").to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--size"), "{}", stderr(&o));
    let o = run(&["generate", "--threads", "0"], None);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn calibrate_fits_thresholds_reports_bad_lines_and_writes_a_config() {
    let tmp = tempfile::tempdir().unwrap();
    let reference = tmp.path().join("ref.txt");
    // Take 40 puzzles of each QQWing level from the shared sample, plus two bad lines.
    let text = common::read_data("sudoku/qqwing_levels.txt");
    let mut lines: Vec<String> = Vec::new();
    for level in ["simple", "easy", "intermediate", "expert"] {
        lines.extend(text.lines().filter(|l| l.ends_with(&format!(",{level}"))).take(40).map(str::to_string));
    }
    lines.insert(3, format!("{},easy", ".".repeat(81)));
    lines.insert(5, "12345,easy".to_string());
    let unknown = lines[10].replace(",simple", ",fiendish");
    lines.insert(9, unknown);
    // Saved with a byte-order mark, as some editors do: not part of the first puzzle.
    std::fs::write(&reference, format!("\u{feff}{}", lines.join("\n"))).unwrap();
    let written = tmp.path().join("calibrated.toml");
    let o = run(
        &[
            "calibrate",
            "--reference",
            reference.to_str().unwrap(),
            "--holdout",
            "0.3",
            "--write-config",
            written.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "bad lines make the exit code 1");
    let err = stderr(&o);
    assert!(err.contains("line 4:") && err.contains("line 6:"), "{err}");
    assert!(!err.contains("line 1:"), "the byte-order mark spoilt line 1: {err}");
    assert!(err.contains("line 10: unknown label \"fiendish\""), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let out = stdout(&o);
    assert!(out.contains("thresholds k1=") && out.contains("gamma (held out) ="), "{out}");
    // The written config loads and grades.
    let o = run(&["rate", "--config", written.to_str().unwrap(), "-"], Some(&lines[0]));
    assert!(o.status.success(), "{}", stderr(&o));
    // --levels must list every label.
    let o = run(&["calibrate", "--reference", reference.to_str().unwrap(), "--levels", "simple,easy"], None);
    assert!(stderr(&o).contains("unknown label"), "{}", stderr(&o));
}

/// Issue 43: a reference of one level gave k1=95.54, k2=95.80, k3=99.47 and gamma NaN with exit 0,
/// and --write-config wrote them. A reference of fewer than two levels, and a fit that cannot
/// be made (a level without puzzles for `midpoint`, step counts all equal), are refused with
/// exit 2 naming the problem, and nothing is written.
#[test]
fn calibrate_refuses_one_level_and_degenerate_fits_writing_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let text = common::read_data("sudoku/qqwing_levels.txt");
    let take = |level: &str, n: usize| -> Vec<String> {
        text.lines().filter(|l| l.ends_with(&format!(",{level}"))).take(n).map(str::to_string).collect()
    };
    let one = take("simple", 40);
    let no_intermediate = [take("simple", 20), take("easy", 20), take("expert", 20)].concat();
    let same_puzzle: Vec<String> =
        (0..20).map(|i| one[0].replace(",simple", if i % 2 == 0 { ",simple" } else { ",expert" })).collect();
    let cases: [(&str, &[String], &[&str], &str); 5] = [
        ("one level", &one, &[], "are of 1 level (simple: 40) of the 4 levels simple,easy,intermediate,expert"),
        ("one of the levels given", &one, &["--levels", "simple,easy"], "are of 1 level (simple: 40) of the 2 levels"),
        ("a level without puzzles", &no_intermediate, &[], "level intermediate has no puzzles in the fit part"),
        ("one step count", &same_puzzle, &["--levels", "simple,expert"], "take 1 distinct value"),
        (
            "one step count, quantile",
            &same_puzzle,
            &["--levels", "simple,expert", "--method", "quantile"],
            "equal thresholds",
        ),
    ];
    for (what, lines, flags, want) in cases {
        let reference = tmp.path().join("ref.txt");
        std::fs::write(&reference, lines.join("\n")).unwrap();
        let written = tmp.path().join("calibrated.toml");
        let mut args = vec!["calibrate", "--reference", reference.to_str().unwrap()];
        args.extend_from_slice(flags);
        args.extend(["--write-config", written.to_str().unwrap()]);
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{what}: {}", stderr(&o));
        assert!(!written.exists(), "{what}: a config was written");
    }
}

/// An SVG that parses as XML, is an <svg> document and holds the given texts.
fn check_svg(path: &std::path::Path, texts: &[&str]) -> usize {
    let body = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc =
        roxmltree::Document::parse(&body).unwrap_or_else(|e| panic!("{} is not well-formed: {e}", path.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let all_text: String = doc.descendants().filter(|n| n.is_text()).map(|n| n.text().unwrap_or("")).collect();
    for t in texts {
        assert!(all_text.contains(t), "{} lacks {t:?}", path.display());
    }
    doc.descendants().filter(|n| n.has_tag_name("rect")).count()
}

#[test]
fn generate_and_calibrate_write_reports_with_well_formed_svg_plots() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book");
    let o = run(&["generate", "--count", "300", "--seed", "4", "--quiet", "--out", book.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(book.join("report.md")).unwrap();
    assert!(md.contains("](steps-by-grade.svg)") && md.contains("](technique-usage.svg)"), "{md}");
    // The histogram draws the three thresholds (lines labelled k1..k3) and one bar per filled bin.
    let bars = check_svg(&book.join("steps-by-grade.svg"), &["k1=257", "k2=767", "k3=5016", "easy", "expert"]);
    assert!(bars > 20, "{bars} rects");
    check_svg(&book.join("technique-usage.svg"), &["naked_single", "wxyz_wing", "trial"]);
    let lines = std::fs::read_to_string(book.join("steps-by-grade.svg")).unwrap().matches("<polyline").count();
    assert!(lines >= 3, "threshold lines: {lines}");
    // A calibrate run adds the steps-per-level box plot.
    let rep = tmp.path().join("report");
    let reference = common::data_dir().join("sudoku/qqwing_levels.txt");
    let o = run(
        &["calibrate", "--quiet", "--reference", reference.to_str().unwrap(), "--report", rep.to_str().unwrap()],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    check_svg(&rep.join("level-steps.svg"), &["simple", "intermediate", "expert", "k1="]);
    check_svg(&rep.join("steps-by-grade.svg"), &["k3="]);
    let md = std::fs::read_to_string(rep.join("report.md")).unwrap();
    assert!(md.contains("gamma"), "{md}");
    // The interval printed is the bootstrap one: both ends are gamma values in [-1, 1].
    let interval = md.split("[bootstrap 95%: ").nth(1).and_then(|r| r.split(']').next()).expect("an interval");
    for end in interval.split(", ") {
        let x: f64 = end.parse().unwrap_or_else(|_| panic!("{interval}"));
        assert!((-1.0..=1.0).contains(&x), "{interval}");
    }
}
