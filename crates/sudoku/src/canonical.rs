//! The canonical key of a 9×9 Sudoku up to its symmetries (SPEC.md, `--exclude`): digit
//! relabelling, transposition, row swaps within a band, column swaps within a stack, band swaps
//! and stack swaps.
//!
//! A puzzle with one solution is canonicalised through the pair (solution, givens mask): the
//! canonical form is the lexicographically smallest transformed, relabelled solution, and among
//! the transformations that reach it (the grid's automorphisms, usually only one) the smallest
//! transformed mask. Two puzzles are the same up to symmetry exactly when their pairs are, so the
//! form is exact; the key is its 128-bit hash.
//!
//! The search: after relabelling, row 0 always reads 1…9, so the form is decided by row 1 first.
//! For each transposition, each row that becomes row 0 and each of the two rows of its band that
//! can follow it, row 1's relabelled entries depend only on where each of its digits sits in row
//! 0, a permutation of the columns, so the smallest row 1 and the column orders that keep stacks
//! and reach it (stack order × the order inside each stack, 1,296) are looked up in a table of
//! all 12,096 such permutations (`Minimal`), each searched once, column by column (`RowSearch`).
//! Row 2, the band's last row, breaks ties. The few survivors are completed greedily: each
//! further row is the smallest of the rows still allowed (rows are distinct in a solution, so
//! there are no ties) — which also orders the remaining bands. (Searching the column orders of
//! each of the 36 row pairs, best bound first, as this did before, gives the same forms 4×
//! slower: 15.1 against 3.5 µs per key on 20,000 generated puzzles; trying every column order
//! with an early exit, as before that, 1.5× slower again.)

use super::Grid;
use pf_core::common::canon::KeyHasher;

fn transpose(g: &Grid) -> Grid {
    let mut t = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            t[c * 9 + r] = g[r * 9 + c];
        }
    }
    t
}

/// A transformation that reaches the smallest row 1: transposed or not, the old rows that
/// become rows 0 and 1, and the column order (`order[new column] = old column`).
#[derive(Clone, Copy)]
struct Start {
    t: usize,
    r0: usize,
    r1: usize,
    order: [u8; 9],
}

/// A row of digits 1-9 packed 4 bits each, first column most significant.
fn pack(row: impl Iterator<Item = u8>) -> u64 {
    row.fold(0u64, |v, d| (v << 4) | u64::from(d))
}

/// Not placed yet (`Partial`).
const FREE: u8 = 9;

/// A column order being built: new column ↔ old column, new stack ↔ old stack (`FREE` where
/// none yet), and row 1 so far (packed as `pack` does).
#[derive(Clone, Copy)]
struct Partial {
    col_at: [u8; 9],
    pos_of: [u8; 9],
    stack_at: [u8; 3],
    new_stack: [u8; 3],
    row1: u64,
}

impl Partial {
    const EMPTY: Partial =
        Partial { col_at: [FREE; 9], pos_of: [FREE; 9], stack_at: [FREE; 3], new_stack: [FREE; 3], row1: 0 };

    fn col_at(&self, pos: usize) -> u8 {
        self.col_at[pos]
    }
    fn pos_of(&self, col: u8) -> u8 {
        self.pos_of[col as usize]
    }
    fn stack_at(&self, k: u8) -> u8 {
        self.stack_at[k as usize]
    }
    fn new_stack(&self, stack: u8) -> u8 {
        self.new_stack[stack as usize]
    }

    fn put(&mut self, col: u8, pos: u8) {
        self.col_at[pos as usize] = col;
        self.pos_of[col as usize] = pos;
        self.stack_at[pos as usize / 3] = col / 3;
        self.new_stack[col as usize / 3] = pos / 3;
    }

    /// The smallest new column still open to old column `col`: the first free one of its
    /// stack's new stack, or the first of the first new stack not assigned yet.
    fn first_free(&self, col: u8) -> u8 {
        let ns = self.new_stack(col / 3);
        if ns != FREE {
            (ns * 3..ns * 3 + 3).find(|&q| self.col_at(q as usize) == FREE).expect("a free column in the stack")
        } else {
            3 * (0..3).find(|&k| self.stack_at(k) == FREE).expect("a free stack")
        }
    }
}

/// The search for the smallest row 1 of one row pair (see `Minimal`).
struct RowSearch {
    /// `p[j]`: old column, in row 0, of row 1's digit at old column j.
    p: [u8; 9],
}

impl RowSearch {
    /// Fill new column `c` onwards. Row 1's entry at new column c is the new label of row 1's
    /// digit there, 1 + the new column of that digit in row 0, so for each old column that may
    /// go to c, the column holding its digit in row 0 goes to the smallest new column still
    /// open to it (any other place gives a larger entry here, and any partial order keeping
    /// stacks completes). Only the choices giving the smallest entry are followed, and none
    /// whose row 1 so far exceeds the best found; a single choice is followed in place. Every
    /// column order reaching the best row 1 ends in `found`.
    fn fill(&self, mut c: usize, mut part: Partial, best: &mut u64, found: &mut Vec<[u8; 9]>) {
        while c < 9 {
            let mut cols = [0u8; 3];
            let mut n = 0;
            if part.col_at(c) != FREE {
                // Placed already, as the row-0 column of an earlier entry.
                cols[0] = part.col_at(c);
                n = 1;
            } else {
                // The old stack of new stack c / 3 (if none yet, the one old stack left).
                let stack = match part.stack_at(c as u8 / 3) {
                    FREE => (0..3).find(|&k| part.new_stack(k) == FREE).expect("a free stack"),
                    s => s,
                };
                for u in stack * 3..stack * 3 + 3 {
                    if part.pos_of(u) == FREE {
                        cols[n] = u;
                        n += 1;
                    }
                }
            }
            let mut labels = [u8::MAX; 3];
            for i in 0..n {
                labels[i] = self.label(&part, cols[i], c);
            }
            let low = labels[0].min(labels[1]).min(labels[2]);
            let row1 = (part.row1 << 4) | u64::from(low);
            // Prune against the first c + 1 entries of the best row 1.
            if row1 > *best >> (4 * (8 - c)) {
                return;
            }
            let ties = labels.iter().filter(|&&l| l == low).count();
            if ties > 1 {
                for i in (0..n).filter(|&i| labels[i] == low) {
                    let mut q = part;
                    self.take(&mut q, cols[i], c);
                    q.row1 = row1;
                    self.fill(c + 1, q, best, found);
                }
                return;
            }
            let i = (0..n).find(|&i| labels[i] == low).expect("a smallest entry");
            self.take(&mut part, cols[i], c);
            part.row1 = row1;
            c += 1;
        }
        if part.row1 < *best {
            *best = part.row1;
            found.clear();
        }
        if part.row1 == *best {
            found.push(part.col_at);
        }
    }

    /// Row 1's entry at new column `c` if old column `u` goes there (see `fill`).
    fn label(&self, part: &Partial, u: u8, c: usize) -> u8 {
        let target = self.p[u as usize];
        let at = part.pos_of(target);
        if at != FREE {
            return at + 1;
        }
        if target == u {
            return c as u8 + 1;
        }
        // `u` at c takes new stack c / 3 for its old stack, if not assigned yet.
        let mut ns = part.new_stack(target / 3);
        if ns == FREE && target / 3 == u / 3 {
            ns = c as u8 / 3;
        }
        if ns != FREE {
            let first = (ns * 3..ns * 3 + 3).find(|&q| part.col_at(q as usize) == FREE && q as usize != c);
            return first.expect("a free column in the stack") + 1;
        }
        let taken = |k: u8| part.stack_at(k) != FREE || k == c as u8 / 3;
        3 * (0..3).find(|&k| !taken(k)).expect("a free stack") + 1
    }

    /// Put old column `u` at new column `c`, and its row-0 column where `label` says.
    fn take(&self, part: &mut Partial, u: u8, c: usize) {
        part.put(u, c as u8);
        let target = self.p[u as usize];
        if part.pos_of(target) == FREE {
            let pos = part.first_free(target);
            part.put(target, pos);
        }
    }

    /// The smallest row 1 and every column order reaching it.
    fn minimal(p: [u8; 9]) -> (u64, Vec<[u8; 9]>) {
        let search = RowSearch { p };
        // count[i][k]: how many of row 1's digits in stack i lie in stack k of row 0. Row 1's
        // first three entries are those of one stack of row 1, in increasing order at best: 456
        // when all three come from one stack of row 0, 457 when two do (one stack of row 0 then
        // gives 4-6 and another 7-9), 478 when at most one.
        let mut count = [[0u8; 3]; 3];
        for j in 0..9 {
            count[j / 3][p[j] as usize / 3] += 1;
        }
        let most = count.iter().flatten().copied().max().unwrap_or(0);
        let (mut best, mut found) = (u64::MAX, Vec::new());
        // New column 0: an old column whose digit's row-0 column lies in a stack of row 0
        // holding `most` of its stack's digits; that stack becomes new stack 1.
        for u in 0..9u8 {
            let target = p[u as usize];
            if count[u as usize / 3][target as usize / 3] != most {
                continue;
            }
            let mut q = Partial::EMPTY;
            q.put(u, 0);
            q.put(target, 3);
            q.row1 = 4;
            search.fill(1, q, &mut best, &mut found);
        }
        (best, found)
    }
}

/// The smallest row 1 of every row pair, looked up by its permutation `p` (see `RowSearch`):
/// row 1's new label at new column c is 1 + the new column of p(old column), so the smallest
/// row 1 and the column orders reaching it depend on p alone. p never maps a column into its
/// own stack (a box holds each digit once), which leaves 12,096 of them; the table holds them
/// all, built once (a few ms) instead of searched again for each of a grid's 36 row pairs.
struct Minimal {
    /// Open addressing by `key`: `key << 32 | rank << 16 | entry`, where `rank` is the rank of
    /// the permutation's smallest row 1 among all (`row1s`) and `entry` its index in
    /// `entries`; `EMPTY_SLOT` where free. A key's 36 look-ups hit random slots: at 8 bytes a
    /// slot the table stays in cache, where 16-byte slots and a separate array of row 1s (700
    /// KB) cost two cache misses per look-up, over half of a key's time (perf).
    slots: Vec<u64>,
    /// The distinct smallest rows 1 (packed), in increasing order: comparing ranks compares rows.
    row1s: Vec<u64>,
    /// Per entry: its range of `orders`.
    entries: Vec<(u32, u32)>,
    orders: Vec<[u8; 9]>,
}

const EMPTY_SLOT: u64 = u64::MAX;
const SLOT_BITS: u32 = 14;

impl Minimal {
    /// The first eight entries packed, 4 bits each (the ninth follows from them). At most
    /// 0x8888_8888: never the high half of `EMPTY_SLOT`.
    fn key(p: &[u8; 9]) -> u32 {
        pack(p[..8].iter().copied()) as u32
    }

    fn slot(key: u32) -> usize {
        (u64::from(key).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - SLOT_BITS)) as usize
    }

    /// Every permutation's entry, one search per class: renaming the columns by a permutation
    /// σ that keeps stacks (`σ[u]`: the new name of column u) turns p into σ p σ⁻¹, whose row 1
    /// under the column order σ·order is row 1 of p under `order`. So the smallest row 1 is
    /// the same, and the orders reaching it are σ applied to p's. The 12,096 permutations fall
    /// into a few classes; searching each permutation instead took 25 ms, a twentieth of a
    /// 10,000-puzzle run on one thread.
    fn build() -> Minimal {
        let mut t = Minimal {
            slots: vec![EMPTY_SLOT; 1 << SLOT_BITS],
            row1s: Vec::new(),
            entries: Vec::new(),
            orders: Vec::new(),
        };
        // Each entry's smallest row 1, ranked once all are known.
        let mut row1_of = Vec::new();
        let group = stack_keeping_perms();
        fn perms(j: usize, p: &mut [u8; 9], used: u16, group: &[[u8; 9]], t: &mut Minimal, row1_of: &mut Vec<u64>) {
            if j == 9 {
                if t.find(p).is_ok() {
                    return;
                }
                let (row1, orders) = RowSearch::minimal(*p);
                for sigma in group {
                    let mut q = [0u8; 9];
                    for u in 0..9 {
                        q[sigma[u] as usize] = sigma[p[u] as usize];
                    }
                    if let Err(free) = t.find(&q) {
                        t.slots[free] = u64::from(Minimal::key(&q)) << 32 | t.entries.len() as u64;
                        t.entries.push((t.orders.len() as u32, orders.len() as u32));
                        t.orders.extend(orders.iter().map(|o| o.map(|u| sigma[u as usize])));
                        row1_of.push(row1);
                    }
                }
                return;
            }
            for k in (0..9u8).filter(|&k| used >> k & 1 == 0 && k / 3 != j as u8 / 3) {
                p[j] = k;
                perms(j + 1, p, used | 1 << k, group, t, row1_of);
            }
        }
        perms(0, &mut [0; 9], 0, &group, &mut t, &mut row1_of);
        t.row1s = row1_of.clone();
        t.row1s.sort_unstable();
        t.row1s.dedup();
        for slot in t.slots.iter_mut().filter(|s| **s != EMPTY_SLOT) {
            let rank = t.row1s.binary_search(&row1_of[(*slot & 0xffff) as usize]).expect("ranked");
            *slot |= (rank as u64) << 16;
        }
        t
    }

    /// The slot holding `p` (`Ok`), or the free slot where it would go (`Err`).
    fn find(&self, p: &[u8; 9]) -> Result<usize, usize> {
        let key = Minimal::key(p);
        let mut i = Minimal::slot(key);
        loop {
            match self.slots[i] {
                EMPTY_SLOT => return Err(i),
                s if (s >> 32) as u32 == key => return Ok(i),
                _ => i = (i + 1) & ((1 << SLOT_BITS) - 1),
            }
        }
    }

    fn get() -> &'static Minimal {
        static TABLE: std::sync::OnceLock<Minimal> = std::sync::OnceLock::new();
        TABLE.get_or_init(Minimal::build)
    }

    /// The rank of `p`'s smallest row 1 (`row1s`) and its entry (`orders`).
    fn of(&self, p: &[u8; 9]) -> (u16, u16) {
        let slot = self.slots[self.find(p).expect("a row pair's permutation is in the table")];
        ((slot >> 16) as u16, slot as u16)
    }

    /// The column orders reaching an entry's smallest row 1.
    fn orders(&self, entry: u16) -> &[[u8; 9]] {
        let (at, n) = self.entries[usize::from(entry)];
        &self.orders[at as usize..(at + n) as usize]
    }
}

/// The 1,296 column permutations that keep stacks (`σ[old column] = new column`): an order of
/// the three stacks and an order inside each.
fn stack_keeping_perms() -> Vec<[u8; 9]> {
    const ORDERS: [[u8; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut all = Vec::with_capacity(1296);
    for stacks in ORDERS {
        for i0 in ORDERS {
            for i1 in ORDERS {
                for i2 in ORDERS {
                    let inner = [i0, i1, i2];
                    all.push(std::array::from_fn(|u| stacks[u / 3] * 3 + inner[u / 3][u % 3]));
                }
            }
        }
    }
    all
}

/// The starts with the smallest relabelled row 1, then row 2 (the band's last row, which
/// breaks most ties: 456789123 is a common row 1), over the 36 choices of transposition, row 0
/// and row 1.
fn starts(sols: &[Grid; 2]) -> Vec<Start> {
    let table = Minimal::get();
    // The choices reaching the smallest row 1: (t, r0, r1, their column orders).
    let mut best1 = u16::MAX;
    let mut ties: Vec<(usize, usize, usize, u16)> = Vec::with_capacity(36);
    let mut ats = [[[0u8; 10]; 9]; 2];
    for (t, g) in sols.iter().enumerate() {
        for r0 in 0..9 {
            let at = &mut ats[t][r0];
            for c in 0..9 {
                at[g[r0 * 9 + c] as usize] = c as u8;
            }
            let band = r0 / 3 * 3;
            for r1 in (band..band + 3).filter(|&r| r != r0) {
                let p: [u8; 9] = std::array::from_fn(|j| at[g[r1 * 9 + j] as usize]);
                let (rank1, entry) = table.of(&p);
                if rank1 < best1 {
                    best1 = rank1;
                    ties.clear();
                }
                if rank1 == best1 {
                    ties.push((t, r0, r1, entry));
                }
            }
        }
    }
    let mut best2 = u64::MAX;
    let mut found = Vec::new();
    for (t, r0, r1, entry) in ties {
        let (g, at) = (&sols[t], &ats[t][r0]);
        let r2 = 3 * (r0 / 3 * 3) + 3 - r0 - r1;
        for &order in table.orders(entry) {
            let mut inv = [0u8; 9];
            for (q, &o) in order.iter().enumerate() {
                inv[o as usize] = q as u8;
            }
            let v2 = pack((0..9).map(|q| inv[at[g[r2 * 9 + order[q] as usize] as usize] as usize] + 1));
            if v2 < best2 {
                best2 = v2;
                found.clear();
            }
            if v2 == best2 {
                found.push(Start { t, r0, r1, order });
            }
        }
    }
    found
}

/// The whole transformed grid of a start (rows packed) and its old row of each new row.
fn complete(g: &Grid, s: Start) -> ([u64; 9], [usize; 9]) {
    let order = &s.order;
    let mut label = [0u8; 10];
    for c in 0..9 {
        label[g[s.r0 * 9 + order[c] as usize] as usize] = c as u8 + 1;
    }
    let row = |r: usize| pack((0..9).map(|c| label[g[r * 9 + order[c] as usize] as usize]));
    let band = s.r0 / 3 * 3;
    let r2 = (band..band + 3).find(|&r| r != s.r0 && r != s.r1).expect("three rows a band");
    let mut rows = [s.r0, s.r1, r2, 0, 0, 0, 0, 0, 0];
    let mut used = [false; 9];
    for &r in &rows[..3] {
        used[r] = true;
    }
    for i in 3..9 {
        // Rows 3 and 6 open a band: any unused row; others: the unused rows of the open band.
        let open = rows[i / 3 * 3] / 3 * 3;
        let pick = (0..9)
            .filter(|&r| !used[r] && (i % 3 == 0 || r / 3 * 3 == open))
            .min_by_key(|&r| row(r))
            .expect("a row left");
        rows[i] = pick;
        used[pick] = true;
    }
    (rows.map(row), rows)
}

/// The canonical key of a puzzle `p` whose one solution is `s`.
pub fn canonical_key(p: &Grid, s: &Grid) -> u128 {
    let sols = [*s, transpose(s)];
    let masks = [*p, transpose(p)];
    let mut best: Option<([u64; 9], u128)> = None;
    for st in starts(&sols) {
        let (grid, rows) = complete(&sols[st.t], st);
        let order = &st.order;
        let mut mask = 0u128;
        for (nr, &r) in rows.iter().enumerate() {
            for c in 0..9 {
                mask = (mask << 1) | u128::from(masks[st.t][r * 9 + order[c] as usize] != 0);
            }
            let _ = nr;
        }
        if best.is_none_or(|(g, m)| (grid, mask) < (g, m)) {
            best = Some((grid, mask));
        }
    }
    let (grid, mask) = best.expect("a start");
    let mut h = KeyHasher::default();
    for r in grid {
        h.u64(r);
    }
    h.bytes(&mask.to_le_bytes());
    h.finish()
}

/// A copy of puzzle `p` and solution `s` under a random symmetry of the key: digits relabelled,
/// rows within bands and bands reordered, the same for columns, and perhaps transposed.
pub fn symmetric(p: &Grid, s: &Grid, rng: &mut impl rand::Rng) -> (Grid, Grid) {
    use pf_core::common::canon::band_preserving_order;
    use rand::seq::SliceRandom;
    let mut digits: Vec<u8> = (1..=9).collect();
    digits.shuffle(rng);
    let (rows, cols) = (band_preserving_order(3, 3, rng), band_preserving_order(3, 3, rng));
    let flip: bool = rng.gen();
    let image = |g: &Grid| -> Grid { moved(g, 9, &rows, &cols, flip, &digits).try_into().expect("81 cells") };
    (image(p), image(s))
}

/// The n×n grid `g` (row-major) moved: cell (r, c) takes old cell (`rows[r]`, `cols[c]`), or
/// with `flip` old cell (`cols[c]`, `rows[r]`); digit d becomes `digits[d - 1]` (0 stays 0).
pub(crate) fn moved(g: &[u8], n: usize, rows: &[usize], cols: &[usize], flip: bool, digits: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; n * n];
    for r in 0..n {
        for c in 0..n {
            let (a, b) = if flip { (cols[c], rows[r]) } else { (rows[r], cols[c]) };
            let d = g[a * n + b];
            out[r * n + c] = if d == 0 { 0 } else { digits[d as usize - 1] };
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sudoku;
    use pf_core::kind::Kind;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn puzzles(n: u64) -> Vec<(Grid, Grid)> {
        let params = crate::SudokuParams::default();
        (0..n)
            .filter_map(|i| {
                let mut rng = pf_core::seed::candidate_rng(99, "sudoku", "test", i);
                let g = Sudoku::generate(&params, &mut rng).ok()?;
                Some((g.puzzle, g.solution))
            })
            .collect()
    }

    #[test]
    fn transformed_copies_share_the_key_and_other_puzzles_do_not() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let all = puzzles(60);
        let mut keys = std::collections::HashSet::new();
        for (p, s) in &all {
            let k = canonical_key(p, s);
            assert!(keys.insert(k), "two generated puzzles share a key");
            for _ in 0..5 {
                let (tp, ts) = symmetric(p, s, &mut rng);
                assert_eq!(Sudoku::solve(&tp, 2).count, 1);
                assert_eq!(canonical_key(&tp, &ts), k);
            }
            // One given less (or changed): another puzzle.
            let i = p.iter().position(|&d| d != 0).unwrap();
            let mut fewer = *p;
            fewer[i] = 0;
            assert_ne!(canonical_key(&fewer, s), k);
        }
    }

    #[test]
    fn a_grid_with_automorphisms_keys_every_copy_alike() {
        // The most symmetric kind of grid: row r = the base row shifted by 3(r%3) + r/3.
        let g: Grid = std::array::from_fn(|i| {
            let (r, c) = (i / 9, i % 9);
            ((c + 3 * (r % 3) + r / 3) % 9 + 1) as u8
        });
        let mut mask = [0u8; 81];
        for i in (0..81).step_by(4) {
            mask[i] = g[i];
        }
        let k = canonical_key(&mask, &g);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..30 {
            let (tm, tg) = symmetric(&mask, &g, &mut rng);
            assert_eq!(canonical_key(&tm, &tg), k);
        }
        // The same grid with another mask is another puzzle.
        let mut other = mask;
        other[1] = g[1];
        assert_ne!(canonical_key(&other, &g), k);
    }

    #[test]
    fn the_table_holds_every_row_pair() {
        let t = Minimal::get();
        // Permutations of 9 columns none of which stays in its stack.
        assert_eq!(t.entries.len(), 12_096);
        assert!(t.entries.iter().all(|&(_, n)| n >= 1));
        // Row 1 always starts with 4: column 0's digit sits in another stack of row 0.
        assert!(t.row1s.iter().all(|&row1| row1 >> 32 == 4));
        assert_eq!(t.slots.iter().filter(|&&s| s != EMPTY_SLOT).count(), 12_096);
    }

    #[test]
    fn entries_filled_by_renaming_columns_equal_their_own_search() {
        let t = Minimal::get();
        let mut p = [0u8; 9];
        let mut checked = 0;
        for &slot in t.slots.iter().filter(|&&s| s != EMPTY_SLOT) {
            let key = slot >> 32;
            for (j, x) in p.iter_mut().take(8).enumerate() {
                *x = (key >> (4 * (7 - j)) & 15) as u8;
            }
            // The ninth entry: the column the first eight leave.
            p[8] = (0..9).find(|k| !p[..8].contains(k)).unwrap();
            let (rank, entry) = t.of(&p);
            let row1 = t.row1s[usize::from(rank)];
            let (want_row1, mut want) = RowSearch::minimal(p);
            let mut got = t.orders(entry).to_vec();
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!((row1, got), (want_row1, want), "{p:?}");
            checked += 1;
        }
        assert_eq!(checked, 12_096);
    }

    #[test]
    fn fast_enough_for_the_hot_path() {
        let all = puzzles(40);
        let t = std::time::Instant::now();
        Minimal::get();
        eprintln!("sudoku canonical table: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
        let t = std::time::Instant::now();
        for (p, s) in &all {
            std::hint::black_box(canonical_key(p, s));
        }
        let per = t.elapsed().as_secs_f64() / all.len() as f64;
        eprintln!("sudoku canonical key: {:.1} µs per puzzle", per * 1e6);
        // A generous bound against a regression to brute force.
        assert!(per < 0.005, "{:.0} µs per key", per * 1e6);
    }
}
