//! A plain-thread work queue shared by the front ends that run many independent
//! simulations (`emu sweep`, `emu stress`): `threads` workers take jobs in index order
//! and the results come back in job order, whatever order they finish in, so output
//! never depends on scheduling.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The default number of worker threads: one per core (1 if the core count is unknown).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `f` on every job with up to `threads` workers; `done(finished, total)` is
/// called after each job. Results are in job order.
pub fn run_all<J: Sync, R: Send>(
    jobs: &[J],
    threads: usize,
    f: impl Fn(&J) -> R + Sync,
    done: impl Fn(usize, usize) + Sync,
) -> Vec<R> {
    let finished = AtomicUsize::new(0);
    run_until(
        jobs,
        threads,
        f,
        |_| false,
        |_, _| {
            done(finished.fetch_add(1, Ordering::Relaxed) + 1, jobs.len());
        },
    )
    .into_iter()
    .map(|r| r.expect("every job ran"))
    .collect()
}

/// Runs `f` on the jobs in index order with up to `threads` workers until a result
/// satisfies `stop`: the outcome is that of running them one by one and stopping at
/// the first such result. Every job up to that one has a result; later ones may or
/// may not (a worker never takes a job above a stopping one already found).
/// `done(index, result)` is called as jobs finish, in completion order.
pub fn run_until<J: Sync, R: Send>(
    jobs: &[J],
    threads: usize,
    f: impl Fn(&J) -> R + Sync,
    stop: impl Fn(&R) -> bool + Sync,
    done: impl Fn(usize, &R) + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let stop_at = AtomicUsize::new(usize::MAX);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, jobs.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i > stop_at.load(Ordering::SeqCst) {
                        break;
                    }
                    let Some(job) = jobs.get(i) else { break };
                    let r = f(job);
                    if stop(&r) {
                        stop_at.fetch_min(i, Ordering::SeqCst);
                    }
                    done(i, &r);
                    if let Ok(mut v) = results.lock() {
                        v[i] = Some(r);
                    }
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_job_order() {
        let jobs: Vec<u64> = (0..50).collect();
        let out = run_all(
            &jobs,
            4,
            |&j| {
                std::thread::sleep(std::time::Duration::from_micros((50 - j) * 20));
                j * j
            },
            |_, _| {},
        );
        assert_eq!(out, jobs.iter().map(|j| j * j).collect::<Vec<_>>());
    }
}
