//! The output folder as one transaction (SPEC.md, "Runs and the output folder").
//!
//! A run on DIR:
//! 1. takes an exclusive lock on `.<name>.lock` beside DIR (a few bytes naming the holder; a
//!    second run on the same DIR fails at once, exit 2, naming it, and touches nothing);
//! 2. completes what a killed commit left (below), then refuses a DIR that holds a finished
//!    book (unless `--force`), an unfinished run, or anything the book's record of its files
//!    (`written`) does not list unchanged;
//! 3. writes every file into the staging folder `.<name>.staging` beside DIR, which holds a
//!    `.run.json` marker while the run is unfinished (the saved state of a `generate` run);
//! 4. commits in steps, each safe to be killed after:
//!    - `sealed`: the marker is rewritten (atomically) as a finished one: from here the run's
//!      content is final, and `--resume` only completes the steps below;
//!    - scratch removed: every file in staging whose name starts with `.`;
//!    - `listed`: the record of the book's files (`.written.json`) written;
//!    - `swapped`: one atomic step, `renameat2(RENAME_EXCHANGE)` of the staging folder and DIR
//!      (a plain rename when DIR does not exist); the finished marker moves into DIR with the
//!      book, so a marker in DIR says the swap happened and the staging folder holds the
//!      previous book;
//!    - `unmarked`: the marker removed from DIR;
//!    - `old-removed`: the previous book removed, file by file as its record lists them.
//!
//! So readers see the previous complete book or the new complete book, never a mix; a failed
//! or killed run leaves the previous book as it was; scratch lives only beside DIR under names
//! starting with `.`. A staging folder without a marker is a previous book (or an empty
//! folder) that a commit had not yet removed, and the next run removes what of it is ours.
//!
//! Paths the program makes beside DIR (the lock, the staging folder) are never followed
//! through a symbolic link: a planted one is refused, naming it.
//!
//! `PUZZLE_FACTORY_CRASH_AT=STEP` kills the process with SIGKILL at that step of finishing
//! (`crash_point`), so tests can stop a run at each one deterministically.

use super::written::{self, Holds};
use crate::config::UsageError;
use anyhow::{Context as _, Result};
use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, Write as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

/// The marker that makes a staging folder an unfinished run.
const MARKER: &str = ".run.json";

/// The environment variable naming the finishing step at which to kill the process.
pub const CRASH_ENV: &str = "PUZZLE_FACTORY_CRASH_AT";

/// Kill the process (SIGKILL, as `kill -9` would) when `PUZZLE_FACTORY_CRASH_AT` names `step`.
pub fn crash_point(step: &str) {
    static AT: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    if AT.get_or_init(|| std::env::var(CRASH_ENV).ok()).as_deref() == Some(step) {
        // SAFETY: sending a signal to this process has no memory-safety preconditions.
        unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
        std::process::abort();
    }
}

/// A locked output folder with its staging folder.
pub struct OutDir {
    dir: PathBuf,
    staging: PathBuf,
    /// Held for the life of the run: the lock is released when the file is closed.
    _lock: File,
    /// Committed, or kept for `--resume`: the staging folder stays when dropped.
    keep: bool,
    /// A run whose failure keeps its staging folder (a saved run to resume).
    keep_on_failure: bool,
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

/// The holder named in a lock file, as printed: at most 200 bytes of it, control characters
/// shown as `?` (the file is a few bytes when the program wrote it; anything may be planted).
fn holder(file: &mut File) -> String {
    let mut bytes = Vec::new();
    let _ = file.take(201).read_to_end(&mut bytes);
    let long = bytes.len() > 200;
    bytes.truncate(200);
    let text: String =
        String::from_utf8_lossy(&bytes).trim().chars().map(|c| if c.is_control() { '?' } else { c }).collect();
    match (text.is_empty(), long) {
        (true, _) => "another process".into(),
        (false, true) => format!("{text}…"),
        (false, false) => text,
    }
}

/// Lock `path` for this process or fail naming the holder. The lock file is opened without
/// following a symbolic link, and must be a regular file.
fn lock(path: &Path, shown: &Path) -> Result<File> {
    let opened = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    let mut file = match opened {
        Ok(f) => f,
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(UsageError(format!(
                "the lock {} is a symbolic link, which puzzle-factory never makes: remove it",
                path.display()
            ))
            .into())
        }
        Err(e) => return Err(e).with_context(|| format!("opening the lock {}", path.display())),
    };
    if !file.metadata().with_context(|| format!("reading the lock {}", path.display()))?.is_file() {
        return Err(UsageError(format!("the lock {} is not a regular file: remove it", path.display())).into());
    }
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let who = holder(&mut file);
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
pub(crate) fn sync_dir(dir: &Path) -> Result<()> {
    File::open(dir).and_then(|f| f.sync_all()).with_context(|| format!("syncing {}", dir.display()))
}

/// Write a whole file and fsync it.
pub fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    super::atomic::overwrite(path, bytes, true)
}

/// The saved state of the unfinished run for DIR (`.run.json` in its staging folder), read
/// without taking the lock; None when there is none.
pub fn saved_state(dir: &Path) -> Result<Option<Vec<u8>>> {
    let (abs, name) = resolve(dir)?;
    let staging = beside(&abs, &name, ".staging");
    if !staging_exists(&staging)? {
        return Ok(None);
    }
    match std::fs::read(staging.join(MARKER)) {
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
    /// A run saved for DIR: the folder, locked, and its saved state (`.run.json`), unfinished or
    /// sealed (its book complete, the commit not).
    Unfinished(OutDir, Vec<u8>),
    /// No saved run, and DIR holds a finished book.
    Finished,
    /// Nothing to resume: no run was saved here.
    Nothing,
}

/// Is this marker a sealed one: the run's book complete, only the commit left to do?
pub(crate) fn is_sealed(marker: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(marker).is_ok_and(|v| v.get("finished").is_some_and(|f| !f.is_null()))
}

/// Whether the staging folder exists; a symbolic link or a file in its place is refused.
fn staging_exists(staging: &Path) -> Result<bool> {
    match std::fs::symlink_metadata(staging) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e).with_context(|| format!("reading {}", staging.display())),
        Ok(m) if m.is_dir() => Ok(true),
        Ok(m) => {
            let what = if m.file_type().is_symlink() { "a symbolic link" } else { "not a folder" };
            Err(UsageError(format!(
                "{} is {what}, which puzzle-factory never makes there: remove it",
                staging.display()
            ))
            .into())
        }
    }
}

/// Complete what a killed commit left (see the module doc): after the swap, the sealed marker
/// in DIR is removed; a staging folder without a marker (the previous book, or a folder made
/// just before a kill) is removed as far as it is ours.
fn recover(dir: &Path, staging: &Path) -> Result<()> {
    let has_staging = staging_exists(staging)?;
    let marker = dir.join(MARKER);
    let swapped = std::fs::symlink_metadata(&marker).is_ok_and(|m| m.is_file())
        && dir.join(written::RECORD).is_file()
        && std::fs::read(&marker).is_ok_and(|b| is_sealed(&b));
    if swapped {
        std::fs::remove_file(&marker).with_context(|| format!("removing {}", marker.display()))?;
        sync_dir(dir)?;
    }
    if has_staging && std::fs::symlink_metadata(staging.join(MARKER)).is_err() {
        written::remove_ours(staging)?;
    }
    Ok(())
}

/// Remove the run's scratch files from the staging folder: every file whose name starts with
/// `.` but the marker and the record (the run's keys and step values, and with `--books none`
/// its records, `layout::RECORDS`).
fn remove_scratch(staging: &Path) -> Result<()> {
    let mut removed = 0;
    for entry in std::fs::read_dir(staging).with_context(|| format!("reading {}", staging.display()))? {
        let entry = entry?;
        let name = entry.file_name();
        let scratch = name.to_string_lossy().starts_with('.') && name != MARKER && name != written::RECORD;
        if scratch && entry.file_type()?.is_file() {
            let path = entry.path();
            std::fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
            removed += 1;
            if removed == 1 {
                crash_point("scratch-partly");
            }
        }
    }
    // No fsync here: the record's sync of the folder (`complete`) covers these removals too.
    crash_point("scratch-removed");
    Ok(())
}

impl OutDir {
    /// Lock DIR, complete what a killed commit left, and refuse what a run may not touch:
    /// the lock, the staging path and what DIR holds.
    fn locked(dir: &Path) -> Result<(PathBuf, File, PathBuf, Holds)> {
        let (abs, name) = resolve(dir)?;
        if abs.exists() && !abs.is_dir() {
            return Err(UsageError(format!("--out {} exists and is not a directory", dir.display())).into());
        }
        let lock = lock(&beside(&abs, &name, ".lock"), dir)?;
        let staging = beside(&abs, &name, ".staging");
        recover(&abs, &staging)?;
        let holds = if abs.exists() { written::inspect(&abs)? } else { Holds::Nothing };
        if let Holds::Foreign(f, why) = &holds {
            return Err(UsageError(format!(
                "--out {} holds files that are not puzzle-factory's ({f:?}: {why}); nothing was changed: choose \
                 another --out, or move them away",
                dir.display()
            ))
            .into());
        }
        Ok((abs, lock, staging, holds))
    }

    /// The run saved for DIR, if any (`--resume`).
    pub fn resume(dir: &Path) -> Result<Resume> {
        let (abs, lock, staging, holds) = Self::locked(dir)?;
        let marker = staging.join(MARKER);
        if marker.exists() {
            let state = std::fs::read(&marker).with_context(|| format!("reading {}", marker.display()))?;
            let out = OutDir { dir: abs, staging, _lock: lock, keep: false, keep_on_failure: true };
            return Ok(Resume::Unfinished(out, state));
        }
        Ok(if holds == Holds::Book { Resume::Finished } else { Resume::Nothing })
    }

    /// Replace the saved run state (`.run.json`) in one step: written and fsynced under a
    /// scratch name, renamed over the old one, the folder fsynced.
    pub fn save_state(&self, bytes: &[u8]) -> Result<()> {
        save_state_in(&self.staging, bytes)
    }

    /// Leave the unfinished run for `--resume` (after SIGINT or SIGTERM).
    pub fn keep(mut self) {
        self.keep = true;
    }

    /// Drop the saved run (a run saved before its files existed: nothing to continue).
    pub fn discard(mut self) -> Result<()> {
        self.keep = true;
        std::fs::remove_dir_all(&self.staging).with_context(|| format!("removing {}", self.staging.display()))
    }

    /// Lock DIR, check what it holds, and start a fresh staging folder. `marker` is written as
    /// the staging folder's `.run.json` (the saved state of the run in progress there). With
    /// `keep_on_failure`, a run that fails keeps its staging folder for `--resume`.
    pub fn open(dir: &Path, force: bool, marker: &[u8], keep_on_failure: bool) -> Result<OutDir> {
        let (abs, lock, staging, holds) = Self::locked(dir)?;
        let shown = dir.display();
        if staging.exists() {
            if !force {
                let sealed = std::fs::read(staging.join(MARKER)).is_ok_and(|b| is_sealed(&b));
                let what = if sealed { "a finished run not yet moved into place" } else { "an unfinished run" };
                let verb = if sealed { "completes" } else { "continues" };
                return Err(UsageError(format!(
                    "--out {shown} has {what} ({}): --resume {verb} it, --force discards it",
                    staging.display()
                ))
                .into());
            }
            std::fs::remove_dir_all(&staging).with_context(|| format!("removing {}", staging.display()))?;
        }
        if holds == Holds::Book && !force {
            return Err(UsageError(format!(
                "--out {shown} holds a finished book: --force replaces it (the old book stays whole until \
                 the new one is complete), or choose another --out"
            ))
            .into());
        }
        std::fs::create_dir(&staging).with_context(|| format!("creating {}", staging.display()))?;
        let out = OutDir { dir: abs, staging, _lock: lock, keep: false, keep_on_failure };
        write_synced(&out.staging.join(MARKER), marker)?;
        sync_dir(out.staging.parent().unwrap_or(Path::new(".")))?;
        Ok(out)
    }

    /// Where the run writes its files.
    pub fn staging(&self) -> &Path {
        &self.staging
    }

    /// Make the staged book DIR's book (see the module doc): `sealed` (the finished marker)
    /// replaces the run state, then `complete`. Every book file in the staging folder must
    /// already be written and fsynced.
    pub fn commit(self, sealed: &[u8]) -> Result<()> {
        self.commit_with(sealed, |_| Ok(()))
    }

    /// `commit`, with `sealed_step` run on the staging folder once the run is sealed, before
    /// its scratch files go (`generate --library` adds the book to the library there); it must
    /// be safe to run again, as a resumed sealed run does.
    pub fn commit_with(self, sealed: &[u8], sealed_step: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
        debug_assert!(is_sealed(sealed));
        self.save_state(sealed)?;
        crash_point("sealed");
        self.complete_with(sealed_step)
    }

    /// The steps of a commit after its run was sealed; a resumed sealed run starts here. Each
    /// step may have been done before: doing it again changes nothing.
    pub fn complete(self) -> Result<()> {
        self.complete_with(|_| Ok(()))
    }

    /// `complete`, with `sealed_step` first (see `commit_with`).
    pub fn complete_with(mut self, sealed_step: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
        sealed_step(&self.staging)?;
        crash_point("library-added");
        remove_scratch(&self.staging)?;
        written::record(&self.staging, MARKER)?;
        sync_dir(&self.staging)?;
        crash_point("listed");
        let parent = self.dir.parent().unwrap_or(Path::new("/")).to_path_buf();
        let had_dir = self.dir.exists();
        let moved =
            if had_dir { exchange(&self.staging, &self.dir) } else { std::fs::rename(&self.staging, &self.dir) };
        moved.with_context(|| format!("moving the new book into {}", self.dir.display()))?;
        self.keep = true;
        crash_point("swapped");
        sync_dir(&parent)?;
        let marker = self.dir.join(MARKER);
        // Not fsynced: should a power loss bring the marker back, the next run removes it (`recover`).
        std::fs::remove_file(&marker).with_context(|| format!("removing {}", marker.display()))?;
        crash_point("unmarked");
        if had_dir {
            // The previous book (or the empty folder) now sits at the staging path.
            written::remove_ours(&self.staging)?;
        }
        crash_point("old-removed");
        Ok(())
    }
}

impl Drop for OutDir {
    /// A run that did not commit removes its staging folder (the previous book is untouched),
    /// unless it is kept for `--resume`.
    fn drop(&mut self) {
        if !self.keep && !self.keep_on_failure {
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

    const SEALED: &[u8] = br#"{"finished": {"code": 0}}"#;

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
        let out = OutDir::open(&dir, false, b"{}", false).unwrap();
        write_synced(&out.staging().join("manifest.json"), b"one").unwrap();
        write_synced(&out.staging().join(".keys"), b"scratch").unwrap();
        out.commit(SEALED).unwrap();
        assert_eq!(std::fs::read(dir.join("manifest.json")).unwrap(), b"one");
        assert_eq!(files(root.path()), [".book.lock", "book"]);
        assert_eq!(files(&dir), [written::RECORD, "manifest.json"]);

        let e = OutDir::open(&dir, false, b"{}", false).err().unwrap();
        assert!(e.downcast_ref::<UsageError>().unwrap().0.contains("--force"), "{e}");

        // With --force the old book stays until commit; a run dropped without commit leaves it.
        let out = OutDir::open(&dir, true, b"{}", false).unwrap();
        write_synced(&out.staging().join("manifest.json"), b"two").unwrap();
        assert_eq!(std::fs::read(dir.join("manifest.json")).unwrap(), b"one");
        drop(out);
        assert_eq!(std::fs::read(dir.join("manifest.json")).unwrap(), b"one");
        assert_eq!(files(root.path()), [".book.lock", "book"]);

        let out = OutDir::open(&dir, true, b"{}", false).unwrap();
        write_synced(&out.staging().join("manifest.json"), b"two").unwrap();
        out.commit(SEALED).unwrap();
        assert_eq!(std::fs::read(dir.join("manifest.json")).unwrap(), b"two");
        assert_eq!(files(root.path()), [".book.lock", "book"]);
        assert_eq!(files(&dir), [written::RECORD, "manifest.json"]);
    }

    #[test]
    fn second_run_is_refused_naming_the_holder() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("o");
        let _first = OutDir::open(&dir, false, b"{}", false).unwrap();
        let e = OutDir::open(&dir, true, b"{}", false).err().unwrap();
        let msg = e.downcast_ref::<UsageError>().unwrap().0.clone();
        assert!(msg.contains(&format!("pid {}", std::process::id())), "{msg}");
    }

    #[test]
    fn a_huge_or_hostile_lock_file_is_named_briefly() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("lock");
        std::fs::write(&path, [b"\x1b[31mpid 1 ".as_slice(), &vec![b'x'; 2 << 20]].concat()).unwrap();
        let who = holder(&mut File::open(&path).unwrap());
        assert!(who.starts_with("?[31mpid 1 x") && who.ends_with('…') && who.len() < 210, "{who}");
    }

    #[test]
    fn foreign_files_and_unfinished_runs_are_refused() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("o");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("notes.txt"), b"mine").unwrap();
        let e = OutDir::open(&dir, true, b"{}", false).err().unwrap();
        assert!(e.to_string().contains("notes.txt"), "{e}");
        std::fs::remove_file(dir.join("notes.txt")).unwrap();

        // A staging folder with the marker: an unfinished run.
        let staging = root.path().join(".o.staging");
        std::fs::create_dir(&staging).unwrap();
        std::fs::write(staging.join(MARKER), b"{}").unwrap();
        let e = OutDir::open(&dir, false, b"{}", false).err().unwrap();
        assert!(e.to_string().contains("unfinished"), "{e}");
        drop(OutDir::open(&dir, true, b"{}", false).unwrap());
        // Without the marker: a previous book left by a killed commit, removed as far as its
        // record goes; a file it does not list stays, and is named.
        std::fs::create_dir(&staging).unwrap();
        std::fs::write(staging.join("manifest.json"), b"old").unwrap();
        written::record(&staging, MARKER).unwrap();
        drop(OutDir::open(&dir, false, b"{}", false).unwrap());
        assert!(!staging.exists());
        std::fs::create_dir(&staging).unwrap();
        std::fs::write(staging.join("keep.txt"), b"mine").unwrap();
        let e = OutDir::open(&dir, false, b"{}", false).err().unwrap();
        assert!(e.to_string().contains("keep.txt"), "{e}");
        assert!(staging.join("keep.txt").exists());
    }

    #[test]
    fn planted_symbolic_links_are_refused_and_their_targets_untouched() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("precious");
        std::fs::write(&target, b"keep").unwrap();
        let dir = root.path().join("o");
        std::os::unix::fs::symlink(&target, root.path().join(".o.lock")).unwrap();
        let e = OutDir::open(&dir, false, b"{}", false).err().unwrap();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        // Dangling: its target is not created.
        std::fs::remove_file(root.path().join(".o.lock")).unwrap();
        std::os::unix::fs::symlink(root.path().join("made"), root.path().join(".o.lock")).unwrap();
        assert!(OutDir::open(&dir, false, b"{}", false).is_err());
        assert!(!root.path().join("made").exists());
        std::fs::remove_file(root.path().join(".o.lock")).unwrap();
        // A staging symlink to a folder holding a saved run: refused, never written through.
        let elsewhere = root.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::write(elsewhere.join(MARKER), b"{}").unwrap();
        std::os::unix::fs::symlink(&elsewhere, root.path().join(".o.staging")).unwrap();
        for e in [OutDir::open(&dir, true, b"{}", false).err().unwrap(), OutDir::resume(&dir).err().unwrap()] {
            assert!(e.to_string().contains("symbolic link"), "{e}");
        }
        assert_eq!(files(&elsewhere), [MARKER]);
    }
}
