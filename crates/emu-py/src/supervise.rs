//! A job of the core on a thread of its own with the GIL released, while the calling
//! thread waits for it and, every `interval` seconds, takes the GIL to look for Ctrl-C
//! (`check_signals`) and to call the progress callable: either can stop the job through
//! its `stop` flag. No panic crosses into Python: one becomes `emu.InternalError`.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// The stack of the thread a job goes on: the size of a main thread's, on which the
/// command line runs it.
pub const STACK: usize = 8 << 20;

/// Runs `job(stop)` on a thread named `name`, waking every `interval` seconds to look
/// for Ctrl-C and to call `progress` with what `report` makes (`None`: nothing new to
/// say); Ctrl-C, an error of the callable or its answer `False` set `stop`. Gives the
/// job's result and whether the callable asked to stop, or the error Ctrl-C or the
/// callable raised, or `emu.InternalError` if the job panicked.
pub fn supervise<T: Send>(
    py: Python<'_>,
    name: &str,
    progress: Option<Py<PyAny>>,
    interval: f64,
    report: impl for<'py> Fn(Python<'py>) -> Option<PyResult<Bound<'py, PyDict>>> + Sync,
    job: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<(T, bool)> {
    let interval = Duration::from_secs_f64(interval.clamp(0.001, 60.0));
    let stop = &AtomicBool::new(false);
    let report = &report;
    let (done_tx, done_rx) = channel::<()>();
    let (ended, interrupt, asked) = py.detach(move || {
        std::thread::scope(|s| {
            let worker = std::thread::Builder::new()
                .name(name.into())
                .stack_size(STACK)
                .spawn_scoped(s, || {
                    let r = catch_unwind(AssertUnwindSafe(|| job(stop)));
                    let _ = done_tx.send(());
                    r
                });
            let worker = match worker {
                Ok(w) => w,
                Err(e) => {
                    let message = format!("cannot start the job's thread: {e}");
                    let payload: Box<dyn std::any::Any + Send> = Box::new(message);
                    return (Err(payload), None, false);
                }
            };
            let (mut interrupt, mut asked): (Option<PyErr>, bool) = (None, false);
            let mut look = |last: bool| {
                Python::attach(|py| {
                    if interrupt.is_some() {
                        return;
                    }
                    if let Err(e) = py.check_signals() {
                        interrupt = Some(e);
                        stop.store(true, Ordering::Release);
                        return;
                    }
                    let Some(callable) = progress.as_ref() else {
                        return;
                    };
                    let Some(dict) = report(py) else {
                        return;
                    };
                    match dict.and_then(|d| callable.call1(py, (d,))) {
                        Ok(v) if !last && matches!(v.extract::<bool>(py), Ok(false)) => {
                            asked = true;
                            stop.store(true, Ordering::Release);
                        }
                        Ok(_) => {}
                        Err(e) => {
                            interrupt = Some(e);
                            stop.store(true, Ordering::Release);
                        }
                    }
                });
            };
            while let Err(RecvTimeoutError::Timeout) = done_rx.recv_timeout(interval) {
                look(false);
            }
            // The last progress, at the end of the job.
            look(true);
            (worker.join().unwrap_or_else(Err), interrupt, asked)
        })
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    match ended {
        Ok(t) => Ok((t, asked)),
        Err(payload) => Err(super::internal(py, payload.as_ref())),
    }
}
