//! `kind = "torus"`: a k-ary 2-cube with wrap-around links, single or doubled (INMOS
//! ch. 7 §7.3.2).

use super::kary_ncube::{kary_shape, mesh_shape};
use super::{Kind, SIDES, Shape};
use super::NetworkConfig;
use crate::config::topology::Wrap;
use crate::network::build::{BuildError, topo_err};

/// The torus kind.
pub(super) struct Torus;

/// A k-ary 2-cube (2-D torus), one terminal per switch, dimension-order routing
/// (y then x) the shorter way round each ring (INMOS ch. 7 §7.3.2 on wrap-around links).
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TorusNetwork {
    /// Switches per side; the torus has side² switches and terminals.
    pub side: u32,
    /// `single` (one set of wrap-around links: can deadlock) or `doubled`.
    #[serde(default)]
    pub wrap: Wrap,
}

impl Kind for Torus {
    fn name(&self) -> &'static str {
        "torus"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Torus(_))
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.side" => Some(SIDES.takes()),
            "network.wrap" => Some(crate::config::bounds::quoted_or(["single", "doubled"])),
            _ => None,
        }
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::Torus(TorusNetwork { side, wrap }) = *net else {
            return Err(topo_err("network.kind", "not a torus"));
        };
        if wrap == Wrap::None {
            return Err(topo_err(
                "network.wrap",
                "a torus has wrap-around links: give \"single\" or \"doubled\" (or use kind = \"grid\")",
            ));
        }
        Ok(mesh_shape(kary_shape(
            side,
            2,
            wrap,
            false,
            "network.side",
        )?))
    }
}
