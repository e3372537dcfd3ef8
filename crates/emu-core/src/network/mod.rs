//! The validated, immutable plan of a network: nodes, ports, links with latencies,
//! routing tables and the parameters of every part (docs/architecture.md "Layers",
//! config / build). All validation happens while building it, before any tick runs.

pub mod bounds;
pub mod build;
mod builder;
mod crossbar;
mod fabric;
pub mod faults;
mod geometry;
mod hypercube;
mod kary;
pub mod kinds;
mod min;
mod netlist;
pub mod pattern;
mod relay_ring;
mod ring;
mod sci_ring;
pub mod timing;
pub mod topology;
mod traffic_plan;
pub mod walk;

pub use crate::ids::{End, NodeId};
use crate::memory::{Fill, Need};
use crate::model::{LinkProtocol, Node};
use crate::parts::Part;
use crate::parts::dslink::DsLink;
use crate::time::{Tick, TimeBase};
pub use build::{BuildError, Checked, build, check};
pub use builder::{Builder, PlanError};
pub use fabric::{FabricRun, fabric, fabric_from_config};
pub use faults::{FaultPlan, LinkNameError};
pub use geometry::Geometry;
pub use kinds::{NetlistConfig, NetworkConfig};
pub use relay_ring::relay_ring;
pub use sci_ring::{CYCLE_NS, SciRing, sci_ring, sci_ring_from_config};
use std::sync::Arc;
pub use topology::TopologyConfig;

/// A bidirectional link between two ports. Each direction is its own channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// One end.
    pub a: End,
    /// The other end.
    pub b: End,
    /// Ticks from a token's last bit leaving a transmitter to its arrival (≥ 1).
    pub latency: Tick,
    /// Most tokens that can be in flight in one direction at once: what the wire
    /// holds plus one being serialised (the link protocol says how many, e.g.
    /// [`crate::parts::dslink::wire_capacity`]).
    pub in_flight: usize,
}

impl Link {
    /// A link between `a` and `b` with `latency` ticks each way, whose wire holds at
    /// most `in_flight` tokens in each direction.
    pub fn new(a: End, b: End, latency: Tick, in_flight: usize) -> Link {
        Link {
            a,
            b,
            latency,
            in_flight,
        }
    }
}

/// One node of the plan, on link protocol `P`.
#[derive(Clone, Debug)]
pub struct NodeSpec<P: LinkProtocol = DsLink> {
    /// Readable name, e.g. `c104[17]` or `t9000[17]`.
    pub name: String,
    /// The part and its parameters.
    pub part: Arc<dyn Part<P>>,
}

impl<P: LinkProtocol> NodeSpec<P> {
    /// A node named `name` of part `part`.
    pub fn new(name: impl Into<String>, part: impl Part<P> + 'static) -> Self {
        NodeSpec {
            name: name.into(),
            part: Arc::new(part),
        }
    }

    /// Number of ports: the part's.
    pub fn ports(&self) -> usize {
        self.part.ports()
    }
}

/// What the engines keep per node besides the part: its box, clock, due-queue entry,
/// port map and wake-up lists (an estimate, rounded up).
const ENGINE_BYTES_PER_NODE: u64 = 512;

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
    /// The longest a healthy network of this plan may go without moving a token while
    /// packets are in flight: a deadlock window shorter than this would call a working
    /// network deadlocked, so `--deadlock-window-us` refuses one. Each family derives it
    /// from its timing (see [`Silence`]).
    pub silence: Silence,
}

/// The longest legal silence of a network (no token moving while packets are in
/// flight), in ticks, and how it is derived, for the message that refuses a shorter
/// deadlock window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Silence {
    /// Ticks.
    pub ticks: Tick,
    /// What it is, in words: "one node's fixed delay (SCI §4)".
    pub why: &'static str,
}

impl Silence {
    /// No bound beyond one tick (a plan built for a test).
    pub const NONE: Silence = Silence {
        ticks: 1,
        why: "one tick",
    };
}

impl RunPlan {
    /// The run phases of a family: sources start at `start`, messages created in
    /// `window` are measured, and the run is given up `drain` ticks after the window
    /// (a batch run: after `start`). It may end once every measured message is delivered
    /// and, for a continuous run, the window has closed (messages created at its end
    /// tick are not measured); for a batch run, once the tick after `start` is reached,
    /// so that the tick at which the sources queue their batch has run. (A batch run
    /// whose scheduling window happened to end exactly at `start` used to end there,
    /// with no message created.)
    pub fn new(
        start: Tick,
        window: (Tick, Tick),
        batch: bool,
        drain: Tick,
        deadlock_window: Tick,
    ) -> RunPlan {
        let (end_after, drain_from) = if batch {
            (start.saturating_add(1), start)
        } else {
            (window.1, window.1)
        };
        RunPlan {
            start,
            window,
            batch,
            end_after,
            hard_stop: drain_from.saturating_add(drain),
            deadlock_window,
            silence: Silence::NONE,
        }
    }

    /// The plan with its family's longest legal silence (see [`RunPlan::silence`]).
    pub fn with_silence(self, silence: Silence) -> RunPlan {
        RunPlan { silence, ..self }
    }
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

/// The validated, immutable plan of a network whose links all speak protocol `P`:
/// made only by a [`Builder`], which checks that every link joins two existing ports,
/// each port at most once, with a latency of at least one tick.
#[derive(Clone, Debug)]
pub struct Network<P: LinkProtocol = DsLink> {
    name: String,
    time: TimeBase,
    nodes: Vec<NodeSpec<P>>,
    links: Vec<Link>,
    terminals: Vec<NodeId>,
    switches: usize,
    units: Units,
    run: RunPlan,
    flows: Vec<(u32, u32)>,
    senders: Vec<bool>,
    faults: Option<Arc<FaultPlan>>,
    geometry: Geometry,
    warnings: Vec<String>,
}

impl<P: LinkProtocol> Network<P> {
    /// The plan with `warnings` about the network itself, each one line that the
    /// report ends with (a netlist's links that no route crosses).
    pub fn with_warnings(mut self, warnings: Vec<String>) -> Self {
        self.warnings = warnings;
        self
    }

    /// The warnings about the network itself (see [`Network::with_warnings`]).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The plan with link faults (docs/architecture.md "Link faults"): the engines
    /// discard the tokens that would cross a dead link. Any family may add them.
    pub fn with_faults(mut self, faults: FaultPlan) -> Self {
        self.faults = Some(Arc::new(faults));
        self
    }

    /// The plan with the natural drawing of its nodes (see [`Geometry`]); a plan
    /// without one is [`Geometry::Free`].
    pub fn with_geometry(mut self, geometry: Geometry) -> Self {
        self.geometry = geometry;
        self
    }

    /// Where its family's nodes sit when the network is drawn.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The link faults, if any were configured.
    pub fn faults(&self) -> Option<&FaultPlan> {
        self.faults.as_deref()
    }

    /// The plan with its traffic's fixed flows: for permutation traffic (every sending
    /// terminal always sends to one destination, and no two to the same), the
    /// (source, destination) terminal labels; empty otherwise.
    pub fn with_flows(mut self, flows: Vec<(u32, u32)>) -> Self {
        self.flows = flows;
        self
    }

    /// The plan with the terminals its traffic makes senders (by label); without it,
    /// reports take every terminal that offered anything for a sender.
    pub(crate) fn with_senders(mut self, senders: Vec<bool>) -> Self {
        self.senders = senders;
        self
    }

    /// Which terminals the traffic makes senders, by label (empty: not known).
    pub fn senders(&self) -> &[bool] {
        &self.senders
    }

    /// The traffic's fixed flows (see [`Network::with_flows`]).
    pub fn flows(&self) -> &[(u32, u32)] {
        &self.flows
    }

    /// Short name (the topology file stem).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Tick length.
    pub fn time(&self) -> TimeBase {
        self.time
    }

    /// Nodes, in id order. Statistics are merged in this order.
    pub fn nodes(&self) -> &[NodeSpec<P>] {
        &self.nodes
    }

    /// Bytes the nodes and links of this network take once built (see
    /// [`crate::memory`]): at least, lightly loaded, and at most, with every buffer full and
    /// the latency histograms at their largest for the plan's hard stop; each is every
    /// part's bound, every link direction's channel in the sharded engine (grown as it
    /// fills; the actors engine preallocates its channels whole) and the engines'
    /// per-node bookkeeping.
    pub fn memory_need(&self) -> Need {
        let count = |fill: Fill| -> u64 {
            let nodes = self
                .nodes
                .iter()
                .map(|n| {
                    n.part
                        .memory_bound(fill)
                        .saturating_add(ENGINE_BYTES_PER_NODE)
                })
                .fold(0, u64::saturating_add);
            let wires = self
                .directions()
                .iter()
                .map(|d| P::wire_bytes(d.capacity, fill))
                .fold(0, u64::saturating_add);
            nodes.saturating_add(wires)
        };
        Need {
            least: count(Fill::Light),
            most: count(Fill::Full {
                hard_stop: self.run.hard_stop,
            }),
        }
    }

    /// The plan with node `node`'s part replaced by `part`, which must have the same
    /// ports (the links stay as they are): for wrapping a part in a test harness or a
    /// deliberate fault, as the engines' tests do with a part that panics.
    pub fn with_part(
        mut self,
        node: NodeId,
        part: impl Part<P> + 'static,
    ) -> Result<Self, PlanError> {
        let Some(spec) = self.nodes.get_mut(node) else {
            return Err(PlanError::NoSuchNode { node });
        };
        if part.ports() != spec.ports() {
            return Err(PlanError::PortsDiffer {
                node,
                want: spec.ports(),
                got: part.ports(),
            });
        }
        spec.part = Arc::new(part);
        Ok(self)
    }

    /// Links.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// For each terminal label, the node that hosts it.
    pub fn terminals(&self) -> &[NodeId] {
        &self.terminals
    }

    /// Number of switches.
    pub fn switches(&self) -> usize {
        self.switches
    }

    /// The units the family's source document measures in, for reports.
    pub fn units(&self) -> Units {
        self.units
    }

    /// Run phases.
    pub fn run(&self) -> RunPlan {
        self.run
    }

    /// Replaces the part of node `node` (tests of tools that read parts).
    #[cfg(test)]
    pub(crate) fn replace_part(&mut self, node: NodeId, part: Arc<dyn Part<P>>) {
        self.nodes[node].part = part;
    }
}

/// A source document's own unit of delay, in which reports give latencies beside ticks
/// and microseconds (docs/architecture.md "Time and units").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DelayUnit {
    /// Its name in the text report, e.g. "header times".
    pub name: &'static str,
    /// Its length in ticks (0: the family has none, and the column reads 0).
    pub ticks: Tick,
}

impl DelayUnit {
    /// The C104 header time (INMOS ch. 7 §7.6: "approximately 500ns"), the delay unit
    /// of every table of INMOS ch. 7.
    pub fn header_time(ticks: Tick) -> DelayUnit {
        DelayUnit {
            name: "header times",
            ticks,
        }
    }
}

/// What a network family tells reports about its units and its packets. The time base
/// (one tick) is [`Network::time`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Units {
    /// The source document's delay unit.
    pub delay: DelayUnit,
    /// Ticks one payload byte takes on a link: throughput is given as a percentage of
    /// one byte per this many ticks (a DS-Link data token: 10).
    pub byte_ticks: Tick,
    /// Bytes a link carries per `byte_ticks` ticks (a DS-Link data token: 1; an SCI
    /// 16-bit symbol: 2).
    pub link_bytes: u32,
    /// Routing header bytes per packet.
    pub header_bytes: u32,
    /// Payload bytes of a maximum-size packet.
    pub max_data_bytes: u32,
    /// Payload bytes per message.
    pub message_bytes: u32,
    /// Tokens of a maximum-size packet (header + payload + terminator).
    pub packet_tokens: u32,
}

impl Units {
    /// The units of a family whose tokens carry no payload bytes of their own (such as
    /// the relay ring): `delay` as the document unit, one tick per token, one-token
    /// packets, no headers.
    pub fn plain(delay: DelayUnit) -> Units {
        Units {
            delay,
            byte_ticks: 1,
            link_bytes: 1,
            header_bytes: 0,
            max_data_bytes: 1,
            message_bytes: 0,
            packet_tokens: 1,
        }
    }
}

impl<P: LinkProtocol> Network<P> {
    /// Every link direction, in link order (a→b then b→a). A channel holds a token
    /// until its receiver takes it, [`LinkProtocol::RECEIVE_DELAY`] ticks after its
    /// arrival, in windows that much longer: at one token a tick, twice that many more
    /// than the wire and the receiver's buffer.
    pub fn directions(&self) -> Vec<Direction> {
        let mut v = Vec::with_capacity(self.links.len() * 2);
        let held = usize::try_from(P::RECEIVE_DELAY)
            .unwrap_or(usize::MAX)
            .saturating_mul(2);
        for l in &self.links {
            let cap = l.in_flight + held + self.receive_capacity(l.b);
            v.push(Direction {
                from: l.a,
                to: l.b,
                latency: l.latency,
                capacity: cap,
            });
            let cap = l.in_flight + held + self.receive_capacity(l.a);
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
    pub fn receive_capacity(&self, end: End) -> usize {
        self.nodes[end.node].part.receive_capacity(end.port)
    }

    /// The engines' window: nothing sent in it can be taken by its receiver before it
    /// ends, the smallest link latency plus the protocol's
    /// [`LinkProtocol::RECEIVE_DELAY`].
    pub fn lookahead(&self) -> Tick {
        self.min_latency().saturating_add(P::RECEIVE_DELAY)
    }

    /// Smallest link latency.
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

impl<P: LinkProtocol> Network<P> {
    /// Creates the reset state machines of every node, in node order; with `check`,
    /// each keeps the records its own checks need ([`Node::enable_checks`]); with link
    /// faults in the plan, each is told to expect them ([`Node::expect_link_faults`]);
    /// with a recorder, each is wrapped in an [`crate::observe::Observed`] node that
    /// records into it.
    pub fn instantiate(
        &self,
        check: bool,
        observe: Option<&std::sync::Arc<crate::observe::Recorder>>,
    ) -> Vec<Box<dyn Node<P>>> {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let mut node = n.part.instantiate();
                if check {
                    node.enable_checks();
                }
                if self.faults.is_some() {
                    node.expect_link_faults();
                }
                match observe {
                    Some(r) => Box::new(crate::observe::Observed::new(
                        node,
                        i,
                        n.ports(),
                        std::sync::Arc::clone(r),
                    )),
                    None => node,
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
            .map(|n| vec![PortWires::default(); n.ports()])
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
