//! The human summary printed on stdout: a few lines of totals, then a latency table in
//! ticks, microseconds and C104 header times, then warnings.

use std::fmt::Write;

use super::format::{Align, fixed, group};
use super::latency::LatencySummary;
use super::report::Report;
use serde::Serialize;

/// A network's size for the report header: "16 terminals, 1 switch"; a network
/// without switches (an SCI or relay ring: its nodes are the terminals) gives its
/// terminals only.
fn parts_words(terminals: u64, switches: u64) -> String {
    let terminals = crate::text::count(terminals, "terminal", "terminals");
    if switches == 0 {
        terminals
    } else {
        format!(
            "{terminals}, {}",
            crate::text::count(switches, "switch", "switches")
        )
    }
}

/// Things that vary between runs of the same seed; shown on stdout only, never in
/// the JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct RunInfo {
    /// Engine name, e.g. "actors".
    pub engine: String,
    /// Worker threads.
    pub threads: usize,
    /// Wall-clock seconds the run took.
    pub wall_seconds: f64,
    /// The `--set` overrides the run was given (`section.key=value`), shown under the
    /// header so that the file names in it are not read as the whole story.
    pub overrides: Vec<String>,
}

impl Report {
    /// The human summary, ending with a newline.
    pub fn render_text(&self, info: &RunInfo) -> String {
        let mut out = String::new();
        for (label, text) in self.header_lines(Some(info)) {
            line(&mut out, label, &text);
        }
        out.push('\n');
        super::format::write_aligned(
            &mut out,
            &self.latency_rows(),
            |c| if c < 2 { Align::Left } else { Align::Right },
            "",
        );
        for table in self.section_tables() {
            out.push('\n');
            out.push_str(&table);
        }
        let warnings = self.warnings();
        if !warnings.is_empty() {
            out.push('\n');
        }
        for w in warnings {
            writeln!(out, "WARNING: {w}").unwrap();
        }
        out
    }

    /// The tables the text report prints after the latency table, each as its aligned
    /// text ending with a newline: where latency went (journey), the per-node table
    /// (SCI rings), then the family's own sections (switch fabrics, relay rings).
    pub fn section_tables(&self) -> Vec<String> {
        let mut tables = Vec::new();
        if let Some(journey) = &self.journey {
            let mut t = String::new();
            journey.write_table(&mut t, self.latency.message_latency.ticks.mean);
            tables.push(t);
        }
        if let Some(nodes) = &self.nodes {
            let mut t = String::new();
            nodes.write_table(&mut t);
            tables.push(t);
        }
        for section in &self.family.0 {
            let mut t = String::new();
            section.write_table(&mut t);
            tables.push(t);
        }
        tables
    }

    /// The header lines of the first family section that has any.
    fn family_header_lines(&self) -> Option<Vec<(&'static str, String)>> {
        self.family
            .0
            .iter()
            .map(|s| s.header_lines())
            .find(|lines| !lines.is_empty())
    }

    /// The header's lines as (label, text), as the text report prints them: the run,
    /// the `--set` overrides, the defaults the file leaves where the shipped files of
    /// its kind differ, simulated time, messages, throughput (or the family's lines in
    /// its place), fairness (when the run has a source), completion, token hops and
    /// link faults. Without
    /// `info` (wall time, engine, threads, overrides: what varies between runs of one
    /// seed) the "simulated" line gives virtual time and emu's version only.
    pub fn header_lines(&self, info: Option<&RunInfo>) -> Vec<(&'static str, String)> {
        let mut out: Vec<(&'static str, String)> = Vec::new();
        let (topo, traffic) = (&self.topology, &self.traffic);
        let packets = traffic.packets.clone();
        let mut load = vec![
            tagged_label(&traffic.config.pattern),
            tagged_label(&traffic.config.injection),
            packets,
        ];
        let hot = traffic.config.terminals.saturated.len();
        if hot > 0 {
            load.push(format!("{hot} saturated"));
        }
        let senders = traffic
            .config
            .terminals
            .senders
            .as_ref()
            .map_or(0, Vec::len);
        if senders > 0 {
            load.push(format!(
                "{senders} sender{}",
                if senders == 1 { "" } else { "s" }
            ));
        }
        out.push((
            "run",
            format!(
                "{} ({}) · traffic {}: {} · seed {}",
                topo.name,
                parts_words(topo.terminals as u64, topo.switches as u64),
                traffic.name,
                load.join(", "),
                self.seed
            ),
        ));
        if let Some(info) = info
            && !info.overrides.is_empty()
        {
            out.push(("overrides", info.overrides.join(" · ")));
        }
        if let Some(d) = &self.topology.defaults {
            out.push(("defaults", d.clone()));
        }
        let run = &self.run;
        let virtual_time = format!(
            "{} µs ({} ticks of {} ns)",
            fixed(run.end_us, 3),
            group(run.end_tick),
            run.tick_ns
        );
        out.push((
            "simulated",
            match info {
                Some(info) => format!(
                    "{virtual_time} in {} wall time · engine {}, {} thread{} · emu {}",
                    wall(info.wall_seconds),
                    info.engine,
                    info.threads,
                    if info.threads == 1 { "" } else { "s" },
                    self.emu_version
                ),
                None => format!("{virtual_time} · emu {}", self.emu_version),
            },
        ));
        let m = &self.messages;
        let mut msgs = format!(
            "{} created, {} delivered · measured: {} created, {} delivered, {} undelivered · {} out of order",
            group(m.created),
            group(m.delivered),
            group(m.measured_created),
            group(m.measured_delivered),
            group(m.undelivered),
            group(m.out_of_order)
        );
        if m.acks_received > 0 {
            write!(msgs, " · {} acks", group(m.acks_received)).unwrap();
        }
        out.push(("messages", msgs));
        if let Some(nodes) = &self.nodes {
            out.push(("throughput", nodes.throughput_line()));
        } else if let Some(lines) = self.family_header_lines() {
            out.extend(lines);
        } else {
            out.push(("throughput", self.capacity_line()));
        }
        out.extend(self.fairness_line().map(|l| ("fairness", l)));
        if let Some(c) = &self.completion {
            out.push((
                "completion",
                format!("{} µs ({} ticks)", fixed(c.us, 3), group(c.ticks)),
            ));
        } else if self.run.batch {
            out.push((
                "completion",
                format!(
                    "not reached: {} measured messages undelivered when the run stopped",
                    group(self.messages.undelivered)
                ),
            ));
        }
        out.push(("token hops", group(self.token_hops)));
        if let Some(f) = &self.faults {
            out.extend(super::faults_text::fault_lines(f));
        }
        out
    }

    /// Throughput as a percentage of link data capacity per terminal.
    fn capacity_line(&self) -> String {
        let t = &self.throughput;
        let span = if self.completion.is_some() {
            " up to completion"
        } else {
            ""
        };
        // Random arrivals at a load near 1 can create more in one sample than a link
        // carries: say so rather than print an impossible-looking figure bare.
        let sample = if t.offered_pct.mean > 100.0 {
            " (random arrivals: more than a link carries in this sample)"
        } else {
            ""
        };
        format!(
            "{} % of link data capacity per terminal{span} (min {} %, max {} %); offered {} %{sample}; \
             packet-format maximum {} %",
            fixed(t.delivered_pct.mean, 1),
            fixed(t.delivered_pct.min, 1),
            fixed(t.delivered_pct.max, 1),
            fixed(t.offered_pct.mean, 1),
            fixed(t.format_max_pct, 1)
        )
    }

    /// What each source was given against what it asked, and how evenly the saturated
    /// ones share: in bytes/ns per node on networks with a per-node section (SCI
    /// rings), else in % of link data capacity per terminal.
    fn fairness_line(&self) -> Option<String> {
        if self.nodes.is_some() {
            self.fairness
                .line("node", |pct| fixed(pct / 100.0, 4), "bytes/ns")
        } else {
            self.fairness.line("terminal", |pct| fixed(pct, 1), "%")
        }
    }

    /// The latency table's cells, its header first: per metric (message, network,
    /// source queue; per-node networks leave out those they do not measure) one row in
    /// ticks, one in µs and one in the delay unit, as the text report prints them.
    pub fn latency_rows(&self) -> Vec<Vec<String>> {
        let header = [
            "latency", "", "mean", "p50", "p90", "p99", "p99.9", "max", "count",
        ];
        let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
        let lat = &self.latency;
        let metrics = [
            ("message", &lat.message_latency),
            ("network", &lat.network_latency),
            ("source queue", &lat.source_queueing),
        ];
        for (name, s) in metrics {
            // Per-node networks measure message latency only; their empty metrics
            // would be noise.
            if self.nodes.is_some() && s.count == 0 {
                continue;
            }
            rows.extend(self.metric_rows(name, s));
        }
        rows
    }

    /// Three rows (ticks, µs, header times) for one metric.
    fn metric_rows(&self, name: &str, s: &LatencySummary) -> [Vec<String>; 3] {
        let empty = s.count == 0;
        let cells = |mean: String, rest: [String; 5]| -> Vec<String> {
            if empty {
                vec!["-".to_string(); 6]
            } else {
                std::iter::once(mean).chain(rest).collect()
            }
        };
        let t = &s.ticks;
        let ticks = cells(
            fixed(t.mean, 1),
            [t.p50, t.p90, t.p99, t.p99_9, t.max].map(group),
        );
        let scaled = |u: &super::latency::ScaledStats, d: usize| {
            cells(
                fixed(u.mean, d),
                [u.p50, u.p90, u.p99, u.p99_9, u.max].map(|v| fixed(v, d)),
            )
        };
        let rows = [
            (name, "ticks", ticks, group(s.count)),
            ("", "µs", scaled(&s.us, 3), String::new()),
            (
                "",
                self.run.delay_unit_name,
                scaled(&s.delay_units, 2),
                String::new(),
            ),
        ];
        rows.map(|(label, unit, values, count)| {
            let mut row = vec![label.to_string(), unit.to_string()];
            row.extend(values);
            row.push(count);
            row
        })
    }

    /// "5 of 64 sources were starved: …", listing up to eight, least served first.
    fn starvation_warning(&self) -> Option<String> {
        let s = &self.starvation;
        if s.starved.is_empty() {
            return None;
        }
        const SHOWN: usize = 8;
        let mut list: Vec<String> = s
            .starved
            .iter()
            .take(SHOWN)
            .map(|(t, pct)| format!("terminal {t} ({} %)", fixed(*pct, 1)))
            .collect();
        if s.starved.len() > SHOWN {
            list.push(format!("{} more", s.starved.len() - SHOWN));
        }
        Some(format!(
            "{} of {} sources were starved: each sent less than {} % of the mean per-source \
             throughput ({} %) during the measurement window: {}",
            s.starved.len(),
            s.sources,
            fixed(100.0 * s.bound_of_mean, 0),
            fixed(s.mean_sent_pct, 1),
            list.join(", ")
        ))
    }

    /// The warnings the text report ends with (each printed after `WARNING: `):
    /// undelivered or out-of-order messages, starved sources, the family's own, then
    /// those about the network itself (a netlist's unused links).
    pub fn warnings(&self) -> Vec<String> {
        let m = &self.messages;
        let mut warnings = Vec::new();
        if m.undelivered > 0 {
            warnings.push(format!(
                "{} of {} measured messages were not delivered by tick {}: the network may be saturated \
                 or stuck, and their latencies are missing from the table",
                group(m.undelivered),
                group(m.measured_created),
                group(self.run.end_tick)
            ));
        } else if !self.run.complete {
            warnings.push(
                "the run stopped before every measured message was accounted for".to_string(),
            );
        }
        if m.out_of_order > 0 {
            let why = if self.topology.config.network.multipath()
                && !self.topology.config.vcp.acknowledge
            {
                " (expected here: universal or adaptive routing sends one pair's packets along different paths, and acknowledges are off)"
            } else {
                ""
            };
            warnings.push(format!(
                "{} message{} arrived out of order or twice: message ordering was broken{why}",
                group(m.out_of_order),
                if m.out_of_order == 1 { "" } else { "s" }
            ));
        }
        if let Some(nodes) = &self.nodes {
            warnings.extend(nodes.starvation_warnings());
        } else if let Some(w) = self.starvation_warning() {
            warnings.push(w);
        }
        for section in &self.family.0 {
            warnings.extend(section.warnings());
        }
        warnings.extend(self.topology.warnings.iter().cloned());
        warnings
    }
}

/// One "label  text" line with the labels aligned.
pub(super) fn line(out: &mut String, label: &str, text: &str) {
    writeln!(out, "{label:<11} {text}").unwrap();
}

/// A serde-tagged enum (`kind = "..."` plus fields) as "kind (field value, ...)".
fn tagged_label(value: &impl Serialize) -> String {
    let Ok(serde_json::Value::Object(map)) = serde_json::to_value(value) else {
        return "?".to_string();
    };
    let kind = map
        .get("kind")
        .and_then(|k| k.as_str())
        .unwrap_or("?")
        .to_string();
    let fields: Vec<String> = map
        .iter()
        .filter(|(k, _)| *k != "kind")
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    if fields.is_empty() {
        kind
    } else {
        format!("{kind} ({})", fields.join(", "))
    }
}

/// Wall time in a readable unit.
fn wall(seconds: f64) -> String {
    if seconds < 1.0 {
        format!("{:.0} ms", seconds * 1000.0)
    } else {
        format!("{seconds:.2} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::RunOutcome;
    use crate::model::Activity;
    use crate::stats::TerminalStats;
    use crate::stats::report::tests::{input, outcome, topology, traffic};

    fn info() -> RunInfo {
        RunInfo {
            engine: "actors".to_string(),
            threads: 8,
            wall_seconds: 1.5,
            overrides: Vec::new(),
        }
    }

    #[test]
    fn text_has_the_key_numbers() {
        let (topo, traffic, outcome) = (topology(), traffic("kind = \"continuous\""), outcome());
        let text = Report::new(&input(&topo, &traffic, &outcome, false)).render_text(&info());
        for needle in [
            "hypercube1",
            "2 terminals",
            "2 switches",
            "shuffle (rotate 1), continuous, 32-byte messages",
            "seed 7",
            "120.000 µs (12,000 ticks",
            "1.50 s wall time",
            "engine actors, 8 threads",
            "75.0 % of link data capacity per terminal (min 50.0 %, max 100.0 %)",
            "packet-format maximum 95.8 %",
            // Continuous injection: both terminals are saturated sources, sending 100 %
            // and 50 % of a link: (150)² / (2 · 12,500) = 0.9.
            "fairness    2 saturated sources: Jain 0.900 · COV 0.333 · least terminal 1 (50.0 %), most terminal 0 (100.0 %)",
            "4,242",
            "500.0",
            "1,400",
            "header times",
            "source queue",
            "WARNING: 2 of 6 measured messages were not delivered",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
        assert!(!text.contains("completion"));
        assert!(!text.contains("out of order or twice"));
    }

    #[test]
    fn table_columns_line_up() {
        let (topo, traffic, outcome) = (topology(), traffic("kind = \"continuous\""), outcome());
        let text = Report::new(&input(&topo, &traffic, &outcome, false)).render_text(&info());
        let table: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("latency"))
            .take(10)
            .collect();
        assert_eq!(table.len(), 10);
        // The header is ASCII, so its byte offset is a column; every row has a digit
        // in the last column of "max".
        let end = table[0].find(" max").unwrap() + " max".len();
        for row in &table[1..] {
            let last = row.chars().nth(end - 1);
            assert!(
                last.is_some_and(|c| c.is_ascii_digit()),
                "misaligned: {row:?}"
            );
        }
    }

    #[test]
    fn batch_runs_show_completion_and_out_of_order_warns() {
        let (topo, traffic) = (topology(), traffic("kind = \"batch\"\nmessages = 2"));
        let mut outcome = outcome();
        outcome.terminals[1].counters.out_of_order = 3;
        let text = Report::new(&input(&topo, &traffic, &outcome, true)).render_text(&info());
        assert!(text.contains("batch (messages 2)"), "{text}");
        assert!(
            text.contains("completion  90.000 µs (9,000 ticks)"),
            "{text}"
        );
        assert!(
            text.contains("WARNING: 3 messages arrived out of order"),
            "{text}"
        );
    }

    #[test]
    fn empty_run_renders() {
        let (topo, traffic) = (topology(), traffic("kind = \"continuous\""));
        let outcome = RunOutcome {
            end_tick: 0,
            terminals: vec![TerminalStats::default(); 2],
            activity: Activity::default(),
            complete: true,
            windows: 0,
            node_runs: 0,
            parts: Vec::new(),
            faults: None,
        };
        let mut inp = input(&topo, &traffic, &outcome, false);
        inp.window = (0, 0);
        let text = Report::new(&inp).render_text(&RunInfo {
            wall_seconds: 0.0,
            ..info()
        });
        assert!(text.contains("0 created"));
        assert!(text.contains("message"));
        assert!(!text.contains("NaN") && !text.contains("WARNING"), "{text}");
    }
}
