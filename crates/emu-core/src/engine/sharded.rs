//! The sharded engine: the network's nodes split into shards (partitions), each
//! stepped in a tight loop, one worker thread per shard (docs/architecture.md "The
//! engine contract").
//!
//! - Link directions inside a shard are plain queues. A direction that crosses shards
//!   is a plain queue at the receiving shard too, filled at the end of each window
//!   with what the sender sent in it (nothing sent in a window can arrive in it), so
//!   shards share no queue while they run; its capacity is the actors engine's
//!   channel's (receiver buffer plus wire), and overfilling it is the same
//!   flow-control violation.
//! - Shards advance in the same windows as every engine here: a window starts at the
//!   earliest tick any node has something due and is the smallest link latency long,
//!   so nothing sent in a window arrives in it and the shards need not talk while they
//!   run. Only nodes with something due run; empty ticks are skipped.
//! - Each window is two phases of one task per shard (`emu_gate::PhaseGate`): *run* (decide on
//!   the last window, then run the shard's nodes through this one and hand over what
//!   they sent and whom they woke in other shards) and *settle* (take what other shards
//!   handed over, add up everyone's activity, publish the shard's next due tick). Every
//!   shard then takes the same decision from the same numbers, so no coordinator is
//!   needed.
//! - Threads claim tasks, their own shard's first: a thread the system has
//!   descheduled does not stall the run, since the others run its shard's tasks.
//!   Results never depend on which thread ran a task.
//! - With one shard the calling thread runs every task in turn and never waits.

use super::check::check_links;
use super::faults::{EndFault, views};
use super::inbound::Wire;
use super::partition::partition;
use super::runner::{Full, NodeClock, RunError, Wake, Wires, catch_panic, run_window};
use super::schedule::{Decision, DueQueue, RunClock};
use super::{EngineError, ProgressFn, RunControl, RunOutcome, conclude, run_error};
use crate::memory::reserve_bounded;
use crate::model::{Activity, LinkProtocol, ModelError, Node, Outbox, PortId};
use crate::network::{Direction, End, Network, NodeId, PortWires};
use crate::time::Tick;
use emu_gate::{PhaseGate, Poisoned};
use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The nodes of one shard, with their ids.
type Owned<P> = Vec<(NodeId, Box<dyn Node<P>>)>;

/// How one link direction appears to one shard (to the stepper, every direction is
/// `Local`: it has one shard).
pub(super) enum Lane<P: LinkProtocol> {
    /// The tokens on their way to this shard's node: both ends are in the shard, or
    /// the direction arrives from another shard and this queue is filled as each
    /// window settles ([`Shard::take_handoffs`]).
    Local(VecDeque<Wire<P>>),
    /// Leaving for another shard: what this shard's node sent in the current window,
    /// handed over at the end of its run task ([`Shard::hand_off`]).
    To(Vec<Wire<P>>),
    /// Neither end is here.
    Elsewhere,
}

/// One node's ports as a shard sees them.
pub(super) struct ShardWires<'a, P: LinkProtocol> {
    pub lanes: &'a mut [Lane<P>],
    pub ports: &'a [PortWires],
    pub dirs: &'a [Direction],
    /// The node's ports' views of link faults, when any are configured.
    pub faults: Option<&'a mut [EndFault]>,
}

impl<P: LinkProtocol> Wires<P> for ShardWires<'_, P> {
    fn peek(&mut self, port: PortId) -> Option<Tick> {
        match &self.lanes[self.ports[port].inp?] {
            Lane::Local(q) => q.front().map(|&(t, _)| t),
            Lane::To(_) | Lane::Elsewhere => None,
        }
    }

    fn pop_due(&mut self, port: PortId, t: Tick) -> Option<(Tick, P::Token)> {
        let Some(faults) = &mut self.faults else {
            // No fault configured: the plain path, one test above.
            return match &mut self.lanes[self.ports[port].inp?] {
                Lane::Local(q) => match q.front() {
                    Some(&(a, _)) if a <= t => q.pop_front(),
                    _ => None,
                },
                Lane::To(_) | Lane::Elsewhere => None,
            };
        };
        loop {
            let (arrival, token) = match &mut self.lanes[self.ports[port].inp?] {
                Lane::Local(q) => match q.front() {
                    Some(&(a, _)) if a <= t => q.pop_front()?,
                    _ => return None,
                },
                Lane::To(_) | Lane::Elsewhere => return None,
            };
            if !faults[port].lose_arrived(arrival, P::loses_packet(&token)) {
                return Some((arrival, token));
            }
        }
    }

    fn deliver(
        &mut self,
        port: PortId,
        t: Tick,
        mut receive: impl FnMut(Tick, P::Token) -> Result<(), ModelError>,
    ) -> Result<Option<Tick>, ModelError> {
        let Some(d) = self.ports[port].inp else {
            return Ok(None);
        };
        match (&mut self.lanes[d], &self.faults) {
            // The plain path: a queue inside the partition and no fault configured.
            (Lane::Local(q), None) => {
                while let Some(&(a, _)) = q.front() {
                    if a > t {
                        return Ok(Some(a));
                    }
                    if let Some((a, tok)) = q.pop_front() {
                        receive(a, tok)?;
                    }
                }
                Ok(None)
            }
            _ => {
                while let Some((a, tok)) = self.pop_due(port, t) {
                    receive(a, tok)?;
                }
                Ok(self.peek(port))
            }
        }
    }

    fn push(
        &mut self,
        port: PortId,
        at: Tick,
        token: P::Token,
    ) -> Result<Option<(NodeId, Tick)>, Full> {
        let Some(d) = self.ports[port].out else {
            return Ok(None);
        };
        let dir = &self.dirs[d];
        let arrival = at + dir.latency;
        if let Some(f) = self.faults.as_deref_mut()
            && f[port].lose_sent(arrival, P::loses_packet(&token))
        {
            return Ok(None);
        }
        let lane = &mut self.lanes[d];
        if let Lane::Local(q) = lane {
            if q.len() >= dir.capacity {
                return Err(Full { port });
            }
            // Room first, so that the token is written once, straight into the queue.
            reserve_bounded(q, 1, dir.capacity);
            q.push_back((arrival, token));
            return Ok(Some((dir.to.node, arrival)));
        }
        match lane {
            Lane::Local(_) => {}
            Lane::To(sent) => {
                // Tokens sent in this window; those sent before are checked when they
                // are handed over.
                if sent.len() >= dir.capacity {
                    return Err(Full { port });
                }
                sent.push((arrival, token));
            }
            Lane::Elsewhere => return Err(Full { port }),
        }
        Ok(Some((dir.to.node, arrival)))
    }
}

/// A shard's `--check` data: every port's counters, tokens in flight per direction
/// (index into [`Network::directions`]), and the ports whose link lost tokens.
type CheckData<C> = (Vec<(End, C)>, Vec<(usize, u64)>, Vec<End>);

/// What a shard publishes for the others in each phase.
struct Slot<P: LinkProtocol> {
    activity: Activity,
    /// The last tick a token moved in this shard so far ([`Outbox::last_move`]).
    last_move: Tick,
    runs: u64,
    /// The first node (in node order) that failed in the last window, and why.
    error: Option<(NodeId, RunError)>,
    next_due: Option<Tick>,
    /// Under `--check`: counters of every port of this shard's nodes, and the tokens
    /// in flight on every direction this shard receives that only it can see (its
    /// queues, and tokens taken off a channel but not yet due).
    check: Option<CheckData<P::Counters>>,
    /// The caller asked the run to stop ([`RunControl::stop`]), as this shard saw it
    /// when it ran the window.
    stop: bool,
}

impl<P: LinkProtocol> Default for Slot<P> {
    fn default() -> Self {
        Slot {
            activity: Activity::default(),
            last_move: 0,
            runs: 0,
            error: None,
            next_due: None,
            check: None,
            stop: false,
        }
    }
}

struct Shared<P: LinkProtocol> {
    gate: PhaseGate,
    /// Set by the run task that decides to stop; every shard decides so in the same
    /// phase, and no thread claims a task after it.
    over: AtomicBool,
    /// Wake-ups for another shard's nodes: `mail[to * parts + from]`.
    mail: Vec<Mutex<Vec<(NodeId, Tick)>>>,
    slots: Vec<Mutex<Slot<P>>>,
    check_error: Mutex<Option<EngineError>>,
    /// Per direction that crosses shards, what its sender sent in the window, from the
    /// end of the sender's run task to the receiver's settling.
    handoff: Vec<Mutex<Vec<Wire<P>>>>,
    /// Which handoffs a sender filled in the window, as (direction, handoff) pairs:
    /// `filled[to * parts + from]`, so that a receiver locks only the handoffs that hold
    /// something (a 10-cube cut in two crosses 1,024 directions; at light load a window
    /// fills a few).
    filled: Vec<Mutex<Vec<(usize, usize)>>>,
    /// A shard found a handed-over queue over its capacity (the error is in its slot).
    overflow: AtomicBool,
}

/// Why a shard stopped.
enum Stop {
    Decided(Decision),
    Failed,
    /// The caller asked the run to stop.
    Asked,
}

/// Scratch space a shard's run task reuses from window to window.
struct Scratch<T> {
    due: Vec<NodeId>,
    out: Outbox<T>,
    arrivals: Vec<Tick>,
    /// Per receiving shard, the nodes of its that this window's tokens wake.
    outgoing: Vec<Vec<NodeId>>,
    /// Per node of the network, the earliest tick this window's tokens wake it at, if
    /// another shard owns it ([`NEVER`] otherwise, and between windows).
    remote: Vec<Tick>,
}

/// No wake-up in [`Scratch::remote`].
const NEVER: Tick = Tick::MAX;

impl<T> Scratch<T> {
    /// Empty scratch for a run of `parts` shards of a network of `nodes` nodes.
    fn new(parts: usize, nodes: usize) -> Scratch<T> {
        Scratch {
            due: Vec::new(),
            out: Outbox::default(),
            arrivals: Vec::new(),
            outgoing: vec![Vec::new(); parts],
            remote: if parts > 1 {
                vec![NEVER; nodes]
            } else {
                Vec::new()
            },
        }
    }
}

/// A shard's wake-ups in a window: a node of the shard's own goes into its queue at
/// once; another shard's is kept, earliest first, until the window ends.
struct ShardWake<'s> {
    owner: &'s [usize],
    id: usize,
    queue: &'s mut DueQueue,
    /// [`Scratch::remote`].
    remote: &'s mut Vec<Tick>,
    /// [`Scratch::outgoing`].
    outgoing: &'s mut Vec<Vec<NodeId>>,
}

impl Wake for ShardWake<'_> {
    /// Called for every token sent: inlined into the token's push.
    #[inline(always)]
    fn wake(&mut self, to: NodeId, t: Tick) {
        let w = self.owner[to];
        if w == self.id {
            self.queue.wake(to, t);
        } else if t < self.remote[to] {
            if self.remote[to] == NEVER {
                self.outgoing[w].push(to);
            }
            self.remote[to] = t;
        }
    }
}

/// What every shard learnt when the last window settled, for deciding on it.
#[derive(Default)]
struct Settled {
    /// The window's end.
    end: Tick,
    total: Activity,
    /// The last tick a token moved, in any shard.
    last_move: Tick,
    runs: u64,
    failed: bool,
    /// A shard saw the caller's request to stop while it ran the window.
    asked: bool,
}

/// One partition of the nodes with everything it needs to run them: its links' lanes,
/// its nodes' wake-ups, and its copy of the run's clock.
struct Shard<'a, 'p, P: LinkProtocol> {
    id: usize,
    parts: usize,
    net: &'a Network<P>,
    ctl: &'a RunControl,
    dirs: &'a [Direction],
    map: &'a [Vec<PortWires>],
    owner: &'a [usize],
    /// For each node of the network, its index in this shard's `nodes` (if it owns it).
    index: Vec<usize>,
    nodes: Owned<P>,
    /// Link-fault views of each owned node's ports (same order as `nodes`), when any
    /// fault is configured.
    faults: Option<Vec<Vec<EndFault>>>,
    clocks: Vec<NodeClock>,
    lanes: Vec<Lane<P>>,
    /// The directions this shard sends to other shards: (direction, handoff,
    /// receiving shard).
    sends: Vec<(usize, usize, usize)>,
    /// Scratch: per receiving shard, the handoffs this shard filled in the window.
    filled: Vec<Vec<(usize, usize)>>,
    /// Scratch: the handoffs other shards filled for this one in the window.
    taken: Vec<(usize, usize)>,
    scratch: Scratch<P::Token>,
    settled: Settled,
    due: DueQueue,
    clock: RunClock,
    /// The front end's progress display, on shard 0 only.
    progress: Option<ProgressFn<'p>>,
    /// Why the shard stopped, once it has.
    stop: Option<Stop>,
    shared: &'a Shared<P>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A poisoned lock means another thread panicked; its data is still consistent
    // for reading (the panic is reported when the thread is joined).
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl<P: LinkProtocol> Shard<'_, '_, P> {
    /// The task of `phase`: even phases run a window (after deciding on the last one),
    /// odd ones settle it. Records the stop when the shard decides one.
    fn task(&mut self, phase: usize) {
        if phase % 2 == 1 {
            self.settle();
            return;
        }
        let start = if phase == 0 { Ok(0) } else { self.decide() };
        match start {
            Ok(start) => self.run_window(start),
            Err(stop) => {
                self.stop = Some(stop);
                self.shared.over.store(true, Ordering::SeqCst);
            }
        }
    }

    /// Runs the shard's due nodes through the window that starts at `start`, then
    /// publishes its slot and hands over what its nodes sent to other shards.
    fn run_window(&mut self, start: Tick) {
        let (_, end) = self.clock.window(start);
        let Scratch {
            due,
            out,
            arrivals,
            outgoing,
            remote,
        } = &mut self.scratch;
        self.due.take_due(end, due);
        let mut act = Activity::default();
        let mut error = None;
        let mut wake = ShardWake {
            owner: self.owner,
            id: self.id,
            queue: &mut self.due,
            remote,
            outgoing,
        };
        for &n in due.iter() {
            let li = self.index[n];
            let mut wires = ShardWires {
                lanes: &mut self.lanes,
                ports: &self.map[n],
                dirs: self.dirs,
                faults: self.faults.as_mut().map(|f| f[li].as_mut_slice()),
            };
            let clock = &mut self.clocks[li];
            let result = catch_panic(|| {
                run_window(
                    self.nodes[li].1.as_mut(),
                    self.map[n].len(),
                    &mut wires,
                    clock,
                    end,
                    out,
                    &mut wake,
                    arrivals,
                )
            })
            .unwrap_or_else(|message| Err(RunError::Panicked(self.clocks[li].now, message)));
            match result {
                Ok(Some(t)) => wake.wake(n, t),
                Ok(None) => {}
                Err(e) => {
                    error = Some((n, e));
                    break;
                }
            }
            act.add(&out.activity);
            out.activity = Activity::default();
        }
        let ShardWake {
            remote, outgoing, ..
        } = wake;
        for (w, wakes) in outgoing.iter_mut().enumerate() {
            if !wakes.is_empty() {
                let mut mail = lock(&self.shared.mail[w * self.parts + self.id]);
                for to in wakes.drain(..) {
                    mail.push((to, remote[to]));
                    remote[to] = NEVER;
                }
            }
        }
        {
            let mut slot = lock(&self.shared.slots[self.id]);
            slot.activity = act;
            slot.last_move = out.last_move;
            slot.runs = due.len() as u64;
            slot.error = error;
            slot.check = self.ctl.check.then(|| self.check_data());
            slot.stop = self.ctl.stop_asked();
        }
        self.hand_off();
        self.settled.end = end;
    }

    /// Settles the window once every shard has run it: takes what other shards handed
    /// over, adds up every shard's slot, publishes this shard's next due tick, and
    /// (shard 0, under `--check`) checks every link.
    fn settle(&mut self) {
        let end = self.settled.end;
        self.take_handoffs(end);
        for from in 0..self.parts {
            let mut mail = lock(&self.shared.mail[self.id * self.parts + from]);
            for (n, t) in mail.drain(..) {
                self.due.wake(n, t);
            }
        }
        let mut total = Activity::default();
        let mut last_move = 0;
        let mut runs = 0;
        let mut failed = false;
        let mut asked = false;
        for s in &self.shared.slots {
            let s = lock(s);
            total.add(&s.activity);
            last_move = last_move.max(s.last_move);
            runs += s.runs;
            failed |= s.error.is_some();
            asked |= s.stop;
        }
        self.settled.total = total;
        self.settled.last_move = last_move;
        self.settled.runs = runs;
        self.settled.failed = failed;
        self.settled.asked = asked;
        lock(&self.shared.slots[self.id]).next_due = self.due.peek();
        if self.id == 0 && self.ctl.check && !failed {
            self.check_all(end - 1);
        }
    }

    /// Decides on the window that settled: the next window's start, or why to stop.
    fn decide(&mut self) -> Result<Tick, Stop> {
        let next = self
            .shared
            .slots
            .iter()
            .filter_map(|s| lock(s).next_due)
            .min();
        if self.settled.failed
            || self.shared.overflow.load(Ordering::Acquire)
            || (self.ctl.check && lock(&self.shared.check_error).is_some())
        {
            return Err(Stop::Failed);
        }
        let Settled {
            end,
            total,
            last_move,
            runs,
            asked,
            ..
        } = &self.settled;
        match self
            .clock
            .close_window(*end, total, *last_move, *runs, next, &mut self.progress)
        {
            // Every shard read the same slots: all stop in this phase.
            Decision::Continue if *asked => Err(Stop::Asked),
            Decision::Continue => match next {
                Some(t) => Ok(t),
                None => Err(Stop::Decided(self.clock.decide(None))),
            },
            d => Err(Stop::Decided(d)),
        }
    }

    /// Hands what this shard's nodes sent to other shards in the window to their
    /// receivers (at the end of its run task).
    fn hand_off(&mut self) {
        for &(d, k, to) in &self.sends {
            if let Lane::To(sent) = &mut self.lanes[d]
                && !sent.is_empty()
            {
                lock(&self.shared.handoff[k]).append(sent);
                self.filled[to].push((d, k));
            }
        }
        for (to, list) in self.filled.iter_mut().enumerate() {
            if !list.is_empty() {
                lock(&self.shared.filled[to * self.parts + self.id]).append(list);
            }
        }
    }

    /// Takes what other shards sent this shard's nodes in the window ending at `end`
    /// (as the window settles). A queue left over its capacity is the flow-control
    /// violation a full channel is in the actors engine, at the tick the first token
    /// that did not fit was sent; it ends the run when the next window is decided.
    #[inline(never)]
    fn take_handoffs(&mut self, end: Tick) {
        let mut taken = std::mem::take(&mut self.taken);
        for from in 0..self.parts {
            taken.append(&mut lock(&self.shared.filled[self.id * self.parts + from]));
        }
        for (d, k) in taken.drain(..) {
            let Lane::Local(q) = &mut self.lanes[d] else {
                continue;
            };
            let dir = &self.dirs[d];
            let mut handed = lock(&self.shared.handoff[k]);
            reserve_bounded(q, handed.len(), dir.capacity);
            q.extend(handed.drain(..));
            drop(handed);
            if let Some(&(arrival, _)) = q.get(dir.capacity) {
                let sent = arrival.saturating_sub(dir.latency).min(end - 1);
                let full = RunError::Full(
                    sent,
                    Full {
                        port: dir.from.port,
                    },
                );
                let mut slot = lock(&self.shared.slots[self.id]);
                if slot.error.as_ref().is_none_or(|(n, _)| *n > dir.from.node) {
                    slot.error = Some((dir.from.node, full));
                }
                self.shared.overflow.store(true, Ordering::Release);
            }
        }
        self.taken = taken;
    }

    /// This shard's share of the `--check` data.
    fn check_data(&self) -> CheckData<P::Counters> {
        let mut counters = Vec::new();
        for (n, node) in &self.nodes {
            for port in 0..self.map[*n].len() {
                counters.push((End { node: *n, port }, node.port_counters(port)));
            }
        }
        let in_flight = self
            .lanes
            .iter()
            .enumerate()
            .filter_map(|(d, lane)| match lane {
                Lane::Local(q) => Some((d, q.len() as u64)),
                Lane::To(sent) => Some((d, sent.len() as u64)),
                Lane::Elsewhere => None,
            })
            .collect();
        let mut lossy = Vec::new();
        if let Some(views) = &self.faults {
            for ((n, _), v) in self.nodes.iter().zip(views) {
                for (port, f) in v.iter().enumerate() {
                    if f.lost() > 0 {
                        lossy.push(End { node: *n, port });
                    }
                }
            }
        }
        (counters, in_flight, lossy)
    }

    /// Shard 0 checks every link with every shard's data (as the window settles, while
    /// no node runs).
    fn check_all(&self, tick: Tick) {
        let mut counters: Vec<Vec<P::Counters>> = self
            .map
            .iter()
            .map(|p| vec![P::Counters::default(); p.len()])
            .collect();
        let mut in_flight = vec![0u64; self.dirs.len()];
        let mut lossy = vec![false; self.net.links().len()];
        for s in &self.shared.slots {
            if let Some((c, f, l)) = &lock(s).check {
                for (e, pc) in c {
                    counters[e.node][e.port] = *pc;
                }
                for &(d, k) in f {
                    // A crossing direction: the receiver's queue and what the sender
                    // sent in this window.
                    in_flight[d] += k;
                }
                for e in l {
                    if let Some(d) = self.map[e.node][e.port].out {
                        lossy[d / 2] = true;
                    }
                }
            }
        }
        if let Err(e) = check_links(
            self.net,
            tick,
            |e| counters[e.node][e.port],
            |d| in_flight[d],
            |l| lossy[l],
        ) {
            *lock(&self.shared.check_error) = Some(e);
        }
    }
}

/// Runs `net` on `threads` worker threads (the calling thread is one of them), one
/// shard each.
pub fn run<P: LinkProtocol>(
    net: &Network<P>,
    ctl: &RunControl,
    threads: usize,
    progress: Option<ProgressFn>,
) -> Result<RunOutcome, EngineError> {
    ctl.check_memory(net)?;
    let (owner, parts) = partition(net, threads);
    let dirs = net.directions();
    let map = net.port_map();
    let mut lanes: Vec<Vec<Lane<P>>> = (0..parts)
        .map(|_| (0..dirs.len()).map(|_| Lane::Elsewhere).collect())
        .collect();
    let mut handoff = Vec::new();
    let mut sends: Vec<Vec<(usize, usize, usize)>> = vec![Vec::new(); parts];
    for (d, dir) in dirs.iter().enumerate() {
        let (from, to) = (owner[dir.from.node], owner[dir.to.node]);
        // Allocated on its first token, grown up to its capacity (`push_bounded`).
        lanes[to][d] = Lane::Local(VecDeque::new());
        if from != to {
            sends[from].push((d, handoff.len(), to));
            handoff.push(Mutex::new(Vec::new()));
            lanes[from][d] = Lane::To(Vec::new());
        }
    }
    let mut owned: Vec<Owned<P>> = (0..parts).map(|_| Vec::new()).collect();
    let mut index = vec![usize::MAX; net.nodes().len()];
    for (n, node) in net
        .instantiate(ctl.check, ctl.observe.as_ref())
        .into_iter()
        .enumerate()
    {
        index[n] = owned[owner[n]].len();
        owned[owner[n]].push((n, node));
    }
    let shared = Shared {
        gate: PhaseGate::new(parts),
        over: AtomicBool::new(false),
        mail: (0..parts * parts).map(|_| Mutex::new(Vec::new())).collect(),
        slots: (0..parts).map(|_| Mutex::new(Slot::default())).collect(),
        check_error: Mutex::new(None),
        handoff,
        filled: (0..parts * parts).map(|_| Mutex::new(Vec::new())).collect(),
        overflow: AtomicBool::new(false),
    };
    let clock = RunClock::new(net.lookahead(), net.min_latency(), ctl.clone());
    let mut progress = progress;
    let shards: Vec<Mutex<Shard<P>>> = owned
        .into_iter()
        .zip(lanes.into_iter().zip(sends))
        .enumerate()
        .map(|(id, (nodes, (lanes, sends)))| {
            Mutex::new(Shard {
                id,
                parts,
                net,
                ctl,
                dirs: &dirs,
                map: &map,
                owner: &owner,
                index: index.clone(),
                due: DueQueue::new(net.nodes().len(), nodes.iter().map(|(n, _)| *n)),
                faults: net
                    .faults()
                    .map(|plan| nodes.iter().map(|(n, _)| views(plan, &map[*n])).collect()),
                clocks: (0..nodes.len()).map(|_| NodeClock::default()).collect(),
                nodes,
                lanes,
                sends,
                filled: vec![Vec::new(); parts],
                taken: Vec::new(),
                scratch: Scratch::new(parts, net.nodes().len()),
                settled: Settled::default(),
                clock: clock.clone(),
                progress: if id == 0 { progress.take() } else { None },
                stop: None,
                shared: &shared,
            })
        })
        .collect();
    let panicked = || EngineError::Internal("a worker thread panicked".into());
    if parts == 1 {
        run_alone(&shards[0]);
    } else {
        // Worker threads get the system's default stack (2 MiB).
        super::threads::room(parts, super::threads::WORKER_STACK)?;
        match run_threads(&shards, &shared) {
            Ok(()) => {}
            Err(Threads::Refused(failed, e)) => {
                return Err(EngineError::Threads {
                    wanted: parts,
                    failed,
                    cause: e.to_string(),
                });
            }
            Err(Threads::Panicked) => return Err(panicked()),
        }
    }
    let mut all: Vec<Shard<'_, '_, P>> = shards
        .into_iter()
        .map(|s| s.into_inner().unwrap_or_else(|p| p.into_inner()))
        .collect();
    // Every shard decides to stop in the same phase, for the same reason; a shard
    // without a decision was left by a thread that panicked.
    let stop = all[0].stop.take().ok_or_else(panicked)?;
    if all.iter().skip(1).any(|s| s.stop.is_none()) {
        return Err(panicked());
    }
    let clock = all[0].clock.clone();
    let mut nodes: Vec<Option<Box<dyn Node<P>>>> = (0..net.nodes().len()).map(|_| None).collect();
    let mut fault_views: Vec<Vec<EndFault>> = vec![Vec::new(); net.nodes().len()];
    for w in &mut all {
        let mut views = w.faults.take().map(Vec::into_iter);
        for (n, node) in w.nodes.drain(..) {
            nodes[n] = Some(node);
            if let Some(v) = views.as_mut().and_then(Iterator::next) {
                fault_views[n] = v;
            }
        }
    }
    let fault_views = net.faults().map(|_| fault_views.as_slice());
    let nodes: Vec<Box<dyn Node<P>>> = nodes
        .into_iter()
        .map(|n| n.ok_or_else(|| EngineError::Internal("a node was lost".into())))
        .collect::<Result<_, _>>()?;
    match stop {
        Stop::Decided(Decision::Done { complete }) => {
            conclude(net, &clock, nodes, Ok(complete), fault_views)
        }
        Stop::Decided(Decision::Deadlock { since, at }) => {
            conclude(net, &clock, nodes, Err((since, at)), fault_views)
        }
        Stop::Decided(Decision::Continue) => Err(EngineError::Internal(
            "the run stopped without a decision".into(),
        )),
        Stop::Asked => Err(EngineError::Stopped { tick: clock.now() }),
        Stop::Failed => {
            let first_error = shared
                .slots
                .iter()
                .filter_map(|s| lock(s).error.take())
                .min_by_key(|(n, _)| *n);
            if let Some((n, e)) = first_error {
                return Err(run_error(net, &dirs, &map, n, e));
            }
            Err(lock(&shared.check_error).take().unwrap_or_else(panicked))
        }
    }
}

/// Runs a lone shard's tasks in turn on the calling thread.
fn run_alone<P: LinkProtocol>(shard: &Mutex<Shard<'_, '_, P>>) {
    let mut shard = lock(shard);
    let mut phase = 0;
    while shard.stop.is_none() {
        shard.task(phase);
        phase += 1;
    }
}

/// What a worker thread does: claims and runs tasks, its own shard's first, phase
/// after phase, until the run stops (or a thread panicked).
fn work<P: LinkProtocol>(me: usize, shards: &[Mutex<Shard<'_, '_, P>>], shared: &Shared<P>) {
    let gate = &shared.gate;
    let mut phase = gate.open_phase();
    while !shared.over.load(Ordering::SeqCst) {
        for k in 0..shards.len() {
            let s = (me + k) % shards.len();
            if gate.claim(s, phase) {
                lock(&shards[s]).task(phase);
                gate.finish();
            }
        }
        if gate.wait_over(phase) == Err(Poisoned) {
            return;
        }
        phase = gate.open_phase();
    }
}

/// Why the worker threads ended early.
enum Threads {
    /// The system refused thread `.0` (numbered from 1; the calling thread is 1).
    Refused(usize, std::io::Error),
    /// A thread panicked outside a node (nodes' panics are caught and reported as
    /// the node's failure).
    Panicked,
}

/// Runs the shards on one thread each (the calling thread is the first).
fn run_threads<P: LinkProtocol>(
    shards: &[Mutex<Shard<'_, '_, P>>],
    shared: &Shared<P>,
) -> Result<(), Threads> {
    // Every thread waits at this gate until all have been started, and works only if
    // all were: a refused thread then ends the run before any shard has allocated
    // anything (under a memory limit, a node's first allocation could otherwise
    // abort the process before the refusal is seen).
    //
    // Each thread is also seen running before the next is started: the system sets a
    // new thread up (its signal stack) after the spawn has returned, and under an
    // address-space limit the set-up of one started thread could otherwise race the
    // next spawn for the last free memory and abort the process instead of refusing
    // the spawn cleanly.
    let start = std::sync::RwLock::new(false);
    let start = &start;
    let running = AtomicUsize::new(0);
    let running = &running;
    std::thread::scope(|s| {
        let mut go = start.write().unwrap_or_else(|p| p.into_inner());
        let mut refused = None;
        let mut handles = Vec::with_capacity(shards.len());
        for me in 1..shards.len() {
            let spawned = std::thread::Builder::new().spawn_scoped(s, move || {
                running.fetch_add(1, Ordering::Release);
                if !*start.read().unwrap_or_else(|p| p.into_inner()) {
                    return;
                }
                let _guard = shared.gate.poison_on_panic();
                work(me, shards, shared);
            });
            match spawned {
                Ok(h) => {
                    handles.push(h);
                    while running.load(Ordering::Acquire) < me {
                        std::thread::yield_now();
                    }
                }
                Err(e) => {
                    // The threads already started would wait for this one forever.
                    shared.gate.poison();
                    // Thread 1 is this one; shard `me` runs on thread `me + 1`.
                    refused = Some(Threads::Refused(me + 1, e));
                    break;
                }
            }
        }
        *go = refused.is_none();
        drop(go);
        if refused.is_none() {
            let _guard = shared.gate.poison_on_panic();
            work(0, shards, shared);
        }
        let panicked = handles.into_iter().any(|h| h.join().is_err());
        match refused {
            Some(r) => Err(r),
            None if panicked => Err(Threads::Panicked),
            None => Ok(()),
        }
    })
}
