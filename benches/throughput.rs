//! Throughput benchmarks for both engines (../shared/DESIGN.md "Layout": benches/).
//!
//! A custom harness (`harness = false`), no criterion: each case is one whole
//! simulation, assembled the same way `emu` assembles a run (config → network::build →
//! RunControl → engine), run once and timed with `Instant` around the engine call only
//! (loading and building the network are timed separately).
//!
//! ```text
//! cargo bench                                          # every case, 200 µs measured
//! cargo bench --bench throughput -- --quick            # every case, much shorter phases
//! cargo bench --bench throughput -- shuffle            # only cases whose name has "shuffle"
//! cargo bench --bench throughput -- --quick actors-2t  # both
//! ```
//!
//! Options need `--bench throughput`: a bare `cargo bench -- --quick` also hands
//! `--quick` to the lib and bin unit-test harnesses (libtest), which reject it.
//!
//! Output: an aligned table, and one `BENCH_JSON {...}` line per case for machines.

use emu::config;
use emu::engine::{self, RunControl, RunOutcome};
use emu::network;
use std::process::ExitCode;
use std::time::Instant;

const TOPOLOGY: &str = "hypercube8";
const SEED: u64 = 1;

/// Phases of virtual time (µs) for a full and a quick run.
const FULL_PHASES: (f64, f64) = (50.0, 200.0);
const QUICK_PHASES: (f64, f64) = (10.0, 40.0);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    Sequential,
    Actors(usize),
}

impl Engine {
    fn label(self) -> String {
        match self {
            Engine::Sequential => "sequential".into(),
            Engine::Actors(t) => format!("actors-{t}t"),
        }
    }
    fn kind(self) -> &'static str {
        match self {
            Engine::Sequential => "sequential",
            Engine::Actors(_) => "actors",
        }
    }
    fn threads(self) -> usize {
        match self {
            Engine::Sequential => 1,
            Engine::Actors(t) => t,
        }
    }
}

/// A traffic setting: shipped traffic file plus `--set` overrides.
struct Workload {
    /// Short name used in the case name.
    name: &'static str,
    /// Traffic file (shipped name).
    traffic: &'static str,
    /// Extra `--set` strings (besides the phases).
    sets: &'static [&'static str],
}

const WORKLOADS: &[Workload] = &[
    Workload {
        name: "uniform-rate0.3",
        traffic: "uniform",
        sets: &["injection.kind=rate", "injection.load=0.3"],
    },
    Workload {
        name: "shuffle-continuous",
        traffic: "shuffle",
        sets: &[],
    },
];

const ENGINES: &[Engine] = &[Engine::Sequential, Engine::Actors(1), Engine::Actors(2)];

struct Options {
    quick: bool,
    filters: Vec<String>,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        quick: false,
        filters: Vec::new(),
    };
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "--quick" => o.quick = true,
            // cargo bench passes --bench to harness = false targets.
            "--bench" => {}
            "-h" | "--help" => {
                return Err(
                    "usage: cargo bench --bench throughput -- [--quick] [FILTER...]\n  \
                     FILTER: run only cases whose name contains it"
                        .into(),
                );
            }
            s if s.starts_with('-') => eprintln!("note: ignoring unknown option {s}"),
            s => o.filters.push(s.to_string()),
        }
    }
    Ok(o)
}

/// What one case measured.
struct Measured {
    case: String,
    engine: Engine,
    workload: &'static Workload,
    sets: Vec<String>,
    nodes: usize,
    terminals: usize,
    tick_ns: f64,
    setup_s: f64,
    wall_s: f64,
    outcome: RunOutcome,
}

impl Measured {
    fn per_s(&self, n: u64) -> f64 {
        n as f64 / self.wall_s
    }
    fn ticks_per_s(&self) -> f64 {
        self.per_s(self.outcome.end_tick)
    }
    fn hops_per_s(&self) -> f64 {
        self.per_s(self.outcome.activity.tokens_moved)
    }
    fn msgs_per_s(&self) -> f64 {
        self.per_s(self.outcome.activity.messages_delivered)
    }
    fn ns_per_node_run(&self) -> f64 {
        if self.outcome.node_runs == 0 {
            0.0
        } else {
            self.wall_s * 1e9 / self.outcome.node_runs as f64
        }
    }
    fn us_per_window(&self) -> f64 {
        if self.outcome.windows == 0 {
            0.0
        } else {
            self.wall_s * 1e6 / self.outcome.windows as f64
        }
    }

    fn json(&self, quick: bool, phases: (f64, f64)) -> String {
        let o = &self.outcome;
        serde_json::json!({
            "case": self.case,
            "topology": TOPOLOGY,
            "traffic": self.workload.traffic,
            "sets": self.sets,
            "engine": self.engine.kind(),
            "threads": self.engine.threads(),
            "seed": SEED,
            "quick": quick,
            "warmup_us": phases.0,
            "measure_us": phases.1,
            "runs": 1,
            "nodes": self.nodes,
            "terminals": self.terminals,
            "tick_ns": self.tick_ns,
            "setup_s": self.setup_s,
            "wall_s": self.wall_s,
            "end_tick": o.end_tick,
            "sim_us": o.end_tick as f64 * self.tick_ns / 1000.0,
            "complete": o.complete,
            "ticks_per_s": self.ticks_per_s(),
            "token_hops": o.activity.tokens_moved,
            "token_hops_per_s": self.hops_per_s(),
            "messages_delivered": o.activity.messages_delivered,
            "messages_per_s": self.msgs_per_s(),
            "packets_ejected": o.activity.packets_ejected,
            "windows": o.windows,
            "node_runs": o.node_runs,
            "node_runs_per_window": if o.windows == 0 { 0.0 } else { o.node_runs as f64 / o.windows as f64 },
            "ns_per_node_run": self.ns_per_node_run(),
            "us_per_window": self.us_per_window(),
        })
        .to_string()
    }
}

fn run_case(
    case: String,
    workload: &'static Workload,
    engine: Engine,
    phases: (f64, f64),
) -> Result<Measured, String> {
    let mut sets: Vec<String> = workload.sets.iter().map(|s| s.to_string()).collect();
    sets.push(format!("phases.warmup_us={}", phases.0));
    sets.push(format!("phases.measure_us={}", phases.1));

    let setup = Instant::now();
    config::validate_sets(&sets).map_err(|e| e.to_string())?;
    let topo = config::load_topology(TOPOLOGY, &sets).map_err(|e| e.to_string())?;
    let traf = config::load_traffic(workload.traffic, &sets).map_err(|e| e.to_string())?;
    let net = network::build(TOPOLOGY, &topo.config, &traf.config, SEED)
        .map_err(|e| format!("{} {e}", e.file))?;
    let ctl = RunControl {
        end_after: net.run.end_after,
        hard_stop: net.run.hard_stop,
        deadlock_window: net.run.deadlock_window,
        check: false,
    };
    let setup_s = setup.elapsed().as_secs_f64();

    let wall = Instant::now();
    let result = match engine {
        Engine::Sequential => engine::sequential::run(&net, &ctl, None),
        Engine::Actors(threads) => engine::actors::run(&net, &ctl, threads, None),
    };
    let wall_s = wall.elapsed().as_secs_f64();
    let outcome = result.map_err(|e| e.to_string())?;
    Ok(Measured {
        case,
        engine,
        workload,
        sets,
        nodes: net.nodes.len(),
        terminals: net.terminal_count(),
        tick_ns: net.time.tick_ns,
        setup_s,
        wall_s,
        outcome,
    })
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
    let opts = match parse_args() {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::from(2);
        }
    };
    let phases = if opts.quick {
        QUICK_PHASES
    } else {
        FULL_PHASES
    };

    let mut cases = Vec::new();
    for w in WORKLOADS {
        for &e in ENGINES {
            let name = format!("{TOPOLOGY}/{}/{}", w.name, e.label());
            if opts.filters.is_empty() || opts.filters.iter().any(|f| name.contains(f.as_str())) {
                cases.push((name, w, e));
            }
        }
    }
    if cases.is_empty() {
        eprintln!("no case matches the filter {:?}", opts.filters);
        return ExitCode::from(2);
    }

    println!(
        "emu throughput benchmark{}: {} case(s), phases warmup {} µs + measure {} µs (then drain), seed {SEED}",
        if opts.quick { " (--quick)" } else { "" },
        cases.len(),
        phases.0,
        phases.1
    );
    println!(
        "each case is one whole simulation, run ONCE (no repetitions, no statistics); \
         wall time covers the engine run only, not config loading or network build"
    );
    println!(
        "host reports {} available core(s)",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!();

    let mut results = Vec::new();
    let mut failed = 0;
    for (name, w, e) in cases {
        eprintln!("running {name} ...");
        match run_case(name.clone(), w, e, phases) {
            Ok(m) => {
                println!("BENCH_JSON {}", m.json(opts.quick, phases));
                results.push(m);
            }
            Err(err) => {
                eprintln!("error: {name}: {err}");
                failed += 1;
            }
        }
    }

    println!();
    let header = [
        "case",
        "wall s",
        "end tick",
        "ticks/s",
        "token-hops/s",
        "msgs/s",
        "windows",
        "node runs",
        "ns/node-run",
        "µs/window",
    ];
    let rows: Vec<[String; 10]> = results
        .iter()
        .map(|m| {
            [
                m.case.clone(),
                format!("{:.3}", m.wall_s),
                m.outcome.end_tick.to_string(),
                si(m.ticks_per_s()),
                si(m.hops_per_s()),
                si(m.msgs_per_s()),
                m.outcome.windows.to_string(),
                m.outcome.node_runs.to_string(),
                format!("{:.0}", m.ns_per_node_run()),
                format!("{:.2}", m.us_per_window()),
            ]
        })
        .collect();
    let mut width = header.map(|h| h.chars().count());
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            let pad = width[i] - c.chars().count();
            if i == 0 {
                s.push_str(c);
                s.push_str(&" ".repeat(pad));
            } else {
                s.push_str("  ");
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            }
        }
        println!("{}", s.trim_end());
    };
    line(&header.map(String::from));
    line(&width.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>());
    for r in &rows {
        line(r);
    }
    for m in &results {
        if !m.outcome.complete {
            println!(
                "note: {} ended before every measured message was delivered",
                m.case
            );
        }
    }
    println!();
    println!(
        "ticks/s = end_tick / wall; token-hops/s = activity.tokens_moved / wall; \
         msgs/s = activity.messages_delivered / wall; 1 tick = {} ns of virtual time",
        results.first().map_or(0.0, |m| m.tick_ns)
    );

    if failed > 0 {
        eprintln!("{failed} case(s) failed");
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
