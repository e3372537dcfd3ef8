//! Engines run the hardware state machines in virtual time. They own time, channels,
//! scheduling and parallelism, and know nothing of any protocol
//! (docs/architecture.md "The engine contract").
//!
//! Both engines here advance in *windows*: a window starts at the earliest tick at
//! which any node has something due and is no longer than the smallest link latency
//! L plus the protocol's receive delay D ([`crate::model::LinkProtocol::RECEIVE_DELAY`]:
//! a receiver acts on a token D ticks after its arrival at the earliest, and is handed
//! it then). A token sent at tick t arrives at t + latency ≥ t + L and is due D ticks
//! later, so nothing sent inside a window can be due inside it, and every node can run
//! all of its own ticks in the window without hearing from any other node. With
//! L + D = 1 this is exactly a per-tick barrier; larger windows give the same results
//! with fewer barriers. Only nodes with something due in the window run, and empty
//! ticks are skipped.

pub mod actors;
mod check;
pub mod faults;
mod inbound;
pub mod partition;
mod runner;
mod schedule;
pub mod sequential;
pub mod sharded;
pub mod stepper;
mod threads;

use crate::model::{Activity, LinkProtocol, Node, Wait};
use crate::network::{Direction, End, Network, NodeId, PortWires};
use crate::terminal::TerminalStats;
use crate::time::Tick;

/// What ends a run and what is checked while it goes.
#[derive(Clone, Debug)]
pub struct RunControl {
    /// The run may end once virtual time reaches this tick and every obligation
    /// (measured message) is closed.
    pub end_after: Tick,
    /// Give up waiting for obligations after this tick.
    pub hard_stop: Tick,
    /// No token moved for this many ticks while packets are in flight → deadlock.
    pub deadlock_window: Tick,
    /// Check the credit invariant of every link at every barrier.
    pub check: bool,
    /// Refuse to build a network that needs at least this many bytes
    /// ([`Network::memory_need`]; `None`: no limit).
    pub memory_limit: Option<u64>,
    /// Record what crosses every node's ports into this recorder
    /// ([`crate::observe`]); `None`: nothing is recorded, and nothing is spent on it.
    pub observe: Option<std::sync::Arc<crate::observe::Recorder>>,
    /// Set by the caller (from another thread, or from the progress function) to stop
    /// the run at the end of a window soon after: the engine then returns
    /// [`EngineError::Stopped`]. `None`: the run cannot be stopped this way.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl RunControl {
    /// What the plan's run phases ask for, without `--check`.
    pub fn for_plan<P: LinkProtocol>(net: &Network<P>) -> RunControl {
        Self::for_plan_within(net, crate::memory::usable())
    }

    /// [`RunControl::for_plan`] with the memory the run may use, in bytes (`None`: no
    /// limit), rather than what the system states.
    pub fn for_plan_within<P: LinkProtocol>(
        net: &Network<P>,
        memory_limit: Option<u64>,
    ) -> RunControl {
        RunControl {
            end_after: net.run().end_after,
            hard_stop: net.run().hard_stop,
            deadlock_window: net.run().deadlock_window,
            check: false,
            memory_limit,
            observe: None,
            stop: None,
        }
    }

    /// Sets the deadlock window from `us` microseconds of virtual time (rounded up to
    /// whole ticks of `net`), refusing a window that is not a positive number of at
    /// most [`MAX_DEADLOCK_WINDOW_US`], or that is shorter than the longest a healthy
    /// network of this plan goes without moving a token ([`crate::network::RunPlan`]'s
    /// `silence`, which each family derives from its timing): such a window calls a
    /// working network deadlocked.
    pub fn set_deadlock_window_us<P: LinkProtocol>(
        &mut self,
        us: f64,
        net: &Network<P>,
    ) -> Result<(), WindowError> {
        // A bound far beyond any run (about 17 minutes of virtual time) keeps the window
        // in ticks, and the tick it ends at, well inside 64 bits.
        if !(us.is_finite() && us > 0.0 && us <= MAX_DEADLOCK_WINDOW_US) {
            return Err(WindowError::OutOfRange { us });
        }
        let ticks = (us * 1000.0 / net.time().tick_ns).ceil() as u64;
        let silence = net.run().silence;
        if ticks < silence.ticks {
            return Err(WindowError::TooShort {
                us,
                network: net.name().to_string(),
                least_us: silence.ticks as f64 * net.time().tick_ns / 1000.0,
                why: silence.why.to_string(),
            });
        }
        self.deadlock_window = ticks;
        Ok(())
    }

    /// True once the caller asked the run to stop ([`RunControl::stop`]).
    pub(crate) fn stop_asked(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Acquire))
    }

    /// Fails with [`EngineError::TooLarge`] if `net` would need more memory than the
    /// limit; every engine calls it before building a node.
    pub(crate) fn check_memory<P: LinkProtocol>(
        &self,
        net: &Network<P>,
    ) -> Result<(), EngineError> {
        net.memory_need()
            .within(self.memory_limit, net.nodes().len(), net.terminals().len())
            .map_err(EngineError::TooLarge)
    }
}

/// The longest deadlock window accepted, in µs (10⁹ µs).
pub const MAX_DEADLOCK_WINDOW_US: f64 = crate::time::MAX_DURATION_US;

/// Why a deadlock window given in µs was refused
/// ([`RunControl::set_deadlock_window_us`]). Messages name the command line's
/// `--deadlock-window-us`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WindowError {
    /// Not a positive number of at most [`MAX_DEADLOCK_WINDOW_US`].
    #[error(
        "--deadlock-window-us {us}: give a positive number of microseconds, at most {MAX_DEADLOCK_WINDOW_US:e}"
    )]
    OutOfRange {
        /// The window as given.
        us: f64,
    },
    /// Shorter than a working network of the plan may go without moving a token.
    #[error(
        "--deadlock-window-us {}: {network} may go {} µs without moving a token and still be working ({why}): give at least {}",
        crate::text::number(*us),
        crate::text::decimal_up(*least_us),
        crate::text::decimal_up(*least_us)
    )]
    TooShort {
        /// The window as given.
        us: f64,
        /// The network's name.
        network: String,
        /// The shortest window accepted, in µs.
        least_us: f64,
        /// Why the network may be silent that long.
        why: String,
    },
}

/// Which engine runs the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum EngineKind {
    /// One worker thread per core, each stepping its partition of the nodes; bounded
    /// channels only between partitions. The fast one.
    Sharded,
    /// One tokio task per hardware node, bounded async channels per link direction.
    Actors,
}

impl EngineKind {
    /// The engine's name, as reports print it: "sharded" or "actors".
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Sharded => "sharded",
            EngineKind::Actors => "actors",
        }
    }

    /// Runs `net` under `ctl` on this engine with `threads` workers, calling `progress`
    /// as virtual time advances.
    pub fn run<P: LinkProtocol>(
        self,
        net: &Network<P>,
        ctl: &RunControl,
        threads: usize,
        progress: Option<ProgressFn>,
    ) -> Result<RunOutcome, EngineError> {
        match self {
            EngineKind::Sharded => sharded::run(net, ctl, threads, progress),
            EngineKind::Actors => actors::run(net, ctl, threads, progress),
        }
    }
}

/// Called at barriers so a front end can show progress: (virtual tick, totals so far).
pub type ProgressFn<'a> = &'a mut (dyn FnMut(Tick, &Activity) + Send);

/// The result of a run that did not fail.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// Virtual time when the run stopped.
    pub end_tick: Tick,
    /// Every terminal's statistics, in terminal (label) order.
    pub terminals: Vec<TerminalStats>,
    /// Activity totals.
    pub activity: Activity,
    /// True if every obligation was closed (all measured messages delivered).
    pub complete: bool,
    /// Number of barriers (windows) the engine went through.
    pub windows: u64,
    /// Node wake-ups (one node running one window).
    pub node_runs: u64,
    /// What parts measured about themselves ([`Node::part_stats`]), in node order, for
    /// the nodes that report anything.
    pub parts: Vec<(NodeId, crate::model::PartStats)>,
    /// The links that died and the tokens they lost, when link faults were configured
    /// ([`Network::faults`]); `None` otherwise.
    pub faults: Option<faults::FaultReport>,
}

/// One stuck node in a deadlock report.
#[derive(Clone, Debug)]
pub struct StuckNode {
    /// Node id.
    pub node: NodeId,
    /// Node name.
    pub name: String,
    /// What it waits for.
    pub waits: Vec<Wait>,
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// A hardware rule was broken (flow control, routing, protocol).
    #[error("{kind} at tick {tick} on {node} port {port}{peer}: {what}")]
    Model {
        /// "flow-control violation", "routing error", "protocol error".
        kind: &'static str,
        /// Tick.
        tick: Tick,
        /// Node name.
        node: String,
        /// Port.
        port: usize,
        /// " (link to NAME port P)" when the port is linked.
        peer: String,
        /// Details.
        what: String,
        /// True for flow-control violations (exit code 4).
        flow_control: bool,
    },
    /// A send found the link's channel full: flow control failed to hold the sender.
    #[error("flow-control violation at tick {tick}: channel {from_name} port {} → {to_name} port {} is full ({capacity} tokens)", from.port, to.port)]
    ChannelFull {
        /// Tick.
        tick: Tick,
        /// Sending end.
        from: End,
        /// Receiving end.
        to: End,
        /// Sender name.
        from_name: String,
        /// Receiver name.
        to_name: String,
        /// Channel capacity.
        capacity: usize,
    },
    /// The global credit invariant failed (under `--check`).
    #[error("flow-control violation at tick {tick}: {what}")]
    Invariant {
        /// Tick.
        tick: Tick,
        /// Which link and what.
        what: String,
    },
    /// No token moved for the deadlock window while packets were in flight; or
    /// (`partial`) at the end of the run some packets are in a wait-for cycle that
    /// nothing can break, while the rest of the network kept moving.
    #[error("{}", deadlock_message(*partial, *since, *tick, *in_flight))]
    Deadlock {
        /// True for a deadlock of some packets while the rest of the network moved.
        partial: bool,
        /// Tick of detection.
        tick: Tick,
        /// Last tick a token moved.
        since: Tick,
        /// Packets in flight.
        in_flight: u64,
        /// Nodes holding packets, with what they wait for.
        stuck: Vec<StuckNode>,
        /// The cycle of the wait-for graph that explains the deadlock, if the waits
        /// close one (see [`crate::deadlock::waitfor`]).
        cycle: Option<Vec<crate::deadlock::CycleStep>>,
    },
    /// A part's code panicked: a bug in emu, reported as an error naming the node
    /// instead of a crash or a hang (the other nodes stop at the end of the window).
    #[error(
        "internal error: {node} panicked at tick {tick}: {message} (a bug in emu; please report it with the command line)"
    )]
    Panicked {
        /// Node name.
        node: String,
        /// The tick the node was at.
        tick: Tick,
        /// The panic's message.
        message: String,
    },
    /// The network would need more memory than the run may use: refused before any
    /// node is built (exit 2).
    #[error(transparent)]
    TooLarge(crate::memory::TooLarge),
    /// The system refused the engine's worker threads (a process or memory limit).
    #[error(
        "cannot start {wanted} worker threads: the system refused thread {failed} ({cause}); run with fewer --threads"
    )]
    Threads {
        /// Threads the run asked for.
        wanted: usize,
        /// The first thread refused, counted from 1.
        failed: usize,
        /// The system's reason.
        cause: String,
    },
    /// The run stopped (nothing moved for the deadlock window, or it ended) with
    /// packets blocked behind links that died (docs/architecture.md "Link faults"):
    /// not a deadlock, a link fault (exit 5).
    #[error("{}", faults::blocked_message(*tick, *us, *in_flight, links, blocked))]
    BlockedByFault {
        /// Tick at which the run stopped.
        tick: Tick,
        /// The same in µs.
        us: f64,
        /// Packets in flight.
        in_flight: u64,
        /// The links that died.
        links: Vec<faults::DeadLink>,
        /// The packets blocked behind them, where each is held.
        blocked: Vec<faults::BlockedPacket>,
    },
    /// The engine itself failed (a task panicked, a channel closed).
    #[error("engine failure: {0}")]
    Internal(String),
    /// The caller asked the run to stop ([`RunControl::stop`]); it stopped at the end
    /// of the window that ended at this tick.
    #[error("the run was stopped at tick {tick}, before it ended")]
    Stopped {
        /// The tick the run had reached.
        tick: Tick,
    },
}

impl EngineError {
    /// The tick at which the run stopped, where the error says.
    pub fn tick(&self) -> Option<Tick> {
        match self {
            EngineError::Model { tick, .. }
            | EngineError::ChannelFull { tick, .. }
            | EngineError::Invariant { tick, .. }
            | EngineError::Deadlock { tick, .. }
            | EngineError::Panicked { tick, .. }
            | EngineError::BlockedByFault { tick, .. }
            | EngineError::Stopped { tick } => Some(*tick),
            EngineError::TooLarge(_) | EngineError::Threads { .. } | EngineError::Internal(_) => {
                None
            }
        }
    }
}

fn deadlock_message(partial: bool, since: Tick, tick: Tick, in_flight: u64) -> String {
    if partial {
        format!(
            "partial deadlock: at tick {tick}, with {in_flight} packets in flight, some are in a wait-for cycle that nothing can break"
        )
    } else {
        format!(
            "deadlock: no token moved between tick {since} and tick {tick} with {in_flight} packets in flight"
        )
    }
}

/// Builds the deadlock error from every node's wait report.
fn deadlock_error<P: LinkProtocol>(
    net: &Network<P>,
    nodes: &[Box<dyn Node<P>>],
    since: Tick,
    at: Tick,
    in_flight: u64,
) -> EngineError {
    let waits: Vec<Vec<Wait>> = nodes.iter().map(|n| n.waits()).collect();
    let cycle = crate::deadlock::find_cycle(net, &waits);
    let stuck = stuck_nodes(net, waits);
    EngineError::Deadlock {
        partial: false,
        tick: at,
        since,
        in_flight,
        stuck,
        cycle,
    }
}

/// The nodes with waits, for a deadlock report. An input waiting for the rest of its
/// packet ([`WaitReason::Incomplete`](crate::model::WaitReason)) is left out: it is
/// there for link faults, and deadlock reports list what they listed before it was.
fn stuck_nodes<P: LinkProtocol>(net: &Network<P>, waits: Vec<Vec<Wait>>) -> Vec<StuckNode> {
    waits
        .into_iter()
        .map(|w| {
            w.into_iter()
                .filter(|w| w.reason != crate::model::WaitReason::Incomplete)
                .collect::<Vec<_>>()
        })
        .enumerate()
        .filter(|(_, w)| !w.is_empty())
        .map(|(i, waits)| StuckNode {
            node: i,
            name: net.nodes()[i].name.clone(),
            waits,
        })
        .collect()
}

/// Names the node, port and link of a failure inside a node's window.
fn run_error<P: LinkProtocol>(
    net: &Network<P>,
    dirs: &[Direction],
    map: &[Vec<PortWires>],
    node: NodeId,
    e: runner::RunError,
) -> EngineError {
    use crate::model::ModelError;
    let peer = |port: usize| {
        map[node]
            .get(port)
            .and_then(|w| w.out)
            .map(|d| {
                format!(
                    " (link to {} port {})",
                    net.nodes()[dirs[d].to.node].name,
                    dirs[d].to.port
                )
            })
            .unwrap_or_default()
    };
    match e {
        runner::RunError::Model(tick, m) => {
            let (kind, port, what, fc) = match m {
                ModelError::FlowControl { port, what } => {
                    ("flow-control violation", port, what, true)
                }
                ModelError::Routing { port, what } => ("routing error", port, what, false),
                ModelError::Protocol { port, what } => ("protocol error", port, what, false),
            };
            EngineError::Model {
                kind,
                tick,
                node: net.nodes()[node].name.clone(),
                port,
                peer: peer(port),
                what,
                flow_control: fc,
            }
        }
        runner::RunError::Full(tick, f) => {
            let d = map[node][f.port].out.map(|d| dirs[d]);
            match d {
                Some(d) => EngineError::ChannelFull {
                    tick,
                    from: d.from,
                    to: d.to,
                    from_name: net.nodes()[d.from.node].name.clone(),
                    to_name: net.nodes()[d.to.node].name.clone(),
                    capacity: d.capacity,
                },
                None => EngineError::Internal(format!("send on unconnected port {}", f.port)),
            }
        }
        runner::RunError::Panicked(tick, message) => EngineError::Panicked {
            node: net.nodes()[node].name.clone(),
            tick,
            message,
        },
    }
}

/// Every terminal's statistics, in terminal order.
fn terminal_stats<P: LinkProtocol>(
    net: &Network<P>,
    nodes: Vec<Box<dyn Node<P>>>,
) -> Vec<TerminalStats> {
    let mut nodes: Vec<Option<Box<dyn Node<P>>>> = nodes.into_iter().map(Some).collect();
    net.terminals()
        .iter()
        .map(|&n| {
            nodes[n]
                .take()
                .and_then(|node| node.into_terminal_stats())
                .unwrap_or_default()
        })
        .collect()
}

/// Turns the scheduler's final decision into the run's result, given the nodes and,
/// when link faults were configured, every port's view of them (`views[node][port]`).
fn conclude<P: LinkProtocol>(
    net: &Network<P>,
    sched: &schedule::RunClock,
    nodes: Vec<Box<dyn Node<P>>>,
    end: Result<bool, (Tick, Tick)>,
    views: Option<&[Vec<faults::EndFault>]>,
) -> Result<RunOutcome, EngineError> {
    let (Some(plan), Some(views)) = (net.faults(), views) else {
        return conclude_plain(net, sched, nodes, end);
    };
    let tick = match end {
        Ok(_) => sched.now(),
        Err((_, at)) => at,
    };
    let report = faults::FaultReport::new(net, plan, views, tick);
    if report.links_down.is_empty() {
        let mut outcome = conclude_plain(net, sched, nodes, end)?;
        outcome.faults = Some(report);
        return Ok(outcome);
    }
    let dead_end = faults::dead_ends(net, views, tick);
    let dead = |e: End| dead_end.contains(&e);
    let waits: Vec<Vec<Wait>> = nodes.iter().map(|n| n.waits()).collect();
    // A wait-for cycle that crosses no dead link is a deadlock, fault or not.
    let live: Vec<Vec<Wait>> = waits
        .iter()
        .enumerate()
        .map(|(node, ws)| {
            ws.iter()
                .filter(|w| {
                    !(w.reason == crate::model::WaitReason::NoCredit
                        && dead(End { node, port: w.port }))
                })
                .cloned()
                .collect()
        })
        .collect();
    let cycle = crate::deadlock::find_cycle(net, &live);
    // A packet whose last token was lost on a dead link is lost, not in flight.
    let in_flight = sched.in_flight().saturating_sub(report.packets_lost);
    match end {
        Err((since, at)) => {
            if cycle.is_some() {
                return Err(EngineError::Deadlock {
                    partial: false,
                    tick: at,
                    since,
                    in_flight,
                    stuck: stuck_nodes(net, waits),
                    cycle,
                });
            }
            let blocked = faults::blocked(net, &waits, dead, true);
            Err(faults::blocked_error(
                at,
                net.time().tick_ns,
                in_flight,
                report,
                blocked,
            ))
        }
        Ok(complete) => {
            if let Some(cycle) = cycle
                && crate::deadlock::waitfor::is_permanent::<P>(&cycle, |e| {
                    nodes[e.node].port_counters(e.port)
                })
            {
                return Err(EngineError::Deadlock {
                    partial: true,
                    tick,
                    since: tick,
                    in_flight,
                    stuck: stuck_nodes(net, waits),
                    cycle: Some(cycle),
                });
            }
            let blocked = faults::blocked(net, &waits, dead, false);
            // Measured messages undelivered that no part holds, with tokens lost: they
            // were lost on the dead links (a fabric's output adapter takes what comes
            // and waits for nothing), so the run fails as a blocked one does.
            if !blocked.is_empty() || (!complete && report.tokens_lost > 0) {
                return Err(faults::blocked_error(
                    tick,
                    net.time().tick_ns,
                    in_flight,
                    report,
                    blocked,
                ));
            }
            let parts = part_stats(&nodes);
            let mut outcome = sched.outcome(terminal_stats(net, nodes), complete);
            outcome.parts = parts;
            outcome.faults = Some(report);
            Ok(outcome)
        }
    }
}

/// What the parts measured about themselves, in node order.
fn part_stats<P: LinkProtocol>(
    nodes: &[Box<dyn Node<P>>],
) -> Vec<(NodeId, crate::model::PartStats)> {
    nodes
        .iter()
        .enumerate()
        .filter_map(|(id, n)| n.part_stats().map(|s| (id, s)))
        .collect()
}

/// [`conclude`] without link faults.
fn conclude_plain<P: LinkProtocol>(
    net: &Network<P>,
    sched: &schedule::RunClock,
    nodes: Vec<Box<dyn Node<P>>>,
    end: Result<bool, (Tick, Tick)>,
) -> Result<RunOutcome, EngineError> {
    match end {
        Ok(complete) => {
            // However the run ended, packets still in a wait-for cycle that nothing can
            // break are deadlocked: part of the network while the rest kept moving
            // (measured messages may all have been delivered: a stuck source creates
            // no new ones).
            if let EngineError::Deadlock {
                stuck,
                cycle: Some(cycle),
                in_flight,
                ..
            } = deadlock_error(net, &nodes, sched.now(), sched.now(), sched.in_flight())
                && crate::deadlock::waitfor::is_permanent::<P>(&cycle, |e| {
                    nodes[e.node].port_counters(e.port)
                })
            {
                return Err(EngineError::Deadlock {
                    partial: true,
                    tick: sched.now(),
                    since: sched.now(),
                    in_flight,
                    stuck,
                    cycle: Some(cycle),
                });
            }
            let parts = part_stats(&nodes);
            let mut outcome = sched.outcome(terminal_stats(net, nodes), complete);
            outcome.parts = parts;
            Ok(outcome)
        }
        Err((since, at)) => Err(deadlock_error(net, &nodes, since, at, sched.in_flight())),
    }
}
