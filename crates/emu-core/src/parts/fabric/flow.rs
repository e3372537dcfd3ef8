//! Flow control between an input adapter and the switch's crosspoints (Gramsamer §4.3),
//! one flow-control sub-domain (FCSD) per crosspoint, and the adapter's side of it:
//! whether a VOQ's head packet is *feasible* ("the downstream node gave permission",
//! §4.1).
//!
//! - **Relative credit** (§4.3.3, the protocol of all the document's simulations): the
//!   adapter's credit pool starts at M; a dispatch takes a credit, a returned credit
//!   adds one; feasible while the pool is above zero. How credits come back is the
//!   [`Strategy`] (§7.4-7.5).
//! - **Grant** (§4.3.1): the crosspoint counts its packets and signals when a threshold
//!   is crossed. One threshold T is "Grant ST": stop at occupancy ≥ T, go below it.
//!   Several thresholds T₁ < … < T_k are "Grant MT", the rate-based scheme: above j
//!   thresholds the VOQ may send at rate (k − j)/k, and above all of them it stops; as at
//!   most one packet arrives and one departs per cycle, at most one threshold is
//!   crossed at a time, and the message says which level the crosspoint is at.
//! - **Absolute credit** (§4.3.2, "Credit Abs" operated on every packet departure): on
//!   each departure the crosspoint sends its free locations counted against its regular
//!   buffer B_r; the adapter sets its counter to that value "irrespective of the previous
//!   counting state", takes one per dispatch, and stops at zero. The rest of the memory,
//!   M − B_r = RTT − 1, is the excess buffer B_e that catches the packets in flight (see
//!   [`FlowControl::absolute_regular`] for why not less).
//!
//! - **Grant OT** (§4.3.1, "Optimized Grant", Iliadis' potential function): each cycle
//!   the crosspoint decides whether this packet slot is "on" (the adapter may send one
//!   packet in it): off if T + value ≥ B_r, with value its occupancy and T the on slots it
//!   granted whose packets can still be on their way. B_r is all of M (no excess buffer:
//!   T accounts for the packets in flight). See [`FlowControl::GrantOt`].
//! - **Credit Abs I** (§4.3.2, Kung's N123): absolute credit whose value is sent on every
//!   n-th departure of a crosspoint only, counted against B_r + B_n. See
//!   [`FlowControl::AbsoluteI`].
//! - **Credit Abs B** (§4.3.2, N23): the same values, counted against all of M, and the
//!   adapter stops while its dispatches not yet seen by the value (T, those of the last
//!   RTT) are at least the value. See [`FlowControl::AbsoluteB`].
//!
//! The order of events in a cycle (see [`super`]) puts a stop signal on the control path
//! in the cycle the threshold is crossed, so the packets that can still arrive after it
//! are those dispatched in the RTT − 1 cycles before it takes effect: a grant threshold
//! may be at most M − RTT + 1 (one location fewer of slack than §4.3.1's B_e = RTT,
//! which counts the signal from the next cycle), and absolute credit needs
//! B_e = RTT − 1.

use super::bitset::Bitset;
use super::protocol::Cell;
use super::recent::Recent;
pub use super::rxs::Strategy;
use crate::time::Tick;

/// The flow control of a fabric's ingress links.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FlowControl {
    /// Relative credit, credits returned by `Strategy` (Gramsamer §4.3.3, §7.4-7.5).
    Credit(Strategy),
    /// Grant with `thresholds` (ascending; one for Grant ST, several for Grant MT).
    Grant {
        /// Occupancy thresholds, ascending, each in 1..=M − RTT + 1.
        thresholds: Vec<u32>,
    },
    /// No flow control and unbounded crosspoint queues: the set-up of Gramsamer §7.2
    /// ("There is no FC mechanism activated and the queues are of infinite length").
    None,
    /// Absolute credit counted against a regular buffer of `regular` locations (B_r).
    Absolute {
        /// B_r: the free locations sent are B_r − occupancy (at least 0).
        regular: u32,
    },
    /// Grant OT, the optimised grant (Gramsamer §4.3.1, after Iliadis): the crosspoint
    /// counts the on slots Q it granted over a window, T = Σ Q, and each cycle makes
    /// this cycle's slot off ("stop") if T + value ≥ B_r, value being its occupancy
    /// after this cycle's departure, else on ("go"). An on slot lets the adapter send one
    /// packet to the crosspoint in the cycle the slot reaches it (one bit per slot,
    /// I = 1; emu puts a cell on the wire only when the bit changes, which the adapter
    /// reads back into the same bits). B_r is M: T stands for every packet that can
    /// still arrive, so no excess buffer is needed (B_min = 1) and B = RTT. Below RTT
    /// it stays correct (nothing overflows) but grants fewer slots per round trip, and
    /// at M = 1 it "oscillates" (§4.3.1): an overloaded fabric then drains slowly, and
    /// a run's drain limit can leave measured packets undelivered.
    ///
    /// Decisions where §4.3.1 leaves a choice: the window counts the on slots of the
    /// last RTT − 1 cycles, exactly those whose packet can still be on its way in emu's
    /// order of events (a slot granted in cycle g is used in g + RTT/2 and its packet
    /// stored in g + RTT, before that cycle's decision), where the document writes
    /// Σ from n − RTT to n; and "at initialization feasibility information is absent":
    /// the adapter starts stopped and the first slot is granted in cycle 0.
    GrantOt {
        /// Slots counted in T: RTT − 1.
        window: u32,
    },
    /// Credit Abs I, absolute credit with controlled flow-control bandwidth (Gramsamer
    /// §4.3.2, Kung's N123 scheme): the crosspoint sends its free locations, counted
    /// against B_r + B_n, on every n-th packet departure only (I is divided by n); the
    /// adapter sets its counter to the value, takes one per dispatch and stops at zero.
    /// The excess buffer B_e = RTT − 1 catches the packets in flight, as for
    /// [`FlowControl::Absolute`].
    ///
    /// Decisions: B_n is n locations (§4.3.2: "an additional buffer space B_n, worth n
    /// packets"; Kung's N2 is both the update interval and its buffer), and it is not a
    /// separate key: the values count B_r and B_n together, so the protocol depends on M
    /// and n only. M must leave B_r + B_n ≥ n, or the adapter could spend its counter on
    /// fewer than n packets and never see another value.
    AbsoluteI {
        /// B_r + B_n = M − (RTT − 1): the free locations sent are this − occupancy.
        counted: u32,
        /// n: a value on every n-th departure from the crosspoint.
        every: u32,
    },
    /// Credit Abs B, absolute credit without excess buffer (Gramsamer §4.3.2, the N23
    /// scheme): the crosspoint sends its free locations counted against all of M
    /// (B_r + B_n) on every n-th departure, as Abs I; the adapter counts its dispatches
    /// to the crosspoint over the last RTT (T: "value ... without accounting for the
    /// packet arrivals during the last RTT time-period, whereas Q_n represents exactly
    /// this number") and stops if T ≥ value.
    ///
    /// Decisions: T counts the dispatches from `window` = RTT − 1 cycles before the
    /// value *arrived* (the dispatches a value computed RTT/2 cycles earlier cannot
    /// have seen) up to now. When a value arrives every cycle this is the document's
    /// "last RTT"; when values come every n-th departure, or not at all while the
    /// output is blocked, a window that kept sliding would forget packets the value
    /// never counted and overflow the crosspoint. B_n is n as for Abs I, and M ≥ n.
    AbsoluteB {
        /// B_r + B_n = M: the free locations sent are M − occupancy.
        counted: u32,
        /// n: a value on every n-th departure from the crosspoint.
        every: u32,
        /// RTT − 1: how far before a value's arrival T starts counting.
        window: u32,
    },
}

impl FlowControl {
    /// The name used in files and reports: "credit", "grant", "absolute", "grant-ot",
    /// "absolute-i", "absolute-b", "none".
    pub fn name(&self) -> &'static str {
        match self {
            FlowControl::Credit(_) => "credit",
            FlowControl::Grant { .. } => "grant",
            FlowControl::Absolute { .. } => "absolute",
            FlowControl::GrantOt { .. } => "grant-ot",
            FlowControl::AbsoluteI { .. } => "absolute-i",
            FlowControl::AbsoluteB { .. } => "absolute-b",
            FlowControl::None => "none",
        }
    }

    /// The regular buffer B_r that memory `m` affords at round trip `rtt`: what is left
    /// after an excess buffer B_e = RTT − 1, or `None` if nothing is (M < RTT).
    ///
    /// Gramsamer §4.3.2 sizes B_e = min(B_r − 1, RTT − 1), arguing that after the first
    /// packet of a sequence the others are blocked and trigger no update. When they are
    /// not blocked, each departure sends a value again, the adapter's counter is set back
    /// up while packets are still on the data path, and a buffer of B_r + B_r − 1 < B_r +
    /// RTT − 1 overflows: `emu reproduce fabric-buffers` found it at M = 3, RTT = 8. So
    /// emu keeps B_e = RTT − 1 whatever B_r.
    pub fn absolute_regular(m: u32, rtt: u32) -> Option<u32> {
        (m + 1).checked_sub(rtt).filter(|&r| r >= 1)
    }

    /// True for Grant MT, whose permission changes every cycle (a rate per threshold
    /// level), not only when flow-control information arrives.
    pub(crate) fn rated(&self) -> bool {
        matches!(self, FlowControl::Grant { thresholds } if thresholds.len() > 1)
    }

    /// The grant level (thresholds at or below `occupancy`) of a crosspoint.
    pub(crate) fn grant_level(thresholds: &[u32], occupancy: u32) -> u8 {
        thresholds.iter().filter(|&&t| occupancy >= t).count() as u8
    }
}

/// The adapter's view of its crosspoints' permission, one entry per VOQ.
#[derive(Clone, Debug)]
pub struct Permission {
    kind: Kind,
    /// Relative: credits in the pool; absolute: the counter; Abs B: the value less the
    /// dispatches it has not seen (at least 0).
    credits: Vec<u32>,
    /// Grant: the level each crosspoint last signalled.
    level: Vec<u8>,
    /// Grant MT: sending allowance in k-ths of a packet.
    allowance: Vec<u32>,
    /// Grant: number of thresholds k (1 for Grant OT).
    k: u32,
    /// Abs B: per VOQ, the cycles of its recent dispatches (T).
    dispatched: Vec<Recent>,
    /// Abs B: RTT − 1.
    window: u32,
    /// The crosspoints a packet may be sent to now, kept for every kind but Grant MT
    /// (whose allowance changes every cycle).
    feasible: Bitset,
    /// Grant MT: feasibility is computed per VOQ each time it is asked.
    rated: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    None,
    Credit,
    Grant,
    Absolute,
    AbsoluteB,
}

/// What flow-control information did to a VOQ's permission ([`Permission::apply`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Applied {
    /// The VOQ (switch output) it was about.
    pub output: usize,
    /// Whether a packet could be dispatched to it before.
    pub was_feasible: bool,
    /// Whether one can now.
    pub feasible: bool,
}

impl Permission {
    /// The reset state for `n` crosspoints of memory `m` under `fc`: a full credit pool
    /// (relative: "the number of available packet locations at the reception side is
    /// initially given as credits", §5.6.2), go (Grant ST/MT), stop (Grant OT: "at
    /// initialization feasibility information is absent", §4.3.1), or a counter of what
    /// the values are counted against (B_r; B_r + B_n).
    pub fn new(fc: &FlowControl, n: usize, m: u32) -> Permission {
        let (kind, credits, k, window) = match *fc {
            FlowControl::Credit(_) => (Kind::Credit, m, 0, 0),
            FlowControl::Grant { ref thresholds } => (Kind::Grant, 0, thresholds.len() as u32, 0),
            FlowControl::GrantOt { .. } => (Kind::Grant, 0, 1, 0),
            FlowControl::Absolute { regular } => (Kind::Absolute, regular, 0, 0),
            FlowControl::AbsoluteI { counted, .. } => (Kind::Absolute, counted, 0, 0),
            FlowControl::AbsoluteB {
                counted, window, ..
            } => (Kind::AbsoluteB, counted, 0, window),
            FlowControl::None => (Kind::None, 0, 0, 0),
        };
        let stopped = matches!(fc, FlowControl::GrantOt { .. });
        let mut p = Permission {
            kind,
            credits: vec![credits; n],
            level: vec![u8::from(stopped); n],
            allowance: vec![k; n],
            k,
            dispatched: if kind == Kind::AbsoluteB {
                vec![Recent::default(); n]
            } else {
                Vec::new()
            },
            window,
            feasible: Bitset::new(n),
            rated: fc.rated(),
        };
        for j in 0..n {
            p.refresh(j);
        }
        p
    }

    /// The crosspoints a packet may be sent to now, unless that changes every cycle
    /// (Grant MT): then `None`, and [`Permission::feasible`] must be asked per VOQ.
    #[inline]
    pub(crate) fn feasible_set(&self) -> Option<&Bitset> {
        (!self.rated).then_some(&self.feasible)
    }

    /// Brings the feasible set up to date for VOQ `j`; returns whether it is feasible.
    #[inline]
    fn refresh(&mut self, j: usize) -> bool {
        let f = self.compute(j);
        self.feasible.put(j, f);
        f
    }

    /// Whether VOQ `j` is feasible, from the state itself.
    #[inline]
    fn compute(&self, j: usize) -> bool {
        match self.kind {
            Kind::None => true,
            Kind::Credit | Kind::Absolute | Kind::AbsoluteB => self.credits[j] > 0,
            Kind::Grant => {
                u32::from(self.level[j]) < self.k && (self.k == 1 || self.allowance[j] >= self.k)
            }
        }
    }

    /// True if a packet may be dispatched to crosspoint `j` now.
    #[inline]
    pub fn feasible(&self, j: usize) -> bool {
        if self.rated {
            self.compute(j)
        } else {
            self.feasible.contains(j)
        }
    }

    /// A packet was dispatched to crosspoint `j` in cycle `now` (it was feasible).
    /// Returns whether another may follow it (the VOQ is still feasible).
    #[inline]
    pub fn consume(&mut self, now: Tick, j: usize) -> bool {
        match self.kind {
            Kind::None => return true,
            Kind::Credit | Kind::Absolute => {
                let c = &mut self.credits[j];
                *c -= 1;
                if *c > 0 {
                    return true;
                }
                self.feasible.remove(j);
                return false;
            }
            Kind::AbsoluteB => {
                self.credits[j] -= 1;
                self.dispatched[j].push(now);
            }
            Kind::Grant if self.k > 1 => self.allowance[j] -= self.k,
            Kind::Grant => {}
        }
        self.refresh(j)
    }

    /// Grant MT: a cycle passed; each VOQ's allowance grows by its rate.
    #[inline]
    pub fn tick(&mut self) {
        if self.rated {
            for (a, &l) in self.allowance.iter_mut().zip(&self.level) {
                *a = (*a + self.k - u32::from(l).min(self.k)).min(self.k);
            }
        }
    }

    /// Applies flow-control information from the switch that arrived in cycle `now`,
    /// about a VOQ below `n`. Returns `None` if the cell is not flow-control information
    /// of this kind (a protocol error for the caller), else the VOQ's permission before
    /// and after.
    #[inline]
    pub(crate) fn apply(&mut self, now: Tick, cell: &Cell) -> Option<Applied> {
        match (*cell, self.kind) {
            (Cell::Credit { output }, Kind::Credit) => {
                let j = usize::from(output);
                let c = &mut self.credits[j];
                *c += 1;
                let was_feasible = *c > 1;
                if !was_feasible {
                    self.feasible.insert(j);
                }
                Some(Applied {
                    output: j,
                    was_feasible,
                    feasible: true,
                })
            }
            (Cell::Grant { output, go }, Kind::Grant) => {
                let j = usize::from(output);
                let was_feasible = self.feasible(j);
                let l = &mut self.level[j];
                // The message says the direction of the crossing (Gramsamer §4.3.1,
                // "Grant MT": '11' overstep, '10' understep).
                if go {
                    *l = l.saturating_sub(1);
                } else {
                    *l = (*l + 1).min(self.k as u8);
                }
                Some(self.applied(j, was_feasible))
            }
            (Cell::Absolute { output, free }, Kind::Absolute) => {
                let j = usize::from(output);
                let was_feasible = self.feasible(j);
                self.credits[j] = free;
                Some(self.applied(j, was_feasible))
            }
            (Cell::Absolute { output, free }, Kind::AbsoluteB) => {
                // Stop if T ≥ value: T, the dispatches the value cannot have seen, are
                // those from RTT − 1 cycles before its arrival on.
                let j = usize::from(output);
                let was_feasible = self.feasible(j);
                let from = now.saturating_sub(Tick::from(self.window));
                let t = self.dispatched[j].count_from(from);
                self.credits[j] = free.saturating_sub(t);
                Some(self.applied(j, was_feasible))
            }
            _ => None,
        }
    }

    fn applied(&mut self, j: usize, was_feasible: bool) -> Applied {
        let feasible = self.refresh(j);
        Applied {
            output: j,
            was_feasible,
            feasible,
        }
    }

    /// Relative credit: credits in crosspoint `j`'s pool (for the §7.4 invariant).
    pub fn credits(&self, j: usize) -> u32 {
        self.credits[j]
    }

    /// True under relative credit, where the §7.4 invariant holds.
    pub(crate) fn is_relative(&self) -> bool {
        self.kind == Kind::Credit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_credit_stops_at_zero_and_resumes_on_a_credit() {
        let mut p = Permission::new(&FlowControl::Credit(Strategy::Rr), 2, 2);
        p.consume(0, 0);
        p.consume(0, 0);
        assert!(!p.feasible(0) && p.feasible(1));
        assert!(p.apply(0, &Cell::Credit { output: 0 }).is_some());
        assert!(p.feasible(0));
        assert!(
            p.apply(
                0,
                &Cell::Grant {
                    output: 0,
                    go: true
                }
            )
            .is_none()
        );
    }

    #[test]
    fn grant_mt_slows_down_one_level_per_crossing_and_stops_at_the_top() {
        let fc = FlowControl::Grant {
            thresholds: vec![4, 8],
        };
        let mut p = Permission::new(&fc, 1, 16);
        assert!(p.feasible(0));
        p.consume(0, 0);
        assert!(!p.feasible(0));
        p.tick();
        assert!(p.feasible(0), "rate 1 refills each cycle");
        p.apply(
            0,
            &Cell::Grant {
                output: 0,
                go: false,
            },
        );
        p.consume(0, 0);
        p.tick();
        assert!(!p.feasible(0), "rate 1/2: every other cycle");
        p.tick();
        assert!(p.feasible(0));
        p.apply(
            0,
            &Cell::Grant {
                output: 0,
                go: false,
            },
        );
        p.tick();
        assert!(!p.feasible(0), "stopped above the last threshold");
        p.apply(
            0,
            &Cell::Grant {
                output: 0,
                go: true,
            },
        );
        p.tick();
        assert!(p.feasible(0));
    }

    #[test]
    fn absolute_credit_sets_the_counter_whatever_it_was() {
        let fc = FlowControl::Absolute { regular: 5 };
        let mut p = Permission::new(&fc, 1, 9);
        for _ in 0..5 {
            p.consume(0, 0);
        }
        assert!(!p.feasible(0));
        p.apply(0, &Cell::Absolute { output: 0, free: 3 });
        assert_eq!(p.credits(0), 3);
        assert_eq!(FlowControl::absolute_regular(127, 64), Some(64));
        assert_eq!(FlowControl::absolute_regular(64, 64), Some(1));
        assert_eq!(FlowControl::absolute_regular(13, 64), None);
        assert_eq!(FlowControl::grant_level(&[4, 8], 8), 2);
    }

    #[test]
    fn grant_ot_starts_stopped_and_follows_its_slots() {
        // Gramsamer §4.3.1: "at initialization feasibility information is absent".
        let mut p = Permission::new(&FlowControl::GrantOt { window: 7 }, 2, 8);
        assert!(!p.feasible(0) && !p.feasible(1));
        assert!(
            p.apply(
                3,
                &Cell::Grant {
                    output: 1,
                    go: true
                }
            )
            .is_some()
        );
        assert!(p.feasible(1) && !p.feasible(0));
        p.consume(3, 1);
        assert!(
            p.feasible(1),
            "an on slot a cycle: the level holds until a stop"
        );
        p.apply(
            4,
            &Cell::Grant {
                output: 1,
                go: false,
            },
        );
        assert!(!p.feasible(1));
        assert!(p.apply(5, &Cell::Absolute { output: 0, free: 1 }).is_none());
    }

    #[test]
    fn abs_i_starts_at_what_it_counts_and_is_set_by_each_value() {
        let fc = FlowControl::AbsoluteI {
            counted: 3,
            every: 2,
        };
        let mut p = Permission::new(&fc, 1, 10);
        for t in 0..3 {
            assert!(p.feasible(0));
            p.consume(t, 0);
        }
        assert!(!p.feasible(0), "B_r + B_n spent, no value yet");
        p.apply(9, &Cell::Absolute { output: 0, free: 2 });
        assert_eq!(p.credits(0), 2);
    }

    #[test]
    fn abs_b_stops_when_its_unseen_dispatches_reach_the_value() {
        // Gramsamer §4.3.2, Abs B: RTT = 4 (window 3), M = 6. Dispatches at 0, 1, 5, 6;
        // a value of 3 arriving at 8 was computed before the dispatches of cycles 5 to
        // 7 arrived, so T = 2 of them count against it: one more packet may go.
        let fc = FlowControl::AbsoluteB {
            counted: 6,
            every: 1,
            window: 3,
        };
        let mut p = Permission::new(&fc, 1, 6);
        for t in [0, 1, 5, 6] {
            p.consume(t, 0);
        }
        assert_eq!(p.credits(0), 2);
        p.apply(8, &Cell::Absolute { output: 0, free: 3 });
        assert_eq!(p.credits(0), 1, "T = 2 ≥ value − 1");
        p.consume(8, 0);
        assert!(!p.feasible(0), "T = 3 ≥ value 3: stop");
        // No value comes (the output is blocked): the stop holds however long, where a
        // window that kept sliding would forget the dispatches and overflow.
        assert!(!p.feasible(0));
        // A value that saw them all: T counts only what it could not see.
        p.apply(20, &Cell::Absolute { output: 0, free: 2 });
        assert_eq!(p.credits(0), 2);
        // A value of 1 arriving one cycle after a dispatch: T = 1 ≥ 1, stop.
        p.consume(20, 0);
        p.apply(21, &Cell::Absolute { output: 0, free: 1 });
        assert!(!p.feasible(0));
    }
}
