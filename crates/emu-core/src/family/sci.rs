//! SCI rings (SCI §2, §4): nodes on a unidirectional ring of 16-bit symbol links.

use super::{AnyCase, Case, CaseError, DeadlockCheck, Family, StressSearch};
use crate::config::topology::MixConfig;
use crate::config::{Loaded, TrafficConfig};
use crate::network;
use crate::network::{NetworkConfig, TopologyConfig};
use crate::stats::ReportFamily;
use crate::stats::format::fixed;

/// The SCI ring family.
#[derive(Debug)]
pub(super) struct SciRings;

/// Why an SCI ring cannot deadlock.
const CANNOT_DEADLOCK: &str = "an SCI ring cannot deadlock: every node takes every symbol it \
     is sent (SCI §2), so there are no channel dependencies to check; a ring can starve a node \
     instead, which the run report names";

impl ReportFamily for SciRings {
    /// Its links fail as a network of C104s' do (docs/architecture.md "Link faults").
    fn topology_sections(&self) -> &'static [&'static str] {
        &["faults"]
    }

    fn latency_metrics(&self) -> &'static [&'static str] {
        // An SCI node learns a packet's fate from its echo, not when it left.
        &["message"]
    }

    fn packets_label(&self, topology: &TopologyConfig, traffic: &TrafficConfig) -> String {
        match &topology.network {
            NetworkConfig::SciRing(_) if traffic.request_response => {
                "read requests answered by 64-byte responses".to_string()
            }
            NetworkConfig::SciRing(ring) => mix_label(&ring.mix),
            _ => String::new(),
        }
    }
}

impl Family for SciRings {
    fn name(&self) -> &'static str {
        "an SCI ring"
    }

    fn kinds(&self) -> &'static [&'static str] {
        &["sci_ring"]
    }

    fn owns(&self, network: &NetworkConfig) -> bool {
        matches!(network, NetworkConfig::SciRing(_))
    }

    fn traffic_sections(&self) -> &'static [&'static str] {
        // All but `[message]`; request/response traffic is an SCI ring's (SCI §4.7).
        &[
            "pattern",
            "injection",
            "phases",
            "terminals",
            "request_response",
        ]
    }

    fn unread_because(&self, _section: &str) -> &'static str {
        "an SCI ring's packet lengths come from the topology's network.mix"
    }

    fn delay_unit(&self) -> &'static str {
        "cycles (2 ns)"
    }

    fn load(
        &'static self,
        topology: Loaded<TopologyConfig>,
        traffic: Loaded<TrafficConfig>,
        seed: u64,
        _memory_limit: Option<u64>,
    ) -> Result<AnyCase, CaseError> {
        let name = crate::config::stem(&topology.file.name);
        let net = network::sci_ring_from_config(&name, &topology.config, &traffic.config, seed)
            .map_err(|e| CaseError::build(e, &topology, Some(&traffic)))?;
        Ok(AnyCase::Sci(Case::new(topology, traffic, seed, net, self)))
    }

    fn deadlock_check(&self) -> DeadlockCheck {
        DeadlockCheck::Impossible(CANNOT_DEADLOCK)
    }

    fn stress(&self, topology: &TopologyConfig) -> StressSearch {
        match &topology.network {
            NetworkConfig::SciRing(ring) => StressSearch::Starvation { nodes: ring.nodes },
            _ => StressSearch::Refused("not an SCI ring"),
        }
    }

    fn probe_traffic(&self) -> &'static str {
        "[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"rate\"\nload = 0.05\n"
    }
}

/// "80 % address, 20 % 64-byte data packets".
fn mix_label(m: &MixConfig) -> String {
    let parts: Vec<String> = [
        (m.address, "address"),
        (m.data64, "64-byte data"),
        (m.data256, "256-byte data"),
    ]
    .iter()
    .filter(|(f, _)| *f > 0.0)
    .map(|(f, name)| format!("{} % {name}", fixed(f * 100.0, 0)))
    .collect();
    format!("{} packets", parts.join(", "))
}
