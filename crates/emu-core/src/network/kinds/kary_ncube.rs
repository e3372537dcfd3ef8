//! `kind = "kary_ncube"`: a k-ary n-cube or n-dimensional mesh, one terminal per
//! switch, dimension-order routing (INMOS ch. 7 §7.3.2 generalised); with the checks
//! and the layout the grid and the torus share. Tables are
//! `routing::dimension_order`, the builder `network::kary`.

use super::{C104_LINKS, Kind, Layout, MAX_KARY_SWITCHES, SIDES, Shape, max_kary_switches, within};
use super::NetworkConfig;
use crate::config::topology::Wrap;
use crate::network::Geometry;
use crate::network::build::{BuildError, Parts, topo_err};
use crate::network::pattern::Family;
use crate::routing::IntervalTable;
use crate::routing::dimension_order::Kary;

/// The k-ary n-cube kind.
pub(super) struct KaryNcube;

/// A general k-ary n-cube (or, with `wrap = "none"`, an n-dimensional mesh), one
/// terminal per switch, dimension-order routing highest dimension first: emu's
/// generalisation of the grids and tori of INMOS ch. 7 §7.3.2 (n = 1 is a
/// bidirectional ring routed the short way).
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KaryNcubeNetwork {
    /// Switches per dimension.
    pub k: u32,
    /// Dimensions: the network has k^n switches and terminals.
    pub n: u32,
    /// `none` (a mesh), `single` or `doubled`.
    #[serde(default)]
    pub wrap: Wrap,
}

/// A checked grid, torus or k-ary n-cube.
#[derive(Debug)]
struct Checked(Kary);

impl Kind for KaryNcube {
    fn name(&self) -> &'static str {
        "kary_ncube"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::KaryNcube(_))
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.k" => Some(format!(
                "{}, with k^n at most {}",
                SIDES.takes(),
                max_kary_switches()
            )),
            "network.n" => Some(format!(
                "a whole number from 1, while a switch's 1 + 2n links (1 + 4n with doubled \
                 wrap-around links) fit a C104's {C104_LINKS}"
            )),
            _ => None,
        }
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::KaryNcube(KaryNcubeNetwork { k, n, wrap }) = *net else {
            return Err(topo_err("network.kind", "not a k-ary n-cube"));
        };
        if n == 0 {
            return Err(topo_err("network.n", "give at least 1 dimension"));
        }
        Ok(mesh_shape(kary_shape(k, n, wrap, false, "network.k")?))
    }
}

impl Layout for Checked {
    fn build(&self, parts: &mut Parts, _tables: Vec<IntervalTable>) -> usize {
        crate::network::kary::build(parts, self.0)
    }

    fn geometry(&self) -> Geometry {
        Geometry::Kary {
            k: self.0.k,
            n: self.0.n,
            wrap: self.0.wrap != Wrap::None,
        }
    }
}

/// Checks a k-ary n-cube's size and port budget, naming `k_key` for a bad `k`.
pub(super) fn kary_shape(
    k: u32,
    n: u32,
    wrap: Wrap,
    universal: bool,
    k_key: &str,
) -> Result<Kary, BuildError> {
    within(k_key, SIDES, k, "", "")?;
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

/// The shape of a checked grid, torus or k-ary n-cube.
pub(super) fn mesh_shape(s: Kary) -> Shape {
    Shape {
        layout: Box::new(Checked(s)),
        family: Family::Kary { k: s.k, n: s.n },
        terminals: s.switches(),
        labels: s.labels(),
    }
}
