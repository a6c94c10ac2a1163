//! The saved state of an unfinished run: `.run.json` in the staging folder, also the marker
//! that makes the folder an unfinished run (`book::outdir`).
//!
//! It is small and explicit: the command line that defined the run and the configuration as
//! used (so `--resume` needs neither), the manifest the book will hold, and the progress at the
//! last saved chunk boundary: the next candidate, its chunk's steering level, the counts, the
//! byte length of every file the run appends to, and the statistics' counters. The files
//! themselves (the book, the run's canonical keys, the step values) are appended; a resumed run
//! cuts each back to its saved length and goes on from `next`, so what it writes is what the
//! interrupted run would have written. Once the book is complete the state is sealed
//! (`finished`): nothing is computed again, only the commit is completed. Saved with fsync and an atomic rename
//! (`OutDir::save_state`) at chunk boundaries, at most every `[run] save_every` seconds, and on SIGINT/SIGTERM.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct SavedRun {
    pub program: String,
    pub version: String,
    /// The `generate` command line that started the run, as given.
    pub argv: Vec<String>,
    /// The configuration as used (defaults merged with `--config`), TOML.
    pub config: String,
    /// What `manifest.json` will hold.
    pub manifest: serde_json::Value,
    /// None until the run's files exist (a run killed before that starts again).
    #[serde(default)]
    pub progress: Option<Progress>,
    /// Set when the run's book is complete and only its commit is left (`OutDir::commit`):
    /// `--resume` then completes the commit and exits as the run would have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<Finished>,
    /// `--library` as given (a URL with its password: this file is scratch, removed with the
    /// staging folder): the commit adds the book to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library: Option<String>,
}

/// A sealed run: what it ended with.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Finished {
    /// The run's exit code (0, or 3 when stopped short of its order).
    pub code: u8,
}

#[derive(Serialize, Deserialize, Clone, Debug, Default)]
pub struct Progress {
    /// Every candidate before `next` is in the files and counts; `next` is a chunk boundary.
    pub next: u64,
    /// The steering level of the chunk starting at `next`.
    pub steer: u8,
    /// Per grade: puzzles in the book, and made beyond the quota.
    pub emitted: [u64; 4],
    pub surplus: [u64; 4],
    /// Candidates tried per steering level.
    pub steering_levels: Vec<u64>,
    /// Per steering level and grade: puzzles made (emitted or beyond the quota).
    #[serde(default)]
    pub made: Vec<[u64; 4]>,
    /// Byte length of each book file.
    pub files: BTreeMap<String, u64>,
    /// Canonical keys emitted (in the key file).
    pub keys: u64,
    /// Byte length of each grade's step file.
    pub steps: [u64; 4],
    /// The statistics' counters (`book::Stats`).
    pub stats: serde_json::Value,
    /// Time spent so far, in earlier sessions included.
    pub seconds: f64,
    pub write_seconds: f64,
}

impl SavedRun {
    pub fn from_bytes(bytes: &[u8], shown: &str) -> Result<SavedRun, crate::config::UsageError> {
        let run: SavedRun = serde_json::from_slice(bytes).map_err(|e| {
            crate::config::UsageError(format!(
                "{shown}: the saved run cannot be read ({e}); --force discards it and starts again"
            ))
        })?;
        if run.version != env!("CARGO_PKG_VERSION") {
            return Err(crate::config::UsageError(format!(
                "{shown}: the saved run was made by puzzle-factory {}, this is {}: resume it with that version, or \
                 --force to start again",
                run.version,
                env!("CARGO_PKG_VERSION")
            )));
        }
        Ok(run)
    }
}
