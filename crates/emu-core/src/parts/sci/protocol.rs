//! The SCI link protocol (SCI §2.1-2.2): a 16-bit symbol on every link every 2 ns cycle,
//! whether it carries part of a send packet, part of an echo packet, or an idle whose go
//! bit is the ring's flow control. There is no link-level flow control ("messages are
//! guaranteed to be accepted by all nodes that they pass through", SCI §2): the only link
//! invariants are conservation and the ring buffer's bound.

use crate::model::protocol::conserved_runs;
use crate::model::{LinkProtocol, Violation};
use crate::time::Tick;

/// What one symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SymbolKind {
    /// An idle symbol; `go` set makes it a go-idle, clear a stop-idle (SCI §2.2).
    Idle {
        /// The go bit.
        go: bool,
    },
    /// Symbol `index` of a send packet of `len` symbols.
    Send,
    /// Symbol `index` of the 4-symbol echo of a send packet; `ack` false is a nack (the
    /// target's sink queue had no room, SCI §4.5).
    Echo {
        /// Accepted by the target.
        ack: bool,
    },
}

/// One 16-bit symbol on an SCI link. Packet symbols carry the packet's identity
/// (emulator metadata, no wire cost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Idle, send or echo.
    pub kind: SymbolKind,
    /// Node that sent the send packet (for an echo: the node it returns to).
    pub src: u32,
    /// Node the send packet is for (for an echo: the node that stripped it).
    pub dst: u32,
    /// The send packet's number at its source (0, 1, 2, …).
    pub seq: u32,
    /// Position of this symbol in its packet.
    pub index: u16,
    /// Symbols of the send packet (without its separator idle).
    pub len: u16,
    /// Tick the send packet was created at its source.
    pub created: Tick,
    /// A read request: its target answers it with a response packet (SCI §4.7).
    pub request: bool,
    /// On an echo's last symbol: the tick its send packet was delivered to the target
    /// (0 elsewhere), so that the source can record the packet's latency.
    pub delivered: Tick,
    /// Where the send packet's time went so far (emulator metadata, no wire cost).
    pub journey: SciJourney,
}

/// What a send packet's symbols carry of its journey (SCI §4.8's latency breakdown),
/// for the target to record: with its creation tick and the tick its last symbol is
/// consumed, these split its latency into source queue, idle-source wait, ring-buffer
/// delay and the fixed delay of its path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SciJourney {
    /// Cycles from its creation to its source beginning the transmission that reached
    /// the target (its first symbol on the link). 32 bits, like the waits, to keep the
    /// symbol small: every symbol of a packet carries it.
    pub source_wait: u32,
    /// Cycles it waited at the head of its source queue while the source was idle (not
    /// sending a source packet, not recovering, below its outstanding limit) for a
    /// passing packet to end, or, under flow control, for a go-idle (SCI §2.1-2.2, §4.8
    /// "Idle Source").
    pub idle_source: u32,
    /// Cycles this symbol spent in ring buffers on its way (SCI §2.1): the same for
    /// every symbol of a packet, which passes through a ring buffer whole or not at all.
    pub ring_buffer: u32,
}

impl Symbol {
    /// An idle symbol.
    pub const fn idle(go: bool) -> Symbol {
        Symbol {
            kind: SymbolKind::Idle { go },
            src: 0,
            dst: 0,
            seq: 0,
            index: 0,
            len: 0,
            created: 0,
            request: false,
            delivered: 0,
            journey: SciJourney {
                source_wait: 0,
                idle_source: 0,
                ring_buffer: 0,
            },
        }
    }

    /// Symbol `index` of the `len`-symbol send packet number `seq` from `src` to `dst`,
    /// created at tick 0, with an empty journey: for tests that drive parts by hand.
    #[cfg(test)]
    pub(crate) const fn send_for_test(
        src: u32,
        dst: u32,
        seq: u32,
        index: u16,
        len: u16,
    ) -> Symbol {
        Symbol {
            kind: SymbolKind::Send,
            src,
            dst,
            seq,
            index,
            len,
            ..Symbol::idle(false)
        }
    }

    /// True for an idle symbol.
    pub const fn is_idle(&self) -> bool {
        matches!(self.kind, SymbolKind::Idle { .. })
    }

    /// True for a go-idle.
    pub const fn is_go_idle(&self) -> bool {
        matches!(self.kind, SymbolKind::Idle { go: true })
    }

    /// True for the last symbol of its packet (send: `len − 1`; echo: 3).
    pub const fn is_last(&self) -> bool {
        match self.kind {
            SymbolKind::Idle { .. } => false,
            SymbolKind::Send => self.index + 1 == self.len,
            SymbolKind::Echo { .. } => self.index + 1 == ECHO_SYMBOLS,
        }
    }
}

/// Symbols of an echo packet: "Echo packets are 8 bytes long" (SCI §2.1), 16-bit symbols.
pub(crate) const ECHO_SYMBOLS: u16 = 4;

/// Most symbols one wire event carries: a window of the engines on a ring of one-cycle
/// links is three cycles (one on the wire, [`super::node::PARSE_CYCLES`] to parse).
pub const RUN_SYMBOLS: usize = 3;

/// The symbols a node output on its link in consecutive cycles, the first at the
/// token's tick and each next one a cycle later (SCI §2.1: one symbol per cycle): one
/// wire event for up to [`RUN_SYMBOLS`] cycles of the link. The link carries the same
/// symbols at the same ticks as one event a cycle would; a node sends its symbols of an
/// engine window together ([`crate::model::Outbox::window_end`]), and one at a time where
/// a link may fail (a fault cuts the link at a tick, not a run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbols {
    symbols: [Symbol; RUN_SYMBOLS],
    len: u8,
}

impl Default for Symbols {
    /// No symbols.
    fn default() -> Self {
        Symbols {
            symbols: [Symbol::idle(false); RUN_SYMBOLS],
            len: 0,
        }
    }
}

impl Symbols {
    /// One symbol alone.
    pub fn one(s: Symbol) -> Symbols {
        let mut run = Symbols::default();
        run.push(s);
        run
    }

    /// Appends `s`, output the cycle after the last one. The caller sends the run once
    /// it [`Symbols::is_full`].
    #[inline]
    pub fn push(&mut self, s: Symbol) {
        debug_assert!(!self.is_full(), "a run holds {RUN_SYMBOLS} symbols");
        if let Some(slot) = self.symbols.get_mut(usize::from(self.len)) {
            *slot = s;
            self.len += 1;
        }
    }

    /// The symbols, in the order they were output.
    #[inline]
    pub fn as_slice(&self) -> &[Symbol] {
        &self.symbols[..usize::from(self.len)]
    }

    /// How many symbols it holds.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True if it holds none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True if it holds [`RUN_SYMBOLS`].
    #[inline]
    pub fn is_full(&self) -> bool {
        usize::from(self.len) == RUN_SYMBOLS
    }
}

/// What one SCI port has counted since reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SciCounters {
    /// Symbols sent on this port.
    pub sent: u64,
    /// Symbols received on this port.
    pub received: u64,
    /// Wire events ([`Symbols`]) sent on this port.
    pub runs_sent: u64,
    /// Wire events ([`Symbols`]) received on this port.
    pub runs_received: u64,
    /// Symbols in the node's ring buffer now (counted at every port of the node).
    pub ring_buffer: u64,
    /// The ring buffer's capacity in symbols.
    pub ring_capacity: u64,
}

/// The SCI ring protocol (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sci;

impl LinkProtocol for Sci {
    type Token = Symbols;
    type Counters = SciCounters;
    const NAME: &'static str = "SCI";
    /// An SCI answer is an echo packet (SCI §2.1).
    const ANSWER: &'static str = "echo";
    /// The stripper has a symbol two cycles after it arrived (SCI §4: "two cycles to
    /// parse a symbol"), and nothing else in a node reads it before.
    const RECEIVE_DELAY: Tick = super::node::PARSE_CYCLES;
    /// A node keeps the symbols it is handed in its parse queue until the stripper
    /// has each ([`super::node::PARSE_CYCLES`] after its arrival).
    const RECEIVE_AHEAD: bool = true;

    fn sent(c: &SciCounters) -> u64 {
        c.sent
    }

    /// The first symbol's view; [`LinkProtocol::views`] gives every symbol's.
    fn view(token: &Symbols) -> crate::model::TokenView {
        token
            .as_slice()
            .first()
            .map_or(crate::model::TokenView::OPAQUE, super::view::view)
    }

    /// Each symbol's view, a cycle apart.
    fn views(token: &Symbols, mut f: impl FnMut(Tick, crate::model::TokenView)) {
        for (i, s) in (0..).zip(token.as_slice()) {
            f(i, super::view::view(s));
        }
    }

    /// Never: a source keeps each send packet in its active buffer until the echo
    /// comes back (SCI §2.1), and counts it in flight until then, so a packet or echo
    /// lost on a dead link leaves the packet held there, blocked, not lost.
    fn loses_packet(_token: &Symbols) -> bool {
        false
    }

    fn gauges(counters: &SciCounters, out: &mut Vec<crate::model::Gauge>) {
        super::view::gauges(counters, out);
    }

    fn check_direction(
        a: &SciCounters,
        b: &SciCounters,
        in_flight_ab: u64,
        _in_flight_ba: u64,
    ) -> Result<(), Violation> {
        // The engine holds wire events, each of one to RUN_SYMBOLS symbols.
        conserved_runs(
            (a.sent, a.runs_sent),
            (b.received, b.runs_received),
            in_flight_ab,
            Some(RUN_SYMBOLS as u64),
            "symbols",
        )?;
        if b.ring_buffer > b.ring_capacity {
            return Err(Violation(format!(
                "the receiver's ring buffer holds {} symbols, more than its {}",
                b.ring_buffer, b.ring_capacity
            )));
        }
        Ok(())
    }

    /// An SCI node outputs a symbol every cycle and never refuses one, so no wait is
    /// permanent: a ring can starve a node but not deadlock (SCI §2).
    fn blocked_for_good(_tx: &SciCounters, _rx: &SciCounters) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_sees_lost_symbols_and_an_overfull_ring_buffer() {
        // 10 symbols sent in 5 runs; 8 received in 4: one run of 2 on the wire.
        let a = SciCounters {
            sent: 10,
            runs_sent: 5,
            ..Default::default()
        };
        let b = SciCounters {
            received: 8,
            runs_received: 4,
            ring_buffer: 3,
            ring_capacity: 9,
            ..Default::default()
        };
        assert_eq!(Sci::check_direction(&a, &b, 1, 0), Ok(()));
        assert!(
            Sci::check_direction(&a, &b, 2, 0).is_err(),
            "one run duplicated"
        );
        let lost = SciCounters { sent: 14, ..a };
        assert!(
            Sci::check_direction(&lost, &b, 1, 0).is_err(),
            "6 symbols cannot be in one run"
        );
        let dup = SciCounters { received: 11, ..b };
        assert!(Sci::check_direction(&a, &dup, 1, 0).is_err());
        let over = SciCounters {
            ring_buffer: 10,
            ..b
        };
        assert!(Sci::check_direction(&a, &over, 1, 0).is_err());
    }

    #[test]
    fn a_run_holds_its_symbols_in_order() {
        let mut run = Symbols::default();
        assert!(run.is_empty());
        for i in 0..RUN_SYMBOLS as u16 {
            assert!(!run.is_full());
            run.push(Symbol::send_for_test(0, 1, 0, i, 8));
        }
        assert!(run.is_full() && run.len() == RUN_SYMBOLS);
        let order: Vec<u16> = run.as_slice().iter().map(|s| s.index).collect();
        assert_eq!(order, [0, 1, 2]);
        let mut views = Vec::new();
        Sci::views(&run, |offset, v| views.push((offset, v.value)));
        assert_eq!(
            views,
            [(0, 1), (1, 1), (2, 2)],
            "the first names its target"
        );
        assert_eq!(Sci::view(&run).value, 1);
    }

    #[test]
    fn a_packet_ends_at_its_last_symbol() {
        let mut s = Symbol {
            kind: SymbolKind::Send,
            len: 8,
            index: 7,
            ..Symbol::idle(false)
        };
        assert!(s.is_last());
        s.index = 6;
        assert!(!s.is_last());
        s.kind = SymbolKind::Echo { ack: true };
        s.index = 3;
        assert!(s.is_last());
        assert!(Symbol::idle(true).is_go_idle() && !Symbol::idle(false).is_go_idle());
    }
}
