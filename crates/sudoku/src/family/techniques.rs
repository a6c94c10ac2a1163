//! The family's strategy ladder: the 16 Sudoku strategies in their 6 levels over every house
//! of the board (rows, columns, boxes or jigsaw regions, and the diagonals of X; fish over rows
//! and columns), and the killer strategies placed among them. Cage arithmetic is the first
//! thing a killer solver reaches for (Tatham's Solo, too, applies all its cage reasoning before
//! anything beyond singles), so the single-cage and single-house strategies sit at level 1 and
//! a killer's level and grade measure the Sudoku technique it needs on top of them:
//! level 1 `cage_sum` (a cage's last empty cell), `cage_combination` (digit sets from the
//! per-(sum, cells) tables that the empty cells can still take one to one; one situation per
//! set, so a cage of many combinations weighs more: fitted on sudoku.com's player win rates,
//! see docs/measurements.md), `cage_house` (a cage's sure digit confined to one house, or a
//! house's digit confined to one cage) and `innies_outies` (the 45 rule over one house);
//! level 2 `innies_outies_multi` (the 45 rule over two or three adjacent rows, columns or
//! regions: the cells left over act as a deduced cage with a known sum). Placed so, Solo's
//! killer levels follow our steps and hardest level more closely than with the cage strategies
//! spread over levels 1-4 (commit message: gamma on Solo's killer sets).
//!
//! Each technique is defined once here: name, level, what one situation is and what counts as a
//! success. Scans only read the position; a success becomes a `Step` that the ladder applies.
//! Soundness (no step removes a solution digit) is audited by `Position::unsound` and checked
//! by the tests over many generated puzzles.

use super::position::{Position, Step};
use super::shape::{full, HouseKind, Mask, Rule45, Shape, MAX_N};
use super::solve::{self, Solver};
use pf_core::common::combos::binom;
use pf_core::common::latin;
use pf_core::rate::{fish_unit, Effect, Solving, Tally, Technique};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tech {
    NakedSingle,
    HiddenSingle,
    CageSum,
    NakedPair,
    HiddenPair,
    Intersection,
    CageCombination,
    NakedTriple,
    HiddenTriple,
    XWing,
    XyWing,
    CageHouse,
    InniesOuties,
    NakedQuad,
    HiddenQuad,
    Swordfish,
    XyzWing,
    InniesOutiesMulti,
    Jellyfish,
    WxyzWing,
    Trial,
}

impl Technique for Tech {
    const ALL: &'static [Tech] = &[
        Tech::NakedSingle,
        Tech::HiddenSingle,
        Tech::CageSum,
        Tech::NakedPair,
        Tech::HiddenPair,
        Tech::Intersection,
        Tech::CageCombination,
        Tech::NakedTriple,
        Tech::HiddenTriple,
        Tech::XWing,
        Tech::XyWing,
        Tech::CageHouse,
        Tech::InniesOuties,
        Tech::NakedQuad,
        Tech::HiddenQuad,
        Tech::Swordfish,
        Tech::XyzWing,
        Tech::InniesOutiesMulti,
        Tech::Jellyfish,
        Tech::WxyzWing,
        Tech::Trial,
    ];

    fn name(self) -> &'static str {
        match self {
            Tech::NakedSingle => "naked_single",
            Tech::HiddenSingle => "hidden_single",
            Tech::CageSum => "cage_sum",
            Tech::NakedPair => "naked_pair",
            Tech::HiddenPair => "hidden_pair",
            Tech::Intersection => "intersection",
            Tech::CageCombination => "cage_combination",
            Tech::NakedTriple => "naked_triple",
            Tech::HiddenTriple => "hidden_triple",
            Tech::XWing => "x_wing",
            Tech::XyWing => "xy_wing",
            Tech::CageHouse => "cage_house",
            Tech::InniesOuties => "innies_outies",
            Tech::NakedQuad => "naked_quad",
            Tech::HiddenQuad => "hidden_quad",
            Tech::Swordfish => "swordfish",
            Tech::XyzWing => "xyz_wing",
            Tech::InniesOutiesMulti => "innies_outies_multi",
            Tech::Jellyfish => "jellyfish",
            Tech::WxyzWing => "wxyz_wing",
            Tech::Trial => "trial",
        }
    }

    fn level(self) -> u8 {
        match self {
            Tech::NakedSingle
            | Tech::HiddenSingle
            | Tech::CageSum
            | Tech::CageCombination
            | Tech::InniesOuties
            | Tech::CageHouse => 1,
            Tech::NakedPair | Tech::HiddenPair | Tech::Intersection | Tech::InniesOutiesMulti => 2,
            Tech::NakedTriple | Tech::HiddenTriple | Tech::XWing | Tech::XyWing => 3,
            Tech::NakedQuad | Tech::HiddenQuad | Tech::Swordfish | Tech::XyzWing => 4,
            Tech::Jellyfish | Tech::WxyzWing => 5,
            Tech::Trial => 6,
        }
    }

    fn situation(self) -> &'static str {
        match self {
            Tech::NakedSingle => "an empty cell; succeeds when it has one candidate left",
            Tech::HiddenSingle => {
                "a (house, digit) with the digit still open in the house; succeeds when one cell can take it"
            }
            Tech::CageSum => "a cage with one empty cell; succeeds (always) by placing the sum left",
            Tech::NakedPair | Tech::NakedTriple | Tech::NakedQuad => {
                "a set of k empty cells of one house, each with 2..k candidates; succeeds when their \
                 candidates number exactly k and some other cell of the house loses one"
            }
            Tech::HiddenPair | Tech::HiddenTriple | Tech::HiddenQuad => {
                "a set of k digits open in one house, each with 2..k places; succeeds when they share \
                 exactly k cells and those cells hold other candidates to remove"
            }
            Tech::Intersection => {
                "a (house, house, digit) for two houses sharing two or more cells, the digit open in \
                 the shared cells; succeeds when it is confined to them in one house and leaves the other"
            }
            Tech::CageCombination => {
                "a digit set still possible for a cage with two or more empty cells (it reaches the \
                 sum, holds the placed digits and its other digits fit the empty cells one to one; a \
                 cage with none left counts once); the cage's sets succeed once, together, when a \
                 candidate of one of its cells is in none of them"
            }
            Tech::XWing | Tech::Swordfish | Tech::Jellyfish => {
                "a digit and n base lines (rows, or columns) each holding it in 2..n cells; succeeds \
                 when the places cover only n cross lines and the digit leaves some other cell of them"
            }
            Tech::XyWing => {
                "a bivalue pivot {x,y} with two bivalue peers {x,z} and {y,z}; succeeds when z leaves \
                 a cell seeing both pincers"
            }
            Tech::CageHouse => {
                "a (cage, digit) with the digit open in the cage; succeeds when every digit set left \
                 holds it and its places lie in one house it leaves elsewhere, or when in some house \
                 the digit's places all lie in the cage and it leaves the cage's cells outside"
            }
            Tech::InniesOuties | Tech::InniesOutiesMulti => {
                "a house (or 2-3 adjacent rows, columns or regions) with 1..4 empty cells in or out \
                 of the cages that stick out, whose sum the 45 rule gives; succeeds when a candidate \
                 of one of them cannot make that sum"
            }
            Tech::XyzWing => {
                "a pivot {x,y,z} with two bivalue peers {x,z} and {y,z}; succeeds when z leaves a cell \
                 seeing all three"
            }
            Tech::WxyzWing => {
                "a pivot and three of its peers, each with 2..4 candidates, holding four digits in all; \
                 succeeds when exactly one digit z is not confined to mutually visible cells and z \
                 leaves a cell seeing every z of the four"
            }
            Tech::Trial => {
                "a digit of a two-candidate cell (of a fewest-candidate cell when none has two); \
                 succeeds when assuming it leads to a contradiction by propagation; when none does, \
                 the correct digit of the first such cell is placed as a guess"
            }
        }
    }
}

/// Whether the digits `digits` can go into the cells with candidates `cells`, one digit a cell,
/// each from the cell's candidates and each digit once (`used`: the digits taken so far). The
/// cells number as many as the digits, at most the board's size, so the search is small.
fn one_to_one(cells: &[Mask], digits: Mask, used: Mask) -> bool {
    let Some((&first, rest)) = cells.split_first() else { return true };
    let mut options = first & digits & !used;
    while options != 0 {
        let bit = options & options.wrapping_neg();
        if one_to_one(rest, digits, used | bit) {
            return true;
        }
        options &= options - 1;
    }
    false
}

impl Position {
    fn cells_at(cells: &[u16], positions: u32) -> impl Iterator<Item = usize> + '_ {
        (0..cells.len()).filter(move |i| positions >> i & 1 == 1).map(move |i| cells[i] as usize)
    }

    fn naked_single(&self, t: &mut Tally<Step>) {
        let mut first = None;
        let (mut s, mut r) = (0, 0);
        for c in 0..self.cand.len() {
            if self.value[c] == 0 {
                s += 1;
                if self.cand[c].count_ones() == 1 {
                    r += 1;
                    first.get_or_insert(c);
                }
            }
        }
        t.record_many(s, r, || {
            first.map(|c| Step::Place { cell: c as u16, digit: self.cand[c].trailing_zeros() as u8 })
        });
    }

    fn hidden_single(&self, t: &mut Tally<Step>) {
        let (mut s, mut r) = (0, 0);
        let mut first = None;
        for cells in &self.shape.houses {
            let (mut once, mut twice) = (0 as Mask, 0 as Mask);
            for &c in cells {
                let m = self.cand[c as usize];
                twice |= once & m;
                once |= m;
            }
            let single = once & !twice;
            s += once.count_ones();
            r += single.count_ones();
            if single != 0 && first.is_none() {
                let d = single.trailing_zeros() as u8;
                let c = cells.iter().find(|&&c| self.cand[c as usize] >> d & 1 == 1).expect("a place");
                first = Some(Step::Place { cell: *c, digit: d });
            }
        }
        t.record_many(s, r, || first);
    }

    fn house_cands(&self, h: usize) -> Vec<Mask> {
        self.shape.houses[h].iter().map(|&c| self.cand[c as usize]).collect()
    }

    fn naked_subset(&self, k: usize, t: &mut Tally<Step>) {
        for (h, cells) in self.shape.houses.iter().enumerate() {
            latin::naked_subsets(&self.house_cands(h), k, t, |subset, others, digits| {
                self.removal(Self::cells_at(cells, others), digits, || Self::cells_at(cells, subset))
                    .unwrap_or(Step::Remove(Vec::new(), Vec::new()))
            });
        }
    }

    fn hidden_subset(&self, k: usize, t: &mut Tally<Step>) {
        let all = full(self.shape.n);
        for (h, cells) in self.shape.houses.iter().enumerate() {
            latin::hidden_subsets(&self.house_cands(h), k, t, |at, set| {
                self.removal(Self::cells_at(cells, at), all & !set, || Self::cells_at(cells, at))
                    .unwrap_or(Step::Remove(Vec::new(), Vec::new()))
            });
        }
    }

    /// Pointing and claiming over every overlap of two houses, all digits at once: a digit of
    /// the shared cells succeeds when exactly one of the two houses holds it outside them (it
    /// is confined to the shared cells in the other house). Situations are (overlap, digit).
    fn intersection(&self, t: &mut Tally<Step>) {
        let shape = &self.shape;
        let union = |cells: &[u16]| cells.iter().fold(0 as Mask, |m, &c| m | self.cand[c as usize]);
        let mut first = None;
        for (k, [shared, only_a, only_b]) in shape.overlap_parts.iter().enumerate() {
            let inter = union(shared);
            let hits = inter & (union(only_a) ^ union(only_b));
            t.situations += inter.count_ones();
            t.successes += hits.count_ones();
            if hits != 0 && first.is_none() {
                first = Some((k, hits & hits.wrapping_neg()));
            }
        }
        if let Some((k, bit)) = first {
            let [shared, only_a, only_b] = &shape.overlap_parts[k];
            let (a_has, b_has) = (union(only_a) & bit != 0, union(only_b) & bit != 0);
            let cells = if a_has { only_a } else { only_b };
            debug_assert!(a_has != b_has);
            let from = || shared.iter().filter(|&&c| self.cand[c as usize] & bit != 0).map(|&c| c as usize);
            t.first = self.removal(cells.iter().map(|&c| c as usize), bit, from);
        }
    }

    fn fish(&self, size: usize, t: &mut Tally<Step>) {
        let n = self.shape.n;
        for d in 1..=n as u8 {
            let bit: Mask = 1 << d;
            for rows_first in [true, false] {
                let at = |base: usize, cross: usize| if rows_first { base * n + cross } else { cross * n + base };
                let lines: Vec<u32> = (0..n)
                    .map(|i| (0..n).filter(|&j| self.cand[at(i, j)] & bit != 0).fold(0u32, |m, j| m | 1 << j))
                    .collect();
                let cells = |bases: u32, cover: u32| {
                    (0..n)
                        .filter(move |&i| bases >> i & 1 == 0)
                        .flat_map(move |i| (0..n).filter(move |&j| cover >> j & 1 == 1).map(move |j| at(i, j)))
                };
                latin::fish(
                    &lines,
                    size,
                    t,
                    |b, c| cells(b, c).any(|x| self.cand[x] & bit != 0),
                    |b, c| {
                        let from = || {
                            (0..n)
                                .filter(move |&i| b >> i & 1 == 1)
                                .flat_map(move |i| (0..n).map(move |j| at(i, j)))
                                .filter(|&x| self.cand[x] & bit != 0)
                        };
                        self.removal(cells(b, c), bit, from).unwrap_or(Step::Remove(Vec::new(), Vec::new()))
                    },
                );
            }
        }
    }

    fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.cand.len()).filter(|&c| self.value[c] == 0)
    }

    fn common_blocked(&self, cells: &[usize]) -> Vec<usize> {
        self.blockers[cells[0]]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| cells[1..].iter().all(|&o| o == c || self.sees(o, c)) && !cells.contains(&c))
            .collect()
    }

    /// The empty cells with two candidates that see `p` (the pincers a wing can use).
    fn bivalue_peers(&self, p: usize) -> Vec<usize> {
        self.blockers[p]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| self.value[c] == 0 && self.cand[c].count_ones() == 2)
            .collect()
    }

    fn xy_wing(&self, t: &mut Tally<Step>) {
        for p in self.empty_cells().filter(|&c| self.cand[c].count_ones() == 2) {
            let pc = self.cand[p];
            let peers = self.bivalue_peers(p);
            let wings: Vec<usize> = peers.iter().copied().filter(|&w| (self.cand[w] & pc).count_ones() == 1).collect();
            t.subsets_of_fit(peers.len(), wings.len(), 2, |ix, t| {
                let (a, b) = (wings[ix[0]], wings[ix[1]]);
                let (ca, cb) = (self.cand[a], self.cand[b]);
                let found = if ca & pc == cb & pc || ca & !pc != cb & !pc {
                    None
                } else {
                    let cells = self.common_blocked(&[a, b]).into_iter().filter(|&c| c != p);
                    self.removal(cells, ca & !pc, || [p, a, b])
                };
                t.record(found);
            });
        }
    }

    fn xyz_wing(&self, t: &mut Tally<Step>) {
        for p in self.empty_cells().filter(|&c| self.cand[c].count_ones() == 3) {
            let pc = self.cand[p];
            let peers = self.bivalue_peers(p);
            let wings: Vec<usize> = peers.iter().copied().filter(|&w| self.cand[w] & !pc == 0).collect();
            t.subsets_of_fit(peers.len(), wings.len(), 2, |ix, t| {
                let (a, b) = (wings[ix[0]], wings[ix[1]]);
                let (ca, cb) = (self.cand[a], self.cand[b]);
                let found =
                    if ca == cb { None } else { self.removal(self.common_blocked(&[p, a, b]), ca & cb, || [p, a, b]) };
                t.record(found);
            });
        }
    }

    fn wxyz_wing(&self, t: &mut Tally<Step>) {
        for p in self.empty_cells() {
            let pc = self.cand[p];
            if !(2..=4).contains(&pc.count_ones()) {
                continue;
            }
            let mut all = 0;
            let mut wings = Vec::new();
            for &w in self.blockers[p].iter() {
                let w = w as usize;
                let wc = self.cand[w];
                if self.value[w] == 0 && (2..=4).contains(&wc.count_ones()) {
                    all += 1;
                    if (wc | pc).count_ones() <= 4 {
                        wings.push(w);
                    }
                }
            }
            let n = wings.len();
            t.situations += binom(all, 3) - binom(n, 3);
            for i in 0..n {
                let u1 = pc | self.cand[wings[i]];
                for j in i + 1..n {
                    let u2 = u1 | self.cand[wings[j]];
                    if u2.count_ones() > 4 {
                        t.situations += (n - j - 1) as u32;
                        continue;
                    }
                    for k in j + 1..n {
                        let union = u2 | self.cand[wings[k]];
                        t.record(if union.count_ones() == 4 {
                            self.wxyz_elimination([p, wings[i], wings[j], wings[k]], union)
                        } else {
                            None
                        });
                    }
                }
            }
        }
    }

    fn wxyz_elimination(&self, quad: [usize; 4], union: Mask) -> Option<Step> {
        let mut loose = None;
        let mut digits = union;
        while digits != 0 {
            let d = digits.trailing_zeros();
            digits &= digits - 1;
            let holders: Vec<usize> = quad.iter().copied().filter(|&c| self.cand[c] >> d & 1 == 1).collect();
            let confined = holders.iter().all(|&a| holders.iter().all(|&b| a == b || self.sees(a, b)));
            if !confined {
                if loose.is_some() {
                    return None;
                }
                loose = Some((d, holders));
            }
        }
        let (z, holders) = loose?;
        let cells = self.common_blocked(&holders).into_iter().filter(|c| !quad.contains(c));
        self.removal(cells, 1 << z, || quad)
    }

    /// The digit sets of cage `k` still possible, as (their intersection, their union, the
    /// placed digits, their number). A set is possible when it holds the placed digits and its
    /// other digits can go into the empty cells one to one, each cell taking one of its
    /// candidates (a perfect matching: each cage's cells hold distinct digits). No sets left:
    /// (all bits, 0, placed, 0).
    fn cage_sets_left(&self, k: usize) -> (Mask, Mask, Mask, u32) {
        let cage = &self.shape.cages[k];
        let placed = cage.cells.iter().fold(0 as Mask, |m, &c| m | (1 << self.value[c as usize]) & !1);
        let sets = &self.cage_sets.as_ref().expect("a killer position has its cage sets")[k];
        let mut open = [0 as Mask; MAX_N];
        let mut no = 0;
        for &c in cage.cells.iter().filter(|&&c| self.value[c as usize] == 0) {
            open[no] = self.cand[c as usize];
            no += 1;
        }
        let open = &open[..no];
        let (mut and, mut or, mut count) = (!0 as Mask, 0 as Mask, 0);
        // Every empty cell taking some digit of the set is the cheap test, made first: most sets
        // that fail, fail it; the one-to-one search settles the rest.
        for &s in sets.iter().filter(|&&s| s & placed == placed && open.iter().all(|m| m & s & !placed != 0)) {
            if one_to_one(open, s & !placed, 0) {
                and &= s;
                or |= s;
                count += 1;
            }
        }
        (and, or, placed, count)
    }

    /// `cage_sets_left` of every cage, computed once per position (see `sets_left`).
    fn ensure_sets_left(&mut self) {
        if self.sets_left.is_none() {
            self.sets_left = Some((0..self.shape.cages.len()).map(|k| self.cage_sets_left(k)).collect());
        }
    }

    fn cage_sum(&self, t: &mut Tally<Step>) {
        for cage in &self.shape.cages {
            let (mut open, mut last, mut placed) = (0, 0, 0u32);
            for &c in &cage.cells {
                match self.value[c as usize] {
                    0 => (open, last) = (open + 1, c),
                    v => placed += v as u32,
                }
            }
            if open != 1 {
                continue;
            }
            let d = cage.sum.saturating_sub(placed);
            // A position off the solution may ask for a digit out of range: no step then.
            t.record((1..=self.shape.n as u32).contains(&d).then_some(Step::Place { cell: last, digit: d as u8 }));
        }
    }

    fn cage_combination(&self, t: &mut Tally<Step>) {
        let left = self.sets_left.as_ref().expect("sets_left before the cage scans");
        for (k, cage) in self.shape.cages.iter().enumerate() {
            let open = || cage.cells.iter().map(|&c| c as usize).filter(|&c| self.value[c] == 0);
            if open().nth(1).is_none() {
                continue;
            }
            let (_, or, placed, sets) = left[k];
            let allowed = or & !placed;
            let success = open().any(|c| self.cand[c] & !allowed != 0);
            // One situation per digit set still possible (at least one): each is a combination
            // to weigh. The cage's removals are one success.
            t.record_many(sets.max(1), success as u32, || {
                let list =
                    open().filter(|&c| self.cand[c] & !allowed != 0).map(|c| (c as u16, self.cand[c] & !allowed));
                Some(Step::Remove(list.collect(), cage.cells.clone()))
            });
        }
    }

    fn cage_house(&self, t: &mut Tally<Step>) {
        // A situation is a (cage, digit open in it); the cage's places of the digit are its open
        // cells that take it. It succeeds when (a) the cage must hold the digit and a house
        // holding all its places has other cells taking it, or (b) a house whose every place of
        // the digit lies in the cage leaves places of the cage outside it. Both are read off
        // masks over the digits: per (cage, house it meets) `u`, what its open cells in the
        // house take; per house the digits taken in one cage's cells only (`once` and not
        // `twice`; a cell in no cage counts as a cage of its own). This runs at every level-1
        // try of a killer: one pass over the cages' cells, no step built but the first.
        let shape = &self.shape;
        let left = self.sets_left.as_ref().expect("sets_left before the cage scans");
        let touch = self.cage_touch.as_ref().expect("a killer position has its cages' houses");
        let mut once = [0 as Mask; 3 * MAX_N + 2];
        let mut twice = [0 as Mask; 3 * MAX_N + 2];
        let mut u: Vec<Mask> = Vec::with_capacity(touch.iter().map(|t| t.houses.len()).sum());
        for ct in touch.iter() {
            let hs = &ct.houses;
            let base = u.len();
            u.resize(base + hs.len(), 0);
            for &(c, slots) in &ct.cells {
                if self.value[c] == 0 {
                    let mut s = slots;
                    while s != 0 {
                        u[base + s.trailing_zeros() as usize] |= self.cand[c];
                        s &= s - 1;
                    }
                }
            }
            for (i, &h) in hs.iter().enumerate() {
                let h = h as usize;
                twice[h] |= once[h] & u[base + i];
                once[h] |= u[base + i];
            }
        }
        for c in (0..self.value.len()).filter(|&c| self.value[c] == 0 && shape.cage_of[c] == u16::MAX) {
            for &h in &shape.cell_houses[c] {
                twice[h as usize] |= self.cand[c];
            }
        }
        let mut open = [0usize; MAX_N];
        let mut open_slots = [0u64; MAX_N];
        let mut at = 0;
        for (k, ct) in touch.iter().enumerate() {
            let hs = &ct.houses;
            let us = &u[at..at + hs.len()];
            at += hs.len();
            let mut no = 0;
            for &(c, slots) in ct.cells.iter().filter(|&&(c, _)| self.value[c] == 0) {
                open[no] = c;
                open_slots[no] = slots;
                no += 1;
            }
            let (open, open_slots) = (&open[..no], &open_slots[..no]);
            let digits = open.iter().fold(0 as Mask, |m, &c| m | self.cand[c]);
            if digits == 0 {
                continue;
            }
            let (and, _, placed, _) = left[k];
            let sure = and & !placed;
            let in_house = |c: usize, h: u16| shape.cell_houses[c].contains(&h);
            // Per house met: the digits whose places all lie in the house's cells (`!v`), and
            // those the house takes outside the cage (`other`).
            let other = |i: usize| twice[hs[i] as usize] | (once[hs[i] as usize] & !us[i]);
            let mut hit: Mask = 0;
            for i in 0..hs.len() {
                if us[i] == 0 {
                    continue;
                }
                let mut v: Mask = 0;
                for (j, &c) in open.iter().enumerate() {
                    if open_slots[j] >> i & 1 == 0 {
                        v |= self.cand[c];
                    }
                }
                hit |= (us[i] & !other(i) & v) | (sure & us[i] & !v & other(i));
            }
            hit &= digits;
            t.record_many(digits.count_ones(), hit.count_ones(), || {
                let bit = hit & hit.wrapping_neg();
                let places: Vec<usize> = open.iter().copied().filter(|&c| self.cand[c] & bit != 0).collect();
                let mut cells: Vec<usize> = Vec::new();
                if sure & bit != 0 {
                    for &h in &shape.cell_houses[places[0]] {
                        if places.iter().all(|&c| in_house(c, h)) {
                            let house = &shape.houses[h as usize];
                            cells.extend(house.iter().map(|&c| c as usize).filter(|c| !places.contains(c)));
                        }
                    }
                }
                for (i, &h) in hs.iter().enumerate() {
                    if us[i] & !other(i) & bit != 0 {
                        cells.extend(places.iter().copied().filter(|&c| !in_house(c, h)));
                    }
                }
                self.removal(cells, bit, || places.iter().copied())
            });
        }
    }

    /// Candidates of `cells` that cannot make `sum` with the others' smallest and largest
    /// candidates (repeats allowed: sound whether or not the cells see each other); a lone
    /// cell keeps only the sum.
    fn sum_removal(&self, cells: &[usize], sum: i64, t: &mut Tally<Step>, from: impl FnOnce() -> Vec<u16>) {
        let (mut lo, mut hi) = ([0i64; 5], [0i64; 5]);
        for (i, &c) in cells.iter().enumerate() {
            lo[i] = self.cand[c].trailing_zeros() as i64;
            hi[i] = 31 - self.cand[c].leading_zeros() as i64;
        }
        let (lo_all, hi_all): (i64, i64) = (lo.iter().sum(), hi.iter().sum());
        // Digits from a to b (within 0..=31) as a mask.
        let range = |a: i64, b: i64| -> Mask {
            let (a, b) = (a.max(0), b.min(31));
            if a > b {
                0
            } else {
                (((1u64 << (b + 1)) - 1) & !((1u64 << a) - 1)) as Mask
            }
        };
        let mut bad = [0 as Mask; 5];
        let mut any = false;
        for (i, &c) in cells.iter().enumerate() {
            // A digit d stays when d + the others' smallest <= sum <= d + the others' largest.
            let keep = range(sum - (hi_all - hi[i]), sum - (lo_all - lo[i]));
            bad[i] = self.cand[c] & !keep;
            any |= bad[i] != 0;
        }
        t.record_many(1, any as u32, || {
            let list = cells.iter().zip(bad).filter(|&(_, b)| b != 0).map(|(&c, b)| (c as u16, b)).collect();
            Some(Step::Remove(list, from()))
        });
    }

    fn innies_outies(&self, groups: &[Rule45], t: &mut Tally<Step>) {
        let small = self.shape.cells() <= 128;
        for g in groups {
            for (side, (cells, sum)) in g.sides.iter().enumerate().filter_map(|(i, s)| s.as_ref().map(|s| (i, s))) {
                // Only sides with one to four open cells are situations.
                if small && !(1..=4).contains(&(g.masks[side] & self.open_bits).count_ones()) {
                    continue;
                }
                // The open cells (up to 4 matter) and what they still add up to.
                let (mut open, mut k, mut placed) = ([0usize; 5], 0, 0i64);
                for &c in cells {
                    match self.value[c] {
                        0 => {
                            if k < 5 {
                                open[k] = c;
                            }
                            k += 1;
                        }
                        v => placed += v as i64,
                    }
                }
                if (1..=4).contains(&k) {
                    let from = || g.houses.iter().flat_map(|&h| self.shape.houses[h].iter().copied()).collect();
                    self.sum_removal(&open[..k], sum - placed, t, from);
                }
            }
        }
    }

    fn trial(&self, t: &mut Tally<Step>) {
        let min = self.empty_cells().map(|c| self.cand[c].count_ones()).min().unwrap_or(0);
        let solver = Solver::plain(&self.shape, 0);
        let base = self.counter_cands();
        let mut first_cell = None;
        for c in self.empty_cells().filter(|&c| self.cand[c].count_ones() == min.max(2)) {
            first_cell.get_or_insert(c);
            let mut m = self.cand[c];
            while m != 0 {
                let d = m.trailing_zeros() as u8;
                m &= m - 1;
                // Propagation is sound, so assuming the solution's digit never leads to a
                // contradiction (the position holds it): no probe needed.
                let refuted = d != self.solution[c] && !solver.assign(&mut base.clone(), c, d);
                t.record(refuted.then(|| Step::Remove(vec![(c as u16, 1 << d)], vec![c as u16])));
            }
        }
        if t.first.is_none() {
            let c = first_cell.or_else(|| self.empty_cells().next()).expect("trial on an unsolved position");
            t.first = Some(Step::Place { cell: c as u16, digit: self.solution[c] });
        }
    }
}

impl Position {
    /// "row 3", "column 5", "box 5" ("region 5" on a jigsaw) or "diagonal 1"/"diagonal 2".
    fn house_name(&self, h: usize) -> String {
        let n = self.shape.n;
        match self.shape.house_kind[h] {
            HouseKind::Row => format!("row {}", h + 1),
            HouseKind::Col => format!("column {}", h - n + 1),
            HouseKind::Region if self.shape.boxes.is_some() => format!("box {}", h - 2 * n + 1),
            HouseKind::Region => format!("region {}", h - 2 * n + 1),
            HouseKind::Diagonal => format!("diagonal {}", h - 3 * n + 1),
        }
    }

    /// "cage 15 at r1c1": its sum and its first cell.
    fn cage_name(&self, k: usize) -> String {
        let cage = &self.shape.cages[k];
        let c = cage.cells.iter().copied().min().unwrap_or(0) as usize;
        let n = self.shape.n;
        format!("cage {} at r{}c{}", cage.sum, c / n + 1, c % n + 1)
    }
}

impl Solving for Position {
    type Tech = Tech;
    type Step = Step;

    fn is_solved(&self) -> bool {
        Position::is_solved(self)
    }

    fn scan(&mut self, tech: Tech, t: &mut Tally<Step>) {
        let killer = self.shape.is_killer();
        match tech {
            Tech::NakedSingle => self.naked_single(t),
            Tech::HiddenSingle => self.hidden_single(t),
            Tech::NakedPair => self.naked_subset(2, t),
            Tech::HiddenPair => self.hidden_subset(2, t),
            Tech::Intersection => self.intersection(t),
            Tech::NakedTriple => self.naked_subset(3, t),
            Tech::HiddenTriple => self.hidden_subset(3, t),
            Tech::XWing => self.fish(2, t),
            Tech::XyWing => self.xy_wing(t),
            Tech::NakedQuad => self.naked_subset(4, t),
            Tech::HiddenQuad => self.hidden_subset(4, t),
            Tech::Swordfish => self.fish(3, t),
            Tech::XyzWing => self.xyz_wing(t),
            Tech::Jellyfish => self.fish(4, t),
            Tech::WxyzWing => self.wxyz_wing(t),
            Tech::Trial => self.trial(t),
            _ if !killer => {}
            Tech::CageSum => self.cage_sum(t),
            Tech::CageCombination => {
                self.ensure_sets_left();
                self.cage_combination(t)
            }
            Tech::CageHouse => {
                self.ensure_sets_left();
                self.cage_house(t)
            }
            Tech::InniesOuties => {
                let tables = self.rule45.clone().expect("a killer position has its 45-rule tables");
                self.innies_outies(&tables[0], t)
            }
            Tech::InniesOutiesMulti => {
                let tables = self.rule45.clone().expect("a killer position has its 45-rule tables");
                self.innies_outies(&tables[1], t)
            }
        }
    }

    fn apply(&mut self, step: &Step) {
        Position::apply(self, step)
    }

    fn effect(&self, tech: Tech, step: &Step) -> Effect {
        let shape = &self.shape;
        match step {
            &Step::Place { cell, digit } => {
                let c = cell as usize;
                let (cells, unit) = match tech {
                    // The first house (in scan order) where the digit has no other place.
                    Tech::HiddenSingle => match shape.houses.iter().position(|h| {
                        h.contains(&cell) && h.iter().filter(|&&o| self.cand[o as usize] >> digit & 1 == 1).count() == 1
                    }) {
                        Some(h) => (
                            shape.houses[h].iter().map(|&o| o as usize).filter(|&o| o != c).collect(),
                            Some(self.house_name(h)),
                        ),
                        None => (vec![c], None),
                    },
                    Tech::CageSum => {
                        let k = shape.cage_of[c] as usize;
                        (
                            shape.cages[k].cells.iter().map(|&o| o as usize).filter(|&o| o != c).collect(),
                            Some(self.cage_name(k)),
                        )
                    }
                    _ => (vec![c], None),
                };
                Effect { place: vec![(c, digit)], remove: Vec::new(), cells, unit }
            }
            Step::Remove(list, from) => {
                // Cells in reading order, as classic 9×9's engine lists them.
                let mut remove: Vec<(usize, u8)> = list
                    .iter()
                    .flat_map(|&(c, m)| {
                        (1..=shape.n as u8).filter(move |&d| m >> d & 1 == 1).map(move |d| (c as usize, d))
                    })
                    .filter(|&(c, d)| self.cand[c] >> d & 1 == 1)
                    .collect();
                remove.sort_unstable();
                let mut cells: Vec<usize> = from.iter().map(|&c| c as usize).collect();
                cells.sort_unstable();
                let n = shape.n;
                let unit = match tech {
                    Tech::XWing | Tech::Swordfish | Tech::Jellyfish => {
                        Some(fish_unit(&cells.iter().map(|&c| (c / n, c % n)).collect::<Vec<_>>()))
                    }
                    Tech::CageCombination | Tech::CageHouse => {
                        cells.first().map(|&c| self.cage_name(shape.cage_of[c] as usize))
                    }
                    Tech::InniesOuties | Tech::InniesOutiesMulti => {
                        let hs: Vec<String> = (0..shape.houses.len())
                            .filter(|&h| shape.houses[h].iter().all(|&c| from.contains(&c)))
                            .map(|h| self.house_name(h))
                            .collect();
                        Some(hs.join(" + "))
                    }
                    _ => (!from.is_empty())
                        .then(|| shape.houses.iter().position(|h| from.iter().all(|c| h.contains(c))))
                        .flatten()
                        .map(|h| self.house_name(h)),
                };
                Effect { place: Vec::new(), remove, cells, unit }
            }
        }
    }

    fn coord(&self, cell: usize) -> (usize, usize) {
        (cell / self.shape.n, cell % self.shape.n)
    }

    fn cell_count(&self) -> usize {
        self.cand.len()
    }

    fn is_placed(&self, cell: usize) -> bool {
        self.value[cell] != 0
    }

    fn bivalue_cells(&self) -> Vec<usize> {
        self.empty_cells().filter(|&c| self.cand[c].count_ones() == 2).collect()
    }

    fn place_solution(&self, cell: usize) -> Step {
        Step::Place { cell: cell as u16, digit: self.solution[cell] }
    }

    fn describe(&self, step: &Step) -> String {
        let n = self.shape.n;
        let name = |c: usize| format!("r{}c{}", c / n + 1, c % n + 1);
        let digits =
            |m: Mask| (1..=n as u32).filter(|d| m >> d & 1 == 1).map(|d| d.to_string()).collect::<Vec<_>>().join(",");
        match step {
            Step::Place { cell, digit } => format!("{}={}", name(*cell as usize), digit),
            Step::Remove(list, _) => {
                let parts: Vec<String> =
                    list.iter().map(|&(c, m)| format!("{}-{{{}}}", name(c as usize), digits(m))).collect();
                format!("remove {}", parts.join(" "))
            }
        }
    }
}
/// Count like `count_solutions` with `BUDGET` nodes (`solve` and `rate` inputs), trying two
/// cheaper searches first. The plain search gets 1/32 of the budget; if that does not settle
/// it, a search gets 1/4 from what the rater's deductions below trial leave: every technique
/// there (subsets, fish, wings, cage and 45-rule reasoning) removes only candidates that no
/// solution uses, so the reduced grid has the puzzle's solutions, and a 25×25 puzzle needing
/// pairs and triples (Solo's "advanced"), where the plain search branched through a million
/// nodes, leaves little to branch on. Only if that is undecided too does the plain search run
/// with the whole budget: the deduced grid's search order can be the worse one (a 25×25 puzzle
/// with two solutions: the plain search found both in 8 s, the deduced one not in a million
/// nodes), so nothing the plain count settled within `BUDGET` is left undecided.
pub(crate) fn count_solutions_deduced(shape: &std::sync::Arc<Shape>, givens: &[u8], limit: usize) -> solve::Count {
    let plain = solve::count_solutions(shape, givens, limit, solve::BUDGET / 32);
    if !plain.undecided {
        return plain;
    }
    use pf_core::rate::{level_mask, rate_traced, Trace};
    // The position audits steps against a solution; none is known here (no step reads it with
    // trial off), so an empty one.
    let mut pos = Position::new(shape.clone(), givens, &vec![0; shape.cells()]);
    let mut trace = Trace { off: level_mask::<Tech>(|l| l == 6), ..Trace::default() };
    rate_traced(&mut pos, Some(&mut trace));
    // A cell left without candidates: no solution (propagation would say the same).
    let cand = Some(pos.counter_cands()).filter(|c| c.iter().all(|&m| m != 0));
    let mut deduced = solve::count_from(Solver::new(shape, solve::BUDGET / 4), cand, limit);
    deduced.nodes += plain.nodes;
    if !deduced.undecided {
        return deduced;
    }
    let mut last = solve::count_solutions(shape, givens, limit, solve::BUDGET);
    last.nodes += deduced.nodes;
    last
}
