//! `--set key=value` overrides: parsing, checking, and applying them to a parsed file.
//!
//! An override's value is inserted into the file's span-annotated table with spans
//! placed past the end of the file text, in a region of its own, so that an error
//! found while deserializing can be traced back to the `--set` that caused it.

use super::error::ConfigError;
use super::source::FileKind;

use std::borrow::Cow;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// One parsed `--set`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Override {
    /// The argument as given, trimmed, for messages (`--set {text}`).
    pub text: String,
    /// The file kind it applies to.
    pub kind: FileKind,
    /// The dotted key without its `topology.`/`traffic.` prefix.
    pub key: String,
    /// `key` split at the dots.
    pub path: Vec<String>,
    /// The raw value, trimmed.
    pub value: String,
}

/// Checks every `--set` argument (`key=value`), so that a malformed one is rejected
/// before anything runs.
pub fn validate_sets(sets: &[String]) -> Result<(), ConfigError> {
    parse_sets(sets).map(|_| ())
}

/// Parses every `--set` argument.
pub(crate) fn parse_sets(sets: &[String]) -> Result<Vec<Override>, ConfigError> {
    sets.iter().map(|s| parse_set(s)).collect()
}

/// A sentence listing the valid `--set` sections, for messages.
fn valid_sections() -> String {
    let list = |kind: FileKind| kind.sections().join(", ");
    format!(
        "topology sections are {}; traffic sections are {}; description needs a prefix \
         (topology.description or traffic.description)",
        list(FileKind::Topology),
        list(FileKind::Traffic)
    )
}

/// Parses one `--set` argument.
pub(crate) fn parse_set(set: &str) -> Result<Override, ConfigError> {
    let text = set.trim();
    let fail = |why: String| {
        Err(ConfigError::at(
            super::Location::of_sets(vec![text.to_string()], None),
            why,
        ))
    };
    let Some((key, value)) = text.split_once('=') else {
        return fail(format!(
            "give KEY=VALUE, e.g. network.dimensions=6; {}",
            valid_sections()
        ));
    };
    let key = key.trim();
    let segments: Vec<&str> = key.split('.').collect();
    if let Some(bad) = segments.iter().find(|s| !is_bare_key(s)) {
        let why = if bad.is_empty() {
            "an empty part".to_string()
        } else {
            format!("`{bad}`")
        };
        return fail(format!(
            "`{key}` is not a dotted key: it has {why}, but each part must be letters, digits, `_` or `-`"
        ));
    }
    let (kind, rest) = match segments.as_slice() {
        [prefix, rest @ ..] if *prefix == "topology" || *prefix == "traffic" => {
            let kind = if *prefix == "topology" {
                FileKind::Topology
            } else {
                FileKind::Traffic
            };
            match rest.first() {
                None => {
                    return fail(format!(
                        "`{prefix}` needs a key after it, e.g. {prefix}.description"
                    ));
                }
                Some(s) if *s == "description" || kind.sections().contains(s) => (kind, rest),
                Some(s) => {
                    return fail(format!(
                        "unknown {kind} section `{s}`; {kind} sections are {}, and description",
                        kind.sections().join(", ")
                    ));
                }
            }
        }
        [first, ..] if *first == "description" => {
            return fail(
                "`description` is in both files: write topology.description or traffic.description"
                    .to_string(),
            );
        }
        [first, ..] => match FileKind::ALL
            .into_iter()
            .find(|k| k.sections().contains(first))
        {
            Some(kind) => (kind, &segments[..]),
            None => return fail(format!("unknown section `{first}`; {}", valid_sections())),
        },
        [] => return fail(format!("empty key; {}", valid_sections())),
    };
    Ok(Override {
        text: text.to_string(),
        kind,
        key: rest.join("."),
        path: rest.iter().map(|s| s.to_string()).collect(),
        value: value.trim().to_string(),
    })
}

/// A TOML bare key: one or more ASCII letters, digits, `_` or `-`.
fn is_bare_key(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The value of an override: its text parsed as a TOML value, or if that fails, the
/// text itself as a string. Every span is moved into `region`.
fn override_value<'a>(raw: &'a str, region: &Range<usize>) -> Spanned<DeValue<'a>> {
    match DeValue::parse(raw) {
        Ok(v) => shift(v, region),
        Err(_) => Spanned::new(region.clone(), DeValue::String(Cow::Borrowed(raw))),
    }
}

/// `value` with every span moved by `region.start` (and kept inside the region).
fn shift<'a>(value: Spanned<DeValue<'a>>, region: &Range<usize>) -> Spanned<DeValue<'a>> {
    let at = |s: Range<usize>| {
        let start = (region.start + s.start).min(region.end.saturating_sub(1));
        start..(region.start + s.end).clamp(start, region.end)
    };
    let span = at(value.span());
    let inner = match value.into_inner() {
        DeValue::Array(a) => DeValue::Array(a.into_iter().map(|v| shift(v, region)).collect()),
        DeValue::Table(t) => DeValue::Table(
            t.into_iter()
                .map(|(k, v)| (Spanned::new(at(k.span()), k.into_inner()), shift(v, region)))
                .collect(),
        ),
        other => other,
    };
    Spanned::new(span, inner)
}

/// Sets `ov`'s key in `root` to its value, creating intermediate tables. Every span
/// the override introduces lies in `region`, which must not overlap the file text.
pub(crate) fn apply<'a>(
    root: &mut DeTable<'a>,
    ov: &'a Override,
    region: Range<usize>,
) -> Result<(), ConfigError> {
    let Some((last, parents)) = ov.path.split_last() else {
        return Err(ConfigError::new(format!("--set {}: empty key", ov.text)));
    };
    let mut table = root;
    for (depth, segment) in parents.iter().enumerate() {
        let entry = table
            .entry(Spanned::new(
                region.clone(),
                Cow::Borrowed(segment.as_str()),
            ))
            .or_insert_with(|| Spanned::new(region.clone(), DeValue::Table(DeTable::new())));
        table = match entry.get_mut() {
            DeValue::Table(t) => t,
            other => {
                return Err(ConfigError::new(format!(
                    "--set {}: `{}` is not a table; its value has type {}",
                    ov.text,
                    ov.path[..=depth].join("."),
                    other.type_str()
                )));
            }
        };
    }
    let value = override_value(&ov.value, &region);
    table.insert(Spanned::new(region, Cow::Borrowed(last.as_str())), value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> Result<Override, String> {
        parse_set(s).map_err(|e| e.to_string())
    }

    #[test]
    fn keys_resolve_by_section_or_prefix() {
        let o = set("network.dimensions=6").expect("valid");
        assert_eq!(
            (o.kind, o.key.as_str(), o.value.as_str()),
            (FileKind::Topology, "network.dimensions", "6")
        );
        let o = set(" traffic.pattern.kind = uniform ").expect("valid");
        assert_eq!(
            (o.kind, o.key.as_str(), o.value.as_str()),
            (FileKind::Traffic, "pattern.kind", "uniform")
        );
        assert_eq!(o.text, "traffic.pattern.kind = uniform");
        let o = set("topology.description=a = b").expect("valid");
        assert_eq!(
            (o.kind, o.key.as_str(), o.value.as_str()),
            (FileKind::Topology, "description", "a = b")
        );
        let o = set("terminals.senders=[0,3]").expect("valid");
        assert_eq!(o.path, ["terminals", "senders"]);
        let o = set("network={kind=\"ring\", switches=4}").expect("valid");
        assert_eq!(o.path, ["network"]);
    }

    #[test]
    fn malformed_sets_are_rejected_with_the_valid_sections() {
        for bad in [
            "network.dimensions",
            "foo.bar=1",
            "=1",
            "network..x=1",
            "net work=1",
        ] {
            let e = validate_sets(&[bad.to_string()])
                .expect_err(bad)
                .to_string();
            assert!(e.starts_with(&format!("--set {bad}: ")), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let e = set("network.dimensions").expect_err("no =");
        assert!(
            e.contains("KEY=VALUE")
                && e.contains("network, link")
                && e.contains("pattern, injection"),
            "{e}"
        );
        let e = set("foo.bar=1").expect_err("unknown");
        assert!(
            e.contains("unknown section `foo`") && e.contains("c104") && e.contains("terminals"),
            "{e}"
        );
        let e = set("topology.pattern.kind=x").expect_err("wrong kind");
        assert!(e.contains("unknown topology section `pattern`"), "{e}");
        let e = set("traffic=1").expect_err("bare prefix");
        assert!(e.contains("needs a key"), "{e}");
        assert!(
            validate_sets(&["network.dimensions=6".into(), "pattern.kind=uniform".into()]).is_ok()
        );
        assert!(validate_sets(&[]).is_ok());
    }

    #[test]
    fn description_needs_a_prefix() {
        let e = set("description=hello").expect_err("ambiguous");
        assert!(
            e.contains("topology.description or traffic.description"),
            "{e}"
        );
        assert!(set("traffic.description=hello").is_ok());
    }

    fn value_of(raw: &str) -> String {
        let v = override_value(raw, &(100..100 + raw.len().max(1)));
        assert!(v.span().start >= 100, "span {:?} outside region", v.span());
        match v.get_ref() {
            DeValue::String(s) => format!("string {s}"),
            other => other.type_str().to_string(),
        }
    }

    #[test]
    fn values_are_toml_or_else_bare_strings() {
        assert_eq!(value_of("6"), "integer");
        assert_eq!(value_of("0.5"), "float");
        assert_eq!(value_of("true"), "boolean");
        assert_eq!(value_of("[0,3]"), "array");
        assert_eq!(value_of("{a = 1}"), "table");
        assert_eq!(value_of("\"quoted\""), "string quoted");
        assert_eq!(value_of("uniform"), "string uniform");
        assert_eq!(value_of("packet"), "string packet");
        assert_eq!(value_of(""), "string ");
    }

    #[test]
    fn apply_creates_tables_and_keeps_spans_in_the_region() {
        let mut root = DeTable::parse("[link]\nwire_delay_ns = 1\n")
            .expect("toml")
            .into_inner();
        let a = set("message.bytes=64").expect("valid");
        let b = set("link.wire_delay_ns=7").expect("valid");
        let c = set("link.wire_delay_ns.x=1").expect("valid");
        apply(&mut root, &a, 50..52).expect("applies");
        apply(&mut root, &b, 53..54).expect("applies");
        let bytes = &root["message"].get_ref().as_table().expect("table")["bytes"];
        assert_eq!(bytes.span(), 50..52);
        let delay = &root["link"].get_ref().as_table().expect("table")["wire_delay_ns"];
        assert_eq!(delay.span(), 53..54);
        let e = apply(&mut root, &c, 55..56)
            .expect_err("not a table")
            .to_string();
        assert!(
            e.contains("`link.wire_delay_ns` is not a table; its value has type integer"),
            "{e}"
        );
    }
}
