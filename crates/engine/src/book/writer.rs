//! Streams records into the book files the run's `Layout` keeps: `puzzles.csv`,
//! `puzzles.jsonl`, and per grade `book-<grade>.csv` and `book-<grade>.json` (a JSON array,
//! written element by element), or with `--books none` only the scratch file
//! `layout::RECORDS`. `finish` closes the arrays, adds `calibration.json` and `manifest.json`,
//! and fsyncs every file. The files go into the run's staging folder (`outdir`), which becomes
//! the book in one step once everything is written, so no file here needs a temporary name of
//! its own.
//!
//! Compressed files (`--compress zstd`) are written as zstd frames one after another. A run is
//! saved (`flush_for_save`) with each file's length, and a resumed run cuts each file back to it
//! and appends; so every saved length must fall where a frame ends, and the frames must end at
//! the same places in any run of the same definition, interrupted or not, on any number of
//! threads. They end at fixed places only: after the header lines (`create`), at every chunk
//! boundary of the run (`end_frames`, called by the run at each boundary, where alone it saves),
//! after a record that brings a frame's contents to `FRAME_MAX` bytes, and at the end. A frame
//! is gathered in memory and compressed in one call, so its bytes depend only on its contents.
//! `merge` ends its frames at the single run's chunk boundaries, so it writes the same bytes.

use super::atomic::named;
use super::calibration::Calibration;
use super::layout::{Books, Layout, RECORDS};
use super::outdir::write_synced;
use super::record::{header_line, Record};
use anyhow::{Context as _, Result};
use pf_core::grade::Grade;
use pf_core::kind::Kind;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const OVERFLOW: &str = "overflow.jsonl";
const PATHS: &str = "paths.jsonl";

/// Uncompressed bytes after which a frame ends at the next record's end: memory stays bounded
/// whatever the chunk size (`[run] chunk` allows a million candidates), and a frame this large
/// compresses about as well as an unbounded one.
const FRAME_MAX: usize = 4 << 20;

/// zstd level 1, not the default 3: on 100,000 Sudoku books (182 MB of text) level 1 is both
/// faster (0.46 s against 0.77 s for the `zstd` tool) and smaller (43.4 MB against 46.4 MB:
/// puzzle and solution strings leave little for level 3's longer searches); on KenKen 9×9 and
/// Kakuro 8×10 books level 3 is 1% and 3% smaller. Sudoku is the bulk of large runs.
const LEVEL: i32 = 1;

/// The compressor every compressed file of a book shares, with its output buffer.
struct Zstd {
    c: zstd::bulk::Compressor<'static>,
    buf: Vec<u8>,
}

impl Zstd {
    fn new() -> Result<Zstd> {
        Ok(Zstd { c: zstd::bulk::Compressor::new(LEVEL).context("starting zstd")?, buf: Vec::new() })
    }

    /// `data` as one zstd frame.
    fn frame(&mut self, data: &[u8]) -> std::io::Result<&[u8]> {
        self.buf.clear();
        self.buf.reserve(zstd::compress_bound(data.len()));
        self.c.compress_to_buffer(data, &mut self.buf)?;
        Ok(&self.buf)
    }
}

/// One book file being written.
struct Out {
    name: String,
    path: PathBuf,
    w: BufWriter<File>,
    /// Bytes in the file, flushed or not (compressed files: the frames written).
    len: u64,
    /// A compressed file's frame being gathered, written by `end_frame`.
    frame: Option<Vec<u8>>,
}

impl Out {
    fn create(dir: &Path, name: &str, first: &[u8], compressed: bool) -> Result<Out> {
        let path = dir.join(name);
        let file = File::create(&path).with_context(|| format!("writing {}", path.display()))?;
        let w = BufWriter::with_capacity(1 << 16, file);
        let mut out = Out { name: name.to_string(), path, w, len: 0, frame: compressed.then(Vec::new) };
        out.write_all(first)?;
        Ok(out)
    }

    /// Reopen a file of a saved run, cut to its saved length (bytes written after the save
    /// are dropped), for appending.
    fn reopen(dir: &Path, name: &str, len: u64, compressed: bool) -> Result<Out> {
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
        let w = BufWriter::with_capacity(1 << 16, file);
        Ok(Out { name: name.to_string(), path, w, len, frame: compressed.then(Vec::new) })
    }

    /// A compressed file: write what its frame gathered as one frame (nothing when empty).
    fn end_frame(&mut self, z: &mut Option<Zstd>) -> std::io::Result<()> {
        let (Some(frame), Some(z)) = (self.frame.as_mut(), z.as_mut()) else { return Ok(()) };
        if frame.is_empty() {
            return Ok(());
        }
        let bytes = z.frame(frame).map_err(|e| named(e, &self.path))?;
        self.w.write_all(bytes).map_err(|e| named(e, &self.path))?;
        self.len += bytes.len() as u64;
        frame.clear();
        Ok(())
    }

    /// A compressed file's frame has reached `FRAME_MAX`.
    fn frame_full(&self) -> bool {
        self.frame.as_ref().is_some_and(|f| f.len() >= FRAME_MAX)
    }

    /// Flush, keeping the file open; its length and a handle to fsync it with.
    fn flush_for_save(&mut self) -> Result<(u64, File)> {
        let path = &self.path;
        let ctx = || format!("writing {}", path.display());
        self.w.flush().with_context(ctx)?;
        Ok((self.len, self.w.get_ref().try_clone().with_context(ctx)?))
    }

    /// End the last frame (a compressed file that holds nothing gets an empty frame: zstd
    /// refuses a file without one), flush and fsync.
    fn close(mut self, z: &mut Option<Zstd>) -> Result<()> {
        self.end_frame(z)?;
        if let (Some(_), Some(z), 0) = (&self.frame, z.as_mut(), self.len) {
            let bytes = z.frame(&[]).map_err(|e| named(e, &self.path))?;
            self.w.write_all(bytes).map_err(|e| named(e, &self.path))?;
        }
        let path = self.path.clone();
        self.w.flush().and_then(|_| self.w.get_ref().sync_all()).with_context(|| format!("writing {}", path.display()))
    }
}

/// Writes whose errors name the file (`writing DIR/puzzles.csv: No space left on device`).
impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(frame) = &mut self.frame {
            frame.extend_from_slice(buf);
            return Ok(buf.len());
        }
        let n = self.w.write(buf).map_err(|e| named(e, &self.path))?;
        self.len += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush().map_err(|e| named(e, &self.path))
    }
}

/// One grade's book files, as the layout keeps them.
struct GradeBook {
    csv: Option<Out>,
    json: Option<Out>,
    /// No record yet (the JSON array's first element has no comma before it).
    empty: bool,
}

pub struct BookWriter {
    dir: PathBuf,
    /// `puzzles.csv`.
    csv: Option<Out>,
    /// `puzzles.jsonl`, or with `--books none` the scratch file `RECORDS`.
    jsonl: Option<Out>,
    /// Per grade, in `Grade::ALL` order; none with `--books none`.
    grades: Vec<GradeBook>,
    /// `overflow.jsonl`: puzzles made beyond their grade's quota (`--overflow`).
    overflow: Option<Out>,
    /// `paths.jsonl`: the book's solution paths, a line per record of `puzzles.jsonl`
    /// (`--paths`).
    paths: Option<Out>,
    /// The compressor, with `--compress zstd`.
    zstd: Option<Zstd>,
}

/// The file names and first bytes of a layout's book files, with whether each is compressed
/// (the scratch file of `--books none` never is).
struct Plan {
    layout: Layout,
}

impl Plan {
    fn puzzles_jsonl(&self) -> Option<(String, bool)> {
        match self.layout.books {
            Books::None => Some((RECORDS.to_string(), false)),
            _ if self.layout.json() => Some((self.layout.name("puzzles.jsonl"), self.layout.compressed())),
            _ => None,
        }
    }

    /// A book file of the layout: `base` when the layout keeps it (`keep`), by its name on disk.
    fn file(&self, base: &str, keep: bool) -> Option<(String, bool)> {
        (keep && self.layout.books != Books::None).then(|| (self.layout.name(base), self.layout.compressed()))
    }
}

impl BookWriter {
    /// New book files in `dir` as `layout` keeps them, with `overflow.jsonl` when `overflow`
    /// and `paths.jsonl` when `paths` (neither with `--books none`).
    pub fn create<K: Kind>(dir: &Path, layout: Layout, overflow: bool, paths: bool) -> Result<BookWriter> {
        let h = header_line::<K>(paths);
        let plan = Plan { layout };
        let make = |f: Option<(String, bool)>, first: &[u8]| -> Result<Option<Out>> {
            f.map(|(name, z)| Out::create(dir, &name, first, z)).transpose()
        };
        let mut grades = Vec::new();
        if layout.books != Books::None {
            for g in Grade::ALL {
                grades.push(GradeBook {
                    csv: make(plan.file(&format!("book-{}.csv", g.name()), layout.csv()), h.as_bytes())?,
                    json: make(plan.file(&format!("book-{}.json", g.name()), layout.json()), b"[")?,
                    empty: true,
                });
            }
        }
        let mut w = BookWriter {
            dir: dir.to_path_buf(),
            csv: make(plan.file("puzzles.csv", layout.csv()), h.as_bytes())?,
            jsonl: make(plan.puzzles_jsonl(), b"")?,
            grades,
            overflow: make(plan.file(OVERFLOW, overflow), b"")?,
            paths: make(plan.file(PATHS, paths), b"")?,
            zstd: if layout.compressed() { Some(Zstd::new()?) } else { None },
        };
        // The header lines are a frame of their own, in a run and in a merge alike.
        w.end_frames()?;
        Ok(w)
    }

    /// The book files of a saved run in `dir`, each cut to its saved length (`files`, as
    /// `flush_for_save` returned them); `emitted`: the records each grade's book held then.
    pub fn reopen(dir: &Path, layout: Layout, files: &BTreeMap<String, u64>, emitted: [u64; 4]) -> Result<BookWriter> {
        let plan = Plan { layout };
        let mut opened = 0;
        let mut open = |f: Option<(String, bool)>| -> Result<Option<Out>> {
            let Some((name, z)) = f else { return Ok(None) };
            let len = *files.get(&name).ok_or_else(|| {
                anyhow::anyhow!(
                    "the saved run has no length for {name}: it was not made with --books {} --compress {}",
                    layout.books.name(),
                    layout.compress.name()
                )
            })?;
            opened += 1;
            Ok(Some(Out::reopen(dir, &name, len, z)?))
        };
        let mut grades = Vec::new();
        if layout.books != Books::None {
            for g in Grade::ALL {
                grades.push(GradeBook {
                    csv: open(plan.file(&format!("book-{}.csv", g.name()), layout.csv()))?,
                    json: open(plan.file(&format!("book-{}.json", g.name()), layout.json()))?,
                    empty: emitted[g.index()] == 0,
                });
            }
        }
        let kept = |base: &str| files.contains_key(&layout.name(base));
        let (overflow, paths) = (kept(OVERFLOW), kept(PATHS));
        let w = BookWriter {
            dir: dir.to_path_buf(),
            csv: open(plan.file("puzzles.csv", layout.csv()))?,
            jsonl: open(plan.puzzles_jsonl())?,
            grades,
            overflow: open(plan.file(OVERFLOW, overflow))?,
            paths: open(plan.file(PATHS, paths))?,
            zstd: if layout.compressed() { Some(Zstd::new()?) } else { None },
        };
        if opened != files.len() {
            anyhow::bail!(
                "the saved run has files that --books {} --compress {} does not make: it cannot be resumed",
                layout.books.name(),
                layout.compress.name()
            );
        }
        Ok(w)
    }

    /// Every file, in a fixed order.
    fn outs(&mut self) -> Vec<&mut Out> {
        let mut files: Vec<&mut Out> = Vec::with_capacity(12);
        files.extend(self.csv.as_mut());
        files.extend(self.jsonl.as_mut());
        for g in &mut self.grades {
            files.extend(g.csv.as_mut());
            files.extend(g.json.as_mut());
        }
        files.extend(self.overflow.as_mut());
        files.extend(self.paths.as_mut());
        files
    }

    /// End every compressed file's frame here (a chunk boundary of the run): see the module
    /// comment. Nothing happens for plain files, nor for a file with nothing since its last
    /// frame, so calling it twice at one place changes nothing.
    pub fn end_frames(&mut self) -> Result<()> {
        if self.zstd.is_none() {
            return Ok(());
        }
        let mut z = self.zstd.take();
        let r = self.outs().into_iter().try_for_each(|f| f.end_frame(&mut z));
        self.zstd = z;
        Ok(r?)
    }

    /// End the frames that have reached `FRAME_MAX` (after each record).
    fn end_full_frames(&mut self) -> std::io::Result<()> {
        if self.zstd.is_none() {
            return Ok(());
        }
        let mut z = self.zstd.take();
        let r = self.outs().into_iter().filter(|f| f.frame_full()).try_for_each(|f| f.end_frame(&mut z));
        self.zstd = z;
        r
    }

    /// End the frames and flush every file; their lengths, for the saved run state, and handles
    /// to fsync them with before the state is saved.
    pub fn flush_for_save(&mut self) -> Result<(BTreeMap<String, u64>, Vec<File>)> {
        self.end_frames()?;
        let mut lens = BTreeMap::new();
        let mut handles = Vec::new();
        for f in self.outs() {
            let (len, handle) = f.flush_for_save()?;
            lens.insert(f.name.clone(), len);
            handles.push(handle);
        }
        Ok((lens, handles))
    }

    /// Append a record (errors name the file).
    pub fn write(&mut self, grade: Grade, rec: &Record) -> Result<()> {
        self.append(grade, rec)?;
        Ok(self.end_full_frames()?)
    }

    /// A puzzle beyond its grade's quota: into `overflow.jsonl` when kept, else nowhere.
    pub fn write_overflow(&mut self, rec: &Record) -> Result<()> {
        if let Some(o) = &mut self.overflow {
            writeln!(o, "{}", rec.json)?;
            self.end_full_frames()?;
        }
        Ok(())
    }

    fn append(&mut self, grade: Grade, rec: &Record) -> std::io::Result<()> {
        if let Some(o) = &mut self.csv {
            o.write_all(rec.csv.as_bytes())?;
        }
        if let Some(o) = &mut self.jsonl {
            writeln!(o, "{}", rec.json)?;
        }
        if let (Some(out), Some(path)) = (&mut self.paths, &rec.path) {
            writeln!(out, "{path}")?;
        }
        let Some(g) = self.grades.get_mut(grade.index()) else { return Ok(()) };
        if let Some(o) = &mut g.csv {
            o.write_all(rec.csv.as_bytes())?;
        }
        if let Some(o) = &mut g.json {
            let sep: &[u8] = if g.empty { b"\n" } else { b",\n" };
            o.write_all(sep)?;
            o.write_all(rec.json.as_bytes())?;
        }
        g.empty = false;
        Ok(())
    }

    /// Close every file and write the calibration and manifest files, all fsynced.
    pub fn finish(mut self, calibration: &Calibration, manifest: &serde_json::Value) -> Result<()> {
        fn pretty(v: &impl serde::Serialize) -> Result<Vec<u8>> {
            let mut b = serde_json::to_vec_pretty(v)?;
            b.push(b'\n');
            Ok(b)
        }
        for g in &mut self.grades {
            if let Some(o) = &mut g.json {
                o.write_all(if g.empty { b"]\n" } else { b"\n]\n" })?;
            }
        }
        let mut z = self.zstd.take();
        let mut files: Vec<Out> = Vec::new();
        files.extend(self.csv);
        files.extend(self.jsonl);
        files.extend(self.overflow);
        files.extend(self.paths);
        for g in self.grades {
            files.extend(g.csv);
            files.extend(g.json);
        }
        for f in files {
            f.close(&mut z)?;
        }
        write_synced(&self.dir.join("calibration.json"), &pretty(calibration)?)?;
        write_synced(&self.dir.join("manifest.json"), &pretty(manifest)?)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::layout::{self, Compress};
    use pf_sudoku::Sudoku;

    const LAYOUTS: [Books; 4] = [Books::All, Books::Csv, Books::Json, Books::None];

    /// Records of every grade but expert (its book stays empty), one of them beyond its quota.
    fn records() -> Vec<(Grade, Record, bool)> {
        (0..40)
            .map(|i: usize| {
                let grade = Grade::ALL[i % 3];
                let rec = Record {
                    csv: format!("r{i},{}\n", "x".repeat(i)),
                    json: format!("{{\"id\":\"r{i}\",\"n\":{i}}}"),
                    path: Some(format!("{{\"id\":\"r{i}\",\"steps\":[]}}")),
                };
                (grade, rec, i % 7 == 6)
            })
            .collect()
    }

    fn calibration() -> Calibration {
        let t = pf_core::grade::Thresholds::new(1.0, 2.0, 3.0).unwrap();
        let zero = std::time::Duration::ZERO;
        crate::book::Stats::new::<Sudoku>().to_json::<Sudoku>(&t, zero, zero).unwrap()
    }

    /// Write `records()` from `from` on (the chunk boundaries every 5 records), saving at
    /// `save` and stopping there when `stop`; the saved lengths and per-grade counts.
    fn write(w: &mut BookWriter, from: usize, save: Option<usize>) -> Option<(BTreeMap<String, u64>, [u64; 4])> {
        let mut emitted = [0u64; 4];
        for (i, (grade, rec, over)) in records().into_iter().enumerate() {
            if i % 5 == 0 && i > 0 && i >= from {
                w.end_frames().unwrap();
                if save == Some(i) {
                    return Some((w.flush_for_save().unwrap().0, emitted));
                }
            }
            if !over {
                emitted[grade.index()] += 1;
            }
            if i < from {
                continue;
            }
            if over {
                w.write_overflow(&rec).unwrap();
            } else {
                w.write(grade, &rec).unwrap();
            }
        }
        w.end_frames().unwrap();
        None
    }

    /// Every file of a finished book in `dir` but calibration.json, decompressed, by plain name.
    fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        let mut out = BTreeMap::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name != "calibration.json" {
                let text = std::io::read_to_string(layout::open(&dir.join(&name)).unwrap()).unwrap();
                out.insert(name.trim_end_matches(layout::ZST).to_string(), text.into_bytes());
            }
        }
        out
    }

    fn book(dir: &Path, l: Layout) -> BookWriter {
        BookWriter::create::<Sudoku>(dir, l, l.books != Books::None, l.books != Books::None).unwrap()
    }

    /// The whole book of `records`, written in one go and finished.
    fn whole_book(dir: &Path, l: Layout) {
        let mut w = book(dir, l);
        write(&mut w, 0, None);
        w.finish(&calibration(), &serde_json::json!({})).unwrap();
    }

    #[test]
    fn every_layout_keeps_its_part_of_the_whole_book_plain_or_compressed() {
        let whole = tempfile::tempdir().unwrap();
        whole_book(whole.path(), Layout::default());
        let all = contents(whole.path());
        assert_eq!(all.len(), 13, "{:?}", all.keys());
        for books in LAYOUTS {
            for compress in [Compress::None, Compress::Zstd] {
                let l = Layout { books, compress };
                let dir = tempfile::tempdir().unwrap();
                whole_book(dir.path(), l);
                let got = contents(dir.path());
                let kept = |n: &str| match books {
                    Books::All => true,
                    Books::Csv => n.ends_with(".csv") || n.ends_with(".jsonl") && !n.starts_with("puzzles"),
                    Books::Json => n.contains(".json"),
                    Books::None => false,
                } || n == "manifest.json";
                for (name, bytes) in &all {
                    if kept(name) {
                        assert_eq!(got.get(name), Some(bytes), "{l:?}: {name}");
                    }
                }
                let names: Vec<&String> = got.keys().collect();
                match books {
                    // The scratch file holds what puzzles.jsonl would.
                    Books::None => {
                        assert_eq!(names, [RECORDS, "manifest.json"], "{l:?}");
                        assert_eq!(got[RECORDS], all["puzzles.jsonl"]);
                    }
                    _ => assert_eq!(names.len(), all.keys().filter(|n| kept(n)).count(), "{l:?}: {names:?}"),
                }
                // Compressed files, and only they, are named .zst.
                for e in std::fs::read_dir(dir.path()).unwrap() {
                    let n = e.unwrap().file_name().to_string_lossy().into_owned();
                    let puzzle_file =
                        !n.starts_with('.') && !["calibration.json", "manifest.json"].contains(&n.as_str());
                    assert_eq!(puzzle_file && l.compressed(), n.ends_with(layout::ZST), "{l:?}: {n}");
                }
            }
        }
    }

    #[test]
    fn a_book_reopened_at_a_save_ends_as_the_uninterrupted_one() {
        for books in [Books::All, Books::Json, Books::None] {
            for compress in [Compress::None, Compress::Zstd] {
                let l = Layout { books, compress };
                let whole = tempfile::tempdir().unwrap();
                whole_book(whole.path(), l);
                for save in [5, 20, 35] {
                    let dir = tempfile::tempdir().unwrap();
                    let mut w = book(dir.path(), l);
                    let (files, emitted) = write(&mut w, 0, Some(save)).unwrap();
                    // Written after the save and lost to a kill: cut off by the reopening.
                    write(&mut w, save, None);
                    drop(w);
                    let mut w = BookWriter::reopen(dir.path(), l, &files, emitted).unwrap();
                    write(&mut w, save, None);
                    w.finish(&calibration(), &serde_json::json!({})).unwrap();
                    for e in std::fs::read_dir(whole.path()).unwrap() {
                        let n = e.unwrap().file_name();
                        if n != "calibration.json" {
                            let (a, b) = (whole.path().join(&n), dir.path().join(&n));
                            assert!(std::fs::read(a).unwrap() == std::fs::read(b).unwrap(), "{l:?} {save}: {n:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_compressed_file_that_holds_nothing_is_one_empty_frame() {
        let dir = tempfile::tempdir().unwrap();
        let l = Layout { books: Books::Json, compress: Compress::Zstd };
        book(dir.path(), l).finish(&calibration(), &serde_json::json!({})).unwrap();
        let path = dir.path().join("puzzles.jsonl.zst");
        let bytes = std::fs::read(&path).unwrap();
        assert!(!bytes.is_empty());
        assert_eq!(zstd::decode_all(&bytes[..]).unwrap(), b"");
        assert_eq!(
            zstd::decode_all(&std::fs::read(dir.path().join("book-easy.json.zst")).unwrap()[..]).unwrap(),
            b"[]\n"
        );
    }
}
