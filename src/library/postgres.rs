//! The library on a PostgreSQL server (`--library postgres://USER[:PASSWORD]@HOST[:PORT]/DB`):
//! for a team on several machines, shards on a cluster all adding to one library, or the
//! office's existing database. The schema and the statements are the SQLite library's
//! (`schema`, `select`, `import`); this file translates them and keeps three promises:
//!
//! - Writers take turns, readers never wait: every write transaction starts by taking one
//!   advisory lock (`WRITE_LOCK`) held to its end, so two reservations or imports from any
//!   machines run one after the other, and the second sees what the first committed.
//! - A database that is not a library (other tables) or a library of a newer version is
//!   refused before anything is written (`Library::open` runs `schema::check` first, on the
//!   bare connection `open` makes).
//! - The password never appears in a message: the library is named by `library::redact`.
//!
//! Connections are made without TLS (`sslmode=disable` or the default `prefer`; a URL that
//! asks for `sslmode=require` is refused when connecting): on another machine, reach the
//! server through a VPN or an SSH tunnel.

use super::db::{Db, Dialect, Val, BUSY_TIMEOUT_MS};
use crate::config::UsageError;
use anyhow::Result;
use bytes::BytesMut;
use postgres::binary_copy::BinaryCopyInWriter;
use postgres::error::SqlState;
use postgres::types::{IsNull, ToSql, Type};
use postgres::{Client, Config, NoTls, Statement};
use std::collections::HashMap;

/// The advisory lock every write transaction holds (`pg_advisory_xact_lock`): "pf-libr"
/// in ASCII, a 64-bit key no other program is likely to take. Advisory locks belong to one
/// database, so libraries in different databases do not wait for each other (two libraries in
/// two schemas of one database take turns needlessly, never wrongly).
const WRITE_LOCK: i64 = 0x0070_662d_6c69_6272;

/// How long a connection attempt may take when the URL says nothing (`connect_timeout`).
const CONNECT_TIMEOUT_S: u64 = 10;

pub struct Postgres {
    client: Client,
    name: String,
    /// Prepared statements by the library's SQL (with `?N`), for the connection's life.
    statements: HashMap<String, Statement>,
    /// `exec_many`'s staging tables, by the INSERT they serve; temporary tables dropped at
    /// the end of the transaction, so emptied here at commit and rollback.
    staged: HashMap<String, Staged>,
    /// A transaction is open (`begin_write` until `commit` or `rollback`).
    in_tx: bool,
}

/// The staging of one INSERT: rows are copied into `table` (binary COPY, in `types`), then
/// moved into the library by `insert`.
struct Staged {
    table: String,
    types: Vec<Type>,
    insert: Statement,
}

/// `?1`, `?2`… as PostgreSQL's `$1`, `$2`…, outside quoted literals and identifiers (the
/// library's statements hold `'\'` in LIKE's ESCAPE, and no `?` in any literal).
fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quote) {
            ('\'' | '"', None) => quote = Some(c),
            (q, Some(open)) if q == open => quote = None,
            ('?', None) if chars.peek().is_some_and(char::is_ascii_digit) => {
                out.push('$');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

/// An INSERT of one row of parameters, `INSERT INTO t (a, b, …) VALUES (?1, ?2, …) REST`,
/// taken apart so that `exec_many` can insert many rows at once.
#[derive(Debug, PartialEq)]
struct Insert {
    table: String,
    columns: Vec<String>,
    rest: String,
}

fn parse_insert(sql: &str) -> Option<Insert> {
    let s = sql.trim().strip_prefix("INSERT INTO ")?;
    let open = s.find('(')?;
    let table = s[..open].trim();
    let close = open + s[open..].find(')')?;
    let columns: Vec<String> = s[open + 1..close].split(',').map(|c| c.trim().to_string()).collect();
    let s = s[close + 1..].trim_start().strip_prefix("VALUES (")?;
    let close = s.find(')')?;
    let params: Vec<&str> = s[..close].split(',').map(str::trim).collect();
    let numbered = params.iter().enumerate().all(|(i, p)| *p == format!("?{}", i + 1));
    let plain = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !numbered || params.len() != columns.len() || !plain(table) || !columns.iter().all(|c| plain(c)) {
        return None;
    }
    Some(Insert { table: table.to_string(), columns, rest: s[close + 1..].trim().to_string() })
}

/// An error of the client in words: the server's message (with its detail and hint), or the
/// client's with its causes.
fn describe(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        let mut s = format!("{}: {}", db.severity(), db.message());
        if let Some(d) = db.detail() {
            s.push_str(&format!(" ({d})"));
        }
        if let Some(h) = db.hint() {
            s.push_str(&format!("; {h}"));
        }
        return s;
    }
    let mut s = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        s.push_str(&format!(": {c}"));
        cause = c.source();
    }
    s
}

impl Postgres {
    /// Connect to the library at `url` (`Library::open` then checks what the database holds).
    /// A bad URL, a server that cannot be reached and a refused login are the user's to fix
    /// (exit 2).
    pub fn open(url: &str) -> Result<Postgres> {
        let name = super::redact(url);
        let mut config: Config = url.parse().map_err(|e: postgres::Error| {
            UsageError(format!("--library {name}: not a PostgreSQL URL ({})", describe(&e)))
        })?;
        if config.get_ssl_mode() == postgres::config::SslMode::Require {
            return Err(UsageError(format!(
                "library {name}: sslmode=require, but puzzle-factory connects without TLS; reach the server through a \
                 VPN or an SSH tunnel"
            ))
            .into());
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(std::time::Duration::from_secs(CONNECT_TIMEOUT_S));
        }
        if config.get_application_name().is_none() {
            config.application_name("puzzle-factory");
        }
        let client = config.connect(NoTls).map_err(|e| {
            let what = match e.code() {
                Some(c) if *c == SqlState::INVALID_PASSWORD || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION => {
                    "the server refused the login"
                }
                Some(c) if *c == SqlState::INVALID_CATALOG_NAME => "no such database",
                _ => "cannot connect",
            };
            UsageError(format!("library {name}: {what} ({})", describe(&e)))
        })?;
        let mut db = Postgres { client, name, statements: HashMap::new(), staged: HashMap::new(), in_tx: false };
        // A writer waits for another as long as SQLite's busy timeout; the LIKE patterns'
        // ESCAPE '\' needs standard strings (the default since PostgreSQL 9.1).
        db.batch(&format!("SET lock_timeout = {BUSY_TIMEOUT_MS}; SET standard_conforming_strings = on"))?;
        Ok(db)
    }

    fn err(&self, e: &postgres::Error) -> anyhow::Error {
        if e.code() == Some(&SqlState::LOCK_NOT_AVAILABLE) {
            return anyhow::anyhow!(
                "library {}: another process has been writing to it for over {} s; nothing was written",
                self.name,
                BUSY_TIMEOUT_MS / 1000
            );
        }
        anyhow::anyhow!("library {}: {}", self.name, describe(e))
    }

    fn statement(&mut self, sql: &str) -> Result<Statement> {
        if let Some(s) = self.statements.get(sql) {
            return Ok(s.clone());
        }
        let s = self.client.prepare(&numbered(sql)).map_err(|e| self.err(&e))?;
        self.statements.insert(sql.to_string(), s.clone());
        Ok(s)
    }

    /// The staging table of `ins` in this transaction, made on first use: the target's columns
    /// (their types read from the target table) after an ordinal that keeps the rows' order.
    fn staging(&mut self, sql: &str, ins: &Insert) -> Result<&Staged> {
        if !self.staged.contains_key(sql) {
            let table = format!("pf_staging_{}", self.staged.len());
            let cols = ins.columns.join(", ");
            self.batch(&format!(
                "CREATE TEMPORARY TABLE {table} ON COMMIT DROP AS SELECT 0::bigint AS pf_ord, {cols} FROM {} WITH NO \
                 DATA",
                ins.table
            ))?;
            let probe = self.client.prepare(&format!("SELECT {cols} FROM {table}")).map_err(|e| self.err(&e))?;
            let types = probe.columns().iter().map(|c| c.type_().clone()).collect();
            let insert = self
                .client
                .prepare(&format!(
                    "INSERT INTO {} ({cols}) SELECT {cols} FROM {table} ORDER BY pf_ord {}",
                    ins.table, ins.rest
                ))
                .map_err(|e| self.err(&e))?;
            self.staged.insert(sql.to_string(), Staged { table, types, insert });
        }
        Ok(&self.staged[sql])
    }

    /// `exec_many` for an INSERT in a transaction: the rows copied into a staging table
    /// (binary COPY: one stream, no statement per row), then one INSERT … SELECT moves them in
    /// their order, conflicts handled by the statement's own ON CONFLICT. Measured importing
    /// Sudoku records on this project's 2-core machine with the schema's first draft (text
    /// keys, four indexes; the server free to use the second core): a prepared statement per
    /// row, 8,800 records/s (100,000: a round trip each); multi-row INSERTs of 4,681 rows
    /// (65,535 parameters), 43,500/s (1 M); this, 46,900/s (1 M) with less client CPU. The
    /// server's time is mostly its indexes (`scripts/library-scale.sh` for today's figures).
    fn copy_many(&mut self, sql: &str, ins: &Insert, rows: &[Vec<Val>]) -> Result<usize> {
        let staged = self.staging(sql, ins)?;
        let (table, insert) = (staged.table.clone(), staged.insert.clone());
        let mut types = vec![Type::INT8];
        types.extend(staged.types.iter().cloned());
        let cols = ins.columns.join(", ");
        let r = (|| {
            let writer = self.client.copy_in(&format!("COPY {table} (pf_ord, {cols}) FROM STDIN (FORMAT binary)"))?;
            let mut writer = BinaryCopyInWriter::new(writer, &types);
            let mut values: Vec<&(dyn ToSql + Sync)> = Vec::with_capacity(types.len());
            let ords: Vec<i64> = (0..rows.len() as i64).collect();
            for (row, ord) in rows.iter().zip(&ords) {
                values.clear();
                values.push(ord);
                values.extend(row.iter().map(|v| v as &(dyn ToSql + Sync)));
                writer.write(&values)?;
            }
            writer.finish()?;
            let n = self.client.execute(&insert, &[])?;
            self.client.batch_execute(&format!("TRUNCATE {table}"))?;
            Ok(n as usize)
        })();
        r.map_err(|e: postgres::Error| self.err(&e))
    }
}

impl Db for Postgres {
    fn batch(&mut self, sql: &str) -> Result<()> {
        self.client.batch_execute(sql).map_err(|e| self.err(&e))
    }

    fn exec(&mut self, sql: &str, params: &[Val]) -> Result<usize> {
        let s = self.statement(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|v| v as _).collect();
        self.client.execute(&s, &params).map(|n| n as usize).map_err(|e| self.err(&e))
    }

    fn exec_many(&mut self, sql: &str, rows: &[Vec<Val>]) -> Result<usize> {
        if rows.is_empty() {
            return Ok(0);
        }
        match parse_insert(sql) {
            Some(ins) if self.in_tx => self.copy_many(sql, &ins, rows),
            _ => rows.iter().map(|r| self.exec(sql, r)).sum(),
        }
    }

    fn rows(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>> {
        let s = self.statement(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|v| v as _).collect();
        let rows = self.client.query(&s, &params).map_err(|e| self.err(&e))?;
        let mut out = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut v = Vec::with_capacity(row.len());
            for i in 0..row.len() {
                v.push(value(row, i).map_err(|e| anyhow::anyhow!("library {}: {e}", self.name))?);
            }
            out.push(v);
        }
        Ok(out)
    }

    fn begin_write(&mut self) -> Result<()> {
        // READ COMMITTED (whatever the server's default): each statement sees what was
        // committed before it started, so once the lock is ours every statement sees the
        // previous writer's commit. Under REPEATABLE READ the snapshot would be the one the
        // lock's own SELECT took before it waited, and two books could share puzzles.
        self.batch("BEGIN ISOLATION LEVEL READ COMMITTED")?;
        self.in_tx = true;
        if let Err(e) = self.batch(&format!("SELECT pg_advisory_xact_lock({WRITE_LOCK})")) {
            let _ = self.rollback();
            return Err(e);
        }
        Ok(())
    }
    fn commit(&mut self) -> Result<()> {
        self.in_tx = false;
        self.staged.clear();
        self.batch("COMMIT")
    }
    fn rollback(&mut self) -> Result<()> {
        self.in_tx = false;
        self.staged.clear();
        self.batch("ROLLBACK")
    }
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }
    fn name(&self) -> &str {
        &self.name
    }
}

/// Column `i` of a row as a `Val`: the integer, float, text and bytes types the library's schema
/// and statements produce (sums are cast to BIGINT in the statements; NUMERIC is not read).
fn value(row: &postgres::Row, i: usize) -> Result<Val, String> {
    let ty = row.columns()[i].type_();
    let get_err = |e: postgres::Error| format!("column {i}: {}", describe(&e));
    Ok(match *ty {
        Type::INT8 => row.try_get::<_, Option<i64>>(i).map_err(get_err)?.map_or(Val::Null, Val::Int),
        Type::INT4 => row.try_get::<_, Option<i32>>(i).map_err(get_err)?.map_or(Val::Null, |v| Val::Int(v.into())),
        Type::INT2 => row.try_get::<_, Option<i16>>(i).map_err(get_err)?.map_or(Val::Null, |v| Val::Int(v.into())),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(i).map_err(get_err)?.map_or(Val::Null, Val::Real),
        Type::FLOAT4 => row.try_get::<_, Option<f32>>(i).map_err(get_err)?.map_or(Val::Null, |v| Val::Real(v.into())),
        Type::BOOL => row.try_get::<_, Option<bool>>(i).map_err(get_err)?.map_or(Val::Null, |v| Val::Int(v.into())),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => {
            row.try_get::<_, Option<String>>(i).map_err(get_err)?.map_or(Val::Null, Val::Text)
        }
        Type::BYTEA => row.try_get::<_, Option<Vec<u8>>>(i).map_err(get_err)?.map_or(Val::Null, Val::Blob),
        _ => return Err(format!("column {i} is of type {ty}, which the library does not read")),
    })
}

/// A parameter, in the type the server expects of it: integers into any integer or float
/// column, floats into float columns, text into text, bytes into bytes; anything into a text column as text.
impl ToSql for Val {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        let text = matches!(*ty, Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN);
        match (self, ty) {
            (Val::Null, _) => Ok(IsNull::Yes),
            (Val::Int(i), &Type::INT8) => i.to_sql(ty, out),
            (Val::Int(i), &Type::INT4) => i32::try_from(*i)?.to_sql(ty, out),
            (Val::Int(i), &Type::INT2) => i16::try_from(*i)?.to_sql(ty, out),
            (Val::Int(i), &Type::FLOAT8) => (*i as f64).to_sql(ty, out),
            (Val::Real(r), &Type::FLOAT8) => r.to_sql(ty, out),
            (Val::Real(r), &Type::FLOAT4) => (*r as f32).to_sql(ty, out),
            (Val::Text(t), _) if text => t.as_str().to_sql(ty, out),
            (Val::Blob(b), &Type::BYTEA) => b.as_slice().to_sql(ty, out),
            (v, _) if text => v.text().as_str().to_sql(ty, out),
            (v, _) => Err(format!("{v:?} cannot be sent as {ty}").into()),
        }
    }

    fn accepts(ty: &Type) -> bool {
        matches!(
            *ty,
            Type::INT8
                | Type::INT4
                | Type::INT2
                | Type::FLOAT8
                | Type::FLOAT4
                | Type::TEXT
                | Type::VARCHAR
                | Type::BPCHAR
                | Type::NAME
                | Type::UNKNOWN
                | Type::BYTEA
        )
    }

    postgres::types::to_sql_checked!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_outside_literals() {
        assert_eq!(
            numbered("SELECT a FROM t WHERE b = ?1 AND c LIKE ?12 ESCAPE '\\'"),
            "SELECT a FROM t WHERE b = $1 AND c LIKE $12 ESCAPE '\\'"
        );
        assert_eq!(numbered("SELECT '?1', \"?2\", ?3, 'it''s ?4', ?5"), "SELECT '?1', \"?2\", $3, 'it''s ?4', $5");
        assert_eq!(numbered("SELECT ? ?x ?1"), "SELECT ? ?x $1");
    }

    #[test]
    fn inserts_are_taken_apart() {
        assert_eq!(
            parse_insert("INSERT INTO uses (book, puzzle) VALUES (?1, ?2) ON CONFLICT DO NOTHING"),
            Some(Insert {
                table: "uses".into(),
                columns: vec!["book".into(), "puzzle".into()],
                rest: "ON CONFLICT DO NOTHING".into()
            })
        );
        assert_eq!(parse_insert("INSERT INTO uses (book, puzzle) VALUES (?2, ?1)"), None);
        assert_eq!(parse_insert("INSERT INTO uses (book, puzzle) VALUES (?1, 'x')"), None);
        assert_eq!(parse_insert("INSERT INTO uses (book) VALUES (?1, ?2)"), None);
        assert_eq!(parse_insert("UPDATE uses SET book = ?1"), None);
    }
}
