//! Networks of IMS C104 routing switches and T9000 processors on DS-Links (INMOS ch. 6,
//! ch. 7): hypercubes, rings, grids, tori, k-ary n-cubes, crossbars, multistage
//! networks, netlists, fat trees and dragonflies, one kind per file in
//! `network::kinds`, whose registry names them.

use super::{AnyCase, Case, CaseError, DeadlockCheck, Family, StressSearch};
use crate::config::{Loaded, TrafficConfig};
use crate::network::{self, Network};
use crate::network::{NetworkConfig, TopologyConfig};
use crate::parts::dslink::DsLink;
use crate::stats::ReportFamily;

/// Builds the network of C104s of `topology` under `traffic` with `seed`, refusing one
/// that would need more than `memory_limit` bytes (`None`: no limit) before its routing
/// tables are built. Errors name the key in the topology file, or in `traffic_file` if
/// it is a traffic key and that file is given.
pub fn build_within(
    topology: &Loaded<TopologyConfig>,
    traffic: &TrafficConfig,
    traffic_file: Option<&Loaded<TrafficConfig>>,
    seed: u64,
    memory_limit: Option<u64>,
) -> Result<Network<DsLink>, CaseError> {
    let name = crate::config::stem(&topology.file.name);
    let located = |e| CaseError::build(e, topology, traffic_file);
    let checked = network::check(&name, &topology.config, traffic, seed).map_err(located)?;
    if memory_limit.is_some() {
        let (need, nodes, terminals) = checked.memory_need().map_err(located)?;
        need.within(memory_limit, nodes, terminals)?;
    }
    checked.build().map_err(located)
}

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

    fn kinds(&self) -> &'static [&'static str] {
        network::kinds::names()
    }

    fn owns(&self, network: &NetworkConfig) -> bool {
        network::kinds::owns(network)
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
        let net = build_within(
            &topology,
            &traffic.config,
            Some(&traffic),
            seed,
            memory_limit,
        )?;
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
