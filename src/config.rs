//! CLI flags + `config/<kind>.toml` → one validated, immutable `RunConfig`.
//!
//! The built-in defaults are the files in `config/`, compiled into the binary, so the program
//! runs anywhere. `--config FILE` is merged over them key by key, so a user file only needs the
//! keys it changes. Unknown keys, wrong types and bad thresholds are refused with a message
//! that names the key; such errors are `UsageError`s (exit code 2).

use crate::grade::Thresholds;
use crate::kinds::KindId;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// An error in how the program was called or configured: exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

fn builtin(kind: KindId) -> &'static str {
    match kind {
        KindId::Sudoku => include_str!("../config/sudoku.toml"),
        KindId::Kenken => include_str!("../config/kenken.toml"),
        KindId::Kakuro => include_str!("../config/kakuro.toml"),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Grades {
    k1: f64,
    k2: f64,
    k3: f64,
    #[serde(default)]
    level_floor: [u8; 3],
    /// Thresholds for other grid sizes (`[grades.size.9]`), for kinds whose step scale
    /// depends on the size (KenKen).
    #[serde(default)]
    size: std::collections::BTreeMap<String, SizeGrades>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SizeGrades {
    k1: f64,
    k2: f64,
    k3: f64,
    #[serde(default)]
    level_floor: [u8; 3],
}

#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct RunSection {
    /// Candidates per ordered chunk.
    pub chunk: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig<P> {
    grades: Grades,
    generate: P,
    run: RunSection,
}

impl<P> RunConfig<P> {
    /// The thresholds for a grid size (`[grades.size.N]` when given, else `[grades]`).
    pub fn thresholds_for(&self, size: Option<usize>) -> Thresholds {
        size.and_then(|s| self.by_size.get(&s)).copied().unwrap_or(self.thresholds)
    }
}

/// Everything a run needs, validated.
#[derive(Clone, Debug)]
pub struct RunConfig<P> {
    pub kind: KindId,
    pub thresholds: Thresholds,
    /// Thresholds for particular grid sizes (`[grades.size.N]`); others use `thresholds`.
    pub by_size: std::collections::BTreeMap<usize, Thresholds>,
    pub params: P,
    pub run: RunSection,
    /// The merged configuration as used, for the manifest.
    pub table: toml::Table,
}

fn merge(base: &mut toml::Table, over: toml::Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

/// The merged configuration table for `kind`: built-in defaults, then `user` over them.
pub fn load_table(kind: KindId, user: Option<&Path>) -> Result<toml::Table, UsageError> {
    let mut table: toml::Table = builtin(kind).parse().expect("built-in config parses");
    if let Some(path) = user {
        let text =
            std::fs::read_to_string(path).map_err(|e| UsageError(format!("--config {}: {e}", path.display())))?;
        let over: toml::Table = text.parse().map_err(|e| UsageError(format!("--config {}: {e}", path.display())))?;
        merge(&mut table, over);
    }
    Ok(table)
}

/// Validate a merged table into a `RunConfig` for a kind with parameters `P`.
pub fn from_table<P: DeserializeOwned>(
    kind: KindId,
    table: toml::Table,
    source: &str,
) -> Result<RunConfig<P>, UsageError> {
    let file: FileConfig<P> = table
        .clone()
        .try_into()
        .map_err(|e: toml::de::Error| UsageError(format!("{source}: {}", e.message().trim())))?;
    let thresholds = Thresholds::new(file.grades.k1, file.grades.k2, file.grades.k3)
        .and_then(|t| t.with_floor(file.grades.level_floor))
        .map_err(|e| UsageError(format!("{source}: [grades] {e}")))?;
    let mut by_size = std::collections::BTreeMap::new();
    for (key, g) in &file.grades.size {
        let size: usize =
            key.parse().map_err(|_| UsageError(format!("{source}: [grades.size.{key}]: the size must be a number")))?;
        let t = Thresholds::new(g.k1, g.k2, g.k3)
            .and_then(|t| t.with_floor(g.level_floor))
            .map_err(|e| UsageError(format!("{source}: [grades.size.{key}] {e}")))?;
        by_size.insert(size, t);
    }
    if !(1..=1_000_000).contains(&file.run.chunk) {
        return Err(UsageError(format!("{source}: [run] chunk must be 1 to 1000000, got {}", file.run.chunk)));
    }
    Ok(RunConfig { kind, thresholds, by_size, params: file.generate, run: file.run, table })
}

/// Load and validate the configuration of `kind`, with `user` merged over the defaults.
pub fn load<P: DeserializeOwned>(kind: KindId, user: Option<&Path>) -> Result<RunConfig<P>, UsageError> {
    let source = match user {
        Some(p) => format!("--config {}", p.display()),
        None => format!("built-in config/{}.toml", kind.name()),
    };
    from_table(kind, load_table(kind, user)?, &source)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::sudoku::SudokuParams;

    fn with(text: &str) -> Result<RunConfig<SudokuParams>, UsageError> {
        let mut table: toml::Table = builtin(KindId::Sudoku).parse().unwrap();
        merge(&mut table, text.parse().unwrap());
        from_table(KindId::Sudoku, table, "test")
    }

    #[test]
    fn per_size_thresholds_and_floors() {
        let c = with("[grades.size.9]\nk1 = 1.0\nk2 = 2.0\nk3 = 3.0\nlevel_floor = [0, 4, 6]\n").unwrap();
        assert_eq!(c.thresholds_for(Some(9)).k(), [1.0, 2.0, 3.0]);
        assert_eq!(c.thresholds_for(Some(9)).floor(), [0, 4, 6]);
        assert_eq!(c.thresholds_for(Some(6)).k(), c.thresholds.k());
        assert_eq!(c.thresholds.floor(), [0, 2, 5]);
        let e = with("[grades.size.nine]\nk1 = 1.0\nk2 = 2.0\nk3 = 3.0\n").unwrap_err().0;
        assert!(e.contains("[grades.size.nine]"), "{e}");
        let e = with("[grades.size.9]\nk1 = 3.0\nk2 = 2.0\nk3 = 4.0\n").unwrap_err().0;
        assert!(e.contains("[grades.size.9]") && e.contains("k1=3"), "{e}");
        let e = with("[grades]\nlevel_floor = [5, 2, 0]\n").unwrap_err().0;
        assert!(e.contains("level_floor"), "{e}");
    }

    #[test]
    fn builtin_defaults_load() {
        let c: RunConfig<SudokuParams> = load(KindId::Sudoku, None).unwrap();
        assert_eq!(c.params, SudokuParams::default());
        assert_eq!(c.thresholds.k(), [256.8, 766.9, 5015.5]);
    }

    #[test]
    fn errors_name_the_key() {
        let e = with("[grades]\nk1 = 1000.0\n").unwrap_err().0;
        assert!(e.contains("k1=1000") && e.contains("k2=766.9"), "{e}");
        let e = with("[generate]\nsymetry = \"none\"\n").unwrap_err().0;
        assert!(e.contains("symetry"), "{e}");
        let e = with("[grades]\nk2 = \"x\"\n").unwrap_err().0;
        assert!(e.contains("k2") || e.contains("invalid type"), "{e}");
        let e = with("[run]\nchunk = 0\n").unwrap_err().0;
        assert!(e.contains("chunk"), "{e}");
        assert!(with("[generate]\nsymmetry = \"mirror\"\n").is_ok());
    }
}
