//! Generation for the family: the board (random jigsaw regions, random killer cages), a random
//! full grid, then givens removed one symmetry orbit at a time while the solution stays unique.
//!
//! Killer boards are caged from the full grid: cages grow from random free cells (right, down,
//! left, up in a random order) to a drawn size, never repeating a digit; a board with two
//! solutions is repaired where they differ, by moving a neighbouring cell between cages or, last,
//! splitting the differing cell off; without `givens` no digit is given at all.
//! Everything random comes from the candidate's RNG: a candidate is a pure function of its seed.

use super::shape::{box_regions, connected, neighbours, pieces, Cage, Shape};
use super::solve::{random_grid, Count, Solver};
use super::FamilyParams;
use crate::generate::dig_in_stages;
use crate::Symmetry;
use pf_core::kind::Reject;
use rand::seq::SliceRandom;
use rand::Rng;
use std::sync::Arc;

/// Node budget of one uniqueness check during generation; a candidate that needs more is
/// rejected as undecided rather than waited on, and a clue whose removal is undecided stays.
///
/// 16×16 and up get a flat 600 nodes: there checks that ran out of budget cost most of the
/// generation (25×25: 112 of 313 checks, 96% of the time), while checks that prove a removal
/// safe need few nodes (25×25, seed 5: 95% under 8 nodes; 16×16: at most 343). Found and
/// undecided both keep the clue, so the smaller budget changes the givens only through the
/// rare deep proof: 25×25 (seed 5) went from 31 250 nodes to 625 with 282 → 279 givens in
/// 1/50 the time.
///
/// A killer board without givens is searched from nothing: its proofs need more nodes.
fn check_budget(shape: &Shape) -> u64 {
    let n = shape.n;
    if shape.is_killer() {
        (n * n * 500) as u64
    } else if n >= 16 {
        600
    } else {
        (n * n * 50) as u64
    }
}

/// The image of a cell under a symmetry of the n×n square.
pub fn image(sym: Symmetry, n: usize, cell: usize) -> usize {
    let (r, c) = (cell / n, cell % n);
    match sym {
        Symmetry::None => cell,
        Symmetry::Rotate180 => (n - 1 - r) * n + (n - 1 - c),
        Symmetry::Rotate90 => c * n + (n - 1 - r),
        Symmetry::Mirror => r * n + (n - 1 - c),
    }
}

/// The orbits of the cells under a symmetry, in cell order.
pub(crate) fn orbits(sym: Symmetry, n: usize) -> Vec<Vec<usize>> {
    let mut seen = vec![false; n * n];
    let mut out = Vec::new();
    for start in 0..n * n {
        if seen[start] {
            continue;
        }
        let mut orbit = vec![start];
        seen[start] = true;
        let mut c = image(sym, n, start);
        while !seen[c] {
            seen[c] = true;
            orbit.push(c);
            c = image(sym, n, c);
        }
        out.push(orbit);
    }
    out
}

/// Random jigsaw regions: n connected regions of n cells. Start from boxes (or rows when n
/// has no box shape other than 1×n) and swap pairs of neighbouring border cells between
/// regions, keeping both connected, n³ times.
pub(crate) fn random_regions(n: usize, rng: &mut impl Rng) -> Vec<u8> {
    let (r, c) = super::shape::default_box(n);
    let regions = box_regions(r, c);
    if n * n <= 128 {
        swap_regions_small(n, regions, rng)
    } else {
        swap_regions(n, regions, rng)
    }
}

/// `random_regions`' moves on the region of each cell.
fn swap_regions(n: usize, mut regions: Vec<u8>, rng: &mut impl Rng) -> Vec<u8> {
    // Scratch space reused by every move (the moves are the jigsaw generator's hot loop).
    let mut border_b = Vec::with_capacity(n * n);
    let mut stack = Vec::with_capacity(n * n);
    let mut seen = vec![false; n * n];
    for _ in 0..n * n * n {
        // A cell a of region A beside region B, and a cell b of B beside A (b ≠ neighbour of
        // a needed): swap them.
        let a = rng.gen_range(0..n * n);
        let Some(o) = other_region_beside(n, &regions, a, rng) else { continue };
        let (ra, rb) = (regions[a], regions[o]);
        border_b.clear();
        border_b.extend(
            (0..n * n).filter(|&x| regions[x] == rb && x != o && neighbours(n, x).any(|y| regions[y] == ra && y != a)),
        );
        let Some(&b) = border_b.choose(rng) else { continue };
        regions[a] = rb;
        regions[b] = ra;
        if !region_connected(n, &regions, ra, &mut stack, &mut seen)
            || !region_connected(n, &regions, rb, &mut stack, &mut seen)
        {
            regions[a] = ra;
            regions[b] = rb;
        }
    }
    regions
}

/// A random neighbour of `a` in another region (right, down, left, up order), if any.
fn other_region_beside(n: usize, regions: &[u8], a: usize, rng: &mut impl Rng) -> Option<usize> {
    let (mut nb, mut k) = ([0usize; 4], 0);
    for o in neighbours(n, a).filter(|&o| regions[o] != regions[a]) {
        nb[k] = o;
        k += 1;
    }
    nb[..k].choose(rng).copied()
}

/// `random_regions`' moves up to 11×11, on a bit mask per region: the cells of B beside A are
/// B's mask and the neighbours of A's, and a region stays connected when a flood fill of its
/// mask reaches all of it. The same moves, the same random draws, the same regions.
fn swap_regions_small(n: usize, mut regions: Vec<u8>, rng: &mut impl Rng) -> Vec<u8> {
    let mut masks = vec![0u128; n];
    for (x, &r) in regions.iter().enumerate() {
        masks[r as usize] |= 1 << x;
    }
    let mut border = [0usize; 128];
    let bits = Bits::new(n);
    for _ in 0..n * n * n {
        let a = rng.gen_range(0..n * n);
        let Some(o) = other_region_beside(n, &regions, a, rng) else { continue };
        let (ra, rb) = (regions[a] as usize, regions[o] as usize);
        let mut m = masks[rb] & bits.beside(masks[ra] & !(1 << a)) & !(1 << o);
        let mut k = 0;
        while m != 0 {
            border[k] = m.trailing_zeros() as usize;
            m &= m - 1;
            k += 1;
        }
        let Some(&b) = border[..k].choose(rng) else { continue };
        let (old_a, old_b) = (masks[ra], masks[rb]);
        masks[ra] = old_a & !(1 << a) | 1 << b;
        masks[rb] = old_b & !(1 << b) | 1 << a;
        if bits.connected(masks[ra]) && bits.connected(masks[rb]) {
            regions[a] = rb as u8;
            regions[b] = ra as u8;
        } else {
            (masks[ra], masks[rb]) = (old_a, old_b);
        }
    }
    regions
}

/// An n×n grid (n² ≤ 128) as bit masks, for `swap_regions_small`.
#[derive(Clone, Copy)]
struct Bits {
    n: usize,
    /// Every cell but those of the first column, of the last column; every cell.
    not_first: u128,
    not_last: u128,
    all: u128,
}

impl Bits {
    fn new(n: usize) -> Bits {
        let col = |c: usize| (0..n).fold(0u128, |m, r| m | 1 << (r * n + c));
        let all = if n * n == 128 { u128::MAX } else { (1u128 << (n * n)) - 1 };
        Bits { n, not_first: all & !col(0), not_last: all & !col(n - 1), all }
    }

    /// The cells orthogonally beside some cell of `cells`.
    fn beside(self, cells: u128) -> u128 {
        (cells << 1 & self.not_first) | (cells >> 1 & self.not_last) | (cells << self.n | cells >> self.n) & self.all
    }

    /// Whether `cells` form one orthogonally connected piece: a flood fill from the first
    /// cell, every neighbour at once.
    fn connected(self, cells: u128) -> bool {
        let mut reached = cells & cells.wrapping_neg();
        loop {
            let next = (reached | self.beside(reached)) & cells;
            if next == reached {
                return reached == cells;
            }
            reached = next;
        }
    }
}

/// Whether region `id` is one orthogonally connected piece (`shape::connected` on its cells),
/// by a flood fill from its first cell; `stack` and `seen` are scratch space (`seen` comes
/// back all false).
fn region_connected(n: usize, regions: &[u8], id: u8, stack: &mut Vec<usize>, seen: &mut [bool]) -> bool {
    if n * n <= 128 {
        let cells = regions.iter().enumerate().filter(|&(_, &r)| r == id).fold(0u128, |m, (x, _)| m | 1 << x);
        return Bits::new(n).connected(cells);
    }
    let Some(first) = regions.iter().position(|&x| x == id) else { return true };
    let size = regions.iter().filter(|&&x| x == id).count();
    stack.clear();
    stack.push(first);
    seen[first] = true;
    let mut count = 0;
    while let Some(c) = stack.pop() {
        count += 1;
        for o in neighbours(n, c) {
            if regions[o] == id && !seen[o] {
                seen[o] = true;
                stack.push(o);
            }
        }
    }
    for (x, &r) in regions.iter().enumerate() {
        if r == id {
            seen[x] = false;
        }
    }
    count == size
}

/// The board without its cages: regions drawn for jigsaw.
fn board(params: &FamilyParams, rng: &mut impl Rng) -> Shape {
    let n = params.size();
    let (boxes, regions) = match params.boxes {
        Some(b) => (Some(b), None),
        None => (None, Some(random_regions(n, rng))),
    };
    Shape::new(n, boxes, regions, params.diagonals, Vec::new()).expect("valid board")
}

/// Cages over a full grid: every cell covered, no digit twice in a cage.
fn grow_cages(n: usize, grid: &[u8], sizes: &[u32], rng: &mut impl Rng) -> Vec<Cage> {
    let mut owner = vec![usize::MAX; n * n];
    let mut cages: Vec<Vec<u16>> = Vec::new();
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let total: u32 = sizes.iter().sum();
    for &start in &order {
        if owner[start] != usize::MAX {
            continue;
        }
        let mut pick = rng.gen_range(0..total);
        let mut want = 1;
        for (i, &w) in sizes.iter().enumerate() {
            if pick < w {
                want = i + 1;
                break;
            }
            pick -= w;
        }
        let id = cages.len();
        let mut cells = vec![start as u16];
        owner[start] = id;
        let mut digits = 1u32 << grid[start];
        while cells.len() < want {
            let mut options: Vec<usize> = cells
                .iter()
                .flat_map(|&c| neighbours(n, c as usize))
                .filter(|&o| owner[o] == usize::MAX && digits & 1 << grid[o] == 0)
                .collect();
            options.sort_unstable();
            options.dedup();
            let Some(&o) = options.choose(rng) else { break };
            owner[o] = id;
            digits |= 1 << grid[o];
            cells.push(o as u16);
        }
        cages.push(cells);
    }
    // A one-cell cage joins a neighbouring cage that lacks its digit and is below the largest
    // size, when there is one (one-cell cages are givens in disguise).
    let max = sizes.len();
    for id in 0..cages.len() {
        if cages[id].len() != 1 {
            continue;
        }
        let c = cages[id][0] as usize;
        let mut options: Vec<usize> = neighbours(n, c)
            .map(|o| owner[o])
            .filter(|&o| o != id && cages[o].len() < max && cages[o].iter().all(|&x| grid[x as usize] != grid[c]))
            .collect();
        options.sort_unstable();
        options.dedup();
        if let Some(&o) = options.choose(rng) {
            cages[o].push(c as u16);
            owner[c] = o;
            cages[id].clear();
        }
    }
    cages
        .into_iter()
        .filter(|c| !c.is_empty())
        .map(|cells| Cage { sum: cells.iter().map(|&c| grid[c as usize] as u32).sum(), cells })
        .collect()
}

/// One repair of a killer board with two solutions: at a cell where they differ, move a
/// neighbouring cell into its cage (or it into the neighbour's), keeping cages connected, under
/// the size limit and free of repeats; failing that, split the cell off as a one-cell cage.
fn repair_cages(n: usize, grid: &[u8], cages: &mut Vec<Cage>, diff: &[usize], max: usize, rng: &mut impl Rng) {
    let c = *diff.choose(rng).expect("differing cell");
    let cage_of = |cages: &[Cage], x: usize| cages.iter().position(|k| k.cells.contains(&(x as u16))).expect("caged");
    let mut moves: Vec<(usize, usize)> = Vec::new(); // (cell, to cage)
    let home = cage_of(cages, c);
    for o in neighbours(n, c) {
        let other = cage_of(cages, o);
        if other != home {
            moves.push((o, home));
            moves.push((c, other));
        }
    }
    moves.shuffle(rng);
    for (cell, to) in moves {
        let from = cage_of(cages, cell);
        if cages[to].cells.len() >= max || cages[to].cells.iter().any(|&x| grid[x as usize] == grid[cell]) {
            continue;
        }
        let rest: Vec<u16> = cages[from].cells.iter().copied().filter(|&x| x as usize != cell).collect();
        if !connected(n, &rest) {
            continue;
        }
        cages[from].cells = rest;
        cages[to].cells.push(cell as u16);
        for k in [from, to] {
            cages[k].sum = cages[k].cells.iter().map(|&x| grid[x as usize] as u32).sum();
        }
        cages.retain(|k| !k.cells.is_empty());
        return;
    }
    if cages[home].cells.len() > 1 {
        // Split the cell off; the rest may fall apart into pieces, each its own cage.
        let rest: Vec<u16> = cages[home].cells.iter().copied().filter(|&x| x as usize != c).collect();
        cages.remove(home);
        cages.push(Cage { sum: grid[c] as u32, cells: vec![c as u16] });
        for piece in pieces(n, &rest) {
            cages.push(Cage { sum: piece.iter().map(|&x| grid[x as usize] as u32).sum(), cells: piece });
        }
    }
}

/// A unique killer board with its one-cell cages merged into neighbouring cages wherever the
/// board stays unique: a one-cell cage is a given in disguise, and Solo cannot hold one (its
/// cages have 2 to n cells), so such a board gets no `solo_id`. Each merge keeps the cages
/// connected, under the size limit and free of repeats, and is kept only when a check finds
/// no other solution (an undecided check keeps the cage as it was).
fn absorb_single_cells(plain: &Shape, mut cages: Vec<Cage>, grid: &[u8], max: usize, rng: &mut impl Rng) -> Shape {
    let n = plain.n;
    let all: Vec<usize> = (0..n * n).collect();
    let zero = vec![0u8; n * n];
    let mut singles: Vec<u16> = cages.iter().filter(|k| k.cells.len() == 1).map(|k| k.cells[0]).collect();
    singles.shuffle(rng);
    for c in singles {
        // An earlier merge may have grown this cage already.
        let Some(home) = cages.iter().position(|k| k.cells == [c]) else { continue };
        let mut options: Vec<usize> = neighbours(n, c as usize)
            .filter_map(|o| cages.iter().position(|k| k.cells.contains(&(o as u16))))
            .filter(|&k| k != home && cages[k].cells.len() < max)
            .filter(|&k| cages[k].cells.iter().all(|&x| grid[x as usize] != grid[c as usize]))
            .collect();
        options.sort_unstable();
        options.dedup();
        options.shuffle(rng);
        for k in options {
            let mut trial = cages.clone();
            trial[k].cells.push(c);
            trial[k].sum += grid[c as usize] as u32;
            trial.remove(home);
            let Ok(shape) = plain.with_cages(trial.clone()) else { continue };
            let mut solver = Solver::new(&shape, check_budget(&shape));
            if let Ok(None) = other_solution(&mut solver, &zero, grid, &all) {
                cages = trial;
                break;
            }
        }
    }
    plain.with_cages(cages).expect("merged cages stay valid")
}

/// Cells where two full grids differ.
fn differ(a: &[u8], b: &[u8]) -> Vec<usize> {
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

/// A solution of `givens` on `shape` other than `known` in which one of `cells` differs, if
/// any; Err(()) when a search hit its budget (`solver`'s, per call).
///
/// Asked one cell at a time ("a solution with this cell different?", the cells already asked
/// fixed to their known digits): taking the known digit out usually fails by propagation
/// alone, far cheaper than counting to two, which must find the known solution as well. When
/// it does not, the search follows the known digits (`find_near`): a second solution differs
/// from the known one in a few cells.
///
/// One solver serves every check of a puzzle: building its tables per check cost more than
/// the check on small boards.
fn other_solution(solver: &mut Solver, givens: &[u8], known: &[u8], cells: &[usize]) -> Result<Option<Vec<u8>>, ()> {
    solver.nodes = 0;
    let Some(mut cand) = solver.start(givens) else { return Ok(None) };
    if !solver.propagate(&mut cand) {
        return Ok(None);
    }
    for &c in cells {
        let mut other = cand.clone();
        if solver.exclude(&mut other, c, known[c]) {
            let mut out = Count { count: 0, first: None, undecided: false, nodes: 0 };
            let found = solver.find_near(other, known, &mut out);
            if out.undecided {
                return Err(());
            }
            if found.is_some() {
                return Ok(found);
            }
        }
        if !solver.assign(&mut cand, c, known[c]) {
            return Ok(None);
        }
    }
    Ok(None)
}

/// The board and a random solution grid for it.
fn board_and_grid(params: &FamilyParams, rng: &mut impl Rng) -> Result<(Shape, Vec<u8>), Reject> {
    // Some jigsaw layouts admit no grid at all (or none found quickly): draw another layout.
    // A fill that needs many nodes is not worth waiting for: a new layout costs less. Measured
    // over 2,000 layouts (9×9, then 12×12), a fill budget of n²·50 nodes fills 94% (76%) at
    // 700 µs (7.8 ms) per filled board, n²·5 fills 92% (70%) at 360 µs (2.5 ms). Box layouts
    // always fill: they keep the large budget.
    let per_cell = if params.boxes.is_some() { 50 } else { 5 };
    (0..20)
        .find_map(|_| {
            let shape = board(params, rng);
            let n = shape.n;
            random_grid(&shape, rng, (n * n * per_cell) as u64).map(|g| (shape, g))
        })
        .ok_or(Reject::GeneratorFailed)
}

/// Steered generation (`Kind::generate_within`, `--teach`): the board as `generate` makes it
/// (killer cages grown, with `--givens`), then in each stage the orbits of givens are removed
/// in one random order while `solvable(board, givens, stage)` holds: the ladder with some
/// techniques switched off finishes it, which also proves it unique. `None` for killer puzzles
/// without givens, which have no clues to remove (the constraint then filters).
#[allow(clippy::type_complexity)]
pub fn generate_within(
    params: &FamilyParams,
    rng: &mut impl Rng,
    stages: usize,
    solvable: &dyn Fn(&Arc<Shape>, &[u8], &[u8], usize) -> bool,
) -> Option<Result<(Arc<Shape>, Vec<u8>, Vec<u8>), Reject>> {
    if params.without_givens() {
        return None;
    }
    Some(board_and_grid(params, rng).and_then(|(mut shape, grid)| {
        let n = shape.n;
        if params.killer {
            let cages = grow_cages(n, &grid, params.cage_weights(), rng);
            shape = shape.with_cages(cages).map_err(|_| Reject::GeneratorFailed)?;
        }
        let shape = Arc::new(shape);
        let mut givens = grid.clone();
        let mut orbits = orbits(params.symmetry, n);
        orbits.shuffle(rng);
        dig_in_stages(&mut givens, &grid, &orbits, stages, |g, stage| solvable(&shape, g, &grid, stage));
        Ok((shape, givens, grid))
    }))
}

/// Does propagation alone (`Solver::propagate`: singles, and the cages' sums) fill every cell
/// from these givens? Then the puzzle has exactly one solution.
fn propagation_solves(solver: &Solver, givens: &[u8]) -> bool {
    solver.start(givens).is_some_and(|mut cand| solver.propagate(&mut cand) && cand.iter().all(|&m| m & (m - 1) == 0))
}

/// Build one puzzle: (board, givens, solution, repairs).
pub fn generate(params: &FamilyParams, rng: &mut impl Rng) -> Result<(Shape, Vec<u8>, Vec<u8>, u32), Reject> {
    let (mut shape, grid) = board_and_grid(params, rng)?;
    let n = shape.n;
    let mut repairs = 0;
    if params.killer {
        let max = params.cage_weights().len();
        let mut cages = grow_cages(n, &grid, params.cage_weights(), rng);
        let plain = shape.clone();
        shape = plain.with_cages(cages.clone()).map_err(|_| Reject::GeneratorFailed)?;
        // With givens allowed, the givens make the cages unique (below); without, repairs do.
        if !params.givens {
            let all: Vec<usize> = (0..n * n).collect();
            let zero = vec![0u8; n * n];
            loop {
                let mut solver = Solver::new(&shape, check_budget(&shape));
                match other_solution(&mut solver, &zero, &grid, &all) {
                    Err(()) => return Err(Reject::Undecided),
                    Ok(None) => {
                        let shape = absorb_single_cells(&plain, cages, &grid, max, rng);
                        return Ok((shape, zero, grid, repairs));
                    }
                    Ok(Some(other)) => {
                        if repairs >= params.max_repairs {
                            return Err(Reject::NotUnique);
                        }
                        repairs += 1;
                        repair_cages(n, &grid, &mut cages, &differ(&grid, &other), max, rng);
                        shape = plain.with_cages(cages.clone()).map_err(|_| Reject::GeneratorFailed)?;
                    }
                }
            }
        }
    }
    let mut givens = grid.clone();
    let mut orbits = orbits(params.symmetry, n);
    orbits.shuffle(rng);
    let mut solver = Solver::new(&shape, check_budget(&shape));
    if let Some(share) = params.keep {
        // A given goes while propagation alone still solves the puzzle (so it stays unique and
        // easy) and the share of givens stays.
        let least = (share * (n * n) as f64).ceil() as usize;
        dig_in_stages(&mut givens, &grid, &orbits, 1, |g, _| {
            g.iter().filter(|&&d| d != 0).count() >= least && propagation_solves(&solver, g)
        });
        return Ok((shape, givens, grid, repairs));
    }
    for orbit in orbits {
        let saved: Vec<u8> = orbit.iter().map(|&c| givens[c]).collect();
        for &c in &orbit {
            givens[c] = 0;
        }
        match other_solution(&mut solver, &givens, &grid, &orbit) {
            Ok(None) => {}
            Ok(Some(_)) | Err(()) => {
                for (&c, &d) in orbit.iter().zip(&saved) {
                    givens[c] = d;
                }
            }
        }
    }
    // Unique by construction: every removal was kept only when no other solution exists.
    Ok((shape, givens, grid, repairs))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::solve::count_solutions;
    use super::*;
    use rand::SeedableRng;

    /// The flood fills (bit masks to 11×11, a stack beyond) agree with `shape::connected` on
    /// the cells of every region of random maps, connected or not.
    #[test]
    fn region_fills_agree_with_connected() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(8);
        let (mut stack, mut split, mut joined) = (Vec::new(), 0, 0);
        for n in [4usize, 6, 9, 11, 12, 16] {
            let mut seen = vec![false; n * n];
            for _ in 0..200 {
                // Mostly region 0, so that it is often one piece and the others rarely.
                let regions: Vec<u8> = (0..n * n).map(|_| rng.gen_range(0..6u8).saturating_sub(3)).collect();
                for id in 0..4u8 {
                    let cells: Vec<u16> = (0..n * n).filter(|&x| regions[x] == id).map(|x| x as u16).collect();
                    let want = connected(n, &cells);
                    split += !want as u32;
                    joined += (want && cells.len() > 1) as u32;
                    assert_eq!(region_connected(n, &regions, id, &mut stack, &mut seen), want, "n {n} {regions:?}");
                    assert!(seen.iter().all(|&x| !x));
                }
            }
        }
        assert!(split > 500 && joined > 100, "{split} {joined}");
    }

    #[test]
    fn small_region_moves_match_the_plain_ones() {
        for n in 4..=11 {
            for seed in 0..5 {
                let (r, c) = super::super::shape::default_box(n);
                let mut a = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
                let mut b = a.clone();
                let small = swap_regions_small(n, box_regions(r, c), &mut a);
                assert_eq!(small, swap_regions(n, box_regions(r, c), &mut b), "n {n} seed {seed}");
                assert_eq!(a.gen::<u64>(), b.gen::<u64>(), "same draws");
            }
        }
    }

    #[test]
    fn regions_are_connected_and_even() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for n in [4usize, 5, 6, 7, 9, 11, 16] {
            let r = random_regions(n, &mut rng);
            let s = Shape::new(n, None, Some(r.clone()), false, Vec::new()).expect("valid regions");
            assert_eq!(s.n, n);
            if n > 5 {
                assert_ne!(
                    r,
                    box_regions(super::super::shape::default_box(n).0, super::super::shape::default_box(n).1)
                );
            }
        }
    }

    #[test]
    fn orbits_cover_every_cell_once() {
        for n in [4usize, 5, 6, 9, 16] {
            for sym in Symmetry::ALL {
                let o = orbits(sym, n);
                let mut all: Vec<usize> = o.concat();
                all.sort_unstable();
                assert_eq!(all, (0..n * n).collect::<Vec<_>>());
            }
        }
    }

    pub fn params(boxes: Option<(usize, usize)>, n: usize, diagonals: bool, killer: bool) -> FamilyParams {
        FamilyParams { boxes, jigsaw_size: n, diagonals, killer, max_repairs: 100, ..FamilyParams::default() }
    }

    #[test]
    fn generated_puzzles_are_unique() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let configs = [
            params(Some((2, 2)), 4, false, false),
            params(Some((2, 3)), 6, false, false),
            params(None, 6, false, false),
            params(Some((3, 3)), 9, true, false),
            params(Some((2, 2)), 4, false, true),
            params(Some((2, 3)), 6, false, true),
        ];
        for p in &configs {
            let mut made = 0;
            for _ in 0..5 {
                let Ok((shape, givens, solution, _)) = generate(p, &mut rng) else { continue };
                made += 1;
                assert!(shape.is_solution(&solution));
                let c = count_solutions(&shape, &givens, 2, 1 << 22);
                assert_eq!((c.count, c.undecided), (1, false), "{}", shape.name());
                assert_eq!(c.first.as_deref(), Some(&solution[..]));
                if p.killer {
                    assert!(givens.iter().all(|&d| d == 0));
                }
            }
            assert!(made >= 3, "{:?}: {made} of 5", p);
        }
    }

    /// The steering levels that keep givens (`FamilyParams::keep`) make unique puzzles that
    /// propagation alone solves, keep their share of givens, and keep more givens as the share
    /// grows.
    #[test]
    fn puzzles_that_keep_givens_are_unique_and_solved_by_propagation() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12);
        let boards = [
            params(Some((2, 3)), 6, false, false),
            params(None, 8, false, false),
            params(Some((3, 3)), 9, true, false),
            params(Some((3, 4)), 12, false, false),
            FamilyParams { givens: true, ..params(Some((2, 3)), 6, false, true) },
        ];
        for base in &boards {
            let mut mean = Vec::new();
            for share in [0.0, 0.45, 0.65] {
                let p = FamilyParams { keep: Some(share), ..base.clone() };
                let mut givens_total = 0;
                for _ in 0..4 {
                    let (shape, givens, solution, _) = generate(&p, &mut rng).expect("boards fill");
                    let n = shape.n;
                    let given = givens.iter().filter(|&&d| d != 0).count();
                    assert!(given as f64 >= share * (n * n) as f64, "{}: {given} givens", shape.name());
                    assert!(propagation_solves(&Solver::new(&shape, 1 << 20), &givens), "{}", shape.name());
                    let c = count_solutions(&shape, &givens, 2, 1 << 22);
                    assert_eq!((c.count, c.undecided), (1, false), "{}", shape.name());
                    assert_eq!(c.first.as_deref(), Some(&solution[..]));
                    givens_total += given;
                }
                mean.push(givens_total);
            }
            assert!(mean.windows(2).all(|w| w[0] < w[1]), "{base:?}: givens {mean:?}");
        }
    }

    #[test]
    #[ignore = "timing survey: cargo test --release --lib family::generate::tests::survey -- --ignored --nocapture"]
    fn survey() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let configs = [
            ("4", params(Some((2, 2)), 4, false, false)),
            ("6", params(Some((2, 3)), 6, false, false)),
            ("8", params(Some((2, 4)), 8, false, false)),
            ("9", params(Some((3, 3)), 9, false, false)),
            ("12", params(Some((3, 4)), 12, false, false)),
            ("16", params(Some((4, 4)), 16, false, false)),
            ("25", params(Some((5, 5)), 25, false, false)),
            ("6j", params(None, 6, false, false)),
            ("9j", params(None, 9, false, false)),
            ("9x", params(Some((3, 3)), 9, true, false)),
            ("6k", params(Some((2, 3)), 6, false, true)),
            ("9k", params(Some((3, 3)), 9, false, true)),
            ("9xk", params(Some((3, 3)), 9, true, true)),
            ("9jk", params(None, 9, false, true)),
        ];
        let only = std::env::var("SURVEY").ok();
        for (name, p) in
            configs.iter().filter(|(name, _)| only.as_deref().is_none_or(|o| o.split(',').any(|x| x == *name)))
        {
            let t = std::time::Instant::now();
            let (mut ok, mut rej, mut reps, mut givens) = (0, Vec::new(), 0, 0);
            let tries = if p.size() >= 25 {
                1
            } else if p.size() >= 16 || p.killer {
                4
            } else {
                20
            };
            for _ in 0..tries {
                match generate(p, &mut rng) {
                    Ok((_, g, _, r)) => {
                        ok += 1;
                        reps += r;
                        givens += g.iter().filter(|&&d| d != 0).count();
                    }
                    Err(e) => rej.push(e.name()),
                }
            }
            let s = t.elapsed().as_secs_f64();
            println!(
                "{name:4} {ok}/{tries} in {s:.3}s ({:.4} s each) repairs {reps} givens/puzzle {:.1} rejected {rej:?}",
                s / tries as f64,
                givens as f64 / ok.max(1) as f64
            );
        }
    }
}
