//! Thin entry point: parse the command line, run, print errors as `error: {:#}`, and pick the
//! exit code (2 for usage and config errors, 1 for the rest, including bad input lines).

use puzzle_factory::config::UsageError;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = puzzle_factory::cli::parse();
    match puzzle_factory::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            if err.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
