//! KenKen benches: the solution counter on generated 6×6, 9×9 and 12×12 puzzles, rating,
//! generation, and the whole graded pipeline per candidate (12×12: where the counter once fell
//! off a cliff, issue 15).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use puzzle_factory::grade::Thresholds;
use puzzle_factory::kinds::kenken::generate::generate;
use puzzle_factory::kinds::kenken::solve::count_solutions;
use puzzle_factory::kinds::kenken::{KenKenKind, KenKenParams};
use puzzle_factory::kinds::Kind;
use puzzle_factory::pipeline::{process, Context};
use rand::SeedableRng;

fn kenken(c: &mut Criterion) {
    for size in [6u8, 9, 12] {
        let params = KenKenParams { size, ..KenKenParams::default() };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        // Candidates the generator rejects (undecided at 12×12) are not in the sample.
        let sample: Vec<_> = (0..100).filter_map(|_| generate(&params, &mut rng).ok()).collect();
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
        group.bench_function("generate", |b| b.iter(|| generate(&params, &mut rng).map_or(0, |g| g.repairs)));
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
