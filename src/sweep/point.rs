//! One point of a sweep: build the plan at one offered load and seed, run it on one
//! thread, and keep the chapter 7 measures (INMOS ch. 7 §7.6:
//! "throughput is measured as a percentage of the maximum possible throughput of each
//! input link. Delay is measured in terms of header times").

use crate::api::{RunOptions, run_case};
use crate::config::{Loaded, TopologyConfig, TrafficConfig};
use crate::engine::EngineError;
use crate::family::{AnyCase, CaseError};
use crate::pool::{Started, Watch, Watched};
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;

/// What one run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measures {
    /// Payload created per terminal in the window, % of link data capacity.
    pub offered_pct: f64,
    /// Payload delivered per terminal in the window, % of link data capacity.
    pub throughput_pct: f64,
    /// The same as a % of the most a link can carry in this packet format (headers and
    /// terminators take wire time): chapter 7's "maximum possible throughput of each
    /// input link".
    pub link_max_pct: f64,
    /// Message delay (creation to delivery), mean, in header times (on an SCI ring: in
    /// cycles, its delay unit).
    pub mean_delay_ht: f64,
    /// 99th percentile of the delay, header times.
    pub p99_delay_ht: f64,
    /// Largest delay, header times.
    pub max_delay_ht: f64,
    /// Measured messages not delivered by the drain limit.
    pub undelivered: u64,
}

/// One run of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Offered load, fraction of link data capacity.
    pub load: f64,
    /// Run seed.
    pub seed: u64,
    /// The measures, or the tick at which the run deadlocked.
    pub measures: Result<Measures, u64>,
}

/// Why a point could not be run at all.
#[derive(Debug, thiserror::Error)]
pub enum PointError {
    /// The case does not load or build (bad configuration).
    #[error("{0}")]
    Build(CaseError),
    /// The engine failed for a reason other than deadlock.
    #[error("{0}")]
    Engine(EngineError),
}

/// Runs `topology` under `traffic` with Bernoulli injection at `load` (a fabric's bursty
/// injection keeps its burst size and takes the load), seed `seed`, refusing a network
/// that would need more than `memory_limit` bytes (`None`: no limit); tells `watch` how
/// the run goes. The run is the core's ([`crate::api::run_case`]) on one thread, its
/// histograms held to the memory the system states as a run of the command line's.
pub fn run_point(
    topology: &Loaded<TopologyConfig>,
    traffic: &Loaded<TrafficConfig>,
    load: f64,
    seed: u64,
    memory_limit: Option<u64>,
    watch: &dyn Watch,
) -> Result<Point, PointError> {
    let watched = Watched::begin(watch);
    let mut traffic = traffic.clone();
    traffic.config.injection = traffic.config.injection.at_load(load);
    let case = AnyCase::from_loaded(topology.clone(), traffic, seed, memory_limit)
        .map_err(PointError::Build)?;
    let run_limit = crate::memory::usable();
    watched.running(Started::of_case(&case, run_limit));
    let options = RunOptions {
        threads: Some(1),
        memory_limit: run_limit,
        ..RunOptions::default()
    }
    .on_progress(|p| {
        watched.note(p.virtual_us * 1000.0, &p.activity);
        ControlFlow::Continue(())
    });
    let report = run_case(&case, &options).map_err(|e| match e.into_engine_error() {
        Ok(e) => PointError::Engine(e),
        Err(e) => PointError::Engine(EngineError::Internal(e.to_string())),
    })?;
    let r = match (report.stats, report.failure) {
        (Some(r), _) => r,
        (None, Some(EngineError::Deadlock { tick, .. })) => {
            return Ok(Point {
                load,
                seed,
                measures: Err(tick),
            });
        }
        (None, Some(e)) => return Err(PointError::Engine(e)),
        (None, None) => {
            return Err(PointError::Engine(EngineError::Internal(
                "a run that did not complete gave no reason".into(),
            )));
        }
    };
    let t = &r.throughput;
    let d = &r.latency.message_latency.delay_units;
    // A family without a packet format of headers and terminators (an SCI ring) has
    // no format maximum: its "of max" is the throughput itself.
    let link_max_pct = if t.format_max_pct > 0.0 {
        t.delivered_pct.mean / t.format_max_pct * 100.0
    } else {
        t.delivered_pct.mean
    };
    Ok(Point {
        load,
        seed,
        measures: Ok(Measures {
            offered_pct: t.offered_pct.mean,
            throughput_pct: t.delivered_pct.mean,
            link_max_pct,
            mean_delay_ht: d.mean,
            p99_delay_ht: d.p99,
            max_delay_ht: d.max,
            undelivered: r.messages.undelivered,
        }),
    })
}
