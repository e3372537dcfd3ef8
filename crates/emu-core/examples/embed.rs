//! Embedding emu's core library: load a shipped 64-terminal hypercube of C104s under
//! uniform random traffic, run it on the sequential engine, and read its report.
//!
//! ```sh
//! cargo run --release -p emu-core --example embed
//! ```

use emu_core::engine::sequential;
use emu_core::family::{AnyCase, Case, CaseVisitor};
use emu_core::model::LinkProtocol;
use emu_core::stats::Report;

/// Runs a case of any family and returns its report.
struct Run;

impl CaseVisitor for Run {
    type Output = Result<Report, emu_core::engine::EngineError>;
    fn visit<P: LinkProtocol>(self, case: &Case<P>) -> Self::Output {
        let outcome = sequential::run(&case.net, &case.control(), None)?;
        Ok(case.report(&outcome))
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Shipped names or paths; `--set`-style overrides shorten the run to 20 + 100 µs.
    let sets = [
        "phases.warmup_us=20".to_string(),
        "phases.measure_us=100".to_string(),
    ];
    let case = AnyCase::load("hypercube6", "uniform", &sets, 1)?;
    println!("family: {}", case.family().name());
    let report = case.visit(Run)?;
    let t = &report.throughput;
    let latency = &report.latency.message_latency;
    println!(
        "{} terminals: {:.1} % of link capacity delivered per terminal, {:.1} % offered",
        report.topology.terminals, t.delivered_pct.mean, t.offered_pct.mean
    );
    println!(
        "message latency: mean {:.2} µs, p99 {:.2} µs over {} messages",
        latency.us.mean, latency.us.p99, latency.count
    );
    // The same seed gives the same report, byte for byte.
    assert_eq!(report.to_json(), case.visit(Run)?.to_json());
    Ok(())
}
