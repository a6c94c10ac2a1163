//! The kind's flags + its built-in `config/<kind>.toml` → one validated, immutable `RunConfig`.
//!
//! The built-in defaults are the files in `config/`, compiled into the binary (each kind names
//! its own, `Kind::DEFAULT_CONFIG`), so the program runs anywhere. `--config FILE` is merged over
//! them key by key, so a user file only needs the keys it changes. Unknown keys, wrong types,
//! values out of range and keys that would have no effect on the run are refused with a message
//! that names the key; such errors are `UsageError`s (exit code 2).

use pf_core::grade::Thresholds;
use pf_core::kind::{GradeKey, Kind};
use pf_core::rate::Technique;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// An error in how the program was called or configured: exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// One set of grade thresholds: `[grades]` or `[grades.size.N]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GradeKeys {
    k1: f64,
    k2: f64,
    k3: f64,
    #[serde(default)]
    level_floor: [u8; 3],
}

/// `[grades]`: the keys of `GradeKeys` (not flattened: a flattened struct loses the key path
/// in type errors) and the per-size tables.
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
    size: BTreeMap<String, GradeKeys>,
    /// Thresholds for variants with a step scale of their own (`[grades.variant.9k]`: the
    /// Sudoku family's killer, jigsaw and X boards), ahead of their size's.
    #[serde(default)]
    variant: BTreeMap<String, GradeKeys>,
}

#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct RunSection {
    /// Candidates per ordered chunk.
    pub chunk: usize,
    /// Seconds between two saves of the run state.
    #[serde(default = "default_save_every")]
    pub save_every: f64,
}

fn default_save_every() -> f64 {
    2.0
}

/// Grade targeting: each candidate draws a target grade from `shares` and makes up to
/// `attempts` variants until one has that grade (0: off, the candidate is its first variant),
/// each at the kind's steering level `levels[grade]` (settings aimed at that grade; 0 = as
/// configured). With `mix` (the size's `[target.size.N] mix`: per steering level, the share of
/// each grade among its candidates), a count run plans instead (`pipeline::plan::Plan`).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct TargetSection {
    pub attempts: u32,
    pub shares: [f64; 4],
    pub levels: [u8; 4],
    /// Empty: no plan.
    pub mix: Vec<[f64; 4]>,
}

/// `[target]` as written: the keys of `TargetSection` and per-size `attempts`
/// (`[target.size.N]`, for kinds with grid sizes).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetKeys {
    #[serde(default)]
    attempts: u32,
    #[serde(default = "even_shares")]
    shares: [f64; 4],
    #[serde(default)]
    levels: [u8; 4],
    #[serde(default)]
    size: BTreeMap<String, TargetSizeKeys>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetSizeKeys {
    #[serde(default)]
    attempts: Option<u32>,
    #[serde(default)]
    mix: Option<Vec<[f64; 4]>>,
}

impl Default for TargetKeys {
    fn default() -> Self {
        TargetKeys { attempts: 0, shares: even_shares(), levels: [0; 4], size: BTreeMap::new() }
    }
}

fn even_shares() -> [f64; 4] {
    [1.0; 4]
}

impl Default for TargetSection {
    fn default() -> Self {
        TargetSection { attempts: 0, shares: even_shares(), levels: [0; 4], mix: Vec::new() }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig<P> {
    grades: Grades,
    generate: P,
    run: RunSection,
    #[serde(default)]
    target: TargetKeys,
}

/// Everything a run needs, validated.
#[derive(Clone, Debug)]
pub struct RunConfig<P> {
    pub thresholds: Thresholds,
    /// Thresholds for particular grid sizes (`[grades.size.N]`); others use `thresholds`.
    pub by_size: BTreeMap<usize, Thresholds>,
    /// Thresholds for particular variants (`[grades.variant.NAME]`), ahead of `by_size`.
    pub by_variant: BTreeMap<String, Thresholds>,
    pub params: P,
    pub run: RunSection,
    pub target: TargetSection,
    /// `[target.size.N] attempts`: targeting attempts for particular grid sizes.
    pub target_by_size: BTreeMap<usize, u32>,
    /// `[target.size.N] mix`: per steering level, its candidates' share of each grade (rows
    /// summing to 1), for particular grid sizes.
    pub target_mix_by_size: BTreeMap<usize, Vec<[f64; 4]>>,
    /// The merged configuration as used, for the manifest.
    pub table: toml::Table,
    /// The `[grades]` and `[target]` keys the user's `--config` file set (checked by `check_effect`).
    user_grades: Vec<String>,
}

impl<P> RunConfig<P> {
    /// The thresholds for a run's or puzzle's key: the first `[grades.variant.NAME]` given of
    /// its variants (most specific first), else
    /// `[grades.size.N]` when given, else `[grades]`.
    pub fn thresholds_for(&self, key: &GradeKey) -> Thresholds {
        key.variants
            .iter()
            .find_map(|v| self.by_variant.get(v))
            .or_else(|| key.size.and_then(|s| self.by_size.get(&s)))
            .copied()
            .unwrap_or(self.thresholds)
    }

    /// `[target]` for a run: per size, and off for a `--quota` order, which keeps every
    /// candidate of a grade it still needs, so a variant aimed at a drawn grade would only
    /// throw away puzzles it wants (a variant costs what a candidate does). `replay --quota`
    /// rebuilds such a run's rows.
    pub fn target_for_run(&self, size: Option<usize>, quota: bool) -> TargetSection {
        let t = self.target_for(size);
        if quota {
            TargetSection { attempts: 0, mix: Vec::new(), ..t }
        } else {
            t
        }
    }

    /// Grade targeting for a grid size (`[target.size.N] attempts` and `mix` when given).
    pub fn target_for(&self, size: Option<usize>) -> TargetSection {
        let attempts = size.and_then(|s| self.target_by_size.get(&s)).copied().unwrap_or(self.target.attempts);
        let mix = size.and_then(|s| self.target_mix_by_size.get(&s)).cloned().unwrap_or_default();
        TargetSection { attempts, mix, ..self.target.clone() }
    }

    /// The first of the key's variants (most specific first) that has a table.
    fn variant_table<'a>(&self, key: &'a GradeKey) -> Option<&'a String> {
        key.variants.iter().find(|v| self.by_variant.contains_key(*v))
    }

    /// The table `thresholds_for(key)` comes from: `[grades.variant.NAME]`, `[grades.size.N]`
    /// or `[grades]`.
    pub fn thresholds_source(&self, key: &GradeKey) -> String {
        match (self.variant_table(key), key.size) {
            (Some(v), _) => format!("[grades.variant.{v}]"),
            (_, Some(s)) if self.by_size.contains_key(&s) => format!("[grades.size.{s}]"),
            _ => "[grades]".to_string(),
        }
    }

    /// A run that grades by one key only (`generate` at `key`; `variants`: whether the kind
    /// reads variant tables): refuse grade keys the user's file changed that this run would
    /// ignore, naming them — a `[grades]` threshold shadowed by the run's `[grades.size.N]` or
    /// `[grades.variant.NAME]`, the run's size table shadowed by its variant table, or any size
    /// or variant table for a kind that has none. (Tables of other sizes and variants are
    /// allowed: one file may hold all of them.)
    pub fn check_effect(&self, key: &GradeKey, variants: bool, source: &str) -> Result<(), UsageError> {
        let size = key.size;
        // Why the run's own variant table shadows its size's and `[grades]`.
        let by_variant = self
            .variant_table(key)
            .map(|v| format!("[grades.variant.{v}] sets the thresholds of variant {v}: change them there"));
        for key in &self.user_grades {
            if let Some(key) = key.strip_prefix("target:") {
                let why = match (key.starts_with("size."), size) {
                    (true, None) => "this kind has no grid sizes".to_string(),
                    (false, Some(s)) if key == "attempts" && self.target_by_size.contains_key(&s) => {
                        format!("[target.size.{s}] sets the attempts of size {s}: change them there")
                    }
                    _ => continue,
                };
                return Err(UsageError(format!("{source}: [target] {key} has no effect on this run ({why})")));
            }
            let why = if key.starts_with("variant.") {
                if variants {
                    continue;
                }
                "this kind has no variant tables".to_string()
            } else if let Some(table) = key.strip_prefix("size.") {
                match (size, &by_variant) {
                    (None, _) => "this kind has no per-size thresholds".to_string(),
                    (Some(s), Some(why)) if table.starts_with(&format!("{s}.")) => why.clone(),
                    _ => continue,
                }
            } else if let Some(why) = &by_variant {
                why.clone()
            } else if let Some(s) = size.filter(|s| self.by_size.contains_key(s)) {
                format!("[grades.size.{s}] sets the thresholds of size {s}: change them there")
            } else {
                continue;
            };
            return Err(UsageError(format!("{source}: [grades] {key} has no effect on this run ({why})")));
        }
        Ok(())
    }
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

/// The dotted names of the keys a user file sets under `[grades]` (`k1`, `size.9.k1`) or
/// `[target]` (`target:attempts`) to a value other than the built-in one (a copy of the built-in
/// file changes nothing).
fn grade_keys(over: &toml::Table, defaults: &toml::Table) -> Vec<String> {
    fn walk(prefix: &str, t: &toml::Table, base: Option<&toml::Table>, out: &mut Vec<String>) {
        for (k, v) in t {
            let name = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
            let old = base.and_then(|b| b.get(k));
            match v {
                toml::Value::Table(sub) => walk(&name, sub, old.and_then(|o| o.as_table()), out),
                _ if old != Some(v) => out.push(name),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for section in ["grades", "target"] {
        if let Some(toml::Value::Table(g)) = over.get(section) {
            let mut keys = Vec::new();
            walk("", g, defaults.get(section).and_then(|d| d.as_table()), &mut keys);
            out.extend(keys.into_iter().map(|k| if section == "grades" { k } else { format!("{section}:{k}") }));
        }
    }
    out
}

/// The merged configuration table: `defaults` (a kind's built-in file), then `user` over them.
/// Also returns the `[grades]` keys the user file set.
pub fn load_table(defaults: &str, user: Option<&Path>) -> Result<(toml::Table, Vec<String>), UsageError> {
    let mut table: toml::Table = defaults.parse().expect("built-in config parses");
    let mut keys = Vec::new();
    if let Some(path) = user {
        let text =
            std::fs::read_to_string(path).map_err(|e| UsageError(format!("--config {}: {e}", path.display())))?;
        let over: toml::Table = text.parse().map_err(|e| UsageError(format!("--config {}: {e}", path.display())))?;
        keys = grade_keys(&over, &table);
        merge(&mut table, over);
    }
    Ok((table, keys))
}

/// Deserialize, naming the key of a wrong type or unknown name (`[generate] size: invalid type`).
fn typed<T: DeserializeOwned>(table: toml::Table, source: &str) -> Result<T, UsageError> {
    serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|e| {
        let path = e.path().to_string();
        let msg = e.inner().to_string();
        // The TOML error may add a line naming the table; the path already does.
        let msg = msg.lines().next().unwrap_or("").trim();
        if path.is_empty() || path == "." {
            UsageError(format!("{source}: {msg}"))
        } else {
            UsageError(format!("{source}: key {path}: {msg}"))
        }
    })
}

/// Thresholds from one `[grades]` table, each value range-checked (`max_level`: the kind's
/// hardest technique level, the largest meaningful floor).
fn checked_thresholds(g: &GradeKeys, max_level: u8) -> Result<Thresholds, String> {
    for (key, v) in [("k1", g.k1), ("k2", g.k2), ("k3", g.k3)] {
        if !(v.is_finite() && v > 0.0) {
            return Err(format!("{key} must be a positive number, got {v}"));
        }
    }
    if let Some(f) = g.level_floor.iter().find(|&&f| f > max_level) {
        return Err(format!("level_floor entries must be 0 (off) to {max_level}, got {f}"));
    }
    Thresholds::new(g.k1, g.k2, g.k3).and_then(|t| t.with_floor(g.level_floor))
}

/// Validate a merged table into a `RunConfig` for a kind with parameters `P` whose techniques
/// go up to `max_level`.
pub(crate) fn from_table<P: DeserializeOwned>(
    table: toml::Table,
    user_grades: Vec<String>,
    max_level: u8,
    source: &str,
) -> Result<RunConfig<P>, UsageError> {
    let file: FileConfig<P> = typed(table.clone(), source)?;
    let g = &file.grades;
    let thresholds =
        checked_thresholds(&GradeKeys { k1: g.k1, k2: g.k2, k3: g.k3, level_floor: g.level_floor }, max_level)
            .map_err(|e| UsageError(format!("{source}: [grades] {e}")))?;
    let mut by_size = BTreeMap::new();
    for (key, g) in &file.grades.size {
        let size: usize =
            key.parse().ok().filter(|n| (1..=255).contains(n)).ok_or_else(|| {
                UsageError(format!("{source}: [grades.size.{key}]: the size must be a number, 1 to 255"))
            })?;
        let t =
            checked_thresholds(g, max_level).map_err(|e| UsageError(format!("{source}: [grades.size.{key}] {e}")))?;
        by_size.insert(size, t);
    }
    let mut by_variant = BTreeMap::new();
    for (key, g) in &file.grades.variant {
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(UsageError(format!(
                "{source}: [grades.variant.{key}]: the variant must be a name of letters and digits (9k, 9jk, 6j)"
            )));
        }
        let t = checked_thresholds(g, max_level)
            .map_err(|e| UsageError(format!("{source}: [grades.variant.{key}] {e}")))?;
        by_variant.insert(key.clone(), t);
    }
    if !(0.0..=86400.0).contains(&file.run.save_every) {
        return Err(UsageError(format!(
            "{source}: [run] save_every must be 0 to 86400 seconds, got {}",
            file.run.save_every
        )));
    }
    if !(1..=1_000_000).contains(&file.run.chunk) {
        return Err(UsageError(format!("{source}: [run] chunk must be 1 to 1000000, got {}", file.run.chunk)));
    }
    let t = &file.target;
    let check_attempts = |a: u32, key: &str| {
        if a > 10_000 {
            return Err(UsageError(format!("{source}: [{key}] attempts must be 0 to 10000, got {a}")));
        }
        Ok(())
    };
    check_attempts(t.attempts, "target")?;
    if t.shares.iter().any(|s| !s.is_finite() || *s < 0.0) || t.shares.iter().sum::<f64>() <= 0.0 {
        return Err(UsageError(format!(
            "{source}: [target] shares must be four non-negative numbers, not all 0, got {:?}",
            t.shares
        )));
    }
    let mut target_by_size = BTreeMap::new();
    let mut target_mix_by_size = BTreeMap::new();
    for (key, s) in &t.size {
        let size: usize =
            key.parse().ok().filter(|n| (1..=255).contains(n)).ok_or_else(|| {
                UsageError(format!("{source}: [target.size.{key}]: the size must be a number, 1 to 255"))
            })?;
        if let Some(a) = s.attempts {
            check_attempts(a, &format!("target.size.{key}"))?;
            target_by_size.insert(size, a);
        }
        if let Some(mix) = &s.mix {
            let mut rows = Vec::with_capacity(mix.len());
            for (l, row) in mix.iter().enumerate() {
                let total: f64 = row.iter().sum();
                if row.iter().any(|x| !x.is_finite() || *x < 0.0) || total <= 0.0 {
                    return Err(UsageError(format!(
                        "{source}: [target.size.{key}] mix: row {l} (steering level {l}) must be four \
                         non-negative numbers, not all 0, got {row:?}"
                    )));
                }
                rows.push(row.map(|x| x / total));
            }
            // `mix = []`: no plan at this size (the built-in mix set aside).
            if !rows.is_empty() {
                target_mix_by_size.insert(size, rows);
            }
        }
    }
    Ok(RunConfig {
        thresholds,
        by_size,
        by_variant,
        params: file.generate,
        run: file.run,
        target: TargetSection { attempts: t.attempts, shares: t.shares, levels: t.levels, mix: Vec::new() },
        target_by_size,
        target_mix_by_size,
        table,
        user_grades,
    })
}

/// Where a configuration came from, for messages.
pub fn source_name<K: Kind>(user: Option<&Path>) -> String {
    match user {
        Some(p) => format!("--config {}", p.display()),
        None => format!("built-in config/{}.toml", K::NAME),
    }
}

/// Load and validate the configuration of kind `K`, with `user` merged over its defaults.
pub fn load<K: Kind>(user: Option<&Path>) -> Result<RunConfig<K::Params>, UsageError> {
    let (table, keys) = load_table(K::DEFAULT_CONFIG, user)?;
    let source = source_name::<K>(user);
    let cfg = from_table(table, keys, K::Tech::max_level(), &source)?;
    check_table_sizes::<K, _>(&cfg, &source)?;
    Ok(cfg)
}

/// The configuration saved with a run (`--resume`): the merged table as TOML text.
pub fn load_saved<K: Kind>(text: &str) -> Result<RunConfig<K::Params>, UsageError> {
    let table: toml::Table = text.parse().map_err(|e| UsageError(format!("the saved run's config: {e}")))?;
    let cfg = from_table(table, Vec::new(), K::Tech::max_level(), "the saved run's config")?;
    check_table_sizes::<K, _>(&cfg, "the saved run's config")?;
    Ok(cfg)
}

/// Refuse a `[grades.size.N]` or `[target.size.N]` table that no puzzle of kind `K` can use
/// (`Kind::TABLE_SIZES`: a size the kind has no puzzle of, or any size table for a kind
/// graded by `[grades]` alone), naming the table. Such a table was accepted and silently
/// ignored (`[grades.size.99]` for KenKen, whose sizes stop at 12).
fn check_table_sizes<K: Kind, P>(cfg: &RunConfig<P>, source: &str) -> Result<(), UsageError> {
    let label = K::TITLE;
    for (&n, mix) in &cfg.target_mix_by_size {
        let levels = K::STEER_LEVELS as usize + 1;
        if mix.len() != levels {
            return Err(UsageError(format!(
                "{source}: [target.size.{n}] mix must have one row per steering level of {}, 0 to {} ({levels} rows), \
                 got {}",
                K::TITLE,
                K::STEER_LEVELS,
                mix.len()
            )));
        }
    }
    let grades = cfg.by_size.keys().map(|&n| ("grades", n));
    let targets = cfg.target_by_size.keys().chain(cfg.target_mix_by_size.keys()).map(|&n| ("target", n));
    for (section, n) in grades.chain(targets) {
        let why = match K::TABLE_SIZES {
            Some((lo, hi)) if (lo..=hi).contains(&n) => continue,
            Some((lo, hi)) => format!("{label} has sizes {lo} to {hi}"),
            None => format!("{label} has no per-size tables: [{section}] applies to every puzzle"),
        };
        return Err(UsageError(format!("{source}: [{section}.size.{n}] can apply to no puzzle ({why})")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf_sudoku::{Sudoku, SudokuParams};

    fn with(text: &str) -> Result<RunConfig<SudokuParams>, UsageError> {
        let mut table: toml::Table = Sudoku::DEFAULT_CONFIG.parse().unwrap();
        let over: toml::Table = text.parse().unwrap();
        let keys = grade_keys(&over, &table);
        merge(&mut table, over);
        from_table(table, keys, 6, "test")
    }

    fn sz(n: usize) -> GradeKey {
        GradeKey { size: Some(n), variants: Vec::new() }
    }

    #[test]
    fn per_size_thresholds_and_floors() {
        let c = with("[grades.size.9]\nk1 = 1.0\nk2 = 2.0\nk3 = 3.0\nlevel_floor = [0, 4, 6]\n").unwrap();
        assert_eq!(c.thresholds_for(&sz(9)).k(), [1.0, 2.0, 3.0]);
        assert_eq!(c.thresholds_for(&sz(9)).floor(), [0, 4, 6]);
        assert_eq!(c.thresholds_for(&sz(6)).k(), c.thresholds.k());
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
        let c: RunConfig<SudokuParams> = load::<Sudoku>(None).unwrap();
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
        assert!(e.contains("key grades.k2") && e.contains("invalid type"), "{e}");
        let e = with("[grades]\nk1 = -5.0\n").unwrap_err().0;
        assert!(e.contains("k1 must be a positive number"), "{e}");
        let e = with("[grades]\nk1 = 0.0\n").unwrap_err().0;
        assert!(e.contains("k1 must be a positive number, got 0"), "{e}");
        assert!(with("[grades]\nk1 = 0.5\n").is_ok());
        // The kind's hardest level (6 here) is itself a valid floor.
        assert_eq!(with("[grades]\nlevel_floor = [6, 6, 6]\n").unwrap().thresholds.floor(), [6, 6, 6]);
        let e = with("[grades]\nlevel_floor = [0, 2, 99]\n").unwrap_err().0;
        assert!(e.contains("level_floor") && e.contains("99"), "{e}");
        let e = with("[generate]\nsymmetry = 3\n").unwrap_err().0;
        assert!(e.contains("key generate.symmetry"), "{e}");
        let e = with("[run]\nchunk = 0\n").unwrap_err().0;
        assert!(e.contains("chunk"), "{e}");
        assert!(with("[generate]\nsymmetry = \"mirror\"\n").is_ok());
    }
}

#[cfg(test)]
mod effect_tests {
    use super::*;
    use pf_kenken::{KenKenKind, KenKenParams};

    fn sz(n: usize) -> GradeKey {
        GradeKey { size: Some(n), variants: Vec::new() }
    }

    /// The error of a KenKen config with `text` merged over the built-in file.
    fn bad(text: &str) -> String {
        let mut table: toml::Table = KenKenKind::DEFAULT_CONFIG.parse().unwrap();
        merge(&mut table, text.parse().unwrap());
        from_table::<KenKenParams>(table, Vec::new(), 6, "test").unwrap_err().0
    }

    fn kenken(text: &str) -> RunConfig<KenKenParams> {
        let mut table: toml::Table = KenKenKind::DEFAULT_CONFIG.parse().unwrap();
        let over: toml::Table = text.parse().unwrap();
        let keys = grade_keys(&over, &table);
        merge(&mut table, over);
        from_table(table, keys, 6, "test").unwrap()
    }

    #[test]
    fn keys_without_effect_are_named() {
        // [grades] is shadowed at size 9 by the built-in [grades.size.9].
        let c = kenken("[grades]\nk1 = 100.0\nk2 = 200.0\nk3 = 300.0\n");
        let e = c.check_effect(&sz(9), false, "test").unwrap_err().0;
        assert!(e.contains("[grades] k1") && e.contains("[grades.size.9]"), "{e}");
        assert!(c.check_effect(&sz(6), false, "test").is_ok());
        // A copy of the built-in file changes nothing, so nothing is flagged.
        assert!(kenken(KenKenKind::DEFAULT_CONFIG).check_effect(&sz(9), false, "test").is_ok());
        // Tables for several sizes may share one file.
        let c = kenken("[grades.size.7]\nk1 = 1.0\nk2 = 2.0\nk3 = 3.0\n");
        assert!(c.check_effect(&sz(6), false, "test").is_ok());
        assert!(c.check_effect(&sz(7), false, "test").is_ok());
        // A kind without per-size thresholds ignores every size table.
        let e = c.check_effect(&GradeKey::default(), false, "test").unwrap_err().0;
        assert!(e.contains("size.7.k1") && e.contains("no per-size"), "{e}");
    }

    #[test]
    fn variant_tables_come_first() {
        let c = kenken(
            "[grades.size.9]\nk1 = 1.0\nk2 = 2.0\nk3 = 3.0\n[grades.variant.9k]\nk1 = 10.0\nk2 = 20.0\nk3 = 30.0\n",
        );
        let killer = GradeKey { size: Some(9), variants: vec!["9k".into()] };
        let jigsaw = GradeKey { size: Some(9), variants: vec!["9j".into()] };
        // A combination without a table of its own takes the first of its parts' that has one.
        let x_killer = GradeKey { size: Some(9), variants: vec!["9xk".into(), "9k".into(), "9x".into()] };
        assert_eq!(c.thresholds_source(&x_killer), "[grades.variant.9k]");
        assert_eq!(c.thresholds_for(&killer).k(), [10.0, 20.0, 30.0]);
        assert_eq!(c.thresholds_source(&killer), "[grades.variant.9k]");
        // A variant without a table of its own takes its size's.
        assert_eq!(c.thresholds_for(&jigsaw).k(), [1.0, 2.0, 3.0]);
        assert_eq!(c.thresholds_source(&jigsaw), "[grades.size.9]");
        // The size table has no effect where the variant has its own; other variants use it.
        let e = c.check_effect(&killer, true, "test").unwrap_err().0;
        assert!(e.contains("size.9.k1") && e.contains("[grades.variant.9k]"), "{e}");
        assert!(c.check_effect(&jigsaw, true, "test").is_ok());
        // A kind without variants names the variant table as having no effect.
        let e = c.check_effect(&sz(9), false, "test").unwrap_err().0;
        assert!(e.contains("variant.9k") && e.contains("no variant tables"), "{e}");
        assert!(bad("[grades.variant.\"9 k\"]\nk1 = 1.0\nk2 = 2.0\nk3 = 3.0\n").contains("[grades.variant.9 k]"));
        assert!(bad("[grades.variant.9k]\nk1 = 3.0\nk2 = 2.0\nk3 = 4.0\n").contains("[grades.variant.9k]"));
    }

    #[test]
    fn a_mix_per_size_and_its_checks() {
        let c = kenken(
            "[target.size.9]\nmix = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], \
             [0.0, 0.0, 0.0, 2.0], [1.0, 1.0, 1.0, 1.0]]\n",
        );
        // Rows scaled to sum 1; other sizes keep the built-in mix; a quota order has none.
        let mix = c.target_for(Some(9)).mix;
        assert_eq!((mix[3], mix[4]), ([0.0, 0.0, 0.0, 1.0], [0.25; 4]));
        assert_eq!(c.target_for(Some(6)).mix.len(), 5);
        assert!(c.target_for_run(Some(9), true).mix.is_empty());
        // A size table may set the mix alone: the attempts stay [target]'s.
        assert_eq!(c.target_for(Some(9)).attempts, c.target.attempts);
        assert!(bad("[target.size.9]\nmix = [[1.0, -1.0, 0.0, 0.0]]\n").contains("[target.size.9] mix: row 0"));
        assert!(bad("[target.size.9]\nmix = [[0.0, 0.0, 0.0, 0.0]]\n").contains("[target.size.9] mix: row 0"));
        // One row per steering level.
        let e = load_text::<KenKenKind>("[target.size.9]\nmix = [[1.0, 0.0, 0.0, 0.0]]\n").unwrap_err().0;
        assert!(e.contains("[target.size.9] mix") && e.contains("5 rows"), "{e}");
        // An empty mix sets the built-in one aside.
        assert!(kenken("[target.size.6]\nmix = []\n").target_for(Some(6)).mix.is_empty());
        let e = load_text::<KenKenKind>("[target.size.40]\nmix = [[1.0, 0.0, 0.0, 0.0]]\n").unwrap_err().0;
        assert!(e.contains("[target.size.40]"), "{e}");
    }

    /// `load::<K>` with `text` as the user's file.
    fn load_text<K: Kind>(text: &str) -> Result<RunConfig<K::Params>, UsageError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("user.toml");
        std::fs::write(&path, text).unwrap();
        load::<K>(Some(&path))
    }

    #[test]
    fn size_tables_no_puzzle_can_use_are_refused() {
        use pf_kakuro::KakuroKind;
        use pf_sudoku::{family::Family, Sudoku};
        let table = |n: usize| format!("[grades.size.{n}]\nk1 = 1.0\nk2 = 2.0\nk3 = 3.0\n");
        let e = load_text::<KenKenKind>(&table(99)).unwrap_err().0;
        assert!(e.contains("[grades.size.99]") && e.contains("KenKen has sizes 1 to 12"), "{e}");
        assert!(load_text::<KenKenKind>(&table(13)).is_err());
        assert!(load_text::<KenKenKind>(&table(12)).is_ok());
        let e = load_text::<KenKenKind>("[target.size.40]\nattempts = 3\n").unwrap_err().0;
        assert!(e.contains("[target.size.40]"), "{e}");
        let e = load_text::<Family>(&table(26)).unwrap_err().0;
        assert!(e.contains("[grades.size.26]") && e.contains("4 to 25"), "{e}");
        assert!(load_text::<Family>(&table(25)).is_ok());
        // Kinds graded by [grades] alone take no size table at all.
        let e = load_text::<Sudoku>(&table(9)).unwrap_err().0;
        assert!(e.contains("[grades.size.9]") && e.contains("no per-size tables"), "{e}");
        let e = load_text::<KakuroKind>(&table(8)).unwrap_err().0;
        assert!(e.contains("[grades.size.8]") && e.contains("Kakuro"), "{e}");
        // The built-in files pass.
        assert!(load::<KenKenKind>(None).is_ok() && load::<Family>(None).is_ok() && load::<KakuroKind>(None).is_ok());
    }

    #[test]
    fn targeting_by_size_and_its_checks() {
        let c = kenken("[target]\nattempts = 5\nshares = [1.0, 0.0, 0.0, 1.0]\n[target.size.9]\nattempts = 7\n");
        assert_eq!(c.target_for(Some(9)).attempts, 7);
        assert_eq!(c.target_for(Some(6)).attempts, 5);
        assert_eq!(c.target_for(Some(9)).shares, [1.0, 0.0, 0.0, 1.0]);
        // [target] attempts is shadowed where a size table sets them.
        let e = c.check_effect(&sz(9), false, "test").unwrap_err().0;
        assert!(e.contains("[target] attempts") && e.contains("[target.size.9]"), "{e}");
        assert!(c.check_effect(&sz(6), false, "test").is_ok());
        assert!(bad("[target]\nshares = [0.0, 0.0, 0.0, 0.0]\n").contains("[target] shares"));
        assert!(bad("[target]\nshares = [1.0, -1.0, 0.0, 0.0]\n").contains("[target] shares"));
        assert!(bad("[target]\nattempts = 10001\n").contains("[target] attempts"));
        assert!(bad("[target.size.x]\nattempts = 1\n").contains("[target.size.x]"));
        assert!(bad("[target]\nattemps = 1\n").contains("attemps"));
    }
}
