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
//! symbol [`node::PARSE_CYCLES`] ticks after it arrived (the protocol's receive delay,
//! so the engines' windows are three ticks). A node keeps what it is handed in its parse
//! queue until then, so the engines hand it every symbol due in a window at once; it runs
//! the window's cycles in one step and sends their symbols as one wire event, a run
//! ([`Symbols`]; docs/architecture.md "SCI symbols travel in runs"). A new
//! packet waits one cycle in the source queue ("one cycle to originally queue the messages"), and it counts as
//! delivered one cycle after its last symbol reached the target's stripper ("a delay
//! equal to the message length to consume the message"), so an 8-symbol packet to the
//! next node takes 1 + 4 + 8 = 13 cycles.
//!
//! Journeys (SCI §4.8, Fig. 14): a send packet's symbols carry a [`SciJourney`], and the
//! target splits each measured packet's latency into its *source queue* (creation to
//! the start of the transmission that reached it, less the next part), *idle source*
//! (cycles it was the head of an idle source waiting for a passing packet's tail or, under
//! flow control, a go-idle), *ring buffer* (cycles in the ring buffers of the nodes on its
//! way) and *fixed* ([`fixed_delay`]: 4 cycles a node and its length). The four add up to
//! the latency to the cycle; `--check` checks that the fixed part is [`fixed_delay`] for
//! every packet. The paper's curves are sums of these: Transit = fixed + ring buffer, Idle
//! Source = Transit + idle source, Total = Idle Source + source queue.
//!
//! Decisions where the paper leaves a choice (its own list: `docs/sources.md`, SCI):
//! - **Ring buffer capacity**: the longest send packet plus one separator idle, which is
//!   the most that can arrive while a source packet and its postpended idle go out; after
//!   that, recovery outputs a symbol for every one it takes in. An overflow is reported
//!   as a flow-control error.
//! - **Idles in the ring buffer**: only one separator idle after each buffered packet;
//!   other idles are gaps that drain it, their go bits kept in the saved OR.
//! - **Which go-idle licenses a start**: the last symbol the transmitter *output*, be
//!   it a go-idle passed on from the stripper or the node's own postpended idle that
//!   released a set go bit; the source packet takes the next slot, and the stripper's
//!   symbol of that slot goes to the ring buffer (a packet symbol) or into the saved OR
//!   (an idle). Of the readings tried, this is the one that reproduces SCI §4.1/§5's
//!   findings on flow-control cost (negligible on 2 nodes, about 10 % / 20 % / up to
//!   30 %, worst at 8-32 nodes). Letting only a *passed* go-idle license a start costs
//!   22 % of the maximum throughput on 2 nodes, against the paper's "negligible",
//!   although it lands nearer SCI §4.3's hot-sender rate on 16 nodes (0.275 against
//!   0.264 bytes/ns, where this reading gives 0.31: a known miss of
//!   `emu reproduce sci-hot-sender`). Consuming a received go-idle (the packet taking
//!   its slot) was 19 % under that rate.
//! - **Echo placement**: the echo takes the place of the send packet's last four symbols;
//!   the slots before it are filled with idles of the kind that preceded the packet.
//! - **Sink space** is checked at a send packet's first symbol, for the whole packet.
//! - **Retransmission**: a nacked packet goes back to the head of the source queue and
//!   keeps its creation tick, so its latency counts every try.
//! - **At reset** the ring is quiet: a stripper with nothing yet to parse hands over
//!   go-idles.
//! - **Link faults** (emu's decision; the paper leaves "error detection/recovery" out,
//!   SCI §2): a dead link delivers nothing, so its downstream node sees a quiet ring. A
//!   packet for a node that an idle cuts short is dropped there (the header's CRC would
//!   reject it, SCI §2.1), and a send packet whose echo is overdue waits for good
//!   (`WaitReason::AckOverdue`); the run then fails naming the link. Only a plan with
//!   link faults tells the node to expect this; otherwise both are protocol errors.

pub mod config;
pub mod mg1;
pub mod node;
pub mod protocol;
pub mod stripper;
pub mod transmitter;
mod view;

pub use node::{Arrivals, SciNode};
pub use protocol::{RUN_SYMBOLS, Sci, SciCounters, SciJourney, Symbol, SymbolKind, Symbols};

/// The names of an SCI ring's journey parts, in the order nodes record them
/// ([`crate::terminal::JourneyParts`]; module documentation "Journeys").
pub const JOURNEY_PARTS: [&str; 4] = ["source_queue", "idle_source", "ring_buffer", "fixed"];

/// Cycles from a send packet of `len` symbols starting on its source's output link to
/// its last symbol consumed at a target `hops` nodes downstream, when no ring buffer
/// holds it up: "a fixed minimum delay of 4 cycles per node traversed" and "a delay equal
/// to the message length to consume the message" (SCI §4).
pub const fn fixed_delay(hops: u32, len: u16) -> Tick {
    4 * hops as Tick + len as Tick
}

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
/// Symbols of a data send packet with a 256-byte block: 16 + 256 bytes (SCI §4.1, the
/// bottom curve of Fig. 5).
pub(crate) const DATA256_SYMBOLS: u16 = 136;

/// The send-packet mix: fractions of address, 64-byte data and 256-byte data packets
/// (SCI §4: "20% data packets" with 64-byte blocks is the default workload).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PacketMix {
    /// Fraction of address packets.
    pub address: f64,
    /// Fraction of data packets with a 64-byte block.
    pub data64: f64,
    /// Fraction of data packets with a 256-byte block.
    pub data256: f64,
}

impl PacketMix {
    /// The paper's default workload: 80 % address, 20 % 64-byte data (SCI §4).
    pub const PAPER: PacketMix = PacketMix {
        address: 0.8,
        data64: 0.2,
        data256: 0.0,
    };

    /// Only packets of one kind: `symbols` must be one of the three lengths.
    pub fn only(symbols: u16) -> PacketMix {
        let f = |s| if s == symbols { 1.0 } else { 0.0 };
        PacketMix {
            address: f(ADDRESS_SYMBOLS),
            data64: f(DATA_SYMBOLS),
            data256: f(DATA256_SYMBOLS),
        }
    }

    /// `(symbols, fraction)` of each kind.
    pub fn kinds(&self) -> [(u16, f64); 3] {
        [
            (ADDRESS_SYMBOLS, self.address),
            (DATA_SYMBOLS, self.data64),
            (DATA256_SYMBOLS, self.data256),
        ]
    }

    /// The length of one packet, for a uniform draw `u` in [0, 1).
    pub fn pick(&self, u: f64) -> u16 {
        let mut acc = 0.0;
        let mut last = ADDRESS_SYMBOLS;
        for (symbols, f) in self.kinds() {
            if f <= 0.0 {
                continue;
            }
            acc += f;
            last = symbols;
            if u < acc {
                return symbols;
            }
        }
        last
    }

    /// The longest packet the mix can send (an address packet if it sends none).
    pub fn longest(&self) -> u16 {
        self.kinds()
            .iter()
            .filter(|(_, f)| *f > 0.0)
            .map(|(s, _)| *s)
            .max()
            .unwrap_or(ADDRESS_SYMBOLS)
    }

    /// Mean symbols per send packet (without the separator idle): SCI App. A's
    /// `l_send − 1`.
    pub fn mean_symbols(&self) -> f64 {
        self.kinds().iter().map(|(s, f)| f64::from(*s) * f).sum()
    }
}

/// What a node sends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SciTraffic {
    /// When it creates send packets.
    pub arrivals: Arrivals,
    /// Where each goes.
    pub destination: Destination,
    /// The lengths of the packets it creates.
    pub mix: PacketMix,
    /// Request/response traffic (SCI §4.7): every packet the node creates is a read
    /// request (an address packet), and every request delivered to it is answered at
    /// once by a response carrying a 64-byte block.
    pub request_response: bool,
}

impl SciTraffic {
    /// The longest send packet the node can send, responses included.
    pub fn longest(&self) -> u16 {
        if self.request_response {
            DATA_SYMBOLS
        } else {
            self.mix.longest()
        }
    }
}

/// Parameters of one SCI node.
#[derive(Clone, Debug, PartialEq)]
pub struct SciParams {
    /// This node's id on the ring (its terminal label).
    pub node: u32,
    /// Nodes on the ring.
    pub ring_nodes: u32,
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

    /// Only port 1 sends: a ring link carries symbols downstream alone (SCI §2.1).
    fn transmits(&self, port: PortId) -> bool {
        port == 1
    }

    /// Every symbol not for this node goes on round the ring: there is no header to
    /// route by, so no routing view (`emu check` does not apply to a ring that cannot
    /// deadlock).
    fn routing(&self) -> Routing<'_> {
        Routing::Opaque
    }

    /// The node with its ring buffer, sink queue and parser, its statistics and a
    /// batch's send packets, queued at the start (send packets outstanding and the
    /// source queue under other arrivals are not counted: it grows with what is
    /// offered).
    fn memory_bound(&self, fill: crate::memory::Fill) -> u64 {
        let batch = match self.traffic.arrivals {
            node::Arrivals::Batch(k) => u64::from(k) * node::QUEUED_PACKET_BYTES,
            _ => 0,
        };
        let symbol = std::mem::size_of::<(Tick, Symbol)>() as u64;
        let symbols = fill.entries(u64::from(self.ring_buffer))
            + 2 * fill.entries(u64::from(self.sink_symbols));
        std::mem::size_of::<SciNode>() as u64
            + symbols * symbol
            + crate::terminal::stats_memory_bound(
                fill,
                crate::terminal::StatsKept {
                    parts: JOURNEY_PARTS.len() as u64,
                    ..crate::terminal::StatsKept::SOURCE
                },
            )
            + batch
    }
}
