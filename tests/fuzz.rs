//! Fuzzing every parser (SPEC "Bad input": no input makes the program panic): the Sudoku text
//! line, KenKen JSON and Keen game IDs, Kakuro JSON and MiniZinc `.dzn`, the calibrate
//! reference line split, and the config TOML. Each parser gets arbitrary strings, arbitrary
//! bytes read as lossy UTF-8, and mutations of valid inputs (characters flipped, inserted and
//! deleted, numbers set to extremes, slices repeated into huge arrays, JSON nodes replaced).
//! Every input must return Ok or Err within a time bound, and a puzzle that parses is solved
//! too (count limit 2; only small KenKen and Kakuro, so each solve stays fast).
//!
//! `FUZZ_CASES` sets the inputs per parser (default 5000); `FUZZ_SEED` picks another input
//! stream (default: a fixed one). `scripts/fuzz.sh` runs a million per parser. Each parser's
//! figures are printed as `fuzz <parser>: <inputs> inputs, <panics> panics, slowest <ms> ms`.

use crate::common;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use puzzle_factory::commands::calibrate::reference_fields;
use puzzle_factory::config;
use puzzle_factory::kinds::kakuro::{notation as kakuro_notation, KakuroKind};
use puzzle_factory::kinds::kenken::{notation as kenken_notation, KenKenKind};
use puzzle_factory::kinds::sudoku::Sudoku;
use puzzle_factory::kinds::Kind;
use rand::SeedableRng;
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// The longest one input may take, parse and solve together (debug builds are slower).
const TIME_BOUND: Duration = Duration::from_secs(if cfg!(debug_assertions) { 20 } else { 5 });

fn cases() -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(5000)
}

thread_local! {
    /// Set while a fuzz input runs: its panics are counted, not printed.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Install (once) a panic hook that stays silent on fuzzing threads and prints elsewhere.
fn quiet_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.get() {
                default(info)
            }
        }));
    });
}

/// Interesting characters for mutations: the syntax of every format here, and some that are not.
const ALPHABET: &[&str] = &[
    "{", "}", "[", "]", "\"", ":", ",", "0", "1", "9", "-", ".", "#", "\\", "/", "+", "*", "=", "?", "a", "z", "m",
    "d", "s", "_", "x", "\t", " ", "\n", "|", ";", "%", "e", "é", "\u{0}", "\u{feff}", "😀", "A", "Z",
];

/// Extreme replacements for a number.
const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "1",
    "255",
    "256",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "1e300",
    "-1e300",
    "1.5",
    "-0",
    "NaN",
    "null",
    "\"\"",
    "[]",
];

/// One edit: (what, where, a number for its payload).
type Edit = (u8, usize, u32);

fn char_floor(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Apply edits to a valid input.
fn mutate(seed: &str, edits: &[Edit]) -> String {
    let mut s = seed.to_string();
    for &(what, at, x) in edits {
        let at = char_floor(&s, if s.is_empty() { 0 } else { at % (s.len() + 1) });
        let pick = |xs: &[&'static str]| xs[x as usize % xs.len()];
        match what % 10 {
            0 => {
                // Replace one character.
                let end = char_floor(&s, at + s[at..].chars().next().map_or(0, char::len_utf8));
                s.replace_range(at..end, pick(ALPHABET));
            }
            1 => s.insert_str(at, pick(ALPHABET)),
            2 => {
                let end = char_floor(&s, at + (x as usize % 12));
                s.replace_range(at..end, "");
            }
            3 => {
                // The number at or after `at` becomes an extreme.
                let Some(start) = s[at..].find(|c: char| c.is_ascii_digit()).map(|i| at + i) else { continue };
                let len = s[start..].find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len() - start);
                s.replace_range(start..start + len, pick(EXTREMES));
            }
            4 => {
                // Repeat a slice many times (huge arrays, long runs).
                let end = char_floor(&s, at + 1 + (x as usize % 40));
                let piece = s[at..end].to_string();
                let times = 1 + (x as usize / 40) % 300;
                s.insert_str(end, &piece.repeat(times));
            }
            5 => s.truncate(at),
            6 | 8 | 9 => s = json_edit(&s, at, x),
            _ => {
                // Swap two characters.
                let chars: Vec<char> = s.chars().collect();
                if chars.len() > 1 {
                    let (i, j) = (at % chars.len(), x as usize % chars.len());
                    let mut c = chars;
                    c.swap(i, j);
                    s = c.into_iter().collect();
                }
            }
        }
    }
    s
}

/// The digit at `at` (counting digits only) becomes `x % 10`.
fn digit_edit(s: &str, at: usize, x: u32) -> String {
    let digits = s.bytes().filter(u8::is_ascii_digit).count();
    if digits == 0 {
        return s.to_string();
    }
    let k = at % digits;
    let i = s.bytes().enumerate().filter(|(_, b)| b.is_ascii_digit()).nth(k).map_or(0, |(i, _)| i);
    let mut out = s.to_string();
    out.replace_range(i..i + 1, &(x % 10).to_string());
    out
}

/// Replace one node of a JSON text (chosen by `at`) with an odd value; other text as is.
fn json_edit(s: &str, at: usize, x: u32) -> String {
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(s) else { return s.to_string() };
    fn count(v: &serde_json::Value) -> usize {
        1 + match v {
            serde_json::Value::Array(a) => a.iter().map(count).sum(),
            serde_json::Value::Object(o) => o.values().map(count).sum(),
            _ => 0,
        }
    }
    fn nth<'a>(v: &'a mut serde_json::Value, k: &mut usize) -> Option<&'a mut serde_json::Value> {
        if *k == 0 {
            return Some(v);
        }
        *k -= 1;
        match v {
            serde_json::Value::Array(a) => a.iter_mut().find_map(|c| nth(c, k)),
            serde_json::Value::Object(o) => o.values_mut().find_map(|c| nth(c, k)),
            _ => None,
        }
    }
    let mut k = at % count(&v);
    const TOKENS: &[&str] = &[".", "#", "\\5", "3\\", "17\\24", "45\\45", "46\\", "+", "-", "*", "/", "=", "?"];
    let replacement: serde_json::Value = match x % 20 {
        0 => 0.into(),
        1 => (-1).into(),
        2 => (1u64 << 32).into(),
        3 => 1e300.into(),
        4 => u64::MAX.into(),
        5 => serde_json::Value::Null,
        6 => serde_json::json!([]),
        7 => serde_json::json!({}),
        8 => "#".into(),
        9 => serde_json::Value::Array(vec![1.into(); 20_000]),
        10 => serde_json::json!([[0, 0], [0, 1]]),
        // Mostly small numbers: a target or sum changed, the puzzle otherwise still valid.
        16..=18 => TOKENS[(x / 20) as usize % TOKENS.len()].into(),
        _ => (x as u64 / 20 % 40).into(),
    };
    if let Some(node) = nth(&mut v, &mut k) {
        *node = replacement;
    }
    v.to_string()
}

/// Run `check` on `cases()` inputs for one parser: a quarter each of arbitrary strings,
/// arbitrary bytes as lossy UTF-8, one-edit mutations of `seeds` and several-edit mutations. Prints the figures; fails on any
/// panic (listing the first inputs) or an input over `TIME_BOUND`.
fn fuzz(name: &str, seeds: &[String], check: impl Fn(&str) -> bool) {
    quiet_panics();
    let total = cases();
    let seed = std::env::var("FUZZ_SEED").ok().and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..8 + name.len().min(24)].copy_from_slice(&name.as_bytes()[..name.len().min(24)]);
    let mut runner = TestRunner::new_with_rng(
        Config { cases: 1, ..Config::default() },
        TestRng::from_seed(RngAlgorithm::ChaCha, &key),
    );
    let (mut inputs, mut parsed, mut panics, mut slowest) = (0u64, 0u64, Vec::<String>::new(), Duration::ZERO);
    let mut one = |input: String| {
        let start = Instant::now();
        QUIET.set(true);
        let r = catch_unwind(AssertUnwindSafe(|| check(&input)));
        QUIET.set(false);
        let took = start.elapsed();
        if took > slowest {
            slowest = took;
        }
        if took > TIME_BOUND {
            panics.push(format!("(took {took:?}) {}", input.chars().take(300).collect::<String>()));
        }
        match r {
            Ok(ok) => parsed += ok as u64,
            Err(_) => panics.push(input.chars().take(2000).collect()),
        }
        inputs += 1;
    };
    let strings = proptest::collection::vec(any::<char>(), 0..300).prop_map(|c| c.into_iter().collect::<String>());
    let bytes = proptest::collection::vec(any::<u8>(), 0..300).prop_map(|b| String::from_utf8_lossy(&b).into_owned());
    let edits = (0..seeds.len(), proptest::collection::vec((any::<u8>(), any::<usize>(), any::<u32>()), 1..4));
    let mutated = edits.prop_map(|(i, e)| mutate(&seeds[i], &e));
    // One digit changed or one JSON node replaced (else one edit), so many inputs stay nearly
    // valid and reach the solver: a sum, a target, a given changed.
    let light = (0..seeds.len(), any::<usize>(), any::<u32>()).prop_map(|(i, at, x)| {
        let edited = if x % 2 == 0 { digit_edit(&seeds[i], at, x / 2) } else { json_edit(&seeds[i], at, x / 2) };
        if edited == seeds[i] {
            mutate(&seeds[i], &[(x as u8, at, x / 7)])
        } else {
            edited
        }
    });
    for i in 0..total {
        let value = match i % 4 {
            0 => strings.new_tree(&mut runner).unwrap().current(),
            1 => bytes.new_tree(&mut runner).unwrap().current(),
            2 => light.new_tree(&mut runner).unwrap().current(),
            _ => mutated.new_tree(&mut runner).unwrap().current(),
        };
        one(value);
    }
    println!(
        "fuzz {name}: {inputs} inputs, {} panics, slowest {} ms, {parsed} parsed",
        panics.len(),
        slowest.as_millis()
    );
    assert!(
        panics.is_empty(),
        "{name}: {} panics or slow inputs, first: {:#?}",
        panics.len(),
        &panics[..panics.len().min(5)]
    );
}

/// Valid puzzles of kind `K` from its generator, as `text` writes them.
fn generated<K: Kind>(params: &K::Params, count: usize, text: impl Fn(&K::Puzzle) -> Option<String>) -> Vec<String> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
    let mut out = Vec::new();
    for _ in 0..count * 4 {
        if let Ok(g) = K::generate(params, &mut rng) {
            out.extend(text(&g.puzzle));
        }
        if out.len() == count {
            break;
        }
    }
    assert!(!out.is_empty());
    out
}

/// Parse with `K::parse`; a puzzle that parses and passes `small` is solved to 2. True when
/// it parsed.
fn parse_and_solve<K: Kind>(line: &str, small: impl Fn(&K::Puzzle) -> bool) -> bool {
    let parsed = K::parse(line, &Default::default());
    if let Ok(p) = &parsed {
        if small(p) {
            let s = K::solve(p, 2);
            assert!(s.count <= 2);
            if let Some(first) = &s.first {
                let _ = K::solution_text(first);
            }
        }
    }
    parsed.is_ok()
}

fn kenken_small(p: &puzzle_factory::kinds::kenken::KenKen) -> bool {
    p.size <= 6
}

fn kakuro_small(p: &puzzle_factory::kinds::kakuro::Kakuro) -> bool {
    p.cells.iter().filter(|c| **c == puzzle_factory::kinds::kakuro::Cell::White).count() <= 40
}

#[test]
fn fuzz_sudoku_text_line() {
    let mut seeds = generated::<Sudoku>(&Default::default(), 6, |p| Some(Sudoku::puzzle_text(p)));
    seeds.push(format!("{},hard,3.4", seeds[0]));
    seeds.push(".".repeat(81));
    seeds.push("1".repeat(81));
    fuzz("sudoku", &seeds, |line| parse_and_solve::<Sudoku>(line, |_| true));
}

#[test]
fn fuzz_kenken_json() {
    let mut seeds = Vec::new();
    for size in [3u8, 4, 5] {
        let params = puzzle_factory::kinds::kenken::KenKenParams { size, ..Default::default() };
        seeds.extend(generated::<KenKenKind>(&params, 3, |p| Some(KenKenKind::puzzle_text(p))));
    }
    seeds.push(format!("{{\"id\":\"x\",\"puzzle\":{}}}", seeds[0]));
    seeds.push(r#"{"size":4,"cages":[{"op":"?","target":7,"cells":[[0,0],[0,1],[1,0],[1,1],[2,0],[2,1],[3,0],[3,1]]},{"op":"+","target":20,"cells":[[0,2],[0,3],[1,2],[1,3],[2,2],[2,3],[3,2],[3,3]]}]}"#.into());
    fuzz("kenken_json", &seeds, |line| parse_and_solve::<KenKenKind>(line, kenken_small));
}

#[test]
fn fuzz_keen_game_id() {
    let mut seeds = Vec::new();
    for size in [3u8, 4, 5, 6] {
        let params = puzzle_factory::kinds::kenken::KenKenParams { size, ..Default::default() };
        seeds.extend(generated::<KenKenKind>(&params, 3, kenken_notation::keen_id));
    }
    seeds.push("4:aa_aab_a_a_4b,d2s2m4m6a10a9".into());
    fuzz("keen_id", &seeds, |line| parse_and_solve::<KenKenKind>(line, kenken_small));
}

#[test]
fn fuzz_kakuro_json() {
    let mut seeds = Vec::new();
    for (rows, cols) in [(4u16, 4u16), (5, 5), (6, 7)] {
        let params = puzzle_factory::kinds::kakuro::KakuroParams { rows, cols, ..Default::default() };
        seeds.extend(generated::<KakuroKind>(&params, 3, |p| Some(KakuroKind::puzzle_text(p))));
    }
    seeds.push(format!("{{\"id\":\"x\",\"puzzle\":{}}}", seeds[0]));
    fuzz("kakuro_json", &seeds, |line| parse_and_solve::<KakuroKind>(line, kakuro_small));
}

#[test]
fn fuzz_kakuro_dzn() {
    let dir = common::data_dir().join("kakuro/minizinc-benchmarks");
    let mut seeds: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dzn"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    seeds.sort();
    // The record syntax of the same collection.
    seeds.push(
        "h = 3; w = 3; grid_data = [| 0,0,0 | 0,1,1 | 0,1,1 |]; \
         h_clue = [(row: 2, col: 1, len: 2, sum: 3), (row: 3, col: 1, len: 2, sum: 7)]; \
         v_clue = [(row: 1, col: 2, len: 2, sum: 4), (row: 1, col: 3, len: 2, sum: 6)];"
            .into(),
    );
    assert!(seeds.len() >= 4);
    fuzz("kakuro_dzn", &seeds, |text| {
        let parsed = kakuro_notation::from_dzn(text);
        if let Ok(p) = &parsed {
            if kakuro_small(p) {
                assert!(KakuroKind::solve(p, 2).count <= 2);
            }
        }
        parse_and_solve::<KakuroKind>(text, kakuro_small);
        parsed.is_ok()
    });
}

#[test]
fn fuzz_calibrate_reference_line() {
    let seeds: Vec<String> = [
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......,hard",
        "4:aa_aab_a_a_4b,d2s2m4m6a10a9\teasy\t12",
        "{\"size\":4,\"cages\":[]}\tmedium",
        "{\"size\":4,\"cages\":[]}",
        "puzzle,label,extra,fields",
        "\t\t",
    ]
    .map(String::from)
    .to_vec();
    fuzz("calibrate_split", &seeds, |line| {
        let t = line.trim();
        let (puzzle, label) = reference_fields(t);
        // The fields are parts of the line; a puzzle that parses is solved as calibrate would.
        assert!(puzzle.len() <= t.len() && (label.len() <= t.len() || label == "sample"));
        parse_and_solve::<Sudoku>(puzzle, |_| true) | parse_and_solve::<KenKenKind>(puzzle, kenken_small)
    });
}

/// Load `text` as a `--config` file for kind `K`, apply the (absent) kind flags and check the
/// keys' effect, as `generate` does before it runs.
fn load_config<K: Kind>(path: &std::path::Path) -> bool {
    let Ok(mut cfg) = config::load::<K>(Some(path)) else { return false };
    let key = puzzle_factory::kinds::GradeKey::of_run::<K>(&cfg.params);
    let _ = cfg.thresholds_for(&key).grade(100.0, 2);
    let _ = cfg.check_effect(&key, K::HAS_VARIANTS, "fuzz");
    K::apply_flags(&mut cfg.params, &puzzle_factory::kinds::FlagValues::default()).is_ok()
}

#[test]
fn fuzz_config_toml() {
    // The kinds' built-in configs (each in its crate's config/).
    let mut seeds: Vec<String> =
        [Sudoku::DEFAULT_CONFIG, KenKenKind::DEFAULT_CONFIG, KakuroKind::DEFAULT_CONFIG].map(String::from).to_vec();
    seeds.extend(
        [
            "[grades]\nk1 = 1.0\nk2 = 2.0\nk3 = 3.0\nlevel_floor = [0, 4, 6]\n",
            "[grades.size.9]\nk1 = 1.0\nk2 = 2.0\nk3 = 3.0\n",
            "[generate]\nsize = 9\nmax_cage = 4\nrows = 12\ncols = 12\nmax_run = 9\n",
            "[run]\nchunk = 64\n",
        ]
        .map(String::from),
    );
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("fuzz.toml");
    fuzz("config_toml", &seeds, |text| {
        std::fs::write(&path, text).unwrap();
        let _ = config::load_table(Sudoku::DEFAULT_CONFIG, Some(&path));
        load_config::<Sudoku>(&path) | load_config::<KenKenKind>(&path) | load_config::<KakuroKind>(&path)
    });
}
