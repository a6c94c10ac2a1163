//! A file written under a scratch name beside it and renamed into place by `commit`, so its
//! final name only ever holds a complete file (after a crash: the previous one, or none).
//! Dropped without `commit`, the scratch file is removed.
//!
//! The scratch name is new for every file (`.<name>.<pid>-<n>.tmp`) and is created with
//! `create_new` and, on Unix, `O_NOFOLLOW`: a file or symbolic link planted at that name makes
//! the open fail and the next name is tried, so nothing is written through a link. The rename
//! replaces whatever is at the final name, a symbolic link included, without following it.
//! Errors name the file (`writing out/book.pdf: No space left on device`).

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub struct AtomicFile {
    tmp: PathBuf,
    dest: PathBuf,
    out: Option<BufWriter<File>>,
}

/// Scratch names taken by this process so far (the `<n>` of `.<name>.<pid>-<n>.tmp`).
static SCRATCH: AtomicU64 = AtomicU64::new(0);

/// Tries at a fresh scratch name before giving up (each taken name was planted by someone).
const TRIES: usize = 64;

/// `e`, saying which file it was writing.
pub fn named(e: std::io::Error, path: &Path) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("writing {}: {e}", path.display()))
}

/// A new file at `path` that was not there before, never reached through a symbolic link.
fn create_new(path: &Path) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW);
    }
    o.open(path)
}

/// Write a whole file in place (created or truncated), never through a symbolic link at `path`,
/// and fsync it when `sync`. For files whose folder is renamed into place as a whole, so their
/// own names need no scratch name. Errors name the file.
pub(crate) fn overwrite(path: &Path, bytes: &[u8], sync: bool) -> anyhow::Result<()> {
    use anyhow::Context as _;
    let mut o = OpenOptions::new();
    o.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW);
    }
    let write = || -> std::io::Result<()> {
        let mut f = o.open(path)?;
        f.write_all(bytes)?;
        if sync {
            f.sync_all()?;
        }
        Ok(())
    };
    write().with_context(|| format!("writing {}", path.display()))
}

impl AtomicFile {
    pub fn create(dir: &Path, name: &str) -> std::io::Result<AtomicFile> {
        let dest = dir.join(name);
        for _ in 0..TRIES {
            let n = SCRATCH.fetch_add(1, Ordering::Relaxed);
            let tmp = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
            match create_new(&tmp) {
                Ok(file) => return Ok(AtomicFile { tmp, dest, out: Some(BufWriter::with_capacity(1 << 16, file)) }),
                Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(named(e, &dest)),
            }
        }
        Err(named(std::io::Error::new(ErrorKind::AlreadyExists, "every scratch name tried is taken"), &dest))
    }

    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.out.as_mut().expect("not committed")
    }

    /// Flush and sync, ready to be renamed into place by `commit` (several files written this
    /// way first and committed together leave only the renames between them).
    pub fn ready(&mut self) -> std::io::Result<()> {
        let dest = self.dest.clone();
        let out = self.writer();
        out.flush().and_then(|_| out.get_ref().sync_all()).map_err(|e| named(e, &dest))
    }

    /// Flush, sync and rename into place (then sync the folder, so the new name lasts).
    pub fn commit(mut self) -> std::io::Result<()> {
        let mut out = self.out.take().expect("commit once");
        let dest = self.dest.clone();
        let done = out.flush().and_then(|_| out.get_ref().sync_all());
        drop(out);
        if let Err(e) = done.and_then(|_| std::fs::rename(&self.tmp, &dest)) {
            let _ = std::fs::remove_file(&self.tmp);
            return Err(named(e, &dest));
        }
        if let Some(dir) = dest.parent().filter(|d| !d.as_os_str().is_empty()) {
            // Best effort: some file systems cannot sync a folder.
            let _ = File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(())
    }

    /// Write a whole file at once, atomically.
    pub fn write_all(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        let mut f = AtomicFile::create(dir, name)?;
        let dest = f.dest.clone();
        f.writer().write_all(bytes).map_err(|e| named(e, &dest))?;
        f.commit()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything in `dir`.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[cfg(unix)]
    #[test]
    fn planted_links_are_replaced_never_written_through() {
        let tmp = tempfile::tempdir().unwrap();
        let (dir, victim) = (tmp.path().join("out"), tmp.path().join("victim"));
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(&victim, b"precious").unwrap();
        // A link at the final name and at the scratch names this process would take next.
        std::os::unix::fs::symlink(&victim, dir.join("book.pdf")).unwrap();
        let next = SCRATCH.load(Ordering::Relaxed);
        for n in next..next + 8 {
            let name = format!(".book.pdf.{}-{n}.tmp", std::process::id());
            std::os::unix::fs::symlink(&victim, dir.join(name)).unwrap();
        }
        AtomicFile::write_all(&dir, "book.pdf", b"%PDF new").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        let meta = std::fs::symlink_metadata(dir.join("book.pdf")).unwrap();
        assert!(meta.file_type().is_file(), "the link is replaced by the file");
        assert_eq!(std::fs::read(dir.join("book.pdf")).unwrap(), b"%PDF new");
    }

    #[test]
    fn an_uncommitted_file_leaves_nothing_and_errors_name_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let mut f = AtomicFile::create(tmp.path(), "a.svg").unwrap();
        f.writer().write_all(b"<svg/>").unwrap();
        drop(f);
        assert!(names(tmp.path()).is_empty(), "{:?}", names(tmp.path()));
        let e = AtomicFile::write_all(&tmp.path().join("missing"), "a.svg", b"x").unwrap_err();
        assert!(e.to_string().contains("a.svg"), "{e}");
    }
}
