//! The fast Sudoku solution counter (count to a limit, usually 2): the hot path of generation.
//!
//! Shape: candidates are stored per digit and per band (three rows), 27 bits each: bit
//! `row_in_band * 9 + col`. This is the band layout of the JCZSolve family of solvers, chosen
//! because one digit's whole band fits a `u32` and the band's row/box interactions become table
//! look-ups. Our tables are derived below from the rules themselves with `const fn`s:
//!
//! * a digit occupies one cell in each row and each box of a band, so the *minirows* (row ∩
//!   box) it uses form a permutation of the 3×3 row×box matrix; [`BAND_OK`] keeps only minirows
//!   that lie on some permutation allowed by the current candidates (this is pointing and
//!   claiming at once, plus hidden singles inside the band), [`FORCED`] marks the minirows on
//!   every such permutation;
//! * a box whose candidates lie in one column fixes the digit in that column for the band, so
//!   the column is cleared in the other two bands ([`OTHER_BANDS_OK`]); a forced minirow in a
//!   box with one column is a solved cell ([`FORCED_CELLS`] ∩ [`ONE_COL_CELLS`]: the two sets
//!   as cells, so the test is two look-ups and two ANDs).
//!
//! Naked singles and bivalue cells are found by bit-sliced counting over the nine digits.
//! Search branches on a bivalue cell when one exists, else on the first unsolved cell.
//!
//! Invariant: `unsolved[band]` holds the cells not yet fixed; a cell leaves it only when exactly
//! one digit remains for it and every peer has lost that digit, so `unsolved == 0` is a
//! solution. The plain reference solver lives in the tests (`tests/common`).

use super::band_tables::*;

#[inline(always)]
fn other_bands(sb: usize) -> (usize, usize) {
    let d = sb - sb % 3;
    let b = sb % 3;
    (d + (b + 1) % 3, d + (b + 2) % 3)
}

/// The givens sorted into digit-bands: bit `pos` of `[d * 3 + band]` set when cell
/// `band * 27 + pos` holds digit `d + 1`. `None` when a cell holds more than 9.
///
/// SSE2 (every x86-64 has it): one byte compare per 16 cells and digit. The scalar loop below
/// ORs each cell into a slot in memory, and the blanks all land in the same slot, a chain of
/// store-to-load dependencies: it took 7.7% of `solve` on 17-clue puzzles (perf).
#[cfg(target_arch = "x86_64")]
pub(crate) fn digit_bands(grid: &[u8; 81]) -> Option<[u32; 27]> {
    use std::arch::x86_64::*;
    let word = |i: usize| i64::from_le_bytes(grid[i..i + 8].try_into().expect("8 bytes"));
    // SAFETY: the intrinsics only need SSE2, which every x86-64 processor has; none touches
    // memory (the cells are read as integers above).
    unsafe {
        // Cells 0-63 in four vectors, 64-79 and 65-80 in two more (overlapping).
        let v = [0, 16, 32, 48, 64, 65].map(|i| _mm_set_epi64x(word(i + 8), word(i)));
        let nine = _mm_set1_epi8(9);
        let over = v.iter().fold(_mm_setzero_si128(), |acc, &x| _mm_or_si128(acc, _mm_subs_epu8(x, nine)));
        if _mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) != 0xffff {
            return None;
        }
        let mut placed = [0u32; 27];
        for d in 0..9 {
            let dv = _mm_set1_epi8(d as i8 + 1);
            let m = v.map(|x| _mm_movemask_epi8(_mm_cmpeq_epi8(x, dv)) as u32 as u64);
            let lo = m[0] | m[1] << 16 | m[2] << 32 | m[3] << 48;
            let hi = m[4] | m[5] << 1;
            placed[d * 3] = lo as u32 & ALL;
            placed[d * 3 + 1] = (lo >> 27) as u32 & ALL;
            placed[d * 3 + 2] = ((lo >> 54) | hi << 10) as u32 & ALL;
        }
        Some(placed)
    }
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn digit_bands(grid: &[u8; 81]) -> Option<[u32; 27]> {
    // Slot (digit * 3 + band); digit 0 (blank) fills a dummy slot.
    let mut slots = [0u32; 30];
    for band in 0..3 {
        for pos in 0..27 {
            let d = grid[band * 27 + pos] as usize;
            if d > 9 {
                return None;
            }
            slots[d * 3 + band] |= 1 << pos;
        }
    }
    Some(slots[3..30].try_into().expect("27 digit-bands"))
}

/// Marker: the position has no solution.
#[derive(Debug)]
struct Dead;

/// The solver state. `Copy` on purpose: branching copies the 150-byte state.
#[derive(Clone, Copy)]
pub struct BandSolver {
    /// Candidates of digit `d` (0-based) in band `b`: `cand[d * 3 + b]`.
    cand: [u32; 27],
    /// `cand` as last processed by `update`, to skip unchanged digit-bands.
    seen: [u32; 27],
    unsolved: [u32; 3],
    bivalue: [u32; 3],
    /// Always all ones. `update` tests it before each digit-band although the test is always
    /// true: the optimiser cannot see that, and the unrolled loop it then emits runs 13% fewer
    /// instructions (callgrind) and is 2-7% faster (criterion) than without it. The Rust port of
    /// JCZSolve in the `sudoku` crate documents the same effect.
    opaque_ones: u32,
}

/// What a search found: how many solutions (up to the limit) and the first one.
pub struct Found {
    pub count: usize,
    pub first: Option<[u8; 81]>,
    /// The second solution found, when the limit allowed one.
    pub second: Option<[u8; 81]>,
}

/// A solution as the solver holds it: one bit per cell in each digit-band.
pub type Bands = [u32; 27];

struct Search {
    limit: usize,
    /// How many of the solutions found to record (at most 2).
    keep: usize,
    count: usize,
    /// The solutions recorded, as digit-bands: made into grids only when asked (`Found`), since
    /// clue removal mostly needs to know only whether one exists.
    first: Option<Bands>,
    second: Option<Bands>,
}

impl BandSolver {
    /// A solver for `grid` (0 = empty, else digit 1-9). `None` when the givens clash or a cell
    /// holds more than 9.
    ///
    /// Built without a branch per cell (generation builds a solver for every clue it tries to
    /// remove): the givens are sorted into per-digit-band masks (`digit_bands`), and each
    /// digit-band's candidates follow from which rows, boxes and columns hold the digit.
    pub fn new(grid: &[u8; 81]) -> Option<BandSolver> {
        Self::from_digit_bands(&digit_bands(grid)?)
    }

    /// A solver for givens already sorted into digit-bands (`digit_band_bit`), with the cells
    /// each digit's givens rule out for it (`Blocked`): clue removal keeps both up to date
    /// instead of sorting the grid again for every search, and a removal changes the blocked
    /// cells of one or two digits only. Its givens are part of a solution, so they cannot clash
    /// and no check is made.
    /// `clues` holds bit `cell` for each given.
    pub(crate) fn from_solution_part(placed: &Bands, blocked: &Blocked, clues: u128) -> BandSolver {
        Self::from_parts(placed, blocked, [0, 1, 2].map(|b| (clues >> (27 * b)) as u32 & ALL))
    }

    fn from_digit_bands(placed: &[u32; 27]) -> Option<BandSolver> {
        let filled = [0, 1, 2].map(|b| (0..9).fold(0u32, |m, d| m | placed[d * 3 + b]));
        // Givens clash when a digit has more givens than distinct rows, boxes or columns holding
        // it. A digit never has fewer of any, so it is enough to compare the sum of the three
        // over all digits with three times the number of givens. Counted with a table:
        // `count_ones` is a software loop on baseline x86-64.
        let pop27 = |x: u32| {
            POP9[(x & 0o777) as usize] + POP9[((x >> 9) & 0o777) as usize] + POP9[((x >> 18) & 0o777) as usize]
        };
        let givens = pop27(filled[0]) + pop27(filled[1]) + pop27(filled[2]);
        let mut blocked = Blocked([0; 27]);
        let lines: u32 = (0..9).map(|d| blocked.update(placed, d)).sum();
        (lines == 3 * givens).then(|| Self::from_parts(placed, &blocked, filled))
    }

    /// The solver for givens `placed` whose digits block `blocked`, `filled` holding each band's
    /// givens: a digit-band's candidates are its givens and the empty cells its digit's givens
    /// do not block.
    fn from_parts(placed: &Bands, blocked: &Blocked, filled: [u32; 3]) -> BandSolver {
        let mut cand = [0u32; 27];
        for sb in (0..27).step_by(3) {
            for b in 0..3 {
                cand[sb + b] = (ALL & !(blocked.0[sb + b] | filled[b])) | placed[sb + b];
            }
        }
        BandSolver { cand, seen: [0; 27], unsolved: filled.map(|f| ALL & !f), bivalue: [0; 3], opaque_ones: ALL }
    }

    /// The candidates, one 27-bit set per digit-band (tests compare solvers built two ways).
    #[cfg(test)]
    pub fn candidates(&self) -> Bands {
        self.cand
    }

    /// Fix `digit` (1-9) at `cell`, removing it from every peer. False on a clash.
    pub fn place(&mut self, cell: usize, digit: u8) -> bool {
        let (band, pos) = (cell / 27, cell % 27);
        let bit = 1u32 << pos;
        let sb = (digit as usize - 1) * 3 + band;
        if self.cand[sb] & bit == 0 {
            return false;
        }
        self.unsolved[band] &= !bit;
        for d in 0..9 {
            self.cand[d * 3 + band] &= !bit;
        }
        self.cand[sb] = (self.cand[sb] & SELF_MASK[pos]) | bit;
        let col_clear = !(0o001_001_001u32 << (pos % 9));
        let (o1, o2) = other_bands(sb);
        self.cand[o1] &= col_clear;
        self.cand[o2] &= col_clear;
        true
    }

    /// Remove `digit` (1-9) as a candidate of `cell`.
    pub fn forbid(&mut self, cell: usize, digit: u8) {
        let sb = (digit as usize - 1) * 3 + cell / 27;
        self.cand[sb] &= !(1u32 << (cell % 27));
    }

    /// Count solutions up to `limit`, keeping the first two.
    pub fn count(self, limit: usize) -> Found {
        self.search::<true>(limit, 2)
    }

    /// Count solutions up to `limit` without recording them.
    pub fn count_only(self, limit: usize) -> usize {
        self.search::<true>(limit, 0).count
    }

    /// The first solution in the search order of the plain JCZSolve scheme (band tables and
    /// naked singles only, first bivalue cell), which this solver used before column claims and
    /// the branching choice of `pick_bivalue`. Generation completes its random grids with it:
    /// which solution comes first decides the grid, so every generated puzzle depends on it.
    /// Clue removal asks its "another solution?" questions with it too: they are near-solved
    /// grids where column claims cost more than they save (20,000 graded puzzles, one thread:
    /// 2.4% more CPU with the fast scheme).
    pub(crate) fn first_classic(self) -> Option<[u8; 81]> {
        self.search::<false>(1, 1).first
    }

    /// Whether the plain scheme (`first_classic`) finds a solution, without making it a grid.
    fn solvable_classic(self) -> bool {
        self.run::<false>(1, 0).count > 0
    }

    /// `FAST`: propagate with column claims and branch by `pick_bivalue`; else the plain scheme.
    fn search<const FAST: bool>(self, limit: usize, keep: usize) -> Found {
        let search = self.run::<FAST>(limit, keep);
        Found { count: search.count, first: search.first.map(grid_of), second: search.second.map(grid_of) }
    }

    /// `search`, with the solutions kept as digit-bands.
    fn run<const FAST: bool>(mut self, limit: usize, keep: usize) -> Search {
        let mut search = Search { limit, keep, count: 0, first: None, second: None };
        if limit > 0 && self.settle::<FAST>().is_ok() {
            self.branch::<FAST>(&mut search);
        }
        search
    }

    /// Propagate to a fixpoint: band tables, then naked singles, until neither changes anything.
    fn settle<const FAST: bool>(&mut self) -> Result<(), Dead> {
        loop {
            self.update()?;
            if self.is_solved() {
                return Ok(());
            }
            if !(self.naked_singles()? || FAST && self.column_claims()) {
                return Ok(());
            }
        }
    }

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// Apply the band tables to every digit-band that changed since it was last seen.
    #[inline(never)]
    fn update(&mut self) -> Result<(), Dead> {
        // Unrolled with constant digit-band indices: every index below is then known at compile
        // time, and this loop is where the solver spends most of its time.
        macro_rules! each {
            ($changed:ident; $($sb:literal)*) => {$(
                if (self.opaque_ones >> ($sb / 3)) & 0o777 != 0 && self.cand[$sb] != self.seen[$sb] {
                    $changed = true;
                    self.update_one($sb)?;
                }
            )*};
        }
        loop {
            let mut changed = false;
            each!(changed; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
            if !changed {
                return Ok(());
            }
        }
    }

    #[inline(always)]
    fn update_one(&mut self, sb: usize) -> Result<(), Dead> {
        let old = self.cand[sb];
        // Indices are masked to 9 bits so the compiler drops every bounds check.
        let minirows = (SHRINK[(old & 0o777) as usize]
            | SHRINK[((old >> 9) & 0o777) as usize] << 3
            | SHRINK[((old >> 18) & 0o777) as usize] << 6)
            & 0o777;
        let cells = old & BAND_OK[minirows as usize];
        if cells == 0 {
            return Err(Dead);
        }
        self.cand[sb] = cells;
        self.seen[sb] = cells;
        let cols = (cells | cells >> 9 | cells >> 18) & 0o777;
        let keep = OTHER_BANDS_OK[cols as usize];
        let (o1, o2) = other_bands(sb);
        self.cand[o1] &= keep;
        self.cand[o2] &= keep;
        // A forced minirow in a box with one column holds one cell: a hidden single.
        let solved = FORCED_CELLS[minirows as usize] & ONE_COL_CELLS[cols as usize] & cells;
        let band = sb % 3;
        // Unconditional: testing first for newly solved cells runs fewer instructions but was
        // measured 10-20% slower (branch misses). `sb` is a constant here (see `update`), so
        // the skip compiles away.
        self.unsolved[band] &= !solved;
        // Walk the band's digit slots directly: a `for d in 0..9` over `d * 3 + band` was
        // vectorised into shuffles costing twice the instructions (callgrind).
        let keep = !solved;
        let mut other = band;
        while other < 27 {
            if other != sb {
                self.cand[other] &= keep;
            }
            other += 3;
        }
        Ok(())
    }

    /// A column that only one band can hold the digit in confines that band's box to the
    /// column. Returns whether anything changed (a dead band shows in the next `update`).
    fn column_claims(&mut self) -> bool {
        let mut any = 0u32;
        for d in 0..9 {
            let x = [self.cand[d * 3], self.cand[d * 3 + 1], self.cand[d * 3 + 2]];
            let c = x.map(|m| (m | m >> 9 | m >> 18) & 0o777);
            for b in 0..3 {
                let (p, q) = (c[(b + 1) % 3], c[(b + 2) % 3]);
                let new = x[b] & COL_CLAIM[(!(p | q) & 0o777) as usize];
                any |= new ^ x[b];
                self.cand[d * 3 + b] = new;
            }
        }
        any != 0
    }

    /// Fix every unsolved cell with a single candidate; note bivalue cells for branching.
    /// Returns whether anything was fixed.
    fn naked_singles(&mut self) -> Result<bool, Dead> {
        let mut any = false;
        for band in 0..3 {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let m = self.cand[d * 3 + band];
                three |= two & m;
                two |= one & m;
                one |= m;
            }
            if one != ALL {
                return Err(Dead);
            }
            self.bivalue[band] = two & !three;
            let mut singles = one & !two & self.unsolved[band];
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                any = true;
                let pos = bit.trailing_zeros() as usize;
                let d = (0..9).find(|&d| self.cand[d * 3 + band] & bit != 0).ok_or(Dead)?;
                let sb = d * 3 + band;
                self.cand[sb] &= SELF_MASK[pos];
            }
        }
        Ok(any)
    }

    fn branch<const FAST: bool>(&mut self, search: &mut Search) {
        if self.is_solved() {
            if search.count < search.keep {
                match search.count {
                    0 => search.first = Some(self.cand),
                    _ => search.second = Some(self.cand),
                }
            }
            search.count += 1;
            return;
        }
        // Prefer a bivalue cell: two branches, the second needs no copy.
        if let Some((band, bit)) = if FAST { self.pick_bivalue() } else { self.first_bivalue() } {
            let pos = bit.trailing_zeros() as usize;
            let mut digits = (0..9).filter(|&d| self.cand[d * 3 + band] & bit != 0);
            let (Some(a), Some(b)) = (digits.next(), digits.next()) else {
                return;
            };
            let mut left = *self;
            left.cand[a * 3 + band] &= SELF_MASK[pos];
            if left.settle::<FAST>().is_ok() {
                left.branch::<FAST>(search);
            }
            if search.count >= search.limit {
                return;
            }
            self.cand[b * 3 + band] &= SELF_MASK[pos];
            self.cand[a * 3 + band] &= !bit;
            if self.settle::<FAST>().is_ok() {
                self.branch::<FAST>(search);
            }
            return;
        }
        // No bivalue cell: the unsolved cell with fewest candidates among each band's first.
        let mut best: Option<(u32, usize, u32)> = None;
        for band in 0..3 {
            let u = self.unsolved[band];
            if u == 0 {
                continue;
            }
            let bit = u & u.wrapping_neg();
            let n = (0..9).filter(|&d| self.cand[d * 3 + band] & bit != 0).count() as u32;
            if best.is_none_or(|(m, _, _)| n < m) {
                best = Some((n, band, bit));
            }
        }
        let Some((_, band, bit)) = best else { return };
        let pos = bit.trailing_zeros() as usize;
        for d in 0..9 {
            if self.cand[d * 3 + band] & bit != 0 {
                let mut next = *self;
                next.cand[d * 3 + band] &= SELF_MASK[pos];
                if next.settle::<FAST>().is_ok() {
                    next.branch::<FAST>(search);
                }
                if search.count >= search.limit {
                    return;
                }
                self.cand[d * 3 + band] &= !bit;
            }
        }
    }

    fn first_bivalue(&self) -> Option<(usize, u32)> {
        (0..3).find(|&b| self.bivalue[b] != 0).map(|b| (b, self.bivalue[b] & self.bivalue[b].wrapping_neg()))
    }

    /// The bivalue cell to branch on: the one with the most unsolved peers (cells left in its
    /// row, box and column, itself counted three times). Both branches then fix a digit where
    /// it removes the most candidates.
    fn pick_bivalue(&self) -> Option<(usize, u32)> {
        if self.bivalue == [0; 3] {
            return None;
        }
        let u = self.unsolved;
        // Unsolved cells per column as nine 4-bit counters, one table look-up per row.
        let mut col_count = 0u64;
        let mut rows = [0u32; 9];
        let mut boxes = [0u32; 9];
        for band in 0..3 {
            for r in 0..3 {
                let row = (u[band] >> (9 * r)) & 0o777;
                col_count += SPREAD[row as usize];
                rows[band * 3 + r] = POP9[row as usize];
            }
            for k in 0..3 {
                let m = (u[band] >> (3 * k)) & 0o007_007_007;
                boxes[band * 3 + k] = POP9[((m | m >> 6 | m >> 12) & 0o777) as usize];
            }
        }
        let mut best = (0u32, 0usize, 0u32);
        for band in 0..3 {
            let mut pairs = self.bivalue[band];
            while pairs != 0 {
                let bit = pairs & pairs.wrapping_neg();
                pairs ^= bit;
                let pos = bit.trailing_zeros() as usize;
                let (r, c) = (pos / 9, pos % 9);
                let score = rows[band * 3 + r] + boxes[band * 3 + c / 3] + ((col_count >> (4 * c)) & 15) as u32;
                if score > best.0 {
                    best = (score, band, bit);
                }
            }
        }
        Some((best.1, best.2))
    }
}

/// The grid of a solved solver's digit-bands.
fn grid_of(bands: Bands) -> [u8; 81] {
    let mut g = [0u8; 81];
    for (sb, &b) in bands.iter().enumerate() {
        let mut m = b;
        while m != 0 {
            let pos = m.trailing_zeros() as usize;
            m &= m - 1;
            g[(sb % 3) * 27 + pos] = (sb / 3) as u8 + 1;
        }
    }
    g
}

/// Count the solutions of `grid` up to `limit`, without recording them.
pub fn count_only(grid: &[u8; 81], limit: usize) -> usize {
    BandSolver::new(grid).map_or(0, |s| s.count_only(limit))
}

/// A settled solver built from a rater's position, for trial probes: each probe copies it,
/// fixes one digit and propagates.
pub struct Prober(BandSolver);

impl Prober {
    /// `digit_cells[d]` (d = 1..=9) are the 81-bit sets of empty cells holding candidate d;
    /// `values` the placed digits (0 = empty).
    pub fn new(digit_cells: &[u128; 10], values: &[u8; 81]) -> Prober {
        let mut s = BandSolver { cand: [0; 27], seen: [0; 27], unsolved: [0; 3], bivalue: [0; 3], opaque_ones: ALL };
        let mut placed = [0u128; 10];
        let mut empty = 0u128;
        for (i, &v) in values.iter().enumerate() {
            if v == 0 {
                empty |= 1 << i;
            } else {
                placed[v as usize] |= 1 << i;
            }
        }
        for d in 0..9 {
            let all = digit_cells[d + 1] | placed[d + 1];
            for band in 0..3 {
                s.cand[d * 3 + band] = (all >> (27 * band)) as u32 & ALL;
            }
        }
        for band in 0..3 {
            s.unsolved[band] = (empty >> (27 * band)) as u32 & ALL;
        }
        // Settling first makes every probe start from the propagated position. A position
        // reached by sound steps always settles; if not, probes simply refute nothing.
        let _ = s.settle::<false>();
        Prober(s)
    }

    /// Would fixing `digit` at `cell` lead to a contradiction by propagation alone (singles
    /// and the band tables)?
    pub(crate) fn refutes(&self, cell: usize, digit: u8) -> bool {
        let mut s = self.0;
        let (band, pos) = (cell / 27, cell % 27);
        let bit = 1u32 << pos;
        let sb = (digit as usize - 1) * 3 + band;
        if s.cand[sb] & bit == 0 {
            return true;
        }
        for d in 0..9 {
            if d * 3 + band != sb {
                s.cand[d * 3 + band] &= !bit;
            }
        }
        s.cand[sb] &= SELF_MASK[pos];
        s.settle::<false>().is_err()
    }
}

/// Count the solutions of `grid` up to `limit`, with only the first found (`solve`'s output).
pub(crate) fn count_first(grid: &[u8; 81], limit: usize) -> (usize, Option<[u8; 81]>) {
    BandSolver::new(grid).map_or((0, None), |s| {
        let f = s.search::<true>(limit, 1);
        (f.count, f.first)
    })
}

/// Count the solutions of `grid` (0 = empty) up to `limit`, with the first found.
pub fn count_solutions(grid: &[u8; 81], limit: usize) -> Found {
    match BandSolver::new(grid) {
        Some(s) => s.count(limit),
        None => Found { count: 0, first: None, second: None },
    }
}

/// Whether `grid` has a solution that differs from `solution` in one of `cells`: the question
/// clue removal asks ("does taking these clues away admit another solution?").
pub fn has_other_solution(grid: &[u8; 81], cells: &[u8], solution: &[u8; 81]) -> bool {
    BandSolver::new(grid).is_some_and(|base| has_other_solution_from(base, cells, solution))
}

/// `has_other_solution` for the puzzle `base` was built from.
///
/// Asked one cell at a time ("a solution with this cell different?"), fixing the cells already
/// cleared: each search stops at the first other solution, which is cheaper than counting to
/// two, since a count must find the known solution as well. The solution found is not made
/// into a grid: clue removal only needs to know that there is one.
pub(crate) fn has_other_solution_from(base: BandSolver, cells: &[u8], solution: &[u8; 81]) -> bool {
    for (i, &c) in cells.iter().enumerate() {
        let mut s = base;
        for &prev in &cells[..i] {
            if !s.place(prev as usize, solution[prev as usize]) {
                return false;
            }
        }
        s.forbid(c as usize, solution[c as usize]);
        if s.solvable_classic() {
            return true;
        }
    }
    false
}

/// The cells where the puzzle `base` was built from has a solution other than `solution`
/// (given as digit-bands, `digit_band_bit`), if it has one (any cell may differ): bit `cell`
/// of the 81-bit set.
pub(crate) fn other_solution_cells_from(base: BandSolver, solution: &Bands) -> Option<u128> {
    let found = base.run::<true>(2, 2);
    let other = [found.first, found.second].into_iter().flatten().find(|s| s != solution)?;
    // A cell differs where the other solution's digit is not the solution's: one bit per cell.
    let mut cells = 0u128;
    for band in 0..3 {
        let diff = (0..9).fold(0u32, |m, d| m | (other[d * 3 + band] & !solution[d * 3 + band]));
        cells |= u128::from(diff) << (27 * band);
    }
    Some(cells)
}

/// For each digit-band, the cells its digit's givens rule out: the rows, boxes and columns
/// that hold the digit (`BandSolver::from_solution_part`).
#[derive(Clone)]
pub struct Blocked([u32; 27]);

impl Blocked {
    /// The blocked cells of every digit of `placed`.
    pub fn new(placed: &Bands) -> Blocked {
        let mut b = Blocked([0; 27]);
        for d in 0..9 {
            b.update(placed, d);
        }
        b
    }

    /// Recompute digit `d`'s (0-8) blocked cells after its givens in `placed` changed. Returns
    /// how many rows, boxes and columns hold the digit, together (`from_digit_bands`' clash
    /// check).
    pub fn update(&mut self, placed: &Bands, d: usize) -> u32 {
        let p = [placed[d * 3], placed[d * 3 + 1], placed[d * 3 + 2]];
        let cols = p.map(|x| (x | x >> 9 | x >> 18) & 0o777);
        let all_cols = cols[0] | cols[1] | cols[2];
        let col_cells = all_cols | all_cols << 9 | all_cols << 18;
        let (mut rows9, mut boxes9) = (0, 0);
        for b in 0..3 {
            let rows = ((p[b] & 0o777 != 0) as u32)
                | (((p[b] >> 9) & 0o777 != 0) as u32) << 1
                | (((p[b] >> 18) & 0o777 != 0) as u32) << 2;
            let boxes = SHRINK[cols[b] as usize] & 7;
            rows9 |= rows << (3 * b);
            boxes9 |= boxes << (3 * b);
            self.0[d * 3 + b] = ROW_CELLS[rows as usize] | BOX_CELLS[boxes as usize] | col_cells;
        }
        POP9[rows9 as usize] + POP9[boxes9 as usize] + POP9[all_cols as usize]
    }
}

/// Where cell `cell` holding `digit` (1-9) sits in a digit-band array (`from_solution_part`):
/// the digit-band and the bit.
pub(crate) fn digit_band_bit(cell: usize, digit: u8) -> (usize, u32) {
    ((digit as usize - 1) * 3 + cell / 27, 1 << (cell % 27))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> [u8; 81] {
        let mut g = [0u8; 81];
        for (i, c) in s.bytes().enumerate() {
            g[i] = if c.is_ascii_digit() { c - b'0' } else { 0 };
        }
        g
    }

    #[test]
    fn tables_agree_with_rules() {
        // All minirows possible: every cell allowed, nothing forced.
        assert_eq!(BAND_OK[511], ALL);
        assert_eq!(FORCED[511], 0);
        // A single permutation: all three forced.
        assert_eq!(FORCED[0b001_010_100], 0b001_010_100);
        // One box with no column possible is impossible for the band.
        assert_eq!(BAND_OK[0b011_011_011], 0);
        // Columns 0, 3, 6 only: every box has one column.
        assert_eq!(ONE_COL_BOXES[0o111], 0o777);
        assert_eq!(OTHER_BANDS_OK[0o111], ALL & !(0o111_111_111));
        // The cell forms find the same solved cells as the minirow forms, for every band state
        // `update_one` can meet: cells on an allowed permutation, in any set of columns.
        let rows_of = |minirows: u32| ROW_CELLS[(SHRINK[minirows as usize] & 7) as usize];
        for m in 0..512 {
            for cols in 0..512u32 {
                let cells = BAND_OK[m] & (cols | cols << 9 | cols << 18);
                let old = rows_of(FORCED[m] & ONE_COL_BOXES[cols as usize] & 0o777) & cells;
                let new = FORCED_CELLS[m] & ONE_COL_CELLS[cols as usize] & cells;
                assert_eq!(old, new, "minirows {m:o} columns {cols:o}");
            }
        }
    }

    #[test]
    fn solves_a_hard_puzzle_uniquely() {
        let p = parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......");
        let f = count_solutions(&p, 2);
        assert_eq!(f.count, 1);
        let sol = f.first.unwrap();
        for i in 0..81 {
            if p[i] != 0 {
                assert_eq!(p[i], sol[i]);
            }
        }
    }

    #[test]
    fn empty_grid_has_many() {
        assert_eq!(count_solutions(&[0; 81], 2).count, 2);
        assert_eq!(count_solutions(&[0; 81], 50).count, 50);
    }

    #[test]
    fn clash_has_none() {
        // Same row, same box (other row), same column (other band), and a grid of all ones.
        for (a, b) in [(0, 8), (0, 10), (4, 76), (30, 50)] {
            let mut g = [0u8; 81];
            g[a] = 5;
            g[b] = 5;
            assert_eq!(count_solutions(&g, 2).count, 0, "{a} {b}");
            assert!(BandSolver::new(&g).is_none());
        }
        assert_eq!(count_solutions(&[1; 81], 2).count, 0);
        assert_eq!(count_only(&[1; 81], 2), 0);
    }
}
