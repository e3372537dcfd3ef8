//! `kind = "min"`: the indirect multistage network of INMOS ch. 7 §7.2-7.3.3; the
//! shape and tables are `routing::min`, the builder `network::min`.

use super::{Kind, Layout, Shape, only};
use crate::config::limits::MIN_ROUTING;
use crate::config::topology::NetworkConfig;
use crate::network::Geometry;
use crate::network::build::{BuildError, Parts, topo_err};
use crate::network::pattern::Family;
use crate::routing::IntervalTable;
use crate::routing::min::SIZES;

/// The multistage kind.
pub(super) struct Min;

/// A checked multistage network.
#[derive(Debug)]
struct Checked(crate::routing::min::Min);

impl Kind for Min {
    fn name(&self) -> &'static str {
        "min"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Min { .. })
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::Min { terminals, routing } = *net else {
            return Err(topo_err("network.kind", "not a multistage network"));
        };
        only("network.routing", routing, MIN_ROUTING)?;
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
