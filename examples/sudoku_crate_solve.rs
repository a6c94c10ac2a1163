//! The `sudoku` crate doing what `puzzle-factory solve` does for Sudoku, for
//! scripts/compare-sudoku-crate.sh: read 81-character lines (digits, '.' or '0' for blanks; the
//! rest of the line is ignored), count solutions up to 2, print `line,solutions,solution` CSV
//! with the first solution. Whole-process timings of the two programs compare like with like.
//!
//! Usage: cargo run --release --example sudoku_crate_solve -- FILE

use std::io::{BufRead, BufWriter, Write};

fn main() {
    let path = std::env::args().nth(1).expect("usage: sudoku_crate_solve FILE");
    let file = std::io::BufReader::new(std::fs::File::open(&path).expect("readable input"));
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    writeln!(out, "line,solutions,solution").unwrap();
    let mut buf = [[0u8; 81]; 2];
    for (i, line) in file.lines().enumerate() {
        let line = line.expect("utf-8 input");
        let bytes = line.as_bytes();
        if bytes.len() < 81 || bytes[0] == b'#' {
            continue;
        }
        let mut grid = [0u8; 81];
        for (g, &c) in grid.iter_mut().zip(bytes) {
            *g = if c.is_ascii_digit() { c - b'0' } else { 0 };
        }
        let Ok(sudoku) = sudoku::Sudoku::from_bytes(grid) else { continue };
        let n = sudoku.solutions_up_to_buffer(&mut buf, 2);
        let first: String = if n > 0 { buf[0].iter().map(|d| char::from(b'0' + d)).collect() } else { String::new() };
        writeln!(out, "{},{},{}", i + 1, n, first).unwrap();
    }
}
