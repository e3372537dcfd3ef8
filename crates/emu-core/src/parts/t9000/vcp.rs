//! The T9000 virtual channel processor (INMOS ch. 6 §6.1.1, §6.2.3).
//!
//! Rules modelled:
//! - A message of m bytes is sent as max(1, ⌈m / 32⌉) packets of at most 32 data
//!   bytes (INMOS ch. 6 §6.1.1 n_p = ⌈m/32⌉; a zero-length message is one empty packet).
//! - Every packet starts with an s-byte header (s = 1 or 2) holding the destination's
//!   label; the last packet of a message ends with EOM, the others with EOP.
//! - With the acknowledge protocol on, each data packet is acknowledged by an empty
//!   packet (header + EOP) sent back to the source, and a channel sends its next packet
//!   only after the acknowledge of the previous one has arrived (INMOS ch. 6 §6.2.3). The
//!   receiver sends the acknowledge "as soon as possible, so that its transmission can
//!   overlap that of the bulk of the data packet": as soon as the first token after
//!   the header shows it is a data packet. Acknowledges go before data packets at the
//!   next packet boundary.
//! - Several virtual channels share the link: packets of channels that are not waiting
//!   for an acknowledge are sent round-robin, one whole packet at a time (tokens of
//!   different packets never interleave on a link). Messages to the same destination
//!   use the same channel one after another, so they arrive in order.
//! - Received tokens are consumed at once (the inputting process is always ready,
//!   INMOS ch. 6 §6.2.3 "the inputting process is initially ready"), so buffer space is freed
//!   and FCTs returned as tokens arrive.
//!
//! The header holds the destination terminal's label; which virtual channel a packet
//! belongs to travels as emulator metadata in its [`Stamp`] (a real T9000 encodes the
//! channel in the header and gives each processor an interval of labels).

use crate::model::{ModelError, PortId, Stamp, Wait, WaitReason};
use crate::parts::dslink::token::DATA_TOKEN_BITS;
use crate::parts::dslink::{Endpoint, LinkParams, Outbox, Token, TokenKind};
use crate::terminal::packet::{Arrival, Journey};
use crate::terminal::{Message, Terminal};
use crate::time::Tick;
use std::collections::VecDeque;

/// The VCP's only port.
const PORT: PortId = 0;

/// Parameters of one VCP.
#[derive(Clone, Debug)]
pub struct VcpParams {
    /// DS-Link parameters of its link.
    pub link: LinkParams,
    /// Header length in bytes (1 or 2).
    pub header_bytes: u32,
    /// Largest packet payload (32 on the T9000).
    pub max_data_bytes: u32,
    /// Acknowledge every data packet before the channel's next one.
    pub acknowledge: bool,
    /// Channels that may be sending at once.
    pub channels: u32,
    /// Of those, how many may carry messages to the same destination at once. With 1,
    /// messages to one destination go one after another on one channel and arrive in
    /// order; more models several occam channels between the same two processors
    /// (INMOS ch. 6 §6.2.3: "Latency can be hidden by having more channels active at once"),
    /// and messages on different channels may then overtake each other.
    pub channels_per_destination: u32,
}

/// Bytes a VCP holds: its state, the link's receive buffer with the packet information
/// of the packets in it (at most one per two tokens), and per virtual channel its
/// state and a queued acknowledge.
pub(super) fn memory_bound(p: &VcpParams, fill: crate::memory::Fill) -> u64 {
    let token = std::mem::size_of::<crate::parts::dslink::Token>() as u64;
    std::mem::size_of::<Vcp>() as u64
        + fill.entries(u64::from(p.link.buffer)) * token
        + fill.packets(u64::from(p.link.buffer) / 2 + 1)
            * crate::parts::dslink::token::PACKET_INFO_BYTES
        + u64::from(p.channels)
            * (std::mem::size_of::<Channel>() + std::mem::size_of::<Stamp>()) as u64
}

/// Number of packets for a message of `bytes` (INMOS ch. 6 §6.1.1).
pub(crate) fn packets_for(bytes: u32, max_data: u32) -> u32 {
    bytes.div_ceil(max_data.max(1)).max(1)
}

/// Payload bytes of packet `i` of a message of `bytes`.
pub fn packet_bytes(bytes: u32, max_data: u32, i: u32) -> u32 {
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
pub struct Vcp {
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
    pub fn new(p: VcpParams, label: u32) -> Vcp {
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

    /// The parameters this VCP was made with.
    pub fn params(&self) -> &VcpParams {
        &self.p
    }

    /// Accepts a token from the link.
    pub fn receive(&mut self, token: Token) -> Result<(), ModelError> {
        self.ep.receive(PORT, token)
    }

    /// True if tokens wait in the link's input buffer for [`Vcp::consume`].
    #[inline]
    pub fn has_received(&self) -> bool {
        self.ep.rx_len() > 0
    }

    /// Consumes every received token, handing finished messages and acknowledges on
    /// (INMOS ch. 6 §6.2.3: the inputting process is always ready). Returns the packets
    /// whose terminator arrived (the activity's packets ejected). Most tokens are data
    /// in a packet's body, which only count; the others are handled out of line.
    #[inline]
    pub fn consume(&mut self, now: Tick, term: &mut Terminal) -> Result<u64, ModelError> {
        let mut ejected = 0;
        while let Some(t) = self.ep.rx_pop() {
            let rx = &mut self.rx;
            if t.kind() == TokenKind::Data && rx.header_got == self.p.header_bytes && rx.data > 0 {
                rx.data += 1;
                continue;
            }
            if self.consume_token(now, &t, term)? {
                ejected += 1;
            }
        }
        Ok(ejected)
    }

    /// Consumes a token that is not in a packet's body after its first data token: a
    /// header byte, the first data token, or a terminator. True if it ended a packet.
    #[inline(never)]
    fn consume_token(
        &mut self,
        now: Tick,
        t: &Token,
        term: &mut Terminal,
    ) -> Result<bool, ModelError> {
        let rx = &mut self.rx;
        if rx.header_got == 0 && rx.data == 0 {
            // Tokens are consumed in the step of the tick they arrive.
            rx.first_arrival = now;
            rx.stamp = t.stamp();
            rx.journey = t.journey();
        }
        if rx.header_got < self.p.header_bytes {
            self.header_token(t)?;
            return Ok(false);
        }
        match t.kind() {
            TokenKind::Data => {
                if rx.data == 0 && self.p.acknowledge && !rx.acked {
                    rx.acked = true;
                    self.acks.push_back(rx.stamp);
                }
                rx.data += 1;
                Ok(false)
            }
            TokenKind::Eop | TokenKind::Eom => {
                self.packet_end(now, t.kind(), term)?;
                Ok(true)
            }
            TokenKind::Fct => unreachable!("FCTs never enter the buffer"),
        }
    }

    /// Takes one byte of a packet's header: the header must be whole before the packet
    /// ends (INMOS ch. 6 §6.1.1), and name this terminal.
    fn header_token(&mut self, t: &Token) -> Result<(), ModelError> {
        let rx = &mut self.rx;
        if t.kind() != TokenKind::Data {
            return Err(ModelError::Protocol {
                port: PORT,
                what: format!("packet ended inside its header ({:?})", t.kind()),
            });
        }
        rx.header = rx.header << 8 | u32::from(t.byte());
        rx.header_got += 1;
        if rx.header_got == self.p.header_bytes && rx.header != self.label {
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
        Ok(())
    }

    /// The packet being received ended at `now` with a `kind` terminator: an empty EOP
    /// packet is an acknowledge, anything else a data packet, delivered to the terminal
    /// and acknowledged if its first data token did not already ask for that (INMOS
    /// ch. 6 §6.2.3).
    fn packet_end(
        &mut self,
        now: Tick,
        kind: TokenKind,
        term: &mut Terminal,
    ) -> Result<(), ModelError> {
        let is_ack = kind == TokenKind::Eop && self.rx.data == 0;
        let stamp = self.rx.stamp;
        if is_ack != stamp.ack {
            return Err(ModelError::Protocol {
                port: PORT,
                what: format!(
                    "malformed packet: {}",
                    crate::model::wait::describe_packet(&stamp)
                ),
            });
        }
        let rx = std::mem::take(&mut self.rx);
        if is_ack {
            term.ack_received();
            return self.ack_arrived(&stamp);
        }
        if self.p.acknowledge && !rx.acked {
            self.acks.push_back(stamp); // an empty last packet
        }
        let arrival = Arrival {
            at: now,
            journey: rx.journey,
            // From the first token starting on the last link to the terminator's
            // arrival, less the wire: the packet's transfer time (10 × its data tokens
            // + 4, back to back).
            transfer: now - rx.first_arrival + DATA_TOKEN_BITS,
        };
        term.packet_delivered(&arrival, rx.data, &stamp, kind == TokenKind::Eom);
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
    #[inline]
    pub(crate) fn fill_channels(&mut self, now: Tick, term: &mut Terminal) {
        if self.channels.len() < self.p.channels as usize && term.has_message() {
            self.start_messages(now, term);
        }
    }

    /// [`Vcp::fill_channels`] when a channel is free and a message waits.
    fn start_messages(&mut self, now: Tick, term: &mut Terminal) {
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

    #[inline]
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

    /// Transmits whatever can go at `now`: owed FCTs first, then, while it has credit,
    /// the tokens of the packet being sent or of the next one (INMOS ch. 6 §6.1.1,
    /// §6.2.1). Returns the tick the transmitter can next send at, later than `now`, if
    /// it has something to send: what [`Vcp::wake`] then says. Most steps send one token
    /// or none, so the test is here and the sending out of line.
    #[inline]
    pub fn transmit(&mut self, now: Tick, out: &mut Outbox) -> Option<Tick> {
        loop {
            let ready = self.ep.ready_at(now, self.has_data());
            if ready != Some(now) {
                return ready;
            }
            self.send_next(now, out);
        }
    }

    /// Sends the token the transmitter starts at `now`, which it may: an owed FCT, or
    /// the next token of the packet being sent, starting the next packet if none is.
    #[inline(never)]
    fn send_next(&mut self, now: Tick, out: &mut Outbox) {
        if self.ep.next_is_fct() {
            let (t, at) = self.ep.send_fct(now);
            out.send(PORT, t, at);
            return;
        }
        if self.tx.is_none() {
            self.tx = self.start_packet();
        }
        self.send_token(now, out);
    }

    /// Sends the next token of the packet being transmitted, if there is one, at `now`
    /// (a start tick with credit). Only the packet's first token carries its stamp
    /// (see `dslink::token`); each packet carries the tick it started (packet 0's is
    /// the message's), its journey's source wait.
    fn send_token(&mut self, now: Tick, out: &mut Outbox) {
        let hb = self.p.header_bytes;
        let Some(pk) = self.tx.as_mut() else {
            return;
        };
        let k = pk.sent;
        if k == 0 {
            out.activity.packets_injected += 1;
            if !pk.stamp.ack {
                pk.stamp.injected = now;
            }
        }
        let (token, end) = if k == 0 {
            (
                Token::data((pk.header >> (8 * (hb - 1))) as u8, pk.stamp),
                false,
            )
        } else if k < hb {
            let byte = (pk.header >> (8 * (hb - 1 - k))) as u8;
            (Token::data_only(byte), false)
        } else if k < hb + pk.data {
            (
                Token::data_only((pk.stamp.seq.wrapping_add(k)) as u8),
                false,
            )
        } else {
            (Token::end_only(pk.last), true)
        };
        let at = self.ep.send_data(now, &token);
        out.send(PORT, token, at);
        out.activity.tokens_moved += 1;
        pk.sent += 1;
        if end {
            let stamp = pk.stamp;
            self.tx = None;
            self.packet_sent(&stamp);
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
    pub fn wake(&self, now: Tick) -> Option<Tick> {
        self.ep
            .ready_at(now, self.has_data())
            .map(|t| t.max(now + 1))
    }

    /// Messages being sent (on a channel) and not yet complete at the source.
    pub(crate) fn active_channels(&self) -> usize {
        self.channels.len()
    }

    /// The link endpoint.
    pub fn endpoint(&self) -> &Endpoint {
        &self.ep
    }

    /// What the VCP waits for.
    pub fn waits(&self) -> Vec<Wait> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_split_into_32_byte_packets() {
        let cases: [(u32, &[u32]); 6] = [
            (0, &[0]),
            (1, &[1]),
            (31, &[31]),
            (32, &[32]),
            (33, &[32, 1]),
            (100, &[32, 32, 32, 4]),
        ];
        for (m, sizes) in cases {
            let n = packets_for(m, 32);
            let got: Vec<u32> = (0..n).map(|i| packet_bytes(m, 32, i)).collect();
            assert_eq!(got, sizes, "message of {m} bytes");
        }
    }
}
