//! The conformance suite: what every registered kind must do, checked for each kind the
//! registry lists (`KindId::ALL`), with the kind's built-in settings. A kind gets these tests
//! by being registered; nothing here names a kind.
//!
//! Each kind generates puzzles from a fixed seed, and each puzzle must:
//! - have exactly one solution, the one generated (the kind's own solver);
//! - rate soundly to the end (no step removes a solution digit or places a wrong one), and the
//!   same twice;
//! - survive its text form and its JSON form read back (`parse` of `puzzle_text` and of
//!   `puzzle_json`): the same text, the same givens, the same canonical key;
//! - draw as well-formed SVG, with text when it has givens.
//!
//! And the same seed makes the same puzzles.
//!
//! Not yet here (issue 40): uniqueness by an independent solver, 1 and 2 threads, canonical
//! keys under each kind's symmetries, each technique firing, and parser fuzzing, which the
//! kinds' own test files still check one kind at a time.

use puzzle_factory::config;
use puzzle_factory::kinds::{Kind, KindId, KindVisitor};
use puzzle_factory::rate::Trace;
use rand::SeedableRng;

/// Puzzles per kind.
fn count() -> usize {
    if cfg!(debug_assertions) {
        4
    } else {
        64
    }
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
        for (p, s) in &puzzles {
            let text = K::puzzle_text(p);
            let solved = K::solve(p, 2);
            assert_eq!(solved.count, 1, "{name}: {text}: solutions");
            assert_eq!(solved.first.as_ref(), Some(s), "{name}: {text}: not the generated solution");

            let mut trace = Trace::with_path();
            let rated = K::rate(p, s, Some(&mut trace));
            assert_eq!(rated.unsound, 0, "{name}: {text}: an unsound step");
            assert!(rated.solved, "{name}: {text}: the rating did not finish");
            assert!(!trace.path.unwrap_or_default().is_empty() || K::givens(p) > 0, "{name}: {text}: no path");
            let twice = K::rate(p, s, None);
            assert_eq!(rated.rating.steps, twice.rating.steps, "{name}: {text}: rated twice, two step counts");
            steps.push(rated.rating.steps);

            let key = K::canonical(p, s);
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
        format!("{name}: {} puzzles, median steps {:.1}", puzzles.len(), steps[steps.len() / 2])
    }
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
