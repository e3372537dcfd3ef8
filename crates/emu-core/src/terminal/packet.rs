//! The identity of a packet, carried beside it through every part: emulator metadata
//! that costs no wire time (it is how a real benchmark would timestamp its messages).
//! Statistics, conservation checks and deadlock diagnosis name packets by it, whatever
//! the link protocol that carries them.

use crate::time::Tick;

/// Emulator metadata that names a packet, carried by its first token (no wire cost).
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

/// Where a packet's time went on its way, as the switches it crosses measure it: the
/// journey record Proteus appends to a message (Proteus §MTime:
/// time in the network input queues, time in the output queues, hops taken). Carried
/// by the packet's first token; every switch adds its own waits when that token
/// leaves it (see [`crate::parts::c104`]). Emulator metadata: no wire cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Journey {
    /// Ticks the packet's header waited at switch inputs beyond the time its header
    /// takes to arrive and be routed: for its output to come free, and for the
    /// packets before it on the same input.
    pub input_wait: u32,
    /// Ticks its first token waited at switch outputs from the grant to starting on
    /// the link: for the tokens ahead of it, for credit, for the null token in
    /// progress on an idle link.
    pub output_wait: u32,
    /// Switches crossed.
    pub hops: u16,
}

impl Journey {
    /// This journey with one more switch crossed, having waited `input` and `output`
    /// ticks there. Sums saturate (a wait of 2^32 ticks, 43 s of a 100 Mbit/s link,
    /// would show as the maximum); [`Journey::saturated`] tells.
    pub fn crossed(self, input: Tick, output: Tick) -> Journey {
        let add = |sum: u32, v: Tick| sum.saturating_add(u32::try_from(v).unwrap_or(u32::MAX));
        Journey {
            input_wait: add(self.input_wait, input),
            output_wait: add(self.output_wait, output),
            hops: self.hops.saturating_add(1),
        }
    }

    /// True if a sum reached its type's maximum, so the record is not exact.
    pub fn saturated(&self) -> bool {
        self.input_wait == u32::MAX || self.output_wait == u32::MAX || self.hops == u16::MAX
    }
}

/// A data packet's arrival at its destination terminal, as the terminal's link
/// interface saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// Tick its terminator arrived.
    pub at: Tick,
    /// The journey its first token carried.
    pub journey: Journey,
    /// Ticks from its first token starting on the last link to its terminator
    /// arriving, less the wire's latency: the time its tokens took to cross the last
    /// link (uncontended: back to back).
    pub transfer: Tick,
}
