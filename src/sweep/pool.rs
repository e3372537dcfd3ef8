//! A plain-thread work queue: `threads` workers take jobs in index order and the
//! results come back in job order, whatever order they finish in (so output does not
//! depend on scheduling).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `f` on every job with up to `threads` workers; `done(finished, total)` is
/// called after each job. Results are in job order.
pub fn run_all<J: Sync, R: Send>(
    jobs: &[J],
    threads: usize,
    f: impl Fn(&J) -> R + Sync,
    done: impl Fn(usize, usize) + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, jobs.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    let r = f(job);
                    if let Ok(mut v) = results.lock() {
                        v[i] = Some(r);
                    }
                    done(finished.fetch_add(1, Ordering::Relaxed) + 1, jobs.len());
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
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
