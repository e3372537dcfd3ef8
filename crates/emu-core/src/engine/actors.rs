//! The actors engine: one tokio task per hardware node, one bounded `async-channel`
//! per link direction whose capacity is the receiver's buffer plus what the wire
//! holds in flight (docs/architecture.md "The engine contract").
//!
//! A coordinator keeps virtual time. For each window it wakes only the nodes with
//! something due in it, each of which runs its ticks of the window (see
//! `runner`) and reports back when it next needs to run, whom it sent tokens
//! to, and its activity. A send into a full channel is a flow-control violation and
//! stops the run; it never blocks.

use super::check::check_links;
use super::faults::{EndFault, views};
use super::inbound::{Inbound, Wire};
use super::runner::{Full, NodeClock, RunError, Wires, catch_panic, run_window};
use super::schedule::{Decision, DueQueue, RunClock};
use super::{EngineError, ProgressFn, RunControl, RunOutcome, conclude, run_error};
use crate::model::{Activity, LinkProtocol, Node, Outbox, PortId};
use crate::network::{Network, NodeId};
use crate::time::Tick;
use async_channel::{Receiver, Sender, TrySendError};
use std::sync::Arc;

/// Both ends of one link direction's channel.
type Channel<P> = (Sender<Wire<P>>, Receiver<Wire<P>>);

/// A command from the coordinator to a node task.
enum Command {
    /// Run every tick before `end` at which something is due, noting the receivers
    /// of what is sent in `notify` (an empty vector lent by the coordinator, so that
    /// no window allocates).
    Run {
        end: Tick,
        notify: Vec<(NodeId, Tick)>,
    },
    /// Return the node and stop.
    Stop,
}

/// A node task's report after a window.
struct Report<P: LinkProtocol> {
    node: NodeId,
    next: Option<Tick>,
    activity: Activity,
    /// The last tick the node put a token on a link ([`Outbox::last_move`]).
    last_move: Tick,
    notify: Vec<(NodeId, Tick)>,
    /// Under `--check`: every port's counters, whether a token sits in the port's
    /// peek slot (taken off the channel but not yet due), and whether the port's link
    /// lost tokens to a fault.
    check: Option<PortCheck<P>>,
    error: Option<RunError>,
}

/// A node's `--check` data: per port, counters, tokens in the peek slot, tokens lost.
type PortCheck<P> = (Vec<<P as LinkProtocol>::Counters>, Vec<u64>, Vec<bool>);

struct Out<P: LinkProtocol> {
    tx: Sender<Wire<P>>,
    latency: Tick,
    to: NodeId,
}

struct ActorWires<P: LinkProtocol> {
    inputs: Vec<Option<Inbound<P>>>,
    outputs: Vec<Option<Out<P>>>,
    /// The ports' views of link faults, when any are configured.
    faults: Option<Vec<EndFault>>,
}

impl<P: LinkProtocol> Wires<P> for ActorWires<P> {
    fn peek(&mut self, port: PortId) -> Option<Tick> {
        self.inputs[port].as_mut()?.peek()
    }

    fn pop_due(&mut self, port: PortId, t: Tick) -> Option<(Tick, P::Token)> {
        let Some(faults) = &mut self.faults else {
            return self.inputs[port].as_mut()?.pop_due_wire(t);
        };
        loop {
            let (arrival, token) = self.inputs[port].as_mut()?.pop_due_wire(t)?;
            if !faults[port].lose_arrived(arrival, P::loses_packet(&token)) {
                return Some((arrival, token));
            }
        }
    }

    fn push(
        &mut self,
        port: PortId,
        at: Tick,
        token: P::Token,
    ) -> Result<Option<(NodeId, Tick)>, Full> {
        let Some(out) = &self.outputs[port] else {
            return Ok(None);
        };
        let arrival = at + out.latency;
        if let Some(f) = self.faults.as_mut()
            && f[port].lose_sent(arrival, P::loses_packet(&token))
        {
            return Ok(None);
        }
        match out.tx.try_send((arrival, token)) {
            Ok(()) => Ok(Some((out.to, arrival))),
            Err(TrySendError::Full(_) | TrySendError::Closed(_)) => Err(Full { port }),
        }
    }
}

/// One node's task: runs windows on command until told to stop, then hands the node
/// back, with its ports' views of link faults.
async fn actor<P: LinkProtocol>(
    id: NodeId,
    mut node: Box<dyn Node<P>>,
    mut wires: ActorWires<P>,
    commands: Receiver<Command>,
    done: Sender<Report<P>>,
    check: bool,
) -> (Box<dyn Node<P>>, Option<Vec<EndFault>>) {
    let ports = wires.inputs.len();
    let mut clock = NodeClock::default();
    let mut out = Outbox::default();
    let mut arrivals = Vec::new();
    while let Ok(Command::Run { end, mut notify }) = commands.recv().await {
        let result = catch_panic(|| {
            run_window(
                node.as_mut(),
                ports,
                &mut wires,
                &mut clock,
                end,
                &mut out,
                &mut |to, due| match notify.iter_mut().find(|(n, _)| *n == to) {
                    Some(entry) => entry.1 = entry.1.min(due),
                    None => notify.push((to, due)),
                },
                &mut arrivals,
            )
        })
        .unwrap_or_else(|message| Err(RunError::Panicked(clock.now, message)));
        let (next, error) = match result {
            Ok(next) => (next, None),
            Err(e) => (None, Some(e)),
        };
        let check = check.then(|| {
            let counters = (0..ports).map(|p| node.port_counters(p)).collect();
            let peeked = wires
                .inputs
                .iter()
                .map(|i| i.as_ref().map_or(0, Inbound::held))
                .collect();
            let lossy = (0..ports)
                .map(|p| wires.faults.as_ref().is_some_and(|f| f[p].lost() > 0))
                .collect();
            (counters, peeked, lossy)
        });
        let report = Report {
            node: id,
            next,
            activity: std::mem::take(&mut out.activity),
            last_move: out.last_move,
            notify,
            check,
            error,
        };
        if done.send(report).await.is_err() {
            break;
        }
    }
    (node, wires.faults)
}

/// Runs `net` with one task per node on a tokio runtime of `threads` worker threads.
///
/// The coordinator is itself a task on the runtime, so that its commands and the
/// nodes' reports wake tasks on the same worker threads (with one thread, no wake-up
/// crosses threads at all); the calling thread only relays progress to `progress`.
pub fn run<P: LinkProtocol>(
    net: &Network<P>,
    ctl: &RunControl,
    threads: usize,
    progress: Option<ProgressFn>,
) -> Result<RunOutcome, EngineError> {
    ctl.check_memory(net)?;
    // One thread: tokio's single-threaded scheduler, on the calling thread.
    if threads > 1 {
        super::threads::probe(threads, super::threads::WORKER_STACK)?;
    }
    let rt = if threads <= 1 {
        tokio::runtime::Builder::new_current_thread().build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .thread_stack_size(super::threads::WORKER_STACK)
            .build()
    }
    .map_err(|e| EngineError::Internal(format!("cannot start the tokio runtime: {e}")))?;
    let net = Arc::new(net.clone());
    let ctl = ctl.clone();
    let (progress_tx, progress_rx) = if progress.is_some() {
        let (tx, rx) = async_channel::unbounded::<(Tick, Activity)>();
        (Some(tx), Some(rx))
    } else {
        (None, None)
    };
    let coordinator = rt.spawn(async move { coordinate(&net, &ctl, progress_tx).await });
    rt.block_on(async move {
        if let (Some(rx), Some(p)) = (progress_rx, progress) {
            while let Ok((t, act)) = rx.recv().await {
                p(t, &act);
            }
        }
        coordinator
            .await
            .map_err(|e| EngineError::Internal(format!("the coordinator task failed: {e}")))?
    })
}

async fn coordinate<P: LinkProtocol>(
    net: &Network<P>,
    ctl: &RunControl,
    progress_tx: Option<Sender<(Tick, Activity)>>,
) -> Result<RunOutcome, EngineError> {
    let mut relay = |t: Tick, act: &Activity| {
        if let Some(tx) = &progress_tx {
            let _ = tx.try_send((t, *act));
        }
    };
    let mut progress: Option<ProgressFn> = progress_tx.as_ref().map(|_| &mut relay as ProgressFn);
    let dirs = net.directions();
    let map = net.port_map();
    let channels: Vec<Channel<P>> = dirs
        .iter()
        .map(|d| async_channel::bounded(d.capacity))
        .collect();
    let (done_tx, done_rx) = async_channel::unbounded::<Report<P>>();
    let mut commands = Vec::with_capacity(net.nodes().len());
    let mut handles = Vec::with_capacity(net.nodes().len());
    for (id, node) in net
        .instantiate(ctl.check, ctl.observe.as_ref())
        .into_iter()
        .enumerate()
    {
        let wires = ActorWires {
            inputs: map[id]
                .iter()
                .map(|w| w.inp.map(|d| Inbound::new(channels[d].1.clone())))
                .collect(),
            outputs: map[id]
                .iter()
                .map(|w| {
                    w.out.map(|d| Out {
                        tx: channels[d].0.clone(),
                        latency: dirs[d].latency,
                        to: dirs[d].to.node,
                    })
                })
                .collect(),
            faults: net.faults().map(|plan| views(plan, &map[id])),
        };
        let (cmd_tx, cmd_rx) = async_channel::bounded(1);
        commands.push(cmd_tx);
        handles.push(tokio::spawn(actor(
            id,
            node,
            wires,
            cmd_rx,
            done_tx.clone(),
            ctl.check,
        )));
    }
    let mut due = DueQueue::new(net.nodes().len(), 0..net.nodes().len());
    let mut clock = RunClock::new(net.lookahead(), net.min_latency(), ctl.clone());
    // The last tick a token moved in any node, over the whole run.
    let mut last_move: Tick = 0;
    let mut due_nodes = Vec::new();
    let mut pool: Vec<Vec<(NodeId, Tick)>> = Vec::new();
    let mut counters: Vec<Vec<P::Counters>> = map
        .iter()
        .map(|p| vec![P::Counters::default(); p.len()])
        .collect();
    let mut peeked: Vec<Vec<u64>> = map.iter().map(|p| vec![0; p.len()]).collect();
    let mut lossy: Vec<Vec<bool>> = map.iter().map(|p| vec![false; p.len()]).collect();
    let mut reports = Vec::new();
    let result = loop {
        let decision = match due.peek() {
            None => clock.decide(None),
            Some(start) => {
                let (_, end) = clock.window(start);
                due.take_due(end, &mut due_nodes);
                for &n in &due_nodes {
                    let notify = pool.pop().unwrap_or_default();
                    if commands[n]
                        .send(Command::Run { end, notify })
                        .await
                        .is_err()
                    {
                        break;
                    }
                }
                reports.clear();
                for _ in 0..due_nodes.len() {
                    match done_rx.recv().await {
                        Ok(r) => reports.push(r),
                        Err(_) => break,
                    }
                }
                if reports.len() != due_nodes.len() {
                    break Err(EngineError::Internal(
                        "a node task stopped unexpectedly".into(),
                    ));
                }
                // Node order, so that errors and bookkeeping do not depend on timing.
                reports.sort_unstable_by_key(|r| r.node);
                if let Some(i) = reports.iter().position(|r| r.error.is_some()) {
                    let r = reports.swap_remove(i);
                    let e = r.error.map(|e| run_error(net, &dirs, &map, r.node, e));
                    break Err(e.unwrap_or_else(|| EngineError::Internal("lost error".into())));
                }
                let mut act = Activity::default();
                for mut r in reports.drain(..) {
                    act.add(&r.activity);
                    last_move = last_move.max(r.last_move);
                    if let Some(t) = r.next {
                        due.wake(r.node, t);
                    }
                    for (to, t) in r.notify.drain(..) {
                        due.wake(to, t);
                    }
                    pool.push(r.notify);
                    if let Some((c, p, l)) = r.check {
                        counters[r.node] = c;
                        peeked[r.node] = p;
                        lossy[r.node] = l;
                    }
                }
                if ctl.check {
                    let in_flight = |d: usize| {
                        channels[d].0.len() as u64 + peeked[dirs[d].to.node][dirs[d].to.port]
                    };
                    let lost = |l: usize| {
                        let link = &net.links()[l];
                        lossy[link.a.node][link.a.port] || lossy[link.b.node][link.b.port]
                    };
                    if let Err(e) =
                        check_links(net, end - 1, |e| counters[e.node][e.port], in_flight, lost)
                    {
                        break Err(e);
                    }
                }
                let runs = due_nodes.len() as u64;
                clock.close_window(end, &act, last_move, runs, due.peek(), &mut progress)
            }
        };
        match decision {
            Decision::Continue if ctl.stop_asked() => {
                break Err(EngineError::Stopped { tick: clock.now() });
            }
            Decision::Continue => {}
            Decision::Done { complete } => break Ok(Ok(complete)),
            Decision::Deadlock { since, at } => break Ok(Err((since, at))),
        }
    };
    // Stop every task and take the nodes back, in node order.
    for c in &commands {
        let _ = c.send(Command::Stop).await;
    }
    drop(done_rx);
    let mut nodes = Vec::with_capacity(handles.len());
    let mut fault_views = Vec::with_capacity(handles.len());
    for h in handles {
        let (node, faults) = h
            .await
            .map_err(|e| EngineError::Internal(format!("a node task failed: {e}")))?;
        nodes.push(node);
        fault_views.push(faults.unwrap_or_default());
    }
    let fault_views = net.faults().map(|_| fault_views.as_slice());
    conclude(net, &clock, nodes, result?, fault_views)
}
