//! The counting search the Latin-square kinds share (Futoshiki, Skyscrapers): candidates as bit
//! sets (bit d for digit d), the Latin rules on one line as a propagator (a placed digit leaves
//! the line's other cells; a digit with one place left goes there), and a search that branches
//! on the open cell with the fewest candidates, or on a (line, digit) with fewer places. Each
//! kind adds its own clues' propagation (`Propagate`).

use crate::kind::Reject;
use rand::seq::SliceRandom;

/// What a count found.
pub struct Count {
    pub count: usize,
    /// The first solution, row-major digits.
    pub first: Option<Vec<u8>>,
    /// The second, when there is one (generators add a given where the two differ).
    pub second: Option<Vec<u8>>,
    /// The budget ran out before the count was decided.
    pub aborted: bool,
}

/// Bits of the digits below `d` (1..d-1).
#[inline]
pub fn below(d: u32) -> u16 {
    ((1u32 << d) - 2) as u16
}

/// Bits of the digits above `d` up to `n`.
#[inline]
pub fn above(d: u32, n: usize) -> u16 {
    (((1u32 << (n + 1)) - 1) & !((1u32 << (d + 1)) - 1)) as u16
}

/// The largest digit of a non-empty set.
#[inline]
pub fn high(m: u16) -> u32 {
    15 - m.leading_zeros()
}

/// The smallest digit of a non-empty set.
#[inline]
pub fn low(m: u16) -> u32 {
    m.trailing_zeros()
}

/// Every digit 1..n.
#[inline]
pub fn full(n: usize) -> u16 {
    ((1u32 << (n + 1)) - 2) as u16
}

/// The 2N lines of an N×N square as cell indices: every row, then every column.
pub fn square_lines(n: usize) -> Vec<Vec<usize>> {
    let mut lines = Vec::with_capacity(2 * n);
    for i in 0..n {
        lines.push((0..n).map(|j| i * n + j).collect());
    }
    for i in 0..n {
        lines.push((0..n).map(|j| j * n + i).collect());
    }
    lines
}

/// `square_lines(n)`, made once per size for the whole process: boards are built at every clue
/// a generator tries, and their lines were a fifth of building one.
pub fn shared_square_lines(n: usize) -> &'static [Vec<usize>] {
    static LINES: [std::sync::OnceLock<Vec<Vec<usize>>>; 17] = [const { std::sync::OnceLock::new() }; 17];
    LINES[n].get_or_init(|| square_lines(n))
}

/// The starting candidates of an N×N square: every digit, a given's alone.
pub fn start(n: usize, givens: &[u8]) -> Vec<u16> {
    givens.iter().map(|&d| if d == 0 { full(n) } else { 1 << d }).collect()
}

/// The Latin rules once over `line` of an `n`-digit square: placed digits leave the line's other
/// cells, and a digit with one place left goes there. `changed(c)` hears of every cell narrowed.
/// False on a contradiction (a digit placed twice, a cell left empty, a digit with no place, one
/// cell the only place of two digits).
pub fn propagate_line(n: usize, line: &[usize], cand: &mut [u16], mut changed: impl FnMut(usize)) -> bool {
    let mut placed = 0u16;
    for &c in line {
        if cand[c].count_ones() == 1 {
            if placed & cand[c] != 0 {
                return false;
            }
            placed |= cand[c];
        }
    }
    let (mut once, mut twice) = (0u16, 0u16);
    for &c in line {
        let m = cand[c];
        let m = if m.count_ones() > 1 {
            let nm = m & !placed;
            if nm == 0 {
                return false;
            }
            if nm != m {
                cand[c] = nm;
                changed(c);
            }
            nm
        } else {
            m
        };
        twice |= once & m;
        once |= m;
    }
    if once != full(n) {
        return false;
    }
    let single = once & !twice & !placed;
    if single != 0 {
        for &c in line {
            let hit = cand[c] & single;
            if hit.count_ones() > 1 {
                return false;
            }
            if hit != 0 && cand[c] != hit {
                cand[c] = hit;
                changed(c);
            }
        }
    }
    true
}

/// The Latin rules (`propagate_line` on every row and column) to their fixed point over `cand`
/// of an `n`×`n` square (n ≤ 15: digit d is bit d of 16); false on a contradiction. The rules
/// only remove candidates and each may fire in any order, so the fixed point is the one line
/// sweeps reach. Here a placed digit leaves its row's and column's other cells as it is placed
/// (a stack of cells placed and not yet spread), and only lines with a cell narrowed are searched
/// for a digit with one place left: generators ask at every clue they try, and whole-line sweeps
/// until nothing changed were half of an easy 6×6 Futoshiki run.
pub fn latin_fixpoint(n: usize, cand: &mut [u16]) -> bool {
    LatinFix::new(n, cand).is_some_and(|mut fix| fix.run(cand))
}

/// `latin_fixpoint` kept between a kind's own rules: what is left to spread (cells placed, lines
/// with a cell narrowed) lives on, so a kind's rule narrows a cell through `narrow` and the next
/// `run` looks only at what that changed.
pub struct LatinFix {
    n: usize,
    /// Cells placed whose digit has not yet left their lines.
    stack: [u8; 256],
    top: usize,
    /// Lines (rows, then columns) with a cell narrowed since they were last searched for a
    /// digit with one place left.
    dirty: u32,
}

fn single(m: u16) -> bool {
    m & m.wrapping_sub(1) == 0
}

impl LatinFix {
    /// Everything to spread and search in `cand` (n ≤ 15); `None` when a cell is empty.
    pub fn new(n: usize, cand: &[u16]) -> Option<LatinFix> {
        debug_assert!(n <= 15 && cand.len() == n * n);
        let dirty = (1u32 << (2 * n)) - 1;
        let mut fix = LatinFix { n, stack: [0; 256], top: 0, dirty };
        for (c, &m) in cand.iter().enumerate() {
            if m == 0 {
                return None;
            }
            if single(m) {
                fix.push(c);
            }
        }
        Some(fix)
    }

    /// The row and the column of cell `c`, as `dirty` bits.
    fn lines_of(n: usize, c: usize) -> u32 {
        1 << (c / n) | 1 << (n + c % n)
    }

    fn push(&mut self, c: usize) {
        self.stack[self.top] = c as u8;
        self.top += 1;
    }

    /// Narrow cell `c` to `m` (a subset of its candidates, as a kind's rule leaves it); false
    /// when that empties it.
    pub fn narrow(&mut self, cand: &mut [u16], c: usize, m: u16) -> bool {
        let n = self.n;
        if m != cand[c] {
            cand[c] = m;
            self.dirty |= Self::lines_of(n, c);
            if single(m) && m != 0 {
                self.push(c);
            }
        }
        m != 0
    }

    /// The Latin rules to their fixed point; false on a contradiction.
    pub fn run(&mut self, cand: &mut [u16]) -> bool {
        let n = self.n;
        let all = full(n);
        // The stack's top and the dirty lines as locals (registers) while it runs.
        let stack = &mut self.stack;
        let (mut top, mut dirty) = (self.top, self.dirty);
        let ok = 'run: loop {
            while top > 0 {
                top -= 1;
                let c = stack[top] as usize;
                let b = cand[c];
                let (r, k) = (c / n, c % n);
                // The digit leaves cell `p` (on lines `on`); false when that empties it.
                let mut leave = |p: usize, on: u32, cand: &mut [u16]| {
                    if cand[p] & b == 0 {
                        return true;
                    }
                    let m = cand[p] & !b;
                    cand[p] = m;
                    dirty |= on;
                    if single(m) {
                        stack[top] = p as u8;
                        top += 1;
                    }
                    m != 0
                };
                // The cell itself is emptied while its digit leaves its lines, so that it is
                // passed over with the cells that lack the digit (no test of the index).
                cand[c] = 0;
                let kept = (0..n).all(|j| leave(r * n + j, 1 << r | 1 << (n + j), cand))
                    && (0..n).all(|i| leave(i * n + k, 1 << i | 1 << (n + k), cand));
                cand[c] = b;
                if !kept {
                    break 'run false;
                }
            }
            if dirty == 0 {
                break true;
            }
            // A digit with one place left in a line goes there.
            while dirty != 0 {
                let l = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                let cell = |j: usize| if l < n { l * n + j } else { j * n + (l - n) };
                let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
                for j in 0..n {
                    let m = cand[cell(j)];
                    twice |= once & m;
                    once |= m;
                    if single(m) {
                        placed |= m;
                    }
                }
                if once != all {
                    break 'run false;
                }
                let alone = once & !twice & !placed;
                if alone == 0 {
                    continue;
                }
                for j in 0..n {
                    let x = cell(j);
                    let hit = cand[x] & alone;
                    if hit == 0 {
                        continue;
                    }
                    if !single(hit) {
                        break 'run false;
                    }
                    if hit != cand[x] {
                        cand[x] = hit;
                        dirty |= Self::lines_of(n, x);
                        stack[top] = x as u8;
                        top += 1;
                    }
                }
            }
        };
        (self.top, self.dirty) = (top, dirty);
        ok
    }
}

/// `latin_fixpoint` by sweeps of `propagate_line` over every row and column.
#[cfg(test)]
fn sweep_lines(n: usize, cand: &mut [u16]) -> bool {
    let lines = shared_square_lines(n);
    loop {
        let mut changed = false;
        for line in lines {
            if !propagate_line(n, line, cand, |_| changed = true) {
                return false;
            }
        }
        if !changed {
            return true;
        }
    }
}

/// A kind's propagation to a fixed point: the Latin rules on its lines and its own clues.
pub trait Propagate {
    /// The digits are 1..n.
    fn n(&self) -> usize;
    /// The lines every digit appears on once (rows, then columns).
    fn lines(&self) -> &[Vec<usize>];
    /// Narrow `cand` to a fixed point; false on a contradiction.
    fn propagate(&self, cand: &mut [u16]) -> bool;
}

/// A board's Latin rules alone, without its other rules (marks, clues): the propagation of
/// forcing chains, which follow what placing a digit forces in its row and column, as Tatham's
/// do (Futoshiki and Skyscrapers).
pub struct LatinOnly<'a, P: Propagate>(pub &'a P);

impl<P: Propagate> Propagate for LatinOnly<'_, P> {
    fn n(&self) -> usize {
        self.0.n()
    }

    fn lines(&self) -> &[Vec<usize>] {
        self.0.lines()
    }

    fn propagate(&self, cand: &mut [u16]) -> bool {
        let (n, all) = (self.n(), self.lines());
        let mut lines: u32 = (1u32 << (2 * n)) - 1;
        while lines != 0 {
            let l = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            let touch = |c: usize| lines |= 1 << (c / n) | 1 << (n + c % n);
            if !propagate_line(n, &all[l], cand, touch) {
                return false;
            }
        }
        true
    }
}

/// Count the solutions from candidates `cand`, up to `limit`, within `budget` search nodes.
pub fn count_from<P: Propagate>(board: &P, mut cand: Vec<u16>, limit: usize, budget: u64) -> Count {
    let mut out = Count { count: 0, first: None, second: None, aborted: false };
    if board.propagate(&mut cand) {
        let mut nodes = 0u64;
        search(board, cand, limit, budget, &mut nodes, &mut out);
    }
    out
}

fn search<P: Propagate>(board: &P, cand: Vec<u16>, limit: usize, budget: u64, nodes: &mut u64, out: &mut Count) {
    *nodes += 1;
    if *nodes > budget {
        out.aborted = true;
        return;
    }
    // Branch on the open cell with the fewest candidates, or on the (line, digit) with the fewest
    // places when that is fewer.
    let pick = (0..cand.len()).filter(|&c| cand[c].count_ones() > 1).min_by_key(|&c| cand[c].count_ones());
    let Some(c) = pick else {
        let digits: Vec<u8> = cand.iter().map(|&m| low(m) as u8).collect();
        out.count += 1;
        if out.first.is_none() {
            out.first = Some(digits);
        } else if out.second.is_none() {
            out.second = Some(digits);
        }
        return;
    };
    let width = cand[c].count_ones();
    let mut best_line: Option<(usize, u8, u32)> = None;
    if width > 2 {
        for (l, line) in board.lines().iter().enumerate() {
            for d in 1..=board.n() as u8 {
                let bit = 1u16 << d;
                let mut places = 0;
                let mut single = false;
                for &x in line {
                    if cand[x] & bit != 0 {
                        places += 1;
                        single |= cand[x] == bit;
                    }
                }
                if !single && places < width && best_line.is_none_or(|b| places < b.2) {
                    best_line = Some((l, d, places));
                }
            }
        }
    }
    let branches: Vec<(usize, u8)> = match best_line {
        Some((l, d, _)) => board.lines()[l].iter().filter(|&&x| cand[x] >> d & 1 == 1).map(|&x| (x, d)).collect(),
        None => (1..=board.n() as u8).filter(|&d| cand[c] >> d & 1 == 1).map(|d| (c, d)).collect(),
    };
    for (x, d) in branches {
        let mut next = cand.clone();
        next[x] = 1 << d;
        if board.propagate(&mut next) {
            search(board, next, limit, budget, nodes, out);
        }
        if out.count >= limit || out.aborted {
            return;
        }
    }
}

/// The candidates after assuming digit `d` in cell `c` and propagating, or None when that fails
/// (forcing chains and trial).
pub fn assume<P: Propagate>(board: &P, cand: &[u16], c: usize, d: u8) -> Option<Vec<u16>> {
    let mut next = cand.to_vec();
    next[c] = 1 << d;
    board.propagate(&mut next).then_some(next)
}

/// Add givens of `solution` to `givens` until `count` (the kind's counter on the puzzle with
/// those givens, up to 2) finds one solution, each in a cell where the first two solutions found
/// differ, drawn with `rng`.
pub fn givens_until_unique(
    solution: &[u8],
    givens: &mut [u8],
    mut count: impl FnMut(&[u8]) -> Count,
    rng: &mut impl rand::Rng,
) -> Result<(), Reject> {
    loop {
        let f = count(givens);
        if f.aborted {
            return Err(Reject::Undecided);
        }
        match f.count {
            1 => return Ok(()),
            0 => return Err(Reject::NoSolution),
            _ => {}
        }
        let other = if f.first.as_deref() == Some(solution) { f.second } else { f.first };
        let other = other.ok_or(Reject::GeneratorFailed)?;
        let differ: Vec<usize> = (0..solution.len()).filter(|&c| other[c] != solution[c]).collect();
        let c = *differ.choose(rng).ok_or(Reject::GeneratorFailed)?;
        givens[c] = solution[c];
    }
}

/// A generator's check of a ladder level by propagation: `rules` (the kind's counter
/// propagation), then `more` (the kind's own rules of the level; whether they removed a
/// candidate) and the naked and hidden pairs of every line, again until nothing narrows a cell,
/// from `cand`. Every rule only removes candidates and may fire in any order, so this is the
/// fixed point the ladder stalls at with the same rules. Whether every cell is then filled (no
/// contradiction), and the cells left open.
pub fn pairs_fixpoint<P: Propagate>(
    rules: &P,
    cand: Vec<u16>,
    more: impl FnMut(&mut [u16]) -> bool,
) -> (bool, Vec<usize>) {
    let (ok, cand) = pairs_fixpoint_candidates(rules, cand, more);
    fixpoint_answer(ok, &cand)
}

/// A generator's answer from a fixed point reached without contradiction (`ok`) at `cand`:
/// whether every cell is filled, and the cells left open.
pub fn fixpoint_answer(ok: bool, cand: &[u16]) -> (bool, Vec<usize>) {
    let open: Vec<usize> = (0..cand.len()).filter(|&c| cand[c].count_ones() != 1).collect();
    (ok && open.is_empty(), open)
}

/// `fixpoint_answer`'s first half alone, without listing the open cells: what a generator
/// removing clues asks (the list was a twentieth of a level-1 run, most of it growing vectors
/// for the checks that fail).
pub fn fixpoint_solved(ok: bool, cand: &[u16]) -> bool {
    ok && cand.iter().all(|&m| m.count_ones() == 1)
}

/// `pairs_fixpoint`'s fixed point itself: false on a contradiction, and the candidates.
pub fn pairs_fixpoint_candidates<P: Propagate>(
    rules: &P,
    mut cand: Vec<u16>,
    mut more: impl FnMut(&mut [u16]) -> bool,
) -> (bool, Vec<u16>) {
    let n = rules.n();
    loop {
        if !rules.propagate(&mut cand) {
            return (false, cand);
        }
        let mut changed = more(&mut cand);
        for line in rules.lines() {
            changed |= line_pairs(n, line, &mut cand);
        }
        if !changed {
            return (true, cand);
        }
    }
}

/// Naked and hidden pairs in one line of an `n`-digit square (n ≤ 16), among its open cells: two cells holding the same two
/// heights and nothing else take them from the rest of the line; two heights with the same two
/// places and no other keep those cells to themselves. Whether a candidate went.
pub fn line_pairs(n: usize, line: &[usize], cand: &mut [u16]) -> bool {
    let open = |m: u16| m.count_ones() > 1;
    let mut changed = false;
    for (a, &x) in line.iter().enumerate() {
        let m = cand[x];
        if m.count_ones() != 2 {
            continue;
        }
        if let Some(&y) = line[a + 1..].iter().find(|&&y| cand[y] == m) {
            for &z in line {
                if z != x && z != y && open(cand[z]) && cand[z] & m != 0 {
                    cand[z] &= !m;
                    changed = true;
                }
            }
        }
    }
    // Where each height may go among the open cells (bit j: the line's j-th cell).
    // A height placed in the line (its cell has it alone) has no other place, even where a pair
    // above left it a candidate not yet propagated.
    let placed = line.iter().filter(|&&x| !open(cand[x])).fold(0u16, |m, &x| m | cand[x]);
    let mut places = [0u16; 17];
    for (j, &x) in line.iter().enumerate() {
        if open(cand[x]) {
            for h in 1..=n {
                if cand[x] >> h & 1 == 1 {
                    places[h] |= 1 << j;
                }
            }
        }
    }
    for h in 1..=n {
        if places[h].count_ones() != 2 || placed >> h & 1 == 1 {
            continue;
        }
        for g in h + 1..=n {
            if places[g] != places[h] || placed >> g & 1 == 1 {
                continue;
            }
            let keep = 1u16 << h | 1 << g;
            let mut bits = places[h];
            while bits != 0 {
                let x = line[bits.trailing_zeros() as usize];
                bits &= bits - 1;
                if cand[x] & !keep != 0 {
                    cand[x] &= keep;
                    changed = true;
                }
            }
        }
    }
    changed
}

/// Add givens of `solution` until `solves(givens)` says the techniques in hand finish the
/// puzzle, each in a cell they left open (the second part of its answer), drawn with `rng`.
pub fn givens_until_solved(
    solution: &[u8],
    givens: &mut [u8],
    solves: impl FnMut(&[u8]) -> (bool, Vec<usize>),
    rng: &mut impl rand::Rng,
) -> Result<(), Reject> {
    let mut fresh = FromTheStart { givens: givens.to_vec(), solves, answer: (false, Vec::new()) };
    givens_until_solved_kept(solution, givens, &mut fresh, rng)
}

/// A `KeptFixpoint` that keeps nothing: `solves` asked of the whole puzzle again at each given.
struct FromTheStart<F> {
    givens: Vec<u8>,
    solves: F,
    answer: (bool, Vec<usize>),
}

impl<F: FnMut(&[u8]) -> (bool, Vec<usize>)> KeptFixpoint for FromTheStart<F> {
    fn give(&mut self, c: usize, d: u8) {
        self.givens[c] = d;
    }
    fn settle(&mut self) {
        self.answer = (self.solves)(&self.givens);
    }
    fn answer(&self) -> (bool, Vec<usize>) {
        self.answer.clone()
    }
}

/// A kind's fixed point of its techniques up to a level, kept while givens are added: what
/// `givens_until_solved_kept` narrows instead of starting over.
pub trait KeptFixpoint {
    /// Digit `d` given in cell `c` (`settle` spreads it).
    fn give(&mut self, c: usize, d: u8);
    /// To the fixed point.
    fn settle(&mut self);
    /// Whether the fixed point fills the grid, and the cells it leaves open.
    fn answer(&self) -> (bool, Vec<usize>);
}

/// `givens_until_solved` with the techniques' fixed point kept between the givens it adds
/// (`fix`, made from `givens`), the same givens drawn the same way (`givens_until_solved` is this
/// with nothing kept): a fixed point narrowed by a given is the one from the start with it, when
/// the rules only remove candidates.
pub fn givens_until_solved_kept(
    solution: &[u8],
    givens: &mut [u8],
    fix: &mut impl KeptFixpoint,
    rng: &mut impl rand::Rng,
) -> Result<(), Reject> {
    fix.settle();
    let (mut done, mut open) = fix.answer();
    while !done {
        let c = *open.choose(rng).ok_or(Reject::GeneratorFailed)?;
        givens[c] = solution[c];
        fix.give(c, solution[c]);
        fix.settle();
        (done, open) = fix.answer();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(below(1), 0);
        assert_eq!(below(4), 0b1110);
        assert_eq!(above(2, 4), 0b11000);
        assert_eq!(above(4, 4), 0);
        assert_eq!((high(0b10100), low(0b10100)), (4, 2));
        assert_eq!(full(4), 0b11110);
    }

    /// The stack's fixed point is the line sweeps' on partial squares of every size it takes:
    /// givens of a random Latin square with some digits struck from open cells (fixed points
    /// short of and at a solved grid), and with a wrong digit struck or given (contradictions).
    #[test]
    fn latin_fixpoint_is_the_line_sweeps() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut solved, mut open, mut wrong) = (0, 0, 0);
        for i in 0..3000 {
            let n = 1 + i % 15;
            let square = crate::common::latin::random_latin_square(n, &mut rng);
            let share = rng.gen_range(0.0..0.7);
            let mut cand: Vec<u16> =
                square.iter().map(|&d| if rng.gen_bool(share) { 1 << d } else { full(n) }).collect();
            for c in 0..n * n {
                if cand[c] != 1 << square[c] && rng.gen_bool(0.2) {
                    let d = rng.gen_range(1..=n);
                    // Mostly a wrong digit struck; now and then the right one (a contradiction).
                    if d != square[c] as usize || rng.gen_bool(0.3) {
                        cand[c] &= !(1 << d);
                    }
                }
            }
            let (mut a, mut b) = (cand.clone(), cand.clone());
            let (ok_a, ok_b) = (latin_fixpoint(n, &mut a), sweep_lines(n, &mut b));
            assert_eq!(ok_a, ok_b, "size {n}: {cand:?}");
            if ok_a {
                assert_eq!(a, b, "size {n}: {cand:?}");
                if a.iter().all(|m| m.count_ones() == 1) {
                    solved += 1;
                } else {
                    open += 1;
                }
            } else {
                wrong += 1;
            }
        }
        // Each case is met often.
        assert!(solved > 300 && open > 300 && wrong > 100, "{solved} {open} {wrong}");
    }

    /// The Latin rules alone.
    struct Plain(usize, Vec<Vec<usize>>);
    impl Propagate for Plain {
        fn n(&self) -> usize {
            self.0
        }
        fn lines(&self) -> &[Vec<usize>] {
            &self.1
        }
        fn propagate(&self, cand: &mut [u16]) -> bool {
            loop {
                let mut any = false;
                for line in &self.1 {
                    if !propagate_line(self.0, line, cand, |_| any = true) {
                        return false;
                    }
                }
                if !any {
                    return true;
                }
            }
        }
    }

    #[test]
    fn counts_latin_squares() {
        // 576 Latin squares of order 4, 161280 of order 5 (counted up to a limit).
        let b = Plain(4, square_lines(4));
        assert_eq!(count_from(&b, start(4, &[0; 16]), 1000, u64::MAX).count, 576);
        let b5 = Plain(5, square_lines(5));
        let c = count_from(&b5, start(5, &[0; 25]), 200_000, u64::MAX);
        assert_eq!(c.count, 161_280);
        // A clash: none.
        let mut g = [0u8; 16];
        g[0] = 1;
        g[1] = 1;
        assert_eq!(count_from(&b, start(4, &g), 10, u64::MAX).count, 0);
    }
}
