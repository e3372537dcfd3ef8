//! Interval routing tables.

use crate::model::PortId;

/// What a switch does with a header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RouteAction {
    /// Send the packet out of this port.
    Output(PortId),
    /// Delete this header and route on the next one (INMOS ch. 7 §7.1: "At the randomly chosen
    /// intermediate node, this random header is deleted").
    Delete,
    /// Grouped adaptive routing: send the packet out of any free port of the `count`
    /// consecutive ports starting at `first` (INMOS ch. 7 §7.5: "grouped adaptive routing to
    /// make the selection of link to the right hand switches").
    Group {
        /// First port of the group.
        first: PortId,
        /// Ports in the group (≥ 1).
        count: PortId,
    },
}

/// Why a list of intervals is not a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IntervalError {
    /// Two intervals share labels: `[lo, hi)` and the next one, `[next_lo, next_hi)`.
    #[error("intervals [{lo}, {hi}) and [{next_lo}, {next_hi}) overlap")]
    Overlap {
        /// Start of the first interval.
        lo: u32,
        /// End (exclusive) of the first interval.
        hi: u32,
        /// Start of the interval it overlaps.
        next_lo: u32,
        /// End (exclusive) of the interval it overlaps.
        next_hi: u32,
    },
    /// An interval `[lo, hi)` with `lo >= hi` holds no label.
    #[error("interval [{lo}, {hi}) is empty")]
    Empty {
        /// Start.
        lo: u32,
        /// End (exclusive).
        hi: u32,
    },
}

/// A sorted set of disjoint label intervals `[lo, hi)`, each with an action.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntervalTable {
    intervals: Vec<(u32, u32, RouteAction)>,
}

impl IntervalTable {
    /// Builds a table from intervals in any order. Errors if two overlap or one is empty.
    pub fn new(
        mut intervals: Vec<(u32, u32, RouteAction)>,
    ) -> Result<IntervalTable, IntervalError> {
        intervals.sort_by_key(|&(lo, _, _)| lo);
        for w in intervals.windows(2) {
            if w[0].1 > w[1].0 {
                return Err(IntervalError::Overlap {
                    lo: w[0].0,
                    hi: w[0].1,
                    next_lo: w[1].0,
                    next_hi: w[1].1,
                });
            }
        }
        if let Some(&(lo, hi, _)) = intervals.iter().find(|(lo, hi, _)| lo >= hi) {
            return Err(IntervalError::Empty { lo, hi });
        }
        Ok(IntervalTable { intervals })
    }

    /// The action for `label`, if some interval contains it.
    pub fn lookup(&self, label: u32) -> Option<RouteAction> {
        let i = self.intervals.partition_point(|&(lo, _, _)| lo <= label);
        let &(lo, hi, action) = self.intervals.get(i.checked_sub(1)?)?;
        (lo <= label && label < hi).then_some(action)
    }

    /// Bytes the table's intervals take on the heap (at least: their count, not the
    /// vector's spare capacity).
    pub(crate) fn heap_bytes(&self) -> u64 {
        (self.intervals.len() * std::mem::size_of::<(u32, u32, RouteAction)>()) as u64
    }

    /// True if every label in `[0, n)` has an action.
    pub fn covers(&self, n: u32) -> bool {
        let mut next = 0u32;
        for &(lo, hi, _) in &self.intervals {
            if lo > next {
                return false;
            }
            next = next.max(hi);
        }
        next >= n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_finds_the_containing_interval() {
        let t = IntervalTable::new(vec![
            (4, 8, RouteAction::Output(2)),
            (0, 4, RouteAction::Output(1)),
            (8, 9, RouteAction::Delete),
        ])
        .unwrap();
        assert_eq!(t.lookup(0), Some(RouteAction::Output(1)));
        assert_eq!(t.lookup(3), Some(RouteAction::Output(1)));
        assert_eq!(t.lookup(4), Some(RouteAction::Output(2)));
        assert_eq!(t.lookup(8), Some(RouteAction::Delete));
        assert_eq!(t.lookup(9), None);
        assert!(t.covers(9));
        assert!(!t.covers(10));
    }

    #[test]
    fn overlaps_are_rejected() {
        let e = IntervalTable::new(vec![
            (4, 6, RouteAction::Delete),
            (0, 5, RouteAction::Delete),
        ])
        .unwrap_err();
        assert_eq!(e.to_string(), "intervals [0, 5) and [4, 6) overlap");
        let e = IntervalTable::new(vec![(3, 3, RouteAction::Delete)]).unwrap_err();
        assert_eq!(e.to_string(), "interval [3, 3) is empty");
    }
}
