//! KenKen end to end: uniqueness by a simple solver, sound rating, Keen IDs, the janko.at
//! collection, and determinism across thread counts.

use crate::common;
use common::{read_data, run, stderr, stdout};
use puzzle_factory::common::cage::Op;
use puzzle_factory::kinds::kenken::generate::generate;
use puzzle_factory::kinds::kenken::solve::count_solutions;
use puzzle_factory::kinds::kenken::{notation, Cage, KenKen, KenKenKind, KenKenParams};
use puzzle_factory::kinds::Kind;
use rand::SeedableRng;

/// The plain reference counter: cell by cell in reading order, rows and columns checked, each
/// cage checked when its last cell is filled (and a partly filled sum or product cage pruned when
/// it can no longer reach its target). No candidate propagation on purpose.
fn simple_count(p: &KenKen, limit: usize) -> usize {
    let n = p.size as usize;
    let mut cage_of = vec![0; n * n];
    let mut last = vec![0; p.cages.len()];
    for (k, c) in p.cages.iter().enumerate() {
        for &x in &c.cells {
            cage_of[x as usize] = k;
            last[k] = last[k].max(x as usize);
        }
    }
    fn go(i: usize, g: &mut Vec<u8>, p: &KenKen, n: usize, cage_of: &[usize], last: &[usize], limit: usize) -> usize {
        if i == n * n {
            return 1;
        }
        let (r, c) = (i / n, i % n);
        let mut found = 0;
        for d in 1..=n as u8 {
            if (0..c).any(|j| g[r * n + j] == d) || (0..r).any(|j| g[j * n + c] == d) {
                continue;
            }
            g[i] = d;
            let k = cage_of[i];
            let cage = &p.cages[k];
            let ok = if last[k] == i {
                let digits: Vec<u8> = cage.cells.iter().map(|&x| g[x as usize]).collect();
                cage.op.satisfied(cage.target, &digits)
            } else {
                // A partly filled cage: its sum must stay reachable, its product must divide.
                let filled: Vec<u32> = cage.cells.iter().map(|&x| g[x as usize] as u32).filter(|&v| v > 0).collect();
                let left = (cage.cells.len() - filled.len()) as u32;
                let sum: u32 = filled.iter().sum();
                let prod: u64 = filled.iter().fold(1u64, |p, &x| p.saturating_mul(x as u64));
                match cage.op {
                    Op::Add => sum + left <= cage.target && sum + left * n as u32 >= cage.target,
                    Op::Mul => (cage.target as u64).is_multiple_of(prod),
                    _ => true,
                }
            };
            if ok {
                found += go(i + 1, g, p, n, cage_of, last, limit - found);
            }
            g[i] = 0;
            if found >= limit {
                break;
            }
        }
        found
    }
    go(0, &mut vec![0; n * n], p, n, &cage_of, &last, limit)
}

#[test]
fn generated_puzzles_are_unique_by_the_simple_solver_and_rate_soundly() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12);
    for size in [4u8, 5, 6] {
        let params = KenKenParams { size, ..KenKenParams::default() };
        for _ in 0..60 {
            let g = generate(&params, &mut rng).unwrap();
            let fast = count_solutions(&g.puzzle, 2);
            if fast.count != 1 {
                continue; // counted as not_unique by the pipeline; never emitted
            }
            assert_eq!(simple_count(&g.puzzle, 2), 1, "{:?}", notation::keen_id(&g.puzzle));
            assert_eq!(fast.first.as_deref(), Some(&g.solution[..]));
            let rated = KenKenKind::rate(&g.puzzle, &g.solution, None);
            assert!(rated.solved);
            assert_eq!(rated.unsound, 0, "a step removed a solution digit");
        }
    }
}

#[test]
fn unique_by_the_simple_solver_and_no_unsound_step_on_9x9() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(13);
    let params = KenKenParams { size: 9, ..KenKenParams::default() };
    let mut levels = [0u32; 7];
    for i in 0..40 {
        let g = generate(&params, &mut rng).unwrap();
        // Every one by the counter from an empty grid (no known solution to steer it).
        assert_eq!(count_solutions(&g.puzzle, 2).count, 1, "{:?}", notation::keen_id(&g.puzzle));
        // The simple solver takes seconds on some 9×9 puzzles: a quarter of the sample, less
        // puzzle 8, which it needs 108 s for (the other nine take 0.04-0.6 s each).
        if i < 10 && i != 8 {
            assert_eq!(simple_count(&g.puzzle, 2), 1, "{:?}", notation::keen_id(&g.puzzle));
        }
        let rated = KenKenKind::rate(&g.puzzle, &g.solution, None);
        assert!(rated.solved);
        assert_eq!(rated.unsound, 0);
        levels[rated.rating.hardest_level as usize] += 1;
    }
    assert!(levels[3..].iter().sum::<u32>() > 0, "{levels:?}");
}

#[test]
fn keen_ids_round_trip() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(14);
    for size in [3u8, 6, 9] {
        let params = KenKenParams { size, ..KenKenParams::default() };
        for _ in 0..20 {
            let g = generate(&params, &mut rng).unwrap();
            let id = notation::keen_id(&g.puzzle).unwrap();
            let back = notation::parse(&id).unwrap();
            let mut a: Vec<Cage> = g.puzzle.cages.clone();
            let mut b = back.cages.clone();
            a.sort_by_key(|c| c.cells[0]);
            b.sort_by_key(|c| c.cells[0]);
            assert_eq!(a, b, "{id}");
        }
    }
}

/// janko.at "Kendoku": clue in one cell of each cage (`24*`, `2/`, `3-`, `7+`, or a bare number:
/// a one-cell cage, or a cage whose operator is not given, read as "any operation").
fn janko(line: &str) -> (KenKen, Vec<u8>) {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    let d = &v["data"];
    let n = d["size"].as_u64().unwrap() as usize;
    let cell = |grid: &serde_json::Value, r: usize, c: usize| grid[r][c].as_str().unwrap().to_string();
    let mut areas: std::collections::BTreeMap<String, Vec<u8>> = Default::default();
    for r in 0..n {
        for c in 0..n {
            areas.entry(cell(&d["areas"], r, c)).or_default().push((r * n + c) as u8);
        }
    }
    let cages = areas
        .into_values()
        .map(|cells| {
            let clue =
                cells.iter().map(|&x| cell(&d["problem"], x as usize / n, x as usize % n)).find(|s| s != ".").unwrap();
            let digits: String = clue.chars().filter(|c| c.is_ascii_digit()).collect();
            let sym: String = clue.chars().filter(|c| !c.is_ascii_digit()).collect();
            let op = match (sym.as_str(), cells.len()) {
                ("", 1) => Op::Given,
                ("", _) => Op::Any,
                (s, _) => Op::from_symbol(s).unwrap(),
            };
            Cage { op, target: digits.parse().unwrap(), cells }
        })
        .collect();
    let solution = (0..n * n).map(|x| cell(&d["solution"], x / n, x % n).parse().unwrap()).collect();
    (KenKen { size: n as u8, cages }, solution)
}

#[test]
fn all_400_janko_puzzles_solve_to_their_solutions() {
    let text = read_data("kenken/janko_kendoku.jsonl");
    let (mut total, mut unique, mut with_any) = (0, 0, 0);
    for line in text.lines() {
        let (p, solution) = janko(line);
        p.validate().unwrap();
        let f = count_solutions(&p, 2);
        assert!(f.count >= 1, "no solution");
        assert!(f.first.as_ref() == Some(&solution) || f.second.as_ref() == Some(&solution));
        total += 1;
        unique += (f.count == 1) as u32;
        with_any += p.cages.iter().any(|c| c.op == Op::Any) as u32;
        if f.count == 1 {
            let rated = KenKenKind::rate(&p, &solution, None);
            assert!(rated.solved && rated.unsound == 0);
        }
    }
    assert_eq!(total, 400);
    eprintln!("janko: {unique} of {total} unique; {with_any} have cages with no operator");
    assert!(unique >= 390, "{unique}");
}

#[test]
fn kenken_books_are_identical_across_thread_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let mut outs = Vec::new();
    for t in ["1", "2"] {
        let dir = tmp.path().join(t);
        let o = run(
            &[
                "--kind",
                "kenken",
                "generate",
                "--size",
                "5",
                "--count",
                "60",
                "--seed",
                "3",
                "--threads",
                t,
                "--quiet",
                "--out",
                dir.to_str().unwrap(),
            ],
            None,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        outs.push(std::fs::read(dir.join("puzzles.csv")).unwrap());
    }
    assert!(outs[0] == outs[1]);
    // Grade targeting is on at 5x5 ([target]): candidates made variants, and the replayed row
    // below is the variant kept.
    let cal: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("1").join("calibration.json")).unwrap()).unwrap();
    assert!(cal["candidates"]["variants"].as_u64().unwrap() > 60, "{}", cal["candidates"]);
    let text = String::from_utf8(outs.swap_remove(0)).unwrap();
    // Every puzzle of the book is unique by the simple solver.
    for rec in csv::Reader::from_reader(text.as_bytes()).records() {
        let p = notation::parse(&rec.unwrap()[8]).unwrap();
        assert_eq!(simple_count(&p, 2), 1);
    }
    assert!(text.lines().next().unwrap().ends_with("size,cages,keen_id"));
    // rate and solve read the book's Keen IDs back.
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let col = reader.headers().unwrap().iter().position(|h| h == "keen_id").unwrap();
    let ids: Vec<String> = reader.records().map(|r| r.unwrap()[col].to_string()).collect();
    let o = run(&["--kind", "kenken", "solve"], Some(&ids.join("\n")));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().skip(1).all(|l| l.split(',').nth(1) == Some("1")));
    // replay rebuilds a row of a size-5 run when given the run's size.
    let jsonl = std::fs::read_to_string(tmp.path().join("1").join("puzzles.jsonl")).unwrap();
    let line = jsonl.lines().nth(7).unwrap();
    let index = serde_json::from_str::<serde_json::Value>(line).unwrap()["index"].to_string();
    let o = run(&["--kind", "kenken", "replay", "--size", "5", "--seed", "3", "--index", &index], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().next().unwrap(), line);
}

/// A `--quota` order makes no variants (it keeps every candidate of a grade it still needs);
/// `replay --quota` rebuilds its rows, and without it the targeted candidate comes back.
#[test]
fn quota_orders_make_no_variants_and_replay_rebuilds_their_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("q");
    let args = ["--kind", "kenken", "generate", "--size", "5", "--quota", "easy=6,medium=6,hard=6,expert=6"];
    let mut a = args.to_vec();
    a.extend(["--seed", "3", "--quiet", "--out", out.to_str().unwrap()]);
    let o = run(&a, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let cal: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("calibration.json")).unwrap()).unwrap();
    assert_eq!(cal["candidates"]["variants"], cal["candidates"]["tried"], "{}", cal["candidates"]);
    let jsonl = std::fs::read_to_string(out.join("puzzles.jsonl")).unwrap();
    let mut differs = 0;
    for line in jsonl.lines() {
        let rec: serde_json::Value = serde_json::from_str(line).unwrap();
        let (index, steer) = (rec["index"].to_string(), rec["steer"].to_string());
        let replay = ["--kind", "kenken", "replay", "--size", "5", "--seed", "3", "--index", &index, "--steer", &steer];
        let mut quota = replay.to_vec();
        quota.extend(["--quota", "easy=6,medium=6,hard=6,expert=6"]);
        let o = run(&quota, None);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o).lines().next().unwrap(), line);
        let o = run(&replay, None);
        differs += (stdout(&o).lines().next() != Some(line)) as usize;
    }
    assert!(differs > 0, "targeting is on at 5x5 in a count run, so some rows differ without --quota");
}

/// A cage over `cells` meeting `solution`: `+`, `*` (when the product fits) or `?`, by `pick`.
fn cage_over(cells: Vec<u8>, solution: &[u8], pick: u32) -> Cage {
    let digits: Vec<u8> = cells.iter().map(|&c| solution[c as usize]).collect();
    let (op, target) = match (pick % 3, Op::Mul.value(&digits)) {
        (1, Some(p)) => (Op::Mul, p),
        (2, _) => (Op::Any, Op::Add.value(&digits).unwrap()),
        _ => (Op::Add, Op::Add.value(&digits).unwrap()),
    };
    Cage { op, target, cells }
}

#[test]
fn cages_of_any_length_count_like_the_simple_solver() {
    // From generated solutions: one connected cage of 17 to 19 cells, grown from a random
    // cell, and the other cells given (enough of them that some puzzles are unique, and that
    // the simple solver, which has no propagation, stays fast). Once, cages over 16 cells had no tuples
    // and every such puzzle counted 0 solutions.
    use rand::Rng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(21);
    let mut counts = [0usize; 3];
    let start = std::time::Instant::now();
    for round in 0..24u32 {
        let size = [6u8, 7][round as usize % 2];
        let n = size as usize;
        let g = generate(&KenKenParams { size, ..KenKenParams::default() }, &mut rng).unwrap();
        let want = rng.gen_range(17..=19);
        let mut cells = vec![rng.gen_range(0..n * n)];
        while cells.len() < want {
            let c = cells[rng.gen_range(0..cells.len())];
            let near =
                [c.wrapping_sub(n), c + n, if c % n > 0 { c - 1 } else { c }, if c % n + 1 < n { c + 1 } else { c }];
            let o = near[rng.gen_range(0..4)];
            if o < n * n && !cells.contains(&o) {
                cells.push(o);
            }
        }
        let mut big: Vec<u8> = cells.iter().map(|&c| c as u8).collect();
        big.sort_unstable();
        let mut cages = vec![cage_over(big.clone(), &g.solution, round)];
        for c in (0..(n * n) as u8).filter(|c| !big.contains(c)) {
            cages.push(Cage { op: Op::Given, target: g.solution[c as usize] as u32, cells: vec![c] });
        }
        let p = KenKen { size, cages };
        p.validate().unwrap();
        let fast = count_solutions(&p, 3);
        assert_eq!(fast.count, simple_count(&p, 3), "{}", notation::to_json(&p));
        let first = fast.first.unwrap();
        assert!(p
            .cages
            .iter()
            .all(|c| c.op.satisfied(c.target, &c.cells.iter().map(|&x| first[x as usize]).collect::<Vec<_>>())));
        counts[fast.count - 1] += 1;
    }
    assert!(counts[0] > 0 && counts[2] > 0, "{counts:?}");
    eprintln!("counts {counts:?} in {:?}", start.elapsed());
}

#[test]
fn a_cage_over_the_whole_grid_is_solved_right() {
    // Too many tuples to list: the solver filters the cage by bounds, exact once it is full.
    for (n, sum_off, expected) in [(9u8, 0i64, 2usize), (9, -1, 0), (12, 0, 2), (12, 1, 0)] {
        let cells: Vec<u8> = (0..n as u16 * n as u16).map(|c| c as u8).collect();
        let total = (n as i64 * (n as i64 + 1) / 2) * n as i64;
        let p = KenKen { size: n, cages: vec![Cage { op: Op::Add, target: (total + sum_off) as u32, cells }] };
        p.validate().unwrap();
        let start = std::time::Instant::now();
        assert_eq!(count_solutions(&p, 2).count, expected, "{n}×{n} sum {}", total + sum_off);
        assert!(start.elapsed().as_secs() < 20);
    }
}

#[test]
fn disconnected_cages_and_unreachable_targets_are_bad_lines() {
    let json = |cages: &str| format!("{{\"size\":3,\"cages\":[{cages}]}}");
    let rest = |from: usize| {
        (from..9)
            .map(|c| format!("{{\"op\":\"=\",\"target\":1,\"cells\":[[{},{}]]}}", c / 3, c % 3))
            .collect::<Vec<_>>()
            .join(",")
    };
    let lines = [
        // [0,0] and [0,2] are not neighbours.
        json(&format!(
            "{{\"op\":\"+\",\"target\":3,\"cells\":[[0,0],[0,2]]}},{{\"op\":\"=\",\"target\":1,\"cells\":[[0,1]]}},{}",
            rest(3)
        )),
        json(&format!("{{\"op\":\"/\",\"target\":0,\"cells\":[[0,0],[0,1]]}},{}", rest(2))),
        json(&format!("{{\"op\":\"-\",\"target\":3,\"cells\":[[0,0],[0,1]]}},{}", rest(2))),
        json(&format!("{{\"op\":\"*\",\"target\":5,\"cells\":[[0,0],[0,1]]}},{}", rest(2))),
        json(&format!("{{\"op\":\"+\",\"target\":7,\"cells\":[[0,0],[0,1]]}},{}", rest(2))),
        json(&format!("{{\"op\":\"*\",\"target\":4294967295,\"cells\":[[0,0],[0,1]]}},{}", rest(2))),
    ];
    let o = run(&["--kind", "kenken", "solve"], Some(&lines.join("\n")));
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("line 1: cage 1: its cells are not connected"), "{err}");
    for i in 2..=6 {
        assert!(err.contains(&format!("line {i}: cage 1: target")), "{err}");
    }
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
    // The same cages with reachable targets are read.
    assert!(notation::parse(&lines[2].replace("\"target\":3", "\"target\":2")).is_ok());
    assert!(notation::parse(&lines[3].replace("\"target\":5", "\"target\":6")).is_ok());
}

/// Beyond Keen's 9×9 a puzzle has no game ID: the `keen_id` field is empty in the CSV and null
/// in the JSON (it used to hold the text `null`).
#[test]
fn boards_beyond_keen_have_an_empty_keen_id() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("b");
    let o = run(
        &["--kind", "kenken", "generate", "--size", "10", "--count", "2", "--seed", "1", "--quiet", "--out"]
            .into_iter()
            .chain([dir.to_str().unwrap()])
            .collect::<Vec<_>>(),
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut reader = csv::Reader::from_path(dir.join("puzzles.csv")).unwrap();
    let col = reader.headers().unwrap().iter().position(|h| h == "keen_id").unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r[col].is_empty()), "{rows:?}");
    for line in std::fs::read_to_string(dir.join("puzzles.jsonl")).unwrap().lines() {
        assert!(serde_json::from_str::<serde_json::Value>(line).unwrap()["keen_id"].is_null());
    }
    // calibration.json says which thresholds graded the run: the 10×10 table.
    let cal: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("calibration.json")).unwrap()).unwrap();
    assert_eq!(cal["thresholds"]["source"], "[grades.size.10]");
}

#[test]
fn calibrate_fits_every_size_of_a_mixed_reference_and_writes_them_all() {
    // A reference of two sizes, labelled with our own grades: each size is fitted on its own
    // puzzles (its steps are on another scale), the per-size table names both, the report draws
    // one panel per size, and the written config holds both sizes' tables. Our grades have a
    // hardest-level floor, so the fit has one too (`--floor`): without it, the 4×4 puzzles that
    // hardening makes expert by their level alone come back easier.
    let tmp = tempfile::tempdir().unwrap();
    let mut reference = String::new();
    for size in ["4", "7"] {
        let dir = tmp.path().join(format!("b{size}"));
        let args = ["--kind", "kenken", "generate", "--size", size, "--count", "160", "--seed", "2", "--quiet"];
        let o = run(&[&args[..], &["--out", dir.to_str().unwrap()]].concat(), None);
        assert!(o.status.success(), "{}", stderr(&o));
        let mut rd = csv::Reader::from_path(dir.join("puzzles.csv")).unwrap();
        for r in rd.records() {
            let r = r.unwrap();
            reference += &format!("{}\t{}\n", &r[8], &r[4]);
        }
    }
    let refpath = tmp.path().join("ref.txt");
    let reference_lines = reference.lines().count();
    std::fs::write(&refpath, reference).unwrap();
    let (report, cfg) = (tmp.path().join("report"), tmp.path().join("fitted.toml"));
    let o = run(
        &[
            "--kind",
            "kenken",
            "calibrate",
            "--quiet",
            "--reference",
            refpath.to_str().unwrap(),
            "--levels",
            "easy,medium,hard,expert",
            "--holdout",
            "0.3",
            "--floor",
            "--report",
            report.to_str().unwrap(),
            "--write-config",
            cfg.to_str().unwrap(),
            "--dump",
            tmp.path().join("dump.csv").to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let dump = std::fs::read_to_string(tmp.path().join("dump.csv")).unwrap();
    assert!(dump.starts_with("line,size,level,steps,hardest_level,grade,held_out\n"), "{dump}");
    assert_eq!(dump.lines().count(), reference_lines + 1);
    let out = stdout(&o);
    let table = out.split("per size").nth(1).expect("a per-size table");
    for size in ["4", "7"] {
        let row = table.lines().find(|l| l.split_whitespace().next() == Some(size)).expect("a row per size");
        let gamma: f64 = row.split_whitespace().nth(6).unwrap().parse().unwrap();
        assert!(gamma > 0.9, "size {size}: our own grades come back, {row}");
    }
    let svg = std::fs::read_to_string(report.join("sizes.svg")).unwrap();
    assert!(svg.contains("4x4: gamma") && svg.contains("7x7: gamma"), "one panel per size");
    assert!(report.join("size-4/report.md").exists() && report.join("size-7/report.md").exists());
    let written: toml::Table = std::fs::read_to_string(&cfg).unwrap().parse().unwrap();
    let sizes = written["grades"]["size"].as_table().unwrap();
    assert!(sizes.contains_key("4") && sizes.contains_key("7"));
    assert!(sizes["7"]["k1"].as_float().unwrap() > sizes["4"]["k1"].as_float().unwrap());
    assert!(sizes["4"]["level_floor"].as_array().unwrap().iter().any(|f| f.as_integer() != Some(0)));
}

#[test]
fn size_tables_no_kenken_can_use_and_targets_out_of_range_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("c.toml");
    std::fs::write(&cfg, "[grades.size.99]\nk1 = 1.0\nk2 = 2.0\nk3 = 3.0\n").unwrap();
    let c = cfg.to_str().unwrap();
    let out = tmp.path().join("out");
    for args in [
        &["--kind", "kenken", "--config", c, "rate", "-"][..],
        &["--kind", "kenken", "--config", c, "generate", "--count", "1", "--out", out.to_str().unwrap()],
    ] {
        let o = run(args, Some(""));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("[grades.size.99]") && stderr(&o).contains("1 to 12"), "{}", stderr(&o));
    }
    assert!(!out.exists());
    let line = r#"{"size":2,"cages":[{"op":"+","target":1e30,"cells":[[0,0],[0,1],[1,0],[1,1]]}]}"#;
    let o = run(&["--kind", "kenken", "rate", "-"], Some(&format!("{line}\n")));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("line 1: cage 1: \"target\" 1e+30 is out of range"), "{}", stderr(&o));
}

/// With its size's `[target.size.N] mix`, a count run plans its variants: the grades follow
/// `[target] shares` in about one variant a puzzle; `mix = []` goes back to a target grade drawn
/// per candidate, which throws away the variants that miss it.
#[test]
fn a_count_run_with_a_mix_plans_its_variants() {
    let tmp = tempfile::tempdir().unwrap();
    let made = |name: &str, config: &str| -> (Vec<u64>, u64) {
        let cfg = tmp.path().join(format!("{name}.toml"));
        std::fs::write(&cfg, config).unwrap();
        let dir = tmp.path().join(name);
        let o = run(
            &["--kind", "kenken", "--config", cfg.to_str().unwrap(), "generate", "--size", "6", "--count", "200"]
                .iter()
                .copied()
                .chain(["--seed", "8", "--quiet", "--out", dir.to_str().unwrap()])
                .collect::<Vec<_>>(),
            None,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let c: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("calibration.json")).unwrap()).unwrap();
        let grades = ["easy", "medium", "hard", "expert"].map(|g| c["grades"][g]["count"].as_u64().unwrap());
        (grades.to_vec(), c["candidates"]["variants"].as_u64().unwrap())
    };
    // Even shares: 50 of each expected (a binomial's spread is 6).
    let (even, variants) = made("even", "");
    assert!(even.iter().all(|&n| (25..=75).contains(&n)), "{even:?}");
    assert!(variants < 300, "{variants} variants for 200 puzzles");
    let (two, _) = made("two", "[target]\nshares = [1.0, 0.0, 0.0, 1.0]\n");
    assert_eq!((two[1], two[2]), (0, 0), "{two:?}");
    assert!((70..=130).contains(&two[0]), "{two:?}");
    // Drawing a target per candidate makes more variants for the same mix.
    let (drawn, drawn_variants) = made("drawn", "[target.size.6]\nmix = []\n");
    assert!(drawn.iter().all(|&n| (25..=75).contains(&n)), "{drawn:?}");
    assert!(drawn_variants > variants + 100, "{drawn_variants} drawn, {variants} planned");
}

/// `[target] levels` aims each grade's variants (and a quota run's steering) at a steering
/// level: one past the kind's last is refused naming the key; a quota run steers to the levels
/// aimed at its grades, and a grade that cannot be made (3×3 expert) does not starve the others.
#[test]
fn aimed_levels_steer_quota_runs_and_a_grade_none_can_make_waits() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("c.toml");
    std::fs::write(&cfg, "[target]\nlevels = [1, 2, 3, 9]\n").unwrap();
    let out = tmp.path().join("bad");
    let o = run(
        &[
            "--kind",
            "kenken",
            "--config",
            cfg.to_str().unwrap(),
            "generate",
            "--count",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("[target] levels: 9 is past this run's last steering level, 4"), "{}", stderr(&o));

    let cal = |dir: &std::path::Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("calibration.json")).unwrap()).unwrap()
    };
    let six = tmp.path().join("six");
    let quota = "easy=30,medium=30,hard=30,expert=30";
    let o = run(
        &[
            "--kind",
            "kenken",
            "generate",
            "--size",
            "6",
            "--quota",
            quota,
            "--seed",
            "4",
            "--quiet",
            "--out",
            six.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let c = cal(&six);
    assert_eq!(c["order"]["stopped"], "quotas met");
    let tried: Vec<u64> =
        c["order"]["steering"].as_array().unwrap().iter().map(|l| l["tried"].as_u64().unwrap()).collect();
    assert!(tried[3] + tried[4] > tried[0], "the hard and expert levels did most: {tried:?}");

    let three = tmp.path().join("three");
    let o = run(
        &["--kind", "kenken", "generate", "--size", "3", "--quota", "easy=20,expert=1", "--seed", "4", "--quiet"]
            .iter()
            .copied()
            .chain(["--time-limit", "3", "--out", three.to_str().unwrap()])
            .collect::<Vec<_>>(),
        None,
    );
    assert_eq!(o.status.code(), Some(3), "the expert quota is not met: {}", stderr(&o));
    let c = cal(&three);
    assert_eq!(c["order"]["quota"]["easy"]["emitted"], 20, "{}", c["order"]);
    assert_eq!(c["order"]["quota"]["expert"]["emitted"], 0);
}
