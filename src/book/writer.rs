//! Streams records into the book files: `puzzles.csv`, `puzzles.jsonl`, and per grade
//! `book-<grade>.csv` and `book-<grade>.json` (a JSON array, written element by element).
//! `finish` adds `calibration.json` and `manifest.json`, then commits every file at once.

use super::atomic::AtomicFile;
use super::calibration::Calibration;
use super::record::{header_line, Record};
use crate::grade::Grade;
use crate::kinds::Kind;
use anyhow::{Context as _, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

struct GradeBook {
    csv: AtomicFile,
    json: AtomicFile,
    empty: bool,
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.writer().flush()
    }
}

pub struct BookWriter {
    dir: PathBuf,
    csv: AtomicFile,
    jsonl: AtomicFile,
    grades: Vec<GradeBook>,
}

fn csv_file(dir: &Path, name: &str, header: &str) -> Result<AtomicFile> {
    let mut f = AtomicFile::create(dir, name)?;
    f.write_all(header.as_bytes())?;
    Ok(f)
}

impl BookWriter {
    pub fn create<K: Kind>(dir: &Path) -> Result<BookWriter> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating output directory {}", dir.display()))?;
        let h = header_line::<K>();
        let open = || -> Result<BookWriter> {
            let mut grades = Vec::new();
            for g in Grade::ALL {
                let mut json = AtomicFile::create(dir, &format!("book-{}.json", g.name()))?;
                json.writer().write_all(b"[")?;
                grades.push(GradeBook {
                    csv: csv_file(dir, &format!("book-{}.csv", g.name()), &h)?,
                    json,
                    empty: true,
                });
            }
            Ok(BookWriter {
                dir: dir.to_path_buf(),
                csv: csv_file(dir, "puzzles.csv", &h)?,
                jsonl: AtomicFile::create(dir, "puzzles.jsonl")?,
                grades,
            })
        };
        open().with_context(|| format!("writing to {}", dir.display()))
    }

    pub fn write(&mut self, grade: Grade, rec: &Record) -> Result<()> {
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

    /// Write the calibration and manifest files and move every file into place.
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
            f.commit()?;
        }
        AtomicFile::write_all(&self.dir, "calibration.json", &pretty(calibration)?)?;
        AtomicFile::write_all(&self.dir, "manifest.json", &pretty(manifest)?)?;
        Ok(())
    }
}
