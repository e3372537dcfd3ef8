//! What a stuck node is waiting for: the raw material of deadlock diagnosis
//! (docs/architecture.md "Deadlock").

use super::{PortId, Stamp};
use std::fmt;

/// Why a packet (or a port) cannot move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WaitReason {
    /// The packet's header has been routed to `output`, which another input holds.
    OutputHeld {
        /// The output it wants.
        output: PortId,
        /// The input currently connected to that output.
        holder: PortId,
        /// The packet that input is forwarding, if known.
        holder_packet: Option<Stamp>,
    },
    /// The packet is connected to `output` but that output's buffer is full.
    OutputFull {
        /// The output it is connected to.
        output: PortId,
    },
    /// Tokens are queued on this port's transmitter but the link protocol's flow control
    /// forbids sending them: the peer has granted no credit (DS-Link FCTs, INMOS ch. 6
    /// §6.2.1; for other protocols, their own stop signal).
    NoCredit,
    /// A data packet was sent and its acknowledge has not come back (INMOS ch. 6 §6.2.3).
    AwaitingAck,
    /// The header is still being received or routed.
    Routing,
    /// The input holds part of a packet (its header has gone on, or is half received)
    /// and waits for the rest of its tokens from the link. Adds no edge to the wait-for
    /// graph (the sender upstream is moving, or waits for something of its own); it
    /// matters when the input's link is dead, so that the rest can never come: then
    /// the packet is blocked by a link fault (docs/architecture.md "Link faults").
    /// Deadlock reports leave it out.
    Incomplete,
    /// A packet was sent and its acknowledge is overdue: past the bound within which it
    /// must come back on a live network (an SCI echo, SCI §2.1), so the packet or its
    /// acknowledge was lost on a dead link. Only parts that were told to expect link
    /// faults report it (docs/architecture.md "Link faults"); it adds no edge to the
    /// wait-for graph.
    AckOverdue,
}

/// One entry of a node's wait report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    /// Port concerned (input port for a blocked packet, output port for credit).
    pub port: PortId,
    /// The packet concerned, if any.
    pub packet: Option<Stamp>,
    /// Why it cannot move.
    pub reason: WaitReason,
}

impl fmt::Display for Wait {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "port {}: ", self.port)?;
        if let Some(p) = &self.packet {
            write!(f, "{} ", describe_packet(p))?;
        }
        match &self.reason {
            WaitReason::OutputHeld {
                output,
                holder,
                holder_packet,
            } => {
                write!(f, "waits for output {output}, held by input {holder}")?;
                if let Some(q) = holder_packet {
                    write!(f, " ({})", describe_packet(q))?;
                }
                Ok(())
            }
            WaitReason::OutputFull { output } => {
                write!(f, "is connected to output {output}, whose buffer is full")
            }
            WaitReason::NoCredit => write!(f, "has tokens to send but no credit from the peer"),
            WaitReason::AwaitingAck => write!(f, "waits for an acknowledge"),
            WaitReason::Routing => write!(f, "is being routed"),
            WaitReason::Incomplete => {
                write!(f, "holds part of a packet and waits for the rest of it")
            }
            WaitReason::AckOverdue => {
                write!(
                    f,
                    "waits for an acknowledge that is overdue and will not come"
                )
            }
        }
    }
}

/// "packet 3→17 (message 12, packet 0)" or "ack for …".
pub(crate) fn describe_packet(p: &Stamp) -> String {
    let what = if p.ack { "ack for packet" } else { "packet" };
    format!(
        "{what} {}→{} (message {}, packet {})",
        p.src, p.dst, p.seq, p.pkt
    )
}
