//! `kind = "netlist"`: a network listed switch by switch, its tables given or computed
//! as shortest paths and walked for every label; the work is `network::netlist`.

use super::{Kind, Layout, Shape};
use crate::config::topology::NetworkConfig;
use crate::network::Geometry;
use crate::network::build::{BuildError, Parts, topo_err};
use crate::network::netlist::{self as list, ValidNetlist};
use crate::network::pattern::Family;
use crate::routing::IntervalTable;

/// The netlist kind.
pub(super) struct Netlist;

impl Kind for Netlist {
    fn name(&self) -> &'static str {
        "netlist"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Netlist(_))
    }

    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError> {
        let NetworkConfig::Netlist(ref n) = *net else {
            return Err(topo_err("network.kind", "not a netlist"));
        };
        let valid = list::validate(n)?;
        let terminals = valid.terminals();
        Ok(Shape {
            layout: Box::new(valid),
            family: Family::Netlist,
            terminals,
            labels: terminals,
        })
    }
}

impl Layout for ValidNetlist {
    fn tables(&self) -> Result<(Vec<IntervalTable>, Vec<String>), BuildError> {
        list::tables(self)
    }

    fn build(&self, parts: &mut Parts, tables: Vec<IntervalTable>) -> usize {
        list::build(parts, self, tables)
    }

    fn geometry(&self) -> Geometry {
        Geometry::Free
    }
}
