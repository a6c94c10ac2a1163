//! Sudoku geometry: cells, houses and peers as 81-bit cell sets, built at compile time.
//!
//! Cell `i` is row `i / 9`, column `i % 9`. Houses 0-8 are rows, 9-17 columns, 18-26 boxes.

/// A set of cells, bit `i` = cell `i`.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct Cells(pub u128);

impl Cells {
    pub const EMPTY: Cells = Cells(0);
    /// A look-up: a variable 128-bit shift is a dozen instructions, and the rater's
    /// bookkeeping takes a cell's bit for every candidate it drops.
    pub const fn one(cell: usize) -> Cells {
        Cells(CELL_BIT[cell])
    }
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub const fn contains(self, cell: usize) -> bool {
        self.0 & CELL_BIT[cell] != 0
    }
    pub const fn and(self, o: Cells) -> Cells {
        Cells(self.0 & o.0)
    }
    pub const fn or(self, o: Cells) -> Cells {
        Cells(self.0 | o.0)
    }
    pub const fn minus(self, o: Cells) -> Cells {
        Cells(self.0 & !o.0)
    }
    pub fn first(self) -> Option<usize> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }
    pub fn iter(self) -> CellIter {
        CellIter(self.0)
    }
}

/// `1 << cell` for each of the 128 bits of a cell set.
pub static CELL_BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut c = 0;
    while c < 128 {
        t[c] = 1 << c;
        c += 1;
    }
    t
};

#[derive(Clone)]
pub struct CellIter(u128);
impl Iterator for CellIter {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(c)
    }
}

pub const fn row_of(cell: usize) -> usize {
    cell / 9
}
pub const fn col_of(cell: usize) -> usize {
    cell % 9
}
pub const fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

const fn build_houses() -> [[u8; 9]; 27] {
    let mut h = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            h[i][j] = (i * 9 + j) as u8;
            h[9 + i][j] = (j * 9 + i) as u8;
            h[18 + i][j] = ((i / 3) * 27 + (i % 3) * 3 + (j / 3) * 9 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    h
}

/// The nine cells of each house, in reading order.
pub static HOUSES: [[u8; 9]; 27] = build_houses();

const fn build_house_masks() -> [Cells; 27] {
    let houses = build_houses();
    let mut m = [Cells(0); 27];
    let mut h = 0;
    while h < 27 {
        let mut j = 0;
        while j < 9 {
            m[h].0 |= 1 << houses[h][j];
            j += 1;
        }
        h += 1;
    }
    m
}
pub static HOUSE_MASK: [Cells; 27] = build_house_masks();

const fn build_peers() -> [Cells; 81] {
    let mut p = [Cells(0); 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            if a != b && (row_of(a) == row_of(b) || col_of(a) == col_of(b) || box_of(a) == box_of(b)) {
                p[a].0 |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    p
}
/// The 20 peers of each cell (same row, column or box; not the cell itself).
pub static PEERS: [Cells; 81] = build_peers();

/// The houses of a cell: row, column, box (a table: the rater asks on every candidate removal).
#[inline]
pub fn houses_of(cell: usize) -> [usize; 3] {
    const TABLE: [[u8; 3]; 81] = {
        let mut t = [[0u8; 3]; 81];
        let mut c = 0;
        while c < 81 {
            t[c] = [row_of(c) as u8, 9 + col_of(c) as u8, 18 + box_of(c) as u8];
            c += 1;
        }
        t
    };
    TABLE[cell].map(|h| h as usize)
}

/// The cells that see every cell of `set` (excluding the set itself).
pub fn common_peers(set: Cells) -> Cells {
    let mut acc = Cells(!0u128 >> 47);
    for c in set.iter() {
        acc = acc.and(PEERS[c]);
    }
    acc.minus(set)
}

/// Printable name of a cell, `r1c1` style (1-based, as players write it).
pub fn cell_name(cell: usize) -> String {
    format!("r{}c{}", row_of(cell) + 1, col_of(cell) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn shapes() {
        for h in 0..27 {
            assert_eq!(HOUSE_MASK[h].len(), 9);
        }
        for c in 0..81 {
            assert_eq!(PEERS[c].len(), 20);
        }
        assert_eq!(HOUSES[18 + 4][0], 30);
        assert_eq!(common_peers(Cells::one(0).or(Cells::one(80))).len(), 2);
    }
}
