//! The flags every subcommand that builds a network shares, declared once and flattened
//! into each: the topology, its `--set` overrides and the memory the run may use
//! ([`NetworkArgs`]); the traffic of a case ([`CaseArgs`]); the seed and threads
//! ([`RunsArgs`]); and
//! `--json` ([`JsonArg`]).

use super::exit::Exit;
use super::fail;
use std::path::PathBuf;

/// The network a command builds.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct NetworkArgs {
    /// Topology file, or the name of a shipped one (e.g. hypercube8.toml, hypercube6,
    /// sci-ring4, fabric16-grant; emu list shows them).
    #[arg(long, short = 't')]
    pub topology: Option<String>,
    /// Override a field: section.key=value (prefix topology. or traffic. if ambiguous).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Refuse, before building it, a network whose state would need more than this
    /// many gigabytes (10⁹ bytes) of memory, and stop a run (exit 2) whose memory grows
    /// by more while it runs. Default: the tightest of what the machine has available,
    /// the process's limits (ulimit -v, ulimit -d) and its cgroup's memory.max; 0: no
    /// limit. The refusal gives the size the network would need.
    #[arg(long, value_name = "GB")]
    pub memory_limit: Option<f64>,
}

impl NetworkArgs {
    /// The topology, or (printed) exit code 2 if `--topology` is missing.
    pub fn topology(&self) -> Result<&str, Exit> {
        self.topology.as_deref().ok_or_else(|| {
            fail(
                Exit::BadInput,
                "give --topology (a file, or a shipped name: emu list shows them)",
            )
        })
    }

    /// The memory a run may use, in bytes (`None`: no limit), or (printed) exit code 2.
    pub fn memory_limit(&self) -> Result<Option<u64>, Exit> {
        memory_limit(self.memory_limit).map_err(|e| fail(Exit::BadInput, e))
    }

    /// A guard holding what runs next to `--memory-limit` (given: resident memory at
    /// most that, 0: none; not given: every limit the system states) and to
    /// `time_limit` of projected wall time (`None`: none).
    pub fn guard(
        &self,
        time_limit: Option<std::time::Duration>,
    ) -> Result<super::guard::RunGuard, Exit> {
        let explicit = match self.memory_limit {
            None => None,
            Some(_) => Some(self.memory_limit()?),
        };
        Ok(super::guard::RunGuard::start(explicit, time_limit))
    }
}

/// The memory a run may use, in bytes, from `--memory-limit GB` (0: no limit; not
/// given: what a run may plan for under the limits the system states ([`emu::memory::usable`]) — what the machine has
/// available, the process's `ulimit -v` / `ulimit -d`, its cgroup's `memory.max`).
pub fn memory_limit(gb: Option<f64>) -> Result<Option<u64>, String> {
    match gb {
        None => Ok(emu::memory::usable()),
        Some(gb) if !(gb.is_finite() && (0.0..=1e9).contains(&gb)) => Err(format!(
            "--memory-limit {gb}: give gigabytes from 0 (no limit) to 1e9"
        )),
        Some(gb) => Ok((gb > 0.0).then_some((gb * 1e9) as u64)),
    }
}

/// A case: the network, the traffic, the seed and the threads.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CaseArgs {
    /// The network.
    #[command(flatten)]
    pub network: NetworkArgs,
    /// Traffic file, or the name of a shipped one (e.g. shuffle, uniform, sci-uniform).
    #[arg(long, short = 'p')]
    pub traffic: Option<String>,
    /// The seed and the threads.
    #[command(flatten)]
    pub runs: RunsArgs,
}

/// The seed and the threads of commands that run something (a case, a sweep, a search).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RunsArgs {
    /// Run seed (the first, for several runs: SEED, SEED+1, …): the same seed gives the
    /// same result, byte for byte.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core; a single run takes fewer on a network of
    /// under 64 nodes per core). Results never depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

impl CaseArgs {
    /// The topology and the traffic, or (printed) exit code 2 if one is missing.
    pub fn files(&self) -> Result<(&str, &str), Exit> {
        match (&self.network.topology, &self.traffic) {
            (Some(t), Some(p)) => Ok((t, p)),
            _ => Err(fail(
                Exit::BadInput,
                "give --topology and --traffic (see emu --help; emu list shows the shipped files)",
            )),
        }
    }
}

/// `--json FILE`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct JsonArg {
    /// Also write the result as JSON to this file (a run: the full report; `-`:
    /// standard output, the text report then going to standard error).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}
