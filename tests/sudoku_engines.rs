//! The two Sudoku engines against each other. Classic 9×9 has a fast engine of its own
//! (`kinds::sudoku`); the family's engine (`kinds::sudoku::family`) rates every board,
//! classic 9×9 included. Both describe one ladder. On the same puzzle they give the same
//! solution path, step by step (each step's technique, the digits it places and those it
//! removes), the same level tries (situations and successes), so the same step count and
//! technique counts, and the same hardest level and grade — with one difference, named here:
//!
//! **Trial.** Both engines try the candidates of the open cells with the fewest candidates, in
//! the same order, and count a candidate refuted when assuming it leads to a contradiction. Each
//! propagates the assumption with its own solver: classic 9×9 with its band tables and naked
//! singles (`sudoku::solve::Prober`), the family with naked and hidden singles
//! (`family::solve::Solver::assign`). One finds contradictions the other misses, so they can
//! refute different candidates: the trial step applied, its success count and everything after
//! it may differ. Only puzzles that need trial are touched, and trial (level 6) makes a puzzle
//! expert whatever its steps (the default level floor), so grades still agree.
//!
//! The suite compares top1465's first 60 puzzles and 100 generated ones in debug builds, and all
//! of top1465 and 1,000 generated in release builds; `PF_ENGINES_ALL=1` compares 10,000
//! generated puzzles (about 2 s in release).

use puzzle_factory::config;
use puzzle_factory::grade::Thresholds;
use puzzle_factory::kinds::sudoku::family::shape::Shape;
use puzzle_factory::kinds::sudoku::family::{techniques::Tech as FamilyTech, Family, FamilyPuzzle};
use puzzle_factory::kinds::sudoku::{techniques::Tech as ClassicTech, Sudoku, SudokuParams};
use puzzle_factory::kinds::{GradeKey, Kind, Rated};
use puzzle_factory::rate::{LogEntry, Technique, Trace};
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A path step: technique, the digits placed and those removed (`[row, column, digit]`).
type Move = (&'static str, Vec<[usize; 3]>, Vec<[usize; 3]>);

/// What a rating says, in terms both engines share.
#[derive(Debug, PartialEq)]
struct Said {
    steps: f64,
    hardest: u8,
    usage: BTreeMap<&'static str, u32>,
    path: Vec<Move>,
    /// Each level try: level, situations, successes.
    tries: Vec<(u8, u32, u32)>,
}

fn said<T: Technique>(rated: Rated, trace: Trace) -> Said {
    assert_eq!(rated.unsound, 0, "an unsound step");
    assert!(rated.solved, "the ladder did not finish");
    let names = T::ALL.iter().map(|t| t.name());
    Said {
        steps: rated.rating.steps,
        hardest: rated.rating.hardest_level,
        usage: names.zip(&rated.rating.usage).filter(|(_, &n)| n > 0).map(|(t, &n)| (t, n)).collect(),
        path: trace.path.unwrap().into_iter().map(|s| (s.technique, s.place, s.remove)).collect(),
        tries: trace.log.unwrap().iter().map(|e: &LogEntry| (e.level, e.situations, e.successes)).collect(),
    }
}

fn traced() -> Trace {
    Trace { log: Some(Vec::new()), path: Some(Vec::new()), ..Trace::default() }
}

/// Both engines' account of one puzzle with its solution: classic's, the family's.
fn both(puzzle: &[u8; 81], solution: &[u8; 81]) -> (Said, Said) {
    let mut tc = traced();
    let rc = Sudoku::rate(puzzle, solution, Some(&mut tc));
    let shape = Arc::new(Shape::new(9, Some((3, 3)), None, false, Vec::new()).unwrap());
    let fp = FamilyPuzzle { shape, givens: puzzle.to_vec() };
    let mut tf = traced();
    let rf = Family::rate(&fp, &solution.to_vec(), Some(&mut tf));
    (said::<ClassicTech>(rc, tc), said::<FamilyTech>(rf, tf))
}

/// Where two lists first differ (their common length when one is a prefix of the other).
fn parts<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y).or((a.len() != b.len()).then(|| a.len().min(b.len())))
}

/// Classic 9×9's built-in grading (config/sudoku.toml), read once.
fn thresholds() -> &'static Thresholds {
    static T: std::sync::OnceLock<Thresholds> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let cfg = config::load::<Sudoku>(None).unwrap();
        cfg.thresholds_for(&GradeKey::of_run::<Sudoku>(&cfg.params))
    })
}

/// How far the engines agree over a set of puzzles; `add` asserts what must always hold.
#[derive(Default, Debug)]
struct Agreement {
    puzzles: usize,
    /// Puzzles whose path needs trial (in either engine).
    trial: usize,
    path: usize,
    steps: usize,
    usage: usize,
    grade: usize,
}

impl Agreement {
    fn add(&mut self, puzzle: &str, c: &Said, f: &Said) {
        self.puzzles += 1;
        let trial = |s: &Said| s.path.iter().any(|p| p.0 == "trial");
        self.trial += usize::from(trial(c) || trial(f));
        self.path += usize::from(c.path == f.path);
        self.steps += usize::from(c.steps == f.steps);
        self.usage += usize::from(c.usage == f.usage);
        let t = thresholds();
        self.grade += usize::from(t.grade(c.steps, c.hardest) == t.grade(f.steps, f.hardest));
        assert_eq!(c.hardest, f.hardest, "{puzzle}: hardest level");
        // Every step up to the first trial is the same, and so is every level try before the
        // first try of trial.
        if let Some(at) = parts(&c.path, &f.path) {
            let (x, y) = (c.path.get(at), f.path.get(at));
            assert!(
                x.is_some_and(|s| s.0 == "trial") && y.is_some_and(|s| s.0 == "trial"),
                "{puzzle}: the paths part at step {at} before any trial: {x:?} / {y:?}"
            );
        }
        if let Some(at) = parts(&c.tries, &f.tries) {
            let first_trial = c.tries.iter().position(|t| t.0 == 6);
            assert!(
                first_trial.is_some_and(|t| t <= at),
                "{puzzle}: level try {at} differs before any trial: {:?} / {:?}",
                c.tries.get(at),
                f.tries.get(at)
            );
        } else {
            // The same tries make the same step count, to the last bit.
            assert_eq!(c.steps, f.steps, "{puzzle}");
        }
        if !trial(c) && !trial(f) {
            assert_eq!(c, f, "{puzzle}: no trial, yet the accounts differ");
        }
    }

    fn report(&self, what: &str) {
        let pct = |n: usize| format!("{:.2} %", 100.0 * n as f64 / self.puzzles.max(1) as f64);
        eprintln!(
            "{what}: {} puzzles, {} of them needing trial; same path {}, same steps {}, same technique counts {}, \
             same grade {}, same hardest level 100 %",
            self.puzzles,
            self.trial,
            pct(self.path),
            pct(self.steps),
            pct(self.usage),
            pct(self.grade),
        );
    }
}

fn all() -> bool {
    std::env::var_os("PF_ENGINES_ALL").is_some()
}

#[test]
fn both_engines_rate_top1465_alike_but_for_trial() {
    let text = crate::common::read_data("sudoku/top1465.txt");
    let take = if all() || cfg!(not(debug_assertions)) { usize::MAX } else { 60 };
    let mut agree = Agreement::default();
    for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).take(take).enumerate() {
        let puzzle = Sudoku::parse(line, &Default::default()).unwrap();
        let solved = Sudoku::solve(&puzzle, 2);
        assert_eq!(solved.count, 1, "top1465 line {}", i + 1);
        let (c, f) = both(&puzzle, &solved.first.unwrap());
        agree.add(&format!("top1465 line {}", i + 1), &c, &f);
    }
    agree.report("top1465");
    // Every grade the same (trial puzzles are expert in both).
    assert_eq!(agree.grade, agree.puzzles);
}

#[test]
fn both_engines_rate_generated_puzzles_alike_but_for_trial() {
    let count = if all() {
        10_000
    } else if cfg!(debug_assertions) {
        100
    } else {
        1_000
    };
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(40);
    let params = SudokuParams::default();
    let mut agree = Agreement::default();
    while agree.puzzles < count {
        let Ok(g) = Sudoku::generate(&params, &mut rng) else { continue };
        let (c, f) = both(&g.puzzle, &g.solution);
        agree.add(&Sudoku::puzzle_text(&g.puzzle), &c, &f);
    }
    agree.report("generated");
    assert_eq!(agree.grade, agree.puzzles);
}
