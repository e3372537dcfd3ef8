//! Finding out, before a run depends on them, whether the system will start the
//! worker threads it asks for. tokio panics when the system refuses a runtime worker
//! thread and then waits forever for the workers it did start, so the actors engine
//! starts (and ends) as many plain threads first: a refusal then becomes an error
//! naming the cause, and no run is left waiting.

use super::EngineError;
use std::sync::RwLock;

/// The stack of a tokio runtime worker thread (tokio's default, 2 MiB).
pub(super) const WORKER_STACK: usize = 2 << 20;

/// Address space a started thread takes beside its stack: its guard page, the signal
/// stack Rust maps for it (a few pages and a guard) and slack, chosen generously.
const THREAD_EXTRA: u64 = 256 << 10;

/// Checks that `wanted` threads of `stack` bytes of stack fit in the address space
/// left under `ulimit -v`. The system refuses a thread's stack cleanly, but a thread
/// whose stack fitted and whose signal stack then does not aborts the process from
/// inside the new thread; so the room is checked before any is started.
pub(super) fn room(wanted: usize, stack: usize) -> Result<(), EngineError> {
    let Some(room) = crate::memory::address_space_room() else {
        return Ok(());
    };
    let each = stack as u64 + THREAD_EXTRA;
    let fit = usize::try_from(room / each).unwrap_or(usize::MAX);
    if fit < wanted {
        return Err(EngineError::Threads {
            wanted,
            failed: fit + 1,
            cause: format!(
                "the address-space limit (ulimit -v) leaves room for {fit} stacks of {}",
                crate::memory::human(each)
            ),
        });
    }
    Ok(())
}

/// Starts `wanted` threads with `stack` bytes of stack each, all alive at once, then
/// ends them. Fails with [`EngineError::Threads`] at the first the system refuses, or
/// before any if they cannot fit ([`room`]).
pub(super) fn probe(wanted: usize, stack: usize) -> Result<(), EngineError> {
    room(wanted, stack)?;
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
