//! One run as the command line does it, for every front end (the `emu` binary, tests,
//! benchmarks, reproductions): load the two files with their `--set` overrides, build
//! the plan, derive the run control, and turn an engine's outcome into the report.

use crate::config::overrides::parse_sets;
use crate::config::topology::NetworkConfig;
use crate::config::traffic::{InjectionConfig, PatternConfig};
use crate::config::{self, ConfigError, FileKind, Loaded, TopologyConfig, TrafficConfig};
use crate::engine::{RunControl, RunOutcome};
use crate::model::LinkProtocol;
use crate::network::{self, BuildError, Network};
use crate::parts::dslink::DsLink;
use crate::parts::fabric::Fabric;
use crate::parts::sci::Sci;
use crate::stats::{Report, ReportInput};

/// Why a case could not be loaded. Every variant prints as one line naming the file,
/// line and key, or the `--set`, responsible (exit 2 on the command line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaseError {
    /// A file could not be found, read, parsed or deserialized, or a `--set` is
    /// malformed.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The files were read but describe no valid network.
    #[error("{location}: {message}")]
    Build {
        /// File, line and key of the offending value ([`Loaded::locate`]).
        location: String,
        /// What is wrong, and what would be right.
        message: String,
    },
    /// `emu check` on a family that cannot deadlock: an SCI ring (SCI §2: every node
    /// takes every symbol it is sent) or a single-stage switch fabric (Gramsamer §2.3:
    /// the output adapters always absorb). Not a failure.
    #[error("{location}: {why}")]
    CannotDeadlock {
        /// File and line of `network.kind`.
        location: String,
        /// Why the family cannot deadlock.
        why: &'static str,
    },
    /// The network would need more memory than the run may use, known from its
    /// configuration before its routing tables are built (the same refusal as
    /// [`crate::engine::EngineError::TooLarge`]).
    #[error(transparent)]
    TooLarge(#[from] crate::memory::TooLarge),
    /// A traffic key was given with `--set` where only the topology is read.
    #[error("--set {set}: emu check reads only the topology; traffic keys do not apply")]
    TrafficSet {
        /// The `--set` argument as given.
        set: String,
    },
}

impl CaseError {
    /// A build error, located in the file that holds its key: `traffic` if it is a
    /// traffic key and the traffic file is given, else `topology`.
    pub fn build(
        e: BuildError,
        topology: &Loaded<TopologyConfig>,
        traffic: Option<&Loaded<TrafficConfig>>,
    ) -> CaseError {
        let location = match traffic {
            Some(traf) if e.file != "topology" => traf.locate(&e.key),
            _ => topology.locate(&e.key),
        };
        CaseError::Build {
            location,
            message: e.message,
        }
    }
}

/// A loaded and built case whose nodes speak link protocol `P`.
pub struct Case<P: LinkProtocol = DsLink> {
    /// The topology file, overrides applied.
    pub topology: Loaded<TopologyConfig>,
    /// The traffic file, overrides applied.
    pub traffic: Loaded<TrafficConfig>,
    /// The run seed.
    pub seed: u64,
    /// The plan.
    pub net: Network<P>,
}

/// A case of any family: the command line runs whichever the topology file names.
pub enum AnyCase {
    /// A network of C104s and T9000s on DS-Links.
    DsLink(Case<DsLink>),
    /// A ring of SCI nodes.
    Sci(Case<Sci>),
    /// A single-stage switch fabric with its adapters.
    Fabric(Case<Fabric>),
}

/// Why an SCI ring cannot deadlock.
const SCI_CANNOT_DEADLOCK: &str = "an SCI ring cannot deadlock: every node takes every symbol it \
     is sent (SCI §2), so there are no channel dependencies to check; a ring can starve a node \
     instead, which the run report names";

/// Why a switch fabric cannot deadlock.
const FABRIC_CANNOT_DEADLOCK: &str = "a single-stage switch fabric cannot deadlock: its output \
     adapters always absorb (Gramsamer §2.3), so every stored packet leaves and its credit comes \
     back; the run report shows credit underflow instead";

impl AnyCase {
    /// Loads `topology` and `traffic` (paths or shipped names), applies `sets`, and
    /// builds the plan of whatever family the topology is. Errors are one line naming
    /// the file, line and key (exit 2). A C104 network that would need more memory
    /// than the machine has available is refused before its routing tables are built
    /// ([`AnyCase::load_within`]).
    pub fn load(
        topology: &str,
        traffic: &str,
        sets: &[String],
        seed: u64,
    ) -> Result<AnyCase, CaseError> {
        Self::load_within(topology, traffic, sets, seed, crate::memory::available())
    }

    /// [`AnyCase::load`] with the memory the run may use, in bytes (`None`: no limit): a
    /// C104 network that would need more ([`network::Checked::memory_need`]) is
    /// [`CaseError::TooLarge`] before its routing tables are built.
    pub fn load_within(
        topology: &str,
        traffic: &str,
        sets: &[String],
        seed: u64,
        memory_limit: Option<u64>,
    ) -> Result<AnyCase, CaseError> {
        let (topo, traf) = load_files(topology, traffic, sets)?;
        let name = stem(&topo.file.name);
        if matches!(topo.config.network, NetworkConfig::Fabric(_)) {
            let trace = config::trace_file::load_trace(&traf)?;
            let net = network::fabric_from_config(
                &name,
                &topo.config,
                &traf.config,
                seed,
                trace.as_deref(),
            )
            .map_err(|e| CaseError::build(e, &topo, Some(&traf)))?;
            return Ok(AnyCase::Fabric(Case {
                topology: topo,
                traffic: traf,
                seed,
                net,
            }));
        }
        if matches!(topo.config.network, NetworkConfig::SciRing(_)) {
            let net = network::sci_ring_from_config(&name, &topo.config, &traf.config, seed)
                .map_err(|e| CaseError::build(e, &topo, Some(&traf)))?;
            return Ok(AnyCase::Sci(Case {
                topology: topo,
                traffic: traf,
                seed,
                net,
            }));
        }
        let located = |e| CaseError::build(e, &topo, Some(&traf));
        let checked = network::check(&name, &topo.config, &traf.config, seed).map_err(located)?;
        if memory_limit.is_some() {
            let (need, nodes, terminals) = checked.memory_need().map_err(located)?;
            need.within(memory_limit, nodes, terminals)?;
        }
        let net = checked.build().map_err(located)?;
        Ok(AnyCase::DsLink(Case {
            topology: topo,
            traffic: traf,
            seed,
            net,
        }))
    }
}

fn load_files(
    topology: &str,
    traffic: &str,
    sets: &[String],
) -> Result<(Loaded<TopologyConfig>, Loaded<TrafficConfig>), CaseError> {
    config::validate_sets(sets)?;
    let topo = config::load_topology(topology, sets)?;
    let traf = config::load_traffic(traffic, sets)?;
    Ok((topo, traf))
}

impl Case<DsLink> {
    /// Loads `topology` and `traffic` (paths or shipped names), applies `sets`, and
    /// builds the plan of a DS-Link network; an SCI ring is an error naming the command
    /// that runs it. Errors are one line naming the file, line and key (exit 2).
    pub fn load(
        topology: &str,
        traffic: &str,
        sets: &[String],
        seed: u64,
    ) -> Result<Case, CaseError> {
        match AnyCase::load(topology, traffic, sets, seed)? {
            AnyCase::DsLink(c) => Ok(c),
            AnyCase::Sci(c) => Err(CaseError::Build {
                location: c.topology.locate("network.kind"),
                message: "an SCI ring: this command takes C104 networks only; run it with \
                          emu --topology … --traffic … or emu reproduce sci-…"
                    .to_string(),
            }),
            AnyCase::Fabric(c) => Err(CaseError::Build {
                location: c.topology.locate("network.kind"),
                message: "a switch fabric: this command takes C104 networks only; run it with \
                          emu --topology … --traffic … or emu reproduce fabric-…"
                    .to_string(),
            }),
        }
    }
}

impl<P: LinkProtocol> Case<P> {
    /// The run control the plan asks for (no `--check`).
    pub fn control(&self) -> RunControl {
        RunControl::for_plan(&self.net)
    }

    /// The report of a run of this case.
    pub fn report(&self, outcome: &RunOutcome) -> Report {
        Report::new(&ReportInput::for_run(
            &stem(&self.topology.file.name),
            &stem(&self.traffic.file.name),
            &self.topology.config,
            &self.traffic.config,
            self.seed,
            &self.net,
            outcome,
        ))
    }
}

/// Loads topology `spec` with topology `--set` overrides and builds its plan, with a
/// placeholder traffic (uniform, continuous): for `emu check`, whose routing does not
/// depend on the traffic. A traffic key among `sets` is an error.
pub fn topology_plan(spec: &str, sets: &[String]) -> Result<Network, CaseError> {
    if let Some(o) = parse_sets(sets)?
        .into_iter()
        .find(|o| o.kind == FileKind::Traffic)
    {
        return Err(CaseError::TrafficSet { set: o.text });
    }
    let topo = config::load_topology(spec, sets)?;
    let why = match topo.config.network {
        NetworkConfig::SciRing(_) => Some(SCI_CANNOT_DEADLOCK),
        NetworkConfig::Fabric(_) => Some(FABRIC_CANNOT_DEADLOCK),
        _ => None,
    };
    if let Some(why) = why {
        return Err(CaseError::CannotDeadlock {
            location: topo.locate("network.kind"),
            why,
        });
    }
    let traffic = TrafficConfig {
        description: String::new(),
        pattern: PatternConfig::Uniform,
        injection: InjectionConfig::Continuous,
        message: Default::default(),
        phases: Default::default(),
        terminals: Default::default(),
        request_response: false,
    };
    network::build(&stem(&topo.file.name), &topo.config, &traffic, 1)
        .map_err(|e| CaseError::build(e, &topo, None))
}

/// The file name without directory and `.toml`: `topologies/hypercube8.toml` →
/// `hypercube8`.
pub fn stem(name: &str) -> String {
    let base = std::path::Path::new(name)
        .file_name()
        .map_or(name.to_string(), |f| f.to_string_lossy().into_owned());
    base.strip_suffix(".toml").unwrap_or(&base).to_string()
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
