//! The C104 as it was before its hot path was rewritten, kept to prove the rewrite
//! changes no token, tick, wait or counter: `differential`'s proptest drives both with
//! the same random traffic and compares everything they emit and report. Its rules and
//! their sources are the live part's (the parent module's documentation).

use super::{C104Params, MAX_PORTS};
use crate::memory::push_bounded;
use crate::model::{ModelError, Node, PartStats, PortId, Stamp, WIRE_BITS, Wait, WaitReason};
use crate::parts::dslink::token::PacketInfo;
use crate::parts::dslink::{DsLink, Endpoint, Outbox, PortCounters, Token, TokenKind};
use crate::routing::RouteAction;
use crate::time::Tick;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

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
}

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
            self.sending |= 1 << k;
        } else {
            self.sending &= !(1u64 << k);
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
            self.refresh_sending(i, now);
            self.refresh_sending(output, now);
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
    /// output buffer that was full now has room: the only way sending can let another
    /// token cross the crossbar in the same tick.
    fn transmit(&mut self, now: Tick, out: &mut Outbox) -> bool {
        let cap = self.p.output_buffer as usize;
        let mut unblocked = false;
        for k in bits(self.sending) {
            let port = &mut self.ports[k];
            if port.start != now {
                continue;
            }
            while port.ep.ready_at(now, !port.out.is_empty()) == Some(now) {
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
            }
            self.refresh_sending(k, now);
        }
        unblocked
    }

    fn next_wake(&self, now: Tick) -> Option<Tick> {
        let mut wake: Option<Tick> = None;
        let mut note = |t: Tick| wake = Some(wake.map_or(t, |w| w.min(t)));
        for i in bits(self.advancing) {
            if let Input::Routing { ready, .. } = self.ports[i].input {
                note(ready.max(now + 1));
            }
        }
        for k in bits(self.sending) {
            note(self.ports[k].start.max(now + 1));
        }
        wake
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
        self.ports[port].ep.receive(port, token)?;
        if kind.is_flow_controlled() {
            let p = &mut self.ports[port];
            if std::mem::replace(&mut p.rx_at_start, kind.is_terminator()) {
                p.arrivals.push_back(now);
            }
            if p.input == Input::Idle {
                self.advancing |= 1 << port;
            }
            self.filled |= 1 << port;
        }
        // An FCT adds credit.
        self.refresh_sending(port, now);
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
            let unblocked = self.transmit(now, out);
            if !(again || granted || unblocked) {
                break;
            }
        }
        Ok(self.next_wake(now))
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
