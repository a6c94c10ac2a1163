//! `DigitSet`: a set of digits 1..=15 stored as bits of a `u16` (bit d = digit d).
//!
//! Invariant: bit 0 is never set, so `len()` is the number of digits in the set. Used for cell
//! candidates, for the digits a house still needs, and for run/cage digit combinations.

use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DigitSet(u16);

impl DigitSet {
    pub const EMPTY: DigitSet = DigitSet(0);

    /// The digits `1..=n`.
    pub const fn full(n: u8) -> DigitSet {
        DigitSet(((1u32 << (n + 1)) - 2) as u16)
    }
    pub const fn single(d: u8) -> DigitSet {
        DigitSet(1 << d)
    }
    pub const fn from_bits(bits: u16) -> DigitSet {
        DigitSet(bits & !1)
    }
    pub const fn bits(self) -> u16 {
        self.0
    }
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub const fn contains(self, d: u8) -> bool {
        self.0 & (1 << d) != 0
    }
    pub fn insert(&mut self, d: u8) {
        self.0 |= 1 << d;
    }
    pub fn remove(&mut self, d: u8) {
        self.0 &= !(1 << d);
    }
    /// The smallest digit, if any.
    pub const fn first(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }
    pub const fn union(self, o: DigitSet) -> DigitSet {
        DigitSet(self.0 | o.0)
    }
    pub const fn intersect(self, o: DigitSet) -> DigitSet {
        DigitSet(self.0 & o.0)
    }
    pub const fn without(self, o: DigitSet) -> DigitSet {
        DigitSet(self.0 & !o.0)
    }
    pub const fn is_subset(self, o: DigitSet) -> bool {
        self.0 & !o.0 == 0
    }
    pub fn iter(self) -> DigitIter {
        DigitIter(self.0)
    }
}

impl std::ops::BitOr for DigitSet {
    type Output = DigitSet;
    fn bitor(self, o: DigitSet) -> DigitSet {
        self.union(o)
    }
}
impl std::ops::BitOrAssign for DigitSet {
    fn bitor_assign(&mut self, o: DigitSet) {
        self.0 |= o.0;
    }
}
impl std::ops::BitAnd for DigitSet {
    type Output = DigitSet;
    fn bitand(self, o: DigitSet) -> DigitSet {
        self.intersect(o)
    }
}

/// Iterates the digits of a set in increasing order.
pub struct DigitIter(u16);
impl Iterator for DigitIter {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let d = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(d)
    }
}

impl fmt::Debug for DigitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for d in self.iter() {
            write!(f, "{d}")?;
        }
        write!(f, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn basics() {
        let s = DigitSet::full(9);
        assert_eq!(s.len(), 9);
        assert!(!s.contains(0) && s.contains(9) && !s.contains(10));
        let p = DigitSet::single(3) | DigitSet::single(7);
        assert_eq!(p.iter().collect::<Vec<_>>(), vec![3, 7]);
        assert!(p.is_subset(s));
        assert_eq!(s.without(p).len(), 7);
        assert_eq!(p.first(), Some(3));
    }
}
