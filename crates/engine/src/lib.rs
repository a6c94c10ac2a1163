//! The engine of puzzle-factory: seed → candidate → unique? → rating → grade → book, for any
//! `K: Kind`.
//!
//! - `pipeline`: candidates made, checked, rated and graded in parallel, with orders and shards;
//! - `config`: a run's configuration (the kind's built-in TOML with the user's over it);
//! - `book`: book records, writers, run folders, calibration statistics and reports.
//!
//! Rule: depends on the core only. It knows no kind by name (its tests use the kind crates),
//! and no command line: the binary parses arguments and calls in. Data flows one way: each
//! stage knows nothing of the stages after it.

#![allow(clippy::needless_range_loop)]

pub mod book;
pub mod config;
pub mod pipeline;
