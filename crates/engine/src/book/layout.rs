//! Which puzzle files a book folder holds and how they are stored: `generate --books
//! all|csv|json|none` and `--compress none|zstd`.
//!
//! `all` writes every record four times over (`puzzles.csv`, `puzzles.jsonl`, `book-<grade>.csv`,
//! `book-<grade>.json`); `csv` keeps the two CSV files, `json` the two JSON ones, `none` no
//! puzzle file at all (the run's records then go only to the scratch file `RECORDS` in the
//! staging folder, for a library to take in at the commit). `overflow.jsonl` and `paths.jsonl`
//! are kept with `csv` and `json` as asked for (`--overflow`, `--paths`).
//!
//! The choice is recorded in `manifest.json` as `books` and `compress`, each only when it is not
//! the default, so that a book made with the defaults has the manifest it had before the choice
//! existed, and a book made before reads as `all`, uncompressed (`Layout::of_manifest`).
//!
//! Compressed files are zstd frames one after another, which decompress to the concatenation
//! of their contents; where the frames end is the writer's business (`writer`). Readers take a
//! file plain or compressed alike (`open`): a file that starts with zstd's magic number is
//! decompressed, whatever its name, and a book's file is looked up under its plain name and
//! its `.zst` name (`find`).

use crate::config::UsageError;
use pf_core::kind::Choice;
use serde_json::{Map, Value};
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// The scratch file of a `--books none` run: the records as `puzzles.jsonl` would hold them,
/// in the staging folder until the commit removes it with the other scratch files.
pub const RECORDS: &str = ".records.jsonl";

/// The suffix of a compressed book file.
pub const ZST: &str = ".zst";

/// The first four bytes of every zstd frame (RFC 8878), little-endian 0xFD2FB528.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Which puzzle files a book keeps (`--books`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Books {
    /// puzzles.csv, puzzles.jsonl, book-<grade>.csv and book-<grade>.json.
    #[default]
    All,
    /// puzzles.csv and book-<grade>.csv.
    Csv,
    /// puzzles.jsonl and book-<grade>.json.
    Json,
    /// No puzzle file: the puzzles go to a library only.
    None,
}

/// How the puzzle files are stored (`--compress`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compress {
    /// Plain text.
    #[default]
    None,
    /// zstd, each file named with `.zst` after its own name.
    Zstd,
}

impl Choice for Books {
    const CHOICES: &'static [(Books, &'static str, &'static str)] = &[
        (Books::All, "all", "puzzles.csv, puzzles.jsonl, book-<grade>.csv and book-<grade>.json"),
        (Books::Csv, "csv", "puzzles.csv and book-<grade>.csv"),
        (Books::Json, "json", "puzzles.jsonl and book-<grade>.json"),
        (Books::None, "none", "No puzzle file: the puzzles go to a library only"),
    ];
}

impl Choice for Compress {
    const CHOICES: &'static [(Compress, &'static str, &'static str)] = &[
        (Compress::None, "none", "Plain text"),
        (Compress::Zstd, "zstd", "zstd, each file named with `.zst` after its own name"),
    ];
}

impl Books {
    pub fn name(self) -> &'static str {
        self.choice_name()
    }
}

impl Compress {
    pub fn name(self) -> &'static str {
        self.choice_name()
    }
}

/// A book's puzzle files and their storage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    pub books: Books,
    pub compress: Compress,
}

impl Layout {
    /// The book holds `puzzles.csv` and `book-<grade>.csv`.
    pub fn csv(self) -> bool {
        matches!(self.books, Books::All | Books::Csv)
    }

    /// The book holds `puzzles.jsonl` and `book-<grade>.json`.
    pub fn json(self) -> bool {
        matches!(self.books, Books::All | Books::Json)
    }

    pub fn compressed(self) -> bool {
        self.compress == Compress::Zstd
    }

    /// The name on disk of the book file `base` (`puzzles.csv` → `puzzles.csv.zst`).
    pub fn name(self, base: &str) -> String {
        if self.compressed() {
            format!("{base}{ZST}")
        } else {
            base.to_string()
        }
    }

    /// Record the choice in a manifest: `books` and `compress`, each only when not the default.
    pub fn add_to(self, manifest: &mut Map<String, Value>) {
        if self.books != Books::All {
            manifest.insert("books".into(), self.books.name().into());
        }
        if self.compress != Compress::None {
            manifest.insert("compress".into(), self.compress.name().into());
        }
    }

    /// The choice a manifest records (absent keys: the defaults); `shown` names the manifest in
    /// the refusal of a value this version does not know.
    pub fn of_manifest(manifest: &Value, shown: &str) -> Result<Layout, UsageError> {
        fn read<T: Choice + Default>(manifest: &Value, key: &str, shown: &str) -> Result<T, UsageError> {
            match manifest.get(key) {
                None | Some(Value::Null) => Ok(T::default()),
                Some(v) => v.as_str().and_then(T::from_name).ok_or_else(|| {
                    UsageError(format!("{shown}: {key} {v} is not one this version of puzzle-factory knows"))
                }),
            }
        }
        Ok(Layout { books: read(manifest, "books", shown)?, compress: read(manifest, "compress", shown)? })
    }
}

/// The book file `base` in `dir`, under its plain name or its `.zst` name (the plain one first).
pub fn find(dir: &Path, base: &str) -> Option<PathBuf> {
    [base.to_string(), format!("{base}{ZST}")].into_iter().map(|n| dir.join(n)).find(|p| p.is_file())
}

/// A file for reading, decompressed when it is zstd (it starts with the magic number).
pub fn open(path: &Path) -> std::io::Result<Box<dyn BufRead>> {
    let mut r = BufReader::with_capacity(1 << 16, File::open(path)?);
    if is_zstd(&mut r)? {
        let decoder = zstd::stream::read::Decoder::with_buffer(r)?;
        return Ok(Box::new(BufReader::with_capacity(1 << 16, decoder)));
    }
    Ok(Box::new(r))
}

/// Does the reader start with zstd's magic number? Reads the first bytes into its buffer
/// without consuming them (a file's first `fill_buf` holds them unless the file is shorter).
fn is_zstd(r: &mut impl BufRead) -> std::io::Result<bool> {
    Ok(r.fill_buf()?.starts_with(&ZSTD_MAGIC))
}

/// A whole file as text, decompressed when it is zstd.
pub fn read_to_string(path: &Path) -> std::io::Result<String> {
    let mut s = String::new();
    open(path)?.read_to_string(&mut s)?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_record_only_what_is_not_the_default_and_read_back() {
        for books in [Books::All, Books::Csv, Books::Json, Books::None] {
            for compress in [Compress::None, Compress::Zstd] {
                let l = Layout { books, compress };
                let mut m = Map::new();
                l.add_to(&mut m);
                assert_eq!(m.is_empty(), l == Layout::default());
                assert_eq!(Layout::of_manifest(&Value::Object(m), "m").unwrap(), l);
            }
        }
        let e = Layout::of_manifest(&serde_json::json!({"books": "pdf"}), "m/manifest.json").unwrap_err();
        assert!(e.0.contains("books \"pdf\""), "{}", e.0);
    }

    #[test]
    fn files_read_the_same_plain_or_as_concatenated_frames() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("a.csv");
        std::fs::write(&plain, "one\ntwo\n").unwrap();
        let mut frames = zstd::bulk::compress(b"one\n", 3).unwrap();
        frames.extend(zstd::bulk::compress(b"two\n", 3).unwrap());
        std::fs::write(dir.path().join("b.csv.zst"), &frames).unwrap();
        assert_eq!(read_to_string(&plain).unwrap(), "one\ntwo\n");
        let b = find(dir.path(), "b.csv").unwrap();
        assert_eq!(read_to_string(&b).unwrap(), "one\ntwo\n");
        assert_eq!(find(dir.path(), "a.csv").unwrap(), plain);
        assert!(find(dir.path(), "c.csv").is_none());
        std::fs::write(dir.path().join("empty"), "").unwrap();
        assert_eq!(read_to_string(&dir.path().join("empty")).unwrap(), "");
    }
}
