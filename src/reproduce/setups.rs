//! The small networks the chapter 6 experiments run on, built directly as validated
//! [`Network`] plans (the config path has no two-processor or single-switch family),
//! and the measurements taken from runs of the reference engine.
//!
//! - [`pair`]: two T9000s joined by one DS-Link (INMOS ch. 6 §6.1,
//!   §6.2: "a pair of links connected together"; §6.2.3: "two T9000s directly
//!   connected by short wires").
//! - [`star`]: one C104 with a T9000 on each of its links (INMOS ch. 6 §6.3: inputs of one
//!   C104 routing to its outputs).

use super::ReproduceError;
use crate::engine::{RunControl, RunOutcome, sequential};
use crate::network::build::mix_seed;
use crate::network::{Builder, DelayUnit, End, Network, NodeId, PlanError, RunPlan, Units};
use crate::parts::c104::C104Params;
use crate::parts::dslink::LinkParams;
use crate::parts::dslink::token::DATA_TOKEN_BITS;
use crate::parts::dslink::{DsLink, wire_capacity};
use crate::parts::t9000::ProcessorParams;
use crate::parts::t9000::vcp::VcpParams;
use crate::routing::{IntervalTable, LabelRouting, RouteAction};
use crate::terminal::TerminalParams;
use crate::time::{Tick, TimeBase};
use crate::traffic::{Destination, Injection};
use std::sync::Arc;

/// Nanoseconds per tick at 100 Mbit/s: one bit period (docs/architecture.md "Time").
pub const TICK_NS: f64 = 10.0;

/// Tick at which sources start: after the links' reset FCTs have crossed.
pub const START: Tick = 200;

/// Link, packet and traffic parameters shared by both set-ups.
#[derive(Clone, Debug)]
pub struct Spec {
    /// One-way link latency in ticks (wire plus link circuitry).
    pub wire: Tick,
    /// DS-Link receiver buffer and FCT batch.
    pub link: LinkParams,
    /// Header bytes (1 or 2).
    pub header_bytes: u32,
    /// Largest packet payload.
    pub max_data_bytes: u32,
    /// Every data packet acknowledged (INMOS ch. 6 §6.1.1, §6.2.3).
    pub acknowledge: bool,
    /// Virtual channels a VCP may have sending at once, all of which may go to the
    /// same destination.
    pub channels: u32,
    /// Message payload in bytes.
    pub bytes: u32,
    /// How sources create messages.
    pub injection: Injection,
    /// Measurement window `[from, to)` (`to` = `Tick::MAX` for batches).
    pub window: (Tick, Tick),
    /// Run seed.
    pub seed: u64,
}

impl Spec {
    /// The default link of INMOS ch. 6 §6.2.2 (20-token buffer, batch 8, 200 ns each way),
    /// 1-byte headers, 32-byte packets, acknowledges on, one channel.
    pub fn new(bytes: u32, injection: Injection) -> Spec {
        Spec {
            wire: 20,
            link: LinkParams::default(),
            header_bytes: 1,
            max_data_bytes: 32,
            acknowledge: true,
            channels: 1,
            bytes,
            injection,
            window: (START, Tick::MAX),
            seed: 1,
        }
    }

    fn vcp(&self) -> VcpParams {
        VcpParams {
            link: self.link,
            header_bytes: self.header_bytes,
            max_data_bytes: self.max_data_bytes,
            acknowledge: self.acknowledge,
            channels: self.channels,
            channels_per_destination: self.channels,
        }
    }

    fn terminal(&self, label: u32, sends: bool, dst: Destination, n: u32) -> TerminalParams {
        TerminalParams {
            label,
            sends,
            destination: dst,
            injection: self.injection.clone(),
            message_bytes: self.bytes,
            start: START,
            window: self.window,
            terminals: n,
            seed: mix_seed(self.seed, u64::from(label) + 1000),
        }
    }

    /// The plan built in `plan`: its T9000s are the terminals, the rest switches.
    fn finish(
        &self,
        name: &str,
        plan: Builder<DsLink>,
        switches: usize,
        routing: Tick,
    ) -> Result<Network, PlanError> {
        let batch = matches!(self.injection, Injection::Batch(_));
        let packet_tokens = self.header_bytes + self.max_data_bytes + 1;
        let units = Units {
            delay: DelayUnit::header_time(
                routing + Tick::from(self.header_bytes) * DATA_TOKEN_BITS + self.wire,
            ),
            byte_ticks: DATA_TOKEN_BITS,
            link_bytes: 1,
            header_bytes: self.header_bytes,
            max_data_bytes: self.max_data_bytes,
            message_bytes: self.bytes,
            packet_tokens,
        };
        let run = RunPlan::new(START, self.window, batch, 50_000_000, 200_000);
        plan.finish(name, TimeBase { tick_ns: TICK_NS }, switches, units, run)
    }

    /// Adds the T9000 of terminal `label` (of `n`), sending to `dst` if `sends`.
    fn processor(
        &self,
        plan: &mut Builder<DsLink>,
        label: u32,
        sends: bool,
        dst: Destination,
        n: u32,
    ) -> NodeId {
        let p = ProcessorParams {
            vcp: self.vcp(),
            terminal: self.terminal(label, sends, dst, n),
        };
        let id = plan.node(format!("t9000[{label}]"), p);
        plan.terminal(id);
        id
    }

    /// Links port `a` and port `b` with this spec's wire.
    fn wire(&self, plan: &mut Builder<DsLink>, a: End, b: End) {
        plan.link(a, b, self.wire, wire_capacity(self.wire));
    }
}

/// Two T9000s, labels 0 and 1, joined by one link; `senders[i]` says whether terminal
/// i sends (to the other one).
pub fn pair(spec: &Spec, senders: [bool; 2]) -> Result<Network, PlanError> {
    let mut plan = Builder::new();
    for label in 0..2u32 {
        let sends = senders[label as usize];
        spec.processor(&mut plan, label, sends, Destination::Fixed(1 - label), 2);
    }
    spec.wire(
        &mut plan,
        End { node: 0, port: 0 },
        End { node: 1, port: 0 },
    );
    spec.finish("pair", plan, 0, 0)
}

/// One C104 (node 0) with `terminals` T9000s, terminal i on port i; terminals
/// `0..senders` send, each message to `destination`. The switch routes label i to port
/// i after `routing_delay` ticks, with `output_buffer` tokens of output buffering.
pub fn star(
    spec: &Spec,
    terminals: u32,
    senders: u32,
    destination: Destination,
    routing_delay: Tick,
    output_buffer: u32,
) -> Result<Network, PlanError> {
    let table = IntervalTable::new(
        (0..terminals)
            .map(|i| (i, i + 1, RouteAction::Output(i as usize)))
            .collect(),
    )
    .unwrap_or_default();
    let ports = terminals as usize;
    let switch = C104Params {
        ports,
        link: spec.link,
        header_bytes: spec.header_bytes,
        routing_delay,
        output_buffer,
        routing: LabelRouting::new(Arc::new(table), ports),
        seed: mix_seed(spec.seed, 0),
    };
    let mut plan = Builder::new();
    let hub = plan.node("c104", switch);
    for label in 0..terminals {
        let t = spec.processor(&mut plan, label, label < senders, destination, terminals);
        let port = label as usize;
        spec.wire(&mut plan, End { node: hub, port }, End { node: t, port: 0 });
    }
    spec.finish("star", plan, 1, routing_delay)
}

/// Runs `net` on the reference engine.
pub fn run(net: &Network) -> Result<RunOutcome, ReproduceError> {
    let ctl = RunControl::for_plan(net);
    sequential::run(net, &ctl, None).map_err(|source| ReproduceError::Engine {
        run: net.name().to_string(),
        source: Box::new(source),
    })
}

/// Tick of the last message delivery anywhere in a finished run.
pub fn last_delivery(out: &RunOutcome) -> Tick {
    out.terminals
        .iter()
        .map(|t| t.counters.last_delivery)
        .max()
        .unwrap_or(0)
}

/// Steady-state ticks per message of a batch experiment: runs `make(k)` (every sender
/// queues `k` messages at the start) for `k1` and `k2` and divides the difference in
/// completion time by `k2 − k1`. Start-up and drain are the same in both runs and
/// cancel, so the result is the period of the steady state itself.
pub fn batch_period(
    make: impl Fn(u32) -> Result<Network, PlanError>,
    k1: u32,
    k2: u32,
) -> Result<f64, ReproduceError> {
    let t = |k: u32| -> Result<Tick, ReproduceError> {
        let out = run(&make(k)?)?;
        if !out.complete {
            return Err(ReproduceError::BatchUndelivered { messages: k });
        }
        Ok(last_delivery(&out))
    };
    let (a, b) = (t(k1)?, t(k2)?);
    Ok((b as f64 - a as f64) / f64::from(k2 - k1))
}

/// Converts payload bytes per tick to Mbit/s of user data (8 bits a byte; a tick is
/// [`TICK_NS`]).
pub fn mbit_s(bytes_per_tick: f64) -> f64 {
    bytes_per_tick * 8.0 * 1000.0 / TICK_NS
}
