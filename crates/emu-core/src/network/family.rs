//! Validation and construction of each network family named by `network.kind`: the
//! size and port-budget checks (a C104 has 32 links, INMOS ch. 7 §7.1),
//! the number of terminals and header labels, and the dispatch to the family's builder.

use super::build::{BuildError, Parts, topo_err};
use super::pattern::Family;
use super::{crossbar, hypercube, kary, min, netlist, ring};
use crate::config::topology::{NetworkConfig, RoutingMode, Wrap};
use crate::routing::IntervalTable;
use crate::routing::dimension_order::Kary;
use crate::routing::min::{Min, SIZES};

pub(crate) use crate::config::limits::{
    C104_LINKS, CUBE_ROUTING, MAX_KARY_SWITCHES, MAX_RING_SWITCHES, MAX_UNIVERSAL_DIMENSIONS,
    MIN_ROUTING, SIDES,
};

/// A validated `[network]` section: the family and its checked parameters, which
/// [`build`] consumes without checking again.
#[derive(Debug)]
pub(super) enum Layout {
    /// A binary n-cube (INMOS ch. 7 §7.3.1); universal routing over `sets` link sets.
    Hypercube {
        /// Dimensions.
        n: u32,
        /// Universal routing (INMOS ch. 7 §7.5).
        universal: bool,
        /// Link sets (1 or 2).
        sets: u32,
    },
    /// A ring of `switches` C104s.
    Ring {
        /// Switches.
        switches: u32,
    },
    /// A grid, torus or k-ary n-cube.
    Kary(Kary),
    /// One C104.
    Crossbar {
        /// Terminals.
        terminals: u32,
    },
    /// The multistage network of INMOS ch. 7 §7.2-7.3.3.
    Min(Min),
    /// A network listed switch by switch.
    Netlist(netlist::ValidNetlist),
}

/// What a validated network configuration amounts to.
#[derive(Debug)]
pub(super) struct Shape {
    /// The family's checked parameters.
    pub layout: Layout,
    /// The family, for resolving traffic patterns.
    pub family: Family,
    /// Number of terminals.
    pub terminals: u32,
    /// Header labels the routing tables use (terminals, plus random labels).
    pub labels: u32,
}

fn only(key: &str, routing: RoutingMode, allowed: &[RoutingMode]) -> Result<(), BuildError> {
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

fn kary_shape(
    k: u32,
    n: u32,
    wrap: Wrap,
    universal: bool,
    k_key: &str,
) -> Result<Kary, BuildError> {
    if !SIDES.contains(&k) {
        return Err(topo_err(
            k_key,
            format!(
                "{k}: give {} to {} switches per side",
                SIDES.start(),
                SIDES.end()
            ),
        ));
    }
    let shape = Kary {
        k,
        n,
        wrap,
        universal,
    };
    if shape.ports() > C104_LINKS as usize {
        return Err(topo_err(
            "network.n",
            format!(
                "{n} dimensions need {} links per switch (terminal, {} per dimension{}), and a C104 has {C104_LINKS}",
                shape.ports(),
                2 * shape.classes(),
                if universal { ", 2 extra x links" } else { "" }
            ),
        ));
    }
    match k.checked_pow(n) {
        Some(size) if size <= MAX_KARY_SWITCHES => Ok(shape),
        _ => Err(topo_err(
            k_key,
            format!("{k}^{n} switches: at most {MAX_KARY_SWITCHES} terminals (2-byte headers)"),
        )),
    }
}

/// Checks `net` and says how many terminals and labels it has.
pub(super) fn validate(net: &NetworkConfig) -> Result<Shape, BuildError> {
    use RoutingMode::Universal;
    Ok(match *net {
        NetworkConfig::Netlist(ref n) => {
            let valid = netlist::validate(n)?;
            let terminals = valid.terminals();
            Shape {
                layout: Layout::Netlist(valid),
                family: Family::Netlist,
                terminals,
                labels: terminals,
            }
        }
        NetworkConfig::Hypercube {
            dimensions,
            routing,
            link_sets,
        } => {
            only("network.routing", routing, CUBE_ROUTING)?;
            let universal = routing == Universal;
            let sets = hypercube_link_sets(universal, link_sets)?;
            let max = if universal {
                MAX_UNIVERSAL_DIMENSIONS
            } else {
                crate::config::topology::MAX_DIMENSIONS
            };
            if !(1..=max).contains(&dimensions) {
                let why = if universal {
                    " (universal routing uses 2n + 1 of a C104's 32 links)"
                } else {
                    ""
                };
                return Err(topo_err(
                    "network.dimensions",
                    format!("{dimensions}: give a whole number from 1 to {max}{why}"),
                ));
            }
            let n = 1u32 << dimensions;
            Shape {
                layout: Layout::Hypercube {
                    n: dimensions,
                    universal,
                    sets,
                },
                family: Family::Hypercube { dimensions },
                terminals: n,
                labels: if universal { 2 * n } else { n },
            }
        }
        NetworkConfig::Ring { switches } => {
            if !(2..=MAX_RING_SWITCHES).contains(&switches) {
                return Err(topo_err(
                    "network.switches",
                    format!(
                        "{switches}: give {}",
                        crate::text::whole_range(2, MAX_RING_SWITCHES.into())
                    ),
                ));
            }
            Shape {
                layout: Layout::Ring { switches },
                family: Family::Ring,
                terminals: switches,
                labels: switches,
            }
        }
        NetworkConfig::Grid { side, routing } => {
            only("network.routing", routing, CUBE_ROUTING)?;
            let s = kary_shape(side, 2, Wrap::None, routing == Universal, "network.side")?;
            mesh_shape(s)
        }
        NetworkConfig::Torus { side, wrap } => {
            if wrap == Wrap::None {
                return Err(topo_err(
                    "network.wrap",
                    "a torus has wrap-around links: give \"single\" or \"doubled\" (or use kind = \"grid\")",
                ));
            }
            mesh_shape(kary_shape(side, 2, wrap, false, "network.side")?)
        }
        NetworkConfig::KaryNcube { k, n, wrap } => {
            if n == 0 {
                return Err(topo_err("network.n", "give at least 1 dimension"));
            }
            mesh_shape(kary_shape(k, n, wrap, false, "network.k")?)
        }
        NetworkConfig::Crossbar { terminals } => {
            if !(1..=C104_LINKS).contains(&terminals) {
                return Err(topo_err(
                    "network.terminals",
                    format!("{terminals}: one C104 has {C104_LINKS} links, give 1 to {C104_LINKS}"),
                ));
            }
            Shape {
                layout: Layout::Crossbar { terminals },
                family: Family::Crossbar,
                terminals,
                labels: terminals,
            }
        }
        NetworkConfig::Min { terminals, routing } => {
            only("network.routing", routing, MIN_ROUTING)?;
            if !SIZES.contains(&terminals) {
                return Err(topo_err(
                    "network.terminals",
                    format!(
                        "{terminals}: give 32, 64, 128, 256, 512 or 1024 (16 terminals and 16 right links per left C104; 1024 uses 64-way centre networks, INMOS ch. 7 §7.3.3)"
                    ),
                ));
            }
            let m = Min { terminals, routing };
            Shape {
                layout: Layout::Min(m),
                family: Family::Min,
                terminals,
                labels: m.labels(),
            }
        }
        // Every other kind is a family of its own, with its own builder (the front
        // end's family registry picks it): none of them is made of C104s.
        _ => {
            return Err(topo_err(
                "network.kind",
                "not a network of C104s: this family has its own builder (the front end's \
                 family registry, emu::family, picks it)",
            ));
        }
    })
}

/// The link sets of a hypercube: 1 for e-cube; 2 (default) or 1 for universal routing.
fn hypercube_link_sets(universal: bool, sets: Option<u32>) -> Result<u32, BuildError> {
    match (universal, sets) {
        (false, None | Some(1)) => Ok(1),
        (true, None) => Ok(2),
        (true, Some(s @ (1 | 2))) => Ok(s),
        (false, Some(s)) => Err(topo_err(
            "network.link_sets",
            format!(
                "{s}: deterministic (e-cube) routing uses one set of links; give 1, or routing = \"universal\""
            ),
        )),
        (true, Some(s)) => Err(topo_err(
            "network.link_sets",
            format!(
                "{s}: universal routing uses 2 link sets (one per journey, INMOS ch. 7 §7.5), or 1 to force both journeys onto one"
            ),
        )),
    }
}

fn mesh_shape(s: Kary) -> Shape {
    Shape {
        layout: Layout::Kary(s),
        family: Family::Kary { k: s.k, n: s.n },
        terminals: s.switches(),
        labels: s.labels(),
    }
}

/// The routing tables of `layout` that can fail: a netlist's, given or computed, walked
/// for every source and destination, with the warnings they give (links no route
/// crosses). Empty for the other families, whose tables [`build`] makes as it places
/// each switch.
pub(super) fn tables(layout: &Layout) -> Result<(Vec<IntervalTable>, Vec<String>), BuildError> {
    match layout {
        Layout::Netlist(n) => netlist::tables(n),
        _ => Ok((Vec::new(), Vec::new())),
    }
}

/// Adds the nodes and links of the validated `layout`, a netlist's switches routed by
/// `tables` (from [`tables`]); returns the switch count.
pub(super) fn build(parts: &mut Parts, layout: &Layout, tables: Vec<IntervalTable>) -> usize {
    match *layout {
        Layout::Netlist(ref n) => netlist::build(parts, n, tables),
        Layout::Hypercube { n, universal, sets } => hypercube::build(parts, n, universal, sets),
        Layout::Ring { switches } => ring::build(parts, switches),
        Layout::Kary(shape) => kary::build(parts, shape),
        Layout::Crossbar { terminals } => crossbar::build(parts, terminals),
        Layout::Min(m) => min::build(parts, m),
    }
}

/// Where the nodes of `layout` sit when drawn (the switches are nodes `0..` in the
/// order each builder places them).
pub(super) fn geometry(layout: &Layout) -> super::Geometry {
    use super::Geometry;
    match *layout {
        Layout::Netlist(_) => Geometry::Free,
        Layout::Hypercube { n, .. } => Geometry::Hypercube { n },
        Layout::Ring { switches } => Geometry::Ring { nodes: switches },
        Layout::Kary(shape) => Geometry::Kary {
            k: shape.k,
            n: shape.n,
            wrap: shape.wrap != Wrap::None,
        },
        Layout::Crossbar { .. } => Geometry::Star { hub: 0 },
        Layout::Min(_) => Geometry::Stages,
    }
}

#[cfg(test)]
mod tests {
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
