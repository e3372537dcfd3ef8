//! The extension module `emu._emu` of the Python package `emu` (python/emu): the
//! functions the package's Python code wraps. Each takes and gives plain values
//! (strings, numbers, tuples); the package turns them into its `Report`, its
//! exceptions and its tables.
//!
//! A run, sweep or search goes on a thread of its own with the GIL released
//! (`supervise`): Ctrl-C or the progress callable can stop it (a run then ends at the
//! end of a window), and no panic crosses into Python: one becomes `emu.InternalError`.

use emu_core::api::{Input, Progress, RunOptions};
use emu_core::config::{FileKind, list_shipped};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::Ordering;

mod batch;
mod network;
mod supervise;

/// An input as the package passes it: (how, name, text), `how` being `shipped`, `path`,
/// `text` (TOML `text`, named `name` in messages) or `lookup` (the command line's).
type InputSpec = (String, String, String);

fn input(spec: &InputSpec) -> PyResult<Input> {
    let (how, name, text) = spec;
    match how.as_str() {
        "shipped" => Ok(Input::shipped(name.as_str())),
        "path" => Ok(Input::path(name.as_str())),
        "text" => Ok(Input::text(name.as_str(), text.as_str())),
        "lookup" => Ok(Input::lookup(name.as_str())),
        other => Err(PyValueError::new_err(format!(
            "unknown input kind {other:?}"
        ))),
    }
}

/// The package's exception for `e`, with its kind and location as attributes.
fn raise(py: Python<'_>, e: &emu_core::Error) -> PyErr {
    use emu_core::ErrorKind;
    let class = match e.kind() {
        ErrorKind::TooLarge => "TooLargeError",
        ErrorKind::Engine => "EngineError",
        ErrorKind::Internal => "InternalError",
        _ => "ConfigError",
    };
    let made = (|| -> PyResult<PyErr> {
        let cls = py.import("emu._errors")?.getattr(class)?;
        let err = cls.call1((e.to_string(),))?;
        err.setattr("kind", e.kind().name())?;
        let l = e.location();
        err.setattr("file", l.and_then(|l| l.file.clone()))?;
        err.setattr("line", l.and_then(|l| l.line))?;
        err.setattr("column", l.and_then(|l| l.column))?;
        err.setattr("key", l.and_then(|l| l.key.clone()))?;
        err.setattr("sets", l.map(|l| l.sets.clone()).unwrap_or_default())?;
        Ok(PyErr::from_value(err))
    })();
    made.unwrap_or_else(|err| err)
}

/// `emu.InternalError` for a panic's payload.
fn internal(py: Python<'_>, payload: &(dyn std::any::Any + Send)) -> PyErr {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    let message = format!("internal error: {what} (a bug in emu; please report it)");
    let made = (|| -> PyResult<PyErr> {
        let cls = py.import("emu._errors")?.getattr("InternalError")?;
        let err = cls.call1((message.clone(),))?;
        err.setattr("kind", "internal")?;
        Ok(PyErr::from_value(err))
    })();
    made.unwrap_or_else(|err| err)
}

/// Progress as the package's callable receives it: a dict of numbers.
fn progress_dict<'py>(py: Python<'py>, p: &Progress) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("virtual_us", p.virtual_us)?;
    d.set_item("end_us", p.end_us)?;
    d.set_item("fraction", p.fraction())?;
    let a = &p.activity;
    d.set_item("tokens_moved", a.tokens_moved)?;
    d.set_item("packets_injected", a.packets_injected)?;
    d.set_item("packets_ejected", a.packets_ejected)?;
    d.set_item("messages_created", a.messages_created)?;
    d.set_item("messages_delivered", a.messages_delivered)?;
    Ok(d)
}

/// What a run gives the package: (outcome, JSON document, threads, wall seconds,
/// reproduce command).
type RunResult = (String, String, usize, f64, String);

/// Runs one case (see `emu.run`).
#[pyfunction]
#[pyo3(signature = (topology, traffic, set, seed, threads, check, deadlock_window_us, memory_limit, progress, interval))]
#[allow(clippy::too_many_arguments)]
fn run(
    py: Python<'_>,
    topology: InputSpec,
    traffic: InputSpec,
    set: Vec<String>,
    seed: u64,
    threads: Option<usize>,
    check: bool,
    deadlock_window_us: Option<f64>,
    memory_limit: Option<u64>,
    progress: Option<Py<PyAny>>,
    interval: f64,
) -> PyResult<RunResult> {
    let (topology, traffic) = (input(&topology)?, input(&traffic)?);
    let latest: Mutex<Option<Progress>> = Mutex::new(None);
    let (ran, _) = supervise::supervise(
        py,
        "emu-run",
        progress,
        interval,
        |py| {
            let p = latest.lock().unwrap_or_else(|e| e.into_inner()).take()?;
            Some(progress_dict(py, &p))
        },
        |stop| {
            let options = RunOptions {
                set,
                seed,
                threads,
                check,
                deadlock_window_us,
                memory_limit,
                ..RunOptions::default()
            }
            .on_progress(|p| {
                *latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(*p);
                if stop.load(Ordering::Acquire) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            emu_core::run(&topology, &traffic, &options)
        },
    )?;
    match ran {
        Ok(report) => Ok((
            report.outcome.name().to_string(),
            report.to_json().to_string(),
            report.threads,
            report.wall_seconds,
            report.reproduce.clone(),
        )),
        Err(e) => Err(raise(py, &e)),
    }
}

/// Checks a topology (see `emu.check`): (deadlock-free, text, JSON document).
#[pyfunction]
fn check(
    py: Python<'_>,
    topology: InputSpec,
    set: Vec<String>,
    memory_limit: Option<u64>,
) -> PyResult<(bool, String, String)> {
    let topology = input(&topology)?;
    let checked = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            emu_core::api::check(&topology, &set, memory_limit)
        }))
    });
    match checked {
        Ok(Ok(c)) => Ok((c.deadlock_free, c.text.clone(), c.to_json().to_string())),
        Ok(Err(e)) => Err(raise(py, &e)),
        Err(payload) => Err(internal(py, payload.as_ref())),
    }
}

/// The shipped files: (kind, name, description), topologies first.
#[pyfunction]
fn shipped() -> Vec<(String, String, String)> {
    list_shipped()
        .into_iter()
        .map(|e| {
            let kind = match e.kind {
                FileKind::Topology => "topology",
                _ => "traffic",
            };
            (kind.to_string(), e.name, e.description)
        })
        .collect()
}

/// A JSON object as TOML text (the package writes a dict as JSON first).
#[pyfunction]
fn toml_text(json: &str) -> PyResult<String> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let table = toml::Table::try_from(value)
        .map_err(|e| PyValueError::new_err(format!("cannot write this dict as TOML: {e}")))?;
    toml::to_string(&table).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The memory a run may plan for under the limits the system states (bytes), as the
/// command line's default `--memory-limit`; `None` if none is known.
#[pyfunction]
fn usable_memory() -> Option<u64> {
    emu_core::memory::usable()
}

/// The extension module.
#[pymodule]
fn _emu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(shipped, m)?)?;
    m.add_function(wrap_pyfunction!(toml_text, m)?)?;
    m.add_function(wrap_pyfunction!(usable_memory, m)?)?;
    batch::add(m)?;
    m.add_class::<network::Network>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
