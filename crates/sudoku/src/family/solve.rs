//! The family's counter: candidates as bit masks per cell, propagated by naked singles, hidden
//! singles over every house, on killer boards cage combinations (a cell keeps only digits
//! of some digit set that reaches the cage's sum, fits its cells and holds its placed digits),
//! and intersections (pointing and claiming, `intersections`); then branch on a cell with the
//! fewest candidates. Intersections cost a little per node and save many nodes on 16×16 and
//! up (16×16 generation: 60 ms → 22 ms per puzzle with them).
//!
//! Used for uniqueness (count to 2), for filling random grids (digits tried in a random order)
//! and for `solve`. The search stops after `budget` nodes and says so (`undecided`): no input
//! runs for minutes. A plain backtracker in the tests checks it.

use super::shape::{full, HouseKind, Mask, Shape, MAX_N};
use rand::seq::SliceRandom;
use rand::Rng;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The digit sets of `k` distinct digits from 1..=n that add up to `sum`, as masks.
pub fn cage_sets(n: usize, k: usize, sum: u32) -> std::sync::Arc<Vec<Mask>> {
    type Table = HashMap<(usize, usize, u32), std::sync::Arc<Vec<Mask>>>;
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    let table = TABLE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(v) = table.lock().expect("cage table").get(&(n, k, sum)) {
        return v.clone();
    }
    let mut out = Vec::new();
    // Depth-first over digits in increasing order, pruned by what is still reachable.
    fn walk(n: u32, k: u32, sum: u32, from: u32, mask: Mask, out: &mut Vec<Mask>) {
        if k == 0 {
            if sum == 0 {
                out.push(mask);
            }
            return;
        }
        for d in from..=n {
            // The smallest the remaining k digits can add is d + (d+1) + … .
            let min = k * d + k * (k - 1) / 2;
            if min > sum {
                break;
            }
            let max = k * n - k * (k - 1) / 2;
            if max < sum {
                return;
            }
            walk(n, k - 1, sum - d, d + 1, mask | 1 << d, out);
        }
    }
    walk(n as u32, k as u32, sum, 1, 0, &mut out);
    let v = std::sync::Arc::new(out);
    table.lock().expect("cage table").insert((n, k, sum), v.clone());
    v
}

/// The sums the search keeps, with their digit sets: the board's cages (same indices), then,
/// on killer boards, the innies of each house: a house's cells outside the cages lying wholly in
/// it add up to the house's total less those cages' sums, and being in one house they hold
/// distinct digits, so they make one more cage for the search (not for the rater, whose 45 rule
/// is a technique of its own). Only innies with few digit sets (at most `MAX_SETS`): a large
/// set list costs more per look than it prunes.
type SumList = (Vec<Vec<u16>>, Vec<std::sync::Arc<Vec<Mask>>>);

fn sums(shape: &Shape) -> SumList {
    const MAX_SETS: usize = 24;
    let n = shape.n;
    let mut cells: Vec<Vec<u16>> = shape.cages.iter().map(|c| c.cells.clone()).collect();
    let mut sets: Vec<_> = shape.cages.iter().map(|c| cage_sets(n, c.cells.len(), c.sum)).collect();
    if shape.cages.is_empty() {
        return (cells, sets);
    }
    // The board's 45-rule table holds every house but the diagonals, in order.
    let tables = shape.rule45();
    let mut singles = tables[0].iter();
    for h in 0..shape.houses.len() {
        let own;
        let rule = if shape.house_kind[h] == super::shape::HouseKind::Diagonal {
            own = super::shape::rule45_of(shape, vec![h]);
            &own
        } else {
            singles.next().expect("a 45-rule entry per house")
        };
        debug_assert_eq!(rule.houses, [h]);
        // Negative: the cages inside add up to more than the house (no solution anyway).
        let Some((innies, total)) = rule.sides[0].as_ref().filter(|(_, t)| *t >= 0) else { continue };
        let mut left: Vec<u16> = innies.iter().map(|&c| c as u16).collect();
        left.sort_unstable();
        if left.len() == shape.houses[h].len() || cells.contains(&left) {
            continue;
        }
        let s = cage_sets(n, left.len(), *total as u32);
        if s.len() <= MAX_SETS {
            cells.push(left);
            sets.push(s);
        }
    }
    (cells, sets)
}

/// Sums over cells that may repeat digits, for the search only (killer boards): the 45 rule's
/// outies of single houses and innies and outies of the groups of houses the rater's
/// `innies_outies_multi` looks at (`super::shape::rule45_tables`), up to `MAX_CELLS` cells;
/// bounds propagation (`Solver::bound`).
fn bounds(shape: &Shape) -> Vec<(Vec<u16>, i64)> {
    const MAX_CELLS: usize = 5;
    if shape.cages.is_empty() {
        return Vec::new();
    }
    let tables = shape.rule45();
    let [singles, multi] = &*tables;
    let outies = singles.iter().filter_map(|g| g.sides[1].as_ref());
    let both = multi.iter().flat_map(|g| g.sides.iter().flatten());
    let mut out: Vec<(Vec<u16>, i64)> = Vec::new();
    for (cells, sum) in outies.chain(both) {
        if cells.len() > MAX_CELLS {
            continue;
        }
        let mut cells: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
        cells.sort_unstable();
        if !out.iter().any(|(c, _)| *c == cells) {
            out.push((cells, *sum));
        }
    }
    out
}

/// What a count found.
#[derive(Clone, Debug)]
pub struct Count {
    /// Solutions found, at most the limit.
    pub count: usize,
    pub first: Option<Vec<u8>>,
    /// The budget ran out before the count was decided.
    pub undecided: bool,
    pub nodes: u64,
}

/// What propagation still has to look at: cells that became single, houses whose cells changed
/// (once for hidden singles, once for intersections, which run only when nothing cheaper is
/// left) and cages whose cells changed.
struct Work {
    singles: Vec<u16>,
    houses: Vec<u16>,
    house_dirty: Vec<bool>,
    inters: Vec<u16>,
    inter_dirty: Vec<bool>,
    cages: Vec<u16>,
    cage_dirty: Vec<bool>,
}

impl Work {
    fn new(shape: &Shape, cages: usize) -> Work {
        Work {
            singles: Vec::with_capacity(shape.cells()),
            houses: Vec::with_capacity(shape.houses.len()),
            house_dirty: vec![false; shape.houses.len()],
            inters: Vec::with_capacity(shape.houses.len()),
            inter_dirty: vec![false; shape.houses.len()],
            cages: Vec::with_capacity(cages),
            cage_dirty: vec![false; cages],
        }
    }
    /// Forget what a propagation that hit a contradiction left behind.
    fn clear(&mut self) {
        self.singles.clear();
        for h in self.houses.drain(..) {
            self.house_dirty[h as usize] = false;
        }
        for h in self.inters.drain(..) {
            self.inter_dirty[h as usize] = false;
        }
        for k in self.cages.drain(..) {
            self.cage_dirty[k as usize] = false;
        }
    }
    fn all_dirty(&mut self, shape: &Shape) {
        (0..shape.houses.len()).for_each(|h| self.dirty_house(h));
        (0..self.cage_dirty.len()).for_each(|k| self.dirty_cage(k));
    }
    #[inline]
    fn dirty_house(&mut self, h: usize) {
        if !self.house_dirty[h] {
            self.house_dirty[h] = true;
            self.houses.push(h as u16);
        }
        if !self.inter_dirty[h] {
            self.inter_dirty[h] = true;
            self.inters.push(h as u16);
        }
    }
    #[inline]
    fn dirty_cage(&mut self, k: usize) {
        if !self.cage_dirty[k] {
            self.cage_dirty[k] = true;
            self.cages.push(k as u16);
        }
    }
}

/// A house cut by another house: the cells they share, and the other house's remaining cells
/// (empty when the cut has no other house or one cell, where singles already do the work).
struct Cut {
    cells: Vec<u16>,
    rest: Vec<u16>,
}

/// The intersections (pointing and claiming) of every house: per house, partitions of its
/// cells into cuts — a row or column or diagonal by regions; a region by rows, by columns and
/// by each diagonal. A digit whose places in the house all lie in one cut must go there, so
/// the other house of that cut loses it everywhere else.
///
/// Partitions rather than a list of pairs, so one pass of ORs per partition gives every cut's
/// digits and (by prefix and suffix ORs) the digits of the rest of the house.
fn intersections(shape: &Shape) -> Vec<Vec<Vec<Cut>>> {
    let n = shape.n;
    let region = |c: u16| 2 * n + shape.regions[c as usize] as usize;
    let row = |c: u16| c as usize / n;
    let col = |c: u16| n + c as usize % n;
    let diag = |d: usize| {
        move |c: u16| -> usize {
            if shape.houses[3 * n + d].contains(&c) {
                3 * n + d
            } else {
                usize::MAX
            }
        }
    };
    let partition = |h: usize, by: &dyn Fn(u16) -> usize| -> Vec<Cut> {
        let mut groups: Vec<(usize, Vec<u16>)> = Vec::new();
        for &c in &shape.houses[h] {
            let g = by(c);
            match groups.iter_mut().find(|(o, _)| *o == g) {
                Some((_, cells)) => cells.push(c),
                None => groups.push((g, vec![c])),
            }
        }
        groups
            .into_iter()
            .map(|(g, cells)| {
                let rest = if g == usize::MAX || cells.len() < 2 {
                    Vec::new()
                } else {
                    shape.houses[g].iter().copied().filter(|c| !cells.contains(c)).collect()
                };
                Cut { cells, rest }
            })
            .collect()
    };
    (0..shape.houses.len())
        .map(|h| {
            let mut parts = match shape.house_kind[h] {
                HouseKind::Row | HouseKind::Col | HouseKind::Diagonal => vec![partition(h, &region)],
                HouseKind::Region => {
                    let mut p = vec![partition(h, &row), partition(h, &col)];
                    if shape.diagonals {
                        p.push(partition(h, &diag(0)));
                        p.push(partition(h, &diag(1)));
                    }
                    p
                }
            };
            // A partition with one cut (a jigsaw region that is a row) or no cut that could
            // eliminate anything only costs time.
            parts.retain(|p| p.len() > 1 && p.iter().any(|cut| !cut.rest.is_empty()));
            parts
        })
        .collect()
}

/// Whether the solver looks at intersections on this board. On box boards below 16×16 they
/// cost more per node than they save in nodes (9×9 generation 0.3 → 0.4 ms, 12×12 1.2 → 1.7
/// ms per puzzle with them); on 16×16 and up they pay for themselves (60 → 22 ms), and on
/// jigsaw and killer boards too (9×9 jigsaw: random grids no longer run out of budget; killer
/// 9×9 17 → 16 ms).
fn uses_intersections(shape: &Shape) -> bool {
    shape.n >= 16 || shape.boxes.is_none() || shape.is_killer()
}

/// No partitions for any house: intersections off.
fn no_intersections(shape: &Shape) -> Vec<Vec<Vec<Cut>>> {
    (0..shape.houses.len()).map(|_| Vec::new()).collect()
}

/// The search, with the board's tables borrowed.
pub struct Solver<'a> {
    shape: &'a Shape,
    /// The sums the search keeps: the board's cages, then the innies of single houses (`sums`).
    sums: Vec<Vec<u16>>,
    /// Sums over cells that may repeat digits (`bounds`), indexed after `sums` in the work list.
    bounds: Vec<(Vec<u16>, i64)>,
    /// Per sum: its digit sets.
    cage_sets: Vec<std::sync::Arc<Vec<Mask>>>,
    /// The sums of each cell.
    sums_of: Vec<Vec<u16>>,
    /// Per house: its partitions into cuts (`intersections`).
    cuts: Vec<Vec<Vec<Cut>>>,
    all: Mask,
    pub nodes: u64,
    budget: u64,
    /// The work list, kept between calls: a fresh one per assignment was an allocation per
    /// search node. A `RefCell` because `assign`/`exclude`/`propagate` take `&self`.
    work: RefCell<Work>,
    /// The search's candidates, one board per depth end to end: a node copies its board into
    /// the next slot instead of cloning a `Vec` per branch.
    stack: Vec<Mask>,
}

/// Candidates of every cell; a placed cell has one bit.
type Cands = Vec<Mask>;

impl<'a> Solver<'a> {
    /// The search's solver: the board's cages and the innies of single houses (`sums`).
    pub fn new(shape: &'a Shape, budget: u64) -> Solver<'a> {
        Self::with_sums(shape, budget, sums(shape), bounds(shape))
    }

    /// Propagation by the board's own cages only: the rater's trial, whose refutations are part
    /// of the step count the grades were fitted on.
    pub fn plain(shape: &'a Shape, budget: u64) -> Solver<'a> {
        let own = shape.cages.iter().map(|c| (c.cells.clone(), cage_sets(shape.n, c.cells.len(), c.sum))).unzip();
        Self::with_sums(shape, budget, own, Vec::new())
    }

    fn with_sums(
        shape: &'a Shape,
        budget: u64,
        (sums, cage_sets): SumList,
        bounds: Vec<(Vec<u16>, i64)>,
    ) -> Solver<'a> {
        let mut sums_of = vec![Vec::new(); shape.cells()];
        for (k, cells) in sums.iter().chain(bounds.iter().map(|b| &b.0)).enumerate() {
            for &c in cells {
                sums_of[c as usize].push(k as u16);
            }
        }
        let work = RefCell::new(Work::new(shape, sums.len() + bounds.len()));
        Solver {
            shape,
            sums,
            bounds,
            cage_sets,
            sums_of,
            cuts: if uses_intersections(shape) { intersections(shape) } else { no_intersections(shape) },
            all: full(shape.n),
            nodes: 0,
            budget,
            work,
            stack: Vec::new(),
        }
    }

    /// The same solver with intersections on or off whatever the board (tests check both).
    #[cfg(test)]
    fn with_intersections(mut self, on: bool) -> Self {
        self.cuts = if on { intersections(self.shape) } else { no_intersections(self.shape) };
        self
    }

    /// The starting candidates of a puzzle (0 = blank), or None if the givens clash.
    pub fn start(&self, givens: &[u8]) -> Option<Cands> {
        let mut cand = vec![self.all; self.shape.cells()];
        for (c, &d) in givens.iter().enumerate() {
            if d != 0 {
                if d as usize > self.shape.n || cand[c] & 1 << d == 0 {
                    return None;
                }
                cand[c] = 1 << d;
                for &p in &self.shape.peers[c] {
                    cand[p as usize] &= !(1 << d);
                }
            }
        }
        Some(cand)
    }

    /// Propagate to a fixpoint from scratch (every cell, house and cage looked at). False on a
    /// contradiction.
    pub fn propagate(&self, cand: &mut Cands) -> bool {
        let work = &mut *self.work.borrow_mut();
        work.clear();
        for (c, &m) in cand.iter().enumerate() {
            if m == 0 {
                return false;
            }
            if m & (m - 1) == 0 {
                work.singles.push(c as u16);
            }
        }
        work.all_dirty(self.shape);
        self.settle(cand, work)
    }

    /// Narrow cell `c` to `m` (a subset of its candidates), noting what to look at again.
    #[inline]
    fn narrow(&self, cand: &mut [Mask], work: &mut Work, c: usize, m: Mask) -> bool {
        if m == cand[c] {
            return true;
        }
        if m == 0 {
            return false;
        }
        cand[c] = m;
        if m & (m - 1) == 0 {
            work.singles.push(c as u16);
        }
        for &h in &self.shape.cell_houses[c] {
            work.dirty_house(h as usize);
        }
        for &k in &self.sums_of[c] {
            work.dirty_cage(k as usize);
        }
        true
    }

    /// Propagate what `work` holds until nothing is left to look at. False on a contradiction
    /// (`work` then still holds leftovers; callers `clear` it before use).
    ///
    /// Shaped as a work list rather than rescans: on 16×16 and 25×25 boards most of a node's
    /// propagation touches a few houses, and a full rescan per pass cost most of the time.
    /// Cheapest first: singles, hidden singles, cages, and intersections only at a fixpoint of
    /// the rest.
    fn settle(&self, cand: &mut [Mask], work: &mut Work) -> bool {
        let shape = self.shape;
        loop {
            if let Some(c) = work.singles.pop() {
                let m = cand[c as usize];
                for &p in &shape.peers[c as usize] {
                    let pm = cand[p as usize];
                    if pm & m != 0 && !self.narrow(cand, work, p as usize, pm & !m) {
                        return false;
                    }
                }
                continue;
            }
            if let Some(h) = work.houses.pop() {
                let h = h as usize;
                work.house_dirty[h] = false;
                if !self.hidden_singles(cand, work, h) {
                    return false;
                }
                continue;
            }
            if let Some(k) = work.cages.pop() {
                let k = k as usize;
                work.cage_dirty[k] = false;
                let ok = match k.checked_sub(self.sums.len()) {
                    None => self.cage(cand, work, k),
                    Some(b) => self.bound(cand, work, b),
                };
                if !ok {
                    return false;
                }
                continue;
            }
            if let Some(h) = work.inters.pop() {
                let h = h as usize;
                work.inter_dirty[h] = false;
                if !self.intersect(cand, work, h) {
                    return false;
                }
                continue;
            }
            return true;
        }
    }

    /// Hidden singles: a digit with one place in house `h` goes there.
    #[inline]
    fn hidden_singles(&self, cand: &mut [Mask], work: &mut Work, h: usize) -> bool {
        let cells = &self.shape.houses[h];
        let (mut once, mut twice) = (0 as Mask, 0 as Mask);
        for &c in cells {
            let m = cand[c as usize];
            twice |= once & m;
            once |= m;
        }
        if once != self.all {
            return false;
        }
        let single = once & !twice;
        if single == 0 {
            return true;
        }
        for &c in cells {
            let m = cand[c as usize];
            let s = m & single;
            if s != 0 && m != s {
                if s & (s - 1) != 0 {
                    return false; // two digits that each must go here
                }
                if !self.narrow(cand, work, c as usize, s) {
                    return false;
                }
            }
        }
        true
    }

    /// Intersections of house `h` (`intersections`): a digit confined to one cut of a
    /// partition leaves the rest of the cut's other house. The other house's rest lies outside
    /// `h`, so the cut unions stay valid while it narrows.
    fn intersect(&self, cand: &mut [Mask], work: &mut Work, h: usize) -> bool {
        let mut union = [0 as Mask; MAX_N + 1];
        for part in &self.cuts[h] {
            let k = part.len();
            for (u, cut) in union.iter_mut().zip(part) {
                *u = cut.cells.iter().fold(0, |m, &c| m | cand[c as usize]);
            }
            // after[j] = the digits of cuts j+1.. (suffix ORs), built in place from the end.
            let mut after = [0 as Mask; MAX_N + 1];
            for j in (0..k - 1).rev() {
                after[j] = after[j + 1] | union[j + 1];
            }
            let mut before = 0 as Mask;
            for (j, cut) in part.iter().enumerate() {
                let only = union[j] & !(before | after[j]);
                before |= union[j];
                if only == 0 {
                    continue;
                }
                for &c in &cut.rest {
                    let m = cand[c as usize];
                    if m & only != 0 && !self.narrow(cand, work, c as usize, m & !only) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Cage combinations: each cell keeps the digits of some digit set that reaches the sum,
    /// holds the cage's placed digits and gives every cell a candidate.
    fn cage(&self, cand: &mut [Mask], work: &mut Work, k: usize) -> bool {
        let cells = &self.sums[k];
        let (mut union, mut placed) = (0 as Mask, 0 as Mask);
        for &c in cells {
            let m = cand[c as usize];
            union |= m;
            if m & (m - 1) == 0 {
                if placed & m != 0 {
                    return false;
                }
                placed |= m;
            }
        }
        let mut allowed = 0 as Mask;
        for &set in self.cage_sets[k].iter() {
            if set & placed == placed && set & union == set && cells.iter().all(|&c| cand[c as usize] & set != 0) {
                allowed |= set;
            }
        }
        if allowed == 0 {
            return false;
        }
        for &c in cells {
            let m = cand[c as usize];
            let mut keep = m & allowed;
            if m & (m - 1) != 0 {
                keep &= !placed;
            }
            if !self.narrow(cand, work, c as usize, keep) {
                return false;
            }
        }
        true
    }

    /// A sum over cells that may repeat digits (`bounds`): each cell keeps the digits that the
    /// others' smallest and largest candidates can complete to the sum.
    fn bound(&self, cand: &mut [Mask], work: &mut Work, b: usize) -> bool {
        let (cells, sum) = &self.bounds[b];
        let lo = |m: Mask| m.trailing_zeros() as i64;
        let hi = |m: Mask| 31 - m.leading_zeros() as i64;
        let (mut lo_all, mut hi_all) = (0i64, 0i64);
        for &c in cells {
            lo_all += lo(cand[c as usize]);
            hi_all += hi(cand[c as usize]);
        }
        if *sum < lo_all || *sum > hi_all {
            return false;
        }
        for &c in cells {
            let m = cand[c as usize];
            let (from, to) = (sum - (hi_all - hi(m)), sum - (lo_all - lo(m)));
            if from <= lo(m) && to >= hi(m) {
                continue;
            }
            let keep = if from > to || to < 1 || from > 31 {
                0
            } else {
                let (a, z) = (from.max(1) as u32, to.min(31) as u32);
                m & (((1u64 << (z + 1)) - (1u64 << a)) as Mask)
            };
            if !self.narrow(cand, work, c as usize, keep) {
                return false;
            }
        }
        true
    }

    /// Narrow `cell` to `m` and propagate, on any board slice.
    fn narrow_and_settle(&self, cand: &mut [Mask], cell: usize, m: Mask) -> bool {
        let work = &mut *self.work.borrow_mut();
        work.clear();
        self.narrow(cand, work, cell, m) && self.settle(cand, work)
    }

    /// Fix `cell` to `digit` (one of its candidates) and propagate. False on a contradiction.
    pub fn assign(&self, cand: &mut Cands, cell: usize, digit: u8) -> bool {
        self.narrow_and_settle(cand, cell, 1 << digit)
    }

    /// Take `digit` out of `cell`'s candidates and propagate. False on a contradiction.
    pub fn exclude(&self, cand: &mut Cands, cell: usize, digit: u8) -> bool {
        let m = cand[cell] & !(1 << digit);
        self.narrow_and_settle(cand, cell, m)
    }

    /// The open cell with the fewest candidates, or None when every cell is placed.
    fn branch_cell(cand: &[Mask]) -> Option<usize> {
        let mut best: Option<(u32, usize)> = None;
        for (c, &m) in cand.iter().enumerate() {
            let k = m.count_ones();
            if k > 1 && best.is_none_or(|(b, _)| k < b) {
                best = Some((k, c));
                if k == 2 {
                    break;
                }
            }
        }
        best.map(|(_, c)| c)
    }

    /// Make room in `stack` for the board at `depth` + 1 and copy the board at `depth` into it.
    fn push(cells: usize, stack: &mut Vec<Mask>, depth: usize) -> &mut [Mask] {
        let end = (depth + 2) * cells;
        if stack.len() < end {
            stack.resize(end, 0);
        }
        let (cur, next) = stack[depth * cells..end].split_at_mut(cells);
        next.copy_from_slice(cur);
        next
    }

    /// Whether the search must stop: the limit reached, or the budget spent (then noted).
    fn stop(&mut self, limit: usize, out: &mut Count) -> bool {
        if out.count >= limit || out.undecided {
            return true;
        }
        if self.nodes >= self.budget {
            out.undecided = true;
            return true;
        }
        self.nodes += 1;
        false
    }

    /// Count solutions from `cand` (propagated) up to `limit`, digits tried in `order` (a permutation of
    /// 1..=n, or None for increasing).
    pub fn count(&mut self, cand: Cands, limit: usize, order: Option<&[u8]>, out: &mut Count) {
        // The stack is taken out of `self` for the search, so boards can be narrowed while
        // `self` is borrowed.
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.extend_from_slice(&cand);
        let increasing: Vec<u8> = (1..=self.shape.n as u8).collect();
        self.count_at(&mut stack, 0, limit, order.unwrap_or(&increasing), out);
        self.stack = stack;
    }

    fn count_at(&mut self, stack: &mut Vec<Mask>, depth: usize, limit: usize, order: &[u8], out: &mut Count) {
        if self.stop(limit, out) {
            return;
        }
        let cells = self.shape.cells();
        let board = &stack[depth * cells..(depth + 1) * cells];
        let Some(cell) = Self::branch_cell(board) else {
            out.count += 1;
            if out.first.is_none() {
                out.first = Some(board.iter().map(|m| m.trailing_zeros() as u8).collect());
            }
            return;
        };
        let m = board[cell];
        for &d in order.iter().filter(|&&d| m & 1 << d != 0) {
            let next = Self::push(cells, stack, depth);
            if !self.narrow_and_settle(next, cell, 1 << d) {
                continue;
            }
            self.count_at(stack, depth + 1, limit, order, out);
            if out.count >= limit || out.undecided {
                return;
            }
        }
    }
}

impl Solver<'_> {
    /// The first solution of `cand` other than `known`, its digit tried first at every branch,
    /// or None when there is none or the budget ran out (`out.undecided`).
    ///
    /// For "a solution with this cell different?" (`cand` with the known digit excluded
    /// somewhere): a second solution of a nearly unique puzzle mostly agrees with the known
    /// one, so following the known digits reaches it in a few nodes where increasing order
    /// wandered through thousands (most checks on 16×16 and 25×25 found one that way).
    pub fn find_near(&mut self, cand: Cands, known: &[u8], out: &mut Count) -> Option<Vec<u8>> {
        self.find_other_from(cand, known, true, out)
    }

    fn find_other_from(&mut self, cand: Cands, known: &[u8], known_first: bool, out: &mut Count) -> Option<Vec<u8>> {
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.extend_from_slice(&cand);
        let found = self.find_other_at(&mut stack, 0, known, known_first, out);
        self.stack = stack;
        found
    }

    fn find_other_at(
        &mut self,
        stack: &mut Vec<Mask>,
        depth: usize,
        known: &[u8],
        known_first: bool,
        out: &mut Count,
    ) -> Option<Vec<u8>> {
        if self.stop(usize::MAX, out) {
            return None;
        }
        let cells = self.shape.cells();
        let board = &stack[depth * cells..(depth + 1) * cells];
        let Some(cell) = Self::branch_cell(board) else {
            let grid: Vec<u8> = board.iter().map(|m| m.trailing_zeros() as u8).collect();
            return (grid != known).then_some(grid);
        };
        let m = board[cell];
        let k = known[cell];
        let (first, last) = if known_first { (k, 0) } else { (0, k) };
        let digits = std::iter::once(first)
            .chain((1..=self.shape.n as u8).filter(|&d| d != k))
            .chain(std::iter::once(last))
            .filter(|&d| d != 0 && m & 1 << d != 0);
        for d in digits {
            let next = Self::push(cells, stack, depth);
            if !self.narrow_and_settle(next, cell, 1 << d) {
                continue;
            }
            if let Some(g) = self.find_other_at(stack, depth + 1, known, known_first, out) {
                return Some(g);
            }
            if out.undecided {
                return None;
            }
        }
        None
    }
}

/// The default node budget of `solve` and `rate` inputs (SPEC: bounded, `undecided`).
pub const BUDGET: u64 = 1 << 20;

/// Count the solutions of a puzzle up to `limit` within `budget` nodes.
pub fn count_solutions(shape: &Shape, givens: &[u8], limit: usize, budget: u64) -> Count {
    let solver = Solver::new(shape, budget);
    let cand = solver.start(givens);
    count_from(solver, cand, limit)
}

/// Count the solutions from starting candidates (None: the givens clash), propagated first.
pub(super) fn count_from(mut solver: Solver, cand: Option<Cands>, limit: usize) -> Count {
    let mut out = Count { count: 0, first: None, undecided: false, nodes: 0 };
    if let Some(mut cand) = cand {
        if solver.propagate(&mut cand) {
            solver.count(cand, limit, None, &mut out);
        }
    }
    out.nodes = solver.nodes;
    out
}

/// A random full grid of the board (cages ignored), or None if the budget ran out.
pub fn random_grid(shape: &Shape, rng: &mut impl Rng, budget: u64) -> Option<Vec<u8>> {
    let plain;
    let shape = if shape.is_killer() {
        plain = shape.without_cages();
        &plain
    } else {
        shape
    };
    let mut solver = Solver::new(shape, budget);
    let mut givens = vec![0u8; shape.cells()];
    // Seed the search with a random first row, so grids differ from the first branch on.
    let mut row: Vec<u8> = (1..=shape.n as u8).collect();
    row.shuffle(rng);
    givens[..shape.n].copy_from_slice(&row);
    let mut order: Vec<u8> = (1..=shape.n as u8).collect();
    order.shuffle(rng);
    let mut out = Count { count: 0, first: None, undecided: false, nodes: 0 };
    let mut cand = solver.start(&givens)?;
    if !solver.propagate(&mut cand) {
        return None;
    }
    solver.count(cand, 1, Some(&order), &mut out);
    out.first
}

#[cfg(test)]
mod tests {
    use super::super::shape::Cage;
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn cage_sets_match_a_plain_enumeration() {
        for n in [4usize, 6, 9, 12] {
            for k in 1..=n.min(5) {
                for sum in 1..=80u32 {
                    let mut want: Vec<Mask> = (0u32..1 << n)
                        .map(|b| b << 1)
                        .filter(|m| {
                            m.count_ones() as usize == k
                                && (1..=n).filter(|&d| m & 1 << d != 0).sum::<usize>() == sum as usize
                        })
                        .collect();
                    want.sort_unstable();
                    let mut got = cage_sets(n, k, sum).to_vec();
                    got.sort_unstable();
                    assert_eq!(got, want, "n {n} k {k} sum {sum}");
                }
            }
        }
    }

    /// A plain backtracker: reading order, every house and cage checked at the end of each
    /// placement, no propagation.
    fn plain_count(shape: &Shape, grid: &mut Vec<u8>, at: usize, limit: usize) -> usize {
        if at == grid.len() {
            return usize::from(shape.is_solution(grid));
        }
        if grid[at] != 0 {
            return plain_count(shape, grid, at + 1, limit);
        }
        let mut found = 0;
        for d in 1..=shape.n as u8 {
            if shape.peers[at].iter().any(|&p| grid[p as usize] == d) {
                continue;
            }
            grid[at] = d;
            let cage_ok = match shape.cage_of[at] {
                u16::MAX => true,
                i => {
                    let cage = &shape.cages[i as usize];
                    let vals: Vec<u32> = cage.cells.iter().map(|&c| grid[c as usize] as u32).collect();
                    let distinct = cage.cells.iter().all(|&a| {
                        grid[a as usize] == 0
                            || cage.cells.iter().filter(|&&b| grid[b as usize] == grid[a as usize]).count() == 1
                    });
                    let s: u32 = vals.iter().sum();
                    distinct && if vals.contains(&0) { s < cage.sum } else { s == cage.sum }
                }
            };
            if cage_ok {
                found += plain_count(shape, grid, at + 1, limit - found);
            }
            grid[at] = 0;
            if found >= limit {
                break;
            }
        }
        found
    }

    /// `count_solutions` to 2 with intersections forced on or off.
    fn count_with(shape: &Shape, givens: &[u8], cuts: bool) -> Count {
        let mut solver = Solver::new(shape, 1 << 20).with_intersections(cuts);
        let mut out = Count { count: 0, first: None, undecided: false, nodes: 0 };
        let mut cand = solver.start(givens).expect("givens of a solution");
        if solver.propagate(&mut cand) {
            solver.count(cand, 2, None, &mut out);
        }
        out
    }

    #[test]
    fn counts_agree_with_a_plain_backtracker() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for (n, b) in [(4, (2, 2)), (6, (2, 3)), (6, (3, 2))] {
            for diag in [false, true] {
                let shape = Shape::new(n, Some(b), None, diag, Vec::new()).unwrap();
                let Some(grid) = random_grid(&shape, &mut rng, 1 << 20) else { panic!("no grid {n}") };
                assert!(shape.is_solution(&grid));
                for keep in [0.5, 0.35, 0.25] {
                    let givens: Vec<u8> = grid.iter().map(|&d| if rng.gen_bool(keep) { d } else { 0 }).collect();
                    let want = plain_count(&shape, &mut givens.clone(), 0, 2);
                    for cuts in [false, true] {
                        let got = count_with(&shape, &givens, cuts);
                        assert_eq!(got.count, want, "n {n} diag {diag} keep {keep} intersections {cuts}");
                        assert!(got.first.is_some_and(|s| shape.is_solution(&s)));
                    }
                }
            }
        }
        // Killer: dominoes over a 4×4 grid, sums from a random grid, no givens.
        for _ in 0..10 {
            let plain = Shape::new(4, Some((2, 2)), None, false, Vec::new()).unwrap();
            let grid = random_grid(&plain, &mut rng, 1 << 20).unwrap();
            let cages: Vec<Cage> = (0..8)
                .map(|i| {
                    let cells = vec![(2 * i) as u16, (2 * i + 1) as u16];
                    Cage { sum: cells.iter().map(|&c| grid[c as usize] as u32).sum(), cells }
                })
                .collect();
            let shape = plain.with_cages(cages).unwrap();
            let givens = vec![0u8; 16];
            let got = count_solutions(&shape, &givens, 2, 1 << 20);
            assert_eq!(got.count, plain_count(&shape, &mut givens.clone(), 0, 2));
            assert!(got.count >= 1);
        }
    }

    /// Horizontal cages over a full grid: dominoes along each row, a triple closing an odd row.
    fn row_cages(shape: &Shape, grid: &[u8]) -> Vec<Cage> {
        let n = shape.n;
        let mut cages = Vec::new();
        for r in 0..n {
            let mut c = 0;
            while c < n {
                let len = if n - c == 3 { 3 } else { 2 };
                let cells: Vec<u16> = (c..c + len).map(|x| (r * n + x) as u16).collect();
                cages.push(Cage { sum: cells.iter().map(|&x| grid[x as usize] as u32).sum(), cells });
                c += len;
            }
        }
        cages
    }

    #[test]
    fn bounds_keep_the_digits_the_others_can_complete() {
        // r1c1 + r1c2 = 3 on a 4×4 board: both in {1,2}; r1c3 + r4c2 = 8 (no house in
        // common, repeats allowed): both 4.
        let shape = Shape::new(4, Some((2, 2)), None, false, Vec::new()).unwrap();
        let solver = Solver::with_sums(&shape, 0, (Vec::new(), Vec::new()), vec![(vec![0, 1], 3), (vec![2, 13], 8)]);
        let mut cand = solver.start(&[0; 16]).unwrap();
        assert!(solver.propagate(&mut cand));
        assert_eq!((cand[0] | cand[1], cand[2], cand[13]), (1 << 1 | 1 << 2, 1 << 4, 1 << 4));
        // 2 + 2 cannot make 9.
        let solver = Solver::with_sums(&shape, 0, (Vec::new(), Vec::new()), vec![(vec![0, 5], 9)]);
        let mut cand = solver.start(&[2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        assert!(!solver.propagate(&mut cand));
    }

    #[test]
    fn the_search_uses_the_innies_of_a_house_and_the_rater_does_not() {
        // 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1 with cages {r1c1 r1c2} = 3 and {r1c3 r2c3} = 4:
        // row 1's innies r1c3 r1c4 add up to 10 - 3 = 7, so they are 3 and 4; with the cage's
        // {1,3}, r1c3 = 3 (then r1c4 = 4, r2c3 = 1) without a branch.
        let cages = vec![Cage { sum: 3, cells: vec![0, 1] }, Cage { sum: 4, cells: vec![2, 6] }];
        let shape = Shape::new(4, Some((2, 2)), None, false, cages).unwrap();
        let search = Solver::new(&shape, 0);
        let mut cand = search.start(&[0; 16]).unwrap();
        assert!(search.propagate(&mut cand));
        assert_eq!((cand[2], cand[3], cand[6]), (1 << 3, 1 << 4, 1 << 1));
        // Row 1's innies {r1c3 r1c4} = {3,4} is among the search's sums; the rater's solver
        // keeps the two cages alone.
        let (cells, sets) = sums(&shape);
        let at = cells.iter().position(|c| *c == [2, 3]).expect("row 1's innies");
        assert_eq!(*sets[at], vec![1 << 3 | 1 << 4]);
        assert_eq!(Solver::plain(&shape, 0).sums.len(), 2);
    }

    /// Propagation (singles, hidden singles, cages, intersections) never takes a solution's digit
    /// from a cell: random grids of every kind of board, random givens, then the solution's digits
    /// assigned one at a time.
    #[test]
    fn propagation_keeps_the_solution() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(17);
        let mut shapes = Vec::new();
        for (n, b) in [
            (4, Some((2, 2))),
            (6, Some((2, 3))),
            (8, Some((4, 2))),
            (9, Some((3, 3))),
            (12, Some((3, 4))),
            (16, Some((4, 4))),
        ] {
            shapes.push(Shape::new(n, b, None, false, Vec::new()).unwrap());
            shapes.push(Shape::new(n, b, None, true, Vec::new()).unwrap());
        }
        for n in [6, 9] {
            let regions = super::super::generate::random_regions(n, &mut rng);
            shapes.push(Shape::new(n, None, Some(regions.clone()), false, Vec::new()).unwrap());
            shapes.push(Shape::new(n, None, Some(regions), true, Vec::new()).unwrap());
        }
        let mut checked = 0;
        for plain in &shapes {
            for round in 0..8 {
                let Some(grid) = random_grid(plain, &mut rng, 1 << 16) else { continue };
                let killer;
                let shape = if round % 2 == 1 {
                    killer = plain.with_cages(row_cages(plain, &grid)).unwrap();
                    &killer
                } else {
                    plain
                };
                let keep = [0.0, 0.15, 0.3, 0.5][round / 2];
                let givens: Vec<u8> = grid.iter().map(|&d| if rng.gen_bool(keep) { d } else { 0 }).collect();
                let solver = Solver::new(shape, BUDGET).with_intersections(true);
                let mut cand = solver.start(&givens).expect("givens of a solution");
                let holds = |cand: &Cands| (0..grid.len()).all(|c| cand[c] & 1 << grid[c] != 0);
                assert!(solver.propagate(&mut cand) && holds(&cand), "{} round {round}", shape.name());
                let mut cells: Vec<usize> = (0..grid.len()).collect();
                cells.shuffle(&mut rng);
                for c in cells.into_iter().take(grid.len() / 3) {
                    assert!(solver.assign(&mut cand, c, grid[c]) && holds(&cand), "{} round {round}", shape.name());
                }
                checked += 1;
            }
        }
        assert!(checked >= shapes.len() * 6, "{checked}");
    }

    /// Every house's partitions cover it exactly, and each cut's rest is its other house
    /// without the cut.
    #[test]
    fn intersections_partition_every_house() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let jig = super::super::generate::random_regions(9, &mut rng);
        for shape in [
            Shape::new(9, Some((3, 3)), None, true, Vec::new()).unwrap(),
            Shape::new(25, Some((5, 5)), None, false, Vec::new()).unwrap(),
            Shape::new(9, None, Some(jig), true, Vec::new()).unwrap(),
        ] {
            let cuts = intersections(&shape);
            for (h, parts) in cuts.iter().enumerate() {
                assert!(!parts.is_empty(), "{} house {h}", shape.name());
                for part in parts {
                    let mut cells: Vec<u16> = part.iter().flat_map(|cut| cut.cells.iter().copied()).collect();
                    cells.sort_unstable();
                    assert_eq!(cells, shape.houses[h]);
                    for cut in part.iter().filter(|cut| !cut.rest.is_empty()) {
                        let other = shape.houses.iter().find(|g| {
                            cut.rest.iter().all(|c| g.contains(c)) && cut.cells.iter().all(|c| g.contains(c))
                        });
                        assert_eq!(other.map(|g| g.len()), Some(cut.rest.len() + cut.cells.len()));
                        assert!(cut.rest.iter().all(|c| !shape.houses[h].contains(c)));
                    }
                }
            }
        }
    }

    /// `find_near` answers "a solution with this cell different?" as the plain backtracker
    /// does: some solution with another digit there exactly when one exists.
    #[test]
    fn find_near_agrees_with_a_plain_backtracker() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(23);
        let shape = Shape::new(6, Some((2, 3)), None, false, Vec::new()).unwrap();
        let (mut found, mut none) = (0, 0);
        for _ in 0..40 {
            let grid = random_grid(&shape, &mut rng, 1 << 16).unwrap();
            let givens: Vec<u8> = grid.iter().map(|&d| if rng.gen_bool(0.4) { d } else { 0 }).collect();
            let c = rng.gen_range(0..36);
            let mut solver = Solver::new(&shape, BUDGET);
            let mut cand = solver.start(&givens).unwrap();
            assert!(solver.propagate(&mut cand));
            let want = (1..=6u8).filter(|&d| d != grid[c]).any(|d| {
                let mut g = givens.clone();
                (g[c] == 0 || g[c] == d) && {
                    g[c] = d;
                    plain_count(&shape, &mut g, 0, 1) > 0
                }
            });
            let mut out = Count { count: 0, first: None, undecided: false, nodes: 0 };
            let got =
                if solver.exclude(&mut cand, c, grid[c]) { solver.find_near(cand, &grid, &mut out) } else { None };
            assert!(!out.undecided);
            assert_eq!(got.is_some(), want);
            if let Some(g) = got {
                assert!(shape.is_solution(&g) && g[c] != grid[c]);
                assert!(givens.iter().zip(&g).all(|(&a, &b)| a == 0 || a == b));
                found += 1;
            } else {
                none += 1;
            }
        }
        assert!(found > 0 && none > 0, "{found} {none}");
    }

    #[test]
    fn big_grids_fill() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        for (r, c) in [(4, 4), (5, 5), (3, 4)] {
            let shape = Shape::new(r * c, Some((r, c)), None, false, Vec::new()).unwrap();
            let g = random_grid(&shape, &mut rng, 1 << 16).expect("fills");
            assert!(shape.is_solution(&g));
        }
    }
}
