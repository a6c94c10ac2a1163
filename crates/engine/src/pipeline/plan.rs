//! Plans over steering levels: given what share of each grade a level's candidates have, how
//! many candidates to make at each level. A `--quota` order plans its next chunks with the
//! shares it has seen (`cover`); a count run with `[target.size.N] mix` plans once, for the
//! run's `shares` (`Plan`).

use pf_core::grade::Grade;

/// A count run's plan (`[target] shares` and the size's `mix`): each variant of a candidate is
/// made at a steering level drawn with `weight` and kept with probability `keep[grade]`, which
/// brings each grade to its share. The weights are the `cover` plan for the shares, so the
/// variants per puzzle are the fewest the levels allow: `1 / yield` (every variant's grade
/// counted, none thrown away but to balance the mix).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Per steering level, the probability a variant is made there (summing to 1).
    pub weight: Vec<f64>,
    /// Per grade, the probability a variant of that grade is kept (the largest is 1).
    pub keep: [f64; 4],
    /// Puzzles per variant made, expected.
    pub yield_: f64,
}

impl Plan {
    /// The plan for `shares` (four non-negative weights, not all 0) given each level's share of
    /// each grade (`mix[level]`). None when some grade with a share is made by no level.
    pub fn new(mix: &[[f64; 4]], shares: &[f64; 4]) -> Option<Plan> {
        let total: f64 = shares.iter().sum();
        if mix.is_empty() || total <= 0.0 {
            return None;
        }
        let need: [f64; 4] = std::array::from_fn(|g| shares[g] / total);
        let x = cover(mix, &need)?;
        let sum: f64 = x.iter().sum();
        if sum <= 0.0 {
            return None;
        }
        let weight: Vec<f64> = x.iter().map(|v| v.max(0.0) / sum).collect();
        // What a variant has of each grade under the weights, and the most puzzles per variant
        // that keep every grade at its share.
        let made: [f64; 4] = std::array::from_fn(|g| weight.iter().zip(mix).map(|(w, m)| w * m[g]).sum());
        let yield_ = (0..4).filter(|&g| need[g] > 0.0).map(|g| made[g] / need[g]).fold(f64::INFINITY, f64::min);
        if !(yield_ > 0.0 && yield_.is_finite()) {
            return None;
        }
        // Kept wholly: the scarcest grades (exactly 1, whatever the rounding).
        let keep: [f64; 4] = std::array::from_fn(|g| match yield_ * need[g] / made[g] {
            _ if need[g] <= 0.0 => 0.0,
            k if k > 1.0 - 1e-9 => 1.0,
            k => k,
        });
        Some(Plan { weight, keep, yield_ })
    }

    /// The level a variant is made at, for a draw `u` in [0, 1).
    pub fn level(&self, u: f64) -> u8 {
        let mut x = u;
        for (l, &w) in self.weight.iter().enumerate() {
            if x < w {
                return l as u8;
            }
            x -= w;
        }
        // Rounding at the top end: the last level with a weight.
        self.weight.iter().rposition(|&w| w > 0.0).unwrap_or(0) as u8
    }

    /// The grades a variant is kept at, for a draw `u` in [0, 1).
    pub fn kept(&self, u: f64) -> [bool; 4] {
        std::array::from_fn(|g| u < self.keep[g])
    }

    /// The highest grade of `kept`: a variant sure to grade above it need not be rated further.
    pub fn highest(kept: &[bool; 4]) -> Option<Grade> {
        (0..4).rev().find(|&g| kept[g]).map(|g| Grade::ALL[g])
    }
}

/// The plan that makes `need[g]` puzzles of every grade in the fewest candidates, where a
/// candidate at level `l` has grade `g` with probability `share[l][g]`: the candidates per level
/// of the linear program min Σx subject to Σ_l share[l][g]·x_l ≥ need[g], x ≥ 0. Its optimum
/// is at a vertex, where as many of the constraints as there are levels hold with equality:
/// each such set is solved and the feasible solution with the fewest candidates kept (at most
/// 9 choose 5 = 126 small systems for KenKen's 5 levels). None when no plan meets the need.
pub fn cover(share: &[[f64; 4]], need: &[f64; 4]) -> Option<Vec<f64>> {
    let n = share.len();
    // Rows 0..4: the grades; rows 4..4+n: x_l ≥ 0.
    let row = |r: usize| -> (Vec<f64>, f64) {
        if r < 4 {
            ((0..n).map(|l| share[l][r]).collect(), need[r])
        } else {
            ((0..n).map(|l| if l == r - 4 { 1.0 } else { 0.0 }).collect(), 0.0)
        }
    };
    let rows = 4 + n;
    let feasible = |x: &[f64]| {
        x.iter().all(|&v| v >= -1e-9)
            && (0..4).all(|g| (0..n).map(|l| share[l][g] * x[l]).sum::<f64>() >= need[g] - 1e-6)
    };
    let mut best: Option<(f64, Vec<f64>)> = None;
    // Every set of n rows, as a bit mask.
    for mask in 0u32..1 << rows {
        if mask.count_ones() as usize != n {
            continue;
        }
        let mut a: Vec<Vec<f64>> = Vec::with_capacity(n);
        for r in (0..rows).filter(|r| mask >> r & 1 == 1) {
            let (mut coef, rhs) = row(r);
            coef.push(rhs);
            a.push(coef);
        }
        let Some(x) = solve(a) else { continue };
        if feasible(&x) {
            let total: f64 = x.iter().sum();
            if best.as_ref().is_none_or(|(t, _)| total < t - 1e-9) {
                best = Some((total, x));
            }
        }
    }
    best.map(|(_, x)| x)
}

/// The solution of the square system whose augmented rows are `a` (Gaussian elimination with
/// partial pivoting), or None when it is singular.
fn solve(mut a: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let n = a.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        for r in 0..n {
            if r != col {
                let f = a[r][col] / a[col][col];
                if f != 0.0 {
                    for c in col..=n {
                        a[r][c] -= f * a[col][c];
                    }
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n] / a[i][i]).collect())
}

#[cfg(test)]
mod tests {
    use super::{cover, Plan};

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn cover_plans_the_fewest_candidates() {
        // One level per grade: exactly what each needs.
        let plan = cover(&[[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]], &[3.0, 2.0, 0.0, 0.0]).unwrap();
        assert!(close(&plan, &[3.0, 2.0]), "{plan:?}");
        // A level that makes both beats two that make one each.
        let plan = cover(&[[1.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]], &[10.0, 10.0, 0.0, 0.0]);
        assert!(close(&plan.unwrap(), &[0.0, 20.0, 0.0]));
        // Mixing: the shared level up to the rarer grade's need, the rest from the easy one.
        let plan = cover(&[[0.8, 0.2, 0.0, 0.0], [0.4, 0.6, 0.0, 0.0]], &[10.0, 6.0, 0.0, 0.0]).unwrap();
        let (a, b) = (plan[0], plan[1]);
        assert!(0.8 * a + 0.4 * b >= 10.0 - 1e-6 && 0.2 * a + 0.6 * b >= 6.0 - 1e-6, "{plan:?}");
        // Both bounds met with equality at a = 9, b = 7: 16 candidates (30 of the first alone, 25 of
        // the second).
        assert!(close(&plan, &[9.0, 7.0]), "{plan:?}");
        // Nothing to make: nothing planned; a grade no level makes: no plan.
        assert!(close(&cover(&[[1.0, 0.0, 0.0, 0.0]], &[0.0; 4]).unwrap(), &[0.0]));
        assert_eq!(cover(&[[1.0, 0.0, 0.0, 0.0]], &[1.0, 1.0, 0.0, 0.0]), None);
    }

    #[test]
    fn a_plan_keeps_each_grade_at_its_share() {
        // Two levels: one mostly easy, one mostly hard; the shares want both alike.
        let mix = [[0.8, 0.0, 0.2, 0.0], [0.0, 0.0, 0.4, 0.6]];
        let plan = Plan::new(&mix, &[1.0, 0.0, 0.0, 1.0]).unwrap();
        // Easy and expert alike: 0.8 w0 = 0.6 w1 with w0 + w1 = 1.
        let (w0, w1) = (plan.weight[0], plan.weight[1]);
        assert!((w0 + w1 - 1.0).abs() < 1e-9 && (0.8 * w0 - 0.6 * w1).abs() < 1e-9, "{plan:?}");
        // No variant of a grade without a share is kept; both wanted grades wholly.
        assert_eq!(plan.keep, [1.0, 0.0, 0.0, 1.0]);
        assert!((plan.yield_ - 2.0 * 0.8 * w0).abs() < 1e-9);
        // The kept output follows the shares: made[g] * keep[g] alike for easy and expert.
        let made = |g: usize| w0 * mix[0][g] + w1 * mix[1][g];
        assert!((made(0) * plan.keep[0] - made(3) * plan.keep[3]).abs() < 1e-9);
        // One level making all four grades, even shares: the rarest kept, the others thinned to it.
        let plan = Plan::new(&[[0.4, 0.3, 0.2, 0.1]], &[1.0; 4]).unwrap();
        assert_eq!(plan.weight, vec![1.0]);
        let keep = plan.keep;
        assert!((keep[3] - 1.0).abs() < 1e-12 && (keep[0] - 0.25).abs() < 1e-9 && (keep[2] - 0.5).abs() < 1e-9);
        assert!((plan.yield_ - 0.4).abs() < 1e-9);
        assert_eq!(plan.kept(0.2), [true, true, true, true]);
        assert_eq!(plan.kept(0.3), [false, true, true, true]);
        assert_eq!(plan.kept(0.45), [false, false, true, true]);
        assert_eq!(Plan::highest(&plan.kept(0.45)), Some(pf_core::grade::Grade::Expert));
        assert_eq!(plan.level(0.999), 0);
        // A grade with a share that no level makes: no plan.
        assert_eq!(Plan::new(&[[1.0, 0.0, 0.0, 0.0]], &[1.0, 0.0, 0.0, 1.0]), None);
    }
}
