//! The registry of kinds: the one place that lists them, and the way from `--kind` to code
//! generic over `K: Kind` (`KindId::visit`).
//!
//! Adding a kind is a crate under `crates/` implementing `Kind` (see CONTRIBUTING.md) and one
//! line in `registry!` below: the `KindId` variant, its `--kind` name, the command dispatch and
//! the built-in config all come from that line. The `Kind` trait and its types are the core's,
//! re-exported here so that the commands name them in one place.

pub use pf_core::kind::*;
use serde::Serialize;

/// Something done with one kind, chosen at run time: `KindId::visit` calls `visit::<K>()` with
/// the kind's type. This is how the commands go from `--kind` to generic code.
pub trait KindVisitor {
    type Output;
    fn visit<K: Kind>(self) -> Self::Output;
}

macro_rules! registry {
    ($($(#[$attr:meta])* $variant:ident => $ty:path),+ $(,)?) => {
        /// The kinds, as `--kind` names them (the variant name in lower case).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
        #[serde(rename_all = "lowercase")]
        pub enum KindId {
            $($(#[$attr])* $variant),+
        }

        impl KindId {
            pub const ALL: &'static [KindId] = &[$(KindId::$variant),+];

            /// Run `v` with this kind's type.
            pub fn visit<V: KindVisitor>(self, v: V) -> V::Output {
                match self {
                    $(KindId::$variant => v.visit::<$ty>(),)+
                }
            }

            /// The name a run's manifest gives its kind (`Kind::KEY`): `book`, `merge` and the
            /// library read it back.
            pub fn key(self) -> &'static str {
                match self {
                    $(KindId::$variant => <$ty as Kind>::KEY,)+
                }
            }
        }
    };
}

pub use pf_kakuro as kakuro;
pub use pf_kenken as kenken;
pub use pf_sudoku as sudoku;

// The registry: one line per kind. The Sudoku family is not a `--kind` of its own: `--kind
// sudoku` with a family flag or a family input selects it (`cli::parse`), and its manifests
// name it `sudoku-family`.
registry! {
    Sudoku => sudoku::Sudoku,
    Kenken => kenken::KenKenKind,
    Kakuro => kakuro::KakuroKind,
    Futoshiki => pf_futoshiki::FutoshikiKind,
    Skyscrapers => pf_skyscrapers::SkyscrapersKind,
    #[value(skip)]
    #[serde(rename = "sudoku-family")]
    SudokuFamily => sudoku::family::Family,
}

impl KindId {
    /// The kind a manifest (or the library) names by `key`.
    pub fn from_key(key: &str) -> Option<KindId> {
        KindId::ALL.iter().copied().find(|k| k.key() == key)
    }

    /// The `--kind` name.
    pub fn name(self) -> &'static str {
        struct Name;
        impl KindVisitor for Name {
            type Output = &'static str;
            fn visit<K: Kind>(self) -> &'static str {
                K::NAME
            }
        }
        self.visit(Name)
    }
}
