//! A ring of C104s with one T9000 per switch, every packet routed clockwise. Port 0 is
//! the terminal link, port 1 goes to the next switch, port 2 comes from the previous
//! one. The k ring links form a cycle of channel dependencies, so wormhole routing can
//! deadlock (INMOS ch. 7 §7.3.2: wrap-around links must be doubled).

use super::build::Parts;
use crate::routing::{IntervalTable, RouteAction};

/// Adds the switches, processors and links of a `k`-switch ring; returns `k`.
pub(super) fn build(parts: &mut Parts, k: u32) -> usize {
    for i in 0..k {
        parts.switch(format!("c104[{i}]"), 3, || table(i, k));
    }
    for i in 0..k {
        let p = parts.processor(i);
        parts.link(i as usize, 0, p, 0);
    }
    for i in 0..k {
        parts.link(i as usize, 1, ((i + 1) % k) as usize, 2);
    }
    k as usize
}

/// The table of switch `i` of `k`: its own label to the terminal, every other
/// clockwise.
fn table(i: u32, k: u32) -> IntervalTable {
    let mut iv = vec![(i, i + 1, RouteAction::Output(0))];
    if i > 0 {
        iv.push((0, i, RouteAction::Output(1)));
    }
    if i + 1 < k {
        iv.push((i + 1, k, RouteAction::Output(1)));
    }
    // Disjoint by construction.
    IntervalTable::new(iv).expect("ring intervals are disjoint")
}
