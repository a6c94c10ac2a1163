//! The core of puzzle-factory: what every kind and every stage shares.
//!
//! - `kind`: the `Kind` trait a puzzle kind implements, and the flags it declares;
//! - `rate`: the rating ladder (techniques, levels, steps, paths);
//! - `common`: digit sets, Latin squares, cages, canonical forms, JSON helpers;
//! - `grade`: grades and thresholds; `seed`: the seeds every candidate is made from;
//! - `draw`: the drawing primitives kinds draw their grids with.
//!
//! Rule: this crate depends on none of ours. Everything else depends on it.

// Grid code indexes cells by number (`for c in 0..81`), as the rules are written.
#![allow(clippy::needless_range_loop)]

pub mod common;
pub mod data;
pub mod draw;
pub mod grade;
pub mod kind;
pub mod rate;
pub mod rules;
pub mod seed;
