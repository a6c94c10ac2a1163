//! Finishing a run, killed at every step (SPEC.md, "Runs and the output folder"; `outdir`):
//! `PUZZLE_FACTORY_CRASH_AT=STEP` makes the real binary kill itself with SIGKILL at that file-
//! system step of finishing, deterministically, and `--resume` must then complete the run with
//! the same book as an uninterrupted one. Also: a resume that fails keeps the saved run, and
//! `--resume` with nothing saved never runs on defaults.

use crate::common;

use common::{bin, run, stderr};
use std::os::unix::process::ExitStatusExt as _;
use std::path::Path;

/// Every step of finishing, in order (the names `crash_point` is called with).
pub const STEPS: [&str; 9] = [
    "books-closed",
    "report-written",
    "sealed",
    "scratch-partly",
    "scratch-removed",
    "listed",
    "swapped",
    "unmarked",
    "old-removed",
];

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|r| r.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

const RUN: [&str; 6] = ["--count", "300", "--seed", "11", "--quota", "easy=5,medium=40,hard=5,expert=200"];

fn generate(out: &Path, extra: &[&str], crash: Option<&str>) -> std::process::Output {
    let mut c = bin();
    c.args(["generate", "--quiet", "--threads", "2", "--out"]).arg(out).args(extra);
    if let Some(step) = crash {
        c.env("PUZZLE_FACTORY_CRASH_AT", step);
    }
    c.output().unwrap()
}

/// The same book: every file byte for byte, calibration.json apart from its times, and the
/// same record of files (its fingerprints differ with calibration.json's times).
pub fn assert_same_book(a: &Path, b: &Path, what: &str) {
    assert_eq!(names(a), names(b), "{what}");
    for n in names(a) {
        if n == "calibration.json" {
            let read = |d: &Path| {
                let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(d.join(&n)).unwrap()).unwrap();
                v.as_object_mut().unwrap().remove("time_seconds");
                v
            };
            assert_eq!(read(a), read(b), "{what}: calibration.json differs beyond its times");
        } else if n != ".written.json" {
            assert!(std::fs::read(a.join(&n)).unwrap() == std::fs::read(b.join(&n)).unwrap(), "{what}: {n} differs");
        }
    }
}

#[test]
fn a_run_killed_at_every_finishing_step_resumes_to_the_same_book() {
    let tmp = tempfile::tempdir().unwrap();
    let reference = tmp.path().join("reference");
    let o = generate(&reference, &RUN, None);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    for step in STEPS {
        // Into an absent folder, and over a finished book (--force).
        for over_a_book in [false, true] {
            let root = tmp.path().join(format!("{step}-{over_a_book}"));
            let out = root.join("book");
            if over_a_book {
                assert!(generate(&out, &["--count", "30", "--seed", "3"], None).status.success());
            }
            let mut args = RUN.to_vec();
            args.extend(over_a_book.then_some("--force"));
            let o = generate(&out, &args, Some(step));
            let what = format!("killed at {step}, over a book: {over_a_book}");
            assert_eq!(o.status.signal(), Some(9), "{what}: not killed there: {}", stderr(&o));
            let o = generate(&out, &["--resume"], None);
            assert!(matches!(o.status.code(), Some(0 | 3)), "{what}: {}", stderr(&o));
            assert_same_book(&out, &reference, &what);
            assert_eq!(names(&root), [".book.lock", "book"], "{what}");
            // Nothing left to resume, and the book is refused without --force.
            let o = generate(&out, &["--resume"], None);
            assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(&o));
            assert!(stderr(&o).contains("finished"), "{what}: {}", stderr(&o));
        }
    }
}

#[test]
fn a_resume_killed_while_finishing_is_resumed_again() {
    let tmp = tempfile::tempdir().unwrap();
    let reference = tmp.path().join("reference");
    assert_eq!(generate(&reference, &RUN, None).status.code(), Some(3));
    let out = tmp.path().join("book");
    assert_eq!(generate(&out, &RUN, Some("books-closed")).status.signal(), Some(9));
    assert_eq!(generate(&out, &["--resume"], Some("report-written")).status.signal(), Some(9));
    assert_eq!(generate(&out, &["--resume"], Some("scratch-partly")).status.signal(), Some(9));
    assert_eq!(generate(&out, &["--resume"], Some("swapped")).status.signal(), Some(9));
    let o = generate(&out, &["--resume"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_same_book(&out, &reference, "resumed three times");
    // A sealed run resumed reports the run's own exit code (3: stopped short of the order).
    let out = tmp.path().join("sealed");
    assert_eq!(generate(&out, &RUN, Some("listed")).status.signal(), Some(9));
    let o = generate(&out, &["--resume"], None);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_same_book(&out, &reference, "sealed, then resumed");
}

#[test]
fn a_failed_resume_keeps_the_saved_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("book");
    assert_eq!(generate(&out, &RUN, Some("books-closed")).status.signal(), Some(9));
    let staging = tmp.path().join(".book.staging");
    let keys = std::fs::read(staging.join(".keys")).unwrap();
    std::fs::remove_file(staging.join(".keys")).unwrap();
    for _ in 0..2 {
        let o = generate(&out, &["--resume"], None);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains(".keys"), "{}", stderr(&o));
        assert!(staging.join(".run.json").exists(), "a failed resume deleted the saved run");
        assert!(!out.exists());
    }
    // Put back, it resumes.
    std::fs::write(staging.join(".keys"), keys).unwrap();
    let o = generate(&out, &["--resume"], None);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(names(tmp.path()), [".book.lock", "book"]);
}

#[test]
fn resume_with_nothing_saved_never_runs_the_defaults() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("book");
    let o = generate(&out, &["--resume"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing to continue"), "{}", stderr(&o));
    assert!(!out.exists());
    let o = generate(&out, &["--resume", "--count", "20"], None);
    assert_eq!(o.status.code(), Some(2), "no --seed: {}", stderr(&o));
    // The full flags, as a cluster script passes them every time: a fresh run.
    let o = generate(&out, &["--resume", "--count", "20", "--seed", "4"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("puzzles.csv").exists());
}

#[test]
fn the_time_limit_belongs_to_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("book");
    assert_eq!(generate(&out, &RUN, Some("books-closed")).status.signal(), Some(9));
    let o = generate(&out, &["--resume", "--time-limit", "1s"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--time-limit 1s differs from the saved run"), "{}", stderr(&o));
    assert!(tmp.path().join(".book.staging/.run.json").exists());
}

#[test]
fn force_never_deletes_what_the_program_did_not_write() {
    let tmp = tempfile::tempdir().unwrap();
    let art = tmp.path().join("art");
    std::fs::create_dir_all(art.join("photos.svg")).unwrap();
    std::fs::write(art.join("company-logo.svg"), "<svg/>").unwrap();
    std::fs::write(art.join("book-keeping.csv"), "a,b\n").unwrap();
    std::fs::write(art.join("photos.svg/beach.jpg"), "jpeg").unwrap();
    let before = names(&art);
    for force in [false, true] {
        let args: &[&str] = if force { &["--count", "5", "--force"] } else { &["--count", "5"] };
        let o = generate(&art, args, None);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("not puzzle-factory's"), "{}", stderr(&o));
        assert_eq!(names(&art), before);
        assert_eq!(std::fs::read(art.join("photos.svg/beach.jpg")).unwrap(), b"jpeg");
    }
    // A folder named like a book file, with a user's file inside.
    let p = tmp.path().join("p");
    std::fs::create_dir_all(p.join("puzzles.csv")).unwrap();
    std::fs::write(p.join("puzzles.csv/keep.txt"), "mine").unwrap();
    let o = generate(&p, &["--count", "5", "--force"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(p.join("puzzles.csv/keep.txt")).unwrap(), b"mine");
    // A book of ours with a user's own puzzles.csv put in place of ours: refused, kept.
    let b = tmp.path().join("b");
    assert!(generate(&b, &["--count", "5"], None).status.success());
    std::fs::write(b.join("puzzles.csv"), "the user's own\n").unwrap();
    let o = generate(&b, &["--count", "5", "--force"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("puzzles.csv"), "{}", stderr(&o));
    assert_eq!(std::fs::read(b.join("puzzles.csv")).unwrap(), b"the user's own\n");
    // Unchanged, it is ours: replaced.
    let c = tmp.path().join("c");
    assert!(generate(&c, &["--count", "5"], None).status.success());
    let o = run(&["generate", "--quiet", "--count", "5", "--seed", "2", "--force", "--out", c.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn refused_targets_leave_no_lock_and_planted_links_are_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("plain");
    std::fs::write(&file, "x").unwrap();
    let o = generate(&file, &["--count", "5"], None);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(names(tmp.path()), ["plain"], "a refused file target left a lock");
    // A planted lock link: refused, its target untouched.
    let target = tmp.path().join("precious");
    std::fs::write(&target, "keep").unwrap();
    std::os::unix::fs::symlink(&target, tmp.path().join(".o.lock")).unwrap();
    let o = generate(&tmp.path().join("o"), &["--count", "5"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&target).unwrap(), b"keep");
    // A staging link to a saved run elsewhere: --resume refuses it and writes nothing there.
    std::fs::remove_file(tmp.path().join(".o.lock")).unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    assert_eq!(generate(&elsewhere, &RUN, Some("books-closed")).status.signal(), Some(9));
    std::os::unix::fs::symlink(tmp.path().join(".elsewhere.staging"), tmp.path().join(".o.staging")).unwrap();
    let o = generate(&tmp.path().join("o"), &["--resume"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert!(!tmp.path().join("o").exists() && !elsewhere.exists());
}
