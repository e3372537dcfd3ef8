//! Embedding emu's core library: run a shipped 64-terminal hypercube of C104s under
//! uniform random traffic, follow its progress, and read its report.
//!
//! ```sh
//! cargo run --release -p emu-core --example embed
//! ```

use emu_core::{Input, Outcome, RunOptions};
use std::ops::ControlFlow;

/// `--set`-style overrides shorten the run to 20 + 100 µs; one worker thread.
fn short<'a>() -> RunOptions<'a> {
    RunOptions {
        set: vec!["phases.warmup_us=20".into(), "phases.measure_us=100".into()],
        threads: Some(1),
        ..RunOptions::default()
    }
}

fn main() -> Result<(), emu_core::Error> {
    let (topology, traffic) = (Input::shipped("hypercube6"), Input::shipped("uniform"));
    let mut windows = 0;
    let counting = short().on_progress(|_| {
        windows += 1;
        ControlFlow::Continue(())
    });
    let report = emu_core::run(&topology, &traffic, &counting)?;
    drop(counting);
    assert_eq!(report.outcome, Outcome::Completed);
    let stats = report
        .stats
        .as_ref()
        .expect("a completed run has statistics");
    let (t, latency) = (&stats.throughput, &stats.latency.message_latency);
    println!(
        "{} terminals: {:.1} % of link capacity delivered per terminal, {:.1} % offered",
        stats.topology.terminals, t.delivered_pct.mean, t.offered_pct.mean
    );
    println!(
        "message latency: mean {:.2} µs, p99 {:.2} µs over {} messages ({windows} windows)",
        latency.us.mean, latency.us.p99, latency.count
    );
    // The same seed gives the same report, byte for byte: `emu --json` writes it too.
    let again = emu_core::run(&topology, &traffic, &short())?;
    assert_eq!(report.to_json(), again.to_json());
    Ok(())
}
