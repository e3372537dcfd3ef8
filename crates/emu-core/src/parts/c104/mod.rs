//! The IMS C104 packet routing switch (INMOS ch. 7 §7.1;
//! INMOS ch. 6 §6.3).
//!
//! Rules modelled:
//! - Up to 32 links, each a DS-Link [`Endpoint`] whose input buffer is the switch's
//!   input buffering; a crossbar in which every input can be connected to any free
//!   output at once (INMOS ch. 7 §7.1: "all of the 32 inputs can be routed simultaneously").
//! - Wormhole routing: once its header is routed and the output granted, a packet
//!   streams to the output while it is still arriving (INMOS ch. 7 §7.1). A blocked packet
//!   stays in the input buffer and stalls the upstream link through credit.
//! - One output buffer per link (INMOS ch. 7 §7.1: "one packet of buffering on each input and
//!   one on each output"): tokens cross the crossbar into it as soon as there is room,
//!   and the output is released for the next packet once the terminator has crossed.
//! - Header routing: the header (1 or 2 bytes) must be fully received; the routing
//!   decision then takes `routing_delay` ticks before the header may leave (INMOS ch. 6 §6.3.6
//!   h ≈ 500 ns covers header bits, wire and this delay).
//! - Interval labelling chooses the output (chapter 7 §7.1).
//! - Output arbitration is round-robin over inputs, starting after the last input
//!   granted: no input waits for more than one packet from each other input
//!   (INMOS ch. 6 §6.3.7 "the unlucky packet must wait for 31 others").
//! - Per link, random header generation: every packet arriving on such a link gets a
//!   new header with a random label in a range prepended; and header deletion, via
//!   [`RouteAction::Delete`] intervals: the header is discarded and the packet routed
//!   on the next header (INMOS ch. 7 §7.1, "All routing, header creation and deletion is
//!   performed on a per link basis").
//! - Grouped adaptive routing, via [`RouteAction::Group`] intervals: the packet may
//!   take any free output of a group of consecutive links; when a group output comes
//!   free it is granted, round-robin, to an input waiting for it or for its group (002
//!   §7.5, last paragraph).
//!
//! Journeys (Proteus §MTime): when a packet's first token leaves
//! an output, the switch adds to the packet's [`crate::terminal::packet::Journey`] its input wait, the ticks
//! from when its header could have been routed had it come alone (first token's
//! arrival + 10 × (header bytes − 1) + routing delay; without the 10 × … term on an
//! input that generates the header) to the grant of its output, and its output wait,
//! from the grant to the first token starting on the link. With these, a packet's
//! latency is the uncontended latency of its path plus its waits, tick for tick
//! (book/src/journeys.md); the switch's behaviour does not depend on them.

pub mod config;
#[cfg(test)]
mod differential;
#[cfg(test)]
mod reference;

use crate::memory::{Fill, push_bounded};
use crate::model::{ModelError, Node, PartStats, PortId, Stamp, WIRE_BITS, Wait, WaitReason};
use crate::parts::Part;
use crate::parts::dslink::token::{DATA_TOKEN_BITS, PACKET_INFO_BYTES, PacketInfo};
use crate::parts::dslink::{DsLink, Endpoint, LinkParams, Outbox, PortCounters, Token, TokenKind};
use crate::routing::{LabelRouting, RouteAction, Routing};
use crate::time::Tick;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// Parameters of one C104.
#[derive(Clone, Debug)]
pub struct C104Params {
    /// Ports in use (≤ 32).
    pub ports: usize,
    /// DS-Link parameters of every port.
    pub link: LinkParams,
    /// Header length in bytes (1 or 2).
    pub header_bytes: u32,
    /// Ticks from a header being fully received to it being allowed to leave.
    pub routing_delay: Tick,
    /// Output buffer per port, in tokens.
    pub output_buffer: u32,
    /// The routing view: the interval table, and the input links that prepend a random
    /// header drawn uniformly from a range to every packet. The walker and `emu check`
    /// read the same view.
    pub routing: LabelRouting,
    /// Seed of this switch's random number generator.
    pub seed: u64,
}

impl C104Params {
    /// Ticks from a packet's first token arriving on `input` to the packet being
    /// routable had it come alone: the rest of its header back to back (10 bit periods
    /// a byte, INMOS ch. 6 §6.1.1; none on an input that generates the header, INMOS
    /// ch. 7 §7.1), then the routing delay (INMOS ch. 6 §6.3.6). The journey's input
    /// wait starts here, and [`Part::transit`] adds the first token's own 10 ticks.
    fn routable_after(&self, input: PortId) -> Tick {
        let rest = if self.routing.generates(input).is_some() {
            0
        } else {
            Tick::from(self.header_bytes.saturating_sub(1))
        };
        DATA_TOKEN_BITS * rest + self.routing_delay
    }
}

/// Where an input is in handling its current packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    /// No packet started.
    Idle,
    /// Waiting for the rest of the header.
    Header,
    /// Header decoded; the decision is available at `ready`.
    Routing { ready: Tick, action: RouteAction },
    /// Requesting `output`.
    Waiting { output: PortId },
    /// Requesting any output in `first..first + count` (grouped adaptive routing).
    WaitingGroup { first: PortId, count: PortId },
    /// Connected through the crossbar to `output`.
    Connected { output: PortId },
}

#[derive(Clone, Debug)]
struct Port {
    ep: Endpoint,
    input: Input,
    /// Generated header tokens that go before the buffered ones.
    prefix: VecDeque<Token>,
    /// Output buffer.
    out: VecDeque<Token>,
    /// Arrival tick of the first token of each packet in the input buffer, oldest
    /// first (for the journey's input wait).
    arrivals: VecDeque<Tick>,
    /// True when the next flow-controlled token to arrive starts a packet.
    rx_at_start: bool,
    /// For each packet granted this output whose first token has not left yet, oldest
    /// first: the grant tick and the input wait it had.
    grants: VecDeque<(Tick, Tick)>,
    /// True when the next token to leave the output buffer starts a packet.
    tx_at_start: bool,
    /// The packet information of a packet whose header was deleted before its next
    /// header arrived: the next token to arrive takes it.
    pending: Option<Box<PacketInfo>>,
    /// The packet the tokens at the head of the input stream belong to when the head
    /// is not the packet's first token (the one carrying [`PacketInfo`]): the last
    /// packet whose first token left the stream. For diagnosis only.
    in_packet: Stamp,
    /// The packet whose tokens the transmitter is sending: the last one whose first
    /// token it sent. For diagnosis only.
    tx_packet: Stamp,
    /// While the port is in [`C104::sending`]: the tick its transmitter starts the next
    /// token. It depends only on when the last token ends and, on an idle link, on the
    /// tick the port became ready (the null token in progress), so it stays right until
    /// the port sends or stops having something to send.
    start: Tick,
}

impl Port {
    /// Notes a flow-controlled token arriving at `now`: the arrival tick of a packet's
    /// first token is kept for the journey's input wait, and `terminator` says the next
    /// token starts a packet.
    #[inline]
    fn note_arrival(&mut self, now: Tick, terminator: bool) {
        if std::mem::replace(&mut self.rx_at_start, terminator) {
            self.arrivals.push_back(now);
        }
    }
}

/// One IMS C104.
#[derive(Clone, Debug)]
pub struct C104 {
    p: C104Params,
    ports: Vec<Port>,
    /// For each output, the input connected to it.
    owner: Vec<Option<PortId>>,
    /// For each output, the input to consider first at the next grant.
    rr: Vec<PortId>,
    rng: ChaCha8Rng,
    /// Inputs that header handling may advance: in `Header` or `Routing`, or `Idle`
    /// with a token buffered. Bit i is input i. The masks only let `step` skip
    /// inputs on which a pass would do nothing; they change no rule.
    advancing: u64,
    /// Inputs in `Waiting` or `WaitingGroup`.
    waiting: u64,
    /// Inputs in `Connected`.
    connected: u64,
    /// Ports whose transmitter has something it may send: an owed FCT, or a token in
    /// the output buffer and credit for it.
    sending: u64,
    /// Inputs with a token in their stream (generated header or input buffer).
    filled: u64,
    /// True when arbitration may grant something: an output was released or an input
    /// started waiting since it last ran. After a pass no waiting input wants a free
    /// output, and only those two events change that, so a pass without either would
    /// grant nothing; the flag only lets `step` skip it and changes no rule.
    contested: bool,
    /// The earliest start tick of a port in `sending` ([`Tick::MAX`]: none). Set by
    /// each scan of the transmitters, lowered as ports start sending between scans
    /// (only a scan takes a port out of `sending` or moves its start later), so that
    /// a transmit with nothing due skips the scan; it changes no rule.
    next_start: Tick,
}

/// Most ports a C104 model has (the masks are 64 bits; the part has 32).
pub(crate) const MAX_PORTS: usize = 64;

impl C104 {
    /// A reset switch.
    pub fn new(p: C104Params) -> C104 {
        assert!(p.ports <= MAX_PORTS, "a C104 has at most {MAX_PORTS} ports");
        let ports = (0..p.ports)
            .map(|_| Port {
                ep: Endpoint::new(p.link),
                input: Input::Idle,
                prefix: VecDeque::new(),
                out: VecDeque::new(),
                arrivals: VecDeque::new(),
                rx_at_start: true,
                grants: VecDeque::new(),
                tx_at_start: true,
                pending: None,
                in_packet: Stamp::default(),
                tx_packet: Stamp::default(),
                start: 0,
            })
            .collect();
        let rng = ChaCha8Rng::seed_from_u64(p.seed);
        let mut c = C104 {
            owner: vec![None; p.ports],
            rr: vec![0; p.ports],
            ports,
            rng,
            p,
            advancing: 0,
            waiting: 0,
            connected: 0,
            sending: 0,
            filled: 0,
            contested: false,
            next_start: Tick::MAX,
        };
        for k in 0..c.p.ports {
            c.refresh_sending(k, 0);
        }
        c
    }

    /// Recomputes, at tick `now`, whether port `k`'s transmitter has something it may
    /// send, and if so when it starts.
    fn refresh_sending(&mut self, k: PortId, now: Tick) {
        let port = &mut self.ports[k];
        let may = port.ep.next_is_fct() || (!port.out.is_empty() && port.ep.credit() > 0);
        if may {
            port.start = port.ep.start_tick(now);
            self.next_start = self.next_start.min(port.start);
            self.sending |= 1 << k;
        } else {
            self.sending &= !(1u64 << k);
        }
    }

    /// [`C104::refresh_sending`] for a change that can only give port `k`'s
    /// transmitter something more to send: a port already sending keeps its start
    /// tick (see [`Port::start`]), so only one that was not, or whose start has passed
    /// unstepped (a driver that skips ticks), is looked at.
    #[inline]
    fn start_sending(&mut self, k: PortId, now: Tick) {
        if self.sending & (1 << k) == 0 || self.ports[k].start < now {
            self.refresh_sending(k, now);
        }
    }

    /// Sets input `i`'s state and keeps the masks in step with it.
    fn set_input(&mut self, i: PortId, state: Input) {
        self.ports[i].input = state;
        let bit = 1u64 << i;
        let advancing = match state {
            Input::Header | Input::Routing { .. } => true,
            Input::Idle => self.stream_len(i) > 0,
            Input::Waiting { .. } | Input::WaitingGroup { .. } | Input::Connected { .. } => false,
        };
        let set = |mask: &mut u64, on: bool| {
            if on {
                *mask |= bit;
            } else {
                *mask &= !bit;
            }
        };
        set(&mut self.advancing, advancing);
        let waits = matches!(state, Input::Waiting { .. } | Input::WaitingGroup { .. });
        self.contested |= waits;
        set(&mut self.waiting, waits);
        set(
            &mut self.connected,
            matches!(state, Input::Connected { .. }),
        );
    }

    fn stream_len(&self, i: PortId) -> usize {
        self.ports[i].prefix.len() + self.ports[i].ep.rx_len()
    }

    fn stream_get(&self, i: PortId, k: usize) -> Option<&Token> {
        let port = &self.ports[i];
        match port.prefix.get(k) {
            Some(t) => Some(t),
            None => port.ep.rx_get(k - port.prefix.len()),
        }
    }

    fn stream_head_mut(&mut self, i: PortId) -> Option<&mut Token> {
        let port = &mut self.ports[i];
        match port.prefix.front_mut() {
            Some(t) => Some(t),
            None => port.ep.rx_get_mut(0),
        }
    }

    // Inlined into `transfer`'s loop: called once per token crossing the switch.
    #[inline(always)]
    fn stream_pop(&mut self, i: PortId) -> Option<Token> {
        let port = &mut self.ports[i];
        let t = match port.prefix.pop_front() {
            Some(t) => Some(t),
            // Freeing buffer space may owe the peer an FCT: callers refresh `sending`.
            None => port.ep.rx_pop(),
        };
        if port.prefix.is_empty() && port.ep.rx_len() == 0 {
            self.filled &= !(1u64 << i);
        }
        if let Some(info) = t.as_ref().and_then(Token::packet) {
            port.in_packet = info.stamp;
        }
        t
    }

    /// Advances input `i` through header reception and routing. Returns true if its
    /// state changed.
    fn advance_input(&mut self, now: Tick, i: PortId) -> Result<bool, ModelError> {
        let mut changed = false;
        loop {
            match self.ports[i].input {
                Input::Idle => {
                    if self.stream_len(i) == 0 {
                        // Nothing to advance until a token arrives (`receive` sets it).
                        self.advancing &= !(1u64 << i);
                        break;
                    }
                    if let Some((lo, hi)) = self.p.routing.generates(i) {
                        let label = self.rng.random_range(lo..hi);
                        let hb = self.p.header_bytes;
                        // The generated header is the packet's first token now.
                        let mut info = self.stream_head_mut(i).and_then(Token::take_packet);
                        let port = &mut self.ports[i];
                        for b in (0..hb).rev() {
                            let mut t = Token::data_only((label >> (8 * b)) as u8);
                            t.set_packet(info.take());
                            port.prefix.push_back(t);
                        }
                        self.filled |= 1 << i;
                    }
                    self.set_input(i, Input::Header);
                }
                Input::Header => {
                    let hb = self.p.header_bytes as usize;
                    if self.stream_len(i) < hb {
                        break;
                    }
                    let mut label = 0u32;
                    for k in 0..hb {
                        let (kind, byte) = self
                            .stream_get(i, k)
                            .map_or((TokenKind::Fct, 0), |t| (t.kind(), t.byte()));
                        if kind != TokenKind::Data {
                            return Err(ModelError::Protocol {
                                port: i,
                                what: format!(
                                    "packet ended inside its {hb}-byte header ({kind:?})"
                                ),
                            });
                        }
                        label = label << 8 | u32::from(byte);
                    }
                    let action =
                        self.p
                            .routing
                            .lookup(label)
                            .ok_or_else(|| ModelError::Routing {
                                port: i,
                                what: format!("no interval contains header {label}"),
                            })?;
                    self.set_input(
                        i,
                        Input::Routing {
                            ready: now + self.p.routing_delay,
                            action,
                        },
                    );
                }
                Input::Routing { ready, action } => {
                    if now < ready {
                        break;
                    }
                    match action {
                        RouteAction::Delete => {
                            let mut info = None;
                            for _ in 0..self.p.header_bytes {
                                if let Some(mut t) = self.stream_pop(i)
                                    && info.is_none()
                                {
                                    info = t.take_packet();
                                }
                            }
                            // The packet's next header is now its first token: it takes
                            // the packet information, now or when it arrives.
                            match self.stream_head_mut(i) {
                                Some(head) => head.set_packet(info),
                                None => self.ports[i].pending = info,
                            }
                            self.refresh_sending(i, now);
                            self.set_input(i, Input::Header);
                        }
                        RouteAction::Output(o) => {
                            if o >= self.p.ports {
                                return Err(ModelError::Routing {
                                    port: i,
                                    what: format!(
                                        "routed to port {o}, which this switch does not have"
                                    ),
                                });
                            }
                            self.set_input(i, Input::Waiting { output: o });
                        }
                        RouteAction::Group { first, count } => {
                            if count == 0 || first + count > self.p.ports {
                                return Err(ModelError::Routing {
                                    port: i,
                                    what: format!(
                                        "routed to group {first}..{}, which this switch does not have",
                                        first + count
                                    ),
                                });
                            }
                            self.set_input(i, Input::WaitingGroup { first, count });
                        }
                    }
                }
                Input::Waiting { .. } | Input::WaitingGroup { .. } | Input::Connected { .. } => {
                    break;
                }
            }
            changed = true;
        }
        Ok(changed)
    }

    /// True if input `i` is connected to an output whose buffer has room: the test
    /// [`C104::transfer`] starts with, made before the call (on a saturated network
    /// most connected inputs find their output full).
    #[inline(always)]
    fn has_room(&self, i: PortId) -> bool {
        match self.ports[i].input {
            Input::Connected { output } => {
                self.ports[output].out.len() < self.p.output_buffer as usize
            }
            Input::Idle
            | Input::Header
            | Input::Routing { .. }
            | Input::Waiting { .. }
            | Input::WaitingGroup { .. } => false,
        }
    }

    /// The output a data token arriving on input `i` now would cross the crossbar to in
    /// the first pass of this tick's step, if it would (wormhole routing: a connected
    /// packet streams to its output while it is still arriving, INMOS ch. 7 §7.1): the
    /// input is connected, nothing is ahead of it in its stream, and its output buffer
    /// has room.
    #[inline]
    fn cut_through_output(&self, i: PortId) -> Option<PortId> {
        let port = &self.ports[i];
        match port.input {
            Input::Connected { output } => (port.prefix.is_empty()
                && port.ep.rx_len() == 0
                && self.ports[output].out.len() < self.p.output_buffer as usize)
                .then_some(output),
            Input::Idle
            | Input::Header
            | Input::Routing { .. }
            | Input::Waiting { .. }
            | Input::WaitingGroup { .. } => None,
        }
    }

    /// A data token arriving on input `i` at `now` moved to `output`'s buffer at once,
    /// where [`C104::cut_through_output`] says it would cross in the step: what
    /// `receive` and then the step's [`C104::transfer`] would do with it. The outputs
    /// are the inputs' own (one input a connected output), and a data token releases
    /// nothing, so no other input's crossing in the same tick can come between them.
    /// The endpoint counts the token received and taken at once (INMOS ch. 6 §6.2.1's
    /// credit, as [`Endpoint::receive`] and [`Endpoint::rx_pop`]).
    fn pass(
        &mut self,
        now: Tick,
        i: PortId,
        output: PortId,
        token: Token,
    ) -> Result<(), ModelError> {
        let port = &mut self.ports[i];
        port.ep.receive_taken(i, &token)?;
        port.note_arrival(now, false);
        if let Some(info) = token.packet() {
            port.in_packet = info.stamp;
        }
        let cap = self.p.output_buffer as usize;
        push_bounded(&mut self.ports[output].out, cap, token);
        self.start_sending(i, now);
        self.start_sending(output, now);
        Ok(())
    }

    /// Moves tokens of input `i` across the crossbar while its output has room.
    /// Returns true if the packet ended and the next one has already begun arriving.
    fn transfer(&mut self, now: Tick, i: PortId) -> bool {
        let Input::Connected { output } = self.ports[i].input else {
            return false;
        };
        let cap = self.p.output_buffer as usize;
        let mut moved = false;
        let mut reopened = false;
        while self.ports[output].out.len() < cap {
            let Some(t) = self.stream_pop(i) else { break };
            moved = true;
            let end = t.kind().is_terminator();
            push_bounded(&mut self.ports[output].out, cap, t);
            if end {
                self.owner[output] = None;
                self.contested = true;
                self.set_input(i, Input::Idle);
                reopened = self.stream_len(i) > 0;
                break;
            }
        }
        if moved {
            // Freeing input buffer space may owe an FCT; filling the output buffer may
            // give the output something to send.
            self.start_sending(i, now);
            self.start_sending(output, now);
        }
        reopened
    }

    /// Grants every free output to a waiting input, round-robin: for output `o`, the
    /// first waiting input at or after `rr[o]`, cyclically.
    fn arbitrate(&mut self, now: Tick) -> bool {
        if self.waiting == 0 || !std::mem::take(&mut self.contested) {
            return false;
        }
        let n = self.p.ports;
        // The outputs some waiting input could take, granted in ascending order (a
        // group waiter takes the lowest free output of its group that picks it).
        let mut requested = 0u64;
        for i in bits(self.waiting) {
            match self.ports[i].input {
                Input::Waiting { output } => requested |= 1 << output,
                Input::WaitingGroup { first, count } => {
                    requested |= u64::MAX.checked_shr(64 - count as u32).unwrap_or(0) << first;
                }
                _ => {}
            }
        }
        let mut granted = false;
        for o in bits(requested) {
            if self.owner[o].is_some() {
                continue;
            }
            let start = self.rr[o];
            let wants = |i: PortId| match self.ports[i].input {
                Input::Waiting { output } => output == o,
                Input::WaitingGroup { first, count } => (first..first + count).contains(&o),
                _ => false,
            };
            let low = self.waiting & ((1u64 << start) - 1);
            let pick = bits(self.waiting & !((1u64 << start) - 1))
                .chain(bits(low))
                .find(|&i| wants(i));
            if let Some(i) = pick {
                self.owner[o] = Some(i);
                self.rr[o] = (i + 1) % n;
                self.set_input(i, Input::Connected { output: o });
                let arrived = self.ports[i].arrivals.pop_front().unwrap_or(now);
                let ready = arrived + self.p.routable_after(i);
                let input_wait = now.saturating_sub(ready);
                self.ports[o].grants.push_back((now, input_wait));
                granted = true;
            }
        }
        granted
    }

    /// Starts tokens on every transmitter that can send at `now`. Returns true if an
    /// output buffer that was full now has room (the only way sending can let another
    /// token cross the crossbar in the same tick), and the earliest tick after `now` at
    /// which a transmitter has something it may start ([`Tick::MAX`]: none).
    fn transmit(&mut self, now: Tick, out: &mut Outbox) -> (bool, Tick) {
        if self.next_start > now {
            return (false, self.next_start);
        }
        let cap = self.p.output_buffer as usize;
        let mut unblocked = false;
        let mut wake = Tick::MAX;
        for k in bits(self.sending) {
            let port = &mut self.ports[k];
            if port.start != now {
                wake = wake.min(port.start.max(now + 1));
                continue;
            }
            // A port sending whose start is `now` may start a token now: `sending` is
            // refreshed whenever the owed FCTs, the credit or the output buffer change,
            // and its start tick stays right until it sends (see `Port::start`). One
            // token at most: once one starts, the transmitter is busy past `now`.
            debug_assert_eq!(port.ep.ready_at(now, !port.out.is_empty()), Some(now));
            if port.ep.next_is_fct() {
                let (t, at) = port.ep.send_fct(now);
                out.send(k, t, at);
            } else if let Some(mut t) = port.out.pop_front() {
                unblocked |= port.out.len() + 1 == cap;
                // A packet's first token carries its journey out of the switch.
                if std::mem::replace(&mut port.tx_at_start, t.kind().is_terminator())
                    && let Some((granted, input_wait)) = port.grants.pop_front()
                {
                    t.cross(input_wait, now - granted);
                }
                if let Some(info) = t.packet() {
                    port.tx_packet = info.stamp;
                }
                let at = port.ep.send_data(now, &t);
                out.send(k, t, at);
                out.activity.tokens_moved += 1;
            }
            self.refresh_sending(k, now);
            if self.sending & (1 << k) != 0 {
                wake = wake.min(self.ports[k].start.max(now + 1));
            }
        }
        self.next_start = wake;
        (unblocked, wake)
    }

    /// The next tick the switch has something due: `sending`, the earliest start of a
    /// transmitter (from the last [`C104::transmit`] of the step, after which nothing
    /// changes), or a routing decision coming due.
    fn next_wake(&self, now: Tick, sending: Tick) -> Option<Tick> {
        let mut wake = sending;
        for i in bits(self.advancing) {
            if let Input::Routing { ready, .. } = self.ports[i].input {
                wake = wake.min(ready.max(now + 1));
            }
        }
        (wake != Tick::MAX).then_some(wake)
    }

    /// The packet at the head of input `i`, if any.
    fn head_packet(&self, i: PortId) -> Option<Stamp> {
        let t = self.stream_get(i, 0)?;
        Some(t.packet().map_or(self.ports[i].in_packet, |p| p.stamp))
    }
}

impl Node<DsLink> for C104 {
    fn receive(&mut self, now: Tick, port: PortId, token: Token) -> Result<(), ModelError> {
        let kind = token.kind();
        let mut token = token;
        if kind.is_flow_controlled() && self.ports[port].pending.is_some() {
            token.set_packet(self.ports[port].pending.take());
        }
        if kind == TokenKind::Data
            && let Some(output) = self.cut_through_output(port)
        {
            return self.pass(now, port, output, token);
        }
        self.ports[port].ep.receive(port, token)?;
        if kind.is_flow_controlled() {
            let p = &mut self.ports[port];
            p.note_arrival(now, kind.is_terminator());
            if p.input == Input::Idle {
                self.advancing |= 1 << port;
            }
            self.filled |= 1 << port;
        } else {
            // An FCT adds credit. A data token changes nothing the transmitter
            // waits for (its credit, owed FCTs and output buffer).
            self.refresh_sending(port, now);
        }
        Ok(())
    }

    fn step(&mut self, now: Tick, out: &mut Outbox) -> Result<Option<Tick>, ModelError> {
        // Each pass handles headers, then the crossbar, then arbitration, then the
        // transmitters, so within a pass every change feeds the phases after it. A
        // further pass can only do something if a phase fed an earlier one: an input
        // finished a packet with the next one already buffered (header handling), a
        // grant was made (the packet it let through may free its output again for
        // arbitration), or a full output buffer sent a token (the crossbar).
        loop {
            for i in bits(self.advancing) {
                self.advance_input(now, i)?;
            }
            let mut again = false;
            for i in bits(self.connected & self.filled) {
                if self.has_room(i) {
                    again |= self.transfer(now, i);
                }
            }
            let granted = self.arbitrate(now);
            if granted {
                for i in bits(self.connected & self.filled) {
                    if self.has_room(i) {
                        again |= self.transfer(now, i);
                    }
                }
            }
            let (unblocked, sending) = self.transmit(now, out);
            if !(again || granted || unblocked) {
                return Ok(self.next_wake(now, sending));
            }
        }
    }

    fn port_counters(&self, port: PortId) -> PortCounters {
        self.ports[port].ep.counters()
    }

    fn part_stats(&self) -> Option<PartStats> {
        Some(PartStats {
            series: vec![(
                WIRE_BITS,
                self.ports.iter().map(|p| p.ep.wire_bits()).collect(),
            )],
        })
    }

    fn waits(&self) -> Vec<Wait> {
        let mut v = Vec::new();
        for (i, port) in self.ports.iter().enumerate() {
            let packet = self.head_packet(i);
            match port.input {
                Input::Idle => {}
                Input::Header | Input::Routing { .. } => {
                    v.push(Wait {
                        port: i,
                        packet,
                        reason: WaitReason::Routing,
                    });
                }
                Input::Waiting { output } => {
                    let holder = self.owner[output].unwrap_or(output);
                    v.push(Wait {
                        port: i,
                        packet,
                        reason: WaitReason::OutputHeld {
                            output,
                            holder,
                            holder_packet: self.head_packet(holder),
                        },
                    });
                }
                Input::WaitingGroup { first, .. } => {
                    let holder = self.owner[first].unwrap_or(first);
                    v.push(Wait {
                        port: i,
                        packet,
                        reason: WaitReason::OutputHeld {
                            output: first,
                            holder,
                            holder_packet: self.head_packet(holder),
                        },
                    });
                }
                Input::Connected { output } => {
                    if self.stream_len(i) > 0
                        && self.ports[output].out.len() >= self.p.output_buffer as usize
                    {
                        v.push(Wait {
                            port: i,
                            packet,
                            reason: WaitReason::OutputFull { output },
                        });
                    } else if self.stream_len(i) == 0 {
                        // The packet's head has gone on; its rest is still to come on
                        // this input (named while tokens of it are still in the output
                        // buffer: since the grant only this input has filled it, and
                        // its header left the input, so it is `in_packet`).
                        v.push(Wait {
                            port: i,
                            packet: (!self.ports[output].out.is_empty())
                                .then_some(self.ports[i].in_packet),
                            reason: WaitReason::Incomplete,
                        });
                    }
                }
            }
            if !port.out.is_empty() && port.ep.credit() == 0 {
                v.push(Wait {
                    port: i,
                    packet: port
                        .out
                        .front()
                        .map(|t| t.packet().map_or(port.tx_packet, |p| p.stamp)),
                    reason: WaitReason::NoCredit,
                });
            }
        }
        v
    }
}

/// The set bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

impl Part<DsLink> for C104Params {
    fn kind(&self) -> &'static str {
        "c104"
    }

    fn ports(&self) -> usize {
        self.ports
    }

    fn receive_capacity(&self, _port: PortId) -> usize {
        self.link.buffer as usize
    }

    fn instantiate(&self) -> Box<dyn Node<DsLink>> {
        Box::new(C104::new(self.clone()))
    }

    fn routing(&self) -> Routing<'_> {
        Routing::Labels(&self.routing)
    }

    /// The header's first token (10 ticks), the rest of the header back to back (none
    /// on an input that generates it), and the routing delay: see the module's
    /// "Journeys".
    fn transit(&self, input: PortId) -> Option<Tick> {
        Some(DATA_TOKEN_BITS + self.routable_after(input))
    }

    /// The switch, its routing table, and per port its state with the link's receive
    /// buffer and the output buffer.
    fn memory_bound(&self, fill: Fill) -> u64 {
        let token = std::mem::size_of::<Token>() as u64;
        let buffers =
            fill.entries(u64::from(self.output_buffer)) + fill.entries(u64::from(self.link.buffer));
        // A packet is at least two tokens (a header byte and a terminator); the
        // journey queues hold one entry per packet buffered, and allocate on first use,
        // and each packet's first token its packet information.
        let packets = fill.packets(u64::from(self.output_buffer) / 2 + 1)
            + fill.packets(u64::from(self.link.buffer) / 2 + 1);
        let per_port = std::mem::size_of::<Port>() as u64
            + 2 * std::mem::size_of::<usize>() as u64
            + buffers * token
            + packets * (2 * std::mem::size_of::<Tick>() as u64 + PACKET_INFO_BYTES);
        std::mem::size_of::<C104>() as u64
            + self.routing.heap_bytes()
            + self.ports as u64 * per_port
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testkit::Driver;
    use crate::parts::dslink::Emit;
    use crate::routing::IntervalTable;
    use crate::terminal::packet::Journey;
    use std::sync::Arc;

    const HDR: Tick = 10;

    /// A 4-port switch: labels 0..4 go out of the port with the same number; label 9 is
    /// deleted.
    fn switch(routing_delay: Tick, output_buffer: u32) -> C104 {
        let mut iv: Vec<_> = (0..4)
            .map(|p| (p as u32, p as u32 + 1, RouteAction::Output(p)))
            .collect();
        iv.push((9, 10, RouteAction::Delete));
        C104::new(C104Params {
            ports: 4,
            link: LinkParams {
                buffer: 20,
                batch: 8,
                extra_initial_credit: 0,
            },
            header_bytes: 1,
            routing_delay,
            output_buffer,
            routing: LabelRouting::new(Arc::new(IntervalTable::new(iv).unwrap()), 4),
            seed: 1,
        })
    }

    fn stamp(src: u32) -> Stamp {
        Stamp {
            src,
            ..Stamp::default()
        }
    }

    /// A switch driven by hand.
    type Sw = Driver<DsLink, C104>;

    /// Gives every output port of `d`'s switch plenty of credit and clears its initial
    /// FCTs.
    fn prime(d: &mut Sw) {
        for p in 0..d.node().p.ports {
            for _ in 0..10 {
                d.arrive(0, p, Token::fct());
            }
        }
        d.step_at(0).unwrap();
        d.clear_sent();
    }

    fn data_emits(d: &Sw, port: PortId) -> Vec<Emit> {
        d.sent_on(port, |t| t.kind() != TokenKind::Fct)
    }

    #[test]
    fn wormhole_the_header_leaves_before_the_tail_arrives() {
        let mut d = Driver::new(switch(30, 40));
        prime(&mut d);
        // A packet for port 2 arrives on port 0: header at 100, 3 data, EOP.
        let s = stamp(7);
        let toks = [
            Token::data(2, s),
            Token::data(1, s),
            Token::data(2, s),
            Token::data(3, s),
            Token::end(false, s),
        ];
        let mut t = 100;
        let mut first_out = None;
        for tok in toks {
            d.arrive(t, 0, tok);
            // run every tick until the next arrival
            for now in t..t + HDR {
                d.step_at(now).unwrap();
                if first_out.is_none() && !data_emits(&d, 2).is_empty() {
                    first_out = Some(now);
                }
            }
            t += HDR;
        }
        for now in t..t + 100 {
            d.step_at(now).unwrap();
        }
        let sent = data_emits(&d, 2);
        assert_eq!(sent.len(), 5);
        // header received at 100, routed 30 ticks later, and the link has been idle
        // since 8 (initial FCTs), so the null in progress ends at 136.
        assert_eq!(first_out, Some(136));
        assert_eq!(sent[0].at, 146);
        assert!(
            sent[0].at < 140 + HDR,
            "header left before the EOP arrived at 140"
        );
        // the body follows back to back
        assert_eq!(
            sent.iter().map(|e| e.at).collect::<Vec<_>>(),
            vec![146, 156, 166, 176, 180]
        );
        // Journey: routable at 100 + 30, granted at once (no input wait), started at
        // 136 after the null in progress (6 ticks of output wait); only the first
        // token carries it.
        let j = Journey {
            input_wait: 0,
            output_wait: 6,
            hops: 1,
        };
        assert_eq!(sent[0].token.journey(), j);
        assert_eq!(sent[1].token.journey(), Journey::default());
    }

    #[test]
    fn contention_the_second_packet_waits_for_the_first_terminator() {
        let mut d = Driver::new(switch(0, 40));
        prime(&mut d);
        // Two one-byte packets for port 3, on inputs 0 and 1, at the same tick.
        for (inp, src) in [(0, 10u32), (1, 11u32)] {
            d.arrive(200, inp, Token::data(3, stamp(src)));
            d.arrive(210, inp, Token::data(0xee, stamp(src)));
            d.arrive(220, inp, Token::end(true, stamp(src)));
        }
        for now in 200..400 {
            d.step_at(now).unwrap();
        }
        let sent = data_emits(&d, 3);
        let order: Vec<(u32, TokenKind)> = sent
            .iter()
            .map(|e| (e.token.stamp().src, e.token.kind()))
            .collect();
        assert_eq!(
            order,
            vec![
                (10, TokenKind::Data),
                (10, TokenKind::Data),
                (10, TokenKind::Eom),
                (11, TokenKind::Data),
                (11, TokenKind::Data),
                (11, TokenKind::Eom),
            ],
            "packets are not interleaved on an output"
        );
        // Packet 10 is granted at 200. Its link has been idle since the reset FCT
        // sent at 0 ended at 4, so the null in progress ends at 204; the reset FCT
        // `prime` left owed goes first (FCTs before data), and the header starts at
        // 208: 8 ticks of output wait. Packet 11 could have been routed at 200 too but
        // is granted when 10's EOM crosses at 220 (20 ticks of input wait), and starts
        // when that EOM has left, at 232 (12 of output wait).
        let firsts: Vec<(u32, Tick, Journey)> = sent
            .iter()
            .filter(|e| e.token.journey().hops > 0)
            .map(|e| (e.token.stamp().src, e.at - 10, e.token.journey()))
            .collect();
        let j = |input_wait, output_wait| Journey {
            input_wait,
            output_wait,
            hops: 1,
        };
        assert_eq!(firsts, vec![(10, 208, j(0, 8)), (11, 232, j(20, 12))]);
    }

    #[test]
    fn round_robin_arbitration_serves_every_input() {
        // Three inputs keep sending one-token packets to output 3; each must get turns.
        let mut d = Driver::new(switch(0, 4));
        prime(&mut d);
        let mut now = 100;
        for _round in 0..6 {
            for inp in 0..3 {
                if d.node().ports[inp].ep.rx_len() < 10 {
                    d.arrive(now, inp, Token::data(3, stamp(inp as u32)));
                    d.arrive(now, inp, Token::end(false, stamp(inp as u32)));
                }
            }
            for t in now..now + 14 {
                d.step_at(t).unwrap();
            }
            now += 14;
        }
        let srcs: Vec<u32> = data_emits(&d, 3)
            .iter()
            .filter(|e| e.token.kind() == TokenKind::Eop)
            .map(|e| e.token.stamp().src)
            .collect();
        assert!(srcs.len() >= 5, "{srcs:?}");
        for w in srcs.windows(3) {
            let mut w = w.to_vec();
            w.sort();
            assert_eq!(
                w,
                vec![0, 1, 2],
                "every input served once per three grants: {srcs:?}"
            );
        }
    }

    #[test]
    fn header_deletion_routes_on_the_next_header() {
        let mut d = Driver::new(switch(5, 40));
        prime(&mut d);
        let s = stamp(1);
        for (k, tok) in [
            Token::data(9, s),
            Token::data(1, s),
            Token::data(0x42, s),
            Token::end(true, s),
        ]
        .into_iter()
        .enumerate()
        {
            d.arrive(100 + 10 * k as Tick, 2, tok);
            for t in 100 + 10 * k as Tick..110 + 10 * k as Tick {
                d.step_at(t).unwrap();
            }
        }
        for t in 140..300 {
            d.step_at(t).unwrap();
        }
        let sent: Vec<(TokenKind, u8)> = data_emits(&d, 1)
            .iter()
            .map(|e| (e.token.kind(), e.token.byte()))
            .collect();
        assert_eq!(
            sent,
            vec![
                (TokenKind::Data, 1),
                (TokenKind::Data, 0x42),
                (TokenKind::Eom, 0)
            ]
        );
    }

    #[test]
    fn a_deleted_header_hands_its_journey_to_a_next_header_that_comes_later() {
        // The next header arrives long after the deleted one was routed (its link
        // stalled): it must still take the packet's journey, or the switches crossed
        // so far would be lost from it.
        let mut d = Driver::new(switch(5, 40));
        prime(&mut d);
        let s = stamp(1);
        let j = Journey {
            input_wait: 3,
            output_wait: 4,
            hops: 2,
        };
        let mut head = Token::data(9, s);
        head.set_packet(Some(Box::new(PacketInfo {
            stamp: s,
            journey: j,
        })));
        d.arrive(100, 2, head);
        d.arrive(200, 2, Token::data(1, s));
        d.arrive(210, 2, Token::end(true, s));
        for t in 100..400 {
            d.step_at(t).unwrap();
        }
        let sent = data_emits(&d, 1);
        assert_eq!(sent.len(), 2);
        assert_eq!(sent[0].token.byte(), 1);
        assert_eq!(
            sent[0].token.journey().hops,
            3,
            "{:?}",
            sent[0].token.journey()
        );
        // Its earlier waits are kept, plus the 100 ticks it waited here for its next
        // header (counted from its first token's arrival).
        assert_eq!(sent[0].token.journey().input_wait, 3 + 100);
    }

    #[test]
    fn a_random_header_is_prepended_on_a_generating_link() {
        let mut sw = switch(0, 40);
        sw.p.routing.generate_on(0, (1, 3)); // random label 1 or 2
        let mut d = Driver::new(sw);
        prime(&mut d);
        let mut used = [0; 4];
        for k in 0..40u64 {
            let t0 = 100 + k * 100;
            let s = stamp(k as u32);
            d.arrive(t0, 0, Token::data(3, s));
            d.step_at(t0).unwrap();
            d.arrive(t0 + 10, 0, Token::end(false, s));
            for t in t0 + 10..t0 + 100 {
                d.step_at(t).unwrap();
            }
        }
        for (p, u) in used.iter_mut().enumerate() {
            let d = data_emits(&d, p);
            *u = d
                .iter()
                .filter(|e| e.token.kind() == TokenKind::Eop)
                .count();
            for e in d.iter().filter(|e| e.token.kind() == TokenKind::Data) {
                assert!(
                    e.token.byte() == 3 || e.token.byte() as usize == p,
                    "random header then original"
                );
            }
        }
        assert_eq!(used[0] + used[3], 0, "only the random range is used");
        assert_eq!(used[1] + used[2], 40);
        assert!(
            used[1] > 10 && used[2] > 10,
            "both random choices occur: {used:?}"
        );
    }

    /// A switch on which label 5 may leave on port 2 or 3.
    fn grouped_switch() -> C104 {
        let mut sw = switch(0, 40);
        let mut iv: Vec<_> = (0..4)
            .map(|p| (p as u32, p as u32 + 1, RouteAction::Output(p)))
            .collect();
        iv.push((5, 6, RouteAction::Group { first: 2, count: 2 }));
        sw.p.routing = LabelRouting::new(Arc::new(IntervalTable::new(iv).unwrap()), 4);
        sw
    }

    fn eops(d: &Sw, p: PortId) -> Vec<u32> {
        data_emits(d, p)
            .iter()
            .filter(|e| e.token.kind() == TokenKind::Eop)
            .map(|e| e.token.stamp().src)
            .collect()
    }

    #[test]
    fn grouped_adaptive_routing_sends_two_packets_at_once_on_two_group_links() {
        let mut d = Driver::new(grouped_switch());
        prime(&mut d);
        for inp in [0, 1] {
            d.arrive(100, inp, Token::data(5, stamp(inp as u32)));
            d.arrive(100, inp, Token::end(false, stamp(inp as u32)));
        }
        for t in 100..200 {
            d.step_at(t).unwrap();
        }
        let (a, b) = (data_emits(&d, 2), data_emits(&d, 3));
        assert_eq!((eops(&d, 2).len(), eops(&d, 3).len()), (1, 1));
        assert_eq!(a[0].at, b[0].at, "both headers leave together");
        assert_ne!(eops(&d, 2), eops(&d, 3));
    }

    #[test]
    fn grouped_adaptive_routing_avoids_a_held_output_and_waits_when_all_are_held() {
        let mut d = Driver::new(grouped_switch());
        prime(&mut d);
        // Input 0 holds port 2 with an unfinished packet (label 2).
        let long = stamp(0);
        d.arrive(100, 0, Token::data(2, long));
        d.step_at(100).unwrap();
        // Two group packets: both must use port 3, one after the other.
        for (inp, src) in [(1, 1u32), (3, 3u32)] {
            d.arrive(110, inp, Token::data(5, stamp(src)));
            d.arrive(110, inp, Token::end(false, stamp(src)));
        }
        for t in 101..300 {
            d.step_at(t).unwrap();
        }
        assert_eq!(eops(&d, 2), Vec::<u32>::new(), "port 2 is held by input 0");
        let mut on3 = eops(&d, 3);
        on3.sort();
        assert_eq!(on3, vec![1, 3]);
        // A third group packet while port 3 is busy and port 2 held: it waits for the
        // group, and takes port 2 when input 0's packet ends.
        d.arrive(300, 1, Token::data(5, stamp(7)));
        d.arrive(300, 1, Token::data(0, stamp(7)));
        d.arrive(300, 3, Token::data(5, stamp(8)));
        d.arrive(300, 3, Token::data(0, stamp(8)));
        for t in 300..320 {
            d.step_at(t).unwrap();
        }
        assert!(
            d.node().waits().iter().any(|w| (w.port == 3 || w.port == 1)
                && matches!(w.reason, WaitReason::OutputHeld { .. })),
            "one group packet waits: {:?}",
            d.node().waits()
        );
        d.arrive(320, 0, Token::end(false, long));
        d.arrive(320, 1, Token::end(false, stamp(7)));
        d.arrive(320, 3, Token::end(false, stamp(8)));
        for t in 320..500 {
            d.step_at(t).unwrap();
        }
        let mut all = [eops(&d, 2), eops(&d, 3)].concat();
        all.sort();
        assert_eq!(
            all,
            vec![0, 1, 3, 7, 8],
            "every packet left once, on 2 or 3"
        );
    }

    #[test]
    fn a_blocked_packet_holds_the_input_and_stops_credit() {
        // Output 1 has no credit: the packet fills the output buffer, then the input.
        let mut d = Driver::new(switch(0, 4));
        for t in 0..10 {
            d.step_at(t).unwrap(); // send the initial FCTs
        }
        d.clear_sent();
        let s = stamp(5);
        d.arrive(100, 0, Token::data(1, s));
        for k in 1..16 {
            d.arrive(100 + 10 * k, 0, Token::data(0, s));
        }
        for t in 100..300 {
            d.step_at(t).unwrap();
        }
        assert_eq!(d.node().ports[1].out.len(), 4);
        assert_eq!(d.node().ports[0].ep.rx_len(), 12);
        let waits = d.node().waits();
        assert!(
            waits
                .iter()
                .any(|w| w.port == 0 && w.reason == WaitReason::OutputFull { output: 1 }),
            "{waits:?}"
        );
        assert!(
            waits
                .iter()
                .any(|w| w.port == 1 && w.reason == WaitReason::NoCredit),
            "{waits:?}"
        );
        // 4 tokens crossed, so input 0 owes no new FCT yet beyond the initial ones.
        assert!(d.sent().iter().all(|e| e.port != 1));
    }

    #[test]
    fn an_input_whose_packet_stops_half_way_reports_it_incomplete() {
        // A packet for port 2 arrives on port 0: header and two data tokens, then
        // nothing (its link died). The switch forwards what it has; the input, connected
        // to output 2 with nothing buffered, must say it waits for the rest (the wait a
        // link fault is diagnosed from), and keeps output 2 (wormhole routing holds the
        // route until the terminator passes, INMOS ch. 7 §7.1).
        let mut d = Driver::new(switch(0, 40));
        prime(&mut d);
        let s = stamp(4);
        d.arrive(100, 0, Token::data(2, s));
        d.arrive(110, 0, Token::data(1, s));
        d.arrive(120, 0, Token::data(2, s));
        for t in 100..400 {
            d.step_at(t).unwrap();
        }
        let waits = d.node().waits();
        assert!(
            waits
                .iter()
                .any(|w| w.port == 0 && w.reason == WaitReason::Incomplete),
            "{waits:?}"
        );
        assert_eq!(d.node().owner[2], Some(0), "the route stays open");
        // Once the terminator comes, the wait goes.
        d.arrive(400, 0, Token::end(false, s));
        for t in 400..500 {
            d.step_at(t).unwrap();
        }
        assert!(d.node().waits().is_empty(), "{:?}", d.node().waits());
    }
}
