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
    /// Takes the next token waiting on input `port` if it has arrived by tick `t`.
    fn pop_due(&mut self, port: PortId, t: Tick) -> Option<P::Token>;
    /// Hands every token waiting on input `port` that has arrived by tick `t` to
    /// `receive`, oldest first, then returns the arrival tick of the next one, if any:
    /// [`Wires::pop_due`] until it fails, then [`Wires::peek`], which an implementation
    /// may do with one look-up of the port's queue.
    fn deliver(
        &mut self,
        port: PortId,
        t: Tick,
        mut receive: impl FnMut(P::Token) -> Result<(), ModelError>,
    ) -> Result<Option<Tick>, ModelError> {
        while let Some(tok) = self.pop_due(port, t) {
            receive(tok)?;
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
/// its next due tick. Receivers of what it sent are appended to `notify` (one entry
/// per receiver, with the earliest arrival). `arrivals` is scratch space.
///
/// Nothing sent during the window can arrive before `end`, so the input ports are
/// peeked once and then only after they are read.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_window<P: LinkProtocol>(
    node: &mut dyn Node<P>,
    ports: usize,
    wires: &mut impl Wires<P>,
    clock: &mut NodeClock,
    end: Tick,
    out: &mut Outbox<P::Token>,
    notify: &mut Vec<(NodeId, Tick)>,
    arrivals: &mut Vec<Tick>,
) -> Result<Option<Tick>, RunError> {
    arrivals.clear();
    // The earliest arrival on any port, kept with the per-port ticks so that a tick at
    // which only the node's timer is due looks at no port.
    let mut first = Tick::MAX;
    for p in 0..ports {
        let a = wires.peek(p).unwrap_or(Tick::MAX);
        arrivals.push(a);
        first = first.min(a);
    }
    loop {
        let t = clock.timer.unwrap_or(Tick::MAX).min(first);
        if t >= end {
            return Ok((t != Tick::MAX).then_some(t));
        }
        clock.now = t;
        if first <= t {
            first = Tick::MAX;
            for (p, next) in arrivals.iter_mut().enumerate() {
                if *next <= t {
                    *next = wires
                        .deliver(p, t, |tok| node.receive(t, p, tok))
                        .map_err(|e| RunError::Model(t, e))?
                        .unwrap_or(Tick::MAX);
                }
                first = first.min(*next);
            }
        }
        clock.timer = node.step(t, out).map_err(|e| RunError::Model(t, e))?;
        for e in out.emits.drain(..) {
            match wires.push(e.port, e.at, e.token) {
                Ok(Some((to, arrival))) => match notify.iter_mut().find(|(n, _)| *n == to) {
                    Some(entry) => entry.1 = entry.1.min(arrival),
                    None => notify.push((to, arrival)),
                },
                Ok(None) => {}
                Err(f) => return Err(RunError::Full(t, f)),
            }
        }
    }
}
