//! serde's, toml's and the standard library's error wording in the user's terms: a
//! configuration file has numbers, text, lists and tables, not `u32`, `i128`,
//! sequences, maps, structs or "internally tagged enums". Applied to every schema error
//! before it is shown, to shard-file errors, and by the `emu` binary to every error it
//! prints (so clap's argument errors pass through it too).
//!
//! Every message then speaks in one voice: what was given, then what to give —
//! serde's "invalid type: string \"six\", expected u32" becomes `the text "six": give
//! a whole number from 1 to 20` (the key's own range, see `super::ranges`), and a Rust
//! range such as `1..=20` becomes "1 to 20".

/// The integer types a schema uses, with the range a user may write.
const RANGES: [(&str, &str); 6] = [
    ("u8", "a whole number from 0 to 255"),
    ("u16", "a whole number from 0 to 65535"),
    ("u32", "a whole number from 0 to 4294967295"),
    ("u64", "a whole number from 0 to 18446744073709551615"),
    ("usize", "a whole number from 0 to 18446744073709551615"),
    ("i64", "a whole number"),
];

/// The standard library's number-parsing errors, as `--seed -1` or a shard file shows
/// them.
const PARSE_ERRORS: [(&str, &str); 6] = [
    ("invalid digit found in string", "not a whole number ≥ 0"),
    ("number too large to fit in target type", "too large"),
    ("number too small to fit in target type", "too small"),
    (
        "cannot parse integer from empty string",
        "empty: give a number",
    ),
    ("invalid float literal", "not a number"),
    (
        "cannot parse float from empty string",
        "empty: give a number",
    ),
];

/// `message` (one serde/toml error, or any message about to be shown) reworded without
/// Rust type names; text that has none comes back unchanged.
pub fn plain(message: &str) -> String {
    let mut m = message.to_string();
    // No schema type reads an untagged enum now (each reads its alternatives by hand
    // and names them); should one come back, its name stays out of the message.
    if let Some(at) = m.find("data did not match any variant of untagged enum ") {
        m.truncate(at);
        m.push_str("give a value of another form");
    }
    m = struct_words(&m);
    // "expected variant index 0 <= i < 10": a kind given as a number.
    if let Some(at) = m.find("expected variant index") {
        m.truncate(at);
        m.push_str("expected a kind name in quotes");
    }
    for (from, to) in PARSE_ERRORS {
        m = m.replace(from, to);
    }
    m = unicode_escapes(&m);
    // "expected internally tagged enum InjectionConfig" → a table with a kind.
    if let Some(at) = m.find("expected internally tagged enum") {
        m.truncate(at);
        m.push_str("expected a table with a `kind` key, e.g. { kind = \"…\", … }");
    }
    m = m.replace(
        "expected variant identifier",
        "expected a kind name in quotes",
    );
    m = m.replace("expected any value", "expected a number that fits");
    for (ty, words) in RANGES {
        m = replace_word(&m, &format!("expected {ty}"), &format!("expected {words}"));
    }
    m = m.replace("expected f64", "expected a number");
    m = m.replace("unknown variant `", "unknown name `");
    m = m.replace("expected f32", "expected a number");
    // What was found: "integer `7`", "floating point `1.5`", "integer `1…` as i128".
    m = m.replace("` as i128", "` (too large)");
    m = m.replace("` as u128", "` (too large)");
    m = m.replace("floating point `", "the number `");
    m = m.replace("integer `", "the number `");
    // An externally tagged choice (`routing`) given something other than a name, when
    // its names could not be found (`super::variants` names them when it can).
    m = m.replace(
        "invalid value: map, expected map with a single key",
        "invalid type: a table, expected a name in quotes",
    );
    m = m.replace("expected string or map", "expected a name in quotes");
    m = replace_word(&m, "expected unit", "expected a name in quotes");
    m = m.replace("invalid type: sequence", "invalid type: a list");
    m = m.replace("invalid type: map", "invalid type: a table");
    m = m.replace("invalid type: string ", "invalid type: the text ");
    m = m.replace("invalid type: boolean `", "invalid type: `");
    m = m.replace("expected a sequence", "expected a list in brackets, [ … ]");
    m = m.replace("expected a map", "expected a table");
    m = m.replace("elements in sequence", "entries in the list");
    m = short_numbers(&m);
    m = unknown_key(&m).unwrap_or(m);
    m = voice(&m);
    m = json_words(&m);
    // clap's usage: "<FILES>..." (several), in the guide's ellipsis.
    m = m.replace(">...", ">…");
    m = not_in_range(&m);
    crate::text::rust_ranges(&m)
}

/// What serde words as "found, expected wanted", in emu's voice: "found: give wanted".
/// The found part is serde's (already in plain words); the wanted part is rewritten
/// where serde's word is a type ("a boolean", "a string").
fn voice(m: &str) -> String {
    let mut out = m.to_string();
    for prefix in ["invalid type: ", "invalid value: "] {
        out = rewrite(&out, prefix, |after| match after.find(", expected ") {
            Some(at) => {
                let found = &after[..at];
                let wanted = wanted_words(&after[at + ", expected ".len()..]);
                (format!("{found}: give {wanted}"), after.len())
            }
            None => (prefix.to_string(), 0),
        });
    }
    // "invalid length 1, expected an array of length 2" (a list of the wrong length).
    out = rewrite(&out, "invalid length ", |after| {
        let Some(at) = after.find(", expected ") else {
            return ("a list of the wrong length: ".to_string(), 0);
        };
        let n = &after[..at];
        let wanted = wanted_words(&after[at + ", expected ".len()..]);
        // serde reads a table's fields from a list in order; a list too short for them
        // is a list where a table belongs ("expected struct … with 2 elements").
        if wanted.starts_with("a table") {
            return (
                "a list where a table belongs: give a [header] with one key per line, or \
                 { key = value, … }"
                    .to_string(),
                after.len(),
            );
        }
        let given = if n == "1" {
            "1 entry".to_string()
        } else {
            format!("{n} entries")
        };
        (format!("{given} in the list: give {wanted}"), after.len())
    });
    // "unknown name `warp`, expected one of `continuous`, …".
    out = rewrite(&out, "unknown name `", |after| {
        match after.split_once("`, expected ") {
            Some((name, wanted)) => (
                format!("unknown name `{name}`: give {}", wanted_words(wanted)),
                after.len(),
            ),
            None => ("unknown name `".to_string(), 0),
        }
    });
    out
}

/// serde_json's "expected value at line 1 column 1" (a shard file's line) as "no value
/// at line 1 column 1", and "expected `,` or `}` at line …" as "`,` or `}` missing at
/// line …".
fn json_words(m: &str) -> String {
    rewrite(m, "expected ", |after| match after.find(" at line ") {
        Some(at) if !after[..at].contains(", ") || after.starts_with('`') => {
            let what = &after[..at];
            if what == "value" {
                ("no value".to_string(), at)
            } else {
                (format!("{what} missing"), at)
            }
        }
        _ => ("expected ".to_string(), 0),
    })
}

/// serde's words for what it wanted, as a request: "a boolean" → "true or false".
fn wanted_words(wanted: &str) -> String {
    let (head, tail) = match wanted.find(" at line ") {
        Some(at) => wanted.split_at(at),
        None => (wanted, ""),
    };
    let head = match head {
        "a boolean" => "true or false".to_string(),
        "a string" => "text in quotes".to_string(),
        "nothing" => "nothing here".to_string(),
        h => {
            if let Some(rest) = h.strip_prefix("an array of length ") {
                format!("a list of {rest}")
            } else if let Some(rest) = h.strip_suffix(" entries in the list") {
                format!("{rest} entries")
            } else {
                h.to_string()
            }
        }
    };
    format!("{head}{tail}")
}

/// clap's "0 is not in 1..=1000" as "0 is not from 1 to 1000".
fn not_in_range(m: &str) -> String {
    rewrite(m, " is not in ", |after| {
        let words = if after.starts_with(|c: char| c.is_ascii_digit()) {
            " is not from "
        } else {
            " is not in "
        };
        (words.to_string(), 0)
    })
}

/// "the number `1000…000`" (serde prints a float's every digit) as "the number `1e308`".
fn short_numbers(m: &str) -> String {
    rewrite(m, "the number `", |after| {
        let end = after.find('`').unwrap_or(after.len());
        let digits = &after[..end];
        let shown = match digits.parse::<f64>() {
            Ok(x) if digits.len() > 24 => crate::text::number(x),
            _ => digits.to_string(),
        };
        (format!("the number `{shown}"), end)
    })
}

/// "expected struct LinkDown" (or "struct variant NetworkConfig::Grid") → "expected a
/// table".
fn struct_words(m: &str) -> String {
    rewrite(m, "expected struct ", |after| {
        let skip = if after.starts_with("variant ") {
            "variant ".len()
        } else {
            0
        };
        let name_len = after[skip..]
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_' && c != ':')
            .unwrap_or(after.len() - skip);
        ("expected a table".to_string(), skip + name_len)
    })
}

/// Rust's `\u{feff}` escapes (from `{:?}` of a string) as `U+FEFF`.
fn unicode_escapes(m: &str) -> String {
    rewrite(m, "\\u{", |after| {
        let code = after
            .find('}')
            .filter(|&end| end <= 6)
            .and_then(|end| Some((u32::from_str_radix(&after[..end], 16).ok()?, end)));
        match code {
            Some((code, end)) => (format!("U+{code:04X}"), end + 1),
            None => ("\\u{".to_string(), 0),
        }
    })
}

/// `text` with every `marker` rewritten by `f`, which is given the text after the
/// marker and returns what to write in the marker's place and how many bytes after it
/// that replaces.
fn rewrite(text: &str, marker: &str, f: impl Fn(&str) -> (String, usize)) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(marker) {
        out.push_str(&rest[..at]);
        let after = &rest[at + marker.len()..];
        let (with, used) = f(after);
        out.push_str(&with);
        rest = &after[used.min(after.len())..];
    }
    out.push_str(rest);
    out
}

/// "unknown field `load`, expected `messages`" (serde on a table with fixed keys, such
/// as a `kind` of injection) → "unknown key `load` here: this table takes `messages`".
fn unknown_key(m: &str) -> Option<String> {
    let rest = m.strip_prefix("unknown field `")?;
    let (key, rest) = rest.split_once('`')?;
    let takes = if let Some(one) = rest.strip_prefix(", expected one of ") {
        one.to_string()
    } else if let Some(one) = rest.strip_prefix(", expected ") {
        one.to_string()
    } else if rest.starts_with(", there are no fields") {
        return Some(format!(
            "unknown key `{key}` here: this table takes no keys (besides `kind`, if it has one)"
        ));
    } else {
        return None;
    };
    Some(format!(
        "unknown key `{key}` here: this table takes {takes}"
    ))
}

/// Replaces `from` where it is not followed by more of an identifier (so that
/// "expected u32" does not match inside "expected u320").
fn replace_word(text: &str, from: &str, to: &str) -> String {
    rewrite(text, from, |after| {
        let longer = after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        (if longer { from } else { to }.to_string(), 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_words_become_the_users_words() {
        assert_eq!(
            plain("invalid type: integer `3`, expected internally tagged enum InjectionConfig"),
            "the number `3`: give a table with a `kind` key, e.g. { kind = \"…\", … }"
        );
        assert_eq!(
            plain("invalid value: integer `-1`, expected u32"),
            "the number `-1`: give a whole number from 0 to 4294967295"
        );
        assert_eq!(
            plain("invalid type: integer `99999999999999999999999` as i128, expected any value"),
            "the number `99999999999999999999999` (too large): give a number that fits"
        );
        assert_eq!(
            plain("invalid type: floating point `1.5`, expected u32"),
            "the number `1.5`: give a whole number from 0 to 4294967295"
        );
        assert_eq!(
            plain("invalid type: integer `7`, expected variant identifier"),
            "the number `7`: give a kind name in quotes"
        );
        assert_eq!(
            plain("invalid type: string \"x\", expected u32"),
            "the text \"x\": give a whole number from 0 to 4294967295"
        );
        assert_eq!(
            plain("unknown field `load`, expected `messages`"),
            "unknown key `load` here: this table takes `messages`"
        );
        assert_eq!(
            plain("unknown field `lod`, expected one of `load`, `burst`"),
            "unknown key `lod` here: this table takes `load`, `burst`"
        );
        assert_eq!(
            plain("unknown field `x`, there are no fields"),
            "unknown key `x` here: this table takes no keys (besides `kind`, if it has one)"
        );
        assert_eq!(
            plain("data did not match any variant of untagged enum MemoryConfig"),
            "give a value of another form"
        );
        assert_eq!(
            plain("invalid type: integer `1`, expected struct MixConfig"),
            "the number `1`: give a table"
        );
        assert_eq!(
            plain("invalid type: integer `1`, expected struct LinkDown at line 3"),
            "the number `1`: give a table at line 3"
        );
        assert_eq!(
            plain(
                "invalid value: integer `18446744073709551615`, expected variant index 0 <= i < 10"
            ),
            "the number `18446744073709551615`: give a kind name in quotes"
        );
        assert_eq!(
            plain("invalid value '-1' for '--seed <SEED>': invalid digit found in string"),
            "invalid value '-1' for '--seed <SEED>': not a whole number ≥ 0"
        );
        assert_eq!(
            plain("invalid value '0' for '--seeds <SEEDS>': 0 is not in 1..=1000"),
            "invalid value '0' for '--seeds <SEEDS>': 0 is not from 1 to 1000"
        );
        assert_eq!(
            plain("invalid value: map, expected map with a single key"),
            "a table: give a name in quotes"
        );
        assert_eq!(
            plain("invalid type: integer `1`, expected string or map"),
            "the number `1`: give a name in quotes"
        );
        assert_eq!(
            plain("j:1: not a line (expected value at line 1 column 1)"),
            "j:1: not a line (no value at line 1 column 1)"
        );
        assert_eq!(
            plain("expected `,` or `}` at line 1 column 9"),
            "`,` or `}` missing at line 1 column 9"
        );
        assert_eq!(
            plain("invalid length 1, expected an array of length 2"),
            "1 entry in the list: give a list of 2"
        );
        for struct_from_list in [
            "invalid length 0, expected struct GridNetwork with 2 elements",
            "invalid length 1, expected struct variant NetworkConfig::Ring with 1 element",
        ] {
            assert_eq!(
                plain(struct_from_list),
                "a list where a table belongs: give a [header] with one key per line, or \
                 { key = value, … }"
            );
        }
        assert_eq!(
            plain("invalid type: boolean `true`, expected a boolean"),
            "`true`: give true or false"
        );
        assert_eq!(plain("cycle \"\\u{feff}0\""), "cycle \"U+FEFF0\"");
        let long = format!(
            "invalid type: floating point `1{}`, expected u32",
            "0".repeat(308)
        );
        assert_eq!(
            plain(&long),
            "the number `1e308`: give a whole number from 0 to 4294967295"
        );
        assert_eq!(plain("a \\u{zz} b"), "a \\u{zz} b");
        assert_eq!(
            replace_word("expected u320", "expected u32", "X"),
            "expected u320"
        );
        for m in [
            "invalid type: sequence, expected u16",
            "expected f64",
            "invalid type: map, expected u64",
        ] {
            let p = plain(m);
            for rust in ["u16", "u64", "f64", "sequence", "map,"] {
                assert!(!p.contains(rust), "{m} → {p}");
            }
        }
    }
}
