//! A single-stage switch fabric ([`crate::parts::fabric`]): N adapters, adapter i's
//! ingress link (port 0) to switch port i and its egress link (port 1) from switch port
//! N + i; one tick is one packet cycle (Gramsamer §4.1).

use super::build::{BuildError, mix_seed, topo_err};
use super::pattern::Family;
use super::traffic_plan::{self, traffic_err};
use super::{Builder, DelayUnit, Network, PlanError, RunPlan, Units};
use crate::config::TrafficConfig;
use crate::config::traffic::{InjectionConfig, PatternConfig};
use crate::ids::End;
use crate::network::{NetworkConfig, TopologyConfig};
use crate::parts::fabric::config::FabricSpec;
use crate::parts::fabric::{
    AdapterParams, Arrivals, Destinations, Fabric, SwitchParams, TraceEvent,
};
use crate::time::{Tick, TimeBase};
use crate::traffic::Destination;
use crate::traffic::trace::TraceLine;
use std::sync::Arc;

/// A fabric's run: phases and seed (the traffic comes per input).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FabricRun {
    /// Sources start here.
    pub start: Tick,
    /// Packets created in `[from, to)` are measured.
    pub window: (Tick, Tick),
    /// After the window (a batch run: after the start) the run may go on this long for
    /// measured packets to exit.
    pub drain: Tick,
    /// A batch run: it ends when every packet is delivered.
    pub batch: bool,
    /// Run seed.
    pub seed: u64,
    /// Bucket width, in packet cycles, of the output adapters' departure timeline per
    /// input (an adapter's `timeline` statistics), for experiments that watch a run's
    /// dynamics (Gramsamer §7.2, Fig. 7.8); `None`: not kept.
    pub timeline: Option<Tick>,
}

/// The plan of fabric `spec` named `name`, input i creating `traffic(i)`.
pub fn fabric(
    name: &str,
    spec: &FabricSpec,
    run: &FabricRun,
    traffic: impl Fn(u16) -> (Arrivals, Destinations),
) -> Result<Network<Fabric>, PlanError> {
    let n = spec.ports;
    let data = Tick::from(spec.data_cycles());
    let control = Tick::from(spec.control_cycles());
    let mut plan = Builder::new();
    for i in 0..n {
        let (arrivals, destinations) = traffic(i);
        let p = AdapterParams {
            index: i,
            ports: n,
            memory: spec.memory,
            flow_control: spec.flow_control.clone(),
            data_extra: data - control,
            data_path: data,
            timeline: run.timeline,
            arrivals,
            destinations,
            voq_cap: spec.voq_cap,
            start: run.start,
            window: run.window,
            packet_bytes: spec.packet_bytes,
            seed: mix_seed(run.seed, u64::from(i)),
        };
        let id = plan.node(format!("adapter[{i}]"), p);
        plan.terminal(id);
    }
    let switch = plan.node(
        "switch",
        SwitchParams {
            ports: n,
            memory: spec.memory,
            flow_control: spec.flow_control.clone(),
            output_scheduler: spec.output_scheduler,
            window: run.window,
            seed: mix_seed(run.seed, u64::from(n)),
        },
    );
    let n = usize::from(n);
    // Cells a link direction can hold in the engines' channel: what is sent in two
    // windows of the shortest link (the receiver takes what is due at the start of each
    // window): one packet per cycle on the data path, up to N flow-control cells per
    // cycle on the control path (the Reference, grants, absolute credits).
    let window = control.max(1) as usize + 2;
    let wire = 2 * (n + 2) * window;
    let egress = 2 * (data as usize + 2);
    for i in 0..n {
        plan.link(
            End { node: i, port: 0 },
            End {
                node: switch,
                port: i,
            },
            control,
            wire,
        );
        plan.link(
            End {
                node: switch,
                port: n + i,
            },
            End { node: i, port: 1 },
            data,
            egress,
        );
    }
    // No packet format of headers and terminators: the packet is the unit, so there is
    // no format maximum below 100 % (message_bytes 0, as for an SCI ring).
    let units = Units {
        link_bytes: spec.packet_bytes,
        max_data_bytes: spec.packet_bytes,
        message_bytes: 0,
        ..Units::plain(DelayUnit {
            name: "packet cycles",
            ticks: 1,
        })
    };
    // A VOQ that waits on flow control waits for a credit, grant or slot to come back:
    // at most a round trip (its packet's RTT/2 on the data path, the answer's RTT/2 on
    // the control path; Grant OT's first slot reaches the adapter RTT/2 after cycle 0),
    // during which nothing else need move.
    let plan_run = RunPlan::new(
        run.start,
        run.window,
        run.batch,
        run.drain,
        10 * Tick::from(spec.rtt) + 10_000,
    )
    .with_silence(super::Silence {
        ticks: Tick::from(spec.rtt),
        why: "a round trip of the links, RTT packet cycles, Gramsamer §4.3",
    });
    plan.finish(
        name,
        TimeBase {
            tick_ns: spec.cycle_ns,
        },
        1,
        units,
        plan_run,
    )
    .map(|net| net.with_geometry(super::Geometry::Star { hub: switch }))
}

/// Builds the fabric of `topology` (`kind = "fabric"`) under `traffic` with run seed
/// `seed`; `trace` is the parsed trace file when the injection is `trace`. Traffic is
/// read as for every family, with a fabric's meanings (Gramsamer §2.4-2.5):
/// - `rate` injection is Bernoulli with p = `load` per packet cycle, `bursty` the on/off
///   process of App. D, `bimodal` its frames of two lengths (§2.5.1), `batch` that many
///   packets per input at the start, `trace` the file's packets; `continuous` is refused
///   (use `rate` with `load = 1`);
/// - `uniform` destinations include an input's own output; `non_uniform` is Eq. 2.2;
///   the permutations and `fixed`/`table` send each input to one output;
/// - `terminals.saturated` inputs create a packet every cycle;
/// - `[message]` does not apply: packets have the topology's `packet_bytes`.
pub fn fabric_from_config(
    name: &str,
    topology: &TopologyConfig,
    tr: &TrafficConfig,
    seed: u64,
    trace: Option<&[TraceLine]>,
) -> Result<Network<Fabric>, BuildError> {
    let NetworkConfig::Fabric(ref cfg) = topology.network else {
        return Err(topo_err("network.kind", "not a fabric network"));
    };
    super::faults::refuse_dslink_faults(&topology.faults, "a switch fabric")?;
    let spec = cfg.validate().map_err(|e| topo_err(e.key, e.message))?;
    let n = u32::from(spec.ports);
    if tr.request_response {
        return Err(traffic_err(
            "request_response",
            "request/response traffic applies to SCI rings only",
        ));
    }
    let phases = traffic_plan::phases(tr, spec.cycle_ns)?;
    let arrivals = match &tr.injection {
        InjectionConfig::Continuous => {
            return Err(traffic_err(
                "injection.kind",
                "a fabric input creates at most one packet per cycle: for saturation use \
                 kind = \"rate\" with load = 1 (Bernoulli, Gramsamer §7.3.2)",
            ));
        }
        InjectionConfig::Rate { .. } => {
            Arrivals::Bernoulli(traffic_plan::rate_load(&tr.injection)?.unwrap_or(0.0))
        }
        &InjectionConfig::Bursty { load, burst } => {
            on_off_load(load)?;
            if !(burst.is_finite() && (1.0..=f64::from(MAX_FRAME)).contains(&burst)) {
                return Err(traffic_err(
                    "injection.burst",
                    format!(
                        "{}: give a mean burst size of 1 to 1,000,000,000 packets",
                        crate::text::number(burst)
                    ),
                ));
            }
            Arrivals::bursty(burst, load)
        }
        &InjectionConfig::Bimodal {
            load,
            short,
            long,
            long_share,
        } => bimodal(load, short, long, long_share)?,
        &InjectionConfig::Batch { messages } => {
            Arrivals::Batch(traffic_plan::batch_messages(messages, n)?)
        }
        InjectionConfig::Trace { .. } => Arrivals::None,
    };
    let batch = matches!(arrivals, Arrivals::Batch(_));
    let phases = phases.with_batch(batch)?;
    let senders = traffic_plan::senders(tr, n)?;
    let saturated = traffic_plan::saturated(tr, n, batch)?;
    let per_input_trace = match (&tr.injection, trace) {
        (InjectionConfig::Trace { .. }, Some(lines)) => {
            if tr.pattern != PatternConfig::Uniform {
                return Err(traffic_err(
                    "pattern.kind",
                    "a trace names each packet's output: remove the pattern",
                ));
            }
            Some(split_trace(lines, n)?)
        }
        (InjectionConfig::Trace { .. }, None) => {
            return Err(traffic_err("injection.file", "the trace file was not read"));
        }
        _ => None,
    };
    let destinations = destinations(tr, n)?;
    // A permutation (every sender to its own output) is reported flow by flow.
    let fixed: Vec<Destination> = destinations
        .iter()
        .map(|d| match d {
            Destinations::Fixed(o) => Destination::Fixed(u32::from(*o)),
            Destinations::Uniform | Destinations::NonUniform { .. } => {
                Destination::Uniform { terminals: n }
            }
        })
        .collect();
    let sends: Vec<bool> = (0..n as usize)
        .map(|k| per_input_trace.is_none() && (senders[k] || saturated[k]))
        .collect();
    let flows = traffic_plan::permutation_flows(&fixed, &sends);
    let run = FabricRun {
        start: phases.start,
        window: phases.window,
        drain: phases.drain,
        batch,
        seed,
        timeline: None,
    };
    fabric(name, &spec, &run, |i| {
        let k = usize::from(i);
        let a = if let Some(t) = &per_input_trace {
            Arrivals::Trace(t[k].clone())
        } else if saturated[k] {
            Arrivals::Bernoulli(1.0)
        } else if senders[k] {
            arrivals.clone()
        } else {
            Arrivals::None
        };
        (a, destinations[k])
    })
    .map(|net| {
        let pair_load = pair_load(tr, &destinations, &senders, &saturated, n);
        net.with_flows(flows)
            .with_warnings(spec.warnings(pair_load))
    })
    .map_err(|e| topo_err("network", format!("the plan is miswired: {e}")))
    .and_then(|net| super::faults::link_faults(net, &topology.faults, seed))
}

/// The most packets per cycle the traffic offers from one input to one output: each
/// sender's load times the share of its packets its most frequent output takes. A
/// batch or a trace, whose rate the file does not give, counts as a whole packet per
/// cycle.
fn pair_load(
    tr: &TrafficConfig,
    destinations: &[Destinations],
    senders: &[bool],
    saturated: &[bool],
    n: u32,
) -> f64 {
    let load = match tr.injection {
        InjectionConfig::Rate { .. } => traffic_plan::rate_load(&tr.injection)
            .ok()
            .flatten()
            .unwrap_or(1.0),
        InjectionConfig::Bursty { load, .. } | InjectionConfig::Bimodal { load, .. } => load,
        _ => 1.0,
    };
    let outputs = f64::from(n);
    (0..n as usize)
        .map(|k| {
            let load = if saturated[k] {
                1.0
            } else if senders[k] {
                load
            } else {
                0.0
            };
            let share = match destinations[k] {
                Destinations::Fixed(_) => 1.0,
                Destinations::Uniform => 1.0 / outputs,
                Destinations::NonUniform { w } => w + (1.0 - w) / outputs,
            };
            load * share
        })
        .fold(0.0, f64::max)
}

/// Each input's destinations under the file's pattern.
fn destinations(tr: &TrafficConfig, n: u32) -> Result<Vec<Destinations>, BuildError> {
    if let PatternConfig::NonUniform { w } = tr.pattern {
        if !(0.0..=1.0).contains(&w) {
            return Err(traffic_err("pattern.w", format!("{w}: give w in [0, 1]")));
        }
        return Ok(vec![Destinations::NonUniform { w }; n as usize]);
    }
    traffic_plan::destinations(tr, Family::Crossbar, n)?
        .into_iter()
        .map(|d| match d {
            Destination::Uniform { .. } | Destination::AnyOf { .. } => Ok(Destinations::Uniform),
            Destination::Fixed(o) => Ok(Destinations::Fixed(o as u16)),
            Destination::UniformExcept { .. } => Err(traffic_err(
                "pattern.kind",
                "the starved pattern is SCI's (SCI §4.2); on a fabric use fixed, table or non_uniform",
            )),
        })
        .collect()
}

/// A trace's lines as each input's events, in cycle order (stable for equal cycles).
fn split_trace(lines: &[TraceLine], n: u32) -> Result<Vec<Arc<[TraceEvent]>>, BuildError> {
    let mut per: Vec<Vec<TraceEvent>> = vec![Vec::new(); n as usize];
    for l in lines {
        if l.input >= n || l.output >= n {
            return Err(traffic_err(
                "injection.file",
                format!(
                    "line {}: input {} → output {} is not a port of this {n}-port fabric",
                    l.line, l.input, l.output
                ),
            ));
        }
        per[l.input as usize].push(TraceEvent {
            cycle: l.cycle,
            output: l.output as u16,
            packets: l.packets,
        });
    }
    Ok(per
        .into_iter()
        .map(|mut v| {
            v.sort_by_key(|e| e.cycle);
            v.into()
        })
        .collect())
}

/// Checks the offered load of an on/off source (bursty or bimodal): a fraction of the
/// link in (0, 1], since the off periods are sized from it (Gramsamer App. D).
fn on_off_load(load: f64) -> Result<(), BuildError> {
    if load > 0.0 && load <= 1.0 {
        return Ok(());
    }
    Err(traffic_err(
        "injection.load",
        format!(
            "{}: give a fraction of link capacity in (0, 1]",
            crate::text::number(load)
        ),
    ))
}

pub(super) use crate::config::limits::MAX_FRAME;

/// The bimodal frames of a traffic file, validated (Gramsamer §2.5.1).
fn bimodal(load: f64, short: u32, long: u32, long_share: f64) -> Result<Arrivals, BuildError> {
    on_off_load(load)?;
    if !(1..=MAX_FRAME).contains(&short) {
        return Err(traffic_err(
            "injection.short",
            format!("{short}: give a short frame of 1 to 1,000,000,000 packets"),
        ));
    }
    if !(short..=MAX_FRAME).contains(&long) {
        return Err(traffic_err(
            "injection.long",
            format!(
                "{long}: give a long frame of {} to 1,000,000,000 packets (at least short)",
                crate::text::group(u64::from(short))
            ),
        ));
    }
    if !(0.0..=1.0).contains(&long_share) {
        return Err(traffic_err(
            "injection.long_share",
            format!(
                "{}: give the share of long frames, 0 to 1",
                crate::text::number(long_share)
            ),
        ));
    }
    Ok(Arrivals::bimodal(short, long, long_share, load))
}
