//! The reception scheduler as it was before the hot paths were rewritten.

use super::bitset::Bitset;
use crate::parts::fabric::rxs::Strategy;
use std::collections::VecDeque;

/// The reception scheduler of one domain (one switch input).
#[derive(Clone, Debug)]
pub(crate) struct Rxs {
    strategy: Strategy,
    /// The last crosspoint whose credit was returned.
    pointer: usize,
    /// FIFO strategy: the outputs of freed credits in return order.
    fifo: VecDeque<u16>,
}

/// What the scheduler may look at when it picks: per crosspoint of its domain, whether
/// its absorption pool holds credits, packets stored, and the CLIQ bit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct View<'a> {
    /// The crosspoints whose absorption pool holds credits.
    pub candidates: &'a Bitset,
    /// Packets stored in each crosspoint (its occupancy counter).
    pub occupancy: &'a [u32],
    /// The CLIQ vector: the VOQ feeding each crosspoint is non-empty.
    pub cliq: &'a [bool],
}

impl Rxs {
    /// A scheduler for a domain of `n` crosspoints; the pointer starts so that
    /// crosspoint 0 is looked at first.
    pub fn new(strategy: Strategy, n: usize) -> Rxs {
        Rxs {
            strategy,
            pointer: n.saturating_sub(1),
            fifo: VecDeque::new(),
        }
    }

    /// Records that packets of the crosspoints `outputs` departed this cycle, already
    /// in the (random) order the FIFO writes them. Only the FIFO strategy keeps them.
    pub fn departed(&mut self, outputs: &[u16]) {
        if self.strategy == Strategy::Fifo {
            self.fifo.extend(outputs.iter().copied());
        }
    }

    /// The crosspoint whose credit to return this cycle, if any pool holds one. The
    /// caller takes the credit from that pool.
    pub fn pick(&mut self, v: View<'_>) -> Option<usize> {
        let occ = |j: usize| -(i64::from(v.occupancy[j]));
        let winner = match self.strategy {
            Strategy::Reference => None,
            Strategy::Fifo => self.fifo.pop_front().map(usize::from),
            Strategy::Rr => v.candidates.next_from(self.pointer + 1),
            Strategy::Hof => self.best(v.candidates, |_| true, |j| -occ(j)),
            Strategy::Lof => self.best(v.candidates, |_| true, occ),
            Strategy::LofCliq => self
                .best(v.candidates, |j| v.cliq[j], occ)
                .or_else(|| self.best(v.candidates, |_| true, occ)),
        }?;
        self.pointer = winner;
        Some(winner)
    }

    /// Among the `candidates` that `admit` admits, the first in round-robin order after
    /// the pointer with the largest `key`.
    fn best(
        &self,
        candidates: &Bitset,
        admit: impl Fn(usize) -> bool,
        key: impl Fn(usize) -> i64,
    ) -> Option<usize> {
        let mut best: Option<(i64, usize)> = None;
        for j in candidates.cyclic_from(self.pointer + 1) {
            if !admit(j) {
                continue;
            }
            let k = key(j);
            if best.is_none_or(|(bk, _)| k > bk) {
                best = Some((k, j));
            }
        }
        best.map(|(_, j)| j)
    }
}
