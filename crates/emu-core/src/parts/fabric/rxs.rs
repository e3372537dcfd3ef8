//! The reception scheduler (RXS) of one flow-control domain (Gramsamer §7.4-7.5): each
//! packet cycle it returns at most one credit of the input's crosspoints, chosen by a
//! strategy among the absorption pools that hold credits ("The RXS takes only those
//! absorption pools into account that have credits available").
//!
//! Strategies (Gramsamer §7.5):
//! - **RR** (random class): round robin over the pools with credits;
//! - **FIFO** (temporal): credits leave in the order their packets departed; departures
//!   of one cycle are written in random order ("the writing of the credits to the FIFO
//!   in the case of parallel departures is random");
//! - **HOF**: the crosspoint with the highest occupancy (packets stored) first;
//! - **LOF**: the crosspoint with the most vacancies (M − occupancy) first;
//! - **LOF-CLIQ**: LOF among the crosspoints whose VOQ the switch believes non-empty
//!   (CLIQ bit set); if none has credits, LOF among the others.
//!
//! Ties are broken by one round-robin pointer per domain, which starts after the last
//! crosspoint whose credit was returned and moves to the winner (Gramsamer §7.5: "For
//! the case of multiple winners, a RR pointer is in place to make a selection"; where the
//! pointer moves is not said, so it moves as the RR strategy's does).

use super::bitset::Bitset;
use std::collections::VecDeque;

/// Which credit a reception scheduler returns first (Gramsamer §7.5), or the
/// unconstrained Reference that returns every credit in the cycle it is freed (§7.4:
/// "unconstrained FC channel, I = N").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Strategy {
    /// Up to N credits per cycle, no scheduling: the document's Reference.
    Reference,
    /// Round robin over the pools with credits.
    Rr,
    /// First freed, first returned; one cycle's departures in random order.
    Fifo,
    /// Highest occupancy first.
    Hof,
    /// Lowest occupancy (most vacancies) first.
    Lof,
    /// Lowest occupancy first among the crosspoints of non-empty VOQs.
    LofCliq,
}

impl Strategy {
    /// The strategy's name as in the document's tables ("RR", "LOF-CLIQ").
    pub fn label(self) -> &'static str {
        match self {
            Strategy::Reference => "Reference",
            Strategy::Rr => "RR",
            Strategy::Fifo => "FIFO",
            Strategy::Hof => "HOF",
            Strategy::Lof => "LOF",
            Strategy::LofCliq => "LOF-CLIQ",
        }
    }

    /// Every strategy, in the order of the document's tables (Reference first).
    pub const ALL: [Strategy; 6] = [
        Strategy::Reference,
        Strategy::Hof,
        Strategy::Lof,
        Strategy::LofCliq,
        Strategy::Fifo,
        Strategy::Rr,
    ];

    /// The name used in files and tables: "reference", "rr", "fifo", "hof", "lof",
    /// "lof-cliq".
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Reference => "reference",
            Strategy::Rr => "rr",
            Strategy::Fifo => "fifo",
            Strategy::Hof => "hof",
            Strategy::Lof => "lof",
            Strategy::LofCliq => "lof-cliq",
        }
    }

    /// The strategy called `name` (as [`Strategy::name`] gives it).
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }
}

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

    /// Credits queued in the FIFO (the FIFO strategy's population, Gramsamer §7.3.1).
    #[cfg(test)]
    pub fn fifo_len(&self) -> usize {
        self.fifo.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Six crosspoints of M = 16, all with credits to return, occupancies as in the
    /// spirit of Gramsamer Figs. 7.26-7.28 (the figures' own numbers are not in the
    /// text; the rules are).
    const OCC: [u32; 6] = [14, 3, 2, 14, 9, 2];
    const CREDITS: [u32; 6] = [1, 1, 1, 1, 1, 1];

    fn set(absorb: &[u32]) -> Bitset {
        let mut b = Bitset::new(absorb.len());
        for (j, &a) in absorb.iter().enumerate() {
            b.put(j, a > 0);
        }
        b
    }

    fn view<'a>(candidates: &'a Bitset, occ: &'a [u32], cliq: &'a [bool]) -> View<'a> {
        View {
            candidates,
            occupancy: occ,
            cliq,
        }
    }

    #[test]
    fn hof_picks_the_fullest_and_breaks_ties_round_robin() {
        let cliq = [false; 6];
        let mut r = Rxs::new(Strategy::Hof, 6);
        assert_eq!(r.pick(view(&set(&CREDITS), &OCC, &cliq)), Some(0));
        // The pointer moved to 0: the tie between 0 and 3 now goes to 3.
        assert_eq!(r.pick(view(&set(&CREDITS), &OCC, &cliq)), Some(3));
        assert_eq!(r.pick(view(&set(&CREDITS), &OCC, &cliq)), Some(0));
    }

    #[test]
    fn lof_picks_the_emptiest_among_pools_with_credits() {
        let cliq = [false; 6];
        let mut r = Rxs::new(Strategy::Lof, 6);
        assert_eq!(r.pick(view(&set(&CREDITS), &OCC, &cliq)), Some(2));
        assert_eq!(r.pick(view(&set(&CREDITS), &OCC, &cliq)), Some(5));
        // Without credits in 2 and 5, the next emptiest (1) wins.
        let absorb = [1, 1, 0, 1, 1, 0];
        assert_eq!(r.pick(view(&set(&absorb), &OCC, &cliq)), Some(1));
    }

    #[test]
    fn lof_cliq_prefers_non_empty_voqs_then_falls_back_to_lof() {
        let cliq = [false, false, false, true, true, false];
        let mut r = Rxs::new(Strategy::LofCliq, 6);
        // Among CLIQ positions 3 (14 stored) and 4 (9 stored), 4 has more vacancies.
        assert_eq!(r.pick(view(&set(&CREDITS), &OCC, &cliq)), Some(4));
        // No CLIQ position holds a credit: plain LOF over the rest.
        let absorb = [1, 1, 1, 0, 0, 1];
        assert_eq!(r.pick(view(&set(&absorb), &OCC, &cliq)), Some(5));
    }

    #[test]
    fn rr_visits_every_pool_with_credits_in_turn_and_skips_empty_ones() {
        let cliq = [false; 6];
        let absorb = [1, 0, 1, 0, 0, 1];
        let mut r = Rxs::new(Strategy::Rr, 6);
        let picks: Vec<_> = (0..4)
            .map(|_| r.pick(view(&set(&absorb), &OCC, &cliq)))
            .collect();
        assert_eq!(picks, [Some(0), Some(2), Some(5), Some(0)]);
        assert_eq!(r.pick(view(&set(&[0; 6]), &OCC, &cliq)), None);
    }

    #[test]
    fn fifo_returns_in_departure_order() {
        let cliq = [false; 6];
        let mut r = Rxs::new(Strategy::Fifo, 6);
        r.departed(&[4, 1]);
        r.departed(&[2]);
        assert_eq!(r.fifo_len(), 3);
        let all = set(&CREDITS);
        let v = view(&all, &OCC, &cliq);
        assert_eq!(
            (r.pick(v), r.pick(v), r.pick(v), r.pick(v)),
            (Some(4), Some(1), Some(2), None)
        );
    }

    #[test]
    fn names_round_trip() {
        for s in Strategy::ALL {
            assert_eq!(Strategy::from_name(s.name()), Some(s));
        }
        assert_eq!(Strategy::from_name("lifo"), None);
    }
}
