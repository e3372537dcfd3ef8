//! Finding out, before a run depends on them, whether the system will start the
//! worker threads it asks for. tokio panics when the system refuses a runtime worker
//! thread and then waits forever for the workers it did start, so the actors engine
//! starts (and ends) as many plain threads first: a refusal then becomes an error
//! naming the cause, and no run is left waiting.

use super::EngineError;
use std::sync::RwLock;

/// The stack of a tokio runtime worker thread (tokio's default, 2 MiB).
pub(super) const WORKER_STACK: usize = 2 << 20;

/// Starts `wanted` threads with `stack` bytes of stack each, all alive at once, then
/// ends them. Fails with [`EngineError::Threads`] at the first the system refuses.
pub(super) fn probe(wanted: usize, stack: usize) -> Result<(), EngineError> {
    let gate = RwLock::new(());
    let closed = gate.write().unwrap_or_else(|p| p.into_inner());
    std::thread::scope(|s| {
        let mut refused = None;
        for k in 0..wanted {
            let started = std::thread::Builder::new()
                .stack_size(stack)
                .spawn_scoped(s, || drop(gate.read()));
            if let Err(e) = started {
                refused = Some(EngineError::Threads {
                    wanted,
                    failed: k + 1,
                    cause: e.to_string(),
                });
                break;
            }
        }
        // Opening the gate lets every started thread end; the scope joins them.
        drop(closed);
        refused.map_or(Ok(()), Err)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_threads_start() {
        assert!(probe(4, WORKER_STACK).is_ok());
    }

    #[test]
    fn a_refused_thread_is_an_error_and_the_started_ones_end() {
        // No system gives a thread an exabyte of stack: the first is refused.
        match probe(3, 1 << 60) {
            Err(EngineError::Threads { wanted, failed, .. }) => {
                assert_eq!((wanted, failed), (3, 1));
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
}
