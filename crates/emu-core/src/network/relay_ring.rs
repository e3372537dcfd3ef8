//! A ring of relay nodes ([`crate::parts::relay`]): the plan the engines test runs to
//! show that they depend on no hardware protocol.

use super::build::mix_seed;
use super::{Builder, DelayUnit, Network, PlanError, RunPlan, Units};
use crate::ids::{End, NodeId};
use crate::parts::relay::{Relay, RelayParams};
use crate::time::{Tick, TimeBase};

/// A ring of `nodes` relay nodes, each putting `balls` balls into play, every ball
/// making `hops` hops; links of `latency` ticks (at least 1); think times up to
/// `max_think`. Node i's port 1 is linked to node i + 1's port 0.
pub fn relay_ring(
    nodes: usize,
    balls: u32,
    hops: u32,
    latency: Tick,
    max_think: Tick,
    seed: u64,
) -> Result<Network<Relay>, PlanError> {
    let total = balls * nodes as u32;
    let mut plan = Builder::new();
    for i in 0..nodes {
        let p = RelayParams {
            seed_balls: balls,
            hops,
            max_think,
            capacity: total,
            first_id: i as u32 * balls,
            seed: mix_seed(seed, i as u64),
        };
        let id = plan.node(format!("relay[{i}]"), p);
        plan.terminal(id);
    }
    for i in 0..nodes {
        let next: NodeId = (i + 1) % nodes;
        plan.link(
            End { node: i, port: 1 },
            End {
                node: next,
                port: 0,
            },
            latency,
            1,
        );
    }
    let units = Units::plain(DelayUnit {
        name: "ticks",
        ticks: 1,
    });
    let run = RunPlan {
        start: 0,
        window: (0, Tick::MAX),
        batch: true,
        end_after: 0,
        hard_stop: 100_000_000,
        deadlock_window: 1_000_000,
        // A ball leaves a node, crosses the link for `latency` ticks and thinks for up
        // to `max_think` at the next before it moves again: with one ball in play
        // nothing else moves meanwhile.
        silence: super::Silence {
            ticks: Tick::from(latency) + Tick::from(max_think),
            why: "a ball's link latency plus its longest think time",
        },
    };
    plan.finish(
        format!("relay-ring{nodes}"),
        TimeBase { tick_ns: 1.0 },
        0,
        units,
        run,
    )
    .map(|net| {
        net.with_geometry(super::Geometry::Ring {
            nodes: nodes as u32,
        })
    })
}
