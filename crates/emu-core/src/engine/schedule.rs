//! Window scheduling shared by the engines: who is due when ([`DueQueue`]), and the
//! run's clock, progress, completion and deadlock detection ([`RunClock`]). Neither
//! knows any protocol: nodes only report when they next need to run, whom they sent
//! tokens to, and the [`Activity`] counters.

use super::{RunControl, RunOutcome};
use crate::model::Activity;
use crate::network::NodeId;
use crate::time::Tick;

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

/// Nodes per group of [`DueQueue`]: one group's minimum stands for its nodes.
const GROUP: usize = 64;

/// Every node's next due tick (for the nodes one engine worker owns).
///
/// Nodes are kept in groups of [`GROUP`] consecutive ids with each group's earliest
/// due tick, so that taking a window's due nodes reads only the groups that have one,
/// and yields them in node order without sorting; the earliest due tick overall is a
/// minimum over the groups. (A binary heap of wake-ups cost a push per wake-up and a
/// pop per stale entry: 7 % of a saturated run's instructions.)
pub(super) struct DueQueue {
    next_due: Vec<Tick>,
    /// `group_min[g]`: the earliest `next_due` of nodes `g·GROUP ..`, exactly.
    group_min: Vec<Tick>,
}

impl DueQueue {
    /// The nodes `owned` all due at tick 0 (links reset and grant their first credit
    /// then). `nodes` is the size of the whole network.
    pub fn new(nodes: usize, owned: impl IntoIterator<Item = NodeId>) -> DueQueue {
        let mut q = DueQueue {
            next_due: vec![NEVER; nodes],
            group_min: vec![NEVER; nodes.div_ceil(GROUP)],
        };
        for n in owned {
            q.wake(n, 0);
        }
        q
    }

    /// The earliest tick any node is due, if any.
    pub fn peek(&mut self) -> Option<Tick> {
        let t = self.group_min.iter().copied().min().unwrap_or(NEVER);
        (t != NEVER).then_some(t)
    }

    /// Takes every node due before `end` into `due`, in node order.
    pub(crate) fn take_due(&mut self, end: Tick, due: &mut Vec<NodeId>) {
        due.clear();
        for (g, min) in self.group_min.iter_mut().enumerate() {
            if *min >= end {
                continue;
            }
            let first = g * GROUP;
            let mut rest = NEVER;
            for (k, t) in self.next_due[first..].iter_mut().take(GROUP).enumerate() {
                if *t < end {
                    *t = NEVER;
                    due.push(first + k);
                } else {
                    rest = rest.min(*t);
                }
            }
            *min = rest;
        }
    }

    /// Node `n` must run at tick `t` (or earlier, if it already must).
    pub fn wake(&mut self, n: NodeId, t: Tick) {
        if t < self.next_due[n] {
            self.next_due[n] = t;
            let g = &mut self.group_min[n / GROUP];
            *g = (*g).min(t);
        }
    }
}

/// Virtual time and the run's totals: decides after each window whether the run goes
/// on, is over, or is deadlocked. Every worker of an engine can keep its own copy and
/// reach the same decisions from the same inputs.
#[derive(Clone)]
pub(super) struct RunClock {
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

impl RunClock {
    /// A clock at tick 0 whose windows are `lookahead` ticks long.
    pub fn new(lookahead: Tick, ctl: RunControl) -> RunClock {
        RunClock {
            lookahead: lookahead.max(1),
            ctl,
            totals: Activity::default(),
            last_move: 0,
            now: 0,
            windows: 0,
            node_runs: 0,
        }
    }

    /// The window that starts at the earliest due tick `start`: `[start, end)`.
    pub fn window(&mut self, start: Tick) -> (Tick, Tick) {
        self.windows += 1;
        (start, start.saturating_add(self.lookahead))
    }

    /// Virtual time so far.
    pub fn now(&self) -> Tick {
        self.now
    }

    /// Packets injected and not yet ejected.
    pub fn in_flight(&self) -> u64 {
        self.totals
            .packets_injected
            .saturating_sub(self.totals.packets_ejected)
    }

    /// Closes the window ending at `end`: accounts its activity and `runs` node runs,
    /// tells the progress display, and decides given the next tick anything is due.
    pub(crate) fn close_window(
        &mut self,
        end: Tick,
        activity: &Activity,
        runs: u64,
        next_due: Option<Tick>,
        progress: &mut Option<super::ProgressFn>,
    ) -> Decision {
        self.totals.add(activity);
        self.node_runs += runs;
        if activity.tokens_moved > 0 {
            self.last_move = end - 1;
        }
        self.now = end.max(self.now);
        let decision = self.decide(next_due);
        if let Some(p) = progress.as_mut() {
            p(self.now, &self.totals);
        }
        decision
    }

    /// Decides what to do given the state so far and the next due tick, if any.
    pub fn decide(&mut self, next_due: Option<Tick>) -> Decision {
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
        if next_due.is_none() {
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
        terminals: Vec<crate::terminal::TerminalStats>,
        complete: bool,
    ) -> RunOutcome {
        RunOutcome {
            end_tick: self.now,
            terminals,
            activity: self.totals,
            complete,
            windows: self.windows,
            node_runs: self.node_runs,
            parts: Vec::new(),
            faults: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The grouped queue takes exactly the nodes a plain scan of every node's due
        /// tick would, in node order, and peeks the same earliest tick, over random
        /// wake-ups and windows on networks of up to four groups.
        #[test]
        fn due_queue_matches_a_plain_scan(
            nodes in 1usize..200,
            ops in proptest::collection::vec((any::<bool>(), 0usize..200, 0u64..100), 1..300),
        ) {
            let owned: Vec<NodeId> = (0..nodes).filter(|n| n % 3 != 1).collect();
            let mut q = DueQueue::new(nodes, owned.iter().copied());
            let mut plain = vec![NEVER; nodes];
            for &n in &owned {
                plain[n] = 0;
            }
            let mut due = Vec::new();
            for (take, n, t) in ops {
                if take {
                    q.take_due(t, &mut due);
                    let expected: Vec<NodeId> = (0..nodes).filter(|&n| plain[n] < t).collect();
                    for &n in &expected {
                        plain[n] = NEVER;
                    }
                    prop_assert_eq!(&due, &expected);
                } else {
                    let n = n % nodes;
                    q.wake(n, t);
                    plain[n] = plain[n].min(t);
                }
                let min = plain.iter().copied().min().filter(|&m| m != NEVER);
                prop_assert_eq!(q.peek(), min);
            }
        }
    }
}
