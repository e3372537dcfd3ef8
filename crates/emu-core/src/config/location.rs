//! Where a configuration value came from, as data and as messages write it.

use std::fmt;

/// Where a value came from: a place in a file (file, line, column, key), a key's
/// default in a file, or the `--set` arguments that gave it. Its `Display` is the
/// text error messages begin with (`hypercube8.toml:12:1: network.dimensions`,
/// `--set network.dimensions=0`, `hypercube8.toml: network.dimensions (default)`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Location {
    /// The file, as messages name it (`hypercube8.toml`, `topologies/x.toml`, a path
    /// as given); `None` when only `--set` arguments are responsible.
    pub file: Option<String>,
    /// The 1-based line in the file, when the value is written there.
    pub line: Option<usize>,
    /// The 1-based column (in characters) in the file, when the value is written there.
    pub column: Option<usize>,
    /// The dotted key (`network.dimensions`, `faults.link_down[0].link`), when known.
    pub key: Option<String>,
    /// The `--set KEY=VALUE` arguments responsible, as given (without `--set`).
    pub sets: Vec<String>,
    /// How messages write it.
    text: String,
}

impl Location {
    /// A location with these fields, written `text` in messages.
    pub(crate) fn new(
        file: Option<&str>,
        line_column: Option<(usize, usize)>,
        key: Option<&str>,
        sets: Vec<String>,
        text: String,
    ) -> Location {
        Location {
            file: file.map(str::to_string),
            line: line_column.map(|(l, _)| l),
            column: line_column.map(|(_, c)| c),
            key: key.map(str::to_string),
            sets,
            text,
        }
    }

    /// A place in file `file`: `FILE:LINE:COL: KEY`, `FILE:LINE:COL`, `FILE: KEY` or
    /// `FILE`, as much as is known.
    pub(crate) fn in_file(
        file: &str,
        line_column: Option<(usize, usize)>,
        key: Option<&str>,
    ) -> Location {
        let mut text = file.to_string();
        if let Some((line, col)) = line_column {
            text += &format!(":{line}:{col}");
        }
        if let Some(key) = key {
            text += &format!(": {key}");
        }
        Location::new(Some(file), line_column, key, Vec::new(), text)
    }

    /// The `--set` arguments `sets` (as given, without `--set`), for `key` if known:
    /// `--set A --set B`.
    pub(crate) fn of_sets(sets: Vec<String>, key: Option<&str>) -> Location {
        let text = sets
            .iter()
            .map(|s| format!("--set {s}"))
            .collect::<Vec<_>>()
            .join(" ");
        Location::new(None, None, key, sets, text)
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_location_is_written_as_messages_begin() {
        let l = Location::in_file("t.toml", Some((3, 14)), Some("network.dimensions"));
        assert_eq!(l.to_string(), "t.toml:3:14: network.dimensions");
        assert_eq!((l.line, l.column), (Some(3), Some(14)));
        assert_eq!(
            Location::in_file("t.toml", None, None).to_string(),
            "t.toml"
        );
        let s = Location::of_sets(vec!["a.b=1".into(), "a.c=2".into()], Some("a.b"));
        assert_eq!(s.to_string(), "--set a.b=1 --set a.c=2");
        assert_eq!(s.file, None);
        assert_eq!(s.key.as_deref(), Some("a.b"));
    }
}
