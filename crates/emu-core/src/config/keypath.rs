//! Mapping between dotted key paths and text spans in a parsed TOML table.
//!
//! toml reports an error with a byte span; these functions find the key that span
//! belongs to. When serde has buffered a table (internally tagged enums such as
//! `[network]`), toml can only point at the whole table, so the error message is used
//! to find the field inside it.

use serde::de::Unexpected;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// A place in a file: a dotted key path and the span to report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Site {
    /// Key path from the root; empty for the document itself.
    pub path: Vec<String>,
    /// The span to report, or `None` for the document as a whole.
    pub span: Option<Range<usize>>,
}

impl Site {
    /// The dotted key, e.g. `network.dimensions`.
    pub fn key(&self) -> String {
        self.path.join(".")
    }
}

/// The site of a deserialization error with this span and message.
pub(crate) fn error_site(root: &DeTable<'_>, span: Option<Range<usize>>, message: &str) -> Site {
    let mut site = match span {
        // toml gives an empty span only for the root table.
        Some(s) if !s.is_empty() => innermost(root, &s),
        _ => Site {
            path: Vec::new(),
            span: None,
        },
    };
    refine(root, &mut site, message);
    site
}

/// The innermost key or value whose span contains `target`.
fn innermost(root: &DeTable<'_>, target: &Range<usize>) -> Site {
    let mut best: Option<(usize, Site)> = None;
    let mut path = Vec::new();
    visit(root, &mut path, &mut |path, span| {
        if span.start <= target.start && target.end <= span.end {
            let better = match &best {
                None => true,
                Some((len, site)) => {
                    span.len() < *len || (span.len() == *len && path.len() > site.path.len())
                }
            };
            if better {
                best = Some((
                    span.len(),
                    Site {
                        path: path.to_vec(),
                        span: Some(span),
                    },
                ));
            }
        }
    });
    best.map_or(
        Site {
            path: Vec::new(),
            span: Some(target.clone()),
        },
        |(_, site)| site,
    )
}

/// Calls `f(path, span)` for the key span and value span of every entry in the tree.
fn visit(table: &DeTable<'_>, path: &mut Vec<String>, f: &mut dyn FnMut(&[String], Range<usize>)) {
    for (key, value) in table.iter() {
        path.push(key.get_ref().to_string());
        f(path, key.span());
        f(path, value.span());
        match value.get_ref() {
            DeValue::Table(t) => visit(t, path, f),
            DeValue::Array(items) => {
                for item in items.iter() {
                    if let DeValue::Table(t) = item.get_ref() {
                        visit(t, path, f);
                    }
                }
            }
            _ => {}
        }
        path.pop();
    }
}

/// A path segment `key` or `key[i]` (the i-th entry of an array of tables, as the
/// build names e.g. `faults.link_down[2].at_us`): the key and the index, if any.
fn segment(s: &str) -> (&str, Option<usize>) {
    match s.strip_suffix(']').and_then(|r| r.rsplit_once('[')) {
        Some((key, i)) => match i.parse() {
            Ok(i) => (key, Some(i)),
            Err(_) => (s, None),
        },
        None => (s, None),
    }
}

/// The value of `key` (or `key[i]`) in `table`.
fn child<'t, 'i>(table: &'t DeTable<'i>, seg: &str) -> Option<&'t Spanned<DeValue<'i>>> {
    let (key, index) = segment(seg);
    let value = table.get(key)?;
    match index {
        None => Some(value),
        Some(i) => match value.get_ref() {
            DeValue::Array(items) => items.get(i),
            _ => None,
        },
    }
}

/// The node at `path`, if there is one.
pub fn node<'t, 'i>(root: &'t DeTable<'i>, path: &[String]) -> Option<&'t Spanned<DeValue<'i>>> {
    let (first, rest) = path.split_first()?;
    let mut value = child(root, first)?;
    for seg in rest {
        value = child(value.get_ref().as_table()?, seg)?;
    }
    Some(value)
}

/// The span of the last key of `path`, if the tree has that key (for `key[i]`, the
/// span of the i-th entry).
pub(crate) fn key_span(root: &DeTable<'_>, path: &[String]) -> Option<Range<usize>> {
    let (last, parents) = path.split_last()?;
    let table = if parents.is_empty() {
        root
    } else {
        node(root, parents)?.get_ref().as_table()?
    };
    match segment(last) {
        (key, None) => table.get_key_value(key).map(|(k, _)| k.span()),
        (_, Some(_)) => child(table, last).map(|v| v.span()),
    }
}

/// The text between the first pair of backquotes after `prefix` at the start of `message`.
fn quoted_after<'m>(message: &'m str, prefix: &str) -> Option<&'m str> {
    let rest = message.strip_prefix(prefix)?.strip_prefix('`')?;
    rest.split('`').next()
}

/// Moves `site` from a table to the field the message is about, when the message says.
fn refine(root: &DeTable<'_>, site: &mut Site, message: &str) {
    if let Some(field) = quoted_after(message, "missing field ") {
        site.path.push(field.to_string());
        return;
    }
    let here = node(root, &site.path);
    let table = match here {
        _ if site.path.is_empty() => Some(root),
        Some(v) => v.get_ref().as_table(),
        None => None,
    };
    let Some(table) = table else { return };
    if let Some(field) = quoted_after(message, "unknown field ") {
        if site.path.last().is_some_and(|last| last == field) {
            return;
        }
        if let Some((k, _)) = table.get_key_value(field) {
            site.path.push(field.to_string());
            site.span = Some(k.span());
        }
        return;
    }
    // "invalid length 5, expected 4 elements in sequence" pointing at a whole table
    // (an internally tagged section loses the spans inside it): the first list of that
    // length, of plain values, nested in a list in one of its fields, such as a netlist
    // link of five numbers.
    if let Some(len) = message
        .strip_prefix("invalid length ")
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.parse::<usize>().ok())
    {
        let found = table
            .iter()
            .filter_map(|(k, v)| Some((k, nested_list(v, len, false)?)))
            .min_by_key(|(_, span)| span.start);
        if let Some((k, span)) = found {
            site.path.push(k.get_ref().to_string());
            site.span = Some(span);
        }
        return;
    }
    // "invalid type: string \"eight\", expected u32" pointing at a whole table: find
    // the one field whose value serde would have described that way.
    let described = ["invalid type: ", "invalid value: "]
        .iter()
        .find_map(|p| message.strip_prefix(p))
        .and_then(|rest| rest.split(", expected").next());
    let Some(described) = described else { return };
    if here.map(|v| v.span()) != site.span {
        return; // the error is about this value itself, not a field inside it
    }
    let mut matches = table
        .iter()
        .filter(|(_, v)| unexpected(v.get_ref()).as_deref() == Some(described));
    if let (Some((k, v)), None) = (matches.next(), matches.next()) {
        site.path.push(k.get_ref().to_string());
        site.span = Some(v.span());
    }
}

/// The span of the first list of `len` plain values (no lists in it) inside `value`,
/// itself an element of a list (`nested`) or deeper.
fn nested_list(value: &Spanned<DeValue<'_>>, len: usize, nested: bool) -> Option<Range<usize>> {
    let DeValue::Array(items) = value.get_ref() else {
        return None;
    };
    let plain = items
        .iter()
        .all(|i| !matches!(i.get_ref(), DeValue::Array(_)));
    if nested && plain && items.len() == len {
        return Some(value.span());
    }
    items.iter().find_map(|i| nested_list(i, len, true))
}

/// How serde describes this value in an "invalid type" message.
fn unexpected(value: &DeValue<'_>) -> Option<String> {
    let text = match value {
        DeValue::String(s) => Unexpected::Str(s).to_string(),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) => Unexpected::Signed(n).to_string(),
            Err(_) => {
                Unexpected::Unsigned(u64::from_str_radix(i.as_str(), i.radix()).ok()?).to_string()
            }
        },
        DeValue::Float(f) => Unexpected::Float(f.as_str().parse().ok()?).to_string(),
        DeValue::Boolean(b) => Unexpected::Bool(*b).to_string(),
        DeValue::Array(_) => Unexpected::Seq.to_string(),
        DeValue::Table(_) => Unexpected::Map.to_string(),
        DeValue::Datetime(_) => return None,
    };
    Some(text)
}

/// The dotted key being written at byte `offset` of a file that failed to parse, found
/// from the text: the nearest `[table]` header above plus the key on the offending line.
/// `None` when neither can be made out.
pub(crate) fn syntax_key(text: &str, offset: usize) -> Option<String> {
    let before = text.get(..offset.min(text.len()))?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    if let Some(header) = header_key(line) {
        return Some(header);
    }
    let header = before[..line_start].lines().rev().find_map(header_key);
    let own = line.split_once('=').map_or_else(
        || line.split_whitespace().next().unwrap_or(""),
        |(key, _)| key,
    );
    let own = dotted(own);
    match (header, own) {
        (Some(h), Some(k)) => Some(format!("{h}.{k}")),
        (h, k) => h.or(k),
    }
}

/// The key of a `[table]` or `[[array]]` header line.
fn header_key(line: &str) -> Option<String> {
    let line = line.trim_start();
    let inner = line.strip_prefix("[[").or_else(|| line.strip_prefix('['))?;
    dotted(inner.split(']').next()?)
}

/// `text` as a dotted key of bare parts (whitespace around the dots allowed).
fn dotted(text: &str) -> Option<String> {
    let parts: Vec<&str> = text.split('.').map(str::trim).collect();
    let bare = |p: &&str| {
        !p.is_empty()
            && p.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    };
    parts.iter().all(bare).then(|| parts.join("."))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(text: &str, span: Range<usize>, message: &str) -> (String, Option<Range<usize>>) {
        let root = DeTable::parse(text).expect("toml").into_inner();
        let s = error_site(&root, Some(span), message);
        (s.key(), s.span)
    }

    #[test]
    fn span_maps_to_innermost_key() {
        let text = "[link]\nbuffer_tokens = \"pkt\"\n";
        assert_eq!(site(text, 23..28, "bad").0, "link.buffer_tokens");
        assert_eq!(
            site(text, 7..20, "unknown field `buffer_tokens`").0,
            "link.buffer_tokens"
        );
        assert_eq!(site(text, 0..6, "bad").0, "link");
    }

    #[test]
    fn table_errors_are_refined_by_message() {
        let text = "[network]\nkind = \"hypercube\"\ndimensions = \"eight\"\n";
        let (key, span) = site(text, 0..9, "invalid type: string \"eight\", expected u32");
        assert_eq!(key, "network.dimensions");
        assert_eq!(span, Some(42..49));
        let (key, span) = site(text, 0..9, "unknown field `kind`, expected `x`");
        assert_eq!((key.as_str(), span), ("network.kind", Some(10..14)));
        assert_eq!(
            site(text, 0..9, "missing field `switches`").0,
            "network.switches"
        );
        // Two fields described the same way: do not guess.
        let text = "[i]\na = 1\nb = 1\n";
        assert_eq!(
            site(text, 0..3, "invalid value: integer `1`, expected x").0,
            "i"
        );
    }

    #[test]
    fn root_errors_have_no_span() {
        let root = DeTable::parse("[injection]\nkind = 1\n")
            .expect("toml")
            .into_inner();
        let s = error_site(&root, Some(0..0), "missing field `pattern`");
        assert_eq!((s.key(), s.span), ("pattern".to_string(), None));
    }

    #[test]
    fn key_spans_and_nodes() {
        let text = "a.b = 1\n[c]\nd = { e = 2 }\n";
        let root = DeTable::parse(text).expect("toml").into_inner();
        let path = |s: &str| s.split('.').map(String::from).collect::<Vec<_>>();
        assert_eq!(key_span(&root, &path("a.b")), Some(2..3));
        assert_eq!(key_span(&root, &path("c.d.e")).map(|s| &text[s]), Some("e"));
        assert_eq!(key_span(&root, &path("c.x")), None);
        assert_eq!(key_span(&root, &path("a.b.z")), None);
        assert!(node(&root, &path("c.d")).is_some());
    }

    #[test]
    fn syntax_keys_come_from_the_text() {
        let text = "[network]\nkind = \"hypercube\"\ndimensions = = 8\n[link]\n";
        let at = text.find("= 8").expect("present");
        assert_eq!(syntax_key(text, at).as_deref(), Some("network.dimensions"));
        assert_eq!(syntax_key(text, text.len()).as_deref(), Some("link"));
        assert_eq!(syntax_key("x y z\n", 2).as_deref(), Some("x"));
        assert_eq!(syntax_key("[[a . b]]\n, = 1\n", 12).as_deref(), Some("a.b"));
        assert_eq!(syntax_key("# only\n", 3), None);
    }
}
