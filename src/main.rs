//! Thin entry point: parse the command line, run, print errors as `error: {:#}`, and pick the
//! exit code (2 for usage and config errors, 1 for the rest, including bad input lines).
//!
//! A reader of our output that goes away (`… | head -1`) ends the run quietly with exit 0, as
//! Unix tools do: stdout writes return their errors instead of panicking, and a broken pipe
//! anywhere in the error's chain is not reported.

use puzzle_factory::config::UsageError;
use std::io::{ErrorKind, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = puzzle_factory::cli::parse();
    match puzzle_factory::run(cli) {
        Ok(code) => code,
        Err(err) if broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // A closed stderr is no reason to panic: the message is dropped.
            let _ = writeln!(std::io::stderr().lock(), "error: {err:#}");
            if err.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

/// Did the error come from writing to a pipe whose reader has gone (directly, or inside a CSV
/// writer's error)?
fn broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        let io = e.downcast_ref::<std::io::Error>().or_else(|| match e.downcast_ref::<csv::Error>()?.kind() {
            csv::ErrorKind::Io(io) => Some(io),
            _ => None,
        });
        io.is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
    })
}
