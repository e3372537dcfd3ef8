//! What the fuzz targets share: building a case from in-memory files the way
//! `emu::session::AnyCase::load` does from files on disk, and the checks every built
//! plan must pass.

use emu::config::load::{load_topology_text, load_traffic_text};
use emu::config::topology::NetworkConfig;
use emu::config::traffic::{InjectionConfig, PhasesConfig};
use emu::config::{Loaded, TopologyConfig, TrafficConfig, validate_sets};
use emu::api::{ErrorKind, RunOptions, planned};
use emu::model::LinkProtocol;
use emu::network::{self, Network};
use emu::session::{AnyCase, Case, CaseError};
use emu::stats::RunInfo;
use emu::traffic::trace::parse;

/// A topology file, a traffic file, `--set` arguments and the trace the traffic may
/// name, all in memory.
#[derive(Debug, Default)]
pub struct CaseText<'a> {
    /// The topology file's text.
    pub topology: &'a str,
    /// The traffic file's text.
    pub traffic: &'a str,
    /// `--set` arguments, one a line.
    pub sets: Vec<String>,
    /// The trace file a trace traffic names (whatever its name).
    pub trace: &'a str,
    /// The run seed.
    pub seed: u64,
}

/// The input format of the `case` target: UTF-8, fields separated by NUL bytes:
/// topology, traffic, `--set` lines, trace, seed (missing fields are empty; seed 1).
pub fn split(data: &[u8]) -> Option<CaseText<'_>> {
    let text = std::str::from_utf8(data).ok()?;
    let mut fields = text.split('\0');
    let topology = fields.next().unwrap_or("");
    let traffic = fields.next().unwrap_or("");
    let sets = fields
        .next()
        .unwrap_or("")
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    let trace = fields.next().unwrap_or("");
    let seed = fields
        .next()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1);
    Some(CaseText {
        topology,
        traffic,
        sets,
        trace,
        seed,
    })
}

/// Joins the fields as [`split`] reads them.
pub fn join(c: &CaseText<'_>) -> Vec<u8> {
    format!(
        "{}\0{}\0{}\0{}\0{}",
        c.topology,
        c.traffic,
        c.sets.join("\n"),
        c.trace,
        c.seed
    )
    .into_bytes()
}

/// What a built plan came out as: its family, node count and memory estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Built {
    /// Nodes in the plan.
    pub nodes: usize,
    /// `Network::memory_need()`: (as built, at worst), bytes.
    pub need: (u64, u64),
}

/// Loads and builds the case as `AnyCase::load` does (`validate_sets`, both files with
/// their overrides, then the family's builder; a fabric gets the parsed trace when its
/// traffic is a trace), and checks the plan. `Err` is the one-line message the
/// command line would print (exit 2).
pub fn build_case(c: &CaseText<'_>) -> Result<Built, String> {
    let result = build_case_inner(c);
    if *DEBUG {
        eprintln!("EMU_FUZZ_DEBUG: {result:?}");
    }
    result
}

/// `EMU_FUZZ_DEBUG=1`: every target prints what each input came to (run a target on
/// its corpus with `-runs=0` to see which inputs build).
pub static DEBUG: std::sync::LazyLock<bool> =
    std::sync::LazyLock::new(|| std::env::var_os("EMU_FUZZ_DEBUG").is_some());

fn build_case_inner(c: &CaseText<'_>) -> Result<Built, String> {
    let case = load_case(c, None)?;
    Ok(check_case(&case))
}

/// Loads both files of `c` with its `--set` lines (`validate_sets` first), as
/// `AnyCase::load` does from files on disk.
pub fn load_texts(
    c: &CaseText<'_>,
) -> Result<(Loaded<TopologyConfig>, Loaded<TrafficConfig>), String> {
    validate_sets(&c.sets).map_err(|e| e.to_string())?;
    let topo =
        load_topology_text("fuzz-topology.toml", c.topology, &c.sets).map_err(|e| e.to_string())?;
    let traf =
        load_traffic_text("fuzz-traffic.toml", c.traffic, &c.sets).map_err(|e| e.to_string())?;
    Ok((topo, traf))
}

/// Loads and builds the case of `c` ([`load_texts`], then [`case_of`]).
pub fn load_case(c: &CaseText<'_>, memory_limit: Option<u64>) -> Result<AnyCase, String> {
    let (topo, traf) = load_texts(c)?;
    case_of(topo, traf, c.trace, c.seed, memory_limit)
}

/// Builds the case of loaded files as `AnyCase::from_loaded` does. A trace given in
/// memory goes straight to the fabric's builder (the family reads its trace from a
/// file beside the traffic file), after the same section checks; every other case is
/// built by its family through the registry, as the command line does. `Err` is the
/// one-line message the command line would print (exit 2).
pub fn case_of(
    topo: Loaded<TopologyConfig>,
    traf: Loaded<TrafficConfig>,
    trace: &str,
    seed: u64,
    memory_limit: Option<u64>,
) -> Result<AnyCase, String> {
    if let (NetworkConfig::Fabric(_), InjectionConfig::Trace { .. }) =
        (&topo.config.network, &traf.config.injection)
    {
        let family = emu::family::of(&topo.config.network);
        emu::family::only_own_sections(family, &topo).map_err(|e| e.to_string())?;
        emu::family::unread_traffic(family, &traf).map_err(|e| e.to_string())?;
        let trace = parse(trace).map_err(|e| format!("trace: {e}"))?;
        let net = network::fabric_from_config(
            "fuzz-topology",
            &topo.config,
            &traf.config,
            seed,
            Some(&trace),
        )
        .map_err(|e| CaseError::build(e, &topo, Some(&traf)).to_string())?;
        return Ok(AnyCase::Fabric(Case::new(topo, traf, seed, net, family)));
    }
    AnyCase::from_loaded(topo, traf, seed, memory_limit).map_err(|e| e.to_string())
}

/// [`check`] of a case of any family, from what the library says of its plan
/// ([`emu::api::planned`]).
pub fn check_case(case: &AnyCase) -> Built {
    let plan = planned(case);
    assert!(
        plan.need.least <= plan.need.most,
        "memory_need: as built {} > at worst {}",
        plan.need.least,
        plan.need.most
    );
    Built {
        nodes: plan.nodes,
        need: (plan.need.least, plan.need.most),
    }
}

/// The checks every built plan must pass: the memory estimate is computed without
/// panicking and its two figures are in order.
pub fn check<P: LinkProtocol>(net: &Network<P>) -> Built {
    let need = net.memory_need();
    assert!(
        need.least <= need.most,
        "memory_need: as built {} > at worst {}",
        need.least,
        need.most
    );
    Built {
        nodes: net.nodes().len(),
        need: (need.least, need.most),
    }
}

/// The `run` target's bound on a run: at most this many ticks of the plan's time base
/// (a DS-Link bit time of 10 ns, an SCI cycle of 2 ns, a fabric's packet cycle) …
pub const RUN_TICKS: u64 = 4000;
/// … and at most this many node-ticks (nodes × ticks), so that a large network runs
/// fewer ticks …
pub const RUN_NODE_TICKS: u64 = 250_000;
/// … but never fewer than this many ticks.
pub const RUN_MIN_TICKS: u64 = 100;
/// The memory a `run` case may need, bytes: a larger plan is refused, as
/// `--memory-limit 0.268` would refuse it.
pub const RUN_MEMORY: u64 = 256 << 20;

/// How many ticks the `run` target runs a plan of `nodes` nodes for.
pub fn run_ticks(nodes: usize) -> u64 {
    (RUN_NODE_TICKS / (nodes as u64).max(1)).clamp(RUN_MIN_TICKS, RUN_TICKS)
}

/// Shortens `[phases]` to fit in `budget_us` microseconds if they do not: start,
/// warm-up, window and drain limit keep at most 10, 20, 40 and 30 % of it (values
/// already within their share are kept as given).
pub fn shorten(phases: &mut PhasesConfig, budget_us: f64) {
    let total = phases.start_us + phases.warmup_us + phases.measure_us + phases.drain_limit_us;
    if total <= budget_us {
        return;
    }
    phases.start_us = phases.start_us.min(0.1 * budget_us);
    phases.warmup_us = phases.warmup_us.min(0.2 * budget_us);
    phases.measure_us = phases.measure_us.min(0.4 * budget_us);
    phases.drain_limit_us = phases.drain_limit_us.min(0.3 * budget_us);
}

/// What one run of the `run` target came to (for `EMU_FUZZ_DEBUG`).
#[derive(Debug)]
pub struct Ran {
    /// Nodes in the plan.
    pub nodes: usize,
    /// The tick bound ([`run_ticks`]).
    pub ticks: u64,
    /// The last tick the engine reached, or the engine's error (or the timing check's:
    /// then [`Ran::timing`] holds it).
    pub outcome: Result<u64, String>,
    /// `network::timing::check_journeys`: messages checked, or its error.
    pub timing: Option<Result<u64, String>>,
}

/// Loads and builds the case of `c` as [`load_case`] does (refusing a plan that needs
/// more than [`RUN_MEMORY`]), shortens its `[phases]` to [`run_ticks`] ticks if they are
/// longer (rebuilding it), then runs it through the library's facade
/// (`emu::api::run_case`) on the sequential reference engine with `check` (credit
/// invariant at every barrier, journeys recorded and checked afterwards) and that tick
/// as its `tick_budget` (it stops there whatever the plan says), and makes its report
/// (JSON and text).
/// Load, build and engine errors are `Err`/[`Ran::outcome`]; a node that panicked
/// (`EngineError::Panicked`) or an engine failure (`EngineError::Internal`) is a panic
/// here: both are bugs in emu.
pub fn run_case(c: &CaseText<'_>) -> Result<Ran, String> {
    let result = run_case_inner(c);
    if *DEBUG {
        eprintln!("EMU_FUZZ_DEBUG: {result:?}");
    }
    result
}

fn run_case_inner(c: &CaseText<'_>) -> Result<Ran, String> {
    let (topo, mut traf) = load_texts(c)?;
    let first = case_of(
        topo.clone(),
        traf.clone(),
        c.trace,
        c.seed,
        Some(RUN_MEMORY),
    )?;
    let plan = planned(&first);
    let ticks = run_ticks(plan.nodes);
    let case = if plan.hard_stop > ticks || plan.end_after > ticks {
        drop(first);
        shorten(&mut traf.config.phases, ticks as f64 * plan.tick_ns / 1000.0);
        case_of(topo, traf, c.trace, c.seed, Some(RUN_MEMORY))?
    } else {
        first
    };
    Ok(run_for(&case, ticks))
}

/// Runs a case for at most `ticks` ticks through the library's facade (see
/// [`run_case`]).
fn run_for(case: &AnyCase, ticks: u64) -> Ran {
    let built = check_case(case);
    let options = RunOptions {
        threads: Some(1),
        check: true,
        memory_limit: Some(RUN_MEMORY),
        tick_budget: Some(ticks),
        ..RunOptions::default()
    };
    let mut ran = Ran {
        nodes: built.nodes,
        ticks,
        outcome: Err(String::new()),
        timing: None,
    };
    let report = match emu::api::run_case(case, &options) {
        Ok(r) => r,
        Err(e) if e.kind() == ErrorKind::Internal => panic!("{e}"),
        Err(e) if e.timing_error().is_some() => {
            ran.outcome = Err("ran, but the timing check failed".into());
            ran.timing = Some(Err(e.to_string()));
            return ran;
        }
        Err(e) => {
            ran.outcome = Err(e.to_string());
            return ran;
        }
    };
    let (Some(outcome), Some(stats)) = (&report.run, &report.stats) else {
        ran.outcome = Err(report
            .failure
            .as_ref()
            .map_or_else(|| report.outcome.name().to_string(), |e| e.to_string()));
        return ran;
    };
    ran.outcome = Ok(outcome.end_tick);
    ran.timing = report.timing.as_ref().map(|s| Ok(s.messages));
    assert!(!report.to_json().is_empty());
    let text = stats.render_text(&RunInfo {
        engine: "sequential".into(),
        threads: 1,
        wall_seconds: 0.0,
        overrides: Vec::new(),
    });
    assert!(!text.is_empty());
    ran
}

/// The input format of the `shard` target: UTF-8 text, files separated by NUL bytes,
/// named `shard1`, `shard2`, … (an input without a NUL is one file).
pub fn split_files(data: &[u8]) -> Option<Vec<(String, String)>> {
    let text = std::str::from_utf8(data).ok()?;
    Some(
        text.split('\0')
            .enumerate()
            .map(|(i, t)| (format!("shard{}", i + 1), t.to_string()))
            .collect(),
    )
}

/// What `emu merge FILES --csv … --table-csv … --plot … --json …` does with shard files,
/// in memory: `emu::sweep::merge`, then the table's rows, saturation point, text table,
/// both CSVs, the SVG and the JSON document. Returns the number of runs merged, or the
/// error `emu merge` would print (exit 2; a plot error is exit 1 there).
pub fn merge_shards(files: &[(String, String)]) -> Result<usize, String> {
    let result = merge_shards_inner(files);
    if *DEBUG {
        eprintln!("EMU_FUZZ_DEBUG: {result:?}");
    }
    result
}

fn merge_shards_inner(files: &[(String, String)]) -> Result<usize, String> {
    use emu::sweep::table::{csv, render, summary_csv};
    use emu::sweep::{merge, rows, saturation};
    let merged = merge(files).map_err(|e| e.to_string())?;
    let (header, points) = (&merged.header, &merged.points);
    let rows = rows(points);
    let sat = saturation(&rows);
    let unit = header.delay_unit.as_str();
    let title = header.title();
    let _ = render(&title, &rows, &sat, unit);
    let (t, p) = (header.topology.as_str(), header.traffic.as_str());
    let _ = csv(t, p, unit, points);
    let _ = summary_csv(t, p, unit, &rows);
    let doc = serde_json::json!({
        "sweep": header,
        "runs": points,
        "rows": rows,
        "saturation": sat,
    });
    let _ = serde_json::to_string_pretty(&doc);
    emu::plot::sweep::sweep_svg(&title, &rows, &sat, unit).map_err(|e| e.to_string())?;
    Ok(points.len())
}
