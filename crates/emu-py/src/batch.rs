//! The batch jobs of the command line from Python: `emu.sweep`, `emu.stress` and
//! `emu.reproduce` (python/emu/_batch.py wraps them). Each runs the front-end library's
//! code (the crate `emu`, whose binary is the command line), so a result is what the
//! command line prints or writes for the same arguments.
//!
//! The job goes on a thread of its own with the GIL released; the calling thread wakes
//! every `interval` seconds to look for Ctrl-C and to tell the progress callable how
//! many runs have finished. Either can stop a sweep or a search: no further run starts,
//! the runs already going finish, and the call raises `KeyboardInterrupt` (Ctrl-C) or
//! returns `None` to the package (the callable said stop). A reproduction has no such
//! hook: it is told of Ctrl-C when it ends.

use super::{InputSpec, input, raise};
use emu::family::CaseError;
use emu::pool::{Unwatched, default_threads};
use emu::stress::starvation::SciStressError;
use emu::stress::write::{
    Asked, Described, clean_json, describe, describe_starved, json_text, no_starvation_json,
};
use emu::stress::{Ask, Buffers, PrepareError, Prepared, Ring, StressError, search_until, shrink};
use emu::sweep::loads::MAX_LOADS;
use emu::sweep::table::{csv, document, render, summary_csv};
use emu::sweep::{LoadsError, PointError, Shard, SweepSpec, parse_loads, rows, saturation};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The package's exception `class` (of `emu._errors`) with `message` and kind `kind`:
/// an error that no file location describes.
fn error(py: Python<'_>, class: &str, kind: &str, message: impl std::fmt::Display) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let cls = py.import("emu._errors")?.getattr(class)?;
        let err = cls.call1((message.to_string(),))?;
        err.setattr("kind", kind)?;
        Ok(PyErr::from_value(err))
    })();
    made.unwrap_or_else(|err| err)
}

/// `emu.ConfigError` with `message`: bad input that no file location describes.
fn config_error(py: Python<'_>, message: impl std::fmt::Display) -> PyErr {
    error(py, "ConfigError", "config", message)
}

/// Runs `job(stop, finished)` as [`super::supervise::supervise`] does, calling
/// `progress` with `{"done": finished, "total": total}`.
fn supervise<T: Send>(
    py: Python<'_>,
    total: usize,
    progress: Option<Py<PyAny>>,
    interval: f64,
    job: impl FnOnce(&AtomicBool, &AtomicUsize) -> T + Send,
) -> PyResult<(T, bool)> {
    let finished = &AtomicUsize::new(0);
    super::supervise::supervise(
        py,
        "emu-batch",
        progress,
        interval,
        |py| {
            let d = PyDict::new(py);
            Some(
                d.set_item("done", finished.load(Ordering::Relaxed))
                    .and_then(|()| d.set_item("total", total))
                    .map(|()| d),
            )
        },
        |stop| job(stop, finished),
    )
}

/// A shard as `--shard K/N` takes it.
fn shard_of(py: Python<'_>, shard: Option<&str>) -> PyResult<Option<Shard>> {
    shard
        .map(|s| {
            s.parse::<Shard>()
                .map_err(|e| config_error(py, format!("shard {s}: {e}")))
        })
        .transpose()
}

/// The loads of a sweep as the package passes them: `FROM:TO:STEP` (or one load) as
/// `--load` takes it, or a list of loads, swept in its order.
#[derive(FromPyObject)]
pub enum Loads {
    /// A `--load` range.
    Range(String),
    /// The loads themselves.
    List(Vec<f64>),
}

/// What a whole sweep gives the package: (the per-run CSV of `--csv`, the per-load CSV
/// of `--table-csv`, the printed table, the `--json` document, saturation load, peak
/// (throughput %, load)).
type SweepResult = (
    String,
    String,
    String,
    String,
    Option<f64>,
    Option<(f64, f64)>,
);

/// Runs a sweep (see `emu.sweep`): `(None, results)` for a whole sweep, or with
/// `shard` `(text, None)`, the text `emu sweep --shard K/N --out FILE` writes; `None`
/// if the progress callable stopped it.
#[pyfunction]
#[pyo3(signature = (topology, traffic, set, loads, seeds, seed, threads, memory_limit, shard, progress, interval))]
#[allow(clippy::too_many_arguments)]
pub fn sweep(
    py: Python<'_>,
    topology: InputSpec,
    traffic: InputSpec,
    set: Vec<String>,
    loads: Loads,
    seeds: u32,
    seed: u64,
    threads: Option<usize>,
    memory_limit: Option<u64>,
    shard: Option<String>,
    progress: Option<Py<PyAny>>,
    interval: f64,
) -> PyResult<Option<(Option<String>, Option<SweepResult>)>> {
    let loads = match loads {
        Loads::Range(spec) => {
            parse_loads(&spec).map_err(|e| config_error(py, format!("loads {spec}: {e}")))?
        }
        Loads::List(list) => {
            if list.is_empty() || list.len() > MAX_LOADS {
                return Err(config_error(
                    py,
                    format!("loads: give 1 to {MAX_LOADS} loads, not {}", list.len()),
                ));
            }
            if let Some(&bad) = list.iter().find(|&&l| !(l > 0.0 && l <= 1.0)) {
                return Err(config_error(
                    py,
                    format!("loads: {}", LoadsError::OutOfRange(bad)),
                ));
            }
            list
        }
    };
    if !(1..=1000).contains(&seeds) {
        return Err(config_error(py, format!("seeds {seeds}: give 1 to 1000")));
    }
    let shard_given = shard.is_some();
    let shard = shard_of(py, shard.as_deref())?.unwrap_or(Shard::WHOLE);
    let (topology, traffic) = (input(&topology)?, input(&traffic)?);
    let (topo, traf) = emu_core::api::load(&topology, &traffic, &set).map_err(|e| raise(py, &e))?;
    let spec = SweepSpec::new(topo, traf, loads, seeds, seed, memory_limit)
        .map_err(|e| config_error(py, e))?;
    let jobs = shard.select(&spec.jobs());
    let threads = threads.unwrap_or_else(default_threads);
    let (ran, asked) = supervise(py, jobs.len(), progress, interval, |stop, finished| {
        spec.run_jobs(&jobs, threads, &Unwatched, Some(stop), |n, _| {
            finished.fetch_max(n, Ordering::Relaxed);
        })
    })?;
    let points = match ran {
        Ok(Some(points)) if !asked => points,
        Ok(_) => return Ok(None),
        Err(PointError::Build(e)) => return Err(raise(py, &e.into())),
        Err(PointError::Engine(e)) => return Err(raise(py, &e.into())),
    };
    let header = spec.header();
    if shard_given {
        return Ok(Some((
            Some(emu::sweep::shard::write(&header, shard, &points)),
            None,
        )));
    }
    let points: Vec<_> = points.into_iter().map(|(_, p)| p).collect();
    let rows = rows(&points);
    let sat = saturation(&rows);
    let unit = header.delay_unit.as_str();
    let (t, p) = (header.topology.as_str(), header.traffic.as_str());
    let doc = document(&header, &points, &rows, &sat);
    Ok(Some((
        None,
        Some((
            csv(t, p, unit, &points),
            summary_csv(t, p, unit, &rows),
            render(&header.title(), &rows, &sat, unit),
            serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n",
            sat.load,
            sat.peak,
        )),
    )))
}

/// What a search gives the package: (the `--json` document, the first deadlocking
/// case's number counted from 1 (0: none), cases in the search, the shrunk traffic file
/// as JSON (empty: none)).
type StressResult = (String, usize, usize, String);

/// Searches for deadlocks (see `emu.stress`); `None` if the progress callable stopped
/// it.
#[pyfunction]
#[pyo3(signature = (topology, set, seeds, seed, buffers, run_us, max_candidates, threads, memory_limit, out, progress, interval))]
#[allow(clippy::too_many_arguments)]
pub fn stress(
    py: Python<'_>,
    topology: InputSpec,
    set: Vec<String>,
    seeds: u32,
    seed: u64,
    buffers: String,
    run_us: f64,
    max_candidates: usize,
    threads: Option<usize>,
    memory_limit: Option<u64>,
    out: Option<String>,
    progress: Option<Py<PyAny>>,
    interval: f64,
) -> PyResult<Option<StressResult>> {
    let buffers = match buffers.as_str() {
        "topology" => Buffers::Topology,
        "small" => Buffers::Small,
        other => {
            return Err(config_error(
                py,
                format!("buffers {other:?}: give \"topology\" or \"small\""),
            ));
        }
    };
    if !(1..=100_000).contains(&seeds) {
        return Err(config_error(py, format!("seeds {seeds}: give 1 to 100000")));
    }
    if !(run_us.is_finite() && (1.0..=1e6).contains(&run_us)) {
        return Err(config_error(
            py,
            format!("run_us {run_us}: give 1 to 1,000,000 microseconds"),
        ));
    }
    if seed.checked_add(u64::from(seeds) - 1).is_none() {
        return Err(config_error(
            py,
            format!("seed {seed}: seeds {seed} + {seeds} overflow a 64-bit seed"),
        ));
    }
    let given = topology.1.clone();
    let topology = input(&topology)?;
    let ask = Ask {
        sets: set,
        buffers,
        seed,
        seeds,
        run_us,
        memory_limit,
    };
    let threads = threads.unwrap_or_else(default_threads);
    let search = match emu::stress::prepare(&topology, &ask) {
        Ok(Prepared::Deadlock(s)) => s,
        Ok(Prepared::Starvation(ring)) => {
            Prepared::check_buffers(buffers).map_err(|e| config_error(py, e))?;
            return starvation(py, &ring, &ask.sets, threads, out, progress, interval);
        }
        Err(PrepareError::Config(e)) => return Err(raise(py, &e.into())),
        Err(PrepareError::Build(e)) => return Err(raise(py, &e.into())),
        Err(e) => return Err(config_error(py, e)),
    };
    let path = out.unwrap_or_else(|| "stress-deadlock.toml".to_string());
    let cases = search.cases.len();
    let (ran, asked) = supervise(py, cases, progress, interval, |stop, finished| {
        let found = search_until(
            search.target(),
            &search.cases,
            threads,
            &Unwatched,
            Some(stop),
            |_, _| {
                finished.fetch_add(1, Ordering::Relaxed);
            },
        )?;
        let Some((case, first)) = found.first.clone() else {
            return Ok((
                json_text(&clean_json(&search.name, &found)),
                0,
                String::new(),
            ));
        };
        let shrunk = shrink(
            search.target(),
            search.terminals,
            &case.traffic,
            case.seed,
            first,
            max_candidates,
        )?;
        let asked = Asked {
            topology: &given,
            seeds,
            seed,
            buffers,
            traffic_path: &path,
        };
        let Described {
            traffic_file, doc, ..
        } = describe(
            &asked,
            &search.name,
            &search.sets,
            &found,
            case.kind.name(),
            &shrunk,
        )
        .map_err(|e| StressError::Build(e.to_string()))?;
        let traffic = traffic_json(&traffic_file).map_err(StressError::Build)?;
        Ok((json_text(&doc), case.index + 1, traffic))
    })?;
    match ran {
        _ if asked => Ok(None),
        Ok((json, case, traffic)) => Ok(Some((json, case, cases, traffic))),
        Err(StressError::Engine(emu_core::engine::EngineError::Stopped { .. })) => Ok(None),
        Err(StressError::Build(message)) => Err(config_error(py, message)),
        Err(StressError::Engine(e)) => Err(raise(py, &e.into())),
    }
}

/// Searches the SCI ring `ring` for starved nodes (see `emu.stress`), as `emu stress`
/// does for a ring; the progress callable is told the cases only when the search ends,
/// and Ctrl-C is seen then.
fn starvation(
    py: Python<'_>,
    ring: &Ring,
    sets: &[String],
    threads: usize,
    out: Option<String>,
    progress: Option<Py<PyAny>>,
    interval: f64,
) -> PyResult<Option<StressResult>> {
    let name = emu::config::stem(&ring.topo.file.name);
    let path = out.unwrap_or_else(|| "CASE.toml".to_string());
    let cases = ring.cases.len();
    let (ran, _) = supervise(py, cases, progress, interval, |_, finished| {
        let results = emu::stress::starvation::search_watched(
            &name,
            &ring.topo.config,
            &ring.cases,
            threads,
            ring.memory_limit,
            &Unwatched,
        );
        if let Ok(r) = &results {
            finished.store(r.len(), Ordering::Relaxed);
        }
        results
    })?;
    let results = ran.map_err(|e| match e {
        SciStressError::Build(b) => raise(py, &CaseError::build(b, &ring.topo, None).into()),
        SciStressError::Engine(e) => raise(py, &e.into()),
    })?;
    let Some(found) = results.iter().find(|r| !r.starved.is_empty()) else {
        let doc = no_starvation_json(&name, &results);
        return Ok(Some((json_text(&doc), 0, cases, String::new())));
    };
    let Described {
        traffic_file, doc, ..
    } = describe_starved(&name, &ring.topo.file.name, sets, &path, &results, found)
        .map_err(|e| config_error(py, e))?;
    Ok(Some((
        json_text(&doc),
        found.case.index + 1,
        cases,
        traffic_json(&traffic_file).map_err(|e| config_error(py, e))?,
    )))
}

/// A traffic file's text as the JSON of its tables.
fn traffic_json(text: &str) -> Result<String, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| format!("the traffic file: {e}"))?;
    serde_json::to_string(&table).map_err(|e| e.to_string())
}

/// Runs one experiment (see `emu.reproduce`): (its report as `emu reproduce NAME` prints
/// it, the `--json` document).
#[pyfunction]
pub fn reproduce(py: Python<'_>, name: String, quick: bool) -> PyResult<(String, String)> {
    let Some(experiment) = emu::reproduce::find(&name) else {
        let names: Vec<&str> = emu::reproduce::EXPERIMENTS.iter().map(|e| e.name).collect();
        return Err(config_error(
            py,
            format!(
                "unknown experiment `{name}`: give one of {}",
                names.join(", ")
            ),
        ));
    };
    let (ran, _) = supervise(py, 1, None, 0.1, |_, finished| {
        let r = (experiment.run)(quick);
        finished.store(1, Ordering::Relaxed);
        r
    })?;
    let report = ran.map_err(|e| {
        error(
            py,
            "EngineError",
            "engine",
            format!("{name}: run failed: {e}"),
        )
    })?;
    let reports = [report];
    let json = serde_json::to_string_pretty(&emu::reproduce::table::json(&reports))
        .map_err(|e| config_error(py, e))?;
    Ok((reports[0].text(), json + "\n"))
}

/// The names of the experiments, in the order `emu reproduce --list` gives them, with
/// the section each reproduces and what it shows.
#[pyfunction]
pub fn experiments() -> Vec<(String, String, String)> {
    emu::reproduce::EXPERIMENTS
        .iter()
        .map(|e| (e.name.into(), e.section.into(), e.about.into()))
        .collect()
}

/// Adds the batch functions to the extension module.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(stress, m)?)?;
    m.add_function(wrap_pyfunction!(reproduce, m)?)?;
    m.add_function(wrap_pyfunction!(experiments, m)?)?;
    Ok(())
}
