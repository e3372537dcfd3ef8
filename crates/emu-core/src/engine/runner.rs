//! Runs one node through one window: delivers due tokens in port order, steps the
//! state machine at each tick it has something due, and hands what it sends to the
//! wires. Shared by both engines, so they cannot differ in what a node sees.

use crate::model::{LinkProtocol, ModelError, Node, Outbox, PortId};
use crate::network::NodeId;
use crate::time::Tick;

/// A send found the link direction's channel full.
#[derive(Clone, Copy, Debug)]
pub(super) struct Full {
    /// The port that sent.
    pub port: PortId,
}

/// How a node's ports reach the rest of the network.
pub(super) trait Wires<P: LinkProtocol> {
    /// Arrival tick of the next token waiting on input `port`, if any.
    fn peek(&mut self, port: PortId) -> Option<Tick>;
    /// Takes the next token waiting on input `port`, with its arrival tick, if it has
    /// arrived by tick `t`.
    fn pop_due(&mut self, port: PortId, t: Tick) -> Option<(Tick, P::Token)>;
    /// Hands every token waiting on input `port` that has arrived by tick `t` to
    /// `receive` with its arrival tick, oldest first, then returns the arrival tick of
    /// the next one, if any:
    /// [`Wires::pop_due`] until it fails, then [`Wires::peek`], which an implementation
    /// may do with one look-up of the port's queue.
    fn deliver(
        &mut self,
        port: PortId,
        t: Tick,
        mut receive: impl FnMut(Tick, P::Token) -> Result<(), ModelError>,
    ) -> Result<Option<Tick>, ModelError> {
        while let Some((arrival, tok)) = self.pop_due(port, t) {
            receive(arrival, tok)?;
        }
        Ok(self.peek(port))
    }
    /// Sends `token` out of `port`, leaving the transmitter at `at`. Returns the
    /// receiving node and the arrival tick, or `None` for an unconnected port.
    fn push(
        &mut self,
        port: PortId,
        at: Tick,
        token: P::Token,
    ) -> Result<Option<(NodeId, Tick)>, Full>;
}

/// What `run_window` tells of each token a node sends: its receiver and the tick the
/// receiver can act on it.
pub(super) trait Wake {
    /// Node `to` has a token it can act on at tick `due`.
    fn wake(&mut self, to: NodeId, due: Tick);
}

impl<F: FnMut(NodeId, Tick)> Wake for F {
    fn wake(&mut self, to: NodeId, due: Tick) {
        self(to, due);
    }
}

/// Why a window failed.
pub(super) enum RunError {
    /// The state machine broke a rule at a tick.
    Model(Tick, ModelError),
    /// A channel was full at a tick.
    Full(Tick, Full),
    /// The node's code panicked at a tick, with the panic's message: a bug in a part,
    /// reported instead of leaving the other nodes waiting for it.
    Panicked(Tick, String),
}

/// Per-node state the engine keeps between windows.
#[derive(Debug)]
pub(super) struct NodeClock {
    /// The tick the node asked to be woken at.
    pub timer: Option<Tick>,
    /// The tick the node is at (or last ran at): where a panic happened.
    pub now: Tick,
}

impl Default for NodeClock {
    /// Every node first runs at tick 0, when its links reset.
    fn default() -> Self {
        NodeClock {
            timer: Some(0),
            now: 0,
        }
    }
}

/// Runs `f` (a node's window), turning a panic in the node's code into its message,
/// so that the engine can end the run with an error naming the node instead of
/// waiting for a node that will never report. The node must not run again after a
/// panic (its state may be half-updated): both engines stop the run at the end of the
/// window. The tick it happened at is the node's [`NodeClock::now`].
pub(super) fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    // AssertUnwindSafe: after a panic nothing reads the node, its wires or the scratch
    // vectors again except to drop them; the engine reports the error and stops.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .map_err(|payload| panic_message(&*payload))
}

/// The text of a panic's payload (`panic!` with a literal gives a `&str`, with
/// arguments a `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with no message".to_string()
    }
}

/// Runs `node` for every tick in `[.., end)` at which it has something due. Returns
/// its next due tick. Each token it sends is told to `wake` as its receiver and the
/// tick the receiver can act on it (a receiver may be told several times: the caller
/// keeps the earliest). `arrivals` is scratch space.
///
/// Nothing sent during the window can be due before `end`, so the input ports are
/// peeked once and then only after they are read. A token is due
/// [`LinkProtocol::RECEIVE_DELAY`] ticks after its arrival: it is handed to the node
/// then, before the node steps that tick, with its arrival tick — or, for a
/// [`LinkProtocol::RECEIVE_AHEAD`] protocol, before the node's first step in the window
/// in which it is due. The node learns the window's end from [`Outbox::window_end`].
#[allow(clippy::too_many_arguments)]
pub(super) fn run_window<P: LinkProtocol>(
    node: &mut dyn Node<P>,
    ports: usize,
    wires: &mut impl Wires<P>,
    clock: &mut NodeClock,
    end: Tick,
    out: &mut Outbox<P::Token>,
    wake: &mut impl Wake,
    arrivals: &mut Vec<Tick>,
) -> Result<Option<Tick>, RunError> {
    arrivals.clear();
    out.window_end = end;
    // The earliest arrival on any port, kept with the per-port ticks so that a tick at
    // which only the node's timer is due looks at no port.
    let mut first = Tick::MAX;
    let delay = P::RECEIVE_DELAY;
    for p in 0..ports {
        let a = wires.peek(p).map_or(Tick::MAX, |a| a + delay);
        arrivals.push(a);
        first = first.min(a);
    }
    loop {
        let t = clock.timer.unwrap_or(Tick::MAX).min(first);
        if t >= end {
            return Ok((t != Tick::MAX).then_some(t));
        }
        clock.now = t;
        // Tokens due by this tick are handed over; all those due in the window, where
        // the protocol's receivers keep them until then.
        let due = if P::RECEIVE_AHEAD { end - 1 } else { t };
        if first <= due {
            first = Tick::MAX;
            for (p, next) in arrivals.iter_mut().enumerate() {
                if *next <= due {
                    *next = wires
                        .deliver(p, due.saturating_sub(delay), |a, tok| {
                            node.receive(a, p, tok)
                        })
                        .map_err(|e| RunError::Model(t, e))?
                        .map_or(Tick::MAX, |a| a + delay);
                }
                first = first.min(*next);
            }
        }
        let moved = out.activity.tokens_moved;
        clock.timer = node.step(t, out).map_err(|e| RunError::Model(t, e))?;
        if delay > 0 && out.activity.tokens_moved != moved {
            out.last_move = out.last_move.max(t);
        }
        for e in out.emits.drain(..) {
            match wires.push(e.port, e.at, e.token) {
                Ok(Some((to, arrival))) => wake.wake(to, arrival + delay),
                Ok(None) => {}
                Err(f) => return Err(RunError::Full(t, f)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Violation, Wait};
    use std::collections::VecDeque;

    /// A protocol whose receivers act on a token two ticks after its arrival (as an
    /// SCI stripper does), handed over at its due tick.
    #[derive(Clone, Copy, Debug, Default)]
    struct Later;

    /// [`Later`], but its receivers keep tokens until they are due themselves.
    #[derive(Clone, Copy, Debug, Default)]
    struct Ahead;

    macro_rules! test_protocol {
        ($p:ty, $ahead:expr) => {
            impl LinkProtocol for $p {
                type Token = u32;
                type Counters = ();
                const NAME: &'static str = "test";
                const RECEIVE_DELAY: Tick = 2;
                const RECEIVE_AHEAD: bool = $ahead;
                fn check_direction(_: &(), _: &(), _: u64, _: u64) -> Result<(), Violation> {
                    Ok(())
                }
                fn blocked_for_good(_: &(), _: &()) -> bool {
                    false
                }
                fn sent(_: &()) -> u64 {
                    0
                }
            }
        };
    }
    test_protocol!(Later, false);
    test_protocol!(Ahead, true);

    /// One input port's queue of (arrival, token); whatever is sent arrives one tick
    /// after it leaves, at node 1.
    #[derive(Default)]
    struct Queue {
        input: VecDeque<(Tick, u32)>,
    }

    impl<P: LinkProtocol<Token = u32>> Wires<P> for Queue {
        fn peek(&mut self, _port: PortId) -> Option<Tick> {
            self.input.front().map(|&(a, _)| a)
        }
        fn pop_due(&mut self, _port: PortId, t: Tick) -> Option<(Tick, u32)> {
            match self.input.front() {
                Some(&(a, _)) if a <= t => self.input.pop_front(),
                _ => None,
            }
        }
        fn push(
            &mut self,
            _port: PortId,
            at: Tick,
            _token: u32,
        ) -> Result<Option<(NodeId, Tick)>, Full> {
            Ok(Some((1, at + 1)))
        }
    }

    /// Records every call: ("receive", the arrival tick it is given) and ("step",
    /// tick, the window's end it is told); sends a token at each step, and runs again
    /// at `timer` ticks after each step, if set.
    #[derive(Default)]
    struct Recorder {
        calls: Vec<(&'static str, Tick)>,
        ends: Vec<Tick>,
        timer: Option<Tick>,
    }

    impl<P: LinkProtocol<Token = u32, Counters = ()>> Node<P> for Recorder {
        fn receive(&mut self, now: Tick, _port: PortId, _t: u32) -> Result<(), ModelError> {
            self.calls.push(("receive", now));
            Ok(())
        }
        fn step(&mut self, now: Tick, out: &mut Outbox<u32>) -> Result<Option<Tick>, ModelError> {
            self.calls.push(("step", now));
            self.ends.push(out.window_end);
            out.send(0, 0, now + 1);
            Ok(self.timer.map(|d| now + d))
        }
        fn port_counters(&self, _port: PortId) {}
        fn waits(&self) -> Vec<Wait> {
            Vec::new()
        }
    }

    /// Runs `node` through the window `[0, 10)` on tokens arriving at 3, 4 and 20.
    /// Gives its next due tick and the wake-ups of its receiver.
    fn window<P: LinkProtocol<Token = u32, Counters = ()>>(
        node: &mut Recorder,
    ) -> (Option<Tick>, Vec<(NodeId, Tick)>) {
        let mut wires = Queue::default();
        wires.input.extend([(3, 0), (4, 1), (20, 2)]);
        let mut clock = NodeClock {
            timer: None,
            now: 0,
        };
        let (mut out, mut notify, mut arrivals) = (Outbox::default(), Vec::new(), Vec::new());
        let mut wake = |to, due| notify.push((to, due));
        let next = run_window::<P>(
            node,
            1,
            &mut wires,
            &mut clock,
            10,
            &mut out,
            &mut wake,
            &mut arrivals,
        )
        .unwrap_or_else(|_| panic!("the window runs"));
        (next, notify)
    }

    #[test]
    fn a_token_is_handed_over_with_its_arrival_tick_just_before_the_receiver_can_act_on_it() {
        let mut node = Recorder::default();
        let (next, notify) = window::<Later>(&mut node);
        // Each token is received with its arrival tick right before the step at
        // arrival + 2; the one arriving at 20 is due at 22, after the window.
        assert_eq!(
            node.calls,
            [("receive", 3), ("step", 5), ("receive", 4), ("step", 6)]
        );
        assert_eq!(node.ends, [10, 10], "each step is told the window's end");
        assert_eq!(next, Some(22));
        // Each token the node sent wakes its receiver when the receiver can act on
        // it: left at 6 and 7, arrived at 7 and 8, due at 9 and 10.
        assert_eq!(notify, [(1, 9), (1, 10)]);
    }

    #[test]
    fn a_receiver_that_keeps_tokens_is_handed_every_one_due_in_the_window_at_its_first_step() {
        // The node runs again 4 ticks after each step: at 5 (the first token's due
        // tick), then 9; by 5 it has both tokens due in the window, with their arrival
        // ticks, and not the one due after it.
        let mut node = Recorder {
            timer: Some(4),
            ..Recorder::default()
        };
        let (next, notify) = window::<Ahead>(&mut node);
        assert_eq!(
            node.calls,
            [("receive", 3), ("receive", 4), ("step", 5), ("step", 9)]
        );
        assert_eq!(next, Some(13));
        assert_eq!(notify, [(1, 9), (1, 13)]);
    }
}
