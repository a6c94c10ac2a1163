//! The integration tests, one binary: the real `puzzle-factory` executable and the library
//! against reference data. One binary rather than one per file: each would link the whole
//! crate again (thin LTO in release), and the files' tests then share both cores.
//! Run one file's tests with its module name: `cargo test --release --test suite golden::`.

mod common;

mod book;
mod book_plan;
mod cli_books;
mod cli_finish;
mod cli_inputs;
mod cli_order;
mod cli_outdir;
mod cli_shard;
mod cli_sudoku;
mod conformance;
mod constraints;
mod family;
mod fuzz;
mod golden;
mod kakuro;
mod kenken;
mod library;
mod library_pg;
mod paths;
mod sudoku_engines;
mod sudoku_solver;
