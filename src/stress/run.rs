//! Running stress cases: one case is one full, deterministic, single-threaded run of
//! the plan (`engine::sharded::run(net, ctl, 1, None)`); a search spreads the cases
//! over plain threads taking jobs from a queue in index order, stops taking new ones
//! once a case has deadlocked, and reports the lowest-numbered deadlocking case, so
//! the answer never depends on how the threads were scheduled.
//!
//! A deadlock is the engine's verdict (docs/architecture.md "Deadlock"): no token moved
//! for the deadlock window while packets were in flight.

use super::case::StressCase;
use crate::config::{TopologyConfig, TrafficConfig};
use crate::deadlock::CycleStep;
use crate::engine::{self, EngineError, RunControl};
use crate::network;
use crate::pool::{Started, Unwatched, Watch, Watched};
use std::sync::atomic::{AtomicBool, Ordering};

/// The network under test: its name (for the plan) and its configuration, buffers
/// already chosen.
#[derive(Clone, Copy, Debug)]
pub struct Target<'a> {
    /// Topology name, e.g. `ring4`.
    pub name: &'a str,
    /// The topology configuration.
    pub topology: &'a TopologyConfig,
}

/// A deadlock a run ran into.
#[derive(Clone, Debug)]
pub struct Found {
    /// Tick at which the engine declared it.
    pub tick: u64,
    /// Last tick a token moved.
    pub since: u64,
    /// Packets in flight.
    pub in_flight: u64,
    /// The wait-for cycle, if the stuck nodes' waits close one.
    pub cycle: Option<Vec<CycleStep>>,
}

/// What one run did.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// It finished (or gave up waiting at the drain limit) at this tick.
    Clean {
        /// Ticks simulated.
        ticks: u64,
        /// False if measured messages were still undelivered at the drain limit: a
        /// slow or starved flow, or part of the network stuck while another part
        /// kept moving (which the engine's global no-progress test cannot call a
        /// deadlock).
        complete: bool,
    },
    /// It deadlocked.
    Deadlock(Box<Found>),
}

impl Verdict {
    /// Ticks simulated (to the deadlock, for a deadlock).
    pub fn ticks(&self) -> u64 {
        match self {
            Verdict::Clean { ticks, .. } => *ticks,
            Verdict::Deadlock(f) => f.tick,
        }
    }
}

/// Why a case could not be judged.
#[derive(Debug, thiserror::Error)]
pub enum StressError {
    /// The plan does not build (a bad topology or override): exit 2.
    #[error("{0}")]
    Build(String),
    /// The engine stopped for something other than a deadlock, e.g. a flow-control
    /// violation: that is an error, not a deadlock.
    #[error("{0}")]
    Engine(EngineError),
}

/// Builds and runs `traffic` with `seed` on `target`, single-threaded.
pub fn run_one(target: Target, traffic: &TrafficConfig, seed: u64) -> Result<Verdict, StressError> {
    run_watched(target, traffic, seed, &Unwatched)
}

/// [`run_one`], telling `watch` how the run goes.
pub fn run_watched(
    target: Target,
    traffic: &TrafficConfig,
    seed: u64,
    watch: &dyn Watch,
) -> Result<Verdict, StressError> {
    let watched = Watched::begin(watch);
    let net = network::build(target.name, target.topology, traffic, seed)
        .map_err(|e| StressError::Build(format!("{} {}: {}", e.file.prefix(), e.key, e.message)))?;
    let ctl = RunControl::for_plan(&net);
    let tick_ns = net.time().tick_ns;
    watched.running(Started::of(&net, &ctl));
    let mut on_progress = |t: u64, act: &crate::model::Activity| {
        watched.note(t as f64 * tick_ns, act);
    };
    match engine::sharded::run(&net, &ctl, 1, Some(&mut on_progress)) {
        Ok(o) => Ok(Verdict::Clean {
            ticks: o.end_tick,
            complete: o.complete,
        }),
        Err(EngineError::Deadlock {
            tick,
            since,
            in_flight,
            cycle,
            ..
        }) => Ok(Verdict::Deadlock(Box::new(Found {
            tick,
            since,
            in_flight,
            cycle,
        }))),
        Err(e) => Err(StressError::Engine(e)),
    }
}

/// The outcome of a search.
#[derive(Debug)]
pub struct SearchResult {
    /// Cases run, up to and including the first deadlocking one.
    pub tried: usize,
    /// Ticks simulated by those cases.
    pub ticks: u64,
    /// Of those, the cases that ended with measured messages undelivered.
    pub incomplete: usize,
    /// The first deadlocking case (lowest index) and its deadlock.
    pub first: Option<(StressCase, Found)>,
}

/// Runs `cases` on up to `threads` threads and stops at the first deadlock. The
/// result is that of running the cases one by one in index order and stopping at the
/// first deadlock (or error): every case before it is run, none after it counts.
/// `done(case, verdict)` is called as cases finish, in completion order.
pub fn search(
    target: Target,
    cases: &[StressCase],
    threads: usize,
    done: impl Fn(&StressCase, &Verdict) + Sync,
) -> Result<SearchResult, StressError> {
    search_watched(target, cases, threads, &Unwatched, done)
}

/// [`search`], telling `watch` how each case's run goes.
pub fn search_watched(
    target: Target,
    cases: &[StressCase],
    threads: usize,
    watch: &dyn Watch,
    done: impl Fn(&StressCase, &Verdict) + Sync,
) -> Result<SearchResult, StressError> {
    search_until(target, cases, threads, watch, None, done)
}

/// [`search_watched`] that starts no further case once `stop` is set: the search then
/// ends in [`EngineError::Stopped`] (at tick 0, that of the first case not started).
pub fn search_until(
    target: Target,
    cases: &[StressCase],
    threads: usize,
    watch: &dyn Watch,
    stop: Option<&AtomicBool>,
    done: impl Fn(&StressCase, &Verdict) + Sync,
) -> Result<SearchResult, StressError> {
    let results = crate::pool::run_until(
        cases,
        threads,
        |c| {
            if stop.is_some_and(|s| s.load(Ordering::Acquire)) {
                return Err(StressError::Engine(EngineError::Stopped { tick: 0 }));
            }
            run_watched(target, &c.traffic, c.seed, watch)
        },
        |r| !matches!(r, Ok(Verdict::Clean { .. })),
        |i, r| {
            if let Ok(v) = r {
                done(&cases[i], v);
            }
        },
    );
    let (mut ticks, mut incomplete) = (0, 0);
    // Indices are taken in increasing order and a worker only skips an index above a
    // deadlock already found, so every case up to the first deadlock has run.
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Some(Ok(Verdict::Clean { ticks: t, complete })) => {
                ticks += t;
                incomplete += usize::from(!complete);
            }
            Some(Ok(Verdict::Deadlock(f))) => {
                return Ok(SearchResult {
                    tried: i + 1,
                    ticks: ticks + f.tick,
                    incomplete,
                    first: Some((cases[i].clone(), *f)),
                });
            }
            Some(Err(e)) => return Err(e),
            None => {
                return Err(StressError::Engine(EngineError::Internal(format!(
                    "stress case {i} was never run"
                ))));
            }
        }
    }
    Ok(SearchResult {
        tried: cases.len(),
        ticks,
        incomplete,
        first: None,
    })
}
