//! Routing on the indirect multistage networks of INMOS ch. 7 §7.2-7.3.3
//! (Figures 7.1-7.4).
//!
//! Shape. Every left-column switch has 16 terminal links (ports 0-15) and 16 links to
//! the right (ports 16-31): "There are 16 external links on each C104 in the left hand
//! column" (Figure 7.1). With B = N/16 left switches and B ≤ 32, there are B/2 right
//! switches and m = 32/B parallel links between each left and each right switch: the
//! 64-way network has "eight links for each one from left to right" and two right
//! switches, the 256-way one "has two" and eight, the 512-way one of Figure 7.1 one and
//! sixteen. "A 1024-way network can be constructed from 32-way routers by using a
//! 64-way network for each of the center stage switches" (Figure 7.4): 64 left
//! switches, each with one link to each of 16 centre networks, each centre network a
//! 64-way MIN whose four left switches take 16 outer left switches each.
//!
//! Deterministic routing: "routes an inbound packet at the left hand side via an
//! appropriate right hand side node to the destination terminal". The chapter's
//! figures, which would show the tables, are not in the text we have; the systematic
//! pattern (§7.6.3: adding a constant "chosen so that all traffic is routed through a
//! single mid-layer switch") rules out any choice that depends on the destination
//! alone, since a permutation reaches every destination. So a left switch splits the
//! labels of the other terminals evenly among its 16 right links, counting from its
//! own block: relative label r = (d − 16·L) mod N in [16, N) goes to right link
//! ⌊(r − 16)·16 / (N − 16)⌋. Adding 16 then sends every source through right link 0's
//! switch. A right switch sends d to d's left switch on parallel link ⌊p·m/16⌋, p = d's
//! port there. A centre network does the same one level down, on outer-switch numbers.
//!
//! Universal routing (INMOS ch. 7 §7.5): "sends a packet via a randomly chosen node on the
//! right hand side". The terminal links prepend a random label from [N, N + 16):
//! label N + j leaves on right link j (a random right switch and a random one of its
//! parallel links) and is deleted on arrival at the right stage. With 64-way centre
//! networks (N = 1024) the right-hand side is the centre networks' right switches, so
//! the random labels are [N, N + 256): label N + 16c + j goes to centre network c and
//! leaves its left switch on inner right link j; the inner right switch deletes it.
//! Every packet then crosses the full depth (5 switches), as a random intermediate
//! should, rather than turning back early inside a centre network.
//!
//! Adaptive routing (INMOS ch. 7 §7.5, last paragraph: "even better results can be obtained by
//! using grouped adaptive routing to make the selection of link to the right hand
//! switches"): a packet for another left switch may take any free right link
//! ([`RouteAction::Group`]).

use super::mode::RoutingMode;
use super::{IntervalTable, RouteAction, table};
use crate::model::PortId;

/// Terminal links per left switch (and right links per left switch).
pub(crate) const SIDE: u32 = 16;

/// The shape of an indirect multistage network with `terminals` terminals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Min {
    /// Terminals N.
    pub terminals: u32,
    /// Routing mode.
    pub routing: RoutingMode,
}

/// The sizes this construction supports.
pub(crate) const SIZES: [u32; 6] = [32, 64, 128, 256, 512, 1024];

impl Min {
    /// Left-column switches, N/16.
    pub fn left(&self) -> u32 {
        self.terminals / SIDE
    }

    /// True if the centre stages are 64-way networks (N = 1024).
    pub fn nested(&self) -> bool {
        self.left() > 32
    }

    /// Right-column switches (or centre networks if nested).
    pub fn right(&self) -> u32 {
        if self.nested() { 16 } else { self.left() / 2 }
    }

    /// Parallel links between a left switch and a right switch.
    pub fn parallel(&self) -> u32 {
        SIDE / self.right()
    }

    /// Labels the tables cover: terminals, plus the random labels if universal.
    pub fn labels(&self) -> u32 {
        if self.routing == RoutingMode::Universal {
            self.random_range().1
        } else {
            self.terminals
        }
    }

    /// The random labels the terminal links draw from (universal routing): one per
    /// right link, or per centre network and inner right link when nested.
    pub fn random_range(&self) -> (u32, u32) {
        let count = if self.nested() { SIDE * SIDE } else { SIDE };
        (self.terminals, self.terminals + count)
    }

    /// The right link (0..16) a switch of block `own` (out of `blocks` blocks of 16)
    /// takes for block-relative destination `d` (both counted in units in which the
    /// switch owns `[16·own, 16·own + 16)`), deterministic routing.
    fn spread(d: u32, own: u32, units: u32) -> u32 {
        let r = (d + units - SIDE * own) % units;
        (r - SIDE) * SIDE / (units - SIDE)
    }

    fn upward(&self, d: u32, own: u32, units: u32) -> RouteAction {
        match self.routing {
            RoutingMode::Adaptive => RouteAction::Group {
                first: SIDE as PortId,
                count: SIDE as PortId,
            },
            _ => RouteAction::Output((SIDE + Self::spread(d, own, units)) as PortId),
        }
    }

    /// The table of left switch `l` (ports 0-15 terminals, 16-31 right links).
    pub(crate) fn left_table(&self, l: u32) -> IntervalTable {
        let n = self.terminals;
        table::from_fn(self.labels(), |d| {
            if d >= n {
                let j = if self.nested() { (d - n) / SIDE } else { d - n };
                RouteAction::Output((SIDE + j) as PortId)
            } else if d / SIDE == l {
                RouteAction::Output((d % SIDE) as PortId)
            } else {
                self.upward(d, l, n)
            }
        })
    }

    /// The table of a right switch of a two-level network: port `l·m + q` is the q-th
    /// link to left switch l.
    pub(crate) fn right_table(&self) -> IntervalTable {
        let (n, m) = (self.terminals, self.parallel());
        table::from_fn(self.labels(), |d| {
            if d >= n {
                RouteAction::Delete
            } else {
                RouteAction::Output((d / SIDE * m + d % SIDE * m / SIDE) as PortId)
            }
        })
    }

    /// The table of left switch `i` (0..4) of a centre network (N = 1024): ports 0-15
    /// go to outer left switches 16·i..16·i + 16, ports 16-31 to the centre network's
    /// two right switches (port 16 + 8h + q is the q-th link to right switch h).
    pub(crate) fn centre_left_table(&self, i: u32) -> IntervalTable {
        let n = self.terminals;
        table::from_fn(self.labels(), |d| {
            if d >= n {
                return RouteAction::Output((SIDE + (d - n) % SIDE) as PortId);
            }
            let outer = d / SIDE;
            if outer / SIDE == i {
                RouteAction::Output((outer % SIDE) as PortId)
            } else {
                self.upward(outer, i, 4 * SIDE)
            }
        })
    }

    /// The table of a right switch of a centre network: port `8i + q` is the q-th link
    /// to the centre network's left switch i.
    pub(crate) fn centre_right_table(&self) -> IntervalTable {
        let n = self.terminals;
        table::from_fn(self.labels(), |d| {
            if d >= n {
                return RouteAction::Delete;
            }
            let outer = d / SIDE;
            RouteAction::Output((outer / SIDE * 8 + outer % SIDE * 8 / SIDE) as PortId)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn min(n: u32) -> Min {
        Min {
            terminals: n,
            routing: RoutingMode::Deterministic,
        }
    }

    #[test]
    fn the_chapter_7_shapes() {
        // (terminals, left, right, parallel links): Figures 7.1-7.4.
        for (n, l, r, m) in [
            (64, 4, 2, 8),
            (256, 16, 8, 2),
            (512, 32, 16, 1),
            (1024, 64, 16, 1),
        ] {
            let s = min(n);
            assert_eq!((s.left(), s.right(), s.parallel()), (l, r, m), "{n}");
        }
    }

    #[test]
    fn deterministic_spreading_is_even_and_adding_16_uses_one_right_switch() {
        for n in [64u32, 256] {
            let s = min(n);
            for l in 0..s.left() {
                let t = s.left_table(l);
                let mut per_link = vec![0; 16];
                let mut via = std::collections::BTreeSet::new();
                for d in 0..n {
                    match t.lookup(d) {
                        Some(RouteAction::Output(p)) if p >= 16 => per_link[p - 16] += 1,
                        Some(RouteAction::Output(p)) => assert_eq!(d, 16 * l + p as u32),
                        other => panic!("{other:?}"),
                    }
                }
                for src in 16 * l..16 * l + 16 {
                    let Some(RouteAction::Output(p)) = t.lookup((src + 16) % n) else {
                        panic!()
                    };
                    via.insert((p as u32 - 16) / s.parallel());
                }
                let (lo, hi) = (per_link.iter().min(), per_link.iter().max());
                assert!(hi.unwrap() - lo.unwrap() <= 1, "{n} {l}: {per_link:?}");
                assert_eq!(via.len(), 1, "systematic traffic uses one right switch");
            }
        }
    }
}
