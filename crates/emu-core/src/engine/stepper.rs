//! A network run a stretch at a time, on the calling thread, by a program that feeds it
//! between stretches (co-simulation: [`crate::api::Network`]).
//!
//! It is the sequential engine taken apart: the same windows, the same wake-ups
//! (`DueQueue`), the same link queues (a shard's, with one shard) and the same
//! `run_window` for every node, so a node sees what it sees in a run; but it owns its
//! nodes and wires between calls, stops at any tick the caller names (a window cut
//! short there is still no longer than the smallest link latency, so nothing sent in
//! it arrives in it), and has no end of its own: it runs until told to stop, and a node
//! can be woken from outside ([`Stepper::wake`]). It knows no protocol, as no engine
//! does.
//!
//! What it leaves out: `--check`, link faults and the end-of-run partial-deadlock
//! check; a deadlock (packets in flight and no token moved for the plan's deadlock
//! window) stops it with [`EngineError::Deadlock`].

use super::runner::{NodeClock, RunError, catch_panic, run_window};
use super::schedule::DueQueue;
use super::sharded::{Lane, ShardWires};
use super::{EngineError, deadlock_error, run_error};
use crate::model::{Activity, LinkProtocol, Node, Outbox};
use crate::network::{Direction, Network, NodeId, PortWires};
use crate::time::Tick;
use std::collections::VecDeque;

/// A network's nodes and wires, run up to a tick at a time.
pub struct Stepper<P: LinkProtocol> {
    net: Network<P>,
    dirs: Vec<Direction>,
    map: Vec<Vec<PortWires>>,
    nodes: Vec<Box<dyn Node<P>>>,
    clocks: Vec<NodeClock>,
    lanes: Vec<Lane<P>>,
    due: DueQueue,
    /// Every node has run every tick before this one.
    now: Tick,
    lookahead: Tick,
    totals: Activity,
    /// The last tick of the last window in which a token moved.
    last_move: Tick,
    deadlock_window: Tick,
    /// Why it stopped for good, once it has: (tick, message).
    failed: Option<(Tick, String)>,
    windows: u64,
    out: Outbox<P::Token>,
    arrivals: Vec<Tick>,
    due_now: Vec<NodeId>,
}

impl<P: LinkProtocol> Stepper<P> {
    /// The network's reset nodes at tick 0, every one due then (links reset and grant
    /// their first credit), refusing a network that needs more than `memory_limit`
    /// bytes (`None`: no limit) or has link faults configured (not modelled here).
    pub fn new(net: Network<P>, memory_limit: Option<u64>) -> Result<Stepper<P>, EngineError> {
        net.memory_need()
            .within(memory_limit, net.nodes().len(), net.terminals().len())
            .map_err(EngineError::TooLarge)?;
        if net.faults().is_some() {
            return Err(EngineError::Internal(
                "a network with link faults cannot be stepped: remove [faults]".into(),
            ));
        }
        let dirs = net.directions();
        let map = net.port_map();
        let nodes = net.instantiate(false, None);
        let n = nodes.len();
        Ok(Stepper {
            lanes: (0..dirs.len())
                .map(|_| Lane::Local(VecDeque::new()))
                .collect(),
            clocks: (0..n).map(|_| NodeClock::default()).collect(),
            due: DueQueue::new(n, 0..n),
            lookahead: net.min_latency().max(1),
            deadlock_window: net.run().deadlock_window,
            dirs,
            map,
            nodes,
            net,
            now: 0,
            totals: Activity::default(),
            last_move: 0,
            failed: None,
            windows: 0,
            out: Outbox::default(),
            arrivals: Vec::new(),
            due_now: Vec::new(),
        })
    }

    /// The plan it runs.
    pub fn network(&self) -> &Network<P> {
        &self.net
    }

    /// The first tick not yet run: every node has run every tick before it.
    pub fn now(&self) -> Tick {
        self.now
    }

    /// Activity totals so far.
    pub fn activity(&self) -> &Activity {
        &self.totals
    }

    /// Windows run so far.
    pub fn windows(&self) -> u64 {
        self.windows
    }

    /// Node `node` must run at tick `at` (or earlier, if it already must), whatever it
    /// asked for: something outside the engine has given it work for then. A tick
    /// before [`Stepper::now`] is taken as `now`.
    pub fn wake(&mut self, node: NodeId, at: Tick) {
        let at = at.max(self.now);
        if let Some(c) = self.clocks.get_mut(node) {
            c.timer = Some(c.timer.map_or(at, |t| t.min(at)));
            self.due.wake(node, at);
        }
    }

    /// Runs every tick before `end` (nothing if `end` is not after [`Stepper::now`]).
    /// A node that breaks a rule of its part, or a deadlock, stops the stepper for good:
    /// this call and every later one fail.
    pub fn run_until(&mut self, end: Tick) -> Result<(), EngineError> {
        if let Some((tick, what)) = &self.failed {
            return Err(EngineError::Internal(format!(
                "the network stopped at tick {tick} ({what}) and cannot run on"
            )));
        }
        while let Some(start) = self.due.peek().filter(|&t| t < end) {
            let start = start.max(self.now);
            let stop = start.saturating_add(self.lookahead).min(end);
            self.window(stop)?;
            self.now = stop;
            self.deadlock_check()?;
        }
        self.now = self.now.max(end);
        self.deadlock_check()
    }

    /// Runs the nodes due before `end` through the window ending there.
    fn window(&mut self, end: Tick) -> Result<(), EngineError> {
        self.windows += 1;
        self.due.take_due(end, &mut self.due_now);
        let mut moved = false;
        for i in 0..self.due_now.len() {
            let n = self.due_now[i];
            let mut wires = ShardWires::<P> {
                lanes: &mut self.lanes,
                ports: &self.map[n],
                dirs: &self.dirs,
                faults: None,
            };
            let clock = &mut self.clocks[n];
            let node = self.nodes[n].as_mut();
            let ports = self.map[n].len();
            let (out, due, arrivals) = (&mut self.out, &mut self.due, &mut self.arrivals);
            let mut wake = |to, t| due.wake(to, t);
            let result = catch_panic(|| {
                run_window(
                    node, ports, &mut wires, clock, end, out, &mut wake, arrivals,
                )
            })
            .unwrap_or_else(|message| Err(RunError::Panicked(self.clocks[n].now, message)));
            match result {
                Ok(Some(t)) => self.due.wake(n, t),
                Ok(None) => {}
                Err(e) => {
                    let e = run_error(&self.net, &self.dirs, &self.map, n, e);
                    self.failed = Some((self.clocks[n].now, e.to_string()));
                    return Err(e);
                }
            }
            moved |= self.out.activity.tokens_moved > 0;
            self.totals.add(&self.out.activity);
            self.out.activity = Activity::default();
        }
        if moved {
            self.last_move = end - 1;
        }
        Ok(())
    }

    /// Fails if packets are in flight and no token has moved for the deadlock window.
    fn deadlock_check(&mut self) -> Result<(), EngineError> {
        let in_flight = self
            .totals
            .packets_injected
            .saturating_sub(self.totals.packets_ejected);
        if in_flight == 0 || self.now.saturating_sub(self.last_move) <= self.deadlock_window {
            return Ok(());
        }
        let e = deadlock_error(&self.net, &self.nodes, self.last_move, self.now, in_flight);
        self.failed = Some((self.now, e.to_string()));
        Err(e)
    }
}
