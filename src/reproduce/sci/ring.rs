//! Running one SCI ring for an experiment: every node's realised throughput and
//! latency as a source, measured the way SCI §4 plots them (send-packet bytes per ns;
//! mean latency from a packet's creation to its consumption at the target, in ns).

use super::super::ReproduceError;
use super::super::table::Curve;
use crate::engine::{self, RunControl};
use crate::network::{CYCLE_NS, SciRing, sci_ring};
use crate::parts::sci::{Arrivals, PacketMix, SciTraffic};
use crate::time::Tick;
use crate::traffic::Destination;

/// Cycles a run goes on after its window for measured packets to arrive.
const DRAIN: Tick = 20_000;

/// One ring run: the ring and its node traffic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RingRun {
    /// Nodes.
    pub nodes: u32,
    /// Go-bit flow control.
    pub flow_control: bool,
    /// Active buffers; `None` for unlimited.
    pub active_buffers: Option<u32>,
    /// Sink consumption probability per cycle.
    pub sink_rate: f64,
    /// The packet mix.
    pub mix: PacketMix,
    /// Cycles before the measurement window.
    pub warmup: Tick,
    /// Cycles of the measurement window.
    pub measure: Tick,
    /// Run seed.
    pub seed: u64,
}

impl RingRun {
    /// `nodes` nodes, the paper's defaults (no flow control, unlimited active buffers,
    /// sink rate 1, 80/20 mix), a window of `measure` cycles after `warmup`.
    pub fn new(nodes: u32, warmup: Tick, measure: Tick) -> RingRun {
        RingRun {
            nodes,
            flow_control: false,
            active_buffers: None,
            sink_rate: 1.0,
            mix: PacketMix::PAPER,
            warmup,
            measure,
            seed: 1,
        }
    }
}

/// What a node got.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeResult {
    /// Realised throughput: bytes of its send packets delivered in the window, per ns.
    pub throughput: f64,
    /// Mean latency of its measured packets in ns (creation to consumption).
    pub latency_ns: f64,
    /// Measured packets delivered.
    pub count: u64,
    /// Offered load: bytes of send packets it created in the window, per ns.
    pub offered: f64,
}

impl NodeResult {
    /// True if the node delivered less than `share` of what it offered in the window:
    /// its source queue grows, it is saturated.
    pub fn saturated(&self, share: f64) -> bool {
        self.throughput < share * self.offered
    }
}

/// What a ring run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct RingResult {
    /// Per node, in node order.
    pub nodes: Vec<NodeResult>,
    /// The mean of each journey part over every measured packet, in cycles, in the
    /// order of [`crate::parts::sci::JOURNEY_PARTS`] (source queue, idle source, ring
    /// buffer, fixed): they add up to [`RingResult::target_latency`].
    pub journey: Vec<f64>,
    /// Mean latency over every measured packet, recorded at its target, in cycles.
    pub target_latency: f64,
}

impl RingResult {
    /// Total realised throughput of the ring in bytes/ns.
    pub fn total(&self) -> f64 {
        self.nodes.iter().map(|n| n.throughput).sum()
    }

    /// Mean over nodes of the realised throughput.
    pub fn per_node(&self) -> f64 {
        self.total() / self.nodes.len().max(1) as f64
    }

    /// Mean latency over every measured packet of every node, in ns.
    pub fn latency_ns(&self) -> f64 {
        let n: u64 = self.nodes.iter().map(|r| r.count).sum();
        let sum: f64 = self
            .nodes
            .iter()
            .map(|r| r.latency_ns * r.count as f64)
            .sum();
        if n == 0 { 0.0 } else { sum / n as f64 }
    }
}

/// Node `i`'s traffic: `arrivals(i)`, `destination(i)`, the run's mix.
pub fn traffic(
    r: &RingRun,
    arrivals: impl Fn(u32) -> Arrivals,
    destination: impl Fn(u32) -> Destination,
) -> impl Fn(u32) -> SciTraffic {
    let mix = r.mix;
    move |i| SciTraffic {
        arrivals: arrivals(i),
        destination: destination(i),
        mix,
        request_response: false,
    }
}

/// The per-node packet rate (packets per cycle) that offers `bytes_per_ns` of send
/// packets under `mix`.
pub fn rate_for(bytes_per_ns: f64, mix: &PacketMix) -> f64 {
    bytes_per_ns / mix.mean_symbols()
}

/// Runs `r` with node `i` sending `traffic(i)` on the reference engine, and measures.
pub fn run(r: &RingRun, traffic: impl Fn(u32) -> SciTraffic) -> Result<RingResult, ReproduceError> {
    let start = 1;
    let window = (start + r.warmup, start + r.warmup + r.measure);
    let ring = SciRing {
        nodes: r.nodes,
        flow_control: r.flow_control,
        active_buffers: r.active_buffers,
        sink_rate: r.sink_rate,
        start,
        window,
        // Measured packets get this long after the window to arrive (their latency
        // counts); an overloaded source's backlog is not waited for beyond it.
        drain: DRAIN,
        batch: false,
        seed: r.seed,
    };
    let net = sci_ring(&ring, traffic)?;
    let ctl = RunControl::for_plan(&net);
    let out = engine::sequential::run(&net, &ctl, None).map_err(|e| ReproduceError::Engine {
        run: net.name().to_string(),
        source: Box::new(e),
    })?;
    let ns = r.measure as f64 * CYCLE_NS;
    let all = crate::terminal::TerminalStats::total(&out.terminals);
    let journey = all.journey_parts.parts.iter().map(|m| m.mean()).collect();
    let target_latency = all.message_latency.mean();
    let nodes = out
        .terminals
        .iter()
        .map(|t| NodeResult {
            throughput: t.source.bytes_delivered_in_window as f64 / ns,
            latency_ns: t.source.latency.mean() * CYCLE_NS,
            count: t.source.latency.count(),
            offered: t.counters.bytes_offered_in_window as f64 / ns,
        })
        .collect();
    Ok(RingResult {
        nodes,
        journey,
        target_latency,
    })
}

/// Every node saturated (always a packet waiting), destinations uniform.
pub fn saturated_uniform(r: &RingRun) -> Result<RingResult, ReproduceError> {
    let n = r.nodes;
    run(
        r,
        traffic(
            r,
            |_| Arrivals::Saturated,
            |_| Destination::Uniform { terminals: n },
        ),
    )
}

/// Every node Poisson at `bytes_per_ns`, destinations uniform.
pub fn poisson_uniform(r: &RingRun, bytes_per_ns: f64) -> Result<RingResult, ReproduceError> {
    let n = r.nodes;
    let p = rate_for(bytes_per_ns, &r.mix);
    run(
        r,
        traffic(
            r,
            |_| Arrivals::Bernoulli(p),
            |_| Destination::Uniform { terminals: n },
        ),
    )
}

/// A latency–throughput curve (SCI §4's figures): for each per-node offered load in
/// `loads` (bytes/ns), node `i` sending `arrivals(i, packets per cycle)` to
/// `destination(i)`. Columns: the offered load, the ring's mean realised throughput per
/// node and mean latency (ns), then, with `per_node`, each node's.
pub fn sweep(
    title: impl Into<String>,
    r: &RingRun,
    loads: &[f64],
    per_node: bool,
    arrivals: impl Fn(u32, f64) -> Arrivals,
    destination: impl Fn(u32) -> Destination + Copy,
) -> Result<Curve, ReproduceError> {
    let mut columns = vec![
        "offered".to_string(),
        "throughput".to_string(),
        "latency_ns".to_string(),
    ];
    if per_node {
        for k in 0..r.nodes {
            columns.push(format!("p{k}_throughput"));
            columns.push(format!("p{k}_latency_ns"));
        }
    }
    let mut rows = Vec::new();
    for &load in loads {
        let p = rate_for(load, &r.mix);
        let result = run(r, traffic(r, |i| arrivals(i, p), destination))?;
        let mut row = vec![load, result.per_node(), result.latency_ns()];
        if per_node {
            for n in &result.nodes {
                row.extend([n.throughput, n.latency_ns]);
            }
        }
        rows.push(row);
    }
    Ok(Curve {
        title: title.into(),
        columns,
        rows,
    })
}

/// `points` loads evenly spread over `(0, top]`.
pub fn loads(top: f64, points: u32) -> Vec<f64> {
    (1..=points)
        .map(|k| top * f64::from(k) / f64::from(points))
        .collect()
}
