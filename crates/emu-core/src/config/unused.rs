//! Finding keys that deserialized without error but were ignored.
//!
//! serde's `deny_unknown_fields` does not reach the unit variants of an internally
//! tagged enum, so `[pattern] kind = "uniform"` with `rotate = 2` would load with
//! `rotate` silently dropped. Serializing the result back and comparing keys finds
//! every such key, whatever the schema.

use serde::Serialize;
use std::ops::Range;
use toml::de::{DeTable, DeValue};

/// A key of the input that the deserialized value does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unused {
    /// The key's span in the input.
    pub span: Range<usize>,
    /// The message: "unknown key `rotate` here: kind = \"uniform\" takes no key but
    /// `kind`".
    pub message: String,
}

/// Keys that are left out of the serialized configuration when at their default, so
/// that the report's echo of a file without them stays as it was (the link faults of
/// [`crate::parts::dslink::config::FaultConfig`]). Their table denies unknown fields,
/// so they are never dropped silently; absent from the output, they are not unused.
const OMITTED_WHEN_DEFAULT: &[(&str, &str)] =
    &[("faults", "link_down"), ("faults", "token_error_rate")];

/// The first (in text order) key of `input` that `config` does not serialize, if any.
/// If `config` cannot be serialized, nothing is reported.
pub(crate) fn first_unused<T: Serialize>(input: &DeTable<'_>, config: &T) -> Option<Unused> {
    let output = toml::Table::try_from(config).ok()?;
    let mut found = Vec::new();
    collect(input, &output, &mut found, "");
    found.into_iter().min_by_key(|u| u.span.start)
}

fn collect(input: &DeTable<'_>, output: &toml::Table, found: &mut Vec<Unused>, table: &str) {
    for (key, value) in input.iter() {
        match (value.get_ref(), output.get(key.get_ref().as_ref())) {
            (DeValue::Table(inner), Some(toml::Value::Table(out))) => {
                collect(inner, out, found, key.get_ref())
            }
            (_, None)
                if OMITTED_WHEN_DEFAULT
                    .iter()
                    .any(|&(t, k)| t == table && k == key.get_ref()) => {}
            // serde reads a list as a table's fields in order: `network = ["hypercube", 6]`
            // would pass as kind and dimensions.
            (DeValue::Array(_), Some(toml::Value::Table(_))) => found.push(Unused {
                span: key.span(),
                message: format!(
                    "`{0}` is a table, not a list: write [{0}] with one key per line, or {0} = {{ key = value, … }}",
                    key.get_ref()
                ),
            }),
            (_, Some(_)) => {}
            // A list left out of the output when empty (`terminals.saturated = []`): not
            // an unknown key but an empty list.
            (DeValue::Array(a), None) if a.is_empty() => found.push(Unused {
                span: key.span(),
                message: format!(
                    "`{}` is an empty list: give at least one entry, or leave the key out",
                    key.get_ref()
                ),
            }),
            (_, None) => {
                let kind = input.get("kind").and_then(|k| k.get_ref().as_str());
                let why = kind
                    .map(|k| format!(": kind = \"{k}\" takes no key but `kind`"))
                    .unwrap_or_default();
                found.push(Unused {
                    span: key.span(),
                    message: format!("unknown key `{}` here{why}", key.get_ref()),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::TrafficConfig;

    #[test]
    fn keys_ignored_by_unit_variants_are_found() {
        let text = "[pattern]\nkind = \"uniform\"\nrotate = 2\n[injection]\nkind = \"continuous\"\nload = 1\n";
        let root = DeTable::parse(text).expect("toml").into_inner();
        let config: TrafficConfig = toml::from_str(text).expect("serde accepts it");
        let u = first_unused(&root, &config).expect("rotate is unused");
        assert_eq!(&text[u.span.clone()], "rotate");
        assert_eq!(
            u.message,
            "unknown key `rotate` here: kind = \"uniform\" takes no key but `kind`"
        );
        let text =
            "[pattern]\nkind = \"shuffle\"\nrotate = 2\n[injection]\nkind = \"continuous\"\n";
        let root = DeTable::parse(text).expect("toml").into_inner();
        let config: TrafficConfig = toml::from_str(text).expect("valid");
        assert_eq!(first_unused(&root, &config), None);
    }
}
