//! Every janko.at Skyscrapers of the shared reference data (sizes 4 to 8, with solutions) reads,
//! has exactly one solution, the published one, and rates soundly to the end. (A unit test, not
//! a test binary of its own: one binary fewer to link in each test profile.)

use crate::{solve, SkyscrapersKind};
use pf_core::kind::Kind;

#[test]
fn every_janko_skyscrapers_solves_to_its_solution() {
    let text = pf_core::data::read("skyscrapers/janko_skyscrapers.jsonl");
    let mut sizes = std::collections::BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let file = v["file"].as_str().unwrap_or("?");
        let p =
            SkyscrapersKind::parse(line, &Default::default()).unwrap_or_else(|e| panic!("line {}: {file}: {e}", i + 1));
        let want: Vec<u8> = pf_core::data::janko_solution(&v);
        let f = solve::count_solutions(&p, 2);
        assert_eq!((f.count, f.first.as_ref()), (1, Some(&want)), "line {}: {file}", i + 1);
        let rated = SkyscrapersKind::rate(&p, &want, None);
        assert!(rated.solved && rated.unsound == 0, "line {}: {file}: rating", i + 1);
        *sizes.entry(p.size).or_insert(0) += 1;
    }
    assert_eq!(sizes.values().sum::<usize>(), 70, "{sizes:?}");
    eprintln!("janko Skyscrapers by size: {sizes:?}");
}
