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
//! The order of events in a cycle (see [`super`]) puts a stop signal on the control path
//! in the cycle the threshold is crossed, so the packets that can still arrive after it
//! are those dispatched in the RTT − 1 cycles before it takes effect: a grant threshold
//! may be at most M − RTT + 1 (one location fewer of slack than §4.3.1's B_e = RTT,
//! which counts the signal from the next cycle), and absolute credit needs
//! B_e = RTT − 1.

use super::bitset::Bitset;
use super::protocol::Cell;
pub use super::rxs::Strategy;

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
}

impl FlowControl {
    /// The name used in files and reports: "credit", "grant", "absolute".
    pub fn name(&self) -> &'static str {
        match self {
            FlowControl::Credit(_) => "credit",
            FlowControl::Grant { .. } => "grant",
            FlowControl::Absolute { .. } => "absolute",
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

    /// The grant level (thresholds at or below `occupancy`) of a crosspoint.
    pub(crate) fn grant_level(thresholds: &[u32], occupancy: u32) -> u8 {
        thresholds.iter().filter(|&&t| occupancy >= t).count() as u8
    }
}

/// The adapter's view of its crosspoints' permission, one entry per VOQ.
#[derive(Clone, Debug)]
pub struct Permission {
    kind: Kind,
    /// Relative: credits in the pool; absolute: the counter.
    credits: Vec<u32>,
    /// Grant: the level each crosspoint last signalled.
    level: Vec<u8>,
    /// Grant MT: sending allowance in k-ths of a packet.
    allowance: Vec<u32>,
    /// Grant: number of thresholds k.
    k: u32,
    /// The crosspoints a packet may be sent to now, kept for every kind but Grant MT
    /// (whose allowance changes every cycle).
    feasible: Bitset,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    None,
    Credit,
    Grant,
    Absolute,
}

impl Permission {
    /// The reset state for `n` crosspoints of memory `m` under `fc`: a full credit pool
    /// (relative: "the number of available packet locations at the reception side is
    /// initially given as credits", §5.6.2), go, or a counter of B_r.
    pub fn new(fc: &FlowControl, n: usize, m: u32) -> Permission {
        let (kind, credits, k) = match fc {
            FlowControl::Credit(_) => (Kind::Credit, m, 0),
            FlowControl::Grant { thresholds } => (Kind::Grant, 0, thresholds.len() as u32),
            FlowControl::Absolute { regular } => (Kind::Absolute, *regular, 0),
            FlowControl::None => (Kind::None, 0, 0),
        };
        let mut feasible = Bitset::new(n);
        let open = match kind {
            Kind::None | Kind::Grant => true,
            Kind::Credit | Kind::Absolute => credits > 0,
        };
        for j in 0..n {
            feasible.put(j, open);
        }
        Permission {
            kind,
            credits: vec![credits; n],
            level: vec![0; n],
            allowance: vec![k; n],
            k,
            feasible,
        }
    }

    /// The crosspoints a packet may be sent to now, unless that changes every cycle
    /// (Grant MT): then `None`, and [`Permission::feasible`] must be asked per VOQ.
    pub(crate) fn feasible_set(&self) -> Option<&Bitset> {
        (self.kind != Kind::Grant || self.k == 1).then_some(&self.feasible)
    }

    fn refresh(&mut self, j: usize) {
        let f = self.feasible(j);
        self.feasible.put(j, f);
    }

    /// True if a packet may be dispatched to crosspoint `j` now.
    pub fn feasible(&self, j: usize) -> bool {
        match self.kind {
            Kind::None => true,
            Kind::Credit | Kind::Absolute => self.credits[j] > 0,
            Kind::Grant => {
                u32::from(self.level[j]) < self.k && (self.k == 1 || self.allowance[j] >= self.k)
            }
        }
    }

    /// A packet was dispatched to crosspoint `j` (it was feasible).
    pub fn consume(&mut self, j: usize) {
        match self.kind {
            Kind::None => {}
            Kind::Credit | Kind::Absolute => self.credits[j] -= 1,
            Kind::Grant if self.k > 1 => self.allowance[j] -= self.k,
            Kind::Grant => {}
        }
        self.refresh(j);
    }

    /// Grant MT: a cycle passed; each VOQ's allowance grows by its rate.
    pub fn tick(&mut self) {
        if self.kind == Kind::Grant && self.k > 1 {
            for (a, &l) in self.allowance.iter_mut().zip(&self.level) {
                *a = (*a + self.k - u32::from(l).min(self.k)).min(self.k);
            }
        }
    }

    /// Applies flow-control information from the switch. Returns false if the cell is
    /// not flow-control information of this kind (a protocol error for the caller).
    pub fn apply(&mut self, cell: &Cell) -> bool {
        let known = self.apply_inner(cell);
        if let Cell::Credit { output } | Cell::Grant { output, .. } | Cell::Absolute { output, .. } =
            *cell
            && known
        {
            self.refresh(usize::from(output));
        }
        known
    }

    fn apply_inner(&mut self, cell: &Cell) -> bool {
        match (*cell, self.kind) {
            (Cell::Credit { output }, Kind::Credit) => {
                let c = &mut self.credits[usize::from(output)];
                *c += 1;
                true
            }
            (Cell::Grant { output, go }, Kind::Grant) => {
                let l = &mut self.level[usize::from(output)];
                // The message says the direction of the crossing (Gramsamer §4.3.1,
                // "Grant MT": '11' overstep, '10' understep).
                if go {
                    *l = l.saturating_sub(1);
                } else {
                    *l = (*l + 1).min(self.k as u8);
                }
                true
            }
            (Cell::Absolute { output, free }, Kind::Absolute) => {
                self.credits[usize::from(output)] = free;
                true
            }
            _ => false,
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
        p.consume(0);
        p.consume(0);
        assert!(!p.feasible(0) && p.feasible(1));
        assert!(p.apply(&Cell::Credit { output: 0 }));
        assert!(p.feasible(0));
        assert!(!p.apply(&Cell::Grant {
            output: 0,
            go: true
        }));
    }

    #[test]
    fn grant_mt_slows_down_one_level_per_crossing_and_stops_at_the_top() {
        let fc = FlowControl::Grant {
            thresholds: vec![4, 8],
        };
        let mut p = Permission::new(&fc, 1, 16);
        assert!(p.feasible(0));
        p.consume(0);
        assert!(!p.feasible(0));
        p.tick();
        assert!(p.feasible(0), "rate 1 refills each cycle");
        p.apply(&Cell::Grant {
            output: 0,
            go: false,
        });
        p.consume(0);
        p.tick();
        assert!(!p.feasible(0), "rate 1/2: every other cycle");
        p.tick();
        assert!(p.feasible(0));
        p.apply(&Cell::Grant {
            output: 0,
            go: false,
        });
        p.tick();
        assert!(!p.feasible(0), "stopped above the last threshold");
        p.apply(&Cell::Grant {
            output: 0,
            go: true,
        });
        p.tick();
        assert!(p.feasible(0));
    }

    #[test]
    fn absolute_credit_sets_the_counter_whatever_it_was() {
        let fc = FlowControl::Absolute { regular: 5 };
        let mut p = Permission::new(&fc, 1, 9);
        for _ in 0..5 {
            p.consume(0);
        }
        assert!(!p.feasible(0));
        p.apply(&Cell::Absolute { output: 0, free: 3 });
        assert_eq!(p.credits(0), 3);
        assert_eq!(FlowControl::absolute_regular(127, 64), Some(64));
        assert_eq!(FlowControl::absolute_regular(64, 64), Some(1));
        assert_eq!(FlowControl::absolute_regular(13, 64), None);
        assert_eq!(FlowControl::grant_level(&[4, 8], 8), 2);
    }
}
