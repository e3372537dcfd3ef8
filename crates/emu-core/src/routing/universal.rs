//! Universal routing on a binary n-cube (INMOS ch. 7 §7.5): "a packet is
//! sent to a random intermediate node in the network, then it continues to its
//! destination ... The links are partitioned into two parallel networks, one of which
//! carries the traffic on its journey to the random intermediate node, and the other
//! carries the traffic from the random intermediate node to the required destination."
//!
//! Labels `[0, N)` are terminals; label `N + i` names intermediate switch i. The
//! terminal link of every switch prepends a random label from `[N, 2N)` (INMOS ch. 7 §7.1:
//! "Any of the links on the C104 can be set to create a random header"); switch i
//! deletes label `N + i` ("At the randomly chosen intermediate node, this random header
//! is deleted"). Both journeys are e-cube, highest dimension first, so each network is
//! deadlock-free and a packet only ever moves from the first to the second.
//!
//! Ports: `k` is the first network's dimension-k link, `n + k` the second's, `2n` the
//! terminal. [`table_on`] with one link set routes both journeys on ports `0..n`
//! (terminal `n`): the two e-cube journeys then depend on each other's links in a
//! cycle, which `emu check` finds.

use super::{IntervalTable, RouteAction, table};
use crate::model::PortId;

/// The random labels the terminal link of every switch of an `n`-cube draws from.
pub fn random_range(n: u32) -> (u32, u32) {
    (1 << n, 2 << n)
}

/// The terminal port of a switch of a universally routed `n`-cube.
pub fn terminal_port(n: u32) -> PortId {
    2 * n as PortId
}

/// The interval table of switch `s` of a universally routed `n`-cube.
pub fn table(n: u32, s: u32) -> IntervalTable {
    table_on(n, s, 2)
}

/// The interval table of switch `s` of a universally routed `n`-cube whose journeys
/// use `sets` link sets: 2 (the second journey on ports `n + k`, terminal `2n`) or 1
/// (both on ports `k`, terminal `n`).
pub fn table_on(n: u32, s: u32, sets: u32) -> IntervalTable {
    let size = 1u32 << n;
    let second = if sets == 1 { 0 } else { n };
    let terminal = (second + n) as PortId;
    // Each half is e-cube: per dimension k one interval of 2^k labels, and s itself.
    let mut pieces = Vec::with_capacity(2 * n as usize + 2);
    for (offset, own, dim_port) in [
        (0, RouteAction::Output(terminal), second),
        (size, RouteAction::Delete, 0),
    ] {
        pieces.push((offset + s, offset + s + 1, own));
        for k in 0..n {
            let base = ((s >> (k + 1)) << (k + 1)) | ((!s >> k & 1) << k);
            let port = RouteAction::Output((dim_port + k) as PortId);
            pieces.push((offset + base, offset + base + (1 << k), port));
        }
    }
    pieces.sort_by_key(|&(lo, _, _)| lo);
    table::from_pieces(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::ecube::next_dimension;

    #[test]
    fn tables_from_pieces_are_the_label_by_label_tables() {
        for n in 1..=6 {
            let size = 1u32 << n;
            for sets in [1, 2] {
                let second = if sets == 1 { 0 } else { n };
                for s in 0..size {
                    let by_label = table::from_fn(2 * size, |label| {
                        let (i, first) = if label >= size {
                            (label - size, true)
                        } else {
                            (label, false)
                        };
                        match (next_dimension(s, i), first) {
                            (None, true) => RouteAction::Delete,
                            (None, false) => RouteAction::Output((second + n) as PortId),
                            (Some(k), true) => RouteAction::Output(k as PortId),
                            (Some(k), false) => RouteAction::Output((second + k) as PortId),
                        }
                    });
                    assert_eq!(table_on(n, s, sets), by_label, "n {n} sets {sets} s {s}");
                }
            }
        }
    }

    #[test]
    fn one_link_set_puts_both_journeys_on_the_same_ports() {
        let n = 3;
        for s in 0..8 {
            let t = table_on(n, s, 1);
            assert!(t.covers(16));
            assert_eq!(t.lookup(8 + s), Some(RouteAction::Delete));
            assert_eq!(t.lookup(s), Some(RouteAction::Output(3)));
            for d in (0..8u32).filter(|&d| d != s) {
                let k = (31 - (s ^ d).leading_zeros()) as PortId;
                assert_eq!(t.lookup(d), Some(RouteAction::Output(k)));
                assert_eq!(t.lookup(8 + d), Some(RouteAction::Output(k)));
            }
        }
    }

    #[test]
    fn random_labels_use_the_first_network_and_are_deleted_at_their_switch() {
        let n = 4;
        for s in 0..16 {
            let t = table(n, s);
            assert!(t.covers(32));
            assert_eq!(t.lookup(16 + s), Some(RouteAction::Delete));
            assert_eq!(t.lookup(s), Some(RouteAction::Output(8)));
            for d in 0..16u32 {
                if d != s {
                    let k = 31 - (s ^ d).leading_zeros();
                    assert_eq!(t.lookup(d), Some(RouteAction::Output((n + k) as usize)));
                    assert_eq!(t.lookup(16 + d), Some(RouteAction::Output(k as usize)));
                }
            }
        }
    }
}
