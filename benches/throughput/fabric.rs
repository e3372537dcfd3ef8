//! Switch-fabric speed: the design point of Gramsamer §7.6.1 (CICQ, RTT = 64,
//! M = 64, bursty BS = 30 at 98 %) on 16 and 32 ports with LOF and the Reference, a run
//! of the document's length (16,000 packets per crosspoint after 1,600 per port; 16.4 M
//! packets on 32 ports), on the sharded engine with 1 and 2 threads. Reported: packet
//! cycles per second, packets per second and peak memory.

use emu::engine::{self, RunOutcome};
use emu::session::AnyCase;
use std::time::Instant;

/// (case name, ports, strategy).
const FABRICS: &[(&str, u32, &str)] = &[
    ("fabric16-lof", 16, "lof"),
    ("fabric32-lof", 32, "lof"),
    ("fabric32-reference", 32, "reference"),
];

const ENGINES: &[&str] = &["sharded-1t", "sharded-2t"];

/// Whether `case` is one of the fabric cases.
pub fn is_fabric(case: &str) -> bool {
    case.starts_with("fabric")
}

/// The fabric case names.
pub fn cases() -> Vec<String> {
    FABRICS
        .iter()
        .flat_map(|(f, ..)| ENGINES.iter().map(move |e| format!("{f}/bursty30/{e}")))
        .collect()
}

/// (warm-up, measure) in packet cycles for `ports` at load 0.98: the document's run
/// length, or a tenth of it for `--quick`.
fn phases(ports: u32, quick: bool) -> (u64, u64) {
    let per_crosspoint = if quick { 1_600.0 } else { 16_000.0 };
    (
        (1_600.0f64 / 0.98).ceil() as u64,
        (per_crosspoint * f64::from(ports) / 0.98).ceil() as u64,
    )
}

/// Runs one fabric case in this process; returns its `BENCH_JSON` object.
pub fn child(case: &str, quick: bool, seed: u64) -> Result<serde_json::Value, String> {
    let parts: Vec<&str> = case.split('/').collect();
    let [fabric, _, engine] = parts[..] else {
        return Err(format!("bad case name {case}"));
    };
    let &(_, ports, strategy) = FABRICS
        .iter()
        .find(|f| f.0 == fabric)
        .ok_or_else(|| format!("no fabric {fabric}"))?;
    let (warmup, measure) = phases(ports, quick);
    let cycle_us = 0.0512; // 64 bytes at 10 Gb/s
    let sets = vec![
        format!("topology.network.ports={ports}"),
        format!("topology.network.strategy={strategy}"),
        format!("traffic.phases.warmup_us={}", warmup as f64 * cycle_us),
        format!("traffic.phases.measure_us={}", measure as f64 * cycle_us),
    ];
    let AnyCase::Fabric(c) =
        AnyCase::load("fabric16-cicq-lof", "bursty30", &sets, seed).map_err(|e| e.to_string())?
    else {
        return Err("fabric16-cicq-lof is not a fabric".into());
    };
    let net = &c.net;
    let ctl = c.control();
    let wall = Instant::now();
    let o: RunOutcome = match engine {
        "sharded-1t" => engine::sharded::run(net, &ctl, 1, None),
        "sharded-2t" => engine::sharded::run(net, &ctl, 2, None),
        other => return Err(format!("no engine {other}")),
    }
    .map_err(|e| e.to_string())?;
    let wall_s = wall.elapsed().as_secs_f64();
    Ok(serde_json::json!({
        "case": case,
        "fabric": true,
        "sets": sets,
        "engine": engine,
        "seed": seed,
        "quick": quick,
        "ports": ports,
        "wall_s": wall_s,
        "end_tick": o.end_tick,
        "ticks_per_s": o.end_tick as f64 / wall_s,
        "packets": o.activity.messages_delivered,
        "packets_per_s": o.activity.messages_delivered as f64 / wall_s,
        "token_hops_per_s": o.activity.tokens_moved as f64 / wall_s,
        "windows": o.windows,
        "node_runs": o.node_runs,
        "peak_rss_mib": super::peak_rss_kib() as f64 / 1024.0,
    }))
}
