//! One SCI node (SCI §2.1, Figure 1): stripper, transmitter stage with its ring buffer,
//! source queue with active buffers, sink queue, and the traffic process that creates
//! send packets.

use super::protocol::{Sci, SciCounters, SciJourney, Symbol, SymbolKind, Symbols};
use super::stripper::{Stripped, Stripper};
use super::transmitter::{Mode, Source, Transmitter};
use super::{ADDRESS_SYMBOLS, DATA_SYMBOLS, JOURNEY_PARTS, SciParams, fixed_delay};
use crate::ids::PortId;
use crate::model::{Activity, ModelError, Node, Outbox, PartStats, WIRE_BITS, Wait, WaitReason};
use crate::terminal::{JourneyParts, SourceStats, Stamp, TerminalStats};
use crate::time::Tick;
use rand::distr::{Bernoulli, Distribution};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// Cycles from a symbol arriving to the stripper having parsed it (SCI §4: "two cycles
/// to parse a symbol before routing it to the local node or to the next output link").
pub const PARSE_CYCLES: Tick = 2;

/// Port 0 receives from the upstream neighbour; port 1 sends downstream.
const OUT: PortId = 1;

/// A send packet at its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packet {
    dst: u32,
    seq: u32,
    len: u16,
    created: Tick,
    /// It may be sent from this tick (one cycle to queue it, SCI §4).
    ready: Tick,
    /// Sent at least once (its first send counts as an injection).
    sent: bool,
    /// Tick its latest send began (for the echo deadline).
    sent_at: Tick,
    /// A read request, to be answered by a response (SCI §4.7).
    request: bool,
    /// Cycles it has waited as the head of an idle source ([`SciJourney::idle_source`]).
    idle_source: u32,
}

/// The source queue and the active buffers (SCI §2.1, §4.4).
#[derive(Clone, Debug)]
struct SourceQueue {
    me: u32,
    now: Tick,
    queue: VecDeque<Packet>,
    sending: Option<Packet>,
    /// Sent packets awaiting their echo.
    outstanding: Vec<Packet>,
    /// Cycles within which a send packet's echo must be back ([`echo_bound`]).
    echo_bound: Tick,
    /// The earliest [`SourceQueue::echo_deadline`] of the packets in `outstanding`
    /// ([`Tick::MAX`] if none): the deadline check looks at them only once it has
    /// passed.
    echo_due: Tick,
    /// Most packets outstanding at once: active buffers + 1 (SCI §4.4).
    limit: usize,
    injected: u64,
    /// The measurement window, and the payload bytes first sent in it.
    window: (Tick, Tick),
    sent_bytes_in_window: u64,
}

impl SourceQueue {
    /// True if the head of the queue may be sent now: it has been queued, and an
    /// active buffer is free (SCI §4, §4.4).
    #[inline]
    fn eligible(&self) -> bool {
        self.queue
            .front()
            .is_some_and(|p| p.ready <= self.now && self.outstanding.len() < self.limit)
    }

    /// The last tick by which the echo of the sent packet `p` is back on a live ring.
    #[inline]
    fn echo_deadline(&self, p: &Packet) -> Tick {
        p.sent_at.saturating_add(self.echo_bound)
    }

    /// Takes outstanding packet `i`, whose echo came back, keeping `echo_due`.
    fn answered(&mut self, i: usize) -> Packet {
        let p = self.outstanding.swap_remove(i);
        self.echo_due = (self.outstanding.iter())
            .map(|p| self.echo_deadline(p))
            .min()
            .unwrap_or(Tick::MAX);
        p
    }
}

impl Source for SourceQueue {
    #[inline]
    fn ready(&mut self) -> Option<u16> {
        let p = self.queue.front()?;
        self.eligible().then_some(p.len)
    }

    fn symbol(&mut self, index: u16) -> Symbol {
        if index == 0
            && let Some(mut p) = self.queue.pop_front()
        {
            if !p.sent {
                self.injected += 1;
                p.sent = true;
                if (self.window.0..self.window.1).contains(&self.now) {
                    self.sent_bytes_in_window += 2 * u64::from(p.len);
                }
            }
            p.sent_at = self.now;
            self.sending = Some(p);
        }
        // The transmitter asks for symbol 0 only right after `ready` said the head of
        // the queue may go, so a packet is being sent; the stand-in below is never used.
        let p = self.sending.unwrap_or(Packet {
            dst: self.me,
            seq: 0,
            len: 1,
            created: self.now,
            ready: self.now,
            sent: true,
            sent_at: self.now,
            request: false,
            idle_source: 0,
        });
        if index + 1 >= p.len {
            self.echo_due = self.echo_due.min(self.echo_deadline(&p));
            self.outstanding.push(p);
            self.sending = None;
        }
        Symbol {
            kind: SymbolKind::Send,
            src: self.me,
            dst: p.dst,
            seq: p.seq,
            index,
            len: p.len,
            created: p.created,
            request: p.request,
            delivered: 0,
            journey: SciJourney {
                source_wait: u32::try_from(p.sent_at - p.created).unwrap_or(u32::MAX),
                idle_source: p.idle_source,
                ring_buffer: 0,
            },
        }
    }
}

/// One SCI ring node.
#[derive(Clone, Debug)]
pub struct SciNode {
    p: SciParams,
    rng: ChaCha8Rng,
    /// Runs of symbols being parsed, with the tick the stripper has each run's first
    /// (the next a cycle later each), and how many of the first run it has taken.
    parsing: VecDeque<(Tick, Symbols)>,
    parsed: usize,
    stripper: Stripper,
    tx: Transmitter,
    source: SourceQueue,
    /// Symbols in the sink queue, and symbols of accepted packets still to arrive.
    sink_queued: u32,
    sink_reserved: u32,
    next_seq: u32,
    counters: [SciCounters; 2],
    /// Cycles the output link carried a symbol other than an idle: its wire time for
    /// the report's link utilisation ([`WIRE_BITS`]).
    busy: u64,
    stats: TerminalStats,
    activity: Activity,
    /// [`Self::activity`] may hold counts: a step that took a slow path counted them.
    counted: bool,
    /// The arrival and sink draws' distributions, made at their first draw.
    coins: [Option<Bernoulli>; 2],
    /// Link faults are possible ([`Node::expect_link_faults`]).
    lossy: bool,
    /// Packets for this node that arrived cut short by a dead link and were dropped.
    cut: u64,
}

impl SciNode {
    /// A reset node.
    pub fn new(p: SciParams) -> SciNode {
        let limit = p.active_buffers.map_or(usize::MAX, |a| a as usize + 1);
        SciNode {
            rng: ChaCha8Rng::seed_from_u64(p.seed),
            parsing: VecDeque::new(),
            parsed: 0,
            stripper: Stripper::new(p.node),
            tx: Transmitter::new(p.ring_buffer as usize, p.flow_control),
            source: SourceQueue {
                me: p.node,
                now: 0,
                queue: VecDeque::new(),
                sending: None,
                outstanding: Vec::new(),
                echo_bound: echo_bound(&p),
                echo_due: Tick::MAX,
                limit,
                injected: 0,
                window: p.window,
                sent_bytes_in_window: 0,
            },
            sink_queued: 0,
            sink_reserved: 0,
            next_seq: 0,
            counters: [SciCounters::default(); 2],
            busy: 0,
            stats: TerminalStats {
                source: SourceStats {
                    recorded: true,
                    ..SourceStats::default()
                },
                journey_parts: JourneyParts::new(&JOURNEY_PARTS),
                ..TerminalStats::default()
            },
            activity: Activity::default(),
            counted: false,
            coins: [None; 2],
            lossy: false,
            cut: 0,
            p,
        }
    }

    /// Send packets waiting in the source queue (not counting the one being sent).
    pub fn queued(&self) -> usize {
        self.source.queue.len()
    }

    /// Send packets sent and not yet acknowledged.
    pub fn outstanding(&self) -> usize {
        self.source.outstanding.len()
    }

    /// Symbols in the ring buffer.
    pub fn ring_buffer(&self) -> usize {
        self.tx.ring_len()
    }

    /// Packets for this node (send packets or echoes) that a dead link cut short, dropped.
    pub fn cut(&self) -> u64 {
        self.cut
    }

    /// Every send packet is answered by exactly one echo (SCI §2.1): an echo for a packet
    /// that is not outstanding is refused in [`Self::stripped`], and here a packet whose
    /// echo is overdue ([`echo_bound`]) is an error — unless link faults are
    /// possible: then the packet or its echo was lost on a dead link, and the packet
    /// waits for good ([`Node::waits`]).
    fn check_echo_deadline(&self, now: Tick) -> Result<(), ModelError> {
        if self.lossy || now <= self.source.echo_due {
            return Ok(());
        }
        let source = &self.source;
        match source
            .outstanding
            .iter()
            .find(|p| source.echo_deadline(p) < now)
        {
            Some(p) => Err(ModelError::Protocol {
                port: 0,
                what: format!(
                    "send packet {} for node {} got no echo in {} cycles: a lost echo",
                    p.seq,
                    p.dst,
                    now - p.sent_at
                ),
            }),
            None => Ok(()),
        }
    }

    /// True if `tick` lies in the measurement window.
    fn measured(&self, tick: Tick) -> bool {
        (self.p.window.0..self.p.window.1).contains(&tick)
    }

    /// Creates a send packet at `now`: to a destination the traffic picks, an address or
    /// data packet as the mix says, or, in request/response traffic, a read request.
    fn create(&mut self, now: Tick) {
        let t = self.p.traffic;
        let dst = t.destination.pick(self.p.node, &mut self.rng);
        let (len, request) = if t.request_response {
            (ADDRESS_SYMBOLS, true)
        } else {
            (t.mix.pick(self.rng.random::<f64>()), false)
        };
        self.enqueue(now, dst, len, request);
    }

    /// Puts a new send packet of `len` symbols for `dst` at the tail of the source queue.
    fn enqueue(&mut self, now: Tick, dst: u32, len: u16, request: bool) {
        self.source.queue.push_back(Packet {
            dst,
            seq: self.next_seq,
            len,
            created: now,
            ready: now + 1,
            sent: false,
            sent_at: now,
            request,
            idle_source: 0,
        });
        self.next_seq += 1;
        self.stats.counters.created += 1;
        self.activity.messages_created += 1;
        self.counted = true;
        if self.measured(now) {
            self.stats.counters.measured_created += 1;
            self.stats.counters.bytes_offered_in_window += 2 * u64::from(len);
            self.activity.obligations_opened += 1;
        }
    }

    fn generate(&mut self, now: Tick) {
        if now < self.p.start {
            return;
        }
        match self.p.traffic.arrivals {
            Arrivals::None => {}
            Arrivals::Bernoulli(rate) => {
                if flip(&mut self.rng, &mut self.coins[0], rate.clamp(0.0, 1.0)) {
                    self.create(now);
                }
            }
            Arrivals::Saturated => {
                if self.source.queue.is_empty() && now < self.p.window.1 {
                    self.create(now);
                }
            }
            Arrivals::Batch(k) => {
                if now == self.p.start {
                    for _ in 0..k {
                        self.create(now);
                    }
                }
            }
        }
    }

    /// Records the journey of the measured send packet whose last symbol `last` was
    /// consumed at `done` (module documentation "Journeys"). Under `--check`, notes a
    /// packet whose fixed part is not [`fixed_delay`] of its path: its parts would not
    /// add up to its latency.
    fn record_journey(&mut self, last: &Symbol, done: Tick) {
        let j = last.journey;
        let idle = Tick::from(j.idle_source);
        let ring = Tick::from(j.ring_buffer);
        let source_wait = Tick::from(j.source_wait);
        let sent = last.created + source_wait;
        let fixed = done.saturating_sub(sent).saturating_sub(ring);
        let parts = &mut self.stats.journey_parts;
        if let Some(check) = &mut parts.check {
            let hops = (self.p.node + self.p.ring_nodes - last.src) % self.p.ring_nodes;
            let want = fixed_delay(hops, last.len);
            check.messages += 1;
            check.sources.insert(last.src);
            if (fixed != want || idle > source_wait || sent + ring > done)
                && check.first_miss.is_none()
            {
                check.first_miss = Some(format!(
                    "send packet {} from node {} to node {}: latency {} = source wait \
                     {source_wait} (idle source {idle}) + ring buffer {ring} + fixed {fixed}, \
                     but the fixed delay of {hops} hops and {} symbols is {want}",
                    last.seq,
                    last.src,
                    self.p.node,
                    done - last.created,
                    last.len
                ));
            }
        }
        parts.record(&[source_wait.saturating_sub(idle), idle, ring, fixed]);
    }

    /// One cycle at `now`: `sym` is the stripper's input symbol, and becomes the symbol
    /// the node outputs on its link.
    #[inline]
    fn cycle(&mut self, now: Tick, sym: &mut Symbol) -> Result<(), ModelError> {
        // An idle or a passing packet's symbol while no packet for this node is under
        // way only passes (the common case: the stripper takes nothing).
        if !self.stripper.pass(sym) {
            *sym = self.strip(now, *sym)?;
        }
        self.check_echo_deadline(now)?;
        if now == self.p.window.1 {
            self.stats.source.backlog_at_window_end = (self.source.queue.len()
                + self.source.outstanding.len()
                + usize::from(self.source.sending.is_some()))
                as u64;
        }
        if self.sink_queued > 0
            && flip(
                &mut self.rng,
                &mut self.coins[1],
                self.p.sink_rate.clamp(0.0, 1.0),
            )
        {
            self.sink_queued -= 1;
        }
        self.generate(now);
        self.source.now = now;
        // The head of the queue may go but for the transmitter: if the transmitter is
        // passing symbols and does not start it, it waits as an idle source's (for a
        // passing packet's tail, or a go-idle).
        if self.tx.mode == Mode::Pass {
            let eligible = self.source.eligible();
            if eligible && self.tx.may_start() {
                self.transmit(now, sym)?;
            } else {
                if eligible && let Some(head) = self.source.queue.front_mut() {
                    head.idle_source = head.idle_source.saturating_add(1);
                }
                self.tx.pass(sym);
            }
        } else {
            self.transmit(now, sym)?;
        }
        Ok(())
    }

    /// The transmitter's cycle at `now` on the stripper's symbol in `sym` when it may do
    /// more than pass it on ([`Transmitter::pass`]): it starts, sends or postpends a
    /// source packet, or recovers. `sym` becomes the symbol output on the link.
    #[inline(never)]
    fn transmit(&mut self, now: Tick, sym: &mut Symbol) -> Result<(), ModelError> {
        let idle_head = self.tx.mode == Mode::Pass && self.source.eligible();
        let injected = self.source.injected;
        if !self.tx.cycle_in_place(now, sym, &mut self.source) {
            return Err(ModelError::FlowControl {
                port: 0,
                what: format!(
                    "the ring buffer overflowed its {} symbols",
                    self.tx.ring_capacity
                ),
            });
        }
        if idle_head
            && self.tx.mode == Mode::Pass
            && let Some(head) = self.source.queue.front_mut()
        {
            head.idle_source = head.idle_source.saturating_add(1);
        }
        if self.source.injected != injected {
            self.activity.packets_injected += self.source.injected - injected;
            self.counted = true;
            self.stats.counters.bytes_sent_in_window = self.source.sent_bytes_in_window;
        }
        Ok(())
    }

    /// The stripper's work on `incoming` at `now` (any symbol): what it passes to the
    /// transmitter, after handling what it took for this node.
    #[inline(never)]
    fn strip(&mut self, now: Tick, incoming: Symbol) -> Result<Symbol, ModelError> {
        self.counted = true;
        let room = self.p.sink_symbols - self.sink_queued.min(self.p.sink_symbols);
        let reserved = self.sink_reserved;
        let (passed, what) = self
            .stripper
            .parse(incoming, |len| u32::from(len) + reserved <= room)
            .map_err(|index| ModelError::Protocol {
                port: 0,
                what: format!(
                    "symbol {index} of a packet for this node arrived out of order: {incoming:?}"
                ),
            })?;
        let mut passed = passed;
        if let Stripped::Target { symbol, .. } = what
            && symbol.is_last()
        {
            // The echo's last symbol takes the send packet's last slot: it tells the
            // source when the packet was delivered.
            passed.delivered = now + 1;
        }
        self.stripped(now, what)?;
        Ok(passed)
    }

    /// Handles what the stripper took for this node.
    fn stripped(&mut self, now: Tick, what: Stripped) -> Result<(), ModelError> {
        match what {
            Stripped::Nothing => {}
            Stripped::Cut { last, accepted } => {
                self.cut += 1;
                // A send packet's space was reserved whole at its first symbol: what
                // will not come is given back. A cut echo leaves its packet outstanding.
                if accepted {
                    let missing = u32::from(last.len.saturating_sub(last.index + 1));
                    self.sink_reserved = self.sink_reserved.saturating_sub(missing);
                }
            }
            Stripped::Target { symbol, accepted } => {
                if !accepted {
                    return Ok(());
                }
                // Space for the whole packet is reserved at its first symbol, and each
                // symbol then moves from reserved to queued.
                if symbol.index == 0 {
                    self.sink_reserved += u32::from(symbol.len);
                }
                self.sink_reserved = self.sink_reserved.saturating_sub(1);
                self.sink_queued += 1;
                if symbol.is_last() {
                    let done = now + 1;
                    if symbol.request && self.p.traffic.request_response {
                        // The memory answers at once: "memory lookup time is not
                        // included" (SCI §4.7).
                        self.enqueue(now, symbol.src, DATA_SYMBOLS, false);
                    }
                    let c = &mut self.stats.counters;
                    c.delivered += 1;
                    c.packets_delivered += 1;
                    c.last_delivery = done;
                    self.activity.messages_delivered += 1;
                    // Accepted load counts what arrived inside the window, whenever it
                    // was created; latency counts the messages created inside it.
                    if self.measured(done) {
                        self.stats.counters.bytes_delivered_in_window += 2 * u64::from(symbol.len);
                    }
                    if self.measured(symbol.created) {
                        self.stats.message_latency.record(done - symbol.created);
                        self.stats.counters.measured_delivered += 1;
                        self.activity.obligations_closed += 1;
                        self.record_journey(&symbol, done);
                    }
                }
            }
            Stripped::Echo { symbol, ack } => {
                let i = self
                    .source
                    .outstanding
                    .iter()
                    .position(|p| p.seq == symbol.seq)
                    .ok_or_else(|| ModelError::Protocol {
                        port: 0,
                        what: format!("an echo for packet {} that is not outstanding", symbol.seq),
                    })?;
                let p = self.source.answered(i);
                if ack {
                    self.activity.packets_ejected += 1;
                    let measured = self.measured(p.created);
                    let in_window = self.measured(symbol.delivered);
                    let src = &mut self.stats.source;
                    if in_window {
                        src.bytes_delivered_in_window += 2 * u64::from(p.len);
                    }
                    if measured {
                        src.latency.record(symbol.delivered - p.created);
                    }
                } else {
                    self.stats.source.retries += 1;
                    // Retransmitted next (SCI §4.5: nacked packets "must be retransmitted
                    // by their sources"); it keeps its creation tick.
                    self.source.queue.push_front(Packet {
                        ready: now + 1,
                        ..p
                    });
                }
            }
        }
        Ok(())
    }

    /// The symbol the stripper has at `now`: the next one parsed if it is due, else an
    /// idle (before the first symbol arrives the ring is quiet).
    #[inline]
    fn parse(&mut self, now: Tick) -> Symbol {
        let Some((first, run)) = self.parsing.front() else {
            return Symbol::idle(true);
        };
        let i = self.parsed;
        if first + i as Tick > now {
            return Symbol::idle(true);
        }
        let sym = run.as_slice()[i];
        if i + 1 < run.len() {
            self.parsed = i + 1;
        } else {
            self.parsed = 0;
            self.parsing.pop_front();
        }
        sym
    }

    /// One cycle at `now`: the stripper's symbol (before the first arrives the ring is
    /// quiet) goes through the node's stages, which most cycles pass it on unchanged or
    /// as an idle, and onto the run being output (`open`: this step's last run may
    /// take it), or into a new one when that is full.
    #[inline(always)]
    fn output(
        &mut self,
        now: Tick,
        open: bool,
        out: &mut Outbox<Symbols>,
    ) -> Result<(), ModelError> {
        let mut sym = self.parse(now);
        self.cycle(now, &mut sym)?;
        if !sym.is_idle() {
            out.activity.tokens_moved += 1;
            out.last_move = out.last_move.max(now);
            self.busy += 1;
        }
        self.counters[OUT].sent += 1;
        // The run is built in the outbox: a run never outlasts the step that began it
        // (its window's last cycle is that step's last).
        match out.emits.last_mut() {
            Some(e) if open && !e.token.is_full() => e.token.push(sym),
            _ => {
                self.counters[OUT].runs_sent += 1;
                out.send(OUT, Symbols::one(sym), now + 1);
            }
        }
        Ok(())
    }
}

/// Cycles within which a send packet's echo must be back on a live ring of nodes with
/// parameters `p`. The bound is not an estimate: a symbol waits at most 4 fixed cycles
/// plus a source transmission plus a full ring buffer at each node, so a send and its
/// echo take at most `2·N·(6 + 2·L)` cycles between them, `L` the longest packet on the
/// ring.
fn echo_bound(p: &SciParams) -> Tick {
    let longest = Tick::from(p.sink_symbols);
    2 * Tick::from(p.ring_nodes) * (6 + 2 * longest) + longest + 16
}

/// `rng.random_bool(p)`, drawing the same numbers, with `p`'s distribution made at the
/// first draw and kept in `coin` (`p` is the same at every draw).
#[inline]
fn flip(rng: &mut ChaCha8Rng, coin: &mut Option<Bernoulli>, p: f64) -> bool {
    let c = match coin {
        Some(c) => *c,
        None => match Bernoulli::new(p) {
            Ok(c) => *coin.insert(c),
            Err(_) => return rng.random_bool(p),
        },
    };
    c.sample(rng)
}

/// Bytes of one send packet waiting in a node's source queue.
pub(crate) const QUEUED_PACKET_BYTES: u64 = std::mem::size_of::<Packet>() as u64;

/// When a node creates send packets.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Arrivals {
    /// Never.
    None,
    /// One with this probability every cycle (Poisson arrivals, SCI §4).
    Bernoulli(f64),
    /// Always one waiting: the hot sender (SCI §4.3: "always tries to transmit").
    Saturated,
    /// This many at the start tick.
    Batch(u32),
}

impl Node<Sci> for SciNode {
    /// A run's symbols arrived a cycle apart from `now` on.
    fn receive(&mut self, now: Tick, port: PortId, run: Symbols) -> Result<(), ModelError> {
        let c = &mut self.counters[port.min(1)];
        c.received += run.len() as u64;
        c.runs_received += 1;
        if !run.is_empty() {
            self.parsing.push_back((now + PARSE_CYCLES, run));
        }
        Ok(())
    }

    /// Every cycle from `now` to the engine window's end ([`Outbox::window_end`]; the
    /// node has every symbol due in it, [`Sci`]'s `RECEIVE_AHEAD`), or only `now` where
    /// a link may fail: a fault cuts a link at a tick, and the engine keeps the tick of
    /// the last move from each step. The symbol output at a cycle leaves a cycle
    /// later; the symbols of the window go out as runs ([`Symbols`]), and one a cycle
    /// where a link may fail.
    fn step(&mut self, now: Tick, out: &mut Outbox<Symbols>) -> Result<Option<Tick>, ModelError> {
        let last = if self.lossy {
            now
        } else {
            out.window_end.saturating_sub(1).max(now)
        };
        // Where a link may fail, each symbol is a run of its own.
        for t in now..=last {
            self.output(t, t > now && !self.lossy, out)?;
        }
        // The engine sums activity: a step that counted nothing adds nothing.
        if self.counted {
            out.activity.add(&self.activity);
            self.activity = Activity::default();
            self.counted = false;
        }
        Ok(Some(last + 1))
    }

    fn port_counters(&self, port: PortId) -> SciCounters {
        SciCounters {
            ring_buffer: self.tx.ring_len() as u64,
            ring_capacity: self.tx.ring_capacity as u64,
            ..self.counters[port.min(1)]
        }
    }

    fn enable_checks(&mut self) {
        self.stats.journey_parts.check = Some(Box::default());
    }

    /// An SCI node never waits for another: it outputs a symbol every cycle. With link
    /// faults possible, a send packet whose echo is overdue (past the bound within which
    /// it must come on a live ring) waits for good: it or its echo was lost on a dead
    /// link.
    fn waits(&self) -> Vec<Wait> {
        if !self.lossy {
            return Vec::new();
        }
        let source = &self.source;
        source
            .outstanding
            .iter()
            .filter(|p| source.echo_deadline(p) < source.now)
            .map(|p| Wait {
                port: OUT,
                packet: Some(Stamp {
                    src: self.p.node,
                    dst: p.dst,
                    seq: p.seq,
                    pkt: 0,
                    ack: false,
                    created: p.created,
                    injected: p.sent_at,
                }),
                reason: WaitReason::AckOverdue,
            })
            .collect()
    }

    /// A dead link cuts packets short and loses echoes: a packet for this node cut short
    /// is dropped, and a send packet whose echo is overdue waits instead of failing the
    /// run (module documentation of [`crate::parts::sci`], the guide's "Link faults").
    fn expect_link_faults(&mut self) {
        self.lossy = true;
        self.stripper.expect_cuts();
    }

    fn terminal_stats(&self) -> Option<&TerminalStats> {
        Some(&self.stats)
    }

    /// The output link's wire time: cycles with a symbol other than an idle (port 0
    /// only receives).
    fn part_stats(&self) -> Option<PartStats> {
        Some(PartStats {
            series: vec![(WIRE_BITS, vec![0, self.busy])],
        })
    }

    fn into_terminal_stats(self: Box<Self>) -> Option<TerminalStats> {
        Some(self.stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testkit::Driver;
    use crate::parts::sci::{PacketMix, RUN_SYMBOLS, SciTraffic};
    use crate::traffic::Destination;

    fn node(ring_nodes: u32) -> SciNode {
        SciNode::new(SciParams {
            node: 0,
            ring_nodes,
            flow_control: false,
            active_buffers: None,
            sink_symbols: u32::from(ADDRESS_SYMBOLS),
            sink_rate: 1.0,
            ring_buffer: u32::from(ADDRESS_SYMBOLS) + 1,
            traffic: SciTraffic {
                arrivals: Arrivals::Batch(1),
                destination: Destination::Fixed(1),
                mix: PacketMix::only(ADDRESS_SYMBOLS),
                request_response: false,
            },
            start: 0,
            window: (0, 1_000),
            seed: 1,
        })
    }

    #[test]
    fn a_send_packet_whose_echo_never_comes_is_a_protocol_error_after_the_bound() {
        // Nothing ever arrives on the input: the packet goes out, and its echo is lost.
        let mut d = Driver::new(node(2));
        let bound = 2 * 2 * (6 + 2 * 8) + 8 + 16;
        d.run_until(bound).expect("still within the bound");
        assert_eq!(d.node().outstanding(), 1);
        let err = d.run_until(bound + 20).expect_err("the echo is overdue");
        assert!(format!("{err}").contains("lost echo"), "{err}");
    }

    #[test]
    fn with_link_faults_an_overdue_echo_is_a_wait_for_good_not_an_error() {
        let mut d = Driver::new(node(2));
        d.node_mut().expect_link_faults();
        let bound = 2 * 2 * (6 + 2 * 8) + 8 + 16;
        d.run_until(bound).expect("within the bound");
        assert!(d.node().waits().is_empty(), "not overdue yet");
        d.run_until(bound + 20)
            .expect("a lost echo is the link's fault");
        let waits = d.node().waits();
        assert_eq!(waits.len(), 1);
        let w = &waits[0];
        assert_eq!((w.port, w.reason.clone()), (OUT, WaitReason::AckOverdue));
        let p = w.packet.expect("names its packet");
        assert_eq!((p.src, p.dst, p.seq), (0, 1, 0));
    }

    #[test]
    fn a_send_packet_cut_short_gives_back_its_sink_space() {
        // Node 0 is the target of an 8-symbol packet from node 1 whose last five symbols
        // a dead link lost: the three that came are queued, the rest of the reservation
        // is given back, and nothing is delivered.
        let mut n = node(2);
        n.p.traffic.arrivals = Arrivals::None;
        let mut d = Driver::new(n);
        d.node_mut().expect_link_faults();
        for i in 0..3u16 {
            d.arrive(Tick::from(i), 0, Symbols::one(send(1, 0, i, 8)));
        }
        d.run_until(30).expect("a cut packet is dropped");
        let n = d.node();
        assert_eq!((n.cut(), n.sink_reserved), (1, 0));
        assert_eq!(n.stats.counters.delivered, 0);
    }

    #[test]
    fn an_echo_for_a_packet_not_outstanding_is_a_protocol_error() {
        let mut d = Driver::new(node(2));
        let echo = |index| Symbol {
            kind: SymbolKind::Echo { ack: true },
            src: 0,
            dst: 1,
            seq: 7,
            index,
            len: 8,
            created: 0,
            request: false,
            delivered: 5,
            journey: SciJourney::default(),
        };
        for i in 0..4 {
            d.arrive(20 + i, 0, Symbols::one(echo(i as u16)));
        }
        let err = d.run_until(40).expect_err("a duplicate or stray echo");
        assert!(format!("{err}").contains("not outstanding"), "{err}");
    }

    /// The symbols arriving at node 0 of 8, one a cycle from tick 0: for each `(what,
    /// n)`, `n` go-idles, `n` stop-idles, or an 8-symbol packet and its separator idle,
    /// passing from node 5 to 6 or from node 2 for node 0.
    fn arriving(segments: &[(u8, u16)]) -> Vec<Symbol> {
        let mut v = Vec::new();
        for (seq, &(what, n)) in (0..).zip(segments) {
            match what {
                0 | 1 => v.extend((0..n).map(|_| Symbol::idle(what == 0))),
                _ => {
                    let (src, dst) = if what == 2 { (5, 6) } else { (2, 0) };
                    v.extend((0..8).map(|i| Symbol::send_for_test(src, dst, seq, i, 8)));
                    v.push(Symbol::idle(true));
                }
            }
        }
        v
    }

    /// Runs node 0 of 8 (Bernoulli arrivals at `rate`, sending to node 1) to tick
    /// `end` on `input`, one symbol arriving a cycle, in engine windows `window` cycles
    /// long: each handed every run due in it before its first step, and run whole in
    /// that step. `window` 0: one cycle a step, each symbol handed over alone just
    /// before the step of its due tick (as a protocol that keeps nothing ahead is
    /// handed its tokens, [`crate::model::LinkProtocol::RECEIVE_AHEAD`]). Gives each
    /// symbol output with the tick it leaves, and the node's state at the end (or its
    /// error).
    fn run_windows(
        input: &[Symbol],
        rate: f64,
        window: Tick,
        end: Tick,
    ) -> (Vec<(Tick, Symbol)>, String) {
        let mut n = node(8);
        n.p.traffic.arrivals = Arrivals::Bernoulli(rate);
        let size = if window == 0 { 1 } else { RUN_SYMBOLS };
        let mut arriving: VecDeque<(Tick, Symbols)> = (0..)
            .step_by(size)
            .zip(input.chunks(size))
            .map(|(a, chunk)| {
                let mut run = Symbols::default();
                chunk.iter().for_each(|&s| run.push(s));
                (a, run)
            })
            .collect();
        let mut out = Outbox::default();
        let mut sent = Vec::new();
        let mut t = 0;
        while t < end {
            let last = if window == 0 {
                t
            } else {
                (t + window).min(end) - 1
            };
            out.window_end = if window == 0 { 0 } else { last + 1 };
            while let Some(&(a, run)) = arriving.front()
                && a + PARSE_CYCLES <= last
            {
                arriving.pop_front();
                if let Err(e) = n.receive(a, 0, run) {
                    return (Vec::new(), e.to_string());
                }
            }
            match n.step(t, &mut out) {
                Ok(next) => assert_eq!(next, Some(last + 1), "the node runs the window"),
                Err(e) => return (Vec::new(), e.to_string()),
            }
            for e in out.emits.drain(..) {
                assert!(e.token.len() <= usize::try_from(last + 1 - t).unwrap_or(0));
                sent.extend((e.at..).zip(e.token.as_slice().iter().copied()));
            }
            t = last + 1;
        }
        let state = format!(
            "{:?}",
            (
                (n.queued(), n.outstanding(), n.ring_buffer(), n.busy),
                (n.counters[OUT].sent, n.counters[0].received),
                &n.stats.counters,
                &n.stats.message_latency.count(),
                out.activity,
            )
        );
        (sent, state)
    }

    proptest::proptest! {
        /// A node run a window at a time (every run due in the window handed over
        /// before its first step, its output sent as runs) outputs the same symbols at
        /// the same ticks, and ends in the same state, as one run a cycle at a time.
        #[test]
        fn a_window_at_a_time_outputs_what_a_cycle_at_a_time_does(
            segments in proptest::collection::vec((0u8..4, 1u16..6), 1..30),
            window in 1u64..6,
            rate in 0.0f64..0.3,
        ) {
            let input = arriving(&segments);
            let end = input.len() as Tick + 40;
            let (cycles, at_end) = run_windows(&input, rate, 0, end);
            let (windows, state) = run_windows(&input, rate, window, end);
            proptest::prop_assert_eq!(&state, &at_end);
            proptest::prop_assert_eq!(windows, cycles);
        }
    }

    /// Symbol `index` of an `len`-symbol send packet from `src` to `dst`, created at 0.
    fn send(src: u32, dst: u32, index: u16, len: u16) -> Symbol {
        Symbol::send_for_test(src, dst, 3, index, len)
    }

    #[test]
    fn a_packet_behind_a_passing_packet_counts_its_wait_as_idle_source() {
        // Node 0 of 8 creates a packet at 5 (ready at 6) while an 8-symbol packet from
        // node 5 to node 6 passes: its symbols reach the transmitter at 2..=9, so the
        // source may start only at 10, after the tail (SCI §2.1). It waited 6, 7, 8 and
        // 9 as an idle source's head, and one cycle to be queued.
        let mut n = node(8);
        n.p.start = 5;
        let mut d = Driver::new(n);
        for i in 0..8 {
            d.arrive(Tick::from(i), 0, Symbols::one(send(5, 6, i, 8)));
        }
        d.run_until(30).unwrap();
        let ours: Vec<Symbol> = (d.sent_on(OUT, |_| true).iter())
            .flat_map(|e| e.token.as_slice().to_vec())
            .filter(|s| s.kind == SymbolKind::Send && s.src == 0)
            .collect();
        assert_eq!(ours.len(), usize::from(ADDRESS_SYMBOLS));
        let j = ours[0].journey;
        assert_eq!(
            (j.source_wait, j.idle_source, j.ring_buffer),
            (5, 4, 0),
            "{j:?}"
        );
        assert!(ours.iter().all(|s| s.journey == j));
    }

    #[test]
    fn the_target_records_the_four_parts_and_checks_the_fixed_delay() {
        // Node 0 of 4 is the target of a packet from node 2 (2 hops): created at 0,
        // sent at 3 after 1 cycle of idle-source wait, 5 cycles in ring buffers; its
        // last symbol is consumed at 3 + 5 + 4·2 + 8 = 24.
        let mut n = node(4);
        n.p.traffic.arrivals = Arrivals::None;
        let journey = SciJourney {
            source_wait: 3,
            idle_source: 1,
            ring_buffer: 5,
        };
        let packet = |last: Tick| {
            let mut d = Driver::new(n.clone());
            d.node_mut().enable_checks();
            for i in 0..8u16 {
                let mut s = send(2, 0, i, 8);
                s.journey = journey;
                // The last symbol is parsed at `last`: consumed one cycle later.
                d.arrive(last - PARSE_CYCLES - 7 + Tick::from(i), 0, Symbols::one(s));
            }
            (d.run_until(last + 2), d)
        };
        let (ok, d) = packet(23);
        ok.unwrap();
        let parts = &d.node().stats.journey_parts;
        assert_eq!(parts.names, &JOURNEY_PARTS);
        let values: Vec<(u64, u64)> = parts.parts.iter().map(|m| (m.min, m.max)).collect();
        assert_eq!(values, vec![(2, 2), (1, 1), (5, 5), (16, 16)]);
        let check = parts.check.as_ref().expect("checking");
        assert_eq!((check.messages, check.first_miss.as_deref()), (1, None));
        // One cycle later, the parts would not add up to the path's fixed delay.
        let (late, d) = packet(24);
        late.unwrap();
        let check = d
            .node()
            .stats
            .journey_parts
            .check
            .clone()
            .expect("checking");
        let miss = check.first_miss.expect("the identity is checked");
        assert!(
            miss.contains("fixed delay of 2 hops and 8 symbols is 16"),
            "{miss}"
        );
    }
}
