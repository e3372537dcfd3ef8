//! Per-flow summaries for permutation traffic: when every sending terminal always sends
//! to one destination and no two share one, a destination's statistics are its flow's,
//! so each flow's throughput and latency can be reported on its own (INMOS ch. 7 §7.6's
//! permutations: bit reversal, transpose, shuffle, the systematic pattern).

use super::report::ReportInput;
use super::shares::TerminalShares;
use serde::Serialize;

/// One source-to-destination flow.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FlowSummary {
    /// Source terminal.
    pub source: u32,
    /// Destination terminal.
    pub destination: u32,
    /// Measured messages delivered.
    pub messages: u64,
    /// Payload delivered in the throughput span, % of link data capacity.
    pub delivered_pct: f64,
    /// Mean message latency, in the family's delay unit.
    pub mean_latency: f64,
    /// 99th percentile of the message latency, delay units.
    pub p99_latency: f64,
    /// Largest message latency, delay units.
    pub max_latency: f64,
}

/// The flows of `input`'s permutation traffic, their throughput taken from the
/// destinations' `shares`, or `None` for other traffic.
pub fn flows(input: &ReportInput, shares: &TerminalShares) -> Option<Vec<FlowSummary>> {
    if input.flows.is_empty() {
        return None;
    }
    let unit = input.delay_unit.ticks.max(1) as f64;
    let summaries = input
        .flows
        .iter()
        .filter_map(|&(source, destination)| {
            let t = input.outcome.terminals.get(destination as usize)?;
            let m = &t.message_latency;
            let count = m.count();
            // An empty histogram has min > max: a flow that delivered nothing is all 0.
            let (mean, p99, max) = if count == 0 {
                (0.0, 0.0, 0.0)
            } else {
                let p99 = m.quantile(0.99).clamp(m.min, m.max);
                (m.mean() / unit, p99 as f64 / unit, m.max as f64 / unit)
            };
            Some(FlowSummary {
                source,
                destination,
                messages: count,
                delivered_pct: *shares.delivered_pct.get(destination as usize)?,
                mean_latency: mean,
                p99_latency: p99,
                max_latency: max,
            })
        })
        .collect();
    Some(summaries)
}
