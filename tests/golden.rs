//! Golden files: the exact output of fixed runs, one per kind, under `tests/data/<kind>/`.
//!
//! Each golden file is the `puzzles.csv` of a small `generate` run with a fixed seed and
//! parameters: ids, grades, exact step counts, hardest levels, every technique count, puzzles
//! and solutions. Any change to generation, uniqueness, the ladder, the step formula, the
//! techniques, grading or ids fails here until the files are regenerated on purpose:
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test --release --test suite golden::
//! ```
//!
//! and the commit that does so says why the output changed. `rate` of the same puzzles must
//! give the same grades and steps as the book (the rater is pure), and the books must not
//! depend on the thread count.

use crate::common;

use common::{run, stdout};
use std::path::{Path, PathBuf};

struct Case {
    kind: &'static str,
    /// Extra flags of the run (board size).
    flags: &'static [&'static str],
    count: &'static str,
    seed: &'static str,
    file: &'static str,
}

const CASES: &[Case] = &[
    Case { kind: "sudoku", flags: &[], count: "40", seed: "20261123", file: "sudoku/golden-9.csv" },
    Case { kind: "kenken", flags: &["--size", "6"], count: "30", seed: "20261123", file: "kenken/golden-6.csv" },
    Case { kind: "kenken", flags: &["--size", "9"], count: "8", seed: "20261123", file: "kenken/golden-9.csv" },
    Case {
        kind: "kakuro",
        flags: &["--rows", "8", "--cols", "10"],
        count: "20",
        seed: "20261123",
        file: "kakuro/golden-8x10.csv",
    },
    // The Sudoku family: killers (their cage techniques), jigsaw, X and a 16×16.
    Case {
        kind: "sudoku",
        flags: &["--box", "2x3", "--killer"],
        count: "30",
        seed: "20261125",
        file: "sudoku/golden-6k.csv",
    },
    Case {
        kind: "sudoku",
        flags: &["--box", "3x3", "--killer"],
        count: "12",
        seed: "20261125",
        file: "sudoku/golden-9k.csv",
    },
    Case {
        kind: "sudoku",
        flags: &["--jigsaw", "--size", "9"],
        count: "12",
        seed: "20261125",
        file: "sudoku/golden-9j.csv",
    },
    Case { kind: "sudoku", flags: &["--diagonals"], count: "12", seed: "20261125", file: "sudoku/golden-9x.csv" },
    Case { kind: "sudoku", flags: &["--box", "4x4"], count: "4", seed: "20261125", file: "sudoku/golden-16.csv" },
    Case { kind: "futoshiki", flags: &["--size", "6"], count: "30", seed: "20261127", file: "futoshiki/golden-6.csv" },
    Case {
        kind: "skyscrapers",
        flags: &["--size", "6"],
        count: "30",
        seed: "20261127",
        file: "skyscrapers/golden-6.csv",
    },
];

fn golden_path(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(file)
}

fn generate(case: &Case, threads: &str, out: &Path) -> String {
    let mut args = vec!["--kind", case.kind, "generate", "--count", case.count, "--seed", case.seed];
    args.extend_from_slice(case.flags);
    let out_s = out.to_str().unwrap();
    args.extend_from_slice(&["--threads", threads, "--quiet", "--out", out_s]);
    let o = run(&args, None);
    assert!(o.status.success(), "{:?}: {}", args, common::stderr(&o));
    std::fs::read_to_string(out.join("puzzles.csv")).unwrap()
}

/// The first differing line, for a readable failure.
fn first_difference(want: &str, got: &str) -> String {
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("line {}:\n  golden: {w}\n  now:    {g}", i + 1);
        }
    }
    format!("line counts differ: golden {}, now {}", want.lines().count(), got.lines().count())
}

#[test]
fn books_match_the_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let tmp = tempfile::tempdir().unwrap();
    for (i, case) in CASES.iter().enumerate() {
        let got = generate(case, "2", &tmp.path().join(format!("g{i}")));
        let path = golden_path(case.file);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
        assert!(
            want == got,
            "{} changed ({} {:?} seed {}): {}\nIf the change is intended, regenerate with UPDATE_GOLDEN=1 and say why in the commit.",
            case.file,
            case.kind,
            case.flags,
            case.seed,
            first_difference(&want, &got)
        );
        // The same run on one thread writes the same bytes.
        let one = generate(case, "1", &tmp.path().join(format!("t{i}")));
        assert!(one == got, "{}: --threads 1 differs: {}", case.file, first_difference(&got, &one));
    }
}

#[test]
fn rate_agrees_with_the_golden_books() {
    for case in CASES {
        let path = golden_path(case.file);
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let h = r.headers().unwrap().clone();
        let col = |name: &str| h.iter().position(|x| x == name).unwrap();
        let (puzzle, grade, steps, level) = (col("puzzle"), col("grade"), col("steps"), col("hardest_level"));
        let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
        let input: String = rows.iter().map(|row| format!("{}\n", &row[puzzle])).collect();
        let mut args = vec!["--kind", case.kind];
        // Grades of a KenKen size come from that size's thresholds in `rate` too.
        args.push("rate");
        let o = run(&args, Some(&input));
        assert!(o.status.success(), "{}", common::stderr(&o));
        let out = stdout(&o);
        let mut rr = csv::Reader::from_reader(out.as_bytes());
        let rh = rr.headers().unwrap().clone();
        let rcol = |name: &str| rh.iter().position(|x| x == name).unwrap();
        let rated: Vec<csv::StringRecord> = rr.records().map(|x| x.unwrap()).collect();
        assert_eq!(rated.len(), rows.len(), "{}", case.file);
        for (book, rate) in rows.iter().zip(&rated) {
            assert_eq!(&book[steps], &rate[rcol("steps")], "{}: {}", case.file, &book[0]);
            assert_eq!(&book[level], &rate[rcol("hardest_level")], "{}: {}", case.file, &book[0]);
            assert_eq!(&book[grade], &rate[rcol("grade")], "{}: {}", case.file, &book[0]);
        }
    }
}
