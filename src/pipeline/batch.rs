//! The ordered-chunk batch driver: take a chunk of candidate indices, process them in parallel,
//! collect in index order, then hand them one by one to the sink.
//!
//! Row order and bytes therefore do not depend on the thread count, and memory holds at most
//! two chunks of results however large the run: while the sink consumes chunk k, chunk k+1 is
//! being computed (`rayon::join`), so writing does not leave the workers idle. `prepare` runs
//! on the workers too, so per-record formatting is parallel; only the sink is sequential.
//!
//! Positions are in this process's sequence of candidates: the run's own, or a shard's
//! (`Context::candidate`). Chunks are fixed in that space: chunk c holds candidates `c·chunk .. (c+1)·chunk`, so a
//! run resumed at a chunk boundary sees the same chunks. After the sink has taken chunk c it is
//! asked at the boundary (`Sink::boundary`) whether to go on and which steering level chunk c+2
//! gets (chunk c+1 is already being computed by then). The level of every chunk is therefore a
//! function of what the sink saw up to two chunks before, never of timing or threads.

use super::{process_steered, Context, Processed};
use crate::kinds::Kind;
use rayon::prelude::*;

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
pub fn run_chunks<K: Kind, T: Send, S: Sink<T>>(
    ctx: &Context<K>,
    start: Boundary,
    end: u64,
    chunk: usize,
    prepare: impl Fn(Processed<K>) -> T + Sync,
    sink: &mut S,
) -> Result<Ended, S::Error> {
    let compute = |from: u64, to: u64, steer: u8| -> Vec<T> {
        (from..to).into_par_iter().map(|j| prepare(process_steered(ctx, ctx.candidate(j), steer, None))).collect()
    };
    let step = chunk.max(1) as u64;
    let mut at = start;
    let mut pending: Vec<T> = Vec::new();
    loop {
        let to = end.min(at.next.saturating_add(step));
        let drain = |items: Vec<T>, sink: &mut S| items.into_iter().try_for_each(|t| sink.take(t));
        let (next, drained) = if at.next < to {
            rayon::join(|| compute(at.next, to, at.steer), || drain(std::mem::take(&mut pending), sink))
        } else {
            (Vec::new(), drain(std::mem::take(&mut pending), sink))
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
    use crate::grade::Thresholds;
    use crate::kinds::sudoku::{Sudoku, SudokuParams};
    use crate::kinds::Kind;

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
