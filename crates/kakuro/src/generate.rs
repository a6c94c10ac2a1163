//! Kakuro generation: a block layout, a random digit fill, clue sums from the fill, then repair
//! until the counter finds one solution.
//!
//! Layout: the interior starts all white (every run then spans the board); blocks are added at
//! random interior cells, with their 180° partner when `symmetric`, but only where every run
//! they cut keeps 0 or at least 2 cells, until the white share falls to `white_share`. Runs
//! longer than `max_run` are then cut the same way, and the white cells must be connected;
//! a layout that cannot be made so is drawn again. Fill: backtracking over the cell with the
//! fewest free digits, digits in random order, no repeat within a run. Repair: when a second
//! solution exists, one cell where the two differ takes another digit its runs do not use (the
//! one whose new sums leave the fewest combinations, ties at random) and the two sums are
//! recomputed; each repair is counted. On boards larger than a 10×10 window, overlapping windows
//! are checked first (every cell outside kept at its digit, so a second solution found there is
//! one of the whole board) and each repair re-checks the windows its runs cross; the whole
//! board is checked only when every window is clean. That check propagates the whole board
//! from its clues, splits the cells left open into parts that share no run and searches each
//! part alone (splitting again wherever a branch splits it), skipping parts proven unique by an
//! earlier check that nothing has changed since (see `other_solution_split`). A second solution
//! that check finds adds the rectangle where it differs as one more window (`EXTRA_WINDOWS`).
//! Measured on 60 20×20 candidates: a window check costs about 30 µs, a whole-board check
//! 0.3-30 ms.

use super::solve::{other_solution, other_solution_split, other_solution_within, Layout, Other, Proven, ALL};
use super::windows::{diff_window, Windows, EXTRA_WINDOWS};
use super::{Cell, Generated, Kakuro, KakuroParams};
use pf_core::common::cage::sum_combos;
use pf_core::kind::Reject;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Layouts drawn before a candidate is given up.
const LAYOUT_ATTEMPTS: u32 = 50;

/// Node budget per white cell of the full-check search for a second solution on boards within
/// one window; a candidate whose search needs more is rejected as `undecided`.
const FULL_SEARCH_NODES_PER_CELL: u64 = 60;

/// Node budget per open cell of the whole-board check's search of one part (see
/// `other_solution_split`); a candidate whose search needs more is rejected as `undecided`.
const PART_SEARCH_NODES_PER_CELL: u64 = 8;

/// Node budget of one window check (an undecided window is left to the whole-board check).
const WINDOW_NODES: u64 = 200;

/// Fill attempts on one layout.
const FILL_RESTARTS: u32 = 50;

struct Board {
    rows: usize,
    cols: usize,
    white: Vec<bool>,
}

impl Board {
    /// Length of the white segment through (r, c) across or down (0 on a block).
    fn run_len(&self, r: usize, c: usize, across: bool) -> usize {
        let idx = |k: usize| if across { r * self.cols + k } else { k * self.cols + c };
        let (pos, end) = if across { (c, self.cols) } else { (r, self.rows) };
        if !self.white[idx(pos)] {
            return 0;
        }
        let mut lo = pos;
        while lo > 0 && self.white[idx(lo - 1)] {
            lo -= 1;
        }
        let mut hi = pos;
        while hi + 1 < end && self.white[idx(hi + 1)] {
            hi += 1;
        }
        hi - lo + 1
    }

    fn mirror(&self, i: usize) -> usize {
        let (r, c) = (i / self.cols, i % self.cols);
        (self.rows - r) * self.cols + (self.cols - c)
    }

    /// Block `cells` if every white neighbour keeps runs of 0 or 2+ cells; else leave it.
    fn try_block(&mut self, cells: &[usize]) -> bool {
        if cells.iter().any(|&i| !self.white[i]) {
            return false;
        }
        for &i in cells {
            self.white[i] = false;
        }
        let ok = cells.iter().all(|&i| {
            let (r, c) = (i / self.cols, i % self.cols);
            [(r, c.wrapping_sub(1)), (r, c + 1), (r.wrapping_sub(1), c), (r + 1, c)]
                .into_iter()
                .filter(|&(rr, cc)| rr < self.rows && cc < self.cols && self.white[rr * self.cols + cc])
                .all(|(rr, cc)| self.run_len(rr, cc, true) >= 2 && self.run_len(rr, cc, false) >= 2)
        });
        if !ok {
            for &i in cells {
                self.white[i] = true;
            }
        }
        ok
    }

    fn whites(&self) -> usize {
        self.white.iter().filter(|&&w| w).count()
    }

    fn connected(&self) -> bool {
        let Some(start) = self.white.iter().position(|&w| w) else { return false };
        let mut seen = vec![false; self.white.len()];
        let mut stack = vec![start];
        seen[start] = true;
        let mut n = 0;
        while let Some(i) = stack.pop() {
            n += 1;
            let (r, c) = (i / self.cols, i % self.cols);
            for (rr, cc) in [(r, c.wrapping_sub(1)), (r, c + 1), (r.wrapping_sub(1), c), (r + 1, c)] {
                if rr < self.rows && cc < self.cols {
                    let j = rr * self.cols + cc;
                    if self.white[j] && !std::mem::replace(&mut seen[j], true) {
                        stack.push(j);
                    }
                }
            }
        }
        n == self.whites()
    }
}

/// A random valid layout (white flags, row-major), or None when this draw failed.
fn layout(p: &KakuroParams, rng: &mut Xoshiro256PlusPlus) -> Option<Vec<bool>> {
    let (rows, cols) = (p.rows as usize, p.cols as usize);
    let mut b = Board { rows, cols, white: vec![false; rows * cols] };
    for r in 1..rows {
        for c in 1..cols {
            b.white[r * cols + c] = true;
        }
    }
    let interior = (rows - 1) * (cols - 1);
    let target = (p.white_share * interior as f64).round() as usize;
    let group = |b: &Board, i: usize| if p.symmetric { vec![i, b.mirror(i)] } else { vec![i] };
    let mut order: Vec<usize> = (1..rows).flat_map(|r| (1..cols).map(move |c| r * cols + c)).collect();
    order.shuffle(rng);
    for &i in &order {
        if b.whites() <= target {
            break;
        }
        let mut g = group(&b, i);
        g.dedup();
        b.try_block(&g);
    }
    // Cut runs longer than max_run at a random admissible cell.
    let max_run = p.max_run as usize;
    for across in [true, false] {
        for i in 0..rows * cols {
            let (r, c) = (i / cols, i % cols);
            if b.white[i] && b.run_len(r, c, across) > max_run {
                let mut cut: Vec<usize> = (0..b.run_len(r, c, across))
                    .map(|k| if across { i + k } else { i + k * cols })
                    .filter(|&j| j < rows * cols)
                    .collect();
                cut.shuffle(rng);
                let done = cut.iter().any(|&j| {
                    let mut g = group(&b, j);
                    g.dedup();
                    b.try_block(&g)
                });
                if !done {
                    return None;
                }
            }
        }
    }
    let long = (0..rows * cols).any(|i| {
        b.white[i] && (b.run_len(i / cols, i % cols, true) > max_run || b.run_len(i / cols, i % cols, false) > max_run)
    });
    (!long && b.connected()).then_some(b.white)
}

/// The board with placeholder sums (the smallest each run allows): the run structure, before
/// the fill decides the real sums.
fn blank(rows: usize, cols: usize, white: &[bool]) -> Kakuro {
    let len =
        |i: usize, step: usize, limit: usize| (1..).take_while(|k| i + k * step < limit && white[i + k * step]).count();
    let cells = (0..rows * cols)
        .map(|i| {
            if white[i] {
                return Cell::White;
            }
            let right = if i % cols + 1 < cols { len(i, 1, (i / cols + 1) * cols) } else { 0 };
            let down = len(i, cols, rows * cols);
            let sum = |n: usize| if n == 0 { 0 } else { (n * (n + 1) / 2) as u8 };
            Cell::Block { down: sum(down), right: sum(right) }
        })
        .collect();
    Kakuro { rows, cols, cells }
}

/// The swappable rectangles of white cells, as white indices [top-left, top-right, bottom-left,
/// bottom-right], and the rectangles each white cell belongs to. They depend on the layout
/// only, so the fill and every repair share one copy.
struct Rects {
    all: Vec<[usize; 4]>,
    of_cell: Vec<Vec<usize>>,
}

impl Rects {
    /// Every rectangle of white cells whose top and bottom pairs each lie in one across run and
    /// whose left and right pairs each lie in one down run (2×2 squares and wider ones): the
    /// swap a+k, b−k, c−k, d+k keeps all four sums wherever the corners are. Only 2×2 squares
    /// were kept out before: the wider ones were then a third of the second solutions the 20×20
    /// window checks found (1,329 of 3,500, seed 2), often the same rectangle several repairs
    /// in a row; with them out, 22% fewer repairs (11,250 to 8,827 on 60 candidates).
    fn new(lay: &Layout) -> Rects {
        let row = |w: u32| lay.whites[w as usize] as usize / lay.cols;
        let mut all = Vec::new();
        for run in lay.runs.iter().filter(|r| r.across) {
            for (i, &a) in run.cells.iter().enumerate() {
                for &b in &run.cells[i + 1..] {
                    let (da, db) = (
                        &lay.runs[lay.cell_runs[a as usize][1] as usize],
                        &lay.runs[lay.cell_runs[b as usize][1] as usize],
                    );
                    let (ra, rb0) = (row(a), row(db.cells[0]));
                    for &c in da.cells.iter().filter(|&&c| row(c) > ra) {
                        let rc = row(c);
                        let Some(&d) = (rc >= rb0).then(|| db.cells.get(rc - rb0)).flatten() else { continue };
                        if lay.cell_runs[c as usize][0] == lay.cell_runs[d as usize][0] {
                            all.push([a, b, c, d].map(|w| w as usize));
                        }
                    }
                }
            }
        }
        let mut of_cell: Vec<Vec<usize>> = vec![Vec::new(); lay.whites.len()];
        for (i, q) in all.iter().enumerate() {
            for &w in q {
                of_cell[w].push(i);
            }
        }
        Rects { all, of_cell }
    }

    /// The rectangles holding white cell `w`.
    fn of(&self, w: usize) -> impl Iterator<Item = &[usize; 4]> {
        self.of_cell[w].iter().map(|&i| &self.all[i])
    }
}

/// Can the filled rectangle swap: a+k, b−k, c−k, d+k keeps both row and both column sums; it is
/// a second solution unless a new digit leaves 1..9 or repeats a digit of its runs.
fn swappable(lay: &Layout, digits: &[u8], used: &[u16], q: &[usize; 4]) -> bool {
    let v = q.map(|w| digits[w] as i32);
    // Only the k that keep all four new digits within 1..9.
    let lo = (1 - v[0]).max(v[1] - 9).max(v[2] - 9).max(1 - v[3]);
    let hi = (9 - v[0]).min(v[1] - 1).min(v[2] - 1).min(9 - v[3]);
    (lo..=hi).filter(|&k| k != 0).any(|k| {
        let new = [v[0] + k, v[1] - k, v[2] - k, v[3] + k];
        new.iter().all(|x| (1..=9).contains(x)) && {
            // Each run through the rectangle holds two of its cells; the rest of the run must not
            // use the new digits.
            let fits = |i: usize, j: usize, r: u32| {
                let rest = used[r as usize] & !(1 << v[i]) & !(1 << v[j]);
                rest >> new[i] & 1 == 0 && rest >> new[j] & 1 == 0
            };
            let [a, b, c, d] = *q;
            fits(0, 1, lay.cell_runs[a][0])
                && fits(2, 3, lay.cell_runs[c][0])
                && fits(0, 2, lay.cell_runs[a][1])
                && fits(1, 3, lay.cell_runs[b][1])
                && lay.cell_runs[d] == [lay.cell_runs[c][0], lay.cell_runs[b][1]]
        }
    })
}

/// Fill every white cell, no repeat in a run and no rectangle that could swap (the commonest
/// second solution); None if the search gives up.
fn fill(lay: &Layout, sq: &Rects, rng: &mut Xoshiro256PlusPlus) -> Option<Vec<u8>> {
    let n = lay.whites.len();
    let mut digits = vec![0u8; n];
    let mut used = vec![0u16; lay.runs.len()];
    struct Ctx<'a> {
        lay: &'a Layout,
        sq: &'a Rects,
        soft: bool,
    }
    fn rec(
        cx: &Ctx,
        digits: &mut [u8],
        used: &mut [u16],
        left: usize,
        budget: &mut u32,
        rng: &mut Xoshiro256PlusPlus,
    ) -> bool {
        if left == 0 {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let lay = cx.lay;
        let free = |w: usize| {
            let [a, d] = lay.cell_runs[w];
            ALL & !used[a as usize] & !used[d as usize]
        };
        let mut best = (usize::MAX, u32::MAX);
        for w in (0..digits.len()).filter(|&w| digits[w] == 0) {
            let k = free(w).count_ones();
            if k < best.1 {
                best = (w, k);
                if k <= 1 {
                    break;
                }
            }
        }
        let w = best.0;
        let mut options: Vec<u8> = (1..=9).filter(|d| free(w) >> d & 1 == 1).collect();
        options.shuffle(rng);
        let [a, d] = lay.cell_runs[w];
        let set = |digits: &mut [u8], used: &mut [u16], x: u8| {
            digits[w] = x;
            used[a as usize] ^= 1 << x;
            used[d as usize] ^= 1 << x;
        };
        // Digits that make no rectangle swappable first (in random order), then, once a strict
        // attempt has failed, the rest: a cell left with none no longer sends the fill back
        // (the repair settles what stays). 30×30 fills restarted up to 35 times and 1-3 in 20
        // failed outright when every attempt was strict; small boards rarely need a second.
        let mut safe = [0u8; 9];
        let (mut n_safe, mut n_rest) = (0, options.len());
        let mut order = [0u8; 9];
        for &x in &options {
            set(digits, used, x);
            let ok = cx.sq.of(w).all(|q| q.iter().any(|&c| digits[c] == 0) || !swappable(lay, digits, used, q));
            set(digits, used, x);
            if ok {
                safe[n_safe] = x;
                n_safe += 1;
            } else {
                n_rest -= 1;
                order[n_rest] = x;
            }
        }
        order[..n_safe].copy_from_slice(&safe[..n_safe]);
        // The unsafe ones were stored from the back: restore their random order.
        order[n_safe..options.len()].reverse();
        let tried = if cx.soft { options.len() } else { n_safe };
        for &x in &order[..tried] {
            set(digits, used, x);
            if rec(cx, digits, used, left - 1, budget, rng) {
                return true;
            }
            set(digits, used, x);
        }
        digits[w] = 0;
        false
    }
    let mut cx = Ctx { lay, sq, soft: false };
    // Restarts instead of deep backtracking: a fill that has not finished within a few times
    // the cell count rarely finishes at all (measured: 8% of 8×10 fills ran 20,000 nodes and
    // failed; with restarts every fill succeeds).
    for attempt in 0..FILL_RESTARTS {
        cx.soft = attempt > 0;
        let mut budget = 4 * n as u32 + 50;
        if rec(&cx, &mut digits, &mut used, n, &mut budget, rng) {
            return Some(digits);
        }
        digits.fill(0);
        used.fill(0);
    }
    None
}

/// Set each run's sum (and its combination table entry) from the digits.
fn set_sums(lay: &mut Layout, digits: &[u8], runs: impl Iterator<Item = usize>) {
    for r in runs {
        let run = &mut lay.runs[r];
        run.sum = run.cells.iter().map(|&w| digits[w as usize]).sum();
        run.combos = sum_combos(run.sum as u32, run.cells.len());
    }
}

/// The puzzle a layout with sums describes.
pub(crate) fn to_puzzle(lay: &Layout) -> Kakuro {
    let mut cells = vec![Cell::Block { down: 0, right: 0 }; lay.rows * lay.cols];
    for &g in &lay.whites {
        cells[g as usize] = Cell::White;
    }
    for run in &lay.runs {
        if let Cell::Block { down, right } = &mut cells[run.clue as usize] {
            if run.across {
                *right = run.sum;
            } else {
                *down = run.sum;
            }
        }
    }
    Kakuro { rows: lay.rows, cols: lay.cols, cells }
}

/// Change one differing cell's digit and return the cell; None when no cell can take another
/// digit. Cells are drawn at random among those where the two solutions differ, cells no repair
/// has changed yet first (a greedy choice over all of them was measured to cycle: 4× more
/// rejections); a cell's new digit is one whose two new sums leave the fewest combinations
/// (ties at random) among those that make no rectangle swappable; the first cell that has one is changed, or, when every choice makes a
/// rectangle swappable (large boards get there), the first free digit found. The second
/// solution no longer fits either sum.
///
/// Weighing up to three such changes, each by a window check of the 7×7 square around its
/// cell, was measured better while second solutions the windows missed were found again only
/// by whole-board checks (60 20×20 candidates: 9,785 repairs against 14,479 with one). Since
/// those become windows (`EXTRA_WINDOWS`) the single change is faster: accepted/s per core,
/// seeds 1-6, 30×30 (60 candidates) median 3.4 → 5.1, 20×20 (200 candidates, seeds 1-6)
/// 34.3 → 41.6, 15×15 (200 candidates, seeds 1-3) 137-152 → 160-161; more repairs each
/// (24,350 against 17,484 over 200 20×20 candidates), and the grades keep their spread.
///
/// Candidates the repair limit rejects were cycling: in traces of 20×20 candidates that reached
/// it, 40-50% of the repairs changed a cell already changed within the last ten, one cell up to
/// 24 times. Unchanged cells first breaks most of those cycles: 20×20, 4 seeds of 300
/// candidates, accepted 792 → 850 and accepted/s per core 37.1 → 40.0 (mean); a full sort by
/// how often each cell was changed, or never giving a cell a digit it held before, was worse.
fn repair(
    lay: &mut Layout,
    sq: &Rects,
    digits: &mut [u8],
    other: &[u8],
    rng: &mut Xoshiro256PlusPlus,
    repaired: &[bool],
) -> Option<usize> {
    let mut used: Vec<u16> =
        lay.runs.iter().map(|r| r.cells.iter().fold(0u16, |m, &c| m | 1 << digits[c as usize])).collect();
    let mut diff: Vec<usize> = (0..digits.len()).filter(|&w| digits[w] != other[w]).collect();
    diff.shuffle(rng);
    // Cells never changed before first (the stable sort keeps the random order within each).
    diff.sort_by_key(|&w| repaired[w]);
    let mut fallback = None;
    let mut chosen = None;
    for w in diff {
        let [a, d] = lay.cell_runs[w].map(|r| r as usize);
        let old = digits[w];
        let free = ALL & !used[a] & !used[d];
        let (ra, rd) = (&lay.runs[a], &lay.runs[d]);
        let (sa, sd) = (ra.sum as u32 - old as u32, rd.sum as u32 - old as u32);
        let mut best: Vec<u8> = Vec::new();
        let mut best_score = usize::MAX;
        for x in (1..=9u8).filter(|x| free >> x & 1 == 1) {
            digits[w] = x;
            let (ua, ud) = (used[a], used[d]);
            used[a] = ua & !(1 << old) | 1 << x;
            used[d] = ud & !(1 << old) | 1 << x;
            let swap = sq.of(w).any(|q| swappable(lay, digits, &used, q));
            (used[a], used[d]) = (ua, ud);
            digits[w] = old;
            if swap {
                fallback.get_or_insert((w, x));
                continue;
            }
            let score =
                sum_combos(sa + x as u32, ra.cells.len()).len() * sum_combos(sd + x as u32, rd.cells.len()).len();
            if score < best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(x);
            }
        }
        if let Some(&x) = best.choose(rng) {
            chosen = Some((w, x));
            break;
        }
    }
    let apply = |lay: &mut Layout, digits: &mut [u8], w: usize, x: u8| {
        digits[w] = x;
        let [a, d] = lay.cell_runs[w];
        set_sums(lay, digits, [a as usize, d as usize].into_iter());
    };
    let (w, x) = chosen.or(fallback)?;
    apply(lay, digits, w, x);
    Some(w)
}

pub fn generate(p: &KakuroParams, rng: &mut Xoshiro256PlusPlus) -> Result<Generated<super::KakuroKind>, Reject> {
    let (rows, cols) = (p.rows as usize, p.cols as usize);
    let white = (0..LAYOUT_ATTEMPTS).find_map(|_| layout(p, rng)).ok_or(Reject::GeneratorFailed)?;
    let mut lay = Layout::new(&blank(rows, cols, &white)).map_err(|_| Reject::GeneratorFailed)?;
    let sq = Rects::new(&lay);
    let mut digits = fill(&lay, &sq, rng).ok_or(Reject::GeneratorFailed)?;
    let runs = lay.runs.len();
    set_sums(&mut lay, &digits, 0..runs);
    let mut repairs = 0;
    let mut proven = Proven::new();
    let budget = FULL_SEARCH_NODES_PER_CELL * lay.whites.len() as u64;
    // The fill always solves its own sums, so unique means: no other solution.
    let mut win = Windows::new(&lay);
    let mut extra = 0;
    let mut repaired = vec![false; lay.whites.len()];
    let mut last: Option<usize> = None;
    let limit = p.repair_limit(lay.whites.len());
    loop {
        // Windows first: a second solution confined to one is found at the window's cost. The
        // next is one holding the cell the last repair changed, if one is to be checked, else
        // the first: a repair's new second solution is likeliest around the changed cell, and
        // in board order it was found after checks of windows that the next repair marked
        // again, wasted. 20×20, 4 seeds of 300 candidates: accepted/s per core 41.3 → 49.1
        // (mean), accepted 850 → 879; the window whose centre is nearest the cell: 49.7.
        let next = last.and_then(|w| win.of_cell[w].iter().copied().find(|&i| win.dirty[i]));
        let other = match next.or_else(|| win.dirty.iter().position(|&d| d)) {
            Some(i) => match other_solution_within(&lay, &digits, &win.cells[i], WINDOW_NODES) {
                Other::Found(other) => other,
                Other::Unique | Other::Undecided => {
                    win.dirty[i] = false;
                    continue;
                }
            },
            // Boards within one window are small enough for one search with the cheap filter
            // (the split check's full propagation made 8×10 2.7× slower).
            None if win.cells.is_empty() => match other_solution(&lay, &digits, budget) {
                Other::Unique => break,
                Other::Undecided => return Err(Reject::Undecided),
                Other::Found(other) => other,
            },
            None => match other_solution_split(&lay, &digits, &mut proven, PART_SEARCH_NODES_PER_CELL) {
                Other::Unique => break,
                Other::Undecided => return Err(Reject::Undecided),
                Other::Found(other) => {
                    // A second solution the windows missed: watch its area as one more window.
                    if extra < EXTRA_WINDOWS {
                        win.add(&lay, diff_window(&lay, &digits, &other));
                        extra += 1;
                    }
                    other
                }
            },
        };
        if repairs >= limit {
            return Err(Reject::NotUnique);
        }
        let w = repair(&mut lay, &sq, &mut digits, &other, rng, &repaired).ok_or(Reject::NotUnique)?;
        repaired[w] = true;
        last = Some(w);
        repairs += 1;
        for r in lay.cell_runs[w] {
            for &i in &win.of_run[r as usize] {
                win.dirty[i] = true;
            }
        }
    }
    let puzzle = to_puzzle(&lay);
    let solution = lay.to_grid(&digits);
    Ok(Generated { puzzle, solution, repairs, proven_unique: true })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Unrepaired fills of 16×16 boards, their windows, and the whole-board search.
    fn fills() -> Vec<(Layout, Vec<u8>)> {
        let p = KakuroParams { rows: 16, cols: 16, ..Default::default() };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut out = Vec::new();
        while out.len() < 6 {
            let Some(white) = (0..LAYOUT_ATTEMPTS).find_map(|_| layout(&p, &mut rng)) else { continue };
            let mut lay = Layout::new(&blank(16, 16, &white)).unwrap();
            let Some(digits) = fill(&lay, &Rects::new(&lay), &mut rng) else { continue };
            let runs = lay.runs.len();
            set_sums(&mut lay, &digits, 0..runs);
            out.push((lay, digits));
        }
        out
    }

    fn solves(lay: &Layout, digits: &[u8]) -> bool {
        lay.runs.iter().all(|run| {
            let mask = run.cells.iter().fold(0u16, |m, &c| m | 1 << digits[c as usize]);
            let sum: u32 = run.cells.iter().map(|&c| digits[c as usize] as u32).sum();
            mask & !ALL == 0 && mask.count_ones() as usize == run.cells.len() && sum == run.sum as u32
        })
    }

    #[test]
    fn window_checks_find_real_second_solutions_inside_the_window() {
        let mut found = 0;
        for (lay, digits) in fills() {
            let win = Windows::new(&lay);
            assert_eq!(win.cells.len(), 4, "15 interior rows and columns: windows from 0 and 5 each way");
            for cells in &win.cells {
                if let Other::Found(other) = other_solution_within(&lay, &digits, cells, WINDOW_NODES) {
                    found += 1;
                    assert_ne!(other, digits);
                    assert!((0..digits.len()).all(|w| other[w] == digits[w] || cells.contains(&(w as u32))));
                    assert!(solves(&lay, &other));
                }
            }
        }
        assert!(found >= 6, "{found}");
    }

    #[test]
    fn a_second_solution_inside_a_window_is_not_missed() {
        let mut checked = 0;
        for (lay, digits) in fills() {
            let win = Windows::new(&lay);
            let Other::Found(other) = other_solution(&lay, &digits, u64::MAX) else { continue };
            assert!(solves(&lay, &other));
            let diff: Vec<u32> =
                (0..digits.len() as u32).filter(|&w| other[w as usize] != digits[w as usize]).collect();
            for cells in win.cells.iter().filter(|c| diff.iter().all(|w| c.contains(w))) {
                checked += 1;
                let o = other_solution_within(&lay, &digits, cells, u64::MAX);
                assert!(matches!(o, Other::Found(_)), "a window holding a known second solution was called unique");
            }
        }
        assert!(checked > 0);
    }

    #[test]
    fn split_check_agrees_with_the_whole_board_search() {
        // Generated (unique) boards, then one digit after another changed and its two sums
        // recomputed (often no longer unique), one cache of proven parts per board throughout.
        let p = KakuroParams { rows: 12, cols: 12, ..Default::default() };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut seen = [0usize; 2];
        for _ in 0..30 {
            let Ok(g) = generate(&p, &mut rng) else { continue };
            let mut lay = Layout::new(&g.puzzle).unwrap();
            let mut digits = lay.whites_of(&g.solution);
            let mut proven = Proven::new();
            for _ in 0..6 {
                match (
                    other_solution(&lay, &digits, u64::MAX),
                    other_solution_split(&lay, &digits, &mut proven, 1 << 30),
                ) {
                    (Other::Unique, Other::Unique) => seen[0] += 1,
                    (Other::Found(_), Other::Found(other)) => {
                        assert_ne!(other, digits);
                        assert!(solves(&lay, &other));
                        seen[1] += 1;
                    }
                    _ => panic!("the split check and the whole-board search disagree"),
                }
                let w = rng.gen_range(0..digits.len());
                let used = lay.cell_runs[w]
                    .iter()
                    .fold(0u16, |m, &r| lay.runs[r as usize].cells.iter().fold(m, |m, &c| m | 1 << digits[c as usize]));
                let free: Vec<u8> = (1..=9).filter(|d| used >> d & 1 == 0).collect();
                if let Some(&x) = free.choose(&mut rng) {
                    digits[w] = x;
                    let [a, d] = lay.cell_runs[w];
                    set_sums(&mut lay, &digits, [a as usize, d as usize].into_iter());
                }
            }
        }
        assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
    }
}
