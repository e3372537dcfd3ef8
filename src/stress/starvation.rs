//! `emu stress` on an SCI ring: a ring cannot deadlock, but it can starve a node (SCI
//! §4.2-4.3), so the search runs saturating traffic shapes over many seeds and reports
//! the first case in which a node delivers nothing in the window while it has packets
//! waiting (the run report's "starved").
//!
//! The shapes, each a plain traffic configuration that `emu` can rerun:
//! - **starved**: every node saturated, uniform destinations except one random node
//!   that nothing is sent to (SCI §4.2's starved node);
//! - **hot**: one random node saturated, the others Poisson at a random load, uniform
//!   destinations (SCI §4.3's hot sender);
//! - **permutation** and **hotspot**: the continuous cases of the deadlock search
//!   ([`super::case`]), every node saturated.

use super::case::{self, CaseKind};
use crate::config::traffic::{
    InjectionConfig, MessageConfig, PatternConfig, PhasesConfig, TerminalsConfig,
};
use crate::config::{TopologyConfig, TrafficConfig};
use crate::engine::{self, EngineError, RunControl, RunOutcome};
use crate::network::{BuildError, sci_ring_from_config};
use crate::pool::{Started, Unwatched, Watch, Watched};
use crate::stats::{Report, ReportInput};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One SCI stress case.
#[derive(Clone, Debug, PartialEq)]
pub struct SciCase {
    /// Position in the search.
    pub index: usize,
    /// The traffic shape: `starved`, `hot`, `permutation` or `hotspot`.
    pub kind: &'static str,
    /// Run seed.
    pub seed: u64,
    /// The traffic.
    pub traffic: TrafficConfig,
}

/// The cases for `seeds` seeds from `first_seed` on a ring of `nodes`, each injecting
/// for `run_us` microseconds after a warm-up of a fifth of that: four per seed.
pub fn generate(first_seed: u64, seeds: u32, nodes: u32, run_us: f64) -> Vec<SciCase> {
    let phases = PhasesConfig {
        start_us: 0.0,
        warmup_us: run_us / 5.0,
        measure_us: run_us,
        drain_limit_us: run_us / 5.0,
    };
    let mut out = Vec::new();
    for s in 0..u64::from(seeds) {
        let seed = first_seed.wrapping_add(s);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5343_4952_494e_4700);
        let node = rng.random_range(0..nodes);
        let plain = |pattern, injection, saturated, description: String| TrafficConfig {
            description,
            pattern,
            injection,
            message: MessageConfig::default(),
            phases: phases.clone(),
            terminals: TerminalsConfig {
                senders: None,
                saturated,
            },
            request_response: false,
        };
        let starved = plain(
            PatternConfig::Starved { node },
            InjectionConfig::Continuous,
            Vec::new(),
            format!(
                "emu stress SCI case: every node saturated, nothing sent to node {node}, seed {seed}"
            ),
        );
        let load = rng.random_range(0.02..0.3);
        let hot = plain(
            PatternConfig::Uniform,
            InjectionConfig::Rate { load },
            vec![node],
            format!(
                "emu stress SCI case: node {node} always sending, the others at {load:.3} bytes/ns, seed {seed}"
            ),
        );
        let mut push = |kind, traffic| {
            out.push(SciCase {
                index: out.len(),
                kind,
                seed,
                traffic,
            })
        };
        push("starved", starved);
        push("hot", hot);
        for kind in [CaseKind::Permutation, CaseKind::Hotspot] {
            let mut c = case::one(0, kind, seed, nodes, run_us).traffic;
            c.phases = phases.clone();
            push(kind.name(), c);
        }
    }
    out
}

/// Why a case could not be run.
#[derive(Debug, thiserror::Error)]
pub enum SciStressError {
    /// The case does not build (a bug of the generator, or a bad topology).
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The engine failed (an SCI ring cannot deadlock; a protocol error can happen).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// A case's run: its report's starved nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct Starvation {
    /// The case.
    pub case: SciCase,
    /// Nodes starved in it.
    pub starved: Vec<usize>,
    /// Cycles simulated.
    pub ticks: u64,
}

/// Runs `c` on the ring `topology` (named `name`) and returns its starved nodes.
pub fn run_case(
    name: &str,
    topology: &TopologyConfig,
    c: &SciCase,
) -> Result<Starvation, SciStressError> {
    run_case_watched(name, topology, c, None, &Unwatched)
}

/// [`run_case`], refusing a ring that would need more than `memory_limit` bytes (`None`:
/// what the system leaves, [`RunControl::for_plan`]) and telling `watch` how the run
/// goes.
pub fn run_case_watched(
    name: &str,
    topology: &TopologyConfig,
    c: &SciCase,
    memory_limit: Option<u64>,
    watch: &dyn Watch,
) -> Result<Starvation, SciStressError> {
    let watched = Watched::begin(watch);
    let net = sci_ring_from_config(name, topology, &c.traffic, c.seed)?;
    let mut ctl = RunControl::for_plan(&net);
    if memory_limit.is_some() {
        ctl.memory_limit = memory_limit;
    }
    let tick_ns = net.time().tick_ns;
    watched.running(Started::of(&net, &ctl));
    let mut on_progress = |t: u64, act: &crate::model::Activity| {
        watched.note(t as f64 * tick_ns, act);
    };
    let out: RunOutcome = engine::sharded::run(&net, &ctl, 1, Some(&mut on_progress))?;
    let report = Report::new(&ReportInput::for_run(
        name, "stress", topology, &c.traffic, c.seed, &net, &out,
    ));
    Ok(Starvation {
        case: c.clone(),
        starved: report.nodes.map(|n| n.starved).unwrap_or_default(),
        ticks: out.end_tick,
    })
}

/// Runs `cases` in order on `threads` threads and returns every result, in case order,
/// up to and including the first case that starves a node.
pub fn search(
    name: &str,
    topology: &TopologyConfig,
    cases: &[SciCase],
    threads: usize,
) -> Result<Vec<Starvation>, SciStressError> {
    search_watched(name, topology, cases, threads, None, &Unwatched)
}

/// [`search`], each case's ring held to `memory_limit` as [`run_case_watched`] holds
/// it, telling `watch` how each run goes.
pub fn search_watched(
    name: &str,
    topology: &TopologyConfig,
    cases: &[SciCase],
    threads: usize,
    memory_limit: Option<u64>,
    watch: &dyn Watch,
) -> Result<Vec<Starvation>, SciStressError> {
    let mut done = Vec::new();
    for chunk in cases.chunks(threads.max(1)) {
        let results: Vec<Result<Starvation, SciStressError>> = std::thread::scope(|s| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|c| s.spawn(move || run_case_watched(name, topology, c, memory_limit, watch)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        });
        for r in results {
            let r = r?;
            let found = !r.starved.is_empty();
            done.push(r);
            if found {
                return Ok(done);
            }
        }
    }
    Ok(done)
}
