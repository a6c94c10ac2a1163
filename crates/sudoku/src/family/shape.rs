//! The board of a Sudoku-family puzzle, everything but its givens: n symbols on an n×n grid,
//! its houses (rows, columns, regions, and the two long diagonals for X) and its cages with sums
//! (killer).
//!
//! Invariants, checked by `Shape::new` (the one constructor): 4 ≤ n ≤ 25 (`MAX_N`); `regions`
//! holds n cells of each id 0..n, each region connected; a box shape R×C has R·C = n, R ≥ 2
//! and C ≥ 2 (a box one cell tall or wide would make a Latin square), and its regions are the
//! boxes; cages are connected, disjoint, of 1..=n cells, with a sum that some
//! set of distinct digits 1..=n reaches. Cells are numbered row-major, `r * n + c`.
//! Derived tables (houses, the houses of each cell, peers, the cage of each cell) are built once.

/// The largest symbol count (Solo goes to 31; the SPEC's text form to 35; 25 is 5×5 boxes).
pub const MAX_N: usize = 25;

/// A set of digits 1..=25 as bits of a `u32` (bit d = digit d; bit 0 never set).
pub type Mask = u32;

/// The digits 1..=n.
pub const fn full(n: usize) -> Mask {
    ((1u64 << (n + 1)) - 2) as Mask
}

/// A killer cage: its cells (sorted) and the sum of their digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    pub sum: u32,
    pub cells: Vec<u16>,
}

/// What kind of house, for the techniques that care (fish use rows and columns; intersections
/// pair any two houses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HouseKind {
    Row,
    Col,
    Region,
    Diagonal,
}

#[derive(Clone, Debug)]
pub struct Shape {
    pub n: usize,
    /// Box shape (rows, cols), or None for jigsaw regions.
    pub boxes: Option<(usize, usize)>,
    /// Region id of each cell.
    pub regions: Vec<u8>,
    pub diagonals: bool,
    pub cages: Vec<Cage>,
    /// Rows 0..n, columns n..2n, regions 2n..3n, then the main diagonal and the anti-diagonal.
    pub houses: Vec<Vec<u16>>,
    pub house_kind: Vec<HouseKind>,
    /// The houses of each cell (3, or 4–5 on a diagonal).
    pub cell_houses: Vec<Vec<u16>>,
    /// Every other cell sharing a house with the cell (cages do not make peers: a cage's digits
    /// differ too, handled by the cage constraint).
    pub peers: Vec<Vec<u16>>,
    /// Index into `cages` of each cell's cage, or `u16::MAX`.
    pub cage_of: Vec<u16>,
    /// Pairs of houses (a, b), a < b, sharing two or more cells (box and line, region and line,
    /// region or line and diagonal): where pointing and claiming apply. Ordered by b then a:
    /// region by region, its rows then its columns (then the diagonals' overlaps), the order in
    /// which the rater's intersection scan takes them, as classic 9×9's engine scans boxes.
    pub overlaps: Vec<(u16, u16)>,
    /// For each overlap (a, b), in the same order: the shared cells and those of a alone, in
    /// a's order, and those of b alone, in b's order.
    pub overlap_parts: Vec<[Vec<u16>; 3]>,
    /// Killer boards: the 45 rule's tables (`rule45_tables`), built at the first
    /// use and shared by the counter and the rater.
    rule45: std::sync::OnceLock<std::sync::Arc<[Vec<Rule45>; 2]>>,
}

impl PartialEq for Shape {
    fn eq(&self, o: &Shape) -> bool {
        self.n == o.n
            && self.boxes == o.boxes
            && self.regions == o.regions
            && self.diagonals == o.diagonals
            && self.cages == o.cages
    }
}
impl Eq for Shape {}

/// The most square box R×C with R ≤ C and R·C = n (SPEC: the default shape of a text line).
pub(crate) fn default_box(n: usize) -> (usize, usize) {
    let r = (1..=n).filter(|r| n.is_multiple_of(*r) && r * r <= n).max().unwrap_or(1);
    (r, n / r)
}

/// The region ids of R×C boxes on an n×n grid (n = R·C), numbered in reading order.
pub(crate) fn box_regions(r: usize, c: usize) -> Vec<u8> {
    let n = r * c;
    (0..n * n).map(|cell| ((cell / n) / r * r + (cell % n) / c) as u8).collect()
}

impl Shape {
    /// Check and complete a board description; the error says what is wrong.
    pub fn new(
        n: usize,
        boxes: Option<(usize, usize)>,
        regions: Option<Vec<u8>>,
        diagonals: bool,
        mut cages: Vec<Cage>,
    ) -> Result<Shape, String> {
        if !(4..=MAX_N).contains(&n) {
            return Err(format!("size {n} is outside 4..={MAX_N}"));
        }
        let regions = match (boxes, regions) {
            (Some((r, c)), given) => {
                if r * c != n || r == 0 {
                    return Err(format!("box {r}x{c} does not make {n} symbols"));
                }
                if r < 2 || c < 2 {
                    return Err(format!("box {r}x{c}: a box needs at least 2 rows and 2 columns"));
                }
                let b = box_regions(r, c);
                if let Some(g) = given {
                    if g != b {
                        return Err(format!("regions do not match box {r}x{c}"));
                    }
                }
                b
            }
            (None, Some(g)) => g,
            (None, None) => return Err("neither box nor regions given".into()),
        };
        if regions.len() != n * n {
            return Err(format!("regions: {} cells, expected {}", regions.len(), n * n));
        }
        let mut count = vec![0usize; n];
        for &id in &regions {
            if id as usize >= n {
                return Err(format!("region id {id} is not below {n}"));
            }
            count[id as usize] += 1;
        }
        if let Some(id) = count.iter().position(|&k| k != n) {
            return Err(format!("region {id} has {} cells, expected {n}", count[id]));
        }
        for id in 0..n as u8 {
            let cells: Vec<u16> = (0..n * n).filter(|&c| regions[c] == id).map(|c| c as u16).collect();
            if !connected(n, &cells) {
                return Err(format!("region {id} is not connected"));
            }
        }
        let mut cage_of = vec![u16::MAX; n * n];
        for (i, cage) in cages.iter_mut().enumerate() {
            cage.cells.sort_unstable();
            let k = cage.cells.len();
            if k == 0 || k > n {
                return Err(format!("cage {} has {k} cells (1..={n})", i + 1));
            }
            for &c in &cage.cells {
                if c as usize >= n * n {
                    return Err(format!("cage {} has a cell outside the grid", i + 1));
                }
                if cage_of[c as usize] != u16::MAX {
                    return Err(format!("cell [{}, {}] is in two cages", c as usize / n, c as usize % n));
                }
                cage_of[c as usize] = i as u16;
            }
            let (lo, hi) = ((1..=k as u32).sum::<u32>(), (n as u32 + 1 - k as u32..=n as u32).sum::<u32>());
            if !(lo..=hi).contains(&cage.sum) {
                return Err(format!("cage {} sum {} is outside {lo}..={hi} for {k} cells", i + 1, cage.sum));
            }
            if !connected(n, &cage.cells) {
                return Err(format!("cage {} is not connected", i + 1));
            }
        }
        let mut houses: Vec<Vec<u16>> = Vec::with_capacity(3 * n + 2);
        let mut house_kind = Vec::new();
        for r in 0..n {
            houses.push((0..n).map(|c| (r * n + c) as u16).collect());
            house_kind.push(HouseKind::Row);
        }
        for c in 0..n {
            houses.push((0..n).map(|r| (r * n + c) as u16).collect());
            house_kind.push(HouseKind::Col);
        }
        for id in 0..n as u8 {
            houses.push((0..n * n).filter(|&c| regions[c] == id).map(|c| c as u16).collect());
            house_kind.push(HouseKind::Region);
        }
        if diagonals {
            houses.push((0..n).map(|i| (i * n + i) as u16).collect());
            houses.push((0..n).map(|i| (i * n + n - 1 - i) as u16).collect());
            house_kind.extend([HouseKind::Diagonal; 2]);
        }
        let mut cell_houses = vec![Vec::new(); n * n];
        for (h, cells) in houses.iter().enumerate() {
            for &c in cells {
                cell_houses[c as usize].push(h as u16);
            }
        }
        let peers = (0..n * n)
            .map(|c| {
                let mut p: Vec<u16> = cell_houses[c]
                    .iter()
                    .flat_map(|&h| houses[h as usize].iter().copied())
                    .filter(|&o| o as usize != c)
                    .collect();
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect();
        let mut overlaps = Vec::new();
        for a in 0..houses.len() {
            for b in a + 1..houses.len() {
                if houses[a].iter().filter(|c| houses[b].contains(c)).count() >= 2 {
                    overlaps.push((a as u16, b as u16));
                }
            }
        }
        overlaps.sort_by_key(|&(a, b)| (b, a));
        let overlap_parts = overlaps
            .iter()
            .map(|&(a, b)| {
                let (ha, hb) = (&houses[a as usize], &houses[b as usize]);
                let (shared, only_a) = ha.iter().partition(|c| hb.contains(c));
                [shared, only_a, hb.iter().copied().filter(|c| !ha.contains(c)).collect()]
            })
            .collect();
        Ok(Shape {
            n,
            boxes,
            regions,
            diagonals,
            cages,
            houses,
            house_kind,
            cell_houses,
            peers,
            cage_of,
            overlaps,
            overlap_parts,
            rule45: std::sync::OnceLock::new(),
        })
    }

    pub fn cells(&self) -> usize {
        self.n * self.n
    }

    pub(crate) fn is_killer(&self) -> bool {
        !self.cages.is_empty()
    }

    /// The 45 rule's tables of the board: single houses, groups of houses.
    pub(crate) fn rule45(&self) -> std::sync::Arc<[Vec<Rule45>; 2]> {
        self.rule45.get_or_init(|| std::sync::Arc::new(rule45_tables(self))).clone()
    }

    /// The same board without its cages.
    pub(crate) fn without_cages(&self) -> Shape {
        Shape::new(self.n, self.boxes, Some(self.regions.clone()), self.diagonals, Vec::new()).expect("valid shape")
    }

    /// The same board with these cages.
    pub(crate) fn with_cages(&self, cages: Vec<Cage>) -> Result<Shape, String> {
        Shape::new(self.n, self.boxes, Some(self.regions.clone()), self.diagonals, cages)
    }

    /// The shape's name in ids (`variant_name`).
    pub fn name(&self) -> String {
        variant_name(self.n, self.boxes, self.diagonals, self.is_killer())
    }

    /// Whether a full grid obeys every house and cage.
    pub fn is_solution(&self, grid: &[u8]) -> bool {
        let all = full(self.n);
        grid.len() == self.cells()
            && grid.iter().all(|&d| d >= 1 && d as usize <= self.n)
            && self.houses.iter().all(|h| h.iter().fold(0, |m, &c| m | 1 << grid[c as usize]) == all)
            && self.cages.iter().all(|cage| {
                let m = cage.cells.iter().fold(0u32, |m, &c| m | 1 << grid[c as usize]);
                m.count_ones() as usize == cage.cells.len()
                    && cage.cells.iter().map(|&c| grid[c as usize] as u32).sum::<u32>() == cage.sum
            })
    }
}

/// A board's name in ids (SPEC): `9`, `16`, `6x` … with `j` for jigsaw (no boxes), `x` for
/// diagonals, `k` for killer; a box other than the default for n gets `RxC`: `2x4`.
pub(crate) fn variant_name(n: usize, boxes: Option<(usize, usize)>, diagonals: bool, killer: bool) -> String {
    let mut s = match boxes {
        Some(b) if b != default_box(n) => format!("{}x{}", b.0, b.1),
        _ => n.to_string(),
    };
    if boxes.is_none() {
        s.push('j');
    }
    if diagonals {
        s.push('x');
    }
    if killer {
        s.push('k');
    }
    s
}

/// The grade tables (`[grades.variant.NAME]`) that may grade a board, most specific first:
/// its own name, n then `j` for jigsaw regions, `x` for diagonals, `k` for killer cages
/// (`9jk`), then, for a combination, each of its parts alone, killer first (it sets the step
/// scale): `9k`, `9j`. Empty for plain boxes, which the size's table grades.
pub(crate) fn grade_variants(n: usize, jigsaw: bool, diagonals: bool, killer: bool) -> Vec<String> {
    let parts: Vec<char> =
        [(jigsaw, 'j'), (diagonals, 'x'), (killer, 'k')].iter().filter(|(on, _)| *on).map(|&(_, c)| c).collect();
    let mut out = Vec::new();
    if !parts.is_empty() {
        out.push(format!("{n}{}", parts.iter().collect::<String>()));
    }
    if parts.len() > 1 {
        out.extend(parts.iter().rev().map(|c| format!("{n}{c}")));
    }
    out
}

/// These cells (of an n×n grid) split into orthogonally connected pieces, each in the order
/// it was reached from its first cell (in the cells' order).
pub fn pieces(n: usize, cells: &[u16]) -> Vec<Vec<u16>> {
    let mut left = cells.to_vec();
    let mut out = Vec::new();
    while let Some(&first) = left.first() {
        let mut piece = vec![first];
        let mut i = 0;
        while i < piece.len() {
            let c = piece[i] as usize;
            i += 1;
            for o in neighbours(n, c) {
                if left.contains(&(o as u16)) && !piece.contains(&(o as u16)) {
                    piece.push(o as u16);
                }
            }
        }
        left.retain(|x| !piece.contains(x));
        out.push(piece);
    }
    out
}

/// Whether these cells (of an n×n grid) form one orthogonally connected piece.
pub fn connected(n: usize, cells: &[u16]) -> bool {
    pieces(n, cells).len() <= 1
}

/// The orthogonal neighbours of a cell, in the order right, down, left, up.
pub fn neighbours(n: usize, c: usize) -> impl Iterator<Item = usize> {
    let (r, col) = (c / n, c % n);
    [
        (col + 1 < n).then_some(c + 1),
        (r + 1 < n).then_some(c + n),
        (col > 0).then(|| c.wrapping_sub(1)),
        (r > 0).then(|| c.wrapping_sub(n)),
    ]
    .into_iter()
    .flatten()
}

/// The groups of houses the multi-house 45 rule looks at: 2 and 3 adjacent rows, 2 and 3
/// adjacent columns, and pairs of regions that share a border.
pub(crate) fn house_groups(shape: &Shape) -> Vec<Vec<usize>> {
    let n = shape.n;
    let mut out = Vec::new();
    for width in 2..=3 {
        for first in [0, n] {
            for i in 0..=n - width {
                out.push((first + i..first + i + width).collect());
            }
        }
    }
    let region = |c: usize| 2 * n + shape.regions[c] as usize;
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for c in 0..n * n {
        for o in neighbours(n, c) {
            let (a, b) = (region(c), region(o));
            if a < b {
                pairs.push((a, b));
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    out.extend(pairs.into_iter().map(|(a, b)| vec![a, b]));
    out
}

/// The 45 rule over one group of houses, as far as the board alone decides it: the houses, then
/// the innies (cells of the union outside the cages lying wholly in it) with their sum, and the
/// outies (cells outside the union of the cages sticking out of it) with theirs, the latter
/// only when every cell of the union is caged (else the innies' sum is not the partial cages'
/// part alone). The position subtracts its placed digits (`innies_outies`).
#[derive(Debug)]
pub struct Rule45 {
    pub houses: Vec<usize>,
    pub sides: [Option<(Vec<usize>, i64)>; 2],
    /// The sides' cells as bit sets, on boards of up to 128 cells (else 0): with the
    /// position's open cells (`Position::open_bits`), how many are left without a look at each.
    pub masks: [u128; 2],
}

/// The 45-rule table of single houses (rows, columns, regions: not the diagonals) and of the
/// `house_groups`, built once per board (`Shape::rule45`) instead of at every look.
pub(crate) fn rule45_tables(shape: &Shape) -> [Vec<Rule45>; 2] {
    let singles: Vec<Vec<usize>> =
        (0..shape.houses.len()).filter(|&h| shape.house_kind[h] != HouseKind::Diagonal).map(|h| vec![h]).collect();
    let groups = house_groups(shape);
    let singles = singles.into_iter().map(|h| rule45_of(shape, h)).collect();
    let multi = groups.into_iter().map(|g| rule45_of(shape, g)).collect();
    [singles, multi]
}

/// The 45 rule over the union of `houses` (disjoint, each holding every digit once), as the
/// board alone decides it (`Rule45`).
pub(crate) fn rule45_of(shape: &Shape, houses: Vec<usize>) -> Rule45 {
    let n = shape.n as i64;
    let mut inside = vec![false; shape.cells()];
    let mut seen = vec![false; shape.cages.len()];
    for &h in &houses {
        for &c in &shape.houses[h] {
            inside[c as usize] = true;
        }
    }
    let total = houses.len() as i64 * n * (n + 1) / 2;
    // Cages touching the union: wholly inside, or sticking out.
    let (mut whole_sum, mut partial_sum) = (0i64, 0i64);
    let (mut innies, mut outies) = (Vec::new(), Vec::new());
    let mut uncaged = false;
    for &h in &houses {
        for &c in &shape.houses[h] {
            let k = shape.cage_of[c as usize];
            if k == u16::MAX {
                innies.push(c as usize);
                uncaged = true;
                continue;
            }
            if std::mem::replace(&mut seen[k as usize], true) {
                continue;
            }
            let cage = &shape.cages[k as usize];
            if cage.cells.iter().all(|&x| inside[x as usize]) {
                whole_sum += cage.sum as i64;
            } else {
                partial_sum += cage.sum as i64;
                for &x in &cage.cells {
                    if inside[x as usize] {
                        innies.push(x as usize);
                    } else {
                        outies.push(x as usize);
                    }
                }
            }
        }
    }
    let innie_sum = total - whole_sum;
    let outie_sum = partial_sum - innie_sum;
    let side = |cells: Vec<usize>, sum: i64| (!cells.is_empty()).then_some((cells, sum));
    let sides = [side(innies, innie_sum), if uncaged { None } else { side(outies, outie_sum) }];
    let mask = |s: &Option<(Vec<usize>, i64)>| match s {
        Some((cells, _)) if shape.cells() <= 128 => cells.iter().fold(0u128, |m, &c| m | 1 << c),
        _ => 0,
    };
    let masks = [mask(&sides[0]), mask(&sides[1])];
    Rule45 { houses, sides, masks }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grade_tables_most_specific_first() {
        assert!(grade_variants(9, false, false, false).is_empty());
        assert_eq!(grade_variants(9, false, false, true), ["9k"]);
        assert_eq!(grade_variants(6, true, false, false), ["6j"]);
        assert_eq!(grade_variants(9, true, false, true), ["9jk", "9k", "9j"]);
        assert_eq!(grade_variants(9, false, true, true), ["9xk", "9k", "9x"]);
    }

    #[test]
    fn boxes_and_default_shapes() {
        assert_eq!(default_box(9), (3, 3));
        assert_eq!(default_box(6), (2, 3));
        assert_eq!(default_box(8), (2, 4));
        assert_eq!(default_box(12), (3, 4));
        assert_eq!(default_box(25), (5, 5));
        assert_eq!(default_box(7), (1, 7));
        let s = Shape::new(6, Some((2, 3)), None, false, Vec::new()).unwrap();
        assert_eq!(s.regions[0..6], [0, 0, 0, 1, 1, 1]);
        assert_eq!(s.regions[12..18], [2, 2, 2, 3, 3, 3]);
        assert_eq!(s.peers[0].len(), 5 + 5 + 2);
        assert_eq!(s.name(), "6");
        let x = Shape::new(9, Some((3, 3)), None, true, Vec::new()).unwrap();
        assert_eq!(x.cell_houses[40].len(), 5);
        assert_eq!(x.name(), "9x");
        assert_eq!(Shape::new(8, Some((4, 2)), None, false, Vec::new()).unwrap().name(), "4x2");
    }

    #[test]
    fn bad_shapes_are_refused() {
        assert!(Shape::new(3, Some((1, 3)), None, false, Vec::new()).is_err());
        // A box one cell tall or wide: the board would be a Latin square.
        for b in [(1, 4), (4, 1), (1, 7), (5, 1)] {
            assert!(Shape::new(b.0 * b.1, Some(b), None, false, Vec::new()).is_err(), "{b:?}");
        }
        assert!(Shape::new(9, Some((2, 4)), None, false, Vec::new()).is_err());
        let mut r = box_regions(2, 2);
        r.swap(0, 15); // region 0 gets a far cell, region 3 a near one: both disconnected
        assert!(Shape::new(4, None, Some(r), false, Vec::new()).unwrap_err().contains("not connected"));
        let cage = |sum, cells: &[u16]| Cage { sum, cells: cells.to_vec() };
        assert!(Shape::new(4, Some((2, 2)), None, false, vec![cage(3, &[0, 1])]).is_ok());
        assert!(Shape::new(4, Some((2, 2)), None, false, vec![cage(2, &[0, 1])]).is_err());
        assert!(Shape::new(4, Some((2, 2)), None, false, vec![cage(3, &[0, 5])]).is_err());
        assert!(Shape::new(4, Some((2, 2)), None, false, vec![cage(3, &[0, 1]), cage(4, &[1, 2])]).is_err());
    }
}
