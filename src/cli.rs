//! The command line (clap derive). Doc comments here are the `--help` text.
//!
//! Each kind declares its own `generate`/`replay` flags (`Kind::flags`); `parse` adds them to
//! those two commands and keeps the values given in `Cli::given` for the kind to read.

use crate::book::layout::{Books, Compress};
use crate::kinds::{Choice, Flag, FlagValues, Given, Kind, KindId, KindVisitor, Takes};
use crate::pipeline::order::{Quota, Shard};
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

/// How `calibrate` fits the thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CalibrationMethod {
    Midpoint,
    Quantile,
}

/// `book --per-page`: 1, 2, 4 or 6.
fn per_page(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n @ (1 | 2 | 4 | 6)) => Ok(n),
        _ => Err(format!("{s:?}: puzzles per page are 1, 2, 4 or 6")),
    }
}

/// A grade named on the command line (`book --grade`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GradeArg {
    Easy,
    Medium,
    Hard,
    Expert,
}

impl GradeArg {
    pub fn grade(self) -> crate::grade::Grade {
        use crate::grade::Grade;
        match self {
            GradeArg::Easy => Grade::Easy,
            GradeArg::Medium => Grade::Medium,
            GradeArg::Hard => Grade::Hard,
            GradeArg::Expert => Grade::Expert,
        }
    }
}
use std::path::PathBuf;

/// Mass-produces seeded, uniquely solvable, strategy-graded logic puzzles as puzzle books.
#[derive(Parser, Debug)]
#[command(name = "puzzle-factory", version, about)]
pub struct Cli {
    /// Puzzle kind.
    #[arg(long, global = true, value_enum, default_value_t = KindId::Sudoku)]
    pub kind: KindId,
    /// TOML settings merged over the built-in defaults (see crates/<kind>/config/<kind>.toml).
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
    /// The kinds' own flags given on the command line (filled by `parse`).
    #[arg(skip)]
    pub given: FlagValues,
    /// The command line as given (filled by `parse`), saved with a run for `--resume`.
    #[arg(skip)]
    pub argv: Vec<String>,
}

/// Every kind's flags, each flag id once (the first kind to declare it with help gives its
/// help).
pub fn all_kind_flags() -> Vec<Flag> {
    struct Flags;
    impl KindVisitor for Flags {
        type Output = Vec<Flag>;
        fn visit<K: Kind>(self) -> Vec<Flag> {
            K::flags()
        }
    }
    let mut all: Vec<Flag> = Vec::new();
    for k in KindId::ALL {
        for a in k.visit(Flags) {
            match all.iter_mut().find(|b| b.id == a.id) {
                Some(b) if b.help.is_empty() => b.help = a.help,
                Some(_) => {}
                None => all.push(a),
            }
        }
    }
    all
}

/// The command-line argument of a kind's flag.
fn kind_arg(f: &Flag) -> clap::Arg {
    let a = clap::Arg::new(f.id).long(f.id);
    let a = if f.help.is_empty() { a } else { a.help(f.help) };
    match f.takes {
        Takes::Switch => a.action(clap::ArgAction::SetTrue),
        Takes::Number { max } => a.value_name(f.value_name).value_parser(clap::value_parser!(u64).range(0..=max)),
        Takes::Text { check } => a.value_name(f.value_name).value_parser(check),
        Takes::Choice(names) => a.value_parser(clap::builder::PossibleValuesParser::new(names.iter().copied())),
    }
}

/// The kinds' flags given in `m` (the matches of `generate` or `replay`).
fn given_kind_flags(m: &ArgMatches) -> FlagValues {
    let mut given = FlagValues::default();
    for f in all_kind_flags() {
        let value = match f.takes {
            Takes::Switch => m.try_get_one::<bool>(f.id).ok().flatten().filter(|&&on| on).map(|_| Given::Switch),
            Takes::Number { .. } => m.try_get_one::<u64>(f.id).ok().flatten().map(|&n| Given::Number(n)),
            Takes::Text { .. } | Takes::Choice(_) => {
                m.try_get_one::<String>(f.id).ok().flatten().map(|s| Given::Text(s.clone()))
            }
        };
        if let Some(v) = value {
            given.insert(f.id, v);
        }
    }
    given
}

/// clap's parser of a `Choice`: its names, each with its help.
pub fn choice<T: Choice>() -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values =
        T::CHOICES
            .iter()
            .map(|c| if c.2.is_empty() { PossibleValue::new(c.1) } else { PossibleValue::new(c.1).help(c.2) });
    PossibleValuesParser::new(values).map(|s| T::from_name(&s).expect("clap offers only the listed names"))
}

/// The clap command with the kinds' flags added to `generate` and `replay`.
pub fn command() -> clap::Command {
    let mut cmd = Cli::command();
    for sub in ["generate", "replay"] {
        cmd = cmd.mut_subcommand(sub, |c| c.args(all_kind_flags().iter().map(kind_arg)));
    }
    // The family's board flags also choose how `rate`, `solve` and `calibrate` read lines.
    let board: Vec<clap::Arg> = crate::kinds::sudoku::family::Family::flags()
        .iter()
        .filter(|a| ["box", "jigsaw", "diagonals", "killer"].contains(&a.id))
        .map(kind_arg)
        .collect();
    for sub in ["rate", "solve", "calibrate", "explain", "hint"] {
        cmd = cmd.mut_subcommand(sub, |c| c.args(board.clone()));
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
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let m = command().get_matches_from(args.clone());
    let mut cli = Cli::from_arg_matches(&m).unwrap_or_else(|e| e.exit());
    cli.argv = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    if let Some((_, sub)) = m.subcommand() {
        cli.kind_flags = sub.clone();
        cli.given = given_kind_flags(sub);
    }
    // A book's records name their kind: with no `--kind` on the command line, `rate`, `solve`,
    // `explain`, `hint` and `calibrate` read a Futoshiki book as Futoshiki.
    let kind_given = m.value_source("kind") == Some(clap::parser::ValueSource::CommandLine);
    cli.kind = route_family(&cli, kind_given);
    cli
}

/// `--kind sudoku` goes to the Sudoku family (`KindId::SudokuFamily`) when a family flag is
/// given (`--box`, `--jigsaw`, `--diagonals`, `--killer`), or, for `rate`, `solve` and
/// `calibrate`, when the input's first puzzle line is not a classic 9×9 line; otherwise it stays
/// classic, whose output is unchanged. Without `--kind` on the command line (`kind_given`), an
/// input whose first line is a book's record (CSV row or JSON line) of another kind goes to that
/// kind, and one whose first puzzle only another kind reads goes to that kind (`reads_as`).
fn route_family(cli: &Cli, kind_given: bool) -> KindId {
    let input = match &cli.command {
        Command::Rate { input, .. } | Command::Solve { input } => Some(input.clone()),
        Command::Explain { input, .. } | Command::Hint { input, .. } => Some(input.clone()),
        Command::Calibrate { reference, .. } => Some(Some(reference.clone())),
        _ => None,
    };
    let first = input.and_then(|i| first_line(i.as_deref()));
    let book = first.as_ref().and_then(|(_, k)| KindId::from_key(k.as_deref()?));
    if let Some(b) = book.filter(|&b| kind_given && b != cli.kind) {
        eprintln!("note: the input's records are {} puzzles, read as {} (--kind)", b.name(), cli.kind.name());
    }
    if cli.kind != KindId::Sudoku {
        return cli.kind;
    }
    let flag = |id: &str| cli.given.switch(id);
    // `--box 3x3` alone is classic 9×9: the classic kind makes it, faster and as before.
    let other_box = cli.given.text("box").is_some_and(|b| b != "3x3");
    if other_box || flag("jigsaw") || flag("diagonals") || flag("killer") {
        return KindId::SudokuFamily;
    }
    let sudoku = match &first {
        Some((line, _)) if crate::kinds::sudoku::family::notation::is_family_line(line) => KindId::SudokuFamily,
        _ => KindId::Sudoku,
    };
    match (first, book) {
        (Some(_), Some(k)) if !kind_given && k != KindId::Sudoku => k,
        (Some((line, None)), _) if !kind_given => reads_as(sudoku, &line),
        _ => sudoku,
    }
}

/// The kind that reads `line` (the input's first puzzle, not a book's record, with no `--kind`
/// given): `sudoku` when it does, else the one other kind that reads it (a Tatham Towers, Unequal
/// or Keen id, a JSON puzzle), with a note; `sudoku` again when none or several do, whose error
/// then says what is wrong with the line.
fn reads_as(sudoku: KindId, line: &str) -> KindId {
    struct Reads<'a>(&'a str);
    impl KindVisitor for Reads<'_> {
        type Output = bool;
        fn visit<K: Kind>(self) -> bool {
            K::parse(self.0, &K::Params::default()).is_ok()
        }
    }
    // `hint`'s `PUZZLE<TAB>CURRENT`: the puzzle is the part before the tab.
    let line = line.split('\t').next().unwrap_or(line);
    if sudoku.visit(Reads(line)) {
        return sudoku;
    }
    let others: Vec<KindId> = KindId::ALL
        .iter()
        .copied()
        .filter(|&k| k != KindId::Sudoku && k != KindId::SudokuFamily && k.visit(Reads(line)))
        .collect();
    match others[..] {
        [k] => {
            eprintln!(
                "note: the input is read as {} puzzles: its first puzzle reads as no other kind (--kind sets it)",
                k.name()
            );
            k
        }
        _ => sudoku,
    }
}

/// The first line of an input that is neither blank nor a comment, without consuming standard
/// input (read from its buffer), with the kind its record names when it is a book's record; or
/// None.
fn first_line(input: Option<&std::path::Path>) -> Option<(String, Option<String>)> {
    use std::io::BufRead;
    // A byte order mark before the first line is no part of it (`commands::lines`).
    // A book's puzzles.csv: the first row's puzzle field, and its kind column.
    let pick = |text: &str| {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut kept = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
        let first = kept.next()?;
        match crate::book::record::csv_puzzle_column(first) {
            Some(Ok(col)) => {
                let row = kept.next()?;
                let kind = crate::book::record::csv_column(first, "kind");
                let kind = kind.and_then(|k| crate::book::record::csv_field(row, k).ok());
                Some((crate::book::record::csv_field(row, col).ok()?, kind))
            }
            _ => {
                // `hint`'s `PUZZLE<TAB>CURRENT`: the record is the part before the tab.
                let record = first.split('\t').next().unwrap_or(first);
                let kind = record.starts_with('{').then(|| serde_json::from_str::<serde_json::Value>(record).ok());
                let kind = kind.flatten().and_then(|v| v.get("kind")?.as_str().map(str::to_string));
                Some((first.to_string(), kind))
            }
        }
    };
    match input {
        Some(p) if p.as_os_str() != "-" => {
            // A zstd file (a compressed book's puzzles.jsonl.zst) is read decompressed.
            let f = crate::book::layout::open(p).ok()?;
            let mut buf = Vec::new();
            std::io::Read::read_to_end(&mut std::io::Read::take(f, 64 << 10), &mut buf).ok()?;
            pick(&String::from_utf8_lossy(&buf))
        }
        _ => {
            // What standard input holds so far stays in its buffer for the reader after us.
            let mut lock = std::io::stdin().lock();
            let buf = lock.fill_buf().ok()?;
            pick(&String::from_utf8_lossy(buf))
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run seeded candidates through generate → unique → rate → grade and write the book to DIR:
    /// N candidates (--count), or until each grade's book holds its quota (--quota).
    Generate {
        /// Number of candidates [default: 1000]; with --quota, the most candidates to try.
        #[arg(long, value_name = "N")]
        count: Option<u64>,
        /// Master seed: with the kind and parameters it fixes every candidate.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Run until each grade's book holds exactly its quota, e.g. `easy=100,expert=20` (grades
        /// not named get 0). Once the common grades are full, candidates are generated with
        /// settings that make the open grades more likely (see --no-steer).
        #[arg(long, value_name = "GRADE=N,...", value_parser = parse_quota)]
        quota: Option<Quota>,
        /// Stop after this long (`8h`, `90m`, `45s`, `1h30m`; a bare number is seconds), keeping
        /// what was made: exit 3 if the quotas are not met.
        #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
        time_limit: Option<std::time::Duration>,
        /// Output directory (created if missing). It is replaced as a whole when the run
        /// completes; a directory that already holds a book is refused unless --force.
        #[arg(long, default_value = "output/book")]
        out: PathBuf,
        /// Replace the finished book in --out (kept whole until the new one is complete), or
        /// discard an unfinished run there.
        #[arg(long, conflicts_with = "resume")]
        force: bool,
        /// Continue the unfinished run saved in --out (after kill, power loss, Ctrl-C) with its
        /// saved settings; other flags may be left out or repeated but must match. The finished
        /// book is byte-identical to an uninterrupted run.
        #[arg(long)]
        resume: bool,
        /// Earlier puzzles not to make again, up to the kind's symmetries: books'
        /// `puzzles.jsonl` or `puzzles.csv`, puzzle lines as `rate` reads them, or canonical keys
        /// (32 hex digits) one per line.
        #[arg(long, value_name = "FILE", num_args = 1..)]
        exclude: Vec<PathBuf>,
        /// The puzzle library (an SQLite file, made if missing, or postgres://…): puzzles it
        /// holds count as duplicates, and the finished book's puzzles are added to it.
        #[arg(long, value_name = "FILE|URL")]
        library: Option<String>,
        /// With --quota: never change the generation settings; with --require or --teach: only
        /// filter, do not steer clue removal toward the technique (for comparisons).
        #[arg(long)]
        no_steer: bool,
        /// With --quota: keep the puzzles made beyond a grade's quota in `overflow.jsonl`.
        #[arg(long)]
        overflow: bool,
        /// Make shard K of N of this run (0 <= K < N), to be combined by `merge`: the N shards
        /// share the candidates out (shard K takes candidates K, K+N, K+2N, ...), so together
        /// they make what one run would; with --quota each fills its share of every quota (plus
        /// a reserve of 2%, at least 1, against duplicates found across shards). `auto` reads
        /// K and N from a Slurm array task (SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN,
        /// SLURM_ARRAY_TASK_COUNT: the array must be the whole run, so give K/N to re-run one
        /// task alone); a Kubernetes Indexed Job passes `$(JOB_COMPLETION_INDEX)/N`.
        #[arg(long, value_name = "K/N|auto", value_parser = parse_shard)]
        shard: Option<Shard>,
        /// Write `paths.jsonl` beside the book: each puzzle's solution path, a line per record
        /// in the same order (SPEC.md); records gain `bottleneck` and `shortcut`, and
        /// calibration.json their figures per grade.
        #[arg(long)]
        paths: bool,
        /// Keep only puzzles that need each of these techniques (names as in calibration.json):
        /// the path uses it, and the puzzle does not solve with it switched off (trial too).
        #[arg(long, value_name = "T,...", value_delimiter = ',')]
        require: Vec<String>,
        /// Rate with these techniques switched off: keep only puzzles that solve without them.
        #[arg(long, value_name = "T,...", value_delimiter = ',')]
        forbid: Vec<String>,
        /// Rate with the techniques above this level switched off (6 = trial): keep only puzzles
        /// that solve with levels 1 to L.
        #[arg(long, value_name = "L")]
        max_level: Option<u8>,
        /// Teaching puzzles: the technique is needed, and every other step is a basic one: a
        /// single (level 1); for Kakuro also a crossing-run intersection or a pair sum (level 2).
        #[arg(long, value_name = "T", conflicts_with_all = ["forbid", "max_level"])]
        teach: Option<String>,
        /// Reject puzzles that one lucky guess breaks (`shortcut`, SPEC.md): for the grades
        /// --quota names, or for every grade without --quota.
        #[arg(long)]
        no_shortcut: bool,
        /// Which puzzle files the book keeps: `all` writes every puzzle four times (puzzles.csv,
        /// puzzles.jsonl, book-<grade>.csv, book-<grade>.json); `csv` and `json` keep one form
        /// (about half the disk); `none` keeps no puzzle file (calibration.json, manifest.json
        /// and the report stay), for runs whose puzzles go to a library (`--library`, which
        /// `none` requires). Recorded in manifest.json, for --resume and `merge`;
        /// `book`, `merge` and `--exclude` read a book of any of them. overflow.jsonl and
        /// paths.jsonl are kept with `csv` and `json`.
        #[arg(long, value_parser = choice::<Books>(), default_value = "all")]
        books: Books,
        /// Write every puzzle file zstd-compressed, named with `.zst` after its own name
        /// (puzzles.csv.zst, book-hard.json.zst, ...); `zstd -d` or `zstdcat` reads them, and so
        /// do `book`, `merge`, `--exclude`, `rate`, `solve` and `explain`. Resumed, sharded and
        /// multi-threaded runs give the same bytes.
        #[arg(long, value_parser = choice::<Compress>(), default_value = "none")]
        compress: Compress,
    },
    /// The puzzle library: every puzzle made, in one database (an SQLite file, or PostgreSQL
    /// for a team), and the books drawn from it, so that no puzzle is printed twice. Fill it
    /// with `generate --library` or `library import`; draw from it with `library query` or a
    /// book plan's `query` sections.
    Library {
        #[command(subcommand)]
        action: LibraryAction,
    },
    /// Combine the finished shards of one run (`generate --shard K/N`) into one book in --out:
    /// the same files as one run (the shards' --books and --compress too); in count mode
    /// byte-identical to it (timing fields aside). The kind, parameters and configuration are the
    /// shards' own (--kind and --config are not used).
    Merge {
        /// The shards' output folders, each K from 0 to N-1 once, in any order.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// Output directory for the merged book (the same rules as generate's --out).
        #[arg(long)]
        out: PathBuf,
        /// Replace the finished book in --out (kept whole until the new one is complete).
        #[arg(long)]
        force: bool,
    },
    /// Print a book folder (from generate or merge) as a PDF book ready for print-on-demand, or
    /// as one SVG per puzzle and per solution: a title and contents page, one section per grade,
    /// numbered puzzles with their ids, solutions at the back, the font embedded. Or, with
    /// --plan, a book of many sections from a plan (TOML: front matter, sections drawn from book
    /// folders, answers, type, cover; see the README), checked against KDP's rules. The kind
    /// comes from each folder (--kind and --config are not used); the same folders and flags or
    /// plan give the same bytes.
    #[command(group(clap::ArgGroup::new("source").required(true).args(["input", "plan"])))]
    Book {
        /// The book folder (its manifest.json, and puzzles.jsonl or puzzles.csv, plain or .zst).
        #[arg(long = "in", value_name = "DIR")]
        input: Option<PathBuf>,
        /// A book plan (TOML): the book's words, sections, answers and cover.
        #[arg(long, value_name = "PLAN.toml")]
        plan: Option<PathBuf>,
        /// Where a plan's section folders are looked up (default: the plan's own folder).
        #[arg(long, value_name = "DIR", requires = "plan")]
        runs: Option<PathBuf>,
        /// The library a plan's `query` sections draw from: building the book records their
        /// puzzles as its own, so no other book takes them (`library release` undoes it).
        #[arg(long, value_name = "FILE|URL", requires = "plan", default_value = crate::library::DEFAULT)]
        library: String,
        /// FILE.pdf for a PDF book; DIR/ (ending in /, or an existing folder) for SVG files.
        /// With answers = "separate", the answer booklet goes beside it as FILE-answers.pdf.
        #[arg(long, value_name = "FILE.pdf|DIR/", required_unless_present_any = ["cover", "check"])]
        out: Option<PathBuf>,
        /// With --plan: the full-wrap paperback cover (back, spine, front) as one PDF, sized
        /// from the interior's page count and the plan's paper; its size is printed.
        #[arg(long, value_name = "FILE.pdf", requires = "plan")]
        cover: Option<PathBuf>,
        /// With --plan: check the book against KDP's rules (page count, margins, fonts,
        /// anything drawn outside its area, image resolution) and write nothing; exit 2 naming
        /// each problem and its page. The same checks run on every build from a plan.
        #[arg(long, requires = "plan")]
        check: bool,
        /// Grades to print, each a section in the order given (repeat the flag, or
        /// easy,hard); default: all four, easy to expert.
        #[arg(long = "grade", value_name = "GRADE", value_delimiter = ',', conflicts_with = "plan")]
        grades: Vec<crate::cli::GradeArg>,
        /// Page size: a KDP trim (5x8, 5.06x7.81, 5.25x8, 5.5x8.5, 6x9, 6.14x9.21, 7x10,
        /// 7.5x9.25, 8x10, 8.25x11, 8.5x8.5, 8.5x11, a4, a5; letter) or a custom WxH in inches.
        #[arg(long, default_value = "6x9", value_parser = crate::print::kdp::Trim::parse, conflicts_with = "plan")]
        trim: crate::print::kdp::Trim,
        /// Puzzles per page: 1, 2, 4 or 6 (fewer, with a note, where the largest grid's clues
        /// would be set under 6 pt, 9 pt with --large-print).
        #[arg(long, default_value_t = 2, value_parser = per_page, conflicts_with = "plan")]
        per_page: usize,
        /// Large print: bigger grids, digits, text and margins.
        #[arg(long, conflicts_with = "plan")]
        large_print: bool,
        /// Where the solutions go: at the back (smaller, several a page), after each grade's
        /// section, on the page after each puzzle page, upside down at the foot of the puzzle's
        /// page (1 or 2 a page), in a separate answer booklet, or none.
        #[arg(long, value_parser = choice::<crate::print::layout::Answers>(), default_value = "back", conflicts_with = "plan")]
        solutions: crate::print::layout::Answers,
        /// The book's title, on the contents page and in every running head.
        #[arg(long, default_value = "Puzzles", conflicts_with = "plan")]
        title: String,
        /// Add 0.125 in of bleed at the outside edge, top and bottom (the PDF's trim box marks
        /// the trim).
        #[arg(long, conflicts_with = "plan")]
        bleed: bool,
        /// Add worked solutions for the first N puzzles of each grade section, after the
        /// section: the rater's path as numbered steps (singles grouped), each step beyond
        /// singles with a small diagram shading the cells it rests on and the cells it changes.
        #[arg(long, value_name = "N", default_value_t = 0, conflicts_with = "plan")]
        worked: usize,
        /// Print each puzzle's first step beyond singles under its solution.
        #[arg(long, conflicts_with = "plan")]
        hints: bool,
    },
    /// Rate puzzles, one per line, from FILE or stdin ('-'); CSV to stdout. A book's own
    /// `puzzles.csv` or `puzzles.jsonl` (plain or .zst) is read as it is, as the kind its
    /// records name unless --kind is given; so is a Tatham game id or a JSON puzzle that only
    /// one kind reads (`solve`, `explain` and `hint` read inputs alike).
    Rate {
        /// Input file; '-' or absent for stdin.
        input: Option<PathBuf>,
        /// Rate with these techniques switched off (e.g. `x_wing,trial`): a puzzle that needs
        /// one of them is reported as a bad line ("the rater could not finish").
        #[arg(long, value_name = "T,...", value_delimiter = ',')]
        forbid: Vec<String>,
    },
    /// Count solutions (stopping at 2) and print the first; CSV to stdout.
    Solve {
        /// Input file; '-' or absent for stdin.
        input: Option<PathBuf>,
    },
    /// Print each puzzle's solution path as the rater finds it, step by step: the technique,
    /// its level, the cells it rests on, the digits it places and the candidates it removes;
    /// with the grade, step count, bottleneck and shortcut. Puzzles one per line, as `rate`
    /// reads them.
    Explain {
        /// Input file; '-' or absent for stdin.
        input: Option<PathBuf>,
        /// `text`: numbered steps per puzzle; `json`: one object per puzzle and line (SPEC.md).
        #[arg(long, value_enum, default_value = "text")]
        format: PathFormat,
    },
    /// The next step for a puzzle with the digits entered so far: lines `PUZZLE` or
    /// `PUZZLE<TAB>CURRENT`, CURRENT the grid so far (Sudoku: a line of n² symbols, `.` blank;
    /// any kind: a JSON array of rows, 0 blank; Kakuro rows include the clue border). Entered
    /// digits that differ from the solution are named first (and no step is given).
    Hint {
        /// Input file; '-' or absent for stdin.
        input: Option<PathBuf>,
        /// Also give the digit the step places.
        #[arg(long)]
        reveal: bool,
        /// `text` or `json` (`{"line", "wrong", "step"}`, SPEC.md).
        #[arg(long, value_enum, default_value = "text")]
        format: PathFormat,
    },
    /// Fit grade thresholds k1<k2<k3 to labelled reference puzzles and print the agreement.
    Calibrate {
        /// Reference file: one puzzle per line, then its label (tab-separated, else comma).
        /// KenKen puzzles of several grid sizes are fitted and measured size by size, with a
        /// per-size table at the end. Kakuro is fitted on steps / white cells^2.
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
        /// Write a config file with the fitted thresholds (the other settings as used): in
        /// `[grades.size.N]` for every KenKen size fitted, else in `[grades]`.
        #[arg(long, value_name = "FILE")]
        write_config: Option<PathBuf>,
        /// Write one CSV row per reference puzzle (line, level, steps, hardest level, our grade,
        /// held out or not; and its size when fitted by size), for side-by-side comparisons.
        #[arg(long, value_name = "FILE")]
        dump: Option<PathBuf>,
        /// Write report.md with SVG plots (steps per grade with the thresholds, steps per
        /// reference level, technique usage per grade) into this directory; fitted by size, one
        /// such report per size (size-N/) and report.md with the per-size table and sizes.svg
        /// (steps per reference level, one panel per size).
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
        /// The steering level the candidate was made at (the record's `steer` column).
        #[arg(long, default_value_t = 0)]
        steer: u8,
        /// The run's --quota, when it was a quota order: its candidates were made without
        /// grade targeting (KenKen's `[target]`), and are rebuilt so. The counts are not used.
        #[arg(long, value_name = "GRADE=N,...", value_parser = parse_quota)]
        quota: Option<Quota>,
    },
}

/// `K/N`, or `auto` from a Slurm array task's environment.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let t = text.trim();
    if t == "auto" {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let (Some(id), Some(count)) = (var("SLURM_ARRAY_TASK_ID"), var("SLURM_ARRAY_TASK_COUNT")) else {
            return Err("SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not set (not a Slurm array task): \
                        give K/N"
                .into());
        };
        let num = |name: &str, v: &str| -> Result<u64, String> {
            v.trim().parse().map_err(|_| format!("{name}={v} is not a whole number"))
        };
        let min = var("SLURM_ARRAY_TASK_MIN").map_or(Ok(0), |v| num("SLURM_ARRAY_TASK_MIN", &v))?;
        let id = num("SLURM_ARRAY_TASK_ID", &id)?;
        let n = num("SLURM_ARRAY_TASK_COUNT", &count)?;
        let k = id
            .checked_sub(min)
            .ok_or_else(|| format!("SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}"))?;
        return check_shard(k, n).map_err(|e| format!("from the Slurm array: {e}"));
    }
    let (k, n) = t.split_once('/').ok_or_else(|| format!("'{t}' is not K/N (e.g. 0/4) or auto"))?;
    let k: u64 = k.trim().parse().map_err(|_| format!("K '{}' is not a whole number", k.trim()))?;
    let n: u64 = n.trim().parse().map_err(|_| format!("N '{}' is not a whole number", n.trim()))?;
    check_shard(k, n)
}

fn check_shard(k: u64, n: u64) -> Result<Shard, String> {
    if n == 0 || n > 1_000_000 {
        return Err(format!("N must be 1 to 1000000, got {n}"));
    }
    if k >= n {
        return Err(format!("K must be 0 to N-1 = {}, got {k}", n - 1));
    }
    Ok(Shard { k, n })
}

fn parse_quota(text: &str) -> Result<Quota, String> {
    use crate::grade::Grade;
    let mut q = [None; 4];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, n) = part.split_once('=').ok_or_else(|| format!("'{part}' is not GRADE=N"))?;
        let g = Grade::ALL
            .iter()
            .position(|g| g.name() == name.trim())
            .ok_or_else(|| format!("unknown grade '{}' (grades: easy, medium, hard, expert)", name.trim()))?;
        let n: u64 = n.trim().parse().map_err(|_| format!("{name}: '{}' is not a whole number", n.trim()))?;
        if q[g].replace(n).is_some() {
            return Err(format!("{name} is given twice"));
        }
    }
    let q = q.map(|n| n.unwrap_or(0));
    if q.iter().all(|&n| n == 0) {
        return Err("the quota orders no puzzle".into());
    }
    Ok(Quota(q))
}

/// `8h`, `90m`, `45s`, `1h30m`, `2d`; a bare number is seconds.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    if let Ok(s) = t.parse::<f64>() {
        return if s.is_finite() && s >= 0.0 {
            Ok(std::time::Duration::from_secs_f64(s))
        } else {
            Err(format!("'{t}' is not a duration"))
        };
    }
    let (mut total, mut num, mut any) = (0f64, String::new(), false);
    for c in t.chars() {
        if c.is_ascii_digit() || c == '.' {
            num.push(c);
            continue;
        }
        let unit = match c {
            'd' => 86400.0,
            'h' => 3600.0,
            'm' => 60.0,
            's' => 1.0,
            _ => return Err(format!("'{t}' is not a duration like 8h, 90m, 45s or 1h30m")),
        };
        let v: f64 = num.parse().map_err(|_| format!("'{t}' is not a duration like 8h, 90m, 45s or 1h30m"))?;
        total += v * unit;
        num.clear();
        any = true;
    }
    if !num.is_empty() || !any || !total.is_finite() || total > 1e9 {
        return Err(format!("'{t}' is not a duration like 8h, 90m, 45s or 1h30m"));
    }
    Ok(std::time::Duration::from_secs_f64(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotas_and_durations_parse_or_say_why() {
        assert_eq!(parse_quota("easy=4,expert=2"), Ok(Quota([4, 0, 0, 2])));
        assert_eq!(parse_quota(" hard = 3 "), Ok(Quota([0, 0, 3, 0])));
        assert!(parse_quota("easy=1,easy=2").unwrap_err().contains("twice"));
        assert!(parse_quota("extreme=1").unwrap_err().contains("unknown grade"));
        assert!(parse_quota("easy=x").unwrap_err().contains("whole number"));
        assert!(parse_quota("easy=0").is_err() && parse_quota("").is_err() && parse_quota("easy").is_err());
        let s = |n: u64| std::time::Duration::from_secs(n);
        assert_eq!(parse_duration("8h"), Ok(s(8 * 3600)));
        assert_eq!(parse_duration("90m"), Ok(s(5400)));
        assert_eq!(parse_duration("1h30m"), Ok(s(5400)));
        assert_eq!(parse_duration("45s"), Ok(s(45)));
        assert_eq!(parse_duration("45"), Ok(s(45)));
        assert_eq!(parse_duration("1.5h"), Ok(s(5400)));
        for bad in ["", "h", "5x", "1h30", "-3", "nan", "1e20s"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}

/// The library given to a command: a file (default `output/library.sqlite`) or a
/// `postgres://user@host/db` URL.
#[derive(clap::Args, Debug, Clone)]
pub struct LibraryArg {
    /// The library: an SQLite file, or postgres://USER[:PASSWORD]@HOST[:PORT]/DB.
    #[arg(long, value_name = "FILE|URL", default_value = crate::library::DEFAULT)]
    pub library: String,
}

/// What to select from the library (`library query`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Selection {
    /// The board as puzzle ids name it: `9`, `6`, `16`, `9k` (killer), `9x`, `9j` (jigsaw),
    /// `8x10` (Kakuro)… `library stats` lists those the library holds. --kind (default sudoku)
    /// names the kind.
    #[arg(long, value_name = "SHAPE")]
    pub shape: Option<String>,
    /// Only these grades.
    #[arg(long = "grade", value_name = "GRADE,...", value_delimiter = ',')]
    pub grades: Vec<String>,
    /// At least this many steps.
    #[arg(long, value_name = "STEPS")]
    pub min_steps: Option<f64>,
    /// At most this many steps.
    #[arg(long, value_name = "STEPS")]
    pub max_steps: Option<f64>,
    /// Puzzles whose rating path used each of these techniques (names as in calibration.json).
    #[arg(long, value_name = "T,...", value_delimiter = ',')]
    pub uses: Vec<String>,
    /// Puzzles that need each of these techniques' level: the path used the technique, and
    /// its level is the puzzle's hardest (lower levels do not solve it).
    #[arg(long, value_name = "T,...", value_delimiter = ',')]
    pub needs: Vec<String>,
    /// Only puzzles no book holds.
    #[arg(long, conflicts_with = "unused_since")]
    pub unused: bool,
    /// Only puzzles no book dated on or after DATE (YYYY-MM-DD) holds.
    #[arg(long, value_name = "DATE")]
    pub unused_since: Option<String>,
}

// Parsed once per process: boxing the large variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum LibraryAction {
    /// Add finished book folders (generate's, merge's) to the library, all in one transaction.
    /// Puzzles it already holds (the same canonical key, kind and shape) are not added again.
    Import {
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        #[command(flatten)]
        library: LibraryArg,
    },
    /// Select puzzles: print how many match (per kind, shape and grade), print them (--format
    /// jsonl), or write the first --count of them as a book folder that `book --in` prints
    /// (--out). With --reserve NAME they are recorded as used by book NAME, in one transaction:
    /// no other book gets them.
    Query {
        #[command(flatten)]
        select: Selection,
        /// How many (the first ones added); required with --out and --reserve.
        #[arg(long, value_name = "N")]
        count: Option<usize>,
        /// `counts`: a table; `jsonl`: the puzzles' records; `ids`: their ids (of the first
        /// --count, or of every match without it).
        #[arg(long, value_enum, default_value = "counts")]
        format: QueryFormat,
        /// Write the puzzles as a book folder (manifest.json, puzzles.jsonl,
        /// book-<grade>.json): the same rules as generate's --out.
        #[arg(long, value_name = "DIR", requires = "count")]
        out: Option<PathBuf>,
        /// Replace the finished book in --out.
        #[arg(long, requires = "out")]
        force: bool,
        /// Record the puzzles as used by the book NAME (only unused ones are taken, or none used
        /// since --unused-since). `library release NAME` undoes it.
        #[arg(long, value_name = "NAME", requires = "count")]
        reserve: Option<String>,
        /// The reserved book's title [default: NAME].
        #[arg(long, requires = "reserve")]
        title: Option<String>,
        /// The reserved book's ISBN.
        #[arg(long, requires = "reserve", default_value = "")]
        isbn: String,
        /// The reserved book's date, YYYY-MM-DD [default: today].
        #[arg(long, requires = "reserve")]
        date: Option<String>,
        #[command(flatten)]
        library: LibraryArg,
    },
    /// Undo a book that was never printed: the puzzles it held are free again.
    Release {
        /// The book's name (`library books` lists them).
        name: String,
        #[command(flatten)]
        library: LibraryArg,
    },
    /// The books drawn from the library, or one book's puzzles (section, number, id).
    Books {
        /// A book's name: list its puzzles.
        name: Option<String>,
        #[command(flatten)]
        library: LibraryArg,
    },
    /// Puzzles per kind, shape and grade, used and unused, and the books printed.
    Stats {
        #[command(flatten)]
        library: LibraryArg,
    },
    /// Check the library file (SQLite's integrity check): exit 0 when sound, 1 when not.
    Check {
        #[command(flatten)]
        library: LibraryArg,
    },
}

/// `--format` of `explain` and `hint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PathFormat {
    Text,
    Json,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryFormat {
    Counts,
    Jsonl,
    Ids,
}
