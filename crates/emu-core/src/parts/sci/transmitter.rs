//! The transmitter stage of an SCI node (SCI §2.1-2.2, Figure 1): each cycle it puts one
//! symbol on the output link, from the stripper, from the source packet being sent, or
//! from the ring (bypass) buffer, and it carries out go-bit flow control.
//!
//! Decisions where SCI leaves a choice (all written down in the part's documentation):
//! - A source packet may start in the cycle right after the transmitter *output* a
//!   go-idle, when the stripper is not in the middle of a passing packet (SCI §2.2: "A
//!   node may *only* transmit a source packet immediately following a go-idle"; §2.1:
//!   not while "transmitting a packet from the stripper"). If a passing packet's first
//!   symbol arrives in that cycle, the source packet goes first and the passing packet
//!   into the ring buffer (§2.1).
//! - The saved go bit is the OR of the go bits of every idle the stripper hands over from
//!   the start of a source transmission to the postpended idle that releases it.
//! - The ring buffer stores passing packet symbols and one separator idle after each
//!   packet; further idles are not stored (their go bits enter the saved OR), so the
//!   buffer drains in gaps (§2.1). A stored separator is sent as a stop-idle, except the
//!   last one of a recovery stage, which is the postpending idle that releases the saved
//!   go bit (§2.2).

use super::protocol::Symbol;
use crate::time::Tick;
use std::collections::VecDeque;

/// What the transmitter is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Passing the stripper's symbols straight to the output link.
    Pass,
    /// Sending a source packet; `next` symbols of it have gone.
    Source {
        /// Symbols already sent.
        next: u16,
    },
    /// The source packet has gone; its postpended idle goes now.
    Postpend,
    /// Draining the ring buffer before another source packet may go (§2.1).
    Recovery,
}

/// The transmitter's state.
#[derive(Clone, Debug)]
pub(crate) struct Transmitter {
    /// What it is doing.
    pub mode: Mode,
    /// The ring (bypass) buffer, each symbol with the tick it went in (to add its stay
    /// to its [`super::SciJourney::ring_buffer`]).
    ring: VecDeque<(Tick, Symbol)>,
    /// Most symbols the ring buffer holds.
    pub ring_capacity: usize,
    /// The inclusive OR of the go bits received during transmission and recovery.
    saved_go: bool,
    /// The last symbol output was a go-idle.
    last_go_idle: bool,
    /// The stripper's last symbol handed over was a packet symbol that was not its
    /// packet's last: a passing packet is going through.
    mid_packet: bool,
    /// Go bits are honoured: a source packet may start only after a go-idle. Off, it may
    /// start whenever the ring buffer is empty and no passing packet is going through.
    flow_control: bool,
}

/// What the transmitter asks of the source queue in a cycle.
pub trait Source {
    /// A packet (its symbol count) may start now, if the source has one ready.
    fn ready(&mut self) -> Option<u16>;
    /// Symbol `index` of the packet being sent.
    fn symbol(&mut self, index: u16) -> Symbol;
}

impl Transmitter {
    /// An idle transmitter whose ring buffer holds `ring_capacity` symbols, with or
    /// without go-bit flow control. At reset the ring is quiet, so the transmitter
    /// counts as having just sent a go-idle.
    pub fn new(ring_capacity: usize, flow_control: bool) -> Transmitter {
        Transmitter {
            mode: Mode::Pass,
            ring: VecDeque::with_capacity(ring_capacity),
            ring_capacity,
            saved_go: false,
            last_go_idle: true,
            mid_packet: false,
            flow_control,
        }
    }

    /// Symbols in the ring buffer.
    pub(crate) fn ring_len(&self) -> usize {
        self.ring.len()
    }

    /// Takes `s` from the stripper at tick `now` while the output is busy: packet
    /// symbols (and one separator idle after a packet) into the ring buffer, idles' go
    /// bits into the OR. Returns false if the ring buffer overflowed.
    #[inline]
    fn absorb(&mut self, now: Tick, s: Symbol) -> bool {
        if s.is_idle() {
            self.saved_go |= s.is_go_idle();
            if self.ring.back().is_some_and(|(_, b)| !b.is_idle()) {
                self.ring.push_back((now, Symbol::idle(false)));
            }
        } else {
            self.ring.push_back((now, s));
        }
        self.ring.len() <= self.ring_capacity
    }

    /// The ring buffer's oldest symbol, leaving at tick `now`, with its stay added to
    /// its journey.
    #[inline]
    fn release(&mut self, now: Tick) -> Option<Symbol> {
        let (entered, mut s) = self.ring.pop_front()?;
        if !s.is_idle() {
            let stay = u32::try_from(now.saturating_sub(entered)).unwrap_or(u32::MAX);
            s.journey.ring_buffer = s.journey.ring_buffer.saturating_add(stay);
        }
        Some(s)
    }

    /// In [`Mode::Pass`], a source packet may start this cycle if the source has one
    /// ready: the last symbol output was a go-idle (or flow control is off) and no
    /// passing packet is going through (module documentation).
    #[inline]
    pub fn may_start(&self) -> bool {
        (self.last_go_idle || !self.flow_control) && !self.mid_packet
    }

    /// [`Self::cycle`] when it passes `s` straight to the output link: the transmitter
    /// is in [`Mode::Pass`] and no source packet starts (the source has none ready, or
    /// [`Self::may_start`] is false). The caller outputs `s`.
    #[inline]
    pub fn pass(&mut self, s: &Symbol) {
        debug_assert!(self.mode == Mode::Pass);
        self.mid_packet = !s.is_idle() && !s.is_last();
        self.last_go_idle = s.is_go_idle();
    }

    /// One cycle, at tick `now`: `s` is the stripper's symbol. Returns the symbol output
    /// on the link, or `None` if the ring buffer overflowed (a model error: its capacity
    /// is too small).
    #[cfg(test)]
    pub fn cycle(&mut self, now: Tick, s: Symbol, source: &mut impl Source) -> Option<Symbol> {
        let mut s = s;
        self.cycle_in_place(now, &mut s, source).then_some(s)
    }

    /// [`Self::cycle`] on the stripper's symbol in `sym`, which becomes the symbol output
    /// on the link. Returns false if the ring buffer overflowed (`sym` is then
    /// unspecified).
    #[inline]
    pub fn cycle_in_place(
        &mut self,
        now: Tick,
        sym: &mut Symbol,
        source: &mut impl Source,
    ) -> bool {
        let s = *sym;
        let passing_continues = self.mid_packet;
        self.mid_packet = !s.is_idle() && !s.is_last();
        let out = match self.mode {
            Mode::Pass => {
                let may_start = (self.last_go_idle || !self.flow_control) && !passing_continues;
                match may_start.then(|| source.ready()).flatten() {
                    Some(len) => {
                        self.saved_go = false;
                        if !self.absorb(now, s) {
                            return false;
                        }
                        self.mode = if len > 1 {
                            Mode::Source { next: 1 }
                        } else {
                            Mode::Postpend
                        };
                        source.symbol(0)
                    }
                    None => s,
                }
            }
            Mode::Source { next } => {
                if !self.absorb(now, s) {
                    return false;
                }
                let sym = source.symbol(next);
                self.mode = if sym.is_last() {
                    Mode::Postpend
                } else {
                    Mode::Source { next: next + 1 }
                };
                sym
            }
            Mode::Postpend => {
                if !self.absorb(now, s) {
                    return false;
                }
                if self.ring.is_empty() {
                    self.mode = Mode::Pass;
                    Symbol::idle(self.saved_go)
                } else {
                    self.mode = Mode::Recovery;
                    Symbol::idle(false)
                }
            }
            Mode::Recovery => {
                // The head leaves before the stripper's symbol comes in, so the buffer
                // never holds more than it did when recovery began. If the buffer was
                // empty, the stripper's symbol goes straight through it.
                let head = self.release(now);
                if !self.absorb(now, s) {
                    return false;
                }
                match head.or_else(|| self.release(now)) {
                    Some(h) if !h.is_idle() => h,
                    Some(_) if !self.ring.is_empty() => Symbol::idle(false),
                    // The ring buffer is drained: this idle is the postpending idle that
                    // releases the saved go bit (§2.2).
                    Some(_) | None => {
                        self.mode = Mode::Pass;
                        Symbol::idle(self.saved_go)
                    }
                }
            }
        };
        self.last_go_idle = out.is_go_idle();
        *sym = out;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parts::sci::protocol::{SciJourney, SymbolKind};

    /// One packet of `len` symbols, ready once `ready` is set.
    struct One {
        /// The tick of the last cycle fed.
        clock: Tick,
        len: u16,
        ready: bool,
    }

    impl Source for One {
        fn ready(&mut self) -> Option<u16> {
            self.ready.then_some(self.len)
        }
        fn symbol(&mut self, index: u16) -> Symbol {
            if index + 1 == self.len {
                self.ready = false;
            }
            Symbol {
                kind: SymbolKind::Send,
                src: 0,
                dst: 1,
                seq: 0,
                index,
                len: self.len,
                created: 0,
                request: false,
                delivered: 0,
                journey: SciJourney::default(),
            }
        }
    }

    proptest::proptest! {
        /// The short path ([`Transmitter::pass`], taken in pass mode when no source
        /// packet starts) outputs what the full cycle outputs and leaves the
        /// transmitter in the same state, with or without flow control, on any mix of
        /// idles, passing packets and source packets becoming ready.
        #[test]
        fn the_short_path_matches_the_full_cycle(
            flow_control in proptest::bool::ANY,
            picks in proptest::collection::vec((0u8..4, proptest::bool::ANY), 1..200)
        ) {
            let (mut full, mut short) =
                (Transmitter::new(9, flow_control), Transmitter::new(9, flow_control));
            let one = || One { clock: 0, len: 3, ready: false };
            let (mut src_full, mut src_short) = (one(), one());
            let mut packet: Vec<Symbol> = Vec::new();
            for (pick, go) in picks {
                if pick == 0 && !src_full.ready {
                    src_full.ready = true;
                    src_short.ready = true;
                }
                let s = match packet.pop() {
                    Some(s) => s,
                    None if pick == 1 => {
                        packet = (0..4).rev().map(|i| passing(i, 4)).collect();
                        packet.pop().expect("a packet")
                    }
                    None => Symbol::idle(go),
                };
                src_full.clock += 1;
                src_short.clock += 1;
                let a = full.cycle(src_full.clock, s, &mut src_full);
                let b = if short.mode == Mode::Pass
                    && !(short.may_start() && src_short.ready)
                {
                    short.pass(&s);
                    Some(s)
                } else {
                    short.cycle(src_short.clock, s, &mut src_short)
                };
                proptest::prop_assert_eq!(a, b);
                proptest::prop_assert_eq!(
                    (full.mode, full.mid_packet, full.last_go_idle, full.saved_go, full.ring_len()),
                    (short.mode, short.mid_packet, short.last_go_idle, short.saved_go, short.ring_len())
                );
            }
        }
    }

    fn passing(index: u16, len: u16) -> Symbol {
        Symbol::send_for_test(5, 6, 1, index, len)
    }

    /// Runs `inputs` through `tx`; returns the outputs.
    fn feed(tx: &mut Transmitter, src: &mut One, inputs: &[Symbol]) -> Vec<Symbol> {
        inputs
            .iter()
            .map(|&s| {
                src.clock += 1;
                tx.cycle(src.clock, s, src).expect("no overflow")
            })
            .collect()
    }

    #[test]
    fn with_flow_control_a_packet_starts_only_after_a_go_idle() {
        let mut tx = Transmitter::new(9, true);
        let mut src = One {
            clock: 0,
            len: 4,
            ready: false,
        };
        // The ring sends stop-idles: they pass, and the ready packet waits.
        feed(&mut tx, &mut src, &[Symbol::idle(false)]);
        src.ready = true;
        let out = feed(
            &mut tx,
            &mut src,
            &[Symbol::idle(false), Symbol::idle(true)],
        );
        assert_eq!(out, vec![Symbol::idle(false), Symbol::idle(true)]);
        // The go-idle just went out: the packet takes the next slot.
        let out = feed(&mut tx, &mut src, &[Symbol::idle(false); 5]);
        let kinds: Vec<_> = out.iter().map(|s| (s.kind, s.index)).collect();
        assert_eq!(kinds[0], (SymbolKind::Send, 0));
        assert_eq!(kinds[3], (SymbolKind::Send, 3));
        // Only stop-idles came in during the packet: the postpended idle is a stop-idle.
        assert_eq!(out[4], Symbol::idle(false));
        // Without flow control it would have gone at once.
        let mut tx = Transmitter::new(9, false);
        let mut src = One {
            clock: 0,
            len: 4,
            ready: true,
        };
        tx.last_go_idle = false;
        let out = feed(&mut tx, &mut src, &[Symbol::idle(false)]);
        assert_eq!(out[0].kind, SymbolKind::Send);
    }

    #[test]
    fn the_postpended_idle_carries_the_or_of_the_go_bits_received() {
        let mut tx = Transmitter::new(9, true);
        let mut src = One {
            clock: 0,
            len: 3,
            ready: true,
        };
        let ins = [
            Symbol::idle(false),
            Symbol::idle(true),
            Symbol::idle(false),
            Symbol::idle(false),
        ];
        let out = feed(&mut tx, &mut src, &ins);
        assert_eq!(
            out[3],
            Symbol::idle(true),
            "a go bit was received during the packet"
        );
        assert_eq!(tx.mode, Mode::Pass);
    }

    #[test]
    fn a_nodes_own_postpended_go_idle_licenses_its_next_packet() {
        let mut tx = Transmitter::new(9, true);
        let mut src = One {
            clock: 0,
            len: 2,
            ready: true,
        };
        // Packet, then a postpended go-idle (a go bit came in during the packet).
        let out = feed(
            &mut tx,
            &mut src,
            &[Symbol::idle(true), Symbol::idle(true), Symbol::idle(false)],
        );
        assert_eq!(out[2], Symbol::idle(true), "the saved go bit is released");
        // The next packet follows that go-idle at once, though only stop-idles come in.
        src.ready = true;
        let out = feed(
            &mut tx,
            &mut src,
            &[
                Symbol::idle(false),
                Symbol::idle(false),
                Symbol::idle(false),
            ],
        );
        assert_eq!((out[0].kind, out[0].index), (SymbolKind::Send, 0));
        // No go bit came in during it: the postpended idle is a stop-idle, and a third
        // packet would have to wait for a go-idle to pass.
        assert_eq!(out[2], Symbol::idle(false));
        src.ready = true;
        let out = feed(
            &mut tx,
            &mut src,
            &[Symbol::idle(false), Symbol::idle(true), Symbol::idle(false)],
        );
        assert_eq!(out[..2], [Symbol::idle(false), Symbol::idle(true)]);
        assert_eq!((out[2].kind, out[2].index), (SymbolKind::Send, 0));
    }

    #[test]
    fn a_passing_packet_waits_in_the_ring_buffer_and_recovery_sends_stop_idles() {
        let mut tx = Transmitter::new(9, true);
        let mut src = One {
            clock: 0,
            len: 3,
            ready: true,
        };
        // A 2-symbol passing packet arrives with the source packet's first symbol: the
        // source goes first (SCI §2.1) and the passing packet is buffered.
        let mut ins = vec![passing(0, 2), passing(1, 2), Symbol::idle(true)];
        ins.extend([Symbol::idle(false); 4]);
        let out = feed(&mut tx, &mut src, &ins);
        let kinds: Vec<_> = out.iter().map(|s| (s.kind, s.src, s.index)).collect();
        assert_eq!(
            kinds[0..3],
            [
                (SymbolKind::Send, 0, 0),
                (SymbolKind::Send, 0, 1),
                (SymbolKind::Send, 0, 2)
            ]
        );
        // The buffer filled, so the postpended idle is a stop-idle and recovery drains
        // the passing packet, then releases the saved go bit (a go-idle came in).
        assert_eq!(out[3], Symbol::idle(false));
        assert_eq!(
            kinds[4..6],
            [(SymbolKind::Send, 5, 0), (SymbolKind::Send, 5, 1)]
        );
        assert_eq!(
            out[6],
            Symbol::idle(true),
            "the postpending idle releases the saved go bit"
        );
        assert_eq!(tx.mode, Mode::Pass);
        assert_eq!(tx.ring_len(), 0);
    }

    #[test]
    fn no_source_packet_starts_inside_a_passing_packet() {
        let mut tx = Transmitter::new(9, true);
        let mut src = One {
            clock: 0,
            len: 3,
            ready: false,
        };
        feed(&mut tx, &mut src, &[Symbol::idle(true), passing(0, 3)]);
        src.ready = true;
        let out = feed(&mut tx, &mut src, &[passing(1, 3), passing(2, 3)]);
        assert!(
            out.iter().all(|s| s.src == 5),
            "the passing packet goes on: {out:?}"
        );
    }

    #[test]
    fn a_passing_packet_held_in_the_ring_buffer_carries_its_stay() {
        // A 3-symbol source packet starts as a 3-symbol passing packet arrives: the
        // passing packet waits in the ring buffer while the source packet and its
        // postpended idle go out, and leaves in recovery. Each of its symbols carries
        // the cycles it stayed (the same for all: it went through whole), and a packet
        // that passes straight through carries none.
        let mut tx = Transmitter::new(9, false);
        let mut src = One {
            clock: 0,
            len: 3,
            ready: true,
        };
        let ins = [
            passing(0, 3),
            passing(1, 3),
            passing(2, 3),
            Symbol::idle(true),
            Symbol::idle(true),
            Symbol::idle(true),
            Symbol::idle(true),
            Symbol::idle(true),
        ];
        let out = feed(&mut tx, &mut src, &ins);
        let held: Vec<(u16, u32)> = out
            .iter()
            .filter(|s| s.src == 5)
            .map(|s| (s.index, s.journey.ring_buffer))
            .collect();
        // In at cycles 1-3, out at 5-7 (after 3 source symbols and the postpended idle).
        assert_eq!(held, vec![(0, 4), (1, 4), (2, 4)], "{out:?}");
        assert!(
            out.iter()
                .filter(|s| s.src == 0)
                .all(|s| s.journey.ring_buffer == 0)
        );
        let out = feed(
            &mut tx,
            &mut src,
            &[passing(0, 3), passing(1, 3), passing(2, 3)],
        );
        assert!(
            out.iter().all(|s| s.src == 5 && s.journey.ring_buffer == 0),
            "straight through: {out:?}"
        );
    }
}
