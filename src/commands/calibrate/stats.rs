//! The statistics of `calibrate`: the levels × grades table, Goodman–Kruskal gamma, Kendall's
//! tau-b, Spearman's rho, and the two fits that search thresholds (tau-b cut points over a grid
//! of step quantiles; the hardest-level floor).

use super::Item;
use crate::grade::Thresholds;

/// Concordant and discordant pairs of a levels × grades table (pairs tied on either side are
/// in neither).
fn concordance(table: &[[u64; 4]]) -> (f64, f64) {
    let (mut c, mut d) = (0f64, 0f64);
    for i in 0..table.len() {
        for i2 in i + 1..table.len() {
            for j in 0..4 {
                for j2 in 0..4 {
                    let pairs = (table[i][j] * table[i2][j2]) as f64;
                    if j2 > j {
                        c += pairs;
                    } else if j2 < j {
                        d += pairs;
                    }
                }
            }
        }
    }
    (c, d)
}

/// Gamma from a levels × grades table: (concordant - discordant) / (concordant + discordant).
pub fn gamma_of_table(table: &[[u64; 4]]) -> f64 {
    let (c, d) = concordance(table);
    if c + d == 0.0 {
        f64::NAN
    } else {
        (c - d) / (c + d)
    }
}

/// Kendall's tau-b from the same table: like gamma, but pairs tied on one side count against
/// it, so lumping many reference levels into one grade does not look like agreement.
pub fn tau_b_of_table(table: &[[u64; 4]]) -> f64 {
    let n: f64 = table.iter().flatten().map(|&x| x as f64).sum();
    let pairs = |xs: &mut dyn Iterator<Item = f64>| xs.map(|x| x * (x - 1.0) / 2.0).sum::<f64>();
    let tied_level = pairs(&mut table.iter().map(|r| r.iter().map(|&x| x as f64).sum()));
    let tied_grade = pairs(&mut (0..4).map(|j| table.iter().map(|r| r[j] as f64).sum()));
    let n0 = n * (n - 1.0) / 2.0;
    let (c, d) = concordance(table);
    (c - d) / ((n0 - tied_level) * (n0 - tied_grade)).sqrt()
}

/// Reference level × grade counts.
pub fn table(levels: usize, items: &[Item], t: &Thresholds) -> Vec<[u64; 4]> {
    let mut tab = vec![[0u64; 4]; levels];
    for &(l, s, h) in items {
        tab[l][t.grade(s, h).index()] += 1;
    }
    tab
}

/// The hardest-level floor (see `grade.rs`) that maximises tau-b on the fit part with the
/// thresholds fixed, with floors only above the level the easiest reference puzzles need;
/// among equals the one with the fewest and highest floors, so the pure
/// step grading stays unless a floor helps.
pub fn best_floor(levels: usize, fit: &[Item], t: &Thresholds) -> Thresholds {
    let top = fit.iter().map(|x| x.2).max().unwrap_or(0);
    let mut best = (tau_b_of_table(&table(levels, fit, t)), *t);
    // 0 (no floor) or a level above the one the typical puzzle of the easiest reference level
    // needs (its median hardest level, at least 1): a floor at or below it would take the
    // reference's own easy puzzles out of easy, whatever their step count.
    let mut easiest: Vec<u8> = fit.iter().filter(|x| x.0 == 0).map(|x| x.2).collect();
    easiest.sort_unstable();
    let typical = easiest.get(easiest.len() / 2).copied().unwrap_or(1).max(1);
    let choices: Vec<u8> = std::iter::once(0).chain(typical + 1..=top).collect();
    for &a in &choices {
        for &b in &choices {
            for &c in &choices {
                let Ok(f) = t.with_floor([a, b, c]) else { continue };
                let tau = tau_b_of_table(&table(levels, fit, &f));
                if tau > best.0 + 1e-9 {
                    best = (tau, f);
                }
            }
        }
    }
    best.1
}

fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut r = vec![0.0; xs.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && xs[idx[j + 1]] == xs[idx[i]] {
            j += 1;
        }
        for &k in &idx[i..=j] {
            r[k] = (i + j) as f64 / 2.0;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rho between reference level and steps.
pub fn spearman(items: &[Item]) -> f64 {
    let a = ranks(&items.iter().map(|x| x.0 as f64).collect::<Vec<_>>());
    let b = ranks(&items.iter().map(|x| x.1).collect::<Vec<_>>());
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(&b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

/// The q-quantile of sorted values (nearest index).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let i = ((q * (sorted.len() - 1) as f64).round() as usize).min(sorted.len() - 1);
    sorted[i]
}

/// The three cut points maximising Kendall's tau-b (not gamma, which rewards lumping levels
/// into one grade), over a grid of step quantiles.
pub fn best_cuts(levels: usize, fit: &[Item]) -> Option<Thresholds> {
    let mut steps: Vec<f64> = fit.iter().map(|x| x.1).collect();
    steps.sort_by(f64::total_cmp);
    let mut grid: Vec<f64> = (1..60).map(|i| quantile(&steps, i as f64 / 60.0)).collect();
    grid.dedup();
    let mut best: Option<(f64, Thresholds)> = None;
    for a in 0..grid.len() {
        for b in a + 1..grid.len() {
            for c in b + 1..grid.len() {
                let t = Thresholds::new(grid[a], grid[b], grid[c]).ok()?;
                let g = tau_b_of_table(&table(levels, fit, &t));
                if best.as_ref().is_none_or(|(bg, _)| g > *bg + 1e-12) {
                    best = Some((g, t));
                }
            }
        }
    }
    best.map(|b| b.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn gamma_and_rho() {
        // Perfect agreement on the diagonal; reversed gives -1.
        let t = vec![[5, 0, 0, 0], [0, 5, 0, 0], [0, 0, 5, 0], [0, 0, 0, 5]];
        assert_eq!(gamma_of_table(&t), 1.0);
        let r: Vec<[u64; 4]> = t.iter().rev().cloned().collect();
        assert_eq!(gamma_of_table(&r), -1.0);
        let items = vec![(0, 1.0, 1), (1, 2.0, 1), (2, 3.0, 2), (3, 10.0, 3)];
        assert!((spearman(&items) - 1.0).abs() < 1e-12);
    }
}
