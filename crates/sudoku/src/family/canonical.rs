//! The canonical key of a family puzzle (`--exclude`, column `canonical`), hashed to 128 bits.
//!
//! * **Box boards** (R×C boxes, no diagonals, no cages): the symmetries are row swaps within a
//!   band, column swaps within a stack, band swaps, stack swaps, transposition when R = C, and
//!   digit relabelling; the rotations and reflections that keep boxes are among them. As for
//!   classic 9×9 (`super::super::canonical`), the puzzle is canonicalised through its solution:
//!   the form is the smallest transformed, relabelled solution, then, among the transformations
//!   that reach it (the grid's automorphisms), the smallest givens mask. Exact: two puzzles get
//!   the same form exactly when one is a symmetry of the other (`box_key`).
//! * **Jigsaw, X and killer boards**: the smallest encoding over the symmetries of the square
//!   (rotations, reflections, transposition) that map the board onto itself (regions onto
//!   regions, the diagonals onto the diagonals), with digits relabelled by first appearance
//!   except on killer boards (whose sums name digits). Line swaps generally cut a killer's
//!   cages apart (the swapped board is not a killer puzzle), so none are applied. Cut scope: the line
//!   swaps that keep a jigsaw's regions or the diagonals (rare, and different for every board)
//!   are not applied.

use super::shape::{Shape, MAX_N};
use pf_core::common::canon::KeyHasher;

/// Old cell (r, c) → new cell, for the 8 symmetries of the n×n square.
fn map(k: usize, m: usize, r: usize, c: usize) -> (usize, usize) {
    pf_core::common::canon::square_symmetry(k, m, r, c)
}

/// Region ids renumbered 0, 1, 2, … in order of first appearance in reading order.
fn first_appearance(ids: &[u8], n: usize) -> Vec<u8> {
    let mut number = vec![u8::MAX; n];
    let mut next = 0;
    ids.iter()
        .map(|&id| {
            if number[id as usize] == u8::MAX {
                number[id as usize] = next;
                next += 1;
            }
            number[id as usize]
        })
        .collect()
}

/// Whether symmetry `k` maps the board onto itself: the regions moved, renumbered by first
/// appearance, are `own` (the board's regions renumbered the same way). Diagonals map onto
/// diagonals under every symmetry of the square.
fn maps_onto_itself(shape: &Shape, k: usize, own: &[u8]) -> bool {
    let n = shape.n;
    let mut moved = vec![0u8; n * n];
    for c in 0..n * n {
        let (r, col) = map(k, n - 1, c / n, c % n);
        moved[r * n + col] = shape.regions[c];
    }
    first_appearance(&moved, n) == own
}

/// The canonical key of the puzzle `givens` on `shape` whose one solution is `solution`.
pub fn canonical_key(shape: &Shape, givens: &[u8], solution: &[u8]) -> u128 {
    match shape.boxes {
        Some((r, c)) if !shape.diagonals && !shape.is_killer() && r >= 2 && c >= 2 => {
            box_key(shape, (r, c), givens, solution)
        }
        _ => square_key(shape, givens),
    }
}

/// Jigsaw and X boards (see the module comment): the solution is not needed.
fn square_key(shape: &Shape, givens: &[u8]) -> u128 {
    let n = shape.n;
    let relabel = !shape.is_killer();
    let own = first_appearance(&shape.regions, n);
    let mut best: Option<Vec<u32>> = None;
    for k in 0..8 {
        if !maps_onto_itself(shape, k, &own) {
            continue;
        }
        let mut cells = vec![0u32; n * n];
        let mut cage_at = vec![u32::MAX; n * n];
        for c in 0..n * n {
            let (r, col) = map(k, n - 1, c / n, c % n);
            cells[r * n + col] = givens[c] as u32;
            let q = shape.cage_of[c];
            if q != u16::MAX {
                cage_at[r * n + col] = q as u32;
            }
        }
        if relabel {
            let mut label = vec![0u32; n + 1];
            let mut next = 1;
            for v in cells.iter_mut().filter(|v| **v != 0) {
                if label[*v as usize] == 0 {
                    label[*v as usize] = next;
                    next += 1;
                }
                *v = label[*v as usize];
            }
        }
        let mut enc = Vec::with_capacity(3 * n * n + 3);
        enc.extend([n as u32, shape.diagonals as u32, shape.boxes.is_some() as u32]);
        enc.extend(&cells);
        if shape.is_killer() {
            let mut number = vec![u32::MAX; shape.cages.len()];
            let mut next = 0;
            for &q in &cage_at {
                if q == u32::MAX {
                    enc.extend([u32::MAX, 0]);
                    continue;
                }
                if number[q as usize] == u32::MAX {
                    number[q as usize] = next;
                    next += 1;
                }
                enc.extend([number[q as usize], shape.cages[q as usize].sum]);
            }
        }
        // The regions as this symmetry shows them: the same as the board's own.
        enc.extend(own.iter().map(|&x| x as u32));
        if best.as_ref().is_none_or(|b| enc < *b) {
            best = Some(enc);
        }
    }
    let mut h = KeyHasher::default();
    for v in best.expect("the identity maps the board onto itself") {
        h.bytes(&v.to_le_bytes());
    }
    h.finish()
}

/// One view of the board: as given, or transposed (square boxes only).
struct View {
    sol: Vec<u8>,
    givens: Vec<u8>,
}

impl View {
    fn new(shape: &Shape, givens: &[u8], solution: &[u8], transpose: bool) -> View {
        let n = shape.n;
        let at = |i: usize| if transpose { (i % n) * n + i / n } else { i };
        View { sol: (0..n * n).map(|i| solution[at(i)]).collect(), givens: (0..n * n).map(|i| givens[at(i)]).collect() }
    }
}

/// A transformation reaching the smallest form so far: the view, the old row of each new row
/// and the old column of each new column.
struct Found {
    view: usize,
    rows: Vec<usize>,
    cols: Vec<usize>,
}

/// The box geometry and the best form so far.
struct BoxSearch {
    n: usize,
    /// Rows per band (the box height R) and columns per stack (the box width C).
    band: usize,
    stack: usize,
    best: Vec<u8>,
    /// The form being completed.
    scratch: Vec<u8>,
    found: Vec<Found>,
}

impl BoxSearch {
    /// The transformed grid of view `g` (columns in the order `cols`) with its first rows the
    /// old rows `first` and the rest completed greedily (each band's remaining rows in
    /// increasing order, each further band opened by the smallest row left: rows of a Latin
    /// square differ, so each choice is forced), digits relabelled so row 0 reads 1…n. Keeps it
    /// when it is no larger than the best.
    fn complete(&mut self, view: usize, g: &[u8], first: &[usize], cols: &[usize]) {
        let n = self.n;
        let mut label = [0u8; MAX_N + 1];
        for (c, &oc) in cols.iter().enumerate() {
            label[g[first[0] * n + oc] as usize] = c as u8 + 1;
        }
        let row = |r: usize| cols.iter().map(move |&oc| label[g[r * n + oc] as usize]);
        let mut rows = [0usize; MAX_N];
        let mut used = [false; MAX_N];
        // Whether the form is already below the best on the rows so far (no best yet: below).
        let mut below = self.best.len() != n * n;
        self.scratch.clear();
        for i in 0..n {
            let r = match first.get(i) {
                Some(&r) => r,
                None => {
                    let open = rows[i / self.band * self.band] / self.band;
                    let allowed = |r: usize| !used[r] && (i % self.band == 0 || r / self.band == open);
                    (0..n)
                        .filter(|&r| allowed(r))
                        .reduce(|a, b| if row(b).lt(row(a)) { b } else { a })
                        .expect("a row left")
                }
            };
            rows[i] = r;
            used[r] = true;
            self.scratch.extend(row(r));
            if !below {
                match self.scratch[i * n..].cmp(&self.best[i * n..(i + 1) * n]) {
                    std::cmp::Ordering::Greater => return,
                    std::cmp::Ordering::Less => below = true,
                    std::cmp::Ordering::Equal => {}
                }
            }
        }
        if below {
            std::mem::swap(&mut self.best, &mut self.scratch);
            self.found.clear();
        }
        self.found.push(Found { view, rows: rows[..n].to_vec(), cols: cols.to_vec() });
    }
}

/// A column order being built (relabelling boards): old column of each new column, new column
/// of each old column, old stack of each new stack, new stack of each old stack (`FREE` where
/// none yet), and row 1 so far, five bits an entry.
#[derive(Clone, Copy)]
struct Order {
    col_at: [u8; MAX_N],
    pos_of: [u8; MAX_N],
    stack_at: [u8; MAX_N / 2],
    new_stack: [u8; MAX_N / 2],
    stacks: usize,
    row1: u128,
}

const FREE: u8 = u8::MAX;

/// The search for the smallest row 1 of one choice of rows 0 and 1 (relabelling boards): the
/// classic search of `super::super::canonical::RowSearch` for any box width. Row 1's entry at
/// new column c is 1 + the new column, in row 0, of row 1's digit there; for each old column
/// that may go to c, the column holding its digit in row 0 goes to the smallest new column still
/// open to it (any other place gives a larger entry at c, and every partial order keeping stacks
/// completes). Only the choices giving the smallest entry are followed, none whose row 1 so far
/// exceeds the best.
struct RowSearch<'a> {
    g: &'a [u8],
    view: usize,
    r0: usize,
    r1: usize,
    /// `p[j]`: old column, in row r0, of row r1's digit at old column j.
    p: Vec<u8>,
}

impl RowSearch<'_> {
    fn first_free_in(o: &Order, ns: u8, w: usize, not: usize) -> Option<u8> {
        (ns as usize * w..ns as usize * w + w).find(|&q| o.col_at[q] == FREE && q != not).map(|q| q as u8)
    }

    /// Row 1's entry at new column `c` if old column `u` goes there, and where its row-0 column
    /// then goes.
    fn label(&self, o: &Order, w: usize, u: u8, c: usize) -> (u8, u8) {
        let target = self.p[u as usize];
        if o.pos_of[target as usize] != FREE {
            return (o.pos_of[target as usize] + 1, o.pos_of[target as usize]);
        }
        if target == u {
            return (c as u8 + 1, c as u8);
        }
        let (ts, us) = (target as usize / w, u as usize / w);
        let mut ns = o.new_stack[ts];
        if ns == FREE && ts == us {
            ns = (c / w) as u8;
        }
        let pos = if ns != FREE {
            Self::first_free_in(o, ns, w, c).expect("a free column in the stack")
        } else {
            let k = (0..o.stacks).find(|&k| o.stack_at[k] == FREE && k != c / w).expect("a free stack");
            (k * w) as u8
        };
        (pos + 1, pos)
    }

    fn put(o: &mut Order, w: usize, col: u8, pos: u8) {
        o.col_at[pos as usize] = col;
        o.pos_of[col as usize] = pos;
        o.stack_at[pos as usize / w] = col / w as u8;
        o.new_stack[col as usize / w] = pos / w as u8;
    }

    fn fill(&self, s: &mut BoxSearch, c: usize, mut o: Order, best_row1: &mut u128) {
        let (n, w) = (s.n, s.stack);
        let mut c = c;
        while c < n {
            let mut cols = [0u8; MAX_N];
            let mut m = 0;
            if o.col_at[c] != FREE {
                cols[0] = o.col_at[c];
                m = 1;
            } else {
                let assigned = o.stack_at[c / w];
                for u in 0..n as u8 {
                    let us = u as usize / w;
                    let open = if assigned != FREE { us == assigned as usize } else { o.new_stack[us] == FREE };
                    if open && o.pos_of[u as usize] == FREE {
                        cols[m] = u;
                        m += 1;
                    }
                }
            }
            let cols = &cols[..m];
            let mut labels = [(0u8, 0u8); MAX_N];
            for (l, &u) in labels.iter_mut().zip(cols) {
                *l = self.label(&o, w, u, c);
            }
            let labels = &labels[..m];
            let low = labels.iter().map(|l| l.0).min().expect("a column open");
            let row1 = (o.row1 << 5) | u128::from(low);
            if row1 > *best_row1 >> (5 * (n - 1 - c)) {
                return;
            }
            let mut ties = (0..cols.len()).filter(|&i| labels[i].0 == low);
            let first = ties.next().expect("a smallest entry");
            for i in ties {
                let mut q = o;
                Self::put(&mut q, w, cols[i], c as u8);
                if q.pos_of[self.p[cols[i] as usize] as usize] == FREE {
                    Self::put(&mut q, w, self.p[cols[i] as usize], labels[i].1);
                }
                q.row1 = row1;
                self.fill(s, c + 1, q, best_row1);
            }
            Self::put(&mut o, w, cols[first], c as u8);
            if o.pos_of[self.p[cols[first] as usize] as usize] == FREE {
                Self::put(&mut o, w, self.p[cols[first] as usize], labels[first].1);
            }
            o.row1 = row1;
            c += 1;
        }
        if o.row1 > *best_row1 {
            return;
        }
        if o.row1 < *best_row1 {
            *best_row1 = o.row1;
            s.best.clear();
            s.found.clear();
        }
        let mut cols = [0usize; MAX_N];
        for (c, &x) in cols.iter_mut().zip(&o.col_at[..n]) {
            *c = x as usize;
        }
        s.complete(self.view, self.g, &[self.r0, self.r1], &cols[..n]);
    }
}

/// Box boards (see the module comment).
fn box_key(shape: &Shape, (band, stack): (usize, usize), givens: &[u8], solution: &[u8]) -> u128 {
    let n = shape.n;
    assert_eq!(solution.len(), n * n, "a box board's key is taken through its solution");
    let views: Vec<View> =
        (0..1 + usize::from(band == stack)).map(|t| View::new(shape, givens, solution, t == 1)).collect();
    let mut s = BoxSearch { n, band, stack, best: Vec::new(), scratch: Vec::new(), found: Vec::new() };
    let mut best_row1 = u128::MAX;
    for (t, v) in views.iter().enumerate() {
        let g = &v.sol;
        for r0 in 0..n {
            let mut at = vec![0u8; n + 1];
            for c in 0..n {
                at[g[r0 * n + c] as usize] = c as u8;
            }
            let b = r0 / band * band;
            for r1 in (b..b + band).filter(|&r| r != r0) {
                let p = (0..n).map(|j| at[g[r1 * n + j] as usize]).collect();
                let search = RowSearch { g, view: t, r0, r1, p };
                let empty = Order {
                    col_at: [FREE; MAX_N],
                    pos_of: [FREE; MAX_N],
                    stack_at: [FREE; MAX_N / 2],
                    new_stack: [FREE; MAX_N / 2],
                    stacks: n / stack,
                    row1: 0,
                };
                search.fill(&mut s, 0, empty, &mut best_row1);
            }
        }
    }
    // Among the transformations reaching the form: the smallest givens mask.
    let tie = s
        .found
        .iter()
        .map(|f| {
            let v = &views[f.view];
            f.rows
                .iter()
                .flat_map(|&r| f.cols.iter().map(move |&c| u8::from(v.givens[r * n + c] != 0)))
                .collect::<Vec<u8>>()
        })
        .min()
        .expect("a transformation reaches the form");
    let mut h = KeyHasher::default();
    for v in [n, band, stack] {
        h.bytes(&(v as u32).to_le_bytes());
    }
    h.bytes(&s.best);
    h.bytes(&tie);
    h.finish()
}

/// A copy of `givens` and `solution` on `shape` under a random symmetry of the key. Box boards
/// (no diagonals, no cages): digits relabelled, rows within bands and bands reordered, the same
/// for columns, and square boxes perhaps transposed. Jigsaw and X boards: digits relabelled
/// (the square's symmetries that keep such a board are rare, and found by the key itself).
/// Killer boards: as they are (their cage sums pin the digits, and their cages the square).
pub fn symmetric(shape: &Shape, givens: &[u8], solution: &[u8], rng: &mut impl rand::Rng) -> (Vec<u8>, Vec<u8>) {
    use pf_core::common::canon::band_preserving_order;
    use rand::seq::SliceRandom;
    let n = shape.n;
    if shape.is_killer() {
        return (givens.to_vec(), solution.to_vec());
    }
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    digits.shuffle(rng);
    let (rows, cols, flip) = match shape.boxes {
        Some((r, c)) if !shape.diagonals => {
            (band_preserving_order(c, r, rng), band_preserving_order(r, c, rng), r == c && rng.gen::<bool>())
        }
        _ => ((0..n).collect(), (0..n).collect(), false),
    };
    let image = |g: &[u8]| crate::canonical::moved(g, n, &rows, &cols, flip, &digits);
    (image(givens), image(solution))
}

#[cfg(test)]
mod tests {
    use super::super::generate::generate;
    use super::super::FamilyParams;
    use super::*;
    use crate::family::shape::Cage;
    use crate::Symmetry;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Lines 0..k·w in random group order, each group of w in random order.
    fn lines(k: usize, w: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
        let mut groups: Vec<usize> = (0..k).collect();
        groups.shuffle(rng);
        groups
            .iter()
            .flat_map(|&g| {
                let mut inner: Vec<usize> = (g * w..g * w + w).collect();
                inner.shuffle(rng);
                inner
            })
            .collect()
    }

    /// A random symmetry of a box board (swaps, transposition when the boxes are square,
    /// relabelling unless killer) applied to (shape, givens, solution).
    fn transform(shape: &Shape, givens: &[u8], sol: &[u8], rng: &mut Xoshiro256PlusPlus) -> (Shape, Vec<u8>, Vec<u8>) {
        let n = shape.n;
        let (br, bc) = shape.boxes.unwrap();
        let transpose = br == bc && rng.gen_bool(0.5);
        let rows = lines(n / br, br, rng);
        let cols = lines(n / bc, bc, rng);
        let mut label: Vec<u8> = (0..=n as u8).collect();
        if !shape.is_killer() {
            label[1..].shuffle(rng);
        }
        // Old cell of new cell i.
        let old = |i: usize| {
            let (r, c) = (rows[i / n], cols[i % n]);
            if transpose {
                c * n + r
            } else {
                r * n + c
            }
        };
        let mut new_of = vec![0usize; n * n];
        for i in 0..n * n {
            new_of[old(i)] = i;
        }
        let cages = shape
            .cages
            .iter()
            .map(|q| {
                let mut cells: Vec<u16> = q.cells.iter().map(|&c| new_of[c as usize] as u16).collect();
                cells.sort_unstable();
                Cage { sum: q.sum, cells }
            })
            .collect();
        let t = Shape::new(n, shape.boxes, None, false, cages).unwrap();
        let g = (0..n * n).map(|i| label[givens[old(i)] as usize] * u8::from(givens[old(i)] != 0)).collect();
        let s = (0..n * n).map(|i| label[sol[old(i)] as usize]).collect();
        (t, g, s)
    }

    #[test]
    fn box_boards_share_a_key_across_swaps_transposition_and_relabelling() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for boxes in [(2, 2), (2, 3), (2, 4), (3, 4), (4, 4)] {
            let params = FamilyParams { boxes: Some(boxes), symmetry: Symmetry::None, ..FamilyParams::default() };
            let mut keys = std::collections::HashSet::new();
            let mut made = 0;
            while made < 4 {
                let Ok((shape, givens, sol, _)) = generate(&params, &mut rng) else { continue };
                made += 1;
                let key = canonical_key(&shape, &givens, &sol);
                assert!(keys.insert(key), "{boxes:?}: two generated puzzles share a key");
                let mut moved_some = false;
                for _ in 0..6 {
                    let (t, g, s) = transform(&shape, &givens, &sol, &mut rng);
                    moved_some |= g != givens;
                    assert_eq!(canonical_key(&t, &g, &s), key, "{boxes:?}");
                }
                assert!(moved_some);
                // A changed puzzle (one given more, from the solution) is another puzzle.
                if let Some(i) = (0..givens.len()).find(|&i| givens[i] == 0) {
                    let mut more = givens.clone();
                    more[i] = sol[i];
                    assert_ne!(canonical_key(&shape, &more, &sol), key);
                }
            }
        }
    }

    #[test]
    fn box_keys_are_fast_enough_at_25() {
        // 25×25: the largest board; its key must not dominate generation.
        let params = FamilyParams { boxes: Some((5, 5)), symmetry: Symmetry::None, ..FamilyParams::default() };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let (shape, givens, sol, _) = generate(&params, &mut rng).unwrap();
        let t = std::time::Instant::now();
        let key = canonical_key(&shape, &givens, &sol);
        let (ts, tg, tsol) = transform(&shape, &givens, &sol, &mut rng);
        assert_eq!(canonical_key(&ts, &tg, &tsol), key);
        assert!(t.elapsed().as_secs_f64() < 2.0, "{:?}", t.elapsed());
    }

    #[test]
    fn rotated_and_relabelled_x_puzzles_share_a_key() {
        // An X board: the symmetries of the square only, and no solution needed.
        let shape = Shape::new(4, Some((2, 2)), None, true, Vec::new()).unwrap();
        let g: Vec<u8> = vec![1, 0, 0, 4, 0, 4, 0, 0, 0, 0, 1, 0, 3, 0, 0, 0];
        // Rotated 180° and digits swapped 1↔2.
        let mut rot: Vec<u8> = g.iter().rev().copied().collect();
        for v in rot.iter_mut() {
            *v = match *v {
                1 => 2,
                2 => 1,
                x => x,
            };
        }
        assert_eq!(canonical_key(&shape, &g, &[]), canonical_key(&shape, &rot, &[]));
        let mut other = g.clone();
        other[1] = 2;
        assert_ne!(canonical_key(&shape, &g, &[]), canonical_key(&shape, &other, &[]));
    }
}
