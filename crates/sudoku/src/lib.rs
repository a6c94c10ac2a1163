//! Sudoku (9×9): the first kind. Generation makes a random full grid and removes clues in
//! symmetric orbits while the solution stays unique; the fast counter is `solve`; the rater is
//! the 16-technique ladder in `techniques`.
//!
//! Rule: a kind crate depends on the core only (`pf_core`), never on another kind, the engine
//! or the binary. Its built-in configuration is `config/` in this crate (`Kind::DEFAULT_CONFIG`).

#![allow(clippy::needless_range_loop)]

mod band_tables;
pub mod canonical;
pub(crate) mod draw;
pub mod family;
pub mod generate;
pub(crate) mod geometry;
pub(crate) mod notation;
pub(crate) mod position;
mod scan_cache;
pub(crate) mod singles;
pub mod solve;
pub(crate) mod steer;
mod step;
#[cfg(test)]
mod technique_tests;
pub mod techniques;

use pf_core::kind::{Choice, Flag, FlagValues, Generated, Kind, Rated, Reject, Solved, Takes};
use pf_core::rate::{self, Trace};
use pf_core::rules::{Group, Rules};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

pub use generate::Symmetry;

/// A Sudoku grid: 0 for a blank, else the digit.
pub type Grid = [u8; 81];

/// Sudoku generation parameters (config `[generate]`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SudokuParams {
    pub symmetry: Symmetry,
}

impl Default for SudokuParams {
    fn default() -> Self {
        SudokuParams { symmetry: Symmetry::Rotate180 }
    }
}

pub struct Sudoku;

impl Kind for Sudoku {
    const TITLE: &'static str = "classic 9x9 Sudoku";
    const NAME: &'static str = "sudoku";
    const DEFAULT_CONFIG: &'static str = include_str!("../config/sudoku.toml");
    const TECHNIQUE_PUZZLES: &'static str = include_str!("../fixtures/techniques.txt");
    type Puzzle = Grid;
    type Solution = Grid;
    type Tech = techniques::Tech;
    type Params = SudokuParams;

    fn flags() -> Vec<Flag> {
        vec![
            Flag {
                id: "symmetry",
                value_name: "SYMMETRY",
                help: "Clue symmetry (Sudoku), overriding [generate] symmetry",
                takes: Takes::Choice(&Symmetry::NAMES),
            },
            // `--box 3x3` is classic 9×9; any other box is the family's (the binary routes it).
            Flag {
                id: "box",
                value_name: "RxC",
                help: "Sudoku family: boxes R rows tall and C wide (n = R·C symbols, 4 to 25), e.g. 2x3, 4x4; 3x3 is \
                       classic",
                takes: Takes::Text { check: family::notation::box_value },
            },
        ]
    }

    fn apply_flags(params: &mut SudokuParams, given: &FlagValues) -> Result<(), String> {
        if let Some(b) = given.text("box") {
            if b != "3x3" {
                return Err(format!("--box {b}: classic Sudoku is 3x3"));
            }
        }
        if let Some(s) = given.text("symmetry") {
            params.symmetry = Symmetry::from_name(s).ok_or_else(|| format!("--symmetry {s}: unknown"))?;
        }
        Ok(())
    }

    fn params_key(params: &SudokuParams) -> String {
        format!("symmetry={}", params.symmetry.name())
    }

    fn shape(_params: &SudokuParams) -> String {
        "9".into()
    }

    fn generate(params: &SudokuParams, rng: &mut Xoshiro256PlusPlus) -> Result<Generated<Self>, Reject> {
        let (puzzle, solution) = generate::generate(params.symmetry, rng)?;
        // Unique by construction: the full grid is, and every removal kept was followed by a
        // complete search (no budget) for another solution that found none.
        Ok(Generated { puzzle, solution, repairs: 0, proven_unique: true })
    }

    fn generate_within(
        params: &SudokuParams,
        rng: &mut Xoshiro256PlusPlus,
        stages: usize,
        solvable: pf_core::kind::Solvable<Self>,
    ) -> Option<Result<Generated<Self>, Reject>> {
        Some(generate::generate_within(params.symmetry, rng, stages, solvable).map(|(puzzle, solution)| Generated {
            puzzle,
            solution,
            repairs: 0,
            proven_unique: false,
        }))
    }

    fn singles_fill(puzzle: &Grid) -> Option<(bool, Grid)> {
        singles::singles_fill(puzzle).map(|g| (!g.contains(&0), g))
    }

    fn solve(puzzle: &Grid, limit: usize) -> Solved<Grid> {
        let f = solve::count_solutions(puzzle, limit);
        Solved { count: f.count, first: f.first, undecided: false }
    }

    fn rate(puzzle: &Grid, solution: &Grid, trace: Option<&mut Trace>) -> Rated {
        let mut pos = position::Position::new(puzzle, solution);
        let rating = rate::rate_traced(&mut pos, trace);
        Rated { rating, solved: pos.empty.is_empty(), unsound: pos.unsound }
    }

    fn parse(line: &str, _params: &SudokuParams) -> Result<Grid, String> {
        notation::parse(line)
    }
    fn puzzle_text(p: &Grid) -> String {
        notation::to_text(p)
    }
    fn puzzle_json(p: &Grid) -> serde_json::Value {
        notation::to_text(p).into()
    }
    fn puzzle_json_text(p: &Grid) -> String {
        notation::quoted_text(p)
    }
    fn solution_text(s: &Grid) -> String {
        notation::to_text(s)
    }
    // `solve` on 17-clue puzzles spent 8% of its time in `parse`, 4% in `to_text` and about
    // 10% in row allocations and the CSV writer (perf); the puzzles themselves take 2-3 µs.
    const SOLVE_FIELDS: Option<pf_core::kind::SolveFields> = Some(|line, out| {
        let p = match notation::parse_plain(line.as_bytes()) {
            Some(g) => g,
            None => notation::parse(line)?,
        };
        let (count, first) = solve::count_first(&p, 2);
        out.push(b'0' + count.min(2) as u8);
        out.push(b',');
        if let Some(s) = first {
            notation::write_text(&s, out);
        }
        Ok(())
    });
    fn solution_json(s: &Grid) -> serde_json::Value {
        notation::to_text(s).into()
    }
    fn solution_json_text(s: &Grid) -> String {
        notation::quoted_text(s)
    }
    const STEER_LEVELS: u8 = steer::LEVELS;
    fn steer(params: &SudokuParams, level: u8) -> SudokuParams {
        steer::steer(params, level)
    }
    fn canonical(p: &Self::Puzzle, s: &Self::Solution) -> u128 {
        canonical::canonical_key(p, s)
    }
    fn symmetric(p: &Grid, s: &Grid, rng: &mut Xoshiro256PlusPlus) -> (Grid, Grid) {
        canonical::symmetric(p, s, rng)
    }
    fn draw(p: &Grid, digits: pf_core::draw::Digits) -> pf_core::draw::Drawing {
        draw::draw(p, digits)
    }
    fn rules(p: &Grid) -> Rules {
        let mut groups = Vec::new();
        for i in 0..9 {
            groups.push(Group::house((0..9).map(|j| i * 9 + j).collect()));
            groups.push(Group::house((0..9).map(|j| j * 9 + i).collect()));
            groups.push(Group::house((0..9).map(|j| (i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3).collect()));
        }
        Rules { width: 9, cells: p.iter().map(|&d| Some(d)).collect(), symbols: 9, groups, relations: Vec::new() }
    }
    fn givens(p: &Grid) -> usize {
        p.iter().filter(|&&d| d != 0).count()
    }
}
