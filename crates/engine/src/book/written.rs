//! What the program wrote into an output folder: `.written.json`, a record of every file of a
//! finished book (name, size, and a fingerprint of its first and last 64 KiB), made when the
//! book is committed (`outdir`).
//!
//! The record, not a file's name, decides what is the program's: `--force` replaces a book only
//! when every entry of DIR is a regular file the record lists with the same size and
//! fingerprint, and removing a replaced book removes only such files, then the folder if it is
//! empty. So a user's `company-logo.svg`, a subfolder `photos.svg/`, a `puzzles.csv` of their own
//! or a file changed since are never deleted: they are named in the refusal instead. A folder
//! without a record (a user's, or a book of a version that kept none) is never the program's.

use anyhow::{Context as _, Result};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::Path;

/// The record's name inside DIR.
pub const RECORD: &str = ".written.json";
/// Bytes fingerprinted at each end of a file: enough to tell any replaced file apart, cheap
/// for a book of any size (a whole-file hash of a 10,000-puzzle book would cost 2-3% of its run).
const SAMPLE: u64 = 64 << 10;

#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
struct Entry {
    name: String,
    bytes: u64,
    /// `mix` of the first and last `SAMPLE` bytes and the size, hex.
    fingerprint: String,
}

#[derive(Serialize, Deserialize, Debug)]
struct Record {
    program: String,
    files: Vec<Entry>,
}

/// What a folder holds, judged by its record.
#[derive(Debug, PartialEq, Eq)]
pub enum Holds {
    /// Nothing at all.
    Nothing,
    /// Only files the record lists, unchanged: a book of the program's.
    Book,
    /// Something that is not the program's: its name and why.
    Foreign(String, &'static str),
}

fn fingerprint(path: &Path) -> std::io::Result<(u64, String)> {
    let mut f = File::open(path)?;
    let len = f.metadata()?.len();
    // Read through one small buffer, not into an allocation per file: a run's start and commit
    // fingerprint every file of the book (fresh memory per file was a tenth of a 0.1 s run).
    let mut buf = [0u8; 16 << 10];
    let mut h = Mix::default();
    let mut sample = |f: &mut File, h: &mut Mix| -> std::io::Result<()> {
        let mut part = f.take(SAMPLE);
        loop {
            match part.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(n) => h.feed(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    };
    sample(&mut f, &mut h)?;
    if len > SAMPLE {
        f.seek(SeekFrom::Start(len.saturating_sub(SAMPLE).max(SAMPLE)))?;
        sample(&mut f, &mut h)?;
    }
    h.feed(&len.to_le_bytes());
    Ok((len, format!("{:016x}", h.finish())))
}

/// FNV-1a taken eight bytes at a time (one multiply per word instead of per byte: the samples
/// of a large book are a few megabytes); the tail bytes one at a time. Fed in pieces of any
/// size, it gives the hash of their concatenation.
struct Mix {
    h: u64,
    /// Bytes of a word not yet complete.
    carry: [u8; 8],
    held: usize,
}

const PRIME: u64 = 0x0100_0000_01b3;

impl Default for Mix {
    fn default() -> Self {
        Mix { h: 0xcbf2_9ce4_8422_2325, carry: [0; 8], held: 0 }
    }
}

impl Mix {
    fn feed(&mut self, mut bytes: &[u8]) {
        if self.held > 0 {
            let take = (8 - self.held).min(bytes.len());
            self.carry[self.held..self.held + take].copy_from_slice(&bytes[..take]);
            self.held += take;
            bytes = &bytes[take..];
            if self.held < 8 {
                return;
            }
            self.h = (self.h ^ u64::from_le_bytes(self.carry)).wrapping_mul(PRIME);
            self.held = 0;
        }
        let words = bytes.chunks_exact(8);
        let tail = words.remainder();
        for w in words {
            self.h = (self.h ^ u64::from_le_bytes(w.try_into().expect("8 bytes"))).wrapping_mul(PRIME);
        }
        self.carry[..tail.len()].copy_from_slice(tail);
        self.held = tail.len();
    }

    fn finish(&self) -> u64 {
        self.carry[..self.held].iter().fold(self.h, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
    }
}

#[cfg(test)]
fn mix(bytes: &[u8]) -> u64 {
    let mut h = Mix::default();
    h.feed(bytes);
    h.finish()
}

/// Write the record of every regular file in `dir` but `skip` (the run's marker). Not fsynced
/// (the caller syncs the folder): a record lost to a power cut only makes the book not ours,
/// so `--force` refuses it; it can never make a foreign file ours.
pub fn record(dir: &Path, skip: &str) -> Result<()> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == skip || name == RECORD || !entry.file_type()?.is_file() {
            continue;
        }
        let path = entry.path();
        let (bytes, fingerprint) = fingerprint(&path).with_context(|| format!("reading {}", path.display()))?;
        files.push(Entry { name, bytes, fingerprint });
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    let mut text = serde_json::to_vec_pretty(&Record { program: "puzzle-factory".into(), files })?;
    text.push(b'\n');
    // Not synced here: the commit syncs the staging folder, and a record lost to a power cut
    // only makes --force refuse the book (the safe side).
    super::atomic::overwrite(&dir.join(RECORD), &text, false)
}

/// The record in `dir`, if it is there and readable as one.
fn read_record(dir: &Path) -> Option<Record> {
    let path = dir.join(RECORD);
    if !std::fs::symlink_metadata(&path).ok()?.is_file() {
        return None;
    }
    let r: Record = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    (r.program == "puzzle-factory").then_some(r)
}

/// Is `name` in `dir` a regular file the record lists, unchanged? The reason when not.
fn check(dir: &Path, name: &str, record: Option<&Record>) -> Result<(), &'static str> {
    let path = dir.join(name);
    let meta = std::fs::symlink_metadata(&path).map_err(|_| "unreadable")?;
    if meta.file_type().is_symlink() {
        return Err("a symbolic link");
    }
    if meta.is_dir() {
        return Err("a folder");
    }
    let Some(record) = record else { return Err("no record says puzzle-factory wrote it") };
    let Some(entry) = record.files.iter().find(|e| e.name == name) else {
        return Err("not written by puzzle-factory");
    };
    match fingerprint(&path) {
        Ok((bytes, fp)) if meta.is_file() && bytes == entry.bytes && fp == entry.fingerprint => Ok(()),
        _ => Err("changed since puzzle-factory wrote it"),
    }
}

/// What `dir` (an existing folder) holds.
pub fn inspect(dir: &Path) -> Result<Holds> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        names.push(entry?.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    if names.is_empty() {
        return Ok(Holds::Nothing);
    }
    let record = read_record(dir);
    if record.is_none() && names.iter().any(|n| n == "manifest.json") && names.iter().all(|n| !n.starts_with('.')) {
        return Ok(Holds::Foreign(
            "manifest.json".into(),
            "a book without a record of its files (made by an older version?): move or delete it yourself",
        ));
    }
    for name in names.iter().filter(|n| *n != RECORD) {
        if let Err(why) = check(dir, name, record.as_ref()) {
            return Ok(Holds::Foreign(name.clone(), why));
        }
    }
    Ok(if record.is_some() { Holds::Book } else { Holds::Foreign(RECORD.into(), "not a record of puzzle-factory's") })
}

/// Remove the files of `dir` that the record lists, unchanged, then the record and the folder.
/// Anything else stays, and the folder with it: the error names one such entry.
pub fn remove_ours(dir: &Path) -> Result<()> {
    let record = read_record(dir);
    if let Some(r) = &record {
        for e in &r.files {
            if check(dir, &e.name, record.as_ref()).is_ok() {
                let p = dir.join(&e.name);
                std::fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
            }
        }
        let p = dir.join(RECORD);
        std::fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
    }
    match std::fs::remove_dir(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::DirectoryNotEmpty => {
            let left = std::fs::read_dir(dir)?.next().transpose()?.map(|e| e.file_name());
            Err(crate::config::UsageError(format!(
                "{} holds files that puzzle-factory did not write (such as {:?}); they were left as they are: \
                 move them away",
                dir.display(),
                left.unwrap_or_default()
            ))
            .into())
        }
        Err(e) => Err(e).with_context(|| format!("removing {}", dir.display())),
    }
}

#[cfg(test)]
mod tests {
    /// Fed in pieces of any size, `Mix` is the one-shot hash of the whole (the fingerprints in
    /// records written before it streamed stay valid).
    #[test]
    fn mix_fed_in_pieces_is_the_hash_of_the_whole() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7919 % 251) as u8).collect();
        // The hash as records have always held it: words of the whole, then the tail bytes.
        let whole = {
            let words = bytes.chunks_exact(8);
            let tail = words.remainder();
            let h = words.fold(0xcbf2_9ce4_8422_2325u64, |h, w| {
                (h ^ u64::from_le_bytes(w.try_into().unwrap())).wrapping_mul(PRIME)
            });
            tail.iter().fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
        };
        assert_eq!(mix(&bytes), whole);
        for piece in [1, 3, 7, 8, 9, 64, 999] {
            let mut h = Mix::default();
            bytes.chunks(piece).for_each(|p| h.feed(p));
            assert_eq!(h.finish(), whole, "pieces of {piece}");
        }
    }

    use super::*;

    #[test]
    fn a_recorded_book_is_ours_and_anything_else_is_named() {
        let root = tempfile::tempdir().unwrap();
        let d = root.path();
        assert_eq!(inspect(d).unwrap(), Holds::Nothing);
        std::fs::write(d.join("puzzles.csv"), vec![b'x'; 200_000]).unwrap();
        std::fs::write(d.join("run.json"), b"marker").unwrap();
        record(d, "run.json").unwrap();
        std::fs::remove_file(d.join("run.json")).unwrap();
        assert_eq!(inspect(d).unwrap(), Holds::Book);

        // A changed byte past the first 64 KiB (in the last 64 KiB), a same-size replacement.
        let mut bytes = std::fs::read(d.join("puzzles.csv")).unwrap();
        bytes[150_000] = b'y';
        std::fs::write(d.join("puzzles.csv"), &bytes).unwrap();
        assert_eq!(inspect(d).unwrap(), Holds::Foreign("puzzles.csv".into(), "changed since puzzle-factory wrote it"));
        bytes[150_000] = b'x';
        std::fs::write(d.join("puzzles.csv"), &bytes).unwrap();
        assert_eq!(inspect(d).unwrap(), Holds::Book);

        std::fs::create_dir(d.join("photos.svg")).unwrap();
        assert_eq!(inspect(d).unwrap(), Holds::Foreign("photos.svg".into(), "a folder"));
        let e = remove_ours(d).unwrap_err().to_string();
        assert!(e.contains("photos.svg"), "{e}");
        assert!(d.join("photos.svg").exists() && !d.join("puzzles.csv").exists());
        std::fs::remove_dir(d.join("photos.svg")).unwrap();
        remove_ours(d).unwrap();
        assert!(!d.exists());
    }

    #[test]
    fn a_folder_without_a_record_is_never_ours() {
        let root = tempfile::tempdir().unwrap();
        let d = root.path();
        std::fs::write(d.join("company-logo.svg"), b"<svg/>").unwrap();
        std::fs::write(d.join("book-keeping.csv"), b"a,b").unwrap();
        assert!(matches!(inspect(d).unwrap(), Holds::Foreign(..)));
        assert!(remove_ours(d).is_err());
        assert!(d.join("company-logo.svg").exists() && d.join("book-keeping.csv").exists());
        #[cfg(unix)]
        {
            std::fs::remove_file(d.join("company-logo.svg")).unwrap();
            std::fs::remove_file(d.join("book-keeping.csv")).unwrap();
            std::fs::write(d.join("x"), b"1").unwrap();
            record(d, "").unwrap();
            std::fs::remove_file(d.join("x")).unwrap();
            std::os::unix::fs::symlink("/etc/hostname", d.join("x")).unwrap();
            assert_eq!(inspect(d).unwrap(), Holds::Foreign("x".into(), "a symbolic link"));
        }
    }
}
