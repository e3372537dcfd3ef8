//! The switch-fabric part of a report (Gramsamer ch. 7): throughput per input and per
//! output, credit underflow per input, and what the switch measured about its credits:
//! the mean number of credits queued per input (the credit-FIFO population of §7.3.1)
//! and the distribution of parallel departures per input and cycle (§7.3.2).
//!
//! Throughput is a percentage of one packet per packet cycle; the window is the
//! report's measurement window.

use serde::Serialize;

use super::format::{fixed, group};
use super::report::ReportInput;
use crate::model::PartStats;

/// The fabric section of a report (switch fabrics only): per port and in total, the
/// throughput, credit underflow and queues of Gramsamer ch. 7.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FabricSection {
    /// One row per port (adapter i and output i), in port order.
    pub ports: Vec<PortRow>,
    /// Input throughput (packets dispatched) in % of one packet per cycle: mean, min, max.
    pub input_pct: Spread,
    /// Output throughput (packets that left the switch) in %: mean, min, max.
    pub output_pct: Spread,
    /// Window cycles in which an input had a packet eligible and none feasible, summed
    /// over inputs (Gramsamer §7.5: severe credit underflow).
    pub underflow_cycles: u64,
    /// Dispatches that took a VOQ's last credit, summed over inputs (credit underflow,
    /// §7.4).
    pub credit_underflows: u64,
    /// Packets refused because an adapter's VOQs were full (its `voq_cap`).
    pub refused: u64,
    /// Packets of a trace whose cycle the run did not reach, so they were never
    /// created (absent when there are none).
    #[serde(skip_serializing_if = "is_zero")]
    pub unplayed: u64,
    /// Credits waiting to be returned per input, averaged over the window's cycles and
    /// the inputs (§7.3.1's credit-FIFO population under FIFO return).
    pub credits_queued_mean: f64,
    /// Fraction of (input, cycle) pairs of the window with k departures, k = 0, 1, 2, …
    /// (§7.3.2), up to the largest k seen.
    pub parallel_departures: Vec<f64>,
    /// The most packets one crosspoint held.
    pub crosspoint_peak: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Mean, minimum and maximum over ports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Spread {
    /// Mean.
    pub mean: f64,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
}

impl Spread {
    fn of(values: &[f64]) -> Spread {
        if values.is_empty() {
            return Spread::default();
        }
        Spread {
            mean: values.iter().sum::<f64>() / values.len() as f64,
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// One port.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PortRow {
    /// Port number.
    pub port: usize,
    /// Packets created at input i in the window, in % of one per cycle (offered load).
    pub offered_pct: f64,
    /// Packets input i dispatched in the window, in %.
    pub input_pct: f64,
    /// Packets that left output i in the window, in %.
    pub output_pct: f64,
    /// Mean system delay of the measured packets that left output i, in packet cycles;
    /// `null` when none did.
    pub mean_delay: Option<f64>,
    /// Severe credit-underflow cycles of input i in the window.
    pub underflow_cycles: u64,
    /// Dispatches of input i that took a VOQ's last credit.
    pub credit_underflows: u64,
    /// Most packets input i's VOQs held at once.
    pub peak_queued: u64,
    /// Packets input i refused (VOQs full).
    pub refused: u64,
    /// Credits waiting to be returned to input i, averaged over the window's cycles.
    pub credits_queued: f64,
}

impl FabricSection {
    /// The section of a fabric run. `span` is the window length in ticks (= packet
    /// cycles).
    pub fn new(input: &ReportInput, span: u64) -> FabricSection {
        let outcome = input.outcome;
        let n = outcome.terminals.len();
        let empty = PartStats::default();
        let part = |node: usize| {
            outcome
                .parts
                .iter()
                .find(|(id, _)| *id == node)
                .map_or(&empty, |(_, s)| s)
        };
        // Adapters are nodes 0..N, the switch node N.
        let switch = part(n);
        let cycles = span.max(1) as f64;
        let pct = |packets: u64| 100.0 * packets as f64 / cycles;
        let one = |s: &PartStats, name: &str| s.get(name).first().copied().unwrap_or(0);
        let departures = switch.get("output_departures");
        let queued = switch.get("credits_queued");
        let bytes = u64::from(input.link_bytes.max(1));
        let ports: Vec<PortRow> = (0..n)
            .map(|i| {
                let a = part(i);
                let t = &outcome.terminals[i];
                PortRow {
                    port: i,
                    offered_pct: pct(t.counters.bytes_offered_in_window / bytes),
                    input_pct: pct(one(a, "dispatched")),
                    output_pct: pct(departures.get(i).copied().unwrap_or(0)),
                    mean_delay: (t.message_latency.count() > 0).then(|| t.message_latency.mean()),
                    underflow_cycles: one(a, "underflow_cycles"),
                    credit_underflows: one(a, "credit_underflows"),
                    peak_queued: one(a, "peak_queued"),
                    refused: one(a, "refused"),
                    credits_queued: queued.get(i).copied().unwrap_or(0) as f64 / cycles,
                }
            })
            .collect();
        let par = switch.get("parallel_departures");
        let busy: u64 = par.iter().skip(1).sum();
        let slots = (span.max(1) * n as u64) as f64;
        let last = par.iter().rposition(|&c| c > 0).unwrap_or(0);
        let mut parallel = vec![(slots - busy as f64) / slots];
        parallel.extend(par.iter().take(last + 1).skip(1).map(|&c| c as f64 / slots));
        let sum = |f: fn(&PortRow) -> u64| ports.iter().map(f).sum::<u64>();
        FabricSection {
            input_pct: Spread::of(&ports.iter().map(|p| p.input_pct).collect::<Vec<_>>()),
            output_pct: Spread::of(&ports.iter().map(|p| p.output_pct).collect::<Vec<_>>()),
            underflow_cycles: sum(|p| p.underflow_cycles),
            credit_underflows: sum(|p| p.credit_underflows),
            refused: sum(|p| p.refused),
            unplayed: (0..n).map(|i| one(part(i), "trace_unplayed")).sum(),
            credits_queued_mean: ports.iter().map(|p| p.credits_queued).sum::<f64>()
                / n.max(1) as f64,
            parallel_departures: parallel,
            crosspoint_peak: switch
                .get("crosspoint_peak")
                .iter()
                .copied()
                .max()
                .unwrap_or(0),
            ports,
        }
    }
}

impl super::FamilySection for FabricSection {
    fn key(&self) -> &'static str {
        "fabric"
    }

    /// The header lines: throughput per input and output, and credit underflow.
    fn header_lines(&self) -> Vec<(&'static str, String)> {
        let s = |x: &Spread| {
            format!(
                "{} % (min {} %, max {} %)",
                fixed(x.mean, 2),
                fixed(x.min, 2),
                fixed(x.max, 2)
            )
        };
        let offered =
            self.ports.iter().map(|p| p.offered_pct).sum::<f64>() / self.ports.len().max(1) as f64;
        vec![
            (
                "throughput",
                format!(
                    "per input {} · per output {} of one packet per cycle; offered {} %",
                    s(&self.input_pct),
                    s(&self.output_pct),
                    fixed(offered, 2)
                ),
            ),
            (
                "credits",
                format!(
                    "severe underflow {} input-cycles · {} dispatches took a VOQ's last credit · \
                     {} credits queued per input on average · crosspoint peak {} packets",
                    group(self.underflow_cycles),
                    group(self.credit_underflows),
                    fixed(self.credits_queued_mean, 2),
                    group(self.crosspoint_peak)
                ),
            ),
        ]
    }

    /// The per-port table.
    fn write_table(&self, out: &mut String) {
        let header = [
            "port",
            "offered %",
            "input %",
            "output %",
            "mean delay",
            "underflow",
            "last credit",
            "peak VOQs",
            "credits queued",
        ];
        let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
        for p in &self.ports {
            rows.push(vec![
                p.port.to_string(),
                fixed(p.offered_pct, 2),
                fixed(p.input_pct, 2),
                fixed(p.output_pct, 2),
                p.mean_delay.map_or("–".to_string(), |d| fixed(d, 1)),
                group(p.underflow_cycles),
                group(p.credit_underflows),
                group(p.peak_queued),
                fixed(p.credits_queued, 2),
            ]);
        }
        super::format::write_columns(out, &rows);
    }

    /// Warnings: refused packets mean the offered load exceeded what the fabric carried.
    fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.unplayed > 0 {
            warnings.push(format!(
                "{} packets of the trace come at or after the run's last cycle and were never \
                 created: lengthen phases.measure_us (or phases.warmup_us) to replay the whole \
                 trace",
                group(self.unplayed)
            ));
        }
        if self.refused == 0 {
            return warnings;
        }
        warnings.push(format!(
            "{} packets were refused because an input adapter's VOQs held network.voq_cap packets: \
             the offered load is above what the fabric carries, and the delays shown are those of \
             the packets that were queued",
            group(self.refused)
        ));
        warnings
    }
}
