//! The per-node part of a report, for networks whose nodes learn their own messages'
//! fate (SCI rings, SCI §2.1: the echo): each node's realised throughput and latency as
//! a source and the nodes starved of the ring (the fairness of the split is the
//! report's [`fairness`](super::fairness), which takes each node's delivered throughput
//! from here).
//!
//! Throughput is in bytes per ns, counting send-packet bytes (SCI App. A:
//! X_i = λ_i(l_send − 1) symbols per cycle; one 16-bit symbol per 2 ns cycle is 1
//! byte/ns), which is how SCI §4 plots it.

use serde::Serialize;

use super::format::{fixed, group};
use super::report::ReportInput;
use crate::terminal::{Metric, TerminalStats};
use crate::time::Tick;

/// Per-node rows and starvation.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PerNode {
    /// One row per node, in node order.
    pub rows: Vec<NodeRow>,
    /// Nodes that delivered nothing in the window while they had messages waiting.
    pub starved: Vec<usize>,
}

/// One node as a source.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct NodeRow {
    /// Node (terminal) number.
    pub node: usize,
    /// Bytes of its messages delivered in the window, per ns (realised throughput).
    pub delivered_bytes_per_ns: f64,
    /// Bytes of messages it created in the window, per ns (offered load).
    pub offered_bytes_per_ns: f64,
    /// Latency of its measured messages, creation to delivery, in ns.
    pub latency_ns: NodeLatency,
    /// Messages waiting or unanswered at the end of the window.
    pub backlog: u64,
    /// Sends refused by a full sink and sent again.
    pub retries: u64,
    /// Delivered nothing in the window while it had messages waiting.
    pub starved: bool,
}

/// A node's latency summary in ns (0 everywhere when it delivered nothing).
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct NodeLatency {
    /// Measured messages delivered.
    pub count: u64,
    /// Exact mean.
    pub mean: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Exact maximum.
    pub max: f64,
}

impl PerNode {
    /// The per-node section for `input` over a span of `span` ticks, or `None` if its
    /// nodes record nothing as sources.
    pub fn new(input: &ReportInput, span: Tick) -> Option<PerNode> {
        let terminals = &input.outcome.terminals;
        if !terminals.iter().any(|t| t.source.recorded) {
            return None;
        }
        let ns = span as f64 * input.tick_ns;
        let per_ns = |bytes: u64| if ns > 0.0 { bytes as f64 / ns } else { 0.0 };
        let rows: Vec<NodeRow> = terminals
            .iter()
            .enumerate()
            .map(|(node, t)| row(node, t, input.tick_ns, per_ns))
            .collect();
        let starved = rows.iter().filter(|r| r.starved).map(|r| r.node).collect();
        Some(PerNode { rows, starved })
    }
}

impl PerNode {
    /// The mean, least and most realised throughput, the offered load and the total.
    pub(crate) fn throughput_line(&self) -> String {
        let n = self.rows.len().max(1) as f64;
        let total: f64 = self.rows.iter().map(|r| r.delivered_bytes_per_ns).sum();
        let offered: f64 = self.rows.iter().map(|r| r.offered_bytes_per_ns).sum();
        format!(
            "{} bytes/ns per node of send packets delivered (total {} bytes/ns); offered {} per node",
            fixed(total / n, 4),
            fixed(total, 3),
            fixed(offered / n, 4)
        )
    }

    /// The per-node table: throughput, latency in ns, backlog and retries.
    pub(crate) fn write_table(&self, out: &mut String) {
        let header = [
            "node", "bytes/ns", "offered", "mean ns", "p50", "p90", "p99", "max", "count",
            "backlog", "retries",
        ];
        let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
        for r in &self.rows {
            let l = &r.latency_ns;
            let lat = |v: f64| {
                if l.count == 0 {
                    "-".to_string()
                } else {
                    fixed(v, 0)
                }
            };
            let mut node = r.node.to_string();
            if r.starved {
                node.push_str(" starved");
            }
            rows.push(vec![
                node,
                fixed(r.delivered_bytes_per_ns, 4),
                fixed(r.offered_bytes_per_ns, 4),
                if l.count == 0 {
                    "-".to_string()
                } else {
                    fixed(l.mean, 1)
                },
                lat(l.p50),
                lat(l.p90),
                lat(l.p99),
                lat(l.max),
                group(l.count),
                group(r.backlog),
                group(r.retries),
            ]);
        }
        super::format::write_columns(out, &rows);
    }

    /// One warning per starved node.
    pub(crate) fn starvation_warnings(&self) -> Vec<String> {
        self.rows
            .iter()
            .filter(|r| r.starved)
            .map(|r| {
                format!(
                    "node {} was starved: it delivered nothing in the measurement window while {} of its \
                     messages waited (SCI §4.2: passing traffic left it no gap to send in)",
                    r.node,
                    group(r.backlog)
                )
            })
            .collect()
    }
}

fn row(node: usize, t: &TerminalStats, tick_ns: f64, per_ns: impl Fn(u64) -> f64) -> NodeRow {
    let s = &t.source;
    NodeRow {
        node,
        delivered_bytes_per_ns: per_ns(s.bytes_delivered_in_window),
        offered_bytes_per_ns: per_ns(t.counters.bytes_offered_in_window),
        latency_ns: latency(&s.latency, tick_ns),
        backlog: s.backlog_at_window_end,
        retries: s.retries,
        starved: s.bytes_delivered_in_window == 0 && s.backlog_at_window_end > 0,
    }
}

fn latency(m: &Metric, tick_ns: f64) -> NodeLatency {
    let ns = |ticks: u64| ticks as f64 * tick_ns;
    let count = m.count();
    // One histogram for the three percentiles (the metric makes one on each call).
    let hist = m.histogram();
    let at = |q: f64| {
        if count == 0 {
            0
        } else {
            hist.value_at_quantile(q)
        }
    };
    NodeLatency {
        count,
        mean: m.mean() * tick_ns,
        p50: ns(at(0.5)),
        p90: ns(at(0.9)),
        p99: ns(at(0.99)),
        max: if count == 0 { 0.0 } else { ns(m.max) },
    }
}
