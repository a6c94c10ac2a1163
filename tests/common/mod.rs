//! Shared test helpers: a deliberately simple reference solver, reference data, and a runner
//! for the real binary.
#![allow(dead_code, clippy::needless_range_loop)]

use std::path::Path;
use std::process::{Command, Output};

/// Reference puzzles (../shared/data, or $PUZZLE_FACTORY_DATA).
pub use puzzle_factory::data::{folder as data_dir, read as read_data};

pub fn grid(s: &str) -> [u8; 81] {
    let mut g = [0u8; 81];
    for (i, c) in s.bytes().take(81).enumerate() {
        g[i] = if c.is_ascii_digit() { c - b'0' } else { 0 };
    }
    g
}

/// The plain reference solver: backtracking over the empty cell with the fewest candidates,
/// with row/column/box masks. Counts solutions up to `limit`. No cleverness on purpose: it is
/// what the fast band solver is checked against.
pub fn simple_count(g: &[u8; 81], limit: usize) -> usize {
    let mut g = *g;
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for i in 0..81 {
        if g[i] != 0 {
            let bit = 1 << g[i];
            let (r, c, b) = (i / 9, i % 9, (i / 27) * 3 + (i % 9) / 3);
            if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
                return 0;
            }
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    fn go(g: &mut [u8; 81], rows: &mut [u16; 9], cols: &mut [u16; 9], boxes: &mut [u16; 9], limit: usize) -> usize {
        let mut best: Option<(usize, u16)> = None;
        for i in 0..81 {
            if g[i] == 0 {
                let used = rows[i / 9] | cols[i % 9] | boxes[(i / 27) * 3 + (i % 9) / 3];
                let free = !used & 0x3fe;
                if best.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
                    best = Some((i, free));
                }
            }
        }
        let Some((i, free)) = best else { return 1 };
        let (r, c, b) = (i / 9, i % 9, (i / 27) * 3 + (i % 9) / 3);
        let mut found = 0;
        for d in 1..=9u8 {
            if free >> d & 1 == 1 {
                let bit = 1 << d;
                g[i] = d;
                rows[r] |= bit;
                cols[c] |= bit;
                boxes[b] |= bit;
                found += go(g, rows, cols, boxes, limit - found);
                g[i] = 0;
                rows[r] &= !bit;
                cols[c] &= !bit;
                boxes[b] &= !bit;
                if found >= limit {
                    break;
                }
            }
        }
        found
    }
    go(&mut g, &mut rows, &mut cols, &mut boxes, limit)
}

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_puzzle-factory"))
}

/// Run the binary with `args` and `stdin`; returns the output.
pub fn run(args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    {
        let mut si = child.stdin.take().unwrap();
        if let Some(s) = stdin {
            si.write_all(s.as_bytes()).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Run the binary with `args` and `stdin`, killing it after `secs` seconds (then panicking: a
/// command that loops is a failure, not a hung test run).
pub fn run_within(args: &[&str], stdin: Option<&[u8]>, secs: u64) -> Output {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut si = child.stdin.take().unwrap();
    let input = stdin.map(<[u8]>::to_vec).unwrap_or_default();
    let feeder = std::thread::spawn(move || {
        let _ = si.write_all(&input); // the child may stop reading early
    });
    let (so, se) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    // Read both pipes on threads, keeping at most 1 MB of each (a looping command writes forever).
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut buf = [0u8; 65536];
            while let Ok(n) = r.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if kept.len() < 1 << 20 {
                    kept.extend_from_slice(&buf[..n]);
                }
            }
            kept
        })
    };
    let (out, err) = (drain(Box::new(so)), drain(Box::new(se)));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed().as_secs() >= secs {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let _ = feeder.join();
    Output { status, stdout: out.join().unwrap(), stderr: err.join().unwrap() }
}

/// A poppler tool's output (pdfinfo, pdffonts, pdftotext, pdftoppm: Debian package
/// poppler-utils, which `.ci/run` installs); it must succeed.
pub fn tool(name: &str, args: &[&str]) -> String {
    let o = Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{name}: {e} (install poppler-utils: apt-get install poppler-utils)"));
    assert!(o.status.success(), "{name} {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// A PDF's page count (pdfinfo).
pub fn pages(pdf: &Path) -> usize {
    let info = tool("pdfinfo", &[pdf.to_str().unwrap()]);
    info.lines().find(|l| l.starts_with("Pages:")).unwrap().split_whitespace().nth(1).unwrap().parse().unwrap()
}
