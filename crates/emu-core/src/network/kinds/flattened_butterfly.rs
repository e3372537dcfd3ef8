//! `kind = "flattened_butterfly"`: a 2-D flattened butterfly of C104s (Kim, Dally and
//! Abts, "Flattened butterfly: a cost-efficient topology for high-radix networks",
//! ISCA 2007): a `rows` × `cols` array of switches, each linked to every other switch
//! of its row and of its column, `p` terminals on each.
//!
//! Shape: switch `(r, c)` is node `r·cols + c`; terminal `t` hangs on port `t mod p` of
//! switch `t / p`. A switch's ports `0..p` are its terminals, then `cols − 1` row links
//! (to the other columns, in order), then `rows − 1` column links (to the other rows, in
//! order).
//!
//! Routing is dimension order, row first: a packet for another column goes along the
//! row to the destination's column, then along that column to the destination's row;
//! at most two hops. Row links only ever lead to column links or terminals, and column
//! links only to terminals, so the channel dependencies have no cycle (`emu check`
//! says so).

use super::{C104_LINKS, Kind, Layout, Shape, within};
use super::NetworkConfig;
use crate::network::Geometry;
use crate::network::build::{BuildError, Parts, topo_err};
use crate::network::pattern::Family;
use crate::parts::bounds::Bound;
use crate::routing::{IntervalTable, RouteAction, table};

/// The flattened-butterfly kind.
pub(super) struct FlattenedButterfly;

/// A 2-D flattened butterfly of C104s (Kim, Dally and Abts, ISCA 2007): a `rows` ×
/// `cols` array of switches, each linked to every other switch of its row and of
/// its column, `p` terminals per switch. Dimension-order routing, along the row
/// first, then along the column: at most two hops, and no cycle of channel
/// dependencies.
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlattenedButterflyNetwork {
    /// Rows of switches.
    pub rows: u32,
    /// Columns of switches; the network has rows·cols switches.
    pub cols: u32,
    /// Terminals per switch.
    pub p: u32,
}

/// A checked flattened butterfly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Flat {
    /// Rows of switches.
    rows: u32,
    /// Columns of switches.
    cols: u32,
    /// Terminals per switch.
    p: u32,
}

/// Rows, columns and terminals per switch (`network.rows`, `network.cols`,
/// `network.p`).
const COUNTS: Bound = Bound::counting(1, C104_LINKS as u64, "");

impl Kind for FlattenedButterfly {
    fn name(&self) -> &'static str {
        "flattened_butterfly"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::FlattenedButterfly(_))
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.rows" | "network.cols" => Some(COUNTS.takes()),
            "network.p" => Some(format!(
                "{}, while p + (cols − 1) + (rows − 1) links fit a C104's {C104_LINKS}",
                COUNTS.takes()
            )),
            _ => None,
        }
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::FlattenedButterfly(FlattenedButterflyNetwork { rows, cols, p }) = *net else {
            return Err(topo_err("network.kind", "not a flattened butterfly"));
        };
        for (key, v) in [
            ("network.rows", rows),
            ("network.cols", cols),
            ("network.p", p),
        ] {
            within(key, COUNTS, v, "", "")?;
        }
        let flat = Flat { rows, cols, p };
        if flat.ports() > C104_LINKS {
            return Err(topo_err(
                "network.p",
                format!(
                    "a switch needs {} links (p terminals, cols − 1 row links, rows − 1 column links), and a C104 has {C104_LINKS}",
                    flat.ports()
                ),
            ));
        }
        Ok(Shape {
            layout: Box::new(flat),
            // The systematic pattern: the block move of a ring of all the terminals,
            // every terminal to the one half-way round.
            family: Family::Kary {
                k: flat.terminals(),
                n: 1,
            },
            terminals: flat.terminals(),
            labels: flat.terminals(),
        })
    }
}

impl Flat {
    /// Links a switch uses.
    fn ports(&self) -> u32 {
        self.p + (self.cols - 1) + (self.rows - 1)
    }

    fn switches(&self) -> u32 {
        self.rows * self.cols
    }

    fn terminals(&self) -> u32 {
        self.switches() * self.p
    }

    /// The port of a switch in column `c` to column `to` of its row.
    fn row_port(&self, c: u32, to: u32) -> usize {
        (self.p + if to < c { to } else { to - 1 }) as usize
    }

    /// The port of a switch in row `r` to row `to` of its column.
    fn column_port(&self, r: u32, to: u32) -> usize {
        (self.p + self.cols - 1 + if to < r { to } else { to - 1 }) as usize
    }

    /// The interval table of switch `(r, c)`: row first, then column.
    fn table(&self, r: u32, c: u32) -> IntervalTable {
        let p = self.p;
        let mut pieces = Vec::new();
        for d in 0..self.switches() {
            let (dr, dc) = (d / self.cols, d % self.cols);
            let lo = d * p;
            if dc != c {
                pieces.push((lo, lo + p, RouteAction::Output(self.row_port(c, dc))));
            } else if dr != r {
                pieces.push((lo, lo + p, RouteAction::Output(self.column_port(r, dr))));
            } else {
                for i in 0..p {
                    pieces.push((lo + i, lo + i + 1, RouteAction::Output(i as usize)));
                }
            }
        }
        table::from_pieces(pieces)
    }
}

impl Layout for Flat {
    fn build(&self, parts: &mut Parts, _tables: Vec<IntervalTable>) -> usize {
        let (rows, cols, p) = (self.rows, self.cols, self.p);
        let ports = self.ports() as usize;
        for r in 0..rows {
            for c in 0..cols {
                parts.switch(format!("fb[{r}][{c}]"), ports, || self.table(r, c));
            }
        }
        for t in 0..self.terminals() {
            let node = parts.processor(t);
            parts.link((t / p) as usize, (t % p) as usize, node, 0);
        }
        let node = |r: u32, c: u32| (r * cols + c) as usize;
        for r in 0..rows {
            for c in 0..cols {
                // (own port, the other switch, its port) of each link to a later
                // switch of the row, then of the column.
                let along_row = (c + 1..cols)
                    .map(|to| (self.row_port(c, to), node(r, to), self.row_port(to, c)));
                let along_column = (r + 1..rows).map(|to| {
                    (
                        self.column_port(r, to),
                        node(to, c),
                        self.column_port(to, r),
                    )
                });
                for (port, other, back) in along_row.chain(along_column) {
                    parts.link(node(r, c), port, other, back);
                }
            }
        }
        self.switches() as usize
    }

    fn geometry(&self) -> Geometry {
        Geometry::Free
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Follows `label` from switch `(r, c)`: the terminal reached and the switch hops.
    fn walk(f: &Flat, mut r: u32, mut c: u32, label: u32) -> (u32, u32) {
        let mut hops = 0;
        loop {
            let port = match f.table(r, c).lookup(label).expect("every label routes") {
                RouteAction::Output(port) => port as u32,
                other => panic!("{other:?}"),
            };
            if port < f.p {
                return ((r * f.cols + c) * f.p + port, hops);
            }
            hops += 1;
            assert!(hops <= 2, "more than two hops");
            let idx = port - f.p;
            if idx < f.cols - 1 {
                c = if idx < c { idx } else { idx + 1 };
            } else {
                let idx = idx - (f.cols - 1);
                r = if idx < r { idx } else { idx + 1 };
            }
        }
    }

    #[test]
    fn every_label_reaches_its_terminal_row_first_in_at_most_two_hops() {
        for (rows, cols, p) in [(1, 1, 2), (1, 4, 1), (3, 1, 2), (4, 4, 4), (2, 5, 3)] {
            let f = Flat { rows, cols, p };
            for s in 0..f.switches() {
                let (r, c) = (s / cols, s % cols);
                for dest in 0..f.terminals() {
                    let (got, hops) = walk(&f, r, c, dest);
                    assert_eq!(got, dest, "({r}, {c}) → {dest}");
                    let (dr, dc) = ((dest / p) / cols, (dest / p) % cols);
                    assert_eq!(hops, u32::from(dr != r) + u32::from(dc != c));
                }
            }
        }
    }

    #[test]
    fn ports_of_a_row_and_a_column_do_not_overlap() {
        let f = Flat {
            rows: 3,
            cols: 4,
            p: 2,
        };
        let mut row: Vec<usize> = (0..4)
            .filter(|&to| to != 1)
            .map(|to| f.row_port(1, to))
            .collect();
        let col: Vec<usize> = (0..3)
            .filter(|&to| to != 2)
            .map(|to| f.column_port(2, to))
            .collect();
        row.extend(col);
        assert_eq!(row, vec![2, 3, 4, 5, 6]);
        assert_eq!(f.ports(), 7);
    }
}
