//! `kind = "fat_tree"`: a k-ary n-tree of C104s, the folded Clos network that the
//! indirect multistage networks of INMOS ch. 7 §7.2-7.3.3 generalise to any number of
//! stages ("a larger number of switches can be used to make the network more highly
//! connected").
//!
//! Shape: `n` levels of `k^(n-1)` switches each, level 0 the leaves. A switch's ports
//! `0..k` go down (to a terminal at a leaf, to a child switch above), ports `k..2k` go
//! up (unused at the top level). Terminal `t` has base-`k` digits `t_0 … t_(n-1)`: it
//! hangs on port `t_0` of leaf `t / k`. Up port `j` of switch `w` at level `l` goes to
//! the switch of level `l + 1` whose index is `w` with base-`k` digit `l` replaced by
//! `j`, on its down port `w_l`. So the switch `w` of level `l` is the root of the
//! subtree of the `k^(l+1)` terminals whose high digits `t_(l+1) …` are `w`'s digits
//! `w_l …`: one interval of labels, and each down port one interval of `k^l`.
//!
//! Routing is up/down interval routing (INMOS ch. 7 §7.1): a label inside the subtree
//! leaves on down port `t_l`; a label outside it goes up, on up port `t_l` (destination
//! digits spread the load over the up links, "d-mod-k"), until the nearest common
//! ancestor. Every path goes up then down, so the channel dependencies have no cycle.
//!
//! Universal routing (INMOS ch. 7 §7.5): every terminal link generates a random header
//! `N + r` naming top-level switch `r`; below the top, that label goes up on up port
//! `r_l`, which leads to switch `r` of the top level, where it is deleted and the packet
//! goes down to its destination. Up links carry only the first journey and down links
//! only the second, so it too is free of cycles.
//!
//! Node order: the switches level by level (`level{l}[w]`), then the T9000s by label.

use super::{
    C104_LINKS, CUBE_ROUTING, Kind, Layout, MAX_KARY_SWITCHES, Shape, max_kary_switches, only,
    routings, within,
};
use super::NetworkConfig;
use crate::config::topology::RoutingMode;
use crate::network::Geometry;
use crate::network::build::{BuildError, Parts, topo_err};
use crate::network::pattern::Family;
use crate::parts::bounds::Bound;
use crate::routing::{IntervalTable, RouteAction, table};

/// The fat-tree kind.
pub(super) struct FatTree;

/// A k-ary n-tree of C104s (a fat tree): the folded Clos network the indirect
/// multistage networks of INMOS ch. 7 §7.2-7.3.3 generalise to `n` stages, `k`
/// terminals per leaf switch, `k` links up from every switch below the top.
/// Up/down interval routing: up to the nearest common ancestor, then down by label
/// intervals.
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FatTreeNetwork {
    /// Terminals per leaf switch, and links up from each switch below the top.
    pub k: u32,
    /// Levels: the tree has n·k^(n-1) switches and k^n terminals.
    pub n: u32,
    /// `deterministic` (up on the link the destination's digit names, to the
    /// nearest common ancestor) or `universal` (up to a random top-level switch,
    /// INMOS ch. 7 §7.5, then down).
    #[serde(default)]
    pub routing: RoutingMode,
}

/// A checked k-ary n-tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tree {
    /// Terminals per leaf switch, and links up from each switch below the top.
    pub k: u32,
    /// Levels.
    pub n: u32,
    /// Universal routing: a random top-level switch first.
    pub universal: bool,
}

/// Terminals per leaf switch (`network.k`): a switch uses k links down and k up.
const K: Bound = Bound::counting(2, (C104_LINKS / 2) as u64, "terminals per leaf switch");

impl Kind for FatTree {
    fn name(&self) -> &'static str {
        "fat_tree"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::FatTree(_))
    }

    fn multipath(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::FatTree(n) if n.routing != RoutingMode::Deterministic)
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.k" => Some(K.takes()),
            "network.n" => Some(format!(
                "a whole number from 1, with k^n at most {}",
                max_kary_switches()
            )),
            "network.routing" => Some(routings(CUBE_ROUTING)),
            _ => None,
        }
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::FatTree(FatTreeNetwork { k, n, routing }) = *net else {
            return Err(topo_err("network.kind", "not a fat tree"));
        };
        only("network.routing", routing, CUBE_ROUTING)?;
        within(
            "network.k",
            K,
            k,
            "",
            &format!(" (a switch uses k links down and k up, of a C104's {C104_LINKS})"),
        )?;
        if n == 0 {
            return Err(topo_err("network.n", "give at least 1 level"));
        }
        match k.checked_pow(n) {
            Some(size) if size <= MAX_KARY_SWITCHES => {}
            _ => {
                return Err(topo_err(
                    "network.n",
                    format!("{k}^{n} terminals: at most {MAX_KARY_SWITCHES} (2-byte headers)"),
                ));
            }
        }
        let tree = Tree {
            k,
            n,
            universal: routing == RoutingMode::Universal,
        };
        Ok(Shape {
            layout: Box::new(tree),
            family: Family::Kary { k, n },
            terminals: tree.terminals(),
            labels: tree.labels(),
        })
    }
}

impl Tree {
    /// Terminals: `k^n`.
    pub fn terminals(&self) -> u32 {
        self.k.pow(self.n)
    }

    /// Switches on each level: `k^(n-1)`.
    pub fn per_level(&self) -> u32 {
        self.k.pow(self.n - 1)
    }

    /// Header labels: the terminals, and with universal routing one random label per
    /// top-level switch.
    pub fn labels(&self) -> u32 {
        self.terminals() + if self.universal { self.per_level() } else { 0 }
    }

    /// The random labels a terminal link draws from (universal routing).
    pub fn random_range(&self) -> (u32, u32) {
        (self.terminals(), self.labels())
    }

    /// Base-`k` digit `l` of `x`.
    fn digit(&self, x: u32, l: u32) -> u32 {
        (x / self.k.pow(l)) % self.k
    }

    /// The node id of switch `w` of level `l`.
    pub fn node(&self, l: u32, w: u32) -> usize {
        (l * self.per_level() + w) as usize
    }

    /// The interval table of switch `w` of level `l` (see the module documentation).
    pub fn table(&self, l: u32, w: u32) -> IntervalTable {
        let (k, n) = (self.k, self.n);
        let run = k.pow(l);
        let span = run * k;
        let lo = (w / run) * span;
        let top = l + 1 == n;
        let total = self.terminals();
        let mut pieces = Vec::new();
        let mut s = 0;
        while s < total {
            let d = self.digit(s, l) as usize;
            let inside = (lo..lo + span).contains(&s);
            let port = if inside { d } else { k as usize + d };
            pieces.push((s, s + run, RouteAction::Output(port)));
            s += run;
        }
        if self.universal {
            if top {
                pieces.push((total, self.labels(), RouteAction::Delete));
            } else {
                let mut r = 0;
                while r < self.per_level() {
                    let port = k as usize + self.digit(r, l) as usize;
                    pieces.push((total + r, total + r + run, RouteAction::Output(port)));
                    r += run;
                }
            }
        }
        table::from_pieces(pieces)
    }

    /// The switch and down port of level `l + 1` that up port `k + j` of switch `w` of
    /// level `l` leads to.
    pub fn parent(&self, l: u32, w: u32, j: u32) -> (u32, usize) {
        let run = self.k.pow(l);
        let d = self.digit(w, l);
        (w - d * run + j * run, d as usize)
    }
}

impl Layout for Tree {
    fn build(&self, parts: &mut Parts, _tables: Vec<IntervalTable>) -> usize {
        let (k, n) = (self.k, self.n);
        let ports = 2 * k as usize;
        for l in 0..n {
            for w in 0..self.per_level() {
                let name = format!("level{l}[{w}]");
                if self.universal && l == 0 {
                    parts.generating_switch(
                        name,
                        ports,
                        || self.table(l, w),
                        0..k as usize,
                        self.random_range(),
                    );
                } else {
                    parts.switch(name, ports, || self.table(l, w));
                }
            }
        }
        for t in 0..self.terminals() {
            let p = parts.processor(t);
            parts.link(self.node(0, t / k), (t % k) as usize, p, 0);
        }
        for l in 0..n - 1 {
            for w in 0..self.per_level() {
                for j in 0..k {
                    let (up, down) = self.parent(l, w, j);
                    parts.link(
                        self.node(l, w),
                        (k + j) as usize,
                        self.node(l + 1, up),
                        down,
                    );
                }
            }
        }
        (n * self.per_level()) as usize
    }

    fn geometry(&self) -> Geometry {
        Geometry::Stages
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Follows label `label` from leaf `leaf` through the tables; returns the terminal
    /// it reaches and the switches it crosses, following the wiring of
    /// [`Layout::build`] (random labels: deleted, then the packet's `dest`).
    fn walk(t: &Tree, leaf: u32, mut label: u32, dest: u32) -> (u32, Vec<(u32, u32)>) {
        let (mut l, mut w) = (0, leaf);
        let mut path = vec![(l, w)];
        loop {
            assert!(path.len() <= 2 * t.n as usize + 1, "a loop: {path:?}");
            match t.table(l, w).lookup(label).expect("every label routes") {
                RouteAction::Delete => {
                    assert!(label >= t.terminals());
                    label = dest;
                }
                RouteAction::Output(p) if p < t.k as usize => {
                    if l == 0 {
                        return (w * t.k + p as u32, path);
                    }
                    // Down port p of (l, w): the child whose digit l-1 is p.
                    let run = t.k.pow(l - 1);
                    let d = t.digit(w, l - 1);
                    w = w - d * run + p as u32 * run;
                    l -= 1;
                    path.push((l, w));
                }
                RouteAction::Output(p) => {
                    assert!(l + 1 < t.n, "up from the top");
                    let (up, _) = t.parent(l, w, p as u32 - t.k);
                    l += 1;
                    w = up;
                    path.push((l, w));
                }
                RouteAction::Group { .. } => panic!("no groups"),
            }
        }
    }

    #[test]
    fn every_label_reaches_its_terminal_up_then_down() {
        for (k, n) in [(2, 1), (2, 3), (3, 2), (4, 3), (2, 5)] {
            for universal in [false, true] {
                let t = Tree { k, n, universal };
                for src in 0..t.terminals() {
                    for dest in 0..t.terminals() {
                        let labels: Vec<u32> = if universal {
                            (t.terminals()..t.labels()).collect()
                        } else {
                            vec![dest]
                        };
                        for label in labels {
                            let (got, path) = walk(&t, src / k, label, dest);
                            assert_eq!(got, dest, "{k}-ary {n}-tree {src}→{dest} via {label}");
                            let top = path.iter().map(|p| p.0).max().unwrap_or(0);
                            let up = path.iter().position(|p| p.0 == top).unwrap_or(0);
                            assert!(
                                path[..=up].windows(2).all(|p| p[1].0 == p[0].0 + 1)
                                    && path[up..].windows(2).all(|p| p[1].0 + 1 == p[0].0),
                                "not up then down: {path:?}"
                            );
                            if universal {
                                assert_eq!(top, n - 1, "universal goes to the top");
                            } else {
                                // The nearest common ancestor: the highest digit
                                // where src and dest differ.
                                let nca = (0..n)
                                    .rev()
                                    .find(|&i| t.digit(src, i) != t.digit(dest, i))
                                    .unwrap_or(0);
                                assert_eq!(top, nca, "{src}→{dest}: {path:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_up_link_lands_on_a_distinct_down_port() {
        let t = Tree {
            k: 3,
            n: 3,
            universal: false,
        };
        let mut seen = std::collections::BTreeSet::new();
        for l in 0..t.n - 1 {
            for w in 0..t.per_level() {
                for j in 0..t.k {
                    assert!(seen.insert((l + 1, t.parent(l, w, j))));
                }
            }
        }
        assert_eq!(seen.len() as u32, (t.n - 1) * t.per_level() * t.k);
    }
}
