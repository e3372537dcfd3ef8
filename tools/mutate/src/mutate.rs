//! The mutants of a TOML file: for every leaf key, type changes, extremes, scaled numbers,
//! empties, deletion, string and list changes; for every table, an unknown key.
//! Deterministic, and without two mutants of the same text.

use std::collections::HashSet;

use toml_edit::{DocumentMut, TomlError, Value};

use crate::edit::{self, Edit};
use crate::keypath::KeyPath;
use crate::values;
use crate::walk::{self, Target, TargetKind};

/// The key added to every table by the unknown-key mutation.
pub const UNKNOWN_KEY: &str = "mutate_unknown_key";

/// Which kind of mutation made a mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// The n-th of [`values::TYPE_CHANGES`].
    Type(usize),
    /// The n-th of [`values::EXTREMES`].
    Extreme(usize),
    /// A number × 1000 or ÷ 1000.
    Scale,
    /// One of [`values::EMPTIES`].
    Empty,
    /// The key (or element, or table) removed.
    Delete,
    /// A string made from the original string.
    Text,
    /// A list emptied.
    List,
    /// A list with its first element repeated, or doubled.
    Grow,
    /// An unknown key added to a table.
    UnknownKey,
}

/// How many mutants to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every mutation of every key.
    Full,
    /// For every leaf key its deletion, one type change and one extreme (chosen in turn
    /// from the lists, so that the file's keys together try many of them), for every
    /// non-empty list its first element repeated, and for every table its unknown key.
    Quick,
}

/// One mutated document.
#[derive(Clone, Debug)]
pub struct Mutant {
    /// The kind of change.
    pub category: Category,
    /// What was done, for people: `network.nodes = 4294967296`, `delete phases`.
    pub label: String,
    /// The whole mutated file.
    pub text: String,
}

/// The mutants of the file's text, in document order, none equal to the original or to
/// another.
pub fn mutants(original: &str, mode: Mode) -> Result<Vec<Mutant>, TomlError> {
    let doc: DocumentMut = original.parse()?;
    let mut seen: HashSet<String> = HashSet::from([doc.to_string(), original.to_owned()]);
    let mut out = Vec::new();
    let mut leaf_ordinal = 0;
    for target in walk::targets(&doc) {
        let mut made = Vec::new();
        for (category, edit) in edits(&target, mode) {
            let mut mutated = doc.clone();
            // An edit that does not apply (none should) is no mutant.
            if edit::apply(&mut mutated, &target.path, &edit).is_err() {
                continue;
            }
            let text = mutated.to_string();
            if seen.insert(text.clone()) {
                made.push(Mutant {
                    category,
                    label: label(&target.path, &edit),
                    text,
                });
            }
        }
        if mode == Mode::Quick {
            made = quick_choice(made, &target, leaf_ordinal);
        }
        if target.is_leaf() {
            leaf_ordinal += 1;
        }
        out.extend(made);
    }
    Ok(out)
}

/// Every edit of the target, in a fixed order (the quick form deletes no table, so that a
/// table's deletion does not take the place of its last key's).
fn edits(target: &Target, mode: Mode) -> Vec<(Category, Edit)> {
    let mut out = Vec::new();
    let set = |text: &str| Edit::Set(values::parse(text));
    match &target.kind {
        TargetKind::Table => {
            out.push((
                Category::UnknownKey,
                Edit::AddKey(UNKNOWN_KEY.to_owned(), Value::from(1)),
            ));
            if !target.path.is_root() && mode == Mode::Full {
                out.push((Category::Delete, Edit::Delete));
            }
        }
        TargetKind::Scalar(_) | TargetKind::List(_) => {
            for (i, text) in values::TYPE_CHANGES.iter().enumerate() {
                out.push((Category::Type(i), set(text)));
            }
            for (i, text) in values::EXTREMES.iter().enumerate() {
                out.push((Category::Extreme(i), set(text)));
            }
            if let TargetKind::Scalar(value) = &target.kind {
                for scaled in values::scaled(value) {
                    out.push((Category::Scale, Edit::Set(scaled)));
                }
            }
            for text in values::EMPTIES {
                out.push((Category::Empty, set(text)));
            }
            out.push((Category::Delete, Edit::Delete));
            match &target.kind {
                TargetKind::Scalar(Value::String(s)) => {
                    for text in values::strings(s.value()) {
                        out.push((Category::Text, Edit::Set(text)));
                    }
                }
                TargetKind::List(len) => {
                    out.push((Category::List, set("[]")));
                    if *len > 0 {
                        out.push((Category::Grow, Edit::DuplicateFirst));
                        out.push((Category::Grow, Edit::Double));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The quick form's share of one target's mutants: see [`Mode::Quick`].
fn quick_choice(made: Vec<Mutant>, target: &Target, leaf_ordinal: usize) -> Vec<Mutant> {
    if !target.is_leaf() {
        return made
            .into_iter()
            .filter(|m| m.category == Category::UnknownKey)
            .collect();
    }
    let first_from = |n: usize, of: fn(Category) -> Option<usize>| {
        // The first one at or after the ordinal (in turn), among those not deduplicated away.
        made.iter()
            .filter_map(|m| of(m.category).map(|k| ((k + n - leaf_ordinal % n) % n, m)))
            .min_by_key(|(turn, _)| *turn)
            .map(|(_, m)| m.clone())
    };
    let type_change = first_from(values::TYPE_CHANGES.len(), |c| match c {
        Category::Type(k) => Some(k),
        _ => None,
    });
    let extreme = first_from(values::EXTREMES.len(), |c| match c {
        Category::Extreme(k) => Some(k),
        _ => None,
    });
    let deletion = made
        .iter()
        .find(|m| m.category == Category::Delete)
        .cloned();
    let grown = made.iter().find(|m| m.category == Category::Grow).cloned();
    [deletion, type_change, extreme, grown]
        .into_iter()
        .flatten()
        .collect()
}

/// `path = value` (long values shortened), `delete path`, …
fn label(path: &KeyPath, edit: &Edit) -> String {
    match edit {
        Edit::Set(value) => format!("{path} = {}", short(value)),
        Edit::Delete => format!("delete {path}"),
        Edit::AddKey(key, value) => format!("{path}: add unknown key {key} = {}", short(value)),
        Edit::DuplicateFirst => format!("{path}: first element repeated"),
        Edit::Double => format!("{path}: list doubled"),
    }
}

/// The value as TOML, at most 40 characters of it.
fn short(value: &Value) -> String {
    let mut value = value.clone();
    value.decor_mut().clear();
    let text = value.to_string();
    let chars = text.chars().count();
    if chars <= 40 {
        text
    } else {
        let head: String = text.chars().take(24).collect();
        format!("{head}… ({chars} characters)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"description = "d" # what it is
[network]
kind = "sci_ring"
nodes = 4
[network.mix]
address = 0.8
[terminals]
saturated = [0, 3]
[[faults.link_down]]
at_us = 5
"#;

    #[test]
    fn mutants_are_distinct_and_differ_from_the_original() {
        let all = mutants(DOC, Mode::Full).expect("parses");
        let texts: HashSet<&str> = all.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts.len(), all.len());
        assert!(!texts.contains(DOC));
        for m in &all {
            assert!(
                m.text.parse::<DocumentMut>().is_ok(),
                "{}: not TOML",
                m.label
            );
        }
    }

    #[test]
    fn every_leaf_is_mutated_deleted_and_every_table_gets_an_unknown_key() {
        let all = mutants(DOC, Mode::Full).expect("parses");
        let labels: Vec<&str> = all.iter().map(|m| m.label.as_str()).collect();
        for expected in [
            "network.nodes = 4294967296",
            "network.nodes = 4000",
            "network.mix.address = nan",
            "network.mix.address = 800.0",
            "delete network.mix.address",
            "delete terminals.saturated[1]",
            "delete faults.link_down[0].at_us",
            "faults.link_down[0].at_us = -9223372036854775808",
            "terminals.saturated: first element repeated",
            "terminals.saturated: list doubled",
            "network.kind = \"\"",
            "network.mix: add unknown key mutate_unknown_key = 1",
            "(root): add unknown key mutate_unknown_key = 1",
            "faults.link_down[0]: add unknown key mutate_unknown_key = 1",
        ] {
            assert!(labels.contains(&expected), "no {expected:?} in {labels:#?}");
        }
        let deleted = all
            .iter()
            .find(|m| m.label == "delete network.mix.address")
            .expect("made");
        assert!(
            deleted.text.contains("[network.mix]\n[terminals]"),
            "{}",
            deleted.text
        );
        let long = all
            .iter()
            .find(|m| m.label.starts_with("network.kind = \"aaaa"))
            .expect("made");
        assert!(long.text.contains(&"a".repeat(values::LONG_STRING_CHARS)));
    }

    #[test]
    fn the_same_input_gives_the_same_mutants() {
        let a: Vec<String> = mutants(DOC, Mode::Full)
            .expect("parses")
            .into_iter()
            .map(|m| m.text)
            .collect();
        let b: Vec<String> = mutants(DOC, Mode::Full)
            .expect("parses")
            .into_iter()
            .map(|m| m.text)
            .collect();
        assert_eq!(a, b);
    }

    #[test]
    fn quick_takes_three_per_leaf_one_per_list_and_one_per_table() {
        let quick = mutants(DOC, Mode::Quick).expect("parses");
        let leaves = 9; // description, kind, nodes, address, saturated, [0], [1], link_down, at_us
        let tables = 6; // root, network, network.mix, terminals, faults, faults.link_down[0]
        let lists = 2; // saturated, link_down: their first element repeated
        assert_eq!(
            quick.len(),
            3 * leaves + lists + tables,
            "{:#?}",
            quick.iter().map(|m| &m.label).collect::<Vec<_>>()
        );
        let deletions = quick
            .iter()
            .filter(|m| m.category == Category::Delete)
            .count();
        assert_eq!(deletions, leaves);
        let extremes: HashSet<_> = quick
            .iter()
            .filter(|m| matches!(m.category, Category::Extreme(_)))
            .map(|m| m.category)
            .collect();
        assert!(
            extremes.len() > 5,
            "the extremes are taken in turn: {extremes:?}"
        );
    }

    #[test]
    fn a_file_that_is_not_toml_is_an_error() {
        assert!(mutants("a = ", Mode::Full).is_err());
    }
}
