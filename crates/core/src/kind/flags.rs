//! The command-line flags a kind takes, described without a command-line parser: the kind says
//! what it needs (`Kind::flags`), the binary turns each `Flag` into an argument of its own
//! parser and hands the values given back as `FlagValues` (`Kind::apply_flags`).

use std::collections::BTreeMap;

/// One flag of `generate` and `replay`: `--<id>`, with what it takes. A flag id two kinds
/// share must take the same kind of value.
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    /// The flag's name after `--`, also the key of its value in `FlagValues`.
    pub id: &'static str,
    /// The placeholder of its value in the help (`N`, `RxC`); unused by switches.
    pub value_name: &'static str,
    /// One line of help; empty for a flag another kind already describes.
    pub help: &'static str,
    pub takes: Takes,
}

/// What a flag takes.
#[derive(Clone, Copy, Debug)]
pub enum Takes {
    /// Nothing: present or absent.
    Switch,
    /// A whole number from 0 to `max`.
    Number { max: u64 },
    /// Text that `check` accepts (its error is shown as the parser's); the value kept is the
    /// text `check` returns.
    Text { check: fn(&str) -> Result<String, String> },
    /// One of these names.
    Choice(&'static [&'static str]),
}

impl Flag {
    pub const fn switch(id: &'static str, help: &'static str) -> Flag {
        Flag { id, value_name: "", help, takes: Takes::Switch }
    }
    pub const fn number(id: &'static str, value_name: &'static str, max: u64, help: &'static str) -> Flag {
        Flag { id, value_name, help, takes: Takes::Number { max } }
    }
}

/// A flag's value as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Given {
    Switch,
    Number(u64),
    /// The text of a `Text` or `Choice` flag.
    Text(String),
}

/// The kind flags given on the command line, by id. A flag not given is absent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlagValues(BTreeMap<String, Given>);

impl FlagValues {
    pub fn insert(&mut self, id: &str, value: Given) {
        self.0.insert(id.to_string(), value);
    }
    /// Whether switch `id` was given.
    pub fn switch(&self, id: &str) -> bool {
        matches!(self.0.get(id), Some(Given::Switch))
    }
    /// Number flag `id`'s value, if given.
    pub fn number(&self, id: &str) -> Option<u64> {
        match self.0.get(id) {
            Some(Given::Number(n)) => Some(*n),
            _ => None,
        }
    }
    /// Text or choice flag `id`'s value, if given.
    pub fn text(&self, id: &str) -> Option<&str> {
        match self.0.get(id) {
            Some(Given::Text(s)) => Some(s),
            _ => None,
        }
    }
    /// The ids given.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }
}

/// A closed set of named values chosen by name (`--books csv`, a manifest's `"compress"`,
/// `--symmetry mirror`): the binary offers the names with their help.
pub trait Choice: Copy + PartialEq + Send + Sync + 'static {
    /// Every value with its name and one line of help, in the order shown.
    const CHOICES: &'static [(Self, &'static str, &'static str)];

    /// The value named `name`.
    fn from_name(name: &str) -> Option<Self> {
        Self::CHOICES.iter().find(|c| c.1 == name).map(|c| c.0)
    }
    /// The value's name.
    fn choice_name(self) -> &'static str {
        Self::CHOICES.iter().find(|c| c.0 == self).map_or("", |c| c.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_by_their_kind() {
        let mut v = FlagValues::default();
        v.insert("size", Given::Number(6));
        v.insert("killer", Given::Switch);
        v.insert("box", Given::Text("2x3".into()));
        assert_eq!(v.number("size"), Some(6));
        assert!(v.switch("killer") && !v.switch("jigsaw"));
        assert_eq!(v.text("box"), Some("2x3"));
        assert_eq!(v.number("box"), None);
        assert_eq!(v.text("rows"), None);
        assert_eq!(v.ids().collect::<Vec<_>>(), ["box", "killer", "size"]);
    }
}
