//! Interval routing tables.

use crate::model::PortId;

/// What a switch does with a header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouteAction {
    /// Send the packet out of this port.
    Output(PortId),
    /// Delete this header and route on the next one (002 §7.1: "At the randomly chosen
    /// intermediate node, this random header is deleted").
    Delete,
    /// Grouped adaptive routing: send the packet out of any free port of the `count`
    /// consecutive ports starting at `first` (002 §7.5: "grouped adaptive routing to
    /// make the selection of link to the right hand switches").
    Group {
        /// First port of the group.
        first: PortId,
        /// Ports in the group (≥ 1).
        count: PortId,
    },
}

/// A sorted set of disjoint label intervals `[lo, hi)`, each with an action.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntervalTable {
    intervals: Vec<(u32, u32, RouteAction)>,
}

impl IntervalTable {
    /// Builds a table from intervals in any order. Errors if two overlap or one is empty.
    pub fn new(mut intervals: Vec<(u32, u32, RouteAction)>) -> Result<IntervalTable, String> {
        intervals.sort_by_key(|&(lo, _, _)| lo);
        for w in intervals.windows(2) {
            if w[0].1 > w[1].0 {
                return Err(format!(
                    "intervals [{}, {}) and [{}, {}) overlap",
                    w[0].0, w[0].1, w[1].0, w[1].1
                ));
            }
        }
        if let Some(&(lo, hi, _)) = intervals.iter().find(|(lo, hi, _)| lo >= hi) {
            return Err(format!("interval [{lo}, {hi}) is empty"));
        }
        Ok(IntervalTable { intervals })
    }

    /// The action for `label`, if some interval contains it.
    pub fn lookup(&self, label: u32) -> Option<RouteAction> {
        let i = self.intervals.partition_point(|&(lo, _, _)| lo <= label);
        let &(lo, hi, action) = self.intervals.get(i.checked_sub(1)?)?;
        (lo <= label && label < hi).then_some(action)
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
        assert!(
            IntervalTable::new(vec![
                (0, 5, RouteAction::Delete),
                (4, 6, RouteAction::Delete)
            ])
            .is_err()
        );
    }
}
