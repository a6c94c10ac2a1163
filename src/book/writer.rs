//! Streams records into the book files: `puzzles.csv`, `puzzles.jsonl`, and per grade
//! `book-<grade>.csv` and `book-<grade>.json` (a JSON array, written element by element).
//! `finish` closes the arrays, adds `calibration.json` and `manifest.json`, and fsyncs every
//! file. The files go into the run's staging folder (`outdir`), which becomes the book in one
//! step once everything is written, so no file here needs a temporary name of its own.

use super::calibration::Calibration;
use super::outdir::write_synced;
use super::record::{header_line, Record};
use crate::grade::Grade;
use crate::kinds::Kind;
use anyhow::{Context as _, Result};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// One book file being written.
struct Out {
    path: PathBuf,
    w: BufWriter<File>,
}

impl Out {
    fn create(dir: &Path, name: &str, first: &[u8]) -> Result<Out> {
        let path = dir.join(name);
        let file = File::create(&path).with_context(|| format!("writing {}", path.display()))?;
        let mut out = Out { path, w: BufWriter::with_capacity(1 << 16, file) };
        out.write_all(first)?;
        Ok(out)
    }

    /// Flush and fsync.
    fn close(mut self) -> Result<()> {
        let path = self.path.clone();
        self.w.flush().and_then(|_| self.w.get_ref().sync_all()).with_context(|| format!("writing {}", path.display()))
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.w.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
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
}

impl BookWriter {
    pub fn create<K: Kind>(dir: &Path) -> Result<BookWriter> {
        let h = header_line::<K>();
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
        })
    }

    pub fn write(&mut self, grade: Grade, rec: &Record) -> Result<()> {
        self.append(grade, rec).with_context(|| format!("writing the book in {}", self.dir.display()))
    }

    fn append(&mut self, grade: Grade, rec: &Record) -> std::io::Result<()> {
        self.csv.write_all(rec.csv.as_bytes())?;
        writeln!(self.jsonl, "{}", rec.json)?;
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
