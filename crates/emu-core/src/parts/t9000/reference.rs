//! The T9000 node as it was before its hot path was rewritten (at 534c740), kept to
//! prove the rewrite changes no token, tick, wait, counter or statistic:
//! `differential`'s proptest drives both with the same random traffic and compares
//! everything they emit and report after every step. Its rules and their sources are
//! the live part's (the parent module's and [`super::vcp`]'s documentation: INMOS
//! ch. 6 §6.1.1, §6.2.3). It shares the link endpoint ([`crate::parts::dslink::Endpoint`])
//! and the terminal ([`Terminal`]) with the live part, which the rewrite leaves alone.
//! Test only; not to be changed but to mend a test.

use super::ProcessorParams;
use super::vcp::VcpParams;
use crate::model::{
    Activity, ModelError, Node, PartStats, PortId, Stamp, WIRE_BITS, Wait, WaitReason,
};
use crate::parts::dslink::token::DATA_TOKEN_BITS;
use crate::parts::dslink::{DsLink, Endpoint, Outbox, PortCounters, Token, TokenKind};
use crate::terminal::packet::{Arrival, Journey};
use crate::terminal::{Message, Terminal, TerminalStats};
use crate::time::Tick;
use std::collections::VecDeque;

/// The VCP's only port.
const PORT: PortId = 0;

/// One T9000 node (one port: its link to the network).
#[derive(Clone, Debug)]
pub(super) struct Processor {
    vcp: Vcp,
    term: Terminal,
    activity: Activity,
}

impl Processor {
    /// A reset processor.
    pub(super) fn new(p: ProcessorParams) -> Processor {
        let label = p.terminal.label;
        Processor {
            vcp: Vcp::new(p.vcp, label),
            term: Terminal::new(p.terminal),
            activity: Activity::default(),
        }
    }
}

impl Node<DsLink> for Processor {
    fn receive(&mut self, _now: Tick, _port: PortId, token: Token) -> Result<(), ModelError> {
        self.vcp.receive(token)
    }

    fn enable_checks(&mut self) {
        self.term.keep_path_delays();
    }

    fn step(&mut self, now: Tick, out: &mut Outbox) -> Result<Option<Tick>, ModelError> {
        self.vcp.consume(now, &mut self.term, &mut self.activity)?;
        self.term.generate(now);
        self.vcp.fill_channels(now, &mut self.term);
        let active = self.vcp.active_channels();
        self.vcp.transmit(now, out);
        // A channel may have finished while transmitting: start the next message now,
        // so the transmitter's next free tick accounts for it. (If none finished, the
        // channels are as they were after the first fill, and a second pass would do
        // nothing.)
        if self.vcp.active_channels() < active {
            self.vcp.fill_channels(now, &mut self.term);
            self.vcp.transmit(now, out);
        }
        out.activity.add(&self.activity);
        out.activity.add_messages(&self.term.take_activity());
        self.activity = Activity::default();
        let wake = match (self.vcp.wake(now), self.term.wake(now)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Ok(wake.map(|t| t.max(now + 1)))
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

/// Number of packets for a message of `bytes` (INMOS ch. 6 §6.1.1).
fn packets_for(bytes: u32, max_data: u32) -> u32 {
    bytes.div_ceil(max_data.max(1)).max(1)
}

/// Payload bytes of packet `i` of a message of `bytes`.
fn packet_bytes(bytes: u32, max_data: u32, i: u32) -> u32 {
    bytes.saturating_sub(i * max_data).min(max_data)
}

/// A message being sent on a virtual channel.
#[derive(Clone, Debug)]
struct Channel {
    msg: Message,
    packets: u32,
    /// Packets started.
    next: u32,
    /// Packets acknowledged (an acknowledge may arrive before its packet's tail leaves).
    acked: u32,
}

impl Channel {
    fn awaiting_ack(&self) -> bool {
        self.acked < self.next
    }
}

/// The packet being transmitted.
#[derive(Clone, Copy, Debug)]
struct TxPacket {
    stamp: Stamp,
    header: u32,
    data: u32,
    last: bool,
    sent: u32,
}

/// The packet being received.
#[derive(Clone, Copy, Debug, Default)]
struct RxPacket {
    header_got: u32,
    header: u32,
    data: u32,
    acked: bool,
    /// Tick its first token arrived.
    first_arrival: Tick,
    /// The packet, as its first token named it.
    stamp: Stamp,
    /// The journey its first token carried.
    journey: Journey,
}

/// One T9000 VCP with its link.
#[derive(Clone, Debug)]
struct Vcp {
    p: VcpParams,
    label: u32,
    ep: Endpoint,
    channels: Vec<Channel>,
    acks: VecDeque<Stamp>,
    tx: Option<TxPacket>,
    rr: usize,
    rx: RxPacket,
}

impl Vcp {
    /// A reset VCP for terminal `label`.
    fn new(p: VcpParams, label: u32) -> Vcp {
        Vcp {
            ep: Endpoint::new(p.link),
            label,
            channels: Vec::new(),
            acks: VecDeque::new(),
            tx: None,
            rr: 0,
            rx: RxPacket::default(),
            p,
        }
    }

    /// Accepts a token from the link.
    fn receive(&mut self, token: Token) -> Result<(), ModelError> {
        self.ep.receive(PORT, token)
    }

    /// Consumes every received token, handing finished messages and acknowledges on.
    fn consume(
        &mut self,
        now: Tick,
        term: &mut Terminal,
        act: &mut Activity,
    ) -> Result<(), ModelError> {
        let hb = self.p.header_bytes;
        while let Some(t) = self.ep.rx_pop() {
            let rx = &mut self.rx;
            if rx.header_got == 0 && rx.data == 0 {
                // Tokens are consumed in the step of the tick they arrive.
                rx.first_arrival = now;
                rx.stamp = t.stamp();
                rx.journey = t.journey();
            }
            if rx.header_got < hb {
                if t.kind() != TokenKind::Data {
                    return Err(ModelError::Protocol {
                        port: PORT,
                        what: format!("packet ended inside its header ({:?})", t.kind()),
                    });
                }
                rx.header = rx.header << 8 | u32::from(t.byte());
                rx.header_got += 1;
                if rx.header_got == hb && rx.header != self.label {
                    return Err(ModelError::Routing {
                        port: PORT,
                        what: format!(
                            "a packet with header {} reached terminal {} ({})",
                            rx.header,
                            self.label,
                            crate::model::wait::describe_packet(&rx.stamp)
                        ),
                    });
                }
                continue;
            }
            match t.kind() {
                TokenKind::Data => {
                    if rx.data == 0 && self.p.acknowledge && !rx.acked {
                        rx.acked = true;
                        self.acks.push_back(rx.stamp);
                    }
                    rx.data += 1;
                }
                TokenKind::Eop | TokenKind::Eom => {
                    let is_ack = t.kind() == TokenKind::Eop && rx.data == 0;
                    let stamp = rx.stamp;
                    if is_ack != stamp.ack {
                        return Err(ModelError::Protocol {
                            port: PORT,
                            what: format!(
                                "malformed packet: {}",
                                crate::model::wait::describe_packet(&stamp)
                            ),
                        });
                    }
                    act.packets_ejected += 1;
                    let data = rx.data;
                    let acked = rx.acked;
                    let arrival = Arrival {
                        at: now,
                        journey: rx.journey,
                        // From the first token starting on the last link to the
                        // terminator's arrival, less the wire: the packet's transfer
                        // time (10 × its data tokens + 4, back to back).
                        transfer: now - rx.first_arrival + DATA_TOKEN_BITS,
                    };
                    self.rx = RxPacket::default();
                    if is_ack {
                        term.ack_received();
                        self.ack_arrived(&stamp)?;
                    } else {
                        if self.p.acknowledge && !acked {
                            self.acks.push_back(stamp); // an empty last packet
                        }
                        term.packet_delivered(&arrival, data, &stamp, t.kind() == TokenKind::Eom);
                    }
                }
                TokenKind::Fct => unreachable!("FCTs never enter the buffer"),
            }
        }
        Ok(())
    }

    fn ack_arrived(&mut self, s: &Stamp) -> Result<(), ModelError> {
        let i = self
            .channels
            .iter()
            .position(|c| c.msg.seq == s.seq && c.awaiting_ack())
            .ok_or_else(|| ModelError::Protocol {
                port: PORT,
                what: format!(
                    "unexpected acknowledge: {}",
                    crate::model::wait::describe_packet(s)
                ),
            })?;
        let ch = &mut self.channels[i];
        ch.acked += 1;
        if ch.acked == ch.packets {
            self.channels.remove(i);
        }
        Ok(())
    }

    /// Starts queued messages on free channels.
    fn fill_channels(&mut self, now: Tick, term: &mut Terminal) {
        while self.channels.len() < self.p.channels as usize && term.has_message() {
            let chans = &self.channels;
            let per_dst = self.p.channels_per_destination.max(1) as usize;
            let busy = |d| chans.iter().filter(|c| c.msg.dst == d).count() >= per_dst;
            let Some(msg) = term.take(now, busy) else {
                break;
            };
            self.channels.push(Channel {
                packets: packets_for(msg.bytes, self.p.max_data_bytes),
                msg,
                next: 0,
                acked: 0,
            });
        }
    }

    fn sendable_channel(&self) -> Option<usize> {
        let n = self.channels.len();
        (0..n).map(|k| (self.rr + k) % n).find(|&i| {
            let c = &self.channels[i];
            c.next < c.packets
                && !(self.p.acknowledge && c.awaiting_ack())
                && !self.sending(c.msg.seq)
        })
    }

    fn sending(&self, seq: u32) -> bool {
        self.tx.is_some_and(|t| !t.stamp.ack && t.stamp.seq == seq)
    }

    fn has_data(&self) -> bool {
        self.tx.is_some() || !self.acks.is_empty() || self.sendable_channel().is_some()
    }

    /// Picks the next packet: acknowledges first, then channels round-robin.
    fn start_packet(&mut self) -> Option<TxPacket> {
        if let Some(s) = self.acks.pop_front() {
            return Some(TxPacket {
                stamp: Stamp { ack: true, ..s },
                header: s.src,
                data: 0,
                last: false,
                sent: 0,
            });
        }
        let i = self.sendable_channel()?;
        self.rr = (i + 1) % self.channels.len();
        let ch = &mut self.channels[i];
        ch.next += 1;
        let pkt = ch.next - 1;
        let m = ch.msg;
        Some(TxPacket {
            stamp: Stamp {
                src: self.label,
                dst: m.dst,
                seq: m.seq,
                pkt: pkt as u16,
                ack: false,
                created: m.created,
                injected: 0, // set when its first token starts
            },
            header: m.dst,
            data: packet_bytes(m.bytes, self.p.max_data_bytes, pkt),
            last: pkt + 1 == ch.packets,
            sent: 0,
        })
    }

    /// Transmits whatever can go at `now`.
    fn transmit(&mut self, now: Tick, out: &mut Outbox) {
        while self.ep.ready_at(now, self.has_data()) == Some(now) {
            if self.ep.next_is_fct() {
                let (t, at) = self.ep.send_fct(now);
                out.send(PORT, t, at);
                continue;
            }
            if self.tx.is_none() {
                self.tx = self.start_packet();
            }
            let Some(mut pk) = self.tx else { break };
            if pk.sent == 0 {
                out.activity.packets_injected += 1;
                if !pk.stamp.ack {
                    // Each packet carries the tick it started (packet 0's is the
                    // message's): its journey's source wait.
                    pk.stamp.injected = now;
                }
            }
            let hb = self.p.header_bytes;
            let k = pk.sent;
            // Only the packet's first token carries its stamp (see `dslink::token`).
            let token = if k == 0 {
                Token::data((pk.header >> (8 * (hb - 1))) as u8, pk.stamp)
            } else if k < hb {
                Token::data_only((pk.header >> (8 * (hb - 1 - k))) as u8)
            } else if k < hb + pk.data {
                Token::data_only((pk.stamp.seq.wrapping_add(k)) as u8)
            } else {
                Token::end_only(pk.last)
            };
            let end = token.kind().is_terminator();
            let at = self.ep.send_data(now, &token);
            out.send(PORT, token, at);
            out.activity.tokens_moved += 1;
            pk.sent += 1;
            if end {
                self.tx = None;
                self.packet_sent(&pk.stamp);
            } else {
                self.tx = Some(pk);
            }
        }
    }

    fn packet_sent(&mut self, s: &Stamp) {
        if s.ack {
            return;
        }
        if self.p.acknowledge {
            return; // the channel completes when its last acknowledge arrives
        }
        let Some(i) = self.channels.iter().position(|c| c.msg.seq == s.seq) else {
            return;
        };
        if self.channels[i].next == self.channels[i].packets {
            self.channels.remove(i);
        }
    }

    /// The next tick at which the transmitter can send, if it has something to send.
    fn wake(&self, now: Tick) -> Option<Tick> {
        self.ep
            .ready_at(now, self.has_data())
            .map(|t| t.max(now + 1))
    }

    /// Messages being sent (on a channel) and not yet complete at the source.
    fn active_channels(&self) -> usize {
        self.channels.len()
    }

    /// The link endpoint.
    fn endpoint(&self) -> &Endpoint {
        &self.ep
    }

    /// What the VCP waits for.
    fn waits(&self) -> Vec<Wait> {
        let mut v = Vec::new();
        if self.has_data() && self.ep.credit() == 0 {
            v.push(Wait {
                port: PORT,
                packet: self.tx.map(|p| p.stamp),
                reason: WaitReason::NoCredit,
            });
        }
        for c in self
            .channels
            .iter()
            .filter(|c| self.p.acknowledge && c.awaiting_ack())
        {
            let s = Stamp {
                src: self.label,
                dst: c.msg.dst,
                seq: c.msg.seq,
                pkt: (c.next - 1) as u16,
                ..Stamp::default()
            };
            v.push(Wait {
                port: PORT,
                packet: Some(s),
                reason: WaitReason::AwaitingAck,
            });
        }
        if self.rx.header_got > 0 {
            // Part of a packet received; the rest is still to come.
            v.push(Wait {
                port: PORT,
                packet: None,
                reason: WaitReason::Incomplete,
            });
        }
        v
    }
}
