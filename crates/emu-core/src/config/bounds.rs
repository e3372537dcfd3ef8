//! What each key of a topology or traffic file takes, in words, for the user guide's
//! reference (`family::reference`) and for a type error at a key the type-error table
//! (`super::ranges`) leaves out: the bounds the validators check, written from the
//! validators' own constants (`super::limits`, `parts`) so that neither can drift from
//! them. The keys of a kind of network of C104s are not here: each kind's file
//! (`network::kinds`) words its own, and `network::bounds` asks the kinds first, then
//! [`takes`]; a type error asks them through [`super::Kinds`].
//!
//! A type error names a key's range from [`crate::config::takes`]; this table adds
//! the keys whose range is only checked once the value has the right type (and a
//! few it says more about). Booleans and names the configuration types list
//! themselves (`routing = "universal"`) need no row: the reference reads them from the
//! schema.

use super::limits::{MAX_BATCH_MESSAGES, MAX_FRAME};
use crate::parts::dslink::config::{MAX_BIT_RATE_MBIT_S, MAX_BUFFER_TOKENS, MAX_DATA_BYTES};
use crate::parts::fabric::Strategy;
use crate::parts::fabric::config::{ARCHITECTURES, FLOW_CONTROLS, MEMORY, OUTPUT_SCHEDULERS};
use crate::parts::relay::config::STEPS;
use crate::parts::t9000::config::MAX_CHANNELS;
use crate::text::{group, whole_range as whole};
use crate::time::MAX_DURATION_US;

/// What `key` takes in a network of `kind` (`""` for a traffic key or a key of a
/// shared section): this module's table, else the range a type error names
/// ([`crate::config::takes`]); `None` if neither says. A key of a list's entries is
/// written without brackets (`faults.link_down.at_us`).
pub fn takes(kind: &str, key: &str) -> Option<String> {
    checked()
        .into_iter()
        .find_map(|(k, name, words)| {
            ((k.is_empty() || k == kind) && matches(name, key)).then_some(words)
        })
        .or_else(|| crate::config::takes(kind, key))
}

/// Whether table entry `name` is `key`: equal, or a prefix ending in `.` (a table's
/// keys).
fn matches(name: &str, key: &str) -> bool {
    match name.strip_suffix('.') {
        Some(_) => key.starts_with(name),
        None => key == name,
    }
}

/// `"a"`, `"b"` or `"c"`.
pub(crate) fn quoted_or<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let quoted: Vec<String> = names.into_iter().map(|n| format!("\"{n}\"")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// The table: (network kind, or "" for any; key, or a prefix ending in `.`; what it
/// takes).
fn checked() -> Vec<(&'static str, &'static str, String)> {
    let strategies: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
    vec![
        (
            "",
            "link.bit_rate_mbit_s",
            whole(1, MAX_BIT_RATE_MBIT_S.into()),
        ),
        (
            "",
            "link.wire_delay_ns",
            "a whole number of bit periods, at least one".into(),
        ),
        (
            "",
            "link.buffer_tokens",
            format!(
                "tokens from link.fct_batch_tokens to {}, or \"packet\"",
                group(MAX_BUFFER_TOKENS.into())
            ),
        ),
        (
            "",
            "link.fct_batch_tokens",
            "a whole number from 1, at most link.buffer_tokens".into(),
        ),
        ("", "packet.header_bytes", "1 or 2".into()),
        ("", "packet.max_data_bytes", whole(1, MAX_DATA_BYTES.into())),
        (
            "",
            "c104.header_time_ns",
            "a whole number of bit periods, at least the header's bits plus link.wire_delay_ns"
                .into(),
        ),
        (
            "",
            "c104.output_buffer_tokens",
            format!(
                "tokens from 1 to {}, or \"packet\"",
                group(MAX_BUFFER_TOKENS.into())
            ),
        ),
        ("", "vcp.channels", whole(1, MAX_CHANNELS.into())),
        (
            "",
            "faults.link_down.link",
            "NODE:PORT of a port with a link, each link once".into(),
        ),
        (
            "",
            "faults.link_down.at_us",
            "µs from 0 to the run's hard stop".into(),
        ),
        (
            "fabric",
            "network.memory",
            format!(
                "packets from {} to {}, or a percentage of RTT in quotes (\"60%\")",
                group(MEMORY.min),
                group(MEMORY.max)
            ),
        ),
        ("fabric", "network.architecture", quoted_or(ARCHITECTURES)),
        (
            "fabric",
            "network.output_scheduler",
            quoted_or(OUTPUT_SCHEDULERS),
        ),
        ("fabric", "network.flow_control", quoted_or(FLOW_CONTROLS)),
        ("fabric", "network.strategy", quoted_or(strategies)),
        ("relay_ring", "network.hops", STEPS.takes()),
        ("relay_ring", "network.latency", STEPS.takes()),
        ("relay_ring", "network.max_think", STEPS.takes()),
        (
            "",
            "phases.",
            format!("µs from 0 to {}", group(MAX_DURATION_US as u64)),
        ),
        (
            "",
            "pattern.rotate",
            "a whole number from 0 to the terminal address's bits".into(),
        ),
        ("", "pattern.destination", "a terminal number from 0".into()),
        (
            "",
            "pattern.destinations",
            "a terminal number from 0 for each terminal".into(),
        ),
        ("", "pattern.w", "a fraction from 0 to 1".into()),
        (
            "",
            "injection.burst",
            format!("packets from 1 to {}", group(MAX_FRAME.into())),
        ),
        (
            "",
            "injection.messages",
            format!(
                "a whole number from 1, at most {} over all senders",
                group(MAX_BATCH_MESSAGES)
            ),
        ),
        (
            "",
            "injection.file",
            "a path, relative to the traffic file's directory".into(),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_find_their_words_here_or_in_the_type_error_table() {
        assert_eq!(takes("ring", "network.switches"), None, "the kind's own");
        assert_eq!(
            takes("sci_ring", "network.nodes"),
            crate::config::takes("sci_ring", "network.nodes")
        );
        assert_eq!(
            takes("fabric", "network.voq_cap").as_deref(),
            Some("a whole number from 1 to 100,000,000")
        );
        assert_eq!(
            takes("", "phases.warmup_us").as_deref(),
            Some("µs from 0 to 1,000,000,000")
        );
        assert_eq!(takes("grid", "network.wrap"), None);
    }
}
