//! `kind = "min"`: the indirect multistage network of INMOS ch. 7 §7.2-7.3.3; the
//! shape and tables are `routing::min`, the builder `network::min`.

use super::{Kind, Layout, Shape, only, routings};
use super::NetworkConfig;
use crate::config::topology::RoutingMode;
use crate::network::Geometry;
use crate::network::build::{BuildError, Parts, topo_err};
use crate::network::pattern::Family;
use crate::routing::IntervalTable;
use crate::routing::min::SIZES;

/// The multistage kind.
pub(super) struct Min;

/// The indirect multistage network of INMOS ch. 7 §7.2-7.3.3 (Figures 7.1-7.4): a left
/// column of C104s with 16 terminal links and 16 links to a right column; 1024
/// terminals use 64-way networks as centre stages.
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MinNetwork {
    /// Terminals, 16 on each left-hand C104.
    pub terminals: u32,
    /// `deterministic` (a fixed right-hand switch per source switch and
    /// destination), `universal` (a random right-hand link) or `adaptive` (grouped
    /// adaptive routing over the right-hand links, INMOS ch. 7 §7.5 last paragraph).
    #[serde(default)]
    pub routing: RoutingMode,
}

/// A checked multistage network.
#[derive(Debug)]
struct Checked(crate::routing::min::Min);

/// The routing modes of a multistage network (INMOS ch. 7 §7.5, last paragraph).
const ROUTING: &[RoutingMode] = &[
    RoutingMode::Deterministic,
    RoutingMode::Universal,
    RoutingMode::Adaptive,
];

impl Kind for Min {
    fn name(&self) -> &'static str {
        "min"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Min(_))
    }

    fn multipath(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Min(n) if n.routing != RoutingMode::Deterministic)
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.routing" => Some(routings(ROUTING)),
            "network.terminals" => {
                let mut sizes: Vec<String> = SIZES.iter().map(|s| s.to_string()).collect();
                let last = sizes.pop().unwrap_or_default();
                Some(format!("{} or {last}", sizes.join(", ")))
            }
            _ => None,
        }
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::Min(MinNetwork { terminals, routing }) = *net else {
            return Err(topo_err("network.kind", "not a multistage network"));
        };
        only("network.routing", routing, ROUTING)?;
        if !SIZES.contains(&terminals) {
            return Err(topo_err(
                "network.terminals",
                format!(
                    "{terminals}: give 32, 64, 128, 256, 512 or 1024 (16 terminals and 16 right links per left C104; 1024 uses 64-way centre networks, INMOS ch. 7 §7.3.3)"
                ),
            ));
        }
        let m = crate::routing::min::Min { terminals, routing };
        Ok(Shape {
            layout: Box::new(Checked(m)),
            family: Family::Min,
            terminals,
            labels: m.labels(),
        })
    }
}

impl Layout for Checked {
    fn build(&self, parts: &mut Parts, _tables: Vec<IntervalTable>) -> usize {
        crate::network::min::build(parts, self.0)
    }

    fn geometry(&self) -> Geometry {
        Geometry::Stages
    }
}
