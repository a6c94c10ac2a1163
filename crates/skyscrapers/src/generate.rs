//! Generation: a random Latin square read as heights, every clue on the four edges, givens where
//! the clues leave two solutions (each where the first two solutions found differ), then the
//! givens and after them the clues tried for removal each in a random order, kept out when no
//! other solution appears, so puzzles lean on their clues as Tatham's Towers makes them. Another
//! solution of the puzzle without a clue breaks that clue (the solution with it is unique): so
//! the search looks for a solution with the given's height barred from its cell, or with the
//! clue showing any other count, which propagation mostly refutes at once.

use crate::solve::{self, Board, MAX_N};
use crate::techniques::{last_visible_out, visible_reaches, Position};
use crate::{clues_of, Grid, Skyscrapers, SkyscrapersParams};
use pf_core::common::latin::random_latin_square;
use pf_core::common::latin_count::{
    above, fixpoint_answer, fixpoint_solved, givens_until_solved, givens_until_solved_kept, givens_until_unique,
    KeptFixpoint, LatinFix,
};
use pf_core::common::latin_grid::ladder_from_fixpoint;
use pf_core::kind::Reject;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

pub fn generate(params: &SkyscrapersParams, rng: &mut Xoshiro256PlusPlus) -> Result<(Skyscrapers, Grid), Reject> {
    let n = params.size as usize;
    let solution = random_latin_square(n, rng);
    let clues = clues_of(n, &solution);
    let with = |g: &[u8]| Skyscrapers { size: n as u8, clues: clues.clone(), givens: g.to_vec() };
    // Givens until one solution is left; with a level, until the techniques up to it solve the
    // puzzle.
    let mut givens = vec![0; n * n];
    // Up to level 3 the techniques' fast fixed point alone proves the solution unique once it
    // fills the grid (every rule is sound): no count first. (At level 3 the count's givens were
    // two thirds of a 9×9 candidate's time; without them a 9×9 candidate takes half as long and
    // the medium puzzles it makes come 1.6 times as fast. At levels 4 and 5 the count stays: the
    // ladder's checks cost more than it saves, and without it fewer candidates are hard.)
    if !(1..=3).contains(&params.max_level) {
        givens_until_unique(&solution, &mut givens, |g| solve::count_solutions(&with(g), 2), rng)?;
    }
    if (1..=2).contains(&params.max_level) {
        // One fixed point narrowed by each given added, not one from the start for each.
        let mut easy = EasyFix::new(&with(&givens), params.max_level);
        givens_until_solved_kept(&solution, &mut givens, &mut easy, rng)?;
    } else if params.max_level > 0 {
        let level = params.max_level;
        givens_until_solved(&solution, &mut givens, |g| solves_within(&with(g), &solution, level), rng)?;
    }
    let mut p = with(&givens);
    // Remove what can go: givens first, then clues, each in a random order.
    let mut givens: Vec<usize> = (0..n * n).filter(|&c| p.givens[c] != 0).collect();
    givens.shuffle(rng);
    for c in givens {
        let mut trial = p.clone();
        trial.givens[c] = 0;
        let gone = if params.max_level > 0 {
            solves(&trial, &solution, params.max_level)
        } else {
            let board = Board::new(&trial);
            let mut cand = board.start(&trial.givens);
            cand[c] &= !(1 << solution[c]);
            no_solution(&board, cand)
        };
        if gone {
            p = trial;
        }
    }
    if params.keep_clues {
        return Ok((p, solution));
    }
    let mut clues: Vec<usize> = (0..4 * n).collect();
    clues.shuffle(rng);
    for i in clues {
        let mut trial = p.clone();
        trial.clues[i] = 0;
        let gone = if params.max_level > 0 {
            solves(&trial, &solution, params.max_level)
        } else {
            let board = Board::breaking(&p, i);
            no_solution(&board, board.start(&p.givens))
        };
        if gone {
            p = trial;
        }
    }
    Ok((p, solution))
}

/// Whether the board has no solution from `cand` (a search that runs out of budget counts as
/// a solution: the clue stays).
fn no_solution(board: &Board, cand: Vec<u16>) -> bool {
    let f = solve::count_from(board, cand, 1, solve::SOLVE_BUDGET);
    f.count == 0 && !f.aborted
}

/// Whether the rater's techniques up to `level` solve `p`, and the cells they leave open.
pub(crate) fn solves_within(p: &Skyscrapers, solution: &[u8], level: u8) -> (bool, Vec<usize>) {
    match level {
        0..=2 => easy_fixpoint(p, level),
        3 => sequences_fixpoint(p),
        _ => ladder_within(p, solution, level),
    }
}

/// `solves_within`'s first half alone (levels 1 and 2 without listing the open cells).
fn solves(p: &Skyscrapers, solution: &[u8], level: u8) -> bool {
    match level {
        0..=2 => easy_settled(p, level).solved(),
        _ => solves_within(p, solution, level).0,
    }
}

/// Level 3 (clue sequences, naked and hidden pairs, and what is below) as a propagation to its
/// fixed point: the counter's propagation (the Latin rules and every clue's exact sequences,
/// which hold the clue rules of levels 1 and 2) and the pairs of each line, until neither
/// narrows a cell. The rules only remove candidates and each may fire in any order, so their
/// fixed point is the one the ladder stalls at: the generator's answer is the ladder's, found
/// without its tallies (10 times faster at 6x6).
fn sequences_fixpoint(p: &Skyscrapers) -> (bool, Vec<usize>) {
    let board = Board::new(p);
    pf_core::common::latin_count::pairs_fixpoint(&board, board.start(&p.givens), |_| false)
}

/// `solves_within` by the ladder itself, from where the level-3 fixed point stalls (levels 4
/// and 5, `ladder_from_fixpoint`; `ladder_from_start` is the plain form): most of a 6×6 level-5
/// run's time was the ladder rating the steps of levels 1 to 3.
fn ladder_within(p: &Skyscrapers, solution: &[u8], level: u8) -> (bool, Vec<usize>) {
    let board = Board::new(p);
    let fixpoint = pf_core::common::latin_count::pairs_fixpoint_candidates(&board, board.start(&p.givens), |_| false);
    ladder_from_fixpoint(|| Position::on(board, p, solution), fixpoint, level)
}

/// `solves_within` by the ladder itself, from the puzzle's start: what the tests hold the fixed
/// points to.
#[cfg(test)]
fn ladder_from_start(p: &Skyscrapers, solution: &[u8], level: u8) -> (bool, Vec<usize>) {
    pf_core::common::latin_grid::ladder_stall(Position::new(p, solution), level)
}

/// Levels 1 and 2 (singles, clues of 1 and N, the clues' bounds; at 2 also the bounds with
/// placed buildings and the last one to see) as a propagation to their fixed point on bit sets,
/// the same rules as the techniques without the ladder's tallies: a few microseconds where the
/// ladder takes a third of a millisecond at 9×9, and the generator asks at every clue it
/// removes. Every rule is sound, so a grid it fills is the one solution.
fn easy_fixpoint(p: &Skyscrapers, level: u8) -> (bool, Vec<usize>) {
    easy_settled(p, level).answer()
}

/// The level's fixed point of `p`.
fn easy_settled(p: &Skyscrapers, level: u8) -> EasyFix {
    let mut easy = EasyFix::new(p, level);
    easy.settle();
    easy
}

/// `easy_fixpoint`'s propagation, kept: a given added afterwards narrows it and `settle` goes
/// on from there, which reaches the fixed point of the puzzle with the given (the rules only
/// remove candidates, so starting narrower than the start and wider than the fixed point
/// changes nothing). The generator adds givens one at a time until the level solves the puzzle.
struct EasyFix {
    n: usize,
    level: u8,
    /// The clues and their lines (cells from the clue inward) as byte lists on the stack: this
    /// is made once per clue the generator tries, and allocating them took as long as the
    /// propagation, and zeroing them as word lists a fifth of a level-1 run.
    clues: [(u8, [u8; MAX_N]); 4 * MAX_N],
    count: usize,
    cand: Vec<u16>,
    /// The Latin rules' state; none after a contradiction.
    fix: Option<LatinFix>,
    /// Each clue's buildings placed when its rules last ran (they read the placed heights alone).
    placed_then: [usize; 4 * MAX_N],
}

impl EasyFix {
    fn new(p: &Skyscrapers, level: u8) -> EasyFix {
        let n = p.size as usize;
        let mut clues = [(0u8, [0u8; MAX_N]); 4 * MAX_N];
        let mut count = 0;
        for i in (0..4 * n).filter(|&i| p.clues[i] != 0) {
            clues[count].0 = p.clues[i];
            for j in 0..n {
                clues[count].1[j] = crate::clue_cell(n, i, j) as u8;
            }
            count += 1;
        }
        let mut cand = pf_core::common::latin_count::start(n, &p.givens);
        // The static rules once: clue bounds, and clues of 1 and N.
        for (c, cells) in &clues[..count] {
            let c = *c as usize;
            for j in 0..c.saturating_sub(1) {
                cand[cells[j] as usize] &= !above((n + j + 1 - c) as u32, n);
            }
            if c == 1 {
                cand[cells[0] as usize] &= 1 << n;
            }
        }
        let fix = LatinFix::new(n, &cand);
        EasyFix { n, level, clues, count, cand, fix, placed_then: [usize::MAX; 4 * MAX_N] }
    }

    /// `answer`'s first half alone, without listing the open cells.
    fn solved(&self) -> bool {
        fixpoint_solved(self.fix.is_some(), &self.cand)
    }
}

impl KeptFixpoint for EasyFix {
    fn give(&mut self, c: usize, d: u8) {
        if let Some(fix) = self.fix.as_mut() {
            let m = self.cand[c] & 1 << d;
            if !fix.narrow(&mut self.cand, c, m) {
                self.fix = None;
            }
        }
    }

    /// To the fixed point. At level 1 the clues' rules are the static ones, applied at the
    /// start: the Latin rules alone finish. At level 2 only what can have changed is looked at
    /// again: the Latin rules spread from the cells a clue's rule narrowed, a clue when its line
    /// has more buildings placed than when it was last looked at. The rules only remove
    /// candidates, so the fixed point is the same whatever the order (a 6×6 level-2 run spent
    /// three quarters of its time in full sweeps).
    fn settle(&mut self) {
        let (n, cand) = (self.n, &mut self.cand);
        let Some(fix) = self.fix.as_mut() else { return };
        let single = |m: u16| m.count_ones() == 1;
        let ok = 'fix: loop {
            if !fix.run(cand) {
                break false;
            }
            if self.level < 2 {
                break true;
            }
            let mut narrowed = false;
            for (k, (c, cells)) in self.clues[..self.count].iter().enumerate() {
                let c = *c as usize;
                let height = |x: usize| if single(cand[x]) { cand[x].trailing_zeros() as u8 } else { 0 };
                let mut buf = [0u8; MAX_N];
                for j in 0..n {
                    buf[j] = height(cells[j] as usize);
                }
                let heights = &buf[..n];
                // (A line with every building placed has no candidate left to remove.)
                let placed = heights.iter().filter(|&&h| h != 0).count();
                if placed == self.placed_then[k] || placed == n {
                    continue;
                }
                self.placed_then[k] = placed;
                // Bounds with placed buildings (`visible_bounds`).
                for (h, reach) in visible_reaches(heights, c) {
                    for x in cells[..reach].iter().map(|&x| x as usize) {
                        if !single(cand[x]) && cand[x] >> h & 1 == 1 {
                            let m = cand[x] & !(1 << h);
                            fix.narrow(cand, x, m);
                            narrowed = true;
                        }
                    }
                }
                // The last building to see (`last_visible`).
                let first = cells[0] as usize;
                if single(cand[first]) {
                    continue;
                }
                let out = last_visible_out(heights, c).unwrap_or(0) & cand[first];
                if out != 0 {
                    let m = cand[first] & !out;
                    if !fix.narrow(cand, first, m) {
                        break 'fix false;
                    }
                    narrowed = true;
                }
            }
            if !narrowed {
                break true;
            }
        };
        if !ok {
            self.fix = None;
        }
    }

    fn answer(&self) -> (bool, Vec<usize>) {
        fixpoint_answer(self.fix.is_some(), &self.cand)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn levels_one_to_three_by_propagation_agree_with_the_ladder() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let mut solved = [0; 4];
        for i in 0..120 {
            let params = SkyscrapersParams {
                size: 4 + (i / 4 % 4) as u8,
                max_level: [0, 2, 3, 5][i % 4],
                ..SkyscrapersParams::default()
            };
            let (p, s) = generate(&params, &mut rng).unwrap();
            for level in [1u8, 2, 3] {
                let (done, open) = ladder_from_start(&p, &s, level);
                assert_eq!(solves_within(&p, &s, level), (done, open), "puzzle {i}, level {level}: {p:?}");
                solved[level as usize] += done as usize;
            }
        }
        // Each level solves some and not others.
        assert!(solved[1] > 0 && solved[1] < 120 && solved[2] > solved[1] && solved[3] > solved[2], "{solved:?}");
        assert!(solved[3] < 120, "{solved:?}");
    }

    #[test]
    fn puzzles_are_unique_minimal_and_agree_with_their_solution() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for size in [4u8, 5, 6, 7] {
            let params = SkyscrapersParams { size, ..SkyscrapersParams::default() };
            let (p, s) = generate(&params, &mut rng).unwrap();
            p.validate().unwrap();
            let f = solve::count_solutions(&p, 2);
            assert_eq!((f.count, f.first.as_ref()), (1, Some(&s)));
            let all = clues_of(size as usize, &s);
            for i in 0..p.clues.len() {
                assert!(p.clues[i] == 0 || p.clues[i] == all[i]);
                if p.clues[i] != 0 {
                    let mut q = p.clone();
                    q.clues[i] = 0;
                    assert_eq!(solve::count_solutions(&q, 2).count, 2, "clue {i} of {size}");
                }
            }
            for c in (0..p.givens.len()).filter(|&c| p.givens[c] != 0) {
                assert_eq!(p.givens[c], s[c]);
                let mut q = p.clone();
                q.givens[c] = 0;
                assert_eq!(solve::count_solutions(&q, 2).count, 2, "given {c} of {size}");
            }
        }
    }

    /// Levels 1 and 2's fixed point narrowed by givens added one at a time is the fixed point
    /// from the start of the puzzle with them, at every step.
    #[test]
    fn a_kept_fixed_point_narrowed_by_a_given_is_the_one_from_the_start() {
        let mut steps = 0;
        taken_apart(
            14,
            60,
            |i| 4 + (i % 4) as u8,
            2,
            |i, p, s| {
                for level in [1u8, 2] {
                    let mut q = p.clone();
                    let mut easy = EasyFix::new(&q, level);
                    easy.settle();
                    for c in (0..s.len()).filter(|&c| p.givens[c] == 0).step_by(3) {
                        q.givens[c] = s[c];
                        easy.give(c, s[c]);
                        easy.settle();
                        assert_eq!(easy.answer(), easy_fixpoint(&q, level), "puzzle {i}, level {level}, cell {c}");
                        steps += 1;
                    }
                }
            },
        );
        assert!(steps > 1000, "{steps}");
    }

    #[test]
    fn a_level_makes_puzzles_its_techniques_solve() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        for level in 1..=4u8 {
            for size in [5u8, 7] {
                let params = SkyscrapersParams { size, max_level: level, ..SkyscrapersParams::default() };
                let (p, s) = generate(&params, &mut rng).unwrap();
                assert!(solves_within(&p, &s, level).0, "level {level}, size {size}");
                let f = solve::count_solutions(&p, 2);
                assert_eq!((f.count, f.first.as_ref()), (1, Some(&s)));
            }
        }
    }
}
/// Puzzles as the generator asks about them on its way, for the tests that hold a fixed point to
/// the ladder: made at the steering levels 0, 3 and 5 in turn (size `size(i)` for the i-th), then
/// `changes` times a clue or a given taken away, or a given added, `check` called after each.
#[cfg(test)]
fn taken_apart(
    seed: u64,
    rounds: usize,
    size: impl Fn(usize) -> u8,
    changes: usize,
    mut check: impl FnMut(usize, &Skyscrapers, &[u8]),
) {
    use rand::{Rng, SeedableRng};
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for i in 0..rounds {
        let max_level = [0, 3, 5][i % 3];
        let params = SkyscrapersParams { size: size(i), max_level, ..SkyscrapersParams::default() };
        let (mut p, s) = generate(&params, &mut rng).unwrap();
        for _ in 0..changes {
            if rng.gen_bool(0.5) {
                let k = rng.gen_range(0..p.clues.len());
                p.clues[k] = 0;
            } else {
                let c = rng.gen_range(0..p.givens.len());
                p.givens[c] = if rng.gen_bool(0.5) { 0 } else { s[c] };
            }
            check(i, &p, &s);
        }
    }
}

#[cfg(test)]
mod level3 {
    use super::*;

    /// The generator asks about puzzles on the way, not only finished ones: the level-3 fixed
    /// point agrees with the ladder (solved or not, and the cells left open) on puzzles with
    /// clues and givens taken away and givens added, from each steering level.
    #[test]
    fn sequences_fixpoint_agrees_with_the_ladder_on_the_way() {
        let mut solved = 0;
        taken_apart(
            9,
            150,
            |i| 5 + (i % 3) as u8,
            6,
            |i, p, s| {
                let ladder = ladder_from_start(p, s, 3);
                solved += ladder.0 as usize;
                assert_eq!(sequences_fixpoint(p), ladder, "puzzle {i}: {p:?}");
            },
        );
        assert!(solved > 0 && solved < 900, "{solved}");
    }

    /// Levels 4 and 5 by the ladder from where level 3's fixed point stalls agree with the
    /// ladder from the start (solved or not, and the cells left open), on puzzles taken apart
    /// the same way.
    #[test]
    fn the_ladder_from_level_3s_fixed_point_stalls_where_it_would_from_the_start() {
        let (mut solved, mut asked) = (0, 0);
        let rounds = if cfg!(debug_assertions) { 24 } else { 120 };
        taken_apart(
            10,
            rounds,
            |i| 4 + (i % 4) as u8,
            5,
            |i, p, s| {
                for level in [4u8, 5] {
                    let plain = ladder_from_start(p, s, level);
                    solved += plain.0 as usize;
                    asked += 1;
                    assert_eq!(ladder_within(p, s, level), plain, "puzzle {i}, level {level}: {p:?}");
                }
            },
        );
        assert!(solved > 0 && solved < asked, "{solved} of {asked}");
    }
}
