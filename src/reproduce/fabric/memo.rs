//! Fabric runs made once per reproduction: a run is a pure function of its [`Point`] and
//! seed (the fabric is deterministic, and nothing else reaches [`Point::run`]), and
//! several of Gramsamer's tables share configurations. Table 7.6's design point (M = RTT
//! = 64, L = 98 %) is every one of Table 7.7's M = 100 % columns but two; Table 7.11's
//! RTT = 64, L = 98 % columns are three more of them; §7.3.1's FIFO at L = 98 % and
//! §7.6.2's LOF at M = 64 are cells of the same grid. Inside [`remembering`], each
//! (point, seed) is run once and its [`Sample`] handed to every later experiment that
//! asks for it, so the reports are the same bytes as running each again.
//!
//! The memo is scoped, not global: `emu reproduce` makes one per call and shares it
//! with every experiment it runs, on every shard thread of `--jobs`; `emu merge` makes
//! one too, and keeps in it every grid point read back from the shards' files. The
//! library and the tests run without one unless they make one.

use super::super::ReproduceError;
use super::point::{Point, Sample};
use crate::pool::{default_threads, run_all};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Samples already run, by point and seed.
#[derive(Debug, Default)]
pub struct Memo {
    /// By point and seed ([`key`]).
    samples: Mutex<HashMap<(String, u64), Sample>>,
}

impl Memo {
    /// The sample of `key`, if it was run.
    fn get(&self, key: &(String, u64)) -> Option<Sample> {
        let samples = self.samples.lock().unwrap_or_else(PoisonError::into_inner);
        samples.get(key).cloned()
    }

    /// Keeps the sample of `key`.
    fn put(&self, key: (String, u64), sample: Sample) {
        let mut samples = self.samples.lock().unwrap_or_else(PoisonError::into_inner);
        samples.insert(key, sample);
    }

    /// Samples kept.
    pub fn len(&self) -> usize {
        self.samples
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// No sample kept yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How many of the runs an experiment asked for were taken from the memo.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reused {
    /// Runs taken from the memo.
    pub reused: u64,
    /// Runs asked for.
    pub asked: u64,
}

thread_local! {
    /// The memo of the experiment running on this thread, set by [`remembering`].
    static MEMO: RefCell<Option<Arc<Memo>>> = const { RefCell::new(None) };
    /// Runs asked for and reused on this thread since [`take_reused`].
    static REUSED: Cell<Reused> = const { Cell::new(Reused { reused: 0, asked: 0 }) };
}

/// Runs `experiment` on this thread with `memo`: every fabric run it makes is taken from
/// `memo` if it was made before, and kept there if not.
pub fn remembering<R>(memo: &Arc<Memo>, experiment: impl FnOnce() -> R) -> R {
    let before = MEMO.with(|m| m.borrow_mut().replace(Arc::clone(memo)));
    let result = experiment();
    MEMO.with(|m| *m.borrow_mut() = before);
    result
}

/// The memo's key of `point` run at `seed`: every field of the point ([`Point`]'s
/// `Debug` form, whose floats round-trip exactly) and the seed.
fn key(point: &Point, seed: u64) -> (String, u64) {
    (format!("{point:?}"), seed)
}

/// Keeps `sample` as the run of `point` at `seed` in this thread's memo, if it has one:
/// a grid's point read back from a shard's file ([`super::grid::replay`]), so that an
/// experiment finished in `emu merge` asks for it again without running it. Nothing is
/// counted as asked or reused.
pub(crate) fn keep(point: &Point, seed: u64, sample: &Sample) {
    MEMO.with(|m| {
        if let Some(memo) = m.borrow().as_ref() {
            memo.put(key(point, seed), sample.clone());
        }
    });
}

/// The runs asked for and reused on this thread since the last call.
pub fn take_reused() -> Reused {
    REUSED.with(|r| r.take())
}

/// The sample of each job (a point of `points` and a seed), in job order: from this
/// thread's memo where it has one, the others run on every core (and kept).
pub fn samples(points: &[Point], jobs: &[(usize, u64)]) -> Vec<Result<Sample, ReproduceError>> {
    let memo = MEMO.with(|m| m.borrow().clone());
    let Some(memo) = memo else {
        return run_all(
            jobs,
            default_threads(),
            |&(i, s)| points[i].run(s),
            |_, _| {},
        );
    };
    let keys: Vec<(String, u64)> = jobs.iter().map(|&(i, s)| key(&points[i], s)).collect();
    let known: Vec<Option<Sample>> = keys.iter().map(|k| memo.get(k)).collect();
    let missing: Vec<usize> = (0..jobs.len()).filter(|&j| known[j].is_none()).collect();
    let mut ran = run_all(
        &missing,
        default_threads(),
        |&j| points[jobs[j].0].run(jobs[j].1),
        |_, _| {},
    )
    .into_iter();
    REUSED.with(|r| {
        let mut c = r.get();
        c.reused += (jobs.len() - missing.len()) as u64;
        c.asked += jobs.len() as u64;
        r.set(c);
    });
    known
        .into_iter()
        .zip(keys)
        .map(|(known, key)| match known {
            Some(sample) => Ok(sample),
            None => {
                let r = ran.next().expect("a run for every job not in the memo");
                if let Ok(sample) = &r {
                    memo.put(key, sample.clone());
                }
                r
            }
        })
        .collect()
}
