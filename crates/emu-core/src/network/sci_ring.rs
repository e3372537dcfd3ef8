//! A ring of SCI nodes ([`crate::parts::sci`]): node i's output link (port 1) feeds node
//! i + 1's input (port 0), every link one cycle long (SCI §4: "one cycle for the symbol to
//! reach its downstream neighbor"); one tick is one 2 ns cycle (SCI §4).

use super::build::{BuildError, mix_seed, topo_err};
use super::pattern::Family;
use super::traffic_plan::{self, traffic_err};
use super::{Builder, DelayUnit, Network, PlanError, RunPlan, Units};
use crate::config::TrafficConfig;
use crate::config::topology::MixConfig;
use crate::config::traffic::InjectionConfig;
use crate::ids::End;
use crate::network::{NetworkConfig, TopologyConfig};
use crate::parts::sci::{Arrivals, config::SciRingConfig};
use crate::parts::sci::{Sci, SciParams, SciTraffic};
use crate::time::{Tick, TimeBase};

/// Symbols one SCI link direction can hold in the engines' channel: the one on the wire,
/// the one being gated onto it, and one of slack.
const WIRE_SYMBOLS: usize = 3;

/// The shape of an SCI ring and its run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SciRing {
    /// Nodes on the ring (≥ 2).
    pub nodes: u32,
    /// Go-bit flow control (SCI §2.2).
    pub flow_control: bool,
    /// Active buffers per node; `None` for unlimited.
    pub active_buffers: Option<u32>,
    /// Sink queue consumption probability per cycle (SCI §4.5).
    pub sink_rate: f64,
    /// Sources start here.
    pub start: Tick,
    /// Packets created in `[from, to)` are measured.
    pub window: (Tick, Tick),
    /// After the window (a batch run: after the start), the run may go on this long for
    /// measured packets to arrive.
    pub drain: Tick,
    /// A batch run: it ends when every packet created is delivered, and `window` is
    /// `(start, Tick::MAX)`.
    pub batch: bool,
    /// Run seed.
    pub seed: u64,
}

/// The plan of `ring`, node i sending `traffic(i)`.
pub fn sci_ring(
    ring: &SciRing,
    traffic: impl Fn(u32) -> SciTraffic,
) -> Result<Network<Sci>, PlanError> {
    named_sci_ring(&format!("sci-ring{}", ring.nodes), ring, traffic)
}

/// [`sci_ring`] named `name`.
fn named_sci_ring(
    name: &str,
    ring: &SciRing,
    traffic: impl Fn(u32) -> SciTraffic,
) -> Result<Network<Sci>, PlanError> {
    let traffics: Vec<SciTraffic> = (0..ring.nodes).map(traffic).collect();
    let longest = |t: &SciTraffic| u32::from(t.longest());
    // A sink queue holds the largest packet any node sends (SCI §4.5); a ring buffer
    // holds what can arrive while the node's own longest packet and its postpended
    // idle go out (see `parts::sci`).
    let largest = traffics.iter().map(longest).max().unwrap_or(0);
    let mut plan = Builder::new();
    for (i, t) in (0..ring.nodes).zip(traffics) {
        let p = SciParams {
            node: i,
            ring_nodes: ring.nodes,
            flow_control: ring.flow_control,
            active_buffers: ring.active_buffers,
            sink_symbols: largest,
            sink_rate: ring.sink_rate,
            ring_buffer: longest(&t) + 1,
            traffic: t,
            start: ring.start,
            window: ring.window,
            seed: mix_seed(ring.seed, u64::from(i)),
        };
        let id = plan.node(format!("sci[{i}]"), p);
        plan.terminal(id);
    }
    let n = ring.nodes as usize;
    for i in 0..n {
        let next = (i + 1) % n;
        plan.link(
            End { node: i, port: 1 },
            End {
                node: next,
                port: 0,
            },
            1,
            WIRE_SYMBOLS,
        );
    }
    // One 16-bit symbol, two bytes, per cycle (SCI §2.1).
    let units = Units {
        link_bytes: 2,
        ..Units::plain(DelayUnit {
            name: "cycles",
            ticks: 1,
        })
    };
    // A packet's symbol is sent on by the next node 4 cycles after its sender sent it
    // ("a fixed minimum delay of 4 cycles per node": gate, link, two to parse), and a
    // node sends a packet or echo symbol each cycle it has one: with a packet in flight
    // the ring is never silent longer than that hop.
    let run = RunPlan::new(ring.start, ring.window, ring.batch, ring.drain, 100_000).with_silence(
        super::Silence {
            ticks: crate::parts::sci::fixed_delay(1, 0),
            why: "a symbol's hop from one node to the next, 4 cycles, SCI §4",
        },
    );
    plan.finish(name, TimeBase { tick_ns: 2.0 }, 0, units, run)
        .map(|net| net.with_geometry(super::Geometry::Ring { nodes: ring.nodes }))
}

/// One SCI cycle in nanoseconds: "a 2 ns clock" (SCI §2.1, §4).
pub const CYCLE_NS: f64 = 2.0;

/// Builds the SCI ring of `topology` (`kind = "sci_ring"`) under `traffic` with run seed
/// `seed`. Traffic is read as for every family, with SCI's meanings:
/// - `injection.load` is each node's offered send-packet bytes per ns, as a fraction of
///   the link's 1 byte/ns (one 16-bit symbol per 2 ns cycle; SCI §4 plots throughput
///   so): a node creates `load / mean symbols per packet` packets per cycle;
/// - `continuous` injection keeps a packet always waiting (saturation), and
///   `terminals.saturated` does so for some nodes only (the hot sender, SCI §4.3);
/// - `[message]` does not apply: packet lengths come from the topology's `mix`.
pub fn sci_ring_from_config(
    name: &str,
    topology: &TopologyConfig,
    traffic: &TrafficConfig,
    seed: u64,
) -> Result<Network<Sci>, BuildError> {
    let NetworkConfig::SciRing(ref cfg) = topology.network else {
        return Err(topo_err("network.kind", "not an sci_ring network"));
    };
    super::faults::refuse_dslink_faults(&topology.faults, "an SCI ring")?;
    let net = sci_ring_of(name, cfg, traffic, seed)?;
    super::faults::link_faults(net, &topology.faults, seed)
}

fn sci_ring_of(
    name: &str,
    cfg: &SciRingConfig,
    tr: &TrafficConfig,
    seed: u64,
) -> Result<Network<Sci>, BuildError> {
    let spec = cfg.validate().map_err(|e| topo_err(e.key, e.message))?;
    if tr.request_response && cfg.mix != MixConfig::default() {
        return Err(topo_err(
            "network.mix",
            "request/response traffic sends address-packet requests answered by 64-byte \
             data responses (SCI §4.7), so a packet mix does not apply: leave network.mix at \
             80 % address / 20 % 64-byte data, or remove request_response",
        ));
    }
    let nodes = spec.nodes;
    let phases = traffic_plan::phases(tr, CYCLE_NS)?;
    let load = traffic_plan::rate_load(&tr.injection)?;
    let arrivals = match tr.injection {
        InjectionConfig::Continuous => Arrivals::Saturated,
        InjectionConfig::Rate { .. } => {
            let symbols = if tr.request_response {
                f64::from(crate::parts::sci::ADDRESS_SYMBOLS)
            } else {
                spec.mix.mean_symbols()
            };
            Arrivals::Bernoulli(load.unwrap_or(0.0) / symbols)
        }
        InjectionConfig::Batch { messages } => {
            Arrivals::Batch(traffic_plan::batch_messages(messages, nodes)?)
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
    let batch = matches!(arrivals, Arrivals::Batch(_));
    let phases = phases.with_batch(batch)?;
    let senders = traffic_plan::senders(tr, nodes)?;
    let saturated = traffic_plan::saturated(tr, nodes, batch)?;
    let destinations = traffic_plan::destinations(tr, Family::Ring, nodes)?;
    let sends: Vec<bool> = senders
        .iter()
        .zip(&saturated)
        .map(|(&s, &h)| s || h)
        .collect();
    let flows = traffic_plan::permutation_flows(&destinations, &sends);
    let ring = SciRing {
        nodes,
        flow_control: spec.flow_control,
        active_buffers: spec.active_buffers,
        sink_rate: spec.sink_rate,
        start: phases.start,
        window: phases.window,
        drain: phases.drain,
        batch,
        seed,
    };
    named_sci_ring(name, &ring, |i| {
        let i = i as usize;
        SciTraffic {
            arrivals: if saturated[i] {
                Arrivals::Saturated
            } else if senders[i] {
                arrivals
            } else {
                Arrivals::None
            },
            destination: destinations[i],
            mix: spec.mix,
            request_response: tr.request_response,
        }
    })
    .map(|net| net.with_flows(flows))
    .map_err(|e| topo_err("network", format!("the plan is miswired: {e}")))
}
