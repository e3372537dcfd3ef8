//! What a `kind` (or any other choice of names) accepts, for an error that says only
//! that a name was expected: serde reports a number or list where a variant name
//! belongs as "expected variant identifier", without the names. Deserializing the
//! same document again with a name that is surely wrong in that place makes serde
//! list them ("unknown variant `…`, expected one of `uniform`, `bitrev`, …").

use super::keypath::error_site;
use super::overrides::{Override, apply};
use super::source::FileKind;
use serde::de::DeserializeOwned;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, Deserializer};

/// serde's wording when something other than a name stands where a name belongs.
const NOT_A_NAME: &str = "expected variant identifier";

/// serde's wording for the same mistake at a choice written as a name or a one-key
/// table (`routing`): a number or list ("expected string or map"), a table of other
/// than one key ("map with a single key"), a value under the name ("expected unit").
const NOT_A_NAME_OR_TABLE: [&str; 3] = [
    "expected string or map",
    "invalid value: map, expected map with a single key",
    "expected unit",
];

/// `message` with a one-key-table choice's wording made [`NOT_A_NAME`]'s, and whether
/// the error is about the value under the name (so about the table holding it).
fn as_not_a_name(message: &str) -> (String, bool) {
    if message.ends_with(NOT_A_NAME_OR_TABLE[1]) {
        let at = message.len() - NOT_A_NAME_OR_TABLE[1].len();
        return (
            format!("{}invalid type: map, {NOT_A_NAME}", &message[..at]),
            false,
        );
    }
    if let Some(at) = message.rfind(NOT_A_NAME_OR_TABLE[2]) {
        let start = message[..at].rfind("invalid type: ").unwrap_or(at);
        return (
            format!("{}invalid type: map, {NOT_A_NAME}", &message[..start]),
            true,
        );
    }
    (message.replace(NOT_A_NAME_OR_TABLE[0], NOT_A_NAME), false)
}

/// `message` with serde's "expected variant identifier" replaced by the names the
/// place accepts, found by deserializing `root` as `T` with a wrong name there; the
/// message unchanged if it is not that error or the names cannot be found.
pub(super) fn with_names<T: DeserializeOwned>(
    root: &DeTable<'_>,
    span: Option<Range<usize>>,
    message: &str,
) -> String {
    let original = message;
    let (message, under_name) = as_not_a_name(message);
    let message = message.as_str();
    if !message.contains(NOT_A_NAME) {
        return original.to_string();
    }
    let mut site = error_site(root, span.clone(), message);
    if under_name {
        site.path.pop();
    }
    if site.path.is_empty() {
        return original.to_string();
    }
    let probe = Override {
        text: String::new(),
        kind: FileKind::Topology,
        key: site.key(),
        path: site.path,
        value: "\"\u{1}\"".to_string(),
    };
    let mut probed = root.clone();
    let region = span.unwrap_or(0..0);
    if apply(&mut probed, &probe, region.clone()).is_err() {
        return original.to_string();
    }
    let Err(e) = T::deserialize(Deserializer::from(Spanned::new(region, probed))) else {
        return original.to_string();
    };
    let names = e
        .message()
        .split_once("expected one of ")
        .or_else(|| e.message().split_once("expected "))
        .map(|(_, names)| names.to_string());
    match names {
        Some(names) if names.starts_with('`') => message.replace(
            NOT_A_NAME,
            &format!("expected a name in quotes, one of {names}"),
        ),
        _ => original.to_string(),
    }
}
