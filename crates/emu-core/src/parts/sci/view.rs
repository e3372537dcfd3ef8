//! How an observer sees an SCI symbol (book/src/observing.md): one 2 ns cycle on the
//! link, its kind (idle, send, echo), and on a packet's first symbol the packet with
//! its waits so far (SCI §4.8's breakdown: idle source, ring buffer).
//!
//! emu models which packet a symbol belongs to, not the packet's bits, so the value a
//! waveform shows is what the model has: a first symbol carries its target's node id
//! (as SCI §2.1's first symbol carries the target id), a later one its position in the
//! packet, an idle its go bit.

use super::protocol::{SciCounters, Symbol, SymbolKind};
use crate::model::{Gauge, PacketId, PacketTag, TokenView};

/// Kind codes of SCI symbols in a waveform's decoded kind signal.
const STOP_IDLE: u8 = 1;
const GO_IDLE: u8 = 2;
const SEND: u8 = 3;
const ECHO: u8 = 4;
const NACK: u8 = 5;

/// How an observer sees `s`.
pub(crate) fn view(s: &Symbol) -> TokenView {
    let (kind, code) = match s.kind {
        SymbolKind::Idle { go: false } => ("stop-idle", STOP_IDLE),
        SymbolKind::Idle { go: true } => ("go-idle", GO_IDLE),
        SymbolKind::Send => ("send", SEND),
        SymbolKind::Echo { ack: true } => ("echo", ECHO),
        SymbolKind::Echo { ack: false } => ("nack", NACK),
    };
    let packet = !s.is_idle();
    let value = match s.kind {
        SymbolKind::Idle { go } => u64::from(go),
        SymbolKind::Send if s.index == 0 => u64::from(s.dst),
        SymbolKind::Echo { .. } if s.index == 0 => u64::from(s.src),
        _ => u64::from(s.index),
    };
    TokenView {
        kind,
        code,
        ticks: 1,
        value: value & 0xFFFF,
        starts: (packet && s.index == 0).then_some(PacketTag {
            id: PacketId {
                src: s.src,
                dst: s.dst,
                seq: s.seq,
                pkt: 0,
                answer: matches!(s.kind, SymbolKind::Echo { .. }),
            },
            created: s.created,
            waits: [
                ("idle source", s.journey.idle_source),
                ("ring buffer", s.journey.ring_buffer),
            ],
            origin: "source queue",
            transit: "bypass",
        }),
        ends: s.is_last(),
    }
}

/// The symbols in the node's ring buffer (SCI §2.1).
pub(crate) fn gauges(c: &SciCounters, out: &mut Vec<Gauge>) {
    out.push(("ring buffer", c.ring_buffer));
}
