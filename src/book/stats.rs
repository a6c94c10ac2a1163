//! Run statistics for calibration.json, in memory that does not grow with the run.
//!
//! Step counts go into fixed 1-step bins (0 to `FINE_BINS`, larger values into the last bin with
//! the exact maximum kept), so the median and p90 are exact to within one step and the memory is
//! a few hundred kilobytes whatever `--count` is.

use crate::grade::{Grade, Thresholds};
use crate::kinds::{Kind, Reject};
use crate::pipeline::{Processed, StageTimes};
use crate::rate::Technique;
use serde_json::{json, Map, Value};
use std::time::Duration;

const FINE_BINS: usize = 20_000;

#[derive(Clone)]
pub struct Distribution {
    count: u64,
    sum: f64,
    min: f64,
    max: f64,
    bins: Vec<u32>,
    hardest_level: Vec<u64>,
    /// Per technique: puzzles that used it, and successes applied in total.
    puzzles_using: Vec<u64>,
    applied: Vec<u64>,
}

impl Distribution {
    fn new(techniques: usize, levels: usize) -> Self {
        Distribution {
            count: 0,
            sum: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
            bins: vec![0; FINE_BINS],
            hardest_level: vec![0; levels + 1],
            puzzles_using: vec![0; techniques],
            applied: vec![0; techniques],
        }
    }

    pub fn add(&mut self, steps: f64, hardest_level: u8, usage: &[u32]) {
        self.count += 1;
        self.sum += steps;
        self.min = self.min.min(steps);
        self.max = self.max.max(steps);
        self.bins[(steps.max(0.0) as usize).min(FINE_BINS - 1)] += 1;
        self.hardest_level[hardest_level as usize] += 1;
        for (i, &u) in usage.iter().enumerate() {
            self.applied[i] += u as u64;
            self.puzzles_using[i] += (u > 0) as u64;
        }
    }

    /// The q-quantile (0..=1) to within one step: the centre of the bin holding it, clamped to
    /// the observed range.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0u64;
        for (i, &n) in self.bins.iter().enumerate() {
            seen += n as u64;
            if seen >= rank {
                return Some((i as f64 + 0.5).clamp(self.min, self.max));
            }
        }
        Some(self.max)
    }

    fn histogram(&self) -> Value {
        if self.count == 0 {
            return json!({"bin_width": 1, "start": 0, "counts": []});
        }
        let lo = self.min.floor() as usize;
        let hi = (self.max.floor() as usize).min(FINE_BINS - 1);
        let width = ((hi - lo + 1).div_ceil(40)).max(1);
        let counts: Vec<u64> = (lo..=hi)
            .step_by(width)
            .map(|s| self.bins[s..(s + width).min(FINE_BINS)].iter().map(|&n| n as u64).sum())
            .collect();
        json!({"bin_width": width, "start": lo, "counts": counts})
    }

    fn to_json<T: Technique>(&self) -> Value {
        let r2 = |x: f64| (x * 100.0).round() / 100.0;
        let steps = if self.count == 0 {
            Value::Null
        } else {
            json!({
                "min": r2(self.min),
                "median": self.quantile(0.5),
                "mean": r2(self.sum / self.count as f64),
                "p90": self.quantile(0.9),
                "max": r2(self.max),
            })
        };
        let levels: Map<String, Value> =
            self.hardest_level.iter().enumerate().map(|(l, &n)| (l.to_string(), n.into())).collect();
        let techniques: Map<String, Value> = T::ALL
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name().to_string(), json!({"puzzles": self.puzzles_using[i], "applied": self.applied[i]})))
            .collect();
        json!({
            "count": self.count,
            "steps": steps,
            "histogram": self.histogram(),
            "hardest_level": levels,
            "techniques": techniques,
        })
    }
}

pub struct Stats {
    tried: u64,
    repairs: u64,
    repaired: u64,
    rejected: [u64; Reject::ALL.len()],
    grades: Vec<Distribution>,
    all: Distribution,
    times: StageTimes,
}

fn secs(d: Duration) -> f64 {
    (d.as_secs_f64() * 1000.0).round() / 1000.0
}

impl Stats {
    pub fn new<K: Kind>() -> Self {
        let d = Distribution::new(K::Tech::ALL.len(), K::Tech::max_level() as usize);
        Stats {
            tried: 0,
            repairs: 0,
            repaired: 0,
            rejected: [0; Reject::ALL.len()],
            grades: vec![d.clone(); 4],
            all: d,
            times: StageTimes::default(),
        }
    }

    pub fn add<K: Kind>(&mut self, p: &Processed<K>) {
        self.tried += 1;
        self.repairs += p.repairs as u64;
        self.repaired += (p.repairs > 0) as u64;
        self.times.generate += p.times.generate;
        self.times.unique += p.times.unique;
        self.times.rate += p.times.rate;
        match &p.outcome {
            Ok(acc) => {
                let r = &acc.rating;
                self.grades[acc.grade.index()].add(r.steps, r.hardest_level, &r.usage);
                self.all.add(r.steps, r.hardest_level, &r.usage);
            }
            Err(reason) => self.rejected[Reject::ALL.iter().position(|x| x == reason).unwrap()] += 1,
        }
    }

    pub fn accepted(&self) -> u64 {
        self.all.count
    }

    pub fn count(&self, g: Grade) -> u64 {
        self.grades[g.index()].count
    }

    /// calibration.json. `wall` and `write` are the run's elapsed and writing times.
    pub fn to_json<K: Kind>(&self, thresholds: &Thresholds, wall: Duration, write: Duration) -> Value {
        let [k1, k2, k3] = thresholds.k();
        let rejected: Map<String, Value> =
            Reject::ALL.iter().zip(self.rejected).map(|(r, n)| (r.name().to_string(), n.into())).collect();
        let grades: Map<String, Value> =
            Grade::ALL.iter().map(|g| (g.name().to_string(), self.grades[g.index()].to_json::<K::Tech>())).collect();
        let levels: Map<String, Value> = K::Tech::ALL
            .iter()
            .map(|t| (t.name().to_string(), json!({"level": t.level(), "situation": t.situation()})))
            .collect();
        json!({
            "kind": K::ID.name(),
            "thresholds": {"k1": k1, "k2": k2, "k3": k3, "level_floor": thresholds.floor()},
            "candidates": {
                "tried": self.tried,
                "accepted": self.accepted(),
                "rejected": rejected,
                "repaired": self.repaired,
                "repairs": self.repairs,
            },
            "grades": grades,
            "all": self.all.to_json::<K::Tech>(),
            "techniques": levels,
            "time_seconds": {
                "note": "summed over worker threads for the stages; wall and write on the main thread",
                "generate": secs(self.times.generate),
                "unique": secs(self.times.unique),
                "rate": secs(self.times.rate),
                "write": secs(write),
                "wall": secs(wall),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn quantiles_within_a_step() {
        let mut d = Distribution::new(1, 6);
        for i in 1..=100 {
            d.add(i as f64, 1, &[1]);
        }
        let med = d.quantile(0.5).unwrap();
        assert!((med - 50.0).abs() <= 1.0, "{med}");
        let p90 = d.quantile(0.9).unwrap();
        assert!((p90 - 90.0).abs() <= 1.0, "{p90}");
        assert_eq!(d.quantile(1.0).unwrap(), 100.0);
        d.add(1e9, 6, &[0]);
        assert_eq!(d.max, 1e9);
    }
}
