//! The command line (clap derive). Doc comments here are the `--help` text.
//!
//! Each kind declares its own `generate`/`replay` flags (`Kind::flags`); `parse` adds them to
//! those two commands and keeps their matches in `Cli::kind_flags` for the kind to read.

use crate::kinds::{Kind, KindId, KindVisitor};
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

/// How `calibrate` fits the thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CalibrationMethod {
    Midpoint,
    Quantile,
}
use std::path::PathBuf;

/// Mass-produces seeded, uniquely solvable, strategy-graded logic puzzles as puzzle books.
#[derive(Parser, Debug)]
#[command(name = "puzzle-factory", version, about)]
pub struct Cli {
    /// Puzzle kind.
    #[arg(long, global = true, value_enum, default_value_t = KindId::Sudoku)]
    pub kind: KindId,
    /// TOML settings merged over the built-in defaults (see config/<kind>.toml).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Worker threads [default: all cores]. Output does not depend on it.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// No progress bar.
    #[arg(long, global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
    /// The matches of the command, holding the kinds' own flags (filled by `parse`).
    #[arg(skip)]
    pub kind_flags: ArgMatches,
}

/// Every kind's flags, each flag id once (the first kind to declare it gives its help).
pub fn all_kind_flags() -> Vec<clap::Arg> {
    struct Flags;
    impl KindVisitor for Flags {
        type Output = Vec<clap::Arg>;
        fn visit<K: Kind>(self) -> Vec<clap::Arg> {
            K::flags()
        }
    }
    let mut all: Vec<clap::Arg> = Vec::new();
    for k in KindId::ALL {
        for a in k.visit(Flags) {
            if !all.iter().any(|b| b.get_id() == a.get_id()) {
                all.push(a);
            }
        }
    }
    all
}

/// The clap command with the kinds' flags added to `generate` and `replay`.
pub fn command() -> clap::Command {
    let mut cmd = Cli::command();
    for sub in ["generate", "replay"] {
        cmd = cmd.mut_subcommand(sub, |c| c.args(all_kind_flags()));
    }
    cmd
}

/// Parse the process's arguments (exits with clap's message and code 2 on a usage error).
pub fn parse() -> Cli {
    parse_from(std::env::args_os())
}

/// Parse `args` (the first is the program name).
pub fn parse_from<I, T>(args: I) -> Cli
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let m = command().get_matches_from(args);
    let mut cli = Cli::from_arg_matches(&m).unwrap_or_else(|e| e.exit());
    if let Some((_, sub)) = m.subcommand() {
        cli.kind_flags = sub.clone();
    }
    cli
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run N seeded candidates through generate → unique → rate → grade and write the book to DIR.
    Generate {
        /// Number of candidates.
        #[arg(long, default_value_t = 1000)]
        count: u64,
        /// Master seed: with the kind and parameters it fixes every candidate.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output directory (created if missing). It is replaced as a whole when the run
        /// completes; a directory that already holds a book is refused unless --force.
        #[arg(long, default_value = "output/book")]
        out: PathBuf,
        /// Replace the finished book in --out (kept whole until the new one is complete), or
        /// discard an unfinished run there.
        #[arg(long)]
        force: bool,
    },
    /// Rate puzzles, one per line, from FILE or stdin ('-'); CSV to stdout.
    Rate {
        /// Input file; '-' or absent for stdin.
        input: Option<PathBuf>,
    },
    /// Count solutions (stopping at 2) and print the first; CSV to stdout.
    Solve {
        /// Input file; '-' or absent for stdin.
        input: Option<PathBuf>,
    },
    /// Fit grade thresholds k1<k2<k3 to labelled reference puzzles and print the agreement.
    Calibrate {
        /// Reference file: one puzzle per line, then its label (tab-separated, else comma).
        #[arg(long)]
        reference: PathBuf,
        /// The labels in order, easiest first (known for the reference files in ../shared/data).
        #[arg(long, value_delimiter = ',')]
        levels: Option<Vec<String>>,
        /// `midpoint`: thresholds between adjacent level means (four levels), or the three cut
        /// points that maximise Kendall's tau-b (more levels); `quantile`: shares per grade.
        #[arg(long, value_enum, default_value_t = CalibrationMethod::Midpoint)]
        method: CalibrationMethod,
        /// Grade shares easiest first for `quantile`, in percent.
        #[arg(long, value_delimiter = ',', default_value = "40,30,20,10")]
        shares: Vec<f64>,
        /// Fraction of puzzles held out of the fit and used to measure the agreement (0 = none).
        #[arg(long, default_value_t = 0.3)]
        holdout: f64,
        /// Seed of the fit/holdout split and the bootstrap.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also fit a hardest-level floor (`level_floor`: the hardest technique level from which a
        /// puzzle is at least medium / hard / expert), by Kendall's tau-b on the fit part.
        #[arg(long)]
        floor: bool,
        /// Write a config file with the fitted thresholds (the other settings as used).
        #[arg(long, value_name = "FILE")]
        write_config: Option<PathBuf>,
        /// Write one CSV row per reference puzzle (line, level, steps, hardest level, our grade,
        /// held out or not), for side-by-side comparisons and plots.
        #[arg(long, value_name = "FILE")]
        dump: Option<PathBuf>,
        /// Write report.md with SVG plots (steps per grade with the thresholds, steps per
        /// reference level, technique usage per grade) into this directory.
        #[arg(long, value_name = "DIR")]
        report: Option<PathBuf>,
    },
    /// Rebuild candidate I of a run from its master seed, with the full step log.
    Replay {
        /// Master seed of the run.
        #[arg(long)]
        seed: u64,
        /// Candidate index. Give the run's own kind flags (--size, --rows, --cols, --symmetry)
        /// and --config as it used them.
        #[arg(long)]
        index: u64,
    },
}
