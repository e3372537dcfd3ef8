//! BookSim 2 comparison (issue 14), optional: only when the `BOOKSIM` environment variable
//! names a BookSim 2 binary. The same 256-node binary hypercube, uniform traffic at 30 % of
//! link capacity, run by BookSim on `hc256.booksim` and by emu's engines on `hypercube8`,
//! both moving the same wire work (BENCHMARKS.md "BookSim 2 comparison" says how the run
//! lengths were matched and how to build BookSim).
//!
//! BookSim's wall time is the simulation loop it times itself ("Total run time", network
//! construction excluded), as emu's is the engine call only. These cases always run the
//! full phases: `--quick` would break the match of work.

use emu::pool::default_threads;
use std::ffi::OsString;
use std::process::Command;
use std::time::Instant;

/// The BookSim configuration, shipped next to this file.
const CONFIG: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/benches/throughput/hc256.booksim"
);

/// The emu side of the comparison: `hypercube8` with uniform traffic at 30 % (the
/// `topology` of [`super::build`] is [`TOPOLOGY`]).
const WORKLOAD: super::Workload = super::Workload {
    name: "hc256-30pct",
    traffic: "uniform",
    sets: &["injection.kind=rate", "injection.load=0.3"],
    only: &[],
};

/// emu's topology for the comparison.
const TOPOLOGY: &str = "hypercube8";

/// The case names' common prefix.
const PREFIX: &str = "booksim/hc256-30pct/";

/// The BookSim binary `BOOKSIM` names, if it is set and not empty.
fn binary() -> Option<OsString> {
    std::env::var_os("BOOKSIM").filter(|b| !b.is_empty())
}

/// Whether `case` is one of the BookSim comparison cases.
pub fn is_booksim(case: &str) -> bool {
    case.starts_with("booksim/")
}

/// The emu engine the issue calls the default: sharded, one thread per core (`emu run`
/// without `--threads`).
pub fn default_engine() -> String {
    format!("sharded-{}t", default_threads())
}

/// The case names: BookSim, then emu's engines on 1 and 2 threads and on the default
/// thread count; none unless `BOOKSIM` is set.
pub fn cases() -> Vec<String> {
    if binary().is_none() {
        return Vec::new();
    }
    let mut v = vec![format!("{PREFIX}booksim")];
    for kind in ["sharded", "actors"] {
        let mut threads = vec![1, 2];
        if !threads.contains(&default_threads()) {
            threads.push(default_threads());
        }
        v.extend(threads.iter().map(|t| format!("{PREFIX}{kind}-{t}t")));
    }
    v
}

/// Runs one comparison case in this process (BookSim in a child of its own); returns its
/// `BENCH_JSON` object.
pub fn child(case: &str, seed: u64) -> Result<serde_json::Value, String> {
    let engine = case
        .strip_prefix(PREFIX)
        .ok_or_else(|| format!("bad case name {case}"))?;
    if engine == "booksim" {
        return run_booksim(case);
    }
    let e = super::Engine::parse(engine).ok_or_else(|| format!("no engine {engine}"))?;
    let phases = super::FULL_PHASES;
    let (net, ctl) = super::build(TOPOLOGY, &WORKLOAD, phases)?;
    let wall = Instant::now();
    let o = super::run_engine(e, &net, &ctl)?;
    let wall_s = wall.elapsed().as_secs_f64();
    Ok(serde_json::json!({
        "case": case,
        "booksim": true,
        "topology": TOPOLOGY,
        "traffic": WORKLOAD.traffic,
        "sets": WORKLOAD.sets,
        "engine": engine,
        "seed": seed,
        "warmup_us": phases.0,
        "measure_us": phases.1,
        "wall_s": wall_s,
        "end_tick": o.end_tick,
        "token_hops": o.activity.tokens_moved,
        "messages_delivered": o.activity.messages_delivered,
        "peak_rss_mib": super::peak_rss_kib() as f64 / 1024.0,
    }))
}

/// Runs BookSim on [`CONFIG`] and reads its own timing and totals from what it prints.
fn run_booksim(case: &str) -> Result<serde_json::Value, String> {
    let bin = binary().ok_or("BOOKSIM is not set")?;
    let wall = Instant::now();
    let out = Command::new(&bin)
        .arg(CONFIG)
        .output()
        .map_err(|e| format!("cannot run BOOKSIM={}: {e}", bin.to_string_lossy()))?;
    let process_s = wall.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout);
    // BookSim's exit status says nothing (it is 255 after a good run), so a run counts
    // only if it printed its totals. The first word after `prefix`, from the last line
    // that has it (the overall statistics come last).
    let field = |prefix: &str| {
        stdout
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
    };
    let (Some(run_s), Some(cycles)) = (field("Total run time "), field("Time taken is ")) else {
        return Err(format!(
            "BookSim printed no totals; its output ends:\n{}{}",
            stdout.lines().rev().take(5).collect::<Vec<_>>().join("\n"),
            String::from_utf8_lossy(&out.stderr)
        ));
    };
    Ok(serde_json::json!({
        "case": case,
        "booksim": true,
        "engine": "booksim",
        "config": CONFIG,
        "wall_s": run_s,
        "process_s": process_s,
        "cycles": cycles as u64,
        "hops_avg": field("Hops average = "),
        "accepted_flit_rate": field("Accepted flit rate average = "),
        "packet_latency_avg": field("Packet latency average = "),
    }))
}

/// BookSim's wall time over emu's on `engine` (how many times faster emu is), if both ran.
pub fn speedup(rows: &[serde_json::Value], engine: &str) -> Option<f64> {
    let wall = |e: &str| {
        rows.iter()
            .find(|r| r["case"] == format!("{PREFIX}{e}"))
            .and_then(|r| r["wall_s"].as_f64())
    };
    Some(wall("booksim")? / wall(engine)?)
}

/// The comparison's table: wall time, work (emu's token-hops, BookSim's cycles) and
/// BookSim's wall over each emu engine's.
pub fn print_table(all: &[serde_json::Value]) {
    let rows: Vec<&serde_json::Value> = all.iter().filter(|r| r["booksim"] == true).collect();
    if rows.is_empty() {
        return;
    }
    println!();
    println!(
        "{:<36} {:>8} {:>10} {:>11} {:>10}",
        "BookSim comparison case", "wall s", "end tick", "token-hops", "BookSim ×"
    );
    for r in rows {
        let engine = r["engine"].as_str().unwrap_or("?");
        if engine == "booksim" {
            println!(
                "{:<36} {:>8.3} {:>10} {:>11} {:>10}  (process {:.3} s, {} cycles, {:.2} router hops)",
                r["case"].as_str().unwrap_or("?"),
                super::num(r, "wall_s"),
                "-",
                "-",
                "1.00",
                super::num(r, "process_s"),
                r["cycles"],
                super::num(r, "hops_avg"),
            );
        } else {
            let x = speedup(all, engine);
            println!(
                "{:<36} {:>8.3} {:>10} {:>11} {:>10}",
                r["case"].as_str().unwrap_or("?"),
                super::num(r, "wall_s"),
                r["end_tick"].to_string(),
                r["token_hops"].to_string(),
                x.map_or("-".into(), |x| format!("{x:.1}")),
            );
        }
    }
}
