//! Running many independent simulations at once (`emu sweep`, `emu stress`, `emu
//! reproduce`, replications) on rayon's work-stealing pool: results come back in job
//! order, whatever order they finish in, so output never depends on scheduling. Each
//! call gets a pool of its own size; if the system refuses the threads (a process
//! limit), the jobs run one by one on the calling thread instead of failing. A
//! [`Watch`] is told how each run of such a job goes (the binary's run guard watches
//! them for memory).

use crate::engine::RunControl;
use crate::family::{AnyCase, Case, CaseVisitor};
use crate::memory::Need;
use crate::model::{Activity, LinkProtocol};
use crate::network::Network;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The default number of worker threads: one per core (1 if the core count is unknown).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `work` on a pool of `threads` workers, or on this thread if the pool cannot be
/// built.
fn on_pool<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
    {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

/// Runs `f` on every job with up to `threads` workers; `done(finished, total)` is
/// called after each job. Results are in job order.
pub fn run_all<J: Sync, R: Send>(
    jobs: &[J],
    threads: usize,
    f: impl Fn(&J) -> R + Sync + Send,
    done: impl Fn(usize, usize) + Sync + Send,
) -> Vec<R> {
    let finished = AtomicUsize::new(0);
    on_pool(threads, || {
        jobs.par_iter()
            .map(|j| {
                let r = f(j);
                done(finished.fetch_add(1, Ordering::Relaxed) + 1, jobs.len());
                r
            })
            .collect()
    })
}

/// Runs `f` on the jobs in index order with up to `threads` workers until a result
/// satisfies `stop`: the outcome is that of running them one by one and stopping at
/// the first such result. Every job up to that one has a result; later ones may or
/// may not (jobs are handed out in index order, and none above a stopping one already
/// found is started). `done(index, result)` is called as jobs finish, in completion
/// order.
pub fn run_until<J: Sync, R: Send>(
    jobs: &[J],
    threads: usize,
    f: impl Fn(&J) -> R + Sync + Send,
    stop: impl Fn(&R) -> bool + Sync + Send,
    done: impl Fn(usize, &R) + Sync + Send,
) -> Vec<Option<R>> {
    let stop_at = AtomicUsize::new(usize::MAX);
    let finished: Vec<(usize, R)> = on_pool(threads, || {
        // par_bridge takes items from the iterator in order, so jobs start in index
        // order as workers free up.
        jobs.iter()
            .enumerate()
            .par_bridge()
            .filter_map(|(i, job)| {
                if i > stop_at.load(Ordering::SeqCst) {
                    return None;
                }
                let r = f(job);
                if stop(&r) {
                    stop_at.fetch_min(i, Ordering::SeqCst);
                }
                done(i, &r);
                Some((i, r))
            })
            .collect()
    });
    let mut results: Vec<Option<R>> = (0..jobs.len()).map(|_| None).collect();
    for (i, r) in finished {
        results[i] = Some(r);
    }
    results
}

/// Whoever watches the runs of a job of many (`emu sweep`, `emu stress`): the binary's
/// run guard, which projects where the job's memory is heading from their progress.
/// Each run says when it begins (before its network is built), when it starts
/// running, where it is as it goes and when it ends ([`Watched`] says each in turn).
/// The library only reports; what is done about it is the watcher's.
pub trait Watch: Sync {
    /// A run begins (its network is yet to be built); returns the id its other calls
    /// give.
    fn begin(&self) -> usize;
    /// Run `run` is built and starts, as `started` says.
    fn running(&self, run: usize, started: Started);
    /// Run `run` is at `now_ns` of virtual time, having done `activity`.
    fn note(&self, run: usize, now_ns: f64, activity: &Activity);
    /// Run `run` ended, however it did: what it held is freed.
    fn end(&self, run: usize);
}

/// A run as it starts, for whoever watches its memory: what its network needs, and
/// where its measured part lies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Started {
    /// The network's estimated need, lightly loaded and with its buffers full.
    pub need: Need,
    /// The most its latency histograms grow by each time their longest latency
    /// doubles ([`Need::per_doubling`]).
    pub per_doubling: u64,
    /// Virtual nanoseconds at which its measured part starts.
    pub from_ns: f64,
    /// Virtual nanoseconds at which its measured part ends (at or before `from_ns`: it
    /// has none of a set length).
    pub end_ns: f64,
}

impl Started {
    /// `net` about to run under `ctl`.
    pub fn of<P: LinkProtocol>(net: &Network<P>, ctl: &RunControl) -> Started {
        let need = net.memory_need();
        let tick_ns = net.time().tick_ns;
        Started {
            need,
            per_doubling: need.per_doubling(net.run().hard_stop),
            from_ns: net.run().window.0 as f64 * tick_ns,
            end_ns: ctl.end_after as f64 * tick_ns,
        }
    }
}

impl Started {
    /// `case` about to run as [`Started::of`] says, its run refusing to grow past
    /// `memory_limit` bytes (`None`: no limit).
    pub fn of_case(case: &AnyCase, memory_limit: Option<u64>) -> Started {
        case.visit(StartOf { memory_limit })
    }
}

/// [`Started::of`] for a case of any family.
struct StartOf {
    memory_limit: Option<u64>,
}

impl CaseVisitor for StartOf {
    type Output = Started;
    fn visit<P: LinkProtocol>(self, case: &Case<P>) -> Started {
        Started::of(
            &case.net,
            &RunControl::for_plan_within(&case.net, self.memory_limit),
        )
    }
}

/// Watches nothing: for runs of many that nobody watches (tests, the library's
/// callers).
#[derive(Clone, Copy, Debug, Default)]
pub struct Unwatched;

impl Watch for Unwatched {
    fn begin(&self) -> usize {
        0
    }
    fn running(&self, _: usize, _: Started) {}
    fn note(&self, _: usize, _: f64, _: &Activity) {}
    fn end(&self, _: usize) {}
}

/// One run a [`Watch`] is told about: begun when made, ended when dropped (so an
/// error or a panic ends it too).
pub struct Watched<'a> {
    watch: &'a dyn Watch,
    run: usize,
}

impl std::fmt::Debug for Watched<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watched").field("run", &self.run).finish()
    }
}

impl<'a> Watched<'a> {
    /// A run begins, before its network is built.
    pub fn begin(watch: &'a dyn Watch) -> Watched<'a> {
        Watched {
            watch,
            run: watch.begin(),
        }
    }

    /// The run's network is built and starts running (see [`Watch::running`]).
    pub fn running(&self, started: Started) {
        self.watch.running(self.run, started);
    }

    /// Where the run is (see [`Watch::note`]).
    pub fn note(&self, now_ns: f64, activity: &Activity) {
        self.watch.note(self.run, now_ns, activity);
    }
}

impl Drop for Watched<'_> {
    fn drop(&mut self) {
        self.watch.end(self.run);
    }
}
