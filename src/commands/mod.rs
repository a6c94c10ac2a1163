//! The commands, written once over `K: Kind`; `run` picks the kind through the registry
//! (`KindId::visit`), so adding a kind adds nothing here.

mod book;
mod book_plan;
pub mod calibrate;
pub mod explain;
mod generate;
mod library;
mod lines;
mod merge;
mod replay;

use crate::cli::{Cli, Command};
use crate::config::{self, RunConfig, UsageError};
use crate::kinds::{Kind, KindVisitor};
use anyhow::Result;
use clap::parser::ValueSource;
use generate::state::SavedRun;
use std::process::ExitCode;

/// Run the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    struct Run(Cli, Option<SavedRun>);
    impl KindVisitor for Run {
        type Output = Result<ExitCode>;
        fn visit<K: Kind>(self) -> Result<ExitCode> {
            run_kind::<K>(self.0, self.1)
        }
    }
    if let Command::Library { action } = cli.command {
        return library::run(action, cli.kind, cli.quiet);
    }
    if let Command::Merge { dirs, out, force } = &cli.command {
        return merge::merge(dirs, out, *force, cli.quiet);
    }
    if let Command::Book {
        input,
        plan,
        runs,
        library,
        out,
        cover,
        check,
        grades,
        trim,
        per_page,
        large_print,
        solutions,
        title,
        bleed,
        worked,
        hints,
    } = cli.command
    {
        if let Some(plan) = plan {
            return book_plan::build(book_plan::Args { plan, runs, out, cover, check, quiet: cli.quiet, library });
        }
        for (flag, given) in [("--check", check), ("--cover", cover.is_some()), ("--runs", runs.is_some())] {
            if given {
                return Err(UsageError(format!("{flag} goes with --plan (a book from a plan), not with --in")).into());
            }
        }
        let Some(input) = input else { unreachable!("clap requires --in or --plan") };
        let Some(out) = out else {
            return Err(UsageError("book --in needs --out FILE.pdf or --out DIR/".into()).into());
        };
        let grades = grades.into_iter().map(|g| g.grade()).collect();
        let print = book::Print { trim, per_page, large_print, solutions, title, bleed };
        return book::book(book::Args { input, out, grades, print, quiet: cli.quiet, worked, hints });
    }
    let (cli, saved) = resume_command_line(cli)?;
    cli.kind.visit(Run(cli, saved))
}

/// Flags of `generate` that belong to one invocation, not to the run: they may differ on
/// `--resume`.
/// `--time-limit` is not one of them: it is the run's, counted over all its sessions.
const INVOCATION_FLAGS: [&str; 5] = ["out", "force", "resume", "threads", "quiet"];

/// `generate --resume` on a folder with a saved run: the saved run's command line, with this
/// invocation's own flags; every other flag given now must match the saved one (exit 2).
fn resume_command_line(cli: Cli) -> Result<(Cli, Option<SavedRun>)> {
    let Command::Generate { resume: true, ref out, .. } = cli.command else { return Ok((cli, None)) };
    let Some(bytes) = crate::book::outdir::saved_state(out)? else { return Ok((cli, None)) };
    let saved = SavedRun::from_bytes(&bytes, &format!("--out {}", out.display()))?;
    let mut old = crate::cli::parse_from(&saved.argv);
    let raw = |m: &clap::ArgMatches, id: &str| -> Option<Vec<String>> {
        let v = m.try_get_raw(id).ok().flatten()?;
        Some(v.map(|s| s.to_string_lossy().into_owned()).collect())
    };
    // The arguments (not the groups clap also lists): the global ones and generate's own.
    let cmd = crate::cli::command();
    let mut args: Vec<String> = cmd.get_arguments().map(|a| a.get_id().to_string()).collect();
    if let Some(g) = cmd.find_subcommand("generate") {
        args.extend(g.get_arguments().map(|a| a.get_id().to_string()));
    }
    for id in &args {
        let id = id.as_str();
        let given = cli.kind_flags.try_get_raw(id).ok().flatten().is_some()
            && cli.kind_flags.value_source(id) == Some(ValueSource::CommandLine);
        if INVOCATION_FLAGS.contains(&id) || !given {
            continue;
        }
        let (now, then) = (raw(&cli.kind_flags, id), raw(&old.kind_flags, id));
        if id == "shard" && shard_of(&cli.command) == shard_of(&old.command) {
            continue; // `auto` and the K/N it stood for are the same shard
        }
        if now != then {
            let show = |v: Option<Vec<String>>| v.map_or("not given".into(), |v| v.join(" "));
            return Err(UsageError(format!(
                "--{} {} differs from the saved run in {} ({}): leave it out to resume, or --force to start over",
                id.replace('_', "-"),
                show(now),
                out.display(),
                show(then)
            ))
            .into());
        }
    }
    if let Command::Generate { out: o, resume: r, force: f, .. } = &mut old.command {
        *o = out.clone();
        *r = true;
        *f = false;
    }
    old.quiet = cli.quiet;
    old.threads = cli.threads;
    Ok((old, Some(saved)))
}

/// The command line to save with a run: `--shard auto` as the K/N it stood for, so that a
/// resume outside the Slurm task (or in another one) continues the same shard.
fn resolved_argv(argv: &[String], shard: Option<crate::pipeline::order::Shard>) -> Vec<String> {
    let Some(s) = shard else { return argv.to_vec() };
    let mut out = Vec::with_capacity(argv.len());
    let mut after_flag = false;
    for a in argv {
        if a == "--shard=auto" {
            out.push(format!("--shard={s}"));
        } else if after_flag && a == "auto" {
            out.push(s.to_string());
        } else {
            out.push(a.clone());
        }
        after_flag = a == "--shard";
    }
    out
}

/// `--resume` where nothing is saved starts a run only when the command line defines one
/// (`--seed`, and `--count` or `--quota`), as a script that always passes `--resume` does;
/// never on the defaults alone.
fn defines_a_run(m: &clap::ArgMatches, out: &std::path::Path) -> Result<(), UsageError> {
    let given = |id: &str| m.value_source(id) == Some(ValueSource::CommandLine);
    if given("seed") && (given("count") || given("quota")) {
        return Ok(());
    }
    Err(UsageError(format!(
        "--resume: no run is saved for --out {}, so there is nothing to continue; to start one, give its --seed \
         and --count or --quota (with or without --resume)",
        out.display()
    )))
}

fn shard_of(c: &Command) -> Option<crate::pipeline::order::Shard> {
    match c {
        Command::Generate { shard, .. } => *shard,
        _ => None,
    }
}

/// Refuse kind flags given on the command line that the chosen kind does not declare.
fn check_kind_flags<K: Kind>(given: &crate::kinds::FlagValues) -> Result<(), UsageError> {
    let own: Vec<&str> = K::flags().iter().map(|a| a.id).collect();
    for id in given.ids() {
        if !own.contains(&id) {
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

/// The configuration of `K` with the kind's flags applied (for `generate` and `replay`); a
/// resumed run's from the configuration saved with it.
pub(crate) fn configure<K: Kind>(cli: &Cli, saved: Option<&SavedRun>) -> Result<RunConfig<K::Params>, UsageError> {
    let mut cfg: RunConfig<K::Params> = match saved {
        Some(s) => config::load_saved::<K>(&s.config)?,
        None => config::load::<K>(cli.config.as_deref())?,
    };
    if matches!(cli.command, Command::Generate { .. } | Command::Replay { .. }) {
        check_kind_flags::<K>(&cli.given)?;
        K::apply_flags(&mut cfg.params, &cli.given).map_err(UsageError)?;
        cfg.check_effect(
            &crate::kinds::GradeKey::of_run::<K>(&cfg.params),
            K::HAS_VARIANTS,
            &config::source_name::<K>(cli.config.as_deref()),
        )?;
        let last = K::steer_levels(&cfg.params);
        if let Some(l) = cfg.target.levels.iter().find(|&&l| l > last) {
            return Err(UsageError(format!(
                "{}: [target] levels: {l} is past this run's last steering level, {last}",
                config::source_name::<K>(cli.config.as_deref())
            )));
        }
    } else if matches!(
        cli.command,
        Command::Rate { .. }
            | Command::Solve { .. }
            | Command::Explain { .. }
            | Command::Hint { .. }
            | Command::Calibrate { .. }
    ) {
        // The board flags these commands take (`--box`) choose how input lines are read.
        K::apply_flags(&mut cfg.params, &cli.given).map_err(UsageError)?;
    }
    Ok(cfg)
}

fn run_kind<K: Kind>(cli: Cli, saved: Option<SavedRun>) -> Result<ExitCode> {
    let cfg = configure::<K>(&cli, saved.as_ref())?;
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(n) = cli.threads {
            b = b.num_threads(n as usize);
        }
        b.build()?
    };
    // Ids only for the commands that take the kind's flags: the other subcommands do not define
    // them, and reading an undefined flag panics when clap is built with debug assertions.
    let ids = || crate::book::id::IdPrefix::new::<K>(&cfg.params, &cli.given);
    pool.install(|| match cli.command {
        Command::Generate {
            count,
            seed,
            quota,
            time_limit,
            out,
            force,
            resume,
            exclude,
            library,
            no_steer,
            overflow,
            shard,
            paths,
            require,
            forbid,
            max_level,
            teach,
            no_shortcut,
            books,
            compress,
        } => {
            let steered = !require.is_empty() || teach.is_some();
            let techniques =
                generate::Techniques { paths, require, forbid, max_level, teach, no_shortcut, steer: !no_steer };
            if quota.is_none() && ((no_steer && !steered) || overflow) {
                let flag = if no_steer { "--no-steer" } else { "--overflow" };
                return Err(UsageError(format!(
                    "{flag} applies to --quota runs only (--no-steer also to --require and --teach)"
                ))
                .into());
            }
            let layout = crate::book::layout::Layout { books, compress };
            generate::check_layout(layout, techniques.paths, overflow)?;
            generate::books_need_library(books, library.as_deref())?;
            let req = generate::Request {
                count,
                seed,
                quota: match (quota, shard) {
                    (Some(q), Some(s)) => Some(s.share(q, true)),
                    (q, _) => q,
                },
                order: quota,
                shard,
                time_limit,
                out: &out,
                force,
                exclude: &exclude,
                library: library.as_deref(),
                steer: !no_steer,
                // A shard of an order keeps its surplus: the merge counts it.
                overflow: overflow || (quota.is_some() && shard.is_some()),
                layout,
                quiet: cli.quiet,
                argv: resolved_argv(&cli.argv, shard),
                techniques: &techniques,
            };
            let resumed = if resume {
                match generate::find_resumable(&out)? {
                    generate::Resumable::Run(dir, saved) => Some((dir, *saved)),
                    generate::Resumable::Sealed(dir, saved) => {
                        return generate::complete(dir, &saved, &out, cli.quiet);
                    }
                    generate::Resumable::Finished => {
                        eprintln!("--out {}: the run there is finished; nothing to resume", out.display());
                        return Ok(ExitCode::SUCCESS);
                    }
                    generate::Resumable::Restart => None,
                    generate::Resumable::Nothing => {
                        defines_a_run(&cli.kind_flags, &out)?;
                        None
                    }
                }
            } else {
                None
            };
            generate::generate::<K>(&cfg, &ids()?, &req, resumed)
        }
        Command::Merge { .. } | Command::Book { .. } | Command::Library { .. } => {
            unreachable!("merge, book and library run before a kind is chosen")
        }
        Command::Rate { input, forbid } => {
            let off = crate::rate::technique_mask::<K::Tech>(&forbid, "forbid").map_err(UsageError)?;
            lines::rate::<K>(&cfg, input.as_deref(), off)
        }
        Command::Solve { input } => lines::solve::<K>(&cfg, input.as_deref()),
        Command::Explain { input, format } => explain::explain::<K>(&cfg, input.as_deref(), format),
        Command::Hint { input, reveal, format } => explain::hint::<K>(&cfg, input.as_deref(), reveal, format),
        Command::Replay { seed, index, steer, quota } => {
            replay::replay::<K>(&cfg, &ids()?, seed, index, steer, quota.is_some()).map(|_| ExitCode::SUCCESS)
        }
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
