//! puzzle-factory: seeded, parallel generation of uniquely solvable, strategy-graded logic
//! puzzles, written out as graded puzzle books with calibration statistics.
//!
//! Data flows one way: seed → candidate → unique? → rating → grade → book. Each stage is one
//! module that knows nothing of the stages after it.

pub mod book;
pub mod cli;
pub mod commands;
pub mod common;
pub mod config;
pub mod grade;
pub mod kinds;
pub mod pipeline;
pub mod rate;
pub mod seed;

pub use commands::run;
