//! The topology kinds of the C104 family, one file each: a kind validates its
//! `[network]` table into a checked `Layout` with its terminal and label counts
//! (`Shape`), builds the plan from it, says how it is drawn and which systematic
//! pattern it has. `KINDS`
//! is the one registry: the family table (`family::c104`) and the guide read the kind
//! names from it.
//!
//! Adding a kind of C104 network: a file here implementing `Kind` (and `Layout` for
//! its checked parameters), one row in `KINDS`, and, in the configuration layer (which
//! words type errors before any kind is asked), the variant of [`NetworkConfig`] its
//! `[network]` table deserializes into, its `Bound`s (`config::limits`) and its rows
//! in the reference table (`config::bounds`). Its shipped topology file needs no row:
//! emu-core's build script embeds every file of `topologies/`.

use super::build::{BuildError, Parts, topo_err};
use super::pattern::Family;
use crate::config::limits::Bound;
use crate::config::topology::{NetworkConfig, RoutingMode};
use crate::routing::IntervalTable;
use std::sync::LazyLock;

mod crossbar;
mod dragonfly;
mod fat_tree;
mod flattened_butterfly;
mod grid;
mod hypercube;
mod kary_ncube;
mod min;
mod netlist;
mod ring;
mod torus;

pub(super) use crate::config::limits::C104_LINKS;

/// One kind of network of C104s (`network.kind`), see the module documentation.
pub(super) trait Kind: Sync {
    /// The name a topology file gives it (`kind = "..."`).
    fn name(&self) -> &'static str;
    /// Whether `net` is a `[network]` table of this kind.
    fn owns(&self, net: &NetworkConfig) -> bool;
    /// Checks `net` (a table this kind [`Kind::owns`]) and says how many terminals and
    /// labels it has; every error names its key.
    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError>;
}

/// The checked parameters of one network: what [`Kind::validate`] makes and the
/// builder consumes without checking again.
pub(super) trait Layout: std::fmt::Debug + Send + Sync {
    /// Routing tables that can fail, with the warnings they give: a netlist's, given
    /// or computed, walked for every source and destination. Empty (the default) for
    /// a kind whose tables [`Layout::build`] makes as it places each switch.
    fn tables(&self) -> Result<(Vec<IntervalTable>, Vec<String>), BuildError> {
        Ok((Vec::new(), Vec::new()))
    }
    /// Adds the nodes and links, the switches routed by `tables` if [`Layout::tables`]
    /// made any; returns the switch count (the switches are nodes `0..count`).
    fn build(&self, parts: &mut Parts, tables: Vec<IntervalTable>) -> usize;
    /// Where the nodes sit when drawn.
    fn geometry(&self) -> super::Geometry;
}

/// What a validated network configuration amounts to.
#[derive(Debug)]
pub(super) struct Shape {
    /// The kind's checked parameters.
    pub layout: Box<dyn Layout>,
    /// The family, for resolving traffic patterns.
    pub family: Family,
    /// Number of terminals.
    pub terminals: u32,
    /// Header labels the routing tables use (terminals, plus random labels).
    pub labels: u32,
}

/// Every kind of network of C104s, in the order `emu list` and the guide give them.
pub(super) static KINDS: &[&dyn Kind] = &[
    &hypercube::Hypercube,
    &ring::Ring,
    &grid::Grid,
    &torus::Torus,
    &kary_ncube::KaryNcube,
    &crossbar::Crossbar,
    &min::Min,
    &netlist::Netlist,
    &fat_tree::FatTree,
    &dragonfly::Dragonfly,
    &flattened_butterfly::FlattenedButterfly,
];

/// The names of `KINDS`, in order.
pub fn names() -> &'static [&'static str] {
    static NAMES: LazyLock<Vec<&'static str>> =
        LazyLock::new(|| KINDS.iter().map(|k| k.name()).collect());
    NAMES.as_slice()
}

/// Whether `net` is a network of C104s: one of `KINDS` owns it.
pub fn owns(net: &NetworkConfig) -> bool {
    KINDS.iter().any(|k| k.owns(net))
}

/// Checks `net` and says how many terminals and labels it has.
pub(super) fn validate(net: &NetworkConfig) -> Result<Shape, BuildError> {
    match KINDS.iter().find(|k| k.owns(net)) {
        Some(kind) => kind.validate(net),
        // Every other kind is a family of its own, with its own builder (the front
        // end's family registry picks it): none of them is made of C104s.
        None => Err(topo_err(
            "network.kind",
            "not a network of C104s: this family has its own builder (the front end's \
             family registry, emu::family, picks it)",
        )),
    }
}

/// Refuses `value` at `key` unless `bound` holds it, in the bound's words after `lead`
/// and before `why`.
pub(super) fn within(
    key: &str,
    bound: Bound,
    value: u32,
    lead: &str,
    why: &str,
) -> Result<(), BuildError> {
    if bound.contains(value.into()) {
        Ok(())
    } else {
        Err(topo_err(key, bound.refusal(value.into(), lead, why)))
    }
}

/// Refuses `routing` at `key` unless it is one of `allowed`.
pub(super) fn only(
    key: &str,
    routing: RoutingMode,
    allowed: &[RoutingMode],
) -> Result<(), BuildError> {
    if allowed.contains(&routing) {
        Ok(())
    } else {
        let names: Vec<_> = allowed
            .iter()
            .map(|r| format!("\"{}\"", format!("{r:?}").to_lowercase()))
            .collect();
        Err(topo_err(
            key,
            format!(
                "\"{}\" routing is not defined for this network: give {}",
                format!("{routing:?}").to_lowercase(),
                names.join(" or ")
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_distinct_name_and_owns_its_shipped_files() {
        let mut seen = std::collections::BTreeSet::new();
        for name in names() {
            assert!(seen.insert(*name), "{name} twice");
        }
        for entry in crate::config::shipped_topologies() {
            let topo = crate::config::load_topology(entry.0, &[]).expect("a shipped topology");
            let owners = KINDS
                .iter()
                .filter(|k| k.owns(&topo.config.network))
                .count();
            let kind = serde_json::to_value(&topo.config.network).expect("serialises")["kind"]
                .as_str()
                .map(str::to_string)
                .expect("a kind");
            assert_eq!(
                owners,
                usize::from(names().contains(&kind.as_str())),
                "{}",
                entry.0
            );
        }
    }
}

#[cfg(test)]
mod validation_tests {
    use crate::config::{TopologyConfig, TrafficConfig};
    use crate::network::build;

    fn err(network: &str, packet: &str) -> (String, String) {
        let t: TopologyConfig =
            toml::from_str(&format!("[network]\n{network}\n{packet}")).expect("parses");
        let f: TrafficConfig =
            toml::from_str("[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"continuous\"\n")
                .expect("parses");
        let e = build("x", &t, &f, 1).expect_err("rejected");
        (e.key, e.message)
    }

    #[test]
    fn shapes_that_do_not_fit_a_c104_name_their_key_and_the_32_links() {
        let (k, m) = err("kind = \"kary_ncube\"\nk = 3\nn = 8", "");
        assert_eq!(k, "network.n");
        assert!(m.contains("33 links") && m.contains("32"), "{m}");
        let (k, m) = err("kind = \"crossbar\"\nterminals = 33", "");
        assert_eq!(k, "network.terminals");
        assert!(m.contains("32 links"), "{m}");
        let (k, _) = err("kind = \"min\"\nterminals = 100", "");
        assert_eq!(k, "network.terminals");
        let (k, m) = err(
            "kind = \"hypercube\"\ndimensions = 16\nrouting = \"universal\"",
            "",
        );
        assert_eq!(k, "network.dimensions");
        assert!(m.contains("32 links"), "{m}");
        let (k, _) = err("kind = \"torus\"\nside = 4\nwrap = \"none\"", "");
        assert_eq!(k, "network.wrap");
        let (k, m) = err("kind = \"grid\"\nside = 4\nrouting = \"adaptive\"", "");
        assert_eq!(k, "network.routing");
        assert!(m.contains("\"universal\""), "{m}");
        let (k, _) = err("kind = \"grid\"\nside = 1", "");
        assert_eq!(k, "network.side");
    }

    #[test]
    fn random_labels_count_against_the_header_size() {
        // 256 terminals fit one byte; their 16 random columns do not.
        let (k, m) = err(
            "kind = \"grid\"\nside = 16\nrouting = \"universal\"",
            "[packet]\nheader_bytes = 1",
        );
        assert_eq!(k, "packet.header_bytes");
        assert!(m.contains("272 labels"), "{m}");
    }
}
