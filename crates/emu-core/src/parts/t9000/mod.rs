//! A T9000 as a network node: its virtual channel processor and link
//! ([`Vcp`]) plus the terminal process that sources and sinks traffic ([`Terminal`]).

pub mod config;
#[cfg(test)]
mod differential;
#[cfg(test)]
mod reference;
pub mod vcp;

use crate::model::{ModelError, Node, PartStats, PortId, WIRE_BITS, Wait};
use crate::parts::Part;
use crate::parts::dslink::{DsLink, Outbox, PortCounters, Token};
use crate::routing::Routing;
use crate::terminal::{Terminal, TerminalParams, TerminalStats};
use crate::time::Tick;
use vcp::{Vcp, VcpParams};

/// Parameters of one T9000.
#[derive(Clone, Debug)]
pub struct ProcessorParams {
    /// Its VCP.
    pub vcp: VcpParams,
    /// Its terminal process.
    pub terminal: TerminalParams,
}

/// One T9000 node (one port: its link to the network).
#[derive(Clone, Debug)]
pub(crate) struct Processor {
    vcp: Vcp,
    term: Terminal,
}

impl Processor {
    /// A reset processor.
    pub fn new(p: ProcessorParams) -> Processor {
        let label = p.terminal.label;
        Processor {
            vcp: Vcp::new(p.vcp, label),
            term: Terminal::new(p.terminal),
        }
    }

    /// The next tick the node must run at: `ready`, when its transmitter can next send
    /// ([`Vcp::transmit`]), or when its terminal next creates a message, whichever is
    /// first, and after `now`.
    fn wake(&self, now: Tick, ready: Option<Tick>) -> Option<Tick> {
        let wake = match (ready, self.term.wake(now)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        wake.map(|t| t.max(now + 1))
    }
}

impl Node<DsLink> for Processor {
    fn receive(&mut self, _now: Tick, _port: PortId, token: Token) -> Result<(), ModelError> {
        self.vcp.receive(token)
    }

    fn enable_checks(&mut self) {
        self.term.keep_path_delays();
    }

    /// Consumes what arrived, lets the terminal create its messages, starts them on
    /// free channels and transmits (INMOS ch. 6 §6.2.3; see [`vcp`]).
    fn step(&mut self, now: Tick, out: &mut Outbox) -> Result<Option<Tick>, ModelError> {
        let ejected = if self.vcp.has_received() {
            self.vcp.consume(now, &mut self.term)?
        } else {
            0
        };
        self.term.generate(now);
        self.vcp.fill_channels(now, &mut self.term);
        let active = self.vcp.active_channels();
        let mut ready = self.vcp.transmit(now, out);
        // A channel may have finished while transmitting: start the next message now,
        // so the transmitter's next free tick accounts for it. (If none finished, the
        // channels are as they were after the first fill, and a second pass would do
        // nothing.)
        if self.vcp.active_channels() < active {
            self.vcp.fill_channels(now, &mut self.term);
            ready = self.vcp.transmit(now, out);
        }
        out.activity.packets_ejected += ejected;
        out.activity.add_messages(&self.term.take_activity());
        Ok(self.wake(now, ready))
    }

    fn port_counters(&self, _port: PortId) -> PortCounters {
        self.vcp.endpoint().counters()
    }

    fn waits(&self) -> Vec<Wait> {
        self.vcp.waits()
    }

    fn terminal_stats(&self) -> Option<&TerminalStats> {
        Some(self.term.stats())
    }

    fn into_terminal_stats(self: Box<Self>) -> Option<TerminalStats> {
        Some(self.term.into_stats())
    }

    fn part_stats(&self) -> Option<PartStats> {
        Some(PartStats {
            series: vec![(WIRE_BITS, vec![self.vcp.endpoint().wire_bits()])],
        })
    }
}

impl Part<DsLink> for ProcessorParams {
    fn kind(&self) -> &'static str {
        "t9000"
    }

    /// One: the T9000's link to the network.
    fn ports(&self) -> usize {
        1
    }

    fn receive_capacity(&self, _port: PortId) -> usize {
        self.vcp.link.buffer as usize
    }

    fn instantiate(&self) -> Box<dyn Node<DsLink>> {
        Box::new(Processor::new(self.clone()))
    }

    /// A T9000 consumes every token it receives and queues its acknowledges (see
    /// [`vcp`]), so it is a sink.
    fn routing(&self) -> Routing<'_> {
        Routing::Sink
    }

    /// The processor, its VCP and its terminal (without its source queue).
    fn memory_bound(&self, fill: crate::memory::Fill) -> u64 {
        std::mem::size_of::<Processor>() as u64
            + vcp::memory_bound(&self.vcp, fill)
            + self.terminal.memory_bound(fill)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testkit::Pair;
    use crate::parts::dslink::LinkParams;
    use crate::parts::dslink::{Emit, TokenKind};
    use crate::traffic::{Destination, Injection};

    const WIRE: Tick = 20;

    fn t9000(
        label: u32,
        sends: bool,
        acknowledge: bool,
        channels: u32,
        bytes: u32,
        k: u32,
    ) -> Processor {
        Processor::new(ProcessorParams {
            vcp: VcpParams {
                link: LinkParams::default(),
                header_bytes: 1,
                max_data_bytes: 32,
                acknowledge,
                channels,
                channels_per_destination: 1,
            },
            terminal: TerminalParams {
                label,
                sends,
                destination: Destination::Fixed(1 - label),
                injection: Injection::Batch(k),
                message_bytes: bytes,
                start: 100,
                window: (0, Tick::MAX),
                terminals: 2,
                seed: 1,
            },
        })
    }

    /// Two T9000s wired back to back, stepped every tick; returns every token sent by
    /// each, with its departure tick.
    fn run(a: &mut Processor, b: &mut Processor, until: Tick) -> [Vec<Emit>; 2] {
        let mut pair = Pair::new(a.clone(), b.clone(), (0, 0), WIRE);
        pair.run_until(until).unwrap();
        *a = pair.a.node().clone();
        *b = pair.b.node().clone();
        [pair.a.sent().to_vec(), pair.b.sent().to_vec()]
    }

    fn data(log: &[Emit]) -> Vec<Emit> {
        log.iter()
            .filter(|e| e.token.kind() != TokenKind::Fct)
            .cloned()
            .collect()
    }

    #[test]
    fn a_100_byte_message_is_four_packets_ending_eop_eop_eop_eom() {
        let mut a = t9000(0, true, false, 1, 100, 1);
        let mut b = t9000(1, false, false, 1, 0, 0);
        let [la, _] = run(&mut a, &mut b, 3000);
        let ends: Vec<TokenKind> = data(&la)
            .iter()
            .filter(|e| e.token.kind().is_terminator())
            .map(|e| e.token.kind())
            .collect();
        assert_eq!(
            ends,
            vec![
                TokenKind::Eop,
                TokenKind::Eop,
                TokenKind::Eop,
                TokenKind::Eom
            ]
        );
        assert_eq!(data(&la).len(), 100 + 4 * 2);
        assert_eq!(b.term.stats().counters.delivered, 1);
        assert_eq!(b.term.stats().counters.packets_delivered, 4);
    }

    #[test]
    fn each_packet_waits_for_the_acknowledge_of_the_previous_one() {
        let mut a = t9000(0, true, true, 1, 64, 1);
        let mut b = t9000(1, false, true, 1, 0, 0);
        let [la, lb] = run(&mut a, &mut b, 3000);
        let la = data(&la);
        let lb = data(&lb);
        // b sends one empty acknowledge packet (header + EOP) per data packet.
        assert_eq!(lb.len(), 4);
        // Each packet's first token names it: both are acknowledges.
        let firsts: Vec<_> = lb.iter().filter_map(|e| e.token.packet()).collect();
        assert_eq!(firsts.len(), 2);
        assert!(firsts.iter().all(|p| p.stamp.ack));
        // The first data token after the header triggers the acknowledge.
        let first_data_arrival = la[1].at + WIRE;
        assert!(lb[0].at - 10 >= first_data_arrival);
        // The second packet's header starts only after the first ack's EOP has arrived.
        let ack1_arrival = lb[1].at + WIRE;
        let pkt2_start = la[34].at - 10;
        assert_eq!(la[34].token.stamp().pkt, 1);
        assert!(
            pkt2_start >= ack1_arrival,
            "packet 2 at {pkt2_start}, ack at {ack1_arrival}"
        );
        assert_eq!(
            a.vcp.active_channels(),
            0,
            "the message completed at the source"
        );
        assert_eq!(a.term.stats().counters.acks_received, 2);
    }

    #[test]
    fn several_channels_to_one_destination_interleave_their_packets() {
        // Two channels to the same destination: while one waits for its acknowledge
        // the other sends (INMOS ch. 6 §6.2.3, latency hidden by more active channels).
        let two = |label, sends| {
            let mut p = t9000(label, sends, true, 2, 64, 2);
            let params = VcpParams {
                channels_per_destination: 2,
                ..p.vcp.params().clone()
            };
            p.vcp = Vcp::new(params, label);
            p
        };
        let mut a = two(0, true);
        let mut b = two(1, false);
        let [la, _] = run(&mut a, &mut b, 4000);
        let order: Vec<(u32, u16)> = data(&la)
            .iter()
            .filter_map(|e| e.token.packet())
            .map(|p| (p.stamp.seq, p.stamp.pkt))
            .collect();
        assert_eq!(order, vec![(0, 0), (1, 0), (0, 1), (1, 1)]);
        assert_eq!(b.term.stats().counters.delivered, 2);
        // With one channel per destination the second message waits for the first.
        let mut a = t9000(0, true, true, 2, 64, 2);
        let mut b = t9000(1, false, true, 2, 0, 0);
        let [la, _] = run(&mut a, &mut b, 4000);
        let order: Vec<(u32, u16)> = data(&la)
            .iter()
            .filter_map(|e| e.token.packet())
            .map(|p| (p.stamp.seq, p.stamp.pkt))
            .collect();
        assert_eq!(order, vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
    }

    #[test]
    fn without_acknowledges_packets_go_back_to_back() {
        let mut a = t9000(0, true, false, 1, 64, 1);
        let mut b = t9000(1, false, false, 1, 0, 0);
        let [la, lb] = run(&mut a, &mut b, 3000);
        let la = data(&la);
        assert!(data(&lb).is_empty());
        for w in la.windows(2) {
            assert_eq!(
                w[1].at - w[0].at,
                w[1].token.bits(),
                "no gap between tokens"
            );
        }
    }

    #[test]
    fn a_packet_received_half_way_is_reported_incomplete() {
        // Header and one data token of a packet for terminal 1, then nothing (its link
        // died): the processor must say it holds part of a packet, the wait a link
        // fault is diagnosed from.
        let mut d = crate::model::testkit::Driver::new(t9000(1, false, false, 1, 0, 0));
        let s = crate::terminal::Stamp {
            src: 0,
            dst: 1,
            ..Default::default()
        };
        d.arrive(50, 0, crate::parts::dslink::Token::data(1, s));
        d.arrive(60, 0, crate::parts::dslink::Token::data(7, s));
        d.run_until(200).unwrap();
        let waits = d.node().waits();
        assert!(
            waits
                .iter()
                .any(|w| w.reason == crate::model::WaitReason::Incomplete),
            "{waits:?}"
        );
        d.arrive(210, 0, crate::parts::dslink::Token::end(true, s));
        d.run_until(300).unwrap();
        assert!(d.node().waits().is_empty(), "{:?}", d.node().waits());
    }
}
