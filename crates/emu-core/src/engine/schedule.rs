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

    /// Node `n` must run at tick `t` (or earlier, if it already must). Most calls find
    /// it due earlier already (a node's tokens to one receiver in a window wake it at
    /// the first one's tick): that test is inlined, the update is not.
    #[inline]
    pub fn wake(&mut self, n: NodeId, t: Tick) {
        if t < self.next_due[n] {
            self.set_due(n, t);
        }
    }

    /// Node `n` is due at tick `t`, earlier than it was.
    #[inline(never)]
    fn set_due(&mut self, n: NodeId, t: Tick) {
        self.next_due[n] = t;
        let g = &mut self.group_min[n / GROUP];
        *g = (*g).min(t);
    }
}

/// Virtual time and the run's totals: decides after each window whether the run goes
/// on, is over, or is deadlocked. Every worker of an engine can keep its own copy and
/// reach the same decisions from the same inputs.
#[derive(Clone)]
pub(super) struct RunClock {
    lookahead: Tick,
    /// The smallest link latency: with a longer `lookahead` (a protocol whose
    /// receivers act on a token some ticks after its arrival), the windows that
    /// decide the run's end are this long, so that it ends at the tick it would with
    /// windows of one link latency.
    fine: Tick,
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
    /// A clock at tick 0 whose windows are `lookahead` ticks long, and `fine` ticks
    /// (the smallest link latency) where the run may end ([`RunClock::window`]).
    pub fn new(lookahead: Tick, fine: Tick, ctl: RunControl) -> RunClock {
        RunClock {
            lookahead: lookahead.max(1),
            fine: fine.clamp(1, lookahead.max(1)),
            ctl,
            totals: Activity::default(),
            last_move: 0,
            now: 0,
            windows: 0,
            node_runs: 0,
        }
    }

    /// The window that starts at the earliest due tick `start`: `[start, end)`.
    ///
    /// When the lookahead is longer than the smallest link latency (`fine`), a window
    /// ends no later than the first `fine`-long step from `start` that reaches the end
    /// of the measured part, the hard stop or the tick a deadlock would be declared at
    /// if nothing moves, and from the end of the measured part on it is `fine` long:
    /// the run is then decided at the ticks windows of one link latency would decide
    /// it at (to the tick where links take one tick, as an SCI ring's do: every one of
    /// its nodes runs every tick), and ends at the same tick, the same way.
    pub fn window(&mut self, start: Tick) -> (Tick, Tick) {
        self.windows += 1;
        let mut end = start.saturating_add(self.lookahead);
        if self.lookahead > self.fine {
            let quiet = self
                .last_move
                .saturating_add(self.ctl.deadlock_window)
                .saturating_add(1);
            for bound in [self.ctl.end_after, self.ctl.hard_stop, quiet] {
                if start < bound {
                    let steps = (bound - start).div_ceil(self.fine);
                    end = end.min(start.saturating_add(steps.saturating_mul(self.fine)));
                }
            }
            if start >= self.ctl.end_after {
                end = end.min(start.saturating_add(self.fine));
            }
        }
        (start, end)
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

    /// Closes the window ending at `end`: accounts its activity and `runs` node runs
    /// (`last_move`: the last tick a token moved, as [`crate::model::Outbox::last_move`] keeps it),
    /// tells the progress display, and decides given the next tick anything is due.
    pub(crate) fn close_window(
        &mut self,
        end: Tick,
        activity: &Activity,
        last_move: Tick,
        runs: u64,
        next_due: Option<Tick>,
        progress: &mut Option<super::ProgressFn>,
    ) -> Decision {
        self.totals.add(activity);
        self.node_runs += runs;
        if activity.tokens_moved > 0 {
            // Windows of one link latency (of one tick where they are longer) place
            // the last move to the tick, as the window's last.
            self.last_move = if self.lookahead > self.fine {
                last_move
            } else {
                end - 1
            };
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

    fn control(end_after: Tick, hard_stop: Tick) -> RunControl {
        RunControl {
            end_after,
            hard_stop,
            deadlock_window: 1_000,
            check: false,
            memory_limit: None,
            observe: None,
            stop: None,
        }
    }

    /// The windows of a clock from tick 0 while every node is due at every tick.
    fn windows(clock: &mut RunClock, until: Tick) -> Vec<(Tick, Tick)> {
        let mut start = 0;
        let mut v = Vec::new();
        while start < until {
            let w = clock.window(start);
            v.push(w);
            start = w.1;
        }
        v
    }

    #[test]
    fn a_longer_lookahead_ends_windows_where_one_link_latency_would_decide() {
        // Lookahead 3 over links of 1 tick: three ticks a window, but one ends at
        // the end of the measured part (10) and from there they are one tick long.
        let mut c = RunClock::new(3, 1, control(10, 20));
        assert_eq!(
            windows(&mut c, 13),
            [
                (0, 3),
                (3, 6),
                (6, 9),
                (9, 10),
                (10, 11),
                (11, 12),
                (12, 13)
            ]
        );
        // A hard stop before the end of the measured part is a window's end too.
        let mut c = RunClock::new(3, 1, control(10, 5));
        assert_eq!(windows(&mut c, 6)[..2], [(0, 3), (3, 5)]);
        // Nothing has moved since tick 0: with a deadlock window of 7 ticks, a
        // window ends at 8, where the deadlock would be declared.
        let mut c = RunClock::new(
            3,
            1,
            RunControl {
                deadlock_window: 7,
                ..control(10, 20)
            },
        );
        assert_eq!(
            windows(&mut c, 11),
            [(0, 3), (3, 6), (6, 8), (8, 10), (10, 11)]
        );
        // Links of 2 ticks, lookahead 5: steps of 2 from the window's start.
        let mut c = RunClock::new(5, 2, control(9, 100));
        assert_eq!(windows(&mut c, 12), [(0, 5), (5, 9), (9, 11), (11, 13)]);
        // A lookahead of one link latency is never cut: the run is decided at the
        // ends of whole windows, as it always was.
        let mut c = RunClock::new(20, 20, control(50, 70));
        assert_eq!(windows(&mut c, 80), [(0, 20), (20, 40), (40, 60), (60, 80)]);
    }

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
