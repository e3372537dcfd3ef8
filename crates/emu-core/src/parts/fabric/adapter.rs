//! A switch adapter: the input adapter (IA) that holds one FIFO virtual output queue per
//! output and dispatches at most one packet per cycle onto the ingress link, and the
//! output adapter (OA) behind the egress link that absorbs whatever arrives (Gramsamer
//! §2.1-2.3, §7.4).
//!
//! Ports: 0 is the ingress link to the switch (packets out, flow-control information
//! in), 1 the egress link from the switch (packets in).
//!
//! One cycle `c` of the input adapter, in this order (see [`super`]):
//! 1. flow-control information that arrived in cycle `c` updates the VOQs' permission;
//! 2. the data-path scheduler dispatches one packet: round robin, starting after the VOQ
//!    it served last, over the VOQs that are *eligible* (non-empty) and *feasible*
//!    (permitted) (§4.1, §7.4: "We choose a RR-service discipline along all our
//!    data-path schedulers"); if some VOQ is eligible and none feasible, the cycle counts
//!    as a *severe credit underflow* (§7.5);
//! 3. the traffic source creates this cycle's packets into their VOQs, so a packet can
//!    leave one cycle after it was created at the earliest (the "1 IA" of §7.6.2).

use super::bitset::Bitset;
use super::flow::{Applied, Permission};
use super::protocol::{
    Cell, FabricCell, FabricCounters, FabricJourney, NO_VOQ, Packet, crosspoint_weight,
};
use super::source::Source;
use super::windowed::{CellOut, CellPart};
use super::{AdapterParams, JOURNEY_PARTS};
use crate::ids::PortId;
use crate::model::{Activity, ModelError, Node, Outbox, PartStats, WIRE_BITS, Wait, WaitReason};
use crate::terminal::{JourneyParts, Stamp, TerminalStats};
use crate::time::Tick;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// Port of the ingress link.
const INGRESS: PortId = 0;
/// Port of the egress link.
const EGRESS: PortId = 1;

/// A packet waiting in a VOQ.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    seq: u32,
    created: Tick,
    /// Cycles it has been its VOQ's head without permission ([`FabricJourney`]): a wait
    /// still going on is added when it ends ([`Voq::blocked_since`]), so the count is
    /// whole when the packet is dispatched.
    credit_wait: u32,
}

/// What the adapter counts about itself, beyond its terminal's traffic.
#[derive(Clone, Debug, Default)]
struct AdapterStats {
    /// Packets dispatched in the window (the input's throughput).
    dispatched: u64,
    /// Window cycles with a packet eligible and none feasible (§7.5 "severe credit
    /// underflow").
    underflow_cycles: u64,
    /// Dispatches in the window that took a VOQ's last credit (credit underflow, §7.4).
    credit_underflows: u64,
    /// Packets the source could not queue because the VOQs held `voq_cap` packets.
    refused: u64,
    /// Most packets queued in the VOQs at once.
    peak_queued: u64,
}

/// One virtual output queue and its flow's counters.
#[derive(Clone, Debug, Default)]
struct Voq {
    /// The packets waiting, oldest (the head) first.
    queue: VecDeque<Waiting>,
    /// The next packet number of the flow to this output.
    next_seq: u32,
    /// While its head may not go for want of permission: the first cycle of that wait
    /// not yet added to the head's credit wait. The wait is added up when permission
    /// comes (every flow control but Grant MT, whose permission changes every cycle and
    /// is counted cycle by cycle).
    blocked_since: Tick,
    /// Packets sent and credits received (for the §7.4 invariant).
    sent: u64,
    credits: u64,
}

/// What the output adapter counts per source input.
#[derive(Clone, Debug)]
struct Flow {
    /// The packet number it expects next.
    expect_seq: u32,
    /// Measured packets that left this output, the sum and sum of squares of their
    /// system delays, and the smallest and largest (per-flow delay, as Gramsamer §7.2
    /// tabulates it).
    count: u64,
    sum: u64,
    sum_sq: u64,
    min: u64,
    max: u64,
}

/// Bytes the adapter keeps per port beside its own struct: a VOQ's header and counters,
/// an output adapter's per-flow counters, and the permission of one crosspoint (a credit
/// counter, a grant level and allowance).
pub(crate) const PORT_BYTES: u64 =
    (std::mem::size_of::<Voq>() + std::mem::size_of::<Flow>() + 4 + 1 + 4) as u64;

/// The adapter's state machine.
pub struct AdapterNode {
    p: AdapterParams,
    n: usize,
    voqs: Vec<Voq>,
    /// The non-empty VOQs.
    eligible: Bitset,
    queued: u64,
    permission: Permission,
    /// The VOQ the data-path scheduler served last.
    pointer: usize,
    /// VOQs that became non-empty, to be named in a packet header (LOF-CLIQ, §7.5).
    nonempty: VecDeque<u16>,
    source: Source,
    /// Per source input: what the output adapter counts of its flow.
    flows: Vec<Flow>,
    sent: [u64; 2],
    received: [u64; 2],
    rng: ChaCha8Rng,
    stats: TerminalStats,
    adapter: AdapterStats,
    activity: Activity,
    /// This cycle's new packets' outputs (reused).
    scratch: Vec<u16>,
    /// With [`AdapterParams::timeline`]: packets that exited for this output, per bucket
    /// of their exit cycle and per source input (`bucket * N + input`).
    timeline: Vec<u64>,
    /// Credit waits are added up when they end ([`Voq::blocked_since`]).
    lazy_waits: bool,
}

impl AdapterNode {
    /// A reset adapter.
    pub fn new(p: AdapterParams) -> AdapterNode {
        let n = p.ports as usize;
        AdapterNode {
            voqs: vec![Voq::default(); n],
            eligible: Bitset::new(n),
            queued: 0,
            permission: Permission::new(&p.flow_control, n, p.memory.unwrap_or(0)),
            pointer: n - 1,
            nonempty: VecDeque::new(),
            source: Source::new(p.arrivals.clone(), p.destinations, p.index, p.ports),
            flows: vec![
                Flow {
                    expect_seq: 0,
                    count: 0,
                    sum: 0,
                    sum_sq: 0,
                    min: u64::MAX,
                    max: 0,
                };
                n
            ],
            sent: [0; 2],
            received: [0; 2],
            rng: ChaCha8Rng::seed_from_u64(p.seed),
            stats: TerminalStats {
                journey_parts: JourneyParts::new(&JOURNEY_PARTS),
                ..TerminalStats::default()
            },
            adapter: AdapterStats::default(),
            activity: Activity::default(),
            scratch: Vec::new(),
            timeline: Vec::new(),
            lazy_waits: !p.flow_control.rated(),
            n,
            p,
        }
    }

    fn in_window(&self, t: Tick) -> bool {
        (self.p.window.0..self.p.window.1).contains(&t)
    }

    #[inline]
    fn create(&mut self, now: Tick, output: u16, activity: &mut Activity) {
        let j = usize::from(output);
        self.stats.counters.created += 1;
        if self.in_window(now) {
            // Offered load counts what the source created, refused or not.
            self.stats.counters.bytes_offered_in_window += u64::from(self.p.packet_bytes);
        }
        if self.queued >= self.p.voq_cap {
            self.adapter.refused += 1;
            return;
        }
        let voq = &mut self.voqs[j];
        if voq.queue.is_empty() {
            self.nonempty.push_back(output);
            self.eligible.insert(j);
            if self.lazy_waits && !self.permission.feasible(j) {
                // The new head waits for permission from the next cycle's dispatch on.
                voq.blocked_since = now + 1;
            }
        }
        voq.queue.push_back(Waiting {
            seq: voq.next_seq,
            created: now,
            credit_wait: 0,
        });
        voq.next_seq += 1;
        self.queued += 1;
        activity.messages_created += 1;
        self.adapter.peak_queued = self.adapter.peak_queued.max(self.queued);
        if self.in_window(now) {
            self.stats.counters.measured_created += 1;
            activity.obligations_opened += 1;
        }
    }

    /// Adds this cycle to the credit wait of every VOQ head that may not go (eligible,
    /// not feasible, Gramsamer §4.1): Grant MT's way, whose permission changes every
    /// cycle; the others add a wait up when it ends ([`AdapterNode::permission_changed`]).
    fn count_credit_waits(&mut self) {
        let bump = |voq: &mut Voq| {
            if let Some(w) = voq.queue.front_mut() {
                w.credit_wait = w.credit_wait.saturating_add(1);
            }
        };
        match self.permission.feasible_set() {
            Some(f) => {
                for k in self.eligible.minus(f) {
                    bump(&mut self.voqs[k]);
                }
            }
            None => {
                for k in self.eligible.cyclic_from(0) {
                    if !self.permission.feasible(k) {
                        bump(&mut self.voqs[k]);
                    }
                }
            }
        }
    }

    /// The data-path scheduler: one packet from the next eligible and feasible VOQ.
    #[inline]
    fn dispatch(&mut self, now: Tick, out: &mut impl CellOut) {
        if self.queued == 0 {
            return;
        }
        let pick = match self.permission.feasible_set() {
            Some(f) => self.eligible.next_common_from(f, self.pointer + 1),
            None => self
                .eligible
                .cyclic_from(self.pointer + 1)
                .find(|&j| self.permission.feasible(j)),
        };
        if !self.lazy_waits {
            self.count_credit_waits();
        }
        let window = self.in_window(now);
        let Some(j) = pick else {
            if window {
                self.adapter.underflow_cycles += 1;
            }
            return;
        };
        self.pointer = j;
        let voq = &mut self.voqs[j];
        let Some(w) = voq.queue.pop_front() else {
            return;
        };
        self.queued -= 1;
        let feasible = self.permission.consume(now, j);
        if window {
            self.adapter.dispatched += 1;
            if !feasible && self.permission.is_relative() {
                self.adapter.credit_underflows += 1;
            }
        }
        voq.sent += 1;
        let last = voq.queue.is_empty();
        if last {
            self.eligible.remove(j);
        } else if !feasible && self.lazy_waits {
            // The next packet is the head now, and waits from the next cycle on.
            voq.blocked_since = now + 1;
        }
        let mut nonempty = NO_VOQ;
        while let Some(k) = self.nonempty.pop_front() {
            if usize::from(k) != j && self.eligible.contains(usize::from(k)) {
                nonempty = k;
                break;
            }
        }
        let pkt = Packet {
            src: self.p.index,
            dst: j as u16,
            seq: w.seq,
            created: w.created,
            dispatched: now,
            exit: 0,
            last_of_voq: last,
            nonempty,
            journey: FabricJourney {
                credit_wait: w.credit_wait,
                ..FabricJourney::default()
            },
        };
        if self.in_window(w.created) {
            self.stats.source_queueing.record(now - w.created);
        }
        if window {
            self.stats.counters.bytes_sent_in_window += u64::from(self.p.packet_bytes);
        }
        out.send(INGRESS, Cell::Packet(pkt), now + self.p.data_extra);
        self.sent[INGRESS] += 1;
        let activity = out.activity();
        activity.packets_injected += 1;
        activity.tokens_moved += 1;
    }

    /// Flow-control information arrived in cycle `now` and changed VOQ `a.output`'s
    /// permission: a head that starts waiting counts this cycle on; one that may go
    /// again adds the cycles it waited (Gramsamer §4.1: eligible, not feasible).
    #[inline]
    fn permission_changed(&mut self, now: Tick, a: Applied) {
        let j = a.output;
        if !self.lazy_waits || a.was_feasible == a.feasible || !self.eligible.contains(j) {
            return;
        }
        if a.feasible {
            let voq = &mut self.voqs[j];
            let waited = u32::try_from(now - voq.blocked_since).unwrap_or(u32::MAX);
            if let Some(head) = voq.queue.front_mut() {
                head.credit_wait = head.credit_wait.saturating_add(waited);
            }
        } else {
            self.voqs[j].blocked_since = now;
        }
    }

    /// Records the journey of the measured packet `pkt` (module documentation
    /// "Journeys"). Under `--check`, notes a packet whose parts do not follow each other
    /// or whose link part is not the data path.
    fn record_journey(&mut self, pkt: &Packet) {
        let j = pkt.journey;
        let credit = Tick::from(j.credit_wait);
        let voq = pkt
            .dispatched
            .saturating_sub(pkt.created)
            .saturating_sub(credit);
        let link = Tick::from(j.link);
        let crosspoint = Tick::from(j.crosspoint);
        let head = pkt.dispatched + link + crosspoint;
        let output = pkt.exit.saturating_sub(head);
        let parts = &mut self.stats.journey_parts;
        if let Some(check) = &mut parts.check {
            check.messages += 1;
            check.sources.insert(u32::from(pkt.src));
            let ordered = pkt.created + credit <= pkt.dispatched && head < pkt.exit;
            if (!ordered || link != self.p.data_path) && check.first_miss.is_none() {
                check.first_miss = Some(format!(
                    "packet {} of flow {} → {}: created {}, credit wait {credit}, dispatched {}, \
                     link {link}, crosspoint queue {crosspoint}, exit {}: the parts must follow \
                     each other and the link take the data path's {} cycles",
                    pkt.seq,
                    pkt.src,
                    pkt.dst,
                    pkt.created,
                    pkt.dispatched,
                    pkt.exit,
                    self.p.data_path
                ));
            }
        }
        parts.record_all(&[voq, credit, link, crosspoint, output]);
    }

    /// The output adapter absorbs a packet (kept out of [`CellPart::take`], whose
    /// flow-control path is short and inlined into the wrapper: inlined here too, the
    /// gate's fabric case took 0.8 % more instructions).
    #[inline(never)]
    fn absorb(&mut self, pkt: &Packet, activity: &mut Activity) -> Result<(), ModelError> {
        if usize::from(pkt.dst) != usize::from(self.p.index) || usize::from(pkt.src) >= self.n {
            return Err(ModelError::Routing {
                port: EGRESS,
                what: format!(
                    "packet {}→{} reached output adapter {}",
                    pkt.src, pkt.dst, self.p.index
                ),
            });
        }
        let expect = &mut self.flows[usize::from(pkt.src)].expect_seq;
        if pkt.seq != *expect {
            self.stats.counters.out_of_order += 1;
        }
        *expect = pkt.seq.max(*expect) + 1;
        if let Some(width) = self.p.timeline {
            let at = (pkt.exit / width.max(1)) as usize * self.n + usize::from(pkt.src);
            if self.timeline.len() <= at {
                self.timeline.resize(at + 1, 0);
            }
            self.timeline[at] += 1;
        }
        let c = &mut self.stats.counters;
        c.delivered += 1;
        c.packets_delivered += 1;
        c.last_delivery = c.last_delivery.max(pkt.exit);
        activity.messages_delivered += 1;
        activity.packets_ejected += 1;
        if self.in_window(pkt.exit) {
            self.stats.counters.bytes_delivered_in_window += u64::from(self.p.packet_bytes);
        }
        if self.in_window(pkt.created) {
            // System delay: entry at the IA to exit at the switch's output port
            // (§2.4, §7.6.2).
            let delay = pkt.exit - pkt.created;
            self.stats.message_latency.record(delay);
            let f = &mut self.flows[usize::from(pkt.src)];
            f.count += 1;
            f.sum += delay;
            f.sum_sq = f.sum_sq.saturating_add(delay * delay);
            f.min = f.min.min(delay);
            f.max = f.max.max(delay);
            self.stats.network_latency.record(pkt.exit - pkt.dispatched);
            self.record_journey(pkt);
            self.stats.counters.measured_delivered += 1;
            activity.obligations_closed += 1;
        }
        Ok(())
    }
}

impl CellPart for AdapterNode {
    #[inline]
    fn take(
        &mut self,
        now: Tick,
        port: PortId,
        cell: &Cell,
        activity: &mut Activity,
    ) -> Result<(), ModelError> {
        self.received[port.min(1)] += 1;
        match (port, cell) {
            (EGRESS, Cell::Packet(pkt)) => self.absorb(pkt, activity),
            (INGRESS, Cell::Packet(_)) | (EGRESS, _) | (2.., _) => Err(ModelError::Protocol {
                port,
                what: format!("an adapter cannot take {cell:?} on port {port}"),
            }),
            (INGRESS, fc) => {
                let applied = match *fc {
                    Cell::Credit { output } if usize::from(output) < self.n => {
                        self.voqs[usize::from(output)].credits += 1;
                        self.permission.apply(now, fc)
                    }
                    Cell::Grant { output, .. } | Cell::Absolute { output, .. }
                        if usize::from(output) < self.n =>
                    {
                        self.permission.apply(now, fc)
                    }
                    Cell::Credit { .. } => {
                        self.voqs[self.n - 1].credits += 1;
                        None
                    }
                    _ => None,
                };
                match applied {
                    Some(a) => {
                        self.permission_changed(now, a);
                        Ok(())
                    }
                    None => Err(ModelError::Protocol {
                        port,
                        what: format!(
                            "flow-control information {fc:?} does not fit this adapter's {} flow control",
                            self.p.flow_control.name()
                        ),
                    }),
                }
            }
        }
    }

    #[inline]
    fn step_to(&mut self, now: Tick, out: &mut impl CellOut) -> Result<Option<Tick>, ModelError> {
        if now >= self.p.start {
            self.permission.tick();
            self.dispatch(now, out);
            let cycle = now - self.p.start;
            if self.source.at_most_one() {
                let mut one = None;
                self.source.cycle(cycle, &mut self.rng, |o| one = Some(o));
                if let Some(o) = one {
                    self.create(now, o, out.activity());
                }
            } else {
                let mut created = std::mem::take(&mut self.scratch);
                created.clear();
                self.source.cycle(cycle, &mut self.rng, |o| created.push(o));
                for &o in &created {
                    self.create(now, o, out.activity());
                }
                self.scratch = created;
            }
        }
        let next = if now < self.p.start {
            Some(self.p.start)
        } else if self.queued > 0 {
            Some(now + 1)
        } else {
            self.source
                .next_cycle(now - self.p.start)
                .map(|c| self.p.start + c)
        };
        Ok(next)
    }
}

impl Node<FabricCell> for AdapterNode {
    /// [`CellPart::take`], its progress held until the next step hands it over.
    fn receive(&mut self, now: Tick, port: PortId, cell: Cell) -> Result<(), ModelError> {
        let mut activity = Activity::default();
        let taken = self.take(now, port, &cell, &mut activity);
        self.activity.add(&activity);
        taken
    }

    fn step(&mut self, now: Tick, out: &mut Outbox<Cell>) -> Result<Option<Tick>, ModelError> {
        if self.activity != Activity::default() {
            out.activity.add(&self.activity);
            self.activity = Activity::default();
        }
        self.step_to(now, out)
    }

    fn port_counters(&self, port: PortId) -> FabricCounters {
        let p = port.min(1);
        let mut c = FabricCounters {
            sent: self.sent[p],
            received: self.received[p],
            ..FabricCounters::default()
        };
        if port == INGRESS && self.permission.is_relative() {
            let m = u64::from(self.p.memory.unwrap_or(0));
            let (mut half, mut total) = (0u64, 0u64);
            for j in 0..self.n {
                let w = crosspoint_weight(j);
                let mine = u64::from(self.permission.credits(j))
                    .wrapping_add(self.voqs[j].sent)
                    .wrapping_sub(self.voqs[j].credits);
                half = half.wrapping_add(w.wrapping_mul(mine));
                total = total.wrapping_add(w.wrapping_mul(m));
            }
            c.crosspoint_half = half;
            c.crosspoint_total = total;
        }
        c
    }

    /// Each VOQ whose head may not go for want of permission, named by its head packet.
    fn waits(&self) -> Vec<Wait> {
        (0..self.n)
            .filter(|&j| !self.permission.feasible(j))
            .filter_map(|j| {
                let head = self.voqs[j].queue.front()?;
                Some(Wait {
                    port: INGRESS,
                    packet: Some(Stamp {
                        src: u32::from(self.p.index),
                        dst: j as u32,
                        seq: head.seq,
                        pkt: 0,
                        ack: false,
                        created: head.created,
                        injected: head.created,
                    }),
                    reason: WaitReason::NoCredit,
                })
            })
            .collect()
    }

    fn enable_checks(&mut self) {
        self.stats.journey_parts.check = Some(Box::default());
    }

    fn terminal_stats(&self) -> Option<&TerminalStats> {
        Some(&self.stats)
    }

    fn into_terminal_stats(self: Box<Self>) -> Option<TerminalStats> {
        Some(self.stats)
    }

    fn part_stats(&self) -> Option<PartStats> {
        let a = &self.adapter;
        Some(PartStats {
            series: vec![
                ("dispatched", vec![a.dispatched]),
                ("underflow_cycles", vec![a.underflow_cycles]),
                ("credit_underflows", vec![a.credit_underflows]),
                ("refused", vec![a.refused]),
                ("trace_unplayed", vec![self.source.unplayed()]),
                ("peak_queued", vec![a.peak_queued]),
                ("flow_count", self.flows.iter().map(|f| f.count).collect()),
                ("flow_sum", self.flows.iter().map(|f| f.sum).collect()),
                ("flow_sum_sq", self.flows.iter().map(|f| f.sum_sq).collect()),
                ("flow_min", self.flows.iter().map(|f| f.min).collect()),
                ("flow_max", self.flows.iter().map(|f| f.max).collect()),
                // One packet a cycle at most on the ingress link; the egress link has
                // no transmitter here.
                (WIRE_BITS, vec![self.sent[INGRESS], 0]),
                ("timeline", self.timeline.clone()),
            ],
        })
    }
}
