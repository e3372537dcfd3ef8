//! Dimension-order routing on k-ary n-cubes and n-dimensional meshes: the 2-D grid of
//! INMOS ch. 7 §7.3.2 ("Deterministic routing on the grid is first in
//! the y direction, then in the x direction"), the torus and the general k-ary n-cube.
//!
//! A terminal's label is its switch's coordinates in base k, dimension 0 (x) lowest:
//! label = Σ c_j k^j. A packet corrects the highest differing dimension first (y
//! before x on a grid), so on a mesh the routing is deadlock-free.
//!
//! On a ring (a dimension with wrap-around links) a packet goes the shorter way round,
//! `+` on a tie. With `Wrap::Single` the ring's links form a cycle of channel
//! dependencies, which can deadlock. INMOS ch. 7 §7.3.2 says the wrap-around links "must be
//! doubled to avoid the possibility of deadlock"; doubling only the wrap link itself
//! leaves the cycle, so `Wrap::Doubled` doubles every ring link into two classes with
//! a dateline at the wrap (Dally and Seitz's construction, which interval labels can
//! express): in the `+` direction a packet whose destination coordinate is below the
//! current one (it must still cross the wrap) uses class 1, and one above uses class 0;
//! mirror-image in `−`. Class 1 ends at the wrap, class 0 never crosses it, so there
//! is no cycle.
//!
//! Universal routing on the grid (INMOS ch. 7 §7.5): "it is only necessary to randomize in one
//! dimension ... universal routing takes a packet first to a random node in the x
//! direction. An extra set of links is used in the x direction specifically for this
//! random step." The terminal link prepends a random label `N + x` (a column); the
//! packet moves along its row on the extra x links to column x, where the label is
//! deleted, then goes y then x as usual.
//!
//! Ports: 0 is the terminal; dimension j, direction d (0 = `+`, 1 = `−`) and class c
//! is port `1 + (2j + d)·C + c`, C the number of classes; the extra x links follow.

use super::mode::Wrap;
use super::{IntervalTable, RouteAction, table};
use crate::model::PortId;

/// The shape and routing of a k-ary n-cube or mesh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kary {
    /// Switches per dimension.
    pub k: u32,
    /// Dimensions.
    pub n: u32,
    /// Wrap-around links.
    pub wrap: Wrap,
    /// Universal routing (random column first over extra x links; meshes only).
    pub universal: bool,
}

/// The terminal port of every switch.
pub(crate) const TERMINAL_PORT: PortId = 0;

impl Kary {
    /// Number of switches (and terminals), k^n.
    pub fn switches(&self) -> u32 {
        self.k.pow(self.n)
    }

    /// Link classes per ring direction: 2 when doubled, else 1.
    pub fn classes(&self) -> u32 {
        if self.wrap == Wrap::Doubled { 2 } else { 1 }
    }

    /// Ports per switch: terminal, 2·n·classes ring or line links, 2 extra x links if
    /// universal.
    pub fn ports(&self) -> usize {
        (1 + 2 * self.n * self.classes() + if self.universal { 2 } else { 0 }) as usize
    }

    /// The port of dimension `dim`, direction `plus`, class `class`.
    pub fn port(&self, dim: u32, plus: bool, class: u32) -> PortId {
        (1 + (2 * dim + u32::from(!plus)) * self.classes() + class) as PortId
    }

    /// The extra x port used by the random step of universal routing.
    pub(crate) fn extra_port(&self, plus: bool) -> PortId {
        (1 + 2 * self.n * self.classes() + u32::from(!plus)) as PortId
    }

    /// Coordinate `dim` of `label`.
    pub fn coord(&self, label: u32, dim: u32) -> u32 {
        label / self.k.pow(dim) % self.k
    }

    /// The random labels (one per column) of universal routing.
    pub fn random_range(&self) -> (u32, u32) {
        let n = self.switches();
        (n, n + self.k)
    }

    /// Labels the tables cover.
    pub fn labels(&self) -> u32 {
        if self.universal {
            self.random_range().1
        } else {
            self.switches()
        }
    }

    /// The direction and link class that take coordinate `a` one step towards `b`
    /// (`a != b`) in one dimension.
    pub fn step(&self, a: u32, b: u32) -> (bool, u32) {
        if self.wrap == Wrap::None {
            return (b > a, 0);
        }
        let forward = (b + self.k - a) % self.k;
        let plus = 2 * forward <= self.k;
        let class = match (self.wrap, plus) {
            (Wrap::Doubled, true) => u32::from(b < a),
            (Wrap::Doubled, false) => u32::from(b > a),
            _ => 0,
        };
        (plus, class)
    }

    /// The action switch `s` takes for terminal label `d`.
    pub fn route(&self, s: u32, d: u32) -> RouteAction {
        for dim in (0..self.n).rev() {
            let (a, b) = (self.coord(s, dim), self.coord(d, dim));
            if a != b {
                let (plus, class) = self.step(a, b);
                return RouteAction::Output(self.port(dim, plus, class));
            }
        }
        RouteAction::Output(TERMINAL_PORT)
    }

    /// The interval table of switch `s`: [`Kary::route`] for every terminal label, and
    /// for the random labels of universal routing the extra x link towards the column
    /// (deleted at it). Built from one piece per other coordinate of each dimension,
    /// n·k pieces rather than k^n lookups (tested against the label-by-label table).
    pub fn table(&self, s: u32) -> IntervalTable {
        let mut pieces = Vec::with_capacity((self.n * self.k + self.k) as usize);
        self.push_pieces(s, self.n, 0, &mut pieces);
        let n = self.switches();
        for label in n..self.labels() {
            pieces.push((label, label + 1, self.random_action(s, label - n)));
        }
        table::from_pieces(pieces)
    }

    /// The pieces of the labels whose coordinates from `dims` up are those of `base`
    /// and of `s`: each other coordinate of dimension `dims − 1` is one piece leaving
    /// on that dimension's link, and `s`'s own is split again one dimension down.
    fn push_pieces(&self, s: u32, dims: u32, base: u32, out: &mut Vec<(u32, u32, RouteAction)>) {
        let Some(j) = dims.checked_sub(1) else {
            out.push((base, base + 1, RouteAction::Output(TERMINAL_PORT)));
            return;
        };
        let stride = self.k.pow(j);
        let a = self.coord(s, j);
        for b in 0..self.k {
            let lo = base + b * stride;
            if b == a {
                self.push_pieces(s, j, lo, out);
            } else {
                let (plus, class) = self.step(a, b);
                out.push((
                    lo,
                    lo + stride,
                    RouteAction::Output(self.port(j, plus, class)),
                ));
            }
        }
    }

    /// What switch `s` does with the random label of column `col` (universal routing).
    fn random_action(&self, s: u32, col: u32) -> RouteAction {
        let x = self.coord(s, 0);
        if col == x {
            RouteAction::Delete
        } else {
            RouteAction::Output(self.extra_port(col > x))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of switch `s` made label by label, the reference for [`Kary::table`].
    fn table_by_label(shape: &Kary, s: u32) -> IntervalTable {
        let n = shape.switches();
        table::from_fn(shape.labels(), |label| {
            if label < n {
                shape.route(s, label)
            } else {
                shape.random_action(s, label - n)
            }
        })
    }

    #[test]
    fn tables_from_pieces_are_the_label_by_label_tables() {
        let mut shapes = 0;
        for k in 2..=6 {
            for n in 1..=3 {
                for wrap in [Wrap::None, Wrap::Single, Wrap::Doubled] {
                    for universal in [false, true] {
                        if universal && (wrap != Wrap::None || n != 2) {
                            continue;
                        }
                        let shape = Kary {
                            k,
                            n,
                            wrap,
                            universal,
                        };
                        for s in 0..shape.switches() {
                            assert_eq!(
                                shape.table(s),
                                table_by_label(&shape, s),
                                "{shape:?} s {s}"
                            );
                        }
                        shapes += 1;
                    }
                }
            }
        }
        assert_eq!(shapes, 5 * (3 * 3 + 1));
    }

    fn grid(k: u32) -> Kary {
        Kary {
            k,
            n: 2,
            wrap: Wrap::None,
            universal: false,
        }
    }

    #[test]
    fn the_grid_goes_y_first_then_x() {
        let g = grid(4);
        // s = (x 1, y 1) = 5; d = (x 3, y 0) = 3: y first, downwards (−).
        assert_eq!(g.route(5, 3), RouteAction::Output(g.port(1, false, 0)));
        // d = (x 3, y 1) = 7: same row, +x.
        assert_eq!(g.route(5, 7), RouteAction::Output(g.port(0, true, 0)));
        assert_eq!(g.route(5, 5), RouteAction::Output(TERMINAL_PORT));
        assert_eq!(g.ports(), 5);
    }

    #[test]
    fn the_torus_goes_the_short_way_and_doubled_links_switch_class_at_the_wrap() {
        let t = Kary {
            k: 8,
            n: 1,
            wrap: Wrap::Doubled,
            universal: false,
        };
        assert_eq!(t.step(6, 1), (true, 1), "6→7→0→1 crosses the wrap");
        assert_eq!(t.step(0, 1), (true, 0));
        assert_eq!(t.step(1, 6), (false, 1), "1→0→7→6 crosses the wrap");
        assert_eq!(t.step(6, 4), (false, 0));
        assert_eq!(t.step(0, 4), (true, 0), "a tie goes +");
        // Along any + path, class never goes 0 → 1 (the dateline breaks the cycle).
        for s in 0..8 {
            for d in 0..8 {
                let mut a = s;
                let mut last = 1;
                while a != d {
                    let (plus, class) = t.step(a, d);
                    assert!(class <= last, "{s}→{d}");
                    last = class;
                    a = if plus { (a + 1) % 8 } else { (a + 7) % 8 };
                }
            }
        }
    }

    #[test]
    fn universal_grid_tables_send_random_labels_along_the_row_and_delete_them() {
        let g = Kary {
            universal: true,
            ..grid(4)
        };
        assert_eq!(g.ports(), 7);
        let t = g.table(5); // x 1, y 1
        assert!(t.covers(20));
        assert_eq!(t.lookup(16 + 1), Some(RouteAction::Delete));
        assert_eq!(t.lookup(16), Some(RouteAction::Output(g.extra_port(false))));
        assert_eq!(
            t.lookup(16 + 3),
            Some(RouteAction::Output(g.extra_port(true)))
        );
        assert_eq!(t.lookup(7), Some(RouteAction::Output(g.port(0, true, 0))));
    }
}
