//! `kind = "netlist"`: a network listed switch by switch, its tables given or computed
//! as shortest paths and walked for every label; the work is `network::netlist`.

use super::{C104_LINKS, Kind, Layout, Shape};
use super::NetworkConfig;
use crate::network::Geometry;
use crate::network::build::{BuildError, Parts, topo_err};
use crate::network::netlist::{self as list, ValidNetlist};
use crate::network::pattern::Family;
use crate::routing::IntervalTable;

/// The netlist kind.
pub(super) struct Netlist;

/// A network drawn by the user: C104 switches, terminals and links listed
/// explicitly, routing tables given as intervals or computed as shortest paths
/// (interval labelling, INMOS ch. 7 §7.1). Every table, given or computed, is walked
/// for every label before the run: a label with no route, a loop or a wrong terminal
/// is refused naming the key.
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NetlistConfig {
    /// Port count of each C104 switch; switch i is the i-th entry.
    pub switches: Vec<u32>,
    /// `[switch, port]` of each terminal; terminal i has label i.
    pub terminals: Vec<[u32; 2]>,
    /// `[switch_a, port_a, switch_b, port_b]`: one bidirectional DS-Link each.
    #[serde(default)]
    pub links: Vec<[u32; 4]>,
    /// Per switch, `[lo, hi, port]` intervals: labels lo..hi (hi exclusive) leave on
    /// `port`. Empty: shortest-path tables are computed.
    #[serde(default)]
    pub tables: Vec<Vec<[u32; 3]>>,
}

impl Kind for Netlist {
    fn name(&self) -> &'static str {
        "netlist"
    }

    fn owns(&self, net: &NetworkConfig) -> bool {
        matches!(net, NetworkConfig::Netlist(_))
    }

    fn takes(&self, key: &str) -> Option<String> {
        match key {
            "network.switches" => Some(format!(
                "port counts from 1 to {C104_LINKS}, one per switch"
            )),
            "network.terminals" => {
                Some("[switch, port] of a listed switch's port, each port used once".into())
            }
            "network.links" => Some(
                "[switch, port, switch, port] of listed switches' ports, each port used once"
                    .into(),
            ),
            "network.tables" => {
                Some("one list of [lo, hi, port] per switch, or none at all".into())
            }
            _ => None,
        }
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
