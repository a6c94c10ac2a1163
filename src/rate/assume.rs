//! Forcing chains and trial over cells holding digit bitmasks (bit d = digit d), shared by the
//! kinds whose counters can propagate an assumption (KenKen, Kakuro). The kind supplies
//! `assume(cell, digit)` — the candidates after propagating that digit, or None when it fails —
//! and builds its own steps.

use super::Tally;

/// Forcing chains. Situation: each open two-candidate cell. Success: one of its digits fails
/// when assumed (the step removes it), or both propagate and remove a common candidate of
/// another open cell (the step removes that).
pub fn forcing_chains<S>(
    cand: &[u16],
    placed: &[bool],
    mut assume: impl FnMut(usize, u8) -> Option<Vec<u16>>,
    remove: impl Fn(usize, u16) -> S,
    t: &mut Tally<S>,
) {
    for c in (0..cand.len()).filter(|&c| !placed[c] && cand[c].count_ones() == 2) {
        let (a, b) = (cand[c].trailing_zeros() as u8, 15 - cand[c].leading_zeros() as u8);
        let found = match (assume(c, a), assume(c, b)) {
            (None, None) => None,
            (None, Some(_)) => Some(remove(c, 1 << a)),
            (Some(_), None) => Some(remove(c, 1 << b)),
            (Some(x), Some(y)) => (0..cand.len())
                .find(|&p| p != c && !placed[p] && cand[p] & !(x[p] | y[p]) != 0)
                .map(|p| remove(p, cand[p] & !(x[p] | y[p]))),
        };
        t.record(found);
    }
}

/// Trial. Situation: each digit of an open cell with the fewest candidates. Success: assuming
/// it fails (the step removes it). When none fails, `guess(cell)` for the first such cell is
/// the step (the kind places the solution's digit there): the ladder always progresses.
pub fn trial<S>(
    cand: &[u16],
    placed: &[bool],
    mut assume: impl FnMut(usize, u8) -> Option<Vec<u16>>,
    remove: impl Fn(usize, u16) -> S,
    guess: impl FnOnce(usize) -> S,
    t: &mut Tally<S>,
) {
    let open = || (0..cand.len()).filter(|&c| !placed[c]);
    let min = open().map(|c| cand[c].count_ones()).min().unwrap_or(0);
    let cells: Vec<usize> = open().filter(|&c| cand[c].count_ones() == min).collect();
    for &c in &cells {
        let mut m = cand[c];
        while m != 0 {
            let d = m.trailing_zeros() as u8;
            m &= m - 1;
            t.record(assume(c, d).is_none().then(|| remove(c, 1 << d)));
        }
    }
    if t.first.is_none() {
        if let Some(&c) = cells.first() {
            t.first = Some(guess(c));
        }
    }
}
