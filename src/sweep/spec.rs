//! What a sweep is, independent of where its runs execute: the network and traffic
//! (their resolved configurations), the offered loads and the seeds. A sweep split into
//! shards carries this header in every shard's file, so that `emu merge` can check that
//! the slices belong to one sweep and print exactly what the single-process sweep prints.

use super::point::{Point, PointError, run_point};
use super::shard::{FORMAT, Header};
use crate::config::traffic::InjectionConfig;
use crate::config::{Loaded, TopologyConfig, TrafficConfig, stem};
use crate::pool::Watch;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// One sweep: every (load, seed) pair of its loads and seeds is one run.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepSpec {
    /// The topology's name (file stem), as reports print it.
    pub topology: String,
    /// The traffic's name (file stem).
    pub traffic: String,
    /// The topology file with every `--set` applied.
    pub topology_file: Loaded<TopologyConfig>,
    /// The traffic file with every `--set` applied (its injection is replaced at each
    /// load, see [`run_point`]).
    pub traffic_file: Loaded<TrafficConfig>,
    /// Offered loads, fractions of link data capacity, in sweep order.
    pub loads: Vec<f64>,
    /// Runs (replications) per load.
    pub seeds: u32,
    /// The first seed; a load's runs use seeds `seed, seed + 1, …`.
    pub seed: u64,
    /// The memory each run may use, in bytes (`None`: no limit): a network that would
    /// need more is refused before it is built.
    pub memory_limit: Option<u64>,
}

/// One run of a sweep: its index in sweep order (load-major, seeds consecutive), load
/// and seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Job {
    /// Position in sweep order.
    pub index: usize,
    /// Offered load.
    pub load: f64,
    /// Seed.
    pub seed: u64,
}

/// Why a sweep's seeds do not fit.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("seeds {seed} + {count} overflow a 64-bit seed")]
pub struct SeedOverflow {
    /// The first seed.
    pub seed: u64,
    /// Seeds per load.
    pub count: u32,
}

/// Why two loaded files and a choice of loads and seeds make no sweep.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// The topology's family has no sweep (its message says where `network.kind` was
    /// set and why).
    #[error("{0}")]
    Family(String),
    /// The traffic file (named here) injects a batch or a trace, which have no offered
    /// load.
    #[error(
        "{0}: injection.kind: a sweep needs a continuous, rate or bursty traffic file (batch and trace runs have no offered load)"
    )]
    Injection(String),
    /// The seeds run past the last 64-bit seed.
    #[error(transparent)]
    Seeds(SeedOverflow),
}

impl SweepSpec {
    /// The sweep of `topology` under `traffic` (both loaded with their overrides) at
    /// `loads`, `seeds` runs per load from seed `seed`, each run's network held to
    /// `memory_limit` bytes (`None`: no limit); refused if the family has no sweep, the
    /// traffic no offered load, or the seeds do not fit.
    pub fn new(
        topology: Loaded<TopologyConfig>,
        traffic: Loaded<TrafficConfig>,
        loads: Vec<f64>,
        seeds: u32,
        seed: u64,
        memory_limit: Option<u64>,
    ) -> Result<SweepSpec, SpecError> {
        if let Err(why) = crate::family::of(&topology.config.network).sweeps() {
            return Err(SpecError::Family(format!(
                "{}: {why}",
                topology.locate("network.kind")
            )));
        }
        if matches!(
            traffic.config.injection,
            InjectionConfig::Batch { .. } | InjectionConfig::Trace { .. }
        ) {
            return Err(SpecError::Injection(traffic.file.name.clone()));
        }
        let spec = SweepSpec {
            topology: stem(&topology.file.name),
            traffic: stem(&traffic.file.name),
            topology_file: topology,
            traffic_file: traffic,
            loads,
            seeds,
            seed,
            memory_limit,
        };
        spec.check_seeds().map_err(SpecError::Seeds)?;
        Ok(spec)
    }

    /// Runs `jobs` on up to `threads` workers, telling `watch` how each run goes and
    /// calling `done(finished, total)` as each ends (jobs skipped once stopped do not
    /// count): the points with their job index, in
    /// job order, or the error of the first job (in job order) that could not run.
    /// Once `stop` is set no further job starts, and the answer is `Ok(None)`.
    pub fn run_jobs(
        &self,
        jobs: &[Job],
        threads: usize,
        watch: &dyn Watch,
        stop: Option<&AtomicBool>,
        done: impl Fn(usize, usize) + Sync + Send,
    ) -> Result<Option<Vec<(usize, Point)>>, PointError> {
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Acquire));
        let finished = AtomicUsize::new(0);
        // The highest loads first: a run simulates more the more it is offered, so the
        // workers start on the long runs and the last one claimed is short, instead of
        // one worker finishing the heaviest points alone. Each worker claims the next
        // job as it frees up; the answer is in job order whatever order they ran in.
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by(|&a, &b| jobs[b].load.total_cmp(&jobs[a].load));
        let ran = crate::pool::run_until(
            &order,
            threads,
            |&i| {
                if stopped() {
                    return None;
                }
                let point = self.run(&jobs[i], watch);
                done(finished.fetch_add(1, Ordering::Relaxed) + 1, jobs.len());
                Some(point)
            },
            |_| false,
            |_, _| {},
        );
        let mut results: Vec<Option<Result<Point, PointError>>> =
            std::iter::repeat_with(|| None).take(jobs.len()).collect();
        for (&i, r) in order.iter().zip(ran) {
            results[i] = r.flatten();
        }
        let mut points: Vec<(usize, Point)> = Vec::with_capacity(results.len());
        for (job, r) in jobs.iter().zip(results) {
            match r {
                Some(Ok(p)) => points.push((job.index, p)),
                Some(Err(e)) => return Err(e),
                None => return Ok(None),
            }
        }
        Ok(Some(points))
    }

    /// Checks that the last seed fits in 64 bits.
    pub fn check_seeds(&self) -> Result<(), SeedOverflow> {
        self.seed
            .checked_add(u64::from(self.seeds.saturating_sub(1)))
            .map(|_| ())
            .ok_or(SeedOverflow {
                seed: self.seed,
                count: self.seeds,
            })
    }

    /// Every run in sweep order. Call [`SweepSpec::check_seeds`] first: seeds wrap
    /// otherwise.
    pub fn jobs(&self) -> Vec<Job> {
        let per = self.seeds as usize;
        self.loads
            .iter()
            .enumerate()
            .flat_map(|(l, &load)| {
                (0..self.seeds).map(move |k| Job {
                    index: l * per + k as usize,
                    load,
                    seed: self.seed.wrapping_add(u64::from(k)),
                })
            })
            .collect()
    }

    /// Runs one job, telling `watch` how it goes.
    pub fn run(&self, job: &Job, watch: &dyn crate::pool::Watch) -> Result<Point, PointError> {
        run_point(
            &self.topology_file,
            &self.traffic_file,
            job.load,
            job.seed,
            self.memory_limit,
            watch,
        )
    }

    /// The sweep's description as every shard file and the merged output carry it
    /// (without a shard).
    pub fn header(&self) -> Header {
        let family = crate::family::of(&self.topology_file.config.network);
        let topology = &self.topology_file.config;
        Header {
            format: FORMAT.to_string(),
            topology: self.topology.clone(),
            traffic: self.traffic.clone(),
            delay_unit: family.delay_unit().to_string(),
            loads: self.loads.clone(),
            seeds: self.seeds,
            seed: self.seed,
            configuration: serde_json::json!({
                "topology": topology.echo(family.topology_sections()),
                "traffic": self.traffic_file.config,
            }),
            shard: None,
        }
    }
}
