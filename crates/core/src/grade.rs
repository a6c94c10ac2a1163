//! Grades and the thresholds that define them: d < k1 easy, k1 ≤ d < k2 medium, k2 ≤ d < k3
//! hard, d ≥ k3 expert. `Thresholds::new` refuses anything but k1 < k2 < k3 (all finite).
//!
//! Optionally (config `level_floor`, off by default: the published pure-steps grading), the
//! hardest technique level sets a floor: a puzzle whose hardest level reaches `level_floor[i]`
//! is graded at least `Grade::ALL[i + 1]`, whatever its steps. This is the model extension of
//! the calibration (issue 5): the step count separates neighbouring site levels less well than
//! the hardest level does where both need the same techniques in different numbers.

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
    /// The grade a book names ("easy", ...).
    pub fn from_name(name: &str) -> Option<Grade> {
        Grade::ALL.into_iter().find(|g| g.name() == name)
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
    /// Hardest level from which a puzzle is at least medium, hard, expert; 0 = no floor.
    floor: [u8; 3],
}

impl Thresholds {
    pub fn new(k1: f64, k2: f64, k3: f64) -> Result<Thresholds, String> {
        if !(k1.is_finite() && k2.is_finite() && k3.is_finite() && k1 < k2 && k2 < k3) {
            return Err(format!(
                "grade thresholds must be finite and strictly increasing (k1 < k2 < k3), got k1={k1}, k2={k2}, k3={k3}"
            ));
        }
        Ok(Thresholds { k1, k2, k3, floor: [0; 3] })
    }

    /// The same thresholds with a hardest-level floor (`[0, 0, 0]` = none). Non-zero entries
    /// must not decrease: a floor for a higher grade cannot start at a lower level.
    pub fn with_floor(self, floor: [u8; 3]) -> Result<Thresholds, String> {
        let set: Vec<u8> = floor.iter().copied().filter(|&f| f > 0).collect();
        if set.windows(2).any(|w| w[0] > w[1]) {
            return Err(format!("level_floor entries must not decrease (0 = off), got {floor:?}"));
        }
        Ok(Thresholds { floor, ..self })
    }

    pub fn floor(&self) -> [u8; 3] {
        self.floor
    }
    pub fn k(&self) -> [f64; 3] {
        [self.k1, self.k2, self.k3]
    }
    /// The grade of a puzzle: by steps, raised to the hardest-level floor when one is set.
    pub fn grade(&self, steps: f64, hardest_level: u8) -> Grade {
        let by_steps = self.grade_by_steps(steps);
        let floor =
            (0..3).rev().find(|&i| self.floor[i] > 0 && hardest_level >= self.floor[i]).map(|i| Grade::ALL[i + 1]);
        floor.map_or(by_steps, |f| f.max(by_steps))
    }

    /// From where a puzzle grades above `g`: the least difficulty, and the least hardest level
    /// (0: none) that does it through a floor; None for expert, which nothing is above.
    pub fn above(&self, g: Grade) -> Option<(f64, u8)> {
        let i = g.index();
        let k = *[self.k1, self.k2, self.k3].get(i)?;
        let level = self.floor[i..].iter().copied().filter(|&f| f > 0).min().unwrap_or(0);
        Some((k, level))
    }

    /// The published grading: steps against k1 < k2 < k3 only.
    pub(crate) fn grade_by_steps(&self, steps: f64) -> Grade {
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
    fn above_a_grade_is_where_grade_says_so() {
        let mut t = Thresholds::new(10.0, 20.0, 40.0).unwrap();
        for floor in [[0, 0, 0], [2, 0, 4], [3, 3, 5], [0, 4, 0]] {
            t.floor = floor;
            for g in Grade::ALL {
                let Some((k, level)) = t.above(g) else {
                    assert_eq!(g, Grade::Expert);
                    continue;
                };
                for steps in [0.0, 5.0, 9.99, 10.0, 15.0, 19.99, 20.0, 30.0, 39.99, 40.0, 99.0] {
                    for hardest in 0..=6 {
                        // Either bound reached exactly when the grade is above g.
                        let reached = steps >= k || (level > 0 && hardest >= level);
                        assert_eq!(reached, t.grade(steps, hardest) > g, "{floor:?} {g:?} {steps} {hardest}");
                    }
                }
            }
        }
    }
    #[test]
    fn bands_and_refusal() {
        let t = Thresholds::new(10.0, 20.0, 30.0).unwrap();
        assert_eq!(t.grade(9.99, 6), Grade::Easy);
        assert_eq!(t.grade(10.0, 1), Grade::Medium);
        assert_eq!(t.grade(20.0, 1), Grade::Hard);
        assert_eq!(t.grade(30.0, 1), Grade::Expert);
        let f = t.with_floor([2, 0, 6]).unwrap();
        assert_eq!(f.grade(5.0, 1), Grade::Easy);
        assert_eq!(f.grade(5.0, 2), Grade::Medium);
        assert_eq!(f.grade(5.0, 5), Grade::Medium);
        assert_eq!(f.grade(5.0, 6), Grade::Expert);
        assert_eq!(f.grade(25.0, 2), Grade::Hard);
        assert!(t.with_floor([3, 2, 0]).is_err());
        let e = Thresholds::new(10.0, 10.0, 30.0).unwrap_err();
        assert!(e.contains("k1=10") && e.contains("k2=10"));
        assert!(Thresholds::new(1.0, 3.0, 2.0).is_err());
        assert!(Thresholds::new(f64::NAN, 3.0, 4.0).is_err());
    }

    #[test]
    fn each_threshold_is_the_first_step_count_of_its_grade() {
        use Grade::*;
        let t = Thresholds::new(10.0, 20.0, 30.0).unwrap();
        let by = |d: f64| t.grade_by_steps(d);
        assert_eq!(
            [by(0.0), by(9.5), by(10.0), by(19.5), by(20.0), by(29.5), by(30.0), by(1e9)],
            [Easy, Easy, Medium, Medium, Hard, Hard, Expert, Expert]
        );
        assert_eq!(Grade::ALL.map(Grade::index), [0, 1, 2, 3]);
        assert_eq!(Grade::ALL.map(Grade::name), ["easy", "medium", "hard", "expert"]);
        // Strictly increasing and finite: equal neighbours and infinities are refused.
        assert!(Thresholds::new(1.0, 3.0, 3.0).is_err());
        assert!(Thresholds::new(f64::NEG_INFINITY, 2.0, 3.0).is_err());
        assert!(Thresholds::new(1.0, 2.0, f64::INFINITY).is_err());
        assert!(Thresholds::new(1.0, 2.0, 3.0).is_ok());
    }

    #[test]
    fn floors_may_repeat_a_level_and_skip_grades() {
        let t = Thresholds::new(10.0, 20.0, 30.0).unwrap();
        // Equal non-zero entries: from level 4, at least hard (the highest floor reached wins).
        let f = t.with_floor([4, 4, 0]).unwrap();
        assert_eq!(f.floor(), [4, 4, 0]);
        assert_eq!((f.grade(5.0, 3), f.grade(5.0, 4), f.grade(35.0, 4)), (Grade::Easy, Grade::Hard, Grade::Expert));
        // Zeros are skipped when checking the order, not compared.
        assert!(t.with_floor([0, 5, 5]).is_ok());
        assert!(t.with_floor([5, 0, 3]).is_err());
        // Only a medium floor: never raises above medium, never lowers the step grade.
        let m = t.with_floor([2, 0, 0]).unwrap();
        assert_eq!((m.grade(5.0, 6), m.grade(25.0, 6), m.grade(5.0, 1)), (Grade::Medium, Grade::Hard, Grade::Easy));
    }
}
