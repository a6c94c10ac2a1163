//! The output folder is one transaction (SPEC.md, "Runs and the output folder"): the real
//! binary against a finished book, foreign files, a concurrent run and a run killed with
//! SIGKILL. `scripts/outdir-check.sh` does the same at 20 random kill moments.

use crate::common;

use common::{bin, run, stderr};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|r| r.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

fn gen(out: &Path, seed: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["generate", "--count", "20", "--seed", seed, "--quiet", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args, None)
}

#[test]
fn a_finished_book_is_replaced_only_with_force() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("book");
    assert!(gen(&out, "5", &[]).status.success());
    let first = std::fs::read(out.join("puzzles.csv")).unwrap();
    let o = gen(&out, "6", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(std::fs::read(out.join("puzzles.csv")).unwrap(), first, "a refused run touched the book");
    let o = gen(&out, "6", &["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_ne!(std::fs::read(out.join("puzzles.csv")).unwrap(), first);
    // Beside the book: only the lock, of a few bytes.
    assert_eq!(names(tmp.path()), [".book.lock", "book"]);
    assert!(std::fs::metadata(tmp.path().join(".book.lock")).unwrap().len() < 200);
    // In it: the book and its record of the files written, no scratch.
    assert!(names(&out).iter().all(|n| !n.starts_with('.') || n == ".written.json"), "{:?}", names(&out));
    assert!(names(&out).contains(&".written.json".to_string()));
}

#[test]
fn foreign_files_are_refused_even_with_force() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("mine");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("thesis.tex"), "keep me").unwrap();
    let o = gen(&out, "5", &["--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("thesis.tex"), "{}", stderr(&o));
    assert_eq!(names(&out), ["thesis.tex"]);
    let file = tmp.path().join("plain");
    std::fs::write(&file, "x").unwrap();
    let o = gen(&file, "5", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a directory"), "{}", stderr(&o));
}

#[test]
fn a_second_run_is_refused_and_a_killed_run_leaves_the_previous_book() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    assert!(gen(&out, "5", &[]).status.success());
    let before = std::fs::read(out.join("puzzles.jsonl")).unwrap();
    // A long run over the finished book.
    let mut long = bin()
        .args(["generate", "--count", "100000000", "--seed", "6", "--threads", "1", "--quiet", "--force", "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = tmp.path().join(".o.lock");
    let t = Instant::now();
    while !std::fs::read_to_string(&lock).unwrap_or_default().contains(&format!("pid {}", long.id())) {
        assert!(t.elapsed() < Duration::from_secs(20), "the run never took the lock");
        std::thread::sleep(Duration::from_millis(20));
    }
    let t = Instant::now();
    let o = gen(&out, "7", &["--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(t.elapsed() < Duration::from_secs(5), "the second run waited");
    assert!(stderr(&o).contains(&format!("pid {}", long.id())), "{}", stderr(&o));
    long.kill().unwrap();
    long.wait().unwrap();
    assert_eq!(std::fs::read(out.join("puzzles.jsonl")).unwrap(), before, "the killed run touched the book");
    assert_eq!(names(tmp.path()), [".o.lock", ".o.staging", "o"]);
    // The unfinished run is refused without --force, discarded with it.
    let o = gen(&out, "8", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unfinished"), "{}", stderr(&o));
    assert!(gen(&out, "8", &["--force"]).status.success());
    assert_eq!(names(tmp.path()), [".o.lock", "o"]);
}
