//! Grades and the thresholds that define them: d < k1 easy, k1 ≤ d < k2 medium, k2 ≤ d < k3
//! hard, d ≥ k3 expert. `Thresholds::new` refuses anything but k1 < k2 < k3 (all finite).

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    Easy,
    Medium,
    Hard,
    Expert,
}

impl Grade {
    pub const ALL: [Grade; 4] = [Grade::Easy, Grade::Medium, Grade::Hard, Grade::Expert];
    pub fn name(self) -> &'static str {
        match self {
            Grade::Easy => "easy",
            Grade::Medium => "medium",
            Grade::Hard => "hard",
            Grade::Expert => "expert",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Thresholds {
    k1: f64,
    k2: f64,
    k3: f64,
}

impl Thresholds {
    pub fn new(k1: f64, k2: f64, k3: f64) -> Result<Thresholds, String> {
        if !(k1.is_finite() && k2.is_finite() && k3.is_finite() && k1 < k2 && k2 < k3) {
            return Err(format!(
                "grade thresholds must be finite and strictly increasing (k1 < k2 < k3), got k1={k1}, k2={k2}, k3={k3}"
            ));
        }
        Ok(Thresholds { k1, k2, k3 })
    }
    pub fn k(&self) -> [f64; 3] {
        [self.k1, self.k2, self.k3]
    }
    pub fn grade(&self, steps: f64) -> Grade {
        if steps < self.k1 {
            Grade::Easy
        } else if steps < self.k2 {
            Grade::Medium
        } else if steps < self.k3 {
            Grade::Hard
        } else {
            Grade::Expert
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn bands_and_refusal() {
        let t = Thresholds::new(10.0, 20.0, 30.0).unwrap();
        assert_eq!(t.grade(9.99), Grade::Easy);
        assert_eq!(t.grade(10.0), Grade::Medium);
        assert_eq!(t.grade(20.0), Grade::Hard);
        assert_eq!(t.grade(30.0), Grade::Expert);
        let e = Thresholds::new(10.0, 10.0, 30.0).unwrap_err();
        assert!(e.contains("k1=10") && e.contains("k2=10"));
        assert!(Thresholds::new(1.0, 3.0, 2.0).is_err());
        assert!(Thresholds::new(f64::NAN, 3.0, 4.0).is_err());
    }
}
