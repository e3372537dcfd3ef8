//! The T9000 held to [`super::reference`], the node as it was before its hot path was
//! rewritten: each is wired to the same random link peer and run as an engine runs a
//! node (tokens handed over at their arrival ticks, steps at the ticks the node asks
//! for or a token arrives, or at every tick). The peer is the network seen from the
//! terminal (INMOS ch. 6 §6.1.1, §6.2.3): a DS-Link endpoint that sends random packets
//! addressed to the node (messages of one or more packets, from random sources, with
//! random journeys, now and then a malformed one), acknowledges the node's data packets
//! after a random delay when the protocol is on, and takes what the node sends at a
//! random rate. The node's own traffic is random too: its destinations, injection
//! (continuous, Bernoulli, a batch, or messages pushed into an external feed), message
//! length, measurement window, packet size, header length and channels.
//!
//! After every step the two must have sent the same tokens at the same ticks, asked for
//! the same next tick, and report the same waits, port counters, activity, terminal
//! counters, wire bits and deliveries to the feed; at the end, the same terminal
//! statistics. Or they must fail with the same error, after which an engine reads
//! nothing more of a node.

use super::vcp::VcpParams;
use super::{Processor, ProcessorParams, reference};
use crate::model::{Activity, ModelError, Node, PartStats, Stamp, Wait};
use crate::parts::dslink::endpoint::{drain_peer, send_ready};
use crate::parts::dslink::{DsLink, Endpoint, LinkParams, Outbox, PortCounters, Token, TokenKind};
use crate::terminal::{TerminalCounters, TerminalParams};
use crate::time::Tick;
use crate::traffic::external::{Delivery, Feed, Pushed};
use crate::traffic::{Destination, Injection};
use proptest::prelude::*;
use std::collections::VecDeque;

/// The tick before which no packet from the peer is queued: every incoming message is
/// created before it, so its latencies are never negative.
const FIRST_PACKET: Tick = 60;

/// How an incoming packet breaks the protocol, if it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flaw {
    /// Well formed.
    Sound,
    /// Its header names another terminal (a routing error).
    WrongHeader,
    /// It ends inside its header.
    ShortHeader,
    /// An empty EOP packet not marked as an acknowledge (malformed).
    Unmarked,
    /// An acknowledge of a packet the node is not waiting on.
    StrayAck,
}

/// One packet the peer sends the node.
#[derive(Clone, Debug)]
struct PacketSpec {
    /// Ticks after the peer's previous packet was queued that this one is.
    gap: Tick,
    /// Its message's source terminal.
    src: u32,
    /// Its message's sequence number at the source.
    seq: u32,
    /// Its index in its message.
    pkt: u16,
    /// Data tokens after the header.
    body: u8,
    /// Ends with EOM rather than EOP (always when `body` is 0 and the packet is
    /// well formed: an empty EOP packet is an acknowledge).
    eom: bool,
    /// Switches crossed on its way, with the input and output waits at each.
    hops: Vec<(Tick, Tick)>,
    flaw: Flaw,
}

/// How the node's own messages are made.
#[derive(Clone, Debug)]
enum Source {
    Continuous,
    Bernoulli(f64),
    Batch(u32),
    /// Messages pushed into a feed before the run: (destination, bytes, creation tick).
    External(Vec<(u32, u32, Tick)>),
}

/// One random T9000, its peer and how it is run.
#[derive(Clone, Debug)]
struct Case {
    label: u32,
    terminals: u32,
    header_bytes: u32,
    max_data_bytes: u32,
    acknowledge: bool,
    channels: u32,
    channels_per_destination: u32,
    buffer: u32,
    batch: u32,
    latency: Tick,
    sends: bool,
    destination: Destination,
    source: Source,
    message_bytes: u32,
    start: Tick,
    window: (Tick, Tick),
    seed: u64,
    /// `enable_checks` is called before the first tick.
    checks: bool,
    /// The packets the peer sends.
    packets: Vec<PacketSpec>,
    /// The peer acknowledges a data packet this many ticks after its first token
    /// arrived.
    ack_delay: Tick,
    /// The peer takes one received token every so many ticks (0: at once).
    drain: Tick,
    /// Step at every tick rather than only when due.
    every_tick: bool,
}

impl Case {
    fn link(&self) -> LinkParams {
        LinkParams {
            buffer: self.buffer,
            batch: self.batch,
            extra_initial_credit: 0,
        }
    }

    /// The node's parameters, with `feed` for external injection.
    fn params(&self, feed: Option<&Feed>) -> ProcessorParams {
        let injection = match (&self.source, feed) {
            (Source::Continuous, _) => Injection::Continuous,
            (Source::Bernoulli(p), _) => Injection::Bernoulli(*p),
            (Source::Batch(k), _) => Injection::Batch(*k),
            (Source::External(_), Some(f)) => Injection::External(f.clone()),
            (Source::External(_), None) => Injection::Batch(0),
        };
        ProcessorParams {
            vcp: VcpParams {
                link: self.link(),
                header_bytes: self.header_bytes,
                max_data_bytes: self.max_data_bytes,
                acknowledge: self.acknowledge,
                channels: self.channels,
                channels_per_destination: self.channels_per_destination,
            },
            terminal: TerminalParams {
                label: self.label,
                sends: self.sends,
                destination: self.destination,
                injection,
                message_bytes: self.message_bytes,
                start: self.start,
                window: self.window,
                terminals: self.terminals,
                seed: self.seed,
            },
        }
    }

    /// A feed holding the case's pushed messages, if it has any.
    fn feed(&self) -> Option<Feed> {
        let Source::External(pushes) = &self.source else {
            return None;
        };
        let feed = Feed::new(self.terminals);
        let mut pushes = pushes.clone();
        pushes.sort_by_key(|&(_, _, at)| at);
        for (dst, bytes, created) in pushes {
            feed.push(
                self.label,
                Pushed {
                    dst,
                    bytes,
                    created,
                },
            )
            .unwrap_or_else(|e| panic!("{e}"));
        }
        Some(feed)
    }

    /// The header tokens naming `label`.
    fn header(&self, label: u32) -> impl Iterator<Item = Token> {
        (0..self.header_bytes)
            .rev()
            .map(move |b| Token::data_only((label >> (8 * b)) as u8))
    }

    /// The tokens of `spec`, queued at `at`.
    fn tokens(&self, spec: &PacketSpec, at: Tick) -> Vec<Token> {
        let mut stamp = Stamp {
            src: spec.src,
            dst: self.label,
            seq: spec.seq,
            pkt: spec.pkt,
            ack: false,
            // The same for every packet of one message, and before FIRST_PACKET.
            created: Tick::from(spec.seq * 7 + spec.src * 3) % FIRST_PACKET,
            injected: at,
        };
        let mut v: Vec<Token> = match spec.flaw {
            Flaw::WrongHeader => self.header(self.label + 1).collect(),
            Flaw::ShortHeader => self
                .header(self.label)
                .take(self.header_bytes as usize - 1)
                .collect(),
            _ => self.header(self.label).collect(),
        };
        match spec.flaw {
            Flaw::ShortHeader => v.push(Token::end_only(false)),
            Flaw::Unmarked => v.push(Token::end_only(false)),
            Flaw::StrayAck => {
                stamp = Stamp {
                    src: self.label,
                    ack: true,
                    seq: 1_000_000 + spec.seq,
                    ..stamp
                };
                v.push(Token::end_only(false));
            }
            Flaw::Sound | Flaw::WrongHeader => {
                v.extend((0..spec.body).map(|b| Token::data_only(b.wrapping_mul(29))));
                v.push(Token::end_only(spec.eom || spec.body == 0));
            }
        }
        let mut first = match v[0].kind() {
            TokenKind::Data => Token::data(v[0].byte(), stamp),
            _ => Token::end(false, stamp),
        };
        for &(input, output) in &spec.hops {
            first.cross(input, output);
        }
        v[0] = first;
        v
    }

    /// The acknowledge of the node's data packet `s` (INMOS ch. 6 §6.2.3): an empty
    /// packet to its source.
    fn ack(&self, s: &Stamp) -> Vec<Token> {
        let mut v: Vec<Token> = self.header(s.src).collect();
        v.push(Token::end_only(false));
        v[0] = Token::data(v[0].byte(), Stamp { ack: true, ..*s });
        v
    }
}

/// The DS-Link endpoint on the far side of the node's link: the network.
struct Peer {
    ep: Endpoint,
    /// Packets still to queue: the tick each is queued, and its tokens.
    packets: VecDeque<(Tick, Vec<Token>)>,
    /// Acknowledges still to queue, likewise.
    acks: VecDeque<(Tick, Vec<Token>)>,
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
        for list in [&mut self.packets, &mut self.acks] {
            while let Some((at, _)) = list.front()
                && *at <= t
            {
                if let Some((_, toks)) = list.pop_front() {
                    self.queue.extend(toks);
                }
            }
        }
        send_ready(&mut self.ep, &mut self.queue, t)
    }
}

/// What one node did at one step.
#[derive(Debug, PartialEq)]
struct StepRecord {
    tick: Tick,
    next: Result<Option<Tick>, String>,
    sent: Vec<(Tick, Token)>,
    waits: Vec<Wait>,
    counters: Option<PortCounters>,
    activity: Activity,
    terminal: Option<TerminalCounters>,
    parts: Option<PartStats>,
    delivered: Vec<Delivery>,
}

/// A node wired to its peer, run as an engine runs a node.
struct Bench<N> {
    node: N,
    peer: Peer,
    feed: Option<Feed>,
    /// Tokens on their way to the node (arrival tick, token), in order.
    to_node: VecDeque<(Tick, Token)>,
    /// Tokens on their way to the peer.
    to_peer: VecDeque<(Tick, Token)>,
    latency: Tick,
    ack_delay: Tick,
    acknowledge: bool,
    every_tick: bool,
    wake: Option<Tick>,
    out: Outbox,
    failed: bool,
}

impl<N: Node<DsLink>> Bench<N> {
    fn new(case: &Case, make: impl FnOnce(ProcessorParams) -> N) -> Bench<N> {
        let feed = case.feed();
        let mut node = make(case.params(feed.as_ref()));
        if case.checks {
            node.enable_checks();
        }
        let mut at = FIRST_PACKET;
        let packets = case
            .packets
            .iter()
            .map(|spec| {
                at += spec.gap;
                (at, case.tokens(spec, at))
            })
            .collect();
        Bench {
            node,
            peer: Peer {
                ep: Endpoint::new(case.link()),
                packets,
                acks: VecDeque::new(),
                queue: VecDeque::new(),
                drain: case.drain,
                next_drain: 0,
            },
            feed,
            to_node: VecDeque::new(),
            to_peer: VecDeque::new(),
            latency: case.latency,
            ack_delay: case.ack_delay,
            acknowledge: case.acknowledge,
            every_tick: case.every_tick,
            wake: Some(0),
            out: Outbox::default(),
            failed: false,
        }
    }

    /// Tick `t`: the peer acts (acknowledging the node's data packets whose first token
    /// arrives), then the node takes the tokens due and steps if it is due. Returns
    /// what it did if it stepped.
    fn tick(&mut self, case: &Case, t: Tick) -> Option<StepRecord> {
        if self.failed {
            return None;
        }
        while let Some((a, _)) = self.to_peer.front()
            && *a <= t
        {
            if let Some((_, tok)) = self.to_peer.pop_front() {
                if let Some(info) = tok.packet()
                    && !info.stamp.ack
                    && self.acknowledge
                {
                    self.peer
                        .acks
                        .push_back((t + self.ack_delay, case.ack(&info.stamp)));
                }
                self.peer
                    .ep
                    .receive(0, tok)
                    .unwrap_or_else(|e| panic!("the peer at {t}: {e}"));
            }
        }
        for (at, tok) in self.peer.tick(t) {
            self.to_node.push_back((at + self.latency, tok));
        }
        let mut due = self.every_tick || self.wake == Some(t);
        let mut result: Result<(), ModelError> = Ok(());
        while let Some((a, _)) = self.to_node.front()
            && *a <= t
            && result.is_ok()
        {
            if let Some((a, tok)) = self.to_node.pop_front() {
                due = true;
                result = self.node.receive(a, 0, tok);
            }
        }
        if !due {
            return None;
        }
        let next = result
            .and_then(|()| self.node.step(t, &mut self.out))
            .map_err(|e| e.to_string());
        if next.is_err() {
            // A run ends at a node's error: the engines drop what the step sent and
            // report the error alone (engine::run_window), so only the error compares.
            self.failed = true;
            self.out.emits.clear();
            return Some(StepRecord { next, ..missing(t) });
        }
        let sent: Vec<_> = self.out.emits.drain(..).map(|e| (e.at, e.token)).collect();
        for (at, tok) in &sent {
            self.to_peer.push_back((at + self.latency, tok.clone()));
        }
        self.wake = next.as_ref().ok().copied().flatten();
        Some(StepRecord {
            tick: t,
            next,
            sent,
            waits: self.node.waits(),
            counters: Some(self.node.port_counters(0)),
            activity: self.out.activity,
            terminal: self.node.terminal_stats().map(|s| s.counters),
            parts: self.node.part_stats(),
            delivered: self
                .feed
                .as_ref()
                .map(Feed::take_delivered)
                .unwrap_or_default(),
        })
    }

    /// The node's terminal statistics, in full.
    fn statistics(&self) -> String {
        format!("{:?}", self.node.terminal_stats())
    }
}

fn packet(terminals: u32) -> impl Strategy<Value = PacketSpec> {
    (
        (0..80u64, 0..terminals, 0..6u32, 0..4u16),
        (0..40u8, any::<bool>()),
        prop::collection::vec((0..30u64, 0..30u64), 0..4),
        prop_oneof![
            196 => Just(Flaw::Sound),
            1 => Just(Flaw::WrongHeader),
            1 => Just(Flaw::ShortHeader),
            1 => Just(Flaw::Unmarked),
            1 => Just(Flaw::StrayAck),
        ],
    )
        .prop_map(
            |((gap, src, seq, pkt), (body, eom), hops, flaw)| PacketSpec {
                gap,
                src,
                seq,
                pkt,
                body,
                eom,
                hops,
                flaw,
            },
        )
}

fn source(terminals: u32) -> impl Strategy<Value = Source> {
    prop_oneof![
        Just(Source::Continuous),
        (0.0005..0.02f64).prop_map(Source::Bernoulli),
        (0..6u32).prop_map(Source::Batch),
        prop::collection::vec((0..terminals, 0..100u32, 0..3_000u64), 0..12)
            .prop_map(Source::External),
    ]
}

fn destination(label: u32, terminals: u32) -> impl Strategy<Value = Destination> {
    prop_oneof![
        (0..terminals).prop_map(Destination::Fixed),
        Just(Destination::Uniform { terminals }),
        Just(Destination::AnyOf { count: terminals }),
        Just(Destination::UniformExcept {
            terminals,
            except: (label + 1) % terminals,
        }),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (2..=6u32, 1..=8u32).prop_flat_map(|(terminals, batch)| {
        (
            (
                0..terminals,
                1..=2u32,
                prop::sample::select(vec![32u32, 32, 32, 1, 5, 17]),
            ),
            (any::<bool>(), 1..=4u32, 1..=3u32, batch..=24u32, 1..30u64),
            (
                prop::bool::weighted(0.8),
                0..=120u32,
                0..300u64,
                0..2_000u64,
                0..4_000u64,
            ),
            (0..terminals).prop_flat_map(move |l| destination(l, terminals)),
            source(terminals),
            (any::<u64>(), any::<bool>(), any::<bool>()),
            prop::collection::vec(packet(terminals), 0..24),
            (
                prop::sample::select(vec![0u64, 0, 3, 40, 300]),
                prop::sample::select(vec![0u64, 0, 3, 10, 25]),
            ),
        )
            .prop_map(
                move |(
                    (label, header_bytes, max_data_bytes),
                    (acknowledge, channels, channels_per_destination, buffer, latency),
                    (sends, message_bytes, start, from, length),
                    destination,
                    source,
                    (seed, checks, every_tick),
                    packets,
                    (ack_delay, drain),
                )| Case {
                    label,
                    terminals,
                    header_bytes,
                    max_data_bytes,
                    acknowledge,
                    channels,
                    channels_per_destination,
                    buffer,
                    batch,
                    latency,
                    sends,
                    destination,
                    source,
                    message_bytes,
                    start,
                    window: (from, from + length),
                    seed,
                    checks,
                    packets,
                    ack_delay,
                    drain,
                    every_tick,
                },
            )
    })
}

/// Runs `case` on the live node and the reference for `ticks` ticks; the first step at
/// which they differ, if any, or the statistics they end with if those differ.
fn first_difference(case: &Case, ticks: Tick) -> Option<(StepRecord, StepRecord)> {
    let mut live = Bench::new(case, Processor::new);
    let mut old = Bench::new(case, reference::Processor::new);
    for t in 0..ticks {
        let (a, b) = (live.tick(case, t), old.tick(case, t));
        match (a, b) {
            (Some(a), Some(b)) if a != b => return Some((a, b)),
            (Some(a), None) => return Some((a, missing(t))),
            (None, Some(b)) => return Some((missing(t), b)),
            _ => {}
        }
    }
    let (a, b) = (live.statistics(), old.statistics());
    (a != b).then(|| {
        let end = |s| StepRecord {
            next: Err(s),
            ..missing(ticks)
        };
        (end(a), end(b))
    })
}

/// The record of a step that was not taken (or only the tick of one that failed).
fn missing(t: Tick) -> StepRecord {
    StepRecord {
        tick: t,
        next: Err("no step".into()),
        sent: Vec::new(),
        waits: Vec::new(),
        counters: None,
        activity: Activity::default(),
        terminal: None,
        parts: None,
        delivered: Vec::new(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_t9000_sends_and_reports_what_the_reference_does(case in case()) {
        if let Some((live, old)) = first_difference(&case, 8_000) {
            prop_assert!(false, "at tick {}:\nlive      {live:?}\nreference {old:?}", live.tick);
        }
    }
}

/// The bench itself: messages go both ways and are acknowledged, so the comparison
/// above compares something.
#[test]
fn messages_cross_the_bench_both_ways() {
    let spec = |seq, pkt, eom| PacketSpec {
        gap: 30,
        src: 0,
        seq,
        pkt,
        body: 32,
        eom,
        hops: vec![(3, 4)],
        flaw: Flaw::Sound,
    };
    let case = Case {
        label: 1,
        terminals: 3,
        header_bytes: 1,
        max_data_bytes: 32,
        acknowledge: true,
        channels: 2,
        channels_per_destination: 1,
        buffer: 20,
        batch: 8,
        latency: 5,
        sends: true,
        destination: Destination::Uniform { terminals: 3 },
        source: Source::External(vec![(0, 40, 10), (2, 70, 20), (0, 0, 500)]),
        message_bytes: 0,
        start: 0,
        window: (0, 4_000),
        seed: 3,
        checks: true,
        packets: vec![spec(0, 0, false), spec(0, 1, true), spec(1, 0, true)],
        ack_delay: 40,
        drain: 3,
        every_tick: false,
    };
    let mut bench = Bench::new(&case, Processor::new);
    let mut delivered = Vec::new();
    for t in 0..4_000 {
        if let Some(r) = bench.tick(&case, t) {
            assert!(r.next.is_ok(), "{:?}", r.next);
            delivered.extend(r.delivered);
        }
    }
    let c = bench.node.terminal_stats().map(|s| s.counters);
    let c = c.expect("a T9000 hosts a terminal");
    // Its own three messages (2 + 3 + 1 packets), each packet acknowledged; the peer's
    // two messages (three packets), delivered.
    assert_eq!((c.created, c.acks_received), (3, 6));
    assert_eq!((c.packets_delivered, c.delivered), (3, 2));
    assert_eq!(delivered.len(), 2);
    assert!(delivered.iter().all(|d| d.hops == 1 && d.dst == 1));
    assert!(first_difference(&case, 4_000).is_none());
}
