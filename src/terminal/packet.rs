//! The identity of a packet, carried beside it through every part: emulator metadata
//! that costs no wire time (it is how a real benchmark would timestamp its messages).
//! Statistics, conservation checks and deadlock diagnosis name packets by it, whatever
//! the link protocol that carries them.

use crate::time::Tick;

/// Emulator metadata carried by every token of a packet (no wire cost).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stamp {
    /// Terminal that created the message this packet belongs to.
    pub src: u32,
    /// Terminal the message is for.
    pub dst: u32,
    /// Message sequence number at the source (0, 1, 2, … per source terminal).
    pub seq: u32,
    /// Index of this packet within its message.
    pub pkt: u16,
    /// True for an acknowledge packet (INMOS ch. 6 §6.2.3); `src`/`dst`/`seq`/`pkt` then name
    /// the data packet it acknowledges.
    pub ack: bool,
    /// Tick the message was created at the source.
    pub created: Tick,
    /// Tick the message's first token started on the source's link.
    pub injected: Tick,
}
