//! Sudoku benches: the uniqueness counter (ours vs the `sudoku` crate's
//! `solutions_count_up_to(2)` on the same puzzles), generation, rating, the canonical key, and
//! the whole graded pipeline per candidate. Reference puzzles come from ../shared/data (or $PUZZLE_FACTORY_DATA).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use puzzle_factory::grade::Thresholds;
use puzzle_factory::kinds::sudoku::canonical::canonical_key;
use puzzle_factory::kinds::sudoku::generate::{generate, Symmetry};
use puzzle_factory::kinds::sudoku::solve::count_only;
use puzzle_factory::kinds::sudoku::{Sudoku, SudokuParams};
use puzzle_factory::kinds::Kind;
use puzzle_factory::pipeline::{process, Context};
use rand::SeedableRng;
use std::path::PathBuf;

fn data(rel: &str) -> Vec<[u8; 81]> {
    let dir = std::env::var_os("PUZZLE_FACTORY_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    // The hardest database opens with 2 header lines; its puzzles are the first 81 characters.
    let skip = if rel.ends_with("HardestDatabase110626.txt") { 2 } else { 0 };
    std::fs::read_to_string(dir.join(rel))
        .expect("reference data")
        .lines()
        .skip(skip)
        .map(|l| {
            let mut g = [0u8; 81];
            for (i, c) in l.bytes().take(81).enumerate() {
                g[i] = if c.is_ascii_digit() { c - b'0' } else { 0 };
            }
            g
        })
        .collect()
}

fn solver(c: &mut Criterion) {
    for file in ["sudoku/top1465.txt", "sudoku/sudoku17_first10000.txt", "sudoku/HardestDatabase110626.txt"] {
        let puzzles = data(file);
        let theirs: Vec<sudoku::Sudoku> = puzzles.iter().map(|g| sudoku::Sudoku::from_bytes(*g).unwrap()).collect();
        let mut group = c.benchmark_group(format!("count_to_2/{}", file.trim_start_matches("sudoku/")));
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.sample_size(20);
        group.bench_function("ours", |b| b.iter(|| puzzles.iter().map(|p| count_only(black_box(p), 2)).sum::<usize>()));
        group.bench_function("sudoku_crate", |b| {
            b.iter(|| theirs.iter().map(|s| black_box(*s).solutions_count_up_to(2)).sum::<usize>())
        });
        group.finish();
    }
}

fn pipeline(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku");
    group.throughput(Throughput::Elements(1));
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
    group.bench_function("generate", |b| b.iter(|| generate(Symmetry::Rotate180, &mut rng).unwrap()));
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2);
    let sample: Vec<_> = (0..500).map(|_| generate(Symmetry::Rotate180, &mut rng).unwrap()).collect();
    let mut i = 0;
    group.bench_function("rate_generated", |b| {
        b.iter(|| {
            i = (i + 1) % sample.len();
            Sudoku::rate(&sample[i].0, &sample[i].1, None).rating.steps
        })
    });
    let mut j = 0;
    group.bench_function("canonical_key", |b| {
        b.iter(|| {
            j = (j + 1) % sample.len();
            canonical_key(black_box(&sample[j].0), &sample[j].1)
        })
    });
    let ctx = Context::<Sudoku>::new(1, SudokuParams::default(), Thresholds::new(78.69, 231.93, 364.19).unwrap());
    let mut index = 0u64;
    group.bench_function("graded_candidate", |b| {
        b.iter(|| {
            index += 1;
            process(&ctx, index, None).outcome.is_ok()
        })
    });
    group.finish();
}

criterion_group!(benches, solver, pipeline);
criterion_main!(benches);
