//! The typed form of `calibration.json`: serde structs for the whole file, so the writer
//! (`Stats::to_json`) and the readers (`report::from_calibration`, tests) share one definition of
//! every key. Key names and nesting are the published layout (SPEC.md, "Output of generate";
//! scripts read them with Python's `json`), so renaming a field here is a format change.
//!
//! Maps whose keys are names (rejection reasons, techniques) keep the order of the lists they
//! come from (`Reject::ALL`, `Technique::ALL`): [`Named`] is an ordered list that reads and
//! writes as a JSON object. Unknown keys are ignored when reading, so a file with extra fields
//! from a newer writer still reads.
//!
//! Step figures are printed steps: integer centi-steps divided by 100, so each number in the
//! file is exactly the two-decimal value that `puzzles.csv` prints (see `book::stats`).

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

/// How `median` and `p90` are defined; written into the file as `quantile_definition`.
pub const QUANTILE_DEFINITION: &str = "nearest rank: with the n step counts (as printed in puzzles.csv, \
     two decimals) sorted ascending, the q-quantile is the value at 1-based rank ceil(q*n), clamped \
     to 1..n; median q = 1/2, p90 q = 9/10; computed in integers (centi-steps), exact";
/// How `mean` is defined; written into the file as `mean_definition`.
pub const MEAN_DEFINITION: &str = "exact sum of the printed step counts divided by n, rounded to two \
     decimals (half up); min and max are the smallest and largest printed step counts";
/// The histogram's shape; written into the file as `histogram_definition`.
pub const HISTOGRAM_DEFINITION: &str = "at most 40 bins, log-spaced (in log(steps + 1)) between min and \
     max, edges rounded to 0.01 steps: counts[i] = puzzles with edges[i] <= steps < edges[i+1]; \
     edges[0] = min, edges[last] = max + 0.01, so every puzzle is in exactly one bin and the counts \
     sum to count; edges and counts are empty when count is 0";

/// The whole of `calibration.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub kind: String,
    pub thresholds: ThresholdFigures,
    pub candidates: Candidates,
    /// What the run was asked for and how it ended (every run since quotas came in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<OrderFigures>,
    pub grades: Grades,
    pub all: GradeStats,
    #[serde(default)]
    pub quantile_definition: String,
    #[serde(default)]
    pub mean_definition: String,
    #[serde(default)]
    pub histogram_definition: String,
    /// Per technique: its ladder level and what one situation is.
    pub techniques: Named<TechniqueInfo>,
    pub time_seconds: TimeSeconds,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThresholdFigures {
    pub k1: f64,
    pub k2: f64,
    pub k3: f64,
    /// Hardest level from which a puzzle is at least medium, hard, expert; 0 = no floor.
    pub level_floor: [u8; 3],
    /// Which table of the configuration graded the run: `[grades]`, or `[grades.size.N]` for a
    /// kind with thresholds per size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidates {
    pub tried: u64,
    pub accepted: u64,
    /// Per `Reject` reason, in `Reject::ALL` order.
    pub rejected: Named<u64>,
    /// Accepted or not, candidates whose generator had to repair them, and repairs in total.
    pub repaired: u64,
    pub repairs: u64,
    /// Variants made: with grade targeting (`[target]`) a candidate makes up to `attempts`
    /// puzzles and keeps one; equal to `tried` without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variants: Option<u64>,
}

/// The order of a run and how it ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrderFigures {
    /// `done` (every candidate of --count), `quotas met`, `count reached` (the --count cap
    /// before the quotas were met) or `time limit`.
    pub stopped: String,
    /// With --quota, per grade: puzzles ordered, emitted into the book, made beyond the quota
    /// (surplus, not in the book) and missing (ordered but not made).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota: Option<Named<QuotaFigures>>,
    /// Canonical keys read from --exclude files (distinct).
    pub excluded_keys: u64,
    /// Per steering level, level 0 (the configured settings) first: candidates tried and
    /// puzzles made per grade (in the book or beyond its quota).
    pub steering: Vec<SteeringFigures>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SteeringFigures {
    pub level: u8,
    pub tried: u64,
    pub made: Named<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuotaFigures {
    pub ordered: u64,
    pub emitted: u64,
    pub surplus: u64,
    pub missing: u64,
}

/// One entry per grade; the field names are `Grade::name()`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Grades {
    pub easy: GradeStats,
    pub medium: GradeStats,
    pub hard: GradeStats,
    pub expert: GradeStats,
}

impl Grades {
    /// In `Grade::ALL` order.
    pub(crate) fn from_array([easy, medium, hard, expert]: [GradeStats; 4]) -> Grades {
        Grades { easy, medium, hard, expert }
    }
    /// In `Grade::ALL` order.
    pub fn as_array(&self) -> [&GradeStats; 4] {
        [&self.easy, &self.medium, &self.hard, &self.expert]
    }
}

/// The figures of one grade, or of all accepted puzzles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradeStats {
    pub count: u64,
    /// `null` when `count` is 0.
    pub steps: Option<StepSummary>,
    pub histogram: StepHistogram,
    /// Puzzles per hardest technique level used (0 = none needed).
    pub hardest_level: BTreeMap<u8, u64>,
    /// Per technique, in `Technique::ALL` order.
    pub techniques: Named<TechniqueUse>,
    /// Runs with `--paths`: how many a lucky guess breaks and the mean bottleneck (SPEC.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<PathFigures>,
}

/// `shortcut` and `bottleneck` over the puzzles of a grade (runs with `--paths`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathFigures {
    pub puzzles: u64,
    /// Puzzles with `shortcut` true: one guess on a two-candidate cell, then singles, solves them.
    pub shortcut: u64,
    pub shortcut_share: f64,
    pub bottleneck_mean: f64,
}

/// Step-count figures, defined by `QUANTILE_DEFINITION` and `MEAN_DEFINITION`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepSummary {
    pub min: f64,
    pub median: f64,
    pub mean: f64,
    pub p90: f64,
    pub max: f64,
}

/// Bins as `HISTOGRAM_DEFINITION` says: `counts.len() + 1 == edges.len()` unless both are empty.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepHistogram {
    pub edges: Vec<f64>,
    pub counts: Vec<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TechniqueUse {
    /// Puzzles that used the technique at least once.
    pub puzzles: u64,
    /// Successful applications in total.
    pub applied: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TechniqueInfo {
    pub level: u8,
    pub situation: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeSeconds {
    pub note: String,
    pub generate: f64,
    pub unique: f64,
    pub rate: f64,
    pub write: f64,
    pub wall: f64,
    /// The candidate that took longest (all stages, all its variants), and its seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slowest_candidate: Option<Slowest>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slowest {
    pub index: u64,
    pub seconds: f64,
}

/// A JSON object whose keys keep their order: written and read as `{"name": value, ...}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Named<T>(pub Vec<(String, T)>);

impl<T> Default for Named<T> {
    fn default() -> Self {
        Named(Vec::new())
    }
}

impl<T> Named<T> {
    pub fn get(&self, name: &str) -> Option<&T> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, &T)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v))
    }
}

impl<T> FromIterator<(String, T)> for Named<T> {
    fn from_iter<I: IntoIterator<Item = (String, T)>>(iter: I) -> Self {
        Named(iter.into_iter().collect())
    }
}

impl<T: Serialize> Serialize for Named<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Named<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct NamedVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for NamedVisitor<T> {
            type Value = Named<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of named entries")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Named<T>, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(entry) = map.next_entry::<String, T>()? {
                    entries.push(entry);
                }
                Ok(Named(entries))
            }
        }
        d.deserialize_map(NamedVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf_core::grade::Grade;

    #[test]
    fn named_keeps_its_order_both_ways() {
        let n: Named<u64> = [("zeta", 1), ("alpha", 2), ("mid", 3)].iter().map(|&(k, v)| (k.to_string(), v)).collect();
        let text = serde_json::to_string(&n).unwrap();
        assert_eq!(text, r#"{"zeta":1,"alpha":2,"mid":3}"#);
        assert_eq!(serde_json::from_str::<Named<u64>>(&text).unwrap(), n);
        assert_eq!(n.get("alpha"), Some(&2));
    }

    #[test]
    fn grade_fields_are_the_grade_names() {
        let empty = GradeStats {
            count: 0,
            steps: None,
            histogram: StepHistogram::default(),
            hardest_level: BTreeMap::new(),
            techniques: Named::default(),
            paths: None,
        };
        let v = serde_json::to_value(Grades::from_array(std::array::from_fn(|_| empty.clone()))).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(keys, Grade::ALL.map(|g| g.name()));
        assert_eq!(v["easy"]["steps"], serde_json::Value::Null);
    }
}
