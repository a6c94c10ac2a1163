//! Generation: a random Latin square, every mark between neighbours, a share of the cells given
//! and more where two solutions remain, then every clue (mark or given) tried for removal in a
//! random order, kept out when no other solution appears. Another solution of the puzzle
//! without a clue breaks that clue (the solution with it is unique): so the search looks for a
//! solution of the puzzle with the mark turned round, or with the given's digit barred from its
//! cell, which propagation mostly refutes at once.

use crate::techniques::{Peak, Position};
use crate::{solve, Futoshiki, FutoshikiParams, Grid};
use pf_core::common::latin::random_latin_square;
use pf_core::common::latin_count::{
    above, below, fixpoint_answer, fixpoint_solved, givens_until_solved, givens_until_solved_kept, givens_until_unique,
    high, low, start, KeptFixpoint, LatinFix,
};
use pf_core::common::latin_grid::ladder_from_fixpoint;
use pf_core::kind::Reject;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

#[derive(Clone, Copy)]
enum Clue {
    Mark(usize),
    Given(usize),
}

pub fn generate(params: &FutoshikiParams, rng: &mut Xoshiro256PlusPlus) -> Result<(Futoshiki, Grid), Reject> {
    let n = params.size as usize;
    let solution = random_latin_square(n, rng);
    let mut marks = Vec::with_capacity(2 * n * (n - 1));
    for c in 0..n * n {
        let mut pair = |a: usize, b: usize| {
            marks.push(if solution[a] < solution[b] { (a as u8, b as u8) } else { (b as u8, a as u8) })
        };
        if c % n + 1 < n {
            pair(c, c + 1);
        }
        if c + n < n * n {
            pair(c, c + n);
        }
    }
    let mut givens = vec![0u8; n * n];
    for c in 0..n * n {
        if rng.gen_bool(params.start_givens) {
            givens[c] = solution[c];
        }
    }
    // Givens until one solution is left; with a level, until the techniques up to it solve the
    // puzzle.
    let with = |g: &[u8]| Futoshiki { size: n as u8, givens: g.to_vec(), less: marks.clone() };
    // Up to level 3 the techniques' fixed point alone proves the solution unique once it fills
    // the grid (every rule is sound): no count first, as for Skyscrapers. (With every mark in
    // place the count seldom adds a given, but it was an eighth of a level-1 run.)
    if !(1..=3).contains(&params.max_level) {
        givens_until_unique(&solution, &mut givens, |g| solve::count_solutions(&with(g), 2), rng)?;
    }
    if (1..=2).contains(&params.max_level) {
        // One fixed point narrowed by each given added, not one from the start for each.
        let level_marks: &[(u8, u8)] = if params.max_level == 2 { &marks } else { &[] };
        let mut easy = EasyFix::new(n, &givens, level_marks);
        givens_until_solved_kept(&solution, &mut givens, &mut easy, rng)?;
    } else if params.max_level > 0 {
        let level = params.max_level;
        givens_until_solved(&solution, &mut givens, |g| solves_within(&with(g), &solution, level), rng)?;
    }
    let mut p = with(&givens);
    // Remove what can go, in a random order.
    let mut clues: Vec<Clue> = (0..p.less.len()).map(Clue::Mark).collect();
    clues.extend((0..n * n).filter(|&c| p.givens[c] != 0).map(Clue::Given));
    clues.shuffle(rng);
    let all = std::mem::take(&mut p.less);
    let mut keep = vec![true; all.len()];
    if params.max_level == 1 {
        // Singles read no mark: every mark goes, and a given goes while singles still solve
        // (the same puzzle as trying each clue in turn, without the work).
        for clue in clues {
            if let Clue::Given(c) = clue {
                p.givens[c] = 0;
                if !easy_solves(&p, 1) {
                    p.givens[c] = solution[c];
                }
            }
        }
        return Ok((p, solution));
    }
    // At level 2, whether the current puzzle's fixed point solves it (as it does, the givens
    // were added until it did) and the marks (of `all`) whose bounds narrowed no cell on the way
    // there: such a mark goes without a check, as the same narrowings, in the same order, reach
    // the same fixed point without it. Known once a check has run.
    let mut idle: Option<(bool, Vec<bool>)> = None;
    for clue in clues {
        if params.max_level == 2 {
            if let Clue::Mark(i) = clue {
                let (solved, idle) = idle.get_or_insert_with(|| idle_marks(&p.givens, &all, &keep, n));
                if *solved && idle[i] {
                    keep[i] = false;
                    continue;
                }
            }
        }
        let mut trial = Futoshiki { size: p.size, givens: p.givens.clone(), less: Vec::new() };
        match clue {
            Clue::Given(c) => trial.givens[c] = 0,
            Clue::Mark(i) => keep[i] = false,
        }
        if params.max_level == 2 {
            let (solved, now_idle) = idle_marks(&trial.givens, &all, &keep, n);
            if solved {
                p.givens = trial.givens;
                idle = Some((true, now_idle));
            } else if let Clue::Mark(i) = clue {
                keep[i] = true;
            }
            continue;
        }
        trial.less = marks_kept(&all, &keep);
        if params.max_level > 0 {
            // The techniques up to the level still solve it (so it is unique), or it stays.
            if solves(&trial, &solution, params.max_level) {
                p.givens = trial.givens;
            } else if let Clue::Mark(i) = clue {
                keep[i] = true;
            }
            continue;
        }
        // Another solution, if any, breaks the clue taken out.
        let board_with_break = match clue {
            Clue::Mark(i) => {
                let mut broken = trial.clone();
                // The mark reversed, in its place in board order (so the board need not sort).
                let key = solve::mark_order(&(all[i].1 as usize, all[i].0 as usize));
                let at = broken.less.partition_point(|&(a, b)| solve::mark_order(&(a as usize, b as usize)) < key);
                broken.less.insert(at, (all[i].1, all[i].0));
                solve::Board::new(&broken)
            }
            Clue::Given(_) => solve::Board::new(&trial),
        };
        let mut cand = board_with_break.start(&trial.givens);
        if let Clue::Given(c) = clue {
            cand[c] &= !(1 << solution[c]);
        }
        let other = solve::count_from(&board_with_break, cand, 1, solve::SOLVE_BUDGET);
        if other.count == 0 && !other.aborted {
            p.givens = trial.givens;
        } else if let Clue::Mark(i) = clue {
            keep[i] = true;
        }
    }
    p.less = marks_kept(&all, &keep);
    Ok((p, solution))
}

/// Whether the rater's techniques up to `level` solve `p`, and the cells they leave open.
/// A level's techniques include the ones below it and a technique never stops another (each
/// only removes candidates), so what a lower level solves, this one does: a higher level first
/// asks the cheaper check below it (most clues the generator tries leave an easier puzzle).
fn solves_within(p: &Futoshiki, solution: &[u8], level: u8) -> (bool, Vec<usize>) {
    let easier = |below: u8| solves(p, solution, below);
    match level {
        0..=2 => easy_fixpoint(p, level),
        3 if easier(2) => (true, Vec::new()),
        3 => hills_fixpoint(p),
        _ if easier(2) => (true, Vec::new()),
        _ => ladder_within(p, solution, level),
    }
}

/// `solves_within`'s first half alone (levels 1 and 2 without listing the open cells).
fn solves(p: &Futoshiki, solution: &[u8], level: u8) -> bool {
    match level {
        0..=2 => easy_solves(p, level),
        _ => solves_within(p, solution, level).0,
    }
}

/// Levels 1 and 2 (singles; singles and mark bounds) as a propagation to their fixed point:
/// the Latin rules over every line and, at level 2, each mark's bounds, until neither narrows a
/// cell. The same fixed point as the counter's propagation (without marks for level 1) and the
/// ladder's, on the stack: the generator asks at every clue it tries, and building a board
/// each time took longer than propagating.
fn easy_fixpoint(p: &Futoshiki, level: u8) -> (bool, Vec<usize>) {
    easy_settled(p, level, &mut []).answer()
}

/// `easy_fixpoint`'s first half alone.
fn easy_solves(p: &Futoshiki, level: u8) -> bool {
    easy_solves_noting(p, level, &mut [])
}

/// `easy_solves`, setting `used[k]` when mark `k` of `p.less` narrows a cell on the way (when
/// `used` has room for it).
fn easy_solves_noting(p: &Futoshiki, level: u8, used: &mut [bool]) -> bool {
    easy_settled(p, level, used).solved()
}

/// The level's fixed point of `p` (`used` as `easy_solves_noting` sets it).
fn easy_settled<'a>(p: &'a Futoshiki, level: u8, used: &mut [bool]) -> EasyFix<'a> {
    let marks: &[(u8, u8)] = if level >= 2 { &p.less } else { &[] };
    let mut easy = EasyFix::new(p.size as usize, &p.givens, marks);
    easy.settle_noting(used);
    easy
}

/// Levels 1 and 2's fixed point, kept: a given added afterwards narrows it and `settle` goes on
/// from there, which reaches the fixed point of the puzzle with the given (the rules only remove
/// candidates, so starting narrower than the start and wider than the fixed point changes
/// nothing). The generator adds givens one at a time until the level solves the puzzle.
struct EasyFix<'a> {
    n: usize,
    /// The marks whose bounds apply (none at level 1).
    marks: &'a [(u8, u8)],
    cand: Vec<u16>,
    /// The Latin rules' state; none after a contradiction.
    fix: Option<LatinFix>,
}

impl<'a> EasyFix<'a> {
    fn new(n: usize, givens: &[u8], marks: &'a [(u8, u8)]) -> EasyFix<'a> {
        let cand = start(n, givens);
        let fix = LatinFix::new(n, &cand);
        EasyFix { n, marks, cand, fix }
    }

    /// `answer`'s first half alone, without listing the open cells.
    fn solved(&self) -> bool {
        fixpoint_solved(self.fix.is_some(), &self.cand)
    }

    /// The Latin rules (spread from the cells narrowed, not by sweeping every line again) and
    /// each mark's bounds, until neither narrows a cell; `used[k]` set when mark `k` does.
    fn settle_noting(&mut self, used: &mut [bool]) {
        let (n, marks, cand) = (self.n, self.marks, &mut self.cand);
        let Some(fix) = self.fix.as_mut() else { return };
        let ok = 'fix: loop {
            if !fix.run(cand) {
                break false;
            }
            let mut changed = false;
            for (k, &(a, b)) in marks.iter().enumerate() {
                let (a, b) = (a as usize, b as usize);
                let (ca, cb) = (cand[a], cand[b]);
                let na = ca & below(high(cb));
                let nb = cb & above(low(ca), n);
                if na == 0 || nb == 0 {
                    break 'fix false;
                }
                if (na, nb) != (ca, cb) {
                    fix.narrow(cand, a, na);
                    fix.narrow(cand, b, nb);
                    changed = true;
                    if let Some(u) = used.get_mut(k) {
                        *u = true;
                    }
                }
            }
            if !changed {
                break true;
            }
        };
        if !ok {
            self.fix = None;
        }
    }
}

impl KeptFixpoint for EasyFix<'_> {
    fn settle(&mut self) {
        self.settle_noting(&mut []);
    }

    fn give(&mut self, c: usize, d: u8) {
        if let Some(fix) = self.fix.as_mut() {
            let m = self.cand[c] & 1 << d;
            if !fix.narrow(&mut self.cand, c, m) {
                self.fix = None;
            }
        }
    }

    fn answer(&self) -> (bool, Vec<usize>) {
        fixpoint_answer(self.fix.is_some(), &self.cand)
    }
}

/// Level 3 (hills and valleys, naked and hidden pairs, and what is below) as a propagation to
/// its fixed point: the counter's propagation (the Latin rules and every mark's bounds, followed
/// mark by mark), each hill's and valley's bound, and the pairs of each line, until none narrows
/// a cell. The rules only remove candidates and each may fire in any order, so their fixed point
/// is the one the ladder stalls at, found without its tallies.
fn hills_fixpoint(p: &Futoshiki) -> (bool, Vec<usize>) {
    let board = solve::Board::new(p);
    let (ok, cand) = hills_candidates(&board, &crate::techniques::peaks(&board), &p.givens);
    pf_core::common::latin_count::fixpoint_answer(ok, &cand)
}

/// `hills_fixpoint`'s candidates on the puzzle's board and peaks (false: a contradiction).
fn hills_candidates(board: &solve::Board, peaks: &[Peak], givens: &[u8]) -> (bool, Vec<u16>) {
    pf_core::common::latin_count::pairs_fixpoint_candidates(board, board.start(givens), |cand| {
        let mut changed = false;
        for peak in peaks {
            let out = crate::techniques::peak_out(cand, board.n, peak);
            if cand[peak.cell].count_ones() > 1 && out != 0 {
                cand[peak.cell] &= !out;
                changed = true;
            }
        }
        changed
    })
}

/// `solves_within` by the ladder itself, from where the level-3 fixed point stalls (levels 4
/// and 5, `ladder_from_fixpoint`; `ladder_from_start` is the plain form).
fn ladder_within(p: &Futoshiki, solution: &[u8], level: u8) -> (bool, Vec<usize>) {
    let board = solve::Board::new(p);
    let peaks = crate::techniques::peaks(&board);
    let fixpoint = hills_candidates(&board, &peaks, &p.givens);
    ladder_from_fixpoint(|| Position::on(board, peaks, p, solution), fixpoint, level)
}

/// `solves_within` by the ladder itself, from the puzzle's start: what the tests hold the fixed
/// points to.
#[cfg(test)]
fn ladder_from_start(p: &Futoshiki, solution: &[u8], level: u8) -> (bool, Vec<usize>) {
    pf_core::common::latin_grid::ladder_stall(Position::new(p, solution), level)
}

/// Whether level 2 solves the puzzle of `givens` and the marks of `all` kept, and which of
/// `all`'s kept marks narrowed no cell on the way (`idle`; false for the others).
fn idle_marks(givens: &[u8], all: &[(u8, u8)], keep: &[bool], n: usize) -> (bool, Vec<bool>) {
    let p = Futoshiki { size: n as u8, givens: givens.to_vec(), less: marks_kept(all, keep) };
    let mut used = vec![false; p.less.len()];
    let solved = easy_solves_noting(&p, 2, &mut used);
    let mut used = used.into_iter();
    let idle = keep.iter().map(|&k| k && !used.next().expect("a flag per kept mark")).collect();
    (solved, idle)
}

fn marks_kept(all: &[(u8, u8)], keep: &[bool]) -> Vec<(u8, u8)> {
    all.iter().zip(keep).filter(|(_, &k)| k).map(|(&m, _)| m).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn levels_one_and_two_by_propagation_agree_with_the_ladder() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        for i in 0..200 {
            let params =
                FutoshikiParams { size: 4 + (i % 5) as u8, max_level: (i % 3) as u8, ..FutoshikiParams::default() };
            let (p, s) = generate(&params, &mut rng).unwrap();
            for level in [1u8, 2] {
                let (_, open) = ladder_from_start(&p, &s, level);
                let (done, fast_open) = solves_within(&p, &s, level);
                assert_eq!(done, open.is_empty(), "puzzle {i}, level {level}");
                if done {
                    assert!(fast_open.is_empty());
                }
            }
        }
    }

    /// The generator asks about puzzles on the way, not only finished ones: levels 1 to 3 by
    /// propagation agree with the ladder (solved or not, and the cells left open) on puzzles
    /// with marks and givens taken away and givens added, from several steering levels.
    #[test]
    fn fixed_points_agree_with_the_ladder_on_the_way() {
        let mut solved = [0; 4];
        taken_apart(9, 150, &[0, 2, 3, 5], 6, |i, p, s| {
            for level in 1..=3u8 {
                let ladder = ladder_from_start(p, s, level);
                solved[level as usize] += ladder.0 as usize;
                assert_eq!(solves_within(p, s, level), ladder, "puzzle {i}, level {level}: {p:?}");
            }
        });
        assert!(solved[1] > 0 && solved[2] > solved[1] && solved[3] > solved[2] && solved[3] < 900, "{solved:?}");
    }

    /// Levels 4 and 5 by the ladder from where level 3's fixed point stalls agree with the
    /// ladder from the start (solved or not, and the cells left open), on puzzles taken apart
    /// the same way.
    #[test]
    fn the_ladder_from_level_3s_fixed_point_stalls_where_it_would_from_the_start() {
        let (mut solved, mut asked) = (0, 0);
        let rounds = if cfg!(debug_assertions) { 24 } else { 120 };
        taken_apart(10, rounds, &[0, 3, 4], 5, |i, p, s| {
            for level in [4u8, 5] {
                let plain = ladder_from_start(p, s, level);
                solved += plain.0 as usize;
                asked += 1;
                assert_eq!(ladder_within(p, s, level), plain, "puzzle {i}, level {level}: {p:?}");
            }
        });
        assert!(solved > 0 && solved < asked, "{solved} of {asked}");
    }

    /// Puzzles as the generator asks about them on its way: made at the steering levels
    /// `levels` in turn (size 4 to 7 in turn), then `changes` times a mark or a given taken away,
    /// or a given added, `check` called after each.
    fn taken_apart(
        seed: u64,
        rounds: usize,
        levels: &[u8],
        changes: usize,
        mut check: impl FnMut(usize, &Futoshiki, &[u8]),
    ) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for i in 0..rounds {
            let max_level = levels[i % levels.len()];
            let params = FutoshikiParams { size: 4 + (i % 4) as u8, max_level, ..FutoshikiParams::default() };
            let (mut p, s) = generate(&params, &mut rng).unwrap();
            for _ in 0..changes {
                if rng.gen_bool(0.4) && !p.less.is_empty() {
                    let k = rng.gen_range(0..p.less.len());
                    p.less.remove(k);
                } else {
                    let c = rng.gen_range(0..p.givens.len());
                    p.givens[c] = if rng.gen_bool(0.5) { 0 } else { s[c] };
                }
                check(i, &p, &s);
            }
        }
    }

    /// A mark that narrowed no cell on the way to the level-2 fixed point can go: the puzzle
    /// without it reaches the same answer (solved or not, the same cells open). The generator
    /// drops such marks unchecked.
    #[test]
    fn an_idle_mark_leaves_the_level_2_fixed_point_as_it_was() {
        let (mut idle, mut busy) = (0, 0);
        taken_apart(12, 120, &[0, 2, 3], 4, |i, p, _| {
            let n = p.size as usize;
            let keep = vec![true; p.less.len()];
            let (solved, flags) = idle_marks(&p.givens, &p.less, &keep, n);
            let before = easy_fixpoint(p, 2);
            assert_eq!(solved, before.0, "puzzle {i}: {p:?}");
            for (k, &flag) in flags.iter().enumerate() {
                if !flag {
                    busy += 1;
                    continue;
                }
                idle += 1;
                let mut q = p.clone();
                q.less.remove(k);
                assert_eq!(easy_fixpoint(&q, 2), before, "puzzle {i}, mark {k}: {p:?}");
            }
        });
        assert!(idle > 40 && busy > 1000, "{idle} idle, {busy} narrowing");
    }

    /// Levels 1 and 2's fixed point narrowed by givens added one at a time is the fixed point
    /// from the start of the puzzle with them, at every step.
    #[test]
    fn a_kept_fixed_point_narrowed_by_a_given_is_the_one_from_the_start() {
        let mut steps = 0;
        taken_apart(14, 80, &[0, 1, 2], 2, |i, p, s| {
            for level in [1u8, 2] {
                let marks: &[(u8, u8)] = if level == 2 { &p.less } else { &[] };
                let mut q = p.clone();
                let mut easy = EasyFix::new(q.size as usize, &q.givens, marks);
                easy.settle();
                for c in (0..s.len()).filter(|&c| p.givens[c] == 0).step_by(3) {
                    q.givens[c] = s[c];
                    easy.give(c, s[c]);
                    easy.settle();
                    assert_eq!(easy.answer(), easy_fixpoint(&q, level), "puzzle {i}, level {level}, cell {c}");
                    steps += 1;
                }
            }
        });
        assert!(steps > 1000, "{steps}");
    }

    #[test]
    fn a_level_makes_puzzles_its_techniques_solve() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        for level in 1..=4u8 {
            for size in [5u8, 7] {
                let params = FutoshikiParams { size, max_level: level, ..FutoshikiParams::default() };
                let (p, s) = generate(&params, &mut rng).unwrap();
                assert!(solves_within(&p, &s, level).0, "level {level}, size {size}");
                let f = solve::count_solutions(&p, 2);
                assert_eq!((f.count, f.first.as_ref()), (1, Some(&s)));
                if level == 1 {
                    // Singles do not read marks: none is left.
                    assert!(p.less.is_empty(), "{p:?}");
                }
            }
        }
    }

    #[test]
    fn puzzles_are_unique_minimal_and_agree_with_their_solution() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for size in [4u8, 5, 6, 7] {
            let params = FutoshikiParams { size, ..FutoshikiParams::default() };
            let (p, s) = generate(&params, &mut rng).unwrap();
            p.validate().unwrap();
            let f = solve::count_solutions(&p, 2);
            assert_eq!((f.count, f.first.as_ref()), (1, Some(&s)));
            for &(a, b) in &p.less {
                assert!(s[a as usize] < s[b as usize]);
            }
            // Minimal: without any one clue, two solutions.
            for i in 0..p.less.len() {
                let mut q = p.clone();
                q.less.remove(i);
                assert_eq!(solve::count_solutions(&q, 2).count, 2, "mark {i} of {size}");
            }
            for c in (0..p.givens.len()).filter(|&c| p.givens[c] != 0) {
                let mut q = p.clone();
                q.givens[c] = 0;
                assert_eq!(solve::count_solutions(&q, 2).count, 2, "given {c} of {size}");
            }
        }
    }
}
