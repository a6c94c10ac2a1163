//! Thin entry point: parse the command line, run, print errors as `error: {:#}`, and pick the
//! exit code (2 for usage and config errors, 1 for the rest, including bad input lines).
//!
//! A reader of our output that goes away (`… | head -1`) ends the run quietly with exit 0, as
//! Unix tools do: stdout writes return their errors instead of panicking, and a broken pipe
//! anywhere in the error's chain is not reported. A standard output that is not there at all
//! (closed, `>&-`) is an error, exit 1: Rust's runtime would put /dev/null there and every
//! write would seem done, so a command whose result goes there stops before it starts (Linux,
//! where the closed descriptor is seen before the runtime starts).

use puzzle_factory::cli::Command;
use puzzle_factory::config::UsageError;
use std::io::{ErrorKind, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    keep_freed_memory();
    small_pages();
    let cli = puzzle_factory::cli::parse();
    // A closed stdout now holds the runtime's /dev/null (so no file the run opens becomes
    // descriptor 1); a command whose result goes there stops here.
    if let Some(name) = result_on_stdout(&cli.command).filter(|_| stdout_closed()) {
        let _ = writeln!(
            std::io::stderr().lock(),
            "error: standard output is closed: {name} writes its result there (send it to a file or to /dev/null)"
        );
        return ExitCode::from(1);
    }
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

/// The name of a command whose result goes to standard output, or None (`generate`, `merge`
/// and `book` write files and talk on stderr).
fn result_on_stdout(c: &Command) -> Option<&'static str> {
    Some(match c {
        Command::Rate { .. } => "rate",
        Command::Solve { .. } => "solve",
        Command::Explain { .. } => "explain",
        Command::Hint { .. } => "hint",
        Command::Replay { .. } => "replay",
        Command::Calibrate { .. } => "calibrate",
        Command::Library { .. } => "library",
        Command::Generate { .. } | Command::Merge { .. } | Command::Book { .. } => return None,
    })
}

/// Was descriptor 1 closed (`>&-`) when the process started? Asked before Rust's runtime
/// starts (a constructor in `.init_array`, run by the C library before `main`): the runtime puts
/// /dev/null on a closed standard descriptor, after which every write would seem to succeed.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_STDOUT: extern "C" fn() = note_stdout;

#[cfg(target_os = "linux")]
extern "C" fn note_stdout() {
    // SAFETY: F_GETFD only reads the descriptor's flags.
    if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Let glibc keep freed memory at the top of the heap instead of returning it at every
/// 128 KB: the pipeline allocates and frees per puzzle, and the heap was shrunk and grown
/// again all run long, each time with fresh pages to fault in (half of a 20,000-puzzle
/// Sudoku run's 5,300 page faults; medians of 15 runs: 0.470 -> 0.456 s for 10,000 puzzles
/// on one thread). Resident memory is unchanged (20 MB at most in that run): only what the
/// heap's peak already took stays mapped.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; called before any thread is started.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
        libc::mallopt(libc::M_TOP_PAD, 16 << 20);
    }
}

/// Fault the heap in 4 KB pages, not 2 MB transparent huge pages. mimalloc asks the kernel for
/// huge pages (`madvise`), but a run's heap is small (22 MB at most in a 6×6 KenKen order of 100
/// per grade) and reused in place, so a fresh huge page was 2 MB zeroed for the few KB a chunk
/// touched. That order, 60 runs in A/B pairs (wait4): system time 10-14 ms a run against 14-19,
/// and the total about 4 % less; 20,000 Sudoku and 1,000 9×9 KenKen the same either way (±2 %).
/// Linux only; where the kernel refuses, nothing changes.
fn small_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_THP_DISABLE) only sets a flag of this process's memory map.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
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
