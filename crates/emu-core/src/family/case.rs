//! A loaded and built case: the two files, the seed and the plan, of any family.

use super::Family;
use crate::config::{ConfigError, Loaded, TrafficConfig};
use crate::engine::{RunControl, RunOutcome};
use crate::model::LinkProtocol;
use crate::network::TopologyConfig;
use crate::network::{BuildError, Network};
use crate::parts::dslink::DsLink;
use crate::parts::fabric::Fabric;
use crate::parts::relay::Relay;
use crate::parts::sci::Sci;
use crate::stats::{Report, ReportInput};

/// Why a case could not be loaded. Every variant prints as one line naming the file,
/// line and key, or the `--set`, responsible (exit 2 on the command line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CaseError {
    /// A file could not be found, read, parsed or deserialized, or a `--set` is
    /// malformed.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The files were read but describe no valid network.
    #[error("{location}: {message}")]
    Build {
        /// File, line and key of the offending value ([`Loaded::location`]).
        location: Box<crate::config::Location>,
        /// What is wrong, and what would be right.
        message: String,
    },
    /// `emu check` on a family that cannot deadlock
    /// ([`super::DeadlockCheck::Impossible`]). Not a failure.
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
            Some(traf) if e.file != crate::config::FileKind::Topology => {
                Box::new(traf.location(&e.key))
            }
            _ => Box::new(topology.location(&e.key)),
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
    /// The network's family.
    pub family: &'static dyn Family,
}

/// Something done with a case of any family, generic over its link protocol: the
/// command line's run, replications and engine check are visitors, so that one
/// function serves every family ([`AnyCase::visit`]).
pub trait CaseVisitor {
    /// What the visit returns.
    type Output;
    /// Does it with `case`.
    fn visit<P: LinkProtocol>(self, case: &Case<P>) -> Self::Output;
}

/// A case of any family, by the link protocol its nodes speak.
#[non_exhaustive]
pub enum AnyCase {
    /// A network of C104s and T9000s on DS-Links.
    DsLink(Case<DsLink>),
    /// A ring of SCI nodes.
    Sci(Case<Sci>),
    /// A single-stage switch fabric with its adapters.
    Fabric(Case<Fabric>),
    /// A ring of relay nodes.
    Relay(Case<Relay>),
}

impl AnyCase {
    /// Loads `topology` and `traffic` (paths or shipped names), applies `sets`, and
    /// builds the plan of whatever family the topology is. Errors are one line naming
    /// the file, line and key (exit 2). A network that would need more memory than the
    /// machine has available is refused before it is built, where the family can tell
    /// ([`AnyCase::load_within`]).
    pub fn load(
        topology: &str,
        traffic: &str,
        sets: &[String],
        seed: u64,
    ) -> Result<AnyCase, CaseError> {
        Self::load_within(topology, traffic, sets, seed, crate::memory::available())
    }

    /// [`AnyCase::load`] with the memory the run may use, in bytes (`None`: no limit).
    pub fn load_within(
        topology: &str,
        traffic: &str,
        sets: &[String],
        seed: u64,
        memory_limit: Option<u64>,
    ) -> Result<AnyCase, CaseError> {
        let (topo, traf) = super::load_files(topology, traffic, sets)?;
        Self::from_loaded(topo, traf, seed, memory_limit)
    }

    /// Builds the case of already loaded files.
    pub fn from_loaded(
        topology: Loaded<TopologyConfig>,
        traffic: Loaded<TrafficConfig>,
        seed: u64,
        memory_limit: Option<u64>,
    ) -> Result<AnyCase, CaseError> {
        let family = super::of(&topology.config.network);
        super::only_own_sections(family, &topology)?;
        super::unread_traffic(family, &traffic)?;
        let case = family.load(topology, traffic, seed, memory_limit)?;
        // The families that cannot size a network before building it (an SCI ring, a
        // fabric, a relay ring) are held to the limit once it is built, before it runs,
        // as the engine holds a single run: a sweep or a search is refused as it is.
        struct Need;
        impl CaseVisitor for Need {
            type Output = (crate::memory::Need, usize, usize);
            fn visit<P: LinkProtocol>(self, case: &Case<P>) -> Self::Output {
                let net = &case.net;
                (net.memory_need(), net.nodes().len(), net.terminals().len())
            }
        }
        let (need, nodes, terminals) = case.visit(Need);
        need.within(memory_limit, nodes, terminals)?;
        Ok(case)
    }

    /// Does `v` with the case, whatever its protocol.
    pub fn visit<V: CaseVisitor>(&self, v: V) -> V::Output {
        match self {
            AnyCase::DsLink(c) => v.visit(c),
            AnyCase::Sci(c) => v.visit(c),
            AnyCase::Fabric(c) => v.visit(c),
            AnyCase::Relay(c) => v.visit(c),
        }
    }

    /// The case's family.
    pub fn family(&self) -> &'static dyn Family {
        struct Of;
        impl CaseVisitor for Of {
            type Output = &'static dyn Family;
            fn visit<P: LinkProtocol>(self, case: &Case<P>) -> &'static dyn Family {
                case.family
            }
        }
        self.visit(Of)
    }
}

impl Case<DsLink> {
    /// Loads `topology` and `traffic` (paths or shipped names), applies `sets`, and
    /// builds the plan of a network of C104s; another family is an error naming it and
    /// the command that runs it. Errors are one line naming the file, line and key
    /// (exit 2).
    pub fn load(
        topology: &str,
        traffic: &str,
        sets: &[String],
        seed: u64,
    ) -> Result<Case, CaseError> {
        match AnyCase::load(topology, traffic, sets, seed)? {
            AnyCase::DsLink(c) => Ok(c),
            other => {
                struct Where;
                impl CaseVisitor for Where {
                    type Output = CaseError;
                    fn visit<P: LinkProtocol>(self, c: &Case<P>) -> CaseError {
                        CaseError::Build {
                            location: Box::new(c.topology.location("network.kind")),
                            message: format!(
                                "{}: this command takes networks of C104s only; run it with \
                                 emu --topology … --traffic …",
                                c.family.name()
                            ),
                        }
                    }
                }
                Err(other.visit(Where))
            }
        }
    }
}

impl<P: LinkProtocol> Case<P> {
    /// A case of `family` from its files, seed and plan.
    pub fn new(
        topology: Loaded<TopologyConfig>,
        traffic: Loaded<TrafficConfig>,
        seed: u64,
        net: Network<P>,
        family: &'static dyn Family,
    ) -> Case<P> {
        Case {
            topology,
            traffic,
            seed,
            net,
            family,
        }
    }

    /// The run control the plan asks for (no `--check`).
    pub fn control(&self) -> RunControl {
        RunControl::for_plan(&self.net)
    }

    /// The report of a run of this case.
    pub fn report(&self, outcome: &RunOutcome) -> Report {
        let topology = crate::config::stem(&self.topology.file.name);
        let traffic = crate::config::stem(&self.traffic.file.name);
        let mut input = ReportInput::for_run(
            &topology,
            &traffic,
            &self.topology.config,
            &self.traffic.config,
            self.seed,
            &self.net,
            outcome,
        );
        input.family = self.family;
        input.defaults = crate::config::kind_defaults::header_line(&self.topology);
        Report::new(&input)
    }
}
