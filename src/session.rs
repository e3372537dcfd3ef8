//! One run as the command line does it, for every front end (the `emu` binary, tests,
//! benchmarks, reproductions): load the two files with their `--set` overrides, build
//! the plan, derive the run control, and turn an engine's outcome into the report.

use crate::config::{self, Loaded, TopologyConfig, TrafficConfig};
use crate::engine::{RunControl, RunOutcome};
use crate::network::{self, Network};
use crate::stats::{Report, ReportInput};

/// A loaded and built case.
pub struct Case {
    /// The topology file, overrides applied.
    pub topology: Loaded<TopologyConfig>,
    /// The traffic file, overrides applied.
    pub traffic: Loaded<TrafficConfig>,
    /// The run seed.
    pub seed: u64,
    /// The plan.
    pub net: Network,
}

impl Case {
    /// Loads `topology` and `traffic` (paths or shipped names), applies `sets`, and
    /// builds the plan. Errors are one line naming the file, line and key (exit 2).
    pub fn load(topology: &str, traffic: &str, sets: &[String], seed: u64) -> Result<Case, String> {
        config::validate_sets(sets).map_err(|e| e.to_string())?;
        let topo = config::load_topology(topology, sets).map_err(|e| e.to_string())?;
        let traf = config::load_traffic(traffic, sets).map_err(|e| e.to_string())?;
        let net = network::build(&stem(&topo.file.name), &topo.config, &traf.config, seed)
            .map_err(|e| {
                let loc = if e.file == "topology" {
                    topo.locate(&e.key)
                } else {
                    traf.locate(&e.key)
                };
                format!("{loc}: {}", e.message)
            })?;
        Ok(Case {
            topology: topo,
            traffic: traf,
            seed,
            net,
        })
    }

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

/// The file name without directory and `.toml`: `topologies/hypercube8.toml` →
/// `hypercube8`.
pub fn stem(name: &str) -> String {
    let base = std::path::Path::new(name)
        .file_name()
        .map_or(name.to_string(), |f| f.to_string_lossy().into_owned());
    base.strip_suffix(".toml").unwrap_or(&base).to_string()
}

/// Quotes `s` for a POSIX shell if it needs it, so that a printed reproduce command can
/// be pasted back as it is.
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}
