//! The SCI ring node (SCI §2, Figure 1): one symbol per 2 ns cycle per link, send
//! packets stripped at their target and answered by echoes, go-bit flow control.
//!
//! - [`protocol`]: the symbol and the SCI link protocol ([`Sci`]);
//! - [`stripper`]: the input parser (strip, echo, go-bit extension);
//! - [`transmitter`]: the output stage, ring buffer, recovery and go bits;
//! - [`node`]: the node: those two, the source queue with active buffers, the sink
//!   queue, and the traffic process.
//!
//! Timing (SCI §4): "a fixed minimum delay of 4 cycles per node traversed by a message:
//! one cycle to gate a symbol onto an output link, one cycle for the symbol to reach its
//! downstream neighbor and two cycles to parse a symbol". A node emits each symbol one
//! tick after choosing it, links have a latency of one tick, and the stripper has a
//! symbol [`node::PARSE_CYCLES`] ticks after it arrived. A new packet waits one cycle in
//! the source queue ("one cycle to originally queue the messages"), and it counts as
//! delivered one cycle after its last symbol reached the target's stripper ("a delay
//! equal to the message length to consume the message"), so an 8-symbol packet to the
//! next node takes 1 + 4 + 8 = 13 cycles.
//!
//! Decisions where the paper leaves a choice (its own list: `docs/sources.md`, SCI):
//! - **Ring buffer capacity**: the longest send packet plus one separator idle, which is
//!   the most that can arrive while a source packet and its postpended idle go out; after
//!   that, recovery outputs a symbol for every one it takes in. An overflow is reported
//!   as a flow-control error.
//! - **Idles in the ring buffer**: only one separator idle after each buffered packet;
//!   other idles are gaps that drain it, their go bits kept in the saved OR.
//! - **Which go-idle licenses a start**: the last symbol the transmitter *output*; the
//!   source packet takes the next slot, and the stripper's symbol of that slot goes to
//!   the ring buffer (a packet symbol) or into the saved OR (an idle).
//! - **Echo placement**: the echo takes the place of the send packet's last four symbols;
//!   the slots before it are filled with idles of the kind that preceded the packet.
//! - **Sink space** is checked at a send packet's first symbol, for the whole packet.
//! - **Retransmission**: a nacked packet goes back to the head of the source queue and
//!   keeps its creation tick, so its latency counts every try.
//! - **At reset** the ring is quiet: a stripper with nothing yet to parse hands over
//!   go-idles.

pub mod node;
pub mod protocol;
pub mod stripper;
pub mod transmitter;

pub use node::{Arrivals, SciNode};
pub use protocol::{Sci, SciCounters, Symbol, SymbolKind};

use crate::ids::PortId;
use crate::model::Node;
use crate::parts::Part;
use crate::routing::Routing;
use crate::time::Tick;
use crate::traffic::Destination;

/// Symbols of an address (command-only) send packet: "a 16 byte header" (SCI §2.1).
pub const ADDRESS_SYMBOLS: u16 = 8;
/// Symbols of a data send packet with a 64-byte block: 16 + 64 bytes (SCI §2.1, §4).
pub const DATA_SYMBOLS: u16 = 40;

/// What a node sends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SciTraffic {
    /// When it creates send packets.
    pub arrivals: Arrivals,
    /// Where each goes.
    pub destination: Destination,
    /// Fraction of data packets; the rest are address packets (SCI §4: 0.2).
    pub data_fraction: f64,
    /// Symbols of an address packet.
    pub address_symbols: u16,
    /// Symbols of a data packet.
    pub data_symbols: u16,
}

/// Parameters of one SCI node.
#[derive(Clone, Debug, PartialEq)]
pub struct SciParams {
    /// This node's id on the ring (its terminal label).
    pub node: u32,
    /// Go-bit flow control on (SCI §2.2) or off.
    pub flow_control: bool,
    /// Active buffers; `None` for unlimited (SCI §4: the default). A node may have this
    /// many plus one send packets outstanding (SCI §4.4).
    pub active_buffers: Option<u32>,
    /// Sink queue capacity in symbols (SCI §4.5: "large enough to hold the largest
    /// incoming data packet").
    pub sink_symbols: u32,
    /// Probability that a symbol is consumed from a non-empty sink queue in a cycle
    /// (SCI §4.5: 0.2 to 1.0).
    pub sink_rate: f64,
    /// Ring buffer capacity in symbols.
    pub ring_buffer: u32,
    /// What the node sends.
    pub traffic: SciTraffic,
    /// Packets are created from this tick.
    pub start: Tick,
    /// Packets created in `[from, to)` are measured; saturated sources stop at `to`.
    pub window: (Tick, Tick),
    /// Seed of the node's generator.
    pub seed: u64,
}

impl Part<Sci> for SciParams {
    fn kind(&self) -> &'static str {
        "sci"
    }

    /// Two: port 0 from the upstream neighbour, port 1 to the downstream one.
    fn ports(&self) -> usize {
        2
    }

    /// SCI has no link-level flow control: a node takes a symbol every cycle, and the
    /// engine's channel needs room only for what the wire holds. One symbol of slack.
    fn receive_capacity(&self, _port: PortId) -> usize {
        1
    }

    fn instantiate(&self) -> Box<dyn Node<Sci>> {
        Box::new(SciNode::new(self.clone()))
    }

    /// Every symbol not for this node goes on round the ring: there is no header to
    /// route by, so no routing view (`emu check` does not apply to a ring that cannot
    /// deadlock).
    fn routing(&self) -> Routing<'_> {
        Routing::Opaque
    }
}
