//! What an observer sees of a token, in terms no engine or writer has to learn per
//! protocol: its kind, its time on the wire, its value, and, on a packet's first token,
//! which packet it starts and how long that packet has waited so far
//! (book/src/observing.md). A link protocol says how its tokens look
//! ([`crate::model::LinkProtocol::view`]); the observer ([`crate::observe`]) turns what
//! it sees into packet hops, link waveforms and counters.

use crate::time::Tick;

/// One token as an observer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenView {
    /// Its kind, lower case, as waveforms and traces name it ("data", "eop", "fct";
    /// "idle", "send", "echo"; "packet", "credit").
    pub kind: &'static str,
    /// Its kind as a small number from 1, the same for the same `kind` (a waveform's
    /// decoded kind signal, which reads 0 while nothing is sent).
    pub code: u8,
    /// Ticks it takes on the wire: it starts `ticks` before the tick its last bit leaves.
    pub ticks: Tick,
    /// What it carries (a data byte, a 16-bit symbol's packet position, a cell's
    /// output), for waveforms.
    pub value: u64,
    /// Set on the first token of a packet: which packet it starts.
    pub starts: Option<PacketTag>,
    /// True on the last token of a packet (a DS-Link terminator, an SCI packet's last
    /// symbol, a fabric packet cell).
    pub ends: bool,
}

impl TokenView {
    /// A token the protocol says nothing about: kind "token", one tick, no packet.
    pub const OPAQUE: TokenView = TokenView {
        kind: "token",
        code: 0,
        ticks: 1,
        value: 0,
        starts: None,
        ends: false,
    };
}

/// Which packet a token belongs to, the same at every hop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PacketId {
    /// Terminal (label) that created the message, or, for an acknowledge or an echo,
    /// the one that created the packet it answers.
    pub src: u32,
    /// Terminal the message is for.
    pub dst: u32,
    /// The message's (or SCI packet's, or fabric flow's) sequence number at `src`.
    pub seq: u32,
    /// The packet's index within its message.
    pub pkt: u16,
    /// True for an answer travelling back (a DS-Link acknowledge, an SCI echo).
    pub answer: bool,
}

impl PacketId {
    /// The terminal this packet is travelling to.
    pub fn to(&self) -> u32 {
        if self.answer { self.src } else { self.dst }
    }

    /// A short name: `3→7 #12.0`, with ` ack` for an answer.
    pub fn name(&self) -> String {
        self.name_as("ack")
    }

    /// A short name: `3→7 #12.0`, with the protocol's word for an answer after it
    /// (`3→7 #12.0 echo`; [`super::LinkProtocol::ANSWER`]).
    pub fn name_as(&self, answer: &str) -> String {
        let mut name = format!("{}→{} #{}.{}", self.src, self.dst, self.seq, self.pkt);
        if self.answer {
            name.push(' ');
            name.push_str(answer);
        }
        name
    }
}

/// What a packet's first token carries of the packet, for an observer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacketTag {
    /// The packet.
    pub id: PacketId,
    /// Tick its message was created (where its time at the source starts).
    pub created: Tick,
    /// The packet's cumulative waits so far, as its journey record counts them, named
    /// (an empty name is unused): the difference between two hops is what the node in
    /// between added.
    pub waits: [(&'static str, u32); 2],
    /// What the time at the source before the waits is called ("source queue", "VOQ").
    pub origin: &'static str,
    /// What the time at any other node before the waits is called ("route", "bypass").
    pub transit: &'static str,
}

/// A value a port's counters hold that a timeline draws as a counter ("credit",
/// "buffered").
pub type Gauge = (&'static str, u64);

/// How a protocol's tokens travel as levels on its wires, bit by bit (a DS-Link's data
/// and strobe lines). Stateful: a token's bits may depend on the one before (parity),
/// and the lines' levels on the last bit sent.
pub trait LineCode: Send {
    /// The wires' names, in the order [`LineCode::levels`] gives them.
    fn wires(&self) -> &'static [&'static str];

    /// The bits of `view`, first bit first; its length is `view.ticks`.
    fn token(&mut self, view: &TokenView) -> Vec<bool>;

    /// The bits of one idle unit (a DS-Link null token); the line repeats it while
    /// nothing else is sent.
    fn idle(&mut self) -> Vec<bool>;

    /// Ticks one idle unit takes (the length of [`LineCode::idle`]'s bits).
    fn idle_ticks(&self) -> Tick;

    /// The wires' levels while `bit` is on the line (called once per bit, in order).
    fn levels(&mut self, bit: bool) -> Vec<bool>;
}

#[cfg(test)]
mod tests {
    use super::PacketId;

    #[test]
    fn an_answer_is_named_in_its_protocols_word() {
        let mut p = PacketId {
            src: 3,
            dst: 7,
            seq: 12,
            pkt: 0,
            answer: false,
        };
        assert_eq!(p.name_as("echo"), "3→7 #12.0");
        p.answer = true;
        assert_eq!(p.name(), "3→7 #12.0 ack");
        assert_eq!(p.name_as("echo"), "3→7 #12.0 echo");
    }
}
