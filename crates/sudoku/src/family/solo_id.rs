//! Game IDs of Simon Tatham's Solo (`sgt-solo`), read into and written from our Sudoku-family
//! model, so that puzzles can be exchanged with Solo: played in it, checked by its solver, or
//! taken from its generator.
//!
//! The format, as Solo's own decoder reads it (worked out from its source, written anew here):
//!
//! * `PARAMS:DESC`. PARAMS is `RxC` for boxes R rows tall and C columns wide (Solo's `c` and `r`;
//!   a lone number `3` means `3x3`), or `Nj` for a jigsaw of N symbols (`RxCj` also means
//!   jigsaw of R·C; so does any `Rx1`), then `x` for the two diagonals and `k` for killer.
//!   Symmetry (`a`, `r2`, `m4`, `md2` …) and difficulty (`dt` … `du`) letters may follow and are
//!   ignored here; Solo never puts them in a game ID.
//! * DESC is comma-separated: the givens; then for a jigsaw the region edges; then for killer
//!   the cage edges and the cage sums (a grid like the givens holding each cage's sum in its
//!   first cell in reading order).
//! * A grid is row-major: a number is a cell's value in decimal, a letter `a`..`z` is a run of
//!   1..26 blank cells, and `_` separates two numbers that would otherwise run together.
//! * An edge list covers first the n·(n−1) vertical inner edges in reading order, then the
//!   n·(n−1) horizontal ones column by column, then one virtual edge that ends the list. Each
//!   character is a run of non-edges followed by an edge: `_` is 0 non-edges, `a`..`y` 1..25;
//!   `z` is 26 non-edges with no edge after them. Regions are the pieces that the non-edges join.
//!   (Solo's *encoder* writes `z` for 25, not 26, so an ID it generates with 26 or more
//!   neighbouring non-edges in a row is misread by Solo itself; it never happens on Solo's own
//!   boards of regions of n cells and cages of at most 9 cells. We follow the decoder, which is
//!   what decides what Solo shows.)
//!
//! Invariants: `parse` never panics and accepts exactly the IDs Solo's `validate_desc` accepts
//! (plus what our model needs: 4 ≤ n ≤ 25, one sum per cage, sums a cage can reach), with each
//! region numbered by its first cell in reading order; `write` returns None unless Solo can hold
//! the board, and `write(parse(id))` is `id` for every ID spelled as Solo spells them
//! (run letters as long as possible, `_` only where needed, sums in each cage's first cell).

use super::shape::{Cage, Shape, MAX_N};

/// The most symbols Solo supports.
const SOLO_MAX_N: usize = 31;
/// The most symbols of a Solo killer.
const SOLO_KILLER_MAX_N: usize = 9;

/// What the parameters part of an ID says.
#[derive(Debug, PartialEq)]
struct Params {
    n: usize,
    /// (rows, cols) of a box, or None for jigsaw.
    boxes: Option<(usize, usize)>,
    diagonals: bool,
    killer: bool,
}

/// Read a Solo game ID: the board and its givens (0 = blank), row-major.
pub fn parse(id: &str) -> Result<(Shape, Vec<u8>), String> {
    let id = id.trim();
    let Some((params, desc)) = id.split_once(':') else {
        return Err(if id.contains('#') {
            "a random-seed ID (with '#') holds no puzzle: expected PARAMS:DESC".into()
        } else {
            "no ':' between parameters and description".into()
        });
    };
    let p = parse_params(params)?;
    let n = p.n;
    let area = n * n;
    let parts: Vec<&str> = desc.split(',').collect();
    let expected = 1 + usize::from(p.boxes.is_none()) + 2 * usize::from(p.killer);
    if parts.len() != expected {
        return Err(format!(
            "description has {} comma-separated parts, expected {expected} for '{params}'",
            parts.len()
        ));
    }
    let givens = decode_grid(parts[0], n, n as u32, "givens")?;
    let mut next = 1;
    let regions = if p.boxes.is_none() {
        let blocks = decode_edges(parts[next], n, "jigsaw regions")?;
        next += 1;
        let sizes = block_sizes(&blocks);
        if sizes.len() != n {
            return Err(format!("jigsaw regions: {} regions, expected {n}", sizes.len()));
        }
        if let Some(i) = sizes.iter().position(|&k| k != n) {
            return Err(format!("jigsaw region {i} has {} cells, expected {n}", sizes[i]));
        }
        Some(blocks.iter().map(|&b| b as u8).collect())
    } else {
        None
    };
    let mut cages = Vec::new();
    if p.killer {
        let blocks = decode_edges(parts[next], n, "killer cages")?;
        let sums = decode_grid(parts[next + 1], n, (n * area) as u32, "cage sums")?;
        let sizes = block_sizes(&blocks);
        if let Some(i) = sizes.iter().position(|&k| !(2..=n).contains(&k)) {
            return Err(format!("killer cage {} has {} cells (2..={n})", i + 1, sizes[i]));
        }
        cages = vec![Cage { sum: 0, cells: Vec::new() }; sizes.len()];
        for (cell, &b) in blocks.iter().enumerate() {
            let cage = &mut cages[b];
            cage.cells.push(cell as u16);
            if sums[cell] != 0 {
                if cage.sum != 0 {
                    return Err(format!("killer cage {} has two sums", b + 1));
                }
                cage.sum = sums[cell];
            }
        }
        if let Some(i) = cages.iter().position(|c| c.sum == 0) {
            return Err(format!("killer cage {} has no sum", i + 1));
        }
    }
    let shape = Shape::new(n, p.boxes, regions, p.diagonals, cages)?;
    Ok((shape, givens.into_iter().map(|v| v as u8).collect()))
}

/// The game ID that Solo reads for this board and these givens, or None where Solo cannot hold
/// the puzzle: more symbols than Solo's 31, a killer above 9 symbols, a killer with a cell in
/// no cage or with a cage of one cell, or givens that do not fit the board.
pub fn write(shape: &Shape, givens: &[u8]) -> Option<String> {
    let n = shape.n;
    let area = n * n;
    if !(4..=SOLO_MAX_N).contains(&n)
        || givens.len() != area
        || givens.iter().any(|&v| v as usize > n)
        || shape.regions.len() != area
    {
        return None;
    }
    let mut id = match shape.boxes {
        Some((r, c)) => format!("{r}x{c}"),
        None => format!("{n}j"),
    };
    if shape.diagonals {
        id.push('x');
    }
    let killer = shape.is_killer();
    if killer {
        if n > SOLO_KILLER_MAX_N || shape.cage_of.contains(&u16::MAX) || shape.cages.iter().any(|c| c.cells.len() < 2) {
            return None;
        }
        id.push('k');
    }
    id.push(':');
    let values: Vec<u32> = givens.iter().map(|&v| u32::from(v)).collect();
    encode_grid(&mut id, &values);
    if shape.boxes.is_none() {
        id.push(',');
        let blocks: Vec<usize> = shape.regions.iter().map(|&b| b as usize).collect();
        encode_edges(&mut id, n, &blocks);
    }
    if killer {
        id.push(',');
        let blocks: Vec<usize> = shape.cage_of.iter().map(|&k| k as usize).collect();
        encode_edges(&mut id, n, &blocks);
        id.push(',');
        let mut sums = vec![0u32; area];
        for cage in &shape.cages {
            let first = *cage.cells.iter().min()? as usize;
            sums[first] = cage.sum;
        }
        encode_grid(&mut id, &sums);
    }
    Some(id)
}

/// The parameters part, as Solo's `decode_params` reads it, with our model's limits.
fn parse_params(s: &str) -> Result<Params, String> {
    let b = s.as_bytes();
    let mut i = 0;
    let number = |i: &mut usize| -> Option<usize> {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        // More than 4 digits is far beyond any size: report it as too large.
        (*i > start).then(|| s[start..*i].parse::<usize>().unwrap_or(usize::MAX).min(99_999))
    };
    let Some(mut c) = number(&mut i) else {
        return Err(format!("parameters '{s}' do not start with a size"));
    };
    let mut r = c;
    let mut seen_r = false;
    if b.get(i) == Some(&b'x') {
        i += 1;
        r = number(&mut i).ok_or_else(|| format!("parameters '{s}': no box width after 'x'"))?;
        seen_r = true;
    }
    let (mut diagonals, mut killer) = (false, false);
    while i < b.len() {
        let ch = b[i];
        i += 1;
        match ch {
            b'j' => {
                if seen_r {
                    c = c.saturating_mul(r);
                }
                r = 1;
            }
            b'x' => diagonals = true,
            b'k' => killer = true,
            b'a' => {}
            b'r' | b'm' => {
                if ch == b'm' && b.get(i) == Some(&b'd') {
                    i += 1;
                }
                number(&mut i);
            }
            b'd' => match b.get(i) {
                Some(b't' | b'b' | b'i' | b'a' | b'e' | b'u') => i += 1,
                _ => return Err(format!("parameters '{s}': unknown difficulty after 'd'")),
            },
            _ => return Err(format!("parameters '{s}': unknown character '{}'", ch as char)),
        }
    }
    if c < 2 || r < 1 {
        return Err(format!("parameters '{s}': both dimensions must be at least 2"));
    }
    let n = c.saturating_mul(r);
    if n > SOLO_MAX_N {
        return Err(format!("parameters '{s}': {n} symbols, Solo supports at most {SOLO_MAX_N}"));
    }
    if n > MAX_N {
        return Err(format!("parameters '{s}': {n} symbols, this model holds at most {MAX_N}"));
    }
    if n < 4 {
        return Err(format!("parameters '{s}': {n} symbols, this model needs at least 4"));
    }
    if killer && n > SOLO_KILLER_MAX_N {
        return Err(format!("parameters '{s}': a killer has at most {SOLO_KILLER_MAX_N} symbols"));
    }
    let boxes = (r > 1).then_some((c, r));
    Ok(Params { n, boxes, diagonals, killer })
}

/// Decode a grid part: n·n values, each 1..=max or 0 for blank.
fn decode_grid(s: &str, n: usize, max: u32, what: &str) -> Result<Vec<u32>, String> {
    let area = n * n;
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(area);
    let mut i = 0;
    while i < b.len() {
        let ch = b[i];
        i += 1;
        match ch {
            b'a'..=b'z' => {
                let run = usize::from(ch - b'a' + 1);
                if out.len() + run > area {
                    return Err(format!("{what}: more than {area} cells"));
                }
                out.resize(out.len() + run, 0);
            }
            b'_' => {}
            b'1'..=b'9' => {
                let start = i - 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let v = s[start..i].parse::<u32>().unwrap_or(u32::MAX);
                if v > max {
                    return Err(format!("{what}: number {} is above {max}", &s[start..i]));
                }
                if out.len() >= area {
                    return Err(format!("{what}: more than {area} cells"));
                }
                out.push(v);
            }
            _ => return Err(format!("{what}: unexpected character '{}'", s[i - 1..].chars().next().unwrap_or('?'))),
        }
    }
    if out.len() != area {
        return Err(format!("{what}: {} cells, expected {area}", out.len()));
    }
    Ok(out)
}

/// The two cells on either side of inner edge `pos` of an n×n grid: vertical edges in reading
/// order, then horizontal edges column by column.
fn edge_cells(n: usize, pos: usize) -> (usize, usize) {
    let m = n - 1;
    if pos < n * m {
        let (y, x) = (pos / m, pos % m);
        (y * n + x, y * n + x + 1)
    } else {
        let (x, y) = (pos / m - n, pos % m);
        (y * n + x, (y + 1) * n + x)
    }
}

/// Decode an edge list into a block id per cell, blocks numbered by first cell in reading order.
fn decode_edges(s: &str, n: usize, what: &str) -> Result<Vec<usize>, String> {
    let area = n * n;
    let edges = 2 * n * (n - 1);
    let mut parent: Vec<usize> = (0..area).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut pos = 0;
    for ch in s.chars() {
        let run = match ch {
            '_' => 0,
            'a'..='z' => ch as usize - 'a' as usize + 1,
            _ => return Err(format!("{what}: unexpected character '{ch}'")),
        };
        for _ in 0..run {
            if pos >= edges {
                return Err(format!("{what}: more than {edges} edges"));
            }
            let (p0, p1) = edge_cells(n, pos);
            let (a, b) = (root(&mut parent, p0), root(&mut parent, p1));
            parent[a.max(b)] = a.min(b);
            pos += 1;
        }
        if run != 26 {
            pos += 1;
        }
    }
    if pos != edges + 1 {
        return Err(format!("{what}: {pos} edges and the end mark, expected {}", edges + 1));
    }
    let mut id_of_root = vec![usize::MAX; area];
    let mut next = 0;
    let mut blocks = Vec::with_capacity(area);
    for cell in 0..area {
        let r = root(&mut parent, cell);
        if id_of_root[r] == usize::MAX {
            id_of_root[r] = next;
            next += 1;
        }
        blocks.push(id_of_root[r]);
    }
    Ok(blocks)
}

/// Cells per block, for blocks numbered 0.. .
fn block_sizes(blocks: &[usize]) -> Vec<usize> {
    let mut sizes = vec![0; blocks.iter().max().map_or(0, |m| m + 1)];
    for &b in blocks {
        sizes[b] += 1;
    }
    sizes
}

/// Append a grid (0 = blank) as Solo spells it.
fn encode_grid(out: &mut String, values: &[u32]) {
    let start = out.len();
    let mut run = 0;
    for &v in values.iter().chain(std::iter::once(&u32::MAX)) {
        if v == 0 {
            run += 1;
            continue;
        }
        if run > 0 {
            while run > 0 {
                let k = run.min(26);
                out.push((b'a' + k as u8 - 1) as char);
                run -= k;
            }
        } else if out.len() > start && v != u32::MAX {
            out.push('_');
        }
        if v != u32::MAX {
            out.push_str(&v.to_string());
        }
    }
}

/// Append the edge list of a division into blocks, as Solo's decoder reads it.
fn encode_edges(out: &mut String, n: usize, blocks: &[usize]) {
    let edges = 2 * n * (n - 1);
    let mut run = 0;
    for pos in 0..=edges {
        let edge = pos == edges || {
            let (p0, p1) = edge_cells(n, pos);
            blocks[p0] != blocks[p1]
        };
        if !edge {
            run += 1;
            continue;
        }
        while run >= 26 {
            out.push('z');
            run -= 26;
        }
        out.push(if run == 0 { '_' } else { (b'a' + run as u8 - 1) as char });
        run = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::super::shape::box_regions;
    use super::super::solve::count_solutions;
    use super::*;

    /// IDs printed by `sgt-solo --generate 2 PARAMS#SEED` (sgt-puzzles 20230122), the seed after
    /// each group. Each is followed by Solo's solution (from `--save` with `--with-solutions`)
    /// where one was taken, else "".
    const SOLO_IDS: &[(&str, &str)] = &[
        // 2x2#11
        ("2x2:4_2b3f3b2_4", ""),
        // 2x3da#4
        ("2x3:a3d1c3c5a4_6_4_6a1c2c4d6a", "632451154632215346463125326514541263"),
        ("2x3:b3b6d3a2b4d4b2a5d6b1b", ""),
        // 3x2db#12
        ("3x2:3b6b4_6a1d2f2d1a4_2b6b5", ""),
        // 3x3#13
        ("3x3:b1a8a5a7a4_7a1b8a8d7a3b8a1_5a9b2g1b3a6_2a5b3a7d4a1b3a8_9a4a6a9a7b", ""),
        // 3x3de#14
        ("3x3:4i1c3_5a7e7_2_4a9a6a3e3_4c7_5e4a1a6a6_5_2e3a7_6c2i4", ""),
        // 3x4du#6
        (
            "3x4:d7b2b12_5_12b7d9_8c8_1_9a11c4_10b12a8_1_10c7e6c9c8_4d2_11c6b7c9_12d11_6c2c3e12c8_4\
             _7a5b4_6c2a8_1_11c9_1d10b3_8_3b10b1d",
            "",
        ),
        // 4x3db#15
        (
            "4x3:7b9_10a4b12_6c1a3_8b9_7a5c7_2c10c11b12d6a2_8_1_7_6_11h3e7b8d5b3e12h11_4_9_3_10_12a3d\
             1b4c5c6_7c2a9_6b10_4a5c6_8b4a9_12b7",
            "",
        ),
        // 2x4db#16
        ("2x4:d4c4_6c5c8a3a7_1_4_5f2_3f1_1_4_7a8a3c3c2_8c2d", ""),
        // 4x4de#5
        (
            "4x4:a1_13c7b12g5e13_2a3_8_7_12a4_16_11g7a4d4c2_12a6a5_14_15a3d7a4_11b14a15a16c1e15a11_4_\
             5_13_2b14b2_13a8_5c16_3_9d4_11_8c2_9_1b3b7_11b7b2_4_1c5_6_15d12_8_10c14_11a4_1b5b3_14_1\
             _13_7a15e10c1a15a11b7_9a14d5a6_2_8a4a13_11c1d9a4g3_13_13a15_10_3_7a12_8e11g11b3c16_2a",
            "",
        ),
        // 9jda#2
        (
            "9j:7b5c4b2c9l5c3b9_1c7a5c4_7b9c8l6c8b1c3b5,cbcca__aa_babbc_a___dc__c_eaebccdaaa_c__abe____c\
             __ae_cda",
            "",
        ),
        // 6jdb#17
        ("6j:a3_6c2c5d5d1d4c1c6_1a,aabb___a__bb___gbbb__aaa_bd_", ""),
        // 12jdb#23
        (
            "12j:a12_2c5a6f5a1c10h8a11_9_4a2b12f11_8b8d4c5a7_4c3_12h2_11c1_3a1c8d12b9_5f2b4a3_6_9a5h12\
             c10a9f3a7c8_2a,_c_ec_ca__aaaca___c__c_c_ab_ba___c_b_b_e_b_ba_b_c_ab_becnb_afbcdcaaca_cb\
             baddadb_aabca_b_b__caaa___aeba",
            "",
        ),
        // 3x3xdu#3
        ("3x3x:b1_2a5c4_5c7f6e1_2h6e3h9_4e3f1c4_2c8a6_5b", ""),
        // 2x3x#18
        ("2x3x:c2c3a6_1f1_4f2_3a4c1c", ""),
        // 9jxdb#19
        (
            "9jx:c9j2e5f2_6d9a7a4e8a4a9d3_1f7e4j1c,bdbbda_f____cc_b_aab__a_b_bddbd_bc__baa_baa_bbacbba\
             abe_c",
            "",
        ),
        // 3x3kde#1
        (
            "3x3k:zzzc,aa__aaa__a____aa____a_____aa_____a_a___a_b_____ba_c_ba__aaa___aaa__a_aba___ba__a_\
             __aaa__a_aaaaa_,4a14a3_8_16a10_16a11c13b16a10_12_22a4a5a13d21_10c9_11d16_13_5a6_11a3d10\
             a16b22a13b15_7a30b10h",
            "",
        ),
        // 9jkdb#20
        (
            "9jk:zzzc,cfbaaa_fa_bc___a_beaba_agcbaba_aaaa_a_a_abb_aa_ab_ad_bebc,aa_a_a______a__________\
             _a____aa__aa____aa____a_a__bb_____aaa__a_a_aa_a_b_aba_a__a__a__a__abaadaaa,8a8a3_14a11_1\
             3_14a16_19a16_7b6c9b8a3_7_11b11b13c17a8a8a17_10a20a9_10a8a13e18a29b14_10a6a11i",
            "",
        ),
        // 3x3xkdb#21
        (
            "3x3xk:zzzc,__a___a______aa__aa_aa_a_a___a_a__a____a_____a__bbabaaaa_aaaa___ba__a_b_a__a__a\
             aa_a_a__a_aa_a_aa,9_7_12a19_8_14_9c16_9c8a13d5a24b10_8a8a9b11a17a9_11a6b10_10c18a11_9a29\
             a19a9c15a5c21f7c",
            "",
        ),
        // 2x3kdb#22
        ("2x3k:zj,__a___a___aaa___a___acaba_________aa_aba_,3_7_9a5_14b11c9_9_4f8_10_7_9_6e6a9b", ""),
    ];

    /// A 5x5 (25 symbols) ID from `sgt-solo --generate 2 '5x5db#7'`.
    const SOLO_5X5: &str = "5x5:12a4b5_10_21_1_18a24b3a7_20b8_15a23a25_9_13d15_7_11b1a20_16_23a14b24a22a1_2_18_7d22_13f12b11_14f10_11_15a20a4b14a18b13b9_2a1_19e17_25_2b9a16b13_6a1a4b11_3_20a23_5b21_13_22b15_18c19c2_25a7a8_2a19_10e8c9_23_25c18_3_11c17_3_25a22a19g24_20b23_8d12b11_9a3_25a23_6a4_5_13_8_1_17_14e2c14b20b2c16_25_10e6d21_15b19_22a1_8_4b24_23_11d16b10a2b12_17_13a5a6_25a22_8_15_7_11a24_4a16_23_14d9_4a2d16c12d5a25_20d8_22_5a17_16a15_9_20_25_3a23_10a2a13_12_21b16a7b13d14_10_4b8_6_19a25_11b15_22d11e24_19_9c22b7b25c5e13_18_3_17_2_11_16a4_19a15_10a1_22b15d8_9b23_12g11a17a18_21_5c24_14_12c1_7_13c21e2_8a9_13a1a8_15c22c21_18b2_6_17b3_24a10_21_24b17a6a5_13b11a18b12_1_9e6_15a1_10b13b23a17b21a16a7_8_5f23_7b16f5_2d13_6_25_17a14a13b18a25_20_5a21b7_3_10d15_11_1a7a16_4b8_12a1b10a17_14_9_20_13b2a24";

    fn digits(s: &str) -> Vec<u8> {
        s.bytes().map(|b| b - b'0').collect()
    }

    #[test]
    fn solo_ids_round_trip_and_are_unique() {
        for &(id, solution) in SOLO_IDS.iter().chain([(SOLO_5X5, "")].iter()) {
            let (shape, givens) = parse(id).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(write(&shape, &givens).as_deref(), Some(id), "round trip of {id}");
            let params = id.split(':').next().unwrap();
            assert_eq!(shape.boxes.is_none(), params.contains('j'), "{id}");
            assert_eq!(shape.diagonals, params.trim_end_matches('k').ends_with('x'), "{id}");
            assert_eq!(shape.is_killer(), params.ends_with('k'), "{id}");
            if shape.is_killer() {
                assert!(shape.cage_of.iter().all(|&k| k != u16::MAX), "{id}: every cell caged");
                assert!(givens.iter().all(|&g| g == 0), "{id}: Solo's killers give no digits");
            }
            let count = count_solutions(&shape, &givens, 2, 1 << 22);
            assert!(count.count == 1 && !count.undecided, "{id}: {count:?}");
            if !solution.is_empty() {
                let solved = count.first.clone().expect("a solution");
                assert_eq!(solved, digits(solution), "{id}: Solo's solution");
            }
        }
    }

    #[test]
    fn box_orientation_and_regions() {
        // Solo's `2x3` is boxes 2 rows tall and 3 columns wide.
        let (s, g) = parse("2x3:a3d1c3c5a4_6_4_6a1c2c4d6a").unwrap();
        assert_eq!((s.n, s.boxes), (6, Some((2, 3))));
        assert_eq!(s.regions, box_regions(2, 3));
        assert_eq!(g[..6], [0, 3, 0, 0, 0, 0]);
        let (s, _) = parse("6j:a3_6c2c5d5d1d4c1c6_1a,aabb___a__bb___gbbb__aaa_bd_").unwrap();
        assert_eq!(s.boxes, None);
        // Regions numbered by first cell in reading order.
        assert_eq!(s.regions[0], 0);
        let mut seen = Vec::new();
        for &r in &s.regions {
            if !seen.contains(&r) {
                assert_eq!(r as usize, seen.len());
                seen.push(r);
            }
        }
    }

    #[test]
    fn parameter_spellings() {
        let p = |s| parse_params(s).unwrap();
        assert_eq!(p("3"), Params { n: 9, boxes: Some((3, 3)), diagonals: false, killer: false });
        assert_eq!(p("3x3j"), Params { n: 9, boxes: None, diagonals: false, killer: false });
        assert_eq!(p("9x1"), Params { n: 9, boxes: None, diagonals: false, killer: false });
        assert_eq!(p("3x3xkadu"), Params { n: 9, boxes: Some((3, 3)), diagonals: true, killer: true });
        assert_eq!(p("2x4md2"), Params { n: 8, boxes: Some((2, 4)), diagonals: false, killer: false });
        for bad in ["", "x3", "3x", "3x3q", "3x3dq", "1x9", "2x1", "6x6", "4x4k", "3x3x3"] {
            assert!(parse_params(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn grids_spell_runs_and_numbers_like_solo() {
        let mut s = String::new();
        encode_grid(&mut s, &[0; 27]);
        assert_eq!(s, "za");
        s.clear();
        encode_grid(&mut s, &[12, 3, 0, 0, 4, 0]);
        assert_eq!(s, "12_3b4a");
        assert_eq!(decode_grid("12_3b4a", 0, 12, "g").ok(), None); // wrong size
        assert_eq!(decode_grid("12_3b4a", 2, 12, "g"), Err("g: more than 4 cells".into()));
        assert_eq!(decode_grid("12_3", 2, 12, "g"), Err("g: 2 cells, expected 4".into()));
        assert_eq!(decode_grid("12_3a4", 2, 12, "g").unwrap(), [12, 3, 0, 4]);
        assert_eq!(decode_grid("12_3a4", 2, 9, "g"), Err("g: number 12 is above 9".into()));
    }

    #[test]
    fn long_edge_runs_follow_solos_decoder() {
        // Regions = rows: 72 vertical non-edges in a row, then 72 horizontal edges. Solo's
        // decoder reads `z` as 26 non-edges with no edge (its encoder would write `zzv`, which
        // Solo then refuses: checked with sgt-solo).
        let rows: Vec<u8> = (0..81).map(|c| (c / 9) as u8).collect();
        let shape = Shape::new(9, None, Some(rows.clone()), false, Vec::new()).unwrap();
        let id = write(&shape, &[0; 81]).unwrap();
        assert_eq!(id, format!("9j:zzzc,zzt{}", "_".repeat(72)));
        assert_eq!(parse(&id).unwrap().0.regions, rows);
        // Rows as the regions of a 7x7 jigsaw (a 1x7 box is no Sudoku box).
        assert!(Shape::new(7, Some((1, 7)), None, false, Vec::new()).is_err());
        let rows7: Vec<u8> = (0..49).map(|c| (c / 7) as u8).collect();
        let latin = Shape::new(7, None, Some(rows7), false, Vec::new()).unwrap();
        let id = write(&latin, &[0; 49]).unwrap();
        assert!(id.starts_with("7j:zw,"), "{id}");
        assert_eq!(parse(&id).unwrap().0.regions, latin.regions);
    }

    #[test]
    fn write_refuses_what_solo_cannot_hold() {
        let cage = |sum, cells: &[u16]| Cage { sum, cells: cells.to_vec() };
        let plain = Shape::new(4, Some((2, 2)), None, false, Vec::new()).unwrap();
        assert_eq!(write(&plain, &[0; 16]).as_deref(), Some("2x2:p"));
        assert_eq!(write(&plain, &[0; 15]), None);
        assert_eq!(write(&plain, &[5; 16]), None);
        // A cell outside every cage, or a cage of one cell.
        let partial = plain.with_cages(vec![cage(3, &[0, 1])]).unwrap();
        assert_eq!(write(&partial, &[0; 16]), None);
        let mut cages: Vec<Cage> = (0..8).map(|i| cage(3, &[2 * i, 2 * i + 1])).collect();
        let full = plain.with_cages(cages.clone()).unwrap();
        assert!(write(&full, &[0; 16]).is_some());
        cages[7] = cage(4, &[15]);
        cages.push(cage(1, &[14]));
        let single = plain.with_cages(cages).unwrap();
        assert_eq!(write(&single, &[0; 16]), None);
        // A killer of 12 symbols.
        let big: Vec<Cage> = (0..72).map(|i| cage(13, &[2 * i, 2 * i + 1])).collect();
        let k12 = Shape::new(12, Some((3, 4)), None, false, big).unwrap();
        assert_eq!(write(&k12, &[0; 144]), None);
    }

    #[test]
    fn bad_ids_are_refused_with_reasons() {
        let cases = [
            ("3x3", "no ':'"),
            ("3x3#12", "random-seed"),
            ("3x3:zzz", "78 cells"),
            ("3x3:zzzd", "more than 81"),
            ("3x3:zzzc0", "unexpected character '0'"),
            ("3x3:zzzb10", "above 9"),
            ("3x3:zzzc,a", "parts"),
            ("9j:zzzc", "parts"),
            ("9j:zzzc,_", "edges"),
            ("9j:zzzc,zzt", "edges"),
            ("2x2:é", "unexpected character 'é'"),
            ("99999999999999999999x2:a", "at most 31"),
            ("5x6:a", "at most 25"),
        ];
        // Killer cages: dominoes in reading order, then broken variants.
        let dominoes: Vec<Cage> = (0..8).map(|i| Cage { sum: 3, cells: vec![2 * i, 2 * i + 1] }).collect();
        let killer = Shape::new(4, Some((2, 2)), None, false, dominoes).unwrap();
        let good = write(&killer, &[0; 16]).unwrap();
        assert_eq!(good, format!("2x2k:p,abbba{},3a3a3a3a3a3a3a3a", "_".repeat(12)));
        assert!(parse(&good).is_ok());
        let edges = good.split(',').nth(1).unwrap();
        let owned = [
            (format!("9j:zzzc,{}", "_".repeat(145)), "81 regions, expected 9"),
            (format!("2x2k:p,{},p", "_".repeat(25)), "cage 1 has 1 cells"),
            (format!("2x2k:p,{edges},p"), "no sum"),
            (format!("2x2k:p,{edges},3_3n"), "two sums"),
            (format!("2x2k:p,{edges},2a3a3a3a3a3a3a3a"), "sum 2"),
            (format!("2x2k:p,{edges},3a3a3a3a3a3a3a3a65"), "above 64"),
        ];
        let all = cases.iter().map(|&(id, want)| (id.to_string(), want)).chain(owned);
        for (id, want) in all {
            let err = parse(&id).map(|_| ()).unwrap_err();
            assert!(err.contains(want), "{id}: '{err}' lacks '{want}'");
        }
        // Arbitrary bytes never panic.
        let mut x = 12345u64;
        let alphabet = b"0123456789abcdjkxz_,:";
        for len in 0..2000 {
            let s: String = (0..len % 60)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    alphabet[(x % alphabet.len() as u64) as usize] as char
                })
                .collect();
            let _ = parse(&format!("2x2:{s}"));
            let _ = parse(&format!("4jk:{s}"));
            let _ = parse(&s);
        }
    }

    /// Not a check by itself: prints `ID<TAB>solution` for puzzles of our generator, to feed
    /// to Solo by hand (`cut -f1 | sgt-solo --save PREFIX --with-solutions`, then compare each
    /// save file's SOLVE line with the second column). Run with `--ignored --nocapture`.
    #[test]
    #[ignore]
    fn print_our_ids_for_solo() {
        use super::super::generate::generate;
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        type Kind = (Option<(usize, usize)>, usize, bool, bool);
        let kinds: &[Kind] = &[
            (Some((2, 2)), 4, false, false),
            (Some((2, 4)), 8, false, false),
            (Some((4, 2)), 8, false, false),
            (Some((3, 3)), 9, false, false),
            (Some((3, 4)), 12, false, false),
            (Some((4, 4)), 16, true, false),
            (Some((1, 7)), 7, false, false),
            (None, 6, false, false),
            (None, 9, true, false),
            (None, 12, false, false),
            (Some((2, 3)), 6, false, true),
            (Some((3, 3)), 9, false, true),
            (Some((3, 3)), 9, true, true),
            (None, 9, false, true),
        ];
        for &(boxes, n, diagonals, killer) in kinds {
            let params = super::super::generate::tests::params(boxes, n, diagonals, killer);
            // Our killers may have one-cell cages, which Solo refuses: count them, keep the first
            // puzzle Solo can hold.
            let mut refused = 0;
            let found =
                (0..40).filter_map(|_| generate(&params, &mut rng).ok()).find_map(|(shape, givens, solution, _)| {
                    let id = write(&shape, &givens);
                    refused += usize::from(id.is_none());
                    id.map(|id| (id, solution))
                });
            let name = format!("{boxes:?} n={n} x={diagonals} k={killer}");
            println!("# {name}: {refused} puzzles Solo cannot hold before this one");
            let Some((id, solution)) = found else { continue };
            let (again, g) = parse(&id).unwrap();
            assert_eq!(write(&again, &g).as_deref(), Some(&id[..]));
            let sol: Vec<String> = solution.iter().map(|d| d.to_string()).collect();
            println!("{id}\tS{}", sol.join(","));
        }
    }
}
