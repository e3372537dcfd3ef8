//! BookSim 2 comparison, optional: only when the `BOOKSIM` environment variable
//! names a BookSim 2 binary. The same 256-node binary hypercube, uniform traffic at 30 % of
//! link capacity, run by BookSim on `hc256.booksim` and by emu's engines on `hypercube8`,
//! both moving the same wire work (BENCHMARKS.md "BookSim 2 comparison" says how the run
//! lengths were matched and how to build BookSim).
//!
//! BookSim's wall time is the simulation loop it times itself ("Total run time", network
//! construction excluded), as emu's is the engine call only; its whole process's wall and
//! CPU time (user + system, from GNU time) are in the JSON too. These cases always run the
//! full phases: `--quick` would break the match of work.
//!
//! The CAMINOS comparison (`caminos.rs`) runs emu on the same workload and uses this
//! module's emu side and [`run_timed`].

use emu::pool::default_threads;
use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::process::{Command, Output};
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

/// The emu engine that runs by default: sharded, one thread per core (`emu run`
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
    v.extend(emu_engines().iter().map(|e| format!("{PREFIX}{e}")));
    v
}

/// emu's engines in the peer comparisons: sharded, then actors, each on 1 and 2 threads
/// and on the default thread count.
pub(super) fn emu_engines() -> Vec<String> {
    let mut threads = vec![1, 2];
    if !threads.contains(&default_threads()) {
        threads.push(default_threads());
    }
    ["sharded", "actors"]
        .iter()
        .flat_map(|kind| threads.iter().map(move |t| format!("{kind}-{t}t")))
        .collect()
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
    run_emu(case, engine, seed, "booksim")
}

/// Runs emu's `engine` on [`TOPOLOGY`] and [`WORKLOAD`], full phases, for the case `case`
/// of a peer comparison; its `BENCH_JSON` object has `flag: true` (`"booksim"`,
/// `"caminos"`), which says whose table it belongs to.
pub(super) fn run_emu(
    case: &str,
    engine: &str,
    seed: u64,
    flag: &str,
) -> Result<serde_json::Value, String> {
    let e = super::Engine::parse(engine).ok_or_else(|| format!("no engine {engine}"))?;
    let phases = super::FULL_PHASES;
    let (net, ctl) = super::build(TOPOLOGY, &WORKLOAD, phases)?;
    let wall = Instant::now();
    let o = super::run_engine(e, &net, &ctl)?;
    let wall_s = wall.elapsed().as_secs_f64();
    Ok(serde_json::json!({
        "case": case,
        flag: true,
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

/// GNU time, which measures a peer's CPU time.
const GNU_TIME: &str = "/usr/bin/time";

/// A peer simulator's run under GNU time.
pub(super) struct Timed {
    /// What it printed, and its exit status (GNU time passes the peer's on).
    pub(super) output: Output,
    /// Wall time of the whole process, seconds.
    pub(super) process_s: f64,
    /// CPU time of the process, user + system, seconds (GNU time's `%U` + `%S`).
    pub(super) cpu_s: f64,
}

/// Runs `bin` with `args` in `dir` under GNU time, which writes the child's times to a
/// file in `dir`. A peer that cannot be started shows as GNU time's exit status 127 and
/// its message on stderr, so callers judge the run by what the peer printed.
pub(super) fn run_timed(bin: &OsStr, args: &[OsString], dir: &Path) -> Result<Timed, String> {
    // A relative path names a file from here, not from `dir` (a bare name is looked up in
    // `PATH`).
    let path = Path::new(bin);
    let bin = if path.is_relative() && path.components().count() > 1 {
        std::env::current_dir()
            .map_err(|e| format!("cannot find the current directory: {e}"))?
            .join(path)
            .into_os_string()
    } else {
        bin.to_os_string()
    };
    let times = dir.join("time");
    let wall = Instant::now();
    let output = Command::new(GNU_TIME)
        .args(["-f", "%e %U %S", "-o"])
        .arg(&times)
        .arg(&bin)
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run {GNU_TIME} (GNU time, for the CPU time): {e}"))?;
    let process_s = wall.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&times)
        .map_err(|e| format!("GNU time wrote no times to {}: {e}", times.display()))?;
    // "Command exited with non-zero status N" comes first when it is not 0; the times last.
    let cpu_s = text
        .lines()
        .last()
        .and_then(|l| {
            let v: Vec<f64> = l
                .split_whitespace()
                .map(|x| x.parse().ok())
                .collect::<Option<_>>()?;
            match v[..] {
                [_wall, user, system] => Some(user + system),
                _ => None,
            }
        })
        .ok_or_else(|| format!("cannot read GNU time's output {text:?}"))?;
    Ok(Timed {
        output,
        process_s,
        cpu_s,
    })
}

/// Runs BookSim on [`CONFIG`] (in a temporary directory, under GNU time) and reads its own
/// timing and totals from what it prints.
fn run_booksim(case: &str) -> Result<serde_json::Value, String> {
    let bin = binary().ok_or("BOOKSIM is not set")?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let Timed {
        output: out,
        process_s,
        cpu_s,
    } = run_timed(&bin, &[CONFIG.into()], dir.path())?;
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
        "cpu_s": cpu_s,
        "cycles": cycles as u64,
        "hops_avg": field("Hops average = "),
        "accepted_flit_rate": field("Accepted flit rate average = "),
        "packet_latency_avg": field("Packet latency average = "),
    }))
}

/// BookSim's wall time over emu's on `engine` (how many times faster emu is), if both ran.
pub fn speedup(rows: &[serde_json::Value], engine: &str) -> Option<f64> {
    ratio(rows, PREFIX, "booksim", engine, "wall_s")
}

/// Field `key` of case `{prefix}{peer}` over the same field of case `{prefix}{engine}`,
/// if both ran: a peer's figure over emu's, for the peer comparisons.
pub(super) fn ratio(
    rows: &[serde_json::Value],
    prefix: &str,
    peer: &str,
    engine: &str,
    key: &str,
) -> Option<f64> {
    let get = |e: &str| {
        rows.iter()
            .find(|r| r["case"] == format!("{prefix}{e}"))
            .and_then(|r| r[key].as_f64())
    };
    Some(get(peer)? / get(engine)?)
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
                "{:<36} {:>8.3} {:>10} {:>11} {:>10}  (process {:.3} s, CPU {:.2} s, {} cycles, {:.2} router hops)",
                r["case"].as_str().unwrap_or("?"),
                super::num(r, "wall_s"),
                "-",
                "-",
                "1.00",
                super::num(r, "process_s"),
                super::num(r, "cpu_s"),
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
