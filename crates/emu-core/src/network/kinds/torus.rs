//! `kind = "torus"`: a k-ary 2-cube with wrap-around links, single or doubled (INMOS
//! ch. 7 §7.3.2).

use super::kary_ncube::{kary_shape, mesh_shape};
use super::{Kind, SIDES, Shape};
use crate::config::topology::{NetworkConfig, Wrap};
use crate::network::build::{BuildError, topo_err};

/// The torus kind.
pub(super) struct Torus;

impl Kind for Torus {
    fn name(&self) -> &'static str {
        "torus"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Torus { .. })
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.side" => Some(SIDES.takes()),
            "network.wrap" => Some(crate::config::bounds::quoted_or(["single", "doubled"])),
            _ => None,
        }
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::Torus { side, wrap } = *net else {
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
