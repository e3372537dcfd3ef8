//! A ring of SCI nodes ([`crate::parts::sci`]): node i's output link (port 1) feeds node
//! i + 1's input (port 0), every link one cycle long (SCI §4: "one cycle for the symbol to
//! reach its downstream neighbor"); one tick is one 2 ns cycle (SCI §4).

use super::build::mix_seed;
use super::{Builder, DelayUnit, Network, PlanError, RunPlan, Units};
use crate::ids::End;
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
    /// After the window, the run may go on this long for measured packets to arrive.
    pub drain: Tick,
    /// Run seed.
    pub seed: u64,
}

/// The plan of `ring`, node i sending `traffic(i)`.
pub fn sci_ring(
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
    let units = Units::plain(DelayUnit {
        name: "cycles",
        ticks: 1,
    });
    let end_after = ring.window.1;
    let run = RunPlan {
        start: ring.start,
        window: ring.window,
        batch: false,
        end_after,
        hard_stop: end_after.saturating_add(ring.drain),
        deadlock_window: 100_000,
    };
    plan.finish(
        format!("sci-ring{}", ring.nodes),
        TimeBase { tick_ns: 2.0 },
        0,
        units,
        run,
    )
}
