//! Runs a function on every item of a list on a few worker threads, results in list order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

/// `f` on every item, `jobs` at a time (at least one); `progress(done, total)` is called on
/// the calling thread after each result.
pub fn map<T, R, F, P>(items: &[T], jobs: usize, f: F, mut progress: P) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
    P: FnMut(usize, usize),
{
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let mut results: Vec<Option<R>> = items.iter().map(|_| None).collect();
    thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            let sender = sender.clone();
            let (next, f) = (&next, &f);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    if sender.send((i, f(item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (done, (i, result)) in receiver.iter().enumerate() {
            results[i] = Some(result);
            progress(done + 1, items.len());
        }
    });
    results
        .into_iter()
        .map(|r| r.expect("every item was mapped: the workers stop only past the end"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_order_and_reports_progress() {
        let items: Vec<u64> = (0..50).collect();
        let mut calls = 0;
        let out = map(
            &items,
            3,
            |x| x * 2,
            |done, total| {
                calls += 1;
                assert!(done <= total);
            },
        );
        assert_eq!(out, items.iter().map(|x| x * 2).collect::<Vec<_>>());
        assert_eq!(calls, 50);
        assert!(map(&[] as &[u8], 2, |x| *x, |_, _| {}).is_empty());
    }
}
