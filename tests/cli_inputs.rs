//! Every input handled, through the real binary: inputs that are directories, missing, binary,
//! empty or absurdly long; readers that close the pipe early (`| head -1`); calibrate flags out
//! of range. Each case once looped, panicked or crashed.

use crate::common;
use common::{bin, read_data, run_within};
use std::io::Write;
use std::process::{Output, Stdio};

const GOOD: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_directory_as_input_is_one_error_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    for cmd in ["rate", "solve"] {
        let o = run_within(&[cmd, dir], None, 30);
        assert_eq!(o.status.code(), Some(2), "{}", err(&o));
        let e = err(&o);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(dir) && e.contains("directory"), "{e}");
    }
    // A directory named like a MiniZinc file too.
    let dzn = tmp.path().join("x.dzn");
    std::fs::create_dir(&dzn).unwrap();
    let o = run_within(&["solve", "--kind", "kakuro", dzn.to_str().unwrap()], None, 30);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

#[test]
fn a_missing_input_is_one_error_naming_it() {
    let o = run_within(&["rate", "/no/such/puzzles.txt"], None, 30);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("/no/such/puzzles.txt"), "{}", err(&o));
}

#[test]
fn binary_lines_are_bad_lines_and_the_others_are_processed() {
    let mut input = format!("{GOOD}\n").into_bytes();
    input.extend_from_slice(b"\xff\xfe\x81garbage\n");
    input.extend_from_slice(&[0x80; 5000]);
    input.extend_from_slice(format!("\n{GOOD}\r\n").as_bytes());
    let o = run_within(&["solve", "-"], Some(&input), 30);
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(e.contains("line 2: not valid UTF-8") && e.contains("line 3: not valid UTF-8"), "{e}");
    let rows: Vec<String> = out(&o).lines().skip(1).map(|l| l.split(',').next().unwrap().to_string()).collect();
    assert_eq!(rows, ["1", "4"]);
}

#[test]
fn an_empty_input_gives_the_header_only() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    for cmd in ["rate", "solve"] {
        let o = run_within(&[cmd, empty.to_str().unwrap()], None, 30);
        assert!(o.status.success(), "{}", err(&o));
        assert_eq!(out(&o).lines().count(), 1);
        assert!(err(&o).is_empty());
    }
}

#[test]
fn a_very_long_line_ends_the_input_without_holding_it() {
    // A good puzzle, then 50 MB on one line (over the 16 MB a line may hold), then another good
    // puzzle: the first is solved, the long line reported, and reading stops there.
    let mut input = format!("{GOOD}\n").into_bytes();
    input.extend(std::iter::repeat_n(b'7', 50 << 20));
    input.extend_from_slice(format!("\n{GOOD}\n").as_bytes());
    let start = std::time::Instant::now();
    let o = run_within(&["solve"], Some(&input), 60);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("line 2: line too long") && err(&o).contains("reading stops here"), "{}", err(&o));
    let text = out(&o);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert!(rows.len() == 1 && rows[0].starts_with("1,1,"), "{text}");
    assert!(start.elapsed().as_secs() < 30);
}

/// `args` on an endless stream of NUL bytes: it must end at once, naming line 1.
fn on_endless_zeros(args: &[&str]) -> Output {
    let mut child =
        bin().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut si = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let zeros = vec![0u8; 1 << 16];
        // Until the program stops reading (the pipe breaks), or 1 GB at most.
        for _ in 0..(1 << 14) {
            if si.write_all(&zeros).is_err() {
                return;
            }
        }
    });
    let o = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    o
}

#[test]
fn endless_or_nul_input_ends_with_a_message() {
    let start = std::time::Instant::now();
    for args in [&["rate"][..], &["solve"], &["explain"], &["hint"], &["--kind", "kakuro", "rate"]] {
        let o = on_endless_zeros(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", err(&o));
        assert!(err(&o).contains("line 1: holds a NUL byte (byte 1), not text; reading stops here"), "{}", err(&o));
    }
    // A file: a good line, then 4 MB of NULs: the good line is processed first.
    let tmp = tempfile::tempdir().unwrap();
    let zeros = tmp.path().join("zeros.txt");
    let mut bytes = format!("{GOOD}\n").into_bytes();
    bytes.extend_from_slice(&vec![0u8; 4 << 20]);
    std::fs::write(&zeros, bytes).unwrap();
    let o = run_within(&["rate", zeros.to_str().unwrap()], None, 30);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("line 2: holds a NUL byte (byte 1)"), "{}", err(&o));
    assert!(out(&o).lines().nth(1).is_some_and(|l| l.starts_with("1,")), "{}", out(&o));
    // `--exclude` of such a file is a usage error naming the file and line.
    let gen = tmp.path().join("gen");
    let gen = gen.to_str().unwrap();
    let o = run_within(&["generate", "--count", "1", "--out", gen, "--exclude", zeros.to_str().unwrap()], None, 30);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("zeros.txt line 2: holds a NUL byte"), "{}", err(&o));
    // The device itself, where there is one.
    if std::path::Path::new("/dev/zero").exists() {
        for args in [&["rate", "/dev/zero"][..], &["solve", "/dev/zero"]] {
            let o = run_within(args, None, 30);
            assert_eq!(o.status.code(), Some(1), "{args:?}");
            assert!(err(&o).contains("line 1: holds a NUL byte"), "{}", err(&o));
        }
        let o = run_within(&["generate", "--count", "1", "--out", gen, "--exclude", "/dev/zero"], None, 30);
        assert_eq!(o.status.code(), Some(2));
        assert!(err(&o).contains("--exclude /dev/zero line 1: holds a NUL byte"), "{}", err(&o));
    }
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}

/// Run with the reader of stdout gone before the program writes: it must end quietly.
fn with_closed_stdout(args: &[&str], stdin: Vec<u8>) -> Output {
    let mut child =
        bin().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take());
    let mut si = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = si.write_all(&stdin);
    });
    let o = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    o
}

#[test]
fn a_closed_pipe_ends_each_command_quietly() {
    // Enough lines that the output cannot all fit in the pipe before the program notices.
    let many: String = read_data("sudoku/top1465.txt").lines().take(400).map(|l| format!("{l}\n")).collect();
    for args in [&["rate", "-"][..], &["solve", "-"], &["replay", "--seed", "1", "--index", "0"]] {
        let o = with_closed_stdout(args, many.clone().into_bytes());
        let e = err(&o);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {e}");
        assert!(!e.contains("panicked") && !e.contains("error"), "{args:?}: {e}");
    }
}

#[test]
fn calibrate_flags_out_of_range_exit_2_naming_the_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let reference = tmp.path().join("ref.txt");
    let text = read_data("sudoku/qqwing_levels.txt");
    let mut lines: Vec<&str> = Vec::new();
    for level in ["simple", "easy", "intermediate", "expert"] {
        lines.extend(text.lines().filter(|l| l.ends_with(&format!(",{level}"))).take(3));
    }
    std::fs::write(&reference, lines.join("\n")).unwrap();
    let r = reference.to_str().unwrap();
    let dir = tmp.path().to_str().unwrap();
    for (flags, named) in [
        (&["--holdout", "0.95"][..], "--holdout"),
        (&["--holdout", "0.05"], "--holdout"),
        (&["--holdout", "1"], "--holdout"),
        (&["--holdout", "NaN"], "--holdout"),
        (&["--holdout=-0.1"], "--holdout"),
        (&["--shares", "40,30,30"], "--shares"),
        (&["--shares", "40,30,0,30"], "--shares"),
        (&["--shares", "40,30,inf,30"], "--shares"),
        (&["--levels", "simple"], "--levels"),
        (&["--levels", "simple,easy,easy,expert"], "--levels"),
    ] {
        let mut args = vec!["calibrate", "--reference", r];
        args.extend_from_slice(flags);
        let o = run_within(&args, None, 60);
        let e = err(&o);
        assert_eq!(o.status.code(), Some(2), "{flags:?}: {e}");
        assert!(e.contains(named) && !e.contains("panicked"), "{flags:?}: {e}");
    }
    let o = run_within(&["calibrate", "--reference", dir], None, 30);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("--reference"), "{}", err(&o));
    // A book's own CSV is no outside reference: one message naming the way out, not an error a line.
    let book = tmp.path().join("book");
    let o = run_within(&["generate", "--count", "5", "--quiet", "--out", book.to_str().unwrap()], None, 60);
    assert!(o.status.success(), "{}", err(&o));
    let csv = book.join("puzzles.csv");
    let o = run_within(&["calibrate", "--reference", csv.to_str().unwrap()], None, 30);
    let e = err(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("line 1: a book's CSV") && e.contains("--method quantile") && e.lines().count() == 1, "{e}");
    // In range, the flags pass (the fit on 6 puzzles may still find nothing to fit: exit 1).
    let o = run_within(&["calibrate", "--reference", r, "--holdout", "0.5"], None, 60);
    assert_ne!(o.status.code(), Some(2), "{}", err(&o));
    assert!(!err(&o).contains("panicked"), "{}", err(&o));
}

/// Run with descriptor 1 closed (`>&-`).
#[cfg(unix)]
fn with_stdout_closed(args: &[&str]) -> Output {
    use std::os::unix::process::CommandExt;
    let mut cmd = bin();
    cmd.args(args).stdin(Stdio::null()).stderr(Stdio::piped());
    // SAFETY: close is async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            libc::close(1);
            Ok(())
        });
    }
    cmd.output().unwrap()
}

#[cfg(unix)]
#[test]
fn a_closed_stdout_is_an_error_not_a_silent_success() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in.txt");
    std::fs::write(&input, format!("{GOOD}\n")).unwrap();
    let i = input.to_str().unwrap();
    for args in
        [&["rate", i][..], &["solve", i], &["explain", i], &["hint", i], &["replay", "--seed", "1", "--index", "0"]]
    {
        let o = with_stdout_closed(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", err(&o));
        assert!(err(&o).contains("standard output is closed"), "{args:?}: {}", err(&o));
    }
    // A command whose results are files still runs, and no file takes the closed descriptor's
    // place.
    let out = tmp.path().join("book");
    let o = with_stdout_closed(&["generate", "--count", "3", "--seed", "1", "--quiet", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out.join("puzzles.csv").exists());
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_stdout_is_an_error_naming_it() {
    for args in [&["rate", "-"][..], &["solve", "-"], &["explain", "-"], &["replay", "--seed", "1", "--index", "0"]] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let mut child = bin().args(args).stdin(Stdio::piped()).stdout(full).stderr(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(format!("{GOOD}\n").as_bytes()).unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", err(&o));
        assert!(err(&o).contains("writing to standard output: No space left"), "{args:?}: {}", err(&o));
    }
}

#[test]
fn a_byte_order_mark_before_the_first_line_is_skipped() {
    let bom = "\u{feff}";
    let o = run_within(&["rate", "-"], Some(format!("{bom}{GOOD}\n{GOOD}\n").as_bytes()), 30);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o).lines().filter(|l| l.starts_with("1,") || l.starts_with("2,")).count(), 2, "{}", out(&o));
    // The family is chosen from the first line, with the mark or without.
    let line16 = format!("{}{}", "1", ".".repeat(255));
    let o = run_within(&["solve", "-"], Some(format!("{bom}{line16}\n").as_bytes()), 30);
    assert!(out(&o).starts_with("line,solutions,solution\n1,2,"), "{}{}", out(&o), err(&o));
    // KenKen JSON, and only the first line's mark: a later one is a bad character.
    let kk = r#"{"size":1,"cages":[{"op":"=","target":1,"cells":[[0,0]]}]}"#;
    let o = run_within(&["--kind", "kenken", "solve", "-"], Some(format!("{bom}{kk}\n{bom}{kk}\n").as_bytes()), 30);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(out(&o).contains("\n1,1,") && !err(&o).contains("line 1:") && err(&o).contains("line 2:"), "{}", err(&o));
}

/// A book's own files are inputs of `rate`, `solve`, `explain` and `hint`: `puzzles.csv` (its
/// header names the puzzle column; the CSV once failed on every row, "expected 81 characters,
/// found 12", the id's length) and `puzzles.jsonl` (a classic Sudoku record once failed the
/// same way). Both rate as the book graded them; a header without a puzzle column is one bad
/// line. Without `--kind`, a book's records, and puzzles only one kind reads (a Tatham id, a
/// JSON puzzle), are read as their kind (a Towers id was read as a Solo id: "parameters '6': 36
/// symbols, Solo supports at most 31").
#[test]
fn a_books_csv_and_jsonl_rate_as_the_book_graded_them() {
    let tmp = tempfile::tempdir().unwrap();
    let kinds = [
        ("sudoku", &[][..]),
        ("sudoku", &["--box", "2x3"][..]),
        ("kenken", &["--size", "5"][..]),
        ("futoshiki", &["--size", "5"][..]),
        ("skyscrapers", &["--size", "5"][..]),
    ];
    for (kind, extra) in kinds {
        let dir = tmp.path().join(format!("{kind}{}", extra.len()));
        let d = dir.to_str().unwrap();
        let mut args = vec!["--kind", kind, "generate", "--count", "12", "--seed", "3", "--out", d, "--quiet"];
        args.extend_from_slice(extra);
        let o = run_within(&args, None, 120);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let book = std::fs::read_to_string(dir.join("puzzles.csv")).unwrap();
        let mut r = csv::Reader::from_reader(book.as_bytes());
        let rows: Vec<std::collections::HashMap<String, String>> = r.deserialize().map(|m| m.unwrap()).collect();
        let want: Vec<(String, String)> = rows.iter().map(|m| (m["grade"].clone(), m["steps"].clone())).collect();
        assert!(!want.is_empty());
        let graded = |o: &std::process::Output| -> Vec<(String, String)> {
            out(o)
                .lines()
                .skip(1)
                .map(|l| {
                    let f: Vec<&str> = l.split(',').collect();
                    (f[1].to_string(), f[2].to_string())
                })
                .collect()
        };
        for file in ["puzzles.csv", "puzzles.jsonl"] {
            let path = dir.join(file);
            // Without --kind: the book's records name their kind.
            let o = run_within(&["rate", "--quiet", path.to_str().unwrap()], None, 60);
            assert_eq!(o.status.code(), Some(0), "{kind} {file}: {}", err(&o));
            assert_eq!(graded(&o), want, "{kind} {extra:?} {file}");
            let o = run_within(&["--kind", kind, "solve", path.to_str().unwrap()], None, 60);
            assert_eq!(o.status.code(), Some(0), "{kind} {file}: {}", err(&o));
            assert!(out(&o).lines().skip(1).all(|l| l.split(',').nth(1) == Some("1")), "{}", out(&o));
            if kind != "sudoku" {
                // A --kind given on the command line is the kind read, whatever the book says.
                let o = run_within(&["--kind", "sudoku", "rate", "--quiet", path.to_str().unwrap()], None, 60);
                assert_eq!(o.status.code(), Some(1), "{kind} {file}: {}", out(&o));
                let note = format!("note: the input's records are {kind} puzzles, read as sudoku (--kind)");
                assert!(err(&o).starts_with(&note), "{}", err(&o));
                // `hint`'s `RECORD<TAB>CURRENT` (nothing entered yet) is read as the record's kind.
                let record = std::fs::read_to_string(dir.join("puzzles.jsonl")).unwrap();
                let blank = format!("[{}]", ["[0,0,0,0,0]"; 5].join(","));
                let line = format!("{}\t{blank}\n", record.lines().next().unwrap());
                let o = run_within(&["hint", "-"], Some(line.as_bytes()), 60);
                assert_eq!(o.status.code(), Some(0), "{kind} hint: {}", err(&o));
                assert!(out(&o).starts_with("line 1: ") && err(&o).is_empty(), "{}{}", out(&o), err(&o));
            }
        }
        if kind != "sudoku" {
            // Without --kind, puzzles that only this kind reads (its Tatham game ids, its JSON
            // puzzles) are read as this kind, with a note.
            let column = ["keen_id", "unequal_id", "towers_id"].into_iter().find(|c| rows[0].contains_key(*c));
            let ids: String = rows.iter().map(|m| format!("{}\n", m[column.unwrap()])).collect();
            let jsonl = std::fs::read_to_string(dir.join("puzzles.jsonl")).unwrap();
            let json: String = jsonl
                .lines()
                .map(|l| format!("{}\n", serde_json::from_str::<serde_json::Value>(l).unwrap()["puzzle"]))
                .collect();
            for input in [ids, json] {
                let o = run_within(&["rate", "--quiet", "-"], Some(input.as_bytes()), 60);
                assert_eq!(o.status.code(), Some(0), "{kind}: {}", err(&o));
                assert_eq!(graded(&o), want, "{kind} {input}");
                let note = format!("note: the input is read as {kind} puzzles");
                assert!(err(&o).starts_with(&note), "{kind}: {}", err(&o));
            }
        }
    }
    let o = run_within(&["rate", "-"], Some(format!("id,kind,grade\nx,{GOOD},easy\n").as_bytes()), 30);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("line 1: a CSV header without a puzzle column"), "{}", err(&o));
}
