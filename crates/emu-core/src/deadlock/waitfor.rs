//! The wait-for graph of a stuck network, and the cycle that explains a deadlock
//! (docs/architecture.md "Deadlock").
//!
//! Vertices are the places a packet can hold: a node's *input* (the receive buffer of
//! a port, with the packet at its head) and a node's *output* (a port's transmitter
//! and output buffer). Edges come from the nodes' own wait reports, whatever the link
//! protocol:
//!
//! - input `i` → input `j` of the same node: the packet at `i` was routed to an
//!   output that the packet at `j` holds (C104 wormhole arbitration, INMOS ch. 7 §7.1);
//! - input `i` → output `o` of the same node: the packet is connected to `o`, whose
//!   output buffer is full;
//! - output `o` → the peer's input across the link: `o` has tokens to send but the
//!   link protocol's flow control forbids it, because the peer's receive buffer is full
//!   and not draining (for the DS-Link: no credit, INMOS ch. 6 §6.2.1).
//!
//! Each vertex waits for at most one other, so the graph is a set of chains, and a
//! deadlock is a chain that closes on itself. A packet routed to a *group* of outputs
//! (grouped adaptive routing) waits for any of them; its report names one, so a cycle
//! through it is an explanation, not a proof — the proof is that no token moved for
//! the whole deadlock window.

use crate::model::{LinkProtocol, PortId, Stamp, Wait, WaitReason, wait::describe_packet};
use crate::network::{End, Network, NodeId};
use serde::Serialize;
use std::collections::HashMap;

/// One place in the wait-for graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "side", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Place {
    /// The receive buffer of `port` on `node`.
    Input {
        /// Node.
        node: NodeId,
        /// Port.
        port: PortId,
    },
    /// The transmitter and output buffer of `port` on `node`.
    Output {
        /// Node.
        node: NodeId,
        /// Port.
        port: PortId,
    },
}

impl Place {
    fn node(self) -> NodeId {
        match self {
            Place::Input { node, .. } | Place::Output { node, .. } => node,
        }
    }
}

/// One step of a deadlock cycle: a place, the packet it holds, and what it waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CycleStep {
    /// Where.
    pub place: Place,
    /// Node name, e.g. `c104[3]`.
    pub node_name: String,
    /// The packet held there, if known.
    #[serde(skip)]
    pub packet: Option<Stamp>,
    /// The packet, readable: "packet 3→17 (message 12, packet 0)".
    pub packet_text: Option<String>,
    /// What it waits for, readable.
    pub waits_for: String,
    /// The next place in the cycle.
    pub next: Place,
}

/// The edges of the wait-for graph, from every node's wait report (`waits[n]` for
/// node `n`).
pub fn edges<P: LinkProtocol>(
    net: &Network<P>,
    waits: &[Vec<Wait>],
) -> HashMap<Place, (Place, Option<Stamp>, String)> {
    let mut peer: HashMap<End, End> = HashMap::new();
    for l in net.links() {
        peer.insert(l.a, l.b);
        peer.insert(l.b, l.a);
    }
    let name = |n: NodeId| net.nodes()[n].name.as_str();
    let mut e = HashMap::new();
    for (node, ws) in waits.iter().enumerate() {
        for w in ws {
            let packet = w.packet;
            match &w.reason {
                WaitReason::OutputHeld { output, holder, .. } => {
                    e.insert(
                        Place::Input { node, port: w.port },
                        (
                            Place::Input {
                                node,
                                port: *holder,
                            },
                            packet,
                            format!("wants output {output}, held by input {holder}"),
                        ),
                    );
                }
                WaitReason::OutputFull { output } => {
                    e.insert(
                        Place::Input { node, port: w.port },
                        (
                            Place::Output {
                                node,
                                port: *output,
                            },
                            packet,
                            format!("is connected to output {output}, whose buffer is full"),
                        ),
                    );
                }
                WaitReason::NoCredit => {
                    if let Some(p) = peer.get(&End { node, port: w.port }) {
                        e.insert(
                            Place::Output { node, port: w.port },
                            (
                                Place::Input {
                                    node: p.node,
                                    port: p.port,
                                },
                                packet,
                                format!(
                                    "has no credit: the receive buffer of {} port {} is full",
                                    name(p.node),
                                    p.port
                                ),
                            ),
                        );
                    }
                }
                WaitReason::AwaitingAck
                | WaitReason::AckOverdue
                | WaitReason::Routing
                | WaitReason::Incomplete => {}
            }
        }
    }
    e
}

/// The first cycle of the wait-for graph, starting from the lowest place on it (so
/// the same deadlock always prints the same way), or `None` if the waits form no
/// cycle.
pub fn find_cycle<P: LinkProtocol>(
    net: &Network<P>,
    waits: &[Vec<Wait>],
) -> Option<Vec<CycleStep>> {
    let e = edges(net, waits);
    let mut starts: Vec<Place> = e.keys().copied().collect();
    starts.sort();
    let mut best: Option<Vec<Place>> = None;
    let mut seen: HashMap<Place, usize> = HashMap::new();
    for (walk, &s) in starts.iter().enumerate() {
        let mut path = Vec::new();
        let mut at = s;
        loop {
            if let Some(&w) = seen.get(&at) {
                if w == walk {
                    // Closed on this walk: the cycle is the path from `at` on.
                    let from = path.iter().position(|p| *p == at).unwrap_or(0);
                    let mut cycle: Vec<Place> = path[from..].to_vec();
                    let min = cycle
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, p)| **p)
                        .map_or(0, |(i, _)| i);
                    cycle.rotate_left(min);
                    if best.as_ref().is_none_or(|b| cycle[0] < b[0]) {
                        best = Some(cycle);
                    }
                }
                break;
            }
            seen.insert(at, walk);
            path.push(at);
            match e.get(&at) {
                Some((next, _, _)) => at = *next,
                None => break,
            }
        }
    }
    let cycle = best?;
    Some(
        cycle
            .iter()
            .map(|&place| {
                let (next, packet, why) = e[&place].clone();
                CycleStep {
                    place,
                    node_name: net.nodes()[place.node()].name.clone(),
                    packet,
                    packet_text: packet.as_ref().map(describe_packet),
                    waits_for: why,
                    next,
                }
            })
            .collect(),
    )
}

/// The link directions a cycle crosses, in order, as (from, to) ends: the channels
/// of the cycle, to compare with a channel dependency graph.
pub fn channels(cycle: &[CycleStep]) -> Vec<(End, End)> {
    cycle
        .iter()
        .filter_map(|s| match (s.place, s.next) {
            (Place::Output { node, port }, Place::Input { node: n2, port: p2 }) if node != n2 => {
                Some((End { node, port }, End { node: n2, port: p2 }))
            }
            _ => None,
        })
        .collect()
}

/// The cycle as readable lines, one per place.
pub fn render(cycle: &[CycleStep]) -> Vec<String> {
    cycle
        .iter()
        .map(|s| {
            let (side, port) = match s.place {
                Place::Input { port, .. } => ("input", port),
                Place::Output { port, .. } => ("output", port),
            };
            match &s.packet_text {
                Some(p) => format!("{} {side} {port}: {p} {}", s.node_name, s.waits_for),
                None => format!("{} {side} {port}: {}", s.node_name, s.waits_for),
            }
        })
        .collect()
}

/// True if nothing outside `cycle` can ever break it: at every link the cycle crosses,
/// the link protocol says the sender is blocked for good
/// ([`LinkProtocol::blocked_for_good`]; for the DS-Link: no credit at the sender, no FCT
/// on the wire or owed by the receiver, and no room at the receiver to grant another
/// batch even once every token in flight to it has arrived, INMOS ch. 6 §6.2.1). Inside a
/// switch, a packet waits only for another packet of the cycle (the holder of its
/// output, or its full output buffer). So every place waits, forever, for the next:
/// a deadlock of the cycle's packets even if the rest of the network keeps moving.
pub(crate) fn is_permanent<P: LinkProtocol>(
    cycle: &[CycleStep],
    counters: impl Fn(End) -> P::Counters,
) -> bool {
    let links = channels(cycle);
    !links.is_empty()
        && links
            .iter()
            .all(|&(from, to)| P::blocked_for_good(&counters(from), &counters(to)))
}
