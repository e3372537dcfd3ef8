//! `emu._emu.Network`: a network of C104s stepped from Python (co-simulation), over
//! `emu_core::api::Network`. The package's `emu.Network` (python/emu/_network.py)
//! wraps it. Times cross as ticks (whole numbers); the wrapper converts µs.
//!
//! Every call holds the GIL: a step of a few ticks costs less than releasing and
//! taking it again. A long `run_until` goes in stretches and looks for Ctrl-C between
//! them. No panic crosses into Python: one becomes `emu.InternalError`.

use crate::{InputSpec, input, internal, raise};
use emu_core::api::Network as Core;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, MutexGuard};

/// Ticks `run_until` runs between two looks for Ctrl-C.
const STRETCH: u64 = 1 << 20;

/// A stepped network (see `emu.Network`).
#[pyclass(module = "emu._emu", name = "Network")]
pub struct Network {
    /// The network; a Python object may be shared between threads, and its parts
    /// are not `Sync`, so one call at a time holds it.
    net: Mutex<Core>,
}

impl Network {
    fn net(&self) -> MutexGuard<'_, Core> {
        // A panic while holding it became `emu.InternalError`; the network is left as
        // it was when the panic struck, and its next step reports that it stopped.
        self.net.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Runs `f` on the network, turning an error into the package's exception and a panic
/// into `emu.InternalError`.
fn call<T>(py: Python<'_>, f: impl FnOnce() -> Result<T, emu_core::Error>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(raise(py, &e)),
        Err(payload) => Err(internal(py, payload.as_ref())),
    }
}

#[pymethods]
impl Network {
    /// Builds `topology` (with the topology overrides `set`) at tick 0.
    #[new]
    #[pyo3(signature = (topology, seed, set, memory_limit))]
    fn new(
        py: Python<'_>,
        topology: InputSpec,
        seed: u64,
        set: Vec<String>,
        memory_limit: Option<u64>,
    ) -> PyResult<Network> {
        let topology = input(&topology)?;
        let net = call(py, || Core::new(&topology, seed, &set, memory_limit))?;
        Ok(Network {
            net: Mutex::new(net),
        })
    }

    /// The topology's name.
    #[getter]
    fn name(&self) -> String {
        self.net().name().to_string()
    }

    /// Number of terminals.
    #[getter]
    fn terminals(&self) -> u32 {
        self.net().terminals()
    }

    /// Nanoseconds per tick.
    #[getter]
    fn tick_ns(&self) -> f64 {
        self.net().tick_ns()
    }

    /// The first tick not yet run.
    #[getter]
    fn tick(&self) -> u64 {
        self.net().now()
    }

    /// Messages sent and not yet delivered.
    #[getter]
    fn in_flight(&self) -> u64 {
        self.net().in_flight()
    }

    /// `us` µs as the nearest tick.
    fn ticks(&self, py: Python<'_>, us: f64) -> PyResult<u64> {
        let net = self.net();
        call(py, || net.us_to_ticks(us))
    }

    /// Sends a message created at tick `at` (now if `None`); returns its id.
    #[pyo3(signature = (src, dst, nbytes, at=None))]
    fn send(
        &self,
        py: Python<'_>,
        src: u32,
        dst: u32,
        nbytes: u32,
        at: Option<u64>,
    ) -> PyResult<u64> {
        let mut net = self.net();
        let at = at.unwrap_or_else(|| net.now());
        call(py, || net.send_at(src, dst, nbytes, at)).map(|id| id.0)
    }

    /// Runs `ticks` more ticks.
    fn step(&self, py: Python<'_>, ticks: u64) -> PyResult<()> {
        let end = self.net().now().saturating_add(ticks);
        self.run_until(py, end)
    }

    /// Runs every tick before `tick`, looking for Ctrl-C every stretch of ticks.
    fn run_until(&self, py: Python<'_>, tick: u64) -> PyResult<()> {
        loop {
            let mut net = self.net();
            let stop = tick.min(net.now().saturating_add(STRETCH));
            call(py, || net.run_until(stop))?;
            drop(net);
            if stop >= tick {
                return Ok(());
            }
            py.check_signals()?;
        }
    }

    /// The messages delivered since the last call, as a list of dicts (ticks).
    fn delivered<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut net = self.net();
        let got = call(py, || Ok(net.delivered()))?;
        drop(net);
        let list = PyList::empty(py);
        for d in got {
            let row = PyDict::new(py);
            row.set_item("id", d.id.0)?;
            row.set_item("source", d.src)?;
            row.set_item("destination", d.dst)?;
            row.set_item("bytes", d.bytes)?;
            row.set_item("created", d.created)?;
            row.set_item("delivered", d.delivered)?;
            row.set_item("latency", d.latency)?;
            row.set_item("source_wait", d.source_wait)?;
            row.set_item("input_wait", d.input_wait)?;
            row.set_item("output_wait", d.output_wait)?;
            row.set_item("transfer", d.transfer)?;
            row.set_item("hops", d.hops)?;
            list.append(row)?;
        }
        Ok(list)
    }

    /// Activity totals so far: (tokens moved, packets injected, packets ejected,
    /// messages created, messages delivered).
    fn activity(&self) -> (u64, u64, u64, u64, u64) {
        let a = *self.net().activity();
        (
            a.tokens_moved,
            a.packets_injected,
            a.packets_ejected,
            a.messages_created,
            a.messages_delivered,
        )
    }
}
