//! puzzle-factory: seeded, parallel generation of uniquely solvable, strategy-graded logic
//! puzzles, written out as graded puzzle books with calibration statistics.
//!
//! This crate is the binary's: the command line (`cli`, the only place clap is used), the
//! commands, the registry of kinds (`kinds`) and the puzzle library (`library`). The rest is in
//! the workspace's crates, each depending one way, as Cargo enforces:
//!
//! ```text
//! pf-core  <-  pf-sudoku, pf-kenken, pf-kakuro  (kinds)
//!          <-  pf-engine                        (pipeline, config, books)
//!          <-  pf-print                         (layout, PDF)
//! puzzle-factory (this crate) <- all of them
//! ```
//!
//! The modules re-exported below keep one set of paths for the commands, the tests and the
//! benches (`puzzle_factory::book::Record`, `puzzle_factory::kinds::sudoku::Sudoku`).

#![allow(clippy::needless_range_loop)]

pub mod cli;
pub mod commands;
pub mod kinds;
pub mod library;

pub use pf_core::{common, data, grade, rate, rules, seed};
pub use pf_engine::{book, config, pipeline};
pub use pf_print as print;

pub use commands::run;
