//! Splits a network into partitions for the sharded engine so that few links cross
//! between them (docs/architecture.md "The engine contract": "channels only between
//! partitions").
//!
//! The rule is deliberately simple and generic: the *hub* nodes (switches: every node
//! that is not a lone leaf hanging off another node) are cut into equal contiguous runs
//! in node-id order, and every leaf (a terminal's processor, with its single link)
//! joins the part of the node it hangs off. The builders number switches so that
//! contiguous ids are close in the network: on a binary n-cube a contiguous run of
//! 2^k switches is a k-dimensional sub-cube, so with 2^p parts only the links of the
//! top p dimensions cross; on a ring a run is an arc (two links cross per part).

use crate::model::LinkProtocol;
use crate::network::{Network, NodeId};

/// The part (0..parts) of every node, and the number of parts actually used (at most
/// the number of hubs, at least 1).
pub fn partition<P: LinkProtocol>(net: &Network<P>, parts: usize) -> (Vec<usize>, usize) {
    let n = net.nodes().len();
    let mut degree = vec![0usize; n];
    let mut neighbour: Vec<Option<NodeId>> = vec![None; n];
    for l in net.links() {
        degree[l.a.node] += 1;
        degree[l.b.node] += 1;
        neighbour[l.a.node] = Some(l.b.node);
        neighbour[l.b.node] = Some(l.a.node);
    }
    let leaf_of = |v: NodeId| -> Option<NodeId> {
        let u = neighbour[v]?;
        (degree[v] == 1 && degree[u] > 1).then_some(u)
    };
    let hubs: Vec<NodeId> = (0..n).filter(|&v| leaf_of(v).is_none()).collect();
    let parts = parts.clamp(1, hubs.len().max(1));
    let mut part = vec![0usize; n];
    for (k, &h) in hubs.iter().enumerate() {
        part[h] = k * parts / hubs.len();
    }
    for v in 0..n {
        if let Some(u) = leaf_of(v) {
            part[v] = part[u];
        }
    }
    (part, parts)
}

/// The fewest nodes a part needs for its own thread to pay. Every window costs each
/// thread two synchronisations, and a node runs at most once in a window, so a part
/// of a few nodes has too little work per window to cover them. Measured on the
/// project's 2-core machine on 2026-11-26 (docs/architecture.md "The sharded engine:
/// partition rule, shards and phases"; BENCHMARKS.md "Default threads on a quiet and a
/// busy machine"): on a quiet machine an SCI ring of 16 nodes ran 1.07× slower on two
/// threads than on one and of 32 nodes equally fast; with
/// another process busy beside it, the 70-node min64 ran 1.11-1.21x slower on two
/// threads, while every network of 128 nodes or more ran within 5 % of one thread or
/// faster.
pub const MIN_NODES_PER_PART: usize = 64;

/// The number of threads worth running `net` on when `cores` are available: at most
/// one per [`MIN_NODES_PER_PART`] nodes, at most one per hub (what [`partition`]
/// can use), at least 1.
pub fn useful_threads<P: LinkProtocol>(net: &Network<P>, cores: usize) -> usize {
    let hubs = partition(net, usize::MAX).1;
    cores
        .min(net.nodes().len() / MIN_NODES_PER_PART)
        .min(hubs)
        .max(1)
}

/// Number of links whose two ends are in different parts.
pub fn crossing_links<P: LinkProtocol>(net: &Network<P>, part: &[usize]) -> usize {
    net.links()
        .iter()
        .filter(|l| part[l.a.node] != part[l.b.node])
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::load_traffic;
    use crate::family::load_topology;

    fn net(topology: &str) -> Network {
        let t = load_topology(topology, &[]).expect("shipped topology");
        let p = load_traffic("uniform", &[]).expect("shipped traffic");
        crate::network::build(topology, &t.config, &p.config, 1).expect("builds")
    }

    #[test]
    fn small_networks_get_one_thread_and_large_ones_one_per_core() {
        // An SCI ring of 4 or 16 nodes: one thread, whatever the cores.
        for ring in ["sci-ring4", "sci-ring16"] {
            let t = load_topology(ring, &[]).expect("shipped topology");
            let p = load_traffic("sci-uniform", &[]).expect("shipped traffic");
            let n = crate::network::sci_ring_from_config(ring, &t.config, &p.config, 1)
                .expect("builds");
            assert_eq!(useful_threads(&n, 8), 1, "{ring}");
        }
        // A 64-switch cube with its 64 terminals: up to 2 threads.
        let cube = net("hypercube6");
        assert_eq!(useful_threads(&cube, 2), 2);
        assert_eq!(useful_threads(&cube, 64), 2);
        assert_eq!(useful_threads(&cube, 1), 1);
        // A 1,024-switch cube: one per core.
        assert_eq!(useful_threads(&net("hypercube10"), 8), 8);
        // The 64-way MIN's 70 nodes: one.
        assert_eq!(useful_threads(&net("min64"), 8), 1);
    }

    #[test]
    fn hypercube_parts_are_subcubes_and_terminals_stay_with_their_switch() {
        let n = net("hypercube6");
        let (part, used) = partition(&n, 4);
        assert_eq!(used, 4);
        // 64 switches in 4 sub-cubes of 16: only dimensions 4 and 5 cross.
        for (s, &p) in part.iter().take(64).enumerate() {
            assert_eq!(p, s / 16);
        }
        for &p in n.terminals() {
            let l = n
                .links()
                .iter()
                .find(|l| l.a.node == p || l.b.node == p)
                .unwrap();
            assert_eq!(part[l.a.node], part[l.b.node]);
        }
        // 2 crossing dimensions × 32 links each.
        assert_eq!(crossing_links(&n, &part), 64);
    }

    #[test]
    fn one_part_has_no_crossing_and_parts_never_exceed_switches() {
        let n = net("ring4");
        let (part, used) = partition(&n, 1);
        assert_eq!(used, 1);
        assert_eq!(crossing_links(&n, &part), 0);
        let (_, used) = partition(&n, 64);
        assert_eq!(used, 4);
    }
}
