//! The puzzle library on PostgreSQL: the real binary with `--library postgres://…` against a
//! server, each test in a fresh database (`pf_test_<pid>_<name>`, made through the admin URL
//! in `PUZZLE_FACTORY_TEST_POSTGRES` and dropped after). The same kinds of checks as the
//! SQLite library's, and the two engines' answers compared where they must agree.
//!
//! Without `PUZZLE_FACTORY_TEST_POSTGRES` each test says it was skipped and passes, unless
//! `PUZZLE_FACTORY_REQUIRE_POSTGRES=1` (as `.ci/run` sets it): then it fails.

use crate::common::{bin, run, stderr, stdout};
use postgres::{Client, NoTls};
use std::collections::HashSet;
use std::io::Write as _;
use std::path::Path;
use std::process::{Output, Stdio};

/// A fresh database on the test server, dropped when the test ends.
struct TestDb {
    admin: String,
    name: String,
    /// The database's URL, as `--library` takes it.
    url: String,
}

impl TestDb {
    /// None: no server configured (and none required), the test is skipped.
    fn new(test: &str) -> Option<TestDb> {
        let admin = match std::env::var("PUZZLE_FACTORY_TEST_POSTGRES") {
            Ok(u) if !u.is_empty() => u,
            _ => {
                let why = "PUZZLE_FACTORY_TEST_POSTGRES is not set (postgres://USER:PASSWORD@HOST/DB, a role that may \
                           create databases)";
                if std::env::var("PUZZLE_FACTORY_REQUIRE_POSTGRES").as_deref() == Ok("1") {
                    panic!("PUZZLE_FACTORY_REQUIRE_POSTGRES=1, but {why}");
                }
                // Straight to stderr: the test harness captures only print! and eprint!.
                let _ = writeln!(std::io::stderr(), "library_pg::{test}: skipped: {why}");
                return None;
            }
        };
        let name = format!("pf_test_{}_{test}", std::process::id());
        let mut c = Client::connect(&admin, NoTls).unwrap_or_else(|e| panic!("PUZZLE_FACTORY_TEST_POSTGRES: {e:?}"));
        // Two statements: several in one string are one transaction, which these refuse.
        c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).unwrap();
        c.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
        let url = with_database(&admin, &name);
        Some(TestDb { admin, name, url })
    }

    /// A connection to the test database, to look at it or change it behind the library's back.
    fn client(&self) -> Client {
        Client::connect(&self.url, NoTls).unwrap()
    }

    fn count(&self, sql: &str) -> i64 {
        self.client().query_one(sql, &[]).unwrap().get(0)
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Ok(mut c) = Client::connect(&self.admin, NoTls) {
            let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name));
        }
    }
}

/// `url` naming database `db` instead of its own (the path after the host; parameters kept).
fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.rfind('?') {
        Some(q) if q > url.rfind('@').unwrap_or(0) => (&url[..q], &url[q..]),
        _ => (url, ""),
    };
    let host = base.rfind('@').map_or(base.find("://").unwrap() + 3, |a| a + 1);
    let end = base[host..].find('/').map_or(base.len(), |s| host + s);
    format!("{}/{db}{query}", &base[..end])
}

/// The password in a URL's user part.
fn password(url: &str) -> Option<String> {
    let user = &url[url.find("://")? + 3..url.rfind('@')?];
    user.split_once(':').map(|(_, p)| p.to_string()).filter(|p| !p.is_empty())
}

fn ok(o: &Output, what: &str) {
    assert!(o.status.success(), "{what}: {}{}", stdout(o), stderr(o));
}

fn generate(dir: &Path, count: &str, seed: &str) {
    ok(
        &run(&["generate", "--count", count, "--seed", seed, "--quiet", "--out", dir.to_str().unwrap()], None),
        "generate",
    );
}

fn lib(args: &[&str], library: &str) -> Output {
    let mut a = vec!["library"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["--library", library]);
    run(&a, None)
}

/// The ids a `library query … --format ids` printed.
fn ids(o: &Output) -> Vec<String> {
    stdout(o).lines().map(str::to_string).collect()
}

#[test]
fn import_twice_adds_nothing_and_answers_as_sqlite_does() {
    let Some(db) = TestDb::new("import") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (book, file) = (tmp.path().join("book"), tmp.path().join("lib.sqlite"));
    generate(&book, "300", "1");
    let book = book.to_str().unwrap();
    let first = lib(&["import", book], &db.url);
    ok(&first, "import");
    assert!(stdout(&first).contains("300 added, 0 already"), "{}", stdout(&first));
    let again = lib(&["import", book], &db.url);
    ok(&again, "import again");
    assert!(stdout(&again).contains("0 added, 300 already"), "{}", stdout(&again));
    assert_eq!(db.count("SELECT count(*) FROM puzzles"), 300);
    ok(&lib(&["import", book], file.to_str().unwrap()), "import into SQLite");
    // Counts, selections (in the order added), statistics: the same from both engines.
    let sqlite = file.to_str().unwrap();
    for args in [
        vec!["query"],
        vec!["query", "--grade", "hard,expert"],
        vec!["query", "--uses", "naked_pair", "--min-steps", "300"],
        vec!["query", "--needs", "x_wing"],
        vec!["query", "--grade", "medium", "--count", "25", "--format", "ids"],
        vec!["query", "--max-steps", "400", "--count", "10", "--format", "jsonl"],
        vec!["stats"],
    ] {
        let (p, s) = (lib(&args, &db.url), lib(&args, sqlite));
        ok(&p, &format!("{args:?}"));
        assert_eq!(stdout(&p), stdout(&s), "{args:?}");
    }
    let total = stdout(&lib(&["query"], &db.url));
    assert!(total.lines().last().unwrap().ends_with(" 300"), "{total}");
    let check = lib(&["check"], &db.url);
    ok(&check, "check");
    assert!(stdout(&check).ends_with(": ok\n"), "{}", stdout(&check));
}

#[test]
fn two_books_never_share_a_puzzle_and_release_frees_them() {
    let Some(db) = TestDb::new("reserve") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book");
    generate(&book, "200", "2");
    ok(&lib(&["import", book.to_str().unwrap()], &db.url), "import");
    let total = db.count("SELECT count(*) FROM puzzles");
    assert!(total > 150, "{total}");
    let first = (total - 80).to_string();
    let reserve = |name: &str, n: &str| lib(&["query", "--count", n, "--reserve", name, "--format", "ids"], &db.url);
    let a = reserve("book-a", &first);
    ok(&a, "book a");
    let b = reserve("book-b", "80");
    ok(&b, "book b");
    let (a, b) = (ids(&a), ids(&b));
    assert_eq!((a.len() as i64, b.len()), (total - 80, 80));
    let all: HashSet<&String> = a.iter().chain(&b).collect();
    assert_eq!(all.len() as i64, total, "a puzzle in both books");
    // Nothing left: a third book is refused, and nothing is recorded for it.
    let c = reserve("book-c", "1");
    assert_eq!(c.status.code(), Some(2), "{}", stderr(&c));
    assert_eq!(db.count("SELECT count(*) FROM books"), 2);
    // The same book again (same plan) is a reprint: its own puzzles.
    assert_eq!(ids(&reserve("book-b", "80")), b);
    let r = lib(&["release", "book-a"], &db.url);
    ok(&r, "release");
    assert!(stdout(&r).contains(&format!("its {first} puzzle(s) are free again")), "{}", stdout(&r));
    let d = reserve("book-d", &first);
    ok(&d, "book d");
    assert_eq!(ids(&d).into_iter().collect::<HashSet<_>>(), a.iter().cloned().collect::<HashSet<_>>());
    assert_eq!(db.count("SELECT count(*) FROM uses"), total);
    let books = stdout(&lib(&["books"], &db.url));
    assert!(books.contains("\tbook-b\t") && books.contains("\tbook-d\t") && !books.contains("book-a"), "{books}");
}

#[test]
fn a_foreign_database_is_refused_and_left_as_it_was() {
    let Some(db) = TestDb::new("foreign") else { return };
    db.client()
        .batch_execute(
            "CREATE TABLE customers (id int PRIMARY KEY, name text); INSERT INTO customers VALUES (1, 'Ada')",
        )
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book");
    generate(&book, "20", "3");
    for o in [lib(&["import", book.to_str().unwrap()], &db.url), lib(&["stats"], &db.url)] {
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("not a puzzle-factory library"), "{}", stderr(&o));
    }
    let tables = db.count("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'");
    assert_eq!(tables, 1, "only the customers table");
    assert_eq!(db.count("SELECT count(*) FROM customers WHERE name = 'Ada'"), 1);
}

#[test]
fn a_newer_library_and_an_empty_database_are_refused_untouched() {
    let Some(db) = TestDb::new("newer") else { return };
    // A command that only reads makes no library in an empty database.
    let o = lib(&["stats"], &db.url);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no library in"), "{}", stderr(&o));
    assert_eq!(db.count("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"), 0);
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book");
    generate(&book, "30", "4");
    ok(&lib(&["import", book.to_str().unwrap()], &db.url), "import");
    db.client().batch_execute("UPDATE meta SET value = '99' WHERE key = 'schema'").unwrap();
    let before = db.count("SELECT count(*) FROM puzzles");
    for args in [vec!["stats"], vec!["import", book.to_str().unwrap()], vec!["query", "--count", "1", "--reserve", "x"]]
    {
        let o = lib(&args, &db.url);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("schema version 99, made by a newer puzzle-factory"), "{}", stderr(&o));
    }
    assert_eq!(db.count("SELECT count(*) FROM puzzles"), before);
    assert_eq!(db.count("SELECT count(*) FROM books"), 0);
    assert_eq!(db.count("SELECT count(*) FROM meta WHERE key = 'schema' AND value = '99'"), 1);
}

#[test]
fn generate_into_the_library_then_the_same_run_makes_only_duplicates() {
    let Some(db) = TestDb::new("generate") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let run_into = |out: &str| {
        let out = tmp.path().join(out);
        let o = run(
            &[
                "generate",
                "--count",
                "150",
                "--seed",
                "5",
                "--quiet",
                "--library",
                &db.url,
                "--out",
                out.to_str().unwrap(),
            ],
            None,
        );
        ok(&o, "generate --library");
        let c: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("calibration.json")).unwrap()).unwrap();
        let m = std::fs::read_to_string(out.join("manifest.json")).unwrap();
        assert!(m.contains("\"library\""), "{m}");
        if let Some(p) = password(&db.url) {
            assert!(!m.contains(&format!(":{p}@")), "the password in the manifest: {m}");
        }
        (c["candidates"]["accepted"].as_u64().unwrap(), c["candidates"]["rejected"]["duplicate"].as_u64().unwrap())
    };
    let (made, _) = run_into("first");
    assert!(made > 100, "{made}");
    assert_eq!(db.count("SELECT count(*) FROM puzzles") as u64, made);
    assert_eq!(run_into("second"), (0, 150));
    assert_eq!(db.count("SELECT count(*) FROM puzzles") as u64, made);
}

#[test]
fn two_processes_reserving_at_once_never_share_a_puzzle() {
    let Some(db) = TestDb::new("concurrent") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book");
    generate(&book, "250", "6");
    ok(&lib(&["import", book.to_str().unwrap()], &db.url), "import");
    let mut seen: HashSet<String> = HashSet::new();
    for round in 0..20 {
        let children: Vec<_> = (0..2)
            .map(|k| {
                let name = format!("r{round}-{k}");
                bin()
                    .args([
                        "library",
                        "query",
                        "--count",
                        "5",
                        "--reserve",
                        &name,
                        "--format",
                        "ids",
                        "--library",
                        &db.url,
                    ])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let o = c.wait_with_output().unwrap();
            ok(&o, &format!("round {round}"));
            let got = ids(&o);
            assert_eq!(got.len(), 5);
            for id in got {
                assert!(seen.insert(id.clone()), "round {round}: {id} reserved twice");
            }
        }
    }
    assert_eq!(db.count("SELECT count(*) FROM uses"), 200);
    assert_eq!(db.count("SELECT count(DISTINCT puzzle) FROM uses"), 200);
    assert_eq!(db.count("SELECT count(*) FROM books"), 40);
}

#[test]
fn a_writer_waits_for_another_and_a_reader_does_not() {
    let Some(db) = TestDb::new("lock") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book");
    generate(&book, "20", "7");
    ok(&lib(&["import", book.to_str().unwrap()], &db.url), "import");
    // Another writer: a transaction holding the library's write lock (WRITE_LOCK of
    // src/library/postgres.rs, 0x0070_662d_6c69_6272).
    let mut other = db.client();
    let mut tx = other.transaction().unwrap();
    tx.execute("SELECT pg_advisory_xact_lock(31637542670000754)", &[]).unwrap();
    let started = std::time::Instant::now();
    ok(&lib(&["stats"], &db.url), "stats");
    ok(&lib(&["query", "--grade", "easy,medium,hard,expert"], &db.url), "query");
    assert!(started.elapsed().as_secs_f64() < 2.0, "a reader waited: {:?}", started.elapsed());
    let url = db.url.clone();
    let writer = std::thread::spawn(move || lib(&["query", "--count", "3", "--reserve", "waits"], &url));
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(!writer.is_finished(), "a writer did not wait for the lock");
    tx.commit().unwrap();
    ok(&writer.join().unwrap(), "the waiting writer");
    assert_eq!(db.count("SELECT count(*) FROM uses"), 3);
}

#[test]
fn a_wrong_password_or_no_server_is_a_usage_error_without_the_password() {
    let Some(db) = TestDb::new("connect") else { return };
    let url = &db.url;
    let at = url.rfind('@').expect("the test URL names a user");
    let scheme = url.find("://").unwrap() + 3;
    let user = url[scheme..at].split(':').next().unwrap();
    let wrong = format!("{}{user}:pf_password_wrong@{}", &url[..scheme], &url[at + 1..]);
    let o = lib(&["stats"], &wrong);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stderr(&o).contains("pf_password_wrong"), "{}", stderr(&o));
    // A port where nothing listens.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let nobody = format!("postgres://{user}:pf_password_wrong@127.0.0.1:{port}/x");
    let o = lib(&["stats"], &nobody);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot connect") && !stderr(&o).contains("pf_password_wrong"), "{}", stderr(&o));
    let o = lib(&["stats"], &format!("postgres://{user}@127.0.0.1:notaport/x"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn test_urls_name_the_test_database() {
    assert_eq!(
        with_database("postgres://u:p@h:5432/pf?sslmode=disable", "t"),
        "postgres://u:p@h:5432/t?sslmode=disable"
    );
    assert_eq!(with_database("postgres://u:p/q@h", "t"), "postgres://u:p/q@h/t");
    assert_eq!(with_database("postgresql://h/pf", "t"), "postgresql://h/t");
}
