//! The adapter's permission state as it was before the hot paths were rewritten.

use super::bitset::Bitset;
use crate::parts::fabric::flow::FlowControl;
use crate::parts::fabric::protocol::Cell;
use crate::parts::fabric::recent::Recent;
use crate::time::Tick;

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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    None,
    Credit,
    Grant,
    Absolute,
    AbsoluteB,
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
        };
        for j in 0..n {
            p.refresh(j);
        }
        p
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
            Kind::Credit | Kind::Absolute | Kind::AbsoluteB => self.credits[j] > 0,
            Kind::Grant => {
                u32::from(self.level[j]) < self.k && (self.k == 1 || self.allowance[j] >= self.k)
            }
        }
    }

    /// A packet was dispatched to crosspoint `j` in cycle `now` (it was feasible).
    pub fn consume(&mut self, now: Tick, j: usize) {
        match self.kind {
            Kind::None => {}
            Kind::Credit | Kind::Absolute => self.credits[j] -= 1,
            Kind::AbsoluteB => {
                self.credits[j] -= 1;
                self.dispatched[j].push(now);
            }
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

    /// Applies flow-control information from the switch that arrived in cycle `now`.
    /// Returns false if the cell is not flow-control information of this kind (a
    /// protocol error for the caller).
    pub fn apply(&mut self, now: Tick, cell: &Cell) -> bool {
        let known = self.apply_inner(now, cell);
        if let Cell::Credit { output } | Cell::Grant { output, .. } | Cell::Absolute { output, .. } =
            *cell
            && known
        {
            self.refresh(usize::from(output));
        }
        known
    }

    fn apply_inner(&mut self, now: Tick, cell: &Cell) -> bool {
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
            (Cell::Absolute { output, free }, Kind::AbsoluteB) => {
                // Stop if T ≥ value: T, the dispatches the value cannot have seen, are
                // those from RTT − 1 cycles before its arrival on.
                let j = usize::from(output);
                let from = now.saturating_sub(Tick::from(self.window));
                let t = self.dispatched[j].count_from(from);
                self.credits[j] = free.saturating_sub(t);
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
