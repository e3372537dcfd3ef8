//! CAMINOS comparison, optional: only when the `CAMINOS` environment variable names a
//! CAMINOS binary (the `caminos` crate, 0.6). The same 256-node binary hypercube, uniform
//! traffic at 30 % of link capacity, run by CAMINOS on `hc256.caminos` and by emu's engines
//! on `hypercube8`, the BookSim comparison's emu workload (`booksim.rs`).
//!
//! CAMINOS does not time itself, so its wall time is its whole process's (network
//! construction included, a few milliseconds here), and its CPU time (user + system) is
//! GNU time's. Its run length is the one the comparison was specified with, which is not
//! emu's work (hc256.caminos says by how much): the table shows CAMINOS's phit link
//! traversals beside emu's token-hops, and the ratio per unit of work too. These cases
//! always run the full phases.

use super::booksim;
use std::ffi::OsString;

/// The CAMINOS configuration, shipped next to this file.
const CONFIG: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/benches/throughput/hc256.caminos"
);

/// Servers in [`CONFIG`]'s network (one per router of the 8-cube).
const SERVERS: f64 = 256.0;

/// Router-to-router links in [`CONFIG`]'s network, one way each: 256 routers of degree 8.
const LINKS: f64 = 2048.0;

/// The case names' common prefix.
const PREFIX: &str = "caminos/hc256-30pct/";

/// The CAMINOS binary `CAMINOS` names, if it is set and not empty.
fn binary() -> Option<OsString> {
    std::env::var_os("CAMINOS").filter(|b| !b.is_empty())
}

/// Whether `case` is one of the CAMINOS comparison cases.
pub fn is_caminos(case: &str) -> bool {
    case.starts_with("caminos/")
}

/// The case names: CAMINOS, then emu's engines on 1 and 2 threads and on the default
/// thread count; none unless `CAMINOS` is set.
pub fn cases() -> Vec<String> {
    if binary().is_none() {
        return Vec::new();
    }
    let mut v = vec![format!("{PREFIX}caminos")];
    v.extend(
        booksim::emu_engines()
            .iter()
            .map(|e| format!("{PREFIX}{e}")),
    );
    v
}

/// Runs one comparison case in this process (CAMINOS in a child of its own); returns its
/// `BENCH_JSON` object.
pub fn child(case: &str, seed: u64) -> Result<serde_json::Value, String> {
    let engine = case
        .strip_prefix(PREFIX)
        .ok_or_else(|| format!("bad case name {case}"))?;
    if engine == "caminos" {
        return run_caminos(case);
    }
    booksim::run_emu(case, engine, seed, "caminos")
}

/// The value of `key` in CAMINOS's result, which it writes one `key:` line, then one
/// `value,` line.
fn result_field(result: &str, key: &str) -> Option<f64> {
    let mut lines = result.lines().map(str::trim);
    lines.find(|l| l.strip_suffix(':') == Some(key))?;
    lines.next()?.trim_end_matches(',').parse().ok()
}

/// Injected load, accepted load and average link utilisation over the warm-up, and the
/// warm-up's length in cycles, from the statistics CAMINOS prints every 1,000 cycles: the
/// last row counted from cycle 0 that ends where the first row after the reset begins.
/// None when the warm-up is not a whole number of thousands of cycles (no such row).
fn warmup_row(stdout: &str) -> Option<(f64, f64, f64, f64)> {
    let mut lines = stdout.lines();
    let header: Vec<&str> = lines
        .find(|l| l.starts_with("cycle_begin-cycle_end"))?
        .split_whitespace()
        .collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (inj, acc, util) = (
        col("injected_load")?,
        col("accepted_load")?,
        col("average_link_utilization")?,
    );
    // Rows: "begin-end" and numbers, in the header's order.
    let rows: Vec<(u64, u64, Vec<&str>)> = lines
        .map_while(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let (begin, end) = words.first()?.split_once('-')?;
            Some((begin.parse().ok()?, end.parse().ok()?, words))
        })
        .collect();
    let reset = rows.iter().find(|r| r.0 != 0)?.0;
    let (_, _, words) = rows.iter().rev().find(|r| r.0 == 0 && r.1 + 1 == reset)?;
    let num = |i: usize| words.get(i)?.parse::<f64>().ok();
    Some((num(inj)?, num(acc)?, num(util)?, reset as f64))
}

/// Runs CAMINOS on [`CONFIG`] in a temporary directory (it writes its result to a file
/// there) under GNU time, and reads its totals.
fn run_caminos(case: &str) -> Result<serde_json::Value, String> {
    let bin = binary().ok_or("CAMINOS is not set")?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let result_path = dir.path().join("result");
    let mut results = OsString::from("--results=");
    results.push(&result_path);
    let run = booksim::run_timed(&bin, &[CONFIG.into(), results], dir.path())?;
    let stdout = String::from_utf8_lossy(&run.output.stdout);
    // CAMINOS exits with 0 even when it could not parse its configuration, so a run counts
    // only if it wrote its result.
    let result = std::fs::read_to_string(&result_path).unwrap_or_default();
    let field = |key: &str| result_field(&result, key);
    let (Some(cycles), Some(accepted)) = (field("cycle"), field("accepted_load")) else {
        return Err(format!(
            "CAMINOS wrote no result ({}); its output ends:\n{}\n{}",
            run.output.status,
            stdout.lines().rev().take(5).collect::<Vec<_>>().join("\n"),
            String::from_utf8_lossy(&run.output.stderr)
                .lines()
                .take(5)
                .collect::<Vec<_>>()
                .join("\n"),
        ));
    };
    if accepted <= 0.0 {
        return Err(format!("CAMINOS delivered nothing in its {cycles} cycles"));
    }
    // Phits sent on injection, router-to-router and ejection links over the whole run (as
    // emu counts token-hops), from the warm-up's and the measurement's loads and link
    // utilisation.
    let injected = field("injected_load");
    let utilisation = field("average_link_utilization");
    let warm = warmup_row(&stdout);
    let part = |inj: f64, acc: f64, util: f64, span: f64| {
        (inj + acc) * span * SERVERS + util * span * LINKS
    };
    // CAMINOS prints a row per 1,000 cycles: a warm-up shorter than that has no row of its
    // own, and is counted at the measurement's rates.
    let phit_hops = (|| {
        let (inj, util) = (injected?, utilisation?);
        let (w_inj, w_acc, w_util, warmup) = warm.unwrap_or((inj, accepted, util, 0.0));
        let measured = part(inj, accepted, util, cycles - warmup);
        Some((part(w_inj, w_acc, w_util, warmup) + measured).round())
    })();
    Ok(serde_json::json!({
        "case": case,
        "caminos": true,
        "engine": "caminos",
        "config": CONFIG,
        "wall_s": run.process_s,
        "process_s": run.process_s,
        "cpu_s": run.cpu_s,
        "cycles": cycles as u64,
        "warmup_cycles": warm.map(|w| w.3 as u64),
        "injected_load": injected,
        "accepted_load": accepted,
        "average_message_delay": field("average_message_delay"),
        "average_packet_hops": field("average_packet_hops"),
        "average_link_utilization": utilisation,
        "phit_hops": phit_hops,
        "peak_rss_mib": field("linux_high_water_mark").map(|kib| kib / 1024.0),
    }))
}

/// CAMINOS's wall time over emu's on `engine` (how many times faster emu is), if both ran.
pub fn speedup(rows: &[serde_json::Value], engine: &str) -> Option<f64> {
    super::booksim::ratio(rows, PREFIX, "caminos", engine, "wall_s")
}

/// [`speedup`] per unit of work: CAMINOS's wall per phit link traversal over emu's per
/// token-hop on `engine`, if both ran and CAMINOS's work is known.
fn speedup_per_hop(rows: &[serde_json::Value], engine: &str) -> Option<f64> {
    let hops = |e: &str, k: &str| {
        rows.iter()
            .find(|r| r["case"] == format!("{PREFIX}{e}"))
            .and_then(|r| r[k].as_f64())
    };
    let work = hops("caminos", "phit_hops")? / hops(engine, "token_hops")?;
    Some(speedup(rows, engine)? / work)
}

/// The comparison's table: wall time, work (emu's token-hops, CAMINOS's phit link
/// traversals) and CAMINOS's wall over each emu engine's, as is and per unit of work.
pub fn print_table(all: &[serde_json::Value]) {
    let rows: Vec<&serde_json::Value> = all.iter().filter(|r| r["caminos"] == true).collect();
    if rows.is_empty() {
        return;
    }
    println!();
    println!(
        "{:<36} {:>8} {:>10} {:>11} {:>10} {:>10}",
        "CAMINOS comparison case", "wall s", "end tick", "token-hops", "CAMINOS ×", "per hop ×"
    );
    for r in rows {
        let engine = r["engine"].as_str().unwrap_or("?");
        if engine == "caminos" {
            println!(
                "{:<36} {:>8.3} {:>10} {:>11} {:>10} {:>10}  (CPU {:.2} s, {} cycles, accepted load {:.3}, message delay {:.1} cycles, {:.2} hops between routers; token-hops: phits over links)",
                r["case"].as_str().unwrap_or("?"),
                super::num(r, "wall_s"),
                "-",
                r["phit_hops"]
                    .as_f64()
                    .map_or("-".into(), |h| format!("{h:.0}")),
                "1.00",
                "1.00",
                super::num(r, "cpu_s"),
                r["cycles"],
                super::num(r, "accepted_load"),
                super::num(r, "average_message_delay"),
                super::num(r, "average_packet_hops"),
            );
        } else {
            let x = |v: Option<f64>| v.map_or("-".into(), |x| format!("{x:.1}"));
            println!(
                "{:<36} {:>8.3} {:>10} {:>11} {:>10} {:>10}",
                r["case"].as_str().unwrap_or("?"),
                super::num(r, "wall_s"),
                r["end_tick"].to_string(),
                r["token_hops"].to_string(),
                x(speedup(all, engine)),
                x(speedup_per_hop(all, engine)),
            );
        }
    }
}
