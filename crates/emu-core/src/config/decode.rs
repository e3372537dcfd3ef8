//! Turning a file's text plus `--set` overrides into a schema value, with every error
//! traced to the file position or the `--set` argument that caused it.

use super::error::{ConfigError, line_col};
use super::graphml;
use super::keypath::{error_site, syntax_key};
use super::kinds::Kinds;
use super::location::Location;
use super::overrides::{Override, apply};
use super::source::{FileKind, SourceFile};
use super::unused::first_unused;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, Deserializer};

/// Parses and deserializes `file` (a type error at a key of a `[network]` table words
/// the key's range as `kinds` says), first alone (so that an error in the file is
/// reported against the file), then with `overrides` applied in order. A key that
/// deserializes but is ignored (see [`super::unused`]) is an error too.
///
/// A GraphML topology ([`super::graphml`]) is decoded as the netlist it translates
/// into; an error about a value the GraphML gives is placed at the element that gives
/// it.
pub(crate) fn decode<T: DeserializeOwned + Serialize>(
    file: &SourceFile,
    overrides: &[Override],
    kinds: &dyn Kinds,
) -> Result<T, ConfigError> {
    if !graphml::is_graphml(&file.text) {
        return decode_toml(file, overrides, kinds);
    }
    if file.kind != FileKind::Topology {
        return Err(ConfigError::at(
            Location::in_file(&file.name, Some((1, 1)), None),
            format!(
                "this {} file is XML: GraphML gives topologies only; a {} file is TOML",
                file.kind, file.kind
            ),
        ));
    }
    let translated = graphml::translate(&file.name, &file.text)?;
    let netlist = SourceFile {
        text: translated.toml.clone(),
        ..file.clone()
    };
    decode_toml(&netlist, overrides, kinds).map_err(|e| match e.location() {
        Some(at) if at.file.as_deref() == Some(file.name.as_str()) => {
            let key = at.key.clone();
            let place = translated.place(key.as_deref().unwrap_or("network"));
            e.placed(Location::in_file(&file.name, Some(place), key.as_deref()))
        }
        _ => e,
    })
}

/// [`decode`] for a TOML file.
fn decode_toml<T: DeserializeOwned + Serialize>(
    file: &SourceFile,
    overrides: &[Override],
    kinds: &dyn Kinds,
) -> Result<T, ConfigError> {
    let parsed = DeTable::parse(&file.text).map_err(|e| syntax_error(file, &e))?;
    let span = parsed.span();
    let root = parsed.into_inner();
    let alone = deserialize::<T>(span.clone(), &root, kinds)
        .map_err(|(s, m)| file_error(file, &root, s, &m))?;
    if overrides.is_empty() {
        return Ok(alone);
    }
    let regions = regions(file.text.len(), overrides);
    let mut merged = root;
    for (ov, region) in overrides.iter().zip(&regions) {
        apply(&mut merged, ov, region.clone())?;
    }
    deserialize::<T>(span, &merged, kinds)
        .map_err(|(s, m)| override_error(&merged, overrides, &regions, s, &m, kinds))
}

/// Deserializes `root`; an error is its span and message.
fn deserialize<T: DeserializeOwned + Serialize>(
    span: Range<usize>,
    root: &DeTable<'_>,
    kinds: &dyn Kinds,
) -> Result<T, (Option<Range<usize>>, String)> {
    let config =
        T::deserialize(Deserializer::from(Spanned::new(span, root.clone()))).map_err(|e| {
            let message = super::variants::with_names::<T>(root, e.span(), e.message());
            let message = dates_by_name(root, e.span(), &message);
            (
                e.span(),
                super::ranges::with_range(root, e.span(), &message, kinds),
            )
        })?;
    match first_unused(root, &config) {
        Some(unused) => Err((Some(unused.span), unused.message)),
        None => Ok(config),
    }
}

/// serde reads a TOML date or time as a table: "invalid type: map" at a date is said
/// as "a date".
fn dates_by_name(root: &DeTable<'_>, span: Option<Range<usize>>, message: &str) -> String {
    if !message.starts_with("invalid type: map") {
        return message.to_string();
    }
    let site = error_site(root, span, message);
    match super::keypath::node(root, &site.path).map(|v| v.get_ref()) {
        Some(toml::de::DeValue::Datetime(_)) => {
            message.replacen("invalid type: map", "invalid type: a date", 1)
        }
        _ => message.to_string(),
    }
}

/// One span region per override, after the end of the file text and disjoint.
fn regions(text_len: usize, overrides: &[Override]) -> Vec<Range<usize>> {
    let mut start = text_len + 1;
    overrides
        .iter()
        .map(|ov| {
            let region = start..start + ov.value.len().max(1);
            start = region.end + 1;
            region
        })
        .collect()
}

/// `NAME:LINE:COL: KEY: message` for a file that is not valid TOML.
///
/// A list whose `]` is missing at the end of its line is reported there, at its own
/// key: toml only notices at the next line's first value, which it takes for the
/// list's next entry without a comma between.
fn syntax_error(file: &SourceFile, e: &toml::de::Error) -> ConfigError {
    let Some(span) = e.span() else {
        return ConfigError::at(
            Location::in_file(&file.name, None, None),
            syntax_words(e.message()),
        );
    };
    let (offset, message) = match unclosed_list_end(&file.text, span.start, e.message()) {
        Some(end) => (
            end,
            "unclosed list: write `]` here (or `,` if the list goes on)".to_string(),
        ),
        None => (span.start, syntax_words(e.message())),
    };
    let position = line_col(&file.text, offset);
    let key = syntax_key(&file.text, offset);
    ConfigError::at(
        Location::in_file(&file.name, Some(position), key.as_deref()),
        message,
    )
}

/// toml's "missing comma between array elements" at the first value of a line: the end
/// of the line before (its last character that is not blank or a comment), where the
/// list's `]` belongs.
fn unclosed_list_end(text: &str, at: usize, message: &str) -> Option<usize> {
    if !message.starts_with("missing comma between array elements") {
        return None;
    }
    let before = text.get(..at)?;
    let line_start = before.rfind('\n')?;
    if !before[line_start..].trim().is_empty() {
        return None;
    }
    let previous = before[..line_start].trim_end();
    let last_line_start = previous.rfind('\n').map_or(0, |i| i + 1);
    let last_line = &previous[last_line_start..];
    // A comment at the end of that line: the `]` goes before it.
    let code = match last_line.find('#') {
        Some(hash) if !last_line[..hash].contains(['"', '\'']) => last_line[..hash].trim_end(),
        _ => last_line,
    };
    Some(last_line_start + code.len())
}

/// toml's syntax messages, "DESCRIPTION, expected A, B", in emu's voice:
/// "DESCRIPTION: write A or B here".
fn syntax_words(message: &str) -> String {
    let Some((what, wanted)) = message.split_once(", expected ") else {
        return message.to_string();
    };
    if wanted == "nothing" {
        return format!("{what}: nothing more may be written here");
    }
    let items: Vec<&str> = wanted.split(", ").collect();
    let wanted = match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => wanted.to_string(),
    };
    format!("{what}: write {wanted} here")
}

/// `NAME:LINE:COL: KEY: message` for a file that does not fit its schema (without a
/// position when the error is about the whole document, e.g. a missing table).
fn file_error(
    file: &SourceFile,
    root: &DeTable<'_>,
    span: Option<Range<usize>>,
    message: &str,
) -> ConfigError {
    let site = error_site(root, span, message);
    let position = site.span.as_ref().map(|s| line_col(&file.text, s.start));
    let key = (!site.path.is_empty()).then(|| site.key());
    let message = super::plain::plain(message);
    ConfigError::at(
        Location::in_file(&file.name, position, key.as_deref()),
        message,
    )
}

/// `--set KEY=VALUE: message` for an error that only appears once overrides are
/// applied. The culprit is the override whose value the error points into; failing
/// that, the override whose key shares the longest prefix with the error's key (the
/// latest of equals); failing that, all of them.
fn override_error(
    merged: &DeTable<'_>,
    overrides: &[Override],
    regions: &[Range<usize>],
    span: Option<Range<usize>>,
    message: &str,
    kinds: &dyn Kinds,
) -> ConfigError {
    let inside = span
        .as_ref()
        .and_then(|s| regions.iter().position(|r| r.contains(&s.start)));
    let culprits: Vec<&Override> = match inside.and_then(|i| overrides.get(i)) {
        Some(ov) => vec![ov],
        None => {
            let path = error_site(merged, span, message).path;
            let shared = |ov: &Override| {
                ov.path
                    .iter()
                    .zip(&path)
                    .take_while(|(a, b)| a == b)
                    .count()
            };
            let best = overrides.iter().map(shared).max().unwrap_or(0);
            match overrides
                .iter()
                .rev()
                .find(|ov| best > 0 && shared(ov) == best)
            {
                Some(ov) => vec![ov],
                None => overrides.iter().collect(),
            }
        }
    };
    let sets: Vec<String> = culprits.iter().map(|ov| ov.text.clone()).collect();
    let key = match culprits.as_slice() {
        [ov] => Some(ov.key.as_str()),
        _ => None,
    };
    let hint = match culprits.as_slice() {
        [ov] if message.starts_with("invalid type: string") => not_toml_hint(&ov.value),
        _ => String::new(),
    };
    let message = match culprits.as_slice() {
        [ov] if message.starts_with("invalid type: map")
            && matches!(
                toml::de::DeValue::parse(&ov.value).map(|v| v.into_inner()),
                Ok(toml::de::DeValue::Datetime(_))
            ) =>
        {
            message.replacen("invalid type: map", "invalid type: a date", 1)
        }
        _ => message.to_string(),
    };
    let message = message.as_str();
    let message = match culprits.as_slice() {
        [ov] => super::ranges::for_key(merged, &ov.key, message, kinds),
        _ => message.to_string(),
    };
    let message = super::plain::plain(&message);
    ConfigError::at(Location::of_sets(sets, key), format!("{message}{hint}"))
}

/// When an override's value was taken as a string because it is not a TOML value,
/// why it is not one (for values that look like they were meant to be TOML).
fn not_toml_hint(value: &str) -> String {
    if !value.starts_with(['[', '{', '"', '\'']) {
        return String::new();
    }
    match toml::de::DeValue::parse(value) {
        Err(e) => format!(
            " (`{value}` was read as a string: it is not a valid TOML value: {})",
            syntax_words(e.message())
        ),
        Ok(_) => String::new(),
    }
}
