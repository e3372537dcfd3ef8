//! `kind = "hypercube"`: a binary n-cube of C104s, one terminal per switch (INMOS ch. 7
//! §7.3.1), e-cube or universal routing; the builder is `network::hypercube`.

use super::{CUBE_ROUTING, Kind, Layout, Shape, only, routings, within};
use super::NetworkConfig;
use crate::config::topology::RoutingMode;
use crate::network::Geometry;
use crate::network::build::{BuildError, Parts, topo_err};
use crate::network::pattern::Family;
use crate::parts::bounds::Bound;
use crate::routing::IntervalTable;

/// The hypercube kind.
pub(super) struct Hypercube;

/// Binary n-cube of C104s, one terminal per switch, e-cube routing highest
/// dimension first (INMOS ch. 7 §7.3.1).
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HypercubeNetwork {
    /// n: the cube has 2^n switches and 2^n terminals.
    pub dimensions: u32,
    /// `deterministic` (e-cube) or `universal`: two parallel cubes, the first to
    /// a random intermediate switch, the second from it to the destination
    /// (INMOS ch. 7 §7.5).
    #[serde(default)]
    pub routing: RoutingMode,
    /// Universal routing only: 2 (the default) gives each journey its own cube of
    /// links (INMOS ch. 7 §7.5); 1 forces both journeys onto one set of links, whose
    /// channel dependencies then have cycles (for deadlock studies: `emu check`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_sets: Option<u32>,
}

/// A checked binary n-cube; universal routing over `sets` link sets.
#[derive(Debug)]
struct Cube {
    /// Dimensions.
    n: u32,
    /// Universal routing (INMOS ch. 7 §7.5).
    universal: bool,
    /// Link sets (1 or 2).
    sets: u32,
}

/// Dimensions of a hypercube under deterministic routing: 2^20 terminals, far past
/// what a machine holds.
const DIMENSIONS: Bound = Bound::whole(1, 20);

/// Dimensions of a hypercube under universal routing: it uses 2n + 1 of a C104's 32
/// links.
pub(super) const UNIVERSAL_DIMENSIONS: Bound = Bound::whole(1, 15);

impl Kind for Hypercube {
    fn name(&self) -> &'static str {
        "hypercube"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Hypercube(_))
    }

    fn multipath(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Hypercube(n) if n.routing != RoutingMode::Deterministic)
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.dimensions" => Some(format!(
                "{} ({} with universal routing)",
                DIMENSIONS.takes(),
                UNIVERSAL_DIMENSIONS.max
            )),
            "network.link_sets" => Some("1; with universal routing 1 or 2".into()),
            "network.routing" => Some(routings(CUBE_ROUTING)),
            _ => None,
        }
    }

    fn type_error_takes(&self, key: &str) -> Option<String> {
        match key {
            // Before the routing is known: the deterministic range.
            "network.dimensions" => Some(DIMENSIONS.takes()),
            _ => self.takes(key),
        }
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::Hypercube(HypercubeNetwork {
            dimensions,
            routing,
            link_sets,
        }) = *net
        else {
            return Err(topo_err("network.kind", "not a hypercube"));
        };
        only("network.routing", routing, CUBE_ROUTING)?;
        let universal = routing == RoutingMode::Universal;
        let sets = link_sets_of(universal, link_sets)?;
        let (bound, why) = if universal {
            (
                UNIVERSAL_DIMENSIONS,
                " (universal routing uses 2n + 1 of a C104's 32 links)",
            )
        } else {
            (DIMENSIONS, "")
        };
        within("network.dimensions", bound, dimensions, "", why)?;
        let n = 1u32 << dimensions;
        Ok(Shape {
            layout: Box::new(Cube {
                n: dimensions,
                universal,
                sets,
            }),
            family: Family::Hypercube { dimensions },
            terminals: n,
            labels: if universal { 2 * n } else { n },
        })
    }
}

impl Layout for Cube {
    fn build(&self, parts: &mut Parts, _tables: Vec<IntervalTable>) -> usize {
        crate::network::hypercube::build(parts, self.n, self.universal, self.sets)
    }

    fn geometry(&self) -> Geometry {
        Geometry::Hypercube { n: self.n }
    }
}

/// The link sets of a hypercube: 1 for e-cube; 2 (default) or 1 for universal routing.
fn link_sets_of(universal: bool, sets: Option<u32>) -> Result<u32, BuildError> {
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
