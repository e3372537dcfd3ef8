//! The terminal: the traffic source and sink running on a T9000, attached to its VCP.
//!
//! As a source it creates messages per the traffic file and keeps them in a source
//! queue until the VCP takes them (INMOS ch. 7 §7.4: "Whenever an input
//! queue is empty, a new packet is created and put on the queue"). As a sink it
//! reassembles messages: a message is delivered when *all* its packets have arrived,
//! in whatever order (the EOM packet, the last one sent, tells how many there are:
//! INMOS ch. 6 §6.1.1, a message is packets of up to 32 bytes, the last
//! ended by EOM). Under universal or adaptive routing (INMOS ch. 7 §7.5) the packets of one
//! message take different paths and an earlier one can still be in flight when the
//! EOM packet arrives. For messages created inside the measurement window it records
//! the message latency (creation to the last packet's arrival), the network latency
//! (first token on the source link to the last packet's arrival) and the source
//! queueing time.
//!
//! **Order check.** Per source, messages must *complete* in sequence order; a message
//! that completes after a later one from the same source, or a duplicate, counts as
//! out of order. On a deterministic network with one channel per destination this is
//! a real error (one path, FIFO links and switches). On a multipath network without
//! acknowledges two messages from one source to this sink can legitimately complete
//! out of order; the report says so. Packet order *within* a message is not checked,
//! because reassembly makes it irrelevant; a packet that arrives twice is counted in
//! the same out-of-order counter ("out of order or twice").

pub mod journey;
pub mod metric;
pub mod packet;
mod sequence;
pub mod stats;

use crate::memory::Fill;
use crate::time::Tick;
use crate::traffic::external::{Delivery, Feed};
use crate::traffic::injection::geometric_gap;
use crate::traffic::{Destination, Injection};
pub use journey::{JourneyParts, JourneyStats};
pub use metric::Metric;
use packet::Arrival;
pub use packet::Stamp;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sequence::SequenceBook;
pub use stats::{SourceStats, TerminalCounters, TerminalStats};
use std::collections::{BTreeMap, VecDeque};

/// How far into the source queue the VCP looks for a message whose destination has
/// no message in progress.
const QUEUE_SCAN: usize = 64;

/// What a terminal counts for the engine's progress and completion decisions (added
/// into [`crate::model::Activity`] by the part that hosts the terminal).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MessageActivity {
    /// Messages created (any), so a front end can tell how many are waiting.
    pub messages_created: u64,
    /// Measured messages created: the run must see them delivered before it may end.
    pub obligations_opened: u64,
    /// Of those, messages delivered.
    pub obligations_closed: u64,
    /// Messages delivered (any), for progress display.
    pub messages_delivered: u64,
}

/// Parameters of one terminal.
#[derive(Clone, Debug)]
pub struct TerminalParams {
    /// This terminal's label (its address in headers).
    pub label: u32,
    /// Whether it creates messages.
    pub sends: bool,
    /// How it picks destinations.
    pub destination: Destination,
    /// When it creates messages.
    pub injection: Injection,
    /// Payload bytes per message.
    pub message_bytes: u32,
    /// First tick at which it may create messages.
    pub start: Tick,
    /// Measurement window `[from, to)`: messages created in it are measured.
    pub window: (Tick, Tick),
    /// Total number of terminals (for the per-source sequence check).
    pub terminals: u32,
    /// Seed of its random number generator.
    pub seed: u64,
}

/// A message waiting at its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    /// Destination terminal.
    pub dst: u32,
    /// Sequence number at the source.
    pub seq: u32,
    /// Payload bytes.
    pub bytes: u32,
    /// Creation tick.
    pub created: Tick,
}

/// A message being reassembled at its sink: which packets have arrived, and how many
/// there are once the last (EOM) packet has told.
#[derive(Clone, Debug, Default)]
struct Partial {
    /// Bit i set: packet i arrived.
    got: Vec<u64>,
    /// Packets arrived (distinct).
    count: u32,
    /// Packets in the message, known when the EOM packet has arrived.
    total: Option<u32>,
    /// The tick packet 0 started on the source link (the message's first token), once
    /// it has arrived.
    injected: Option<Tick>,
}

impl Partial {
    /// Marks packet `i`; false if it had already arrived.
    fn mark(&mut self, i: u32) -> bool {
        let (w, b) = ((i / 64) as usize, i % 64);
        if self.got.len() <= w {
            self.got.resize(w + 1, 0);
        }
        let fresh = self.got[w] & (1 << b) == 0;
        self.got[w] |= 1 << b;
        if fresh {
            self.count += 1;
        }
        fresh
    }
}

/// One terminal.
#[derive(Clone, Debug)]
pub struct Terminal {
    p: TerminalParams,
    rng: ChaCha8Rng,
    queue: VecDeque<Message>,
    next_seq: u32,
    next_arrival: Option<Tick>,
    batch_done: bool,
    /// Per source heard from: 1 + the last sequence number delivered here.
    sequences: SequenceBook,
    /// Messages with some but not all packets here, by (source, sequence number).
    partial: BTreeMap<(u32, u32), Partial>,
    stats: TerminalStats,
    activity: MessageActivity,
    /// The feed its messages come from and its deliveries go to, under
    /// [`Injection::External`] (found by its key when the terminal is built).
    feed: Option<Feed>,
}

impl TerminalParams {
    /// Bytes a terminal holds: its state, the sequence numbers of the sources it heard
    /// from (a few when lightly loaded, every terminal at worst), its statistics (see
    /// [`stats_memory_bound`]) and a batch's messages, queued at the start. Its source
    /// queue under other injections is not counted: it grows with what is offered.
    pub fn memory_bound(&self, fill: Fill) -> u64 {
        let batch = match self.injection {
            Injection::Batch(k) => u64::from(k) * std::mem::size_of::<Message>() as u64,
            _ => 0,
        };
        let sources = match fill {
            Fill::Full { .. } => u64::from(self.terminals),
            Fill::Light => SequenceBook::FIRST_ALLOCATION,
        };
        std::mem::size_of::<Terminal>() as u64
            + sources * SequenceBook::ENTRY_BYTES
            + stats_memory_bound(fill, StatsKept::JOURNEYS)
            + batch
    }
}

/// Which of a [`TerminalStats`]' optional metrics a terminal records (and so may make
/// histograms for), beside the three every terminal records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsKept {
    /// Its messages' latency seen from the source ([`SourceStats`]: SCI nodes).
    pub source: bool,
    /// The journeys' breakdown ([`JourneyStats`]: DS-Link terminals).
    pub journeys: bool,
    /// Parts of the family's own breakdown ([`JourneyParts`]: 4 on SCI nodes).
    pub parts: u64,
}

impl StatsKept {
    /// The three latency metrics only (fabric adapters).
    pub(crate) const LATENCY: StatsKept = StatsKept {
        source: false,
        journeys: false,
        parts: 0,
    };
    /// And the journeys' breakdown (DS-Link terminals).
    pub(crate) const JOURNEYS: StatsKept = StatsKept {
        source: false,
        journeys: true,
        parts: 0,
    };
    /// And the source's view of its messages (SCI nodes, which add their journey's
    /// parts).
    pub(crate) const SOURCE: StatsKept = StatsKept {
        source: true,
        journeys: false,
        parts: 0,
    };
}

/// Bytes one terminal's [`TerminalStats`] take: the struct and the values of the
/// metrics it records (three, the source's fourth if `kept.source`) and of the
/// journey's coarse ones (if `kept.journeys`, and `kept.parts`): a short list each when lightly loaded, a
/// histogram each at worst ([`Fill::metric`]). Once: at the end of a run the engines
/// take the statistics from the nodes for the report
/// ([`crate::model::Node::into_terminal_stats`]) rather than copy them.
pub fn stats_memory_bound(fill: Fill, kept: StatsKept) -> u64 {
    let histograms = 3 + u64::from(kept.source);
    let coarse = if kept.journeys {
        journey::JOURNEY_HISTOGRAMS
    } else {
        0
    } + kept.parts;
    std::mem::size_of::<TerminalStats>() as u64
        + histograms * fill.metric()
        + coarse * fill.coarse_metric()
}

impl Terminal {
    /// A terminal before its first tick.
    pub fn new(p: TerminalParams) -> Terminal {
        Terminal {
            rng: ChaCha8Rng::seed_from_u64(p.seed),
            queue: VecDeque::new(),
            next_seq: 0,
            next_arrival: None,
            batch_done: false,
            sequences: SequenceBook::default(),
            partial: BTreeMap::new(),
            stats: TerminalStats {
                journey: JourneyStats {
                    recorded: true,
                    ..JourneyStats::default()
                },
                ..TerminalStats::default()
            },
            activity: MessageActivity::default(),
            feed: match p.injection {
                Injection::External(ref feed) => Some(feed.clone()),
                _ => None,
            },
            p,
        }
    }

    fn in_window(&self, t: Tick) -> bool {
        self.p.window.0 <= t && t < self.p.window.1
    }

    fn create(&mut self, now: Tick) {
        let dst = self.p.destination.pick(self.p.label, &mut self.rng);
        self.add_message(dst, self.p.message_bytes, now);
    }

    /// Queues a message of `bytes` for `dst` created at `now`.
    fn add_message(&mut self, dst: u32, bytes: u32, now: Tick) {
        let m = Message {
            dst,
            seq: self.next_seq,
            bytes,
            created: now,
        };
        self.next_seq += 1;
        self.stats.counters.created += 1;
        self.activity.messages_created += 1;
        if self.in_window(now) {
            self.stats.counters.measured_created += 1;
            self.stats.counters.bytes_offered_in_window += u64::from(m.bytes);
            self.activity.obligations_opened += 1;
        }
        self.queue.push_back(m);
    }

    /// Creates the messages due at `now`. A continuous source (INMOS ch. 7 §7.4.1)
    /// creates one only when its queue is empty, which a node's step can tell without
    /// a call; Bernoulli, batch and external sources take a call out of line.
    #[inline]
    pub fn generate(&mut self, now: Tick) {
        if !self.p.sends || now < self.p.start {
            return;
        }
        if let Injection::Continuous = self.p.injection {
            if self.queue.is_empty() {
                self.create(now);
            }
            return;
        }
        self.generate_due(now);
    }

    /// [`Terminal::generate`] for Bernoulli, batch and external injection.
    #[inline(never)]
    fn generate_due(&mut self, now: Tick) {
        match self.p.injection {
            Injection::Continuous => {} // in `generate`
            Injection::Bernoulli(p) => {
                let mut next = match self.next_arrival {
                    Some(t) => t,
                    None => self.p.start + geometric_gap(p, &mut self.rng) - 1,
                };
                while next <= now {
                    self.create(next);
                    next += geometric_gap(p, &mut self.rng);
                }
                self.next_arrival = Some(next);
            }
            Injection::Batch(k) => {
                if !self.batch_done {
                    self.batch_done = true;
                    for _ in 0..k {
                        self.create(now);
                    }
                }
            }
            Injection::External(_) => self.take_pushed(now),
        }
    }

    /// Creates the pushed messages due at `now`, each at the tick it was pushed for.
    fn take_pushed(&mut self, now: Tick) {
        loop {
            let due = match &self.feed {
                Some(feed) => feed.pop_due(self.p.label, now),
                None => None,
            };
            let Some(m) = due else {
                return;
            };
            self.add_message(m.dst, m.bytes, m.created);
        }
    }

    /// The next tick at which the terminal creates a message on its own.
    pub fn wake(&self, now: Tick) -> Option<Tick> {
        if !self.p.sends {
            return None;
        }
        if now < self.p.start {
            return Some(self.p.start);
        }
        match self.p.injection {
            Injection::Bernoulli(_) => self.next_arrival,
            Injection::External(_) => self.feed.as_ref()?.next_due(self.p.label),
            // Continuous refills when the VCP takes a message; a batch is created at
            // `start` by the `generate` call that precedes every `wake`.
            Injection::Continuous | Injection::Batch(_) => None,
        }
    }

    /// True if a message is waiting in the source queue.
    pub(crate) fn has_message(&self) -> bool {
        !self.queue.is_empty()
    }

    /// Hands the VCP the oldest queued message whose destination `busy` says is free,
    /// then refills the queue under continuous injection.
    pub fn take(&mut self, now: Tick, busy: impl Fn(u32) -> bool) -> Option<Message> {
        let i = self
            .queue
            .iter()
            .take(QUEUE_SCAN)
            .position(|m| !busy(m.dst))?;
        let m = self.queue.remove(i);
        if let Some(m) = &m
            && self.in_window(now)
        {
            self.stats.counters.bytes_sent_in_window += u64::from(m.bytes);
        }
        if matches!(self.p.injection, Injection::Continuous) {
            self.generate(now);
        }
        m
    }

    /// A data packet with `bytes` of payload finished arriving here (`a`); `last` is
    /// true for the message's EOM packet; its stamp's `injected` is the tick the
    /// packet started on its source link. Delivers the message when this was its last
    /// missing packet.
    pub(crate) fn packet_delivered(&mut self, a: &Arrival, bytes: u32, s: &Stamp, last: bool) {
        let now = a.at;
        self.stats.counters.packets_delivered += 1;
        if self.in_window(now) {
            self.stats.counters.bytes_delivered_in_window += u64::from(bytes);
        }
        let pkt = u32::from(s.pkt);
        if last && pkt == 0 && !self.partial.contains_key(&(s.src, s.seq)) {
            // A one-packet message: nothing to reassemble.
            self.message_delivered(a, s, s.injected);
            return;
        }
        let key = (s.src, s.seq);
        let part = self.partial.entry(key).or_default();
        if !part.mark(pkt) {
            self.stats.counters.out_of_order += 1; // a packet twice
            return;
        }
        if pkt == 0 {
            part.injected = Some(s.injected);
        }
        if last {
            part.total = Some(pkt + 1);
            if part.count < pkt + 1 {
                self.stats.counters.eom_overtook += 1;
            }
        }
        if part.total == Some(part.count) {
            let injected = part.injected.unwrap_or(s.injected);
            self.partial.remove(&key);
            self.message_delivered(a, s, injected);
        }
    }

    /// Keeps, from now on, the records `--check` needs to check every delivered
    /// message's timing identity ([`journey::PathDelays`]).
    pub(crate) fn keep_path_delays(&mut self) {
        self.stats.journey.path_delays = Some(journey::PathDelays::default());
    }

    /// Messages with some of their packets here and some still missing.
    pub fn incomplete_messages(&self) -> usize {
        self.partial.len()
    }

    /// An acknowledge arrived here.
    pub(crate) fn ack_received(&mut self) {
        self.stats.counters.acks_received += 1;
    }

    /// The last missing packet of message `m` arrived here (`a`); the message's first
    /// token started on its source link at `injected`.
    fn message_delivered(&mut self, a: &Arrival, m: &Stamp, injected: Tick) {
        let now = a.at;
        let measured = self.in_window(m.created);
        self.stats.journey.record(m, a, now - m.created, measured);
        let c = &mut self.stats.counters;
        c.delivered += 1;
        c.last_delivery = now;
        self.activity.messages_delivered += 1;
        if m.src < self.p.terminals && !self.sequences.in_order(m.src, m.seq) {
            c.out_of_order += 1;
        }
        if measured {
            c.measured_delivered += 1;
            self.activity.obligations_closed += 1;
            self.stats.message_latency.record(now - m.created);
            self.stats.network_latency.record(now - injected);
            self.stats.source_queueing.record(injected - m.created);
        }
        if let Some(feed) = &self.feed {
            feed.delivered(Delivery {
                src: m.src,
                dst: m.dst,
                seq: m.seq,
                created: m.created,
                injected,
                delivered: now,
                input_wait: a.journey.input_wait,
                output_wait: a.journey.output_wait,
                hops: a.journey.hops,
                transfer: a.transfer,
            });
        }
    }

    /// The statistics so far.
    pub fn stats(&self) -> &TerminalStats {
        &self.stats
    }

    /// The statistics, at the end of a run.
    pub(crate) fn into_stats(self) -> TerminalStats {
        self.stats
    }

    /// Takes the activity counted since the last call.
    pub(crate) fn take_activity(&mut self) -> MessageActivity {
        std::mem::take(&mut self.activity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(injection: Injection) -> TerminalParams {
        TerminalParams {
            label: 1,
            sends: true,
            destination: Destination::Fixed(3),
            injection,
            message_bytes: 32,
            start: 100,
            window: (200, 300),
            terminals: 4,
            seed: 5,
        }
    }

    #[test]
    fn continuous_keeps_one_message_waiting() {
        let mut t = Terminal::new(params(Injection::Continuous));
        t.generate(50);
        assert!(!t.has_message(), "nothing before the start");
        assert_eq!(t.wake(50), Some(100));
        t.generate(100);
        let m = t.take(120, |_| false).unwrap();
        assert_eq!((m.dst, m.seq, m.created), (3, 0, 100));
        assert!(t.has_message(), "refilled at once");
        assert_eq!(t.take(130, |_| false).unwrap().created, 120);
        assert!(t.take(140, |_| true).is_none(), "destination busy");
    }

    #[test]
    fn batch_queues_k_messages_and_measures_them() {
        let mut p = params(Injection::Batch(3));
        p.window = (100, Tick::MAX);
        let mut t = Terminal::new(p);
        t.generate(100);
        t.generate(101);
        assert_eq!(t.stats().counters.created, 3);
        assert_eq!(t.take_activity().obligations_opened, 3);
    }

    #[test]
    fn deliveries_are_measured_by_creation_time_and_checked_for_order() {
        let mut t = Terminal::new(params(Injection::Continuous));
        let m = |seq, created| Stamp {
            src: 2,
            dst: 1,
            seq,
            created,
            injected: created + 5,
            ..Stamp::default()
        };
        t.packet_delivered(&at(260), 32, &m(4, 150), true); // created in warm-up: not measured
        t.packet_delivered(&at(270), 32, &m(5, 210), true);
        t.packet_delivered(&at(280), 32, &m(5, 210), true); // duplicate
        t.packet_delivered(&at(290), 32, &m(3, 220), true); // out of order
        let s = t.stats();
        assert_eq!(s.counters.delivered, 4);
        assert_eq!(s.counters.measured_delivered, 3);
        assert_eq!(s.counters.out_of_order, 2);
        assert_eq!(s.message_latency.min, 60);
        assert_eq!(s.network_latency.min, 55);
        assert_eq!(s.source_queueing.max, 5);
    }

    /// A packet arriving at `tick` with an empty journey.
    fn at(tick: Tick) -> Arrival {
        Arrival {
            at: tick,
            journey: packet::Journey::default(),
            transfer: 0,
        }
    }

    #[test]
    fn journeys_break_down_the_completing_packet_and_feed_the_identity_records() {
        let mut t = Terminal::new(params(Injection::Continuous));
        t.keep_path_delays();
        // Message 0 from 2: packet 0 started at 215, packet 1 (the EOM) at 260.
        let p0 = packet(0, 0);
        let p1 = Stamp {
            injected: 260,
            ..packet(0, 1)
        };
        let j = packet::Journey {
            input_wait: 7,
            output_wait: 11,
            hops: 3,
        };
        t.packet_delivered(&at(250), 32, &p0, false);
        let last = Arrival {
            at: 400,
            journey: j,
            transfer: 334,
        };
        t.packet_delivered(&last, 32, &p1, true);
        let s = t.stats();
        assert_eq!(s.message_latency.max, 190);
        assert_eq!(s.network_latency.max, 185, "from packet 0's start");
        assert_eq!(s.source_queueing.max, 5);
        let jy = &s.journey;
        assert!(jy.recorded);
        assert_eq!(
            jy.source.max, 50,
            "the completing packet waited 50 at its source"
        );
        assert_eq!((jy.input_wait.max, jy.output_wait.max), (7, 11));
        assert_eq!((jy.transfer.max, jy.hops.max), (334, 3));
        // 190 − 50 − 7 − 11 − 334 = −212: a path delay no network has, which the
        // run's check then reports.
        let d = jy.path_delays.as_ref().expect("kept");
        assert_eq!(d.by_source.get(&2).map(|r| r.first), Some((-212, 3)));
        // A second message from 2 that leaves a different path delay is a conflict.
        let p2 = Stamp {
            seq: 1,
            created: 300,
            injected: 300,
            ..packet(1, 0)
        };
        t.packet_delivered(&Arrival { at: 500, ..last }, 32, &p2, true);
        let d = t.stats().journey.path_delays.as_ref().expect("kept");
        assert_eq!(d.messages, 2);
        let r = d.by_source.get(&2).expect("recorded");
        assert_eq!(
            (r.first, r.conflict.map(|c| (c.0.seq, c.1))),
            ((-212, 3), Some((1, (-152, 3))))
        );
    }

    fn packet(seq: u32, pkt: u16) -> Stamp {
        Stamp {
            src: 2,
            dst: 1,
            seq,
            pkt,
            created: 210,
            injected: 215,
            ..Stamp::default()
        }
    }

    #[test]
    fn a_message_is_delivered_when_its_last_missing_packet_arrives() {
        let mut t = Terminal::new(params(Injection::Continuous));
        // Message 0 has three packets; the EOM packet (2) overtakes packet 1.
        t.packet_delivered(&at(230), 32, &packet(0, 0), false);
        t.packet_delivered(&at(240), 32, &packet(0, 2), true);
        assert_eq!(t.stats().counters.delivered, 0, "packet 1 still in flight");
        assert_eq!(t.stats().counters.eom_overtook, 1);
        assert_eq!(t.incomplete_messages(), 1);
        t.packet_delivered(&at(250), 32, &packet(0, 1), false);
        let s = t.stats();
        assert_eq!(
            (s.counters.delivered, s.counters.measured_delivered),
            (1, 1)
        );
        assert_eq!(s.counters.packets_delivered, 3);
        assert_eq!(s.message_latency.max, 40, "latency runs to the last packet");
        assert_eq!(s.network_latency.max, 35);
        assert_eq!(t.incomplete_messages(), 0);
        assert_eq!(t.take_activity().obligations_closed, 1);
        assert_eq!(t.stats().counters.out_of_order, 0);
    }

    #[test]
    fn reassembly_in_any_order_checks_completion_order_and_duplicates() {
        let mut t = Terminal::new(params(Injection::Continuous));
        // Message 1 (two packets, EOM first) completes before message 0.
        t.packet_delivered(&at(230), 32, &packet(1, 1), true);
        t.packet_delivered(&at(231), 32, &packet(0, 0), false);
        t.packet_delivered(&at(232), 32, &packet(1, 0), false);
        assert_eq!(t.stats().counters.delivered, 1);
        t.packet_delivered(&at(233), 32, &packet(0, 0), false); // packet twice
        assert_eq!(t.stats().counters.out_of_order, 1);
        assert_eq!(
            t.stats().counters.delivered,
            1,
            "a duplicate completes nothing"
        );
        t.packet_delivered(&at(234), 32, &packet(0, 1), true);
        let c = t.stats().counters;
        assert_eq!(c.delivered, 2);
        assert_eq!(c.out_of_order, 2, "message 0 completed after message 1");
        assert_eq!(t.incomplete_messages(), 0);
    }
}
