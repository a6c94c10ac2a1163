//! One book record: the columns every kind shares (SPEC.md), then the technique usage counts
//! (`used_<technique>`), then the kind's extra columns. The CSV row and the JSON object are
//! built from the same values, so the two forms always agree.

use crate::kinds::Kind;
use crate::pipeline::Accepted;
use crate::rate::Technique;
use serde_json::{Map, Value};

pub struct Record {
    pub csv: Vec<String>,
    pub json: String,
}

/// Steps rounded to two decimals, as every output prints them.
pub fn round_steps(steps: f64) -> f64 {
    (steps * 100.0).round() / 100.0
}

pub fn header<K: Kind>() -> Vec<String> {
    let mut h: Vec<String> =
        ["id", "kind", "seed", "index", "grade", "steps", "hardest_level", "givens", "puzzle", "solution"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    h.extend(K::Tech::ALL.iter().map(|t| format!("used_{}", t.name())));
    h.extend(K::extra_names().iter().map(|s| s.to_string()));
    h
}

fn cell_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Record {
    pub fn new<K: Kind>(master: u64, index: u64, acc: &Accepted<K>) -> Record {
        let kind = K::ID.name();
        let id = format!("{kind}-{master}-{index}");
        let steps = round_steps(acc.rating.steps);
        let mut csv = vec![
            id.clone(),
            kind.to_string(),
            master.to_string(),
            index.to_string(),
            acc.grade.name().to_string(),
            format!("{steps:.2}"),
            acc.rating.hardest_level.to_string(),
            K::givens(&acc.puzzle).to_string(),
            K::puzzle_text(&acc.puzzle),
            K::solution_text(&acc.solution),
        ];
        csv.extend(acc.rating.usage.iter().map(|u| u.to_string()));
        let extras = K::extra_values(&acc.puzzle, &acc.solution);
        csv.extend(extras.iter().map(cell_text));

        let mut m = Map::new();
        m.insert("id".into(), id.into());
        m.insert("kind".into(), kind.into());
        m.insert("seed".into(), master.into());
        m.insert("index".into(), index.into());
        m.insert("grade".into(), acc.grade.name().into());
        m.insert("steps".into(), steps.into());
        m.insert("hardest_level".into(), acc.rating.hardest_level.into());
        m.insert("givens".into(), K::givens(&acc.puzzle).into());
        m.insert("puzzle".into(), K::puzzle_json(&acc.puzzle));
        m.insert("solution".into(), K::solution_json(&acc.solution));
        let techniques: Map<String, Value> =
            K::Tech::ALL.iter().zip(&acc.rating.usage).map(|(t, &u)| (t.name().to_string(), u.into())).collect();
        m.insert("techniques".into(), techniques.into());
        for (name, v) in K::extra_names().iter().zip(extras) {
            m.insert(name.to_string(), v);
        }
        let json = serde_json::to_string(&Value::Object(m)).expect("record serialises");
        Record { csv, json }
    }
}
