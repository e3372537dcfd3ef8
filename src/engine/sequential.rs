//! The sequential engine: every node stepped by one loop on the calling thread, link
//! directions as plain queues. It is the reference the parallel engines must match
//! byte for byte, and the baseline that measures what an engine costs.

use super::check::check_links;
use super::runner::{Full, NodeClock, Wires, run_window};
use super::schedule::{Decision, Scheduler};
use super::{EngineError, ProgressFn, RunControl, RunOutcome, conclude, run_error};
use crate::model::{Activity, Outbox, PortId, Token};
use crate::network::{Direction, Network, NodeId, PortWires};
use crate::time::Tick;
use std::collections::VecDeque;

struct SeqWires<'a> {
    queues: &'a mut [VecDeque<(Tick, Token)>],
    ports: &'a [PortWires],
    dirs: &'a [Direction],
}

impl Wires for SeqWires<'_> {
    fn peek(&mut self, port: PortId) -> Option<Tick> {
        let d = self.ports[port].inp?;
        self.queues[d].front().map(|&(t, _)| t)
    }

    fn pop(&mut self, port: PortId) -> Option<Token> {
        let d = self.ports[port].inp?;
        self.queues[d].pop_front().map(|(_, tok)| tok)
    }

    fn push(
        &mut self,
        port: PortId,
        at: Tick,
        token: Token,
    ) -> Result<Option<(NodeId, Tick)>, Full> {
        let Some(d) = self.ports[port].out else {
            return Ok(None);
        };
        let dir = &self.dirs[d];
        if self.queues[d].len() >= dir.capacity {
            return Err(Full { port });
        }
        let arrival = at + dir.latency;
        self.queues[d].push_back((arrival, token));
        Ok(Some((dir.to.node, arrival)))
    }
}

/// Runs `net` to completion on the calling thread.
pub fn run(
    net: &Network,
    ctl: &RunControl,
    mut progress: Option<ProgressFn>,
) -> Result<RunOutcome, EngineError> {
    let mut nodes = net.instantiate();
    let dirs = net.directions();
    let map = net.port_map();
    let mut queues: Vec<VecDeque<(Tick, Token)>> = dirs
        .iter()
        .map(|d| VecDeque::with_capacity(d.capacity))
        .collect();
    let mut clocks: Vec<NodeClock> = (0..nodes.len()).map(|_| NodeClock::default()).collect();
    let mut sched = Scheduler::new(nodes.len(), net.min_latency(), ctl.clone());
    let mut out = Outbox::default();
    let mut notify = Vec::new();
    loop {
        let decision = match sched.next_window() {
            None => sched.decide(),
            Some((_start, end, due)) => {
                let mut act = Activity::default();
                for n in due {
                    let mut wires = SeqWires {
                        queues: &mut queues,
                        ports: &map[n],
                        dirs: &dirs,
                    };
                    let next = run_window(
                        nodes[n].as_mut(),
                        map[n].len(),
                        &mut wires,
                        &mut clocks[n],
                        end,
                        &mut out,
                        &mut notify,
                    )
                    .map_err(|e| run_error(net, &dirs, &map, n, e))?;
                    act.add(&out.activity);
                    out.activity = Activity::default();
                    sched.ran(n, next);
                    for (to, t) in notify.drain(..) {
                        sched.wake(to, t);
                    }
                }
                if ctl.check {
                    let tick = end - 1;
                    check_links(
                        net,
                        tick,
                        |e| nodes[e.node].port_counters(e.port),
                        |d| queues[d].len() as u64,
                    )?;
                }
                sched.close_window(end, &act, &mut progress)
            }
        };
        match decision {
            Decision::Continue => {}
            Decision::Done { complete } => return conclude(net, &sched, &nodes, Ok(complete)),
            Decision::Deadlock { since, at } => {
                return conclude(net, &sched, &nodes, Err((since, at)));
            }
        }
    }
}
