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

/// `message` with serde's "expected variant identifier" replaced by the names the
/// place accepts, found by deserializing `root` as `T` with a wrong name there; the
/// message unchanged if it is not that error or the names cannot be found.
pub(super) fn with_names<T: DeserializeOwned>(
    root: &DeTable<'_>,
    span: Option<Range<usize>>,
    message: &str,
) -> String {
    if !message.contains(NOT_A_NAME) {
        return message.to_string();
    }
    let site = error_site(root, span.clone(), message);
    if site.path.is_empty() {
        return message.to_string();
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
        return message.to_string();
    }
    let Err(e) = T::deserialize(Deserializer::from(Spanned::new(region, probed))) else {
        return message.to_string();
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
        _ => message.to_string(),
    }
}
