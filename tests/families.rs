//! Every family's generic report figures mean one thing (book/src/report.md "The JSON report"):
//! payload delivered and offered per terminal, as a percentage of one link's data
//! capacity, counted by what arrived inside the measurement window. Each shipped
//! topology runs past saturation with a traffic of its family, and the generic figures
//! are checked against the family's own (an SCI ring's per-node figures, a fabric's
//! per-output throughput, a relay ring's ball counts).

use emu::api::{Outcome, RunOptions, run_case};
use emu::config::{FileKind, list_shipped};
use emu::model::LinkProtocol;
use emu::session::{AnyCase, Case, CaseVisitor};
use serde_json::Value;

/// Runs a case on one thread and returns its JSON report; `None` if it deadlocked (the
/// C104 networks shipped to show a deadlock do).
fn report(case: &AnyCase) -> Option<Value> {
    let options = RunOptions {
        threads: Some(1),
        ..RunOptions::default()
    };
    let r = run_case(case, &options).unwrap_or_else(|e| panic!("{e}"));
    match r.outcome {
        Outcome::Completed => Some(serde_json::from_str(r.to_json()).expect("JSON")),
        Outcome::Deadlock | Outcome::PartialDeadlock => None,
        other => panic!("{other:?}: {}", r.to_json()),
    }
}

/// A traffic past saturation for the topology's family, with short phases.
fn saturating(topology: &str) -> (&'static str, Vec<String>) {
    let short = |warmup: &str, measure: &str| {
        vec![
            format!("phases.warmup_us={warmup}"),
            format!("phases.measure_us={measure}"),
        ]
    };
    if topology.starts_with("sci-") {
        let mut sets = short("10", "200");
        sets.push("injection.load=1".into());
        ("sci-uniform", sets)
    } else if topology.starts_with("fabric") {
        let mut sets = short("20", "300");
        sets.push("injection.load=1".into());
        ("uniform-rate", sets)
    } else if topology.starts_with("relay") {
        ("relay-balls", Vec::new())
    } else {
        ("uniform", short("20", "100"))
    }
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = values.collect();
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

#[test]
fn generic_throughput_agrees_with_each_family_s_own_figures() {
    let mut checked = 0;
    for entry in list_shipped()
        .into_iter()
        .filter(|e| e.kind == FileKind::Topology)
    {
        let topology = entry.name.as_str();
        let (traffic, sets) = saturating(topology);
        let case = AnyCase::load(topology, traffic, &sets, 3)
            .unwrap_or_else(|e| panic!("{topology} × {traffic}: {e}"));
        if case.visit(Nodes) > 1100 {
            continue; // the largest networks are the C104 tests' (too slow here)
        }
        let Some(r) = report(&case) else {
            continue;
        };
        let t = &r["throughput"];
        let delivered = t["delivered_pct"]["mean"].as_f64().expect("a number");
        let offered = t["offered_pct"]["mean"].as_f64().expect("a number");
        let per_terminal = mean(
            r["terminals"]["delivered_pct"]
                .as_array()
                .expect("per terminal")
                .iter()
                .filter_map(Value::as_f64),
        );
        assert!(
            (delivered - per_terminal).abs() < 1e-9,
            "{topology}: {delivered} vs {per_terminal}"
        );
        if let Some(nodes) = r.get("nodes") {
            // SCI: per node in bytes/ns, of 1 byte/ns. The source counts a packet when
            // its echo says it was delivered inside the window, the target when it took
            // it: the same tick, so the sums agree (0.1 % for rounding of the report).
            let own = 100.0
                * nodes["rows"]
                    .as_array()
                    .expect("rows")
                    .iter()
                    .map(|n| n["delivered_bytes_per_ns"].as_f64().expect("a number"))
                    .sum::<f64>()
                / nodes["rows"].as_array().expect("rows").len() as f64;
            assert!(
                (delivered - own).abs() <= 0.001 * own.max(1.0),
                "{topology}: generic {delivered} %, per node {own} %"
            );
            assert!(delivered < 0.6 * offered, "{topology}: not saturated");
        } else if let Some(fabric) = r.get("fabric") {
            // Per output, packets that left the switch in the window in % of one per
            // cycle: a packet's exit tick is the tick it leaves the output.
            let own = fabric["output_pct"]["mean"].as_f64().expect("a number");
            assert!(
                (delivered - own).abs() <= 0.001 * own.max(1.0),
                "{topology}: generic {delivered} %, per output {own} %"
            );
        } else if let Some(relay) = r.get("relay") {
            assert_eq!(relay["balls"], relay["retired"], "{topology}");
            assert_eq!(delivered, 0.0, "{topology}: balls carry no payload");
        } else {
            // A DS-Link network: no terminal can take more than its link carries in
            // this packet format. (Delivered may exceed offered by a few percent: what
            // was created before the window and delivered in it counts.)
            let max = t["format_max_pct"].as_f64().expect("a number");
            assert!(
                delivered <= max + 1e-9,
                "{topology}: {delivered} % delivered of {offered} % offered, format max {max} %"
            );
        }
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} topologies checked");
}

/// The number of nodes of a case.
struct Nodes;

impl CaseVisitor for Nodes {
    type Output = usize;
    fn visit<P: LinkProtocol>(self, case: &Case<P>) -> usize {
        case.net.nodes().len()
    }
}
