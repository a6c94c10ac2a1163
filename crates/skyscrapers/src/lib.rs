//! Skyscrapers (Towers), N×N for N from 4 to 9 and up to 12: a random Latin square from the
//! Jacobson–Matthews chain read as heights, every clue on the four edges (how many buildings are
//! seen from there, a taller one hiding every lower one behind it), givens where the clues leave
//! two solutions, then clues and givens removed in random order while the solution stays unique.
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

/// A Skyscrapers puzzle: its clues and givens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skyscrapers {
    pub size: u8,
    /// The 4N edge clues in Tatham's Towers order, 0 for no clue: top (columns left to right),
    /// bottom (columns left to right), left (rows top to bottom), right (rows top to bottom).
    /// Clue `i` sees the cells `clue_cells(N, i)`.
    pub clues: Vec<u8>,
    /// Row-major, 0 blank.
    pub givens: Vec<u8>,
}

/// A solution: row-major heights.
pub type Grid = Vec<u8>;

/// The edge of clue `i` of an N×N board (`i / N`) and its column or row (`i % N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    Top,
    Bottom,
    Left,
    Right,
}

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::Top, Edge::Bottom, Edge::Left, Edge::Right];
}

/// The edge and the line (column or row) of clue `i`.
pub fn clue_place(n: usize, i: usize) -> (Edge, usize) {
    (Edge::ALL[i / n], i % n)
}

/// The cells clue `i` looks along, nearest first: a top clue down its column, a bottom clue up
/// it, a left clue along its row to the right, a right clue to the left.
pub fn clue_cells(n: usize, i: usize) -> Vec<usize> {
    (0..n).map(|j| clue_cell(n, i, j)).collect()
}

/// The `j`-th cell clue `i` looks along (0 nearest): `clue_cells(n, i)[j]` without the list.
pub fn clue_cell(n: usize, i: usize, j: usize) -> usize {
    let (edge, k) = clue_place(n, i);
    match edge {
        Edge::Top => j * n + k,
        Edge::Bottom => (n - 1 - j) * n + k,
        Edge::Left => k * n + j,
        Edge::Right => k * n + (n - 1 - j),
    }
}

/// How many of `heights` (nearest first) are seen: those taller than every one before them.
pub fn seen(heights: impl IntoIterator<Item = u8>) -> u8 {
    let (mut count, mut top) = (0, 0);
    for h in heights {
        if h > top {
            count += 1;
            top = h;
        }
    }
    count
}

/// Every clue of a full grid, in `Skyscrapers::clues` order.
pub fn clues_of(n: usize, grid: &[u8]) -> Vec<u8> {
    (0..4 * n).map(|i| seen(clue_cells(n, i).into_iter().map(|c| grid[c]))).collect()
}

impl Skyscrapers {
    /// Check the structure: size, 4N clues each 0 to N, N² givens each 0 to N.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.size as usize;
        if !(1..=notation::MAX_SIZE as usize).contains(&n) {
            return Err(format!("size must be 1 to {}, got {n}", notation::MAX_SIZE));
        }
        if self.clues.len() != 4 * n {
            return Err(format!("{} clues for a {n}×{n} grid ({} needed)", self.clues.len(), 4 * n));
        }
        if let Some(i) = self.clues.iter().position(|&c| c as usize > n) {
            let (edge, k) = clue_place(n, i);
            return Err(format!("{edge:?} clue {} is {}, above {n}", k + 1, self.clues[i]).to_lowercase());
        }
        if self.givens.len() != n * n {
            return Err(format!("{} givens for a {n}×{n} grid", self.givens.len()));
        }
        if let Some(c) = self.givens.iter().position(|&d| d as usize > n) {
            return Err(format!("cell [{}, {}]: height {} above {n}", c / n, c % n, self.givens[c]));
        }
        Ok(())
    }
}

/// Clue `i` in words, for messages: "the clue above column 3".
pub fn clue_name(n: usize, i: usize) -> String {
    let (edge, k) = clue_place(n, i);
    match edge {
        Edge::Top => format!("the clue above column {}", k + 1),
        Edge::Bottom => format!("the clue below column {}", k + 1),
        Edge::Left => format!("the clue left of row {}", k + 1),
        Edge::Right => format!("the clue right of row {}", k + 1),
    }
}

/// The line clue `i` looks along, in words, for solution paths: "column 3 from above", so that
/// a step reads "clue bounds in column 3 from above".
pub fn clue_view(n: usize, i: usize) -> String {
    let (edge, k) = clue_place(n, i);
    match edge {
        Edge::Top => format!("column {} from above", k + 1),
        Edge::Bottom => format!("column {} from below", k + 1),
        Edge::Left => format!("row {} from the left", k + 1),
        Edge::Right => format!("row {} from the right", k + 1),
    }
}

/// Skyscrapers generation parameters (config `[generate]`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SkyscrapersParams {
    pub size: u8,
    /// 0: givens and clues are removed while the solution stays unique (the hardest puzzles).
    /// 1 to 5: while the rater's techniques up to this level still solve the puzzle, givens
    /// added first until they do, as Towers makes a level: easier puzzles (steering uses it).
    #[serde(default)]
    pub max_level: u8,
    /// Keep every clue (only givens are removed), as Towers' easy puzzles do.
    #[serde(default)]
    pub keep_clues: bool,
}

impl SkyscrapersParams {
    pub fn validate(&self) -> Result<(), String> {
        if !(4..=12).contains(&self.size) {
            return Err(format!("[generate] size must be 4 to 12, got {}", self.size));
        }
        if self.max_level > 5 {
            return Err(format!("[generate] max_level must be 0 to 5, got {}", self.max_level));
        }
        Ok(())
    }
}

impl Default for SkyscrapersParams {
    fn default() -> Self {
        SkyscrapersParams { size: 6, max_level: 0, keep_clues: false }
    }
}

pub struct SkyscrapersKind;

impl Kind for SkyscrapersKind {
    const TITLE: &'static str = "Skyscrapers";
    const NAME: &'static str = "skyscrapers";
    const DEFAULT_CONFIG: &'static str = include_str!("../config/skyscrapers.toml");
    const TECHNIQUE_PUZZLES: &'static str = include_str!("../fixtures/techniques.txt");
    type Puzzle = Skyscrapers;
    type Solution = Grid;
    type Tech = techniques::Tech;
    type Params = SkyscrapersParams;

    fn flags() -> Vec<Flag> {
        // Shared with KenKen and Futoshiki (the same id, a number).
        vec![Flag::number("size", "N", u8::MAX as u64, "")]
    }

    fn apply_flags(params: &mut SkyscrapersParams, given: &FlagValues) -> Result<(), String> {
        if let Some(s) = given.number("size") {
            if !(4..=12).contains(&s) {
                return Err(format!("--size must be 4 to 12 for --kind skyscrapers, got {s}"));
            }
            params.size = s as u8;
        }
        params.validate()
    }

    fn shape(p: &SkyscrapersParams) -> String {
        p.size.to_string()
    }

    fn params_key(p: &SkyscrapersParams) -> String {
        format!("size={};max_level={};keep_clues={}", p.size, p.max_level, p.keep_clues)
    }

    /// Quota steering: level L makes puzzles whose givens and clues go only while the techniques
    /// up to ladder level L solve them (`max_level`), for the easy grades the plain generator
    /// seldom makes (`steer`).
    const STEER_LEVELS: u8 = steer::LEVELS;
    fn steer(params: &SkyscrapersParams, level: u8) -> SkyscrapersParams {
        steer::steer(params, level)
    }

    fn generate(params: &SkyscrapersParams, rng: &mut Xoshiro256PlusPlus) -> Result<Generated<Self>, Reject> {
        let (puzzle, solution) = generate::generate(params, rng)?;
        // Every removal kept was followed by a complete count that found one solution (or by
        // the techniques solving it).
        Ok(Generated { puzzle, solution, repairs: 0, proven_unique: true })
    }

    fn solve(puzzle: &Skyscrapers, limit: usize) -> Solved<Grid> {
        let f = solve::count_solutions(puzzle, limit);
        Solved { count: f.count, first: f.first, undecided: f.aborted }
    }

    fn rate(puzzle: &Skyscrapers, solution: &Grid, trace: Option<&mut Trace>) -> Rated {
        let mut pos = techniques::Position::new(puzzle, solution);
        let rating = rate::rate_traced(&mut pos, trace);
        Rated { solved: pos.is_done(), unsound: pos.unsound, rating }
    }

    fn parse(line: &str, _params: &SkyscrapersParams) -> Result<Skyscrapers, String> {
        notation::parse(line)
    }
    fn puzzle_text(p: &Skyscrapers) -> String {
        notation::to_json_text(p)
    }
    fn puzzle_json(p: &Skyscrapers) -> serde_json::Value {
        notation::to_json(p)
    }
    fn puzzle_json_text(p: &Skyscrapers) -> String {
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
    fn canonical(p: &Skyscrapers, _s: &Grid) -> u128 {
        canonical::canonical_key(p)
    }
    fn symmetric(p: &Skyscrapers, s: &Grid, rng: &mut Xoshiro256PlusPlus) -> (Skyscrapers, Grid) {
        canonical::symmetric(p, s, rng)
    }
    fn rules(p: &Skyscrapers) -> Rules {
        let n = p.size as usize;
        let mut groups = Vec::new();
        for i in 0..n {
            groups.push(Group::house((0..n).map(|j| i * n + j).collect()));
            groups.push(Group::house((0..n).map(|j| j * n + i).collect()));
        }
        let relations = (0..4 * n)
            .filter(|&i| p.clues[i] != 0)
            .map(|i| Relation::Sees { cells: clue_cells(n, i), count: p.clues[i] })
            .collect();
        Rules { width: n, cells: p.givens.iter().map(|&d| Some(d)).collect(), symbols: n as u8, groups, relations }
    }
    fn givens(p: &Skyscrapers) -> usize {
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
    fn draw(p: &Skyscrapers, digits: pf_core::draw::Digits) -> pf_core::draw::Drawing {
        draw::draw(p, digits)
    }
    fn extra_names() -> &'static [&'static str] {
        &["size", "clues", "towers_id"]
    }
    fn extra_values(p: &Skyscrapers, _s: &Grid) -> Vec<serde_json::Value> {
        vec![p.size.into(), p.clues.iter().filter(|&&c| c != 0).count().into(), notation::towers_id(p).into()]
    }
}
