//! The Sudoku family: any box shape (n = R·C from 4 to 25), jigsaw regions, X diagonals and
//! killer cages, alone or combined. Classic 9×9 keeps its own fast path (`super`); everything
//! else is built here on one model (`shape::Shape`) with a general counter and rater.

pub(crate) mod canonical;
pub(crate) mod draw;
pub mod generate;
pub mod notation;
pub(crate) mod position;
pub mod shape;
pub(crate) mod solo_id;
pub(crate) mod solve;
pub mod techniques;

use super::Symmetry;
use pf_core::common::cage::Op;
use pf_core::kind::{Choice, Flag, FlagValues, Generated, GradeKey, Graded, Kind, Rated, Reject, Solved, Takes};
use pf_core::rate::{self, Trace};
use pf_core::rules::{Group, Rules};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use shape::Shape;
use std::sync::Arc;

/// A puzzle of the family: its board and its givens (0 = blank), row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyPuzzle {
    pub shape: Arc<Shape>,
    pub givens: Vec<u8>,
}

/// Generation parameters of the family (config `[generate]` of `config/sudoku-family.toml`,
/// flags `--box`, `--jigsaw --size`, `--diagonals`, `--killer`, `--givens`, `--symmetry`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FamilyParams {
    /// Box shape (rows, columns); None for jigsaw regions.
    pub boxes: Option<(usize, usize)>,
    /// Symbols of a jigsaw board (ignored with boxes).
    pub jigsaw_size: usize,
    pub diagonals: bool,
    pub killer: bool,
    /// Killer: also give digits (removed while unique), instead of none.
    pub givens: bool,
    pub symmetry: Symmetry,
    /// Killer: weights of cage sizes 1, 2, 3, …; the largest size is the list's length.
    pub cage_sizes: Vec<u32>,
    /// Killer: repairs of the cages before a candidate with two solutions is given up.
    pub max_repairs: u32,
    /// Keep the puzzle easy (`Some(share)`): a given goes only while propagation alone
    /// (singles, and the cages' sums on a killer) still solves the puzzle, and while at least
    /// `share` of the cells stay given. Set by the steering levels only (`steer`), never by
    /// config, and written nowhere.
    #[serde(skip)]
    pub keep: Option<f64>,
}

impl Default for FamilyParams {
    fn default() -> Self {
        FamilyParams {
            boxes: Some((3, 3)),
            jigsaw_size: 9,
            diagonals: false,
            killer: false,
            givens: false,
            symmetry: Symmetry::Rotate180,
            cage_sizes: vec![0, 4, 4, 2, 1],
            max_repairs: 200,
            keep: None,
        }
    }
}

impl FamilyParams {
    pub fn size(&self) -> usize {
        self.boxes.map_or(self.jigsaw_size, |(r, c)| r * c)
    }

    /// A killer without givens: no given to remove, so no clue removal to steer or stage.
    pub fn without_givens(&self) -> bool {
        self.killer && !self.givens
    }

    /// The cage size weights that fit the board (sizes 1 to n).
    pub fn cage_weights(&self) -> &[u32] {
        &self.cage_sizes[..self.cage_sizes.len().min(self.size())]
    }

    /// Check the parameters; the error names the flag or key.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.size();
        match self.boxes {
            Some((r, c)) if !(4..=shape::MAX_N).contains(&n) || r == 0 || c == 0 => {
                return Err(format!("--box {r}x{c} makes {n} symbols: 4 to {} are possible", shape::MAX_N))
            }
            // A box one cell tall or wide is a row or a column: the board is a Latin square.
            Some((r, c)) if r < 2 || c < 2 => {
                return Err(format!(
                    "--box {r}x{c}: a box needs at least 2 rows and 2 columns (one row or column as a box makes a \
                     Latin square, not a Sudoku); boxes go from 2x2 to 5x5"
                ))
            }
            None if !(4..=16).contains(&n) => return Err(format!("--jigsaw --size {n}: jigsaw sizes are 4 to 16")),
            _ => {}
        }
        if self.killer && n > 16 {
            return Err(format!("--killer on {n} symbols: killer boards go up to 16"));
        }
        // Sizes above n are left out (`cage_weights`), so one list serves every board.
        if self.killer && (self.cage_sizes.len() < 2 || self.cage_weights().iter().all(|&w| w == 0)) {
            return Err(format!("[generate] cage_sizes: at least 2 weights, not all 0 for sizes up to {n}"));
        }
        Ok(())
    }
}

/// The family as a kind: `--kind sudoku` with `--box`, `--jigsaw`, `--diagonals` or `--killer`
/// (or an input line that is not classic 9×9) comes here; plain `--kind sudoku` stays on the
/// classic kind, whose output is unchanged.
pub struct Family;

impl Kind for Family {
    const KEY: &'static str = "sudoku-family";
    const TITLE: &'static str = "the Sudoku family";
    const NAME: &'static str = "sudoku";
    const DEFAULT_CONFIG: &'static str = include_str!("../../config/sudoku-family.toml");
    const TECHNIQUE_PUZZLES: &'static str = include_str!("../../fixtures/family-techniques.txt");
    type Puzzle = FamilyPuzzle;
    type Solution = Vec<u8>;
    type Tech = techniques::Tech;
    type Params = FamilyParams;

    fn flags() -> Vec<Flag> {
        vec![
            Flag {
                id: "box",
                value_name: "RxC",
                help: "Sudoku family: boxes R rows tall and C wide (n = R·C symbols, 4 to 25), e.g. 2x3, 4x4",
                takes: Takes::Text { check: notation::box_value },
            },
            Flag::switch("jigsaw", "Sudoku family: irregular regions instead of boxes (with --size N, 4 to 16)"),
            Flag::switch("diagonals", "Sudoku family: X, both long diagonals hold every digit"),
            Flag::switch("killer", "Sudoku family: killer cages with sums, no givens unless --givens"),
            Flag::switch("givens", "Sudoku family, killer: give digits as well as cages"),
            // Shared with KenKen and classic Sudoku (same ids, same values).
            Flag::number("size", "N", u8::MAX as u64, ""),
            Flag { id: "symmetry", value_name: "SYMMETRY", help: "", takes: Takes::Choice(&Symmetry::NAMES) },
        ]
    }

    fn apply_flags(params: &mut FamilyParams, given: &FlagValues) -> Result<(), String> {
        let flag = |id: &str| given.switch(id);
        if let Some(b) = given.text("box") {
            params.boxes = Some(notation::parse_box(b).map_err(|e| format!("--box {e}"))?);
        }
        let size = given.number("size");
        if flag("jigsaw") {
            params.boxes = None;
            params.jigsaw_size = size.map_or(9, |n| n as usize);
        } else if let Some(n) = size {
            let n = n as usize;
            if !(4..=shape::MAX_N).contains(&n) {
                return Err(format!("--size {n}: the Sudoku family has 4 to {} symbols", shape::MAX_N));
            }
            match params.boxes {
                Some((r, c)) if r * c != n => return Err(format!("--size {n} does not match --box {r}x{c}")),
                Some(_) => {}
                None => params.boxes = Some(shape::default_box(n)),
            }
        }
        params.diagonals |= flag("diagonals");
        params.killer |= flag("killer");
        params.givens |= flag("givens");
        if let Some(s) = given.text("symmetry") {
            params.symmetry = Symmetry::from_name(s).ok_or_else(|| format!("--symmetry {s}: unknown"))?;
        }
        params.validate()
    }

    fn params_key(p: &FamilyParams) -> String {
        format!(
            "family;box={:?};n={};diag={};killer={};givens={};sym={};cages={:?};repairs={}",
            p.boxes,
            p.size(),
            p.diagonals,
            p.killer,
            p.givens,
            p.symmetry.name(),
            p.cage_sizes,
            p.max_repairs
        )
    }

    /// Quota steering. Levels 1 and 2 by the givens' symmetry, as for classic Sudoku
    /// (`sudoku::steer`): level 1 removes givens with no symmetry (fewer stay: more hard and
    /// expert puzzles), level 2 four at a time under the quarter turn (more stay: more easy
    /// ones). Levels 3 on keep the puzzle solvable by propagation alone, with at least a share
    /// of the cells given (`steer::keep_share`, by the board's size): on large boards, where
    /// removing givens while the solution stays unique leaves almost only expert puzzles, they
    /// make the other grades.
    /// Killers without givens have no givens to steer by: their levels choose the cage layout
    /// instead, with smaller cages for easier puzzles (`steer::CAGES`).
    const STEER_LEVELS: u8 = super::steer::LEVELS + super::steer::KEEP.len() as u8;
    fn steer_levels(params: &FamilyParams) -> u8 {
        if params.without_givens() {
            super::steer::CAGES.len() as u8
        } else {
            Self::STEER_LEVELS
        }
    }
    fn steer(params: &FamilyParams, level: u8) -> FamilyParams {
        if params.without_givens() {
            return match level.checked_sub(1) {
                Some(k) => FamilyParams { cage_sizes: super::steer::CAGES[k as usize].to_vec(), ..params.clone() },
                None => params.clone(),
            };
        }
        match level.checked_sub(super::steer::LEVELS + 1) {
            Some(k) => {
                FamilyParams { keep: Some(super::steer::keep_share(params.size(), k as usize)), ..params.clone() }
            }
            None => FamilyParams { symmetry: super::steer::symmetry(params.symmetry, level), ..params.clone() },
        }
    }

    fn shape(p: &FamilyParams) -> String {
        shape::variant_name(p.size(), p.boxes, p.diagonals, p.killer)
    }

    fn generate(params: &FamilyParams, rng: &mut Xoshiro256PlusPlus) -> Result<Generated<Self>, Reject> {
        let (shape, givens, solution, repairs) = generate::generate(params, rng)?;
        Ok(Generated {
            puzzle: FamilyPuzzle { shape: Arc::new(shape), givens },
            solution,
            repairs,
            proven_unique: true,
        })
    }

    fn generate_within(
        params: &FamilyParams,
        rng: &mut Xoshiro256PlusPlus,
        stages: usize,
        solvable: pf_core::kind::Solvable<Self>,
    ) -> Option<Result<Generated<Self>, Reject>> {
        let test = |shape: &Arc<Shape>, givens: &[u8], solution: &[u8], stage: usize| {
            let puzzle = FamilyPuzzle { shape: shape.clone(), givens: givens.to_vec() };
            solvable(&puzzle, &solution.to_vec(), stage)
        };
        let made = generate::generate_within(params, rng, stages, &test)?;
        Some(made.map(|(shape, givens, solution)| Generated {
            puzzle: FamilyPuzzle { shape, givens },
            solution,
            repairs: 0,
            // A finished ladder is a chain of deductions: unique, but checked again like
            // classic Sudoku's steered puzzles.
            proven_unique: false,
        }))
    }

    fn solve(p: &FamilyPuzzle, limit: usize) -> Solved<Vec<u8>> {
        let c = techniques::count_solutions_deduced(&p.shape, &p.givens, limit);
        Solved { count: c.count, first: c.first, undecided: c.undecided }
    }

    fn rate(p: &FamilyPuzzle, solution: &Vec<u8>, trace: Option<&mut Trace>) -> Rated {
        let mut pos = position::Position::new(p.shape.clone(), &p.givens, solution);
        let rating = rate::rate_traced(&mut pos, trace);
        Rated { rating, solved: pos.is_solved(), unsound: pos.unsound }
    }

    fn parse(line: &str, params: &FamilyParams) -> Result<FamilyPuzzle, String> {
        let (shape, givens) = notation::parse(line, params.boxes)?;
        Ok(FamilyPuzzle { shape: Arc::new(shape), givens })
    }
    fn puzzle_text(p: &FamilyPuzzle) -> String {
        notation::to_text(&p.shape, &p.givens).unwrap_or_else(|| notation::to_json(&p.shape, &p.givens).to_string())
    }
    fn puzzle_json(p: &FamilyPuzzle) -> serde_json::Value {
        notation::to_json(&p.shape, &p.givens)
    }
    fn solution_text(s: &Vec<u8>) -> String {
        notation::solution_json(s).to_string()
    }
    fn solution_json(s: &Vec<u8>) -> serde_json::Value {
        notation::solution_json(s)
    }
    fn canonical(p: &FamilyPuzzle, s: &Vec<u8>) -> u128 {
        canonical::canonical_key(&p.shape, &p.givens, s)
    }
    fn symmetric(p: &FamilyPuzzle, s: &Vec<u8>, rng: &mut Xoshiro256PlusPlus) -> (FamilyPuzzle, Vec<u8>) {
        let (givens, solution) = canonical::symmetric(&p.shape, &p.givens, s, rng);
        (FamilyPuzzle { shape: p.shape.clone(), givens }, solution)
    }
    fn rules(p: &FamilyPuzzle) -> Rules {
        let s = &p.shape;
        let n = s.n;
        let mut groups = Vec::new();
        for i in 0..n {
            groups.push(Group::house((0..n).map(|j| i * n + j).collect()));
            groups.push(Group::house((0..n).map(|j| j * n + i).collect()));
            groups.push(Group::house((0..n * n).filter(|&c| s.regions[c] as usize == i).collect()));
        }
        if s.diagonals {
            groups.push(Group::house((0..n).map(|i| i * n + i).collect()));
            groups.push(Group::house((0..n).map(|i| i * n + n - 1 - i).collect()));
        }
        for cage in &s.cages {
            let cells = cage.cells.iter().map(|&c| c as usize).collect();
            groups.push(Group { cells, distinct: true, clue: Some((Op::Add, cage.sum)) });
        }
        Rules {
            width: n,
            cells: p.givens.iter().map(|&d| Some(d)).collect(),
            symbols: n as u8,
            groups,
            relations: Vec::new(),
        }
    }
    fn givens(p: &FamilyPuzzle) -> usize {
        p.givens.iter().filter(|&&d| d != 0).count()
    }
    /// Every size of `shape::Shape` (a prime size has no box but is read as a jigsaw).
    const TABLE_SIZES: Option<(usize, usize)> = Some((4, shape::MAX_N));
    const HAS_VARIANTS: bool = true;
    fn grade_key(of: Graded<'_, Self>) -> GradeKey {
        let (n, jigsaw, diagonals, killer) = match of {
            Graded::Run(p) => (p.size(), p.boxes.is_none(), p.diagonals, p.killer),
            Graded::Puzzle(p) => (p.shape.n, p.shape.boxes.is_none(), p.shape.diagonals, p.shape.is_killer()),
        };
        GradeKey { size: Some(n), variants: shape::grade_variants(n, jigsaw, diagonals, killer) }
    }
    fn draw(p: &FamilyPuzzle, digits: pf_core::draw::Digits) -> pf_core::draw::Drawing {
        draw::draw(&p.shape, &p.givens, digits)
    }
    fn extra_names() -> &'static [&'static str] {
        &["size", "variant", "cages", "solo_id"]
    }
    fn extra_values(p: &FamilyPuzzle, _s: &Vec<u8>) -> Vec<serde_json::Value> {
        vec![
            p.shape.n.into(),
            p.shape.name().into(),
            p.shape.cages.len().into(),
            solo_id::write(&p.shape, &p.givens).map_or(serde_json::Value::Null, Into::into),
        ]
    }
}
