//! The journey breakdown of a report: where measured messages' latency went. DS-Link
//! networks split it from the journeys of the packets that completed each message
//! (Proteus §MTime; book/src/journeys.md): message latency = source wait + path + input
//! wait + output wait + transfer. Other families record their own named parts
//! ([`JourneyParts`]: an SCI ring's source queue, idle source, ring buffer and fixed
//! delay, SCI §4.8; a fabric's VOQ, credit wait, link, crosspoint queue and output
//! scheduling, Gramsamer §2.4). Either way the parts add up message by message, so their means add
//! up to the mean message latency.

use super::format::{Align, fixed, group, write_aligned};
use super::latency::{LatencySummary, TickStats};
use crate::terminal::journey::{JourneyParts, JourneyStats};
use serde::Serialize;
use serde::ser::SerializeMap;

/// The journey section of the report, in the family's own parts.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum JourneySection {
    /// DS-Link networks (boxed: five latency summaries).
    Links(Box<LinkJourney>),
    /// Families that record named parts (SCI rings, switch fabrics).
    Parts(PartsJourney),
}

/// The journey breakdown of a DS-Link network.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LinkJourney {
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
    /// The section for the terminals' merged journeys `j` and `parts`; `None` if they
    /// record neither (relay rings). Percentiles have 2 significant digits.
    pub fn new(
        j: &JourneyStats,
        parts: &JourneyParts,
        tick_ns: f64,
        delay_unit_ticks: u64,
    ) -> Option<JourneySection> {
        if j.recorded {
            Some(JourneySection::Links(Box::new(LinkJourney::new(
                j,
                tick_ns,
                delay_unit_ticks,
            ))))
        } else if parts.recorded() {
            Some(JourneySection::Parts(PartsJourney {
                parts: parts
                    .names
                    .iter()
                    .zip(&parts.parts)
                    .map(|(&n, m)| (n, LatencySummary::new(m, tick_ns, delay_unit_ticks)))
                    .collect(),
            }))
        } else {
            None
        }
    }

    /// The text table: one row per part of the latency, in ticks, with each mean's
    /// share of the mean message latency `message_mean`.
    pub(crate) fn write_table(&self, out: &mut String, message_mean: f64) {
        match self {
            JourneySection::Links(j) => j.write_table(out, message_mean),
            JourneySection::Parts(j) => j.write_table(out, message_mean),
        }
    }
}

impl LinkJourney {
    fn new(j: &JourneyStats, tick_ns: f64, delay_unit_ticks: u64) -> LinkJourney {
        let summary = |m| LatencySummary::new(m, tick_ns, delay_unit_ticks);
        LinkJourney {
            source_wait: summary(&j.source),
            path: summary(&j.path),
            input_wait: summary(&j.input_wait),
            output_wait: summary(&j.output_wait),
            transfer: summary(&j.transfer),
            hops: summary(&j.hops).ticks,
            saturated: j.saturated,
        }
    }

    fn write_table(&self, out: &mut String, message_mean: f64) {
        let parts = [
            ("source wait", &self.source_wait),
            ("path", &self.path),
            ("input wait", &self.input_wait),
            ("output wait", &self.output_wait),
            ("transfer", &self.transfer),
        ];
        let mut rows = part_rows(parts, message_mean);
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

/// A family's named journey parts (SCI rings: `source_queue`, `idle_source`,
/// `ring_buffer`, `fixed`; switch fabrics: `voq`, `credit_wait`, `link`,
/// `crosspoint_queue`, `output_scheduling`), each like a latency metric; in JSON an object with one key
/// per part, in the order they add up.
#[derive(Clone, Debug, PartialEq)]
pub struct PartsJourney {
    /// (name, summary) pairs, in the order they add up.
    pub parts: Vec<(&'static str, LatencySummary)>,
}

impl PartsJourney {
    fn write_table(&self, out: &mut String, message_mean: f64) {
        let names: Vec<String> = self
            .parts
            .iter()
            .map(|(n, _)| n.replace('_', " "))
            .collect();
        let rows = part_rows(
            names
                .iter()
                .map(String::as_str)
                .zip(self.parts.iter().map(|(_, s)| s)),
            message_mean,
        );
        write_aligned(
            out,
            &rows,
            |c| if c == 0 { Align::Left } else { Align::Right },
            "",
        );
        out.push_str(&format!(
            "(ticks; message latency = {})\n",
            names.join(" + ")
        ));
    }
}

/// The table's header and one row per part: mean and percentiles in ticks, and the
/// mean's share of the mean message latency `message_mean`.
fn part_rows<'a>(
    parts: impl IntoIterator<Item = (&'a str, &'a LatencySummary)>,
    message_mean: f64,
) -> Vec<Vec<String>> {
    let header = [
        "journey", "mean", "p50", "p90", "p99", "p99.9", "max", "share",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
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
    rows
}

impl Serialize for PartsJourney {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.parts.len()))?;
        for (name, summary) in &self.parts {
            map.serialize_entry(name, summary)?;
        }
        map.end()
    }
}

impl schemars::JsonSchema for PartsJourney {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PartsJourney".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let part = generator.subschema_for::<LatencySummary>();
        schemars::json_schema!({
            "description": "A family's named journey parts (SCI rings: source_queue, idle_source, ring_buffer, fixed; switch fabrics: voq, credit_wait, link, crosspoint_queue, output_scheduling), each like a latency metric, in the order they add up to the message latency.",
            "type": "object",
            "minProperties": 1,
            "additionalProperties": part,
        })
    }
}
