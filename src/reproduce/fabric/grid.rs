//! Runs the reception-scheduler strategies against the Reference over a list of
//! configurations ("columns" of Gramsamer's tables 7.6-7.19), each strategy with
//! independent replications until its mean system delay is known to the document's
//! precision, and gives each strategy's performance ratio r = 100 (d_ref − d_x)/d_ref
//! (Eq. 7.10).
//!
//! Replication k of every strategy of a column uses seed k: the adapters' traffic draws
//! do not depend on the strategy, so the strategies see the same packets (common random
//! numbers), which is what makes their few-percent differences visible. Replications run
//! in rounds over all unfinished points at once, on every core; which point needs another
//! round depends only on the results so far, so the outcome does not depend on the
//! number of threads.

use super::super::ReproduceError;
use super::memo;
use super::point::{Point, Replicated, Sample};
use crate::parts::fabric::Strategy;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// How many replications, and when to stop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Precision {
    /// Replications every point gets.
    pub min: usize,
    /// Most replications of one point.
    pub max: usize,
    /// Stop when the 90 % half-width is at most this fraction of the mean delay.
    pub target: f64,
}

impl Precision {
    /// The document's rule (§2.4): 3 % at 90 %, Student-t, at most 30 replications
    /// (the t regime); emu starts with 3 and stops at 10 to bound the run time.
    pub const DOCUMENT: Precision = Precision {
        min: 3,
        max: 10,
        target: 0.03,
    };
}

/// One column's results: the Reference's and each strategy's replications.
#[derive(Clone, Debug)]
pub struct ColumnResult {
    /// Results per strategy, in [`Strategy::ALL`] order (Reference first).
    pub by_strategy: Vec<(Strategy, Replicated)>,
}

impl ColumnResult {
    /// The replications of `s`.
    pub fn of(&self, s: Strategy) -> &Replicated {
        &self
            .by_strategy
            .iter()
            .find(|(k, _)| *k == s)
            .expect("every strategy ran")
            .1
    }

    /// The 90 % half-width of r of `s`, from the per-seed ratios of the replications
    /// both it and the Reference ran (the pairs share their traffic).
    pub fn paired_half_width(&self, s: Strategy) -> f64 {
        let x = &self.of(s).samples;
        let r = &self.of(Strategy::Reference).samples;
        let per: Vec<f64> = x
            .iter()
            .zip(r)
            .map(|(a, b)| 100.0 * (b.mean_delay - a.mean_delay) / b.mean_delay)
            .collect();
        super::point::mean_and_half_width(&per).1
    }

    /// r of `s` against the Reference (Eq. 7.10), in %.
    pub fn ratio(&self, s: Strategy) -> f64 {
        let d_ref = self.of(Strategy::Reference).mean_delay;
        100.0 * (d_ref - self.of(s).mean_delay) / d_ref
    }
}

/// The points of one grid (one call of [`run_grid`]) that one shard ran: how many the
/// grid has, and by point index (column-major, strategies in [`Strategy::ALL`] order)
/// each point's replications, or the error that stopped the shard's points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GridShare {
    /// Points in the whole grid.
    pub total: usize,
    /// The points run, by index.
    pub points: BTreeMap<usize, Vec<Sample>>,
    /// The error that stopped this shard's points (then `points` is empty). A merged
    /// grid with errors fails with the first shard's; a single process may name another
    /// failing point's.
    pub error: Option<String>,
}

impl GridShare {
    /// The shares of one grid from several shards as one, or the first error.
    pub fn join(shares: impl IntoIterator<Item = GridShare>) -> GridShare {
        let mut all = GridShare::default();
        for s in shares {
            all.total = all.total.max(s.total);
            all.error = all.error.or(s.error);
            all.points.extend(s.points);
        }
        all
    }
}

/// Where [`run_grid`] takes its points from on this thread: `None` runs them all.
enum Mode {
    /// Run only the points `index % n == k - 1` of every grid, record them, and stop the
    /// experiment ([`ReproduceError::Shared`]).
    Share {
        k: u32,
        n: u32,
        grids: Vec<GridShare>,
    },
    /// Read every point back from what shards recorded, grid by grid, running nothing.
    Replay { grids: Vec<GridShare>, next: usize },
}

thread_local! {
    /// Set only inside [`share`] and [`replay`], on the thread that runs the experiment.
    static MODE: RefCell<Option<Mode>> = const { RefCell::new(None) };
}

/// Runs `experiment` on this thread as shard `k` of `n` of its grids: each grid runs
/// only its points `index % n == k - 1`, and the experiment stops at its first grid
/// with [`ReproduceError::Shared`]. Gives the experiment's result and the points run.
pub fn share<R>(k: u32, n: u32, experiment: impl FnOnce() -> R) -> (R, Vec<GridShare>) {
    MODE.with(|m| {
        *m.borrow_mut() = Some(Mode::Share {
            k: k.max(1),
            n: n.max(1),
            grids: Vec::new(),
        })
    });
    let result = experiment();
    let grids = match MODE.with(|m| m.borrow_mut().take()) {
        Some(Mode::Share { grids, .. }) => grids,
        _ => Vec::new(),
    };
    (result, grids)
}

/// Runs `experiment` on this thread with its grids read back from `grids` (every shard's
/// points, merged) instead of run: the same report as running them, as long as every
/// point is there.
pub fn replay<R>(grids: Vec<GridShare>, experiment: impl FnOnce() -> R) -> R {
    MODE.with(|m| *m.borrow_mut() = Some(Mode::Replay { grids, next: 0 }));
    let result = experiment();
    MODE.with(|m| m.borrow_mut().take());
    result
}

/// Runs every strategy of [`Strategy::ALL`] on each column (a [`Point`] whose strategy
/// is replaced), with `precision`, from `first_seed`. Inside [`share`] it runs only the
/// shard's points and fails with [`ReproduceError::Shared`]; inside [`replay`] it reads
/// the points back.
pub fn run_grid(
    columns: &[Point],
    precision: Precision,
    first_seed: u64,
) -> Result<Vec<ColumnResult>, ReproduceError> {
    let points: Vec<Point> = columns
        .iter()
        .flat_map(|c| {
            Strategy::ALL.into_iter().map(move |s| Point {
                strategy: s,
                ..c.clone()
            })
        })
        .collect();
    let mode = MODE.with(|m| m.borrow_mut().take());
    let samples = match mode {
        None => replicate(&points, precision, first_seed)?,
        Some(Mode::Share { k, n, mut grids }) => {
            let mine: Vec<usize> = (0..points.len())
                .filter(|i| i % n as usize == (k - 1) as usize)
                .collect();
            let chosen: Vec<Point> = mine.iter().map(|&i| points[i].clone()).collect();
            let share = match replicate(&chosen, precision, first_seed) {
                Ok(samples) => GridShare {
                    total: points.len(),
                    points: mine.into_iter().zip(samples).collect(),
                    error: None,
                },
                Err(e) => GridShare {
                    total: points.len(),
                    points: BTreeMap::new(),
                    error: Some(e.to_string()),
                },
            };
            grids.push(share);
            MODE.with(|m| *m.borrow_mut() = Some(Mode::Share { k, n, grids }));
            return Err(ReproduceError::Shared);
        }
        Some(Mode::Replay { mut grids, next }) => {
            let grid = grids.get_mut(next).map(std::mem::take).unwrap_or_default();
            MODE.with(|m| {
                *m.borrow_mut() = Some(Mode::Replay {
                    grids,
                    next: next + 1,
                })
            });
            if let Some(e) = grid.error {
                return Err(ReproduceError::Point(e));
            }
            if grid.total != points.len() || grid.points.len() != points.len() {
                return Err(ReproduceError::Point(format!(
                    "{} of the grid's {} points were read back from the shards",
                    grid.points.len(),
                    points.len()
                )));
            }
            // What follows the grid in the experiment may ask for its runs again.
            for (&i, samples) in &grid.points {
                for (k, sample) in (0u64..).zip(samples) {
                    memo::keep(&points[i], first_seed + k, sample);
                }
            }
            grid.points.into_values().collect()
        }
    };
    let per = Strategy::ALL.len();
    Ok(samples
        .chunks(per)
        .map(|chunk| ColumnResult {
            by_strategy: Strategy::ALL
                .into_iter()
                .zip(chunk.iter().map(|s| Replicated::new(s.clone())))
                .collect(),
        })
        .collect())
}

/// Replicates each of `points` until `precision` holds for it, from `first_seed`, in
/// rounds over all unfinished points at once.
fn replicate(
    points: &[Point],
    precision: Precision,
    first_seed: u64,
) -> Result<Vec<Vec<Sample>>, ReproduceError> {
    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); points.len()];
    loop {
        // The jobs of this round: every point short of the minimum gets up to it; a point
        // whose interval is still too wide gets one more.
        let mut jobs: Vec<(usize, u64)> = Vec::new();
        for (i, s) in samples.iter().enumerate() {
            let have = s.len();
            let want = if have < precision.min {
                precision.min
            } else if have < precision.max
                && Replicated::new(s.clone()).relative_half_width() > precision.target
            {
                have + 1
            } else {
                have
            };
            jobs.extend((have..want).map(|k| (i, first_seed + k as u64)));
        }
        if jobs.is_empty() {
            break;
        }
        let results = memo::samples(points, &jobs);
        for (&(i, _), r) in jobs.iter().zip(results) {
            samples[i].push(r?);
        }
    }
    Ok(samples)
}
