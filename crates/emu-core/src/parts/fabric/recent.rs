//! Events counted over the last cycles: the "additional logic block" C_L that two
//! flow-control schemes add to count a kind of event over a round-trip window
//! (Gramsamer §4.3.1 "Grant OT": the on slots a crosspoint granted, T = Σ Q_n;
//! §4.3.2 "Credit Abs B": the packets an adapter dispatched to one crosspoint).
//!
//! At most one event per cycle is recorded, and the window asked about never moves
//! back, so the events older than the last window asked about are forgotten: the store
//! holds at most one entry per cycle of the window.

use crate::time::Tick;
use std::collections::VecDeque;

/// The cycles at which an event happened, the older ones forgotten as windows move on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recent {
    at: VecDeque<Tick>,
}

impl Recent {
    /// Records an event in cycle `t` (at most one per cycle, cycles non-decreasing).
    pub fn push(&mut self, t: Tick) {
        self.at.push_back(t);
    }

    /// The events in cycles `from` and later; the earlier ones are forgotten, so `from`
    /// must not decrease from one call to the next.
    pub fn count_from(&mut self, from: Tick) -> u32 {
        while self.at.front().is_some_and(|&t| t < from) {
            self.at.pop_front();
        }
        u32::try_from(self.at.len()).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_events_of_the_window_and_forgets_the_older_ones() {
        let mut r = Recent::default();
        for t in [3, 4, 7, 9] {
            r.push(t);
        }
        assert_eq!(r.count_from(0), 4);
        assert_eq!(r.count_from(4), 3);
        assert_eq!(r.count_from(8), 1);
        assert_eq!(r.count_from(10), 0);
        r.push(12);
        assert_eq!(r.count_from(10), 1);
    }
}
