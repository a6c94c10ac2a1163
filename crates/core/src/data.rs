//! The reference puzzles with outside labels (the shared data folder beside the repository,
//! or `$PUZZLE_FACTORY_DATA`), for the tests of every crate.

use std::path::PathBuf;

/// The reference data folder: `$PUZZLE_FACTORY_DATA`, else `shared/data` beside the repository
/// (found from this crate's folder, `crates/core`).
pub fn folder() -> PathBuf {
    std::env::var_os("PUZZLE_FACTORY_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"))
}

/// The file `rel` of the reference data; panics naming the file and the variable when it is
/// missing (a test's message).
pub fn read(rel: &str) -> String {
    let p = folder().join(rel);
    std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("reference data {}: {e} (set PUZZLE_FACTORY_DATA)", p.display()))
}

/// The solution of a janko.at scraper line (`data.solution`, rows of digit strings), row-major;
/// panics naming what is missing (a test's message).
pub fn janko_solution(v: &serde_json::Value) -> Vec<u8> {
    v["data"]["solution"]
        .as_array()
        .expect("janko line: no data.solution rows")
        .iter()
        .flat_map(|row| {
            row.as_array().expect("janko line: a solution row is not an array").iter().map(|d| {
                d.as_str().and_then(|s| s.parse::<u8>().ok()).expect("janko line: a solution cell is not a digit")
            })
        })
        .collect()
}
