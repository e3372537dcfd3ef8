//! Independent replications of one run: the same case with seeds seed, seed + 1, …,
//! either a fixed number of them or as many as it takes for the 90 % Student-t interval
//! of the mean latency to be within a target fraction of it (Gramsamer §2.4: 3 %), with
//! at least [`MIN_AUTO`] and at most [`MAX_AUTO`] runs (the Student-t regime).
//!
//! Two configurations can be compared on the same seeds ([`compare`]): each figure's
//! paired differences, seed by seed, have their own Student-t interval, far narrower
//! than the two sides' intervals when the seeds' randomness moves both sides alike
//! (common random numbers).
//!
//! Replications run in rounds on a pool of threads; a round is as many seeds as there
//! are threads, and the stopping rule looks at the results in seed order, so the seeds
//! used, and every number, depend only on the seeds and the rule, never on the number
//! of threads.

use crate::pool::run_all;
use crate::stats::confidence::Interval;
use serde::Serialize;

/// Fewest runs under the automatic rule.
pub const MIN_AUTO: usize = 3;
/// Most runs under the automatic rule.
pub const MAX_AUTO: usize = 30;

/// How many replications.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Plan {
    /// Exactly this many (≥ 1).
    Fixed(usize),
    /// Until the 90 % half-width of the mean latency is at most `target` × the mean.
    Until {
        /// The relative half-width to reach, e.g. 0.03.
        target: f64,
    },
}

/// What one run contributes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sample {
    /// Delivered throughput, % of link capacity per terminal (mean over terminals).
    pub throughput_pct: f64,
    /// Mean message latency, in the family's delay unit.
    pub mean_latency: f64,
    /// 99th-percentile message latency, in the family's delay unit.
    pub p99_latency: f64,
    /// 99.9th-percentile message latency, in the family's delay unit.
    pub p999_latency: f64,
}

/// The replications and their intervals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replicated {
    /// The seeds run, in order.
    pub seeds: Vec<u64>,
    /// One sample per seed.
    pub samples: Vec<Sample>,
    /// The target relative half-width, if the plan had one.
    pub target: Option<f64>,
    /// True if the plan was met (a fixed count always is).
    pub reached: bool,
    /// Throughput over the runs.
    pub throughput_pct: Interval,
    /// Mean latency over the runs.
    pub mean_latency: Interval,
    /// p99 latency over the runs.
    pub p99_latency: Interval,
    /// p99.9 latency over the runs.
    pub p999_latency: Interval,
}

impl Replicated {
    fn new(seeds: Vec<u64>, samples: Vec<Sample>, target: Option<f64>) -> Replicated {
        let of = |f: fn(&Sample) -> f64| Interval::of(&samples.iter().map(f).collect::<Vec<_>>());
        let mean_latency = of(|s| s.mean_latency);
        let reached = target.is_none_or(|t| samples.len() >= 2 && mean_latency.relative_90() <= t);
        Replicated {
            throughput_pct: of(|s| s.throughput_pct),
            p99_latency: of(|s| s.p99_latency),
            p999_latency: of(|s| s.p999_latency),
            mean_latency,
            reached,
            target,
            seeds,
            samples,
        }
    }
}

/// Runs `run_one(seed)` for seeds `first`, `first + 1`, … as `plan` says, `threads` at
/// a time; stops at the first error (in seed order).
pub fn replicate<E: Send>(
    plan: Plan,
    first: u64,
    threads: usize,
    run_one: impl Fn(u64) -> Result<Sample, E> + Sync,
) -> Result<Replicated, E> {
    let (want, max, target) = match plan {
        Plan::Fixed(n) => (n.max(1), n.max(1), None),
        Plan::Until { target } => (MIN_AUTO, MAX_AUTO, Some(target)),
    };
    let mut samples: Vec<Sample> = Vec::new();
    loop {
        let have = samples.len();
        let needed = if have < want {
            want - have
        } else if have < max && !Replicated::new(Vec::new(), samples.clone(), target).reached {
            // One more seed is what the rule asks for; run a round's worth, and keep only
            // as many as the rule, looking at them in seed order, would have taken.
            threads.max(1).min(max - have)
        } else {
            break;
        };
        let seeds: Vec<u64> = (have..have + needed).map(|k| first + k as u64).collect();
        let results = run_all(&seeds, threads.max(1), |&s| run_one(s), |_, _| {});
        for r in results {
            samples.push(r?);
            if samples.len() >= want && Replicated::new(Vec::new(), samples.clone(), target).reached
            {
                break;
            }
        }
        if samples.len() >= max {
            break;
        }
    }
    let seeds = (0..samples.len()).map(|k| first + k as u64).collect();
    Ok(Replicated::new(seeds, samples, target))
}

/// The paired differences B − A of each figure over the seeds, with their intervals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Differences {
    /// Throughput, % of link capacity per terminal.
    pub throughput_pct: Interval,
    /// Mean latency.
    pub mean_latency: Interval,
    /// p99 latency.
    pub p99_latency: Interval,
    /// p99.9 latency.
    pub p999_latency: Interval,
}

/// Two configurations, A and B, run on the same seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Paired {
    /// The seeds run, in order (the same for both).
    pub seeds: Vec<u64>,
    /// Configuration A's replications.
    pub a: Replicated,
    /// Configuration B's replications.
    pub b: Replicated,
    /// B − A seed by seed, and the interval of its mean: a paired comparison, whose
    /// interval holds 0 when the runs cannot tell the two apart.
    pub difference: Differences,
}

impl Paired {
    /// The comparison of `a` and `b`, run on the same seeds.
    fn new(a: Replicated, b: Replicated) -> Paired {
        let diff = |f: fn(&Sample) -> f64| {
            let d: Vec<f64> = a
                .samples
                .iter()
                .zip(&b.samples)
                .map(|(x, y)| f(y) - f(x))
                .collect();
            Interval::of(&d)
        };
        Paired {
            seeds: a.seeds.clone(),
            difference: Differences {
                throughput_pct: diff(|s| s.throughput_pct),
                mean_latency: diff(|s| s.mean_latency),
                p99_latency: diff(|s| s.p99_latency),
                p999_latency: diff(|s| s.p999_latency),
            },
            a,
            b,
        }
    }
}

/// Runs `run_a(seed)` and `run_b(seed)` on the same `runs` seeds `first`, `first + 1`,
/// …, `threads` at a time, and pairs them; stops at the first error (A's seeds first,
/// each side in seed order).
pub fn compare<E: Send>(
    runs: usize,
    first: u64,
    threads: usize,
    run_a: impl Fn(u64) -> Result<Sample, E> + Sync,
    run_b: impl Fn(u64) -> Result<Sample, E> + Sync,
) -> Result<Paired, E> {
    let a = replicate(Plan::Fixed(runs), first, threads, run_a)?;
    let b = replicate(Plan::Fixed(runs), first, threads, run_b)?;
    Ok(Paired::new(a, b))
}
