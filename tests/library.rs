//! The puzzle library (SQLite): import, selections, reservations, release, generate
//! --library, kills during imports and reservations, bad input and planted links.

use crate::common::bin;
use std::collections::HashSet;
use std::path::Path;
use std::process::Output;

fn pf(dir: &Path, args: &[&str]) -> Output {
    bin().current_dir(dir).args(args).output().expect("run puzzle-factory")
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let o = pf(dir, args);
    assert!(
        o.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn refused(dir: &Path, args: &[&str], says: &str) {
    let o = pf(dir, args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: expected \"{says}\" in: {err}");
}

/// The `total` row of `library stats`: puzzles, used.
fn totals(dir: &Path, lib: &str) -> (u64, u64) {
    let out = ok(dir, &["library", "stats", "--library", lib]);
    let line = out.lines().find(|l| l.starts_with("total")).expect("a total row");
    let n: Vec<u64> = line.split_whitespace().skip(1).map(|x| x.parse().unwrap()).collect();
    (n[0], n[1])
}

fn ids(dir: &Path, lib: &str, book: &str) -> Vec<String> {
    ok(dir, &["library", "books", book, "--library", lib])
        .lines()
        .skip(1)
        .map(|l| l.split('\t').nth(2).unwrap().to_string())
        .collect()
}

fn gen(dir: &Path, out: &str, seed: &str, count: &str, more: &[&str]) {
    let mut args = vec!["generate", "--quiet", "--threads", "2", "--count", count, "--seed", seed, "--out", out];
    args.extend_from_slice(more);
    ok(dir, &args);
}

/// `generate --quiet ARGS` killed at finishing step `step`, then `--resume`d to the end.
fn killed_then_resumed(dir: &Path, step: &str, args: &[&str]) {
    let o = bin()
        .current_dir(dir)
        .env("PUZZLE_FACTORY_CRASH_AT", step)
        .args(["generate", "--quiet"])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), None, "{step}: killed");
    let out = args[args.iter().position(|a| *a == "--out").expect("--out") + 1];
    ok(dir, &["generate", "--quiet", "--resume", "--out", out]);
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count()
}

#[test]
fn import_keeps_each_puzzle_once_and_queries_count_it() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    gen(d, "a", "1", "200", &[]);
    gen(d, "b", "2", "200", &[]);
    let said = ok(d, &["library", "import", "a", "b", "--library", "lib.sqlite"]);
    assert!(said.contains("400 puzzle(s) read from 2 folder(s), 400 added"), "{said}");
    // Again: nothing new. The same run's folder under another name neither.
    let said = ok(d, &["library", "import", "a", "--library", "lib.sqlite"]);
    assert!(said.contains("0 added, 200 already"), "{said}");
    assert_eq!(totals(d, "lib.sqlite"), (400, 0));
    // Counts per grade match the books.
    for g in ["easy", "medium", "hard", "expert"] {
        let book: usize = ["a", "b"]
            .iter()
            .map(|f| {
                std::fs::read_to_string(d.join(f).join("puzzles.jsonl"))
                    .unwrap()
                    .matches(&format!("\"grade\":\"{g}\""))
                    .count()
            })
            .sum();
        let out = ok(d, &["library", "query", "--grade", g, "--library", "lib.sqlite"]);
        let total: usize = out.lines().last().unwrap().split_whitespace().last().unwrap().parse().unwrap();
        assert_eq!(total, book, "{g}: {out}");
    }
    // --uses x_wing: exactly the records whose path used one.
    let used = ok(
        d,
        &["library", "query", "--uses", "x_wing", "--count", "1000", "--format", "ids", "--library", "lib.sqlite"],
    );
    let want: HashSet<String> = ["a", "b"]
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(d.join(f).join("puzzles.jsonl"))
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(&l).unwrap();
            (v["techniques"]["x_wing"].as_u64().unwrap() > 0).then(|| v["id"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(used.lines().map(str::to_string).collect::<HashSet<_>>(), want);
    // Without --count, every match (not the counts table).
    let all = ok(d, &["library", "query", "--uses", "x_wing", "--format", "ids", "--library", "lib.sqlite"]);
    assert_eq!(all, used);
    // --needs: used, and its level the hardest.
    for l in ok(
        d,
        &["library", "query", "--needs", "x_wing", "--count", "1000", "--format", "jsonl", "--library", "lib.sqlite"],
    )
    .lines()
    {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["hardest_level"], 3);
        assert!(v["techniques"]["x_wing"].as_u64().unwrap() > 0);
    }
    assert_eq!(ok(d, &["library", "check", "--library", "lib.sqlite"]).trim_end(), "lib.sqlite: ok");
}

#[test]
fn reserved_books_never_share_a_puzzle_and_release_frees_them() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    gen(d, "a", "3", "300", &["--library", "lib.sqlite"]);
    let q = |name: &str, out: &str| {
        ok(
            d,
            &[
                "library",
                "query",
                "--grade",
                "medium,hard",
                "--count",
                "40",
                "--reserve",
                name,
                "--out",
                out,
                "--library",
                "lib.sqlite",
            ],
        )
    };
    q("one", "one");
    q("two", "two");
    let (a, b) = (ids(d, "lib.sqlite", "one"), ids(d, "lib.sqlite", "two"));
    assert_eq!((a.len(), b.len()), (40, 40));
    assert!(a.iter().all(|x| !b.contains(x)), "a puzzle in two books");
    // The folder is the reserved puzzles, in order, and prints.
    let folder: Vec<String> = std::fs::read_to_string(d.join("one/puzzles.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(folder, a);
    ok(d, &["book", "--in", "one", "--out", "one.pdf", "--quiet"]);
    assert_eq!(totals(d, "lib.sqlite").1, 80);
    // The same name again is refused; release frees; the next book may take them.
    refused(
        d,
        &["library", "query", "--grade", "easy", "--count", "1", "--reserve", "one", "--library", "lib.sqlite"],
        "already holds a book",
    );
    ok(d, &["library", "release", "one", "--library", "lib.sqlite"]);
    assert_eq!(totals(d, "lib.sqlite").1, 40);
    refused(d, &["library", "release", "one", "--library", "lib.sqlite"], "holds no book");
    q("three", "three");
    assert_eq!(ids(d, "lib.sqlite", "three"), a, "the first free puzzles are taken first");
    // More than the library holds unused: refused, nothing recorded.
    refused(
        d,
        &["library", "query", "--count", "100000", "--reserve", "four", "--library", "lib.sqlite"],
        "nothing was recorded",
    );
    assert_eq!(totals(d, "lib.sqlite").1, 80);
}

#[test]
fn two_processes_reserving_at_once_never_take_the_same_puzzle() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    gen(d, "a", "4", "400", &["--library", "lib.sqlite"]);
    for round in 0..15 {
        let spawn = |who: &str| {
            bin()
                .current_dir(d)
                .args([
                    "library",
                    "query",
                    "--count",
                    "10",
                    "--reserve",
                    &format!("{who}{round}"),
                    "--library",
                    "lib.sqlite",
                ])
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        };
        let (mut x, mut y) = (spawn("x"), spawn("y"));
        assert!(x.wait().unwrap().success() && y.wait().unwrap().success(), "round {round}");
    }
    let mut seen = HashSet::new();
    for round in 0..15 {
        for who in ["x", "y"] {
            for id in ids(d, "lib.sqlite", &format!("{who}{round}")) {
                assert!(seen.insert(id.clone()), "{id} in two books");
            }
        }
    }
    assert_eq!(seen.len(), 300);
}

#[test]
fn generate_with_a_library_makes_no_puzzle_it_holds_and_adds_after_a_kill() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    gen(d, "a", "5", "150", &["--library", "lib.sqlite"]);
    assert_eq!(totals(d, "lib.sqlite").0, 150);
    // The same run again: every candidate is a duplicate.
    gen(d, "b", "5", "150", &["--library", "lib.sqlite"]);
    let cal: serde_json::Value = serde_json::from_slice(&std::fs::read(d.join("b/calibration.json")).unwrap()).unwrap();
    assert_eq!(cal["candidates"]["rejected"]["duplicate"], 150);
    assert_eq!(lines(&d.join("b/puzzles.jsonl")), 0);
    // Killed at the commit's steps around the library: the resumed run adds the book once.
    for step in ["sealed", "library-added", "listed"] {
        let out = format!("c-{step}");
        killed_then_resumed(
            d,
            step,
            &["--count", "60", "--seed", "6", "--out", &out, "--library", &format!("{step}.sqlite")],
        );
        assert_eq!(totals(d, &format!("{step}.sqlite")), (60, 0), "{step}");
        assert_eq!(lines(&d.join(&out).join("puzzles.jsonl")), 60);
        assert_eq!(
            ok(d, &["library", "check", "--library", &format!("{step}.sqlite")]).trim_end(),
            format!("{step}.sqlite: ok")
        );
    }
}

#[test]
fn books_none_keeps_the_puzzles_in_the_library_only() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    refused(d, &["generate", "--count", "5", "--books", "none", "--out", "x"], "needs --library");
    refused(d, &["generate", "--count", "5", "--books", "csv", "--library", "l.sqlite", "--out", "x"], "--books csv");
    gen(d, "plain", "12", "300", &["--books", "json", "--compress", "zstd"]);
    for step in ["library-added", "scratch-partly", "scratch-removed"] {
        let (out, lib) = (format!("n-{step}"), format!("n-{step}.sqlite"));
        killed_then_resumed(
            d,
            step,
            &["--count", "300", "--seed", "12", "--books", "none", "--out", &out, "--library", &lib],
        );
        let kept: Vec<String> = std::fs::read_dir(d.join(&out))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            kept.iter().all(|n| !n.contains("puzzles") && !n.contains("book-") && !n.contains("records")),
            "{kept:?}"
        );
        // The library holds exactly the plain run's puzzles: importing its zstd book adds nothing.
        let said = ok(d, &["library", "import", "plain", "--library", &lib]);
        assert!(said.contains("300 puzzle(s) read") && said.contains(", 0 added"), "{step}: {said}");
    }
}

/// `library query --format ids|jsonl` without `--count` prints every match, a page at a time:
/// more than a page here, each once, in the order `--count` takes them (the order added).
#[test]
fn a_query_without_a_count_prints_every_match_past_a_page() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    gen(d, "a", "1", "50", &[]);
    synthetic(&d.join("a"), &d.join("big"), 5000);
    ok(d, &["library", "import", "big", "--library", "lib.sqlite"]);
    let ids = ok(d, &["library", "query", "--format", "ids", "--library", "lib.sqlite"]);
    let ids: Vec<&str> = ids.lines().collect();
    let want: HashSet<String> = (0..5000).map(|i| format!("sudoku-9-99-{i}")).collect();
    assert_eq!(ids.len(), 5000);
    assert_eq!(ids.iter().map(|s| s.to_string()).collect::<HashSet<_>>(), want);
    let records = ok(d, &["library", "query", "--grade", "hard", "--format", "jsonl", "--library", "lib.sqlite"]);
    let counted = ok(d, &["library", "query", "--grade", "hard", "--library", "lib.sqlite"]);
    let total: usize = counted.lines().last().unwrap().split_whitespace().last().unwrap().parse().unwrap();
    assert!(total > 0);
    assert_eq!(records.lines().count(), total);
    assert!(records.lines().all(|l| l.contains("\"grade\":\"hard\"")));
    // The same order as --count takes them in.
    let first = ok(d, &["library", "query", "--format", "ids", "--count", "4097", "--library", "lib.sqlite"]);
    assert_eq!(first.lines().collect::<Vec<_>>(), &ids[..4097]);
}

/// A book folder of `n` records made from `src`'s, each with its own id and canonical key
/// (copies of real records, for the size of an import; not puzzles to print).
fn synthetic(src: &Path, dst: &Path, n: usize) {
    std::fs::create_dir_all(dst).unwrap();
    std::fs::copy(src.join("manifest.json"), dst.join("manifest.json")).unwrap();
    let base: Vec<serde_json::Value> = std::fs::read_to_string(src.join("puzzles.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut out = String::new();
    for i in 0..n {
        let mut v = base[i % base.len()].clone();
        v["index"] = (i as u64).into();
        v["seed"] = 99.into();
        v["id"] = format!("sudoku-9-99-{i}").into();
        v["canonical"] =
            format!("{:032x}", (i as u128 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834)).into();
        out.push_str(&v.to_string());
        out.push('\n');
    }
    std::fs::write(dst.join("puzzles.jsonl"), out).unwrap();
}

#[test]
fn a_kill_during_an_import_or_a_reservation_leaves_the_library_before_or_after() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    gen(d, "a", "7", "100", &[]);
    synthetic(&d.join("a"), &d.join("big"), 60_000);
    ok(d, &["library", "import", "a", "--library", "lib.sqlite"]);
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % m
    };
    let mut whole = 0;
    for _ in 0..4 {
        let before = totals(d, "lib.sqlite").0;
        let mut c = bin()
            .current_dir(d)
            .args(["library", "import", "big", "--library", "lib.sqlite", "--quiet"])
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50 + next(1500)));
        let _ = c.kill();
        let done = c.wait().unwrap().success();
        let after = totals(d, "lib.sqlite").0;
        assert!(after == before || after == 60_100, "killed import left {after} (before {before})");
        whole += usize::from(after != before);
        assert!(done || after == before || after == 60_100);
        assert_eq!(ok(d, &["library", "check", "--library", "lib.sqlite"]).trim_end(), "lib.sqlite: ok");
        if after == 60_100 {
            break;
        }
    }
    let _ = whole;
    for k in 0..6 {
        let before = totals(d, "lib.sqlite").1;
        let mut c = bin()
            .current_dir(d)
            .args(["library", "query", "--count", "5", "--reserve", &format!("k{k}"), "--library", "lib.sqlite"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(next(40)));
        let _ = c.kill();
        c.wait().unwrap();
        let after = totals(d, "lib.sqlite").1;
        assert!(after == before || after == before + 5, "killed reservation left {after} uses (before {before})");
        assert_eq!(ok(d, &["library", "check", "--library", "lib.sqlite"]).trim_end(), "lib.sqlite: ok");
    }
}

#[test]
fn bad_libraries_and_bad_queries_are_refused_and_change_nothing() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    gen(d, "a", "8", "40", &[]);
    // Not a database.
    std::fs::write(d.join("notes.sqlite"), "my notes, not a database\n".repeat(50)).unwrap();
    let before = std::fs::read(d.join("notes.sqlite")).unwrap();
    refused(
        d,
        &["library", "import", "a", "--library", "notes.sqlite"],
        "not a puzzle-factory library (not an SQLite database)",
    );
    refused(d, &["library", "stats", "--library", "notes.sqlite"], "not an SQLite database");
    refused(d, &["generate", "--count", "5", "--out", "g", "--library", "notes.sqlite"], "not an SQLite database");
    assert_eq!(std::fs::read(d.join("notes.sqlite")).unwrap(), before);
    assert!(!d.join("g").exists());
    // Another program's database.
    {
        let c = rusqlite::Connection::open(d.join("other.sqlite")).unwrap();
        c.execute_batch("CREATE TABLE customers (name TEXT); INSERT INTO customers VALUES ('Ada');").unwrap();
    }
    let before = std::fs::read(d.join("other.sqlite")).unwrap();
    refused(d, &["library", "import", "a", "--library", "other.sqlite"], "not a puzzle-factory library");
    assert_eq!(std::fs::read(d.join("other.sqlite")).unwrap(), before);
    // A newer schema.
    ok(d, &["library", "import", "a", "--library", "lib.sqlite"]);
    let version: String = {
        let c = rusqlite::Connection::open(d.join("lib.sqlite")).unwrap();
        c.query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| r.get(0)).unwrap()
    };
    {
        let c = rusqlite::Connection::open(d.join("lib.sqlite")).unwrap();
        c.execute("UPDATE meta SET value = '99' WHERE key = 'schema'", []).unwrap();
        c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)").unwrap();
    }
    let before = std::fs::read(d.join("lib.sqlite")).unwrap();
    refused(
        d,
        &["library", "import", "a", "--library", "lib.sqlite"],
        "schema version 99, made by a newer puzzle-factory",
    );
    assert_eq!(std::fs::read(d.join("lib.sqlite")).unwrap(), before);
    {
        let c = rusqlite::Connection::open(d.join("lib.sqlite")).unwrap();
        c.execute("UPDATE meta SET value = ?1 WHERE key = 'schema'", [&version]).unwrap();
        c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)").unwrap();
    }
    // Unknown names, bad dates: exit 2, nothing recorded.
    let before = totals(d, "lib.sqlite");
    refused(d, &["library", "query", "--needs", "x_wingg", "--library", "lib.sqlite"], "unknown technique");
    refused(d, &["library", "query", "--grade", "fiendish", "--library", "lib.sqlite"], "unknown grade");
    refused(d, &["library", "query", "--unused-since", "2026-13-01", "--library", "lib.sqlite"], "YYYY-MM-DD");
    refused(
        d,
        &["library", "query", "--grade", "fiendish", "--count", "3", "--reserve", "x", "--library", "lib.sqlite"],
        "unknown grade",
    );
    assert_eq!(totals(d, "lib.sqlite"), before);
    assert!(ok(d, &["library", "books", "--library", "lib.sqlite"]).lines().count() == 1);
    // A library that is not there is not made by a command that only reads.
    refused(d, &["library", "stats", "--library", "none.sqlite"], "no library at none.sqlite");
    assert!(!d.join("none.sqlite").exists());
    // A bad record line names the file and line; nothing is added.
    std::fs::create_dir(d.join("bad")).unwrap();
    std::fs::copy(d.join("a/manifest.json"), d.join("bad/manifest.json")).unwrap();
    let mut text = std::fs::read_to_string(d.join("a/puzzles.jsonl")).unwrap();
    text.push_str("{\"id\": 3}\n");
    std::fs::write(d.join("bad/puzzles.jsonl"), text).unwrap();
    refused(d, &["library", "import", "a", "bad", "--library", "fresh.sqlite"], "puzzles.jsonl line 41");
}

#[cfg(unix)]
#[test]
fn a_library_is_never_reached_through_a_planted_link() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    gen(d, "a", "9", "20", &[]);
    std::fs::write(d.join("notes.txt"), "mine").unwrap();
    std::os::unix::fs::symlink(d.join("notes.txt"), d.join("lib.sqlite")).unwrap();
    refused(d, &["library", "import", "a", "--library", "lib.sqlite"], "is a symbolic link");
    refused(d, &["generate", "--count", "5", "--out", "g", "--library", "lib.sqlite"], "is a symbolic link");
    std::fs::remove_file(d.join("lib.sqlite")).unwrap();
    // The journal SQLite keeps beside it.
    std::os::unix::fs::symlink(d.join("notes.txt"), d.join("lib.sqlite-wal")).unwrap();
    refused(d, &["library", "import", "a", "--library", "lib.sqlite"], "lib.sqlite-wal is a symbolic link");
    assert_eq!(std::fs::read_to_string(d.join("notes.txt")).unwrap(), "mine");
    assert!(!d.join("lib.sqlite").exists());
}

#[test]
fn a_plan_draws_volumes_from_the_library_without_repeats() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    gen(d, "a", "10", "200", &["--library", "lib.sqlite"]);
    for v in 1..=3 {
        std::fs::write(
            d.join(format!("vol{v}.toml")),
            format!(
                "[book]\ntitle = \"Sudoku Volume {v}\"\ndate = \"2026-0{v}-01\"\nrules = \"none\"\n\n[[section]]\nquery = {{ kind = \"sudoku\", shape = \"9\" }}\ngrades = [\"medium\"]\ncount = 12\n\n[[section]]\nquery = {{ kind = \"sudoku\" }}\ngrades = [\"expert\", \"hard\"]\ncount = 6\n"
            ),
        )
        .unwrap();
    }
    // --check takes nothing.
    ok(d, &["book", "--plan", "vol1.toml", "--library", "lib.sqlite", "--check", "--quiet"]);
    assert_eq!(totals(d, "lib.sqlite").1, 0);
    let mut seen = HashSet::new();
    for v in 1..=3 {
        ok(
            d,
            &[
                "book",
                "--plan",
                &format!("vol{v}.toml"),
                "--library",
                "lib.sqlite",
                "--out",
                &format!("vol{v}.pdf"),
                "--quiet",
            ],
        );
        let got = ids(d, "lib.sqlite", &format!("Sudoku Volume {v}"));
        assert_eq!(got.len(), 18);
        for id in got {
            assert!(seen.insert(id.clone()), "{id} twice");
        }
    }
    // A reprint of volume 1 takes its own puzzles again: the same PDF, and it says so.
    let o = pf(d, &["book", "--plan", "vol1.toml", "--library", "lib.sqlite", "--out", "again.pdf"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("book \"Sudoku Volume 1\" is already recorded in") && err.contains("same puzzles"), "{err}");
    assert_eq!(std::fs::read(d.join("vol1.pdf")).unwrap(), std::fs::read(d.join("again.pdf")).unwrap());
    assert_eq!(totals(d, "lib.sqlite").1, 54);
    // Puzzles not used since a date: volume 1's are free again for a book of 2026-03-15 on.
    std::fs::write(
        d.join("late.toml"),
        "[book]\ntitle = \"Best of\"\nrules = \"none\"\n\n[[section]]\nquery = { kind = \"sudoku\", unused_since = \"2026-01-15\" }\ngrades = [\"medium\"]\ncount = 12\n",
    )
    .unwrap();
    ok(d, &["book", "--plan", "late.toml", "--library", "lib.sqlite", "--out", "late.pdf", "--quiet"]);
    assert_eq!(ids(d, "lib.sqlite", "Best of"), ids(d, "lib.sqlite", "Sudoku Volume 1")[..12].to_vec());
    // A section asking more than is free: refused, nothing recorded, no PDF.
    std::fs::write(
        d.join("huge.toml"),
        "[book]\ntitle = \"Huge\"\n\n[[section]]\nquery = { kind = \"sudoku\" }\ncount = 100000\n",
    )
    .unwrap();
    refused(
        d,
        &["book", "--plan", "huge.toml", "--library", "lib.sqlite", "--out", "huge.pdf"],
        "no book holds, not 100000",
    );
    assert!(!d.join("huge.pdf").exists());
    assert!(ok(d, &["library", "books", "--library", "lib.sqlite"]).lines().all(|l| !l.contains("Huge")));
}
