//! Sweeps split over processes or machines: `--shard K/N` runs every N-th run of the
//! sweep starting at the K-th, and writes them as JSON lines after a header that
//! describes the whole sweep; [`merge`] puts any set of such files (or their
//! concatenation) back into the sweep's points in sweep order, refusing slices of
//! different sweeps, conflicting duplicates and missing runs.
//!
//! The shard file format (`emu-sweep-shard/1`), one JSON value per line:
//!
//! - a header: `{"format": "emu-sweep-shard/1", "topology", "traffic", "delay_unit",
//!   "loads", "seeds", "seed", "configuration", "shard": [K, N]}`;
//! - then one line per run of that shard: `{"index": I, "point": {"load", "seed",
//!   "measures": {"Ok": {…}} | {"Err": DEADLOCK_TICK}}}`, `I` counting runs in sweep order
//!   (load-major, seeds consecutive).
//!
//! Numbers are written in the shortest form that reads back to the same `f64`, so a
//! merged sweep prints byte for byte what the single process prints.

use super::point::Point;
use super::spec::Job;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// The format tag of a shard file's header line.
pub const FORMAT: &str = "emu-sweep-shard/1";

/// A sweep's description: what was run, not where.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// The topology's name.
    pub topology: String,
    /// The traffic's name.
    pub traffic: String,
    /// The unit of the delay columns ("header times", "packet cycles", …).
    pub delay_unit: String,
    /// Offered loads in sweep order.
    pub loads: Vec<f64>,
    /// Runs per load.
    pub seeds: u32,
    /// First seed.
    pub seed: u64,
    /// The resolved topology and traffic configurations (with every `--set` applied):
    /// two shards belong to one sweep only if these agree.
    pub configuration: serde_json::Value,
    /// `[K, N]` in a shard file; absent for a whole sweep.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<[u32; 2]>,
}

impl Header {
    /// The number of runs in the whole sweep.
    pub fn runs(&self) -> usize {
        self.loads.len() * self.seeds as usize
    }

    /// The table's title line.
    pub fn title(&self) -> String {
        format!(
            "sweep       {} · traffic {} · {} × {} (from seed {})",
            self.topology,
            self.traffic,
            emu_core::text::count(self.loads.len() as u64, "load", "loads"),
            emu_core::text::count(self.seeds.into(), "seed", "seeds"),
            self.seed
        )
    }

    /// The load and seed of run `index` (sweep order), if the sweep has it.
    fn job(&self, index: usize) -> Option<(f64, u64)> {
        let per = self.seeds as usize;
        let load = *self.loads.get(index / per.max(1))?;
        let seed = self.seed.checked_add((index % per.max(1)) as u64)?;
        Some((load, seed))
    }
}

/// The K-th of N slices of a sweep (K counted from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, 1..=n.
    pub k: u32,
    /// How many slices.
    pub n: u32,
}

/// Why `--shard` is not `K/N` with 1 ≤ K ≤ N.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("give K/N with 1 <= K <= N (e.g. 2/8)")]
pub struct ShardSpecError;

impl std::str::FromStr for Shard {
    type Err = ShardSpecError;
    fn from_str(s: &str) -> Result<Shard, ShardSpecError> {
        let (k, n) = s.split_once('/').ok_or(ShardSpecError)?;
        let k: u32 = k.trim().parse().map_err(|_| ShardSpecError)?;
        let n: u32 = n.trim().parse().map_err(|_| ShardSpecError)?;
        if k == 0 || k > n {
            return Err(ShardSpecError);
        }
        Ok(Shard { k, n })
    }
}

impl Shard {
    /// The whole sweep as one shard.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// This shard's runs: every N-th run from the K-th, so that every shard gets a
    /// share of the slow high loads.
    pub fn select(self, jobs: &[Job]) -> Vec<Job> {
        jobs.iter()
            .filter(|j| j.index % self.n as usize == (self.k - 1) as usize)
            .copied()
            .collect()
    }
}

#[derive(Serialize, Deserialize)]
struct Line {
    index: usize,
    point: Point,
}

/// A shard's file: the header (with `[K, N]`) and one line per run, in sweep order.
pub fn write(header: &Header, shard: Shard, runs: &[(usize, Point)]) -> String {
    let mut h = header.clone();
    h.shard = Some([shard.k, shard.n]);
    let mut s = String::new();
    let _ = writeln!(s, "{}", serde_json::to_string(&h).unwrap_or_default());
    for (index, point) in runs {
        let line = serde_json::to_string(&Line {
            index: *index,
            point: point.clone(),
        })
        .unwrap_or_default();
        let _ = writeln!(s, "{line}");
    }
    s
}

/// The sweep shard format, for [`crate::shard::read`].
pub struct Shards;

/// A run line that is not a run of its sweep.
#[derive(Debug)]
pub enum NotARun {
    /// A run index, load or seed that the sweep does not have.
    Run {
        /// The run's index.
        index: usize,
        /// Its load.
        load: f64,
        /// Its seed.
        seed: u64,
    },
    /// A run index that is not a whole number a sweep could have, as written.
    Index(String),
}

impl std::fmt::Display for NotARun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotARun::Run { index, load, seed } => write!(
                f,
                "run {index} (load {load}, seed {seed}) is not a run of this sweep"
            ),
            NotARun::Index(index) => write!(
                f,
                "run {index} is not a run of this sweep: an index is a whole number from 0"
            ),
        }
    }
}

/// The fields in which a header differs from the first one's, and where that is.
#[derive(Debug)]
pub struct OtherSweep {
    /// Which fields differ.
    pub what: String,
    /// Where the first header is.
    pub first: String,
}

impl std::fmt::Display for OtherSweep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} differ from {}", self.what, self.first)
    }
}

impl crate::shard::read::Format for Shards {
    type Header = Header;
    /// The run's index in sweep order.
    type Key = usize;
    type Unit = Point;
    type Stray = NotARun;
    type Difference = OtherSweep;
    const TAG: &'static str = FORMAT;
    const JOB: &'static str = "sweep";
    const NOUN: &'static str = "sweep";
    const UNIT: &'static str = "run";
    const RESULTS: &'static str = "results";

    /// Sweep shards do not record the emu version; their configurations must agree.
    fn version(_: &Header) -> Option<&str> {
        None
    }

    fn check(h: &mut Header) -> Result<(), &'static str> {
        h.shard = None;
        if h.runs() == 0 {
            return Err("the header's sweep has no runs (no loads, or no seeds)");
        }
        Ok(())
    }

    /// `[1, 1]` for a header without one (it is not written by emu, but reads).
    fn shard(h: &Header) -> [u32; 2] {
        h.shard.unwrap_or([1, 1])
    }

    fn differ(f: &Header, at: &str, h: &Header) -> Option<OtherSweep> {
        difference(f, h).map(|what| OtherSweep {
            what,
            first: at.to_string(),
        })
    }

    fn unit(h: &Header, value: serde_json::Value) -> crate::shard::read::UnitRead<Self> {
        use crate::shard::read::UnitError;
        if let Some(index) = value.get("index")
            && index.as_u64().is_none()
        {
            return Err(UnitError::Stray(NotARun::Index(index.to_string())));
        }
        let run: Line = serde_json::from_value(value)?;
        if h.job(run.index) != Some((run.point.load, run.point.seed)) || run.index >= h.runs() {
            return Err(UnitError::Stray(NotARun::Run {
                index: run.index,
                load: run.point.load,
                seed: run.point.seed,
            }));
        }
        Ok((run.index, run.point))
    }

    fn conflict(a: (&str, &Point), b: (&str, &Point)) -> bool {
        a.1 != b.1
    }

    fn name(_: &Header, index: usize) -> String {
        format!("run {index}")
    }
}

/// Why shard files do not make one sweep.
pub type MergeError = crate::shard::read::MergeError<Shards>;

/// A merged sweep: its header (without a shard) and every run in sweep order.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The sweep.
    pub header: Header,
    /// Its runs in sweep order.
    pub points: Vec<Point>,
}

/// Merges shard files given as `(name, text)`; a file may hold several shards one after
/// the other (the output of `parallel`). Identical duplicates (a rerun shard) are
/// accepted once.
pub fn merge(files: &[(String, String)]) -> Result<Merged, MergeError> {
    let crate::shard::read::Read { header, units } = crate::shard::read::read::<Shards>(files)?;
    let runs = header.runs();
    if units.len() < runs {
        let first = (0..runs).find(|i| !units.contains_key(i)).unwrap_or(0);
        let (load, seed) = header.job(first).unwrap_or((f64::NAN, 0));
        return Err(MergeError::Missing(crate::shard::read::Missing {
            missing: runs - units.len(),
            of: format!("{runs} runs"),
            first: format!("run {first}, load {load}, seed {seed}"),
        }));
    }
    Ok(Merged {
        header,
        points: units.into_values().collect(),
    })
}

/// The fields in which two sweep headers differ, if any.
fn difference(a: &Header, b: &Header) -> Option<String> {
    let mut d = Vec::new();
    if a.topology != b.topology {
        d.push("topology");
    }
    if a.traffic != b.traffic {
        d.push("traffic");
    }
    if a.loads != b.loads {
        d.push("loads");
    }
    if a.seeds != b.seeds || a.seed != b.seed {
        d.push("seeds");
    }
    if a.configuration != b.configuration || a.delay_unit != b.delay_unit {
        d.push("configurations");
    }
    (!d.is_empty()).then(|| d.join(", "))
}
