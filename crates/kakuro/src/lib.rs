//! Kakuro (R×C including the clue border; default 8×10, generated up to 30×30, read and solved
//! up to `MAX_READ_SIDE`): a symmetric block layout
//! whose runs have 2 to 9 cells, a random digit fill without repeats in a run, clue sums from the
//! fill, and uniqueness guaranteed by the combination-table counter with digit repair.
//!
//! Rule: a kind crate depends on the core only (`pf_core`), never on another kind, the engine
//! or the binary. Its built-in configuration is `config/` in this crate (`Kind::DEFAULT_CONFIG`).

#![allow(clippy::needless_range_loop)]

pub(crate) mod canonical;
pub(crate) mod draw;
pub mod generate;
pub mod notation;
mod scan_cache;
pub mod solve;
pub(crate) mod steer;
pub mod techniques;
mod windows;

use pf_core::common::cage::sum_combos;
use pf_core::common::cage::Op;
use pf_core::kind::{Flag, FlagValues, Generated, Kind, Rated, Reject, Solved};
use pf_core::rate::{self, Trace};
use pf_core::rules::{Group, Rules};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use solve::Layout;

/// One cell of the board: white (to fill), or a block with its down and right sums (0 = none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    White,
    Block { down: u8, right: u8 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kakuro {
    pub rows: usize,
    pub cols: usize,
    /// Row-major, `rows * cols` cells.
    pub cells: Vec<Cell>,
}

/// A solution: row-major digits over the whole board, 0 on blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub cols: usize,
    pub digits: Vec<u8>,
}

/// The largest board generated, in rows and in columns.
pub const MAX_SIDE: usize = 30;

/// The largest board read, solved and rated, in rows and in columns. The solver's indices are
/// u32 and its search state grows with the white cells, so this only bounds memory (a
/// 1000×1000 board is about 10 MB of state); lines over 1 MB are refused before anyway.
pub const MAX_READ_SIDE: usize = 1000;

impl Kakuro {
    /// The published measures: white cells ÷ runs, and the same less 0.05 per run with a unique
    /// combination and less 0.1 per crossing forced by two such runs (their combinations share
    /// exactly one digit, so the cell is known at once).
    pub fn ratio_metrics(&self, lay: &Layout) -> (f64, f64) {
        // Free runs (`Run::is_free`) are no runs of the puzzle's: not counted.
        let runs = lay.runs.iter().filter(|r| !r.is_free()).count().max(1) as f64;
        let plain = lay.whites.len() as f64 / runs;
        let unique = |r: &solve::Run| sum_combos(r.sum as u32, r.cells.len()).len() == 1;
        let unique_runs = lay.runs.iter().filter(|r| unique(r)).count();
        let forced = lay
            .cell_runs
            .iter()
            .filter(|[a, d]| {
                let (a, d) = (&lay.runs[*a as usize], &lay.runs[*d as usize]);
                unique(a)
                    && unique(d)
                    && (sum_combos(a.sum as u32, a.cells.len())[0] & sum_combos(d.sum as u32, d.cells.len())[0])
                        .count_ones()
                        == 1
            })
            .count();
        (plain, plain - 0.05 * unique_runs as f64 - 0.1 * forced as f64)
    }
}

/// Kakuro generation parameters (config `[generate]`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct KakuroParams {
    pub rows: u16,
    pub cols: u16,
    pub white_share: f64,
    pub symmetric: bool,
    pub max_run: u8,
    pub max_repairs: u32,
}

impl KakuroParams {
    /// Repairs allowed before a candidate is rejected: `max_repairs`, or 3/2 per white cell when
    /// it is 0 (second solutions grow with the board: 8×10 needs about 20, 15×15 about 100).
    pub(crate) fn repair_limit(&self, whites: usize) -> u32 {
        if self.max_repairs == 0 {
            (whites * 3 / 2) as u32
        } else {
            self.max_repairs
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        let side = 3..=MAX_SIDE as u16;
        if !side.contains(&self.rows) || !side.contains(&self.cols) {
            return Err(format!(
                "[generate] rows and cols must be 3 to {MAX_SIDE} (including the clue border), got {}×{}",
                self.rows, self.cols
            ));
        }
        if !(0.2..=0.9).contains(&self.white_share) {
            return Err(format!("[generate] white_share must be 0.2 to 0.9, got {}", self.white_share));
        }
        if !(2..=9).contains(&self.max_run) {
            return Err(format!("[generate] max_run must be 2 to 9, got {}", self.max_run));
        }
        Ok(())
    }
}

impl Default for KakuroParams {
    fn default() -> Self {
        KakuroParams { rows: 8, cols: 10, white_share: 0.7, symmetric: true, max_run: 9, max_repairs: 0 }
    }
}

pub struct KakuroKind;

impl Kind for KakuroKind {
    const TITLE: &'static str = "Kakuro";
    const NAME: &'static str = "kakuro";
    const DEFAULT_CONFIG: &'static str = include_str!("../config/kakuro.toml");
    const TECHNIQUE_PUZZLES: &'static str = include_str!("../fixtures/techniques.txt");
    type Puzzle = Kakuro;
    type Solution = Grid;
    type Tech = techniques::Tech;
    type Params = KakuroParams;

    fn flags() -> Vec<Flag> {
        vec![
            Flag::number(
                "rows",
                "N",
                u16::MAX as u64,
                "Rows including the clue border (Kakuro), overriding [generate] rows",
            ),
            Flag::number(
                "cols",
                "N",
                u16::MAX as u64,
                "Columns including the clue border (Kakuro), overriding [generate] cols",
            ),
        ]
    }

    fn apply_flags(params: &mut KakuroParams, given: &FlagValues) -> Result<(), String> {
        if let Some(r) = given.number("rows") {
            params.rows = r as u16;
        }
        if let Some(c) = given.number("cols") {
            params.cols = c as u16;
        }
        params.validate()
    }

    fn shape(p: &KakuroParams) -> String {
        format!("{}x{}", p.rows, p.cols)
    }

    fn params_key(p: &KakuroParams) -> String {
        format!(
            "rows={};cols={};white={};sym={};max_run={};repairs={}",
            p.rows, p.cols, p.white_share, p.symmetric, p.max_run, p.max_repairs
        )
    }

    fn generate(params: &KakuroParams, rng: &mut Xoshiro256PlusPlus) -> Result<Generated<Self>, Reject> {
        generate::generate(params, rng)
    }

    fn solve(puzzle: &Kakuro, limit: usize) -> Solved<Grid> {
        match Layout::new(puzzle) {
            Ok(lay) => {
                let found = solve::count_solutions(&lay, limit);
                Solved { count: found.count, first: found.solutions.first().map(|s| lay.to_grid(s)), undecided: false }
            }
            Err(_) => Solved { count: 0, first: None, undecided: false },
        }
    }

    fn rate(puzzle: &Kakuro, solution: &Grid, trace: Option<&mut Trace>) -> Rated {
        let lay = Layout::new(puzzle).expect("rated puzzles have a valid layout");
        let mut pos = techniques::Position::new(&lay, solution);
        let rating = rate::rate_traced(&mut pos, trace);
        Rated { solved: pos.is_done(), unsound: pos.unsound, rating }
    }

    fn parse(line: &str, _params: &KakuroParams) -> Result<Kakuro, String> {
        notation::parse(line)
    }
    fn puzzle_text(p: &Kakuro) -> String {
        notation::to_json(p).to_string()
    }
    fn puzzle_json(p: &Kakuro) -> serde_json::Value {
        notation::to_json(p)
    }
    fn solution_text(s: &Grid) -> String {
        notation::grid_json(s).to_string()
    }
    fn solution_json(s: &Grid) -> serde_json::Value {
        notation::grid_json(s)
    }
    /// Kakuro gives no digits; its clues are the run sums, so `givens` counts the runs.
    const STEER_LEVELS: u8 = steer::LEVELS;
    fn steer(params: &KakuroParams, level: u8) -> KakuroParams {
        steer::steer(params, level)
    }
    fn canonical(p: &Self::Puzzle, _s: &Self::Solution) -> u128 {
        canonical::canonical_key(p)
    }
    fn symmetric(p: &Kakuro, s: &Grid, rng: &mut Xoshiro256PlusPlus) -> (Kakuro, Grid) {
        canonical::symmetric(p, s, rng)
    }
    fn rules(p: &Kakuro) -> Rules {
        let white = |r: usize, c: usize| matches!(p.cells[r * p.cols + c], Cell::White);
        let mut groups = Vec::new();
        let mut run = |cells: Vec<usize>, sum: u8| {
            if !cells.is_empty() {
                groups.push(Group { cells, distinct: true, clue: Some((Op::Add, sum as u32)) });
            }
        };
        for r in 0..p.rows {
            for c in 0..p.cols {
                if let Cell::Block { down, right } = p.cells[r * p.cols + c] {
                    run((c + 1..p.cols).take_while(|&j| white(r, j)).map(|j| r * p.cols + j).collect(), right);
                    run((r + 1..p.rows).take_while(|&i| white(i, c)).map(|i| i * p.cols + c).collect(), down);
                }
            }
        }
        let cells = p.cells.iter().map(|c| matches!(c, Cell::White).then_some(0)).collect();
        Rules { width: p.cols, cells, symbols: 9, groups, relations: Vec::new() }
    }
    fn givens(p: &Kakuro) -> usize {
        p.cells
            .iter()
            .map(|c| match c {
                Cell::Block { down, right } => (*down > 0) as usize + (*right > 0) as usize,
                Cell::White => 0,
            })
            .sum()
    }
    /// Steps per white cell, per white cell: the size-free scale (config/kakuro.toml). Every
    /// try of the ladder that finds nothing costs the situations it scanned, about one per white
    /// cell, so the steps of a board grow as the white cells squared at equal difficulty.
    fn difficulty(p: &Kakuro, steps: f64) -> f64 {
        let w = p.cells.iter().filter(|c| matches!(c, Cell::White)).count().max(1) as f64;
        steps / (w * w)
    }
    fn draw(p: &Kakuro, digits: pf_core::draw::Digits) -> pf_core::draw::Drawing {
        draw::draw(p, digits)
    }
    fn extra_names() -> &'static [&'static str] {
        &["rows", "cols", "white_cells", "runs", "white_per_run", "white_per_run_adjusted"]
    }
    fn extra_values(p: &Kakuro, _s: &Grid) -> Vec<serde_json::Value> {
        let lay = Layout::new(p).expect("book puzzles have a valid layout");
        let (plain, adjusted) = p.ratio_metrics(&lay);
        let round = |x: f64| (x * 10_000.0).round() / 10_000.0;
        vec![
            p.rows.into(),
            p.cols.into(),
            lay.whites.len().into(),
            lay.runs.len().into(),
            round(plain).into(),
            round(adjusted).into(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Holst's boards may leave a white cell alone between blocks with no clue that way: it is
    /// read with a free run there, counted by no measure, and the solver and rater take it.
    #[test]
    fn a_white_cell_without_a_run_one_way_is_read_solved_and_rated() {
        // r2c1 has no across run and r1c2 no down run.
        let line = r##"{"rows":3,"cols":3,"cells":[["#","4\\","#"],["\\3",".","."],["#",".","#"]]}"##;
        let p = KakuroKind::parse(line, &KakuroParams::default()).expect("read");
        let lay = Layout::new(&p).expect("layout");
        assert_eq!(lay.runs.iter().filter(|r| r.is_free()).count(), 2);
        assert_eq!(p.ratio_metrics(&lay).0, 3.0 / 2.0, "the two clued runs only");
        let solved = KakuroKind::solve(&p, 2);
        assert_eq!(solved.count, 1);
        let s = solved.first.expect("a solution");
        assert_eq!(s.digits, vec![0, 0, 0, 0, 1, 2, 0, 3, 0]);
        let rated = KakuroKind::rate(&p, &s, None);
        assert!(rated.solved && rated.unsound == 0);
        // Two or more white cells without a clue stay an error.
        let open = line.replace(r#""4\\""#, r##""#""##);
        let err = KakuroKind::parse(&open, &KakuroParams::default()).and_then(|p| Layout::new(&p).map(|_| ()));
        assert!(err.unwrap_err().contains("no down sum for its run of 2 cells"));
    }
}
