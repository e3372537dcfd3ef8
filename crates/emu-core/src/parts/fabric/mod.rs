//! A single-stage switch fabric with credit flow control (Gramsamer, "Scalable Flow
//! Control for Interconnection Networks", ch. 2, 4, 7): N switch adapters, each an input
//! adapter with virtual output queues and an output adapter, joined to one N × N switch
//! core by links whose round trip is RTT packet cycles.
//!
//! - [`protocol`]: the packet, the flow-control cells and the link protocols: the
//!   parts' ([`FabricCell`], a cell at a time) and the wires' ([`Fabric`], runs of
//!   cells), with the §7.4 invariant;
//! - [`windowed`]: a part run a window at a time on runs of cells;
//! - [`source`]: the traffic an input creates (Bernoulli, bursty on/off, batch, trace);
//! - [`flow`]: relative credit, grant (single and multiple thresholds, optimised),
//!   absolute credit (on every departure, every n-th, without excess buffer), and the
//!   adapter's permission state;
//! - [`recent`]: events counted over the last cycles (Grant OT's and Abs B's T);
//! - [`rxs`]: the reception scheduler and its strategies (RR, FIFO, HOF, LOF, LOF-CLIQ,
//!   and the unconstrained Reference);
//! - [`adapter`]: the input and output adapter;
//! - [`switch`]: the switch core (crosspoint queues, output schedulers RR and OCF, the
//!   receiving side of flow control);
//! - [`config`]: the `[network]` table of `kind = "fabric"`;
//! - `reference` (tests only): the adapter and switch before their hot paths were
//!   rewritten, which a proptest holds the parts to, cell for cell.
//!
//! **Time.** One tick is one packet cycle (tu), the time a link takes to carry one
//! packet (Gramsamer §4.1); its length in ns is the packet size over the link rate
//! (64 bytes at 10 Gb/s, §5.6.4: 51.2 ns). There is no speed-up: an input dispatches and
//! an output sends at most one packet per cycle (§5, §2.1.2).
//!
//! **Links.** A cell sent in cycle c arrives in cycle c + RTT/2 ("It therefore takes
//! RTT/2 packet cycles for a packet to propagate on the data path, and RTT/2 cycles for
//! the control information to return", §2.3). An odd RTT puts the extra cycle on the
//! data path. The egress link to the output adapter has the data path's length; it does
//! not count in the system delay, which ends at the switch's output port (§2.4).
//!
//! **Order of events in a cycle** (the document does not give it; Gramsamer §7.6.2 fixes
//! the result: "minimum latency of 34 packet cycles (1 each per IA and switch, and 32 on
//! the data channel)" at RTT = 64). In cycle c:
//! 1. credits (or grants, or absolute values) that arrived in c reach the adapters'
//!    pools, and packets that arrived in c are stored in their crosspoints;
//! 2. each adapter dispatches one eligible and feasible packet;
//! 3. each adapter's source creates this cycle's packets (they can leave in c + 1);
//! 4. each switch output sends one packet (it may have arrived in c); its exit is the
//!    end of cycle c, tick c + 1; its freed location becomes a credit in the absorption
//!    pool;
//! 5. each input's reception scheduler returns one credit (the Reference: all of them).
//!
//! A packet created in cycle g is thus dispatched in g + 1 at the earliest, arrives in
//! g + 1 + RTT/2, leaves in that cycle and exits at g + 2 + RTT/2: **34 cycles at
//! RTT = 64**. A credit freed in cycle d + RTT/2 by a packet dispatched in d is back in
//! the pool in cycle d + RTT, before that cycle's dispatch, so the credit loop is
//! exactly RTT cycles and M = RTT credits keep one crosspoint's flow work-conserving
//! (§4.3.3: B = RTT). Steps 2-3 run in the adapters and 4-5 in the switch; as every link
//! is at least one cycle long, the two never need each other's state within a cycle.
//!
//! **Decisions where the document leaves a choice** (Gramsamer ch. 7; the reading guide
//! lists them):
//! - the initial credit pool of every VOQ is M, the crosspoint memory;
//! - HOF and LOF count the packets *stored* in a crosspoint (incremented on reception, so
//!   packets on the data path are not counted, §7.5); ties go to one RR pointer per
//!   domain that moves to each winner;
//! - LOF-CLIQ's bits ride only in packet headers, as in the document's simulator (no
//!   idle cells carry updates, §7.6.5); a VOQ that became non-empty is named in the next
//!   packet the adapter sends (one log N field per packet), unless it is empty again or
//!   is that packet's own VOQ (whose "last of VOQ" bit then tells);
//! - FIFO writes one cycle's parallel departures in random order (the switch's own RNG);
//! - uniform destinations include an input's own output index (a fabric's input i and
//!   output i are different ports);
//! - the OCF output scheduler takes simultaneous arrivals in increasing input order
//!   ("the order could be for instance determined by increasing queue destination
//!   address", §7.2.4);
//! - CICQ and CIOQ keep the same per-crosspoint queues and credits (a CIOQ's shared
//!   output queue with stateful ingress flow control is partitioned per input by its
//!   credits, §5.6.2); they differ by the output scheduler, RR and OCF (§7.2.1:
//!   "without queue reordering, RR emulates a CICQ and OCF a CIOQ").
//!
//! **Journeys**: a packet carries a [`protocol::FabricJourney`], and the output adapter
//! splits each measured packet's system delay (creation at the input adapter to exit at
//! the switch's output port, §2.4) into five parts that add up to it to the cycle: *voq*
//! (in its VOQ behind other packets, and at its head with permission while the data-path
//! scheduler served other VOQs: at least the one cycle to be queued), *credit wait* (at
//! the head of its VOQ without permission: §4.1's eligible but not feasible), *link* (the
//! data path, RTT/2), *crosspoint queue* (stored behind other packets of its crosspoint)
//! and *output scheduling* (at the head of its crosspoint until its output scheduler
//! takes it, and the cycle out of the port). `--check` holds *link* to the data path of
//! every packet.

pub mod adapter;
pub mod bitset;
pub mod config;
pub mod flow;
pub mod protocol;
pub mod recent;
#[cfg(test)]
mod reference;
pub mod rxs;
pub mod source;
pub mod switch;
mod view;
pub mod windowed;

pub use adapter::AdapterNode;
pub use flow::FlowControl;
pub use protocol::{Cell, CellRun, Fabric, FabricCell, FabricCounters, FabricJourney, Packet};

/// The names of a fabric's journey parts, in the order output adapters record them
/// ([`crate::terminal::JourneyParts`]; module documentation "Journeys").
pub const JOURNEY_PARTS: [&str; 5] = [
    "voq",
    "credit_wait",
    "link",
    "crosspoint_queue",
    "output_scheduling",
];
pub use rxs::Strategy;
pub use source::{Arrivals, Destinations, TraceEvent};
pub use switch::SwitchNode;

use crate::ids::PortId;
use crate::model::Node;
use crate::parts::Part;
use crate::routing::Routing;
use crate::time::Tick;
use windowed::Windowed;

/// How a switch output picks the next crosspoint to serve (Gramsamer §7.2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OutputScheduler {
    /// Round robin over the inputs with a packet for this output (Fig. 7.2).
    Rr,
    /// Oldest cell first: packets leave in order of arrival (Fig. 7.3).
    Ocf,
}

impl OutputScheduler {
    /// "rr" or "ocf".
    pub fn name(self) -> &'static str {
        match self {
            OutputScheduler::Rr => "rr",
            OutputScheduler::Ocf => "ocf",
        }
    }
}

/// The switch architecture (Gramsamer §2.1.4, §5.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Architecture {
    /// Combined input and crosspoint queued (buffered crossbar): N² crosspoint queues of
    /// M packets, served round robin.
    Cicq,
    /// Combined input and output queued: a shared queue per output, served oldest first.
    Cioq,
}

impl Architecture {
    /// "cicq" or "cioq".
    pub fn name(self) -> &'static str {
        match self {
            Architecture::Cicq => "cicq",
            Architecture::Cioq => "cioq",
        }
    }

    /// The output scheduler the architecture implies (§7.2.1).
    pub(crate) fn default_scheduler(self) -> OutputScheduler {
        match self {
            Architecture::Cicq => OutputScheduler::Rr,
            Architecture::Cioq => OutputScheduler::Ocf,
        }
    }
}

/// One switch adapter (input and output adapter of one port).
#[derive(Clone, Debug)]
pub struct AdapterParams {
    /// Its port number (input i and output i).
    pub index: u16,
    /// N.
    pub ports: u16,
    /// Crosspoint memory M in packets (`None`: unbounded, without flow control).
    pub memory: Option<u32>,
    /// The ingress flow control.
    pub flow_control: FlowControl,
    /// Extra cycle on the data path for an odd RTT (0 or 1).
    pub data_extra: Tick,
    /// Cycles from a dispatch to the switch storing the packet: RTT/2, rounded up (its
    /// journey's `link` part, checked under `--check`).
    pub data_path: Tick,
    /// Bucket width of the output adapter's departure timeline per input
    /// ([`crate::network::FabricRun::timeline`]); `None`: not kept.
    pub timeline: Option<Tick>,
    /// When the input creates packets.
    pub arrivals: Arrivals,
    /// Where they go.
    pub destinations: Destinations,
    /// Most packets the VOQs may hold together; more are refused and counted.
    pub voq_cap: u64,
    /// Sources start at this tick.
    pub start: Tick,
    /// Packets created in `[from, to)` are measured.
    pub window: (Tick, Tick),
    /// Bytes per packet (for throughput in bytes).
    pub packet_bytes: u32,
    /// RNG seed.
    pub seed: u64,
}

/// The switch core.
#[derive(Clone, Debug)]
pub struct SwitchParams {
    /// N.
    pub ports: u16,
    /// Crosspoint memory M in packets (`None`: unbounded).
    pub memory: Option<u32>,
    /// The ingress flow control.
    pub flow_control: FlowControl,
    /// The output scheduler.
    pub output_scheduler: OutputScheduler,
    /// The measurement window.
    pub window: (Tick, Tick),
    /// RNG seed (FIFO's random order of parallel departures).
    pub seed: u64,
}

impl Part<Fabric> for AdapterParams {
    fn kind(&self) -> &'static str {
        "adapter"
    }

    /// Port 0: the ingress link; port 1: the egress link.
    fn ports(&self) -> usize {
        2
    }

    /// Flow-control cells are applied as they arrive and packets absorbed: the channel
    /// needs room only for what the wire holds, plus one.
    fn receive_capacity(&self, _port: PortId) -> usize {
        1
    }

    fn instantiate(&self) -> Box<dyn Node<Fabric>> {
        Box::new(Windowed::new(AdapterNode::new(self.clone()), 2))
    }

    /// Only the ingress link sends (packets to the switch); the egress link brings the
    /// switch's packets in, and no flow control goes back on it (Gramsamer §2.1, Fig.
    /// 2.7: the output adapter absorbs all traffic, so "the FC channel between OA and
    /// switch \[is\] superfluous").
    fn transmits(&self, port: PortId) -> bool {
        port == 0
    }

    /// An adapter consumes what it receives and sources what it sends.
    fn routing(&self) -> Routing<'_> {
        Routing::Sink
    }

    /// The adapter, per output a VOQ header and per-flow counters, its statistics,
    /// its trace events and a batch's packets, queued at the start (other queued
    /// packets are not counted: a VOQ grows with what is offered).
    fn memory_bound(&self, fill: crate::memory::Fill) -> u64 {
        let n = u64::from(self.ports);
        // Abs B: per VOQ the dispatches of the last RTT − 1 cycles, at most one a cycle.
        let recent = match self.flow_control {
            FlowControl::AbsoluteB { window, .. } => {
                n * std::mem::size_of::<recent::Recent>() as u64 + 8 * u64::from(window)
            }
            _ => 0,
        };
        self.arrivals.memory()
            + recent
            + std::mem::size_of::<Windowed<AdapterNode>>() as u64
            + 2 * windowed::PORT_BYTES
            + n * adapter::PORT_BYTES
            + (n + 1)
                * crate::terminal::stats_memory_bound(
                    fill,
                    crate::terminal::StatsKept {
                        parts: JOURNEY_PARTS.len() as u64,
                        ..crate::terminal::StatsKept::LATENCY
                    },
                )
    }
}

impl Part<Fabric> for SwitchParams {
    fn kind(&self) -> &'static str {
        "fabric-switch"
    }

    /// N ingress ports, then N egress ports.
    fn ports(&self) -> usize {
        2 * usize::from(self.ports)
    }

    /// Packets are stored as they arrive; the crosspoint bound is the flow control's
    /// business, checked by the switch itself.
    fn receive_capacity(&self, _port: PortId) -> usize {
        1
    }

    fn instantiate(&self) -> Box<dyn Node<Fabric>> {
        Box::new(Windowed::new(
            SwitchNode::new(self.clone()),
            2 * usize::from(self.ports),
        ))
    }

    /// The switch routes by the packet's output field, not by header labels.
    fn routing(&self) -> Routing<'_> {
        Routing::Opaque
    }

    /// The switch: N² crosspoints, each a queue header, a few counters and, with
    /// bounded memory, its packets; per port its input's and output's state.
    fn memory_bound(&self, fill: crate::memory::Fill) -> u64 {
        let n = u64::from(self.ports);
        let packet = std::mem::size_of::<Packet>() as u64;
        let crosspoint =
            switch::CROSSPOINT_BYTES + fill.entries(u64::from(self.memory.unwrap_or(0))) * packet;
        // Grant OT keeps the cycles of the on slots of its window, at most M of them
        // (T + occupancy < M to grant).
        let fc = match self.flow_control {
            FlowControl::GrantOt { window } => 8 * u64::from(window.min(self.memory.unwrap_or(0))),
            _ => 0,
        };
        std::mem::size_of::<Windowed<SwitchNode>>() as u64
            + 2 * n * windowed::PORT_BYTES
            + n * n * (crosspoint + fc)
            + n * switch::PORT_BYTES
    }
}
