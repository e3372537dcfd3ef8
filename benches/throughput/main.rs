//! Throughput benchmarks: both engines and the bare loop, on the binary 6-, 8- and
//! 10-cube (docs/architecture.md "Layout": benches/; the speed targets it checks).
//!
//! A custom harness (`harness = false`). Every case is one whole simulation,
//! assembled the way `emu` assembles a run (config → `network::build` →
//! `RunControl` → engine), run once in a child process of its own so that its peak
//! memory (`VmHWM`) is its own. Wall time is `Instant` around the engine call only.
//!
//! ```text
//! cargo bench                                         # every case
//! cargo bench --bench throughput -- --quick           # every case, short phases
//! cargo bench --bench throughput -- hypercube8/uniform-sat   # cases whose name contains it
//! cargo bench --bench throughput -- --list            # the case names
//! BOOKSIM=/path/to/booksim cargo bench --bench throughput -- booksim   # vs BookSim 2
//! CAMINOS=/path/to/caminos cargo bench --bench throughput -- caminos   # vs CAMINOS
//! ```
//!
//! Output: an aligned table, one `BENCH_JSON {...}` line per case, and the speed
//! targets evaluated from the measured numbers.

mod bare;
mod booksim;
mod caminos;
mod fabric;
mod sci;

use emu::engine::{self, RunControl, RunOutcome};
use emu::network::Network;
use emu::session::Case;
use std::process::{Command, ExitCode};
use std::time::Instant;

const SEED: u64 = 1;

/// Phases of virtual time (warm-up µs, measure µs), full and `--quick`.
const FULL_PHASES: (f64, f64) = (20.0, 100.0);
const QUICK_PHASES: (f64, f64) = (5.0, 20.0);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    /// No engine: `bare::run`.
    Bare,
    Sharded(usize),
    Actors(usize),
}

impl Engine {
    fn label(self) -> String {
        match self {
            Engine::Bare => "bare".into(),
            Engine::Sharded(t) => format!("sharded-{t}t"),
            Engine::Actors(t) => format!("actors-{t}t"),
        }
    }
    fn parse(s: &str) -> Option<Engine> {
        if s == "bare" {
            return Some(Engine::Bare);
        }
        let (kind, t) = s.split_once('-')?;
        let t: usize = t.strip_suffix('t')?.parse().ok()?;
        match kind {
            "sharded" => Some(Engine::Sharded(t)),
            "actors" => Some(Engine::Actors(t)),
            _ => None,
        }
    }
}

const ENGINES: &[Engine] = &[
    Engine::Bare,
    Engine::Sharded(1),
    Engine::Sharded(2),
    Engine::Actors(1),
    Engine::Actors(2),
];

/// A traffic setting: shipped traffic file plus `--set` overrides.
struct Workload {
    /// Short name used in the case name.
    name: &'static str,
    traffic: &'static str,
    sets: &'static [&'static str],
    /// Only on these topologies (empty: all).
    only: &'static [&'static str],
}

const WORKLOADS: &[Workload] = &[
    Workload {
        name: "uniform-1pct",
        traffic: "uniform",
        sets: &["injection.kind=rate", "injection.load=0.01"],
        only: &["hypercube10"],
    },
    Workload {
        name: "uniform-10pct",
        traffic: "uniform",
        sets: &["injection.kind=rate", "injection.load=0.1"],
        only: &[],
    },
    Workload {
        name: "uniform-50pct",
        traffic: "uniform",
        sets: &["injection.kind=rate", "injection.load=0.5"],
        only: &[],
    },
    Workload {
        name: "uniform-sat",
        traffic: "uniform",
        sets: &[],
        only: &[],
    },
    Workload {
        name: "shuffle-sat",
        traffic: "shuffle",
        sets: &[],
        only: &[],
    },
];

const TOPOLOGIES: &[&str] = &["hypercube6", "hypercube8", "hypercube10"];

fn cases() -> Vec<String> {
    let mut v = sci::cases();
    v.extend(fabric::cases());
    v.extend(booksim::cases());
    v.extend(caminos::cases());
    for t in TOPOLOGIES {
        for w in WORKLOADS {
            if !w.only.is_empty() && !w.only.contains(t) {
                continue;
            }
            for e in ENGINES {
                v.push(format!("{t}/{}/{}", w.name, e.label()));
            }
        }
    }
    v
}

fn build(
    topology: &str,
    w: &Workload,
    phases: (f64, f64),
) -> Result<(Network, RunControl), String> {
    let mut sets: Vec<String> = w.sets.iter().map(|s| s.to_string()).collect();
    sets.push(format!("phases.warmup_us={}", phases.0));
    sets.push(format!("phases.measure_us={}", phases.1));
    let case = Case::load(topology, w.traffic, &sets, SEED).map_err(|e| e.to_string())?;
    let ctl = case.control();
    Ok((case.net, ctl))
}

fn run_engine(e: Engine, net: &Network, ctl: &RunControl) -> Result<RunOutcome, String> {
    match e {
        Engine::Bare => engine::sharded::run(net, ctl, 1, None),
        Engine::Sharded(t) => engine::sharded::run(net, ctl, t, None),
        Engine::Actors(t) => engine::actors::run(net, ctl, t, None),
    }
    .map_err(|e| e.to_string())
}

/// Peak resident memory of this process so far, in KiB (`VmHWM`).
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Runs one case in this process and prints its `BENCH_JSON` line.
fn child(case: &str, quick: bool) -> Result<(), String> {
    if sci::is_sci(case) {
        let json = sci::child(case, quick, SEED)?;
        println!("BENCH_JSON {json}");
        return Ok(());
    }
    if fabric::is_fabric(case) {
        let json = fabric::child(case, quick, SEED)?;
        println!("BENCH_JSON {json}");
        return Ok(());
    }
    if booksim::is_booksim(case) {
        let json = booksim::child(case, SEED)?;
        println!("BENCH_JSON {json}");
        return Ok(());
    }
    if caminos::is_caminos(case) {
        let json = caminos::child(case, SEED)?;
        println!("BENCH_JSON {json}");
        return Ok(());
    }
    let parts: Vec<&str> = case.split('/').collect();
    let [topology, workload, engine] = parts[..] else {
        return Err(format!("bad case name {case}"));
    };
    let w = WORKLOADS
        .iter()
        .find(|w| w.name == workload)
        .ok_or_else(|| format!("no workload {workload}"))?;
    let e = Engine::parse(engine).ok_or_else(|| format!("no engine {engine}"))?;
    let phases = if quick { QUICK_PHASES } else { FULL_PHASES };
    let (net, ctl) = build(topology, w, phases)?;
    let (wall_s, end_tick, hops, msgs, windows, node_runs, steps) = if e == Engine::Bare {
        // The engine's run says where to stop and how much work there is to do; the
        // bare loop must then do exactly the same work.
        let reference = run_engine(Engine::Sharded(1), &net, &ctl)?;
        let (net, _) = build(topology, w, phases)?;
        let wall = Instant::now();
        let b = bare::run(&net, reference.end_tick)?;
        let wall_s = wall.elapsed().as_secs_f64();
        if b.token_hops != reference.activity.tokens_moved {
            return Err(format!(
                "the bare loop moved {} tokens, the engine {}: they did not run the same steps",
                b.token_hops, reference.activity.tokens_moved
            ));
        }
        (
            wall_s,
            reference.end_tick,
            b.token_hops,
            b.messages_delivered,
            0,
            0,
            b.steps,
        )
    } else {
        let wall = Instant::now();
        let o = run_engine(e, &net, &ctl)?;
        let wall_s = wall.elapsed().as_secs_f64();
        let a = o.activity;
        (
            wall_s,
            o.end_tick,
            a.tokens_moved,
            a.messages_delivered,
            o.windows,
            o.node_runs,
            0,
        )
    };
    let json = serde_json::json!({
        "case": case,
        "topology": topology,
        "traffic": w.traffic,
        "sets": w.sets,
        "engine": engine,
        "seed": SEED,
        "quick": quick,
        "warmup_us": phases.0,
        "measure_us": phases.1,
        "nodes": net.nodes().len(),
        "terminals": net.terminal_count(),
        "wall_s": wall_s,
        "end_tick": end_tick,
        "sim_us": end_tick as f64 * net.time().tick_ns / 1000.0,
        "ticks_per_s": end_tick as f64 / wall_s,
        "token_hops": hops,
        "token_hops_per_s": hops as f64 / wall_s,
        "messages_delivered": msgs,
        "messages_per_s": msgs as f64 / wall_s,
        "windows": windows,
        "node_runs": node_runs,
        "bare_steps": steps,
        "peak_rss_mib": peak_rss_kib() as f64 / 1024.0,
    });
    println!("BENCH_JSON {json}");
    Ok(())
}

/// `1234567.0` → `1.23M`.
fn si(x: f64) -> String {
    let (v, unit) = if x >= 1e9 {
        (x / 1e9, "G")
    } else if x >= 1e6 {
        (x / 1e6, "M")
    } else if x >= 1e3 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    format!("{v:.2}{unit}")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    if let Some(i) = args.iter().position(|a| a == "--child") {
        let Some(case) = args.get(i + 1) else {
            eprintln!("--child needs a case name");
            return ExitCode::from(2);
        };
        return match child(case, quick) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {case}: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if args.iter().any(|a| a == "-h" || a == "--help") {
        eprintln!("usage: cargo bench --bench throughput -- [--quick] [--list] [FILTER...]");
        return ExitCode::SUCCESS;
    }
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let selected: Vec<String> = cases()
        .into_iter()
        .filter(|c| filters.is_empty() || filters.iter().any(|f| c.contains(f.as_str())))
        .collect();
    if args.iter().any(|a| a == "--list") {
        for c in &selected {
            println!("{c}");
        }
        return ExitCode::SUCCESS;
    }
    if selected.is_empty() {
        eprintln!("no case matches {filters:?} (see --list)");
        return ExitCode::from(2);
    }
    let phases = if quick { QUICK_PHASES } else { FULL_PHASES };
    let mut sci_phases = if selected.iter().any(|c| sci::is_sci(c)) {
        let p = sci::phases(quick);
        format!(" (SCI rings: warm-up {} µs + measure {} µs)", p.0, p.1)
    } else {
        String::new()
    };
    if selected.iter().any(|c| fabric::is_fabric(c)) {
        sci_phases.push_str(if quick {
            " (fabrics: 1,600 packets per port + 1,600 per crosspoint)"
        } else {
            " (fabrics: 1,600 packets per port + 16,000 per crosspoint, Gramsamer §2.4)"
        });
    }
    if selected.iter().any(|c| booksim::is_booksim(c)) {
        sci_phases.push_str(&format!(
            " (BookSim comparison: always warm-up {} µs + measure {} µs)",
            FULL_PHASES.0, FULL_PHASES.1
        ));
    }
    if selected.iter().any(|c| caminos::is_caminos(c)) {
        sci_phases.push_str(&format!(
            " (CAMINOS comparison: always warm-up {} µs + measure {} µs)",
            FULL_PHASES.0, FULL_PHASES.1
        ));
    }
    println!(
        "emu throughput benchmark{}: {} case(s), phases warm-up {} µs + measure {} µs{sci_phases} then drain, seed {SEED}; \
         each case run once, in its own process",
        if quick { " (--quick)" } else { "" },
        selected.len(),
        phases.0,
        phases.1
    );
    let Ok(exe) = std::env::current_exe() else {
        eprintln!("cannot find the benchmark executable");
        return ExitCode::FAILURE;
    };
    let mut rows: Vec<serde_json::Value> = Vec::new();
    let mut failed = 0;
    for case in &selected {
        eprintln!("running {case} ...");
        let mut cmd = Command::new(&exe);
        cmd.args(["--child", case]);
        if quick {
            cmd.arg("--quick");
        }
        let out = match cmd.output() {
            Ok(o) => o,
            Err(e) => {
                eprintln!("error: {case}: cannot start: {e}");
                failed += 1;
                continue;
            }
        };
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout.lines().find_map(|l| l.strip_prefix("BENCH_JSON "));
        match line.and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok()) {
            Some(v) if out.status.success() => {
                println!("BENCH_JSON {v}");
                rows.push(v);
            }
            _ => {
                eprint!("{}", String::from_utf8_lossy(&out.stderr));
                eprintln!("error: {case} failed ({})", out.status);
                failed += 1;
            }
        }
    }
    print_table(&rows);
    print_sci_table(&rows);
    print_fabric_table(&rows);
    booksim::print_table(&rows);
    caminos::print_table(&rows);
    print_targets(&rows);
    if failed > 0 {
        eprintln!("{failed} case(s) failed");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn num(v: &serde_json::Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or(f64::NAN)
}

/// The DS-Link cases' table (the SCI rings have their own, `print_sci_table`).
fn print_table(rows: &[serde_json::Value]) {
    let rows: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|r| {
            r["sci"] != true && r["fabric"] != true && r["booksim"] != true && r["caminos"] != true
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    println!();
    println!(
        "{:<40} {:>8} {:>9} {:>9} {:>12} {:>9} {:>9}",
        "case", "wall s", "end tick", "ticks/s", "token-hops/s", "msgs/s", "peak MiB"
    );
    for r in rows {
        println!(
            "{:<40} {:>8.3} {:>9} {:>9} {:>12} {:>9} {:>9.0}",
            r["case"].as_str().unwrap_or("?"),
            num(r, "wall_s"),
            r["end_tick"],
            si(num(r, "ticks_per_s")),
            si(num(r, "token_hops_per_s")),
            si(num(r, "messages_per_s")),
            num(r, "peak_rss_mib"),
        );
    }
}

/// Switch fabrics: packet cycles, packets per second, peak memory.
fn print_fabric_table(rows: &[serde_json::Value]) {
    let f: Vec<&serde_json::Value> = rows.iter().filter(|r| r["fabric"] == true).collect();
    if f.is_empty() {
        return;
    }
    println!();
    println!(
        "{:<36} {:>8} {:>14} {:>10} {:>12} {:>9}",
        "fabric case", "wall s", "packet cycles", "cycles/s", "packets/s", "peak MiB"
    );
    for r in f {
        println!(
            "{:<36} {:>8.3} {:>14} {:>10} {:>12} {:>9.0}",
            r["case"].as_str().unwrap_or("?"),
            num(r, "wall_s"),
            r["end_tick"],
            si(num(r, "ticks_per_s")),
            si(num(r, "packets_per_s")),
            num(r, "peak_rss_mib"),
        );
    }
}

/// SCI rings: cycles, node-cycles and symbols per second.
fn print_sci_table(rows: &[serde_json::Value]) {
    let sci: Vec<&serde_json::Value> = rows.iter().filter(|r| r["sci"] == true).collect();
    if sci.is_empty() {
        return;
    }
    println!();
    println!(
        "{:<28} {:>8} {:>10} {:>14} {:>10} {:>16} {:>9}",
        "SCI case",
        "wall s",
        "cycles/s",
        "node-cycles/s",
        "symbols/s",
        "packet symbols/s",
        "peak MiB"
    );
    for r in sci {
        println!(
            "{:<28} {:>8.3} {:>10} {:>14} {:>10} {:>16} {:>9.0}",
            r["case"].as_str().unwrap_or("?"),
            num(r, "wall_s"),
            si(num(r, "ticks_per_s")),
            si(num(r, "node_cycles_per_s")),
            si(num(r, "symbols_per_s")),
            si(num(r, "packet_symbols_per_s")),
            num(r, "peak_rss_mib"),
        );
    }
}

/// The speed targets, evaluated from whichever cases were run (none if only SCI
/// rings were).
fn print_targets(rows: &[serde_json::Value]) {
    if rows.iter().all(|r| r["sci"] == true || r["fabric"] == true) {
        return;
    }
    let get = |case: &str, k: &str| rows.iter().find(|r| r["case"] == case).map(|r| num(r, k));
    println!();
    println!("targets (from the cases above; '-' = a case was not run):");
    let line = |what: &str, value: Option<f64>, ok: fn(f64) -> bool, unit: &str| match value {
        Some(v) => println!(
            "  {:<4} {what}: {v:.2}{unit}",
            if ok(v) { "MET" } else { "MISS" }
        ),
        None => println!("  -    {what}"),
    };
    let h8 = "hypercube8/uniform-sat";
    line(
        "sharded 1 thread wall / bare loop wall, hypercube8 saturating (≤ 1.3)",
        get(&format!("{h8}/sharded-1t"), "wall_s")
            .zip(get(&format!("{h8}/bare"), "wall_s"))
            .map(|(a, b)| a / b),
        |v| v <= 1.3,
        "×",
    );
    line(
        "sharded 1 thread wall / 2 threads wall, hypercube8 saturating (≥ 1.6)",
        get(&format!("{h8}/sharded-1t"), "wall_s")
            .zip(get(&format!("{h8}/sharded-2t"), "wall_s"))
            .map(|(a, b)| a / b),
        |v| v >= 1.6,
        "×",
    );
    for t in [1, 2] {
        line(
            &format!(
                "sharded / actors token-hops/s at {t} thread(s), hypercube8 saturating (≥ 10)"
            ),
            get(&format!("{h8}/sharded-{t}t"), "token_hops_per_s")
                .zip(get(&format!("{h8}/actors-{t}t"), "token_hops_per_s"))
                .map(|(a, b)| a / b),
            |v| v >= 10.0,
            "×",
        );
    }
    line(
        "hypercube10 ticks/s at 1% load / at saturation, sharded 2 threads (≥ 20)",
        get("hypercube10/uniform-1pct/sharded-2t", "ticks_per_s")
            .zip(get("hypercube10/uniform-sat/sharded-2t", "ticks_per_s"))
            .map(|(a, b)| a / b),
        |v| v >= 20.0,
        "×",
    );
    for e in ["sharded-2t", "actors-2t"] {
        line(
            &format!("hypercube10 saturating peak memory, {e} (≤ 1024 MiB)"),
            get(&format!("hypercube10/uniform-sat/{e}"), "peak_rss_mib"),
            |v| v <= 1024.0,
            " MiB",
        );
    }
    if rows.iter().any(|r| r["booksim"] == true) {
        let default = booksim::default_engine();
        line(
            &format!("BookSim 2 wall / emu wall, hc256 30 %, default engine {default} (≥ 50)"),
            booksim::speedup(rows, &default),
            |v| v >= 50.0,
            "×",
        );
        let actors = default.replace("sharded", "actors");
        line(
            &format!("BookSim 2 wall / emu wall, hc256 30 %, {actors} (≥ 10)"),
            booksim::speedup(rows, &actors),
            |v| v >= 10.0,
            "×",
        );
    }
    if rows.iter().any(|r| r["caminos"] == true) {
        let default = booksim::default_engine();
        line(
            &format!("CAMINOS wall / emu wall, hc256 30 %, default engine {default} (≥ 15)"),
            caminos::speedup(rows, &default),
            |v| v >= 15.0,
            "×",
        );
    }
}
