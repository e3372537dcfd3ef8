//! The range of every numeric key a type error can hit before validation, so that
//! "dimensions = \"six\"" or "nodes = -1" is answered with the key's own range
//! ("give a whole number from 2 to 4,096") rather than its storage type's
//! ("from 0 to 4294967295"). A key not in this table is looked up in the user guide's
//! table of what each key takes (`super::bounds`), so that every key the reference
//! gives a range for has that range in its type errors too. The validators in `parts/*/config.rs`,
//! `parts::bounds` and `network` give the same ranges for values of the right type;
//! the test below holds the two to each other.

use super::keypath::error_site;
use super::kinds::Kinds;
use std::ops::Range;
use toml::de::DeTable;

/// A key's range: (network kind, or "" for any; key, or a key prefix ending in `[`
/// for a list's items or `.` for a table's keys; what it takes). The whole-number
/// ranges come from the validators' own bounds.
fn ranges() -> Vec<(&'static str, &'static str, String)> {
    use crate::parts::{dslink, fabric, relay, sci};
    let whole = crate::text::whole_range;
    let text = |t: &str| t.to_string();
    vec![
        ("sci_ring", "network.nodes", sci::config::NODES.takes()),
        (
            "sci_ring",
            "network.active_buffers",
            sci::config::ACTIVE_BUFFERS.takes(),
        ),
        (
            "sci_ring",
            "network.sink_rate",
            text("a probability, more than 0 and at most 1"),
        ),
        ("sci_ring", "network.mix.", text("a fraction from 0 to 1")),
        ("fabric", "network.ports", fabric::config::PORTS.takes()),
        ("fabric", "network.rtt", fabric::config::RTT.takes()),
        (
            "fabric",
            "network.thresholds[",
            text("a whole number from 1 to M − RTT + 1"),
        ),
        (
            "fabric",
            "network.update_every",
            text("a whole number from 1 to M − RTT + 1 (absolute-i) or M (absolute-b)"),
        ),
        (
            "fabric",
            "network.packet_bytes",
            fabric::config::PACKET_BYTES.takes(),
        ),
        (
            "fabric",
            "network.link_gbps",
            fabric::config::LINK_GBPS.takes(),
        ),
        ("fabric", "network.voq_cap", fabric::config::VOQ_CAP.takes()),
        ("relay_ring", "network.nodes", relay::config::NODES.takes()),
        (
            "",
            "faults.extra_initial_credit",
            whole(0, dslink::config::MAX_EXTRA_CREDIT.into()),
        ),
        (
            "",
            "faults.token_error_rate",
            text("a probability from 0 to 1"),
        ),
        (
            "",
            "message.bytes",
            whole(0, super::traffic::MAX_MESSAGE_BYTES.into()),
        ),
        ("", "terminals.saturated[", text("a terminal number from 0")),
        ("", "terminals.senders[", text("a terminal number from 0")),
        ("", "pattern.node", text("a terminal number from 0")),
        (
            "",
            "injection.load",
            text("a fraction of link capacity, more than 0 and at most 1"),
        ),
        ("", "injection.short", whole(1, 1_000_000_000)),
        (
            "",
            "injection.long",
            text("a whole number of packets from short to 1,000,000,000"),
        ),
        ("", "injection.long_share", text("a fraction from 0 to 1")),
        (
            "",
            "injection.messages",
            text("a whole number of messages from 1"),
        ),
    ]
}

/// `message` with its "expected …" clause replaced by the range of the key the error
/// is at, if the table has one for the file's network kind; unchanged otherwise.
pub(super) fn with_range(
    root: &DeTable<'_>,
    span: Option<Range<usize>>,
    message: &str,
    kinds: &dyn Kinds,
) -> String {
    let key = error_site(root, span, message).key();
    for_key(root, &key, message, kinds)
}

/// [`with_range`] for an error known to be about `key` (a `--set` whose value the
/// error is in: inside an internally tagged table the error's own span is lost).
pub(super) fn for_key(root: &DeTable<'_>, key: &str, message: &str, kinds: &dyn Kinds) -> String {
    let Some(at) = message.rfind(", expected ") else {
        return message.to_string();
    };
    // Only type and value errors of a number: a missing key, an unknown name, or a
    // list or table given the wrong thing (the error is at the list's or table's key)
    // keeps its words.
    if !(message.starts_with("invalid type") || message.starts_with("invalid value"))
        || ["expected a sequence", "expected struct", "expected a map"]
            .iter()
            .any(|w| message.contains(w))
    {
        return message.to_string();
    }
    let kind = root
        .get("network")
        .and_then(|n| n.get_ref().as_table())
        .and_then(|t| t.get("kind"))
        .and_then(|k| k.get_ref().as_str())
        .unwrap_or("");
    let unindexed = unindexed(key);
    match takes(kind, key)
        .or_else(|| kinds.takes(kind, &unindexed))
        .or_else(|| super::bounds::takes(kind, &unindexed))
    {
        Some(words) => format!("{}, expected {words}", &message[..at]),
        None => message.to_string(),
    }
}

/// `key` without its list indices: `faults.link_down[0].at_us` → `faults.link_down.at_us`
/// (how the reference's table names a key of a list's entries).
fn unindexed(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut depth = 0;
    for c in key.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// What `key` takes in a network of `kind` (`""` for a traffic key, or any kind), if
/// the table says: the words a type error at that key uses. The user guide's reference
/// lists them too (`emu_core::network::bounds`).
pub fn takes(kind: &str, key: &str) -> Option<String> {
    ranges().into_iter().find_map(|(k, name, words)| {
        let kind_ok = k.is_empty() || k == kind;
        // A list's items are reported at the list's key; a table's keys at their own.
        let key_ok = match name.strip_suffix('[') {
            Some(list) => key == list || key.starts_with(name),
            None if name.ends_with('.') => key.starts_with(name),
            None => key == name,
        };
        (kind_ok && key_ok).then_some(words)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_find_their_range_by_family() {
        assert_eq!(
            takes("sci_ring", "network.nodes").as_deref(),
            Some("a whole number from 2 to 4,096")
        );
        assert_eq!(takes("fabric", "network.nodes"), None);
        assert_eq!(
            takes("fabric", "network.thresholds[0]"),
            takes("fabric", "network.thresholds")
        );
        assert_eq!(
            takes("sci_ring", "network.mix.data64").as_deref(),
            Some("a fraction from 0 to 1")
        );
        assert_eq!(
            takes("grid", "terminals.saturated[3]").as_deref(),
            Some("a terminal number from 0")
        );
    }

    /// Each range's ends agree with the validator's: the value just outside is
    /// refused naming the key, the ends themselves are not refused for that key.
    #[test]
    fn the_table_agrees_with_the_validators() {
        use crate::family::AnyCase;
        for (topology, traffic, key, lo, hi) in [
            ("sci-ring4", "sci-uniform", "network.nodes", "2", "4096"),
            (
                "sci-ring4",
                "sci-uniform",
                "network.active_buffers",
                "0",
                "65535",
            ),
            (
                "fabric16-cioq",
                "fabric-nonuniform",
                "network.ports",
                "1",
                "256",
            ),
            (
                "fabric16-cioq",
                "fabric-nonuniform",
                "network.packet_bytes",
                "1",
                "65536",
            ),
            (
                "fabric16-cioq",
                "fabric-nonuniform",
                "network.voq_cap",
                "1",
                "100000000",
            ),
            (
                "fabric16-cioq",
                "fabric-nonuniform",
                "network.link_gbps",
                "0.001",
                "10000",
            ),
            ("hypercube6", "uniform", "network.dimensions", "1", "20"),
        ] {
            let load = |v: &str| {
                let sets = vec![format!("{key}={v}"), "phases.measure_us=1".to_string()];
                AnyCase::load_within(topology, traffic, &sets, 1, None)
                    .err()
                    .map(|e| e.to_string())
            };
            for end in [lo, hi] {
                if let Some(e) = load(end) {
                    assert!(
                        !e.contains(&format!("{key}={end}: {end}:")),
                        "{key}={end}: {e}"
                    );
                }
            }
            let below = if lo.contains('.') {
                "0".to_string()
            } else {
                (lo.parse::<u64>().unwrap_or(1) as i64 - 1).to_string()
            };
            let above = format!("{}1", hi);
            for out in [below, above] {
                let e = load(&out).unwrap_or_default();
                assert!(
                    e.contains(&format!("--set {key}={out}")),
                    "{key}={out}: {e}"
                );
            }
        }
    }
}
