//! Solution paths (`generate --paths`, `explain`, `hint`), checked by an independent replayer:
//! it knows nothing of the rater, only the grid, the solution and the steps. Every placed
//! digit is the solution's, no removed candidate is, no step places into a filled cell or a
//! digit removed before, and the path ends at the solution.
//!
//! `PATHS_N` sets the puzzles per configuration (default 150; the closing figures used 10000),
//! `PATHS_REF_N` the top1465 lines explained (default 60).

use crate::common;
use common::{read_data, run, stderr, stdout};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::Path;

fn per_config() -> String {
    std::env::var("PATHS_N").unwrap_or_else(|_| "150".into())
}

/// Rows of digits (0 blank or block) from a record's `solution` or a puzzle's givens: an
/// array of rows, or a string of n² symbols.
fn rows(v: &Value) -> Vec<Vec<u8>> {
    match v {
        Value::String(s) => {
            let n = (s.len() as f64).sqrt() as usize;
            let d: Vec<u8> = s.chars().map(|c| c.to_digit(36).unwrap_or(0) as u8).collect();
            d.chunks(n).map(<[u8]>::to_vec).collect()
        }
        Value::Array(r) => {
            r.iter().map(|row| row.as_array().unwrap().iter().map(|d| d.as_u64().unwrap() as u8).collect()).collect()
        }
        _ => panic!("not a grid: {v}"),
    }
}

/// The givens of a record's puzzle as rows (KenKen and Kakuro have none: every cell is filled
/// by a step).
fn givens(kind: &str, puzzle: &Value, solution: &[Vec<u8>]) -> Vec<Vec<u8>> {
    match kind {
        "sudoku" if puzzle.is_string() => rows(puzzle),
        "sudoku" => rows(&puzzle["givens"]),
        // Their grids start empty: the path places every digit.
        "kenken" | "kakuro" => solution.iter().map(|r| vec![0; r.len()]).collect(),
        other => panic!("paths: no rule for the givens of kind {other}: add one here"),
    }
}

/// Replay `steps` from `given` towards `solution`; the error says which step went wrong.
/// `levels` maps technique names to levels (from calibration.json).
fn replay(
    given: &[Vec<u8>],
    solution: &[Vec<u8>],
    steps: &[Value],
    levels: &HashMap<String, u64>,
) -> Result<(), String> {
    let mut grid: Vec<Vec<u8>> = given.to_vec();
    let mut removed: HashSet<(usize, usize, u8)> = HashSet::new();
    let cell = |v: &Value| -> (usize, usize) { (v[0].as_u64().unwrap() as usize, v[1].as_u64().unwrap() as usize) };
    for (i, s) in steps.iter().enumerate() {
        let name = s["technique"].as_str().ok_or(format!("step {i}: no technique"))?;
        if levels.get(name) != s["level"].as_u64().as_ref() {
            return Err(format!("step {i}: {name} at level {} is not a technique of this kind", s["level"]));
        }
        let place = s["place"].as_array().unwrap();
        let remove = s["remove"].as_array().unwrap();
        if place.is_empty() && remove.is_empty() {
            return Err(format!("step {i} ({name}) does nothing"));
        }
        for c in s["cells"].as_array().unwrap() {
            let (r, col) = cell(c);
            if solution.get(r).and_then(|row| row.get(col)).is_none_or(|&d| d == 0) {
                return Err(format!("step {i} ({name}) rests on r{r}c{col}, not a cell"));
            }
        }
        for p in place {
            let ((r, c), d) = (cell(p), p[2].as_u64().unwrap() as u8);
            if grid[r][c] != 0 {
                return Err(format!("step {i} ({name}) places {d} in the filled cell r{r}c{c}"));
            }
            if solution[r][c] != d {
                return Err(format!("step {i} ({name}) places {d} at r{r}c{c}; the solution has {}", solution[r][c]));
            }
            if removed.contains(&(r, c, d)) {
                return Err(format!("step {i} ({name}) places {d} at r{r}c{c}, removed before"));
            }
            grid[r][c] = d;
        }
        for x in remove {
            let ((r, c), d) = (cell(x), x[2].as_u64().unwrap() as u8);
            if solution[r][c] == 0 || grid[r][c] != 0 {
                return Err(format!("step {i} ({name}) removes {d} from r{r}c{c}, not an open cell"));
            }
            if solution[r][c] == d {
                return Err(format!("step {i} ({name}) removes the solution's {d} from r{r}c{c}"));
            }
            removed.insert((r, c, d));
        }
    }
    if grid != solution {
        return Err("the path does not end at the solution".into());
    }
    Ok(())
}

fn levels(dir: &Path) -> HashMap<String, u64> {
    let cal: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("calibration.json")).unwrap()).unwrap();
    cal["techniques"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v["level"].as_u64().unwrap())).collect()
}

/// Generate with `--paths` and replay every record's path; returns the records.
fn generate_and_replay(args: &[&str]) -> Vec<Value> {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("book");
    let n = per_config();
    let mut all = vec!["generate", "--count", &n, "--seed", "7", "--paths", "--quiet", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = run(&all, None);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let records: Vec<Value> = std::fs::read_to_string(out.join("puzzles.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let paths: Vec<Value> = std::fs::read_to_string(out.join("paths.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), paths.len(), "{args:?}: a path per record");
    assert!(!records.is_empty(), "{args:?}: some puzzles");
    let levels = levels(&out);
    for (rec, path) in records.iter().zip(&paths) {
        assert_eq!(rec["id"], path["id"], "{args:?}: paths in record order");
        let solution = rows(&rec["solution"]);
        let given = givens(rec["kind"].as_str().unwrap(), &rec["puzzle"], &solution);
        let steps = path["steps"].as_array().unwrap();
        if let Err(e) = replay(&given, &solution, steps, &levels) {
            panic!("{args:?} {}: {e}", rec["id"]);
        }
        // The path is the rating: one step per technique use.
        let used: u64 = rec["techniques"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
        assert_eq!(used, steps.len() as u64, "{}: a path step per technique use", rec["id"]);
        let b = rec["bottleneck"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&b), "{}: bottleneck {b}", rec["id"]);
        assert!(rec["shortcut"].is_boolean());
    }
    records
}

#[test]
fn classic_paths_replay_to_the_solution() {
    let recs = generate_and_replay(&[]);
    // Hard puzzles exist, and the lucky-guess flag is set on some and not on others.
    assert!(recs.iter().any(|r| r["shortcut"] == true));
    assert!(recs.iter().any(|r| r["shortcut"] == false && r["hardest_level"].as_u64().unwrap() >= 2));
}

#[test]
fn family_paths_replay_to_the_solution() {
    for args in [
        &["--box", "2x3"][..],
        &["--jigsaw", "--size", "6"],
        &["--diagonals"],
        &["--killer", "--box", "2x3"],
        &["--box", "3x4"],
    ] {
        let mut a = args.to_vec();
        a.extend_from_slice(&["--kind", "sudoku"]);
        generate_and_replay(&a);
    }
}

#[test]
fn kenken_and_kakuro_paths_replay_to_the_solution() {
    generate_and_replay(&["--kind", "kenken", "--size", "6"]);
    generate_and_replay(&["--kind", "kakuro"]);
}

#[test]
fn explain_paths_of_reference_puzzles_replay() {
    // Hard outside puzzles: every level of the ladder, trial included.
    // PATHS_REF_N lines of top1465 (default 60; the closing figures used all 1,465).
    let n: usize = std::env::var("PATHS_REF_N").ok().and_then(|v| v.parse().ok()).unwrap_or(60);
    let text: String = read_data("sudoku/top1465.txt").lines().take(n).collect::<Vec<_>>().join("\n");
    let o = run(&["explain", "--format", "json"], Some(&text));
    assert!(o.status.success(), "{}", stderr(&o));
    let solved = run(&["solve"], Some(&text));
    let solutions: Vec<String> =
        stdout(&solved).lines().skip(1).map(|l| l.split(',').nth(2).unwrap().to_string()).collect();
    // Technique levels of classic Sudoku, from a book's calibration.json.
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("b");
    run(&["generate", "--count", "1", "--quiet", "--out", book.to_str().unwrap()], None);
    let levels = levels(&book);
    let mut trials = 0;
    for (i, line) in stdout(&o).lines().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["line"], i + 1);
        let puzzle = text.lines().nth(i).unwrap();
        let given = rows(&Value::String(puzzle.replace('.', "0")));
        let solution = rows(&Value::String(solutions[i].clone()));
        let steps = v["steps"].as_array().unwrap();
        trials += steps.iter().filter(|s| s["technique"] == "trial").count();
        if let Err(e) = replay(&given, &solution, steps, &levels) {
            panic!("top1465 line {}: {e}", i + 1);
        }
    }
    assert!(trials > 0, "hard puzzles need trial");
    // The text form: one numbered line per step, headed by the grade.
    let o = run(&["explain"], Some(text.lines().next().unwrap()));
    let out = stdout(&o);
    assert!(out.starts_with("line 1: expert,"), "{out}");
    assert!(out.contains("   1. r"), "{out}");
}

#[test]
fn hints_name_wrong_entries_and_give_sound_steps() {
    let text: String = read_data("sudoku/top1465.txt").lines().take(40).collect::<Vec<_>>().join("\n");
    let solved = run(&["solve"], Some(&text));
    let solutions: Vec<Vec<u8>> = stdout(&solved)
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap().bytes().map(|b| b - b'0').collect())
        .collect();
    let mut input = String::new();
    let mut wrong_at: Vec<Option<usize>> = Vec::new();
    let mut entered: Vec<Vec<u8>> = Vec::new();
    for (i, p) in text.lines().enumerate() {
        let mut cur: Vec<u8> = p.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
        // Enter about half the blanks; every third puzzle gets one wrong digit among them.
        let blanks: Vec<usize> = (0..81).filter(|&c| cur[c] == 0).collect();
        for &c in blanks.iter().step_by(2) {
            cur[c] = solutions[i][c];
        }
        let wrong = (i % 3 == 0).then(|| blanks[0]);
        if let Some(c) = wrong {
            cur[c] = solutions[i][c] % 9 + 1;
        }
        wrong_at.push(wrong);
        let line: String = cur.iter().map(|&d| if d == 0 { '.' } else { (b'0' + d) as char }).collect();
        input.push_str(&format!("{p}\t{line}\n"));
        entered.push(cur);
    }
    let mut revealed = 0;
    for reveal in [false, true] {
        let mut args = vec!["hint", "--format", "json"];
        if reveal {
            args.push("--reveal");
        }
        let o = run(&args, Some(&input));
        assert!(o.status.success(), "{}", stderr(&o));
        for (i, line) in stdout(&o).lines().enumerate() {
            let v: Value = serde_json::from_str(line).unwrap();
            let wrong: Vec<usize> = v["wrong"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w[0].as_u64().unwrap() as usize * 9 + w[1].as_u64().unwrap() as usize)
                .collect();
            assert_eq!(wrong, wrong_at[i].into_iter().collect::<Vec<_>>(), "puzzle {i}: wrong entries");
            if !wrong.is_empty() {
                assert!(v["step"].is_null());
                continue;
            }
            let step = &v["step"];
            let place = step["place"].as_array().unwrap();
            let removes = step["remove"].as_array().unwrap();
            if reveal {
                assert!(place.len() + removes.len() > 0, "puzzle {i}: an empty step: {step}");
                revealed += place.len();
            } else {
                assert!(place.is_empty(), "puzzle {i}: the hint reveals a digit: {step}");
            }
            for p in place {
                let c = p[0].as_u64().unwrap() as usize * 9 + p[1].as_u64().unwrap() as usize;
                assert_eq!(entered[i][c], 0, "puzzle {i}: the hint places into an entered cell");
                assert_eq!(p[2].as_u64().unwrap() as u8, solutions[i][c], "puzzle {i}: a wrong digit");
            }
            for x in step["remove"].as_array().unwrap() {
                let c = x[0].as_u64().unwrap() as usize * 9 + x[1].as_u64().unwrap() as usize;
                assert_eq!(entered[i][c], 0, "puzzle {i}: removes from an entered cell");
                assert_ne!(x[2].as_u64().unwrap() as u8, solutions[i][c], "puzzle {i}: removes the solution's digit");
            }
        }
    }
    assert!(revealed > 0, "--reveal gives digits");
    // A CURRENT that does not fit the puzzle is a bad line, named.
    let o = run(&["hint"], Some(&format!("{}\t123\n", text.lines().next().unwrap())));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("line 1: CURRENT has 3 cells"), "{}", stderr(&o));
}

#[test]
fn the_replayer_catches_bad_steps() {
    let solution = vec![vec![1, 2], vec![2, 1]];
    let given = vec![vec![1, 0], vec![0, 0]];
    let levels: HashMap<String, u64> = [("naked_single".to_string(), 1)].into();
    let step = |place: &str, remove: &str| -> Value {
        serde_json::from_str(&format!(
            r#"{{"technique":"naked_single","level":1,"place":{place},"remove":{remove},"cells":[]}}"#
        ))
        .unwrap()
    };
    let good = [step("[[0,1,2]]", "[]"), step("[[1,0,2]]", "[[1,1,2]]"), step("[[1,1,1]]", "[]")];
    assert_eq!(replay(&given, &solution, &good, &levels), Ok(()));
    let bad = [
        vec![step("[[0,1,1]]", "[]")],                          // wrong digit
        vec![step("[]", "[[0,1,2]]")],                          // removes the solution's digit
        vec![step("[[0,0,1]]", "[]")],                          // places into a given
        vec![step("[]", "[[1,1,2]]"), step("[[1,1,2]]", "[]")], // places a removed digit
        vec![step("[[0,1,2]]", "[]")],                          // stops short of the solution
        vec![step("[]", "[]")],                                 // does nothing
    ];
    for path in bad {
        assert!(replay(&given, &solution, &path, &levels).is_err(), "{path:?}");
    }
}

#[test]
fn a_book_with_paths_can_be_replaced_and_its_paths_follow_the_records() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("book");
    let o = out.to_str().unwrap();
    for extra in [&[][..], &["--force"][..]] {
        let mut args = vec!["generate", "--count", "40", "--paths", "--quiet", "--out", o];
        args.extend_from_slice(extra);
        let r = run(&args, None);
        assert!(r.status.success(), "{extra:?}: {}", stderr(&r));
    }
    let ids = |f: &str| -> Vec<String> {
        std::fs::read_to_string(out.join(f))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids("paths.jsonl"), ids("puzzles.jsonl"));
    let cal: Value = serde_json::from_str(&std::fs::read_to_string(out.join("calibration.json")).unwrap()).unwrap();
    let traced: u64 = cal["grades"].as_object().unwrap().values().filter_map(|g| g["paths"]["puzzles"].as_u64()).sum();
    assert_eq!(traced, 40, "every puzzle counted in calibration.json's paths figures");
}

#[test]
fn explain_paths_of_publisher_kakuros_replay() {
    // The 20 publisher-graded Kakuros (5×5 to 14×22): records that hold the puzzle.
    let text = read_data("kakuro/graded/publisher.jsonl");
    let o = run(&["--kind", "kakuro", "explain", "--format", "json"], Some(&text));
    assert!(o.status.success(), "{}", stderr(&o));
    let solved = run(&["--kind", "kakuro", "solve"], Some(&text));
    let solved = stdout(&solved);
    let mut r = csv::Reader::from_reader(solved.as_bytes());
    let solutions: Vec<Vec<Vec<u8>>> =
        r.records().map(|rec| rows(&serde_json::from_str(&rec.unwrap()[2]).unwrap())).collect();
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("b");
    run(&["--kind", "kakuro", "generate", "--count", "1", "--quiet", "--out", book.to_str().unwrap()], None);
    let levels = levels(&book);
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 20);
    for (i, line) in out.lines().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        let given: Vec<Vec<u8>> = solutions[i].iter().map(|r| vec![0; r.len()]).collect();
        if let Err(e) = replay(&given, &solutions[i], v["steps"].as_array().unwrap(), &levels) {
            panic!("publisher Kakuro {}: {e}", i + 1);
        }
    }
}
