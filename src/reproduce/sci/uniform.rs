//! `sci-uniform`: uniform traffic without flow control, the emulator beside the
//! analytical model of SCI App. A (SCI §4.1, Fig. 3).
//!
//! Every node is Poisson at the same rate with uniform destinations; three mixes (all
//! address packets, 20 % 64-byte data, all data). The model ([`crate::parts::sci::mg1`])
//! is computed here from its equations, not copied from the figure (the paper prints no
//! values). The paper's verdict: "The model is very accurate for the 4-node ring. For
//! the 16-node ring, the model is accurate for the all-address-packet workload, but
//! underestimates latency under moderate to heavy loading for the other workloads."
//! Loads are fractions of the model's saturation throughput, which for a uniform ring
//! is the link bound of every node's output link being full.

use super::super::ReproduceError;
use super::super::table::{Curve, Report, Row, Table, Tolerance};
use super::ring::{self, RingRun};
use crate::network::CYCLE_NS;
use crate::parts::sci::mg1::{self, ModelInput};
use crate::parts::sci::{ADDRESS_SYMBOLS, DATA_SYMBOLS, PacketMix};

/// "Very accurate" and "accurate", read as: the model's mean latency within this
/// share of the emulator's.
const ACCURATE: f64 = 0.10;

/// (label, mix, fraction of data packets for the model).
fn mixes() -> [(&'static str, PacketMix, f64); 3] {
    [
        ("address", PacketMix::only(ADDRESS_SYMBOLS), 0.0),
        ("mixed", PacketMix::PAPER, 0.2),
        ("data", PacketMix::only(DATA_SYMBOLS), 1.0),
    ]
}

/// The model of `nodes` uniform nodes each offering `lambda` packets per cycle.
fn model(nodes: usize, lambda: f64, f_data: f64) -> ModelInput {
    ModelInput {
        f_data,
        ..ModelInput::sci(vec![lambda; nodes], mg1::uniform_routing(nodes))
    }
}

/// The load per node (bytes/ns) at `fraction` of the model's saturation throughput for
/// `nodes` uniform nodes sending `mix` (a share `f_data` of data packets), and the
/// model's answer there.
pub(super) fn model_at(
    nodes: u32,
    mix: &PacketMix,
    f_data: f64,
    fraction: f64,
) -> Result<(f64, mg1::ModelResult), ReproduceError> {
    let unit = model(nodes as usize, 1.0, f_data);
    let scale = mg1::saturation_scale(&unit).map_err(model_error)?;
    let load = fraction * scale * (unit.l_send() - 1.0);
    let lambda = load / mix.mean_symbols();
    let m = mg1::solve(&model(nodes as usize, lambda, f_data)).map_err(model_error)?;
    Ok((load, m))
}

/// The warm-up and measured cycles of a run: the quick form keeps to loads where 150 k
/// cycles put the mean latency's noise well inside the 10 % band (the full form's 300 k
/// cycles reach 80 % of saturation).
pub(super) fn window(quick: bool) -> (u64, u64) {
    if quick {
        (20_000, 150_000)
    } else {
        (20_000, 300_000)
    }
}

/// The model's error as the experiment's.
fn model_error(e: mg1::ModelError) -> ReproduceError {
    ReproduceError::Model(e.to_string())
}

/// Runs the experiment; `quick` runs two loads and shorter windows.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    let (warmup, measure) = window(quick);
    let fractions: &[f64] = if quick {
        &[0.3, 0.6]
    } else {
        &[0.2, 0.4, 0.6, 0.7, 0.8]
    };
    let mut r4 = Table {
        title: "Fig. 3(a) R=4: mean latency, model against emulation".into(),
        ..Table::default()
    };
    let mut r16 = Table {
        title: "Fig. 3(b) R=16: mean latency, model against emulation".into(),
        ..Table::default()
    };
    let mut curve = Curve {
        title: "Fig. 3: mean latency (ns) vs throughput per node (bytes/ns), emulated and model"
            .into(),
        columns: [
            "nodes",
            "mix_data_fraction",
            "offered",
            "throughput",
            "latency_ns",
            "model_latency_ns",
        ]
        .map(String::from)
        .to_vec(),
        rows: Vec::new(),
    };
    for nodes in [4u32, 16] {
        for (label, mix, f_data) in mixes() {
            for &f in fractions {
                let (load, m) = model_at(nodes, &mix, f_data, f)?;
                let model_ns = m.nodes[0].latency * CYCLE_NS;
                let run = RingRun {
                    mix,
                    ..RingRun::new(nodes, warmup, measure)
                };
                let e = ring::poisson_uniform(&run, load)?;
                let emulated_ns = e.latency_ns();
                curve.rows.push(vec![
                    f64::from(nodes),
                    f_data,
                    load,
                    e.per_node(),
                    emulated_ns,
                    model_ns,
                ]);
                let at = format!("R={nodes} {label}, {:.0} % of saturation", f * 100.0);
                let row = Row::new(
                    at,
                    model_ns,
                    "App. A model",
                    emulated_ns,
                    "ns",
                    Tolerance::Relative(ACCURATE),
                );
                if nodes == 4 && label == "address" && f >= 0.8 {
                    r4.rows.push(row.note("\"very accurate\": within 10 %").expected_miss(
                        "near saturation the model puts address-only latency on 4 nodes 9-11 % above \
                         the emulator (seeds 1-3 over 1 M cycles: 75-77 ns against 84 ns); the \
                         other 4-node points are within 7 %",
                    ));
                } else if nodes == 4 {
                    r4.rows.push(row.note("\"very accurate\": within 10 %"));
                } else if label == "address" {
                    r16.rows.push(row.note("\"accurate\": within 10 %"));
                } else if f >= 0.5 {
                    r16.rows.push(
                        Row {
                            tolerance: Tolerance::AtLeast(0.0),
                            ..row
                        }
                        .note("the model \"underestimates latency under moderate to heavy loading\": emulated ≥ model"),
                    );
                } else {
                    r16.rows.push(row.note("light load: within 10 %"));
                }
            }
        }
    }
    let note = format!(
        "Poisson arrivals at a fraction of the model's saturation throughput per node, uniform \
         destinations, no flow control, unlimited active buffers; {measure} measured cycles after \
         {warmup}. Latency: creation to consumption at the target, mean over every node's packets."
    );
    r4.notes.push(note.clone());
    r16.notes.push(note);
    Ok(Report {
        curves: vec![curve],
        experiment: "sci-uniform".into(),
        section: "SCI §4.1, App. A".into(),
        tables: vec![r4, r16],
    })
}
