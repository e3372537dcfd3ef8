//! `kind = "dragonfly"`: a dragonfly of C104s (Kim, Dally, Scott and Abts, 2008): groups
//! of `a` switches joined all-to-all by local links, `p` terminals and `h` global links
//! per switch, and `a·h + 1` groups, every pair of groups joined by one global link.
//!
//! Labels: terminal `t` is port `t mod p` of switch `(t / p) mod a` of group
//! `t / (a·p)`, so each group is one interval of labels and each of its switches one
//! sub-interval (INMOS ch. 7 §7.1 interval labelling). Global link `j` of group `G`
//! (`j` from 0 to `a·h − 1`, on switch `j / h`, its global port `j mod h`) goes to
//! group `(G + j + 1) mod g`.
//!
//! Minimal routing: local (to the switch of the group holding the global link to the
//! destination's group), global, local (to the destination's switch). With
//! `local_sets = 2` (the default) every local link is doubled: a local hop before the
//! global one takes the first set, a hop after it the second, so a packet never waits
//! for a channel of an earlier step and the channel dependencies have no cycle. With
//! `local_sets = 1` both steps share the local links, and `emu check` finds the cycle
//! (local, global, local, global through two groups).
//!
//! Universal routing (INMOS ch. 7 §7.5, Valiant's random intermediate group): every
//! terminal link prepends a random label `N + r` naming group `r`; the packet goes
//! minimally to group `r`, the first switch there deletes the label, and it goes on
//! minimally to its destination. Both journeys use the global links, so with
//! `local_sets = 2` each journey has links of its own: the first a local set and a
//! global set, the second two more local sets (before and after its global hop) and a
//! second global set, and the channel dependencies have no cycle. With
//! `local_sets = 1` both journeys share one set of every link.
//!
//! Ports of a switch: terminals `0..p`, then for each local set the `a − 1` other
//! switches of the group in order, then for each global set the `h` global links. Node order: the switches
//! group by group (`group{G}[s]`), then the T9000s by label.

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

/// The dragonfly kind.
pub(super) struct Dragonfly;

/// A dragonfly of C104s: groups of `a` switches joined all-to-all by local links,
/// `p` terminals and `h` global links per switch, `a·h + 1` groups each joined to
/// every other by one global link. Minimal routing (local, global, local) or
/// universal routing via a random intermediate group (INMOS ch. 7 §7.5).
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DragonflyNetwork {
    /// Switches per group.
    pub a: u32,
    /// Terminals per switch.
    pub p: u32,
    /// Global links per switch; the network has a·h + 1 groups.
    pub h: u32,
    /// 2 (the default): local links doubled, one set before the global hop and
    /// one after (with universal routing, each journey on links of its own: three
    /// local sets and two global), so the channel dependencies have no cycle; 1:
    /// one set of every link, whose dependencies have cycles (for deadlock
    /// studies: `emu check`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_sets: Option<u32>,
    /// `deterministic` (minimal: local, global, local) or `universal` (minimally
    /// to a random intermediate group, then minimally to the destination).
    #[serde(default)]
    pub routing: RoutingMode,
}

/// A checked dragonfly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fly {
    /// Switches per group.
    a: u32,
    /// Terminals per switch.
    p: u32,
    /// Global links per switch.
    h: u32,
    /// Local link sets (1 or 2).
    sets: u32,
    /// Universal routing: a random intermediate group first.
    universal: bool,
}

/// Switches per group, terminals and global links per switch (`network.a`,
/// `network.p`, `network.h`).
const COUNTS: Bound = Bound::counting(1, C104_LINKS as u64, "");

impl Kind for Dragonfly {
    fn name(&self) -> &'static str {
        "dragonfly"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Dragonfly(_))
    }

    fn multipath(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Dragonfly(n) if n.routing != RoutingMode::Deterministic)
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.a" => Some(format!(
                "{}, while p + local_sets·(a − 1) + h links fit a C104's {C104_LINKS}",
                COUNTS.takes()
            )),
            "network.p" => Some(COUNTS.takes()),
            "network.h" => Some(format!(
                "{}, with (a·h + 1)·a·p terminals at most {}",
                COUNTS.takes(),
                max_kary_switches()
            )),
            "network.local_sets" => Some("1 or 2".into()),
            "network.routing" => Some(routings(CUBE_ROUTING)),
            _ => None,
        }
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::Dragonfly(DragonflyNetwork {
            a,
            p,
            h,
            local_sets,
            routing,
        }) = *net
        else {
            return Err(topo_err("network.kind", "not a dragonfly"));
        };
        only("network.routing", routing, CUBE_ROUTING)?;
        for (key, v) in [("network.a", a), ("network.p", p), ("network.h", h)] {
            within(key, COUNTS, v, "", "")?;
        }
        let sets = local_sets.unwrap_or(2);
        if !(1..=2).contains(&sets) {
            return Err(topo_err(
                "network.local_sets",
                format!(
                    "{sets}: give 1 (one set of local links) or 2 (before and after the global hop)"
                ),
            ));
        }
        let fly = Fly {
            a,
            p,
            h,
            sets,
            universal: routing == RoutingMode::Universal,
        };
        if fly.ports() > C104_LINKS {
            return Err(topo_err(
                "network.h",
                format!(
                    "a switch needs {} links (p terminals, {} × (a − 1) local, {} × h global), and a C104 has {C104_LINKS}",
                    fly.ports(),
                    fly.local_sets(),
                    fly.global_sets()
                ),
            ));
        }
        let terminals = u64::from(fly.groups()) * u64::from(a) * u64::from(p);
        if terminals > u64::from(MAX_KARY_SWITCHES) {
            return Err(topo_err(
                "network.h",
                format!(
                    "{} groups of {a} switches of {p} terminals: {terminals} terminals, at most {MAX_KARY_SWITCHES} (2-byte headers)",
                    fly.groups()
                ),
            ));
        }
        Ok(Shape {
            layout: Box::new(fly),
            // The systematic pattern: the block move of a ring of all the terminals,
            // every terminal to the one half-way round, so every group sends all its
            // traffic to the group half-way round, over one global link.
            family: Family::Kary {
                k: fly.terminals(),
                n: 1,
            },
            terminals: fly.terminals(),
            labels: fly.labels(),
        })
    }
}

impl Fly {
    /// Groups: `a·h + 1`, one global link between every pair.
    fn groups(&self) -> u32 {
        self.a * self.h + 1
    }

    /// Two journeys on links of their own (universal routing, `local_sets = 2`).
    fn split(&self) -> bool {
        self.universal && self.sets == 2
    }

    /// Sets of local links: `local_sets`, or 3 for two journeys of their own.
    fn local_sets(&self) -> u32 {
        if self.split() { 3 } else { self.sets }
    }

    /// Sets of global links: 1, or 2 for two journeys of their own.
    fn global_sets(&self) -> u32 {
        if self.split() { 2 } else { 1 }
    }

    /// Links a switch uses.
    fn ports(&self) -> u32 {
        self.p + self.local_sets() * (self.a - 1) + self.global_sets() * self.h
    }

    /// The local set before and after the global hop and the global set of a journey
    /// to a terminal (`random`: of a first journey, to a random group).
    fn sets_of(&self, random: bool) -> (u32, u32, u32) {
        match (self.split(), random) {
            (true, true) => (0, 0, 0),
            (true, false) => (1, 1, 2),
            (false, _) => (0, 0, self.sets - 1),
        }
    }

    fn terminals(&self) -> u32 {
        self.groups() * self.a * self.p
    }

    fn labels(&self) -> u32 {
        self.terminals() + if self.universal { self.groups() } else { 0 }
    }

    /// The local port of switch `s` to switch `to` of its group, in local set `set`.
    fn local(&self, s: u32, to: u32, set: u32) -> usize {
        let idx = if to < s { to } else { to - 1 };
        (self.p + set * (self.a - 1) + idx) as usize
    }

    /// Global port `k` of a switch, in global set `set`.
    fn global(&self, k: u32, set: u32) -> usize {
        (self.p + self.local_sets() * (self.a - 1) + set * self.h + k) as usize
    }

    /// The global link of group `g` to group `d` (≠ `g`): (switch, global port).
    fn exit(&self, g: u32, d: u32) -> (u32, u32) {
        let n = self.groups();
        let j = (d + n - g - 1) % n;
        (j / self.h, j % self.h)
    }

    /// Where switch `s` of group `g` sends a packet for group `d` (≠ `g`), before its
    /// global hop, on local set `local` and global set `global`.
    fn towards(&self, g: u32, s: u32, d: u32, (local, global, _): (u32, u32, u32)) -> RouteAction {
        let (owner, k) = self.exit(g, d);
        if owner == s {
            RouteAction::Output(self.global(k, global))
        } else {
            RouteAction::Output(self.local(s, owner, local))
        }
    }

    /// The interval table of switch `s` of group `g`.
    fn table(&self, g: u32, s: u32) -> IntervalTable {
        let (a, p) = (self.a, self.p);
        let span = a * p;
        let journey = self.sets_of(false);
        let mut pieces = Vec::new();
        for d in 0..self.groups() {
            if d == g {
                for ds in 0..a {
                    let lo = d * span + ds * p;
                    if ds == s {
                        for i in 0..p {
                            pieces.push((lo + i, lo + i + 1, RouteAction::Output(i as usize)));
                        }
                    } else {
                        let port = self.local(s, ds, journey.2);
                        pieces.push((lo, lo + p, RouteAction::Output(port)));
                    }
                }
            } else {
                pieces.push((d * span, (d + 1) * span, self.towards(g, s, d, journey)));
            }
        }
        if self.universal {
            let n = self.terminals();
            for r in 0..self.groups() {
                let action = if r == g {
                    RouteAction::Delete
                } else {
                    self.towards(g, s, r, self.sets_of(true))
                };
                pieces.push((n + r, n + r + 1, action));
            }
        }
        table::from_pieces(pieces)
    }

    fn node(&self, g: u32, s: u32) -> usize {
        (g * self.a + s) as usize
    }
}

impl Layout for Fly {
    fn build(&self, parts: &mut Parts, _tables: Vec<IntervalTable>) -> usize {
        let (a, p) = (self.a, self.p);
        let ports = self.ports() as usize;
        let random = (self.terminals(), self.labels());
        for g in 0..self.groups() {
            for s in 0..a {
                let name = format!("group{g}[{s}]");
                if self.universal {
                    parts.generating_switch(
                        name,
                        ports,
                        || self.table(g, s),
                        0..p as usize,
                        random,
                    );
                } else {
                    parts.switch(name, ports, || self.table(g, s));
                }
            }
        }
        for t in 0..self.terminals() {
            let node = parts.processor(t);
            parts.link((t / p) as usize, (t % p) as usize, node, 0);
        }
        for g in 0..self.groups() {
            for s in 0..a {
                for to in s + 1..a {
                    for set in 0..self.local_sets() {
                        parts.link(
                            self.node(g, s),
                            self.local(s, to, set),
                            self.node(g, to),
                            self.local(to, s, set),
                        );
                    }
                }
            }
            for d in g + 1..self.groups() {
                let (s, k) = self.exit(g, d);
                let (t, m) = self.exit(d, g);
                for set in 0..self.global_sets() {
                    parts.link(
                        self.node(g, s),
                        self.global(k, set),
                        self.node(d, t),
                        self.global(m, set),
                    );
                }
            }
        }
        (self.groups() * a) as usize
    }

    fn geometry(&self) -> Geometry {
        Geometry::Free
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Follows `label` from switch `s` of group `g`; the terminal reached and the hops.
    fn walk(f: &Fly, mut g: u32, mut s: u32, mut label: u32, dest: u32) -> (u32, usize) {
        let mut hops = 0;
        loop {
            hops += 1;
            assert!(hops <= 8, "a loop");
            let port = match f.table(g, s).lookup(label).expect("every label routes") {
                RouteAction::Delete => {
                    label = dest;
                    continue;
                }
                RouteAction::Output(port) => port as u32,
                RouteAction::Group { .. } => panic!("no groups"),
            };
            if port < f.p {
                return ((g * f.a + s) * f.p + port, hops);
            }
            let local_end = f.p + f.local_sets() * (f.a - 1);
            if port < local_end {
                let idx = (port - f.p) % (f.a - 1);
                s = if idx < s { idx } else { idx + 1 };
            } else {
                let k = (port - local_end) % f.h;
                let d = (0..f.groups())
                    .find(|&d| d != g && f.exit(g, d) == (s, k))
                    .expect("a global link");
                s = f.exit(d, g).0;
                g = d;
            }
        }
    }

    #[test]
    fn every_label_reaches_its_terminal_in_at_most_local_global_local() {
        for (a, p, h) in [(1, 1, 1), (2, 1, 1), (4, 2, 2), (3, 2, 1)] {
            for universal in [false, true] {
                for sets in [1, 2] {
                    let f = Fly {
                        a,
                        p,
                        h,
                        sets,
                        universal,
                    };
                    for src in 0..f.terminals() {
                        let (g, s) = (src / (a * p), (src / p) % a);
                        for dest in 0..f.terminals() {
                            if universal {
                                for r in f.terminals()..f.labels() {
                                    assert_eq!(walk(&f, g, s, r, dest).0, dest);
                                }
                            } else {
                                let (got, hops) = walk(&f, g, s, dest, dest);
                                assert_eq!(got, dest, "{src}→{dest}");
                                assert!(hops <= 4, "{src}→{dest}: {hops} steps");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_pair_of_groups_has_one_global_link_and_no_port_is_used_twice() {
        let f = Fly {
            a: 4,
            p: 2,
            h: 2,
            sets: 2,
            universal: false,
        };
        let mut ends = std::collections::BTreeSet::new();
        for g in 0..f.groups() {
            for d in 0..f.groups() {
                if d != g {
                    assert!(ends.insert((g, f.exit(g, d))), "{g}→{d}");
                }
            }
        }
        assert_eq!(ends.len() as u32, f.groups() * f.a * f.h);
    }
}
