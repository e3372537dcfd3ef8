//! The stripper (SCI §2.1-2.2, Figure 1): the input parser of an SCI node. It passes
//! idles and passing packets to the transmitter stage, strips the send packets for this
//! node (replacing their last four symbols by an echo) and removes the echoes that
//! return to it, filling the freed slots with idles.

use super::protocol::{ECHO_SYMBOLS, Symbol, SymbolKind};

/// What the stripper did with one incoming symbol, besides what it hands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stripped {
    /// Nothing for this node.
    Nothing,
    /// A symbol of a send packet for this node arrived; `accepted` says whether the
    /// packet got sink-queue space (decided at its first symbol).
    Target {
        /// The symbol.
        symbol: Symbol,
        /// The packet was accepted.
        accepted: bool,
    },
    /// A packet for this node (a send packet it is the target of, or the echo of one it
    /// sent) was cut short: an idle came where its next symbol should have. Only a dead
    /// link upstream does that, and only a stripper told to expect link faults reports
    /// it ([`Stripper::expect_cuts`]); the packet is dropped.
    Cut {
        /// The last symbol of it that arrived.
        last: Symbol,
        /// A send packet that had been given sink-queue space.
        accepted: bool,
    },
    /// The last symbol of an echo for a packet this node sent arrived.
    Echo {
        /// The echo's last symbol (its `seq` names the packet).
        symbol: Symbol,
        /// The target accepted the packet.
        ack: bool,
    },
}

/// The stripper's state.
#[derive(Clone, Debug)]
pub(crate) struct Stripper {
    /// This node's id.
    me: u32,
    /// Go-bit extension: a go-idle was emitted and no packet symbol since (SCI §2.2:
    /// "Whenever the stripper emits a go-idle, it continues to emit go-idles until the
    /// next packet boundary").
    go_latch: bool,
    /// The go bit of the idle that directly preceded the packet being stripped (SCI
    /// §2.2: "it fills the empty slots with whatever kind of idle directly preceded the
    /// stripped packet").
    before_packet: bool,
    /// Whether the send packet now being stripped was accepted.
    accepted: bool,
    /// The index the next symbol of a packet for this node must have (0: none begun).
    expect: u16,
    /// The last symbol of the packet for this node now arriving.
    current: Option<Symbol>,
    /// Link faults are possible: an idle inside a packet for this node cuts it
    /// ([`Stripped::Cut`]) instead of being a protocol error.
    cuts: bool,
}

impl Stripper {
    /// The stripper of node `me`.
    pub fn new(me: u32) -> Stripper {
        Stripper {
            me,
            go_latch: false,
            before_packet: true,
            accepted: false,
            expect: 0,
            current: None,
            cuts: false,
        }
    }

    /// Link faults are possible (docs/architecture.md "Link faults"): a dead link
    /// upstream delivers nothing from its death on, so a packet crossing it at that
    /// moment arrives cut short, its first symbols followed by idles. SCI's CRC would
    /// reject it (SCI §2.1: the header holds "a 16-bit CRC"); emu drops it, and no echo
    /// answers it. Without faults such a packet stays a protocol error.
    pub fn expect_cuts(&mut self) {
        self.cuts = true;
    }

    /// [`Self::parse`] of `s` when it is an idle or a passing packet's symbol and no
    /// packet for this node is under way (the common case: the stripper takes
    /// nothing): an idle becomes an idle with the latched go bit, a passing symbol ends
    /// the go-bit extension (SCI §2.2) and goes on unchanged. Returns false, leaving
    /// `s` and the stripper as they were, when [`Self::parse`] must decide: a packet for
    /// this node is under way, or `s` is a symbol of one (a send packet for it, an echo
    /// back to it).
    #[inline]
    pub fn pass(&mut self, s: &mut Symbol) -> bool {
        if self.expect != 0 {
            return false;
        }
        match s.kind {
            SymbolKind::Idle { go } => {
                let go = go || self.go_latch;
                self.go_latch = go;
                self.before_packet = go;
                *s = Symbol::idle(go);
                true
            }
            SymbolKind::Send if s.dst != self.me => {
                self.go_latch = false;
                true
            }
            SymbolKind::Echo { .. } if s.src != self.me => {
                self.go_latch = false;
                true
            }
            SymbolKind::Send | SymbolKind::Echo { .. } => false,
        }
    }

    /// Parses `s`; `has_room(len)` says whether the sink queue can take a send packet of
    /// `len` symbols now. Returns the symbol handed to the transmitter stage and what
    /// was stripped, or the symbol's index if a packet for this node arrived with its
    /// symbols out of order or interleaved (a protocol error upstream).
    #[inline]
    pub fn parse(
        &mut self,
        s: Symbol,
        has_room: impl FnOnce(u16) -> bool,
    ) -> Result<(Symbol, Stripped), u16> {
        let mine = match s.kind {
            SymbolKind::Send => s.dst == self.me,
            SymbolKind::Echo { .. } => s.src == self.me,
            SymbolKind::Idle { .. } => false,
        };
        let mut cut = None;
        if mine {
            if s.index != self.expect {
                return Err(s.index);
            }
            self.expect = if s.is_last() { 0 } else { s.index + 1 };
            self.current = Some(s);
        } else if self.expect != 0 {
            match (self.cuts && s.is_idle(), self.current) {
                (true, Some(last)) => {
                    self.expect = 0;
                    cut = Some(Stripped::Cut {
                        last,
                        accepted: last.kind == SymbolKind::Send && self.accepted,
                    });
                }
                _ => return Err(s.index),
            }
        }
        let (out, what) = self.handle(s, has_room);
        Ok((out, cut.unwrap_or(what)))
    }

    /// [`Self::parse`] once the symbol is known to be in order.
    #[inline]
    fn handle(&mut self, s: Symbol, has_room: impl FnOnce(u16) -> bool) -> (Symbol, Stripped) {
        match s.kind {
            SymbolKind::Idle { go } => {
                let go = go || self.go_latch;
                self.go_latch = go;
                self.before_packet = go;
                (Symbol::idle(go), Stripped::Nothing)
            }
            SymbolKind::Send if s.dst == self.me => {
                if s.index == 0 {
                    self.accepted = has_room(s.len);
                }
                let accepted = self.accepted;
                let echo_from = s.len.saturating_sub(ECHO_SYMBOLS);
                let out = if s.index >= echo_from {
                    self.go_latch = false;
                    Symbol {
                        kind: SymbolKind::Echo { ack: accepted },
                        index: s.index - echo_from,
                        ..s
                    }
                } else {
                    self.fill()
                };
                (
                    out,
                    Stripped::Target {
                        symbol: s,
                        accepted,
                    },
                )
            }
            SymbolKind::Echo { ack } if s.src == self.me => {
                let out = self.fill();
                let what = if s.is_last() {
                    Stripped::Echo { symbol: s, ack }
                } else {
                    Stripped::Nothing
                };
                (out, what)
            }
            SymbolKind::Send | SymbolKind::Echo { .. } => {
                self.go_latch = false;
                (s, Stripped::Nothing)
            }
        }
    }

    /// An idle for a freed slot: the kind that preceded the stripped packet, extended.
    #[inline]
    fn fill(&mut self) -> Symbol {
        let go = self.before_packet || self.go_latch;
        self.go_latch = go;
        Symbol::idle(go)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The short path ([`Stripper::pass`]) passes what the full parse passes and
        /// leaves the stripper in the same state, on any mix of idles, packets for this
        /// node, echoes back to it and passing packets, and declines exactly when the
        /// full parse takes or checks something for this node.
        #[test]
        fn the_short_path_matches_the_full_parse(
            picks in proptest::collection::vec((0u8..6, proptest::bool::ANY), 1..200)
        ) {
            let (mut full, mut short) = (Stripper::new(2), Stripper::new(2));
            let mut packet: Vec<Symbol> = Vec::new();
            for (pick, go) in picks {
                let s = match packet.pop() {
                    Some(s) => s,
                    None => {
                        let len = if go { 4 } else { 8 };
                        // An echo of the send packet src → dst, last symbol first.
                        let echo = |src, dst| -> Vec<Symbol> {
                            (0..4)
                                .rev()
                                .map(|i| Symbol {
                                    kind: SymbolKind::Echo { ack: go },
                                    ..send(src, dst, i, 4)
                                })
                                .collect()
                        };
                        packet = match pick {
                            0 | 1 => (0..len).rev().map(|i| send(0, 2, i, len)).collect(),
                            2 => echo(2, 5),
                            3 => (0..len).rev().map(|i| send(4, 5, i, len)).collect(),
                            4 => echo(4, 5),
                            _ => vec![Symbol::idle(go)],
                        };
                        continue;
                    }
                };
                let a = full.parse(s, |_| go);
                let mut passed = s;
                let before = short.clone();
                if short.pass(&mut passed) {
                    let (out, what) = a.expect("a passing symbol is in order");
                    proptest::prop_assert_eq!(what, Stripped::Nothing);
                    proptest::prop_assert_eq!(passed, out);
                } else {
                    proptest::prop_assert_eq!(passed, s);
                    proptest::prop_assert_eq!(
                        (before.go_latch, before.before_packet, before.expect),
                        (short.go_latch, short.before_packet, short.expect)
                    );
                    let mine = match s.kind {
                        SymbolKind::Send => s.dst == 2,
                        SymbolKind::Echo { .. } => s.src == 2,
                        SymbolKind::Idle { .. } => false,
                    };
                    proptest::prop_assert!(mine || short.expect != 0);
                    let b = short.parse(s, |_| go);
                    proptest::prop_assert_eq!(a, b);
                }
                proptest::prop_assert_eq!(
                    (full.go_latch, full.before_packet, full.expect),
                    (short.go_latch, short.before_packet, short.expect)
                );
            }
        }
    }

    fn send(src: u32, dst: u32, index: u16, len: u16) -> Symbol {
        Symbol::send_for_test(src, dst, 9, index, len)
    }

    #[test]
    fn a_packet_for_this_node_becomes_idles_then_a_four_symbol_echo() {
        let mut st = Stripper::new(2);
        st.parse(Symbol::idle(false), |_| true).unwrap();
        let outs: Vec<Symbol> = (0..8)
            .map(|i| st.parse(send(0, 2, i, 8), |len| len == 8).unwrap().0)
            .collect();
        assert!(
            outs[..4].iter().all(|s| *s == Symbol::idle(false)),
            "{outs:?}"
        );
        for (k, s) in outs[4..].iter().enumerate() {
            assert_eq!(s.kind, SymbolKind::Echo { ack: true });
            assert_eq!((s.index, s.src, s.dst, s.seq), (k as u16, 0, 2, 9));
        }
    }

    #[test]
    fn a_packet_cut_short_by_an_idle_is_an_error_unless_link_faults_are_expected() {
        // Symbols 0..3 of an 8-symbol packet for node 2 arrive, then an idle.
        let feed = |st: &mut Stripper| {
            for i in 0..3 {
                st.parse(send(0, 2, i, 8), |_| true).unwrap();
            }
            st.parse(Symbol::idle(true), |_| true)
        };
        let mut strict = Stripper::new(2);
        assert_eq!(
            feed(&mut strict),
            Err(0),
            "an idle inside a packet is a protocol error"
        );
        let mut lossy = Stripper::new(2);
        lossy.expect_cuts();
        let (out, what) = feed(&mut lossy).expect("a cut packet is dropped");
        assert!(out.is_idle(), "the idle goes on as one");
        let Stripped::Cut { last, accepted } = what else {
            panic!("{what:?}");
        };
        assert_eq!((last.index, last.len, accepted), (2, 8, true));
        // The next packet for this node starts afresh.
        let (_, next) = lossy.parse(send(1, 2, 0, 8), |_| true).unwrap();
        assert!(matches!(next, Stripped::Target { accepted: true, .. }));
        // A cut echo for this node's own packet is dropped too, and does not count as
        // its echo.
        let mut source = Stripper::new(0);
        source.expect_cuts();
        let echo = |index| Symbol {
            kind: SymbolKind::Echo { ack: true },
            index,
            ..send(0, 2, 0, 4)
        };
        assert_eq!(
            source.parse(echo(0), |_| true).unwrap().1,
            Stripped::Nothing
        );
        let (_, what) = source.parse(Symbol::idle(false), |_| true).unwrap();
        assert!(
            matches!(
                what,
                Stripped::Cut {
                    accepted: false,
                    ..
                }
            ),
            "{what:?}"
        );
    }

    #[test]
    fn a_full_sink_queue_nacks_the_whole_packet() {
        let mut st = Stripper::new(1);
        let (_, first) = st.parse(send(0, 1, 0, 8), |_| false).unwrap();
        assert!(matches!(
            first,
            Stripped::Target {
                accepted: false,
                ..
            }
        ));
        let outs: Vec<Symbol> = (1..8)
            .map(|i| st.parse(send(0, 1, i, 8), |_| true).unwrap().0)
            .collect();
        assert_eq!(
            outs[6].kind,
            SymbolKind::Echo { ack: false },
            "decided at the header"
        );
    }

    #[test]
    fn go_bits_extend_to_the_next_packet_boundary_and_fill_stripped_slots() {
        let mut st = Stripper::new(3);
        assert!(
            st.parse(Symbol::idle(true), |_| true)
                .unwrap()
                .0
                .is_go_idle()
        );
        assert!(
            st.parse(Symbol::idle(false), |_| true)
                .unwrap()
                .0
                .is_go_idle(),
            "a stop-idle after a go-idle is extended"
        );
        // A packet for this node: its freed slots take the idle kind before it (go).
        assert!(st.parse(send(1, 3, 0, 8), |_| true).unwrap().0.is_go_idle());
        // A passing packet is a boundary: after it, a stop-idle stays a stop-idle.
        let mut st = Stripper::new(3);
        st.parse(Symbol::idle(true), |_| true).unwrap();
        let (p, _) = st.parse(send(1, 2, 0, 1), |_| true).unwrap();
        assert_eq!(p.kind, SymbolKind::Send);
        assert!(
            !st.parse(Symbol::idle(false), |_| true)
                .unwrap()
                .0
                .is_go_idle()
        );
    }

    #[test]
    fn a_packet_for_this_node_must_arrive_whole_and_in_order() {
        let mut st = Stripper::new(2);
        st.parse(send(0, 2, 0, 8), |_| true).unwrap();
        assert_eq!(
            st.parse(send(0, 2, 2, 8), |_| true).unwrap_err(),
            2,
            "symbol 1 lost"
        );
        let mut st = Stripper::new(2);
        st.parse(send(0, 2, 0, 8), |_| true).unwrap();
        assert!(
            st.parse(Symbol::idle(true), |_| true).is_err(),
            "an idle inside a packet"
        );
    }

    #[test]
    fn an_echo_returning_home_is_removed_and_reported_at_its_last_symbol() {
        let mut st = Stripper::new(0);
        st.parse(Symbol::idle(true), |_| true).unwrap();
        let echo = |index| Symbol {
            kind: SymbolKind::Echo { ack: false },
            index,
            ..send(0, 2, 0, 8)
        };
        for i in 0..3 {
            let (out, what) = st.parse(echo(i), |_| true).unwrap();
            assert!(out.is_idle() && what == Stripped::Nothing);
        }
        let (_, what) = st.parse(echo(3), |_| true).unwrap();
        assert!(matches!(what, Stripped::Echo { ack: false, .. }));
    }
}
