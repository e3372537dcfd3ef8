//! The "bare loop" baseline: the same state machines stepped by one loop over ticks,
//! with no engine at all — no windows, no due-queue, no barriers, no channels, no
//! activity bookkeeping, no completion or deadlock checks. It runs every node at
//! every tick at which a token arrives for it or its own timer is due (the same
//! ticks an engine runs it at), until a given tick. What the engines add on top of
//! this loop is what they cost.

use emu::network::Network;
use emu::parts::dslink::{Outbox, Token};
use emu::time::Tick;
use std::collections::VecDeque;

/// What the loop did.
pub struct BareRun {
    /// Flow-controlled tokens put on links (the engines' "token-hops").
    pub token_hops: u64,
    /// Messages delivered to their destination terminal.
    pub messages_delivered: u64,
    /// Node steps.
    pub steps: u64,
}

/// Steps `net` from tick 0 until `end` (exclusive).
pub fn run(net: &Network, end: Tick) -> Result<BareRun, String> {
    let mut nodes = net.instantiate(false, None);
    let dirs = net.directions();
    let map = net.port_map();
    let mut queues: Vec<VecDeque<(Tick, Token)>> = dirs
        .iter()
        .map(|d| VecDeque::with_capacity(d.capacity))
        .collect();
    let mut timer: Vec<Tick> = vec![0; nodes.len()];
    // Earliest arrival waiting for each node, kept up to date on every send, so that
    // a node with nothing due costs two comparisons per tick.
    let mut arrival: Vec<Tick> = vec![Tick::MAX; nodes.len()];
    let mut out = Outbox::default();
    let mut steps = 0;
    for t in 0..end {
        for (n, node) in nodes.iter_mut().enumerate() {
            if timer[n] > t && arrival[n] > t {
                continue;
            }
            let mut next_arrival = Tick::MAX;
            for (p, wires) in map[n].iter().enumerate() {
                let Some(d) = wires.inp else { continue };
                while queues[d].front().is_some_and(|&(a, _)| a <= t) {
                    if let Some((_, tok)) = queues[d].pop_front() {
                        node.receive(t, p, tok)
                            .map_err(|e| format!("tick {t}: {e:?}"))?;
                    }
                }
                if let Some(&(a, _)) = queues[d].front() {
                    next_arrival = next_arrival.min(a);
                }
            }
            arrival[n] = next_arrival;
            steps += 1;
            timer[n] = node
                .step(t, &mut out)
                .map_err(|e| format!("tick {t}: {e:?}"))?
                .unwrap_or(Tick::MAX);
            for e in out.emits.drain(..) {
                if let Some(d) = map[n][e.port].out {
                    let a = e.at + dirs[d].latency;
                    queues[d].push_back((a, e.token));
                    let to = dirs[d].to.node;
                    arrival[to] = arrival[to].min(a);
                }
            }
        }
    }
    Ok(BareRun {
        token_hops: out.activity.tokens_moved,
        messages_delivered: out.activity.messages_delivered,
        steps,
    })
}
