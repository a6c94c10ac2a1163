//! The Sudoku rater's scan caches: subset results per house and fish results per digit, kept
//! while the part of the position they were made for is unchanged, and handed from one rated
//! position to the next on a thread.

use super::geometry::Cells;
use super::step::Step;
use pf_core::rate::Tally;

/// One scan's result over part of the position (a house for a subset technique, a digit for a
/// fish size), and the key of that part's state it was made for (the house's `house_gen`, the
/// digit's places): valid while the key has not changed.
#[derive(Clone, Copy)]
pub(super) struct Kept<K> {
    pub(super) key: Option<K>,
    situations: u32,
    successes: u32,
    first: Option<Step>,
}

impl<K: Copy + PartialEq> Kept<K> {
    const NONE: Kept<K> = Kept { key: None, situations: 0, successes: 0, first: None };

    /// Add this part's result to `t`, scanning it again with `scan` first if its state is no
    /// longer `key`.
    pub(super) fn record(&mut self, key: K, t: &mut Tally<Step>, scan: impl FnOnce(&mut Tally<Step>)) {
        if self.key != Some(key) {
            let mut part = Tally::default();
            scan(&mut part);
            *self = Kept { key: Some(key), situations: part.situations, successes: part.successes, first: part.first };
        }
        t.record_many(self.situations, self.successes, || self.first);
    }
}

/// Per-digit results of the three fish sizes (2, 3, 4 base lines). Both caches are made on
/// the heap row by row: a whole array built on the stack and then boxed was copied (10 KB
/// per rated puzzle for the subset results).
#[derive(Clone)]
pub struct FishCache(pub(super) Box<[[Kept<Cells>; 9]]>);

impl FishCache {
    /// A cache from this thread's spare (`Spare`), else a new one. Entries left from another
    /// position need no clearing: a fish result depends on its digit's places alone, which are
    /// its key.
    pub(super) fn take() -> FishCache {
        SPARE
            .with_borrow_mut(|s| s.fish.take())
            .unwrap_or_else(|| FishCache(vec![[Kept::NONE; 9]; 3].into_boxed_slice()))
    }
}

/// Per-house results of the six subset techniques (naked, then hidden; 2, 3, 4 cells).
#[derive(Clone)]
pub struct SubsetCache(pub(super) Box<[[Kept<u32>; 27]]>);

impl SubsetCache {
    /// A cache from this thread's spare (`Spare`), its keys cleared (they count a position's
    /// changes, so another position's would mislead), else a new one.
    pub(super) fn take() -> SubsetCache {
        match SPARE.with_borrow_mut(|s| s.subsets.take()) {
            Some(mut c) => {
                for kept in c.0.iter_mut().flatten() {
                    kept.key = None;
                }
                c
            }
            None => SubsetCache(vec![[Kept::NONE; 27]; 6].into_boxed_slice()),
        }
    }
}

/// The caches of the last position rated on this thread, handed to the next one when it first
/// needs them (`give_back`, from `Position`'s `drop`): made anew for every rating, their 12 KB were allocated,
/// filled and freed per puzzle, 2-3% of a generation run's time (perf).
#[derive(Default)]
struct Spare {
    subsets: Option<SubsetCache>,
    fish: Option<FishCache>,
}

thread_local! {
    static SPARE: std::cell::RefCell<Spare> = std::cell::RefCell::new(Spare::default());
}

/// A dropped position's caches, kept for the next one rated on this thread.
pub(super) fn give_back(subsets: Option<SubsetCache>, fish: Option<FishCache>) {
    if subsets.is_some() || fish.is_some() {
        // `try_with`: a position dropped while the thread exits just frees its caches.
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                s.subsets = s.subsets.take().or(subsets);
                s.fish = s.fish.take().or(fish);
            }
        });
    }
}
