//! Networks of IMS C104 routing switches and T9000 processors on DS-Links (INMOS ch. 6,
//! ch. 7): hypercubes, rings, grids, tori, k-ary n-cubes, crossbars, multistage
//! networks and netlists.

use super::{AnyCase, Case, CaseError, DeadlockCheck, Family, StressSearch};
use crate::config::topology::NetworkConfig;
use crate::config::{Loaded, TopologyConfig, TrafficConfig};
use crate::network;
use crate::stats::ReportFamily;

/// The C104 family.
#[derive(Debug)]
pub(super) struct C104s;

impl ReportFamily for C104s {
    fn topology_sections(&self) -> &'static [&'static str] {
        TopologyConfig::SECTIONS
    }
}

impl Family for C104s {
    fn name(&self) -> &'static str {
        "a network of C104s"
    }

    fn owns(&self, network: &NetworkConfig) -> bool {
        matches!(
            network,
            NetworkConfig::Hypercube { .. }
                | NetworkConfig::Ring { .. }
                | NetworkConfig::Grid { .. }
                | NetworkConfig::Torus { .. }
                | NetworkConfig::KaryNcube { .. }
                | NetworkConfig::Crossbar { .. }
                | NetworkConfig::Min { .. }
                | NetworkConfig::Netlist(_)
        )
    }

    fn delay_unit(&self) -> &'static str {
        "header times"
    }

    fn load(
        &'static self,
        topology: Loaded<TopologyConfig>,
        traffic: Loaded<TrafficConfig>,
        seed: u64,
        memory_limit: Option<u64>,
    ) -> Result<AnyCase, CaseError> {
        let name = crate::config::stem(&topology.file.name);
        let located = |e| CaseError::build(e, &topology, Some(&traffic));
        let checked =
            network::check(&name, &topology.config, &traffic.config, seed).map_err(located)?;
        if memory_limit.is_some() {
            let (need, nodes, terminals) = checked.memory_need().map_err(located)?;
            need.within(memory_limit, nodes, terminals)?;
        }
        let net = checked.build().map_err(located)?;
        Ok(AnyCase::DsLink(Case::new(
            topology, traffic, seed, net, self,
        )))
    }

    fn deadlock_check(&self) -> DeadlockCheck {
        DeadlockCheck::Channels
    }

    fn stress(&self, _topology: &TopologyConfig) -> StressSearch {
        StressSearch::Deadlock
    }

    fn probe_traffic(&self) -> &'static str {
        "[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"continuous\"\n"
    }
}
