//! Where each node of a network is drawn: its family's natural layout, from the shape
//! the family's builder recorded on the plan ([`Network::geometry`]), never from node
//! names.
//!
//! - a grid, torus or k-ary n-cube as a grid (n > 2: the 2-D grids of the higher
//!   dimensions side by side, a gap between them);
//! - a hypercube as a Gray-coded 2-D grid: the low half of the address bits picks the
//!   column, the high half the row, each in Gray-code order, so that neighbouring
//!   columns and rows are neighbouring switches (the other links of a row or column
//!   are drawn as arcs);
//! - a ring (of C104s, SCI nodes, relay nodes) as a circle, node 0 at the top, clockwise;
//! - a multistage network in columns: the terminals, then the switches by their
//!   distance in links from the terminals;
//! - a single switch (a crossbar, a fabric's core) in the middle, the rest round it;
//! - anything else (a netlist) by a force layout with a fixed start and a fixed number
//!   of rounds, so the same network always lands in the same place.
//!
//! A node hanging off one neighbour only (a terminal's processor) is drawn beside it,
//! away from the middle of the picture. Positions are in units of the distance between
//! neighbouring switches, y pointing down.

use crate::model::LinkProtocol;
use crate::network::{Geometry, Network};
use std::collections::BTreeSet;

/// A point of the layout (units of switch spacing, y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Across, to the right.
    pub x: f64,
    /// Down.
    pub y: f64,
}

impl Point {
    fn add(self, o: Point) -> Point {
        Point {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
    fn sub(self, o: Point) -> Point {
        Point {
            x: self.x - o.x,
            y: self.y - o.y,
        }
    }
    fn scale(self, f: f64) -> Point {
        Point {
            x: self.x * f,
            y: self.y * f,
        }
    }
    fn len(self) -> f64 {
        self.x.hypot(self.y)
    }
}

/// Where every node of a network is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The position of each node, in node order.
    pub pos: Vec<Point>,
    /// True for a node drawn beside its one neighbour (a terminal's processor) rather
    /// than placed by the shape.
    pub leaf: Vec<bool>,
}

/// The distinct neighbours of each node, in node order.
pub(crate) fn neighbours<P: LinkProtocol>(net: &Network<P>) -> Vec<BTreeSet<usize>> {
    let mut nb = vec![BTreeSet::new(); net.nodes().len()];
    for l in net.links() {
        if l.a.node != l.b.node {
            nb[l.a.node].insert(l.b.node);
            nb[l.b.node].insert(l.a.node);
        }
    }
    nb
}

/// Lays out `net` in its family's natural layout (see the module documentation).
pub fn layout<P: LinkProtocol>(net: &Network<P>) -> Layout {
    let n = net.nodes().len();
    let nb = neighbours(net);
    let geometry = net.geometry();
    // The nodes the shape places; every other node with one neighbour hangs beside it.
    let shaped = |i: usize| match geometry {
        Geometry::Kary { k, n, .. } => (i as u64) < u64::from(k).pow(n),
        Geometry::Hypercube { n } => (i as u64) < 1u64 << n,
        Geometry::Ring { nodes } => i < nodes as usize,
        Geometry::Star { hub } => i == hub,
        _ => false,
    };
    let leaf: Vec<bool> = (0..n)
        .map(|i| {
            !shaped(i)
                && (matches!(geometry, Geometry::Star { .. })
                    || (nb[i].len() == 1 && nb[i].iter().all(|&j| nb[j].len() > 1)))
        })
        .collect();
    let mut pos = vec![Point { x: 0.0, y: 0.0 }; n];
    match geometry {
        Geometry::Kary { k, n: dims, .. } => {
            for (s, p) in pos.iter_mut().enumerate().take(k.pow(dims) as usize) {
                *p = kary_point(s as u64, k, dims);
            }
        }
        Geometry::Hypercube { n: dims } => {
            for (s, p) in pos.iter_mut().enumerate().take(1 << dims) {
                *p = cube_point(s as u64, dims);
            }
        }
        Geometry::Ring { nodes } => {
            for (i, p) in pos.iter_mut().enumerate().take(nodes as usize) {
                *p = on_circle(i, nodes as usize, ring_radius(nodes as usize));
            }
        }
        Geometry::Star { hub } => {
            let others: Vec<usize> = (0..n).filter(|&i| i != hub).collect();
            let r = ring_radius(others.len()).max(1.5);
            for (k, &i) in others.iter().enumerate() {
                pos[i] = on_circle(k, others.len(), r);
            }
            return Layout { pos, leaf };
        }
        Geometry::Stages => {
            stages(&nb, &leaf, &mut pos);
            return Layout { pos, leaf };
        }
        _ => force(&nb, &leaf, &mut pos),
    }
    beside(&nb, &leaf, &mut pos, geometry);
    Layout { pos, leaf }
}

/// Switch `s` of a k-ary n-cube: even dimensions across, odd ones down, each higher
/// pair of dimensions repeating the grid with a gap of one spacing.
pub fn kary_point(s: u64, k: u32, dims: u32) -> Point {
    let (mut x, mut y) = (0.0, 0.0);
    let (mut wx, mut wy) = (1.0, 1.0);
    let mut rest = s;
    for j in 0..dims {
        let digit = (rest % u64::from(k)) as f64;
        rest /= u64::from(k);
        if j % 2 == 0 {
            x += digit * wx;
            wx *= f64::from(k) + 1.0;
        } else {
            y += digit * wy;
            wy *= f64::from(k) + 1.0;
        }
    }
    Point { x, y }
}

/// The inverse of the Gray code: the position of `g` in the Gray sequence.
pub fn gray_rank(mut g: u64) -> u64 {
    let mut r = 0;
    while g != 0 {
        r ^= g;
        g >>= 1;
    }
    r
}

/// Switch `s` of an n-cube on the Gray-coded grid: the low ⌈n/2⌉ address bits pick
/// the column, the rest the row.
pub fn cube_point(s: u64, dims: u32) -> Point {
    let xbits = dims.div_ceil(2);
    let low = s & ((1u64 << xbits) - 1);
    Point {
        x: gray_rank(low) as f64,
        y: gray_rank(s >> xbits) as f64,
    }
}

/// The radius at which `m` points round a circle are one spacing apart (at least half
/// a spacing).
pub fn ring_radius(m: usize) -> f64 {
    (m as f64 / (2.0 * std::f64::consts::PI)).max(0.5)
}

/// Point `i` of `m` round a circle of radius `r`, the first at the top, clockwise.
pub fn on_circle(i: usize, m: usize, r: f64) -> Point {
    let a = -std::f64::consts::FRAC_PI_2 + 2.0 * std::f64::consts::PI * i as f64 / m.max(1) as f64;
    Point {
        x: r * a.cos(),
        y: r * a.sin(),
    }
}

/// A multistage network in columns: the leaves (terminals) first, then every other
/// node by its distance in links from them, each column spread over the same height
/// and ordered by node id.
fn stages(nb: &[BTreeSet<usize>], leaf: &[bool], pos: &mut [Point]) {
    let n = nb.len();
    let mut column = vec![usize::MAX; n];
    let mut frontier: Vec<usize> = (0..n).filter(|&i| leaf[i]).collect();
    for &i in &frontier {
        column[i] = 0;
    }
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for &i in &frontier {
            for &j in &nb[i] {
                if column[j] == usize::MAX {
                    column[j] = depth;
                    next.push(j);
                }
            }
        }
        frontier = next;
    }
    // Nodes no terminal reaches go in a column of their own at the end.
    let last = column
        .iter()
        .filter(|&&c| c != usize::MAX)
        .max()
        .map_or(0, |c| c + 1);
    for c in &mut column {
        if *c == usize::MAX {
            *c = last;
        }
    }
    let columns = column.iter().max().map_or(0, |c| c + 1);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); columns];
    for (i, &c) in column.iter().enumerate() {
        members[c].push(i);
    }
    // Terminals a quarter spacing apart, so that switches are not specks beside them.
    let height = members
        .iter()
        .map(|m| {
            let leaves = m.iter().filter(|&&i| leaf[i]).count();
            (leaves as f64 * LEAF_STEP).max((m.len() - leaves) as f64)
        })
        .fold(1.0, f64::max);
    // Columns far enough apart that the picture is not a thin strip.
    let gap = (height / 3.0).max(2.0);
    for (c, m) in members.iter().enumerate() {
        let step = height / m.len().max(1) as f64;
        for (k, &i) in m.iter().enumerate() {
            pos[i] = Point {
                x: c as f64 * gap,
                y: (k as f64 + 0.5) * step,
            };
        }
    }
}

/// Distance between the terminals of a multistage network's first column, in spacings.
const LEAF_STEP: f64 = 0.25;

/// Rounds of the force layout.
const FORCE_ROUNDS: usize = 400;

/// A force layout (Fruchterman–Reingold) of the nodes that are not leaves: they start
/// on a circle in node order, shifted by a fixed pseudo-random amount, and move for
/// [`FORCE_ROUNDS`] rounds with a cooling step; the same network gives the same
/// positions every time.
fn force(nb: &[BTreeSet<usize>], leaf: &[bool], pos: &mut [Point]) {
    let hubs: Vec<usize> = (0..nb.len()).filter(|&i| !leaf[i]).collect();
    let m = hubs.len();
    if m == 0 {
        return;
    }
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut jitter = || {
        // SplitMix64: a fixed sequence, no dependence on the platform.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    let r = ring_radius(m).max(1.0);
    let mut p: Vec<Point> = (0..m)
        .map(|k| {
            on_circle(k, m, r).add(Point {
                x: 0.2 * jitter(),
                y: 0.2 * jitter(),
            })
        })
        .collect();
    let index: std::collections::BTreeMap<usize, usize> =
        hubs.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let edges: Vec<(usize, usize)> = hubs
        .iter()
        .enumerate()
        .flat_map(|(k, &i)| {
            nb[i]
                .iter()
                .filter_map(|j| index.get(j).copied())
                .filter(move |&l| l > k)
                .map(move |l| (k, l))
        })
        .collect();
    let ideal = 1.0;
    let mut step = r;
    for _ in 0..FORCE_ROUNDS {
        let mut d = vec![Point { x: 0.0, y: 0.0 }; m];
        for a in 0..m {
            for b in a + 1..m {
                let mut v = p[a].sub(p[b]);
                if v.len() < 1e-9 {
                    v = Point { x: 1e-3, y: 0.0 };
                }
                let f = ideal * ideal / v.len();
                let push = v.scale(f / v.len());
                d[a] = d[a].add(push);
                d[b] = d[b].sub(push);
            }
        }
        for &(a, b) in &edges {
            let v = p[a].sub(p[b]);
            let pull = v.scale(v.len() / ideal);
            d[a] = d[a].sub(pull);
            d[b] = d[b].add(pull);
        }
        for (q, dq) in p.iter_mut().zip(&d) {
            let l = dq.len();
            if l > 1e-12 {
                *q = q.add(dq.scale(l.min(step) / l));
            }
        }
        step = (step * 0.97).max(0.01);
    }
    // Scale so that the shortest link is one spacing.
    let shortest = edges
        .iter()
        .map(|&(a, b)| p[a].sub(p[b]).len())
        .fold(f64::INFINITY, f64::min);
    let f = if shortest.is_finite() && shortest > 1e-6 {
        1.0 / shortest
    } else {
        1.0
    };
    for (k, &i) in hubs.iter().enumerate() {
        pos[i] = p[k].scale(f);
    }
}

/// How far a leaf sits from its neighbour, in spacings.
pub const BESIDE: f64 = 0.32;

/// Places each leaf beside its neighbour: on a grid below and right of it (clear of
/// the grid's links), elsewhere away from the middle of the picture; several leaves
/// of one node fan out round that direction.
fn beside(nb: &[BTreeSet<usize>], leaf: &[bool], pos: &mut [Point], geometry: Geometry) {
    let hubs: Vec<usize> = (0..nb.len()).filter(|&i| !leaf[i]).collect();
    if hubs.is_empty() {
        return;
    }
    let centre = hubs
        .iter()
        .fold(Point { x: 0.0, y: 0.0 }, |a, &i| a.add(pos[i]))
        .scale(1.0 / hubs.len() as f64);
    let gridded = matches!(geometry, Geometry::Kary { .. } | Geometry::Hypercube { .. });
    for &h in &hubs {
        let mine: Vec<usize> = nb[h].iter().copied().filter(|&j| leaf[j]).collect();
        if mine.is_empty() {
            continue;
        }
        let out = pos[h].sub(centre);
        let angle = if gridded || out.len() < 1e-9 {
            std::f64::consts::FRAC_PI_4
        } else {
            out.y.atan2(out.x)
        };
        let spread = 0.45;
        let first = angle - spread * (mine.len() - 1) as f64 / 2.0;
        for (k, &j) in mine.iter().enumerate() {
            let a = first + spread * k as f64;
            pos[j] = pos[h].add(Point {
                x: BESIDE * a.cos(),
                y: BESIDE * a.sin(),
            });
        }
    }
}
