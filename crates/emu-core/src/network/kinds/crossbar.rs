//! `kind = "crossbar"`: one C104 with a terminal on each of its first links, a
//! single-stage crossbar network (INMOS ch. 7 §7.1); the builder is `network::crossbar`.

use super::{C104_LINKS, Kind, Layout, Shape, within};
use super::NetworkConfig;
use crate::network::Geometry;
use crate::network::build::{BuildError, Parts, topo_err};
use crate::network::pattern::Family;
use crate::parts::bounds::Bound;
use crate::routing::IntervalTable;

/// The crossbar kind.
pub(super) struct Crossbar;

/// One C104 with a terminal on each of `terminals` links: a single-stage crossbar
/// network (Proteus, crossbar networks; INMOS ch. 7 §7.1).
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrossbarNetwork {
    /// Terminals, one on each of the first `terminals` links.
    pub terminals: u32,
}

/// A checked crossbar of `terminals` terminals.
#[derive(Debug)]
struct Checked {
    /// Terminals.
    terminals: u32,
}

/// Terminals of a crossbar: one C104's links (`network.terminals`).
pub(super) const TERMINALS: Bound = Bound::counting(1, C104_LINKS as u64, "");

impl Kind for Crossbar {
    fn name(&self) -> &'static str {
        "crossbar"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Crossbar(_))
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.terminals" => Some(TERMINALS.takes()),
            _ => None,
        }
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::Crossbar(CrossbarNetwork { terminals }) = *net else {
            return Err(topo_err("network.kind", "not a crossbar"));
        };
        within(
            "network.terminals",
            TERMINALS,
            terminals,
            &format!("one C104 has {C104_LINKS} links, "),
            "",
        )?;
        Ok(Shape {
            layout: Box::new(Checked { terminals }),
            family: Family::Crossbar,
            terminals,
            labels: terminals,
        })
    }
}

impl Layout for Checked {
    fn build(&self, parts: &mut Parts, _tables: Vec<IntervalTable>) -> usize {
        crate::network::crossbar::build(parts, self.terminals)
    }

    fn geometry(&self) -> Geometry {
        Geometry::Star { hub: 0 }
    }
}
