//! KenKen (N×N, N from 3 to 9; up to 12 accepted): a random Latin square from the
//! Jacobson–Matthews chain, cages grown from random free cells, operations chosen from the
//! most demanding that fits, and uniqueness guaranteed by the counter with cage repair.
//!
//! Rule: a kind crate depends on the core only (`pf_core`), never on another kind, the engine
//! or the binary. Its built-in configuration is `config/` in this crate (`Kind::DEFAULT_CONFIG`).

#![allow(clippy::needless_range_loop)]

pub(crate) mod canonical;
pub(crate) mod draw;
pub mod generate;
pub mod notation;
pub mod solve;
pub(crate) mod steer;
pub(crate) mod techniques;

use pf_core::common::cage::Op;
use pf_core::kind::{Flag, FlagValues, Generated, GradeKey, Graded, Kind, Rated, Reject, Solved};
use pf_core::rate::{self, Trace};
use pf_core::rules::{Group, Rules};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// One cage: an operation, its target and its cells (row-major indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    pub op: Op,
    pub target: u32,
    pub cells: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KenKen {
    pub size: u8,
    pub cages: Vec<Cage>,
}

/// A solution: row-major digits.
pub type Grid = Vec<u8>;

impl KenKen {
    /// Check the structure: size, every cell in exactly one cage, cages connected, operation
    /// arity, targets the operation can reach. Any cage length is accepted (the solver holds it).
    pub fn validate(&self) -> Result<(), String> {
        let n = self.size as usize;
        if !(1..=12).contains(&n) {
            return Err(format!("size must be 1 to 12, got {n}"));
        }
        let mut seen = vec![false; n * n];
        for (i, cage) in self.cages.iter().enumerate() {
            if cage.cells.is_empty() {
                return Err(format!("cage {} has no cells", i + 1));
            }
            for &c in &cage.cells {
                let c = c as usize;
                if c >= n * n {
                    return Err(format!("cage {} has a cell outside the {n}×{n} grid", i + 1));
                }
                if std::mem::replace(&mut seen[c], true) {
                    return Err(format!("cell [{}, {}] lies in two cages", c / n, c % n));
                }
            }
            check_cage(cage, n).map_err(|e| format!("cage {}: {e}", i + 1))?;
        }
        if let Some(c) = seen.iter().position(|&s| !s) {
            return Err(format!("cell [{}, {}] lies in no cage", c / n, c % n));
        }
        Ok(())
    }
}

/// One cage's own rules: its operation's arity, a target the operation can reach with digits
/// 1..=n (a necessary condition only: never refuses a cage some fill meets), connected cells.
fn check_cage(cage: &Cage, n: usize) -> Result<(), String> {
    let (k, t, sym) = (cage.cells.len(), cage.target as u64, cage.op.symbol());
    let n64 = n as u64;
    // The largest product of k digits up to n, saturating.
    let max_product = (0..k).fold(1u64, |p, _| p.saturating_mul(n64));
    let reachable = match cage.op {
        Op::Sub | Op::Div if k != 2 => return Err(format!("uses '{sym}' on {k} cells (needs 2)")),
        Op::Given if k != 1 => return Err(format!("uses '=' on {k} cells (needs 1)")),
        Op::Given => (1..=n64).contains(&t),
        Op::Sub => (1..n64).contains(&t),
        Op::Div => (2..=n64).contains(&t),
        Op::Add => (k as u64..=k as u64 * n64).contains(&t),
        // Every prime factor of a product of digits is at most n.
        Op::Mul => (1..=max_product).contains(&t) && (2..=n64).fold(t, strip) == 1,
        Op::Any => (1..=max_product.max(k as u64 * n64)).contains(&t),
    };
    if !reachable {
        return Err(format!("target {t} cannot be made with '{sym}' on {k} cell(s) of digits 1 to {n}"));
    }
    // Connected: every cell reached from the first through neighbours in the cage.
    let mut inside = vec![false; n * n];
    cage.cells.iter().for_each(|&c| inside[c as usize] = true);
    let mut reached = vec![cage.cells[0] as usize];
    inside[reached[0]] = false;
    let mut i = 0;
    while i < reached.len() {
        let c = reached[i];
        let (r, col) = (c / n, c % n);
        let near = [
            (r > 0).then(|| c - n),
            (r + 1 < n).then(|| c + n),
            (col > 0).then(|| c - 1),
            (col + 1 < n).then(|| c + 1),
        ];
        for o in near.into_iter().flatten() {
            if std::mem::replace(&mut inside[o], false) {
                reached.push(o);
            }
        }
        i += 1;
    }
    if reached.len() < k {
        let c = inside.iter().position(|&x| x).unwrap_or(0);
        return Err(format!("its cells are not connected (cell [{}, {}] is apart)", c / n, c % n));
    }
    Ok(())
}

/// `x` with every factor `p` divided out.
fn strip(mut x: u64, p: u64) -> u64 {
    while x > 0 && x.is_multiple_of(p) {
        x /= p;
    }
    x
}

/// KenKen generation parameters (config `[generate]`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct KenKenParams {
    pub size: u8,
    pub max_cage: u8,
    pub cage_weights: Vec<f64>,
    pub one_cell_share: f64,
    pub ops: String,
    pub product_cap: u32,
    pub prefer_demanding: f64,
    pub directions: String,
    pub max_repairs: u32,
    /// Steering only (`steer.rs`), never configured: after the repair loop, make the puzzle
    /// harder until its uniqueness search takes this many nodes at 6×6 (scaled with the size,
    /// `generate::aim_nodes`); 0 = off.
    #[serde(skip)]
    pub aim: u32,
}

impl KenKenParams {
    /// The largest cage: `max_cage`, or about N/2+1 when it is 0.
    pub(crate) fn max_cage(&self) -> usize {
        if self.max_cage == 0 {
            self.size as usize / 2 + 1
        } else {
            self.max_cage as usize
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        if !(3..=12).contains(&self.size) {
            return Err(format!("[generate] size must be 3 to 12, got {}", self.size));
        }
        if self.max_cage == 1 || self.max_cage as usize > (self.size as usize).pow(2) {
            return Err(format!("[generate] max_cage must be 0 (auto) or 2 to size², got {}", self.max_cage));
        }
        if self.cage_weights.is_empty()
            || self.cage_weights.iter().any(|w| !(w.is_finite() && *w >= 0.0))
            || self.cage_weights.iter().sum::<f64>() <= 0.0
        {
            return Err("[generate] cage_weights must be non-negative numbers, not all zero".into());
        }
        if !(0.0..=1.0).contains(&self.one_cell_share) || !(0.0..=1.0).contains(&self.prefer_demanding) {
            return Err("[generate] one_cell_share and prefer_demanding must be between 0 and 1".into());
        }
        if self.ops.is_empty() || !self.ops.chars().all(|c| "+-*/".contains(c)) {
            return Err(format!("[generate] ops must be made of + - * /, got {:?}", self.ops));
        }
        if self.product_cap == 0 {
            return Err("[generate] product_cap must be 1 or more, got 0".into());
        }
        if !self.ops.contains(['+', '*']) {
            return Err(format!("[generate] ops {:?} needs + or * (cages of 3+ cells)", self.ops));
        }
        let mut dirs: Vec<char> = self.directions.chars().collect();
        dirs.sort_unstable();
        if dirs != ['d', 'l', 'r', 'u'] && self.directions != "random" {
            return Err(format!(
                "[generate] directions must be an order of r, d, l, u or \"random\", got {:?}",
                self.directions
            ));
        }
        Ok(())
    }
}

impl Default for KenKenParams {
    fn default() -> Self {
        KenKenParams {
            size: 6,
            max_cage: 0,
            cage_weights: vec![45.0, 35.0, 15.0, 5.0],
            one_cell_share: 0.05,
            ops: "+-*/".into(),
            product_cap: 3000,
            prefer_demanding: 0.9,
            directions: "rdlu".into(),
            max_repairs: 30,
            aim: 0,
        }
    }
}

pub struct KenKenKind;

impl Kind for KenKenKind {
    const TITLE: &'static str = "KenKen";
    const NAME: &'static str = "kenken";
    const DEFAULT_CONFIG: &'static str = include_str!("../config/kenken.toml");
    const TECHNIQUE_PUZZLES: &'static str = include_str!("../fixtures/techniques.txt");
    type Puzzle = KenKen;
    type Solution = Grid;
    type Tech = techniques::Tech;
    type Params = KenKenParams;

    fn flags() -> Vec<Flag> {
        vec![Flag::number(
            "size",
            "N",
            u8::MAX as u64,
            "Grid size N×N (KenKen, 3 to 12; Sudoku family, jigsaw 4 to 16), overriding [generate] size",
        )]
    }

    fn apply_flags(params: &mut KenKenParams, given: &FlagValues) -> Result<(), String> {
        if let Some(s) = given.number("size") {
            if !(3..=12).contains(&s) {
                return Err(format!("--size must be 3 to 12 for --kind kenken, got {s}"));
            }
            params.size = s as u8;
        }
        params.validate()
    }

    fn shape(p: &KenKenParams) -> String {
        p.size.to_string()
    }

    fn params_key(p: &KenKenParams) -> String {
        format!(
            "size={};max_cage={};weights={:?};one={};ops={};cap={};prefer={};dirs={}",
            p.size,
            p.max_cage,
            p.cage_weights,
            p.one_cell_share,
            p.ops,
            p.product_cap,
            p.prefer_demanding,
            p.directions
        )
    }

    fn generate(params: &KenKenParams, rng: &mut Xoshiro256PlusPlus) -> Result<Generated<Self>, Reject> {
        generate::generate(params, rng)
    }

    fn solve(puzzle: &KenKen, limit: usize) -> Solved<Grid> {
        let f = solve::count_within(puzzle, limit, solve::SOLVE_BUDGET, None);
        Solved { count: f.count, first: f.first, undecided: f.aborted }
    }

    fn rate(puzzle: &KenKen, solution: &Grid, trace: Option<&mut Trace>) -> Rated {
        let mut pos = techniques::Position::new(puzzle, solution);
        let rating = rate::rate_traced(&mut pos, trace);
        Rated { solved: pos.is_done(), unsound: pos.unsound, rating }
    }

    fn parse(line: &str, _params: &KenKenParams) -> Result<KenKen, String> {
        notation::parse(line)
    }
    fn puzzle_text(p: &KenKen) -> String {
        notation::to_json_text(p)
    }
    fn puzzle_json(p: &KenKen) -> serde_json::Value {
        notation::to_json(p)
    }
    fn puzzle_json_text(p: &KenKen) -> String {
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
    const STEER_LEVELS: u8 = steer::LEVELS;
    fn steer(params: &KenKenParams, level: u8) -> KenKenParams {
        steer::steer(params, level)
    }
    fn canonical(p: &Self::Puzzle, _s: &Self::Solution) -> u128 {
        canonical::canonical_key(p)
    }
    fn symmetric(p: &KenKen, s: &Grid, rng: &mut Xoshiro256PlusPlus) -> (KenKen, Grid) {
        canonical::symmetric(p, s, rng)
    }
    fn rules(p: &KenKen) -> Rules {
        let n = p.size as usize;
        let mut groups = Vec::new();
        for i in 0..n {
            groups.push(Group::house((0..n).map(|j| i * n + j).collect()));
            groups.push(Group::house((0..n).map(|j| j * n + i).collect()));
        }
        for cage in &p.cages {
            let cells = cage.cells.iter().map(|&c| c as usize).collect();
            groups.push(Group { cells, distinct: false, clue: Some((cage.op, cage.target)) });
        }
        Rules { width: n, cells: vec![Some(0); n * n], symbols: n as u8, groups, relations: Vec::new() }
    }
    fn givens(p: &KenKen) -> usize {
        p.cages.iter().filter(|c| c.op == Op::Given).count()
    }
    /// `notation` reads sizes 1 to 12 (generated: 3 to 12).
    const TABLE_SIZES: Option<(usize, usize)> = Some((1, 12));
    fn grade_key(of: Graded<'_, Self>) -> GradeKey {
        let size = match of {
            Graded::Run(p) => p.size,
            Graded::Puzzle(p) => p.size,
        };
        GradeKey { size: Some(size as usize), variants: Vec::new() }
    }
    fn draw(p: &KenKen, digits: pf_core::draw::Digits) -> pf_core::draw::Drawing {
        draw::draw(p, digits)
    }
    fn extra_names() -> &'static [&'static str] {
        &["size", "cages", "keen_id"]
    }
    fn extra_values(p: &KenKen, _s: &Grid) -> Vec<serde_json::Value> {
        vec![p.size.into(), p.cages.len().into(), notation::keen_id(p).map_or(serde_json::Value::Null, Into::into)]
    }
}
