//! The `Kind` trait: what the pipeline, the commands and the book writers ask of a puzzle kind.
//! They are written once, generic over `K: Kind`; each kind is a crate of its own implementing
//! it, and the binary's registry lists the kinds. What differs by kind — its flags, its config,
//! its id shape, its drawing — is declared by the kind itself.

pub mod flags;

pub use flags::{Choice, Flag, FlagValues, Given, Takes};

use crate::rate::{Rating, Technique, Trace};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

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
    /// The puzzle does not meet the run's technique constraints (`--require`, `--forbid`,
    /// `--max-level`, `--teach`, `--no-shortcut`).
    Constraint,
    /// The puzzle's canonical form was emitted before, in this run or an `--exclude` file.
    Duplicate,
}

impl Reject {
    pub const ALL: [Reject; 7] = [
        Reject::GeneratorFailed,
        Reject::NoSolution,
        Reject::NotUnique,
        Reject::Undecided,
        Reject::RatingIncomplete,
        Reject::Constraint,
        Reject::Duplicate,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Reject::GeneratorFailed => "generator_failed",
            Reject::NoSolution => "no_solution",
            Reject::NotUnique => "not_unique",
            Reject::Undecided => "undecided",
            Reject::RatingIncomplete => "rating_incomplete",
            Reject::Constraint => "constraint",
            Reject::Duplicate => "duplicate",
        }
    }
}

/// A generated candidate: the puzzle, the solution it was built from, and how many repairs
/// it took to make the solution unique (reported in calibration.json).
pub struct Generated<K: Kind> {
    pub puzzle: K::Puzzle,
    pub solution: K::Solution,
    pub repairs: u32,
    /// The generator's own complete count (the kind's solver, no budget cut) found this
    /// solution and no other: the pipeline's uniqueness check would repeat it, so it is
    /// skipped.
    pub proven_unique: bool,
}

/// What a uniqueness solve found: the number of solutions (capped at the limit) and the first.
pub struct Solved<S> {
    pub count: usize,
    pub first: Option<S>,
    /// The search stopped at its node budget before `count` was decided.
    pub undecided: bool,
}

/// `Kind::generate_within`'s test of a partly dug puzzle at a stage.
pub type Solvable<'a, K> = &'a dyn Fn(&<K as Kind>::Puzzle, &<K as Kind>::Solution, usize) -> bool;

/// One puzzle kind. Implementations are stateless apart from their validated parameters.
/// `Kind::SOLVE_FIELDS`: one input line → `solve`'s fields appended to the row, or the error.
pub type SolveFields = fn(&str, &mut Vec<u8>) -> Result<(), String>;

pub trait Kind: Send + Sync + Sized + 'static {
    /// The `--kind` name, also the first part of every id.
    const NAME: &'static str;
    /// The name a run's manifest and the library give the kind: the `--kind` name unless the
    /// kind shares it (`sudoku-family`).
    const KEY: &'static str = Self::NAME;
    /// What the kind is called in messages ("classic 9x9 Sudoku").
    const TITLE: &'static str;
    /// The built-in configuration (`config/<kind>.toml`, every key documented there).
    const DEFAULT_CONFIG: &'static str;
    type Puzzle: Clone + Send + Sync;
    type Solution: Clone + Send + Sync + PartialEq + std::fmt::Debug;
    type Tech: Technique;
    /// The kind's validated generation parameters. `Default` gives parameters that read
    /// every line the kind writes (`parse`).
    type Params: Clone + Default + Send + Sync + Serialize + serde::de::DeserializeOwned + std::fmt::Debug;

    /// The number the grade thresholds apply to: the step count, or for a kind whose step
    /// count grows with the board beyond what the size explains (Kakuro, any shape), a
    /// size-free form of it. It must be the step count times a positive factor of the puzzle's
    /// (grade targeting stops a rating at the step count that reaches a threshold).
    fn difficulty(_p: &Self::Puzzle, steps: f64) -> f64 {
        steps
    }

    /// The kind's own flags of `generate` and `replay` (e.g. `--size`), declared here and added
    /// to the command line by the binary. A flag id two kinds share must take the same value.
    fn flags() -> Vec<Flag> {
        Vec::new()
    }
    /// Apply the kind's flags as given to the configured parameters, then check them; the
    /// error names the flag or key.
    fn apply_flags(params: &mut Self::Params, given: &FlagValues) -> Result<(), String>;
    /// A stable text of the parameters that shape candidates: part of every candidate's seed.
    fn params_key(params: &Self::Params) -> String;
    /// The board's name in ids: `9`, `6`, `8x10` (SPEC.md, `id`).
    fn shape(params: &Self::Params) -> String;
    /// Steering levels above 0: generation settings that shift the grade mix toward the hard
    /// grades, used by quota runs once the common grades are full (`steer`).
    const STEER_LEVELS: u8 = 0;
    /// The steering levels that apply to a run with these parameters, 0 to `STEER_LEVELS`:
    /// levels 1 to this one. A level that would make the same puzzles as level 0 is left out,
    /// so that a quota run does not spend candidates exploring it.
    fn steer_levels(_params: &Self::Params) -> u8 {
        Self::STEER_LEVELS
    }
    /// The parameters of steering level `level` (0: `params` as configured; higher levels make
    /// harder puzzles more often). A candidate's seed does not depend on the level.
    fn steer(params: &Self::Params, _level: u8) -> Self::Params {
        params.clone()
    }
    /// The canonical key of a uniquely solvable puzzle (`s` its solution): equal for two
    /// puzzles exactly when one is the other under the kind's symmetries (SPEC.md, `--exclude`),
    /// a 128-bit hash of the canonical form. Written as 32 hex digits in column `canonical`.
    fn canonical(p: &Self::Puzzle, s: &Self::Solution) -> u128;
    /// A copy of the puzzle and its solution under one of the kind's symmetries, drawn with
    /// `rng`: one that `canonical` must not tell from the original (the conformance suite checks
    /// it).
    fn symmetric(p: &Self::Puzzle, s: &Self::Solution, rng: &mut Xoshiro256PlusPlus) -> (Self::Puzzle, Self::Solution);
    /// Build one candidate puzzle and the solution it was built from.
    fn generate(params: &Self::Params, rng: &mut Xoshiro256PlusPlus) -> Result<Generated<Self>, Reject>;
    /// Steered generation (`--require`, `--teach`): clues are removed in stages, stage i
    /// removing what it can while `solvable(puzzle, solution, i)` holds (the ladder with some
    /// techniques switched off finishes it), so the puzzle ends minimal for the last stage's
    /// techniques. `None` when the kind does not make puzzles by removing clues: the
    /// constraint then only filters.
    fn generate_within(
        _params: &Self::Params,
        _rng: &mut Xoshiro256PlusPlus,
        _stages: usize,
        _solvable: Solvable<Self>,
    ) -> Option<Result<Generated<Self>, Reject>> {
        None
    }
    /// The puzzle with the level-1 techniques applied until none is left (their digits as
    /// givens) and whether that solved it, by a path faster than `rate` (`None`: no such path,
    /// or a contradiction). Steered generation asks it at every removed clue: a ladder that
    /// keeps level 1 finishes the puzzle exactly when it finishes this grid.
    fn singles_fill(_puzzle: &Self::Puzzle) -> Option<(bool, Self::Puzzle)> {
        None
    }
    /// Count solutions up to `limit` with the fast solver.
    fn solve(puzzle: &Self::Puzzle, limit: usize) -> Solved<Self::Solution>;
    /// Rate a uniquely solvable puzzle whose solution is known, as `trace` asks (techniques
    /// switched off) and recording what it asks for (level log, path, shortcut).
    fn rate(puzzle: &Self::Puzzle, solution: &Self::Solution, trace: Option<&mut Trace>) -> Rated;
    /// Read one input line (text form or JSON) with the kind's parameters (the family's box
    /// for a text line); the error says what is wrong. A line the kind wrote reads back with
    /// any parameters.
    fn parse(line: &str, params: &Self::Params) -> Result<Self::Puzzle, String>;
    fn puzzle_text(p: &Self::Puzzle) -> String;
    fn puzzle_json(p: &Self::Puzzle) -> serde_json::Value;
    /// `puzzle_json` as compact JSON text (`serde_json::to_string` of it, byte for byte), which
    /// a kind may write without building the value: every book record holds it.
    fn puzzle_json_text(p: &Self::Puzzle) -> String {
        Self::puzzle_json(p).to_string()
    }
    fn solution_text(s: &Self::Solution) -> String;
    /// `solve`'s fields for one input line (`solutions,solution`: the count to 2 and the first
    /// solution's text, CSV), appended to the row, when the kind has a faster way to them than
    /// `parse`, `solve` and `solution_text` (same output and messages).
    const SOLVE_FIELDS: Option<SolveFields> = None;
    fn solution_json(s: &Self::Solution) -> serde_json::Value;
    /// `solution_json` as compact JSON text, as `puzzle_json_text` is to `puzzle_json`.
    fn solution_json_text(s: &Self::Solution) -> String {
        Self::solution_json(s).to_string()
    }
    fn givens(p: &Self::Puzzle) -> usize;
    /// The puzzle's rules written out plainly (cells, digits, groups with their clues), for the
    /// simple solver of `rules::count`: the conformance suite's independent uniqueness check.
    fn rules(p: &Self::Puzzle) -> crate::rules::Rules;
    /// The grade tables that apply to a run or to one puzzle (`rate`): the grid size that selects
    /// `[grades.size.N]` (kinds whose step scale depends on it) and the variant tables, most
    /// specific first, ahead of the size's (kinds whose variants have step scales of their own).
    /// The default: `[grades]` alone.
    fn grade_key(_of: Graded<'_, Self>) -> GradeKey {
        GradeKey::default()
    }
    /// The sizes `grade_key` can give (every puzzle the kind reads, not only those it
    /// generates), lowest and highest: a `[grades.size.N]` or `[target.size.N]` table outside
    /// them could apply to no puzzle and is refused. None for kinds without size tables.
    const TABLE_SIZES: Option<(usize, usize)> = None;
    /// Whether the kind reads `[grades.variant.NAME]` tables (`grade_key`'s variants).
    const HAS_VARIANTS: bool = false;
    /// Draw the puzzle for print (`book`), in cell units: the grid and its clues, and with
    /// `digits` (row-major, as `print::solution_digits` reads a book record's solution) the
    /// solution. Text elements carry a class and their cell (see `print::Drawing::text`).
    fn draw(p: &Self::Puzzle, digits: crate::draw::Digits) -> crate::draw::Drawing;
    /// Puzzles that each need one technique: for every technique, at least one puzzle on which
    /// the others stall, and with it go further. The others are every other technique of its
    /// level and the levels below (`level`), or those before it in the ladder's order
    /// (`earlier`: for a technique another of its level subsumes). One per line,
    /// `technique<TAB>others<TAB>steps<TAB>puzzle`: the technique's name, `level` or `earlier`,
    /// the number of steps the others take before they stall, and the puzzle in any form `parse`
    /// reads; `#` starts a comment line. The conformance suite checks every line
    /// (`tests/conformance.rs`); a kind keeps the file beside its code (`include_str!`).
    const TECHNIQUE_PUZZLES: &'static str = "";
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

/// What selects a run's or a puzzle's grade thresholds: `[grades.variant.NAME]`, else
/// `[grades.size.N]`, else `[grades]` (see `RunConfig::thresholds_for`).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct GradeKey {
    pub size: Option<usize>,
    /// The variant's table names, most specific first (`9xk`, then `9k`, `9x`).
    pub variants: Vec<String>,
}

/// What `Kind::grade_key` looks the tables up for.
pub enum Graded<'a, K: Kind> {
    /// A run, before any puzzle: its parameters.
    Run(&'a K::Params),
    /// One puzzle.
    Puzzle(&'a K::Puzzle),
}

impl GradeKey {
    /// A run's key, from its parameters.
    pub fn of_run<K: Kind>(params: &K::Params) -> GradeKey {
        K::grade_key(Graded::Run(params))
    }

    /// One puzzle's key.
    pub fn of_puzzle<K: Kind>(p: &K::Puzzle) -> GradeKey {
        K::grade_key(Graded::Puzzle(p))
    }
}
