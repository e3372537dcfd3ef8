//! Single-stage switch fabrics with their adapters (Gramsamer ch. 2, 4, 7).

use super::{AnyCase, Case, CaseError, DeadlockCheck, Family, StressSearch};
use crate::config::{Loaded, TrafficConfig};
use crate::network;
use crate::network::{NetworkConfig, TopologyConfig};
use crate::stats::fabric::FabricSection;
use crate::stats::{FamilySections, ReportFamily, ReportInput};
use crate::time::Tick;
use std::sync::Arc;

/// The switch-fabric family.
#[derive(Debug)]
pub(super) struct Fabrics;

/// Why a switch fabric cannot deadlock.
const CANNOT_DEADLOCK: &str = "a single-stage switch fabric cannot deadlock: its output \
     adapters always absorb (Gramsamer §2.3), so every stored packet leaves and its credit comes \
     back; the run report shows credit underflow instead";

impl ReportFamily for Fabrics {
    /// Its links fail as a network of C104s' do (docs/architecture.md "Link faults").
    fn topology_sections(&self) -> &'static [&'static str] {
        &["faults"]
    }

    fn packets_label(&self, topology: &TopologyConfig, _traffic: &TrafficConfig) -> String {
        match &topology.network {
            NetworkConfig::Fabric(f) => format!("{}-byte packets", f.packet_bytes),
            _ => String::new(),
        }
    }

    fn sections(&self, input: &ReportInput, span: Tick) -> FamilySections {
        FamilySections(vec![Arc::new(FabricSection::new(input, span))])
    }
}

impl Family for Fabrics {
    fn name(&self) -> &'static str {
        "a switch fabric"
    }

    fn kinds(&self) -> &'static [&'static str] {
        &["fabric"]
    }

    fn owns(&self, network: &NetworkConfig) -> bool {
        matches!(network, NetworkConfig::Fabric(_))
    }

    fn traffic_sections(&self) -> &'static [&'static str] {
        super::WITHOUT_MESSAGE
    }

    fn unread_because(&self, section: &str) -> &'static str {
        match section {
            "message" => "a fabric's packets are the topology's network.packet_bytes",
            other => super::unread_default(other),
        }
    }

    fn delay_unit(&self) -> &'static str {
        "packet cycles"
    }

    fn load(
        &'static self,
        topology: Loaded<TopologyConfig>,
        traffic: Loaded<TrafficConfig>,
        seed: u64,
        _memory_limit: Option<u64>,
    ) -> Result<AnyCase, CaseError> {
        let name = crate::config::stem(&topology.file.name);
        let trace = crate::config::trace_file::load_trace(&traffic)?;
        let net = network::fabric_from_config(
            &name,
            &topology.config,
            &traffic.config,
            seed,
            trace.as_deref(),
        )
        .map_err(|e| CaseError::build(e, &topology, Some(&traffic)))?;
        Ok(AnyCase::Fabric(Case::new(
            topology, traffic, seed, net, self,
        )))
    }

    fn section_schemas(
        &self,
        generator: &mut schemars::SchemaGenerator,
    ) -> Vec<(&'static str, schemars::Schema)> {
        vec![(
            "fabric",
            generator.subschema_for::<crate::stats::fabric::FabricSection>(),
        )]
    }

    fn deadlock_check(&self) -> DeadlockCheck {
        DeadlockCheck::Impossible(CANNOT_DEADLOCK)
    }

    fn stress(&self, _topology: &TopologyConfig) -> StressSearch {
        StressSearch::Refused(
            "emu stress searches for deadlocks, and a single-stage switch fabric cannot \
             deadlock (its output adapters always absorb, Gramsamer §2.3); run it with \
             emu --topology … --traffic … --check, which checks its credit invariant",
        )
    }

    fn probe_traffic(&self) -> &'static str {
        "[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"rate\"\nload = 0.5\n"
    }
}
