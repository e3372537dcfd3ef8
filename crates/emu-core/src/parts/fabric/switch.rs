//! The switch core of a single-stage fabric (Gramsamer §2.1.4, §7.2, §7.4, Fig. 7.30):
//! N inputs each feeding N crosspoint queues of M packets, one output-queue scheduler
//! (OQS) per output, and the receiving side of each input's flow control, with one
//! reception scheduler per input (flow-control domain).
//!
//! Ports: `0..N` are the ingress links from input adapter i (packets in, flow-control
//! information out), `N..2N` the egress links to output adapter j (packets out only: the
//! output adapter "is always able to absorb all traffic at all times", §2.3, so egress
//! needs no flow control).
//!
//! One cycle `c`, in this order (see [`super`] for why):
//! 1. packets that arrived in cycle `c` are stored in their crosspoint queue (an overflow
//!    is a flow-control violation), and their CLIQ header bits are written;
//! 2. each output's OQS picks one crosspoint with a packet and the packet leaves; its
//!    location becomes a credit in the absorption pool (relative credit), an absolute
//!    credit value (on every departure, or every n-th under Abs I and Abs B), or a
//!    threshold crossing (grant);
//! 3. each input returns its flow-control information: under relative credit at most one
//!    credit per cycle picked by its reception scheduler, or every freed credit (the
//!    Reference); under Grant OT each crosspoint decides whether this cycle's slot is on
//!    (Iliadis' potential function, Gramsamer §4.3.1) and signals when that changes.

use super::bitset::Bitset;
use super::flow::FlowControl;
use super::protocol::{Cell, FabricCell, FabricCounters, NO_VOQ, Packet, crosspoint_weight};
use super::recent::Recent;
use super::rxs::{Rxs, Strategy, View};
use super::windowed::{CellOut, CellPart};
use super::{OutputScheduler, SwitchParams};
use crate::ids::PortId;
use crate::model::{Activity, ModelError, Node, Outbox, PartStats, WIRE_BITS, Wait};
use crate::time::Tick;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// The switch core's state machine.
pub struct SwitchNode {
    p: SwitchParams,
    n: usize,
    /// The flow control, as the hot paths test it.
    fc: Fc,
    /// Crosspoints, index `i * n + j` (input i, output j).
    xps: Vec<Crosspoint>,
    /// Packets stored per crosspoint (the occupancy counters of §7.5), index `i * n + j`:
    /// a row is what an input's reception scheduler looks at.
    occupancy: Vec<u32>,
    /// Per input (switch port i).
    inputs: Vec<Input>,
    /// Per output (switch port N + j).
    outputs: Vec<Output>,
    /// The outputs with a packet stored for them.
    busy_outputs: Bitset,
    /// Relative credit: the inputs with credits freed and not yet returned.
    crediting: Bitset,
    /// The inputs with departures this cycle.
    departed_inputs: Bitset,
    /// The inputs with cells in their [`Input::pending`].
    pending_inputs: Bitset,
    /// Grant: the thresholds (empty for other flow controls).
    thresholds: Vec<u32>,
    /// Packets stored in the whole switch.
    stored: u64,
    rng: ChaCha8Rng,
    /// Cycles (window) × inputs with k departures, k = 1..=N, index k (0 unused: the
    /// report derives it from the window length).
    parallel_departures: Vec<u64>,
    /// Crosspoints of one input (scratch).
    scratch: Vec<usize>,
}

/// Bytes a crosspoint takes beside its stored packets: its state and occupancy counter.
pub(crate) const CROSSPOINT_BYTES: u64 = (std::mem::size_of::<Crosspoint>() + 4) as u64;

/// Bytes the switch keeps per port beside its crosspoints: the input's and the output's
/// state, and a count of parallel departures.
pub(crate) const PORT_BYTES: u64 =
    (std::mem::size_of::<Input>() + std::mem::size_of::<Output>() + 8) as u64;

/// One crosspoint (i, j): its queue and what it counts.
#[derive(Clone, Debug, Default)]
struct Crosspoint {
    /// The packets stored, oldest first.
    queue: VecDeque<Packet>,
    /// Relative credit: credits freed and not yet returned.
    absorb: u32,
    /// Grant: the level last signalled.
    level: u8,
    /// Packets received (for the §7.4 invariant).
    received: u64,
    /// Credits sent (for the §7.4 invariant).
    credits_sent: u64,
    /// Most packets stored at once in the window.
    peak: u64,
    /// Abs I and Abs B: departures, for "every n-th departure".
    departures: u64,
    /// Grant OT: the cycles of the on slots it granted lately (T).
    on_slots: Recent,
}

/// One switch input: the receiving side of its adapter's flow control.
#[derive(Clone, Debug)]
struct Input {
    /// The crosspoints whose absorption pool holds credits.
    waiting: Bitset,
    /// LOF-CLIQ: the CLIQ vector (bit j: the VOQ for output j is non-empty).
    cliq: Bitset,
    /// Relative credit: credits freed and not yet returned.
    absorb_total: u32,
    /// Departures this cycle.
    departed: u16,
    /// FIFO strategy: the outputs of this cycle's departures (scratch).
    departed_outputs: Vec<u16>,
    /// Its reception scheduler.
    rxs: Rxs,
    /// Flow-control information to send this cycle (absolute credit, grants).
    pending: Vec<Cell>,
    /// Cells sent and received on the port.
    sent: u64,
    received: u64,
    /// The packet cycles in which it sent flow-control information: its control path's
    /// wire time (one cycle may carry several cells).
    control_cycles: u64,
    /// Σ over window cycles of credits waiting to be returned (the credit FIFO
    /// population of §7.3.1 under FIFO).
    credits_queued: u64,
}

/// One switch output: its output-queue scheduler (OQS) and egress link.
#[derive(Clone, Debug)]
struct Output {
    /// The inputs whose crosspoint holds a packet.
    occupied: Bitset,
    /// RR: the last input served.
    pointer: usize,
    /// OCF: inputs in order of packet arrival (the global FIFO, §7.2.4).
    arrivals: VecDeque<u16>,
    /// Packets sent (at most one a cycle: also its wire time) and cells received.
    sent: u64,
    received: u64,
    /// Packets that left in the window.
    departures: u64,
}

/// The switch's flow control, as its hot paths test it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fc {
    /// Relative credit returned by a reception scheduler, one per cycle at most.
    Scheduled(Strategy),
    /// Relative credit, every freed credit returned at once (the Reference).
    Reference,
    /// Grant ST and MT: threshold crossings.
    Grant,
    /// Grant OT: a slot decision per crosspoint every cycle, over this window.
    GrantOt(u32),
    /// Absolute credit on every departure, counted against B_r.
    Absolute(u32),
    /// Abs I and Abs B: a value on every n-th (`.1`) departure, counted against `.0`.
    Every(u32, u32),
    /// No flow control.
    None,
}

impl Fc {
    fn of(fc: &FlowControl) -> Fc {
        match *fc {
            FlowControl::Credit(Strategy::Reference) => Fc::Reference,
            FlowControl::Credit(s) => Fc::Scheduled(s),
            FlowControl::Grant { .. } => Fc::Grant,
            FlowControl::GrantOt { window } => Fc::GrantOt(window),
            FlowControl::Absolute { regular } => Fc::Absolute(regular),
            FlowControl::AbsoluteI { counted, every }
            | FlowControl::AbsoluteB { counted, every, .. } => Fc::Every(counted, every),
            FlowControl::None => Fc::None,
        }
    }

    /// Relative credit, by a scheduler or the Reference.
    fn relative(self) -> bool {
        matches!(self, Fc::Scheduled(_) | Fc::Reference)
    }
}

impl SwitchNode {
    /// A reset switch.
    pub fn new(p: SwitchParams) -> SwitchNode {
        let n = p.ports as usize;
        let fc = Fc::of(&p.flow_control);
        let strategy = match fc {
            Fc::Scheduled(s) => s,
            _ => Strategy::Reference,
        };
        let crosspoint = Crosspoint {
            // Grant OT starts stopped ("at initialization feasibility information is
            // absent", Gramsamer §4.3.1) and grants its first slots in cycle 0.
            level: u8::from(matches!(fc, Fc::GrantOt(_))),
            ..Crosspoint::default()
        };
        SwitchNode {
            fc,
            xps: vec![crosspoint; n * n],
            occupancy: vec![0; n * n],
            inputs: vec![
                Input {
                    waiting: Bitset::new(n),
                    cliq: Bitset::new(n),
                    absorb_total: 0,
                    departed: 0,
                    departed_outputs: Vec::new(),
                    rxs: Rxs::new(strategy, n),
                    pending: Vec::new(),
                    sent: 0,
                    received: 0,
                    control_cycles: 0,
                    credits_queued: 0,
                };
                n
            ],
            outputs: vec![
                Output {
                    occupied: Bitset::new(n),
                    pointer: n.saturating_sub(1),
                    arrivals: VecDeque::new(),
                    sent: 0,
                    received: 0,
                    departures: 0,
                };
                n
            ],
            busy_outputs: Bitset::new(n),
            crediting: Bitset::new(n),
            departed_inputs: Bitset::new(n),
            pending_inputs: Bitset::new(n),
            thresholds: match &p.flow_control {
                FlowControl::Grant { thresholds } => thresholds.clone(),
                _ => Vec::new(),
            },
            stored: 0,
            rng: ChaCha8Rng::seed_from_u64(p.seed),
            parallel_departures: vec![0; n + 1],
            scratch: Vec::new(),
            n,
            p,
        }
    }

    #[inline]
    fn in_window(&self, t: Tick) -> bool {
        (self.p.window.0..self.p.window.1).contains(&t)
    }

    #[inline]
    fn store(&mut self, now: Tick, port: PortId, mut pkt: Packet) -> Result<(), ModelError> {
        let (i, j) = (usize::from(pkt.src), usize::from(pkt.dst));
        if i != port || j >= self.n {
            return Err(ModelError::Routing {
                port,
                what: format!("a packet from input {i} for output {j} arrived on input {port}"),
            });
        }
        let x = i * self.n + j;
        let occupancy = self.occupancy[x] + 1;
        self.occupancy[x] = occupancy;
        if let Some(m) = self.p.memory
            && occupancy > m
        {
            return Err(ModelError::FlowControl {
                port,
                what: format!(
                    "crosspoint ({i}, {j}) received a packet with all {m} locations full \
                     (flow control let the adapter send without permission)"
                ),
            });
        }
        let window = self.in_window(now);
        // CLIQ (§7.5): the packet's own VOQ is non-empty unless it was its last; the
        // header may name one more VOQ that became non-empty.
        let cliq = &mut self.inputs[i].cliq;
        cliq.put(j, !pkt.last_of_voq);
        if pkt.nonempty != NO_VOQ {
            let k = usize::from(pkt.nonempty);
            if k < self.n {
                cliq.insert(k);
            }
        }
        pkt.journey.link = u32::try_from(now - pkt.dispatched).unwrap_or(u32::MAX);
        let xp = &mut self.xps[x];
        if window {
            xp.peak = xp.peak.max(u64::from(occupancy));
        }
        xp.received += 1;
        xp.queue.push_back(pkt);
        self.stored += 1;
        let output = &mut self.outputs[j];
        output.occupied.insert(i);
        if self.p.output_scheduler == OutputScheduler::Ocf {
            output.arrivals.push_back(pkt.src);
        }
        self.busy_outputs.insert(j);
        if !self.thresholds.is_empty() {
            self.signal_grant(i, j);
        }
        Ok(())
    }

    /// Grant: queues a stop/go message if crosspoint (i, j) crossed a threshold.
    fn signal_grant(&mut self, i: usize, j: usize) {
        let x = i * self.n + j;
        let now_level = FlowControl::grant_level(&self.thresholds, self.occupancy[x]);
        let was = self.xps[x].level;
        if now_level != was {
            self.xps[x].level = now_level;
            self.queue_control(
                i,
                Cell::Grant {
                    output: j as u16,
                    go: now_level < was,
                },
            );
        }
    }

    /// Queues flow-control information for input `i`, sent in this cycle's step.
    #[inline]
    fn queue_control(&mut self, i: usize, cell: Cell) {
        self.inputs[i].pending.push(cell);
        self.pending_inputs.insert(i);
    }

    fn depart(&mut self, now: Tick, out: &mut impl CellOut) {
        let n = self.n;
        let window = self.in_window(now);
        let ocf = self.p.output_scheduler == OutputScheduler::Ocf;
        for j in self.busy_outputs.members() {
            let output = &mut self.outputs[j];
            // The input whose crosspoint the output serves this cycle.
            let i = if ocf {
                output.arrivals.pop_front().map(usize::from)
            } else {
                let i = output.occupied.next_from(output.pointer + 1);
                if let Some(i) = i {
                    output.pointer = i;
                }
                i
            };
            let Some(i) = i else {
                continue;
            };
            let x = i * n + j;
            let xp = &mut self.xps[x];
            let Some(mut pkt) = xp.queue.pop_front() else {
                continue;
            };
            match xp.queue.front_mut() {
                // The packet behind it may leave from the next cycle.
                Some(next) => {
                    let stored = next.dispatched + Tick::from(next.journey.link);
                    next.journey.crosspoint = u32::try_from(now + 1 - stored).unwrap_or(u32::MAX);
                }
                None => {
                    output.occupied.remove(i);
                    if output.occupied.is_empty() {
                        self.busy_outputs.remove(j);
                    }
                }
            }
            output.sent += 1;
            if window {
                output.departures += 1;
            }
            self.occupancy[x] -= 1;
            self.stored -= 1;
            pkt.exit = now + 1;
            out.send(n + j, Cell::Packet(pkt), now);
            out.activity().tokens_moved += 1;
            let input = &mut self.inputs[i];
            input.departed += 1;
            self.departed_inputs.insert(i);
            match self.fc {
                Fc::Scheduled(s) => {
                    if s == Strategy::Fifo {
                        input.departed_outputs.push(j as u16);
                    }
                    // Relative credit: the freed location's credit waits in the
                    // absorption pool.
                    xp.absorb += 1;
                    input.absorb_total += 1;
                    input.waiting.insert(j);
                    self.crediting.insert(i);
                }
                Fc::Reference => {
                    xp.absorb += 1;
                    input.absorb_total += 1;
                    input.waiting.insert(j);
                    self.crediting.insert(i);
                }
                Fc::Absolute(regular) => self.send_free(i, j, regular),
                Fc::Every(counted, every) => {
                    // Gramsamer §4.3.2, Abs I: "the counter state is updated on every
                    // n th packet departure".
                    xp.departures += 1;
                    if xp.departures.is_multiple_of(u64::from(every.max(1))) {
                        self.send_free(i, j, counted);
                    }
                }
                Fc::Grant => self.signal_grant(i, j),
                Fc::GrantOt(_) | Fc::None => {}
            }
        }
    }

    /// Absolute credit (Gramsamer §4.3.2): queues for input `i` the free locations of its
    /// crosspoint for output `j`, counted against `counted` locations.
    fn send_free(&mut self, i: usize, j: usize, counted: u32) {
        let free = counted.saturating_sub(self.occupancy[i * self.n + j]);
        self.queue_control(
            i,
            Cell::Absolute {
                output: j as u16,
                free,
            },
        );
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
            let xp = &mut self.xps[x];
            let t = xp.on_slots.count_from(from);
            let on = self.occupancy[x].saturating_add(t) < m;
            if on {
                xp.on_slots.push(now);
            }
            let was_on = xp.level == 0;
            if on != was_on {
                xp.level = u8::from(!on);
                self.queue_control(
                    i,
                    Cell::Grant {
                        output: j as u16,
                        go: on,
                    },
                );
            }
        }
    }

    /// Each input's flow-control information for this cycle. Only the inputs with
    /// something to do are visited: departures this cycle, credits to return, cells
    /// queued (under Grant OT, which decides a slot of every crosspoint each cycle, all
    /// of them may have cells).
    fn return_flow_control(&mut self, now: Tick, out: &mut impl CellOut) {
        let window = self.in_window(now);
        if let Fc::GrantOt(slots) = self.fc {
            for i in 0..self.n {
                self.grant_slots(now, i, slots);
            }
        }
        let visit = self
            .departed_inputs
            .union(&self.crediting)
            .union(&self.pending_inputs);
        for i in visit.members() {
            self.return_input(now, i, window, out);
        }
        self.departed_inputs.clear();
        self.pending_inputs.clear();
    }

    /// Input `i`'s flow-control information for this cycle (see
    /// [`SwitchNode::return_flow_control`]).
    #[inline]
    fn return_input(&mut self, now: Tick, i: usize, window: bool, out: &mut impl CellOut) {
        let n = self.n;
        let input = &mut self.inputs[i];
        let sent_before = input.sent;
        let k = usize::from(input.departed);
        input.departed = 0;
        if window && k > 0 {
            self.parallel_departures[k] += 1;
        }
        match self.fc {
            Fc::Reference => {
                if input.absorb_total > 0 {
                    let mut js = std::mem::take(&mut self.scratch);
                    js.clear();
                    js.extend(input.waiting.members());
                    for &j in &js {
                        let xp = &mut self.xps[i * n + j];
                        for _ in 0..xp.absorb {
                            out.send(i, Cell::Credit { output: j as u16 }, now);
                        }
                        input.sent += u64::from(xp.absorb);
                        xp.credits_sent += u64::from(xp.absorb);
                        input.absorb_total -= xp.absorb;
                        xp.absorb = 0;
                    }
                    input.waiting.clear();
                    self.crediting.remove(i);
                    self.scratch = js;
                }
            }
            Fc::Scheduled(s) => {
                // Only FIFO keeps the departures' order (§7.5: written in random
                // order); the other strategies look at the pools alone.
                if s == Strategy::Fifo {
                    if k > 1 {
                        input.departed_outputs.shuffle(&mut self.rng);
                    }
                    input.rxs.departed(&input.departed_outputs);
                    input.departed_outputs.clear();
                }
                let pick = if input.absorb_total == 0 {
                    None
                } else {
                    input.rxs.pick(View {
                        candidates: &input.waiting,
                        occupancy: &self.occupancy[i * n..(i + 1) * n],
                        cliq: &input.cliq,
                    })
                };
                if let Some(j) = pick {
                    let xp = &mut self.xps[i * n + j];
                    xp.absorb -= 1;
                    if xp.absorb == 0 {
                        input.waiting.remove(j);
                    }
                    xp.credits_sent += 1;
                    input.absorb_total -= 1;
                    if input.absorb_total == 0 {
                        self.crediting.remove(i);
                    }
                    out.send(i, Cell::Credit { output: j as u16 }, now);
                    input.sent += 1;
                }
            }
            Fc::None => {}
            Fc::Grant | Fc::GrantOt(_) | Fc::Absolute(_) | Fc::Every(..) => {
                input.sent += input.pending.len() as u64;
                for cell in input.pending.drain(..) {
                    out.send(i, cell, now);
                }
            }
        }
        if window {
            input.credits_queued += u64::from(input.absorb_total);
        }
        if input.sent != sent_before {
            input.control_cycles += 1;
        }
    }
}

impl CellPart for SwitchNode {
    #[inline]
    fn take(
        &mut self,
        now: Tick,
        port: PortId,
        cell: &Cell,
        _activity: &mut Activity,
    ) -> Result<(), ModelError> {
        if port < self.n {
            self.inputs[port].received += 1;
            if let Cell::Packet(pkt) = cell {
                return self.store(now, port, *pkt);
            }
        } else {
            self.outputs[port - self.n].received += 1;
        }
        Err(ModelError::Protocol {
            port,
            what: format!("the switch cannot take {cell:?} on port {port}"),
        })
    }

    #[inline]
    fn step_to(&mut self, now: Tick, out: &mut impl CellOut) -> Result<Option<Tick>, ModelError> {
        self.depart(now, out);
        self.return_flow_control(now, out);
        // Grant OT decides a slot every cycle, packets or not.
        let busy =
            self.stored > 0 || !self.crediting.is_empty() || matches!(self.fc, Fc::GrantOt(_));
        Ok(busy.then_some(now + 1))
    }
}

impl Node<FabricCell> for SwitchNode {
    fn receive(&mut self, now: Tick, port: PortId, cell: Cell) -> Result<(), ModelError> {
        self.take(now, port, &cell, &mut Activity::default())
    }

    fn step(&mut self, now: Tick, out: &mut Outbox<Cell>) -> Result<Option<Tick>, ModelError> {
        self.step_to(now, out)
    }

    fn port_counters(&self, port: PortId) -> FabricCounters {
        if port >= self.n {
            let o = &self.outputs[port - self.n];
            return FabricCounters {
                sent: o.sent,
                received: o.received,
                ..FabricCounters::default()
            };
        }
        let input = &self.inputs[port];
        let mut c = FabricCounters {
            sent: input.sent,
            received: input.received,
            ..FabricCounters::default()
        };
        if self.fc.relative() {
            let i = port;
            c.crosspoint_half = (0..self.n).fold(0u64, |acc, j| {
                let x = i * self.n + j;
                let xp = &self.xps[x];
                let half = u64::from(self.occupancy[x])
                    .wrapping_add(u64::from(xp.absorb))
                    .wrapping_add(xp.credits_sent)
                    .wrapping_sub(xp.received);
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
        Some(PartStats {
            series: vec![
                (
                    "credits_queued",
                    self.inputs.iter().map(|i| i.credits_queued).collect(),
                ),
                ("parallel_departures", self.parallel_departures.clone()),
                ("crosspoint_peak", self.xps.iter().map(|x| x.peak).collect()),
                (
                    "output_departures",
                    self.outputs.iter().map(|o| o.departures).collect(),
                ),
                (
                    WIRE_BITS,
                    self.inputs
                        .iter()
                        .map(|i| i.control_cycles)
                        .chain(self.outputs.iter().map(|o| o.sent))
                        .collect(),
                ),
            ],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testkit::Driver;

    /// A 2-port switch of memory `m` under `fc`.
    fn switch(m: u32, fc: FlowControl) -> Driver<FabricCell, SwitchNode> {
        Driver::new(SwitchNode::new(SwitchParams {
            ports: 2,
            memory: Some(m),
            flow_control: fc,
            output_scheduler: OutputScheduler::Rr,
            window: (0, 1_000),
            seed: 1,
        }))
    }

    /// Packet `seq` from input `src` to output `dst`, dispatched at `dispatched`.
    fn packet(src: u16, dst: u16, seq: u32, dispatched: Tick) -> Cell {
        Cell::Packet(Packet {
            src,
            dst,
            seq,
            created: dispatched,
            dispatched,
            exit: 0,
            last_of_voq: false,
            nonempty: NO_VOQ,
            journey: Default::default(),
        })
    }

    /// The flow-control cells sent to input `i` about its crosspoint for output 0,
    /// with their tick.
    fn control_of(d: &Driver<FabricCell, SwitchNode>, i: PortId) -> Vec<(Tick, Cell)> {
        d.sent_on(i, |c| match *c {
            Cell::Grant { output, .. } | Cell::Absolute { output, .. } => output == 0,
            _ => false,
        })
        .into_iter()
        .map(|e| (e.at, e.token))
        .collect()
    }

    fn control(d: &Driver<FabricCell, SwitchNode>) -> Vec<(Tick, Cell)> {
        control_of(d, 0)
    }

    #[test]
    fn abs_i_sends_its_value_on_every_nth_departure_only() {
        // Gramsamer §4.3.2, Abs I: n = 3, B_r + B_n = 5. Packets arrive at ticks 0..=6
        // and leave at once (output 0 is free): values at the 3rd and 6th departure.
        let mut d = switch(
            12,
            FlowControl::AbsoluteI {
                counted: 5,
                every: 3,
            },
        );
        for t in 0..7 {
            d.arrive(t, 0, packet(0, 0, t as u32, 0));
        }
        d.run_until(10).expect("runs");
        let free = |at| (at, Cell::Absolute { output: 0, free: 5 });
        assert_eq!(control(&d), vec![free(2), free(5)]);
    }

    #[test]
    fn abs_values_count_against_what_the_scheme_counts() {
        // Input 1 holds output 0 for a cycle, so input 0's crosspoint keeps one packet:
        // Abs I counts B_r + B_n (here 5), Abs B all of M (here 8).
        for (fc, counted) in [
            (
                FlowControl::AbsoluteI {
                    counted: 5,
                    every: 1,
                },
                5,
            ),
            (
                FlowControl::AbsoluteB {
                    counted: 8,
                    every: 1,
                    window: 3,
                },
                8,
            ),
        ] {
            let mut d = switch(8, fc);
            d.arrive(0, 0, packet(0, 0, 0, 0));
            d.arrive(0, 0, packet(0, 0, 1, 0));
            d.run_until(3).expect("runs");
            assert_eq!(
                control(&d),
                vec![
                    (
                        0,
                        Cell::Absolute {
                            output: 0,
                            free: counted - 1
                        }
                    ),
                    (
                        1,
                        Cell::Absolute {
                            output: 0,
                            free: counted
                        }
                    ),
                ]
            );
        }
    }

    #[test]
    fn grant_ot_grants_m_slots_per_window_with_nothing_stored() {
        // Gramsamer §4.3.1, Grant OT: M = 3, RTT = 4 (T over the last 3 slots). Stopped
        // at reset, it grants slots 0, 1, 2 (T + value = 0, 1, 2 < 3), stops slot 3
        // (T = 3), grants slot 4 once slot 0 has left the window, and so on: 3 slots in
        // 4, one go and one stop per round.
        let mut d = switch(3, FlowControl::GrantOt { window: 3 });
        d.run_until(12).expect("runs");
        let go = |at, go| (at, Cell::Grant { output: 0, go });
        assert_eq!(
            control(&d),
            vec![
                go(0, true),
                go(3, false),
                go(4, true),
                go(7, false),
                go(8, true),
                go(11, false),
            ]
        );
    }

    #[test]
    fn grant_ot_counts_stored_packets_in_the_potential() {
        // M = 4, RTT = 4: with nothing stored T is at most 3 < M, so every slot is on.
        // Two packets for output 0 arrive at tick 4, one from each input: input 0's
        // leaves, input 1's stays (value 1), and with slots 1-3 in the window (T = 3)
        // the potential 4 ≥ M stops input 1's slot 4; at tick 5 its packet has left and
        // T = 2 (slots 2, 3): go again.
        let mut d = switch(4, FlowControl::GrantOt { window: 3 });
        d.arrive(4, 1, packet(1, 0, 0, 0));
        d.arrive(4, 0, packet(0, 0, 0, 0));
        d.run_until(6).expect("runs");
        let go = |at, go| (at, Cell::Grant { output: 0, go });
        assert_eq!(control(&d), vec![go(0, true)]);
        assert_eq!(
            control_of(&d, 1),
            vec![go(0, true), go(4, false), go(5, true)]
        );
    }
}
