//! The switch core as it was before the hot paths were rewritten.

use super::bitset::Bitset;
use super::rxs::{Rxs, View};
use crate::ids::PortId;
use crate::model::{Activity, ModelError, Node, Outbox, PartStats, WIRE_BITS, Wait};
use crate::parts::fabric::flow::FlowControl;
use crate::parts::fabric::protocol::{
    Cell, FabricCell, FabricCounters, NO_VOQ, Packet, crosspoint_weight,
};
use crate::parts::fabric::recent::Recent;
use crate::parts::fabric::rxs::Strategy;
use crate::parts::fabric::{OutputScheduler, SwitchParams};
use crate::time::Tick;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// The switch core's state machine.
pub struct SwitchNode {
    p: SwitchParams,
    n: usize,
    /// Crosspoint queues, index `i * n + j` (input i, output j).
    queues: Vec<VecDeque<Packet>>,
    /// Packets stored per crosspoint (the occupancy counters of §7.5).
    occupancy: Vec<u32>,
    /// Per output: inputs in order of packet arrival (the OCF global FIFO, §7.2.4).
    arrivals: Vec<VecDeque<u16>>,
    /// Per output: the RR pointer (last input served).
    oqs_pointer: Vec<usize>,
    /// Per output: the inputs whose crosspoint holds a packet.
    occupied: Vec<Bitset>,
    /// Per input: the crosspoints whose absorption pool holds credits.
    waiting: Vec<Bitset>,
    /// Relative credit: credits freed and not yet returned, per crosspoint.
    absorb: Vec<u32>,
    /// Relative credit: credits freed and not yet returned, per input.
    absorb_total: Vec<u32>,
    /// Per input: its reception scheduler.
    rxs: Vec<Rxs>,
    /// LOF-CLIQ: the CLIQ vector, per crosspoint.
    cliq: Vec<bool>,
    /// Grant: level last signalled per crosspoint.
    level: Vec<u8>,
    /// Grant: the thresholds (empty for other flow controls).
    thresholds: Vec<u32>,
    /// Absolute credit: values to send per input this cycle.
    pending: Vec<Vec<Cell>>,
    /// Abs I and Abs B: departures per crosspoint, for "every n-th departure".
    departures_xp: Vec<u64>,
    /// Grant OT: per crosspoint, the cycles of the on slots it granted lately (T).
    on_slots: Vec<Recent>,
    /// Per crosspoint: packets received and credits sent (for the §7.4 invariant).
    received_xp: Vec<u64>,
    credits_sent_xp: Vec<u64>,
    sent: Vec<u64>,
    received: Vec<u64>,
    /// Per ingress port, the packet cycles in which it sent flow-control information:
    /// its control path's wire time (one cycle may carry several cells). An egress
    /// port sends at most one packet a cycle, so its wire time is its `sent`.
    control_cycles: Vec<u64>,
    /// Packets stored in the whole switch.
    stored: u64,
    rng: ChaCha8Rng,
    stats: SwitchStats,
    activity: Activity,
    /// Departures per input this cycle (scratch).
    departed: Vec<Vec<u16>>,
    /// Crosspoints of one input (scratch).
    scratch: Vec<usize>,
}

/// What the switch measures inside the run's measurement window.
#[derive(Clone, Debug, Default)]
struct SwitchStats {
    /// Per input: Σ over window cycles of credits waiting to be returned (the credit
    /// FIFO population of §7.3.1 under FIFO).
    credits_queued: Vec<u64>,
    /// Cycles (window) × inputs with k departures, k = 1..=N, index k (0 unused: the
    /// report derives it from the window length).
    parallel_departures: Vec<u64>,
    /// Per crosspoint: most packets stored at once.
    peak: Vec<u64>,
    /// Per output: packets that left in the window.
    departures: Vec<u64>,
}

impl SwitchNode {
    /// A reset switch.
    pub fn new(p: SwitchParams) -> SwitchNode {
        let n = p.ports as usize;
        let strategy = match p.flow_control {
            FlowControl::Credit(s) => s,
            _ => Strategy::Reference,
        };
        SwitchNode {
            queues: vec![VecDeque::new(); n * n],
            occupancy: vec![0; n * n],
            arrivals: vec![VecDeque::new(); n],
            oqs_pointer: vec![n.saturating_sub(1); n],
            occupied: vec![Bitset::new(n); n],
            waiting: vec![Bitset::new(n); n],
            absorb: vec![0; n * n],
            absorb_total: vec![0; n],
            rxs: (0..n).map(|_| Rxs::new(strategy, n)).collect(),
            cliq: vec![false; n * n],
            // Grant OT starts stopped ("at initialization feasibility information is
            // absent", Gramsamer §4.3.1) and grants its first slots in cycle 0.
            level: vec![u8::from(matches!(p.flow_control, FlowControl::GrantOt { .. })); n * n],
            thresholds: match &p.flow_control {
                FlowControl::Grant { thresholds } => thresholds.clone(),
                _ => Vec::new(),
            },
            pending: vec![Vec::new(); n],
            departures_xp: match p.flow_control {
                FlowControl::AbsoluteI { .. } | FlowControl::AbsoluteB { .. } => vec![0; n * n],
                _ => Vec::new(),
            },
            on_slots: match p.flow_control {
                FlowControl::GrantOt { .. } => vec![Recent::default(); n * n],
                _ => Vec::new(),
            },
            received_xp: vec![0; n * n],
            credits_sent_xp: vec![0; n * n],
            sent: vec![0; 2 * n],
            control_cycles: vec![0; n],
            received: vec![0; 2 * n],
            stored: 0,
            rng: ChaCha8Rng::seed_from_u64(p.seed),
            stats: SwitchStats {
                credits_queued: vec![0; n],
                parallel_departures: vec![0; n + 1],
                peak: vec![0; n * n],
                departures: vec![0; n],
            },
            activity: Activity::default(),
            departed: vec![Vec::new(); n],
            scratch: Vec::new(),
            n,
            p,
        }
    }

    fn in_window(&self, t: Tick) -> bool {
        (self.p.window.0..self.p.window.1).contains(&t)
    }

    fn store(&mut self, now: Tick, port: PortId, mut pkt: Packet) -> Result<(), ModelError> {
        let (i, j) = (usize::from(pkt.src), usize::from(pkt.dst));
        if i != port || j >= self.n {
            return Err(ModelError::Routing {
                port,
                what: format!("a packet from input {i} for output {j} arrived on input {port}"),
            });
        }
        let x = i * self.n + j;
        self.occupancy[x] += 1;
        if let Some(m) = self.p.memory
            && self.occupancy[x] > m
        {
            return Err(ModelError::FlowControl {
                port,
                what: format!(
                    "crosspoint ({i}, {j}) received a packet with all {m} locations full \
                     (flow control let the adapter send without permission)"
                ),
            });
        }
        if self.in_window(now) {
            let peak = &mut self.stats.peak[x];
            *peak = (*peak).max(u64::from(self.occupancy[x]));
        }
        self.received_xp[x] += 1;
        self.stored += 1;
        // CLIQ (§7.5): the packet's own VOQ is non-empty unless it was its last; the
        // header may name one more VOQ that became non-empty.
        self.cliq[x] = !pkt.last_of_voq;
        if pkt.nonempty != NO_VOQ {
            let k = usize::from(pkt.nonempty);
            if k < self.n {
                self.cliq[i * self.n + k] = true;
            }
        }
        pkt.journey.link = u32::try_from(now - pkt.dispatched).unwrap_or(u32::MAX);
        self.queues[x].push_back(pkt);
        self.occupied[j].put(i, true);
        if self.p.output_scheduler == OutputScheduler::Ocf {
            self.arrivals[j].push_back(pkt.src);
        }
        if !self.thresholds.is_empty() {
            self.signal_grant(i, j);
        }
        Ok(())
    }

    /// Grant: queues a stop/go message if crosspoint (i, j) crossed a threshold.
    fn signal_grant(&mut self, i: usize, j: usize) {
        let x = i * self.n + j;
        let now_level = FlowControl::grant_level(&self.thresholds, self.occupancy[x]);
        let was = self.level[x];
        if now_level != was {
            self.level[x] = now_level;
            self.pending[i].push(Cell::Grant {
                output: j as u16,
                go: now_level < was,
            });
        }
    }

    /// The input whose crosspoint output `j` serves this cycle, if any has a packet.
    fn schedule_output(&mut self, j: usize) -> Option<usize> {
        match self.p.output_scheduler {
            OutputScheduler::Ocf => self.arrivals[j].pop_front().map(usize::from),
            OutputScheduler::Rr => {
                let i = self.occupied[j].next_from(self.oqs_pointer[j] + 1)?;
                self.oqs_pointer[j] = i;
                Some(i)
            }
        }
    }

    fn depart(&mut self, now: Tick, out: &mut Outbox<Cell>) {
        let n = self.n;
        for d in &mut self.departed {
            d.clear();
        }
        for j in 0..n {
            let Some(i) = self.schedule_output(j) else {
                continue;
            };
            let x = i * n + j;
            let Some(mut pkt) = self.queues[x].pop_front() else {
                continue;
            };
            self.occupancy[x] -= 1;
            match self.queues[x].front_mut() {
                // The packet behind it may leave from the next cycle.
                Some(next) => {
                    let stored = next.dispatched + Tick::from(next.journey.link);
                    next.journey.crosspoint = u32::try_from(now + 1 - stored).unwrap_or(u32::MAX);
                }
                None => self.occupied[j].put(i, false),
            }
            self.stored -= 1;
            pkt.exit = now + 1;
            out.send(n + j, Cell::Packet(pkt), now);
            self.sent[n + j] += 1;
            self.activity.tokens_moved += 1;
            if self.in_window(now) {
                self.stats.departures[j] += 1;
            }
            self.departed[i].push(j as u16);
            match &self.p.flow_control {
                FlowControl::Credit(_) => {
                    self.absorb[x] += 1;
                    self.absorb_total[i] += 1;
                    self.waiting[i].put(j, true);
                }
                &FlowControl::Absolute { regular } => self.send_free(i, j, regular),
                &FlowControl::AbsoluteI { counted, every }
                | &FlowControl::AbsoluteB { counted, every, .. } => {
                    // Gramsamer §4.3.2, Abs I: "the counter state is updated on every
                    // n th packet departure".
                    self.departures_xp[x] += 1;
                    if self.departures_xp[x].is_multiple_of(u64::from(every.max(1))) {
                        self.send_free(i, j, counted);
                    }
                }
                FlowControl::Grant { .. } => self.signal_grant(i, j),
                FlowControl::GrantOt { .. } | FlowControl::None => {}
            }
        }
    }

    /// Absolute credit (Gramsamer §4.3.2): queues for input `i` the free locations of its
    /// crosspoint for output `j`, counted against `counted` locations.
    fn send_free(&mut self, i: usize, j: usize, counted: u32) {
        let free = counted.saturating_sub(self.occupancy[i * self.n + j]);
        self.pending[i].push(Cell::Absolute {
            output: j as u16,
            free,
        });
    }

    /// Grant OT: decides this cycle's slot of every crosspoint of input `i` (Gramsamer
    /// §4.3.1: "If (T + value) ≥ B_r, a stop signal is generated", T the on slots of the
    /// last RTT − 1 cycles, value the occupancy after this cycle's departure, B_r = M),
    /// and queues a go or stop where the slot differs from the last one.
    fn grant_slots(&mut self, now: Tick, i: usize, window: u32) {
        let m = self.p.memory.unwrap_or(0);
        let from = now.saturating_sub(Tick::from(window));
        for j in 0..self.n {
            let x = i * self.n + j;
            let t = self.on_slots[x].count_from(from);
            let on = self.occupancy[x].saturating_add(t) < m;
            if on {
                self.on_slots[x].push(now);
            }
            let was_on = self.level[x] == 0;
            if on != was_on {
                self.level[x] = u8::from(!on);
                self.pending[i].push(Cell::Grant {
                    output: j as u16,
                    go: on,
                });
            }
        }
    }

    fn return_flow_control(&mut self, now: Tick, out: &mut Outbox<Cell>) {
        let n = self.n;
        let window = self.in_window(now);
        for i in 0..n {
            if let FlowControl::GrantOt { window } = self.p.flow_control {
                self.grant_slots(now, i, window);
            }
            let sent_before = self.sent[i];
            let k = self.departed[i].len();
            if window && k > 0 {
                self.stats.parallel_departures[k] += 1;
            }
            match self.p.flow_control {
                FlowControl::Credit(Strategy::Reference) => {
                    if self.absorb_total[i] > 0 {
                        let mut js = std::mem::take(&mut self.scratch);
                        js.clear();
                        js.extend(self.waiting[i].cyclic_from(0));
                        for &j in &js {
                            let x = i * n + j;
                            for _ in 0..self.absorb[x] {
                                out.send(i, Cell::Credit { output: j as u16 }, now);
                                self.sent[i] += 1;
                                self.credits_sent_xp[x] += 1;
                            }
                            self.absorb_total[i] -= self.absorb[x];
                            self.absorb[x] = 0;
                        }
                        self.waiting[i].clear();
                        self.scratch = js;
                    }
                }
                FlowControl::Credit(s) => {
                    // Only FIFO keeps the departures' order (§7.5: written in random
                    // order); the other strategies look at the pools alone.
                    if s == Strategy::Fifo && k > 1 {
                        self.departed[i].shuffle(&mut self.rng);
                    }
                    self.rxs[i].departed(&self.departed[i]);
                    let row = i * n..(i + 1) * n;
                    let pick = if self.absorb_total[i] == 0 {
                        None
                    } else {
                        self.rxs[i].pick(View {
                            candidates: &self.waiting[i],
                            occupancy: &self.occupancy[row.clone()],
                            cliq: &self.cliq[row],
                        })
                    };
                    if let Some(j) = pick {
                        let x = i * n + j;
                        self.absorb[x] -= 1;
                        if self.absorb[x] == 0 {
                            self.waiting[i].put(j, false);
                        }
                        self.absorb_total[i] -= 1;
                        self.credits_sent_xp[x] += 1;
                        out.send(i, Cell::Credit { output: j as u16 }, now);
                        self.sent[i] += 1;
                    }
                }
                FlowControl::None => {}
                FlowControl::Grant { .. }
                | FlowControl::GrantOt { .. }
                | FlowControl::Absolute { .. }
                | FlowControl::AbsoluteI { .. }
                | FlowControl::AbsoluteB { .. } => {
                    for cell in self.pending[i].drain(..) {
                        out.send(i, cell, now);
                        self.sent[i] += 1;
                    }
                }
            }
            if window {
                self.stats.credits_queued[i] += u64::from(self.absorb_total[i]);
            }
            if self.sent[i] != sent_before {
                self.control_cycles[i] += 1;
            }
        }
    }
}

impl Node<FabricCell> for SwitchNode {
    fn receive(&mut self, now: Tick, port: PortId, cell: Cell) -> Result<(), ModelError> {
        self.received[port] += 1;
        match cell {
            Cell::Packet(pkt) if port < self.n => self.store(now, port, pkt),
            other => Err(ModelError::Protocol {
                port,
                what: format!("the switch cannot take {other:?} on port {port}"),
            }),
        }
    }

    fn step(&mut self, now: Tick, out: &mut Outbox<Cell>) -> Result<Option<Tick>, ModelError> {
        self.depart(now, out);
        self.return_flow_control(now, out);
        out.activity.add(&self.activity);
        self.activity = Activity::default();
        // Grant OT decides a slot every cycle, packets or not.
        let busy = self.stored > 0
            || self.absorb_total.iter().any(|&a| a > 0)
            || matches!(self.p.flow_control, FlowControl::GrantOt { .. });
        Ok(busy.then_some(now + 1))
    }

    fn port_counters(&self, port: PortId) -> FabricCounters {
        let mut c = FabricCounters {
            sent: self.sent[port],
            received: self.received[port],
            ..FabricCounters::default()
        };
        if port < self.n && matches!(self.p.flow_control, FlowControl::Credit(_)) {
            let i = port;
            c.crosspoint_half = (0..self.n).fold(0u64, |acc, j| {
                let x = i * self.n + j;
                let half = u64::from(self.occupancy[x])
                    .wrapping_add(u64::from(self.absorb[x]))
                    .wrapping_add(self.credits_sent_xp[x])
                    .wrapping_sub(self.received_xp[x]);
                acc.wrapping_add(crosspoint_weight(j).wrapping_mul(half))
            });
        }
        c
    }

    /// A fabric whose output adapters always absorb never waits for good; nothing to
    /// report.
    fn waits(&self) -> Vec<Wait> {
        Vec::new()
    }

    fn part_stats(&self) -> Option<PartStats> {
        let s = &self.stats;
        Some(PartStats {
            series: vec![
                ("credits_queued", s.credits_queued.clone()),
                ("parallel_departures", s.parallel_departures.clone()),
                ("crosspoint_peak", s.peak.clone()),
                ("output_departures", s.departures.clone()),
                (
                    WIRE_BITS,
                    self.control_cycles
                        .iter()
                        .chain(&self.sent[self.n..])
                        .copied()
                        .collect(),
                ),
            ],
        })
    }
}
