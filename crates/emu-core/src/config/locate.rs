//! Saying where a configuration value came from, for error messages.

use super::error::line_col;
use super::graphml;
use super::keypath::key_span;
use super::load::Loaded;
use super::location::Location;
use std::ops::Range;
use toml::de::DeTable;

impl<T> Loaded<T> {
    /// Where a dotted key's value came from, for error messages:
    /// `hypercube8.toml:12:1: network.dimensions` if it is in the file,
    /// `--set network.dimensions=0` if it came from an override (the last one that set
    /// the key or a table containing it),
    /// `hypercube8.toml: network.dimensions (default)` otherwise; a table that an
    /// override changed in part (`network.mix` after `--set network.mix.address=0.5`)
    /// names that override too: `sci-ring4.toml:11:1: network.mix, with --set
    /// network.mix.address=0.5`.
    /// The key may carry this file's `topology.`/`traffic.` prefix.
    pub fn locate(&self, key: &str) -> String {
        self.location(key).to_string()
    }

    /// [`Loaded::locate`] as data: the file, line, column and key, or the `--set`
    /// arguments, that gave the value of `key`.
    pub fn location(&self, key: &str) -> Location {
        let prefix = self.file.kind.prefix();
        let key = key
            .strip_prefix(prefix)
            .and_then(|k| k.strip_prefix('.'))
            .unwrap_or(key);
        let set_here = |k: &str| {
            key == k
                || key
                    .strip_prefix(k)
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
        };
        if let Some((k, v)) = self.overrides.iter().rev().find(|(k, _)| set_here(k)) {
            let shown = if k == "description" || k.starts_with("description.") {
                format!("{prefix}.{k}")
            } else {
                k.clone()
            };
            return Location::of_sets(vec![format!("{shown}={v}")], Some(key));
        }
        let (graphml, span) = self.written(key);
        let inside: Vec<String> = self
            .overrides
            .iter()
            .filter(|(k, _)| {
                k.strip_prefix(key)
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
            })
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let name = &self.file.name;
        let position = span.map(|span| match &graphml {
            Some(t) => t.place(key),
            None => line_col(&self.file.text, span.start),
        });
        let mut text = match position {
            Some((line, col)) => format!("{name}:{line}:{col}: {key}"),
            None if !inside.is_empty() => format!("{name}: {key}"),
            None => format!("{name}: {key} (default)"),
        };
        if !inside.is_empty() {
            let sets: Vec<String> = inside.iter().map(|s| format!("--set {s}")).collect();
            text = format!("{text}, with {}", sets.join(" and "));
        }
        Location::new(Some(name), position, Some(key), inside, text)
    }

    /// Whether the file itself (not a `--set`) gives the dotted key `key`, from the
    /// spans of the parsed document (a GraphML file: of the netlist it translates into).
    pub fn written_in_file(&self, key: &str) -> bool {
        self.written(key).1.is_some()
    }

    /// A GraphML file's translation (`None` for a TOML file), and where in the TOML
    /// text (the file's, or the translation's) `key` is written.
    fn written(&self, key: &str) -> (Option<graphml::Translated>, Option<Range<usize>>) {
        let path: Vec<String> = key.split('.').map(String::from).collect();
        // A GraphML file gives the keys of the netlist it translates into, each at
        // the element that gives it.
        let graphml = graphml::is_graphml(&self.file.text)
            .then(|| graphml::translate(&self.file.name, &self.file.text).ok())
            .flatten();
        let text = graphml.as_ref().map_or(&self.file.text, |t| &t.toml);
        let span = DeTable::parse(text)
            .ok()
            .and_then(|root| key_span(root.get_ref(), &path));
        (graphml, span)
    }
}
