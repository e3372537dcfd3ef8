//! `kind = "grid"`: a square 2-D grid of C104s routed y then x, or universally (INMOS
//! ch. 7 §7.3.2, §7.5); a k-ary 2-cube without wrap-around links.

use super::kary_ncube::{kary_shape, mesh_shape};
use super::{CUBE_ROUTING, Kind, SIDES, Shape, only, routings};
use super::NetworkConfig;
use crate::config::topology::{RoutingMode, Wrap};
use crate::network::build::{BuildError, topo_err};

/// The grid kind.
pub(super) struct Grid;

/// A square 2-D grid of C104s, one terminal per switch, edge links unused,
/// routed first in y then in x (INMOS ch. 7 §7.3.2). Terminal label = y·side + x.
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridNetwork {
    /// Switches per side; the grid has side² switches and terminals.
    pub side: u32,
    /// `deterministic` (y then x) or `universal`: first to a random column of the
    /// same row over an extra set of x links, then y then x (INMOS ch. 7 §7.5).
    #[serde(default)]
    pub routing: RoutingMode,
}

impl Kind for Grid {
    fn name(&self) -> &'static str {
        "grid"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Grid(_))
    }

    fn multipath(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Grid(n) if n.routing != RoutingMode::Deterministic)
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.routing" => Some(routings(CUBE_ROUTING)),
            "network.side" => Some(SIDES.takes()),
            _ => None,
        }
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::Grid(GridNetwork { side, routing }) = *net else {
            return Err(topo_err("network.kind", "not a grid"));
        };
        only("network.routing", routing, CUBE_ROUTING)?;
        let universal = routing == RoutingMode::Universal;
        Ok(mesh_shape(kary_shape(
            side,
            2,
            Wrap::None,
            universal,
            "network.side",
        )?))
    }
}
