//! `kind = "ring"`: a ring of C104s routed clockwise, the simplest network that can
//! deadlock (INMOS ch. 7 §7.3.2); the builder is `network::ring`.

use super::{Kind, Layout, Shape, within};
use super::NetworkConfig;
use crate::network::Geometry;
use crate::network::build::{BuildError, Parts, topo_err};
use crate::network::pattern::Family;
use crate::parts::bounds::Bound;
use crate::routing::IntervalTable;

/// The ring kind.
pub(super) struct Ring;

/// A ring of C104s, one terminal per switch, every packet routed clockwise: the
/// simplest network whose channel dependency graph has a cycle, so it can
/// deadlock (INMOS ch. 7 §7.3.2 on why wrap-around links need doubling).
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RingNetwork {
    /// Number of switches, and of terminals.
    pub switches: u32,
}

/// A checked ring of `switches` C104s.
#[derive(Debug)]
struct Checked {
    /// Switches.
    switches: u32,
}

/// Switches on a ring (`network.switches`).
pub(super) const SWITCHES: Bound = Bound::whole(2, 4096);

impl Kind for Ring {
    fn name(&self) -> &'static str {
        "ring"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Ring(_))
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.switches" => Some(SWITCHES.takes()),
            _ => None,
        }
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::Ring(RingNetwork { switches }) = *net else {
            return Err(topo_err("network.kind", "not a ring"));
        };
        within("network.switches", SWITCHES, switches, "", "")?;
        Ok(Shape {
            layout: Box::new(Checked { switches }),
            family: Family::Ring,
            terminals: switches,
            labels: switches,
        })
    }
}

impl Layout for Checked {
    fn build(&self, parts: &mut Parts, _tables: Vec<IntervalTable>) -> usize {
        crate::network::ring::build(parts, self.switches)
    }

    fn geometry(&self) -> Geometry {
        Geometry::Ring {
            nodes: self.switches,
        }
    }
}
