//! E-cube routing on a binary n-cube, highest dimension first
//! (INMOS ch. 7 §7.3.1: "Deterministic routing on the hypercube is done
//! from the highest dimension downwards, providing the deadlock free routing").
//!
//! At switch s, the labels whose highest bit differing from s is bit k form one
//! interval of 2^k labels, so e-cube is exactly an interval labelling: n intervals for
//! the n dimension links plus one for the switch's own terminal.

use super::{IntervalTable, RouteAction};
use crate::model::PortId;

/// The interval table of switch `s` in an `n`-cube whose dimension-k link is on port
/// `k` and whose terminal link is on port `terminal_port`.
pub fn table(n: u32, s: u32, terminal_port: PortId) -> IntervalTable {
    let mut iv = vec![(s, s + 1, RouteAction::Output(terminal_port))];
    for k in 0..n {
        let base = ((s >> (k + 1)) << (k + 1)) | ((!s >> k & 1) << k);
        iv.push((base, base + (1 << k), RouteAction::Output(k as PortId)));
    }
    // The intervals are disjoint by construction (each label has one highest differing bit).
    IntervalTable::new(iv).expect("e-cube intervals are disjoint")
}

/// The output port e-cube takes at switch `s` for destination `d` (`None` = terminal).
pub fn next_dimension(s: u32, d: u32) -> Option<u32> {
    let x = s ^ d;
    (x != 0).then(|| 31 - x.leading_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_agrees_with_highest_differing_bit() {
        let n = 6;
        for s in 0..(1u32 << n) {
            let t = table(n, s, n as PortId);
            assert!(t.covers(1 << n));
            for d in 0..(1u32 << n) {
                let expect = match next_dimension(s, d) {
                    None => RouteAction::Output(n as PortId),
                    Some(k) => RouteAction::Output(k as PortId),
                };
                assert_eq!(t.lookup(d), Some(expect), "s={s} d={d}");
            }
        }
    }
}
