//! The ordered-chunk batch driver: take a chunk of candidate indices, process them in parallel,
//! collect in index order, then hand them one by one to the sink on the calling thread.
//!
//! Row order and bytes therefore do not depend on the thread count, and memory holds at most
//! one chunk of results however large the run.

use super::{process, Context, Processed};
use crate::kinds::Kind;
use rayon::prelude::*;

/// Process candidates `range` in chunks of `chunk`, calling `sink` in index order. Stops at the
/// first sink error.
pub fn run_ordered<K: Kind, E>(
    ctx: &Context<K>,
    range: std::ops::Range<u64>,
    chunk: usize,
    mut sink: impl FnMut(Processed<K>) -> Result<(), E>,
) -> Result<(), E> {
    let mut start = range.start;
    while start < range.end {
        let end = range.end.min(start + chunk as u64);
        let results: Vec<Processed<K>> = (start..end).into_par_iter().map(|i| process(ctx, i, None)).collect();
        for r in results {
            sink(r)?;
        }
        start = end;
    }
    Ok(())
}
