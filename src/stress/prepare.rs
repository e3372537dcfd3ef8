//! A search made ready: the topology loaded with its buffers chosen, its family's kind
//! of search (deadlocks, or starved nodes on an SCI ring) and the cases, in order.
//! `emu stress` and the Python package's `emu.stress` both start here.

use super::case::{StressCase, generate};
use super::run::Target;
use super::starvation::SciCase;
use crate::config::{self, ConfigError, FileKind, Input, Loaded, TopologyConfig, TrafficConfig};
use crate::family::{CaseError, StressSearch};

/// Buffer sizes for the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Buffers {
    /// The topology file's own buffers.
    Topology,
    /// Input buffer = the FCT batch (the smallest legal one), output buffer the same.
    Small,
}

impl Buffers {
    /// The name the command line takes: `topology` or `small`.
    pub fn name(self) -> &'static str {
        match self {
            Buffers::Topology => "topology",
            Buffers::Small => "small",
        }
    }
}

/// What a search asks for besides the topology.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    /// `--set`-style overrides of topology keys.
    pub sets: Vec<String>,
    /// The buffers to search with.
    pub buffers: Buffers,
    /// The first seed.
    pub seed: u64,
    /// Seeds to try (each gives one case of every kind).
    pub seeds: u32,
    /// Injection time of the continuous cases, µs of virtual time.
    pub run_us: f64,
    /// The memory each case's network may use, in bytes (`None`: no limit).
    pub memory_limit: Option<u64>,
}

/// A deadlock search ready to run: the network with its buffers chosen, and the cases.
pub struct Search {
    /// `--set` with the buffers' keys added.
    pub sets: Vec<String>,
    /// The topology, buffers applied.
    pub topo: Loaded<TopologyConfig>,
    /// Its name.
    pub name: String,
    /// Its terminals.
    pub terminals: u32,
    /// The cases, in search order.
    pub cases: Vec<StressCase>,
    /// The memory each case's network may use (`None`: no limit).
    pub memory_limit: Option<u64>,
}

impl Search {
    /// The network the cases run on.
    pub fn target(&self) -> Target<'_> {
        Target {
            name: &self.name,
            topology: &self.topo.config,
        }
    }
}

/// A search for starved nodes on an SCI ring.
pub struct Ring {
    /// The ring.
    pub topo: Loaded<TopologyConfig>,
    /// Its nodes.
    pub nodes: u32,
    /// The cases, in search order.
    pub cases: Vec<SciCase>,
    /// The memory each case's ring may use (`None`: no limit).
    pub memory_limit: Option<u64>,
}

/// What a stress search searches, ready to run.
pub enum Prepared {
    /// Deadlocks, in a network of DS-Links and C104s.
    Deadlock(Search),
    /// Starved nodes, on an SCI ring (its buffers are its own: [`Buffers::Small`] is
    /// for the caller to refuse, see [`Prepared::check_buffers`]).
    Starvation(Ring),
}

impl Prepared {
    /// The number of cases.
    pub fn cases(&self) -> usize {
        match self {
            Prepared::Deadlock(s) => s.cases.len(),
            Prepared::Starvation(r) => r.cases.len(),
        }
    }

    /// The resolved topology.
    pub fn topology(&self) -> &TopologyConfig {
        match self {
            Prepared::Deadlock(s) => &s.topo.config,
            Prepared::Starvation(r) => &r.topo.config,
        }
    }

    /// The topology's name.
    pub fn name(&self) -> String {
        match self {
            Prepared::Deadlock(s) => s.name.clone(),
            Prepared::Starvation(r) => config::stem(&r.topo.file.name),
        }
    }

    /// Refuses [`Buffers::Small`] for an SCI ring, which has no DS-Link or C104 buffers
    /// to shrink.
    pub fn check_buffers(buffers: Buffers) -> Result<(), PrepareError> {
        match buffers {
            Buffers::Topology => Ok(()),
            Buffers::Small => Err(PrepareError::Buffers),
        }
    }
}

/// Why a search cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// The topology does not load, or an override is bad.
    #[error("{0}")]
    Config(ConfigError),
    /// An override names a traffic key: the search generates its own traffic.
    #[error("--set: emu stress generates its own traffic; give only topology keys")]
    TrafficKeys,
    /// The family has no search, or its topology is refused (the message says where).
    #[error("{0}")]
    Family(String),
    /// The network does not build with the search's buffers, or is too large for the
    /// memory it may use.
    #[error("{0}")]
    Build(CaseError),
    /// Small buffers asked of an SCI ring.
    #[error("--buffers small sets DS-Link and C104 buffers; an SCI ring has none to shrink")]
    Buffers,
    /// A fault of emu's own (the probe traffic did not parse).
    #[error("{0}")]
    Internal(String),
}

/// Loads `topology` with `ask`'s overrides, finds its family's search and generates the
/// cases: for a network of DS-Links and C104s with the buffers asked (small buffers
/// are added as overrides and the topology loaded again), for an SCI ring its own.
pub fn prepare(topology: &Input, ask: &Ask) -> Result<Prepared, PrepareError> {
    config::validate_sets(&ask.sets).map_err(PrepareError::Config)?;
    let topo: Loaded<TopologyConfig> = topology
        .load(
            FileKind::Topology,
            &ask.sets,
            &crate::network::kinds::C104Kinds,
        )
        .map_err(PrepareError::Config)?;
    if topo.overrides.len() != ask.sets.len() {
        return Err(PrepareError::TrafficKeys);
    }
    let family = crate::family::of(&topo.config.network);
    crate::family::only_own_sections(family, &topo)
        .map_err(|e| PrepareError::Family(e.to_string()))?;
    match family.stress(&topo.config) {
        StressSearch::Deadlock => {}
        StressSearch::Starvation { nodes } => {
            let cases = super::starvation::generate(ask.seed, ask.seeds, nodes, ask.run_us);
            return Ok(Prepared::Starvation(Ring {
                topo,
                nodes,
                cases,
                memory_limit: ask.memory_limit,
            }));
        }
        StressSearch::Refused(why) => {
            return Err(PrepareError::Family(format!(
                "{}: {why}",
                topo.locate("network.kind")
            )));
        }
        _ => {
            return Err(PrepareError::Family(format!(
                "{}: emu stress has no search for {}",
                topo.locate("network.kind"),
                family.name()
            )));
        }
    }
    let mut sets = ask.sets.clone();
    if ask.buffers == Buffers::Small {
        let b = topo.config.link.fct_batch_tokens;
        sets.push(format!("link.buffer_tokens={b}"));
        sets.push(format!("c104.output_buffer_tokens={b}"));
    }
    let topo: Loaded<TopologyConfig> = topology
        .load(FileKind::Topology, &sets, &crate::network::kinds::C104Kinds)
        .map_err(PrepareError::Config)?;
    let name = config::stem(&topo.file.name);
    let probe: TrafficConfig =
        toml::from_str("[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"continuous\"\n")
            .map_err(|e| PrepareError::Internal(e.to_string()))?;
    let terminals = crate::family::build_within(&topo, &probe, None, ask.seed, ask.memory_limit)
        .map(|n| n.terminal_count() as u32)
        .map_err(PrepareError::Build)?;
    let cases = generate(ask.seed, ask.seeds, terminals, ask.run_us);
    Ok(Prepared::Deadlock(Search {
        sets,
        topo,
        name,
        terminals,
        cases,
        memory_limit: ask.memory_limit,
    }))
}
