//! The band solver's look-up tables, derived at compile time from the rules (see
//! `solve.rs` for the layout: per digit and band, 27 bits `row_in_band * 9 + col`).
//!
//! * [`BAND_OK`] / [`FORCED`]: a digit uses one minirow (row ∩ box) per row and per box of a
//!   band, a permutation of the 3×3 row×box matrix; the cells on some allowed permutation, and
//!   the minirows on all of them.
//! * [`ONE_COL_BOXES`] / [`OTHER_BANDS_OK`]: boxes whose candidates lie in one column, and what
//!   the other two bands keep once that column is taken.
//! * [`FORCED_CELLS`] / [`ONE_COL_CELLS`]: `FORCED` and `ONE_COL_BOXES` as cells; a cell in both
//!   is a hidden single.
//! * [`SELF_MASK`]: what a digit's band keeps when the digit is fixed at a cell.

pub const ALL: u32 = (1 << 27) - 1;

const fn build_shrink() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < 512 {
        let mut v = 0;
        let mut b = 0;
        while b < 3 {
            if (i >> (3 * b)) & 7 != 0 {
                v |= 1 << b;
            }
            b += 1;
        }
        t[i] = v;
        i += 1;
    }
    t
}

/// For a 9-bit row of one band (or a 9-bit minirow mask `r*3+b`): bit k set when any of
/// bits 3k..3k+3 is set.
pub static SHRINK: [u32; 512] = build_shrink();

/// The six ways a digit can sit in a band: `PERMS[p][row] = box`.
const PERMS: [[u32; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

const fn build_band_tables() -> ([u32; 512], [u32; 512]) {
    let mut ok = [0u32; 512];
    let mut forced = [0u32; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut union = 0u32;
        let mut inter = 511u32;
        let mut any = false;
        let mut p = 0;
        while p < 6 {
            let mr = (1 << PERMS[p][0]) | (1 << (3 + PERMS[p][1])) | (1 << (6 + PERMS[p][2]));
            if mask & mr == mr {
                any = true;
                union |= mr;
                inter &= mr;
            }
            p += 1;
        }
        let mut cells = 0u32;
        let mut k = 0;
        while k < 9 {
            if union & (1 << k) != 0 {
                let (r, b) = (k / 3, k % 3);
                cells |= 7 << (r * 9 + b * 3);
            }
            k += 1;
        }
        ok[mask as usize] = cells;
        forced[mask as usize] = if any { inter } else { 0 };
        mask += 1;
    }
    (ok, forced)
}

const BAND_TABLES: ([u32; 512], [u32; 512]) = build_band_tables();
/// Minirow mask (bit `row*3+box`) → the band's cells that lie on an allowed permutation.
pub static BAND_OK: [u32; 512] = BAND_TABLES.0;
/// Minirow mask → the minirows every allowed permutation uses. The solver uses it as cells
/// ([`FORCED_CELLS`]); the tests check the two forms agree.
#[cfg(test)]
pub static FORCED: [u32; 512] = BAND_TABLES.1;

const fn build_column_tables() -> ([u32; 512], [u32; 512]) {
    let mut boxes_t = [0u32; 512];
    let mut other_t = [0u32; 512];
    let mut cols: u32 = 0;
    while cols < 512 {
        let mut boxes = 0u32;
        let mut other = ALL;
        let mut b = 0;
        while b < 3 {
            let c: u32 = (cols >> (3 * b)) & 7;
            if c.count_ones() == 1 {
                boxes |= (1 << b) | (1 << (3 + b)) | (1 << (6 + b));
                let col = 3 * b + c.trailing_zeros();
                other &= !(0o001_001_001 << col);
            }
            b += 1;
        }
        boxes_t[cols as usize] = boxes;
        other_t[cols as usize] = other;
        cols += 1;
    }
    (boxes_t, other_t)
}

const COLUMN_TABLES: ([u32; 512], [u32; 512]) = build_column_tables();
/// Possible-columns mask of one band → minirows (all rows) of boxes confined to one column.
/// As cells: [`ONE_COL_CELLS`].
#[cfg(test)]
pub static ONE_COL_BOXES: [u32; 512] = COLUMN_TABLES.0;
/// Possible-columns mask of one band → what the other two bands may keep.
pub static OTHER_BANDS_OK: [u32; 512] = COLUMN_TABLES.1;

/// A minirow mask → the band's cells in those minirows.
const fn minirow_cells(m: u32) -> u32 {
    let mut cells = 0u32;
    let mut k = 0;
    while k < 9 {
        if m & (1 << k) != 0 {
            cells |= 7 << ((k / 3) * 9 + (k % 3) * 3);
        }
        k += 1;
    }
    cells
}

/// A table of minirow masks as a table of the band's cells in those minirows.
const fn as_cells(minirows: [u32; 512]) -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = minirow_cells(minirows[m]);
        m += 1;
    }
    t
}

/// Minirow mask → the cells of the minirows every allowed permutation uses (`FORCED`, as cells).
pub static FORCED_CELLS: [u32; 512] = as_cells(BAND_TABLES.1);

/// Possible-columns mask of one band → the cells of its boxes confined to one column
/// (`ONE_COL_BOXES`, as cells).
pub static ONE_COL_CELLS: [u32; 512] = as_cells(COLUMN_TABLES.0);

const fn build_self_mask() -> [u32; 27] {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, c) = (p / 9, p % 9);
        let bx = c / 3;
        let mut m = ALL & !(0o777 << (r * 9));
        let mut rr = 0;
        while rr < 3 {
            m &= !(7 << (rr * 9 + bx * 3));
            rr += 1;
        }
        t[p] = m | (1 << p);
        p += 1;
    }
    t
}
/// Cell position in band → what its digit's band may keep (row and box peers removed).
pub static SELF_MASK: [u32; 27] = build_self_mask();

pub const ROW_CELLS: [u32; 8] =
    [0, 0o777, 0o777_000, 0o777_777, 0o777_000_000, 0o777_000_777, 0o777_777_000, 0o777_777_777];

/// Number of set bits of a 9-bit value.
pub static POP9: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = (i as u32).count_ones();
        i += 1;
    }
    t
};

/// Box mask (bit b = box b of the band) → the band's cells in those boxes.
pub const BOX_CELLS: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut m = 0;
    while m < 8 {
        let mut b = 0;
        while b < 3 {
            if m >> b & 1 != 0 {
                t[m] |= 0o007_007_007 << (3 * b);
            }
            b += 1;
        }
        m += 1;
    }
    t
};

/// Columns a band must hold the digit in (bit = column; the other two bands have no candidate
/// there) → the band's cells kept: a box with one such column keeps only that column, a box with
/// two or more keeps nothing (the band is then dead).
pub static COL_CLAIM: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut keep = 0u32;
        let mut b = 0;
        while b < 3 {
            let c = (m >> (3 * b)) & 7;
            let box_cells = 0o007_007_007u32 << (3 * b);
            if c == 0 {
                keep |= box_cells;
            } else if c == 1 || c == 2 || c == 4 {
                keep |= 0o001_001_001u32 << (3 * b + (c as u32).trailing_zeros());
            }
            b += 1;
        }
        t[m] = keep;
        m += 1;
    }
    t
};

/// A 9-bit row → its bits spread to nine 4-bit counters (bit c to bits 4c..4c+4): summing the
/// spread rows counts per column.
pub static SPREAD: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut i = 0;
    while i < 512 {
        let mut c = 0;
        while c < 9 {
            t[i] |= ((i as u64 >> c) & 1) << (4 * c);
            c += 1;
        }
        i += 1;
    }
    t
};
