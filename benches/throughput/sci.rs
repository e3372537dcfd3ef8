//! SCI ring speed: rings of 16 and 64 nodes at saturation (every node always
//! has a packet, uniform destinations, 80/20 mix), without and with go-bit flow
//! control, on the sharded engine (1 and 2 threads) and the actors engine (1 thread).
//!
//! Every SCI node puts one symbol on its output link every cycle, so the symbols moved
//! are nodes × cycles; `tokens_moved` counts the packet symbols among them.

use emu::engine::{self, RunOutcome};
use emu::session::AnyCase;
use std::time::Instant;

/// (ring name, topology, `--set`s).
const RINGS: &[(&str, &str, &[&str])] = &[
    ("sci-ring16", "sci-ring16", &[]),
    ("sci-ring64", "sci-ring16", &["network.nodes=64"]),
];

/// (workload name, `--set`s).
const LOADS: &[(&str, &[&str])] = &[
    ("sat", &["network.flow_control=false"]),
    ("sat-fc", &["network.flow_control=true"]),
];

const ENGINES: &[&str] = &["sharded-1t", "sharded-2t", "actors-1t"];

/// Measured cycles (µs of 2 ns cycles), full and `--quick`.
const FULL_US: (f64, f64) = (20.0, 400.0);
const QUICK_US: (f64, f64) = (5.0, 40.0);

/// Whether `case` is one of the SCI ring cases.
pub fn is_sci(case: &str) -> bool {
    case.starts_with("sci-")
}

/// (warm-up µs, measure µs) of the SCI cases.
pub fn phases(quick: bool) -> (f64, f64) {
    if quick { QUICK_US } else { FULL_US }
}

/// The SCI case names.
pub fn cases() -> Vec<String> {
    let mut v = Vec::new();
    for (ring, ..) in RINGS {
        for (load, _) in LOADS {
            for e in ENGINES {
                v.push(format!("{ring}/{load}/{e}"));
            }
        }
    }
    v
}

/// Runs one SCI case in this process; returns its `BENCH_JSON` object.
pub fn child(case: &str, quick: bool, seed: u64) -> Result<serde_json::Value, String> {
    let parts: Vec<&str> = case.split('/').collect();
    let [ring, load, engine] = parts[..] else {
        return Err(format!("bad case name {case}"));
    };
    let &(_, topology, ring_sets) = RINGS
        .iter()
        .find(|r| r.0 == ring)
        .ok_or_else(|| format!("no ring {ring}"))?;
    let &(_, load_sets) = LOADS
        .iter()
        .find(|l| l.0 == load)
        .ok_or_else(|| format!("no load {load}"))?;
    let phases = phases(quick);
    let mut sets: Vec<String> = ring_sets
        .iter()
        .chain(load_sets)
        .map(|s| s.to_string())
        .collect();
    sets.push(format!("phases.warmup_us={}", phases.0));
    sets.push(format!("phases.measure_us={}", phases.1));
    // The shipped `uniform` traffic: continuous injection (saturation), uniform
    // destinations; its [message] size does not apply to an SCI ring.
    let AnyCase::Sci(case_) =
        AnyCase::load(topology, "uniform", &sets, seed).map_err(|e| e.to_string())?
    else {
        return Err(format!("{topology} is not an SCI ring"));
    };
    let net = &case_.net;
    let ctl = case_.control();
    let wall = Instant::now();
    let o: RunOutcome = match engine {
        "sharded-1t" => engine::sharded::run(net, &ctl, 1, None),
        "sharded-2t" => engine::sharded::run(net, &ctl, 2, None),
        "actors-1t" => engine::actors::run(net, &ctl, 1, None),
        other => return Err(format!("no engine {other}")),
    }
    .map_err(|e| e.to_string())?;
    let wall_s = wall.elapsed().as_secs_f64();
    let nodes = net.nodes().len() as f64;
    let cycles = o.end_tick as f64;
    Ok(serde_json::json!({
        "case": case,
        "sci": true,
        "topology": topology,
        "sets": sets,
        "engine": engine,
        "seed": seed,
        "quick": quick,
        "warmup_us": phases.0,
        "measure_us": phases.1,
        "nodes": net.nodes().len(),
        "wall_s": wall_s,
        "end_tick": o.end_tick,
        "ticks_per_s": cycles / wall_s,
        "node_cycles_per_s": nodes * cycles / wall_s,
        "symbols_per_s": nodes * cycles / wall_s,
        "packet_symbols_per_s": o.activity.tokens_moved as f64 / wall_s,
        "token_hops_per_s": o.activity.tokens_moved as f64 / wall_s,
        "messages_delivered": o.activity.messages_delivered,
        "messages_per_s": o.activity.messages_delivered as f64 / wall_s,
        "windows": o.windows,
        "node_runs": o.node_runs,
        "peak_rss_mib": super::peak_rss_kib() as f64 / 1024.0,
    }))
}
