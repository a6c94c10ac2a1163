//! Streams records into the book files: `puzzles.csv`, `puzzles.jsonl`, and per grade
//! `book-<grade>.csv` and `book-<grade>.json` (a JSON array, written element by element).
//! `finish` closes the arrays, adds `calibration.json` and `manifest.json`, and fsyncs every
//! file. The files go into the run's staging folder (`outdir`), which becomes the book in one
//! step once everything is written, so no file here needs a temporary name of its own.

use super::atomic::named;
use super::calibration::Calibration;
use super::outdir::write_synced;
use super::record::{header_line, Record};
use crate::grade::Grade;
use crate::kinds::Kind;
use anyhow::{Context as _, Result};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const OVERFLOW: &str = "overflow.jsonl";
const PATHS: &str = "paths.jsonl";

/// One book file being written.
struct Out {
    name: String,
    path: PathBuf,
    w: BufWriter<File>,
    /// Bytes in the file, flushed or not.
    len: u64,
}

impl Out {
    fn create(dir: &Path, name: &str, first: &[u8]) -> Result<Out> {
        let path = dir.join(name);
        let file = File::create(&path).with_context(|| format!("writing {}", path.display()))?;
        let mut out = Out { name: name.to_string(), path, w: BufWriter::with_capacity(1 << 16, file), len: 0 };
        out.write_all(first)?;
        Ok(out)
    }

    /// Reopen a file of a saved run, cut to its saved length (bytes written after the save
    /// are dropped), for appending.
    fn reopen(dir: &Path, name: &str, len: u64) -> Result<Out> {
        let path = dir.join(name);
        let ctx = || format!("reopening {} of the saved run", path.display());
        let file = OpenOptions::new().write(true).open(&path).with_context(ctx)?;
        if file.metadata().with_context(ctx)?.len() < len {
            anyhow::bail!(
                "{} is shorter than the saved run says ({len} bytes): the run cannot be resumed",
                path.display()
            );
        }
        file.set_len(len).with_context(ctx)?;
        let mut file = file;
        file.seek(SeekFrom::End(0)).with_context(ctx)?;
        Ok(Out { name: name.to_string(), path, w: BufWriter::with_capacity(1 << 16, file), len })
    }

    /// Flush, keeping the file open; its length and a handle to fsync it with.
    fn flush_for_save(&mut self) -> Result<(u64, File)> {
        let path = &self.path;
        let ctx = || format!("writing {}", path.display());
        self.w.flush().with_context(ctx)?;
        Ok((self.len, self.w.get_ref().try_clone().with_context(ctx)?))
    }

    /// Flush and fsync.
    fn close(mut self) -> Result<()> {
        let path = self.path.clone();
        self.w.flush().and_then(|_| self.w.get_ref().sync_all()).with_context(|| format!("writing {}", path.display()))
    }
}

/// Writes whose errors name the file (`writing DIR/puzzles.csv: No space left on device`).
impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.w.write(buf).map_err(|e| named(e, &self.path))?;
        self.len += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush().map_err(|e| named(e, &self.path))
    }
}

struct GradeBook {
    csv: Out,
    json: Out,
    empty: bool,
}

pub struct BookWriter {
    dir: PathBuf,
    csv: Out,
    jsonl: Out,
    grades: Vec<GradeBook>,
    /// `overflow.jsonl`: puzzles made beyond their grade's quota (`--overflow`).
    overflow: Option<Out>,
    /// `paths.jsonl`: the book's solution paths, a line per record of `puzzles.jsonl`
    /// (`--paths`).
    paths: Option<Out>,
}

impl BookWriter {
    /// New book files in `dir`, with `overflow.jsonl` when `overflow` and `paths.jsonl` when
    /// `paths`.
    pub fn create<K: Kind>(dir: &Path, overflow: bool, paths: bool) -> Result<BookWriter> {
        let h = header_line::<K>(paths);
        let mut grades = Vec::new();
        for g in Grade::ALL {
            grades.push(GradeBook {
                csv: Out::create(dir, &format!("book-{}.csv", g.name()), h.as_bytes())?,
                json: Out::create(dir, &format!("book-{}.json", g.name()), b"[")?,
                empty: true,
            });
        }
        Ok(BookWriter {
            dir: dir.to_path_buf(),
            csv: Out::create(dir, "puzzles.csv", h.as_bytes())?,
            jsonl: Out::create(dir, "puzzles.jsonl", b"")?,
            grades,
            overflow: if overflow { Some(Out::create(dir, OVERFLOW, b"")?) } else { None },
            paths: if paths { Some(Out::create(dir, PATHS, b"")?) } else { None },
        })
    }

    /// The book files of a saved run in `dir`, each cut to its saved length (`files`, as
    /// `sync` returned them).
    pub fn reopen<K: Kind>(dir: &Path, files: &BTreeMap<String, u64>) -> Result<BookWriter> {
        let open = |name: &str| -> Result<Out> {
            let len = *files.get(name).ok_or_else(|| anyhow::anyhow!("the saved run has no length for {name}"))?;
            Out::reopen(dir, name, len)
        };
        let mut grades = Vec::new();
        for g in Grade::ALL {
            let json = open(&format!("book-{}.json", g.name()))?;
            // "[" alone: no record yet.
            let empty = json.len <= 1;
            grades.push(GradeBook { csv: open(&format!("book-{}.csv", g.name()))?, json, empty });
        }
        let overflow = if files.contains_key(OVERFLOW) { Some(open(OVERFLOW)?) } else { None };
        let paths = if files.contains_key(PATHS) { Some(open(PATHS)?) } else { None };
        Ok(BookWriter {
            dir: dir.to_path_buf(),
            csv: open("puzzles.csv")?,
            jsonl: open("puzzles.jsonl")?,
            grades,
            overflow,
            paths,
        })
    }

    /// Flush every file; their lengths, for the saved run state, and handles to fsync them
    /// with before the state is saved.
    pub fn flush_for_save(&mut self) -> Result<(BTreeMap<String, u64>, Vec<File>)> {
        let mut lens = BTreeMap::new();
        let mut handles = Vec::new();
        let mut files: Vec<&mut Out> = vec![&mut self.csv, &mut self.jsonl];
        for g in &mut self.grades {
            files.push(&mut g.csv);
            files.push(&mut g.json);
        }
        files.extend(self.overflow.as_mut());
        files.extend(self.paths.as_mut());
        for f in files {
            let (len, handle) = f.flush_for_save()?;
            lens.insert(f.name.clone(), len);
            handles.push(handle);
        }
        Ok((lens, handles))
    }

    /// Append a record (errors name the file).
    pub fn write(&mut self, grade: Grade, rec: &Record) -> Result<()> {
        Ok(self.append(grade, rec)?)
    }

    /// A puzzle beyond its grade's quota: into `overflow.jsonl` when kept, else nowhere.
    pub fn write_overflow(&mut self, rec: &Record) -> Result<()> {
        if let Some(o) = &mut self.overflow {
            writeln!(o, "{}", rec.json)?;
        }
        Ok(())
    }

    fn append(&mut self, grade: Grade, rec: &Record) -> std::io::Result<()> {
        self.csv.write_all(rec.csv.as_bytes())?;
        writeln!(self.jsonl, "{}", rec.json)?;
        if let (Some(out), Some(path)) = (&mut self.paths, &rec.path) {
            writeln!(out, "{path}")?;
        }
        let g = &mut self.grades[grade.index()];
        g.csv.write_all(rec.csv.as_bytes())?;
        let sep: &[u8] = if g.empty { b"\n" } else { b",\n" };
        g.json.write_all(sep)?;
        g.json.write_all(rec.json.as_bytes())?;
        g.empty = false;
        Ok(())
    }

    /// Close every file and write the calibration and manifest files, all fsynced.
    pub fn finish(self, calibration: &Calibration, manifest: &serde_json::Value) -> Result<()> {
        fn pretty(v: &impl serde::Serialize) -> Result<Vec<u8>> {
            let mut b = serde_json::to_vec_pretty(v)?;
            b.push(b'\n');
            Ok(b)
        }
        let mut files = vec![self.csv, self.jsonl];
        files.extend(self.overflow);
        files.extend(self.paths);
        for mut g in self.grades {
            g.json.write_all(if g.empty { b"]\n" } else { b"\n]\n" })?;
            files.push(g.csv);
            files.push(g.json);
        }
        for f in files {
            f.close()?;
        }
        write_synced(&self.dir.join("calibration.json"), &pretty(calibration)?)?;
        write_synced(&self.dir.join("manifest.json"), &pretty(manifest)?)?;
        Ok(())
    }
}
