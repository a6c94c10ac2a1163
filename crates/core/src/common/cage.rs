//! Cage arithmetic shared by the cage kinds (KenKen now; Kakuro's runs are `+` cages without
//! repeats): operations, their values, and enumeration of the digit tuples a cage allows under
//! its operation and target, given each cell's candidates.
//!
//! The enumeration prunes partial sums against what the remaining cells can still add and
//! partial products against divisibility, so a cage of five cells over 1..9 is cheap. Any cage
//! length is enumerated; `for_each_tuple_within` bounds the work of very large cages.

/// A cage operation. `Any` is an unknown operator (collections that print only the target):
/// any of `+ - * /` for two cells, `+` or `*` for more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Given,
    Any,
}

impl Op {
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::Given => "=",
            Op::Any => "?",
        }
    }

    pub fn from_symbol(s: &str) -> Option<Op> {
        Some(match s {
            "+" => Op::Add,
            "-" => Op::Sub,
            "*" | "x" | "×" => Op::Mul,
            "/" | "÷" | ":" => Op::Div,
            "=" => Op::Given,
            "?" => Op::Any,
            _ => return None,
        })
    }

    /// The op's value on these digits, if it is defined there (`Sub`/`Div` need two digits,
    /// `Div` an exact quotient, `Given` one digit).
    pub fn value(self, digits: &[u8]) -> Option<u32> {
        match (self, digits) {
            (Op::Add, _) => Some(digits.iter().map(|&d| d as u32).sum()),
            // A product past u32 equals no target (targets are u32): None, not an overflow.
            (Op::Mul, _) => digits.iter().try_fold(1u32, |p, &d| p.checked_mul(d as u32)),
            (Op::Sub, &[a, b]) => Some((a as i32 - b as i32).unsigned_abs()),
            (Op::Div, &[a, b]) => {
                let (hi, lo) = (a.max(b) as u32, a.min(b) as u32);
                (lo > 0 && hi % lo == 0).then_some(hi / lo)
            }
            (Op::Given, &[a]) => Some(a as u32),
            _ => None,
        }
    }

    /// Do these digits meet `target` under this op?
    pub fn satisfied(self, target: u32, digits: &[u8]) -> bool {
        match self {
            Op::Any => {
                let ops: &[Op] =
                    if digits.len() == 2 { &[Op::Add, Op::Sub, Op::Mul, Op::Div] } else { &[Op::Add, Op::Mul] };
                ops.iter().any(|op| op.value(digits) == Some(target))
            }
            op => op.value(digits) == Some(target),
        }
    }
}

/// Enumerate every tuple of digits for `cells` (indices into `cand`, each a digit bitmask with
/// bit d = digit d) that meets `op`/`target` and gives different digits to cells that
/// `clash(i, j)` says share a line. `f` receives each tuple in cell order.
pub fn for_each_tuple(
    op: Op,
    target: u32,
    cells: &[usize],
    cand: &[u16],
    clash: &dyn Fn(usize, usize) -> bool,
    f: &mut dyn FnMut(&[u8]),
) {
    for_each_tuple_within(op, target, cells, cand, clash, u64::MAX, &mut |t| {
        f(t);
        true
    });
}

/// `for_each_tuple` that does at most `budget` work (each search node at depth i costs i + 1,
/// the clash checks it makes) and stops as soon as `f` returns false. True when the
/// enumeration ran to its end (every tuple was passed to `f`).
pub fn for_each_tuple_within(
    op: Op,
    target: u32,
    cells: &[usize],
    cand: &[u16],
    clash: &dyn Fn(usize, usize) -> bool,
    budget: u64,
    f: &mut dyn FnMut(&[u8]) -> bool,
) -> bool {
    let k = cells.len();
    if k == 0 {
        return true;
    }
    let lo: Vec<u32> = cells.iter().map(|&c| cand[c].trailing_zeros()).collect();
    let hi: Vec<u32> = cells.iter().map(|&c| 15u32.saturating_sub(cand[c].leading_zeros())).collect();
    // Suffix sums of the smallest and largest candidates, for sum pruning.
    let mut min_rest = vec![0u32; k + 1];
    let mut max_rest = vec![0u32; k + 1];
    for i in (0..k).rev() {
        min_rest[i] = min_rest[i + 1] + lo[i];
        max_rest[i] = max_rest[i + 1] + hi[i];
    }
    let mut e = Enumeration {
        op,
        target,
        cells,
        cand,
        min_rest,
        max_rest,
        digits: vec![0u8; k],
        clashers: (0..k).map(|i| (0..i).filter(|&j| clash(j, i)).collect()).collect(),
        f,
        nodes: budget,
        stopped: false,
    };
    e.go(0, 0, 1);
    !e.stopped
}

struct Enumeration<'a> {
    op: Op,
    target: u32,
    cells: &'a [usize],
    cand: &'a [u16],
    min_rest: Vec<u32>,
    max_rest: Vec<u32>,
    digits: Vec<u8>,
    /// Per cell, the earlier cells it clashes with.
    clashers: Vec<Vec<usize>>,
    f: &'a mut dyn FnMut(&[u8]) -> bool,
    /// Work still allowed.
    nodes: u64,
    /// Out of nodes, or `f` asked to stop.
    stopped: bool,
}

impl Enumeration<'_> {
    fn go(&mut self, i: usize, acc_sum: u32, acc_prod: u64) {
        if self.stopped {
            return;
        }
        let cost = i as u64 + 1;
        if self.nodes < cost {
            self.stopped = true;
            return;
        }
        self.nodes -= cost;
        if i == self.cells.len() {
            if self.op.satisfied(self.target, &self.digits) && !(self.f)(&self.digits) {
                self.stopped = true;
            }
            return;
        }
        if self.op == Op::Add && (acc_sum + self.min_rest[i] > self.target || acc_sum + self.max_rest[i] < self.target)
        {
            return;
        }
        let mut m = self.cand[self.cells[i]] & !1;
        // Digits a clashing earlier cell took.
        m &= !self.clashers[i].iter().fold(0u16, |f, &j| f | 1 << self.digits[j]);
        if i + 1 == self.cells.len() && matches!(self.op, Op::Add | Op::Mul) {
            self.last(i, acc_sum, acc_prod, m);
            return;
        }
        while m != 0 && !self.stopped {
            let d = m.trailing_zeros() as u8;
            m &= m - 1;
            // Saturating: `Any` cages of many cells do not prune by product.
            let prod = acc_prod.saturating_mul(d as u64);
            if self.op == Op::Mul && (prod > self.target as u64 || !(self.target as u64).is_multiple_of(prod)) {
                continue;
            }
            self.digits[i] = d;
            self.go(i + 1, acc_sum + d as u32, prod);
        }
    }
}

impl Enumeration<'_> {
    /// The last cell of a sum or product cage: the one digit that meets the target, without a
    /// call per candidate. Charges and stops exactly as `go` would visiting each leaf.
    fn last(&mut self, i: usize, acc_sum: u32, acc_prod: u64, mut m: u16) {
        let cost = i as u64 + 2;
        if self.op == Op::Add {
            // The leaves are m's digits in order, `cost` each, until the work runs out; only
            // the target's remainder can meet it.
            let leaves = m.count_ones() as u64;
            let done = leaves.min(self.nodes / cost);
            let d = self.target.wrapping_sub(acc_sum);
            if d < 16 && m >> d & 1 == 1 && ((m & ((1 << d) - 1)).count_ones() as u64) < done {
                self.digits[i] = d as u8;
                if !(self.f)(&self.digits) {
                    self.stopped = true;
                    return;
                }
            }
            self.nodes -= done * cost;
            self.stopped = done < leaves;
            return;
        }
        while m != 0 {
            let d = m.trailing_zeros() as u8;
            m &= m - 1;
            let prod = acc_prod.saturating_mul(d as u64);
            if self.op == Op::Mul && (prod > self.target as u64 || !(self.target as u64).is_multiple_of(prod)) {
                continue;
            }
            if self.nodes < cost {
                self.stopped = true;
                return;
            }
            self.nodes -= cost;
            let meets = match self.op {
                Op::Add => acc_sum + d as u32 == self.target,
                _ => prod == self.target as u64,
            };
            if meets {
                self.digits[i] = d;
                if !(self.f)(&self.digits) {
                    self.stopped = true;
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn values_and_tuples() {
        assert_eq!(Op::Div.value(&[2, 6]), Some(3));
        assert_eq!(Op::Div.value(&[4, 6]), None);
        assert_eq!(Op::Sub.value(&[2, 6]), Some(4));
        assert!(Op::Any.satisfied(3, &[2, 6]));
        assert!(!Op::Any.satisfied(5, &[2, 2, 2]));
        let cand = vec![0b1111111110u16; 3];
        let mut n = 0;
        // Sum 6 over three cells in one line: permutations of 1,2,3.
        for_each_tuple(Op::Add, 6, &[0, 1, 2], &cand, &|_, _| true, &mut |t| {
            n += 1;
            assert_eq!(t.iter().map(|&d| d as u32).sum::<u32>(), 6);
        });
        assert_eq!(n, 6);
        // Product 12 over two cells not in one line may repeat? No: 12 = 2*6, 3*4 (and reversed).
        let mut m = 0;
        for_each_tuple(Op::Mul, 12, &[0, 1], &cand, &|_, _| true, &mut |_| m += 1);
        assert_eq!(m, 4);
        // An L-shaped cage: cells 0 and 2 do not clash, so 2,1,2 sums to 5.
        let mut l = Vec::new();
        for_each_tuple(Op::Add, 5, &[0, 1, 2], &cand, &|a, b| a + 1 == b, &mut |t| l.push(t.to_vec()));
        assert!(l.contains(&vec![2, 1, 2]));
    }

    #[test]
    fn long_cages_neither_overflow_nor_stop_at_16_cells() {
        // 12^10 is past u32: no target equals it (the product once overflowed, a panic in
        // debug builds and a wrapped value in release).
        assert_eq!(Op::Mul.value(&[12; 10]), None);
        assert!(!Op::Any.satisfied(0, &[12; 20]));
        assert!(Op::Any.satisfied(240, &[12; 20]));
        // 20 cells, no two in a line, sum 21: nineteen 1s and one 2, in any of 20 places.
        let cand = vec![0b110u16; 20];
        let mut n = 0;
        for_each_tuple(Op::Add, 21, &(0..20).collect::<Vec<_>>(), &cand, &|_, _| false, &mut |_| n += 1);
        assert_eq!(n, 20);
        // A budget stops the enumeration and says so.
        let all = vec![0b1_1111_1111_1110u16; 20];
        let cells: Vec<usize> = (0..20).collect();
        assert!(!for_each_tuple_within(Op::Any, 1000, &cells, &all, &|_, _| false, 1000, &mut |_| true));
    }
}

/// The digit sets (bit d = digit d) of `len` different digits from 1..=9 that add up to `sum`,
/// in increasing mask order: the per-(sum, length) combination table that every sum run without
/// repeats reads (Kakuro runs). Built once, on first use; empty when no set fits.
pub fn sum_combos(sum: u32, len: usize) -> &'static [u16] {
    static TABLE: std::sync::OnceLock<Vec<Vec<u16>>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = vec![Vec::new(); 10 * 46];
        for mask in (0u16..1 << 10).step_by(2) {
            let digits = (1..=9u32).filter(|d| mask >> d & 1 == 1);
            let (n, s) = digits.fold((0usize, 0u32), |(n, s), d| (n + 1, s + d));
            t[n * 46 + s as usize].push(mask);
        }
        t
    });
    if len > 9 || sum > 45 {
        return &[];
    }
    &table[len * 46 + sum as usize]
}

#[cfg(test)]
mod sum_tests {
    use super::sum_combos;

    #[test]
    fn combination_table_matches_the_known_counts() {
        // 502 sets of two or more digits (a classic Kakuro table figure), 12 at most per entry.
        let total: usize = (2..=9).flat_map(|n| (0..=45).map(move |s| sum_combos(s, n).len())).sum();
        assert_eq!(total, 502);
        assert_eq!((0..=45).flat_map(|s| (1..=9).map(move |n| sum_combos(s, n).len())).max(), Some(12));
        assert_eq!(sum_combos(3, 2), &[0b1110 & !0b1000]);
        assert_eq!(sum_combos(16, 2), &[1 << 7 | 1 << 9]);
        assert_eq!(sum_combos(45, 9).len(), 1);
        assert_eq!(sum_combos(10, 2).len(), 4);
        for (s, n) in [(4, 2), (17, 2), (6, 3), (7, 3), (23, 3), (24, 3), (10, 4), (11, 4), (29, 4), (30, 4)] {
            assert_eq!(sum_combos(s, n).len(), 1, "sum {s} in {n}");
        }
        assert!(sum_combos(2, 2).is_empty());
    }
}
