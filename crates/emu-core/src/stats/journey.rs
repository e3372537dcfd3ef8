//! The journey breakdown of a report: where measured messages' latency went, from the
//! journeys of the packets that completed them (Proteus §MTime;
//! docs/journeys.md). Message latency = source wait + path + input wait + output wait
//! + transfer, message by message, so the means add up to the mean message latency.

use super::format::{Align, fixed, group, write_aligned};
use super::latency::{LatencySummary, TickStats};
use crate::terminal::journey::JourneyStats;
use serde::Serialize;

/// The journey section of the report (DS-Link networks).
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct JourneySection {
    /// Creation to the completing packet's first token starting on the source link.
    pub source_wait: LatencySummary,
    /// The path's uncontended delay: link latencies and switch transit.
    pub path: LatencySummary,
    /// Waits at switch inputs, for the output and for packets ahead on the input.
    pub input_wait: LatencySummary,
    /// Waits at switch outputs, from the grant to the first token starting on the
    /// link.
    pub output_wait: LatencySummary,
    /// The completing packet's time to cross its last link.
    pub transfer: LatencySummary,
    /// Switches crossed (the `ticks` fields count switches).
    pub hops: TickStats,
    /// Journeys whose sums saturated and are not exact (0 expected).
    pub saturated: u64,
}

impl JourneySection {
    /// The section for `j`, merged over terminals; `None` if no terminal records
    /// journeys (SCI rings, fabrics). Percentiles have 2 significant digits.
    pub fn new(j: &JourneyStats, tick_ns: f64, delay_unit_ticks: u64) -> Option<JourneySection> {
        if !j.recorded {
            return None;
        }
        let summary = |m| LatencySummary::new(m, tick_ns, delay_unit_ticks);
        Some(JourneySection {
            source_wait: summary(&j.source),
            path: summary(&j.path),
            input_wait: summary(&j.input_wait),
            output_wait: summary(&j.output_wait),
            transfer: summary(&j.transfer),
            hops: summary(&j.hops).ticks,
            saturated: j.saturated,
        })
    }

    /// The text table: one row per part of the latency, in ticks, with each mean's
    /// share of the mean message latency `message_mean`.
    pub(crate) fn write_table(&self, out: &mut String, message_mean: f64) {
        let header = [
            "journey", "mean", "p50", "p90", "p99", "p99.9", "max", "share",
        ];
        let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
        let parts = [
            ("source wait", &self.source_wait),
            ("path", &self.path),
            ("input wait", &self.input_wait),
            ("output wait", &self.output_wait),
            ("transfer", &self.transfer),
        ];
        for (name, s) in parts {
            let t = &s.ticks;
            let share = if message_mean > 0.0 {
                format!("{} %", fixed(100.0 * t.mean / message_mean, 1))
            } else {
                "-".into()
            };
            let mut row = vec![name.to_string(), fixed(t.mean, 1)];
            row.extend([t.p50, t.p90, t.p99, t.p99_9, t.max].map(group));
            row.push(share);
            rows.push(row);
        }
        let h = &self.hops;
        let mut row = vec!["hops".to_string(), fixed(h.mean, 2)];
        row.extend([h.p50, h.p90, h.p99, h.p99_9, h.max].map(group));
        rows.push(row);
        write_aligned(
            out,
            &rows,
            |c| if c == 0 { Align::Left } else { Align::Right },
            "",
        );
        out.push_str(
            "(ticks; message latency = source wait + path + input wait + output wait + transfer)\n",
        );
        if self.saturated > 0 {
            out.push_str(&format!(
                "WARNING: {} journeys saturated their 32-bit wait sums and are not exact\n",
                group(self.saturated)
            ));
        }
    }
}
