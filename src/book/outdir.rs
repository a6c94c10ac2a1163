//! The output folder as one transaction (SPEC.md, "Runs and the output folder").
//!
//! A run on DIR:
//! 1. takes an exclusive lock on `.<name>.lock` beside DIR (a few bytes naming the holder; a
//!    second run on the same DIR fails at once, exit 2, naming it, and touches nothing);
//! 2. refuses a DIR that holds a finished book (unless `--force`), an unfinished run, or files
//!    that are not the program's;
//! 3. writes every file into the staging folder `.<name>.staging` beside DIR, which holds a
//!    `run.json` marker while the run is unfinished;
//! 4. commits: every file and the folder fsynced, the marker removed, then one atomic step —
//!    `renameat2(RENAME_EXCHANGE)` swaps the staging folder and DIR (or a plain rename when DIR
//!    does not exist) — then the parent is fsynced and the previous book, now at the staging
//!    path, removed.
//!
//! So readers see the previous complete book or the new complete book, never a mix; a failed
//! or killed run leaves the previous book as it was; scratch lives only beside DIR under names
//! starting with `.`. A staging folder without the marker is what a commit left when it was
//! killed before removing the previous book: the next run removes it.

use crate::config::UsageError;
use anyhow::{Context as _, Result};
use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, Write as _};
use std::path::{Path, PathBuf};

/// The marker that makes a staging folder an unfinished run.
const MARKER: &str = "run.json";

/// Files a finished book may hold (anything else in DIR is not the program's).
fn is_book_file(name: &str) -> bool {
    matches!(
        name,
        "puzzles.csv"
            | "puzzles.jsonl"
            | "calibration.json"
            | "manifest.json"
            | "report.md"
            | "overflow.jsonl"
            | "paths.jsonl"
    ) || (name.starts_with("book-") && (name.ends_with(".csv") || name.ends_with(".json")))
        || name.ends_with(".svg")
}

/// What DIR holds now.
#[derive(Debug, PartialEq, Eq)]
enum Found {
    Nothing,
    Book,
    Foreign(String),
}

fn inspect(dir: &Path) -> Result<Found> {
    let meta = match std::fs::metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Nothing),
        Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
    };
    if !meta.is_dir() {
        return Err(UsageError(format!("--out {} exists and is not a directory", dir.display())).into());
    }
    let mut found = Found::Nothing;
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if !is_book_file(&name) {
            return Ok(Found::Foreign(name));
        }
        found = Found::Book;
    }
    Ok(found)
}

/// A locked output folder with its staging folder.
pub struct OutDir {
    dir: PathBuf,
    staging: PathBuf,
    /// Held for the life of the run: the lock is released when the file is closed.
    _lock: File,
    committed: bool,
}

/// DIR as an absolute path whose last component is a real name (`.` and `..` resolved), with
/// its parent created.
pub fn resolve(dir: &Path) -> Result<(PathBuf, OsString)> {
    let abs = if dir.exists() {
        dir.canonicalize().with_context(|| format!("resolving {}", dir.display()))?
    } else {
        let name =
            dir.file_name().ok_or_else(|| UsageError(format!("--out {}: name a directory", dir.display())))?.to_owned();
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent).with_context(|| format!("creating {}", parent.display()))?;
        parent.canonicalize().with_context(|| format!("resolving {}", parent.display()))?.join(name)
    };
    let name = abs
        .file_name()
        .ok_or_else(|| UsageError(format!("--out {}: cannot be the root directory", dir.display())))?
        .to_owned();
    Ok((abs, name))
}

fn beside(dir: &Path, name: &OsString, suffix: &str) -> PathBuf {
    let mut n = OsString::from(".");
    n.push(name);
    n.push(suffix);
    dir.with_file_name(n)
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// Lock `path` for this process or fail naming the holder.
fn lock(path: &Path, shown: &Path) -> Result<File> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("opening the lock {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            let who = if holder.is_empty() { "another process".to_string() } else { holder.to_string() };
            return Err(UsageError(format!(
                "--out {} is in use by {who} (lock {}): wait for that run or choose another --out",
                shown.display(),
                path.display()
            ))
            .into());
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("locking {}", path.display()));
        }
    }
    let text = format!("pid {} on {}\n", std::process::id(), hostname());
    file.set_len(0)?;
    file.rewind()?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    Ok(file)
}

/// fsync a directory, so the names in it are durable.
pub fn sync_dir(dir: &Path) -> Result<()> {
    File::open(dir).and_then(|f| f.sync_all()).with_context(|| format!("syncing {}", dir.display()))
}

/// Write a whole file and fsync it.
pub fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = File::create(path).with_context(|| format!("writing {}", path.display()))?;
    f.write_all(bytes).and_then(|_| f.sync_all()).with_context(|| format!("writing {}", path.display()))
}

/// The saved state of the unfinished run for DIR (`run.json` in its staging folder), read
/// without taking the lock; None when there is none.
pub fn saved_state(dir: &Path) -> Result<Option<Vec<u8>>> {
    let (abs, name) = resolve(dir)?;
    match std::fs::read(beside(&abs, &name, ".staging").join(MARKER)) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading the saved run of {}", dir.display())),
    }
}

/// `OutDir::save_state` for the staging folder `staging` (callable from another thread).
pub fn save_state_in(staging: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = staging.join(".run.json.new");
    write_synced(&tmp, bytes)?;
    std::fs::rename(&tmp, staging.join(MARKER)).with_context(|| format!("saving {}", tmp.display()))?;
    sync_dir(staging)
}

/// What `OutDir::resume` found.
pub enum Resume {
    /// An unfinished run: the folder, locked, and its saved state (`run.json`).
    Unfinished(OutDir, Vec<u8>),
    /// No unfinished run, and DIR holds a finished book.
    Finished,
    /// Nothing to resume: no run was started here, or it failed and left nothing.
    Nothing,
}

impl OutDir {
    /// Lock DIR and refuse what a run may not touch (foreign files); the lock, the staging
    /// path and what DIR holds.
    fn locked(dir: &Path) -> Result<(PathBuf, File, PathBuf, Found)> {
        let (abs, name) = resolve(dir)?;
        let lock = lock(&beside(&abs, &name, ".lock"), dir)?;
        let staging = beside(&abs, &name, ".staging");
        let found = inspect(&abs)?;
        if let Found::Foreign(f) = &found {
            return Err(UsageError(format!(
                "--out {} holds files that are not puzzle-factory's (such as {f:?}): choose another --out or \
                 empty it",
                dir.display()
            ))
            .into());
        }
        Ok((abs, lock, staging, found))
    }

    /// The unfinished run saved for DIR, if any (`--resume`).
    pub fn resume(dir: &Path) -> Result<Resume> {
        let (abs, lock, staging, found) = Self::locked(dir)?;
        let marker = staging.join(MARKER);
        if marker.exists() {
            let state = std::fs::read(&marker).with_context(|| format!("reading {}", marker.display()))?;
            return Ok(Resume::Unfinished(OutDir { dir: abs, staging, _lock: lock, committed: false }, state));
        }
        if staging.exists() {
            std::fs::remove_dir_all(&staging).with_context(|| format!("removing {}", staging.display()))?;
        }
        Ok(if found == Found::Book { Resume::Finished } else { Resume::Nothing })
    }

    /// Replace the saved run state (`run.json`) in one step: written and fsynced under a
    /// scratch name, renamed over the old one, the folder fsynced.
    pub fn save_state(&self, bytes: &[u8]) -> Result<()> {
        save_state_in(&self.staging, bytes)
    }

    /// Leave the unfinished run for `--resume` (after SIGINT or SIGTERM).
    pub fn keep(mut self) {
        self.committed = true;
    }

    /// Lock DIR, check what it holds, and start a fresh staging folder. `marker` is written as
    /// the staging folder's `run.json` (the saved state of the run in progress there).
    pub fn open(dir: &Path, force: bool, marker: &[u8]) -> Result<OutDir> {
        let (abs, lock, staging, found) = Self::locked(dir)?;
        let shown = dir.display();
        if staging.exists() {
            if staging.join(MARKER).exists() && !force {
                return Err(UsageError(format!(
                    "--out {shown} has an unfinished run ({}): --resume continues it, --force discards it",
                    staging.display()
                ))
                .into());
            }
            std::fs::remove_dir_all(&staging).with_context(|| format!("removing {}", staging.display()))?;
        }
        if found == Found::Book && !force {
            return Err(UsageError(format!(
                "--out {shown} holds a finished book: --force replaces it (the old book stays whole until \
                 the new one is complete), or choose another --out"
            ))
            .into());
        }
        std::fs::create_dir(&staging).with_context(|| format!("creating {}", staging.display()))?;
        let out = OutDir { dir: abs, staging, _lock: lock, committed: false };
        write_synced(&out.staging.join(MARKER), marker)?;
        sync_dir(out.staging.parent().unwrap_or(Path::new(".")))?;
        Ok(out)
    }

    /// Where the run writes its files.
    pub fn staging(&self) -> &Path {
        &self.staging
    }

    /// Make the staged book DIR's book in one atomic step (see the module doc). Every file in
    /// the staging folder must already be written and fsynced.
    pub fn commit(mut self) -> Result<()> {
        std::fs::remove_file(self.staging.join(MARKER))?;
        sync_dir(&self.staging)?;
        let parent = self.dir.parent().unwrap_or(Path::new("/")).to_path_buf();
        let had_dir = self.dir.exists();
        if had_dir {
            exchange(&self.staging, &self.dir)
                .with_context(|| format!("moving the new book into {}", self.dir.display()))?;
        } else {
            std::fs::rename(&self.staging, &self.dir)
                .with_context(|| format!("moving the new book into {}", self.dir.display()))?;
        }
        self.committed = true;
        sync_dir(&parent)?;
        if had_dir {
            // The previous book (or the empty folder) now sits at the staging path.
            std::fs::remove_dir_all(&self.staging).with_context(|| format!("removing {}", self.staging.display()))?;
        }
        Ok(())
    }
}

impl Drop for OutDir {
    /// A run that did not commit removes its staging folder (the previous book is untouched).
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

/// Swap two directories atomically (Linux `renameat2` with `RENAME_EXCHANGE`). Where the
/// system or file system cannot, fall back to two renames through `.<name>.old` (a short
/// window in which DIR does not exist).
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let ca = std::ffi::CString::new(a.as_os_str().as_bytes())?;
        let cb = std::ffi::CString::new(b.as_os_str().as_bytes())?;
        // SAFETY: both paths are valid NUL-terminated strings for the duration of the call.
        let r =
            unsafe { libc::renameat2(libc::AT_FDCWD, ca.as_ptr(), libc::AT_FDCWD, cb.as_ptr(), libc::RENAME_EXCHANGE) };
        if r == 0 {
            return Ok(());
        }
        let err = std::io::Error::last_os_error();
        if !matches!(err.raw_os_error(), Some(libc::EINVAL) | Some(libc::ENOSYS) | Some(libc::EOPNOTSUPP)) {
            return Err(err);
        }
    }
    let old = b.with_file_name(format!(".{}.old", b.file_name().unwrap_or_default().to_string_lossy()));
    std::fs::rename(b, &old)?;
    std::fs::rename(a, b)?;
    std::fs::rename(&old, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    #[test]
    fn commit_replaces_only_with_force_and_leaves_only_the_lock() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("book");
        let out = OutDir::open(&dir, false, b"{}").unwrap();
        write_synced(&out.staging().join("manifest.json"), b"one").unwrap();
        out.commit().unwrap();
        assert_eq!(std::fs::read(dir.join("manifest.json")).unwrap(), b"one");
        assert_eq!(files(root.path()), [".book.lock", "book"]);

        let e = OutDir::open(&dir, false, b"{}").err().unwrap();
        assert!(e.downcast_ref::<UsageError>().unwrap().0.contains("--force"), "{e}");

        // With --force the old book stays until commit; a run dropped without commit leaves it.
        let out = OutDir::open(&dir, true, b"{}").unwrap();
        write_synced(&out.staging().join("manifest.json"), b"two").unwrap();
        assert_eq!(std::fs::read(dir.join("manifest.json")).unwrap(), b"one");
        drop(out);
        assert_eq!(std::fs::read(dir.join("manifest.json")).unwrap(), b"one");
        assert_eq!(files(root.path()), [".book.lock", "book"]);

        let out = OutDir::open(&dir, true, b"{}").unwrap();
        write_synced(&out.staging().join("manifest.json"), b"two").unwrap();
        out.commit().unwrap();
        assert_eq!(std::fs::read(dir.join("manifest.json")).unwrap(), b"two");
        assert_eq!(files(root.path()), [".book.lock", "book"]);
        assert_eq!(files(&dir), ["manifest.json"]);
    }

    #[test]
    fn second_run_is_refused_naming_the_holder() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("o");
        let _first = OutDir::open(&dir, false, b"{}").unwrap();
        let e = OutDir::open(&dir, true, b"{}").err().unwrap();
        let msg = e.downcast_ref::<UsageError>().unwrap().0.clone();
        assert!(msg.contains(&format!("pid {}", std::process::id())), "{msg}");
    }

    #[test]
    fn foreign_files_and_unfinished_runs_are_refused() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("o");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("notes.txt"), b"mine").unwrap();
        let e = OutDir::open(&dir, true, b"{}").err().unwrap();
        assert!(e.to_string().contains("notes.txt"), "{e}");
        std::fs::remove_file(dir.join("notes.txt")).unwrap();

        // A staging folder with the marker: an unfinished run.
        let staging = root.path().join(".o.staging");
        std::fs::create_dir(&staging).unwrap();
        std::fs::write(staging.join(MARKER), b"{}").unwrap();
        let e = OutDir::open(&dir, false, b"{}").err().unwrap();
        assert!(e.to_string().contains("unfinished"), "{e}");
        drop(OutDir::open(&dir, true, b"{}").unwrap());
        // Without the marker: a previous book left by a killed commit, removed silently.
        std::fs::create_dir(&staging).unwrap();
        std::fs::write(staging.join("manifest.json"), b"old").unwrap();
        drop(OutDir::open(&dir, false, b"{}").unwrap());
        assert!(!staging.exists());
    }
}
