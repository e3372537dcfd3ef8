//! The hardware layer's contract: what a part is to an engine.
//!
//! Nothing here knows about tasks, channels or threads (docs/architecture.md "Layers"),
//! nor about any one link protocol. An engine hands a [`Node`] the tokens that arrived
//! on its ports at tick `now` ([`Node::receive`], in port order, FIFO per port), then
//! calls [`Node::step`], which pushes the tokens the node sends into an [`Outbox`] and
//! returns when the node next needs to run on its own. Every rule of a part is
//! unit-tested by driving ticks by hand.
//!
//! What a token is, and what each port counts, is the network's [`LinkProtocol`]. The
//! parts themselves live in [`crate::parts`], one folder per hardware family.

pub mod protocol;
pub mod testkit;
pub mod view;
pub mod wait;

pub use crate::ids::PortId;
pub use crate::terminal::Stamp;
use crate::terminal::TerminalStats;
use crate::time::Tick;
pub use protocol::{LinkProtocol, Violation};
pub use view::{Gauge, LineCode, PacketId, PacketTag, TokenView};
pub use wait::{Wait, WaitReason};

/// One token handed to the engine for sending; `T` is the link protocol's token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Emit<T> {
    /// Port the token leaves on.
    pub port: PortId,
    /// The token.
    pub token: T,
    /// Tick at which the token's last bit has left the transmitter (≥ the current
    /// tick). The engine adds the link's latency to get its arrival tick.
    pub at: Tick,
}

/// Counts a node reports so the engine can tell progress, completion and deadlock
/// apart without knowing any protocol.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Activity {
    /// Flow-controlled tokens (data, EOP, EOM) put on a link: "token-hops".
    pub tokens_moved: u64,
    /// Packets (data and acknowledge) whose first token a terminal put on its link.
    pub packets_injected: u64,
    /// Packets whose terminator reached the terminal they were for.
    pub packets_ejected: u64,
    /// Messages created (any): with [`Self::messages_delivered`], how many wait in
    /// source queues or the network.
    pub messages_created: u64,
    /// Messages created that the run must see delivered before it may end.
    pub obligations_opened: u64,
    /// Of those, messages delivered.
    pub obligations_closed: u64,
    /// Messages delivered (any), for progress display.
    pub messages_delivered: u64,
}

impl Activity {
    /// Adds what a terminal counted into `self`.
    pub(crate) fn add_messages(&mut self, m: &crate::terminal::MessageActivity) {
        self.messages_created += m.messages_created;
        self.obligations_opened += m.obligations_opened;
        self.obligations_closed += m.obligations_closed;
        self.messages_delivered += m.messages_delivered;
    }

    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &Activity) {
        self.tokens_moved += other.tokens_moved;
        self.packets_injected += other.packets_injected;
        self.packets_ejected += other.packets_ejected;
        self.messages_created += other.messages_created;
        self.obligations_opened += other.obligations_opened;
        self.obligations_closed += other.obligations_closed;
        self.messages_delivered += other.messages_delivered;
    }
}

/// Where a node puts what it sends during one [`Node::step`]; `T` is the link
/// protocol's token.
#[derive(Debug)]
pub struct Outbox<T> {
    /// Tokens to send, in the order they were produced.
    pub emits: Vec<Emit<T>>,
    /// Progress counters accumulated since the engine last cleared them.
    pub activity: Activity,
    /// The last tick at which a step put a token on a link (0: none), kept by the
    /// engines, and only for a protocol whose windows are longer than one link latency
    /// ([`LinkProtocol::RECEIVE_DELAY`]): where a quiet spell that may be a deadlock
    /// began, to the tick. A node that runs several ticks in one step raises it to the
    /// last of them at which it moved a token.
    pub last_move: Tick,
    /// The end of the engine's window the node is stepping in, set by the engines: a
    /// token sent at a step in the window cannot arrive before it, so a node may hold
    /// what it sends during the window and send it as one token at its last step
    /// there (an SCI node's run of symbols, [`crate::parts::sci::Symbols`]). 0 outside
    /// an engine (a test driving a node by hand): every step is then a window's last.
    pub window_end: Tick,
}

impl<T> Default for Outbox<T> {
    fn default() -> Self {
        Outbox {
            emits: Vec::new(),
            activity: Activity::default(),
            last_move: 0,
            window_end: 0,
        }
    }
}

impl<T> Outbox<T> {
    /// Queues `token` on `port`, fully transmitted at tick `at`.
    pub fn send(&mut self, port: PortId, token: T, at: Tick) {
        self.emits.push(Emit { port, token, at });
    }
}

/// A rule of the hardware was broken: the run cannot go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// Credit flow control failed: a token arrived with no credit granted for it, or a
    /// buffer overflowed (INMOS ch. 6 §6.2.1: the credit a receiver issues must
    /// never exceed its free buffer space).
    #[error("flow-control violation on port {port}: {what}")]
    FlowControl {
        /// Port on which it happened.
        port: PortId,
        /// What went wrong.
        what: String,
    },
    /// A header had no route, or a packet reached the wrong terminal.
    #[error("routing error on port {port}: {what}")]
    Routing {
        /// Port on which it happened.
        port: PortId,
        /// What went wrong.
        what: String,
    },
    /// A malformed token sequence (e.g. a terminator with no header).
    #[error("protocol error on port {port}: {what}")]
    Protocol {
        /// Port on which it happened.
        port: PortId,
        /// What went wrong.
        what: String,
    },
}

/// A hardware part's state machine as the engine sees it, on link protocol `P`.
pub trait Node<P: LinkProtocol>: Send {
    /// Delivers `token`, which arrived on `port` at tick `now`. Called for every token
    /// due at `now`, in port order and FIFO per port, before [`Node::step`] — or, where
    /// the protocol says so ([`LinkProtocol::RECEIVE_AHEAD`]), for every token due in
    /// the engine's window, before the node's first step in it.
    fn receive(&mut self, now: Tick, port: PortId, token: P::Token) -> Result<(), ModelError>;

    /// Advances the node to tick `now`: it may move tokens internally and send tokens
    /// (into `out`). Returns the next tick at which it must run even if nothing arrives.
    /// A node of a [`LinkProtocol::RECEIVE_AHEAD`] protocol may instead run every tick
    /// up to [`Outbox::window_end`] in one step, and then returns a tick at or after it.
    fn step(&mut self, now: Tick, out: &mut Outbox<P::Token>) -> Result<Option<Tick>, ModelError>;

    /// Cumulative link counters of `port`, for the protocol's invariant check.
    fn port_counters(&self, port: PortId) -> P::Counters;

    /// What the node is waiting for, for deadlock diagnosis. Empty when it holds no
    /// packet.
    fn waits(&self) -> Vec<Wait>;

    /// The run checks its invariants (`--check`): keep whatever extra records the
    /// part's own checks need (a terminal's journey identity records). Called once,
    /// before the first tick; does nothing by default.
    fn enable_checks(&mut self) {}

    /// The plan has link faults (docs/architecture.md "Link faults"): tokens may be lost
    /// where a link dies. A part whose own checks would take what a dead link leaves
    /// behind (a packet cut short, an acknowledge that never comes) for a broken rule of
    /// its peers handles it as the fault's consequence instead, as its documentation
    /// says. Called once, before the first tick; does nothing by default.
    fn expect_link_faults(&mut self) {}

    /// The traffic statistics of the terminal this node hosts, if any.
    fn terminal_stats(&self) -> Option<&TerminalStats> {
        None
    }

    /// The node's terminal statistics at the end of a run, taken from the node (which
    /// is then dropped): a node that owns them hands them over instead of the copy the
    /// default makes, which on large networks costs as much as a lightly loaded run.
    fn into_terminal_stats(self: Box<Self>) -> Option<TerminalStats> {
        self.terminal_stats().cloned()
    }

    /// What the part measured about itself beyond its terminal's traffic (a switch
    /// fabric's credit queues, an adapter's credit underflows), if anything.
    fn part_stats(&self) -> Option<PartStats> {
        None
    }
}

/// The [`PartStats`] series of ticks each port's transmitter spent sending, indexed by
/// port: the report's link utilisation reads it from any part that has it. A DS-Link
/// counts the bit periods of its tokens, an SCI node its cycles with a symbol other than
/// an idle, a fabric part its packet cycles with a cell sent ([`crate::stats::links`]);
/// a port with no transmitter ([`crate::parts::Part::transmits`]) reports 0.
pub const WIRE_BITS: &str = "wire_bits";

/// Named series of counts a part reports about itself, for its family's section of the
/// report (e.g. a fabric switch's credits queued per input). The engines only collect
/// them, in node order; the family's report code knows what each name means.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartStats {
    /// (name, values) pairs, in the part's own order.
    pub series: Vec<(&'static str, Vec<u64>)>,
}

impl PartStats {
    /// The series called `name`, or an empty slice.
    pub fn get(&self, name: &str) -> &[u64] {
        self.series
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(&[], |(_, v)| v.as_slice())
    }
}
