//! Link utilisation: for every direction of every link whose transmitting part counts
//! its wire time ([`crate::model::WIRE_BITS`]), the share of the run its transmitter
//! spent sending. What counts as sending is the family's: on a DS-Link the bit periods
//! of its data and control tokens (INMOS ch. 6 §6.1.1), on an SCI ring the cycles that
//! carry a symbol other than an idle (SCI §2.1), in a switch fabric the packet cycles
//! in which a port sent a packet or flow-control information (Gramsamer §2.1, §4.1).
//! Directions a port cannot send on ([`crate::parts::Part::transmits`]: an SCI ring
//! link upstream, a fabric's egress link back to the switch) are left out.

use super::report::ReportInput;
use crate::ids::End;
use crate::model::WIRE_BITS;
use serde::Serialize;

/// A link of the plan, its two ends named.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedLink {
    /// One end and its node's name.
    pub a: (End, String),
    /// The other end and its node's name.
    pub b: (End, String),
    /// Whether each end has a transmitter (`[a, b]`, [`crate::parts::Part::transmits`]).
    pub sends: [bool; 2],
}

/// One direction of one link.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LinkUse {
    /// The transmitting node's name.
    pub from: String,
    /// Its port.
    pub from_port: usize,
    /// The receiving node's name.
    pub to: String,
    /// Its port.
    pub to_port: usize,
    /// Ticks the transmitter spent sending over the whole run, warm-up and drain
    /// included, as a % of the run's length: on a DS-Link bit periods of tokens (10 per
    /// data token, 4 per control token: INMOS ch. 6 §6.1.1); on an SCI ring cycles with
    /// a symbol other than an idle; in a switch fabric packet cycles with a packet or
    /// flow-control cell sent.
    pub busy_pct: f64,
}

/// Utilisation of every link direction whose transmitter reports wire time, in link
/// order (a→b, then b→a); `None` if no part does.
pub fn utilisation(input: &ReportInput) -> Option<Vec<LinkUse>> {
    let outcome = input.outcome;
    // Each node's wire-bit series, indexed by node id (looked up twice per link).
    let nodes = outcome
        .parts
        .iter()
        .map(|(id, _)| id + 1)
        .max()
        .unwrap_or(0);
    let mut by_node: Vec<&[u64]> = vec![&[]; nodes];
    for (id, s) in &outcome.parts {
        by_node[*id] = s.get(WIRE_BITS);
    }
    let bits = |e: End| -> Option<u64> { by_node.get(e.node)?.get(e.port).copied() };
    let ticks = outcome.end_tick.max(1) as f64;
    let mut out = Vec::new();
    for l in &input.links {
        for (from, to, sends) in [(&l.a, &l.b, l.sends[0]), (&l.b, &l.a, l.sends[1])] {
            if !sends {
                continue;
            }
            if let Some(b) = bits(from.0) {
                out.push(LinkUse {
                    from: from.1.clone(),
                    from_port: from.0.port,
                    to: to.1.clone(),
                    to_port: to.0.port,
                    busy_pct: b as f64 / ticks * 100.0,
                });
            }
        }
    }
    (!out.is_empty()).then_some(out)
}
