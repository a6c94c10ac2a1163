//! Printed books (`book`): PDFs at the trims publishers use, checked with poppler (pdfinfo,
//! pdffonts, pdftoppm: Debian package poppler-utils, which `.ci/run` installs); and SVG grids
//! read back against the book's records.

use crate::common;
use common::{pages, run, stderr, tool};
use std::path::{Path, PathBuf};

/// A generated book of `count` candidates of `kind` in `dir`.
fn make_book(dir: &Path, kind: &str, count: &str) {
    let o = run(
        &["--kind", kind, "generate", "--count", count, "--seed", "4", "--quiet", "--out", dir.to_str().unwrap()],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

fn records(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("puzzles.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A page rendered to a grey map (pdftoppm -gray, PGM): width, height, pixels.
fn render(pdf: &Path, page: usize, dpi: u32) -> (usize, usize, Vec<u8>) {
    let prefix = pdf.with_extension(format!("p{page}"));
    let p = page.to_string();
    tool(
        "pdftoppm",
        &[
            "-gray",
            "-r",
            &dpi.to_string(),
            "-f",
            &p,
            "-l",
            &p,
            "-singlefile",
            pdf.to_str().unwrap(),
            prefix.to_str().unwrap(),
        ],
    );
    let bytes = std::fs::read(format!("{}.pgm", prefix.display())).unwrap();
    // Binary PGM: "P5\n<w> <h>\n255\n" then the pixels.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8(bytes[start..at].to_vec()).unwrap());
    }
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    (w, h, bytes[at + 1..at + 1 + w * h].to_vec())
}

/// Share of dark pixels in the box (fractions of the page).
fn ink(page: &(usize, usize, Vec<u8>), x0: f64, y0: f64, x1: f64, y1: f64) -> f64 {
    let (w, h, px) = page;
    let (a, b) = ((x0 * *w as f64) as usize, (x1 * *w as f64) as usize);
    let (c, d) = ((y0 * *h as f64) as usize, (y1 * *h as f64) as usize);
    let mut dark = 0;
    for y in c..d {
        for x in a..b {
            dark += (px[y * w + x] < 128) as usize;
        }
    }
    dark as f64 / ((b - a) * (d - c)).max(1) as f64
}

struct Case {
    trim: &'static str,
    per_page: &'static str,
    large: bool,
    /// Page size in points, as pdfinfo prints it.
    size: &'static str,
    /// Slots of a puzzle page, (x0, y0, x1, y1) as page fractions, each holding a grid.
    slots: &'static [(f64, f64, f64, f64)],
}

const CASES: [Case; 2] = [
    Case {
        trim: "6x9",
        per_page: "2",
        large: false,
        size: "432 x 648 pts",
        slots: &[(0.2, 0.15, 0.8, 0.45), (0.2, 0.55, 0.8, 0.85)],
    },
    Case {
        trim: "8.5x11",
        per_page: "4",
        large: true,
        size: "612 x 792 pts",
        slots: &[
            (0.15, 0.15, 0.45, 0.45),
            (0.55, 0.15, 0.85, 0.45),
            (0.15, 0.55, 0.45, 0.85),
            (0.55, 0.55, 0.85, 0.85),
        ],
    },
];

#[test]
fn pdf_books_have_grids_where_they_should_embedded_fonts_and_the_trim_size() {
    let tmp = tempfile::tempdir().unwrap();
    for kind in ["sudoku", "kenken", "kakuro"] {
        let dir = tmp.path().join(kind);
        make_book(&dir, kind, if kind == "kakuro" { "130" } else { "100" });
        let n = records(&dir).len();
        assert!(n >= 100, "{kind}: a 100-puzzle book, got {n}");
        for case in &CASES {
            let pdf = tmp.path().join(format!("{kind}-{}.pdf", case.trim));
            let mut args = vec!["book", "--in", dir.to_str().unwrap(), "--out", pdf.to_str().unwrap()];
            args.extend(["--trim", case.trim, "--per-page", case.per_page, "--title", "Test book"]);
            if case.large {
                args.push("--large-print");
            }
            let o = run(&args, None);
            assert!(o.status.success(), "{kind} {}: {}", case.trim, stderr(&o));
            // Large print sets clues at 9 pt at least: an 8x10 Kakuro's clues would be 7.4 pt
            // four to a letter page, so it prints two a page (stacked) and says so.
            let halved = case.large && kind == "kakuro";
            assert_eq!(stderr(&o).contains("2 grid(s) a page instead of 4"), halved, "{}", stderr(&o));
            let slots = if halved { CASES[0].slots } else { case.slots };
            let info = tool("pdfinfo", &[pdf.to_str().unwrap()]);
            assert!(info.contains(&format!("Page size:       {}", case.size)), "{kind} {}: {info}", case.trim);
            // Every font embedded (pdffonts: the `emb` column).
            let fonts = tool("pdffonts", &[pdf.to_str().unwrap()]);
            let rows: Vec<&str> = fonts.lines().skip(2).collect();
            assert!(!rows.is_empty(), "{kind}: no font");
            for row in rows {
                let cols: Vec<&str> = row.split_whitespace().collect();
                assert_eq!(cols[cols.len() - 5], "yes", "{kind}: font not embedded: {row}");
            }
            // Contents page: ink in the upper part (title, contents), none in the outer margin.
            let first = render(&pdf, 1, 40);
            assert!(ink(&first, 0.1, 0.1, 0.9, 0.6) > 0.003, "{kind}: the contents page is blank");
            // The first puzzle page: a grid in every slot (the easy section holds at least a
            // page), and nothing within 0.25 in of the trim.
            let page = render(&pdf, 2, 40);
            for (k, s) in slots.iter().enumerate() {
                let share = ink(&page, s.0, s.1, s.2, s.3);
                assert!(share > 0.02, "{kind} {}: slot {k} of page 2 has {share:.4} ink", case.trim);
            }
            let (w, h) = (page.0 as f64, page.1 as f64);
            let (mx, my) = (0.25 * 40.0 / w, 0.25 * 40.0 / h);
            for (x0, y0, x1, y1) in
                [(0.0, 0.0, 1.0, my), (0.0, 1.0 - my, 1.0, 1.0), (0.0, 0.0, mx, 1.0), (1.0 - mx, 0.0, 1.0, 1.0)]
            {
                assert_eq!(ink(&page, x0, y0, x1, y1), 0.0, "{kind} {}: ink within 0.25 in of the trim", case.trim);
            }
            // The last page is a solutions page with grids on it.
            let last = render(&pdf, pages(&pdf), 40);
            assert!(ink(&last, 0.1, 0.1, 0.9, 0.5) > 0.02, "{kind}: the last solution page is blank");
        }
    }
}

#[test]
fn the_same_book_gives_the_same_bytes_and_bleed_grows_the_page() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("b");
    make_book(&dir, "kenken", "30");
    let out = |name: &str, extra: &[&str]| -> PathBuf {
        let pdf = tmp.path().join(name);
        let mut args = vec!["book", "--in", dir.to_str().unwrap(), "--out", pdf.to_str().unwrap()];
        args.extend(extra);
        let o = run(&args, None);
        assert!(o.status.success(), "{}", stderr(&o));
        pdf
    };
    let (a, b) = (out("a.pdf", &[]), out("b.pdf", &["--threads", "1"]));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let bled = out("c.pdf", &["--bleed", "--trim", "a5", "--grade", "hard,easy", "--solutions", "none"]);
    let info = tool("pdfinfo", &["-box", bled.to_str().unwrap()]);
    // A5 is 419.528 x 595.276 pt; bleed adds 9 pt at the outside edge and 18 pt in height.
    assert!(info.contains("Page size:       428.528 x 613.276 pts"), "{info}");
    assert!(info.contains("TrimBox:             0.00     9.00   419.53   604.28"), "{info}");
    // Bad --out and --per-page values are usage errors.
    let o = run(&["book", "--in", dir.to_str().unwrap(), "--out", tmp.path().join("x.txt").to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = run(&["book", "--in", dir.to_str().unwrap(), "--out", "y.pdf", "--per-page", "3"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = run(&["book", "--in", tmp.path().join("none").to_str().unwrap(), "--out", "y.pdf"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// The text elements of an SVG: (class, row, column, text).
fn svg_texts(path: &Path) -> Vec<(String, usize, usize, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let mut cell = n.attribute("data-cell").unwrap().split(' ').map(|v| v.parse::<usize>().unwrap());
            let (r, c) = (cell.next().unwrap(), cell.next().unwrap());
            (n.attribute("class").unwrap().to_string(), r, c, n.text().unwrap_or("").to_string())
        })
        .collect()
}

#[test]
fn svg_grids_read_back_to_the_records() {
    let tmp = tempfile::tempdir().unwrap();
    for kind in ["sudoku", "kenken", "kakuro"] {
        let dir = tmp.path().join(kind);
        make_book(&dir, kind, "40");
        let svgs = tmp.path().join(format!("{kind}-svg/"));
        let o = run(&["book", "--in", dir.to_str().unwrap(), "--out", svgs.to_str().unwrap()], None);
        assert!(o.status.success(), "{}", stderr(&o));
        let recs = records(&dir);
        assert!(!recs.is_empty());
        for rec in &recs {
            let id = rec["id"].as_str().unwrap();
            let texts = svg_texts(&svgs.join(format!("{id}.svg")));
            let mut got: Vec<(String, usize, usize, String)> = texts.clone();
            got.sort();
            let mut want: Vec<(String, usize, usize, String)> = Vec::new();
            match kind {
                "sudoku" => {
                    for (i, ch) in rec["puzzle"].as_str().unwrap().chars().enumerate() {
                        if ch.is_ascii_digit() && ch != '0' {
                            want.push(("given".into(), i / 9, i % 9, ch.to_string()));
                        }
                    }
                }
                "kenken" => {
                    let n = rec["puzzle"]["size"].as_u64().unwrap() as usize;
                    for cage in rec["puzzle"]["cages"].as_array().unwrap() {
                        let first = cage["cells"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|rc| (rc[0].as_u64().unwrap() as usize, rc[1].as_u64().unwrap() as usize))
                            .min()
                            .unwrap();
                        let op = match cage["op"].as_str().unwrap() {
                            "+" => "+",
                            "-" => "\u{2212}",
                            "*" => "\u{d7}",
                            "/" => "\u{f7}",
                            _ => "",
                        };
                        want.push(("cage".into(), first.0, first.1, format!("{}{op}", cage["target"])));
                        assert!(first.0 < n && first.1 < n);
                    }
                }
                "kakuro" => {
                    for (r, row) in rec["puzzle"]["cells"].as_array().unwrap().iter().enumerate() {
                        for (c, cell) in row.as_array().unwrap().iter().enumerate() {
                            let s = cell.as_str().unwrap();
                            if let Some((down, across)) = s.split_once('\\') {
                                if !down.is_empty() {
                                    want.push(("down".into(), r, c, down.to_string()));
                                }
                                if !across.is_empty() {
                                    want.push(("across".into(), r, c, across.to_string()));
                                }
                            }
                        }
                    }
                }
                other => panic!("no rule for the clues of kind {other}: add one here"),
            }
            want.sort();
            assert_eq!(got, want, "{kind} {id}: the SVG's text is not the puzzle's clues");
            // The solution's SVG holds the puzzle's clues and every solution digit.
            let sol = svg_texts(&svgs.join(format!("{id}-solution.svg")));
            let digits: Vec<&(String, usize, usize, String)> =
                sol.iter().filter(|t| t.0 == "digit" || t.0 == "given").collect();
            let solution = puzzle_factory::print::solution_digits(&rec["solution"]).unwrap();
            assert_eq!(digits.len(), solution.iter().filter(|&&d| d != 0).count(), "{kind} {id}");
            let cols = if kind == "kakuro" {
                rec["puzzle"]["cols"].as_u64().unwrap() as usize
            } else {
                (solution.len() as f64).sqrt() as usize
            };
            for (_, r, c, t) in digits {
                assert_eq!(t, &solution[r * cols + c].to_string(), "{kind} {id} r{r}c{c}");
            }
        }
    }
}

#[test]
fn worked_solutions_and_hints_add_pages_and_text() {
    let tmp = tempfile::tempdir().unwrap();
    for kind in ["sudoku", "kenken", "kakuro"] {
        let dir = tmp.path().join(kind);
        make_book(&dir, kind, "12");
        let plain = tmp.path().join(format!("{kind}.pdf"));
        let worked = tmp.path().join(format!("{kind}-worked.pdf"));
        for (out, extra) in [(&plain, &[][..]), (&worked, &["--worked", "1", "--hints"][..])] {
            let mut args = vec!["book", "--in", dir.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"];
            args.extend_from_slice(extra);
            let o = run(&args, None);
            assert!(o.status.success(), "{kind} {extra:?}: {}", stderr(&o));
        }
        // One worked solution per grade present, at least a page each.
        let grades: std::collections::HashSet<String> =
            records(&dir).iter().map(|r| r["grade"].as_str().unwrap().to_string()).collect();
        assert!(pages(&worked) >= pages(&plain) + grades.len(), "{kind}: worked pages");
        let text = tool("pdftotext", &[worked.to_str().unwrap(), "-"]);
        assert!(text.contains("Worked solution"), "{kind}: a worked-solution page");
        // Numbered from 1: a first step of its own, or a first run of level-1 steps.
        assert!(text.contains("Step 1") || text.contains("Steps 1"), "{kind}: numbered steps");
        assert!(text.contains("Hint: "), "{kind}: hints under the solutions");
        let plain_text = tool("pdftotext", &[plain.to_str().unwrap(), "-"]);
        assert!(!plain_text.contains("Hint: "));
    }
}

/// Every file name under `dir` (recursively, relative), sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().unwrap().is_dir() {
            out.extend(tree(&e.path()).into_iter().map(|n| format!("{name}/{n}")));
        } else {
            out.push(name);
        }
    }
    out.sort();
    out
}

#[test]
fn the_output_is_never_the_book_folder_nor_inside_it() {
    let tmp = tempfile::tempdir().unwrap();
    let bk = tmp.path().join("bk");
    make_book(&bk, "sudoku", "6");
    let before = tree(&bk);
    let b = bk.to_str().unwrap();
    for out in
        [b.to_string(), format!("{b}/"), format!("{b}/svg/"), format!("{b}/book.pdf"), format!("{b}/../bk/x.pdf")]
    {
        let o = run(&["book", "--in", b, "--out", &out], None);
        assert_eq!(o.status.code(), Some(2), "--out {out}: {}", stderr(&o));
        assert!(stderr(&o).contains("--out") && stderr(&o).contains("book folder"), "{}", stderr(&o));
        assert_eq!(tree(&bk), before, "--out {out} wrote into the book");
    }
    // Beside the book is fine.
    let o = run(&["book", "--in", b, "--out", &format!("{b}/../bk.pdf")], None);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[cfg(unix)]
#[test]
fn nothing_is_written_through_a_planted_link() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let bk = tmp.path().join("bk");
    make_book(&bk, "sudoku", "4");
    let b = bk.to_str().unwrap();
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    // A link at the PDF's name is replaced by the PDF, and its target is untouched.
    let pdf = tmp.path().join("x.pdf");
    symlink(&victim, &pdf).unwrap();
    let o = run(&["book", "--in", b, "--out", pdf.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert!(std::fs::symlink_metadata(&pdf).unwrap().file_type().is_file());
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
    // An SVG folder that is a link is refused, with or without the trailing slash.
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let link = tmp.path().join("svgs");
    symlink(&elsewhere, &link).unwrap();
    for out in [format!("{}/", link.display()), link.display().to_string()] {
        let o = run(&["book", "--in", b, "--out", &out], None);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    }
    assert!(tree(&elsewhere).is_empty(), "{:?}", tree(&elsewhere));
    // No scratch file is left beside the PDF.
    let left: Vec<String> = tree(tmp.path()).into_iter().filter(|n| n.contains(".tmp")).collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_control_character_in_the_title_is_refused_naming_the_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let bk = tmp.path().join("bk");
    make_book(&bk, "sudoku", "2");
    let pdf = tmp.path().join("t.pdf");
    for title in ["My\u{1}Book", "two\nlines", "\u{7f}"] {
        let o = run(&["book", "--in", bk.to_str().unwrap(), "--out", pdf.to_str().unwrap(), "--title", title], None);
        assert_eq!(o.status.code(), Some(2), "{title:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("--title") && !stderr(&o).contains("SVG"), "{}", stderr(&o));
        assert!(!pdf.exists());
    }
    let o = run(
        &["book", "--in", bk.to_str().unwrap(), "--out", pdf.to_str().unwrap(), "--title", "Puzzles & <more>"],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `book` with files limited to `limit` bytes (RLIMIT_FSIZE, SIGXFSZ ignored: a write past it
/// fails with EFBIG, as on a full disk, without needing one).
#[cfg(unix)]
fn book_with_file_limit(args: &[&str], limit: u64) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let mut cmd = common::bin();
    cmd.args(args);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit { rlim_cur: limit, rlim_max: limit };
            libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    cmd.output().unwrap()
}

#[cfg(unix)]
#[test]
fn a_failed_write_names_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let bk = tmp.path().join("bk");
    make_book(&bk, "sudoku", "2");
    let svgs = tmp.path().join("svgs/");
    let o = book_with_file_limit(&["book", "--in", bk.to_str().unwrap(), "--out", svgs.to_str().unwrap()], 1000);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains(&format!("writing {}", svgs.display())) && e.contains(".svg"), "{e}");
    let pdf = tmp.path().join("b.pdf");
    let o = book_with_file_limit(&["book", "--in", bk.to_str().unwrap(), "--out", pdf.to_str().unwrap()], 1000);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("writing {}", pdf.display())), "{}", stderr(&o));
    // Nothing under the final name, and no scratch file left.
    assert!(!pdf.exists());
    let left: Vec<String> = tree(tmp.path()).into_iter().filter(|n| n.contains(".tmp")).collect();
    assert!(left.is_empty(), "{left:?}");
}
