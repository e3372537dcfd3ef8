//! One point of a sweep: build the plan at one offered load and seed, run it on the
//! sequential engine, and keep the chapter 7 measures (INMOS ch. 7 §7.6:
//! "throughput is measured as a percentage of the maximum possible throughput of each
//! input link. Delay is measured in terms of header times").

use crate::config::{Loaded, TopologyConfig, TrafficConfig};
use crate::engine::{EngineError, RunControl, sequential};
use crate::family::{AnyCase, Case, CaseError, CaseVisitor};
use crate::model::LinkProtocol;
use crate::pool::{Started, Watch, Watched};
use serde::{Deserialize, Serialize};

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
/// the run goes.
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
    case.visit(Measure {
        load,
        watched: &watched,
    })
}

/// Measures one case at its load.
struct Measure<'a> {
    load: f64,
    watched: &'a Watched<'a>,
}

impl CaseVisitor for Measure<'_> {
    type Output = Result<Point, PointError>;
    fn visit<P: LinkProtocol>(self, case: &Case<P>) -> Result<Point, PointError> {
        measure(case, self.load, self.watched)
    }
}

/// Runs `case` (built at `load`) on the sequential engine and measures it.
fn measure<P: LinkProtocol>(
    case: &Case<P>,
    load: f64,
    watched: &Watched,
) -> Result<Point, PointError> {
    let (net, seed) = (&case.net, case.seed);
    let ctl = RunControl::for_plan(net);
    let tick_ns = net.time().tick_ns;
    watched.running(Started::of(net, &ctl));
    let mut on_progress = |t: u64, act: &crate::model::Activity| {
        watched.note(t as f64 * tick_ns, act);
    };
    let outcome = match sequential::run(net, &ctl, Some(&mut on_progress)) {
        Ok(o) => o,
        Err(EngineError::Deadlock { tick, .. }) => {
            return Ok(Point {
                load,
                seed,
                measures: Err(tick),
            });
        }
        Err(e) => return Err(PointError::Engine(e)),
    };
    let r = case.report(&outcome);
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
