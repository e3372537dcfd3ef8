//! The channel dependency graph (CDG) of a built network's routing function, and one
//! cycle of it if it has one (docs/architecture.md "Deadlock": `emu check` proves or
//! refutes deadlock freedom statically).
//!
//! A *channel* is a link direction, numbered as [`Network::directions`]. Virtual lanes
//! and link sets are separate physical links in these C104 networks (the doubled torus
//! rings, the two cubes of universal routing, the extra x links of the universal
//! grid), so they are separate channels without further ado. A *dependency* c1 → c2
//! exists when a packet that arrives at a switch on c1 can be routed out on c2. With
//! wormhole routing a packet holds c1 while it waits for c2, so a cycle of
//! dependencies is a set of channels that packets can hold while each waits for the
//! next: deadlock is possible. No cycle, no deadlock (Dally and Seitz's condition;
//! INMOS ch. 7 §7.3.2 states the consequence for the torus: the
//! wrap-around links "must be doubled to avoid the possibility of deadlock").
//!
//! The headers are followed the way the C104 model ([`crate::parts::c104`]) and the
//! table walker ([`crate::network::walk`]) follow them (INMOS ch. 7 §7.1: interval labelling;
//! "All routing, header creation and deletion is performed on a per link basis"):
//!
//! - a switch looks the top header up in its interval table;
//! - [`RouteAction::Delete`] discards the header and routes the packet again, at the
//!   same switch, on the header underneath;
//! - an input link that generates random headers prepends a label from its range: the
//!   closure branches over the whole range;
//! - [`RouteAction::Group`] may take any output of the group: it branches over all;
//! - a terminal (T9000) always accepts what arrives for it (the VCP model consumes
//!   every token it receives and queues its acknowledges, [`crate::parts::t9000::vcp`]), so
//!   the channels into terminals depend on nothing.
//!
//! The closure runs over states (channel, top label, whether a random header is on
//! top), each visited once (a bitset per channel and kind). Every terminal injects
//! every terminal label. Under a random header the original destination is "any
//! terminal": the C104 generates the random header whatever the packet's destination,
//! so once it is deleted, every terminal label continues from that switch input. The
//! state space is therefore exact for the shipped families, where random headers are
//! generated only on terminal links; a packet that would arrive at a generating link
//! with a random header already on top is reported as unsupported rather than
//! approximated.

use crate::model::{LinkProtocol, PortId};
use crate::network::{Direction, End, Network, PortWires};
use crate::routing::{RouteAction, Routing};

/// Index of a channel: a link direction in [`Network::directions`] order.
pub type Channel = usize;

/// Most state bits (channels × labels × 2) the closure may allocate: 2^31 bits,
/// 256 MiB. hypercube10-universal needs 22,528 × 2,048 × 2 ≈ 2^26.5.
const MAX_STATE_BITS: u64 = 1 << 31;

/// Why the dependency graph of a network could not be built: its tables route some
/// header nowhere, or in a way this analysis does not model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CdgError(pub String);

/// The header that makes a dependency: the top label a packet carries when it arrives
/// on the first channel and is routed to the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Witness {
    /// The header label.
    pub label: u32,
    /// True if it is a random (intermediate) label, false if it is the destination.
    pub random: bool,
}

/// The channel dependency graph of one network.
#[derive(Clone, Debug)]
pub struct Cdg {
    /// Every channel, indexed by [`Channel`].
    pub channels: Vec<Direction>,
    /// For each channel, the channels it depends on, ascending, each with the header
    /// that first made the dependency in the closure.
    succ: Vec<Vec<(Channel, Witness)>>,
}

/// Bitsets of labels, one row of `words` 64-bit words per channel.
struct Rows {
    words: usize,
    bits: Vec<u64>,
}

impl Rows {
    fn new(rows: usize, labels: u32) -> Rows {
        let words = (labels as usize).div_ceil(64);
        Rows {
            words,
            bits: vec![0; rows * words],
        }
    }

    /// Sets bit `label` of row `c`; true if it was clear.
    fn insert(&mut self, c: Channel, label: u32) -> bool {
        let w = c * self.words + label as usize / 64;
        let m = 1u64 << (label % 64);
        let new = self.bits[w] & m == 0;
        self.bits[w] |= m;
        new
    }
}

/// The forward closure over (channel, label, random) states.
struct Closure<'a, P: LinkProtocol> {
    net: &'a Network<P>,
    dirs: &'a [Direction],
    ports: Vec<Vec<PortWires>>,
    /// Label of the terminal each node hosts.
    terminal_of: Vec<Option<u32>>,
    terminals: u32,
    labels: u32,
    /// Visited states: destination labels, random labels.
    seen: [Rows; 2],
    /// Channels whose random headers have been generated / whose deleted random
    /// header has been expanded to every terminal label.
    generated: Vec<bool>,
    expanded: Vec<bool>,
    /// Per channel, the output ports of its receiving switch it depends on, and the
    /// first header seen for each.
    deps: Vec<u64>,
    witness: Vec<Vec<(PortId, Witness)>>,
    stack: Vec<(Channel, u32, bool)>,
}

impl<P: LinkProtocol> Closure<'_, P> {
    fn name(&self, e: End) -> String {
        format!("{} port {}", self.net.nodes()[e.node].name, e.port)
    }

    /// The error for a packet reaching a part that forwards without a routing view.
    fn opaque(&self, e: End) -> CdgError {
        CdgError(format!(
            "a packet reaches {}, a {} that forwards packets but offers no routing view: \
             emu check cannot follow packets through it, so it cannot say whether the network is deadlock-free",
            self.name(e),
            self.net.nodes()[e.node].part.kind()
        ))
    }

    fn push(&mut self, c: Channel, label: u32, random: bool) -> Result<(), CdgError> {
        if label >= self.labels {
            return Err(CdgError(format!(
                "{}: label {label} is beyond the {} labels the network's tables use",
                self.name(self.dirs[c].to),
                self.labels
            )));
        }
        if self.seen[usize::from(random)].insert(c, label) {
            self.stack.push((c, label, random));
        }
        Ok(())
    }

    /// A packet with top header `label` arrives at the receiving end of `c`.
    fn arrive(&mut self, c: Channel, label: u32, random: bool) -> Result<(), CdgError> {
        let to = self.dirs[c].to;
        match self.net.nodes()[to.node].part.routing() {
            Routing::Opaque => Err(self.opaque(to)),
            Routing::Sink => {
                let own = self.terminal_of[to.node];
                if random || own != Some(label) {
                    let what = if random { "random label" } else { "label" };
                    return Err(CdgError(format!(
                        "a packet with {what} {label} on top reaches {}, which is terminal {}",
                        self.name(to),
                        own.map_or("?".into(), |t| t.to_string())
                    )));
                }
                Ok(())
            }
            Routing::Labels(p) => match p.generates(to.port) {
                None => self.push(c, label, random),
                Some(_) if random => Err(CdgError(format!(
                    "{} generates random headers, and a packet can arrive there with random \
                     label {label} already on top: nested random headers are not modelled by emu check",
                    self.name(to)
                ))),
                Some((lo, hi)) => {
                    if !self.generated[c] {
                        self.generated[c] = true;
                        for r in lo..hi {
                            self.push(c, r, true)?;
                        }
                    }
                    Ok(())
                }
            },
        }
    }

    /// Routes state (c, label, random) at the switch `c` arrives at.
    fn route(&mut self, c: Channel, label: u32, random: bool) -> Result<(), CdgError> {
        let at = self.dirs[c].to;
        let p = match self.net.nodes()[at.node].part.routing() {
            Routing::Labels(p) => p,
            // `arrive` pushes no state for a sink and fails on an opaque part.
            Routing::Sink => return Ok(()),
            Routing::Opaque => return Err(self.opaque(at)),
        };
        let action = p.lookup(label).ok_or_else(|| {
            CdgError(format!(
                "{}: no interval of the routing table contains header {label}",
                self.name(at)
            ))
        })?;
        let (first, count) = match action {
            RouteAction::Delete => {
                if !random {
                    return Err(CdgError(format!(
                        "{} deletes header {label}, the packet's destination: no header is left",
                        self.name(at)
                    )));
                }
                if !self.expanded[c] {
                    self.expanded[c] = true;
                    for d in 0..self.terminals {
                        self.push(c, d, false)?;
                    }
                }
                return Ok(());
            }
            RouteAction::Output(o) => (o, 1),
            RouteAction::Group { first, count } => (first, count),
        };
        for o in first..first + count {
            let next = self
                .ports
                .get(at.node)
                .and_then(|ps| ps.get(o))
                .and_then(|w| w.out)
                .ok_or_else(|| {
                    CdgError(format!(
                        "{} routes header {label} to port {o}, which is not linked",
                        self.name(at)
                    ))
                })?;
            if o >= 64 {
                return Err(CdgError(format!("{}: port {o} ≥ 64", self.name(at))));
            }
            if self.deps[c] & (1 << o) == 0 {
                self.deps[c] |= 1 << o;
                self.witness[c].push((o, Witness { label, random }));
            }
            self.arrive(next, label, random)?;
        }
        Ok(())
    }
}

impl Cdg {
    /// Builds the dependency graph of `net`'s routing tables by following every
    /// terminal's every destination through them (see the module documentation).
    pub fn build<P: LinkProtocol>(net: &Network<P>) -> Result<Cdg, CdgError> {
        let dirs = net.directions();
        let terminals = net.terminal_count() as u32;
        let mut labels = terminals;
        for n in net.nodes() {
            if let Routing::Labels(p) = n.part.routing() {
                for (_, hi) in p.generated_ranges() {
                    labels = labels.max(hi);
                }
            }
        }
        let bits = dirs.len() as u64 * u64::from(labels) * 2;
        if bits > MAX_STATE_BITS {
            return Err(CdgError(format!(
                "{} channels × {labels} labels is too large for emu check (at most 2^31 states; \
                 hypercube10 and min1024 fit)",
                dirs.len()
            )));
        }
        let mut terminal_of = vec![None; net.nodes().len()];
        for (label, &node) in net.terminals().iter().enumerate() {
            terminal_of[node] = Some(label as u32);
        }
        let mut cl = Closure {
            net,
            dirs: &dirs,
            ports: net.port_map(),
            terminal_of,
            terminals,
            labels,
            seen: [Rows::new(dirs.len(), labels), Rows::new(dirs.len(), labels)],
            generated: vec![false; dirs.len()],
            expanded: vec![false; dirs.len()],
            deps: vec![0; dirs.len()],
            witness: vec![Vec::new(); dirs.len()],
            stack: Vec::new(),
        };
        for &node in net.terminals() {
            let inject = cl.ports[node]
                .first()
                .and_then(|w| w.out)
                .ok_or_else(|| CdgError(format!("{} is not linked", net.nodes()[node].name)))?;
            for d in 0..terminals {
                cl.arrive(inject, d, false)?;
                while let Some((c, l, r)) = cl.stack.pop() {
                    cl.route(c, l, r)?;
                }
            }
        }
        let succ = cl
            .witness
            .iter()
            .enumerate()
            .map(|(c, ws)| {
                let at = dirs[c].to.node;
                let mut v: Vec<(Channel, Witness)> = ws
                    .iter()
                    .filter_map(|&(o, w)| cl.ports[at][o].out.map(|n| (n, w)))
                    .collect();
                v.sort_by_key(|&(n, _)| n);
                v
            })
            .collect();
        Ok(Cdg {
            channels: dirs,
            succ,
        })
    }

    /// Number of dependencies (edges).
    pub fn dependencies(&self) -> usize {
        self.succ.iter().map(Vec::len).sum()
    }

    /// The channels `c` depends on, ascending, each with the header that makes it.
    pub fn successors(&self, c: Channel) -> &[(Channel, Witness)] {
        &self.succ[c]
    }

    /// True if a packet arriving on `a` can be routed out on `b`.
    pub fn depends(&self, a: Channel, b: Channel) -> bool {
        self.succ[a].binary_search_by_key(&b, |&(n, _)| n).is_ok()
    }

    /// The channel from `from` to `to`, if the network has that link direction.
    pub fn channel(&self, from: End, to: End) -> Option<Channel> {
        self.channels
            .iter()
            .position(|d| d.from == from && d.to == to)
    }

    /// One cycle of the graph, or `None` if it is acyclic. Deterministic: the cycle
    /// goes through the lowest-numbered channel that lies on any cycle, and is a
    /// shortest cycle through it (breadth first, successors in ascending order),
    /// starting there.
    pub fn find_cycle(&self) -> Option<Vec<Channel>> {
        let cyclic = self.cyclic_channels();
        let start = cyclic.iter().position(|&b| b)?;
        // Breadth first from `start` until an edge returns to it.
        let n = self.channels.len();
        let mut parent = vec![usize::MAX; n];
        let mut queue = std::collections::VecDeque::from([start]);
        parent[start] = start;
        while let Some(c) = queue.pop_front() {
            for &(next, _) in &self.succ[c] {
                if next == start {
                    let mut cycle = vec![c];
                    let mut at = c;
                    while at != start {
                        at = parent[at];
                        cycle.push(at);
                    }
                    cycle.reverse();
                    return Some(cycle);
                }
                if parent[next] == usize::MAX && cyclic[next] {
                    parent[next] = c;
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// For each channel, whether it lies on a cycle: it is in a strongly connected
    /// component of more than one channel, or depends on itself (Tarjan's algorithm,
    /// iterative).
    fn cyclic_channels(&self) -> Vec<bool> {
        let n = self.channels.len();
        const NONE: usize = usize::MAX;
        let mut index = vec![NONE; n];
        let mut low = vec![0; n];
        let mut on_stack = vec![false; n];
        let mut stack = Vec::new();
        let mut cyclic = vec![false; n];
        let mut next_index = 0;
        // Call frames: (channel, position in its successor list).
        let mut frames: Vec<(usize, usize)> = Vec::new();
        for root in 0..n {
            if index[root] != NONE {
                continue;
            }
            frames.push((root, 0));
            index[root] = next_index;
            low[root] = next_index;
            next_index += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&(v, k)) = frames.last() {
                if let Some(&(w, _)) = self.succ[v].get(k) {
                    if let Some(f) = frames.last_mut() {
                        f.1 += 1;
                    }
                    if w == v {
                        cyclic[v] = true;
                    }
                    if index[w] == NONE {
                        index[w] = next_index;
                        low[w] = next_index;
                        next_index += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        frames.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                frames.pop();
                if let Some(&(u, _)) = frames.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if component.len() > 1 {
                        for w in component {
                            cyclic[w] = true;
                        }
                    }
                }
            }
        }
        cyclic
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::TrafficConfig;
    use crate::model::Node;
    use crate::network::TopologyConfig;
    use crate::network::build;
    use crate::parts::Part;
    use crate::parts::c104::C104Params;
    use crate::parts::dslink::{DsLink, LinkParams};
    use crate::routing::{IntervalTable, LabelRouting};
    use std::sync::Arc;

    /// A C104 with `ports` links routed by `table` (only its routing matters here).
    fn switch(ports: usize, table: IntervalTable) -> C104Params {
        C104Params {
            ports,
            link: LinkParams::default(),
            header_bytes: 1,
            routing_delay: 0,
            output_buffer: 1,
            routing: LabelRouting::new(Arc::new(table), ports),
            seed: 0,
        }
    }

    /// A switch that forwards packets but shows no routing view.
    #[derive(Debug)]
    struct Opaque(C104Params);

    impl Part<DsLink> for Opaque {
        fn kind(&self) -> &'static str {
            "mystery switch"
        }
        fn ports(&self) -> usize {
            self.0.ports
        }
        fn receive_capacity(&self, port: PortId) -> usize {
            self.0.receive_capacity(port)
        }
        fn instantiate(&self) -> Box<dyn Node<DsLink>> {
            self.0.instantiate()
        }
        fn routing(&self) -> Routing<'_> {
            Routing::Opaque
        }
        fn memory_bound(&self, fill: crate::memory::Fill) -> u64 {
            self.0.memory_bound(fill)
        }
    }

    #[test]
    fn a_switch_without_a_routing_view_is_an_error_never_acyclic() {
        let mut n = net("kind = \"grid\"\nside = 2");
        let table = crate::routing::table::from_fn(4, |_| RouteAction::Output(0));
        let ports = n.nodes()[3].ports();
        n.replace_part(3, Arc::new(Opaque(switch(ports, table))));
        let e = Cdg::build(&n).expect_err("an opaque switch cannot be analysed");
        assert!(
            e.0.contains("c104[3] port") && e.0.contains("mystery switch"),
            "{e}"
        );
        assert!(e.0.contains("offers no routing view"), "{e}");
    }

    fn net(network: &str) -> Network {
        let t: TopologyConfig = toml::from_str(&format!("[network]\n{network}\n")).expect("topo");
        let f: TrafficConfig =
            toml::from_str("[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"continuous\"\n")
                .expect("traffic");
        build("x", &t, &f, 1).expect("builds")
    }

    #[test]
    fn a_clockwise_ring_has_the_ring_as_its_cycle() {
        let n = net("kind = \"ring\"\nswitches = 4");
        let g = Cdg::build(&n).expect("cdg");
        let cycle = g.find_cycle().expect("cycle");
        assert_eq!(cycle.len(), 4);
        for (i, &c) in cycle.iter().enumerate() {
            let next = cycle[(i + 1) % cycle.len()];
            assert!(g.depends(c, next));
            let d = g.channels[c];
            assert_eq!(d.to.node, (d.from.node + 1) % 4, "clockwise");
        }
    }

    #[test]
    fn a_crossbar_has_one_dependency_per_input_output_pair_and_no_cycle() {
        let n = net("kind = \"crossbar\"\nterminals = 5");
        let g = Cdg::build(&n).expect("cdg");
        assert_eq!(g.channels.len(), 10);
        assert_eq!(
            g.dependencies(),
            25,
            "every terminal reaches every terminal"
        );
        assert_eq!(g.find_cycle(), None);
    }

    #[test]
    fn e_cube_depends_only_downwards_in_dimension() {
        let n = net("kind = \"hypercube\"\ndimensions = 3");
        let g = Cdg::build(&n).expect("cdg");
        assert_eq!(g.find_cycle(), None);
        // A dimension-2 link into a switch can be followed by dimensions 1, 0 or the
        // terminal, never by dimension 2 again.
        for (c, d) in g.channels.iter().enumerate() {
            if d.from.node < 8 && d.to.node < 8 {
                for &(next, _) in g.successors(c) {
                    let p = g.channels[next].from.port;
                    assert!(p == 3 || p < d.to.port, "{c} → {next}");
                }
            }
        }
    }

    #[test]
    fn a_table_that_routes_to_an_unlinked_port_or_deletes_a_destination_is_an_error() {
        let mut n = net("kind = \"grid\"\nside = 2");
        // Switch 0 is at x 0, y 0: its -x link (port 2) is an unused edge link.
        let set = |n: &mut Network, action: RouteAction| {
            let table = crate::routing::table::from_fn(4, |_| action);
            let ports = n.nodes()[0].ports();
            n.replace_part(0, Arc::new(switch(ports, table)));
        };
        set(&mut n, RouteAction::Output(2));
        let e = Cdg::build(&n).expect_err("unlinked port");
        assert!(
            e.0.contains("c104[0] port 0") && e.0.contains("port 2"),
            "{e}"
        );
        assert!(e.0.contains("not linked"), "{e}");
        set(&mut n, RouteAction::Delete);
        let e = Cdg::build(&n).expect_err("deleted destination");
        assert!(e.0.contains("no header is left"), "{e}");
    }

    #[test]
    fn a_hand_made_cycle_is_found_and_a_chain_is_not() {
        // Cdg with explicit edges: 0 → 1 → 2 → 1, 3 → 3.
        let dir = |i: usize| Direction {
            from: End { node: i, port: 0 },
            to: End {
                node: i + 1,
                port: 0,
            },
            latency: 1,
            capacity: 1,
        };
        let w = Witness {
            label: 0,
            random: false,
        };
        let mut g = Cdg {
            channels: (0..4).map(dir).collect(),
            succ: vec![vec![(1, w)], vec![(2, w)], vec![(1, w)], vec![]],
        };
        assert_eq!(g.find_cycle(), Some(vec![1, 2]));
        g.succ[2].clear();
        assert_eq!(g.find_cycle(), None);
        g.succ[3].push((3, w));
        assert_eq!(g.find_cycle(), Some(vec![3]));
    }
}
