//! The window scheduler shared by the engines: who is due when, progress, completion
//! and deadlock detection. It knows nothing of any protocol: nodes only report when
//! they next need to run, who they sent to, and the [`Activity`] counters.

use super::{RunControl, RunOutcome};
use crate::model::Activity;
use crate::network::NodeId;
use crate::time::Tick;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NEVER: Tick = Tick::MAX;

/// What the engine should do after a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decision {
    /// Run the next window.
    Continue,
    /// Stop: the run is over (`complete` = every measured message delivered).
    Done {
        /// Every obligation closed.
        complete: bool,
    },
    /// Stop: no token moved for the deadlock window while packets were in flight.
    Deadlock {
        /// Last tick a token moved.
        since: Tick,
        /// Tick of detection.
        at: Tick,
    },
}

/// Tracks every node's next due tick and the run's progress.
pub(super) struct Scheduler {
    next_due: Vec<Tick>,
    heap: BinaryHeap<Reverse<(Tick, NodeId)>>,
    lookahead: Tick,
    ctl: RunControl,
    /// Activity totals.
    pub totals: Activity,
    last_move: Tick,
    now: Tick,
    /// Windows run.
    pub windows: u64,
    /// Node runs.
    pub node_runs: u64,
}

impl Scheduler {
    /// Every node due at tick 0 (links reset and grant their first credit then).
    pub fn new(nodes: usize, lookahead: Tick, ctl: RunControl) -> Scheduler {
        let heap = (0..nodes).map(|n| Reverse((0, n))).collect();
        Scheduler {
            next_due: vec![0; nodes],
            heap,
            lookahead: lookahead.max(1),
            ctl,
            totals: Activity::default(),
            last_move: 0,
            now: 0,
            windows: 0,
            node_runs: 0,
        }
    }

    fn peek(&mut self) -> Option<Tick> {
        while let Some(&Reverse((t, n))) = self.heap.peek() {
            if self.next_due[n] == t {
                return Some(t);
            }
            self.heap.pop();
        }
        None
    }

    /// The next window `[start, end)` and the nodes due in it, in node order; `None`
    /// if no node has anything due.
    pub fn next_window(&mut self) -> Option<(Tick, Tick, Vec<NodeId>)> {
        let start = self.peek()?;
        let end = start.saturating_add(self.lookahead);
        let mut due = Vec::new();
        while let Some(&Reverse((t, n))) = self.heap.peek() {
            if t >= end {
                break;
            }
            self.heap.pop();
            if self.next_due[n] == t {
                self.next_due[n] = NEVER;
                due.push(n);
            }
        }
        due.sort_unstable();
        self.windows += 1;
        self.node_runs += due.len() as u64;
        Some((start, end, due))
    }

    /// Node `n` finished its window and next needs to run at `due`.
    pub fn ran(&mut self, n: NodeId, due: Option<Tick>) {
        if let Some(t) = due {
            self.wake(n, t);
        }
    }

    /// Something arrives for node `n` at tick `t`.
    pub fn wake(&mut self, n: NodeId, t: Tick) {
        if t < self.next_due[n] {
            self.next_due[n] = t;
            self.heap.push(Reverse((t, n)));
        }
    }

    /// Packets injected and not yet ejected.
    pub fn in_flight(&self) -> u64 {
        self.totals
            .packets_injected
            .saturating_sub(self.totals.packets_ejected)
    }

    /// Closes a window: accounts its activity, tells the progress display, decides.
    pub fn close_window(
        &mut self,
        end: Tick,
        activity: &Activity,
        progress: &mut Option<super::ProgressFn>,
    ) -> Decision {
        self.totals.add(activity);
        if activity.tokens_moved > 0 {
            self.last_move = end - 1;
        }
        self.now = end.max(self.now);
        let decision = self.decide();
        if let Some(p) = progress.as_mut() {
            p(self.now, &self.totals);
        }
        decision
    }

    /// Decides what to do given the state so far (also when nothing is scheduled).
    pub fn decide(&mut self) -> Decision {
        let open = self.totals.obligations_opened > self.totals.obligations_closed;
        if self.now >= self.ctl.end_after && !open {
            return Decision::Done { complete: true };
        }
        let in_flight = self.in_flight() > 0;
        if in_flight && self.now.saturating_sub(self.last_move) > self.ctl.deadlock_window {
            return Decision::Deadlock {
                since: self.last_move,
                at: self.now,
            };
        }
        if self.now >= self.ctl.hard_stop {
            return Decision::Done { complete: !open };
        }
        if self.peek().is_none() {
            // Nothing will ever happen again.
            if in_flight {
                let at = self.last_move + self.ctl.deadlock_window + 1;
                return Decision::Deadlock {
                    since: self.last_move,
                    at,
                };
            }
            self.now = self.now.max(self.ctl.end_after);
            return Decision::Done { complete: !open };
        }
        Decision::Continue
    }

    /// The outcome of a run that ended normally.
    pub fn outcome(
        &self,
        terminals: Vec<crate::stats::TerminalStats>,
        complete: bool,
    ) -> RunOutcome {
        RunOutcome {
            end_tick: self.now,
            terminals,
            activity: self.totals,
            complete,
            windows: self.windows,
            node_runs: self.node_runs,
        }
    }
}
