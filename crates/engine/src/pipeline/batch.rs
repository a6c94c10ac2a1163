//! The ordered-chunk batch driver: take a chunk of candidate indices, process them in parallel,
//! collect in index order, then hand them one by one to the sink.
//!
//! Row order and bytes therefore do not depend on the thread count, and memory holds at most
//! two chunks of results however large the run: while the sink consumes chunk k, chunk k+1 is
//! being computed (`rayon::join`), so writing does not leave the workers idle. `prepare` runs
//! on the workers too, so per-record formatting is parallel; only the sink is sequential.
//!
//! Positions are in this process's sequence of candidates: the run's own, or a shard's
//! (`Context::candidate`). Chunk boundaries are fixed in that space (`next_boundary`): every
//! multiple of `chunk`, and before the first one the halvings `chunk/2, chunk/4, …` down to
//! `MIN_CHUNK`, so a short run (a small quota of a slow kind) does not wait for a whole chunk
//! it does not need, and a run resumed at a boundary sees the same chunks. After the sink has
//! taken a chunk it is asked at the boundary (`Sink::boundary`) whether to go on and which
//! steering level the chunk after next gets (the next one is already being computed by then).
//! The level of every chunk is therefore a function of what the sink saw up to two chunks
//! before, never of timing or threads.
//!
//! Work on a chunk that will be dropped is given up early (`Sink::abandon`): once the sink is
//! done (its quotas met), a signal came or the time limit passed, the workers skip the
//! candidates they have not started. Such a chunk is never handed to the sink — each of those
//! conditions makes the next boundary stop — so the output does not depend on it; a time
//! limit or Ctrl-C is obeyed within a candidate or so instead of up to two chunks.

use super::{process_steered, Context, Processed};
use pf_core::kind::Kind;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The smallest chunk of the halvings before the first full chunk.
pub const MIN_CHUNK: u64 = 32;

/// The boundary after `next` for chunks of `chunk` candidates: the next multiple of `chunk`,
/// or before the first, the smallest halving `chunk >> k` above `next` that is at least
/// `MIN_CHUNK` (0, 32, 64, …, chunk/2, chunk, 2·chunk, … for a power of two).
pub fn next_boundary(next: u64, chunk: u64) -> u64 {
    let chunk = chunk.max(1);
    if next >= chunk {
        return (next / chunk + 1) * chunk;
    }
    let mut b = chunk;
    while b / 2 > next && b / 2 >= MIN_CHUNK {
        b /= 2;
    }
    b
}

/// When the workers give up the candidates they have not started: a flag that is set once and
/// stays set (a signal), and a deadline.
#[derive(Clone, Default)]
pub struct Abandon {
    pub flag: Option<Arc<AtomicBool>>,
    pub deadline: Option<Instant>,
}

impl Abandon {
    fn now(&self) -> bool {
        self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Where the driver is at a chunk boundary: every candidate before `next` has gone to the
/// sink; the chunk starting at `next` runs at steering level `steer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boundary {
    pub next: u64,
    pub steer: u8,
}

/// What the sink says at a boundary.
pub enum Flow {
    /// Go on; the chunk after the one starting at `next` runs at this steering level.
    Continue { steer_after: u8 },
    /// Stop here: the chunk in flight is dropped.
    Stop,
}

/// The sequential end of the driver.
pub trait Sink<T>: Send {
    type Error: Send;
    /// One processed candidate, in index order.
    fn take(&mut self, item: T) -> Result<(), Self::Error>;
    /// A chunk boundary (also once before the first chunk, and after the last one).
    fn boundary(&mut self, at: Boundary) -> Result<Flow, Self::Error>;
    /// Whether the sink will take no more candidates (its next boundary stops the run).
    fn done(&self) -> bool {
        false
    }
    /// The conditions under which the next boundary will stop the run whatever the sink has
    /// taken (monotone: once true, they stay true), so work in flight can be given up.
    fn abandon(&self) -> Abandon {
        Abandon::default()
    }
}

/// How the run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every candidate of the range went to the sink.
    Range,
    /// The sink stopped it at this boundary.
    Stopped(Boundary),
}

/// Process candidates `start.next .. end` in chunks of `chunk` (`start.next` must be a chunk
/// boundary, `start.steer` the level of its chunk), calling the sink in index order on what
/// `prepare` made of each. Stops at the first sink error.
///
/// The sink drains a chunk while the workers compute the next (`rayon::join`, the drain first:
/// on one thread it runs before the computation, which it may then cancel).
pub fn run_chunks<K: Kind, T: Send, S: Sink<T>>(
    ctx: &Context<K>,
    start: Boundary,
    end: u64,
    chunk: usize,
    prepare: impl Fn(Processed<K>) -> T + Sync,
    sink: &mut S,
) -> Result<Ended, S::Error> {
    let abandon = sink.abandon();
    let cancel = AtomicBool::new(false);
    let compute = |from: u64, to: u64, steer: u8| -> Vec<Option<T>> {
        (from..to)
            .into_par_iter()
            .map(|j| {
                if cancel.load(Ordering::Relaxed) || abandon.now() {
                    return None;
                }
                Some(prepare(process_steered(ctx, ctx.candidate(j), steer, None)))
            })
            .collect()
    };
    let mut at = start;
    let mut pending: Vec<Option<T>> = Vec::new();
    loop {
        let to = end.min(next_boundary(at.next, chunk as u64));
        // A None was given up under a condition that stops the run at this boundary; the sink
        // never gets past it.
        let drain = |items: Vec<Option<T>>, sink: &mut S| -> Result<(), S::Error> {
            for t in items.into_iter().map_while(|t| t) {
                sink.take(t)?;
                if sink.done() {
                    cancel.store(true, Ordering::Relaxed);
                    break;
                }
            }
            Ok(())
        };
        let (drained, next) = if at.next < to {
            rayon::join(|| drain(std::mem::take(&mut pending), sink), || compute(at.next, to, at.steer))
        } else {
            (drain(std::mem::take(&mut pending), sink), Vec::new())
        };
        drained?;
        let steer_after = match sink.boundary(at)? {
            Flow::Stop => return Ok(Ended::Stopped(at)),
            Flow::Continue { steer_after } => steer_after,
        };
        if at.next >= to {
            return Ok(Ended::Range);
        }
        pending = next;
        at = Boundary { next: to, steer: steer_after };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf_core::grade::Thresholds;
    use pf_core::kind::Kind;
    use pf_sudoku::{Sudoku, SudokuParams};

    /// Records what it sees; steers chunk c+2 to level (candidates seen) % (levels + 1) and
    /// stops at `stop_at` if given.
    struct Probe {
        seen: Vec<(u64, u8)>,
        boundaries: Vec<Boundary>,
        stop_at: Option<u64>,
    }

    impl Sink<(u64, u8)> for Probe {
        type Error = ();
        fn take(&mut self, item: (u64, u8)) -> Result<(), ()> {
            self.seen.push(item);
            Ok(())
        }
        fn boundary(&mut self, at: Boundary) -> Result<Flow, ()> {
            self.boundaries.push(at);
            if Some(at.next) == self.stop_at {
                return Ok(Flow::Stop);
            }
            Ok(Flow::Continue { steer_after: (self.seen.len() % (Sudoku::STEER_LEVELS as usize + 1)) as u8 })
        }
    }

    fn run(start: Boundary, end: u64, stop_at: Option<u64>, threads: usize) -> Probe {
        run_with(Probe { seen: vec![], boundaries: vec![], stop_at }, start, end, threads)
    }

    fn run_with(mut probe: Probe, start: Boundary, end: u64, threads: usize) -> Probe {
        let ctx = Context::<Sudoku>::new(1, SudokuParams::default(), Thresholds::new(1.0, 2.0, 3.0).unwrap());
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| run_chunks(&ctx, start, end, 4, |p| (p.index, p.steer), &mut probe)).unwrap();
        probe
    }

    #[test]
    fn chunks_in_order_with_steering_two_chunks_behind_and_a_resume_that_matches() {
        let whole = run(Boundary { next: 0, steer: 0 }, 22, None, 2);
        let indices: Vec<u64> = whole.seen.iter().map(|s| s.0).collect();
        assert_eq!(indices, (0..22).collect::<Vec<_>>());
        // Level of chunk c+2 = candidates seen at the boundary after chunk c, mod (levels + 1).
        let levels: Vec<u8> = whole.seen.iter().step_by(4).map(|s| s.1).collect();
        let m = Sudoku::STEER_LEVELS as u64 + 1;
        let expected: Vec<u8> = [0, 0, 4, 8, 12, 16].iter().map(|n| (n % m) as u8).collect();
        assert_eq!(levels, expected);
        assert_eq!(whole.boundaries.first(), Some(&Boundary { next: 0, steer: 0 }));
        assert_eq!(whole.boundaries.last().map(|b| b.next), Some(22));
        assert_eq!(whole, run(Boundary { next: 0, steer: 0 }, 22, None, 1));

        // Stop at a boundary, resume from it with the saved level: the same candidates follow.
        let first = run(Boundary { next: 0, steer: 0 }, 22, Some(12), 2);
        assert_eq!(first.seen, whole.seen[..12]);
        let b = *first.boundaries.last().unwrap();
        assert_eq!(b, Boundary { next: 12, steer: whole.seen[12].1 });
        // The resumed sink starts from what the first one saw, as a real run's saved state does.
        let rest = run_with(Probe { seen: first.seen.clone(), boundaries: vec![], stop_at: None }, b, 22, 1);
        assert_eq!(rest.seen, whole.seen);
    }

    #[test]
    fn boundaries_halve_before_the_first_chunk() {
        let walk = |chunk: u64, end: u64| {
            let mut at = vec![0];
            while *at.last().unwrap() < end {
                at.push(next_boundary(*at.last().unwrap(), chunk));
            }
            at
        };
        assert_eq!(walk(2048, 6144), [0, 32, 64, 128, 256, 512, 1024, 2048, 4096, 6144]);
        assert_eq!(walk(1000, 3000), [0, 62, 125, 250, 500, 1000, 2000, 3000]);
        assert_eq!(walk(4, 12), [0, 4, 8, 12]);
        assert_eq!(walk(1, 3), [0, 1, 2, 3]);
        // Every multiple of the chunk stays a boundary (runs saved there resume there).
        assert_eq!(next_boundary(1024, 2048), 2048);
        assert_eq!(next_boundary(2047, 2048), 2048);
        assert_eq!(next_boundary(2048, 2048), 4096);
    }

    /// Takes `n` candidates, then is done; a second sink's flag may be set from outside.
    struct Quota {
        seen: Vec<u64>,
        n: usize,
        boundaries: usize,
        flag: Arc<AtomicBool>,
    }

    impl Sink<u64> for Quota {
        type Error = ();
        fn take(&mut self, item: u64) -> Result<(), ()> {
            assert!(self.seen.len() < self.n, "a candidate after the sink was done");
            self.seen.push(item);
            Ok(())
        }
        fn boundary(&mut self, _: Boundary) -> Result<Flow, ()> {
            self.boundaries += 1;
            if self.done() || self.flag.load(Ordering::SeqCst) {
                return Ok(Flow::Stop);
            }
            Ok(Flow::Continue { steer_after: 0 })
        }
        fn done(&self) -> bool {
            self.seen.len() >= self.n
        }
        fn abandon(&self) -> Abandon {
            Abandon { flag: Some(self.flag.clone()), deadline: None }
        }
    }

    #[test]
    fn a_done_sink_stops_inside_its_chunk_and_a_set_flag_abandons_the_run() {
        let ctx = Context::<Sudoku>::new(1, SudokuParams::default(), Thresholds::new(1.0, 2.0, 3.0).unwrap());
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut q = Quota { seen: vec![], n: 5, boundaries: 0, flag: Arc::new(AtomicBool::new(false)) };
            let ended = pool.install(|| run_chunks(&ctx, Boundary { next: 0, steer: 0 }, 1000, 8, |p| p.index, &mut q));
            assert_eq!(q.seen, [0, 1, 2, 3, 4]);
            assert!(matches!(ended, Ok(Ended::Stopped(Boundary { next: 8, .. }))));
            // The flag set before the run: nothing is computed, nothing reaches the sink.
            let mut q = Quota { seen: vec![], n: 5, boundaries: 0, flag: Arc::new(AtomicBool::new(true)) };
            let ended = pool.install(|| run_chunks(&ctx, Boundary { next: 0, steer: 0 }, 1000, 8, |p| p.index, &mut q));
            assert!(q.seen.is_empty());
            assert!(matches!(ended, Ok(Ended::Stopped(Boundary { next: 0, .. }))));
        }
    }

    impl PartialEq for Probe {
        fn eq(&self, o: &Probe) -> bool {
            self.seen == o.seen && self.boundaries == o.boundaries
        }
    }
    impl std::fmt::Debug for Probe {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{:?} {:?}", self.seen, self.boundaries)
        }
    }
}
