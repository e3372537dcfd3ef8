//! The C104 held to [`super::reference`], the switch as it was before its hot path was
//! rewritten: each is wired to the same random peers (DS-Link endpoints that send random
//! packets within their credit and take what the switch sends at random rates) and run
//! as an engine runs a node (tokens handed over at their arrival ticks, steps at the
//! ticks the switch asks for or a token arrives, or at every tick). After every step the
//! two must have sent the same tokens at the same ticks, asked for the same next tick,
//! and report the same waits, port counters and activity; or fail with the same error,
//! after which an engine reads nothing more of a node.

use super::{C104, C104Params, reference};
use crate::model::{Activity, ModelError, Node, PortId, Stamp, Wait};
use crate::parts::dslink::endpoint::{drain_peer, send_ready};
use crate::parts::dslink::{DsLink, Endpoint, LinkParams, Outbox, PortCounters, Token};
use crate::routing::{IntervalTable, LabelRouting, RouteAction};
use crate::time::Tick;
use proptest::prelude::*;
use std::collections::VecDeque;
use std::sync::Arc;

/// The label that deletes its header (INMOS ch. 7 §7.1).
const DELETE: u32 = 250;

/// One packet a peer sends.
#[derive(Clone, Debug)]
struct PacketSpec {
    /// Ticks after the peer's previous packet was queued that this one is.
    gap: Tick,
    /// A header to delete goes first.
    delete_first: bool,
    /// The routing label: an output, or one past the last port for the group.
    label: u32,
    /// Data tokens after the header.
    body: u8,
    /// Ends with EOM rather than EOP.
    eom: bool,
}

/// One random switch, its peers and how it is run.
#[derive(Clone, Debug)]
struct Case {
    ports: usize,
    header_bytes: u32,
    routing_delay: Tick,
    output_buffer: u32,
    buffer: u32,
    batch: u32,
    latency: Tick,
    /// The inputs that prepend a random header.
    generate: Vec<bool>,
    /// The group label's ports: `first..first + count`.
    group: (PortId, PortId),
    /// Per port: the packets its peer sends.
    packets: Vec<Vec<PacketSpec>>,
    /// Per port: its peer takes one received token every so many ticks (0: at once).
    drain: Vec<Tick>,
    /// Step at every tick rather than only when due.
    every_tick: bool,
    seed: u64,
}

impl Case {
    fn params(&self) -> C104Params {
        let mut iv: Vec<_> = (0..self.ports)
            .map(|p| (p as u32, p as u32 + 1, RouteAction::Output(p)))
            .collect();
        let (first, count) = self.group;
        let g = self.ports as u32;
        iv.push((g, g + 1, RouteAction::Group { first, count }));
        iv.push((DELETE, DELETE + 1, RouteAction::Delete));
        let table = IntervalTable::new(iv).unwrap_or_else(|e| panic!("{e}"));
        let mut routing = LabelRouting::new(Arc::new(table), self.ports);
        for (p, &on) in self.generate.iter().enumerate() {
            if on {
                routing.generate_on(p, (0, g + 1));
            }
        }
        C104Params {
            ports: self.ports,
            link: self.link(),
            header_bytes: self.header_bytes,
            routing_delay: self.routing_delay,
            output_buffer: self.output_buffer,
            routing,
            seed: self.seed,
        }
    }

    fn link(&self) -> LinkParams {
        LinkParams {
            buffer: self.buffer,
            batch: self.batch,
            extra_initial_credit: 0,
        }
    }

    /// The tokens of packet `k` from peer `port`.
    fn tokens(&self, port: PortId, k: usize, spec: &PacketSpec) -> Vec<Token> {
        let header = |label: u32| {
            (0..self.header_bytes)
                .rev()
                .map(move |b| Token::data_only((label >> (8 * b)) as u8))
        };
        let mut v: Vec<Token> = Vec::new();
        if spec.delete_first {
            v.extend(header(DELETE));
        }
        v.extend(header(spec.label));
        v.extend((0..spec.body).map(|b| Token::data_only(b.wrapping_mul(37))));
        v.push(Token::end_only(spec.eom));
        let stamp = Stamp {
            src: port as u32,
            seq: k as u32,
            ..Stamp::default()
        };
        let first = Token::data(v[0].byte(), stamp);
        v[0] = first;
        v
    }
}

/// A DS-Link endpoint on the far side of one switch port.
struct Peer {
    ep: Endpoint,
    /// Packets still to queue: the tick each is queued, and its tokens.
    packets: VecDeque<(Tick, Vec<Token>)>,
    /// Tokens queued to send.
    queue: VecDeque<Token>,
    /// Takes a received token every `drain` ticks; 0 takes them at once.
    drain: Tick,
    next_drain: Tick,
}

impl Peer {
    /// One tick of the peer: take what it may, queue released packets, send what its
    /// transmitter starts now. Returns what it sent, with the tick its last bit left.
    fn tick(&mut self, t: Tick) -> Vec<(Tick, Token)> {
        drain_peer(&mut self.ep, self.drain, &mut self.next_drain, t);
        while let Some((at, _)) = self.packets.front()
            && *at <= t
        {
            if let Some((_, toks)) = self.packets.pop_front() {
                self.queue.extend(toks);
            }
        }
        send_ready(&mut self.ep, &mut self.queue, t)
    }
}

/// What one switch did at one step.
#[derive(Debug, PartialEq)]
struct StepRecord {
    tick: Tick,
    next: Result<Option<Tick>, String>,
    sent: Vec<(PortId, Tick, Token)>,
    waits: Vec<Wait>,
    counters: Vec<PortCounters>,
    activity: Activity,
}

/// A switch wired to its peers, run as an engine runs a node.
struct Bench<S> {
    switch: S,
    peers: Vec<Peer>,
    /// Per port: tokens on their way to the switch (arrival tick, token), in order.
    to_switch: Vec<VecDeque<(Tick, Token)>>,
    /// Per port: tokens on their way to the peer.
    to_peer: Vec<VecDeque<(Tick, Token)>>,
    latency: Tick,
    every_tick: bool,
    wake: Option<Tick>,
    out: Outbox,
    failed: bool,
}

impl<S: Node<DsLink>> Bench<S> {
    fn new(case: &Case, switch: S) -> Bench<S> {
        let peers = (0..case.ports)
            .map(|p| {
                let mut at = 0;
                let packets = case.packets[p]
                    .iter()
                    .enumerate()
                    .map(|(k, spec)| {
                        at += spec.gap;
                        (at, case.tokens(p, k, spec))
                    })
                    .collect();
                Peer {
                    ep: Endpoint::new(case.link()),
                    packets,
                    queue: VecDeque::new(),
                    drain: case.drain[p],
                    next_drain: 0,
                }
            })
            .collect();
        Bench {
            switch,
            peers,
            to_switch: vec![VecDeque::new(); case.ports],
            to_peer: vec![VecDeque::new(); case.ports],
            latency: case.latency,
            every_tick: case.every_tick,
            wake: Some(0),
            out: Outbox::default(),
            failed: false,
        }
    }

    /// Tick `t`: the peers act, then the switch takes the tokens due and steps if it is
    /// due. Returns what it did if it stepped.
    fn tick(&mut self, t: Tick) -> Option<StepRecord> {
        if self.failed {
            return None;
        }
        for (p, peer) in self.peers.iter_mut().enumerate() {
            while let Some((a, _)) = self.to_peer[p].front()
                && *a <= t
            {
                if let Some((_, tok)) = self.to_peer[p].pop_front() {
                    peer.ep
                        .receive(p, tok)
                        .unwrap_or_else(|e| panic!("the peer on port {p} at {t}: {e}"));
                }
            }
            for (at, tok) in peer.tick(t) {
                self.to_switch[p].push_back((at + self.latency, tok));
            }
        }
        let mut due = self.every_tick || self.wake == Some(t);
        let mut result: Result<(), ModelError> = Ok(());
        for p in 0..self.to_switch.len() {
            while let Some((a, _)) = self.to_switch[p].front()
                && *a <= t
                && result.is_ok()
            {
                if let Some((a, tok)) = self.to_switch[p].pop_front() {
                    due = true;
                    result = self.switch.receive(a, p, tok);
                }
            }
        }
        if !due {
            return None;
        }
        let next = result
            .and_then(|()| self.switch.step(t, &mut self.out))
            .map_err(|e| e.to_string());
        if next.is_err() {
            // A run ends at a node's error: the engines drop what the step sent and
            // report the error alone (engine::run_window), so only the error compares.
            self.failed = true;
            self.out.emits.clear();
            return Some(StepRecord { next, ..missing(t) });
        }
        let sent: Vec<_> = self
            .out
            .emits
            .drain(..)
            .map(|e| (e.port, e.at, e.token))
            .collect();
        for (p, at, tok) in &sent {
            self.to_peer[*p].push_back((at + self.latency, tok.clone()));
        }
        self.wake = next.as_ref().ok().copied().flatten();
        Some(StepRecord {
            tick: t,
            next,
            sent,
            waits: self.switch.waits(),
            counters: (0..self.peers.len())
                .map(|p| self.switch.port_counters(p))
                .collect(),
            activity: self.out.activity,
        })
    }
}

fn packet() -> impl Strategy<Value = PacketSpec> {
    (
        0..60u64,
        prop::bool::weighted(0.2),
        0..8u32,
        0..24u8,
        any::<bool>(),
    )
        .prop_map(|(gap, delete_first, label, body, eom)| PacketSpec {
            gap,
            delete_first,
            label,
            body,
            eom,
        })
}

fn case() -> impl Strategy<Value = Case> {
    (2..=6usize, 1..=2u32, 1..=8u32).prop_flat_map(|(ports, hb, batch)| {
        (
            (0..40u64, 1..40u32, batch..=24u32, 0..30u64),
            prop::collection::vec(prop::bool::weighted(0.2), ports),
            (0..ports, 1..=ports),
            prop::collection::vec(prop::collection::vec(packet(), 0..10), ports),
            prop::collection::vec(prop::sample::select(vec![0u64, 0, 3, 10, 25]), ports),
            any::<bool>(),
            any::<u64>(),
        )
            .prop_map(
                move |(
                    (routing_delay, output_buffer, buffer, latency),
                    generate,
                    (first, count),
                    mut packets,
                    drain,
                    every_tick,
                    seed,
                )| {
                    // Labels past the group's are outputs the switch does not have:
                    // keep them, rarely, for the routing error.
                    for spec in packets.iter_mut().flatten() {
                        if spec.label > ports as u32 && spec.label != 7 {
                            spec.label %= ports as u32 + 1;
                        }
                    }
                    Case {
                        ports,
                        header_bytes: hb,
                        routing_delay,
                        output_buffer,
                        buffer,
                        batch,
                        latency,
                        generate,
                        group: (first, count.min(ports - first)),
                        packets,
                        drain,
                        every_tick,
                        seed,
                    }
                },
            )
    })
}

/// Runs `case` on the live switch and the reference for `ticks` ticks; the first step
/// at which they differ, if any.
fn first_difference(case: &Case, ticks: Tick) -> Option<(StepRecord, StepRecord)> {
    let mut live = Bench::new(case, C104::new(case.params()));
    let mut old = Bench::new(case, reference::C104::new(case.params()));
    for t in 0..ticks {
        let (a, b) = (live.tick(t), old.tick(t));
        match (a, b) {
            (Some(a), Some(b)) if a != b => return Some((a, b)),
            (Some(a), None) => return Some((a, missing(t))),
            (None, Some(b)) => return Some((missing(t), b)),
            _ => {}
        }
    }
    None
}

/// The record of a step that was not taken (or only the tick of one that failed).
fn missing(t: Tick) -> StepRecord {
    StepRecord {
        tick: t,
        next: Err("no step".into()),
        sent: Vec::new(),
        waits: Vec::new(),
        counters: Vec::new(),
        activity: Activity::default(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_switch_sends_and_reports_what_the_reference_does(case in case()) {
        if let Some((live, old)) = first_difference(&case, 3_000) {
            prop_assert!(false, "at tick {}:\nlive      {live:?}\nreference {old:?}", live.tick);
        }
    }
}

/// The bench itself: packets cross the switch, so the comparison above compares
/// something.
#[test]
fn packets_cross_the_bench_switch() {
    let spec = |label| PacketSpec {
        gap: 5,
        delete_first: false,
        label,
        body: 6,
        eom: false,
    };
    let case = Case {
        ports: 3,
        header_bytes: 1,
        routing_delay: 4,
        output_buffer: 8,
        buffer: 20,
        batch: 8,
        latency: 3,
        generate: vec![false; 3],
        group: (0, 3),
        packets: vec![vec![spec(1), spec(2)], vec![spec(0)], vec![spec(3)]],
        drain: vec![0, 3, 10],
        every_tick: false,
        seed: 1,
    };
    let mut bench = Bench::new(&case, C104::new(case.params()));
    let mut data = 0;
    for t in 0..2_000 {
        if let Some(r) = bench.tick(t) {
            assert!(r.next.is_ok(), "{:?}", r.next);
            data += r
                .sent
                .iter()
                .filter(|(_, _, tok)| tok.kind().is_flow_controlled())
                .count();
        }
    }
    // Four packets of a header, six data tokens and an EOP.
    assert_eq!(data, 4 * 8);
    assert!(first_difference(&case, 2_000).is_none());
}
