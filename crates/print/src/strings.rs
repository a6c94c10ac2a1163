//! The words of a printed book in one language: `assets/strings/<lang>.toml` for the built-in
//! languages, English under every key a language lacks, and a user's strings file on top.
//!
//! A user file has the built-in schema (`[words]`, `[kinds]`, `[how_to_play.<kind>]`, any subset
//! of keys). Without a top-level `language` key it overrides the language chosen, which must be
//! built in; with `language = "it"` it is the table of that language, a new one or a built-in one
//! it overrides, and choosing any other language with it is an error. Unknown keys are refused,
//! except new `[how_to_play.<kind>]` entries (which need `title` and `text`); a value may use only
//! the `{placeholders}` of its English key.

use anyhow::{anyhow, bail, Context, Result};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The built-in tables, English first.
const BUILTIN_FILES: [(&str, &str); 4] = [
    ("en", include_str!("../assets/strings/en.toml")),
    ("de", include_str!("../assets/strings/de.toml")),
    ("fr", include_str!("../assets/strings/fr.toml")),
    ("es", include_str!("../assets/strings/es.toml")),
];

/// How to play one kind, placeholders filled.
#[derive(Clone, Debug, PartialEq)]
pub struct HowTo {
    pub title: String,
    /// Paragraphs.
    pub text: Vec<String>,
    /// A one-line tip for a first step.
    pub tip: Option<String>,
    /// A paragraph for grids that print numbers above 9 as letters (the Sudoku family).
    pub letters: Option<String>,
}

/// One `[how_to_play.<kind>]` entry as a file gives it (any field may be missing).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    title: Option<String>,
    text: Option<Vec<String>>,
    tip: Option<String>,
    letters: Option<String>,
}

impl Entry {
    fn fields(&self) -> [(&'static str, Option<String>); 4] {
        [
            ("title", self.title.clone()),
            ("text", self.text.as_ref().map(|t| t.join("\n"))),
            ("tip", self.tip.clone()),
            ("letters", self.letters.clone()),
        ]
    }
}

/// One strings file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Layer {
    language: Option<String>,
    #[serde(default)]
    words: BTreeMap<String, String>,
    #[serde(default)]
    kinds: BTreeMap<String, String>,
    #[serde(default)]
    how_to_play: BTreeMap<String, Entry>,
}

impl Layer {
    /// Parse `text`, errors naming `source`, the line and the key.
    fn parse(text: &str, source: &str) -> Result<Layer> {
        serde_path_to_error::deserialize(toml::Deserializer::new(text)).map_err(|e| {
            let path = e.path().to_string();
            let e = e.into_inner();
            let line =
                e.span().map_or(String::new(), |s| format!(" line {}", text[..s.start].matches('\n').count() + 1));
            let msg = match e.message().strip_prefix("unknown field `").and_then(|m| m.split_once('`')) {
                Some((_, expected)) => format!("unknown key `{path}`{expected}"),
                None if path.is_empty() || path == "." => e.message().to_string(),
                None => format!("`{path}`: {}", e.message()),
            };
            anyhow!("{source}{line}: {msg}")
        })
    }

    /// Every key the layer sets, as `words.contents`, `how_to_play.sudoku.title`, with its value.
    fn keys(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (table, map) in [("words", &self.words), ("kinds", &self.kinds)] {
            out.extend(map.iter().map(|(k, v)| (format!("{table}.{k}"), v.clone())));
        }
        for (kind, e) in &self.how_to_play {
            for (field, v) in e.fields() {
                out.extend(v.map(|v| (format!("how_to_play.{kind}.{field}"), v)));
            }
        }
        out
    }
}

/// The words, kind names and how-to-play texts of one language.
#[derive(Clone, Debug)]
pub struct Strings {
    lang: String,
    words: BTreeMap<String, String>,
    kinds: BTreeMap<String, String>,
    how_to_play: BTreeMap<String, Entry>,
}

impl Strings {
    /// Built-in languages: ["en", "de", "fr", "es"].
    pub const BUILTIN: &'static [&'static str] = &["en", "de", "fr", "es"];

    /// The table for `lang`: the built-in one (if any), English under every key it lacks, and
    /// `user` (a strings file, module doc) on top. Also returns the keys that fell back to
    /// English (`words.hint`, `how_to_play.kakuro.tip`).
    pub fn load(lang: &str, user: Option<&Path>) -> Result<(Strings, Vec<String>)> {
        let english = Strings::english();
        let all: BTreeSet<String> = english.layer().keys().into_iter().map(|(k, _)| k).collect();
        let mut s = english.clone();
        let mut set = BTreeSet::new();
        let builtin = BUILTIN_FILES.iter().find(|(l, _)| *l == lang);
        if let Some((l, text)) = builtin.filter(|(l, _)| *l != "en") {
            let layer = Layer::parse(text, &format!("assets/strings/{l}.toml")).expect("built-in strings parse");
            s.apply(layer, &mut set);
        }
        if let Some(path) = user {
            let source = path.display().to_string();
            let text = std::fs::read_to_string(path).with_context(|| format!("{source}: cannot read"))?;
            let layer = Layer::parse(&text, &source)?;
            match (&layer.language, builtin) {
                (Some(l), _) if l == lang => {}
                (Some(l), Some(_)) => bail!("{source} holds the strings of `{l}`, not of the chosen language `{lang}`"),
                (Some(l), None) => bail!("{}", unknown_language(lang, Some(l))),
                (None, Some(_)) => {}
                (None, None) => bail!("{}", unknown_language(lang, None)),
            }
            english.check(&layer, &source)?;
            s.apply(layer, &mut set);
        } else if builtin.is_none() {
            bail!("{}", unknown_language(lang, None));
        }
        s.lang = lang.to_string();
        let fallback = if lang == "en" { Vec::new() } else { all.difference(&set).cloned().collect() };
        Ok((s, fallback))
    }

    /// The English table.
    fn english() -> Strings {
        let layer = Layer::parse(BUILTIN_FILES[0].1, "assets/strings/en.toml").expect("built-in strings parse");
        let Layer { words, kinds, how_to_play, .. } = layer;
        Strings { lang: "en".to_string(), words, kinds, how_to_play }
    }

    /// This table as a layer (its keys and values).
    fn layer(&self) -> Layer {
        Layer {
            language: None,
            words: self.words.clone(),
            kinds: self.kinds.clone(),
            how_to_play: self.how_to_play.clone(),
        }
    }

    /// Refuse keys English does not have, incomplete new how-to-play entries and placeholders
    /// the English key does not have. `self` is the English table.
    fn check(&self, layer: &Layer, source: &str) -> Result<()> {
        let english: BTreeMap<String, String> = self.layer().keys().into_iter().collect();
        for (kind, e) in &layer.how_to_play {
            if !self.how_to_play.contains_key(kind) && (e.title.is_none() || e.text.is_none()) {
                bail!("{source}: `how_to_play.{kind}` is a new entry, so it needs `title` and `text`");
            }
        }
        for (key, value) in layer.keys() {
            let Some(en) = english.get(&key) else {
                if key.starts_with("how_to_play.") {
                    continue;
                }
                bail!("{source}: unknown key `{key}`");
            };
            let allowed = placeholders(en);
            if let Some(p) = placeholders(&value).difference(&allowed).next() {
                let allowed: Vec<String> = allowed.iter().map(|a| format!("{{{a}}}")).collect();
                bail!(
                    "{source}: `{key}` uses {{{p}}}; it may use {}",
                    if allowed.is_empty() { "none".to_string() } else { allowed.join(", ") }
                );
            }
        }
        Ok(())
    }

    /// Put `layer` over this table, adding the keys it sets to `set`.
    fn apply(&mut self, layer: Layer, set: &mut BTreeSet<String>) {
        set.extend(layer.keys().into_iter().map(|(k, _)| k));
        self.words.extend(layer.words);
        self.kinds.extend(layer.kinds);
        for (kind, e) in layer.how_to_play {
            let old = self.how_to_play.entry(kind).or_default();
            old.title = e.title.or(old.title.take());
            old.text = e.text.or(old.text.take());
            old.tip = e.tip.or(old.tip.take());
            old.letters = e.letters.or(old.letters.take());
        }
    }

    /// A word of `[words]`. Keys are fixed in the program; an unknown one is a bug (debug
    /// builds panic, release builds return the key).
    pub fn word<'a>(&'a self, key: &'a str) -> &'a str {
        debug_assert!(self.words.contains_key(key), "no word `{key}` in the strings table");
        self.words.get(key).map_or(key, String::as_str)
    }

    /// `word` with its `{name}` placeholders filled: `fill("puzzles", &[("n", "12")])`.
    pub fn fill(&self, key: &str, args: &[(&str, &str)]) -> String {
        fill_in(self.word(key), args)
    }

    /// The name of a kind (`sudoku`, `jigsaw`, `x`, `killer`, `kenken`, `kakuro`, `futoshiki`,
    /// `skyscrapers`); an unknown key is its own name.
    pub fn kind_name<'a>(&'a self, key: &'a str) -> &'a str {
        self.kinds.get(key).map_or(key, String::as_str)
    }

    /// The name of a grade.
    pub fn grade(&self, g: pf_core::grade::Grade) -> &str {
        self.word(g.name())
    }

    /// How to play a kind (the `[kinds]` keys), placeholders filled: `n` (the grid is n×n; the
    /// Sudoku family and the square kinds: KenKen, Futoshiki, Skyscrapers) and `box` (`3×3`; the Sudoku family).
    pub fn how_to_play(&self, key: &str, args: &[(&str, &str)]) -> Option<HowTo> {
        let e = self.how_to_play.get(key)?;
        let fill = |s: &String| fill_in(s, args);
        Some(HowTo {
            title: e.title.as_ref().map(fill)?,
            text: e.text.as_ref()?.iter().map(fill).collect(),
            tip: e.tip.as_ref().map(fill),
            letters: e.letters.as_ref().map(fill),
        })
    }

    /// The language code (`en`).
    #[cfg(test)]
    fn lang(&self) -> &str {
        &self.lang
    }
}

fn unknown_language(lang: &str, user: Option<&str>) -> String {
    let builtin = Strings::BUILTIN.join(", ");
    match user {
        Some(l) => format!("unknown language `{lang}` (choices: {builtin} built in, `{l}` from the strings file)"),
        None => format!(
            "unknown language `{lang}` (built in: {builtin}; a strings file with `language = \"{lang}\"` adds it)"
        ),
    }
}

/// `text` with each `{name}` of `args` replaced by its value (one pass: values are not
/// scanned again); other braces stay as they are.
fn fill_in(text: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after.find('}').and_then(|close| {
            let name = &after[..close];
            args.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v, close))
        });
        match value {
            Some((v, close)) => {
                out.push_str(v);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The `{name}` placeholders of `text` (names of letters, digits and `_`).
fn placeholders(text: &str) -> BTreeSet<String> {
    text.split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(name, _)| name))
        .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf_core::grade::Grade;

    fn user_file(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("strings.toml");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    fn load_err(lang: &str, text: &str) -> String {
        let (_dir, path) = user_file(text);
        format!("{:#}", Strings::load(lang, Some(&path)).unwrap_err())
    }

    #[test]
    fn every_builtin_language_has_every_english_key_and_placeholder() {
        let english: BTreeMap<String, String> = Strings::english().layer().keys().into_iter().collect();
        assert_eq!(Strings::BUILTIN, BUILTIN_FILES.map(|(l, _)| l));
        for (lang, text) in BUILTIN_FILES {
            let layer = Layer::parse(text, lang).unwrap();
            assert_eq!(layer.language, None, "{lang}");
            let keys: BTreeMap<String, String> = layer.keys().into_iter().collect();
            assert_eq!(keys.keys().collect::<Vec<_>>(), english.keys().collect::<Vec<_>>(), "{lang}");
            for (key, value) in &keys {
                assert!(!value.trim().is_empty() && value.trim() == value, "{lang} {key}: {value:?}");
                assert_eq!(placeholders(value), placeholders(&english[key]), "{lang} {key}");
            }
            Strings::english().check(&layer, lang).unwrap();
            let (s, fallback) = Strings::load(lang, None).unwrap();
            assert!(fallback.is_empty(), "{lang}: {fallback:?}");
            assert_eq!(s.lang(), lang);
            for kind in english.keys().filter_map(|k| k.strip_prefix("kinds.")) {
                let h = s.how_to_play(kind, &[("n", "9"), ("box", "3×3")]).unwrap();
                assert!((2..=4).contains(&h.text.len()), "{lang} {kind}");
                let all = [h.title, h.text.join(" "), h.tip.unwrap(), h.letters.unwrap_or_default()].join(" ");
                assert!(!all.contains(['{', '}']), "{lang} {kind}: {all}");
            }
        }
    }

    #[test]
    fn fill_replaces_named_placeholders_once() {
        let (en, _) = Strings::load("en", None).unwrap();
        assert_eq!(en.fill("puzzles", &[("n", "12")]), "12 puzzles");
        assert_eq!(en.fill("puzzles_range", &[("first", "1"), ("last", "20")]), "puzzles 1–20");
        assert_eq!(en.fill("copyright", &[("year", "2025"), ("author", "A {year} B")]), "Copyright © 2025 A {year} B");
        assert_eq!(fill_in("{a} {b} {", &[("a", "x")]), "x {b} {");
        let (de, _) = Strings::load("de", None).unwrap();
        assert_eq!(de.fill("puzzles", &[("n", "12")]), "12 Rätsel");
        assert_eq!(de.grade(Grade::Expert), "Sehr schwer");
        assert_eq!(de.kind_name("killer"), "Killer-Sudoku");
        assert_eq!(de.kind_name("nonogram"), "nonogram");
        let h = en.how_to_play("sudoku", &[("n", "16"), ("box", "4×4")]).unwrap();
        assert!(h.text[0].contains("every 4×4 box") && h.text[0].contains("1 to 16"), "{:?}", h.text);
        assert!(en.how_to_play("nonogram", &[]).is_none());
    }

    #[test]
    fn user_file_overrides_a_language_and_adds_one() {
        let (_dir, path) = user_file("[words]\ncontents = \"Inhaltsverzeichnis\"\n[kinds]\nkenken = \"Calcudoku\"\n");
        let (de, fallback) = Strings::load("de", Some(&path)).unwrap();
        assert!(fallback.is_empty());
        assert_eq!(de.word("contents"), "Inhaltsverzeichnis");
        assert_eq!(de.kind_name("kenken"), "Calcudoku");
        assert_eq!(de.word("solutions"), "Lösungen");

        let it = "language = \"it\"\n[words]\ncontents = \"Indice\"\npuzzles = \"{n} giochi\"\n\
                  [how_to_play.sudoku]\ntitle = \"Sudoku\"\n\
                  [how_to_play.nonogram]\ntitle = \"Nonogramma\"\ntext = [\"Colora le caselle.\"]\n";
        let (_dir, path) = user_file(it);
        let (s, fallback) = Strings::load("it", Some(&path)).unwrap();
        assert_eq!(s.lang(), "it");
        assert_eq!(s.fill("puzzles", &[("n", "3")]), "3 giochi");
        assert_eq!(s.word("solutions"), "Solutions");
        assert!(fallback.contains(&"words.solutions".to_string()));
        assert!(fallback.contains(&"how_to_play.sudoku.text".to_string()));
        assert!(!fallback.contains(&"words.contents".to_string()));
        assert!(!fallback.contains(&"how_to_play.sudoku.title".to_string()));
        assert_eq!(s.how_to_play("nonogram", &[]).unwrap().text, ["Colora le caselle."]);

        let e = format!("{:#}", Strings::load("fr", Some(&path)).unwrap_err());
        assert!(e.contains("`it`") && e.contains("`fr`"), "{e}");
        let e = format!("{:#}", Strings::load("pt", Some(&path)).unwrap_err());
        assert!(e.contains("`pt`") && e.contains("en, de, fr, es") && e.contains("`it`"), "{e}");
        let e = format!("{:#}", Strings::load("pt", None).unwrap_err());
        assert!(e.contains("unknown language `pt`") && e.contains("en, de, fr, es"), "{e}");
        let e = load_err("pt", "[words]\ncontents = \"Índice\"\n");
        assert!(e.contains("unknown language `pt`"), "{e}");
    }

    #[test]
    fn typos_are_refused_by_name() {
        let e = load_err("en", "[words]\ncontnets = \"Contents\"\n");
        assert!(e.contains("strings.toml: unknown key `words.contnets`"), "{e}");
        let e = load_err("en", "[kinds]\nkiler = \"Killer\"\n");
        assert!(e.contains("unknown key `kinds.kiler`"), "{e}");
        let e = load_err("en", "[words]\ncontents = \"Contents\"\n\n[wrods]\npage = \"Page\"\n");
        assert!(e.contains("strings.toml line 4: unknown key `wrods`"), "{e}");
        let e = load_err("en", "[how_to_play.sudoku]\ntitel = \"Sudoku\"\n");
        assert!(e.contains("line 2: unknown key `how_to_play.sudoku.titel`"), "{e}");
        let e = load_err("en", "[how_to_play.sudoko]\ntitle = \"Sudoku\"\n");
        assert!(e.contains("`how_to_play.sudoko`") && e.contains("`text`"), "{e}");
        let e = load_err("en", "[words]\npuzzles = \"{count} puzzles\"\n");
        assert!(e.contains("`words.puzzles` uses {count}") && e.contains("{n}"), "{e}");
    }

    #[test]
    fn bad_toml_names_the_file_and_line() {
        let e = load_err("en", "[words]\ncontents = \"Contents\"\npage = Page\n");
        assert!(e.contains("strings.toml line 3"), "{e}");
        let e = load_err("en", "[words]\n\ncontents = 3\n");
        assert!(e.contains("strings.toml line 3") && e.contains("words.contents"), "{e}");
    }
}
