//! The run report: everything a run measured, in one serialisable value with a stable
//! JSON schema (docs/architecture.md "Output").
//!
//! The report depends only on its [`ReportInput`], so the same seed gives the same
//! bytes whatever engine, thread count or machine ran it (docs/architecture.md "Determinism and randomness").
//! Things that do vary (wall time, engine, threads) live in
//! [`RunInfo`](super::text::RunInfo) and are shown on stdout only.
//!
//! Throughput is per terminal, as a percentage of link data capacity: one payload byte
//! per `byte_ticks` ticks.

use serde::Serialize;

use super::latency::LatencySummary;
use super::section::FamilySections;
use crate::config::traffic::TrafficConfig;
use crate::engine::RunOutcome;
use crate::model::LinkProtocol;
use crate::network::TopologyConfig;
use crate::network::{DelayUnit, Network};
use crate::terminal::TerminalStats;
use crate::time::Tick;

/// Version of the JSON schema; bump it when a field changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 5;

/// Everything the report needs, gathered by the caller.
#[derive(Clone, Debug)]
pub struct ReportInput<'a> {
    /// Topology name (file stem), e.g. "hypercube6".
    pub topology_name: &'a str,
    /// Traffic name (file stem), e.g. "shuffle".
    pub traffic_name: &'a str,
    /// The topology configuration, echoed into the JSON.
    pub topology: &'a TopologyConfig,
    /// The traffic configuration, echoed into the JSON.
    pub traffic: &'a TrafficConfig,
    /// Run seed.
    pub seed: u64,
    /// Number of terminals.
    pub terminals: usize,
    /// Number of switches.
    pub switches: usize,
    /// Nanoseconds per tick.
    pub tick_ns: f64,
    /// The source document's delay unit (C104 networks: the header time).
    pub delay_unit: DelayUnit,
    /// Ticks one payload byte takes on a link.
    pub byte_ticks: Tick,
    /// Bytes a link carries per `byte_ticks` ticks.
    pub link_bytes: u32,
    /// Routing header bytes per packet.
    pub header_bytes: u32,
    /// Largest packet payload, in bytes.
    pub max_data_bytes: u32,
    /// Payload bytes per message.
    pub message_bytes: u32,
    /// Measurement window [from, to); for batch runs `to` is the end tick.
    pub window: (Tick, Tick),
    /// Batch run: report the completion time and measure throughput up to it.
    pub batch: bool,
    /// What the engine returned; `terminals` in terminal order.
    pub outcome: &'a RunOutcome,
    /// The plan's links with their ends named, for link utilisation.
    pub links: Vec<super::links::NamedLink>,
    /// Permutation traffic's (source, destination) flows; empty for other traffic.
    pub flows: Vec<(u32, u32)>,
    /// The traffic's senders by terminal label; empty where the plan does not say.
    pub senders: Vec<bool>,
    /// What the network's family adds to the report ([`Generic`]: nothing).
    pub family: &'a dyn ReportFamily,
    /// Warnings about the network itself, from its plan (a netlist's links that no
    /// route crosses): each one line.
    pub warnings: Vec<String>,
    /// The defaults the topology file leaves in place where the shipped files of its
    /// kind set other values, as one line (see
    /// [`crate::config::kind_defaults::differences`]); `None` if there are none.
    pub defaults: Option<String>,
}

/// What a network family contributes to its runs' reports. The front end's family
/// registry implements it for each family; [`Generic`] is the default.
pub trait ReportFamily: Sync + std::fmt::Debug {
    /// The topology sections besides `description` and `[network]` the family's
    /// networks read, of [`TopologyConfig::SECTIONS`]; the report echoes these (default:
    /// none).
    fn topology_sections(&self) -> &'static [&'static str] {
        &[]
    }
    /// How the report's header describes the traffic's messages, e.g. "32-byte
    /// messages".
    fn packets_label(&self, _topology: &TopologyConfig, traffic: &TrafficConfig) -> String {
        format!("{}-byte messages", traffic.message.bytes)
    }
    /// The latency metrics its terminals record, of "message", "network" and
    /// "source_queue" (`--hgrm` and `--plot` write only these).
    fn latency_metrics(&self) -> &'static [&'static str] {
        &["message", "network", "source_queue"]
    }
    /// The family's own report sections, made from the report's input and the span
    /// (ticks) its throughput is measured over.
    fn sections(&self, _input: &ReportInput, _span: Tick) -> FamilySections {
        FamilySections::none()
    }
}

/// A report with nothing of a family's own: every topology section echoed, messages
/// described by their size, no family sections.
#[derive(Clone, Copy, Debug)]
pub struct Generic;

impl ReportFamily for Generic {
    fn topology_sections(&self) -> &'static [&'static str] {
        TopologyConfig::SECTIONS
    }
}

impl<'a> ReportInput<'a> {
    /// The input for a run of the plan `net`, built from `topology` and `traffic`
    /// (named `topology_name` and `traffic_name`) with `seed`, that ended with
    /// `outcome`. A batch run's window ends where the run ended.
    pub fn for_run<P: LinkProtocol>(
        topology_name: &'a str,
        traffic_name: &'a str,
        topology: &'a TopologyConfig,
        traffic: &'a TrafficConfig,
        seed: u64,
        net: &Network<P>,
        outcome: &'a RunOutcome,
    ) -> ReportInput<'a> {
        ReportInput {
            topology_name,
            traffic_name,
            topology,
            traffic,
            seed,
            terminals: net.terminal_count(),
            switches: net.switches(),
            tick_ns: net.time().tick_ns,
            delay_unit: net.units().delay,
            byte_ticks: net.units().byte_ticks,
            link_bytes: net.units().link_bytes,
            header_bytes: net.units().header_bytes,
            max_data_bytes: net.units().max_data_bytes,
            message_bytes: net.units().message_bytes,
            window: if net.run().batch {
                (net.run().window.0, outcome.end_tick)
            } else {
                net.run().window
            },
            batch: net.run().batch,
            outcome,
            links: net
                .links()
                .iter()
                .map(|l| super::links::NamedLink {
                    a: (l.a, net.nodes()[l.a.node].name.clone()),
                    b: (l.b, net.nodes()[l.b.node].name.clone()),
                    sends: [l.a, l.b].map(|e| net.nodes()[e.node].part.transmits(e.port)),
                })
                .collect(),
            flows: net.flows().to_vec(),
            senders: net.senders().to_vec(),
            family: &Generic,
            warnings: net.warnings().to_vec(),
            defaults: None,
        }
    }
}

/// The whole report. Field order is the JSON order.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Report {
    /// The report's schema version ([`SCHEMA_VERSION`]); docs/report.md says what
    /// changed between versions.
    #[schemars(extend("const" = SCHEMA_VERSION))]
    pub schema: u32,
    /// Version of emu that produced the report.
    pub emu_version: String,
    /// Run seed.
    pub seed: u64,
    /// The network.
    pub topology: TopologySection,
    /// The traffic.
    pub traffic: TrafficSection,
    /// Virtual time and engine work.
    pub run: RunSection,
    /// Message counts, summed over terminals.
    pub messages: MessageCounts,
    /// Throughput per terminal.
    pub throughput: Throughput,
    /// Batch runs that delivered every measured message: when the last one was
    /// delivered; `null` otherwise.
    pub completion: Option<Completion>,
    /// Flow-controlled tokens put on a link, over the whole run.
    pub token_hops: u64,
    /// Latency distributions of measured messages, all terminals merged.
    pub latency: Latencies,
    /// Where measured messages' latency went, in the family's own parts (every family
    /// but relay rings); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journey: Option<super::journey::JourneySection>,
    /// Throughput of each terminal.
    pub terminals: super::shares::TerminalShares,
    /// How the network shares itself among its sources: what each source was given
    /// against what it asked, and how evenly the saturated ones share (SCI §4.2-§4.3,
    /// §5; Gramsamer §7.2.5).
    pub fairness: super::fairness::Fairness,
    /// Sources that sent less than a tenth of the mean per-source throughput.
    pub starvation: super::shares::Starvation,
    /// Utilisation of each link direction, for families whose parts count wire time
    /// (every family but relay rings); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub links: Option<Vec<super::links::LinkUse>>,
    /// Per-flow throughput and latency for permutation traffic; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flows: Option<Vec<super::flows::FlowSummary>>,
    /// Per node, seen from each node as a source, with the starved nodes: for networks
    /// whose nodes learn their messages' fate (SCI rings); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<super::per_node::PerNode>,
    /// The family's own sections, each under its key (switch fabrics: `fabric`, with
    /// throughput per input and output, credit underflow, credits queued and parallel
    /// departures; relay rings: `relay`); none for other families.
    #[serde(flatten)]
    pub family: FamilySections,
    /// Link faults (`[faults]` `link_down`, `token_error_rate`): the links that died,
    /// when and why, and the tokens they lost; absent when none was configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faults: Option<crate::engine::faults::FaultReport>,
}

/// The network in the report.
#[derive(Clone, Debug, schemars::JsonSchema)]
pub struct TopologySection {
    /// Name (file stem).
    pub name: String,
    /// Number of terminals.
    pub terminals: usize,
    /// Number of switches.
    pub switches: usize,
    /// The configuration the run used, with the sections its family reads.
    #[schemars(schema_with = "crate::network::topology::echo_schema")]
    pub config: TopologyConfig,
    /// The sections of `config` the JSON echoes: the family's own.
    #[schemars(skip)]
    pub echoed: &'static [&'static str],
    /// Warnings about the network itself ([`ReportInput::warnings`]); the text report
    /// ends with them, the JSON leaves them out (they follow from `config`).
    #[schemars(skip)]
    pub warnings: Vec<String>,
    /// The defaults left in place that the shipped files of this kind set otherwise
    /// ([`ReportInput::defaults`]): a line of the text report's header, not in the JSON
    /// (it follows from `config` and the file).
    #[schemars(skip)]
    pub defaults: Option<String>,
}

impl Serialize for TopologySection {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("TopologySection", 4)?;
        s.serialize_field("name", &self.name)?;
        s.serialize_field("terminals", &self.terminals)?;
        s.serialize_field("switches", &self.switches)?;
        s.serialize_field("config", &self.config.echo(self.echoed))?;
        s.end()
    }
}

/// The traffic in the report.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct TrafficSection {
    /// Name (file stem).
    pub name: String,
    /// The configuration the run used.
    pub config: TrafficConfig,
    /// How the text report describes the messages (from the family; not in the JSON).
    #[serde(skip)]
    pub packets: String,
}

/// Virtual time, units and engine work.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct RunSection {
    /// Tick at which the run stopped.
    pub end_tick: Tick,
    /// The same in microseconds.
    pub end_us: f64,
    /// Nanoseconds per tick.
    pub tick_ns: f64,
    /// The family's delay unit in ticks (C104 networks: the header time, INMOS ch. 7
    /// §7.6; SCI rings: the 2 ns cycle; fabrics: the packet cycle).
    pub delay_unit_ticks: Tick,
    /// The delay unit's name ("header times", "cycles", "packet cycles"): the unit of
    /// every `delay_units` value.
    #[serde(rename = "delay_unit")]
    pub delay_unit_name: &'static str,
    /// Ticks per payload byte on a link.
    pub byte_ticks: Tick,
    /// Bytes a link carries per `byte_ticks` ticks; written only when it is not 1 (SCI
    /// links carry a 2-byte symbol per cycle).
    #[serde(skip_serializing_if = "is_one")]
    pub link_bytes: u32,
    /// Barriers (windows) the engine went through. Engine-specific, so kept out of
    /// the JSON (which must be identical across engines and thread counts).
    #[serde(skip)]
    pub windows: u64,
    /// Node wake-ups (engine-specific, not in the JSON).
    #[serde(skip)]
    pub node_runs: u64,
    /// True if every measured message was delivered before the run stopped.
    pub complete: bool,
    /// True for a batch run.
    pub batch: bool,
}

/// Message counts, summed over terminals.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct MessageCounts {
    /// Messages created.
    pub created: u64,
    /// Messages delivered.
    pub delivered: u64,
    /// Messages created in the measurement window.
    pub measured_created: u64,
    /// Of those, messages delivered.
    pub measured_delivered: u64,
    /// `measured_created − measured_delivered`.
    pub undelivered: u64,
    /// Messages that arrived out of sequence order, or twice.
    pub out_of_order: u64,
    /// Data packets delivered.
    pub packets_delivered: u64,
    /// Acknowledge packets received.
    pub acks_received: u64,
}

/// Mean, minimum and maximum over terminals of a percentage.
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PctStats {
    /// Mean over terminals.
    pub mean: f64,
    /// Smallest terminal.
    pub min: f64,
    /// Largest terminal.
    pub max: f64,
}

/// Throughput per terminal, as a percentage of link data capacity.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Throughput {
    /// First tick of the span throughput is measured over.
    pub from_tick: Tick,
    /// End of the span (exclusive): the window's end, or the completion tick for batch
    /// runs.
    pub to_tick: Tick,
    /// Length of the span in ticks.
    pub ticks: Tick,
    /// Payload delivered to each terminal in the span.
    pub delivered_pct: PctStats,
    /// Payload created at each terminal in the span (offered load).
    pub offered_pct: PctStats,
    /// Payload bytes per message.
    pub message_bytes: u32,
    /// Packets per message.
    pub packets_per_message: u64,
    /// The largest throughput the packet format allows for this message size: payload
    /// bits over all bits on the wire for one message.
    pub format_max_pct: f64,
}

/// When a batch run finished.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Completion {
    /// Tick of the last delivery at any terminal.
    pub ticks: Tick,
    /// The same in microseconds.
    pub us: f64,
}

/// The three latency metrics.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Latencies {
    /// Message creation to its EOM arriving at the destination.
    pub message_latency: LatencySummary,
    /// First token on the source link to EOM arriving.
    pub network_latency: LatencySummary,
    /// Message creation to its first token on the source link.
    pub source_queueing: LatencySummary,
}

impl Report {
    /// Builds the report. Terminals are merged in the order given.
    pub fn new(input: &ReportInput) -> Report {
        let outcome = input.outcome;
        let total = TerminalStats::total(&outcome.terminals);
        let c = &total.counters;
        let messages = MessageCounts {
            created: c.created,
            delivered: c.delivered,
            measured_created: c.measured_created,
            measured_delivered: c.measured_delivered,
            undelivered: c.measured_created.saturating_sub(c.measured_delivered),
            out_of_order: c.out_of_order,
            packets_delivered: c.packets_delivered,
            acks_received: c.acks_received,
        };
        let us = |ticks: Tick| ticks as f64 * input.tick_ns / 1000.0;
        // A batch that did not finish (stopped at the drain limit) has no completion
        // time: its last delivery is not when the batch was done.
        let completion = (input.batch && outcome.complete).then(|| Completion {
            ticks: c.last_delivery,
            us: us(c.last_delivery),
        });
        let (from_tick, to_tick) = match &completion {
            Some(done) => (input.window.0, done.ticks.max(input.window.0)),
            None => (input.window.0, input.window.1.max(input.window.0)),
        };
        let span = to_tick - from_tick;
        let each = |bytes: fn(&TerminalStats) -> u64| -> Vec<f64> {
            outcome
                .terminals
                .iter()
                .map(|t| {
                    capacity_pct(bytes(t), input.byte_ticks, span)
                        / f64::from(input.link_bytes.max(1))
                })
                .collect()
        };
        let terminals = super::shares::TerminalShares {
            delivered_pct: each(|t| t.counters.bytes_delivered_in_window),
            offered_pct: each(|t| t.counters.bytes_offered_in_window),
            sent_pct: each(|t| t.counters.bytes_sent_in_window),
        };
        let throughput = Throughput {
            from_tick,
            to_tick,
            ticks: span,
            delivered_pct: pct_stats(terminals.delivered_pct.iter().copied()),
            offered_pct: pct_stats(terminals.offered_pct.iter().copied()),
            message_bytes: input.message_bytes,
            packets_per_message: packets_per_message(input.message_bytes, input.max_data_bytes),
            format_max_pct: format_max_pct(
                input.message_bytes,
                input.max_data_bytes,
                input.header_bytes,
            ),
        };
        let summary = |m| LatencySummary::new(m, input.tick_ns, input.delay_unit.ticks);
        let nodes = super::per_node::PerNode::new(input, span);
        Report {
            schema: SCHEMA_VERSION,
            emu_version: env!("CARGO_PKG_VERSION").to_string(),
            seed: input.seed,
            topology: TopologySection {
                name: input.topology_name.to_string(),
                terminals: input.terminals,
                switches: input.switches,
                config: input.topology.clone(),
                echoed: input.family.topology_sections(),
                warnings: input.warnings.clone(),
                defaults: input.defaults.clone(),
            },
            traffic: TrafficSection {
                name: input.traffic_name.to_string(),
                config: input.traffic.clone(),
                packets: input.family.packets_label(input.topology, input.traffic),
            },
            run: RunSection {
                end_tick: outcome.end_tick,
                end_us: us(outcome.end_tick),
                tick_ns: input.tick_ns,
                delay_unit_ticks: input.delay_unit.ticks,
                delay_unit_name: input.delay_unit.name,
                byte_ticks: input.byte_ticks,
                link_bytes: input.link_bytes,
                windows: outcome.windows,
                node_runs: outcome.node_runs,
                complete: outcome.complete,
                batch: input.batch,
            },
            messages,
            throughput,
            completion,
            token_hops: outcome.activity.tokens_moved,
            latency: Latencies {
                message_latency: summary(&total.message_latency),
                network_latency: summary(&total.network_latency),
                source_queueing: summary(&total.source_queueing),
            },
            journey: super::journey::JourneySection::new(
                &total.journey,
                &total.journey_parts,
                input.tick_ns,
                input.delay_unit.ticks,
            ),
            fairness: fairness(input, &terminals, nodes.as_ref()),
            starvation: super::shares::starvation(&terminals, &input.senders),
            flows: super::flows::flows(input, &terminals),
            terminals,
            links: super::links::utilisation(input),
            nodes,
            family: input.family.sections(input, span),
            faults: outcome.faults.clone(),
        }
    }

    /// The report as pretty-printed JSON, ending with a newline. Identical reports give
    /// identical bytes.
    pub fn to_json(&self) -> String {
        // Every field is a plain struct, string, number or option: serialising cannot
        // fail (serde_json writes non-finite floats as null).
        let mut s = serde_json::to_string_pretty(self).expect("report serialises");
        s.push('\n');
        s
    }
}

/// The fairness of the run's sources: asked is what each created in the window; given
/// is, where the nodes learn their messages' fate (`nodes`), the payload of its own
/// messages delivered, else what it sent into the network. A source is a sender of the
/// traffic (or, where the plan does not say, a terminal that asked, sent or was given
/// anything); it is saturated under continuous injection or when the traffic lists it
/// in `terminals.saturated`.
fn fairness(
    input: &ReportInput,
    shares: &super::shares::TerminalShares,
    nodes: Option<&super::per_node::PerNode>,
) -> super::fairness::Fairness {
    use crate::config::traffic::InjectionConfig;
    let continuous = matches!(input.traffic.injection, InjectionConfig::Continuous);
    let listed = &input.traffic.terminals.saturated;
    let sources: Vec<(usize, bool, f64, f64)> = (0..shares.offered_pct.len())
        .filter_map(|t| {
            let asked = shares.offered_pct[t];
            let given = match nodes.and_then(|n| n.rows.get(t)) {
                // bytes/ns on a link of 1 byte/ns: % of link data capacity.
                Some(row) => 100.0 * row.delivered_bytes_per_ns,
                None => shares.sent_pct.get(t).copied().unwrap_or(0.0),
            };
            let saturated = continuous || listed.iter().any(|&s| s as usize == t);
            let source = match input.senders.get(t) {
                Some(&sends) => sends,
                None => asked > 0.0 || given > 0.0,
            } || listed.iter().any(|&s| s as usize == t);
            source.then_some((t, saturated, asked, given))
        })
        .collect();
    super::fairness::fairness(&sources)
}

fn is_one(v: &u32) -> bool {
    *v == 1
}

/// `bytes` carried in `span` ticks as a percentage of a link's data capacity (one byte
/// per `byte_ticks` ticks); 0 for an empty span.
pub(crate) fn capacity_pct(bytes: u64, byte_ticks: Tick, span: Tick) -> f64 {
    if span == 0 {
        0.0
    } else {
        bytes as f64 * byte_ticks as f64 / span as f64 * 100.0
    }
}

/// Packets a message of `message_bytes` is split into: at least one.
pub(crate) fn packets_per_message(message_bytes: u32, max_data_bytes: u32) -> u64 {
    u64::from(message_bytes)
        .div_ceil(u64::from(max_data_bytes.max(1)))
        .max(1)
}

/// The largest throughput, in % of link data capacity, the packet format allows for
/// messages of `message_bytes`: payload bits / all bits on the wire, where each packet
/// carries `header_bytes` data tokens of header and a 4-bit terminator, and a data
/// token is 10 bits.
pub fn format_max_pct(message_bytes: u32, max_data_bytes: u32, header_bytes: u32) -> f64 {
    let payload = 10.0 * f64::from(message_bytes);
    let packets = packets_per_message(message_bytes, max_data_bytes) as f64;
    let overhead = (10.0 * f64::from(header_bytes) + 4.0) * packets;
    if payload == 0.0 {
        0.0
    } else {
        payload / (payload + overhead) * 100.0
    }
}

/// Mean, min and max of `values`; all 0 when there are none.
fn pct_stats(values: impl Iterator<Item = f64>) -> PctStats {
    let (mut n, mut sum, mut min, mut max) = (0u64, 0.0, f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        n += 1;
        sum += v;
        min = min.min(v);
        max = max.max(v);
    }
    if n == 0 {
        PctStats::default()
    } else {
        PctStats {
            mean: sum / n as f64,
            min,
            max,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::Activity;
    use crate::stats::TerminalCounters;

    pub(crate) fn topology() -> TopologyConfig {
        toml::from_str("[network]\nkind = \"hypercube\"\ndimensions = 1\n").unwrap()
    }

    pub(crate) fn traffic(injection: &str) -> TrafficConfig {
        let text = format!("[pattern]\nkind = \"shuffle\"\n[injection]\n{injection}\n");
        toml::from_str(&text).unwrap()
    }

    fn terminal(latencies: &[u64], delivered_bytes: u64, last: Tick) -> TerminalStats {
        let mut t = TerminalStats::default();
        for &l in latencies {
            t.message_latency.record(l);
            t.network_latency.record(l / 2);
            t.source_queueing.record(l - l / 2);
        }
        let n = latencies.len() as u64;
        t.counters = TerminalCounters {
            created: n + 1,
            measured_created: n + 1,
            delivered: n,
            measured_delivered: n,
            bytes_offered_in_window: delivered_bytes + 32,
            bytes_delivered_in_window: delivered_bytes,
            bytes_sent_in_window: delivered_bytes,
            packets_delivered: n,
            acks_received: 0,
            out_of_order: 0,
            eom_overtook: 0,
            last_delivery: last,
        };
        t
    }

    /// Two terminals: 1000 and 500 bytes delivered in [0, 10 000).
    pub(crate) fn outcome() -> RunOutcome {
        RunOutcome {
            end_tick: 12_000,
            terminals: vec![
                terminal(&[100, 300], 1000, 9_000),
                terminal(&[200, 1400], 500, 8_000),
            ],
            activity: Activity {
                tokens_moved: 4242,
                ..Activity::default()
            },
            complete: true,
            windows: 77,
            node_runs: 999,
            parts: Vec::new(),
            faults: None,
        }
    }

    pub(crate) fn input<'a>(
        topo: &'a TopologyConfig,
        traffic: &'a TrafficConfig,
        outcome: &'a RunOutcome,
        batch: bool,
    ) -> ReportInput<'a> {
        ReportInput {
            topology_name: "hypercube1",
            traffic_name: "shuffle",
            topology: topo,
            traffic,
            seed: 7,
            terminals: outcome.terminals.len(),
            switches: 2,
            tick_ns: 10.0,
            delay_unit: DelayUnit::header_time(50),
            byte_ticks: 10,
            link_bytes: 1,
            header_bytes: 1,
            max_data_bytes: 32,
            message_bytes: 32,
            window: (0, 10_000),
            batch,
            outcome,
            links: Vec::new(),
            flows: vec![(0, 1), (1, 0)],
            senders: Vec::new(),
            family: &Generic,
            warnings: Vec::new(),
            defaults: None,
        }
    }

    #[test]
    fn throughput_is_percent_of_link_data_capacity() {
        assert_eq!(capacity_pct(1000, 10, 10_000), 100.0);
        assert_eq!(capacity_pct(1000, 10, 0), 0.0);
        let (topo, traffic, outcome) = (topology(), traffic("kind = \"continuous\""), outcome());
        let r = Report::new(&input(&topo, &traffic, &outcome, false));
        let t = &r.throughput;
        assert_eq!((t.from_tick, t.to_tick, t.ticks), (0, 10_000, 10_000));
        assert_eq!(
            t.delivered_pct,
            PctStats {
                mean: 75.0,
                min: 50.0,
                max: 100.0
            }
        );
        assert!((t.offered_pct.max - 103.2).abs() < 1e-9);
        assert!(r.completion.is_none());
    }

    #[test]
    fn format_maximum_counts_header_and_terminator() {
        let expected = 320.0 / 334.0 * 100.0;
        assert!((format_max_pct(32, 32, 1) - expected).abs() < 1e-12);
        assert!((format_max_pct(32, 32, 1) - 95.808).abs() < 1e-3);
        // 64 bytes → two packets, each with a 2-byte header: 640 / (640 + 2 × 24).
        assert_eq!(packets_per_message(64, 32), 2);
        assert!((format_max_pct(64, 32, 2) - 640.0 / 688.0 * 100.0).abs() < 1e-12);
        // An empty message still needs one packet.
        assert_eq!(packets_per_message(0, 32), 1);
        assert_eq!(format_max_pct(0, 32, 1), 0.0);
    }

    #[test]
    fn counts_and_latencies_are_merged() {
        let (topo, traffic, outcome) = (topology(), traffic("kind = \"continuous\""), outcome());
        let r = Report::new(&input(&topo, &traffic, &outcome, false));
        assert_eq!(r.messages.created, 6);
        assert_eq!(r.messages.measured_delivered, 4);
        assert_eq!(r.messages.undelivered, 2);
        assert_eq!(r.token_hops, 4242);
        let m = &r.latency.message_latency;
        assert_eq!(m.count, 4);
        assert_eq!(m.ticks.mean, 500.0);
        assert_eq!((m.ticks.min, m.ticks.max), (100, 1400));
        assert_eq!(m.delay_units.max, 28.0);
        assert_eq!(m.us.mean, 5.0);
        assert_eq!(r.latency.network_latency.ticks.max, 700);
        assert_eq!(r.latency.source_queueing.count, 4);
        assert_eq!(r.run.end_us, 120.0);
    }

    #[test]
    fn a_batch_that_did_not_finish_has_no_completion_time() {
        let (topo, traffic) = (topology(), traffic("kind = \"batch\"\nmessages = 2"));
        let outcome = RunOutcome {
            complete: false,
            ..outcome()
        };
        let r = Report::new(&input(&topo, &traffic, &outcome, true));
        assert_eq!(r.completion, None);
        let text = r.render_text(&crate::stats::RunInfo {
            engine: "sharded".into(),
            threads: 1,
            wall_seconds: 0.0,
            overrides: Vec::new(),
        });
        assert!(text.contains("completion  not reached"), "{text}");
    }

    #[test]
    fn batch_runs_report_completion_and_measure_up_to_it() {
        let (topo, traffic, outcome) = (
            topology(),
            traffic("kind = \"batch\"\nmessages = 2"),
            outcome(),
        );
        let r = Report::new(&input(&topo, &traffic, &outcome, true));
        assert_eq!(
            r.completion,
            Some(Completion {
                ticks: 9_000,
                us: 90.0
            })
        );
        assert_eq!(r.throughput.ticks, 9_000);
        assert!((r.throughput.delivered_pct.max - 1000.0 * 10.0 / 9000.0 * 100.0).abs() < 1e-9);
    }

    #[test]
    fn json_is_byte_identical_and_has_the_documented_fields() {
        let (topo, traffic, outcome) = (topology(), traffic("kind = \"continuous\""), outcome());
        let a = Report::new(&input(&topo, &traffic, &outcome, false)).to_json();
        let b = Report::new(&input(&topo, &traffic, &outcome, false)).to_json();
        assert_eq!(a.as_bytes(), b.as_bytes());
        assert!(a.ends_with("}\n"));
        let v: serde_json::Value = serde_json::from_str(&a).unwrap();
        assert_eq!(v["schema"], SCHEMA_VERSION);
        assert_eq!(v["emu_version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(v["seed"], 7);
        assert_eq!(v["topology"]["name"], "hypercube1");
        assert_eq!(v["topology"]["config"]["network"]["kind"], "hypercube");
        assert_eq!(v["traffic"]["config"]["pattern"]["kind"], "shuffle");
        for key in ["end_tick", "end_us", "tick_ns", "complete"] {
            assert!(v["run"].get(key).is_some(), "run.{key}");
        }
        for key in [
            "created",
            "delivered",
            "measured_created",
            "measured_delivered",
            "undelivered",
        ] {
            assert!(v["messages"][key].is_u64(), "messages.{key}");
        }
        assert_eq!(v["messages"]["out_of_order"], 0);
        assert_eq!(v["messages"]["acks_received"], 0);
        assert_eq!(v["throughput"]["delivered_pct"]["mean"], 75.0);
        assert!(v["throughput"]["offered_pct"]["min"].is_f64());
        assert!(v["throughput"]["format_max_pct"].is_f64());
        assert!(v["completion"].is_null());
        assert_eq!(v["token_hops"], 4242);
        // Schema 2: per terminal, fairness, per flow (links need a plan's parts).
        assert_eq!(v["terminals"]["delivered_pct"].as_array().unwrap().len(), 2);
        // Continuous injection: both terminals are saturated sources.
        assert_eq!(v["fairness"]["saturated"]["count"], 2);
        assert!(v["fairness"]["saturated"]["jain"].is_f64());
        assert_eq!(v["fairness"]["rate"]["count"], 0);
        assert_eq!(v["fairness"]["sources"][1]["saturated"], true);
        assert_eq!(v["flows"].as_array().unwrap().len(), 2);
        assert_eq!(v["flows"][0]["destination"], 1);
        assert!(v.get("links").is_none());
        for metric in ["message_latency", "network_latency", "source_queueing"] {
            let m = &v["latency"][metric];
            assert_eq!(m["count"], 4);
            for unit in ["ticks", "us", "delay_units"] {
                for key in ["mean", "p50", "p90", "p99", "p99_9", "max"] {
                    assert!(m[unit][key].is_number(), "{metric}.{unit}.{key}");
                }
            }
            assert_eq!(m["percentiles"].as_array().unwrap().len(), 15);
            assert!(m["percentiles"][14]["count_at_or_below"].is_u64());
        }
    }

    #[test]
    fn empty_run_has_no_nan() {
        let (topo, traffic) = (topology(), traffic("kind = \"continuous\""));
        let outcome = RunOutcome {
            end_tick: 0,
            terminals: vec![TerminalStats::default(); 3],
            activity: Activity::default(),
            complete: true,
            windows: 0,
            node_runs: 0,
            parts: Vec::new(),
            faults: None,
        };
        let mut inp = input(&topo, &traffic, &outcome, true);
        inp.window = (0, 0);
        let r = Report::new(&inp);
        let json = r.to_json();
        assert!(!json.contains("NaN") && !json.contains("inf"));
        // The only nulls are the documented "nobody took part" ones of fairness.
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let mut without = v.clone();
        without.as_object_mut().unwrap().remove("fairness");
        assert!(!without.to_string().contains("null,"), "{json}");
        let f = &v["fairness"];
        assert!(f["saturated"]["jain"].is_null() && f["saturated"]["min_terminal"].is_null());
        assert!(f["rate"]["given_of_asked"].is_null() && f["sources"] == serde_json::json!([]));
        assert_eq!(r.latency.message_latency.ticks.mean, 0.0);
        assert_eq!(r.throughput.delivered_pct, PctStats::default());
        let none = RunOutcome {
            terminals: vec![],
            ..outcome.clone()
        };
        let r = Report::new(&input(&topo, &traffic, &none, false));
        assert_eq!(r.throughput.delivered_pct, PctStats::default());
    }
}
