//! The puzzle library: every puzzle made, in one database, and the books drawn from it, so
//! that no puzzle is printed twice.
//!
//! An SQLite file by default (`db::Sqlite`), or a PostgreSQL server for a team on several
//! machines; the schema (`schema`) is the same. Puzzles come in whole book folders
//! (`import`); books go out through selections (`select::Filter`) and reservations
//! (`select`), each one transaction, so that a kill leaves the library as it was before or
//! after, and two books made at once never share a puzzle.
//!
//! Imports go one way: the library reads book records (JSON lines) and knows nothing of the
//! kinds, the pipeline or printing; the commands (`commands::library`, `generate --library`,
//! book plans) call it.

pub mod db;
pub mod import;
mod postgres;
pub mod schema;
pub mod select;

use anyhow::Result;
use db::{Db, Val};

/// The library file when `--library` names none.
pub const DEFAULT: &str = "output/library.sqlite";

pub struct Library {
    db: Box<dyn Db>,
}

impl Library {
    /// Open the library `spec` (a file, or a `postgres://` URL); `create`: make it when there
    /// is none (a command that only reads never makes one).
    ///
    /// The same steps for both databases: a connection that writes nothing; what it holds
    /// read (`schema::check`: another program's database or a newer library is refused
    /// untouched, and an empty one is not made a library by a command that only reads); the
    /// settings that may write (`Db::prepare`); and only a library to make or bring up to date
    /// takes the write lock (`schema::migrate`), so a command that reads never waits for an
    /// import.
    pub fn open(spec: &str, create: bool) -> Result<Library> {
        let mut db: Box<dyn Db> = if db::is_postgres(spec) {
            Box::new(postgres::Postgres::open(spec)?)
        } else {
            Box::new(db::Sqlite::open(std::path::Path::new(spec), create)?)
        };
        let version = schema::check(db.as_mut())?;
        if version == 0 && !create {
            return Err(crate::config::UsageError(format!(
                "no library in {0}: `library import --library {0} DIR` or `generate --library {0}` makes one",
                db.name()
            ))
            .into());
        }
        db.prepare()?;
        if version < schema::VERSION {
            schema::migrate(db.as_mut())?;
        }
        Ok(Library { db })
    }

    pub fn name(&self) -> &str {
        self.db.name()
    }

    /// Run `f` in one write transaction: committed when it returns Ok, rolled back otherwise.
    pub fn write<T>(&mut self, f: impl FnOnce(&mut dyn Db) -> Result<T>) -> Result<T> {
        self.db.begin_write()?;
        match f(self.db.as_mut()) {
            Ok(v) => {
                self.db.commit()?;
                Ok(v)
            }
            Err(e) => {
                let _ = self.db.rollback();
                Err(e)
            }
        }
    }

    /// Statements that only read.
    pub fn rows(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>> {
        self.db.rows(sql, params)
    }

    /// The canonical keys the library holds for a kind and shape (for `generate --library`:
    /// they count as duplicates).
    pub fn keys(&mut self, kind: &str, shape: &str) -> Result<Vec<u128>> {
        let rows = self.db.rows(
            "SELECT p.key_hi, p.key_lo FROM puzzles p JOIN boards b ON b.id = p.board WHERE b.kind = ?1 AND b.shape = ?2",
            &[Val::from(kind), Val::from(shape)],
        )?;
        Ok(rows.into_iter().map(|r| (u128::from(r[0].int() as u64) << 64) | u128::from(r[1].int() as u64)).collect())
    }

    /// `PRAGMA integrity_check` of an SQLite library ("ok" when sound); PostgreSQL checks its own.
    pub fn integrity(&mut self) -> Result<String> {
        match self.db.dialect() {
            db::Dialect::Sqlite => {
                let rows = self.db.rows("PRAGMA integrity_check", &[])?;
                Ok(rows.iter().map(|r| r[0].text()).collect::<Vec<_>>().join("; "))
            }
            db::Dialect::Postgres => Ok("ok".into()),
        }
    }

    /// For a bulk import that can be done again (a run's book at its commit): SQLite does not
    /// wait for the disk at each commit (`synchronous = NORMAL`: after a power loss the library
    /// may lack the last import, never be damaged; a kill loses nothing); PostgreSQL likewise
    /// for this connection (`synchronous_commit = off`: a server crash may lose the last
    /// commits, never damage the database).
    pub fn bulk(&mut self) -> Result<()> {
        match self.db.dialect() {
            db::Dialect::Sqlite => self.db.batch("PRAGMA synchronous = NORMAL"),
            db::Dialect::Postgres => self.db.batch("SET synchronous_commit = off"),
        }
    }

    /// Empty SQLite's write-ahead log into the file (after a large import).
    pub fn checkpoint(&mut self) -> Result<()> {
        if self.db.dialect() == db::Dialect::Sqlite {
            self.db.batch("PRAGMA wal_checkpoint(TRUNCATE)")?;
        }
        Ok(())
    }
}

/// A URL as printed: without its password, in the user part or as a parameter
/// (`?password=…`).
pub fn redact(spec: &str) -> String {
    let shown = match (spec.find("://"), spec.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let user = &spec[s + 3..at];
            let user = user.split(':').next().unwrap_or("");
            format!("{}{user}@{}", &spec[..s + 3], &spec[at + 1..])
        }
        _ => spec.to_string(),
    };
    match shown.split_once('?') {
        Some((base, query)) if spec.contains("://") => {
            let kept: Vec<&str> =
                query.split('&').filter(|p| !p.to_ascii_lowercase().starts_with("password=")).collect();
            if kept.is_empty() {
                base.to_string()
            } else {
                format!("{base}?{}", kept.join("&"))
            }
        }
        _ => shown,
    }
}

/// The time now, UTC, as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil(secs / 86_400);
    let t = secs % 86_400;
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", t / 3600, t / 60 % 60, t % 60)
}

/// Today's date, UTC, as `YYYY-MM-DD`.
pub fn today() -> String {
    now()[..10].to_string()
}

/// The date of day `days` since 1970-01-01 (Howard Hinnant's civil_from_days).
fn civil(days: u64) -> (i64, u32, u32) {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Is `s` a date `YYYY-MM-DD`?
pub fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
        && (1..=12).contains(&s[5..7].parse::<u32>().unwrap_or(0))
        && (1..=31).contains(&s[8..10].parse::<u32>().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(19_723), (2024, 1, 1));
        assert_eq!(civil(20_513), (2026, 3, 1));
        assert!(is_date("2026-11-27") && !is_date("2026-13-01") && !is_date("26-11-27"));
        assert_eq!(redact("postgres://pf:secret@db.example/lib"), "postgres://pf@db.example/lib");
        assert_eq!(redact("postgres://pf:se@c/r?t@db/lib?sslmode=disable"), "postgres://pf@db/lib?sslmode=disable");
        assert_eq!(redact("postgres://db/lib?user=pf&password=secret"), "postgres://db/lib?user=pf");
        assert_eq!(redact("postgres://db/lib?Password=secret"), "postgres://db/lib");
        assert_eq!(redact("output/why?.sqlite"), "output/why?.sqlite");
    }
}

#[cfg(test)]
mod version_tests {
    use super::db::{Db, Sqlite, Val};
    use super::{schema, Library};

    /// A library an older program made (version 1: records in their rows) opens, is brought to
    /// today's version, keeps its records and takes new ones in packs.
    #[test]
    fn a_version_1_library_is_brought_up_to_date_and_keeps_its_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        let record = r#"{"id":"sudoku-9-1-0","kind":"sudoku"}"#;
        {
            let mut db = Sqlite::open(&path, true).unwrap();
            db.prepare().unwrap();
            schema::migrate_to(&mut db, 1).unwrap();
            db.batch("INSERT INTO boards (kind, shape) VALUES ('sudoku', '9')").unwrap();
            db.batch("INSERT INTO runs (run, board, params, seed, added) VALUES ('sudoku-9-1', 1, '{}', '1', 'then')")
                .unwrap();
            db.exec(
                "INSERT INTO puzzles (board, key_hi, key_lo, run, idx, grade, steps, hardest, techniques, record) VALUES \
                 (1, 5, 6, 1, 0, 2, 100.0, 3, ' x_wing ', ?1)",
                &[Val::from(record)],
            )
            .unwrap();
            assert!(db.rows("SELECT count(*) FROM sqlite_master WHERE name = 'packs'", &[]).unwrap()[0][0].int() == 0);
        }
        let mut lib = Library::open(path.to_str().unwrap(), false).unwrap();
        assert_eq!(lib.rows("SELECT value FROM meta WHERE key = 'schema'", &[]).unwrap()[0][0].text(), "2");
        let f = super::select::Filter::default();
        let picked = lib.select(&f, 10).unwrap();
        assert_eq!(picked.len(), 1);
        assert_eq!(picked[0].record, record);
        assert_eq!(picked[0].id, "sudoku-9-1-0");
    }

    #[test]
    fn a_pack_gives_back_its_records() {
        let lines = ["{\"a\":1}", "{\"b\":\"x\\ny\"}", "{}"];
        let data = super::import::pack(&lines).unwrap();
        assert_eq!(super::import::unpack(&data).unwrap(), lines);
        assert!(super::import::unpack(b"not zstd").is_none());
    }
}
