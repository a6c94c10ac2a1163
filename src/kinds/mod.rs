//! The `Kind` trait and the registry of kinds: the one place that lists them.
//!
//! The pipeline, the commands and the book writers are written once, generic over `K: Kind`.
//! Adding a kind is one `KindId` variant, one arm in `dispatch!` users (see CONTRIBUTING.md),
//! and a module under `kinds/` with the same files as `sudoku/`.

pub mod kakuro;
pub mod kenken;
pub mod sudoku;

use crate::rate::{LogEntry, Rating, Technique};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum KindId {
    Sudoku,
    Kenken,
    Kakuro,
}

impl KindId {
    pub fn name(self) -> &'static str {
        match self {
            KindId::Sudoku => "sudoku",
            KindId::Kenken => "kenken",
            KindId::Kakuro => "kakuro",
        }
    }
}

/// Why a candidate did not become a puzzle. Counted in calibration.json under `name()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reject {
    /// The generator could not build a candidate (e.g. no fill found).
    GeneratorFailed,
    /// The uniqueness check found no solution.
    NoSolution,
    /// The uniqueness check found two or more solutions.
    NotUnique,
    /// The generator's uniqueness search hit its node budget before deciding (Kakuro on large
    /// boards: a rare candidate whose search would run for minutes).
    Undecided,
    /// The rater stopped without solving.
    RatingIncomplete,
}

impl Reject {
    pub const ALL: [Reject; 5] =
        [Reject::GeneratorFailed, Reject::NoSolution, Reject::NotUnique, Reject::Undecided, Reject::RatingIncomplete];
    pub fn name(self) -> &'static str {
        match self {
            Reject::GeneratorFailed => "generator_failed",
            Reject::NoSolution => "no_solution",
            Reject::NotUnique => "not_unique",
            Reject::Undecided => "undecided",
            Reject::RatingIncomplete => "rating_incomplete",
        }
    }
}

/// Command-line settings that override a kind's configured parameters (flattened into the
/// `generate` and `replay` commands, so a run and its replay take the same flags).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Overrides {
    /// Grid size (KenKen).
    #[arg(long)]
    pub size: Option<u8>,
    /// Rows including the clue border (Kakuro).
    #[arg(long)]
    pub rows: Option<u16>,
    /// Columns including the clue border (Kakuro).
    #[arg(long)]
    pub cols: Option<u16>,
    /// Clue symmetry (Sudoku), overriding the config.
    #[arg(long, value_enum)]
    pub symmetry: Option<sudoku::Symmetry>,
}

/// A generated candidate: the puzzle, the solution it was built from, and how many repairs
/// it took to make the solution unique (reported in calibration.json).
pub struct Generated<K: Kind> {
    pub puzzle: K::Puzzle,
    pub solution: K::Solution,
    pub repairs: u32,
}

/// What a uniqueness solve found: the number of solutions (capped at the limit) and the first.
pub struct Solved<S> {
    pub count: usize,
    pub first: Option<S>,
}

/// One puzzle kind. Implementations are stateless apart from their validated parameters.
pub trait Kind: Send + Sync + Sized + 'static {
    const ID: KindId;
    type Puzzle: Clone + Send + Sync;
    type Solution: Clone + Send + Sync + PartialEq + std::fmt::Debug;
    type Tech: Technique;
    /// The kind's validated generation parameters.
    type Params: Clone + Send + Sync + Serialize + serde::de::DeserializeOwned + std::fmt::Debug;

    /// Apply command-line overrides; a flag that does not fit this kind is an error naming it.
    fn apply_overrides(params: &mut Self::Params, o: &Overrides) -> Result<(), String>;
    /// A stable text of the parameters that shape candidates: part of every candidate's seed.
    fn params_key(params: &Self::Params) -> String;
    /// Build one candidate puzzle and the solution it was built from.
    fn generate(params: &Self::Params, rng: &mut Xoshiro256PlusPlus) -> Result<Generated<Self>, Reject>;
    /// Count solutions up to `limit` with the fast solver.
    fn solve(puzzle: &Self::Puzzle, limit: usize) -> Solved<Self::Solution>;
    /// Rate a uniquely solvable puzzle whose solution is known; `log` receives every level try.
    fn rate(puzzle: &Self::Puzzle, solution: &Self::Solution, log: Option<&mut Vec<LogEntry>>) -> Rated;
    /// Read one input line (text form or JSON); the error says what is wrong.
    fn parse(line: &str) -> Result<Self::Puzzle, String>;
    fn puzzle_text(p: &Self::Puzzle) -> String;
    fn puzzle_json(p: &Self::Puzzle) -> serde_json::Value;
    fn solution_text(s: &Self::Solution) -> String;
    fn solution_json(s: &Self::Solution) -> serde_json::Value;
    fn givens(p: &Self::Puzzle) -> usize;
    /// The grid size that selects `[grades.size.N]` thresholds for a run (kinds whose step scale
    /// depends on it), or None.
    fn grading_size(_params: &Self::Params) -> Option<usize> {
        None
    }
    /// The same for one puzzle (`rate`).
    fn puzzle_size(_p: &Self::Puzzle) -> Option<usize> {
        None
    }
    /// Names of the kind's extra book columns, after the technique usage columns.
    fn extra_names() -> &'static [&'static str] {
        &[]
    }
    /// Values of the extra columns, in `extra_names` order.
    fn extra_values(_p: &Self::Puzzle, _s: &Self::Solution) -> Vec<serde_json::Value> {
        Vec::new()
    }
}

/// A rating plus whether the ladder reached the solution and how many unsound steps it took
/// (always 0 unless a technique is wrong; the tests hold it to 0).
pub struct Rated {
    pub rating: Rating,
    pub solved: bool,
    pub unsound: u32,
}
