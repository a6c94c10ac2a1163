//! puzzle-factory: seeded, parallel generation of uniquely solvable, strategy-graded logic
//! puzzles, written out as graded puzzle books with calibration statistics.
//!
//! Data flows one way: seed → candidate → unique? → rating → grade → book. Each stage is one
//! module that knows nothing of the stages after it.

// Grid code indexes cells by number (`for c in 0..81`), as the rules are written.
#![allow(clippy::needless_range_loop)]

pub mod book;
pub mod cli;
pub mod commands;
pub mod common;
pub mod config;
pub mod grade;
pub mod kinds;
pub mod library;
pub mod pipeline;
pub mod print;
pub mod rate;
pub mod seed;

pub use commands::run;
