//! One run as the command line does it, for every front end (the `emu` binary, tests,
//! benchmarks, reproductions): load the two files with their `--set` overrides, build
//! the plan, derive the run control, and turn an engine's outcome into the report.

use crate::config::overrides::parse_sets;
use crate::config::{self, FileKind};
use crate::family::DeadlockCheck;
use crate::network::{self, Network};

pub use crate::config::stem;
pub use crate::family::{AnyCase, Case, CaseError, CaseVisitor};

/// What `emu check` has to analyse, once the whole topology is known to be valid.
#[derive(Debug)]
pub enum CheckPlan {
    /// A network of C104s: its channel dependency graph decides.
    Channels(Network),
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
    if let Some(o) = parse_sets(sets)?
        .into_iter()
        .find(|o| o.kind == FileKind::Traffic)
    {
        return Err(CaseError::TrafficSet { set: o.text });
    }
    let topo = config::load_topology(spec, sets)?;
    let family = crate::family::of(&topo.config.network);
    crate::family::only_own_sections(family, &topo)?;
    let traffic = config::load::load_traffic_text("probe.toml", family.probe_traffic(), &[])?;
    match family.deadlock_check() {
        DeadlockCheck::Channels => {
            let name = stem(&topo.file.name);
            let located = |e| CaseError::build(e, &topo, None);
            let checked =
                network::check(&name, &topo.config, &traffic.config, 1).map_err(located)?;
            if memory_limit.is_some() {
                let (need, nodes, terminals) = checked.memory_need().map_err(located)?;
                need.within(memory_limit, nodes, terminals)?;
            }
            checked.build().map(CheckPlan::Channels).map_err(located)
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
        CheckPlan::Channels(net) => Ok(net),
        CheckPlan::Impossible(i) => Err(CaseError::CannotDeadlock {
            location: i.location,
            why: i.why,
        }),
    }
}

/// Quotes `s` for a POSIX shell if it needs it, so that a printed reproduce command can
/// be pasted back as it is: words of letters, digits and `-_./=:,+@%` (never special in
/// an argument after the command name) stay as they are, anything else gets shlex's
/// quoting; a NUL byte, which no shell argument can hold, is left out.
pub fn shell_quote(s: &str) -> String {
    let clean: String = s.chars().filter(|&c| c != '\0').collect();
    let plain = !clean.is_empty()
        && clean
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        return clean;
    }
    shlex::try_quote(&clean).map_or(clean.clone(), |q| q.into_owned())
}
