//! The input and output adapter as they were before the hot paths were rewritten.

use super::bitset::Bitset;
use super::flow::Permission;
use super::source::Source;
use crate::ids::PortId;
use crate::model::{Activity, ModelError, Node, Outbox, PartStats, WIRE_BITS, Wait, WaitReason};
use crate::parts::fabric::protocol::{
    Cell, FabricCell, FabricCounters, FabricJourney, NO_VOQ, Packet, crosspoint_weight,
};
use crate::parts::fabric::{AdapterParams, JOURNEY_PARTS};
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
    /// Cycles it has been its VOQ's head without permission ([`FabricJourney`]).
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
    /// Per source input: measured packets that left this output, the sum and sum of
    /// squares of their system delays, and the smallest and largest (per-flow delay, as
    /// Gramsamer §7.2 tabulates it).
    flow_count: Vec<u64>,
    flow_sum: Vec<u64>,
    flow_sum_sq: Vec<u64>,
    flow_min: Vec<u64>,
    flow_max: Vec<u64>,
}

/// The adapter's state machine.
pub struct AdapterNode {
    p: AdapterParams,
    n: usize,
    voqs: Vec<VecDeque<Waiting>>,
    /// The non-empty VOQs.
    eligible: Bitset,
    queued: u64,
    permission: Permission,
    /// The VOQ the data-path scheduler served last.
    pointer: usize,
    /// VOQs that became non-empty, to be named in a packet header (LOF-CLIQ, §7.5).
    nonempty: VecDeque<u16>,
    source: Source,
    /// Per output: the next packet number of the flow to it.
    next_seq: Vec<u32>,
    /// Per input: the packet number the OA expects next from it.
    expect_seq: Vec<u32>,
    /// Per output: packets sent and credits received (for the §7.4 invariant).
    sent_xp: Vec<u64>,
    credits_xp: Vec<u64>,
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
}

impl AdapterNode {
    /// A reset adapter.
    pub fn new(p: AdapterParams) -> AdapterNode {
        let n = p.ports as usize;
        AdapterNode {
            voqs: vec![VecDeque::new(); n],
            eligible: Bitset::new(n),
            queued: 0,
            permission: Permission::new(&p.flow_control, n, p.memory.unwrap_or(0)),
            pointer: n - 1,
            nonempty: VecDeque::new(),
            source: Source::new(p.arrivals.clone(), p.destinations, p.index, p.ports),
            next_seq: vec![0; n],
            expect_seq: vec![0; n],
            sent_xp: vec![0; n],
            credits_xp: vec![0; n],
            sent: [0; 2],
            received: [0; 2],
            rng: ChaCha8Rng::seed_from_u64(p.seed),
            stats: TerminalStats {
                journey_parts: JourneyParts::new(&JOURNEY_PARTS),
                ..TerminalStats::default()
            },
            adapter: AdapterStats {
                flow_count: vec![0; n],
                flow_sum: vec![0; n],
                flow_sum_sq: vec![0; n],
                flow_min: vec![u64::MAX; n],
                flow_max: vec![0; n],
                ..AdapterStats::default()
            },
            activity: Activity::default(),
            scratch: Vec::new(),
            timeline: Vec::new(),
            n,
            p,
        }
    }

    fn in_window(&self, t: Tick) -> bool {
        (self.p.window.0..self.p.window.1).contains(&t)
    }

    fn create(&mut self, now: Tick, output: u16) {
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
        if self.voqs[j].is_empty() {
            self.nonempty.push_back(output);
            self.eligible.put(j, true);
        }
        self.voqs[j].push_back(Waiting {
            seq: self.next_seq[j],
            created: now,
            credit_wait: 0,
        });
        self.next_seq[j] += 1;
        self.queued += 1;
        self.activity.messages_created += 1;
        self.adapter.peak_queued = self.adapter.peak_queued.max(self.queued);
        if self.in_window(now) {
            self.stats.counters.measured_created += 1;
            self.activity.obligations_opened += 1;
        }
    }

    /// Adds this cycle to the credit wait of every VOQ head that may not go (eligible,
    /// not feasible, Gramsamer §4.1).
    fn count_credit_waits(&mut self) {
        let bump = |voq: &mut VecDeque<Waiting>| {
            if let Some(w) = voq.front_mut() {
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
    fn dispatch(&mut self, now: Tick, out: &mut Outbox<Cell>) {
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
        self.count_credit_waits();
        let window = self.in_window(now);
        let Some(j) = pick else {
            if window {
                self.adapter.underflow_cycles += 1;
            }
            return;
        };
        self.pointer = j;
        let Some(w) = self.voqs[j].pop_front() else {
            return;
        };
        self.queued -= 1;
        self.permission.consume(now, j);
        if window {
            self.adapter.dispatched += 1;
            if !self.permission.feasible(j) && self.permission.is_relative() {
                self.adapter.credit_underflows += 1;
            }
        }
        let last = self.voqs[j].is_empty();
        if last {
            self.eligible.put(j, false);
        }
        let mut nonempty = NO_VOQ;
        while let Some(k) = self.nonempty.pop_front() {
            if usize::from(k) != j && !self.voqs[usize::from(k)].is_empty() {
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
        if self.in_window(now) {
            self.stats.counters.bytes_sent_in_window += u64::from(self.p.packet_bytes);
        }
        out.send(INGRESS, Cell::Packet(pkt), now + self.p.data_extra);
        self.sent[INGRESS] += 1;
        self.sent_xp[j] += 1;
        self.activity.packets_injected += 1;
        self.activity.tokens_moved += 1;
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
        parts.record(&[voq, credit, link, crosspoint, output]);
    }

    /// The output adapter absorbs a packet.
    fn absorb(&mut self, pkt: Packet) -> Result<(), ModelError> {
        if usize::from(pkt.dst) != usize::from(self.p.index) || usize::from(pkt.src) >= self.n {
            return Err(ModelError::Routing {
                port: EGRESS,
                what: format!(
                    "packet {}→{} reached output adapter {}",
                    pkt.src, pkt.dst, self.p.index
                ),
            });
        }
        let expect = &mut self.expect_seq[usize::from(pkt.src)];
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
        self.activity.messages_delivered += 1;
        self.activity.packets_ejected += 1;
        if self.in_window(pkt.exit) {
            self.stats.counters.bytes_delivered_in_window += u64::from(self.p.packet_bytes);
        }
        if self.in_window(pkt.created) {
            // System delay: entry at the IA to exit at the switch's output port
            // (§2.4, §7.6.2).
            let delay = pkt.exit - pkt.created;
            self.stats.message_latency.record(delay);
            let (a, k) = (&mut self.adapter, usize::from(pkt.src));
            a.flow_count[k] += 1;
            a.flow_sum[k] += delay;
            a.flow_sum_sq[k] = a.flow_sum_sq[k].saturating_add(delay * delay);
            a.flow_min[k] = a.flow_min[k].min(delay);
            a.flow_max[k] = a.flow_max[k].max(delay);
            self.stats.network_latency.record(pkt.exit - pkt.dispatched);
            self.record_journey(&pkt);
            self.stats.counters.measured_delivered += 1;
            self.activity.obligations_closed += 1;
        }
        Ok(())
    }
}

impl Node<FabricCell> for AdapterNode {
    fn receive(&mut self, now: Tick, port: PortId, cell: Cell) -> Result<(), ModelError> {
        self.received[port.min(1)] += 1;
        match (port, cell) {
            (EGRESS, Cell::Packet(pkt)) => self.absorb(pkt),
            (INGRESS, Cell::Packet(_)) | (EGRESS, _) | (2.., _) => Err(ModelError::Protocol {
                port,
                what: format!("an adapter cannot take {cell:?} on port {port}"),
            }),
            (INGRESS, fc) => {
                if let Cell::Credit { output } = fc {
                    self.credits_xp[usize::from(output).min(self.n - 1)] += 1;
                }
                let known = match fc {
                    Cell::Credit { output }
                    | Cell::Grant { output, .. }
                    | Cell::Absolute { output, .. } => usize::from(output) < self.n,
                    Cell::Packet(_) => false,
                };
                if known && self.permission.apply(now, &fc) {
                    Ok(())
                } else {
                    Err(ModelError::Protocol {
                        port,
                        what: format!(
                            "flow-control information {fc:?} does not fit this adapter's {} flow control",
                            self.p.flow_control.name()
                        ),
                    })
                }
            }
        }
    }

    fn step(&mut self, now: Tick, out: &mut Outbox<Cell>) -> Result<Option<Tick>, ModelError> {
        if now >= self.p.start {
            self.permission.tick();
            self.dispatch(now, out);
            let cycle = now - self.p.start;
            let mut created = std::mem::take(&mut self.scratch);
            created.clear();
            self.source.cycle(cycle, &mut self.rng, |o| created.push(o));
            for &o in &created {
                self.create(now, o);
            }
            self.scratch = created;
        }
        out.activity.add(&self.activity);
        self.activity = Activity::default();
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
                    .wrapping_add(self.sent_xp[j])
                    .wrapping_sub(self.credits_xp[j]);
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
                let head = self.voqs[j].front()?;
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
                ("flow_count", a.flow_count.clone()),
                ("flow_sum", a.flow_sum.clone()),
                ("flow_sum_sq", a.flow_sum_sq.clone()),
                ("flow_min", a.flow_min.clone()),
                ("flow_max", a.flow_max.clone()),
                // One packet a cycle at most on the ingress link; the egress link has
                // no transmitter here.
                (WIRE_BITS, vec![self.sent[INGRESS], 0]),
                ("timeline", self.timeline.clone()),
            ],
        })
    }
}
