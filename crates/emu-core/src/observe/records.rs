//! What an observed node records: its packets' hops, the packets delivered to it or
//! still held in it at the end, its ports' counter changes and its watched wires'
//! tokens. Protocol-free: tokens are seen through [`crate::model::TokenView`].

use crate::ids::PortId;
use crate::model::{PacketId, TokenView};
use crate::time::Tick;

/// One packet crossing one node: from its arrival (or, where it started, its
/// creation) to its last token leaving on `out`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hop {
    /// The packet.
    pub packet: PacketId,
    /// Port it arrived on; `None` where it started (its source).
    pub input: Option<PortId>,
    /// Port it left on.
    pub out: PortId,
    /// Tick its first token had arrived (at its source: the tick it was created, or,
    /// for an answer, the tick the packet it answers arrived).
    pub arrived: Tick,
    /// Tick its first token started on `out`.
    pub start: Tick,
    /// Tick its last token left on `out`; `None` if it had not when the run ended.
    pub end: Option<Tick>,
    /// What the node added to the packet's named waits (the journey's parts), in the
    /// order they are spent, before `start`.
    pub waits: [(&'static str, u64); 2],
    /// What the rest of `arrived..start` is called ("source queue", "route", …).
    pub rest: &'static str,
}

/// A packet delivered to the terminal of this node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// The packet.
    pub packet: PacketId,
    /// Port it arrived on.
    pub input: PortId,
    /// Tick its first token arrived.
    pub first: Tick,
    /// Tick its last token arrived.
    pub last: Tick,
}

/// A packet that had arrived at this node and had not left it when the run ended (a
/// deadlock leaves them behind).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held {
    /// The packet.
    pub packet: PacketId,
    /// Port it arrived on.
    pub input: PortId,
    /// Tick its first token arrived.
    pub arrived: Tick,
}

/// A port's counter's new value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GaugeSample {
    /// The port.
    pub port: PortId,
    /// Tick of the change (the node's step at which it was seen).
    pub tick: Tick,
    /// The counter's name.
    pub name: &'static str,
    /// Its value from `tick` on.
    pub value: u64,
}

/// A token sent on a watched port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireToken {
    /// The port.
    pub port: PortId,
    /// Tick its first bit started.
    pub start: Tick,
    /// How it looks.
    pub view: TokenView,
}

/// Everything one node recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeRecord {
    /// The node's index.
    pub node: usize,
    /// The last tick the node ran at.
    pub last_tick: Tick,
    /// Packets that crossed it (or started at it), in the order their last token left.
    pub hops: Vec<Hop>,
    /// Packets delivered to its terminal, in the order their last token arrived.
    pub arrivals: Vec<Arrival>,
    /// Packets it held when the run ended, in the order they arrived.
    pub held: Vec<Held>,
    /// Its ports' counter changes, in tick order.
    pub gauges: Vec<GaugeSample>,
    /// Tokens sent on its watched ports, in the order sent.
    pub wires: Vec<WireToken>,
    /// True if it sent a token that starts a packet (a protocol whose tokens show no
    /// packets never does), whether or not the packet was kept.
    pub packets_seen: bool,
    /// Its watched ports' counter changes from the start of the run, in tick order.
    pub wire_gauges: Vec<GaugeSample>,
    /// Per watched port: tokens it had sent when the run ended, as its counters hold
    /// them ([`crate::model::LinkProtocol::sent`]).
    pub sent: Vec<(PortId, u64)>,
}
