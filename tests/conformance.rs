//! The conformance suite: what every registered kind must do, checked for each kind the
//! registry lists (`KindId::ALL`), with the kind's built-in settings. A kind gets these tests
//! by being registered; nothing here names a kind.
//!
//! Each kind generates puzzles from a fixed seed, and each puzzle must:
//! - have exactly one solution, the one generated, by the kind's own solver and by the simple
//!   solver of `rules`, which knows only the rules the kind writes out (`Kind::rules`);
//! - rate soundly to the end (no step removes a solution digit or places a wrong one), and the
//!   same twice; its path replays on the solution (every placed digit the solution's, no
//!   removed digit the solution's);
//! - keep its canonical key under the kind's symmetries (`Kind::symmetric`: three random
//!   copies each, every copy itself uniquely solved by the moved solution);
//! - survive its text form and its JSON form read back (`parse` of `puzzle_text` and of
//!   `puzzle_json`): the same text, the same givens, the same canonical key; and its JSON
//!   texts (`puzzle_json_text`, `solution_json_text`) be its JSON values, byte for byte;
//! - draw as well-formed SVG, with text when it has givens.
//!
//! And the same seed makes the same puzzles; the pipeline makes the same puzzles, grades and
//! rejections on 1 thread and on 2; and the parser, fed the puzzles' text and JSON forms
//! broken at random (bytes changed, cut, repeated), returns a value or an error, never panics,
//! and what it accepts prints and reads back the same.
//!
//! Each technique fires on a puzzle that needs it and not on one that does not: the kind lists,
//! for every technique T, puzzles that need it (`Kind::TECHNIQUE_PUZZLES`). On each, the other
//! techniques of T's level and the levels below (or, for a technique another of its level
//! subsumes, those before it in the ladder's order) must stall unsolved, with T switched off,
//! after the number of steps the line says: each of them is on there and must find nothing, so
//! one that fires where it must not changes the count. With T switched on, the ladder must
//! apply T, soundly, and solve the puzzle or place more digits. A technique a kind lists no
//! puzzle for fails the suite.

use puzzle_factory::config;
use puzzle_factory::kinds::{GradeKey, Kind, KindId, KindVisitor};
use puzzle_factory::pipeline::{self, Context};
use puzzle_factory::print::solution_digits;
use puzzle_factory::rate::{technique_named, PathStep, Technique, Trace};
use puzzle_factory::rules;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Puzzles per kind.
fn count() -> usize {
    if cfg!(debug_assertions) {
        4
    } else {
        64
    }
}

/// Broken lines per puzzle form.
fn fuzz_rounds() -> usize {
    if cfg!(debug_assertions) {
        20
    } else {
        200
    }
}

/// `line` broken at random: bytes replaced, removed, repeated or cut, kept as text.
fn broken(line: &str, rng: &mut impl Rng) -> String {
    let mut b = line.as_bytes().to_vec();
    const BYTES: &[u8] = b"0123456789.,:;{}[]\"+-*/x#ab \t\n\xff";
    for _ in 0..rng.gen_range(1..4) {
        if b.is_empty() {
            break;
        }
        let i = rng.gen_range(0..b.len());
        match rng.gen_range(0..4) {
            0 => b[i] = BYTES[rng.gen_range(0..BYTES.len())],
            1 => {
                b.remove(i);
            }
            2 => {
                let j = rng.gen_range(i..b.len().min(i + 8) + 1);
                let piece = b[i..j].to_vec();
                b.splice(i..i, piece);
            }
            _ => b.truncate(i),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

struct Conforms;

impl KindVisitor for Conforms {
    type Output = String;

    fn visit<K: Kind>(self) -> String {
        let name = K::KEY;
        let cfg = config::load::<K>(None).unwrap_or_else(|e| panic!("{name}: built-in config: {e}"));
        let made = |seed: u64| -> Vec<(K::Puzzle, K::Solution)> {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut out = Vec::new();
            let mut tries = 0;
            while out.len() < count() {
                tries += 1;
                assert!(tries < 100 * count(), "{name}: generation keeps failing");
                if let Ok(g) = K::generate(&cfg.params, &mut rng) {
                    out.push((g.puzzle, g.solution));
                }
            }
            out
        };
        let puzzles = made(40);
        let again = made(40);
        let texts = |v: &[(K::Puzzle, K::Solution)]| v.iter().map(|(p, _)| K::puzzle_text(p)).collect::<Vec<_>>();
        assert_eq!(texts(&puzzles), texts(&again), "{name}: the same seed made other puzzles");
        let mut steps = Vec::new();
        let mut sym_rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(43);
        for (p, s) in &puzzles {
            let text = K::puzzle_text(p);
            let solved = K::solve(p, 2);
            assert_eq!(solved.count, 1, "{name}: {text}: solutions");
            assert_eq!(solved.first.as_ref(), Some(s), "{name}: {text}: not the generated solution");
            let digits = solution_digits(&K::solution_json(s)).unwrap_or_else(|e| panic!("{name}: {text}: {e}"));
            let rules = K::rules(p);
            let simple = rules::count(&rules, 2);
            assert_eq!(simple.count, 1, "{name}: {text}: solutions by the simple solver");
            assert_eq!(simple.first.as_ref(), Some(&digits), "{name}: {text}: the simple solver's solution");

            let mut trace = Trace::with_path();
            let rated = K::rate(p, s, Some(&mut trace));
            assert_eq!(rated.unsound, 0, "{name}: {text}: an unsound step");
            assert!(rated.solved, "{name}: {text}: the rating did not finish");
            let path = trace.path.unwrap_or_default();
            assert!(!path.is_empty() || K::givens(p) > 0, "{name}: {text}: no path");
            let at = |[r, c, _]: [usize; 3]| digits[r * rules.width + c] as usize;
            for (i, step) in path.iter().enumerate() {
                for &pl in &step.place {
                    assert_eq!(at(pl), pl[2], "{name}: {text}: step {i} ({}) places a wrong digit", step.technique);
                }
                for &rm in &step.remove {
                    assert_ne!(at(rm), rm[2], "{name}: {text}: step {i} ({}) removes the solution's", step.technique);
                }
            }
            let twice = K::rate(p, s, None);
            assert_eq!(rated.rating.steps, twice.rating.steps, "{name}: {text}: rated twice, two step counts");
            steps.push(rated.rating.steps);

            let key = K::canonical(p, s);
            for _ in 0..3 {
                let (q, t) = K::symmetric(p, s, &mut sym_rng);
                let moved = K::solve(&q, 2);
                assert_eq!((moved.count, moved.first.as_ref()), (1, Some(&t)), "{name}: {text}: a symmetric copy");
                assert_eq!(K::canonical(&q, &t), key, "{name}: {text}: canonical key of {}", K::puzzle_text(&q));
            }
            // The JSON texts a book record holds are the JSON values, byte for byte.
            assert_eq!(K::puzzle_json_text(p), K::puzzle_json(p).to_string(), "{name}: {text}: puzzle JSON text");
            assert_eq!(K::solution_json_text(s), K::solution_json(s).to_string(), "{name}: {text}: solution JSON text");
            // A book record's `puzzle` field as the book reader takes it: a string as its text.
            let json = match K::puzzle_json(p) {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            for (form, line) in [("text", text.clone()), ("JSON", json)] {
                let back = K::parse(&line, &Default::default())
                    .unwrap_or_else(|e| panic!("{name}: its {form} form does not read back: {e}"));
                assert_eq!(K::puzzle_text(&back), text, "{name}: {form} form read back");
                assert_eq!(K::givens(&back), K::givens(p), "{name}: {form} form read back");
                assert_eq!(K::canonical(&back, s), key, "{name}: {text}: canonical key after the {form} form");
            }

            let drawing = K::draw(p, None);
            assert!(drawing.width > 0.0 && drawing.height > 0.0, "{name}: {text}: an empty drawing");
            let svg = format!("<svg xmlns=\"http://www.w3.org/2000/svg\">{}</svg>", drawing.body);
            let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {text}: drawing: {e}"));
            let texts = doc.descendants().filter(|n| n.has_tag_name("text")).count();
            assert!(texts >= K::givens(p).min(1), "{name}: {text}: givens but no text drawn");
        }
        steps.sort_by(f64::total_cmp);

        // 1 thread and 2: the same outcome for every candidate.
        let ctx = Context::<K>::new(7, cfg.params.clone(), cfg.thresholds_for(&GradeKey::of_run::<K>(&cfg.params)))
            .with_target(cfg.target);
        let outcomes = |threads: usize| -> Vec<String> {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                (0..count() as u64)
                    .into_par_iter()
                    .map(|i| match pipeline::process::<K>(&ctx, i, None).outcome {
                        Ok(a) => format!(
                            "{} {:?} {} {:032x}",
                            K::puzzle_text(&a.puzzle),
                            a.grade,
                            a.rating.steps,
                            a.canonical
                        ),
                        Err(r) => r.name().to_string(),
                    })
                    .collect()
            })
        };
        assert_eq!(outcomes(1), outcomes(2), "{name}: 1 thread and 2 made different puzzles");

        // The parser, fed broken lines.
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(41);
        let mut fuzzed = 0;
        for (p, _) in puzzles.iter().take(8) {
            for line in [K::puzzle_text(p), K::puzzle_json(p).to_string()] {
                for _ in 0..fuzz_rounds() {
                    let broken = broken(&line, &mut rng);
                    let got = std::panic::catch_unwind(|| K::parse(&broken, &Default::default()));
                    let Ok(got) = got else { panic!("{name}: parse panicked on {broken:?}") };
                    if let Ok(q) = got {
                        let text = K::puzzle_text(&q);
                        let back = K::parse(&text, &Default::default())
                            .unwrap_or_else(|e| panic!("{name}: {broken:?} read, but its text {text:?} does not: {e}"));
                        assert_eq!(K::puzzle_text(&back), text, "{name}: {broken:?}: text read back");
                    }
                    fuzzed += 1;
                }
            }
        }
        format!("{name}: {} puzzles, median steps {:.1}, {fuzzed} broken lines", puzzles.len(), steps[steps.len() / 2])
    }
}

/// Which techniques a technique puzzle is solved with besides the one it needs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Others {
    /// Every other technique of its level and the levels below (`level`).
    Level,
    /// The techniques before it in the ladder's order (`earlier`): for a technique another of
    /// its level subsumes, listed ahead of it so that it is applied where it applies.
    Earlier,
}

impl Others {
    /// The word of a technique puzzles line.
    fn name(self) -> &'static str {
        match self {
            Others::Level => "level",
            Others::Earlier => "earlier",
        }
    }

    fn named(word: &str) -> Option<Others> {
        [Others::Level, Others::Earlier].into_iter().find(|o| o.name() == word)
    }
}

/// Whether puzzle `p` (solution `s`) needs technique `t`: the `others`, without `t`, stall
/// unsolved; with `t` the ladder applies `t`, soundly, and solves the puzzle or places more
/// digits before it stalls. The number of steps before the stall without `t`, or why not.
fn needs<K: Kind>(p: &K::Puzzle, s: &K::Solution, t: K::Tech, others: Others) -> Result<usize, String> {
    let digits = solution_digits(&K::solution_json(s))?;
    let width = K::rules(p).width;
    let harder = <K::Tech as Technique>::ALL
        .iter()
        .filter(|u| match others {
            Others::Level => u.level() > t.level(),
            Others::Earlier => (u.level(), u.index()) > (t.level(), t.index()),
        })
        .fold(0, |m, u| m | 1 << u.index());
    let mut without_t = Trace { off: harder | 1 << t.index(), ..Trace::with_path() };
    let without = K::rate(p, s, Some(&mut without_t));
    let mut with_t = Trace { off: harder, ..Trace::with_path() };
    let with = K::rate(p, s, Some(&mut with_t));
    let (without_t, with_t) = (without_t.path.unwrap_or_default(), with_t.path.unwrap_or_default());
    if without.unsound + with.unsound > 0 {
        return Err("an unsound step".into());
    }
    if without.solved {
        return Err(format!("the others solve it in {} steps", without_t.len()));
    }
    if with.rating.usage[t.index()] == 0 {
        return Err("switched on, it never fires".into());
    }
    let placed = |path: &[PathStep]| path.iter().map(|s| s.place.len()).sum::<usize>();
    if !with.solved && placed(&with_t) <= placed(&without_t) {
        return Err("switched on, it places no more digits".into());
    }
    let at = |[r, c, _]: [usize; 3]| digits[r * width + c] as usize;
    for step in with_t.iter().filter(|step| step.technique == t.name()) {
        if step.place.iter().any(|&pl| at(pl) != pl[2]) || step.remove.iter().any(|&rm| at(rm) == rm[2]) {
            return Err("a step of it is wrong".into());
        }
    }
    Ok(without_t.len())
}

/// `Kind::TECHNIQUE_PUZZLES`, checked: every line needs its technique after the steps it says,
/// and every technique has a line.
struct Fires;

impl KindVisitor for Fires {
    type Output = String;

    fn visit<K: Kind>(self) -> String {
        let name = K::KEY;
        let all = <K::Tech as Technique>::ALL;
        let mut lines = vec![0; all.len()];
        for (n, line) in K::TECHNIQUE_PUZZLES.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let at = format!("{name}: technique puzzles line {}", n + 1);
            let mut parts = line.splitn(4, '\t');
            let (Some(tech), Some(others), Some(before), Some(text)) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                panic!("{at}: not technique<TAB>others<TAB>steps<TAB>puzzle");
            };
            let others =
                Others::named(others).unwrap_or_else(|| panic!("{at}: others {others:?}, not level or earlier"));
            let t = technique_named::<K::Tech>(tech).unwrap_or_else(|| panic!("{at}: no technique {tech}"));
            let before: usize = before.parse().unwrap_or_else(|_| panic!("{at}: steps {before:?}"));
            let p = K::parse(text, &Default::default()).unwrap_or_else(|e| panic!("{at}: {e}"));
            let solved = K::solve(&p, 2);
            assert_eq!(solved.count, 1, "{at}: solutions");
            match needs::<K>(&p, &solved.first.unwrap(), t, others) {
                Ok(got) => assert_eq!(got, before, "{at}: {tech}: the easier techniques stall after {got} steps"),
                Err(why) => panic!("{at}: does not need {tech}: {why}"),
            }
            lines[t.index()] += 1;
        }
        let missing: Vec<&str> = all.iter().filter(|t| lines[t.index()] == 0).map(|t| t.name()).collect();
        assert!(missing.is_empty(), "{name}: no technique puzzle needs {}", missing.join(", "));
        format!("{name}: {} techniques, each needed by its puzzles ({} in all)", all.len(), lines.iter().sum::<usize>())
    }
}

#[test]
fn every_technique_fires_where_needed() {
    for &id in KindId::ALL {
        eprintln!("{}", id.visit(Fires));
    }
}

/// Finds technique puzzles for a kind (`Kind::TECHNIQUE_PUZZLES`), printing a line for each
/// technique the first time a puzzle needs it. `PF_FIND_KIND` names the kind (its `KEY`),
/// `PF_FIND_FLAGS` its flags (`killer,box=2x3`), `PF_FIND_INPUT` a file of puzzles to try
/// instead of generated ones, `PF_FIND_COUNT` how many to try (default 2000); `PF_FIND_RECHECK`
/// a technique puzzles file to bring up to date after a change to the ladder. Run with
/// `cargo test --release --test suite find_technique_puzzles -- --ignored --nocapture`.
#[test]
#[ignore]
fn find_technique_puzzles() {
    struct Find;
    impl KindVisitor for Find {
        type Output = ();
        fn visit<K: Kind>(self) {
            use puzzle_factory::kinds::{FlagValues, Given, Takes};
            let mut cfg = config::load::<K>(None).unwrap();
            let mut given = FlagValues::default();
            for f in std::env::var("PF_FIND_FLAGS").unwrap_or_default().split(',').filter(|f| !f.is_empty()) {
                let (id, value) = f.split_once('=').map_or((f, None), |(a, b)| (a, Some(b)));
                let flag = K::flags().into_iter().find(|g| g.id == id).unwrap_or_else(|| panic!("no flag {id}"));
                let v = match (flag.takes, value) {
                    (Takes::Switch, _) => Given::Switch,
                    (Takes::Number { .. }, Some(v)) => Given::Number(v.parse().unwrap()),
                    (Takes::Text { check }, Some(v)) => Given::Text(check(v).unwrap()),
                    (_, Some(v)) => Given::Text(v.to_string()),
                    (_, None) => panic!("{id} takes a value"),
                };
                given.insert(id, v);
            }
            K::apply_flags(&mut cfg.params, &given).unwrap();
            // PF_FIND_RECHECK=FILE: a technique puzzles file read again with this build, each line
            // printed with its steps as they are now (after a change to the ladder), or dropped.
            if let Ok(file) = std::env::var("PF_FIND_RECHECK") {
                for line in std::fs::read_to_string(file).unwrap().lines() {
                    let parts: Vec<&str> = line.splitn(4, '\t').collect();
                    if line.starts_with('#') || parts.len() != 4 {
                        println!("{line}");
                        continue;
                    }
                    let t = technique_named::<K::Tech>(parts[0]).unwrap();
                    let others = Others::named(parts[1]).expect("others: level or earlier");
                    let p = K::parse(parts[3], &Default::default()).unwrap();
                    let s = K::solve(&p, 2).first.unwrap();
                    match needs::<K>(&p, &s, t, others) {
                        Ok(before) => println!("{}\t{}\t{before}\t{}", parts[0], parts[1], parts[3]),
                        Err(why) => eprintln!("dropped {}: {why}", parts[0]),
                    }
                }
                return;
            }
            let count: usize = std::env::var("PF_FIND_COUNT").ok().and_then(|c| c.parse().ok()).unwrap_or(2000);
            let input: Vec<String> = std::env::var("PF_FIND_INPUT")
                .map(|f| std::fs::read_to_string(f).unwrap().lines().map(str::to_string).collect())
                .unwrap_or_default();
            let all = <K::Tech as Technique>::ALL;
            let mut found = vec![false; all.len()];
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(77);
            for i in 0..count {
                let (p, s) = if input.is_empty() {
                    let params = K::steer(&cfg.params, (i % (K::steer_levels(&cfg.params) as usize + 1)) as u8);
                    match K::generate(&params, &mut rng) {
                        Ok(g) => (g.puzzle, g.solution),
                        Err(_) => continue,
                    }
                } else {
                    let Some(Ok(p)) = input.get(i).map(|l| K::parse(l, &cfg.params)) else { continue };
                    let solved = K::solve(&p, 2);
                    if solved.count != 1 {
                        continue;
                    }
                    (p, solved.first.unwrap())
                };
                let rated = K::rate(&p, &s, None);
                for t in all {
                    if found[t.index()] || rated.rating.usage[t.index()] == 0 {
                        continue;
                    }
                    for others in [Others::Level, Others::Earlier] {
                        if let Ok(before) = needs::<K>(&p, &s, *t, others) {
                            found[t.index()] = true;
                            let line = match K::puzzle_json(&p) {
                                serde_json::Value::String(s) => s,
                                other => other.to_string(),
                            };
                            println!("{}\t{}\t{before}\t{line}", t.name(), others.name());
                            break;
                        }
                    }
                }
                if found.iter().all(|&f| f) {
                    break;
                }
            }
            let missing: Vec<&str> = all.iter().filter(|t| !found[t.index()]).map(|t| t.name()).collect();
            eprintln!("not found: {missing:?}");
        }
    }
    let key = std::env::var("PF_FIND_KIND").expect("PF_FIND_KIND");
    KindId::from_key(&key).expect("a kind's key").visit(Find);
}

#[test]
fn every_registered_kind_conforms() {
    let t = std::time::Instant::now();
    for &id in KindId::ALL {
        let t = std::time::Instant::now();
        let report = id.visit(Conforms);
        eprintln!("{report} ({:.2} s)", t.elapsed().as_secs_f64());
    }
    eprintln!("conformance: {} kinds in {:.2} s", KindId::ALL.len(), t.elapsed().as_secs_f64());
}
