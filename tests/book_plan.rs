//! Books from a plan (`book --plan`): variety sections, front matter, answer placements, the
//! book's words in other languages, KDP's checks, the cover's size, and bad plans refused.
//! Checked with poppler (pdfinfo, pdffonts, pdftotext).

use crate::common;
use common::{pages, run, stderr, stdout, tool};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Runs every test here shares (made once): Sudoku, KenKen 6×6, Kakuro 8×10.
fn runs() -> &'static Path {
    static RUNS: OnceLock<tempfile::TempDir> = OnceLock::new();
    RUNS.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        for (name, args) in [
            ("sudoku", &["generate", "--count", "40", "--seed", "4"][..]),
            ("kenken", &["--kind", "kenken", "generate", "--size", "6", "--count", "8", "--seed", "4"]),
            ("kakuro", &["--kind", "kakuro", "generate", "--count", "8", "--seed", "4"]),
        ] {
            let out = dir.path().join(name);
            let mut a = args.to_vec();
            a.extend(["--quiet", "--out", out.to_str().unwrap()]);
            let o = run(&a, None);
            assert!(o.status.success(), "{name}: {}", stderr(&o));
        }
        dir
    })
    .path()
}

/// A plan of three sections (10 Sudoku, 8 KenKen, 6 Kakuro) with `book` lines added to its
/// [book] table and `more` after it, written into `dir`.
fn plan(dir: &Path, book: &str, more: &str) -> PathBuf {
    let text = format!(
        r#"[book]
title = "Test Variety"
author = "A. Setter"
year = 2026
isbn = "978-0-00-000000-0"
{book}

[[section]]
folder = "sudoku"
grades = ["easy", "medium"]
count = 10
per_page = 2

[[section]]
folder = "kenken"
count = 8
per_page = 4
intro = ["Six by six."]

[[section]]
folder = "kakuro"
count = 6
per_page = 2
{more}
"#
    );
    let path = dir.join("plan.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn book(plan: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["book", "--plan", plan.to_str().unwrap(), "--runs", runs().to_str().unwrap()];
    args.extend(extra);
    run(&args, None)
}

#[test]
fn a_variety_plan_builds_its_matter_sections_and_answers_the_same_every_time() {
    let tmp = tempfile::tempdir().unwrap();
    let p = plan(tmp.path(), "answers = \"section\"", "[back]\nnotes = 6");
    let a = tmp.path().join("a.pdf");
    let o = book(&p, &["--out", a.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let n = pages(&a);
    assert!(n >= 24, "{n} pages");
    let text = tool("pdftotext", &[a.to_str().unwrap(), "-"]);
    for want in [
        "Test Variety",
        "Copyright © 2026 A. Setter",
        "ISBN 978-0-00-000000-0",
        "Contents",
        "Sudoku, Easy–Medium",
        "KenKen",
        "Six by six.",
        "Kakuro",
        "Answers: KenKen",
        "Notes",
    ] {
        assert!(text.contains(want), "no {want:?} in the book");
    }
    // Puzzle numbers run through the book: the Kakuro section holds 19 to 24.
    assert!(text.contains("Kakuro (puzzles 19–24)"), "{text}");
    // Ids are hidden unless asked for.
    assert!(!text.contains("sudoku-4-"), "an id is printed");
    for row in tool("pdffonts", &[a.to_str().unwrap()]).lines().skip(2) {
        let cols: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cols[cols.len() - 5], "yes", "font not embedded: {row}");
    }
    let b = tmp.path().join("b.pdf");
    let o = book(&p, &["--out", b.to_str().unwrap(), "--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // --check writes nothing and finds nothing.
    let o = book(&p, &["--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing KDP would refuse"), "{}", stderr(&o));
}

#[test]
fn the_words_come_in_the_plans_language() {
    let tmp = tempfile::tempdir().unwrap();
    let p = plan(tmp.path(), "language = \"de\"\nanswers = \"back\"", "[back]\nnotes = 8");
    let out = tmp.path().join("de.pdf");
    let o = book(&p, &["--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = tool("pdftotext", &[out.to_str().unwrap(), "-"]);
    for want in ["Inhalt", "Lösungen: KenKen", "Notizen", "Sudoku, Leicht–Mittel"] {
        assert!(text.contains(want), "no {want:?} in the German book");
    }
    assert!(!text.contains("Contents") && !text.contains("Answers:"), "English left in the German book");
    let p = plan(tmp.path(), "language = \"pt\"", "");
    let o = book(&p, &["--check"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("pt"), "{}", stderr(&o));
}

#[test]
fn every_answer_placement_builds_and_foot_needs_room() {
    let tmp = tempfile::tempdir().unwrap();
    // KenKen 2 a page for the foot (4 a page has no room there).
    let count = |answers: &str| -> usize {
        let p = plan(tmp.path(), &format!("answers = \"{answers}\"\nrules = \"none\""), "");
        if answers == "foot" || answers == "none2" {
            let text = std::fs::read_to_string(&p).unwrap().replace("per_page = 4", "per_page = 2");
            std::fs::write(&p, text.replace("\"none2\"", "\"none\"")).unwrap();
        }
        let out = tmp.path().join(format!("{answers}.pdf"));
        let o = book(&p, &["--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{answers}: {}", stderr(&o));
        pages(&out)
    };
    let none = count("none");
    let puzzle_pages = 5 + 2 + 3; // 10 Sudoku 2 a page, 8 KenKen 4 a page, 6 Kakuro 2 a page
    assert_eq!(count("next-page"), none + puzzle_pages);
    assert!(count("back") > none);
    assert!(count("section") > none);
    // Answers at the foot have no pages of their own (a section may print fewer a page, to
    // leave its clues readable beside them).
    let (foot, none2) = (count("foot"), count("none2"));
    assert!(foot >= none2 && foot <= none2 + 12, "{foot} pages against {none2}");
    let text = tool("pdftotext", &[tmp.path().join("foot.pdf").to_str().unwrap(), "-"]);
    assert!(!text.contains("Answers:"), "answer pages in a book with its answers at the foot");
    assert_eq!(count("separate"), none);
    let booklet = tmp.path().join("separate-answers.pdf");
    assert!(pages(&booklet) >= 2);
    assert!(tool("pdftotext", &[booklet.to_str().unwrap(), "-"]).contains("Answers: Kakuro"));
    // The foot of a page holds the answers of 1 or 2 puzzles, not of 4.
    // (The plan's KenKen section prints 4 a page.)
    let p = plan(tmp.path(), "answers = \"foot\"", "");
    let out = tmp.path().join("foot4.pdf");
    let o = book(&p, &["--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("answers = \"foot\"") && stderr(&o).contains("per_page"), "{}", stderr(&o));
    assert!(!out.exists());
}

/// A PNG of `w` × `h` grey pixels.
fn png(path: &Path, w: u32, h: u32) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut e = png::Encoder::new(file, w, h);
    e.set_color(png::ColorType::Grayscale);
    e.set_depth(png::BitDepth::Eight);
    let mut writer = e.write_header().unwrap();
    writer.write_image_data(&vec![128u8; (w * h) as usize]).unwrap();
}

#[test]
fn check_names_what_kdp_would_refuse() {
    let tmp = tempfile::tempdir().unwrap();
    let check = |book_lines: &str, more: &str| -> String {
        let p = plan(tmp.path(), book_lines, more);
        let o = book(&p, &["--check"]);
        assert_eq!(o.status.code(), Some(2), "{book_lines} {more}: {}", stderr(&o));
        stderr(&o)
    };
    // Too few pages (the plan's 24 puzzles take about 20).
    assert!(check("answers = \"none\"", "").contains("pages; KDP prints 24-828"));
    // Too many.
    assert!(check("", "[back]\nnotes = 820").contains("pages; KDP prints 24-828"));
    // A gutter under KDP's minimum.
    let e = check("inside_margin = 0.25", "[back]\nnotes = 8");
    assert!(e.contains("inside margin 0.250 in; at least 0.375 in"), "{e}");
    // A 100-dpi front image: the 6x9 front panel with bleed is 6.125 x 9.25 in.
    png(&tmp.path().join("front.png"), 613, 925);
    let e = check("", "[back]\nnotes = 8\n[cover]\nfront_image = \"front.png\"");
    assert!(e.contains("front.png") && e.contains("100 dpi"), "{e}");
    // The same book builds when its problems are only notes.
    let p = plan(tmp.path(), "rules = \"none\"\nanswers = \"none\"", "");
    let out = tmp.path().join("short.pdf");
    let o = book(&p, &["--out", out.to_str().unwrap()]);
    assert!(o.status.success() && stderr(&o).contains("note: "), "{}", stderr(&o));
}

#[test]
fn the_cover_is_sized_from_the_page_count_and_the_paper() {
    let tmp = tempfile::tempdir().unwrap();
    for (paper, factor) in [("white", 0.002252), ("cream", 0.0025), ("color", 0.002347)] {
        for notes in [8, 70] {
            let p = plan(tmp.path(), &format!("paper = \"{paper}\""), &format!("[back]\nnotes = {notes}"));
            let (interior, cover) = (tmp.path().join("i.pdf"), tmp.path().join("c.pdf"));
            let o = book(&p, &["--out", interior.to_str().unwrap(), "--cover", cover.to_str().unwrap()]);
            assert!(o.status.success(), "{}", stderr(&o));
            let n = pages(&interior) as f64;
            let (w, h) = (2.0 * (6.0 + 0.125) + n * factor, 9.25);
            let line = stdout(&o);
            assert!(line.contains(&format!("cover: {w:.3} x {h:.3} in")), "{paper} {n}: {line}");
            let info = tool("pdfinfo", &[cover.to_str().unwrap()]);
            let size = info.lines().find_map(|l| l.strip_prefix("Page size:")).unwrap();
            let v: Vec<f64> = size.split_whitespace().filter_map(|x| x.parse().ok()).collect();
            // To 0.001 in.
            assert!(
                (v[0] / 72.0 - w).abs() < 0.001 && (v[1] / 72.0 - h).abs() < 0.001,
                "{paper} {n}: {size}, want {w} x {h} in"
            );
            // Spine text from 79 pages only.
            let text = tool("pdftotext", &[cover.to_str().unwrap(), "-"]);
            assert_eq!(text.matches("Test Variety").count(), if n >= 79.0 { 2 } else { 1 }, "{paper} {n}: {text}");
        }
    }
}

#[test]
fn bad_plans_are_refused_naming_the_key_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("notafont.ttf"), "hello").unwrap();
    std::fs::write(tmp.path().join("x.png"), "not a picture").unwrap();
    let cases: [(&str, &str, &str, &str); 8] = [
        ("", "[[section]]\nfolder = \"nowhere\"", "nowhere", "no such folder"),
        ("", "[[section]]\nfolder = \"sudoku\"\ngrades = [\"hardest\"]", "unknown grade \"hardest\"", "section 4"),
        ("", "[[section]]\nfolder = \"kenken\"\ncount = 500", "count = 500", "holds 8"),
        ("titel = \"x\"", "", "unknown field `titel`", "line"),
        ("", "[[section]]\nfolder = \"sudoku\"\nper_pag = 2", "unknown field `per_pag`", "line"),
        ("", "[style]\nfont = \"notafont.ttf\"", "style.font", "not a font"),
        ("", "[cover]\nfront_image = \"x.png\"", "x.png", "not an image"),
        ("", "[style]\nhead_inside = \"{titel}\"", "style.head_inside", "placeholders"),
    ];
    for (book_lines, more, a, b) in cases {
        let p = plan(tmp.path(), book_lines, more);
        let (interior, cover) = (tmp.path().join("i.pdf"), tmp.path().join("c.pdf"));
        let o = book(&p, &["--out", interior.to_str().unwrap(), "--cover", cover.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{more}: {}", stderr(&o));
        assert!(stderr(&o).contains(a) && stderr(&o).contains(b), "{more}: {}", stderr(&o));
        assert!(!interior.exists() && !cover.exists(), "{more}: a file was written");
    }
}

#[test]
fn every_trim_renders_and_passes_the_checks() {
    let tmp = tempfile::tempdir().unwrap();
    for trim in [
        "5x8",
        "5.06x7.81",
        "5.25x8",
        "5.5x8.5",
        "6x9",
        "6.14x9.21",
        "7x10",
        "7.5x9.25",
        "8x10",
        "8.25x11",
        "8.5x8.5",
        "8.5x11",
        "a4",
        "a5",
        "7.44x9.69",
    ] {
        let p = plan(tmp.path(), &format!("trim = \"{trim}\"\nanswers = \"section\""), "[back]\nnotes = 12");
        let o = book(&p, &["--check"]);
        assert_eq!(o.status.code(), Some(0), "{trim}: {}", stderr(&o));
    }
    // With bleed too, and a trim KDP does not print is refused naming the key.
    let p = plan(tmp.path(), "trim = \"8.5x11\"\nbleed = true", "[back]\nnotes = 12");
    let o = book(&p, &["--check"]);
    assert_eq!(o.status.code(), Some(0), "bleed: {}", stderr(&o));
    let p = plan(tmp.path(), "trim = \"3x5\"", "");
    let o = book(&p, &["--check"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("book.trim"), "{}", stderr(&o));
}
