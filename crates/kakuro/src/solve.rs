//! The Kakuro layout (white cells, runs, which runs cross where) and the fast solution counter.
//!
//! Counter: every run keeps the combinations from the per-(sum, length) table that its cells
//! can still realise (a bit per combination: at most 12 per entry); a cell's candidates are the
//! intersection of its across and down runs' digits. Propagation per run, to a fixpoint:
//! drop combinations that miss a cell's candidates or use a digit no cell can take; keep each
//! cell within the union of the live combinations; a placed digit leaves the run's other cells;
//! a digit every live combination needs with one place left goes there. Then branch on the cell
//! or the run with the fewest options (digits, resp. combinations), whichever is smaller.

use super::{Cell, Grid, Kakuro, MAX_READ_SIDE};
use pf_core::common::cage::sum_combos;

/// All digits 1..=9 as a candidate mask (bit d = digit d).
pub const ALL: u16 = 0b11_1111_1110;

/// The combinations of a free run (`Run::is_free`): any one digit.
static FREE: [u16; 9] = [1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8, 1 << 9];

/// One run: its sum, its cells (white indices, in order), its direction and clue cell.
#[derive(Clone, Debug)]
pub struct Run {
    pub sum: u8,
    pub cells: Vec<u32>,
    pub across: bool,
    /// Grid index of the clue block.
    pub clue: u32,
    /// The table's combinations for (sum, len).
    pub combos: &'static [u16],
}

impl Run {
    /// A free run: one white cell that no clue covers in this direction (sum 0, any digit).
    /// Read boards may have them (Holst's Kakuro); generated ones never do.
    pub fn is_free(&self) -> bool {
        self.sum == 0
    }
}

/// The structure of a board: white cells, runs, and the two runs through each white cell.
#[derive(Clone, Debug)]
pub struct Layout {
    pub rows: usize,
    pub cols: usize,
    /// Grid index of each white cell, row-major.
    pub whites: Vec<u32>,
    /// White index of each grid cell, `u32::MAX` on blocks.
    pub white_of: Vec<u32>,
    /// Across runs first (row-major), then down runs.
    pub runs: Vec<Run>,
    /// [across run, down run] of each white cell.
    pub cell_runs: Vec<[u32; 2]>,
}

impl Layout {
    /// Derive and check the structure: first row and column are blocks, every white cell lies
    /// in an across and a down run of 2 to 9 cells, each with a clue whose sum some set of
    /// distinct digits reaches; no clue without a run. A white cell alone between blocks in one
    /// direction, with no clue there, gets a free run in it (`Run::is_free`).
    pub fn new(k: &Kakuro) -> Result<Layout, String> {
        let (rows, cols) = (k.rows, k.cols);
        if !(1..=MAX_READ_SIDE).contains(&rows) || !(1..=MAX_READ_SIDE).contains(&cols) {
            return Err(format!("board must be 1 to {MAX_READ_SIDE} rows and columns, got {rows}×{cols}"));
        }
        if k.cells.len() != rows * cols {
            return Err(format!("{} cells for a {rows}×{cols} board", k.cells.len()));
        }
        let white = |r: usize, c: usize| k.cells[r * cols + c] == Cell::White;
        let mut white_of = vec![u32::MAX; rows * cols];
        let mut whites = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if white(r, c) {
                    if r == 0 || c == 0 {
                        return Err(format!("cell [{r}, {c}] is white, but the first row and column are blocks"));
                    }
                    white_of[r * cols + c] = whites.len() as u32;
                    whites.push((r * cols + c) as u32);
                }
            }
        }
        let mut runs = Vec::new();
        let mut cell_runs = vec![[u32::MAX; 2]; whites.len()];
        for across in [true, false] {
            let (outer, inner) = if across { (rows, cols) } else { (cols, rows) };
            let at = |o: usize, i: usize| if across { (o, i) } else { (i, o) };
            for o in 0..outer {
                for i in 0..inner {
                    let (r, c) = at(o, i);
                    let Cell::Block { down, right } = k.cells[r * cols + c] else { continue };
                    let sum = if across { right } else { down };
                    let mut cells = Vec::new();
                    let mut j = i + 1;
                    while j < inner && white(at(o, j).0, at(o, j).1) {
                        let (rr, cc) = at(o, j);
                        cells.push(white_of[rr * cols + cc]);
                        j += 1;
                    }
                    let dir = if across { "right" } else { "down" };
                    match (sum, cells.len()) {
                        (0, 0) => continue,
                        // A lone white cell with no clue this way (boards of Holst's Kakuro):
                        // no run constrains it here, so it gets a free run, any digit.
                        (0, 1) => {
                            cell_runs[cells[0] as usize][!across as usize] = runs.len() as u32;
                            let clue = (r * cols + c) as u32;
                            runs.push(Run { sum: 0, cells, across, clue, combos: &FREE });
                            continue;
                        }
                        (0, n) => return Err(format!("block [{r}, {c}] has no {dir} sum for its run of {n} cells")),
                        (s, 0) => return Err(format!("block [{r}, {c}] has {dir} sum {s} but no run")),
                        (_, 1) => return Err(format!("block [{r}, {c}] starts a {dir} run of 1 cell (needs 2 to 9)")),
                        (_, n) if n > 9 => {
                            return Err(format!("block [{r}, {c}] starts a {dir} run of {n} cells (at most 9)"))
                        }
                        _ => {}
                    }
                    let combos = sum_combos(sum as u32, cells.len());
                    if combos.is_empty() {
                        return Err(format!("block [{r}, {c}]: no {} different digits add up to {sum}", cells.len()));
                    }
                    let idx = runs.len() as u32;
                    for &w in &cells {
                        cell_runs[w as usize][!across as usize] = idx;
                    }
                    runs.push(Run { sum, cells, across, clue: (r * cols + c) as u32, combos });
                }
            }
        }
        if let Some(w) = cell_runs.iter().position(|cr| cr.contains(&u32::MAX)) {
            let g = whites[w] as usize;
            return Err(format!("white cell [{}, {}] is not in both an across and a down run", g / cols, g % cols));
        }
        Ok(Layout { rows, cols, whites, white_of, runs, cell_runs })
    }

    /// Digits per white cell → the full board grid with 0 on blocks.
    pub fn to_grid(&self, digits: &[u8]) -> Grid {
        let mut g = vec![0; self.rows * self.cols];
        for (w, &d) in digits.iter().enumerate() {
            g[self.whites[w] as usize] = d;
        }
        Grid { cols: self.cols, digits: g }
    }

    /// The digits of the white cells, read from a full board grid.
    pub(crate) fn whites_of(&self, grid: &Grid) -> Vec<u8> {
        self.whites.iter().map(|&g| grid.digits.get(g as usize).copied().unwrap_or(0)).collect()
    }
}

/// Candidates per white cell and live combinations per run.
#[derive(Clone, Debug)]
pub struct State {
    pub cand: Vec<u16>,
    pub live: Vec<u16>,
}

impl State {
    /// Every digit in every cell, every combination live.
    pub fn new(lay: &Layout) -> State {
        State {
            cand: vec![ALL; lay.whites.len()],
            live: lay.runs.iter().map(|r| ((1u32 << r.combos.len()) - 1) as u16).collect(),
        }
    }
}

/// The propagation engine; its buffers are reused across calls.
pub struct Propagator<'a> {
    pub lay: &'a Layout,
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// Runs whose cells changed since their last full (assignment) check, as flags and as a
    /// list (so the full pass visits only those, not every run of the board).
    full_dirty: Vec<bool>,
    dirty: Vec<u32>,
    spare: Vec<u32>,
    /// Run the full check (see `run_queue`); off, only the cheap filter runs.
    pub full: bool,
}

impl<'a> Propagator<'a> {
    /// A propagator with every run's full check pending.
    pub fn new(lay: &'a Layout) -> Propagator<'a> {
        let mut p = Propagator::clean(lay);
        p.full_dirty.fill(true);
        p.dirty.extend(0..lay.runs.len() as u32);
        p
    }

    /// A propagator with no full check pending (for a state known consistent).
    pub(crate) fn clean(lay: &'a Layout) -> Propagator<'a> {
        Propagator {
            lay,
            queue: Vec::with_capacity(lay.runs.len()),
            queued: vec![false; lay.runs.len()],
            full_dirty: vec![false; lay.runs.len()],
            dirty: Vec::with_capacity(lay.runs.len()),
            spare: Vec::with_capacity(lay.runs.len()),
            full: false,
        }
    }

    fn mark(&mut self, r: usize) {
        if !std::mem::replace(&mut self.full_dirty[r], true) {
            self.dirty.push(r as u32);
        }
    }

    /// Forget every pending full check (the state is known to be consistent for them).
    fn clear_dirty(&mut self) {
        for r in self.dirty.drain(..) {
            self.full_dirty[r as usize] = false;
        }
    }

    fn push(&mut self, r: u32) {
        if !std::mem::replace(&mut self.queued[r as usize], true) {
            self.queue.push(r);
        }
    }

    /// Propagate from every run. False when a contradiction appears.
    pub(crate) fn propagate_all(&mut self, st: &mut State) -> bool {
        for r in 0..self.lay.runs.len() as u32 {
            self.mark(r as usize);
            self.push(r);
        }
        self.run_queue(st)
    }

    /// Propagate after cell `w` of a propagated state changed. False when a contradiction appears.
    pub(crate) fn propagate_cell(&mut self, st: &mut State, w: usize) -> bool {
        let [a, d] = self.lay.cell_runs[w];
        for r in [a, d] {
            self.mark(r as usize);
            self.push(r);
        }
        self.run_queue(st)
    }

    /// Propagate after run `r`'s live combinations changed in a propagated state.
    pub(crate) fn propagate_run(&mut self, st: &mut State, r: usize) -> bool {
        self.mark(r);
        self.push(r as u32);
        self.run_queue(st)
    }

    /// The cheap filter to a fixpoint; then, when `full` is on, the full check on runs that
    /// changed since their last one, and what that removes goes back through the cheap filter.
    /// The full check makes each node about 4× dearer at 8×10 but keeps searches on large,
    /// nearly unique boards from exploding (see `search_with_fallback`).
    fn run_queue(&mut self, st: &mut State) -> bool {
        loop {
            while let Some(r) = self.queue.pop() {
                self.queued[r as usize] = false;
                if !self.revise(st, r as usize) {
                    return self.fail();
                }
            }
            if !self.full {
                return true;
            }
            let mut any = false;
            let mut todo = std::mem::replace(&mut self.dirty, std::mem::take(&mut self.spare));
            todo.sort_unstable();
            for &r in &todo {
                self.full_dirty[r as usize] = false;
            }
            for &r in &todo {
                if !self.revise_full(st, r as usize) {
                    todo.clear();
                    self.spare = todo;
                    return self.fail();
                }
                any |= !self.queue.is_empty();
            }
            todo.clear();
            self.spare = todo;
            if !any && self.queue.is_empty() {
                return true;
            }
        }
    }

    fn fail(&mut self) -> bool {
        for q in self.queue.drain(..) {
            self.queued[q as usize] = false;
        }
        // Every caller starts from a fully propagated state plus its own change (which marks
        // its runs), so nothing else needs a recheck.
        self.clear_dirty();
        false
    }

    /// The cheap filter, to its own fixpoint: drop combinations that miss a cell's candidates
    /// or use a digit no cell can take; keep each cell within the live digits; a placed digit
    /// leaves the run's other cells; a digit every live combination needs with one place left
    /// goes there.
    fn revise(&mut self, st: &mut State, r: usize) -> bool {
        let lay = self.lay;
        let run = &lay.runs[r];
        let n = run.cells.len();
        // The cells' candidates, worked on in place and written back once (a failed state is
        // dropped by every caller).
        let mut c = [0u16; 9];
        for (x, &w) in c.iter_mut().zip(&run.cells) {
            *x = st.cand[w as usize];
        }
        let orig = c;
        let c = &mut c[..n];
        let mut live = st.live[r];
        let mut any_change = false;
        loop {
            let union = c.iter().fold(0u16, |m, &x| m | x);
            let (mut allowed, mut must) = (0u16, ALL);
            let mut m = live;
            while m != 0 {
                let i = m.trailing_zeros();
                m &= m - 1;
                let combo = run.combos[i as usize];
                if combo & !union != 0 || c.iter().any(|&x| x & combo == 0) {
                    live &= !(1 << i);
                } else {
                    allowed |= combo;
                    must &= combo;
                }
            }
            if live == 0 {
                return false;
            }
            let mut changed = false;
            let mut fixed = 0u16;
            for x in c.iter_mut() {
                let new = *x & allowed;
                if new == 0 {
                    return false;
                }
                changed |= new != *x;
                *x = new;
                if new & (new - 1) == 0 {
                    if fixed & new != 0 {
                        return false;
                    }
                    fixed |= new;
                }
            }
            let (mut once, mut twice) = (0u16, 0u16);
            for x in c.iter_mut() {
                let old = *x;
                if old & (old - 1) != 0 && old & fixed != 0 {
                    let new = old & !fixed;
                    if new == 0 {
                        return false;
                    }
                    *x = new;
                    changed = true;
                }
                twice |= once & *x;
                once |= *x;
            }
            if must & !once != 0 {
                return false;
            }
            let mut single = must & !twice & !fixed;
            while single != 0 {
                let d = single & single.wrapping_neg();
                single &= single - 1;
                if let Some(x) = c.iter_mut().find(|x| **x & d != 0) {
                    if *x != d {
                        *x = d;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
            any_change = true;
        }
        st.live[r] = live;
        if any_change {
            for (i, &w) in run.cells.iter().enumerate() {
                if c[i] != orig[i] {
                    st.cand[w as usize] = c[i];
                    self.push_other(w as usize, r);
                }
            }
            self.mark(r);
        }
        true
    }

    /// Make one run consistent: keep the combinations that some assignment of distinct digits
    /// from its cells' candidates realises, and in each cell the digits such assignments use
    /// (so a single revise is a fixpoint for this run). Crossing runs of changed cells are queued.
    fn revise_full(&mut self, st: &mut State, r: usize) -> bool {
        let lay = self.lay;
        let run = &lay.runs[r];
        let n = run.cells.len();
        let mut cells = [0u16; 9];
        let mut union = 0u16;
        for (i, &w) in run.cells.iter().enumerate() {
            cells[i] = st.cand[w as usize];
            union |= cells[i];
        }
        let cells = &cells[..n];
        let mut live = st.live[r];
        let mut keep = [0u16; 9];
        let mut m = live;
        while m != 0 {
            let i = m.trailing_zeros();
            m &= m - 1;
            let combo = run.combos[i as usize];
            // Cheap tests first: every digit has a cell, every cell a digit.
            let support = if combo & !union != 0 || cells.iter().any(|&c| c & combo == 0) {
                None
            } else if cells.iter().all(|&c| c & combo == combo) {
                // Every cell can take every digit: every assignment works.
                Some([combo; 9])
            } else {
                combo_support(cells, combo)
            };
            match support {
                None => live &= !(1 << i),
                Some(s) => {
                    for j in 0..n {
                        keep[j] |= s[j];
                    }
                }
            }
        }
        if live == 0 {
            return false;
        }
        st.live[r] = live;
        for (j, &w) in run.cells.iter().enumerate() {
            let w = w as usize;
            if st.cand[w] & !keep[j] != 0 {
                st.cand[w] &= keep[j];
                self.push_other(w, r);
            }
        }
        true
    }

    #[inline]
    fn push_other(&mut self, w: usize, r: usize) {
        let [a, d] = self.lay.cell_runs[w];
        let other = if a as usize == r { d } else { a };
        self.mark(other as usize);
        self.push(other);
    }
}

/// Which candidates of `cells` can take part in an assignment of distinct digits that is
/// exactly `combo`; None when there is none. Forward lists and backward sets of used-digit
/// masks (at most C(9, k) per position, 512 in all) make this linear in the run length; no
/// allocation (it runs for every run at every level-3 try).
pub(crate) fn combo_support(cells: &[u16], combo: u16) -> Option<[u16; 9]> {
    if cells.len() <= 5 {
        return combo_support_small(cells, combo);
    }
    type Set = [u64; 16];
    let has = |s: &Set, m: u16| s[m as usize >> 6] >> (m & 63) & 1 == 1;
    let n = cells.len();
    // Forward: the masks cells[..i] can use, for each i, in one flat buffer.
    let mut buf = [0u16; 1024];
    let mut start = [0usize; 11];
    buf[0] = 0;
    start[1] = 1;
    for i in 0..n {
        let mut seen: Set = [0; 16];
        let mut end = start[i + 1];
        for k in start[i]..start[i + 1] {
            let m = buf[k];
            let mut free = cells[i] & combo & !m;
            while free != 0 {
                let x = m | (free & free.wrapping_neg());
                free &= free - 1;
                if !has(&seen, x) {
                    seen[x as usize >> 6] |= 1 << (x & 63);
                    buf[end] = x;
                    end += 1;
                }
            }
        }
        if end == start[i + 1] {
            return None;
        }
        start[i + 2] = end;
    }
    if !buf[start[n]..start[n + 1]].contains(&combo) {
        return None;
    }
    // Backward: the sets of masks cells[i..] can use (lists alternate between two halves).
    let mut back: [Set; 10] = [[0; 16]; 10];
    back[n][0] = 1;
    let mut lists = [0u16; 1024];
    let (mut from, mut len) = (0usize, 1usize);
    for i in (0..n).rev() {
        let to = 512 - from;
        let mut next_len = 0;
        for k in 0..len {
            let m = lists[from + k];
            let mut free = cells[i] & combo & !m;
            while free != 0 {
                let x = m | (free & free.wrapping_neg());
                free &= free - 1;
                if !has(&back[i], x) {
                    back[i][x as usize >> 6] |= 1 << (x & 63);
                    lists[to + next_len] = x;
                    next_len += 1;
                }
            }
        }
        (from, len) = (to, next_len);
    }
    let mut support = [0u16; 9];
    for i in 0..n {
        let mut ds = cells[i] & combo;
        while ds != 0 {
            let d = ds & ds.wrapping_neg();
            ds &= ds - 1;
            if buf[start[i]..start[i + 1]].iter().any(|&m| m & d == 0 && has(&back[i + 1], combo & !m & !d)) {
                support[i] |= d;
            }
        }
    }
    Some(support)
}

/// `combo_support` for short runs: every assignment, depth first (at most 5! leaves).
fn combo_support_small(cells: &[u16], combo: u16) -> Option<[u16; 9]> {
    fn dfs(cells: &[u16], combo: u16, used: u16, cur: &mut [u16; 9], support: &mut [u16; 9]) -> bool {
        let i = used.count_ones() as usize;
        if i == cells.len() {
            for j in 0..i {
                support[j] |= cur[j];
            }
            return true;
        }
        let mut any = false;
        let mut free = cells[i] & combo & !used;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free &= free - 1;
            cur[i] = bit;
            any |= dfs(cells, combo, used | bit, cur, support);
        }
        any
    }
    if combo.count_ones() as usize != cells.len() {
        return None;
    }
    let mut support = [0u16; 9];
    dfs(cells, combo, 0, &mut [0; 9], &mut support).then_some(support)
}

/// What a count found: how many solutions (capped at the limit), the first ones (digits per
/// white cell), and the search nodes visited.
pub struct Found {
    pub count: usize,
    pub solutions: Vec<Vec<u8>>,
    pub nodes: u64,
    /// Give up (set `aborted`) after this many nodes.
    budget: u64,
    pub aborted: bool,
}

/// Search with the cheap filter and a node budget (a few nodes per white cell: nearly every
/// 8×10 and 15×15 count fits), and if that runs out, again with the full check, which needs far
/// fewer nodes where the cheap search explodes (30×30 boards near uniqueness). `full_budget`
/// caps the second search (`aborted` is then set).
fn search_with_fallback(lay: &Layout, limit: usize, avoid: Option<&[u8]>, full_budget: u64) -> Found {
    let found = search_from_scratch(lay, false, 64 + 8 * lay.whites.len() as u64, limit, avoid);
    if found.aborted {
        search_from_scratch(lay, true, full_budget, limit, avoid)
    } else {
        found
    }
}

/// One search from the empty board, with the full check on or off and a node budget.
fn search_from_scratch(lay: &Layout, full: bool, budget: u64, limit: usize, avoid: Option<&[u8]>) -> Found {
    let mut found = Found { count: 0, solutions: Vec::new(), nodes: 0, budget, aborted: false };
    let mut st = State::new(lay);
    let mut prop = Propagator::new(lay);
    prop.full = full;
    if prop.propagate_all(&mut st) {
        search(&mut prop, st, limit, avoid, &mut found, &Scope::whole(lay));
    }
    found
}

/// Count solutions up to `limit`, keeping them (no budget: always decides).
pub fn count_solutions(lay: &Layout, limit: usize) -> Found {
    search_with_fallback(lay, limit, None, u64::MAX)
}

/// What the generator's search for a second solution decided.
pub enum Other {
    Unique,
    Found(Vec<u8>),
    /// The node budget ran out first.
    Undecided,
}

/// Is there a solution other than `known` (digits per white cell)? The search tries `known`'s
/// digit (or combination) first at every branch and then backtracks from it: second solutions
/// mostly differ from the known one in a few cells decided deep in the tree, so they are met
/// soon after (measured 1.9× faster than trying `known` last). The generator's repair loop asks
/// this once per repair, with a node budget for the full-check search.
pub fn other_solution(lay: &Layout, known: &[u8], full_budget: u64) -> Other {
    let mut found = search_with_fallback(lay, 1, Some(known), full_budget);
    match found.solutions.pop() {
        Some(s) => Other::Found(s),
        None if found.aborted => Other::Undecided,
        None => Other::Unique,
    }
}

/// Is there a solution other than `known` that differs from it only in the white cells of
/// `window` (every other cell keeps its known digit)? Any such solution is a solution of the
/// whole board, so what this finds is a real second solution; it proves nothing about the rest
/// of the board. Only the runs through the window are propagated, so the check costs what the
/// window costs, not what the board costs (the generator sweeps large boards with these before
/// each whole-board check). `Undecided` when `budget` nodes did not settle it.
pub(crate) fn other_solution_within(lay: &Layout, known: &[u8], window: &[u32], budget: u64) -> Other {
    // Only the runs through the window are ever revised or branched on (the cells outside
    // keep one digit each, so nothing propagates past them), and theirs are set below: the
    // other runs' combinations are never read and stay 0.
    let mut st = State { cand: known.iter().map(|&d| 1u16 << d).collect(), live: vec![0; lay.runs.len()] };
    let mut prop = Propagator::clean(lay);
    for &w in window {
        st.cand[w as usize] = ALL;
        for r in lay.cell_runs[w as usize] {
            st.live[r as usize] = ((1u32 << lay.runs[r as usize].combos.len()) - 1) as u16;
            prop.push(r);
        }
    }
    let mut found = Found { count: 0, solutions: Vec::new(), nodes: 0, budget, aborted: false };
    if prop.run_queue(&mut st) {
        search(&mut prop, st, 1, Some(known), &mut found, &Scope::of_cells(lay, window.to_vec()));
    }
    match found.solutions.pop() {
        Some(s) => Other::Found(s),
        None if found.aborted => Other::Undecided,
        None => Other::Unique,
    }
}

/// Parts of a board proven to have exactly one solution, keyed by what decides that: the part's
/// cells and, for each run through them, its sum and the digits its other cells hold (see
/// `other_solution_split`). Valid for one layout.
pub type Proven = std::collections::HashSet<Vec<u32>>;

/// Is there a solution other than `known`? Like `other_solution`, but the board is first
/// propagated from its clues and split into parts: the open cells (more than one candidate)
/// linked through the runs they share. Each run's open cells lie in one part, so the solutions
/// of the board are every combination of the parts' solutions (the decided cells hold their
/// known digits in all of them), and the board is unique exactly when every part, with the
/// rest at its known digits, is. Parts are searched smallest first, each on its own (a search
/// over the whole board multiplies the parts' trees where this adds them); parts in `proven`
/// are skipped and parts found unique are added, so a repair that leaves a part unchanged does
/// not search it again. `full_budget` caps each part's full-check search.
pub(crate) fn other_solution_split(lay: &Layout, known: &[u8], proven: &mut Proven, nodes_per_cell: u64) -> Other {
    let mut st = State::new(lay);
    let mut prop = Propagator::new(lay);
    prop.full = true;
    if !prop.propagate_all(&mut st) {
        // `known` solves the board, so propagation cannot fail.
        unreachable!("the known solution contradicts propagation");
    }
    let parts = open_parts(lay, &st);
    let mut cx = Split::new(lay, known);
    for part in parts {
        let key = part_key(lay, known, &st, &part);
        if proven.contains(&key) {
            continue;
        }
        cx.nodes = 0;
        cx.budget = nodes_per_cell * part.len() as u64 + 200;
        match cx.search(&mut prop, st.clone(), &part, true) {
            Some(mut other) => {
                // The other parts keep their known digits: they share no run with this one.
                for (w, c) in other.cand.iter_mut().enumerate() {
                    if *c & (*c - 1) != 0 {
                        *c = 1 << known[w];
                    }
                }
                return Other::Found(other.cand.iter().map(|m| m.trailing_zeros() as u8).collect());
            }
            None if cx.aborted => return Other::Undecided,
            None => {
                proven.insert(key);
            }
        }
    }
    Other::Unique
}

/// A search that splits: wherever the open cells fall into parts that share no run, each part
/// is searched on its own (the parts' solutions combine freely), so the tree grows with the
/// sum of the parts' trees, not their product.
struct Split<'a> {
    lay: &'a Layout,
    known: &'a [u8],
    nodes: u64,
    budget: u64,
    aborted: bool,
    /// Union-find parent per white cell, and a representative open cell per run (scratch).
    parent: Vec<u32>,
    run_rep: Vec<u32>,
}

impl<'a> Split<'a> {
    fn new(lay: &'a Layout, known: &'a [u8]) -> Split<'a> {
        Split {
            lay,
            known,
            nodes: 0,
            budget: 0,
            aborted: false,
            parent: (0..lay.whites.len() as u32).collect(),
            run_rep: vec![u32::MAX; lay.runs.len()],
        }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = p;
            x = p;
        }
        x
    }

    /// The open cells of `cells`, grouped by shared runs (in order of first cell).
    fn components(&mut self, st: &State, cells: &[u32]) -> Vec<Vec<u32>> {
        let lay = self.lay;
        let open = |w: u32| st.cand[w as usize] & (st.cand[w as usize] - 1) != 0;
        for &w in cells.iter().filter(|&&w| open(w)) {
            self.parent[w as usize] = w;
        }
        for &w in cells.iter().filter(|&&w| open(w)) {
            for r in lay.cell_runs[w as usize] {
                let rep = self.run_rep[r as usize];
                if rep == u32::MAX {
                    self.run_rep[r as usize] = w;
                } else {
                    let (a, b) = (self.find(rep), self.find(w));
                    if a != b {
                        self.parent[b as usize] = a;
                    }
                }
            }
        }
        let mut comps: Vec<Vec<u32>> = Vec::new();
        let mut roots: Vec<u32> = Vec::new();
        for &w in cells.iter().filter(|&&w| open(w)) {
            for r in lay.cell_runs[w as usize] {
                self.run_rep[r as usize] = u32::MAX;
            }
            let root = self.find(w);
            match roots.iter().position(|&x| x == root) {
                Some(i) => comps[i].push(w),
                None => {
                    roots.push(root);
                    comps.push(vec![w]);
                }
            }
        }
        comps
    }

    /// A solution of the propagated state `st` over the open cells among `cells` (every other
    /// open cell shares no run with them and is left as it is): one other than `known` there
    /// when `on_path` (every decision so far agrees with `known`), else any. The returned state
    /// has those cells decided.
    fn search(&mut self, prop: &mut Propagator, st: State, cells: &[u32], on_path: bool) -> Option<State> {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return None;
        }
        let comps = self.components(&st, cells);
        match comps.len() {
            // Decided: on the known path that is `known` itself.
            0 => return (!on_path).then_some(st),
            1 => {}
            _ if on_path => {
                for (i, comp) in comps.iter().enumerate() {
                    if let Some(mut s) = self.search(prop, st.clone(), comp, true) {
                        for (j, c) in comps.iter().enumerate() {
                            if j != i {
                                for &w in c {
                                    s.cand[w as usize] = 1 << self.known[w as usize];
                                }
                            }
                        }
                        return Some(s);
                    }
                    if self.aborted {
                        return None;
                    }
                }
                return None;
            }
            _ => {
                // Off the known path every part needs a solution: the smallest fail soonest.
                let mut comps = comps;
                comps.sort_by_key(|c| c.len());
                let mut acc = st;
                for comp in &comps {
                    acc = self.search(prop, acc, comp, false)?;
                }
                return Some(acc);
            }
        }
        let comp = &comps[0];
        let lay = self.lay;
        // The cell with the fewest candidates.
        let (mut best_cell, mut cell_n) = (usize::MAX, u32::MAX);
        for &w in comp {
            let n = st.cand[w as usize].count_ones();
            if n < cell_n {
                (best_cell, cell_n) = (w as usize, n);
                if n == 2 {
                    break;
                }
            }
        }
        // The run with the fewest live combinations (more than one), if fewer than the cell's digits.
        let (mut best_run, mut run_n) = (usize::MAX, cell_n);
        if cell_n > 2 {
            for &w in comp {
                for r in lay.cell_runs[w as usize] {
                    let n = st.live[r as usize].count_ones();
                    if n > 1 && n < run_n {
                        (best_run, run_n) = (r as usize, n);
                    }
                }
            }
        }
        let known = self.known;
        if best_run != usize::MAX {
            let run = &lay.runs[best_run];
            let known_combo = {
                let digits = run.cells.iter().fold(0u16, |m, &w| m | 1 << known[w as usize]);
                run.combos.iter().position(|&c| c == digits).map_or(0, |i| 1 << i)
            };
            for bit in ordered(st.live[best_run], known_combo) {
                let mut next = st.clone();
                next.live[best_run] = bit;
                if prop.propagate_run(&mut next, best_run) {
                    if let Some(s) = self.search(prop, next, comp, on_path && bit == known_combo) {
                        return Some(s);
                    }
                }
                if self.aborted {
                    return None;
                }
            }
        } else {
            let known_digit = 1 << known[best_cell];
            for bit in ordered(st.cand[best_cell], known_digit) {
                let mut next = st.clone();
                next.cand[best_cell] = bit;
                if prop.propagate_cell(&mut next, best_cell) {
                    if let Some(s) = self.search(prop, next, comp, on_path && bit == known_digit) {
                        return Some(s);
                    }
                }
                if self.aborted {
                    return None;
                }
            }
        }
        None
    }
}

/// The open cells of a propagated state, grouped into parts linked by shared runs, smallest
/// part first (ties by first cell).
fn open_parts(lay: &Layout, st: &State) -> Vec<Vec<u32>> {
    let n = lay.whites.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let p = parent[parent[x as usize] as usize];
            parent[x as usize] = p;
            x = p;
        }
        x
    }
    let open = |w: u32| st.cand[w as usize].count_ones() > 1;
    for run in &lay.runs {
        let mut first = None;
        for &w in run.cells.iter().filter(|&&w| open(w)) {
            match first {
                None => first = Some(find(&mut parent, w)),
                Some(f) => {
                    let r = find(&mut parent, w);
                    parent[r as usize] = f;
                }
            }
        }
    }
    let mut index = vec![u32::MAX; n];
    let mut parts: Vec<Vec<u32>> = Vec::new();
    for w in (0..n as u32).filter(|&w| open(w)) {
        let root = find(&mut parent, w) as usize;
        if index[root] == u32::MAX {
            index[root] = parts.len() as u32;
            parts.push(Vec::new());
        }
        parts[index[root] as usize].push(w);
    }
    parts.sort_by_key(|p| p.len());
    parts
}

/// What decides whether a part has one solution: its cells, then per run through them (in
/// run order) the run's sum and the digits of its cells outside the part.
fn part_key(lay: &Layout, known: &[u8], st: &State, part: &[u32]) -> Vec<u32> {
    let mut runs: Vec<u32> = part.iter().flat_map(|&w| lay.cell_runs[w as usize]).collect();
    runs.sort_unstable();
    runs.dedup();
    let mut key = part.to_vec();
    key.push(u32::MAX);
    for r in runs {
        let run = &lay.runs[r as usize];
        // Cells outside the part in a run through it are decided (open ones would be in it).
        let fixed = run
            .cells
            .iter()
            .filter(|&&w| st.cand[w as usize].count_ones() == 1)
            .fold(0u32, |m, &w| m | 1 << known[w as usize]);
        key.push(r << 16 | (run.sum as u32) << 10 | fixed);
    }
    key
}

/// Bits of `m` in order, with `first` (if set in `m`) moved to the front.
fn ordered(m: u16, first: u16) -> impl Iterator<Item = u16> {
    let head = m & first;
    let rest = m & !first;
    (head != 0).then_some(head).into_iter().chain((0..16).map(move |i| 1u16 << i).filter(move |b| rest & b != 0))
}

/// The cells and runs a search branches on: the whole board, or a part whose other cells are
/// all decided (a window, a component).
pub struct Scope {
    pub cells: Vec<u32>,
    pub runs: Vec<u32>,
}

impl Scope {
    pub fn whole(lay: &Layout) -> Scope {
        Scope { cells: (0..lay.whites.len() as u32).collect(), runs: (0..lay.runs.len() as u32).collect() }
    }

    /// `cells` and every run through them.
    pub(crate) fn of_cells(lay: &Layout, cells: Vec<u32>) -> Scope {
        let mut runs: Vec<u32> = cells.iter().flat_map(|&w| lay.cell_runs[w as usize]).collect();
        runs.sort_unstable();
        runs.dedup();
        Scope { cells, runs }
    }
}

fn search(prop: &mut Propagator, st: State, limit: usize, avoid: Option<&[u8]>, found: &mut Found, scope: &Scope) {
    found.nodes += 1;
    if found.nodes > found.budget {
        found.aborted = true;
        return;
    }
    // The cell with the fewest candidates (more than one).
    let (mut best_cell, mut cell_n) = (usize::MAX, u32::MAX);
    for &w in &scope.cells {
        let (w, m) = (w as usize, st.cand[w as usize]);
        let n = m.count_ones();
        if n > 1 && n < cell_n {
            (best_cell, cell_n) = (w, n);
            if n == 2 {
                break;
            }
        }
    }
    if best_cell == usize::MAX {
        let digits: Vec<u8> = st.cand.iter().map(|m| m.trailing_zeros() as u8).collect();
        if avoid != Some(&digits[..]) {
            found.count += 1;
            found.solutions.push(digits);
        }
        return;
    }
    // The run with the fewest live combinations (more than one), if fewer than the cell's digits.
    let (mut best_run, mut run_n) = (usize::MAX, cell_n);
    if cell_n > 2 {
        for &r in &scope.runs {
            let (r, l) = (r as usize, st.live[r as usize]);
            let n = l.count_ones();
            if n > 1 && n < run_n {
                (best_run, run_n) = (r, n);
            }
        }
    }
    if best_run != usize::MAX {
        let run = &prop.lay.runs[best_run];
        let known_combo = avoid.map_or(0, |k| {
            let digits = run.cells.iter().fold(0u16, |m, &w| m | 1 << k[w as usize]);
            run.combos.iter().position(|&c| c == digits).map_or(0, |i| 1 << i)
        });
        for bit in ordered(st.live[best_run], known_combo) {
            if found.count >= limit || found.aborted {
                break;
            }
            let mut next = st.clone();
            next.live[best_run] = bit;
            if prop.propagate_run(&mut next, best_run) {
                search(prop, next, limit, avoid, found, scope);
            }
        }
    } else {
        let known_digit = avoid.map_or(0, |k| 1 << k[best_cell]);
        for bit in ordered(st.cand[best_cell], known_digit) {
            if found.count >= limit || found.aborted {
                break;
            }
            let mut next = st.clone();
            next.cand[best_cell] = bit;
            if prop.propagate_cell(&mut next, best_cell) {
                search(prop, next, limit, avoid, found, scope);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Brute force: every assignment of distinct digits of `combo` to the cells.
    fn brute(cells: &[u16], combo: u16) -> Option<[u16; 9]> {
        let mut support = [0u16; 9];
        let mut any = false;
        let n = cells.len();
        let digits: Vec<u8> = (1..=9).filter(|d| combo >> d & 1 == 1).collect();
        if digits.len() != n {
            return None;
        }
        let mut perm: Vec<u8> = digits.clone();
        // Heap's algorithm over the digits.
        fn heap(k: usize, perm: &mut Vec<u8>, f: &mut dyn FnMut(&[u8])) {
            if k == 1 {
                f(perm);
                return;
            }
            for i in 0..k {
                heap(k - 1, perm, f);
                let j = if k.is_multiple_of(2) { i } else { 0 };
                perm.swap(j, k - 1);
            }
        }
        heap(n, &mut perm, &mut |p: &[u8]| {
            if p.iter().zip(cells).all(|(&d, &c)| c >> d & 1 == 1) {
                any = true;
                for i in 0..n {
                    support[i] |= 1 << p[i];
                }
            }
        });
        any.then_some(support)
    }

    #[test]
    fn combo_support_agrees_with_brute_force() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..3000 {
            let n = rng.gen_range(2..=8);
            let sum = rng.gen_range(n * (n + 1) / 2..=(0..n).map(|k| 9 - k).sum::<usize>()) as u32;
            let combos = sum_combos(sum, n);
            let combo = combos[rng.gen_range(0..combos.len())];
            // Candidates: each cell keeps each digit with probability 0.6 (and sometimes all).
            let cells: Vec<u16> = (0..n)
                .map(|_| {
                    if rng.gen_bool(0.2) {
                        ALL
                    } else {
                        (1..=9).filter(|_| rng.gen_bool(0.6)).fold(0, |m, d| m | 1 << d)
                    }
                })
                .collect();
            let expected = brute(&cells, combo);
            assert_eq!(combo_support(&cells, combo), expected, "{cells:?} {combo:#b}");
        }
    }

    #[test]
    fn cheap_and_full_propagation_count_the_same() {
        // Generated boards with some sums moved: none, one or many solutions. The count must
        // not depend on the propagation strength (nor on the node budget's fallback).
        let params = crate::KakuroParams { rows: 6, cols: 7, ..Default::default() };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let mut counts = [0usize; 3];
        for _ in 0..60 {
            let Ok(g) = crate::generate::generate(&params, &mut rng) else { continue };
            let mut lay = Layout::new(&g.puzzle).unwrap();
            let mut digits = lay.whites_of(&g.solution);
            if rng.gen_bool(0.8) {
                // Change a few digits (no repeats) and recompute their sums: still solvable,
                // often not uniquely.
                for _ in 0..3 {
                    let w = rng.gen_range(0..digits.len());
                    let used = lay.cell_runs[w].iter().fold(0u16, |m, &r| {
                        lay.runs[r as usize].cells.iter().fold(m, |m, &c| m | 1 << digits[c as usize])
                    });
                    let free: Vec<u8> = (1..=9).filter(|d| used >> d & 1 == 0).collect();
                    if !free.is_empty() {
                        digits[w] = free[rng.gen_range(0..free.len())];
                    }
                }
            } else {
                // Move one sum by one: mostly no solution.
                let r = rng.gen_range(0..lay.runs.len());
                let w = lay.runs[r].cells[0] as usize;
                digits[w] = if digits[w] < 9 { digits[w] + 1 } else { digits[w] - 1 };
            }
            for run in lay.runs.iter_mut() {
                run.sum = run.cells.iter().map(|&w| digits[w as usize]).sum();
                run.combos = sum_combos(run.sum as u32, run.cells.len());
            }
            let cheap = search_from_scratch(&lay, false, u64::MAX, 30, None).count;
            let found = search_from_scratch(&lay, true, u64::MAX, 30, None);
            assert_eq!(cheap, found.count);
            assert_eq!(count_solutions(&lay, 30).count, cheap);
            counts[cheap.min(2)] += 1;
        }
        assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
    }
}
