//! The command line (clap derive). Doc comments here are the `--help` text.

use crate::kinds::{KindId, Overrides};
use clap::{Parser, Subcommand, ValueEnum};

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
        /// Output directory (created if missing).
        #[arg(long, default_value = "output/book")]
        out: PathBuf,
        #[command(flatten)]
        shape: Overrides,
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
        /// Candidate index.
        #[arg(long)]
        index: u64,
        /// The run's shape flags (--size, --rows, --cols, --symmetry), as it used them.
        #[command(flatten)]
        shape: Overrides,
    },
}
