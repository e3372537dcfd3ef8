//! Turns a topology and a traffic file into a validated [`Network`]. Every check that
//! can fail names the key it is about, so the front end can point at the file line.

use super::traffic_plan::{self, traffic_err};
use super::{Builder, DelayUnit, End, Network, NodeId, RunPlan, Units, kinds};
use crate::config::TrafficConfig;
use crate::config::traffic::InjectionConfig;
use crate::model::PortId;
use crate::network::TopologyConfig;
use crate::parts::ConfigError;
use crate::parts::c104::C104Params;
use crate::parts::dslink::token::DATA_TOKEN_BITS;
use crate::parts::dslink::{self, DsLink, LinkParams, wire_capacity};
use crate::parts::t9000::ProcessorParams;
use crate::parts::t9000::vcp::VcpParams;
use crate::routing::{IntervalTable, LabelRouting};
use crate::terminal::TerminalParams;
use crate::time::Tick;
use crate::traffic::{Destination, Injection};
use std::sync::Arc;

/// A validation error naming the offending key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {message}")]
pub struct BuildError {
    /// Which file the key is in.
    pub file: crate::config::FileKind,
    /// Dotted key path, e.g. `network.dimensions`.
    pub key: String,
    /// What is wrong, and what would be right.
    pub message: String,
}

pub(super) fn topo_err(key: &str, message: impl Into<String>) -> BuildError {
    BuildError {
        file: crate::config::FileKind::Topology,
        key: key.into(),
        message: message.into(),
    }
}

/// Mixes a run seed with a stream number (SplitMix64), so every node gets its own
/// independent generator (docs/architecture.md "Determinism and randomness").
pub fn mix_seed(seed: u64, stream: u64) -> u64 {
    let mut z = seed
        ^ stream
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Everything a topology builder needs to make nodes.
pub(super) struct Parts {
    link: LinkParams,
    header_bytes: u32,
    routing_delay: Tick,
    output_buffer: u32,
    vcp: VcpParams,
    terminal: TerminalParams,
    destinations: Vec<Destination>,
    senders: Vec<bool>,
    saturated: Vec<bool>,
    latency: Tick,
    seed: u64,
    /// Leave every routing table empty: the plan is built only to be counted
    /// ([`Checked::memory_need`]).
    dry: bool,
    plan: Builder<DsLink>,
}

impl Parts {
    /// These parts with an empty plan, building tables or not (`dry`).
    fn fresh(&self, dry: bool) -> Parts {
        Parts {
            link: self.link,
            header_bytes: self.header_bytes,
            routing_delay: self.routing_delay,
            output_buffer: self.output_buffer,
            vcp: self.vcp.clone(),
            terminal: self.terminal.clone(),
            destinations: self.destinations.clone(),
            senders: self.senders.clone(),
            saturated: self.saturated.clone(),
            latency: self.latency,
            seed: self.seed,
            dry,
            plan: Builder::new(),
        }
    }

    /// Adds a C104 with `ports` links routed by the table `table` makes (not called,
    /// and the table left empty, when the plan is built only to be counted); returns
    /// its id.
    pub(super) fn switch(
        &mut self,
        name: String,
        ports: usize,
        table: impl FnOnce() -> IntervalTable,
    ) -> NodeId {
        self.generating_switch(name, ports, table, [], (0, 0))
    }

    /// Adds a C104 with `ports` links routed by the table `table` makes, whose input
    /// links `generating` prepend to every packet a random header drawn from `[lo, hi)`
    /// (INMOS ch. 7 §7.1, universal routing); returns its id.
    pub(super) fn generating_switch(
        &mut self,
        name: String,
        ports: usize,
        table: impl FnOnce() -> IntervalTable,
        generating: impl IntoIterator<Item = PortId>,
        range: (u32, u32),
    ) -> NodeId {
        let id = self.plan.next_id();
        let table = if self.dry {
            IntervalTable::default()
        } else {
            table()
        };
        let mut routing = LabelRouting::new(Arc::new(table), ports);
        for port in generating {
            routing.generate_on(port, range);
        }
        let p = C104Params {
            ports,
            link: self.link,
            header_bytes: self.header_bytes,
            routing_delay: self.routing_delay,
            output_buffer: self.output_buffer,
            routing,
            seed: mix_seed(self.seed, id as u64),
        };
        self.plan.node(name, p)
    }

    /// Adds the T9000 for terminal `label` (labels must be added in order 0, 1, …).
    pub(super) fn processor(&mut self, label: u32) -> NodeId {
        let id = self.plan.next_id();
        let terminal = TerminalParams {
            label,
            sends: self.senders[label as usize] || self.saturated[label as usize],
            destination: self.destinations[label as usize],
            injection: if self.saturated[label as usize] {
                Injection::Continuous
            } else {
                self.terminal.injection.clone()
            },
            seed: mix_seed(self.seed, id as u64),
            ..self.terminal.clone()
        };
        let p = ProcessorParams {
            vcp: self.vcp.clone(),
            terminal,
        };
        let id = self.plan.node(format!("t9000[{label}]"), p);
        debug_assert_eq!(self.plan.terminal_count(), label as usize);
        self.plan.terminal(id);
        id
    }

    /// Connects port `pa` of node `a` to port `pb` of node `b`.
    pub(super) fn link(&mut self, a: NodeId, pa: PortId, b: NodeId, pb: PortId) {
        self.plan.link(
            End { node: a, port: pa },
            End { node: b, port: pb },
            self.latency,
            wire_capacity(self.latency),
        );
    }
}

/// Builds the plan for `topology` under `traffic` with run seed `seed`: [`check`], then
/// [`Checked::build`].
pub fn build(
    name: &str,
    topology: &TopologyConfig,
    traffic: &TrafficConfig,
    seed: u64,
) -> Result<Network, BuildError> {
    check(name, topology, traffic, seed)?.build()
}

/// A configuration that has passed every check that does not need the routing tables:
/// the parts' sections, the network's shape and wiring, the traffic. What it would
/// need in memory is known ([`Checked::memory_need`]) before any table is built, so a
/// network too large for the machine is refused in a fraction of a second however
/// long its tables would take (docs/architecture.md "Memory").
pub struct Checked {
    name: String,
    parts: Parts,
    layout: Box<dyn kinds::Layout>,
    time: crate::time::TimeBase,
    units: Units,
    run: RunPlan,
    flows: Vec<(u32, u32)>,
    senders: Vec<bool>,
    /// The `[faults]` section: its link faults are added once the plan has names.
    faults: dslink::config::FaultConfig,
    /// The run seed (the parity errors' draws).
    seed: u64,
}

impl Checked {
    /// The plan with every routing table empty: its nodes, links, terminals and run
    /// are the real plan's, so its [`Network::memory_need`] is the real one's less
    /// the tables, a lower bound of it (`tests/memory_early.rs` checks that on every
    /// shipped topology). Takes time linear in the nodes and links.
    pub fn counted(&self) -> Result<Network, BuildError> {
        self.finish(self.parts.fresh(true), Vec::new())
    }

    /// What the network will need in memory, at least and at most (see
    /// [`Checked::counted`]), with its node and terminal counts, for
    /// [`crate::memory::Need::within`].
    pub fn memory_need(&self) -> Result<(crate::memory::Need, usize, usize), BuildError> {
        let plan = self.counted()?;
        Ok((
            plan.memory_need(),
            plan.nodes().len(),
            plan.terminals().len(),
        ))
    }

    /// The same network with traffic fed from outside ([`Injection::External`]): every
    /// terminal sends what the program pushes into `feed` and nothing else, from tick
    /// 0, and every message is measured. The traffic file's injection, pattern,
    /// senders and phases no longer apply to the terminals.
    pub fn fed(mut self, feed: &crate::traffic::Feed) -> Checked {
        let p = &mut self.parts;
        p.terminal.injection = Injection::External(feed.clone());
        p.terminal.start = 0;
        p.terminal.window = (0, Tick::MAX);
        p.senders.iter_mut().for_each(|s| *s = true);
        p.saturated.iter_mut().for_each(|s| *s = false);
        self
    }

    /// Builds the routing tables (a netlist's computed or given tables are checked by
    /// walking every label from every switch) and the plan.
    pub fn build(self) -> Result<Network, BuildError> {
        let (tables, warnings) = self.layout.tables()?;
        self.finish(self.parts.fresh(false), tables)
            .map(|net| net.with_warnings(warnings))
    }

    fn finish(&self, mut parts: Parts, tables: Vec<IntervalTable>) -> Result<Network, BuildError> {
        let switches = self.layout.build(&mut parts, tables);
        // The families validated their input, so a wiring error here is a bug of
        // theirs; it is still reported, never a panic.
        let net = parts
            .plan
            .finish(&self.name, self.time, switches, self.units, self.run)
            .map(|n| {
                n.with_flows(self.flows.clone())
                    .with_senders(self.senders.clone())
                    .with_geometry(self.layout.geometry())
            })
            .map_err(|e| topo_err("network", format!("the plan is miswired: {e}")))?;
        super::faults::link_faults(net, &self.faults, self.seed)
    }
}

/// Checks `topology` under `traffic` with run seed `seed`, everything but the routing
/// tables (see [`Checked`]).
pub fn check(
    name: &str,
    topology: &TopologyConfig,
    traffic: &TrafficConfig,
    seed: u64,
) -> Result<Checked, BuildError> {
    let t = topology;
    // --- the parts' sections: link and time base, packet format, C104, VCP
    let topo = |e: ConfigError| topo_err(e.key, e.message);
    let ds = dslink::config::validate(&t.link, &t.packet, &t.faults).map_err(topo)?;
    let c104 = t.c104.validate(&ds).map_err(topo)?;
    t.vcp.validate().map_err(topo)?;
    let (time, wire, hb, max_data, packet_tokens) = (
        ds.time,
        ds.wire,
        ds.header_bytes,
        ds.max_data_bytes,
        ds.packet_tokens,
    );
    let header_time = c104.header_time;
    // --- network size
    let shape = kinds::validate(&t.network)?;
    let (family, terminals) = (shape.family, shape.terminals);
    if u64::from(shape.labels) > 1u64 << (8 * hb) {
        return Err(topo_err(
            "packet.header_bytes",
            format!(
                "{terminals} terminals and their routing need {} labels, more than a {hb}-byte header holds",
                shape.labels
            ),
        ));
    }
    // --- traffic
    let tr = traffic;
    let bytes = tr.message.bytes;
    if bytes > crate::config::traffic::MAX_MESSAGE_BYTES {
        return Err(traffic_err(
            "message.bytes",
            format!(
                "{bytes}: give at most {} bytes",
                crate::config::traffic::MAX_MESSAGE_BYTES
            ),
        ));
    }
    let phases = traffic_plan::phases(tr, time.tick_ns)?;
    let load = traffic_plan::rate_load(&tr.injection)?;
    let injection = match tr.injection {
        InjectionConfig::Continuous => Injection::Continuous,
        InjectionConfig::Rate { .. } => {
            if bytes == 0 {
                return Err(traffic_err(
                    "message.bytes",
                    "rate injection needs messages of at least 1 byte",
                ));
            }
            // messages per tick = load × (1 byte per data-token time) / bytes per message
            let load = load.unwrap_or(0.0);
            Injection::Bernoulli(load / (DATA_TOKEN_BITS as f64 * f64::from(bytes)))
        }
        InjectionConfig::Batch { messages } => {
            Injection::Batch(traffic_plan::batch_messages(messages, terminals)?)
        }
        InjectionConfig::Bursty { .. } | InjectionConfig::Trace { .. } => {
            return Err(traffic_err(
                "injection.kind",
                "bursty and trace injection apply to switch fabrics (network.kind = \"fabric\") only",
            ));
        }
        InjectionConfig::Bimodal { .. } => {
            return Err(traffic_err(
                "injection.kind",
                "bimodal injection applies to switch fabrics (network.kind = \"fabric\") only",
            ));
        }
    };
    let batch_run = matches!(injection, Injection::Batch(_));
    let phases = phases.with_batch(batch_run)?;
    let (start, window) = (phases.start, phases.window);
    let senders = traffic_plan::senders(tr, terminals)?;
    let saturated = traffic_plan::saturated(tr, terminals, batch_run)?;
    if tr.request_response {
        return Err(traffic_err(
            "request_response",
            "request/response traffic is defined for SCI rings only (SCI §4.7)",
        ));
    }
    let destinations = traffic_plan::destinations(tr, family, terminals)?;
    let flows = traffic_plan::permutation_flows(&destinations, &senders);
    // Hot senders send too.
    let sender_labels: Vec<bool> = senders
        .iter()
        .zip(&saturated)
        .map(|(&s, &hot)| s || hot)
        .collect();

    let link = ds.link;
    let parts = Parts {
        link,
        header_bytes: hb,
        routing_delay: c104.routing_delay,
        output_buffer: c104.output_buffer,
        vcp: VcpParams {
            link,
            header_bytes: hb,
            max_data_bytes: max_data,
            acknowledge: t.vcp.acknowledge,
            channels: t.vcp.channels,
            channels_per_destination: 1,
        },
        terminal: TerminalParams {
            label: 0,
            sends: false,
            destination: Destination::Fixed(0),
            injection,
            message_bytes: bytes,
            start,
            window,
            terminals,
            seed: 0,
        },
        destinations,
        senders,
        saturated,
        latency: wire,
        seed,
        dry: false,
        plan: Builder::new(),
    };
    let packet_time = Tick::from(packet_tokens) * DATA_TOKEN_BITS + header_time;
    // A lone packet's sender stops when the link's input buffer is full and moves on
    // when a flow-control token comes back; the header waits `header_time` in the C104
    // before it is routed on, then the FCT crosses the wire back: a header time, a data
    // token and the wire both ways, during which nothing else need move.
    let silence = header_time + DATA_TOKEN_BITS + 2 * wire;
    let run = RunPlan::new(
        start,
        window,
        batch_run,
        phases.drain,
        (10 * packet_time).max(2000).max(silence),
    )
    .with_silence(super::Silence {
        ticks: silence,
        why: "a C104 header time, a data token and the wire both ways, INMOS ch. 6-7",
    });
    let units = Units {
        delay: DelayUnit::header_time(header_time),
        byte_ticks: DATA_TOKEN_BITS,
        link_bytes: 1,
        header_bytes: hb,
        max_data_bytes: max_data,
        message_bytes: bytes,
        packet_tokens,
    };
    Ok(Checked {
        name: name.to_string(),
        parts,
        layout: shape.layout,
        time,
        units,
        run,
        flows,
        senders: sender_labels,
        faults: t.faults.clone(),
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::topology::{BufferSize, RoutingMode};
    use crate::network::NetworkConfig;
    use crate::network::kinds::HypercubeNetwork;

    fn topo(n: u32) -> TopologyConfig {
        toml::from_str(&format!(
            "[network]\nkind = \"hypercube\"\ndimensions = {n}\n"
        ))
        .unwrap()
    }

    fn traffic() -> TrafficConfig {
        toml::from_str("[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"continuous\"\n")
            .unwrap()
    }

    #[test]
    fn a_hypercube_has_its_nodes_links_and_derived_delays() {
        let n = build("h4", &topo(4), &traffic(), 1).unwrap();
        assert_eq!(n.switches(), 16);
        assert_eq!(n.terminals().len(), 16);
        assert_eq!(n.nodes().len(), 32);
        assert_eq!(n.links().len(), 16 * 4 / 2 + 16);
        assert_eq!(n.units().delay.ticks, 50);
        let t = topo(4);
        let link = dslink::config::validate(&t.link, &t.packet, &t.faults).unwrap();
        let c104 = t.c104.validate(&link).unwrap();
        assert_eq!(
            c104.routing_delay,
            50 - 10 - 20,
            "header time − header bits − wire"
        );
        assert_eq!(n.min_latency(), 20);
    }

    #[test]
    fn impossible_values_name_their_key() {
        let bad = |f: &dyn Fn(&mut TopologyConfig)| {
            let mut t = topo(4);
            f(&mut t);
            build("x", &t, &traffic(), 1).unwrap_err().key
        };
        assert_eq!(
            bad(&|t| t.network = NetworkConfig::Hypercube(HypercubeNetwork {
                dimensions: 0,
                routing: RoutingMode::Deterministic,
                link_sets: None,
            })),
            "network.dimensions"
        );
        assert_eq!(
            bad(&|t| t.network = NetworkConfig::Hypercube(HypercubeNetwork {
                dimensions: 21,
                routing: RoutingMode::Deterministic,
                link_sets: None,
            })),
            "network.dimensions"
        );
        assert_eq!(
            bad(&|t| t.link.buffer_tokens = BufferSize::Tokens(0)),
            "link.buffer_tokens"
        );
        assert_eq!(
            bad(&|t| t.link.buffer_tokens = BufferSize::Tokens(7)),
            "link.buffer_tokens"
        );
        assert_eq!(bad(&|t| t.link.wire_delay_ns = 205), "link.wire_delay_ns");
        let mut t = topo(4);
        t.link.buffer_tokens = BufferSize::Tokens(7);
        let e = build("x", &t, &traffic(), 1).unwrap_err();
        assert!(e.message.contains("faults.allow_buffer_below_batch"), "{e}");
        t.faults.allow_buffer_below_batch = true;
        assert!(
            build("x", &t, &traffic(), 1).is_ok(),
            "the opt-in accepts it"
        );
        assert_eq!(bad(&|t| t.c104.header_time_ns = 100), "c104.header_time_ns");
        assert_eq!(bad(&|t| t.packet.header_bytes = 3), "packet.header_bytes");
        let mut t = topo(9);
        t.packet.header_bytes = 1;
        assert_eq!(
            build("x", &t, &traffic(), 1).unwrap_err().key,
            "packet.header_bytes"
        );
    }
}
