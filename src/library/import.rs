//! Puzzles into the library: a book folder's records, each a row of `puzzles`, all of a call in
//! one transaction (whole or absent, whatever kills the process). A puzzle whose canonical key
//! the library already holds for its kind and shape is not added again.

use super::db::{Db, Val};
use super::Library;
use crate::book::layout;
use crate::config::UsageError;
use anyhow::{Context as _, Result};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The fields of a book record the library keeps apart from the record itself.
#[derive(Deserialize)]
struct Fields<'a> {
    #[serde(borrow)]
    id: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    kind: std::borrow::Cow<'a, str>,
    seed: u64,
    index: u64,
    #[serde(borrow)]
    grade: std::borrow::Cow<'a, str>,
    steps: f64,
    hardest_level: i64,
    #[serde(borrow)]
    canonical: std::borrow::Cow<'a, str>,
    /// The names of the techniques used (a count above 0), as the library stores them.
    #[serde(default = "space", deserialize_with = "used_names")]
    techniques: String,
}

fn space() -> String {
    " ".into()
}

/// ` name name `: the keys of a `{"name": count, …}` object whose count is above 0.
fn used_names<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = String;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object of technique counts")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<String, A::Error> {
            let mut out = String::from(" ");
            while let Some((Name(name), n)) = m.next_entry::<Name<'de>, u64>()? {
                if n > 0 {
                    out.push_str(&name);
                    out.push(' ');
                }
            }
            Ok(out)
        }
    }
    d.deserialize_map(V)
}

/// A technique's name, borrowed from the record when it can be. (serde reads a `Cow<str>` as an
/// owned `String` unless a struct field asks to borrow it: a `String` per technique per record
/// was a tenth of an import's reading.)
struct Name<'de>(std::borrow::Cow<'de, str>);

impl<'de> Deserialize<'de> for Name<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Name<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a technique's name")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Name<'de>, E> {
                Ok(Name(std::borrow::Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Name<'de>, E> {
                Ok(Name(std::borrow::Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}

/// One puzzle as the library stores it, before its board and run are numbered.
pub struct Row {
    pub kind: String,
    pub shape: String,
    /// The id without its index.
    pub run: String,
    pub seed: u64,
    pub index: u64,
    pub key: u128,
    pub grade: i64,
    pub steps: f64,
    pub hardest: i64,
    pub techniques: String,
}

/// A canonical key as records print it: 32 hex digits. (Read as two 64-bit halves: a 128-bit
/// `from_str_radix` multiplies 128-bit numbers per digit, a thirtieth of an import.)
pub fn parse_key(text: &str) -> Option<u128> {
    let half =
        |h: &[u8]| -> Option<u64> { h.iter().try_fold(0u64, |n, &b| Some(n << 4 | (b as char).to_digit(16)? as u64)) };
    let b = text.as_bytes();
    (b.len() == 32).then_some(())?;
    Some((half(&b[..16])? as u128) << 64 | half(&b[16..])? as u128)
}

/// The two signed halves a key is stored as.
pub fn halves(key: u128) -> (i64, i64) {
    ((key >> 64) as u64 as i64, key as u64 as i64)
}

/// `text` without `-<n>` at its end. (The number matched as text without a `format!`: two of
/// them a record were a twentieth of an import's reading.)
fn without_number(text: &str, n: u64) -> Option<&str> {
    text.strip_suffix(itoa::Buffer::new().format(n))?.strip_suffix('-')
}

/// A record line of a book of kind `book_kind` (the manifest's).
pub fn row(line: &str, book_kind: &str) -> Result<Row, String> {
    let f: Fields = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let (id, kind) = (&*f.id, &*f.kind);
    // `<kind>-<shape>[.<hash>]-<seed>-<index>`: the run is the id without `-<index>`.
    let run = without_number(id, f.index);
    let shape = run
        .and_then(|r| without_number(r, f.seed))
        .and_then(|r| r.strip_prefix(kind))
        .and_then(|r| r.strip_prefix('-'))
        .and_then(|r| r.split('.').next())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| format!("id \"{id}\" is not <kind>-<shape>-<seed>-<index>"))?;
    let grade = crate::grade::Grade::from_name(&f.grade)
        .ok_or_else(|| format!("grade \"{}\" is none of easy, medium, hard, expert", f.grade))?;
    let key = parse_key(&f.canonical).ok_or_else(|| format!("canonical \"{}\" is not 32 hex digits", f.canonical))?;
    Ok(Row {
        kind: book_kind.to_string(),
        shape: shape.to_string(),
        run: run.unwrap_or(id).to_string(),
        seed: f.seed,
        index: f.index,
        key,
        grade: grade.index() as i64,
        steps: f.steps,
        hardest: f.hardest_level,
        techniques: f.techniques,
    })
}

const INSERT: &str = "INSERT INTO puzzles (board, key_hi, key_lo, run, idx, grade, steps, hardest, techniques, \
                      record, pack, slot) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) ON CONFLICT DO \
                      NOTHING";
const INSERT_PACK: &str = "INSERT INTO packs (id, data) VALUES (?1, ?2)";

/// Records per pack: a pack compresses to a fifth of its records (zstd finds their common
/// field names and digits within it), and a record is read by decompressing 64 (tens of
/// microseconds).
pub const PACK: usize = 64;

/// zstd's level for packs: the fastest of its usual levels; higher ones compress records of
/// this size hardly better (measured on 9×9 Sudoku: 114 bytes a record at level 1, 122 at 3).
const PACK_LEVEL: i32 = 1;

/// The records of one pack, a line each, compressed (with a compressor kept per thread:
/// making one per pack took a tenth of an import).
pub fn pack(lines: &[&str]) -> std::io::Result<Vec<u8>> {
    thread_local! {
        static Z: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> = const { std::cell::RefCell::new(None) };
    }
    Z.with(|z| {
        let mut z = z.borrow_mut();
        if z.is_none() {
            *z = Some(zstd::bulk::Compressor::new(PACK_LEVEL)?);
        }
        z.as_mut().expect("made above").compress(lines.join("\n").as_bytes())
    })
}

/// The records of a pack (None: not a pack).
pub fn unpack(data: &[u8]) -> Option<Vec<String>> {
    let text = String::from_utf8(zstd::stream::decode_all(data).ok()?).ok()?;
    Some(text.split('\n').map(str::to_string).collect())
}

/// Boards and runs by name, numbered as they are met (within one transaction).
#[derive(Default)]
struct Numbers {
    boards: HashMap<(String, String), i64>,
    runs: HashMap<String, i64>,
    /// The board asked for last: looked up first, as a folder's rows are nearly always of one
    /// board (the map's key is a pair of owned strings, made only on a miss here).
    last_board: Option<(String, String, i64)>,
}

impl Numbers {
    fn board(&mut self, db: &mut dyn Db, kind: &str, shape: &str) -> Result<i64> {
        if let Some((k, s, id)) = &self.last_board {
            if k == kind && s == shape {
                return Ok(*id);
            }
        }
        if let Some(&id) = self.boards.get(&(kind.to_string(), shape.to_string())) {
            self.last_board = Some((kind.to_string(), shape.to_string(), id));
            return Ok(id);
        }
        let p = [Val::from(kind), Val::from(shape)];
        db.exec("INSERT INTO boards (kind, shape) VALUES (?1, ?2) ON CONFLICT DO NOTHING", &p)?;
        let id = db.rows("SELECT id FROM boards WHERE kind = ?1 AND shape = ?2", &p)?[0][0].int();
        self.boards.insert((kind.to_string(), shape.to_string()), id);
        self.last_board = Some((kind.to_string(), shape.to_string(), id));
        Ok(id)
    }

    fn run(&mut self, db: &mut dyn Db, r: &Row, board: i64, params: &str, added: &str) -> Result<i64> {
        if let Some(&id) = self.runs.get(&r.run) {
            return Ok(id);
        }
        db.exec(
            "INSERT INTO runs (run, board, params, seed, added) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
            &[
                Val::from(r.run.as_str()),
                Val::Int(board),
                Val::from(params),
                Val::Text(r.seed.to_string()),
                Val::from(added),
            ],
        )?;
        let id = db.rows("SELECT id FROM runs WHERE run = ?1", &[Val::from(r.run.as_str())])?[0][0].int();
        self.runs.insert(r.run.clone(), id);
        Ok(id)
    }
}

/// What an import did.
#[derive(Default, Debug, Clone, Copy)]
pub struct Added {
    /// Records read.
    pub read: u64,
    /// New puzzles.
    pub added: u64,
}

/// A book folder's kind (the manifest's) and parameters (compact JSON).
pub fn folder_kind(dir: &Path) -> Result<(String, String)> {
    let path = dir.join("manifest.json");
    let bytes = std::fs::read(&path).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    let m: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    let kind = m["kind"]
        .as_str()
        .filter(|k| !k.is_empty())
        .ok_or_else(|| UsageError(format!("{}: no kind", path.display())))?
        .to_string();
    Ok((kind, m["parameters"].to_string()))
}

/// The records file of a book folder: `puzzles.jsonl`, plain or zstd, or a `--books none`
/// run's scratch records (in its staging folder, at its commit).
pub fn records_file(dir: &Path) -> Result<PathBuf> {
    if let Some(p) = layout::find(dir, "puzzles.jsonl") {
        return Ok(p);
    }
    let scratch = dir.join(layout::RECORDS);
    if scratch.is_file() {
        return Ok(scratch);
    }
    let why = if layout::find(dir, "puzzles.csv").is_some() {
        "a book kept as CSV only (--books csv) has no JSON records for the library"
    } else {
        "no puzzles.jsonl (plain or .zst): not a book folder"
    };
    Err(UsageError(format!("{}: {why}", dir.display())).into())
}

/// Packs per statement batch (one transaction holds them all).
const BATCH_PACKS: usize = 64;

/// Where records come from: their book's kind and parameters (the manifest's), and the file
/// they were read from (for messages).
struct Source<'a> {
    kind: &'a str,
    params: &'a str,
    file: &'a Path,
}

/// A batch of records ready to write: per pack, its rows and its compressed records.
type Packed = Vec<(Vec<Row>, Vec<u8>)>;

/// Records (with their line numbers) parsed and packed, `PACK` to a pack.
fn prepare(lines: &[(usize, String)], src: &Source) -> Result<Packed> {
    lines
        .chunks(PACK)
        .map(|chunk| -> Result<(Vec<Row>, Vec<u8>)> {
            let rows = chunk
                .iter()
                .map(|(n, line)| {
                    row(line, src.kind).map_err(|e| UsageError(format!("{} line {n}: {e}", src.file.display())).into())
                })
                .collect::<Result<Vec<Row>>>()?;
            let lines: Vec<&str> = chunk.iter().map(|(_, l)| l.as_str()).collect();
            Ok((rows, pack(&lines)?))
        })
        .collect()
}

/// A records file's non-blank lines (with their line numbers), `PACK * BATCH_PACKS` at a time,
/// each batch parsed and packed (`prepare`) and handed to `take`, until it answers false.
fn each_batch(src: &Source, mut take: impl FnMut(Result<Packed>) -> bool) {
    let file = src.file;
    let result = (|| -> Result<()> {
        let f = layout::open(file).with_context(|| format!("reading {}", file.display()))?;
        let mut lines = std::io::BufRead::lines(f).enumerate();
        loop {
            let mut part: Vec<(usize, String)> = Vec::with_capacity(PACK * BATCH_PACKS);
            for (i, line) in lines.by_ref() {
                let line = line.with_context(|| format!("reading {} line {}", file.display(), i + 1))?;
                let text = line.strip_prefix('\u{feff}').unwrap_or(&line);
                if text.trim().is_empty() {
                    continue;
                }
                let text = if text.len() == line.len() { line } else { text.to_string() };
                part.push((i + 1, text));
                if part.len() == PACK * BATCH_PACKS {
                    break;
                }
            }
            if part.is_empty() || !take(prepare(&part, src)) {
                return Ok(());
            }
        }
    })();
    if let Err(e) = result {
        take(Err(e));
    }
}

/// Records into rows and packs, within one transaction.
struct Adder {
    numbers: Numbers,
    added: String,
    /// The last pack and puzzle before this transaction's.
    first_pack: i64,
    first: i64,
    next_pack: i64,
    total: Added,
}

impl Adder {
    fn new(db: &mut dyn Db) -> Result<Adder> {
        // Packs are numbered here (writers take turns, so no other is adding any), so that
        // rows can name theirs before the packs are written; the puzzles' ids start after
        // `first`, which finds the packs none of whose puzzles was new.
        let max = |db: &mut dyn Db, table: &str| -> Result<i64> {
            Ok(db.rows(&format!("SELECT coalesce(max(id), 0) FROM {table}"), &[])?[0][0].int())
        };
        let (first_pack, first) = (max(db, "packs")?, max(db, "puzzles")?);
        Ok(Adder {
            numbers: Numbers::default(),
            added: super::now(),
            first_pack,
            first,
            next_pack: first_pack,
            total: Added::default(),
        })
    }

    /// Packed records (from `prepare`) into the library: the packs and the rows written, the
    /// rows sorted by key so that the key index's pages are met in order.
    fn add(&mut self, db: &mut dyn Db, packed: Packed, src: &Source) -> Result<()> {
        let mut packs = Vec::with_capacity(packed.len());
        let mut rows: Vec<Vec<Val>> = Vec::with_capacity(packed.len() * PACK);
        let mut keys: Vec<((i64, i64, i64), u32)> = Vec::with_capacity(packed.len() * PACK);
        for (chunk, data) in packed {
            self.next_pack += 1;
            packs.push(vec![Val::Int(self.next_pack), Val::Blob(data)]);
            for (slot, r) in chunk.into_iter().enumerate() {
                let board = self.numbers.board(db, &r.kind, &r.shape)?;
                let run = self.numbers.run(db, &r, board, src.params, &self.added)?;
                let (hi, lo) = halves(r.key);
                keys.push(((board, hi, lo), rows.len() as u32));
                rows.push(vec![
                    Val::Int(board),
                    Val::Int(hi),
                    Val::Int(lo),
                    Val::Int(run),
                    Val::Int(r.index as i64),
                    Val::Int(r.grade),
                    Val::Real(r.steps),
                    Val::Int(r.hardest),
                    Val::Text(r.techniques),
                    // The record is in its pack.
                    Val::Text(String::new()),
                    Val::Int(self.next_pack),
                    Val::Int(slot as i64),
                ]);
            }
        }
        // Two records of one key: the first in the file is kept, as one at a time would be
        // (ties are broken by the position). The keys are sorted, not the rows: moving rows of
        // twelve values was a twentieth of an import's writer.
        keys.sort_unstable();
        let rows: Vec<Vec<Val>> = keys.iter().map(|&(_, i)| std::mem::take(&mut rows[i as usize])).collect();
        db.exec_many(INSERT_PACK, &packs)?;
        self.total.read += rows.len() as u64;
        self.total.added += db.exec_many(INSERT, &rows)? as u64;
        Ok(())
    }

    fn finish(self, db: &mut dyn Db) -> Result<Added> {
        if self.total.added < self.total.read {
            // Packs none of whose puzzles was new (a folder added again) hold nothing.
            db.exec(
                "DELETE FROM packs WHERE id > ?1 AND id NOT IN (SELECT pack FROM puzzles WHERE id > ?2 AND pack IS NOT \
                 NULL)",
                &[Val::Int(self.first_pack), Val::Int(self.first)],
            )?;
        }
        Ok(self.total)
    }
}

/// Add the puzzles of book folders (their kind and parameters, records file), within the
/// caller's transaction.
fn import_in(db: &mut dyn Db, folders: &[(String, String, PathBuf)], mut progress: impl FnMut(u64)) -> Result<Added> {
    let mut adder = Adder::new(db)?;
    for (kind, params, file) in folders {
        let src = Source { kind, params, file };
        // With two threads or more, one prepares the next batch while this one writes the last
        // (the writes, one core, are most of an import); two batches ahead at most.
        let mut failed = None;
        let mut write = |packed: Result<Packed>| {
            let done = packed.and_then(|p| adder.add(db, p, &src));
            progress(adder.total.read);
            failed = done.err();
            failed.is_none()
        };
        if rayon::current_num_threads() > 1 {
            std::thread::scope(|scope| {
                let (tx, rx) = std::sync::mpsc::sync_channel(2);
                let src = &src;
                // The writer stopping drops `rx`: the sender's next batch is refused, and it ends.
                scope.spawn(move || each_batch(src, |packed| tx.send(packed).is_ok()));
                rx.into_iter().all(&mut write);
            });
        } else {
            each_batch(&src, write);
        }
        if let Some(e) = failed {
            return Err(e);
        }
    }
    adder.finish(db)
}

/// A book folder's kind, parameters and records file; a bad folder is refused before anything
/// is written.
fn folders(dirs: &[PathBuf]) -> Result<Vec<(String, String, PathBuf)>> {
    dirs.iter()
        .map(|d| {
            let (kind, params) = folder_kind(d)?;
            Ok((kind, params, records_file(d)?))
        })
        .collect()
}

impl Library {
    /// Add the puzzles of book folders, all in one transaction.
    pub fn import(&mut self, dirs: &[PathBuf], progress: impl FnMut(u64)) -> Result<Added> {
        let folders = folders(dirs)?;
        self.write(|db| import_in(db, &folders, progress))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_techniques_used_are_named_whether_or_not_a_name_is_escaped() {
        let line = r#"{"id":"sudoku-9-7-1","kind":"sudoku","seed":7,"index":1,"grade":"hard","steps":1.5,"hardest_level":2,"canonical":"000000000000000000000000000000ff","techniques":{"naked_single":3,"hidden_single":0,"na\u006bed_pair":1}}"#;
        let r = row(line, "sudoku").unwrap();
        assert_eq!(r.techniques, " naked_single naked_pair ");
        assert_eq!((r.key, r.grade, r.hardest, r.run.as_str()), (255, 2, 2, "sudoku-9-7"));
        assert!(row(&line.replace("\"naked_single\":3", "\"naked_single\":\"3\""), "sudoku").is_err());
    }

    /// A book folder of `n` synthetic 9×9 records with distinct keys; line `bad` (1-based)
    /// replaced by a record without its fields.
    fn folder(dir: &Path, n: usize, bad: Option<usize>) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("manifest.json"), r#"{"kind":"sudoku","parameters":{"size":9}}"#).unwrap();
        let mut text = String::new();
        for i in 1..=n {
            if Some(i) == bad {
                text.push_str("{\"id\": 3}\n");
                continue;
            }
            text.push_str(&format!(
                "{{\"id\":\"sudoku-9x9-7-{i}\",\"kind\":\"sudoku\",\"seed\":7,\"index\":{i},\"grade\":\"easy\",\
                 \"steps\":12.5,\"hardest_level\":1,\"canonical\":\"{:032x}\",\"techniques\":{{\"naked_single\":3}}}}\n",
                i * 7919
            ));
        }
        std::fs::write(dir.join("puzzles.jsonl"), text).unwrap();
    }

    fn count(lib: &mut Library) -> i64 {
        lib.rows("SELECT count(*) FROM puzzles", &[]).unwrap()[0][0].int()
    }

    #[test]
    fn a_bad_line_past_the_first_batch_is_named_and_adds_nothing() {
        // Batches are prepared on one thread and written on another (or both on one, with one
        // thread): an error in a later batch still names its line and leaves the library as
        // it was.
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(bad_line_past_the_first_batch);
        }
    }

    fn bad_line_past_the_first_batch() {
        let t = tempfile::tempdir().unwrap();
        let lines = PACK * BATCH_PACKS + 500;
        folder(&t.path().join("bad"), lines, Some(PACK * BATCH_PACKS + 100));
        folder(&t.path().join("good"), lines, None);
        let mut lib = Library::open(t.path().join("lib.sqlite").to_str().unwrap(), true).unwrap();
        let e = lib.import(&[t.path().join("bad")], |_| {}).unwrap_err();
        assert!(format!("{e:#}").contains(&format!("puzzles.jsonl line {}", PACK * BATCH_PACKS + 100)), "{e:#}");
        assert_eq!(count(&mut lib), 0);
        let added = lib.import(&[t.path().join("good")], |_| {}).unwrap();
        assert_eq!((added.read, added.added), (lines as u64, lines as u64));
        assert_eq!(count(&mut lib), lines as i64);
        // Again: every key is there already.
        let again = lib.import(&[t.path().join("good")], |_| {}).unwrap();
        assert_eq!((again.read, again.added), (lines as u64, 0));
    }
}
