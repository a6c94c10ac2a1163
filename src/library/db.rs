//! The database under the library: an SQLite file (one machine) or a PostgreSQL server (a
//! team). Both hold the same schema (`schema`); the library's statements are written once, in
//! the SQL both accept, with `?1`, `?2`… for parameters (PostgreSQL's `$1`, `$2`… are made
//! from them). What differs — opening, locking, the DDL's column types — is here.
//!
//! Safety of the SQLite file: it is never reached through a symbolic link (the file, its
//! `-wal`, `-shm` and `-journal` are checked, and SQLite opens with `NOFOLLOW`); a file that
//! is not an SQLite database is refused before anything is written to it. Whether a database
//! is a library, and of which version, `Library::open` asks next (`schema`), before
//! `Db::prepare` writes anything.

use crate::config::UsageError;
use anyhow::{Context as _, Result};
use rusqlite::OpenFlags;
use std::path::{Path, PathBuf};

/// The SQL dialect of a database: the DDL's column types and the catalogue differ.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// One value of a row, in or out.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    /// Bytes (a pack of records, zstd-compressed).
    Blob(Vec<u8>),
}

impl Val {
    pub fn int(&self) -> i64 {
        match self {
            Val::Int(i) => *i,
            Val::Real(r) => *r as i64,
            Val::Text(t) => t.parse().unwrap_or(0),
            Val::Null | Val::Blob(_) => 0,
        }
    }
    pub fn real(&self) -> f64 {
        match self {
            Val::Int(i) => *i as f64,
            Val::Real(r) => *r,
            Val::Text(t) => t.parse().unwrap_or(0.0),
            Val::Null | Val::Blob(_) => 0.0,
        }
    }
    pub fn text(&self) -> String {
        match self {
            Val::Text(t) => t.clone(),
            Val::Int(i) => i.to_string(),
            Val::Real(r) => r.to_string(),
            Val::Blob(b) => String::from_utf8_lossy(b).into_owned(),
            Val::Null => String::new(),
        }
    }
    /// The bytes of a blob (of text, its UTF-8).
    pub fn bytes(&self) -> &[u8] {
        match self {
            Val::Blob(b) => b,
            Val::Text(t) => t.as_bytes(),
            _ => &[],
        }
    }
}

impl From<&str> for Val {
    fn from(s: &str) -> Val {
        Val::Text(s.to_string())
    }
}
impl From<String> for Val {
    fn from(s: String) -> Val {
        Val::Text(s)
    }
}
impl From<i64> for Val {
    fn from(i: i64) -> Val {
        Val::Int(i)
    }
}
impl From<f64> for Val {
    fn from(r: f64) -> Val {
        Val::Real(r)
    }
}

/// What the library asks of a database.
pub trait Db {
    /// Statements without parameters (DDL, `BEGIN`…), separated by `;`.
    fn batch(&mut self, sql: &str) -> Result<()>;
    /// One statement; the rows it changed.
    fn exec(&mut self, sql: &str, params: &[Val]) -> Result<usize>;
    /// One statement run once per row of `rows`; the rows it changed in all.
    fn exec_many(&mut self, sql: &str, rows: &[Vec<Val>]) -> Result<usize>;
    /// The rows of a query.
    fn rows(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>>;
    /// Start a transaction that writes: it waits for (or, past the busy timeout, fails on) any
    /// other writer, so that two writers never see the same state and both act on it.
    fn begin_write(&mut self) -> Result<()>;
    fn commit(&mut self) -> Result<()>;
    fn rollback(&mut self) -> Result<()>;
    /// Settings that may write (SQLite's journal mode), made once the database is known to be
    /// a library or empty (`Library::open`).
    fn prepare(&mut self) -> Result<()> {
        Ok(())
    }
    /// The DDL's column types.
    fn dialect(&self) -> Dialect;
    /// The library as named in messages.
    fn name(&self) -> &str;
}

/// Where a library is: a file, or a PostgreSQL URL.
pub fn is_postgres(spec: &str) -> bool {
    spec.starts_with("postgres://") || spec.starts_with("postgresql://")
}

/// How long a writer waits for another before it gives up (a book's reservation takes well
/// under a second; an import of millions of puzzles takes minutes).
pub const BUSY_TIMEOUT_MS: u64 = 600_000;

pub struct Sqlite {
    conn: rusqlite::Connection,
    name: String,
}

const HEADER: &[u8; 16] = b"SQLite format 3\0";

/// The file and the files SQLite keeps beside it.
fn companions(path: &Path) -> Vec<PathBuf> {
    let mut out = vec![path.to_path_buf()];
    for suffix in ["-wal", "-shm", "-journal"] {
        let mut s = path.as_os_str().to_owned();
        s.push(suffix);
        out.push(PathBuf::from(s));
    }
    out
}

/// Refuse a library whose file (or journal) is a symbolic link, or whose file is not a regular
/// file or not an SQLite database. Ok(false): there is no file yet.
fn check_file(path: &Path) -> Result<bool> {
    let shown = path.display();
    for p in companions(path) {
        if std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(UsageError(format!(
                "library {shown}: {} is a symbolic link, which puzzle-factory never makes: remove it (a library is \
                 never written through a link)",
                p.display()
            ))
            .into());
        }
    }
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e).with_context(|| format!("library {shown}")),
    };
    if !meta.is_file() {
        return Err(UsageError(format!("library {shown}: not a file")).into());
    }
    if meta.len() == 0 {
        return Ok(true);
    }
    let mut head = [0u8; 16];
    let n = {
        use std::io::Read as _;
        let mut f = std::fs::File::open(path).with_context(|| format!("reading library {shown}"))?;
        let mut n = 0;
        while n < 16 {
            match f.read(&mut head[n..]).with_context(|| format!("reading library {shown}"))? {
                0 => break,
                k => n += k,
            }
        }
        n
    };
    if n < 16 || &head != HEADER {
        return Err(UsageError(format!(
            "library {shown} is not a puzzle-factory library (not an SQLite database); nothing was written to it"
        ))
        .into());
    }
    Ok(true)
}

impl Sqlite {
    /// Open the library file at `path`; `create`: make it when there is none.
    pub fn open(path: &Path, create: bool) -> Result<Sqlite> {
        let shown = path.display().to_string();
        let exists = check_file(path)?;
        if !exists && !create {
            return Err(UsageError(format!(
                "no library at {shown}: `library import --library {shown} DIR` or `generate --library {shown}` makes \
                 one"
            ))
            .into());
        }
        if !exists {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
            }
        }
        // No mutex around each call (rusqlite's default, lost when flags are given): a
        // `Connection` is used by one thread at a time (it is not `Sync`), and the locks took
        // a twentieth of an import's writing.
        let mut flags =
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NOFOLLOW | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if !exists {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let conn = rusqlite::Connection::open_with_flags(path, flags)
            .map_err(|e| anyhow::anyhow!("opening library {shown}: {e}"))?;
        conn.busy_timeout(std::time::Duration::from_millis(BUSY_TIMEOUT_MS))?;
        Ok(Sqlite { conn, name: shown })
    }
}

impl rusqlite::ToSql for Val {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(match self {
            Val::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Val::Int(i) => ToSqlOutput::Borrowed(ValueRef::Integer(*i)),
            Val::Real(r) => ToSqlOutput::Borrowed(ValueRef::Real(*r)),
            Val::Text(t) => ToSqlOutput::Borrowed(ValueRef::Text(t.as_bytes())),
            Val::Blob(b) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
        })
    }
}

impl Sqlite {
    fn err(&self, e: rusqlite::Error) -> anyhow::Error {
        if let rusqlite::Error::SqliteFailure(f, _) = &e {
            if f.code == rusqlite::ErrorCode::DatabaseCorrupt || f.code == rusqlite::ErrorCode::NotADatabase {
                return UsageError(format!("library {} is damaged ({e}); nothing more was written to it", self.name))
                    .into();
            }
        }
        anyhow::anyhow!("library {}: {e}", self.name)
    }
}

impl Db for Sqlite {
    fn batch(&mut self, sql: &str) -> Result<()> {
        self.conn.execute_batch(sql).map_err(|e| self.err(e))
    }

    fn exec(&mut self, sql: &str, params: &[Val]) -> Result<usize> {
        let r = self.conn.prepare_cached(sql).and_then(|mut s| s.execute(rusqlite::params_from_iter(params)));
        r.map_err(|e| self.err(e))
    }

    fn exec_many(&mut self, sql: &str, rows: &[Vec<Val>]) -> Result<usize> {
        let r = (|| {
            let mut s = self.conn.prepare_cached(sql)?;
            let mut n = 0;
            for row in rows {
                n += s.execute(rusqlite::params_from_iter(row))?;
            }
            Ok(n)
        })();
        r.map_err(|e| self.err(e))
    }

    fn rows(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>> {
        let r = (|| {
            let mut s = self.conn.prepare_cached(sql)?;
            let cols = s.column_count();
            let mut rows = s.query(rusqlite::params_from_iter(params))?;
            let mut out = Vec::new();
            while let Some(row) = rows.next()? {
                let mut v = Vec::with_capacity(cols);
                for i in 0..cols {
                    use rusqlite::types::ValueRef;
                    v.push(match row.get_ref(i)? {
                        ValueRef::Null => Val::Null,
                        ValueRef::Integer(i) => Val::Int(i),
                        ValueRef::Real(r) => Val::Real(r),
                        ValueRef::Text(t) => Val::Text(String::from_utf8_lossy(t).into_owned()),
                        ValueRef::Blob(b) => Val::Blob(b.to_vec()),
                    });
                }
                out.push(v);
            }
            Ok(out)
        })();
        r.map_err(|e| self.err(e))
    }

    fn begin_write(&mut self) -> Result<()> {
        self.batch("BEGIN IMMEDIATE")
    }
    fn commit(&mut self) -> Result<()> {
        self.batch("COMMIT")
    }
    fn rollback(&mut self) -> Result<()> {
        self.batch("ROLLBACK")
    }
    fn prepare(&mut self) -> Result<()> {
        // 16 KB pages for a new library (an existing one keeps its own: the setting takes effect
        // only before the first table): fewer, shallower B-tree pages for the key index, whose
        // inserts are an import's main cost (200,000 puzzles added in 10 % less time than
        // with 4 KB).
        self.conn.pragma_update(None, "page_size", 16_384)?;
        self.conn
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| anyhow::anyhow!("library {}: {e}", self.name))?;
        self.conn.pragma_update(None, "synchronous", "FULL")?;
        self.conn.pragma_update(None, "foreign_keys", "ON")?;
        // A page cache of up to 256 MB (taken as used): an import's index pages stay in memory
        // instead of spilling to the log mid-transaction and being read back (a third of an
        // import's time with the default 2 MB).
        self.conn.pragma_update(None, "cache_size", -262_144)?;
        Ok(())
    }
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }
    fn name(&self) -> &str {
        &self.name
    }
}
