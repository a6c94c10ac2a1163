//! The ordered-chunk batch driver: take a chunk of candidate indices, process them in parallel,
//! collect in index order, then hand them one by one to the sink.
//!
//! Row order and bytes therefore do not depend on the thread count, and memory holds at most
//! two chunks of results however large the run: while the sink consumes chunk k, chunk k+1 is
//! being computed (`rayon::join`), so writing does not leave the workers idle. `prepare` runs
//! on the workers too, so per-record formatting is parallel; only the sink is sequential.

use super::{process, Context, Processed};
use crate::kinds::Kind;
use rayon::prelude::*;

/// Process candidates `range` in chunks of `chunk`, calling `sink` in index order on what
/// `prepare` made of each. Stops at the first sink error.
pub fn run_ordered<K: Kind, T: Send, E: Send>(
    ctx: &Context<K>,
    range: std::ops::Range<u64>,
    chunk: usize,
    prepare: impl Fn(Processed<K>) -> T + Sync,
    mut sink: impl FnMut(T) -> Result<(), E> + Send,
) -> Result<(), E> {
    let compute = |start: u64, end: u64| -> Vec<T> {
        (start..end).into_par_iter().map(|i| prepare(process(ctx, i, None))).collect()
    };
    let step = chunk.max(1) as u64;
    let mut start = range.start;
    let mut pending: Vec<T> = Vec::new();
    loop {
        let end = range.end.min(start.saturating_add(step));
        let drain = |items: Vec<T>, sink: &mut dyn FnMut(T) -> Result<(), E>| items.into_iter().try_for_each(sink);
        if start >= range.end {
            return drain(pending, &mut sink);
        }
        let (next, written) = rayon::join(|| compute(start, end), || drain(std::mem::take(&mut pending), &mut sink));
        written?;
        pending = next;
        start = end;
    }
}
