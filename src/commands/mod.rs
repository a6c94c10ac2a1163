//! The commands, written once over `K: Kind`; `run` picks the kind. This is the one `match` on
//! `KindId` outside the registry: adding a kind adds one arm here.

pub mod calibrate;
mod generate;
mod lines;
mod replay;

use crate::cli::{Cli, Command};
use crate::config::{self, RunConfig, UsageError};
use crate::kinds::kakuro::KakuroKind;
use crate::kinds::kenken::KenKenKind;
use crate::kinds::sudoku::Sudoku;
use crate::kinds::{Kind, KindId, Overrides};
use anyhow::Result;
use std::process::ExitCode;

/// Run the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.kind {
        KindId::Sudoku => run_kind::<Sudoku>(cli),
        KindId::Kenken => run_kind::<KenKenKind>(cli),
        KindId::Kakuro => run_kind::<KakuroKind>(cli),
    }
}

fn run_kind<K: Kind>(cli: Cli) -> Result<ExitCode> {
    let mut cfg: RunConfig<K::Params> = config::load(K::ID, cli.config.as_deref())?;
    let overrides = match &cli.command {
        Command::Generate { shape, .. } | Command::Replay { shape, .. } => shape.clone(),
        _ => Overrides::default(),
    };
    K::apply_overrides(&mut cfg.params, &overrides).map_err(UsageError)?;
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(n) = cli.threads {
            b = b.num_threads(n as usize);
        }
        b.build()?
    };
    pool.install(|| match cli.command {
        Command::Generate { count, seed, out, .. } => {
            generate::generate::<K>(&cfg, count, seed, &out, cli.quiet).map(|_| ExitCode::SUCCESS)
        }
        Command::Rate { input } => lines::rate::<K>(&cfg, input.as_deref()),
        Command::Solve { input } => lines::solve::<K>(&cfg, input.as_deref()),
        Command::Replay { seed, index, .. } => replay::replay::<K>(&cfg, seed, index).map(|_| ExitCode::SUCCESS),
        Command::Calibrate { reference, levels, method, shares, holdout, seed, floor, write_config, dump, report } => {
            calibrate::calibrate::<K>(
                &cfg,
                &reference,
                levels,
                method,
                &shares,
                holdout,
                seed,
                floor,
                write_config.as_deref(),
                dump.as_deref(),
                report.as_deref(),
            )
        }
    })
}
