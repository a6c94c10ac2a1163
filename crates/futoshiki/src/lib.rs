//! Futoshiki (Unequal), N×N for N from 4 to 9 and up to 12: a random Latin square from the
//! Jacobson–Matthews chain, every inequality mark between neighbours, a share of the cells given
//! (more where the marks leave two solutions), then marks and givens removed in random order
//! while the solution stays unique, so each puzzle is minimal.
//!
//! Rule: a kind crate depends on the core only (`pf_core`), never on another kind, the engine
//! or the binary. Its built-in configuration is `config/` in this crate (`Kind::DEFAULT_CONFIG`).

#![allow(clippy::needless_range_loop)]

pub(crate) mod canonical;
pub(crate) mod draw;
pub mod generate;
#[cfg(test)]
mod janko_tests;
pub mod notation;
pub mod solve;
pub(crate) mod steer;
pub(crate) mod techniques;

use pf_core::kind::{Flag, FlagValues, Generated, GradeKey, Graded, Kind, Rated, Reject, Solved};
use pf_core::rate::{self, Trace};
use pf_core::rules::{Group, Relation, Rules};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// A Futoshiki puzzle: its givens (row-major, 0 blank) and its marks, each a pair of
/// neighbouring cells (smaller, larger).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Futoshiki {
    pub size: u8,
    pub givens: Vec<u8>,
    pub less: Vec<(u8, u8)>,
}

/// A solution: row-major digits.
pub type Grid = Vec<u8>;

impl Futoshiki {
    /// Check the structure: size, givens in range, each mark between neighbours, no pair marked
    /// twice or both ways.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.size as usize;
        if !(1..=notation::MAX_SIZE as usize).contains(&n) {
            return Err(format!("size must be 1 to {}, got {n}", notation::MAX_SIZE));
        }
        if self.givens.len() != n * n {
            return Err(format!("{} givens for a {n}×{n} grid", self.givens.len()));
        }
        if let Some(c) = self.givens.iter().position(|&d| d as usize > n) {
            return Err(format!("cell [{}, {}]: digit {} above {n}", c / n, c % n, self.givens[c]));
        }
        let mut seen = std::collections::HashSet::new();
        for (i, &(a, b)) in self.less.iter().enumerate() {
            let (a, b) = (a as usize, b as usize);
            let at = |c: usize| format!("[{}, {}]", c / n, c % n);
            if a >= n * n || b >= n * n {
                return Err(format!("mark {}: a cell outside the grid", i + 1));
            }
            let near = (a / n == b / n && a.abs_diff(b) == 1) || (a % n == b % n && a.abs_diff(b) == n);
            if !near {
                return Err(format!("mark {}: {} and {} are not neighbours", i + 1, at(a), at(b)));
            }
            if !seen.insert((a.min(b), a.max(b))) {
                return Err(format!("mark {}: {} and {} are marked twice or both ways", i + 1, at(a), at(b)));
            }
        }
        Ok(())
    }
}

/// Futoshiki generation parameters (config `[generate]`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FutoshikiParams {
    pub size: u8,
    /// Share of the cells given before clues are removed (the rest start blank): more keeps
    /// more givens and fewer marks in the finished puzzle.
    pub start_givens: f64,
    /// 0: clues are removed while the solution stays unique (the hardest puzzles). 1 to 5: while
    /// the rater's techniques up to this level still solve the puzzle, givens added first until
    /// they do, as Unequal makes a level: easier puzzles (steering uses it).
    #[serde(default)]
    pub max_level: u8,
}

impl FutoshikiParams {
    pub fn validate(&self) -> Result<(), String> {
        if !(4..=12).contains(&self.size) {
            return Err(format!("[generate] size must be 4 to 12, got {}", self.size));
        }
        if self.max_level > 5 {
            return Err(format!("[generate] max_level must be 0 to 5, got {}", self.max_level));
        }
        if !(0.0..=1.0).contains(&self.start_givens) {
            return Err(format!("[generate] start_givens must be between 0 and 1, got {}", self.start_givens));
        }
        Ok(())
    }
}

impl Default for FutoshikiParams {
    fn default() -> Self {
        FutoshikiParams { size: 6, start_givens: 0.25, max_level: 0 }
    }
}

pub struct FutoshikiKind;

impl Kind for FutoshikiKind {
    const TITLE: &'static str = "Futoshiki";
    const NAME: &'static str = "futoshiki";
    const DEFAULT_CONFIG: &'static str = include_str!("../config/futoshiki.toml");
    const TECHNIQUE_PUZZLES: &'static str = include_str!("../fixtures/techniques.txt");
    type Puzzle = Futoshiki;
    type Solution = Grid;
    type Tech = techniques::Tech;
    type Params = FutoshikiParams;

    fn flags() -> Vec<Flag> {
        // Shared with KenKen (the same id, a number).
        vec![Flag::number("size", "N", u8::MAX as u64, "")]
    }

    fn apply_flags(params: &mut FutoshikiParams, given: &FlagValues) -> Result<(), String> {
        if let Some(s) = given.number("size") {
            if !(4..=12).contains(&s) {
                return Err(format!("--size must be 4 to 12 for --kind futoshiki, got {s}"));
            }
            params.size = s as u8;
        }
        params.validate()
    }

    fn shape(p: &FutoshikiParams) -> String {
        p.size.to_string()
    }

    fn params_key(p: &FutoshikiParams) -> String {
        format!("size={};start_givens={};max_level={}", p.size, p.start_givens, p.max_level)
    }

    /// Quota steering: level L makes puzzles whose clues go only while the techniques up to
    /// ladder level L solve them (`max_level`), for the easy grades the plain generator seldom
    /// makes (`steer`).
    const STEER_LEVELS: u8 = steer::LEVELS;
    fn steer(params: &FutoshikiParams, level: u8) -> FutoshikiParams {
        steer::steer(params, level)
    }

    fn generate(params: &FutoshikiParams, rng: &mut Xoshiro256PlusPlus) -> Result<Generated<Self>, Reject> {
        let (puzzle, solution) = generate::generate(params, rng)?;
        // Every removal kept was followed by a complete count that found one solution.
        Ok(Generated { puzzle, solution, repairs: 0, proven_unique: true })
    }

    fn solve(puzzle: &Futoshiki, limit: usize) -> Solved<Grid> {
        let f = solve::count_solutions(puzzle, limit);
        Solved { count: f.count, first: f.first, undecided: f.aborted }
    }

    fn rate(puzzle: &Futoshiki, solution: &Grid, trace: Option<&mut Trace>) -> Rated {
        let mut pos = techniques::Position::new(puzzle, solution);
        let rating = rate::rate_traced(&mut pos, trace);
        Rated { solved: pos.is_done(), unsound: pos.unsound, rating }
    }

    fn parse(line: &str, _params: &FutoshikiParams) -> Result<Futoshiki, String> {
        notation::parse(line)
    }
    fn puzzle_text(p: &Futoshiki) -> String {
        notation::to_json_text(p)
    }
    fn puzzle_json(p: &Futoshiki) -> serde_json::Value {
        notation::to_json(p)
    }
    fn puzzle_json_text(p: &Futoshiki) -> String {
        notation::to_json_text(p)
    }
    fn solution_text(s: &Grid) -> String {
        pf_core::common::json::square_grid_text(s)
    }
    fn solution_json(s: &Grid) -> serde_json::Value {
        notation::grid_json(s)
    }
    fn solution_json_text(s: &Grid) -> String {
        pf_core::common::json::square_grid_text(s)
    }
    fn canonical(p: &Futoshiki, _s: &Grid) -> u128 {
        canonical::canonical_key(p)
    }
    fn symmetric(p: &Futoshiki, s: &Grid, rng: &mut Xoshiro256PlusPlus) -> (Futoshiki, Grid) {
        canonical::symmetric(p, s, rng)
    }
    fn rules(p: &Futoshiki) -> Rules {
        let n = p.size as usize;
        let mut groups = Vec::new();
        for i in 0..n {
            groups.push(Group::house((0..n).map(|j| i * n + j).collect()));
            groups.push(Group::house((0..n).map(|j| j * n + i).collect()));
        }
        let relations = p.less.iter().map(|&(a, b)| Relation::Less(a as usize, b as usize)).collect();
        Rules { width: n, cells: p.givens.iter().map(|&d| Some(d)).collect(), symbols: n as u8, groups, relations }
    }
    fn givens(p: &Futoshiki) -> usize {
        p.givens.iter().filter(|&&d| d != 0).count()
    }
    const TABLE_SIZES: Option<(usize, usize)> = Some((1, notation::MAX_SIZE as usize));
    fn grade_key(of: Graded<'_, Self>) -> GradeKey {
        let size = match of {
            Graded::Run(p) => p.size,
            Graded::Puzzle(p) => p.size,
        };
        GradeKey { size: Some(size as usize), variants: Vec::new() }
    }
    fn draw(p: &Futoshiki, digits: pf_core::draw::Digits) -> pf_core::draw::Drawing {
        draw::draw(p, digits)
    }
    fn extra_names() -> &'static [&'static str] {
        &["size", "marks", "unequal_id"]
    }
    fn extra_values(p: &Futoshiki, _s: &Grid) -> Vec<serde_json::Value> {
        vec![p.size.into(), p.less.len().into(), notation::unequal_id(p).into()]
    }
}
