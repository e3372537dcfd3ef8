//! The hardware layer: one plain synchronous state machine per hardware part.
//!
//! Nothing here knows about tasks, channels or threads (../shared/DESIGN.md "Layers").
//! An engine hands a [`Node`] the tokens that arrived on its ports at tick `now`
//! ([`Node::receive`], in port order, FIFO per port), then calls [`Node::step`], which
//! pushes the tokens the node sends into an [`Outbox`] and returns when the node next
//! needs to run on its own. Every rule is unit-tested by driving ticks by hand.
//!
//! Engine nodes are chip-level parts that own their DS-Link endpoints: a [`c104::C104`]
//! switch owns one [`dslink::Endpoint`] per link, and a [`processor::Processor`] (a
//! T9000) owns a [`vcp::Vcp`] with its endpoint and the [`terminal::Terminal`] process
//! that sources and sinks traffic. Inside a chip there is no wire and no protocol, so
//! splitting these into separate actors would add latency and credit exchanges the
//! hardware does not have.

pub mod c104;
pub mod dslink;
pub mod processor;
pub mod terminal;
pub mod token;
pub mod vcp;
pub mod wait;

use crate::stats::TerminalStats;
use crate::time::Tick;
pub use token::{Stamp, Token, TokenKind};
pub use wait::{Wait, WaitReason};

/// Index of a port (a link attachment) on a node.
pub type PortId = usize;

/// One token handed to the engine for sending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Emit {
    /// Port the token leaves on.
    pub port: PortId,
    /// The token.
    pub token: Token,
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
    /// Messages created that the run must see delivered before it may end.
    pub obligations_opened: u64,
    /// Of those, messages delivered.
    pub obligations_closed: u64,
    /// Messages delivered (any), for progress display.
    pub messages_delivered: u64,
}

impl Activity {
    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &Activity) {
        self.tokens_moved += other.tokens_moved;
        self.packets_injected += other.packets_injected;
        self.packets_ejected += other.packets_ejected;
        self.obligations_opened += other.obligations_opened;
        self.obligations_closed += other.obligations_closed;
        self.messages_delivered += other.messages_delivered;
    }
}

/// Where a node puts what it sends during one [`Node::step`].
#[derive(Debug, Default)]
pub struct Outbox {
    /// Tokens to send, in the order they were produced.
    pub emits: Vec<Emit>,
    /// Progress counters accumulated since the engine last cleared them.
    pub activity: Activity,
}

impl Outbox {
    /// Queues `token` on `port`, fully transmitted at tick `at`.
    pub fn send(&mut self, port: PortId, token: Token, at: Tick) {
        self.emits.push(Emit { port, token, at });
    }
}

/// A rule of the hardware was broken: the run cannot go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// Credit flow control failed: a token arrived with no credit granted for it, or a
    /// buffer overflowed (000_e95d114b48e985aa.txt §6.2.1: the credit a receiver issues
    /// must never exceed its free buffer space).
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

/// Cumulative counters of one DS-Link endpoint, for the global credit check.
///
/// For a link direction A→B, with in-flight counts taken from the engine's channel:
/// A's credit + data tokens in flight A→B + 8 × FCTs in flight B→A + tokens in B's
/// buffer ≤ B's capacity (../shared/DESIGN.md "Flow control is modelled, not assumed";
/// 000 §6.2.1 "input.cap.0 + #0.id ≥ #(1.ot⌈F) × bsize").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortCounters {
    /// Flow-controlled tokens sent.
    pub flow_sent: u64,
    /// FCTs sent.
    pub fct_sent: u64,
    /// Flow-controlled tokens received.
    pub flow_received: u64,
    /// FCTs received.
    pub fct_received: u64,
    /// Tokens this end may still send (output credit).
    pub credit: u64,
    /// Tokens held in this end's input buffer.
    pub occupied: u64,
    /// This end's input buffer capacity in tokens.
    pub capacity: u64,
    /// Tokens of credit per FCT.
    pub batch: u64,
    /// FCTs this end has decided to send but not yet sent: credit already granted for
    /// free buffer space (000_e95d114b48e985aa.txt §6.2.1), still to go on the wire.
    pub fct_owed: u64,
}

/// A hardware part as the engine sees it.
pub trait Node: Send {
    /// Delivers `token`, which arrived on `port` at tick `now`. Called for every token
    /// due at `now`, in port order and FIFO per port, before [`Node::step`].
    fn receive(&mut self, now: Tick, port: PortId, token: Token) -> Result<(), ModelError>;

    /// Advances the node to tick `now`: it may move tokens internally and send tokens
    /// (into `out`). Returns the next tick at which it must run even if nothing arrives.
    fn step(&mut self, now: Tick, out: &mut Outbox) -> Result<Option<Tick>, ModelError>;

    /// Cumulative link counters of `port`, for the credit invariant check.
    fn port_counters(&self, port: PortId) -> PortCounters;

    /// What the node is waiting for, for deadlock diagnosis. Empty when it holds no
    /// packet.
    fn waits(&self) -> Vec<Wait>;

    /// The traffic statistics of the terminal this node hosts, if any.
    fn terminal_stats(&self) -> Option<&TerminalStats> {
        None
    }
}
