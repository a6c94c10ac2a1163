//! The commands, written once over `K: Kind`; `run` picks the kind through the registry
//! (`KindId::visit`), so adding a kind adds nothing here.

pub mod calibrate;
mod generate;
mod lines;
mod replay;

use crate::cli::{all_kind_flags, Cli, Command};
use crate::config::{self, RunConfig, UsageError};
use crate::kinds::{Kind, KindVisitor};
use anyhow::Result;
use clap::parser::ValueSource;
use std::process::ExitCode;

/// Run the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    struct Run(Cli);
    impl KindVisitor for Run {
        type Output = Result<ExitCode>;
        fn visit<K: Kind>(self) -> Result<ExitCode> {
            run_kind::<K>(self.0)
        }
    }
    cli.kind.visit(Run(cli))
}

/// Refuse kind flags given on the command line that the chosen kind does not declare.
fn check_kind_flags<K: Kind>(m: &clap::ArgMatches) -> Result<(), UsageError> {
    let own: Vec<clap::Id> = K::flags().iter().map(|a| a.get_id().clone()).collect();
    for a in all_kind_flags() {
        let id = a.get_id();
        let given = m.try_get_raw(id.as_str()).ok().flatten().is_some()
            && m.value_source(id.as_str()) == Some(ValueSource::CommandLine);
        if given && !own.contains(id) {
            let mut usable = vec![];
            for f in own.iter() {
                usable.push(format!("--{f}"));
            }
            let hint =
                if usable.is_empty() { "it takes none".into() } else { format!("it takes {}", usable.join(", ")) };
            return Err(UsageError(format!("--{id} does not apply to --kind {} ({hint})", K::NAME)));
        }
    }
    Ok(())
}

/// The configuration of `K` with the kind's flags applied (for `generate` and `replay`).
pub(crate) fn configure<K: Kind>(cli: &Cli) -> Result<RunConfig<K::Params>, UsageError> {
    let mut cfg: RunConfig<K::Params> = config::load::<K>(cli.config.as_deref())?;
    if matches!(cli.command, Command::Generate { .. } | Command::Replay { .. }) {
        check_kind_flags::<K>(&cli.kind_flags)?;
        K::apply_flags(&mut cfg.params, &cli.kind_flags).map_err(UsageError)?;
        cfg.check_effect(K::grading_size(&cfg.params), &config::source_name::<K>(cli.config.as_deref()))?;
    }
    Ok(cfg)
}

fn run_kind<K: Kind>(cli: Cli) -> Result<ExitCode> {
    let cfg = configure::<K>(&cli)?;
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(n) = cli.threads {
            b = b.num_threads(n as usize);
        }
        b.build()?
    };
    // Ids only for the commands that take the kind's flags: the other subcommands do not define
    // them, and reading an undefined flag panics when clap is built with debug assertions.
    let ids = || crate::book::id::IdPrefix::new::<K>(&cfg.params, &cli.kind_flags);
    pool.install(|| match cli.command {
        Command::Generate { count, seed, out, force } => {
            generate::generate::<K>(&cfg, &ids()?, count, seed, &out, force, cli.quiet).map(|_| ExitCode::SUCCESS)
        }
        Command::Rate { input } => lines::rate::<K>(&cfg, input.as_deref()),
        Command::Solve { input } => lines::solve::<K>(&cfg, input.as_deref()),
        Command::Replay { seed, index } => replay::replay::<K>(&cfg, &ids()?, seed, index).map(|_| ExitCode::SUCCESS),
        Command::Calibrate { reference, levels, method, shares, holdout, seed, floor, write_config, dump, report } => {
            let args = calibrate::Args {
                reference: &reference,
                levels,
                method,
                shares: &shares,
                holdout,
                seed,
                floor,
                write_config: write_config.as_deref(),
                dump: dump.as_deref(),
                report: report.as_deref(),
            };
            calibrate::calibrate::<K>(&cfg, args)
        }
    })
}
