//! Which puzzle files a book keeps and how (`generate --books all|csv|json|none`, `--compress
//! none|zstd`): each choice writes its part of the default book, compressed files decompress to
//! exactly the plain bytes, and a compressed book is the same bytes on 1 or 2 threads, after a
//! kill at any finishing step or mid-run and `--resume`, and merged from shards. `book`,
//! `merge`, `--exclude` and `rate` read compressed and one-form books; bad combinations exit 2.

use crate::cli_finish::{assert_same_book, STEPS};
use crate::common;

use common::{bin, run, stderr, stdout};
use serde_json::Value;
use std::os::unix::process::ExitStatusExt as _;
use std::path::Path;
use std::time::{Duration, Instant};

fn gen(out: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["generate", "--quiet", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    run(&all, None)
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The files of a book that are not puzzle files.
const OTHERS: [&str; 6] =
    [".written.json", "calibration.json", "manifest.json", "report.md", "steps-by-grade.svg", "technique-usage.svg"];

/// A quota order with every puzzle file: overflow and paths too.
const ORDER: [&str; 6] = ["--seed", "5", "--quota", "easy=40,medium=40,hard=20,expert=20", "--overflow", "--paths"];

#[test]
fn each_choice_keeps_its_files_and_zstd_files_hold_the_plain_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let o = gen(&whole, &ORDER);
    assert!(o.status.success(), "{}", stderr(&o));
    let plain = names(&whole);
    let puzzle_files: Vec<&String> = plain.iter().filter(|n| !OTHERS.contains(&n.as_str())).collect();
    assert_eq!(puzzle_files.len(), 12, "{plain:?}");
    let manifest = json(&whole.join("manifest.json"));
    assert!(manifest.get("books").is_none() && manifest.get("compress").is_none(), "defaults are not recorded");
    for books in ["all", "csv", "json"] {
        for compress in ["none", "zstd"] {
            let out = tmp.path().join(format!("{books}-{compress}"));
            let mut args = ORDER.to_vec();
            args.extend(["--books", books, "--compress", compress, "--threads", "2"]);
            let o = gen(&out, &args);
            assert!(o.status.success(), "{books} {compress}: {}", stderr(&o));
            let kept = |n: &str| match books {
                "csv" => n.ends_with(".csv") || n == "overflow.jsonl" || n == "paths.jsonl",
                "json" => n.contains(".json"),
                _ => true,
            };
            let suffix = if compress == "zstd" { ".zst" } else { "" };
            let mut want: Vec<String> =
                puzzle_files.iter().filter(|n| kept(n)).map(|n| format!("{n}{suffix}")).collect();
            want.extend(OTHERS.iter().map(|s| s.to_string()));
            want.sort();
            assert_eq!(names(&out), want, "{books} {compress}");
            for n in puzzle_files.iter().filter(|n| kept(n)) {
                let bytes = std::fs::read(out.join(format!("{n}{suffix}"))).unwrap();
                let bytes = if compress == "zstd" { zstd::decode_all(&bytes[..]).unwrap() } else { bytes };
                assert!(bytes == std::fs::read(whole.join(n)).unwrap(), "{books} {compress}: {n} is not the plain one");
            }
            // The manifest records the choice (what is not the default) and nothing else changes.
            let mut m = json(&out.join("manifest.json"));
            let o = m.as_object_mut().unwrap();
            assert_eq!(o.remove("books").as_ref().and_then(Value::as_str).unwrap_or("all"), books);
            assert_eq!(o.remove("compress").as_ref().and_then(Value::as_str).unwrap_or("none"), compress);
            assert_eq!(m, manifest, "{books} {compress}");
        }
    }
    // The same bytes on one thread as on two.
    let one = tmp.path().join("one");
    let mut args = ORDER.to_vec();
    args.extend(["--compress", "zstd", "--threads", "1"]);
    assert!(gen(&one, &args).status.success());
    assert_same_book(&one, &tmp.path().join("all-zstd"), "--threads 1 against 2");
}

/// A zstd file is several frames: one for the header lines, one per chunk at least.
#[test]
fn zstd_books_are_frames_that_zstd_reads() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("b");
    assert!(gen(&out, &["--count", "300", "--seed", "2", "--compress", "zstd", "--books", "json"]).status.success());
    let path = out.join("puzzles.jsonl.zst");
    let bytes = std::fs::read(&path).unwrap();
    let magic = [0x28, 0xb5, 0x2f, 0xfd];
    let frames = bytes.windows(4).filter(|w| *w == magic).count();
    // Chunk boundaries 32, 64, 128, 256 and 300 (the first chunks halve the first full one).
    assert_eq!(frames, 5);
    let o = std::process::Command::new("zstd").args(["-t", "-q"]).arg(&path).output();
    if let Ok(o) = o {
        assert!(o.status.success(), "zstd -t: {}", String::from_utf8_lossy(&o.stderr));
    }
}

#[test]
fn a_zstd_run_killed_at_every_finishing_step_resumes_to_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let run = ["--count", "300", "--seed", "11", "--quota", "easy=5,medium=40,hard=5,expert=200", "--compress", "zstd"];
    let generate = |out: &Path, args: &[&str], crash: Option<&str>| {
        let mut c = bin();
        c.args(["generate", "--quiet", "--threads", "2", "--out"]).arg(out).args(args);
        if let Some(step) = crash {
            c.env("PUZZLE_FACTORY_CRASH_AT", step);
        }
        c.output().unwrap()
    };
    let reference = tmp.path().join("reference");
    let mut args = run.to_vec();
    args.extend(["--books", "csv"]);
    assert_eq!(generate(&reference, &args, None).status.code(), Some(3));
    for step in STEPS {
        let out = tmp.path().join(step).join("book");
        let o = generate(&out, &args, Some(step));
        assert_eq!(o.status.signal(), Some(9), "{step}: not killed there: {}", stderr(&o));
        let o = generate(&out, &["--resume"], None);
        // After the swap the run is finished and the resume says so (exit 0).
        assert!(matches!(o.status.code(), Some(0 | 3)), "{step}: {}", stderr(&o));
        assert_same_book(&out, &reference, step);
        assert_eq!(names(&tmp.path().join(step)), [".book.lock", "book"], "{step}");
    }
}

/// Poll the saved run of `out` until it has passed candidate `at`.
fn saved_past(out: &Path, at: u64, child: &mut std::process::Child) -> bool {
    let marker = out.with_file_name(format!(".{}.staging/.run.json", out.file_name().unwrap().to_string_lossy()));
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        let next = std::fs::read(&marker)
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .and_then(|v| v["progress"]["next"].as_u64());
        if next.is_some_and(|n| n >= at) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the run saved no progress past {at} in 60 s");
}

#[test]
fn a_zstd_run_killed_mid_run_resumes_to_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    // Small chunks, and saves at some chunk boundaries and not others (they are timed).
    let config = tmp.path().join("run.toml");
    std::fs::write(&config, "[run]\nchunk = 128\nsave_every = 0.02\n").unwrap();
    let config = config.to_str().unwrap();
    let args =
        ["--count", "12000", "--seed", "3", "--config", config, "--compress", "zstd", "--paths", "--threads", "2"];
    let whole = tmp.path().join("whole");
    assert!(gen(&whole, &args).status.success());
    let mut cut = 0;
    for (signal, at) in [(libc::SIGKILL, 1000), (libc::SIGKILL, 5000), (libc::SIGTERM, 3000)] {
        let out = tmp.path().join(format!("cut-{signal}-{at}"));
        let mut child = bin()
            .args(["generate", "--quiet", "--out", out.to_str().unwrap()])
            .args(args)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        if saved_past(&out, at, &mut child) {
            unsafe { libc::kill(child.id() as i32, signal) };
        }
        let o = child.wait_with_output().unwrap();
        if !o.status.success() {
            cut += 1;
            let code = if signal == libc::SIGTERM { Some(130) } else { None };
            assert_eq!(o.status.code(), code, "{}", stderr(&o));
            let o = gen(&out, &["--resume", "--threads", "1"]);
            assert!(o.status.success(), "{}", stderr(&o));
        }
        assert_same_book(&whole, &out, &format!("signal {signal} after candidate {at}"));
    }
    assert!(cut > 0, "every run finished before its signal: nothing was resumed");
}

/// Every file alike, calibration.json apart from its times and manifest.json apart from the
/// shards merged. With paths, calibration.json is not compared: a merge's bottleneck means can
/// differ from the run's in the last digit (the merge averages the rounded values), as before
/// `--books` existed.
fn assert_merged_is_single(single: &Path, merged: &Path, paths: bool) {
    assert_eq!(names(single), names(merged));
    for n in names(single) {
        let (a, b) = (single.join(&n), merged.join(&n));
        match n.as_str() {
            "calibration.json" if paths => {}
            "calibration.json" | "manifest.json" => {
                let (mut x, mut y) = (json(&a), json(&b));
                for v in [&mut x, &mut y] {
                    let o = v.as_object_mut().unwrap();
                    o.remove("time_seconds");
                    o.remove("merged_shards");
                }
                assert_eq!(x, y, "{n}");
            }
            ".written.json" | "report.md" => {}
            _ => assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(), "{n} differs"),
        }
    }
}

fn merge(out: &Path, dirs: &[&Path]) -> std::process::Output {
    let mut all = vec!["merge", "--quiet", "--out", out.to_str().unwrap()];
    all.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    run(&all, None)
}

#[test]
fn shards_of_each_choice_merge_to_the_single_run_of_that_choice() {
    let tmp = tempfile::tempdir().unwrap();
    let p = |n: &str| tmp.path().join(n);
    for (books, compress, paths) in [("csv", "none", false), ("json", "zstd", true), ("all", "zstd", false)] {
        let mut args = vec!["--count", "700", "--seed", "4", "--books", books, "--compress", compress];
        args.extend(paths.then_some("--paths"));
        let single = p(&format!("{books}-{compress}"));
        assert!(gen(&single, &args).status.success());
        let shard = |k: usize| p(&format!("{books}-{compress}-{k}"));
        for k in 0..3 {
            let mut a = args.clone();
            let spec = format!("{k}/3");
            a.extend(["--shard", &spec]);
            assert!(gen(&shard(k), &a).status.success(), "{books} {compress} shard {k}");
        }
        let out = p(&format!("{books}-{compress}-merged"));
        let o = merge(&out, &[&shard(2), &shard(0), &shard(1)]);
        assert!(o.status.success(), "{books} {compress}: {}", stderr(&o));
        assert_merged_is_single(&single, &out, paths);
    }
    // A quota order: records beyond the order go to overflow.jsonl, rebuilt as JSON from the
    // CSV rows of shards that keep CSV only; the same files as the merge of whole shards.
    let order = ["--kind", "kenken", "--size", "4", "--quota", "easy=20,medium=8,hard=5", "--seed", "3", "--paths"];
    for (books, compress) in [("all", "none"), ("csv", "zstd"), ("json", "none")] {
        let shard = |k: usize| p(&format!("q-{books}-{k}"));
        for k in 0..4 {
            let spec = format!("{k}/4");
            let mut a = order.to_vec();
            a.extend(["--shard", &spec, "--books", books, "--compress", compress]);
            assert!(gen(&shard(k), &a).status.success(), "{books} quota shard {k}");
        }
        let o = merge(&p(&format!("q-{books}")), &[&shard(0), &shard(1), &shard(2), &shard(3)]);
        assert!(o.status.success(), "{books} quota: {}", stderr(&o));
    }
    let whole = p("q-all");
    assert!(!std::fs::read(whole.join("overflow.jsonl")).unwrap().is_empty());
    for (books, suffix) in [("csv", ".zst"), ("json", "")] {
        let merged = p(&format!("q-{books}"));
        let files: Vec<String> = names(&merged).into_iter().filter(|n| !OTHERS.contains(&n.as_str())).collect();
        assert_eq!(files.len(), 7, "{books}: {files:?}");
        for n in files {
            let bytes = std::fs::read(merged.join(&n)).unwrap();
            let bytes = if n.ends_with(".zst") { zstd::decode_all(&bytes[..]).unwrap() } else { bytes };
            let plain = n.strip_suffix(suffix).unwrap();
            assert!(
                bytes == std::fs::read(whole.join(plain)).unwrap(),
                "{books}: {n} is not the whole shards' {plain}"
            );
        }
    }
}

#[test]
fn book_exclude_and_rate_read_compressed_and_one_form_books() {
    let tmp = tempfile::tempdir().unwrap();
    let p = |n: &str| tmp.path().join(n);
    let run = ["--kind", "kenken", "--size", "4", "--count", "60", "--seed", "6"];
    let mut pdfs = Vec::new();
    for (books, compress) in [("all", "none"), ("all", "zstd"), ("csv", "none"), ("csv", "zstd"), ("json", "zstd")] {
        let out = p(&format!("{books}-{compress}"));
        let mut a = run.to_vec();
        a.extend(["--books", books, "--compress", compress]);
        assert!(gen(&out, &a).status.success());
        let pdf = p(&format!("{books}-{compress}.pdf"));
        let o = run_book(&out, &pdf);
        assert!(o.status.success(), "book --in {books} {compress}: {}", stderr(&o));
        pdfs.push(std::fs::read(&pdf).unwrap());
    }
    assert!(pdfs.iter().all(|b| *b == pdfs[0]), "the PDFs differ with the book's files");
    // --exclude of a compressed book's files: the same as of the plain ones.
    let excluded = |name: &str, file: &Path| {
        let out = p(name);
        let mut a = run.to_vec();
        a[7] = "7";
        a.extend(["--exclude", file.to_str().unwrap()]);
        let o = gen(&out, &a);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read(out.join("puzzles.csv")).unwrap()
    };
    let plain = excluded("x-plain", &p("all-none/puzzles.jsonl"));
    assert!(plain == excluded("x-jsonl", &p("all-zstd/puzzles.jsonl.zst")));
    assert!(plain == excluded("x-csv", &p("csv-zstd/puzzles.csv.zst")));
    // rate reads a compressed puzzles.jsonl as the plain one.
    let rate = |f: &Path| stdout(&common::run(&["--kind", "kenken", "rate", f.to_str().unwrap()], None));
    assert_eq!(rate(&p("all-zstd/puzzles.jsonl.zst")), rate(&p("all-none/puzzles.jsonl")));
}

fn run_book(dir: &Path, pdf: &Path) -> std::process::Output {
    run(&["book", "--quiet", "--in", dir.to_str().unwrap(), "--out", pdf.to_str().unwrap()], None)
}

#[test]
fn bad_combinations_are_refused_with_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("x");
    for (args, says) in [
        (vec!["--books", "none"], "--books none keeps no puzzles: it needs --library FILE"),
        (vec!["--books", "none", "--compress", "zstd"], "nothing to compress"),
        (vec!["--books", "none", "--paths"], "--paths writes paths.jsonl"),
        (vec!["--books", "none", "--quota", "easy=5", "--overflow"], "--overflow writes overflow.jsonl"),
        (vec!["--books", "pdf"], "invalid value 'pdf'"),
        (vec!["--compress", "gzip"], "invalid value 'gzip'"),
    ] {
        let mut a = vec!["--count", "20"];
        a.extend(args.iter());
        let o = gen(&out, &a);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(!out.exists());
    }
    // A resume keeps the run's choice.
    let run = ["--count", "300", "--seed", "1", "--books", "json", "--compress", "zstd"];
    assert_eq!(gen_crash(&out, &run, "books-closed").status.signal(), Some(9));
    for other in [["--books", "csv"], ["--compress", "none"]] {
        let mut a = vec!["--resume"];
        a.extend(other);
        let o = gen(&out, &a);
        assert_eq!(o.status.code(), Some(2), "{other:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("differs from the saved run"), "{}", stderr(&o));
    }
    let o = gen(&out, &["--resume", "--books", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("puzzles.jsonl.zst").exists());
    // Shards of different choices, and shards whose puzzles went to a library.
    let p = |n: &str| tmp.path().join(n);
    for (k, books) in [(0, "csv"), (1, "json")] {
        let spec = format!("{k}/2");
        let o = gen(&p(&format!("s{k}")), &["--count", "100", "--shard", &spec, "--books", books]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = merge(&p("m"), &[&p("s0"), &p("s1")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("books \"json\" differs"), "{}", stderr(&o));
    let manifest = p("s1/manifest.json");
    let mut m = json(&manifest);
    m["books"] = "none".into();
    std::fs::write(&manifest, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    let o = merge(&p("m"), &[&p("s0"), &p("s1")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--books none: its puzzles are in the library"), "{}", stderr(&o));
    assert!(!p("m").exists());
}

fn gen_crash(out: &Path, args: &[&str], step: &str) -> std::process::Output {
    bin()
        .args(["generate", "--quiet", "--out", out.to_str().unwrap()])
        .args(args)
        .env("PUZZLE_FACTORY_CRASH_AT", step)
        .output()
        .unwrap()
}
