//! Random Latin squares that can be any Latin square: the Jacobson–Matthews Markov chain.
//!
//! A shuffled cyclic square reaches only one isotopy class; the chain's moves (±1 on the eight
//! corners of a sub-cube of the incidence cube, passing through "improper" squares with one -1
//! entry) connect all Latin squares of a size, and its stationary distribution is uniform.
//! We start from the cyclic square and run `N³` moves (the usual mixing budget), stopping on a
//! proper square.

use rand::Rng;

/// An N×N Latin square, row-major, symbols 1..=N.
pub fn random_latin_square(n: usize, rng: &mut impl Rng) -> Vec<u8> {
    assert!((1..=16).contains(&n));
    if n <= 1 {
        return vec![1; n * n];
    }
    let mut cube = Cube::cyclic(n);
    let mut improper: Option<(usize, usize, usize)> = None;
    let moves = n * n * n;
    let mut done = 0;
    while done < moves || improper.is_some() {
        done += 1;
        let (r, c, s, r2, c2, s2);
        match improper {
            None => {
                // A zero of the cube, and the 1s in its row, column and symbol lines.
                let (rr, cc, ss) = loop {
                    let (a, b, d) = (rng.gen_range(0..n), rng.gen_range(0..n), rng.gen_range(0..n));
                    if cube.at(a, b, d) == 0 {
                        break (a, b, d);
                    }
                };
                (r, c, s) = (rr, cc, ss);
                r2 = cube.ones_cs[c * n + s].trailing_zeros() as usize;
                c2 = cube.ones_rs[r * n + s].trailing_zeros() as usize;
                s2 = cube.ones_rc[r * n + c].trailing_zeros() as usize;
            }
            Some((rr, cc, ss)) => {
                // From the -1 entry: each of its lines holds two 1s; pick one of each at random
                // (the first or the second, in ascending order).
                (r, c, s) = (rr, cc, ss);
                let pick = |ones: u32, rng: &mut dyn rand::RngCore| {
                    let second = rng.next_u32() % 2 == 1;
                    let low = ones & ones.wrapping_neg();
                    (if second { ones ^ low } else { ones }).trailing_zeros() as usize
                };
                r2 = pick(cube.ones_cs[c * n + s], rng);
                c2 = pick(cube.ones_rs[r * n + s], rng);
                s2 = pick(cube.ones_rc[r * n + c], rng);
            }
        }
        cube.add(r, c, s, 1);
        cube.add(r, c2, s2, 1);
        cube.add(r2, c, s2, 1);
        cube.add(r2, c2, s, 1);
        cube.add(r, c, s2, -1);
        cube.add(r, c2, s, -1);
        cube.add(r2, c, s, -1);
        cube.add(r2, c2, s2, -1);
        improper = (cube.at(r2, c2, s2) == -1).then_some((r2, c2, s2));
    }
    (0..n * n).map(|rc| cube.ones_rc[rc].trailing_zeros() as u8 + 1).collect()
}

/// The chain's incidence cube: `value[(r * n + c) * n + s]` ∈ {-1, 0, 1}, 1 when cell (r, c)
/// holds symbol s; and for each line of the cube, the bit set of its 1s (by row, column or
/// symbol along the line), so that the chain finds a line's 1s without a scan (at 9×9 the
/// scans were a tenth of a KenKen run).
struct Cube {
    n: usize,
    value: Vec<i8>,
    /// Symbols s with a 1 at (r, c), by `r * n + c`.
    ones_rc: Vec<u32>,
    /// Rows r with a 1 at (c, s), by `c * n + s`.
    ones_cs: Vec<u32>,
    /// Columns c with a 1 at (r, s), by `r * n + s`.
    ones_rs: Vec<u32>,
}

impl Cube {
    /// The cyclic square: (r, c) holds (r + c) mod n.
    fn cyclic(n: usize) -> Cube {
        let mut cube = Cube {
            n,
            value: vec![0; n * n * n],
            ones_rc: vec![0; n * n],
            ones_cs: vec![0; n * n],
            ones_rs: vec![0; n * n],
        };
        for r in 0..n {
            for c in 0..n {
                cube.add(r, c, (r + c) % n, 1);
            }
        }
        cube
    }

    #[inline(always)]
    fn at(&self, r: usize, c: usize, s: usize) -> i8 {
        self.value[(r * self.n + c) * self.n + s]
    }

    #[inline(always)]
    fn add(&mut self, r: usize, c: usize, s: usize, delta: i8) {
        let n = self.n;
        let v = &mut self.value[(r * n + c) * n + s];
        *v += delta;
        let one = *v == 1;
        let set = |mask: &mut u32, bit: usize| {
            if one {
                *mask |= 1 << bit;
            } else {
                *mask &= !(1 << bit);
            }
        };
        set(&mut self.ones_rc[r * n + c], s);
        set(&mut self.ones_cs[c * n + s], r);
        set(&mut self.ones_rs[r * n + s], c);
    }
}

/// True when every row and column of `sq` (N×N, symbols 1..=N) holds each symbol once.
pub fn is_latin(sq: &[u8], n: usize) -> bool {
    (0..n).all(|i| {
        let (mut row, mut col) = (0u32, 0u32);
        for j in 0..n {
            row |= 1 << sq[i * n + j];
            col |= 1 << sq[j * n + i];
        }
        let full = (1u32 << (n + 1)) - 2;
        row == full && col == full
    })
}

// ---------------------------------------------------------------------------------------------
// Latin-square techniques shared by the raters (Sudoku's rows, columns and boxes; KenKen's
// lines). A house is given as the candidate masks of its cells in order (bit d = digit d; 0 for
// a placed cell); successes come back as bit sets over the house's positions, and the kind
// turns them into its own steps. Enumeration order is fixed (positions and digits ascending,
// subsets lexicographic), so the first success, which the ladder applies, is well defined.
// ---------------------------------------------------------------------------------------------

use crate::common::combos::{binom, tight_unions};
use crate::rate::Tally;

/// Naked k-subsets in one house. Situation: every k-set of the house's open cells (counted,
/// only those of cells with at most k candidates examined). Success: their candidates number
/// exactly k and another open cell holds one. `step(subset, others, digits)` builds the step
/// that removes `digits` from the `others` positions.
pub fn naked_subsets<M: Copy + Into<u32>, S>(
    house: &[M],
    k: usize,
    t: &mut Tally<S>,
    step: impl Fn(u32, u32, u32) -> S,
) {
    let mut buf = [0u32; 32];
    house.iter().enumerate().for_each(|(i, &m)| buf[i] = m.into());
    let house = &buf[..house.len()];
    let open: u32 = (0..house.len()).filter(|&i| house[i] != 0).fold(0, |m, i| m | 1 << i);
    let all = open.count_ones() as usize;
    if all <= k {
        return;
    }
    let (mut fit, mut digits) = ([0usize; 32], [0u32; 32]);
    let mut n = 0;
    for i in (0..house.len()).filter(|&i| house[i] != 0 && house[i].count_ones() as usize <= k) {
        (fit[n], digits[n]) = (i, house[i]);
        n += 1;
    }
    // Every k-set is a situation; only those of at most k digits are examined (and counted
    // by `record`), the rest are counted here.
    let before = t.situations;
    tight_unions(&digits[..n], k, |ix, digits| {
        let subset = ix.iter().fold(0u32, |a, &i| a | 1 << fit[i]);
        let others = open & !subset;
        let hit = digits.count_ones() as usize == k
            && (0..house.len()).any(|i| others >> i & 1 == 1 && house[i] & digits != 0);
        t.record_many(1, hit as u32, || Some(step(subset, others, digits)));
    });
    t.situations = before + binom(all, k);
}

/// Hidden k-subsets in one house. Situation: every k-set of the digits open in the house
/// (counted, only those of digits with at most k places examined). Success: they share exactly
/// k cells and one of those holds another candidate. `step(cells, digits)` builds the step that
/// keeps only `digits` in the `cells` positions.
pub fn hidden_subsets<M: Copy + Into<u32>, S>(house: &[M], k: usize, t: &mut Tally<S>, step: impl Fn(u32, u32) -> S) {
    let mut buf = [0u32; 32];
    house.iter().enumerate().for_each(|(i, &m)| buf[i] = m.into());
    let house = &buf[..house.len()];
    let mut places = [0u32; 32];
    let mut present = 0u32;
    for (i, &m) in house.iter().enumerate() {
        present |= m;
        let mut m = m;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            places[d] |= 1 << i;
        }
    }
    let all = present.count_ones() as usize;
    if all <= k {
        return;
    }
    let (mut fit, mut cells) = ([0usize; 32], [0u32; 32]);
    let mut n = 0;
    let mut rest = present;
    while rest != 0 {
        let d = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if places[d].count_ones() as usize <= k {
            (fit[n], cells[n]) = (d, places[d]);
            n += 1;
        }
    }
    // Every k-set of digits is a situation; only those spread over at most k cells are
    // examined (and counted by `record`), the rest are counted here.
    let before = t.situations;
    tight_unions(&cells[..n], k, |ix, cover| {
        let set = ix.iter().fold(0u32, |a, &i| a | 1 << fit[i]);
        let hit =
            cover.count_ones() as usize == k && (0..house.len()).any(|i| cover >> i & 1 == 1 && house[i] & !set != 0);
        t.record_many(1, hit as u32, || Some(step(cover, set)));
    });
    t.situations = before + binom(all, k);
}

/// Fish of size n (X-wing 2, swordfish 3, jellyfish 4) for one digit in one orientation.
/// `lines[i]` are the positions (across) where the digit can go in base line i. Situation: every
/// n-set of lines holding it in two or more places (counted, only lines with at most n places
/// examined). Success: the places cover exactly n cross lines and the digit can leave another
/// cell of them (`removable(bases, cover)` says whether it can). `step(bases, cover)` builds the
/// step removing the digit from the cover lines outside the base lines.
pub fn fish<M: Copy + Into<u32>, S>(
    lines: &[M],
    n: usize,
    t: &mut Tally<S>,
    removable: impl Fn(u32, u32) -> bool,
    step: impl Fn(u32, u32) -> S,
) {
    let mut buf = [0u32; 32];
    lines.iter().enumerate().for_each(|(i, &m)| buf[i] = m.into());
    let lines = &buf[..lines.len()];
    let all = lines.iter().filter(|p| p.count_ones() >= 2).count();
    let (mut fit, mut places) = ([0usize; 32], [0u32; 32]);
    let mut m = 0;
    for i in (0..lines.len()).filter(|&i| (2..=n).contains(&(lines[i].count_ones() as usize))) {
        (fit[m], places[m]) = (i, lines[i]);
        m += 1;
    }
    // Every n-set of those lines is a situation; only those whose places span at most n cross
    // lines are examined (and counted by `record`), the rest are counted here.
    let before = t.situations;
    tight_unions(&places[..m], n, |ix, cover| {
        let bases = ix.iter().fold(0u32, |a, &i| a | 1 << fit[i]);
        let hit = cover.count_ones() as usize == n && removable(bases, cover);
        t.record_many(1, hit as u32, || Some(step(bases, cover)));
    });
    t.situations = before + binom(all, n);
}

/// Cells and candidates of a Latin square being solved (bit d = digit d; `placed` cells hold
/// their digit alone), for the line techniques the Latin kinds share. A removal step is built
/// by `step(cells, digits, from)`: the cells that lose any of `digits` (only those that hold
/// one), and the pattern's cells it rests on.
pub struct LatinLines<'a> {
    pub n: usize,
    pub cand: &'a [u16],
    pub placed: &'a [bool],
    /// Every row, then every column, as cell indices.
    pub lines: &'a [Vec<usize>],
}

impl LatinLines<'_> {
    /// A line's candidate masks in order, 0 for placed cells, in a buffer on the stack (the
    /// subset scans ask for every line at every step of levels 2 to 4): the first `line.len()`
    /// entries.
    fn line_cands(&self, line: &[usize]) -> [u16; 32] {
        let mut buf = [0u16; 32];
        for (b, &c) in buf.iter_mut().zip(line) {
            *b = if self.placed[c] { 0 } else { self.cand[c] };
        }
        buf
    }

    fn losing(&self, cells: Vec<usize>, digits: u16) -> Vec<usize> {
        cells.into_iter().filter(|&c| !self.placed[c] && self.cand[c] & digits != 0).collect()
    }

    /// Naked singles: every empty cell is a situation, a success when one candidate is left;
    /// `place(cell, digit)` builds the step.
    /// The step is made for the first single only.
    pub fn naked_single<S>(&self, t: &mut Tally<S>, place: impl Fn(usize, u8) -> S) {
        let (mut situations, mut successes, mut first) = (0, 0, None);
        for (c, (&m, &placed)) in self.cand.iter().zip(self.placed).enumerate() {
            if !placed {
                situations += 1;
                if m.count_ones() == 1 {
                    successes += 1;
                    first = first.or(Some((c, m)));
                }
            }
        }
        t.record_many(situations, successes, || first.map(|(c, m)| place(c, m.trailing_zeros() as u8)));
    }

    /// Hidden singles: every (line, digit) with the digit open in the line is a situation, a
    /// success when one cell can take it; the first success places its lowest such digit.
    pub fn hidden_single<S>(&self, t: &mut Tally<S>, place: impl Fn(usize, u8) -> S) {
        // Each cell's candidates, or none once placed, read twice (its row, its column) without
        // a branch. Digits are bits 1..=15 of a u16, so a square has at most 225 cells.
        let mut open = [0u16; 256];
        for (o, (&m, &placed)) in open.iter_mut().zip(self.cand.iter().zip(self.placed)) {
            *o = if placed { 0 } else { m };
        }
        for line in self.lines {
            let (mut once, mut twice) = (0u16, 0u16);
            for &c in line {
                let m = open[c];
                twice |= once & m;
                once |= m;
            }
            let single = once & !twice;
            t.record_many(once.count_ones(), single.count_ones(), || {
                let d = single.trailing_zeros() as u8;
                let c = line.iter().copied().find(|&c| !self.placed[c] && self.cand[c] >> d & 1 == 1)?;
                Some(place(c, d))
            });
        }
    }

    /// Naked k-subsets in every line (`naked_subsets`).
    pub fn naked<S>(&self, k: usize, t: &mut Tally<S>, step: impl Fn(Vec<usize>, u16, Vec<usize>) -> S) {
        for line in self.lines {
            naked_subsets(&self.line_cands(line)[..line.len()], k, t, |subset, others, digits| {
                step(self.losing(positions(line, others), digits as u16), digits as u16, positions(line, subset))
            });
        }
    }

    /// Hidden k-subsets in every line (`hidden_subsets`): their cells lose every other digit.
    pub fn hidden<S>(&self, k: usize, t: &mut Tally<S>, step: impl Fn(Vec<usize>, u16, Vec<usize>) -> S) {
        let full = ((1u32 << (self.n + 1)) - 2) as u16;
        for line in self.lines {
            hidden_subsets(&self.line_cands(line)[..line.len()], k, t, |cells, set| {
                let at = positions(line, cells);
                let digits = full & !(set as u16);
                step(self.losing(at.clone(), digits), digits, at)
            });
        }
    }

    /// Fish of `size` (`fish`) for every digit, rows as base lines and then columns; `from` is
    /// the base lines' cells holding the digit.
    pub fn fish<S>(&self, size: usize, t: &mut Tally<S>, step: impl Fn(Vec<usize>, u16, Vec<usize>) -> S) {
        let n = self.n;
        for d in 1..=n as u8 {
            for rows in [true, false] {
                let at = |i: usize, j: usize| if rows { i * n + j } else { j * n + i };
                let holds = |c: usize| !self.placed[c] && self.cand[c] >> d & 1 == 1;
                let lines: Vec<u16> =
                    (0..n).map(|i| (0..n).filter(|&j| holds(at(i, j))).fold(0u16, |m, j| m | 1 << j)).collect();
                let cells = |bases: u32, cover: u32| -> Vec<usize> {
                    (0..n)
                        .filter(|&i| bases >> i & 1 == 0)
                        .flat_map(|i| (0..n).filter(move |&j| cover >> j & 1 == 1).map(move |j| at(i, j)))
                        .filter(|&c| holds(c))
                        .collect()
                };
                fish(
                    &lines,
                    size,
                    t,
                    |b, c| !cells(b, c).is_empty(),
                    |b, c| {
                        let from = (0..n)
                            .filter(|&i| b >> i & 1 == 1)
                            .flat_map(|i| (0..n).map(move |j| at(i, j)))
                            .filter(|&x| holds(x))
                            .collect();
                        step(cells(b, c), 1 << d, from)
                    },
                );
            }
        }
    }
}

/// The cells of `line` at the positions set in `m`.
fn positions(line: &[usize], m: u32) -> Vec<usize> {
    (0..line.len()).filter(|i| m >> i & 1 == 1).map(|i| line[i]).collect()
}

/// "row 3" or "column 5" for line `l` of an N×N square (rows first).
pub fn line_name(l: usize, n: usize) -> String {
    if l < n {
        format!("row {}", l + 1)
    } else {
        format!("column {}", l - n + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Bits for digits.
    fn m(ds: &[u8]) -> u32 {
        ds.iter().fold(0, |a, &d| a | 1 << d)
    }

    #[test]
    fn naked_pair_fires_and_not_without_one() {
        // Cells 0 and 2 hold {1,2}: a naked pair; cell 3 loses 1 and 2.
        let house = [m(&[1, 2]), m(&[3, 4]), m(&[1, 2]), m(&[1, 2, 5]), 0];
        let mut t: Tally<(u32, u32, u32)> = Tally::default();
        naked_subsets(&house, 2, &mut t, |s, o, d| (s, o, d));
        assert_eq!(t.successes, 1);
        assert_eq!(t.first, Some((0b101, 0b1010, m(&[1, 2]))));
        assert_eq!(t.situations, 6); // C(4 open cells, 2)
                                     // Without a second {1,2} cell there is no pair.
        let house = [m(&[1, 2]), m(&[3, 4]), m(&[1, 3]), m(&[1, 2, 5]), 0];
        let mut t: Tally<(u32, u32, u32)> = Tally::default();
        naked_subsets(&house, 2, &mut t, |s, o, d| (s, o, d));
        assert_eq!(t.successes, 0);
    }

    #[test]
    fn hidden_pair_fires_and_not_when_nothing_to_remove() {
        // Digits 4 and 5 only in cells 1 and 3, which hold other candidates too.
        let house = [m(&[1, 2]), m(&[1, 4, 5]), m(&[2, 3]), m(&[3, 4, 5]), m(&[1, 3])];
        let mut t: Tally<(u32, u32)> = Tally::default();
        hidden_subsets(&house, 2, &mut t, |c, d| (c, d));
        assert_eq!(t.first, Some((0b1010, m(&[4, 5]))));
        // Same places, but the cells hold only 4 and 5: nothing to remove.
        let house = [m(&[1, 2]), m(&[4, 5]), m(&[2, 3]), m(&[4, 5]), m(&[1, 3])];
        let mut t: Tally<(u32, u32)> = Tally::default();
        hidden_subsets(&house, 2, &mut t, |c, d| (c, d));
        assert_eq!(t.successes, 0);
    }

    #[test]
    fn x_wing_needs_two_matching_lines() {
        // Lines 0 and 2 hold the digit at positions {1, 3}: an X-wing.
        let lines = [0b1010u16, 0b0110, 0b1010, 0b0001];
        let mut t: Tally<(u32, u32)> = Tally::default();
        fish(&lines, 2, &mut t, |_, _| true, |b, c| (b, c));
        assert_eq!(t.first, Some((0b101, 0b1010)));
        let lines = [0b1010u16, 0b0110, 0b1100, 0b0001];
        let mut t: Tally<(u32, u32)> = Tally::default();
        fish(&lines, 2, &mut t, |_, _| true, |b, c| (b, c));
        assert_eq!(t.successes, 0);
    }

    /// The chain as first written, scanning the cube's lines: the squares (and so every
    /// puzzle made from them) must stay the same.
    fn scanned(n: usize, rng: &mut impl Rng) -> Vec<u8> {
        let idx = |r: usize, c: usize, s: usize| (r * n + c) * n + s;
        let mut cube = vec![0i8; n * n * n];
        for r in 0..n {
            for c in 0..n {
                cube[idx(r, c, (r + c) % n)] = 1;
            }
        }
        if n <= 1 {
            return vec![1; n * n];
        }
        let mut improper: Option<(usize, usize, usize)> = None;
        let mut done = 0;
        while done < n * n * n || improper.is_some() {
            done += 1;
            let (r, c, s, r2, c2, s2);
            match improper {
                None => {
                    let (rr, cc, ss) = loop {
                        let (a, b, d) = (rng.gen_range(0..n), rng.gen_range(0..n), rng.gen_range(0..n));
                        if cube[idx(a, b, d)] == 0 {
                            break (a, b, d);
                        }
                    };
                    (r, c, s) = (rr, cc, ss);
                    r2 = (0..n).find(|&x| cube[idx(x, c, s)] == 1).unwrap();
                    c2 = (0..n).find(|&x| cube[idx(r, x, s)] == 1).unwrap();
                    s2 = (0..n).find(|&x| cube[idx(r, c, x)] == 1).unwrap();
                }
                Some((rr, cc, ss)) => {
                    (r, c, s) = (rr, cc, ss);
                    let pick = |cands: Vec<usize>, rng: &mut dyn rand::RngCore| cands[(rng.next_u32() % 2) as usize];
                    r2 = pick((0..n).filter(|&x| cube[idx(x, c, s)] == 1).collect(), rng);
                    c2 = pick((0..n).filter(|&x| cube[idx(r, x, s)] == 1).collect(), rng);
                    s2 = pick((0..n).filter(|&x| cube[idx(r, c, x)] == 1).collect(), rng);
                }
            }
            for (x, d) in [((r, c, s), 1), ((r, c2, s2), 1), ((r2, c, s2), 1), ((r2, c2, s), 1)] {
                cube[idx(x.0, x.1, x.2)] += d;
            }
            for x in [(r, c, s2), (r, c2, s), (r2, c, s), (r2, c2, s2)] {
                cube[idx(x.0, x.1, x.2)] -= 1;
            }
            improper = (cube[idx(r2, c2, s2)] == -1).then_some((r2, c2, s2));
        }
        (0..n * n).map(|rc| (0..n).find(|&s| cube[rc * n + s] == 1).unwrap() as u8 + 1).collect()
    }

    #[test]
    fn the_chain_makes_the_squares_it_made_when_it_scanned() {
        for n in 1..=16 {
            for seed in 0..4 {
                let mut a = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
                let mut b = a.clone();
                assert_eq!(random_latin_square(n, &mut a), scanned(n, &mut b), "n={n} seed={seed}");
                assert_eq!(a.gen::<u64>(), b.gen::<u64>(), "n={n} seed={seed}: the same draws");
            }
        }
    }

    #[test]
    fn squares_are_latin_and_varied() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        for n in 1..=12 {
            for _ in 0..5 {
                assert!(is_latin(&random_latin_square(n, &mut rng), n), "n={n}");
            }
        }
        // Every Latin square of order 4 has a 2×2 subsquare; and the chain varies first rows.
        let has_subsquare = |sq: &[u8]| {
            (0..4).any(|r1| {
                (r1 + 1..4).any(|r2| {
                    (0..4).any(|c1| {
                        (c1 + 1..4).any(|c2| sq[r1 * 4 + c1] == sq[r2 * 4 + c2] && sq[r1 * 4 + c2] == sq[r2 * 4 + c1])
                    })
                })
            })
        };
        let samples: Vec<Vec<u8>> = (0..200).map(|_| random_latin_square(4, &mut rng)).collect();
        assert!(samples.iter().all(|s| has_subsquare(s)));
        let rows: std::collections::HashSet<Vec<u8>> = samples.iter().map(|s| s[..4].to_vec()).collect();
        assert!(rows.len() > 12, "{}", rows.len());
    }

    #[test]
    fn reaches_more_than_the_cyclic_class_at_size_5() {
        // Every square isotopic to the cyclic 5×5 one has no 2×2 intercalate; the other isotopy
        // class of order 5 has some. A chain confined to the cyclic class would never show one.
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let intercalates = |sq: &[u8]| {
            let mut k = 0;
            for r1 in 0..5 {
                for r2 in r1 + 1..5 {
                    for c1 in 0..5 {
                        for c2 in c1 + 1..5 {
                            k += (sq[r1 * 5 + c1] == sq[r2 * 5 + c2] && sq[r1 * 5 + c2] == sq[r2 * 5 + c1]) as u32;
                        }
                    }
                }
            }
            k
        };
        let counts: Vec<u32> = (0..300).map(|_| intercalates(&random_latin_square(5, &mut rng))).collect();
        assert!(counts.contains(&0) && counts.iter().any(|&k| k > 0), "{counts:?}");
    }
}
