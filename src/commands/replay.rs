//! `replay`: rebuild candidate I of a run from its master seed and print its book record (the
//! same line `puzzles.jsonl` holds) followed by the rater's full step log, one level try a line.
//! Write errors (a closed pipe, a full disk) are returned, naming standard output, not panicked
//! on.

use crate::book::id::IdPrefix;
use crate::book::Record;
use crate::config::RunConfig;
use crate::kinds::Kind;
use crate::pipeline::{process_steered, Context};
use anyhow::{Context as _, Result};
use std::fmt::Write as _;
use std::io::Write;

/// `quota`: the run was a `--quota` order (made without grade targeting).
pub fn replay<K: Kind>(
    cfg: &RunConfig<K::Params>,
    ids: &IdPrefix,
    master: u64,
    index: u64,
    steer: u8,
    quota: bool,
) -> Result<()> {
    if steer > K::STEER_LEVELS {
        return Err(crate::config::UsageError(format!(
            "--steer {steer}: {} has steering levels 0 to {}",
            K::NAME,
            K::STEER_LEVELS
        ))
        .into());
    }
    let key = crate::kinds::GradeKey::of_run::<K>(&cfg.params);
    let ctx = Context::<K>::new(master, cfg.params.clone(), cfg.thresholds_for(&key))
        .with_target(cfg.target_for_run(key.size, quota));
    let mut log = Vec::new();
    let p = process_steered(&ctx, index, steer, Some(&mut log));
    // The whole text first, then one write: a failure names where it went.
    let mut text = match &p.outcome {
        Ok(acc) => format!("{}\n", Record::new(&ids.id(master, index), master, index, steer, acc).json),
        Err(reason) => format!("# candidate {index} was rejected: {}\n", reason.name()),
    };
    for (i, e) in log.iter().enumerate() {
        let _ = writeln!(
            text,
            "# try {:>4}  level {}  situations {:>5}  successes {:>4}  cost {:>8.2}  {}",
            i + 1,
            e.level,
            e.situations,
            e.successes,
            e.cost,
            e.applied.as_deref().unwrap_or("-")
        );
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|_| out.flush()).context(super::lines::STDOUT)
}
