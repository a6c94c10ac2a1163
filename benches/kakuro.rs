//! Kakuro benches: the solution counter on generated 8×10, 15×15 and 20×20 puzzles, rating,
//! generation, and the whole graded pipeline per candidate (a rejected candidate costs its time
//! too; scripts/kakuro-speed.sh reports accepted puzzles per second).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use puzzle_factory::grade::Thresholds;
use puzzle_factory::kinds::kakuro::generate::generate;
use puzzle_factory::kinds::kakuro::solve::{count_solutions, Layout};
use puzzle_factory::kinds::kakuro::{KakuroKind, KakuroParams};
use puzzle_factory::kinds::Kind;
use puzzle_factory::pipeline::{process, Context};
use rand::SeedableRng;

fn kakuro(c: &mut Criterion) {
    for (rows, cols, n) in [(8u16, 10u16, 200), (15, 15, 20), (20, 20, 6)] {
        let params = KakuroParams { rows, cols, ..KakuroParams::default() };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        let sample: Vec<_> = std::iter::from_fn(|| Some(generate(&params, &mut rng))).flatten().take(n).collect();
        let layouts: Vec<Layout> = sample.iter().map(|g| Layout::new(&g.puzzle).unwrap()).collect();
        let mut group = c.benchmark_group(format!("kakuro{rows}x{cols}"));
        group.throughput(Throughput::Elements(1));
        group.sample_size(if rows > 10 { 10 } else { 20 });
        let mut i = 0;
        group.bench_function("count_to_2", |b| {
            b.iter(|| {
                i = (i + 1) % layouts.len();
                count_solutions(&layouts[i], 2).count
            })
        });
        group.bench_function("rate", |b| {
            b.iter(|| {
                i = (i + 1) % sample.len();
                KakuroKind::rate(&sample[i].puzzle, &sample[i].solution, None).rating.steps
            })
        });
        let ctx = Context::<KakuroKind>::new(1, params.clone(), Thresholds::new(100.0, 200.0, 400.0).unwrap());
        let mut index = 0u64;
        group.bench_function("graded_candidate", |b| {
            b.iter(|| {
                index += 1;
                process(&ctx, index, None).outcome.is_ok()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, kakuro);
criterion_main!(benches);
