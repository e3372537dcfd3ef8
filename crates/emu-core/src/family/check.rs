//! What `emu check` analyses: the whole topology validated the way its family reads
//! it, then either a network of C104s for the channel dependency graph or the reason
//! the family cannot deadlock.

use super::{AnyCase, Case, CaseError, CaseVisitor, DeadlockCheck};
use crate::config::overrides::parse_sets;
use crate::config::{self, FileKind, stem};
use crate::network::Network;

/// What `emu check` has to analyse, once the whole topology is known to be valid.
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckPlan {
    /// A network of C104s: its channel dependency graph decides (boxed: a network's
    /// plan is several times the size of the other variant).
    Channels(Box<Network>),
    /// A network of a family that cannot deadlock, built whole with a placeholder
    /// traffic of its family (so every key was checked).
    Impossible(Impossible),
}

/// A validated network of a family that cannot deadlock, as `emu check` reports it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Impossible {
    /// Topology name (file stem).
    pub topology: String,
    /// The family, with its article ("an SCI ring").
    pub family: &'static str,
    /// Terminals.
    pub terminals: usize,
    /// Nodes that are not terminals.
    pub switches: usize,
    /// Why it cannot deadlock.
    pub why: &'static str,
    /// File and line of `network.kind`, for the message.
    #[serde(skip)]
    pub location: String,
}

impl Impossible {
    /// The answer as `emu check` prints it: the topology line and the result line.
    pub fn render_text(&self) -> String {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        format!(
            "topology    {} ({}: {}, {})\nresult      {}\n",
            self.topology,
            self.family,
            plural(self.terminals, "terminal"),
            plural(self.switches, "other node"),
            self.why
        )
    }

    /// The answer as `emu check --json` writes it.
    pub fn to_json_value(&self) -> serde_json::Value {
        serde_json::json!({
            "schema": 1,
            "emu_version": env!("CARGO_PKG_VERSION"),
            "deadlock_free": true,
            "cannot_deadlock": self,
        })
    }
}

/// Loads topology `spec` with topology `--set` overrides, checks the whole
/// configuration as its family reads it, and says what `emu check` has to analyse. A
/// traffic key among `sets` is an error, as is a section of another family, and a
/// network that would need more than `memory_limit` bytes (`None`: no limit) is refused
/// before it is built.
pub fn check_plan(
    spec: &str,
    sets: &[String],
    memory_limit: Option<u64>,
) -> Result<CheckPlan, CaseError> {
    check_plan_of(&config::Input::lookup(spec), sets, memory_limit)
}

/// [`check_plan`] for a topology from `input`.
pub fn check_plan_of(
    input: &config::Input,
    sets: &[String],
    memory_limit: Option<u64>,
) -> Result<CheckPlan, CaseError> {
    if let Some(o) = parse_sets(sets)?
        .into_iter()
        .find(|o| o.kind == FileKind::Traffic)
    {
        return Err(CaseError::TrafficSet { set: o.text });
    }
    let topo: config::Loaded<crate::network::TopologyConfig> =
        input.load(FileKind::Topology, sets, &crate::network::kinds::C104Kinds)?;
    let family = crate::family::of(&topo.config.network);
    crate::family::only_own_sections(family, &topo)?;
    let traffic = config::load::load_traffic_text("probe.toml", family.probe_traffic(), &[])?;
    match family.deadlock_check() {
        DeadlockCheck::Channels => {
            super::build_within(&topo, &traffic.config, None, 1, memory_limit)
                .map(|net| CheckPlan::Channels(Box::new(net)))
        }
        DeadlockCheck::Impossible(why) => {
            let location = topo.locate("network.kind");
            let case = AnyCase::from_loaded(topo, traffic, 1, memory_limit)?;
            struct Sizes;
            impl CaseVisitor for Sizes {
                type Output = (String, usize, usize);
                fn visit<P: crate::model::LinkProtocol>(
                    self,
                    c: &Case<P>,
                ) -> (String, usize, usize) {
                    let nodes = c.net.nodes().len();
                    let terminals = c.net.terminal_count();
                    (stem(&c.topology.file.name), terminals, nodes - terminals)
                }
            }
            let (topology, terminals, switches) = case.visit(Sizes);
            Ok(CheckPlan::Impossible(Impossible {
                topology,
                family: case.family().name(),
                terminals,
                switches,
                why,
                location,
            }))
        }
    }
}

/// Loads topology `spec` with topology `--set` overrides and builds its plan for the
/// channel dependency graph ([`check_plan`]); a family that cannot deadlock is
/// [`CaseError::CannotDeadlock`].
pub fn topology_plan(spec: &str, sets: &[String]) -> Result<Network, CaseError> {
    match check_plan(spec, sets, None)? {
        CheckPlan::Channels(net) => Ok(*net),
        CheckPlan::Impossible(i) => Err(CaseError::CannotDeadlock {
            location: i.location,
            why: i.why,
        }),
    }
}
