//! The validated, immutable plan of a network: nodes, ports, links with latencies,
//! routing tables and the parameters of every part (../shared/DESIGN.md "Layers",
//! config / build). All validation happens while building it, before any tick runs.

pub mod build;
mod crossbar;
mod family;
mod hypercube;
mod kary;
mod min;
mod netlist;
mod ring;
pub mod walk;

use crate::model::PortId;
use crate::model::c104::C104Params;
use crate::model::processor::ProcessorParams;
use crate::time::{Tick, TimeBase};
pub use build::{BuildError, build};

/// Index of a node in [`Network::nodes`].
pub type NodeId = usize;

/// One end of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct End {
    /// The node.
    pub node: NodeId,
    /// Its port.
    pub port: PortId,
}

/// A bidirectional DS-Link between two ports. Each direction is its own channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// One end.
    pub a: End,
    /// The other end.
    pub b: End,
    /// Ticks from a token's last bit leaving a transmitter to its arrival (≥ 1).
    pub latency: Tick,
    /// Most tokens that can be in flight in one direction at once: what the wire
    /// holds plus one being serialised.
    pub in_flight: usize,
}

impl Link {
    /// A link between `a` and `b` with `latency` ticks each way; its channels hold
    /// what the wire can (a token per control-token time) plus one being sent.
    pub fn new(a: End, b: End, latency: Tick) -> Link {
        Link {
            a,
            b,
            latency,
            in_flight: (latency / crate::model::token::CONTROL_TOKEN_BITS) as usize + 2,
        }
    }
}

/// What a node is.
#[derive(Clone, Debug)]
pub enum NodeKind {
    /// An IMS C104 routing switch.
    C104(C104Params),
    /// A T9000: virtual channel processor plus the terminal process.
    Processor(ProcessorParams),
}

/// One node of the plan.
#[derive(Clone, Debug)]
pub struct NodeSpec {
    /// Readable name, e.g. `c104[17]` or `t9000[17]`.
    pub name: String,
    /// The part and its parameters.
    pub kind: NodeKind,
    /// Number of ports.
    pub ports: usize,
}

/// Run phases in ticks, from the traffic file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunPlan {
    /// Sources start here.
    pub start: Tick,
    /// Measurement window `[from, to)`; `to` is `Tick::MAX` for batch runs.
    pub window: (Tick, Tick),
    /// True for batch runs (end when every message is delivered).
    pub batch: bool,
    /// The run may end once this tick is reached and every measured message is delivered.
    pub end_after: Tick,
    /// The run stops here even if measured messages are undelivered.
    pub hard_stop: Tick,
    /// Default deadlock window: ten maximum packet times plus header times, ≥ 2000 ticks.
    pub deadlock_window: Tick,
}

/// A link direction: the sending end and the receiving end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction {
    /// Sender.
    pub from: End,
    /// Receiver.
    pub to: End,
    /// Latency in ticks.
    pub latency: Tick,
    /// Channel capacity in tokens.
    pub capacity: usize,
}

/// The plan.
#[derive(Clone, Debug)]
pub struct Network {
    /// Short name (the topology file stem).
    pub name: String,
    /// Tick length.
    pub time: TimeBase,
    /// Nodes, in id order. Statistics are merged in this order.
    pub nodes: Vec<NodeSpec>,
    /// Links.
    pub links: Vec<Link>,
    /// For each terminal label, the processor node that hosts it.
    pub terminals: Vec<NodeId>,
    /// Number of switches.
    pub switches: usize,
    /// C104 header time in ticks (the chapter 7 delay unit).
    pub header_time: Tick,
    /// Ticks per payload byte on a link (a data token: 10).
    pub byte_ticks: Tick,
    /// C104 routing delay in ticks (header time less header bits and wire delay).
    pub routing_delay: Tick,
    /// Payload bytes per message.
    pub message_bytes: u32,
    /// Run phases.
    pub run: RunPlan,
    /// Tokens of a maximum-size packet (header + payload + terminator).
    pub packet_tokens: u32,
    /// Payload bytes of a maximum-size packet.
    pub max_data_bytes: u32,
    /// Header bytes.
    pub header_bytes: u32,
}

impl Network {
    /// Every link direction, in link order (a→b then b→a).
    pub fn directions(&self) -> Vec<Direction> {
        let mut v = Vec::with_capacity(self.links.len() * 2);
        for l in &self.links {
            let cap = l.in_flight + self.receive_capacity(l.b) as usize;
            v.push(Direction {
                from: l.a,
                to: l.b,
                latency: l.latency,
                capacity: cap,
            });
            let cap = l.in_flight + self.receive_capacity(l.a) as usize;
            v.push(Direction {
                from: l.b,
                to: l.a,
                latency: l.latency,
                capacity: cap,
            });
        }
        v
    }

    /// Input buffer capacity in tokens of the receiver at `end`.
    pub fn receive_capacity(&self, end: End) -> u32 {
        match &self.nodes[end.node].kind {
            NodeKind::C104(p) => p.link.buffer,
            NodeKind::Processor(p) => p.vcp.link.buffer,
        }
    }

    /// Smallest link latency: the engines' lookahead window.
    pub fn min_latency(&self) -> Tick {
        self.links
            .iter()
            .map(|l| l.latency)
            .min()
            .unwrap_or(1)
            .max(1)
    }

    /// Number of terminals.
    pub fn terminal_count(&self) -> usize {
        self.terminals.len()
    }
}

impl Network {
    /// Creates the reset state machines of every node, in node order.
    pub fn instantiate(&self) -> Vec<Box<dyn crate::model::Node>> {
        self.nodes
            .iter()
            .map(|n| -> Box<dyn crate::model::Node> {
                match &n.kind {
                    NodeKind::C104(p) => Box::new(crate::model::c104::C104::new(p.clone())),
                    NodeKind::Processor(p) => {
                        Box::new(crate::model::processor::Processor::new(p.clone()))
                    }
                }
            })
            .collect()
    }

    /// For every node and port, the link direction leaving it and the one arriving at
    /// it (indices into [`Network::directions`]).
    pub fn port_map(&self) -> Vec<Vec<PortWires>> {
        let mut map: Vec<Vec<PortWires>> = self
            .nodes
            .iter()
            .map(|n| vec![PortWires::default(); n.ports])
            .collect();
        for (i, d) in self.directions().iter().enumerate() {
            map[d.from.node][d.from.port].out = Some(i);
            map[d.to.node][d.to.port].inp = Some(i);
        }
        map
    }
}

/// The link directions attached to one port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortWires {
    /// Direction the port sends on.
    pub out: Option<usize>,
    /// Direction the port receives from.
    pub inp: Option<usize>,
}
