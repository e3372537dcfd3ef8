//! Relay rings: relay nodes ([`crate::parts::relay`]) on a ring, passing balls. A toy
//! family with no hardware behind it, kept as the worked example of a family
//! (docs/architecture.md "Adding a family"): its topology section
//! ([`RelayRingConfig`](crate::config::topology::RelayRingConfig)), its builder, its traffic key (`injection.kind = "batch"`:
//! `messages` balls per node) and its report section ([`RelaySection`]) all live here and
//! in `parts/relay/`.

use super::{AnyCase, Case, CaseError, DeadlockCheck, Family, StressSearch};
use crate::config::traffic::InjectionConfig;
use crate::config::{Loaded, TrafficConfig};
use crate::network::{NetworkConfig, TopologyConfig};
use crate::stats::format::group;
use crate::stats::{FamilySection, FamilySections, ReportFamily, ReportInput};
use crate::time::Tick;
use serde::Serialize;
use std::sync::Arc;

/// The relay ring family.
#[derive(Debug)]
pub(super) struct RelayRings;

/// Most balls per node.
const MAX_BALLS: u32 = 1_000_000;

/// The relay ring's section of a report (relay rings only).
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RelaySection {
    /// Balls put into play.
    pub balls: u64,
    /// Balls retired after their last hop.
    pub retired: u64,
    /// Hops every ball makes.
    pub hops_per_ball: u32,
    /// Hops made, over all balls (balls passed on a link).
    pub hops: u64,
}

impl FamilySection for RelaySection {
    fn key(&self) -> &'static str {
        "relay"
    }

    fn header_lines(&self) -> Vec<(&'static str, String)> {
        vec![(
            "balls",
            format!(
                "{} put into play, {} retired after {} hops each · {} hops made",
                group(self.balls),
                group(self.retired),
                group(u64::from(self.hops_per_ball)),
                group(self.hops)
            ),
        )]
    }

    fn write_table(&self, out: &mut String) {
        let rows = vec![
            vec!["balls", "retired", "hops per ball", "hops"]
                .into_iter()
                .map(String::from)
                .collect(),
            vec![
                group(self.balls),
                group(self.retired),
                group(u64::from(self.hops_per_ball)),
                group(self.hops),
            ],
        ];
        crate::stats::format::write_columns(out, &rows);
    }

    fn warnings(&self) -> Vec<String> {
        if self.retired == self.balls {
            return Vec::new();
        }
        vec![format!(
            "{} of {} balls were still in play when the run stopped",
            group(self.balls - self.retired),
            group(self.balls)
        )]
    }
}

/// A build error at `key` of `file`.
fn located<T>(file: &Loaded<T>, key: &str, message: impl Into<String>) -> CaseError {
    CaseError::Build {
        location: Box::new(file.location(key)),
        message: message.into(),
    }
}

impl ReportFamily for RelayRings {
    fn latency_metrics(&self) -> &'static [&'static str] {
        // A ball has no source queue and no network latency of its own.
        &["message"]
    }

    fn packets_label(&self, _topology: &TopologyConfig, _traffic: &TrafficConfig) -> String {
        "balls".to_string()
    }

    fn sections(&self, input: &ReportInput, _span: Tick) -> FamilySections {
        let hops_per_ball = match &input.topology.network {
            NetworkConfig::RelayRing(r) => r.hops,
            _ => 0,
        };
        let t = crate::stats::TerminalStats::total(&input.outcome.terminals);
        FamilySections(vec![Arc::new(RelaySection {
            balls: t.counters.created,
            retired: t.counters.delivered,
            hops_per_ball,
            hops: input.outcome.activity.tokens_moved,
        })])
    }
}

impl Family for RelayRings {
    fn name(&self) -> &'static str {
        "a relay ring"
    }

    fn kinds(&self) -> &'static [&'static str] {
        &["relay_ring"]
    }

    fn owns(&self, network: &NetworkConfig) -> bool {
        matches!(network, NetworkConfig::RelayRing(_))
    }

    fn traffic_sections(&self) -> &'static [&'static str] {
        &["injection"]
    }

    fn unread_because(&self, _section: &str) -> &'static str {
        "a relay ring reads only injection: batch, messages = balls per node"
    }

    fn delay_unit(&self) -> &'static str {
        "ticks"
    }

    fn load(
        &'static self,
        topology: Loaded<TopologyConfig>,
        traffic: Loaded<TrafficConfig>,
        seed: u64,
        _memory_limit: Option<u64>,
    ) -> Result<AnyCase, CaseError> {
        let NetworkConfig::RelayRing(ring) = &topology.config.network else {
            return Err(located(&topology, "network.kind", "not a relay ring"));
        };
        ring.validate()
            .map_err(|e| located(&topology, e.key, e.message))?;
        let balls = match traffic.config.injection {
            InjectionConfig::Batch { messages } if (1..=MAX_BALLS).contains(&messages) => messages,
            InjectionConfig::Batch { messages } => {
                return Err(located(
                    &traffic,
                    "injection.messages",
                    format!("{messages}: give 1 to {MAX_BALLS} balls per node"),
                ));
            }
            _ => {
                return Err(located(
                    &traffic,
                    "injection.kind",
                    "a relay ring takes batch injection only: messages = the balls each node \
                     puts into play (e.g. emu -t relay-ring -p relay-balls)",
                ));
            }
        };
        let net = crate::network::relay_ring(
            ring.nodes as usize,
            balls,
            ring.hops,
            ring.latency,
            ring.max_think,
            seed,
        )
        .map_err(|e| located(&topology, "network", format!("the plan is miswired: {e}")))?;
        Ok(AnyCase::Relay(Case::new(
            topology, traffic, seed, net, self,
        )))
    }

    fn section_schemas(
        &self,
        generator: &mut schemars::SchemaGenerator,
    ) -> Vec<(&'static str, schemars::Schema)> {
        vec![("relay", generator.subschema_for::<RelaySection>())]
    }

    fn deadlock_check(&self) -> DeadlockCheck {
        DeadlockCheck::Impossible(
            "a relay ring cannot deadlock: a node holds every ball the ring has room for, so \
             it always takes the next one",
        )
    }

    fn stress(&self, _topology: &TopologyConfig) -> StressSearch {
        StressSearch::Refused("a relay ring cannot deadlock and has no starvation to search for")
    }

    fn probe_traffic(&self) -> &'static str {
        "[injection]\nkind = \"batch\"\nmessages = 1\n"
    }

    fn sweeps(&self) -> Result<(), &'static str> {
        Err("a relay ring has no offered load to sweep: its balls are all put into play at once")
    }
}
