//! KenKen benches: the solution counter on generated 6×6 and 9×9 puzzles, rating, generation,
//! and the whole graded pipeline per candidate.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use puzzle_factory::grade::Thresholds;
use puzzle_factory::kinds::kenken::generate::generate;
use puzzle_factory::kinds::kenken::solve::count_solutions;
use puzzle_factory::kinds::kenken::{KenKenKind, KenKenParams};
use puzzle_factory::kinds::Kind;
use puzzle_factory::pipeline::{process, Context};
use rand::SeedableRng;

fn kenken(c: &mut Criterion) {
    for size in [6u8, 9] {
        let params = KenKenParams { size, ..KenKenParams::default() };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        let sample: Vec<_> = (0..100).map(|_| generate(&params, &mut rng).unwrap()).collect();
        let mut group = c.benchmark_group(format!("kenken{size}"));
        group.throughput(Throughput::Elements(1));
        group.sample_size(20);
        let mut i = 0;
        group.bench_function("count_to_2", |b| {
            b.iter(|| {
                i = (i + 1) % sample.len();
                count_solutions(&sample[i].puzzle, 2).count
            })
        });
        group.bench_function("rate", |b| {
            b.iter(|| {
                i = (i + 1) % sample.len();
                KenKenKind::rate(&sample[i].puzzle, &sample[i].solution, None).rating.steps
            })
        });
        group.bench_function("generate", |b| b.iter(|| generate(&params, &mut rng).unwrap().repairs));
        let ctx = Context::<KenKenKind>::new(1, params.clone(), Thresholds::new(150.0, 300.0, 600.0).unwrap());
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

criterion_group!(benches, kenken);
criterion_main!(benches);
