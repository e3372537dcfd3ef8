//! One fabric simulation as the Gramsamer ch. 7 experiments run it, and independent
//! replications of it until the mean system delay is known to the document's precision
//! (Gramsamer §2.4, §7.6: "half-sided confidence interval of 3% of the system delay at a
//! confidence level of 90%", Student-t).
//!
//! Run length as §2.4 sets it: a warm-up of 1,600 packets per port, then X = n·N²
//! packets with n = 16,000 per crosspoint. Both are turned into packet cycles at the
//! offered load L (N inputs create N·L packets per cycle), so a run measures the packets
//! created in a window of n·N/L cycles.

use super::super::ReproduceError;
use super::runner;
use crate::network::FabricRun;
use crate::parts::fabric::config::{FabricSpec, MemoryConfig};
use crate::parts::fabric::{Arrivals, Destinations, Strategy};
use crate::stats::confidence::Interval;
use crate::terminal::TerminalStats;

/// Where a point's destinations go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pattern {
    /// Uniform over all outputs.
    Uniform,
    /// Eq. 2.2 with this w.
    NonUniform(f64),
}

/// One simulated configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// N.
    pub ports: u32,
    /// RTT in packet cycles.
    pub rtt: u32,
    /// Crosspoint memory in packets.
    pub memory: u32,
    /// The credit return strategy (relative credit).
    pub strategy: Strategy,
    /// Mean burst size (1 = Bernoulli).
    pub burst: f64,
    /// Bimodal frames (short, long packets, share of long frames) instead of on/off
    /// bursts of mean `burst` (Gramsamer §2.5.1); `None`: bursty.
    pub frames: Option<(u32, u32, f64)>,
    /// Offered load L.
    pub load: f64,
    /// Destinations.
    pub pattern: Pattern,
    /// Measured packets per crosspoint (n).
    pub per_crosspoint: u64,
    /// Warm-up packets per port.
    pub warmup_per_port: u64,
}

/// What one run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Mean system delay of the measured packets, in packet cycles.
    pub mean_delay: f64,
    /// Mean output throughput, in % of one packet per cycle.
    pub output_pct: f64,
    /// Credits waiting for return per input, averaged over the window.
    pub credits_queued: f64,
    /// Fractions of (input, cycle) with k departures.
    pub parallel: Vec<f64>,
}

impl Point {
    /// The design point of Gramsamer §7.6.1: M = RTT = 64, L = 98 %, with `strategy`,
    /// `ports` and burst size `burst`, full-length runs.
    pub fn design(ports: u32, burst: f64, strategy: Strategy) -> Point {
        Point {
            ports,
            rtt: 64,
            memory: 64,
            strategy,
            burst,
            frames: None,
            load: 0.98,
            pattern: Pattern::Uniform,
            per_crosspoint: 16_000,
            warmup_per_port: 1_600,
        }
    }

    /// "N=16 RTT=64 M=64 BS=30 L=0.98 lof" (bimodal: "BS=10/30").
    pub fn label(&self) -> String {
        if let Some((short, long, _)) = self.frames {
            return format!(
                "N={} RTT={} M={} BS={short}/{long} L={} {}",
                self.ports,
                self.rtt,
                self.memory,
                self.load,
                self.strategy.name()
            );
        }
        format!(
            "N={} RTT={} M={} BS={} L={} {}",
            self.ports,
            self.rtt,
            self.memory,
            self.burst,
            self.load,
            self.strategy.name()
        )
    }

    fn spec(&self) -> Result<FabricSpec, ReproduceError> {
        runner::spec(self.ports, |c| {
            c.rtt = self.rtt;
            c.memory = Some(MemoryConfig::Packets(self.memory));
            c.strategy = Some(self.strategy.name().into());
            c.voq_cap = 10_000_000;
        })
    }

    /// Runs the point once with `seed`.
    pub fn run(&self, seed: u64) -> Result<Sample, ReproduceError> {
        let spec = self.spec()?;
        let warmup = (self.warmup_per_port as f64 / self.load).ceil() as u64;
        let measure =
            (self.per_crosspoint as f64 * f64::from(self.ports) / self.load).ceil() as u64;
        let run = FabricRun {
            start: 0,
            window: (warmup, warmup + measure),
            drain: 100 * measure + 1_000_000,
            batch: false,
            seed,
            timeline: None,
        };
        let arrivals = match self.frames {
            Some((short, long, share)) => Arrivals::bimodal(short, long, share, self.load),
            None => Arrivals::bursty(self.burst, self.load),
        };
        let destinations = match self.pattern {
            Pattern::Uniform => Destinations::Uniform,
            Pattern::NonUniform(w) => Destinations::NonUniform { w },
        };
        let out = runner::run(&self.label(), &spec, &run, |_| {
            (arrivals.clone(), destinations)
        })?;
        if !out.complete {
            return Err(ReproduceError::MessagesUndelivered { run: self.label() });
        }
        let total = TerminalStats::total(&out.terminals);
        let n = self.ports as usize;
        let switch = runner::part(&out, n);
        let cycles = measure as f64;
        let departures: u64 = switch.get("output_departures").iter().sum();
        let queued: u64 = switch.get("credits_queued").iter().sum();
        let par = switch.get("parallel_departures");
        let slots = cycles * n as f64;
        let busy: u64 = par.iter().skip(1).sum();
        let mut parallel = vec![(slots - busy as f64) / slots];
        parallel.extend(par.iter().skip(1).map(|&c| c as f64 / slots));
        Ok(Sample {
            mean_delay: total.message_latency.mean(),
            output_pct: 100.0 * departures as f64 / (cycles * n as f64),
            credits_queued: queued as f64 / (cycles * n as f64),
            parallel,
        })
    }
}

/// Replications of one point and what they say about its mean delay.
#[derive(Clone, Debug, PartialEq)]
pub struct Replicated {
    /// Every replication's sample, in seed order.
    pub samples: Vec<Sample>,
    /// Mean of the replications' mean delays.
    pub mean_delay: f64,
    /// Half-width of its 90 % Student-t confidence interval.
    pub half_width: f64,
}

impl Replicated {
    /// From samples.
    pub fn new(samples: Vec<Sample>) -> Replicated {
        let d: Vec<f64> = samples.iter().map(|s| s.mean_delay).collect();
        let (mean, half_width) = mean_and_half_width(&d);
        Replicated {
            samples,
            mean_delay: mean,
            half_width,
        }
    }

    /// Half-width relative to the mean.
    pub fn relative_half_width(&self) -> f64 {
        if self.mean_delay == 0.0 {
            0.0
        } else {
            self.half_width / self.mean_delay
        }
    }

    /// Mean of a sample quantity over the replications.
    pub fn mean_of(&self, f: impl Fn(&Sample) -> f64) -> f64 {
        self.samples.iter().map(f).sum::<f64>() / self.samples.len().max(1) as f64
    }
}

/// Every point of `points` run with seeds 1..=`runs`, all runs in parallel on every
/// core (or taken from the [`super::memo`] in force); one [`Replicated`] per point, in
/// order.
pub fn replicate_all(points: &[Point], runs: u64) -> Result<Vec<Replicated>, ReproduceError> {
    let jobs: Vec<(usize, u64)> = (0..points.len())
        .flat_map(|i| (1..=runs).map(move |s| (i, s)))
        .collect();
    let samples = super::memo::samples(points, &jobs)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    Ok(samples
        .chunks(runs.max(1) as usize)
        .map(|c| Replicated::new(c.to_vec()))
        .collect())
}

/// Mean and 90 % Student-t half-width of `x` (half-width 0 for fewer than 2 values).
pub fn mean_and_half_width(x: &[f64]) -> (f64, f64) {
    let i = Interval::of(x);
    (i.mean, i.half_width_90)
}
