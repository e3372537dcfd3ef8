//! `sci-starvation`: a node that nothing is sent to, with and without go-bit flow
//! control (SCI §4.2, Figs. 6-7).
//!
//! Every node sends uniformly to the others except node 0, which receives nothing, so
//! it never sees the gap a packet stripped at it leaves (SCI §4.2). The paper prints
//! one number, "As the throughput per node reaches about 3.2 bytes/ns, P0's arrivals
//! can no longer be satisfied", which cannot be right on 1 byte/ns links (a ring of 4
//! cannot carry 4 × 3.2); it is read here as 0.32 bytes/ns. The rest are findings:
//! without flow control P0 is completely starved at saturation; with it P0 transmits,
//! P0 < P1 < P2 < P3 on 4 nodes, and 16 nodes are almost equalised.

use super::super::ReproduceError;
use super::super::table::{Curve, Report, Row, Table, Tolerance};
use super::ring::{self, RingResult, RingRun};
use crate::parts::sci::Arrivals;
use crate::parts::sci::mg1::{self, ModelInput};
use crate::traffic::Destination;

/// Node 0 receives nothing.
fn destination(nodes: u32) -> impl Fn(u32) -> Destination {
    move |_| Destination::UniformExcept {
        terminals: nodes,
        except: 0,
    }
}

fn saturated(r: &RingRun) -> Result<RingResult, ReproduceError> {
    ring::run(
        r,
        ring::traffic(r, |_| Arrivals::Saturated, destination(r.nodes)),
    )
}

fn poisson(r: &RingRun, bytes_per_ns: f64) -> Result<RingResult, ReproduceError> {
    let p = ring::rate_for(bytes_per_ns, &r.mix);
    ring::run(
        r,
        ring::traffic(r, |_| Arrivals::Bernoulli(p), destination(r.nodes)),
    )
}

/// Jain's index of the nodes' realised throughput.
fn jain(r: &RingResult) -> f64 {
    let x: Vec<f64> = r.nodes.iter().map(|n| n.throughput).collect();
    let sum: f64 = x.iter().sum();
    let sq: f64 = x.iter().map(|v| v * v).sum();
    if sq == 0.0 {
        0.0
    } else {
        sum * sum / (x.len() as f64 * sq)
    }
}

/// A node counts as saturated once it realises less than this share of its offered load.
const SATURATED_SHARE: f64 = 0.95;

/// Runs the experiment; `quick` shortens the windows and coarsens the sweep.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    let (warmup, measure) = if quick {
        (5_000, 40_000)
    } else {
        (20_000, 200_000)
    };
    let base = |nodes| RingRun::new(nodes, warmup, measure);
    let fc = |nodes| RingRun {
        flow_control: true,
        ..base(nodes)
    };
    let mut sat = Table {
        title: "Fig. 7(c)-(d): every node saturated, node 0 starved of incoming packets".into(),
        ..Table::default()
    };
    let free4 = saturated(&base(4))?;
    let fc4 = saturated(&fc(4))?;
    let free16 = saturated(&base(16))?;
    let fc16 = saturated(&fc(16))?;
    for (nodes, r) in [(4, &free4), (16, &free16)] {
        sat.rows.push(
            Row::new(
                format!("R={nodes}, no flow control: P0 throughput"),
                0.0,
                "§4.2: \"completely starved\"",
                r.nodes[0].throughput,
                "bytes/ns",
                Tolerance::Absolute(0.001),
            )
            .note("an infinite recovery stage: no packet of P0's is delivered"),
        );
    }
    let others = |r: &RingResult| -> (f64, f64) {
        let x: Vec<f64> = r.nodes[1..].iter().map(|n| n.throughput).collect();
        (
            x.iter().cloned().fold(f64::MAX, f64::min),
            x.iter().cloned().fold(f64::MIN, f64::max),
        )
    };
    let (lo, hi) = others(&free4);
    sat.rows.push(
        Row::new(
            "R=4, no flow control: P1-P3 most / least throughput",
            1.0,
            "§4.2: \"roughly the same\"",
            hi / lo,
            "",
            Tolerance::AtMost(0.1),
        )
        .note("roughly the same: within 10 % (emu's reading)"),
    );
    let fair = fc4.per_node();
    sat.rows.push(
        Row::new(
            "R=4, flow control: P0 throughput / fair share",
            1.0,
            "§4.2: \"no longer kept from transmitting\"",
            fc4.nodes[0].throughput / fair,
            "",
            Tolerance::AtLeast(0.75),
        )
        .note("transmits: at least a quarter of an equal share (emu's reading)"),
    );
    for k in 0..3 {
        sat.rows.push(
            Row::new(
                format!("R=4, flow control: P{k} / P{}", k + 1),
                1.0,
                "§4.2: \"P0 ... smaller ... than P1, P1 ... than P2\"",
                fc4.nodes[k].throughput / fc4.nodes[k + 1].throughput,
                "",
                Tolerance::AtMost(0.0),
            )
            .note("not fully equalised: each node below its downstream neighbour"),
        );
    }
    sat.rows.push(
        Row::new(
            "R=4: total throughput with / without flow control",
            1.0,
            "§4.2: \"reduced slightly\"",
            fc4.total() / free4.total(),
            "",
            Tolerance::Within {
                below: 0.2,
                above: 0.0,
            },
        )
        .note("slightly reduced: at most 1, at least 0.8 (emu's reading)"),
    );
    sat.rows.push(
        Row::new(
            "R=16, flow control: Jain's index over the nodes",
            1.0,
            "§4.2: \"almost completely equalizes\"",
            jain(&fc16),
            "",
            Tolerance::AtLeast(0.05),
        )
        .note("almost equal: Jain's index ≥ 0.95 (emu's reading)"),
    );
    sat.rows.push(
        Row::new(
            "R=16 vs R=4, flow control: Jain's index",
            jain(&fc4),
            "emulated, R=4 with flow control",
            jain(&fc16),
            "",
            Tolerance::AtLeast(0.0),
        )
        .note("\"much more equally divided than it was for the 4-node ring\""),
    );
    sat.notes.push(format!(
        "every node always has a packet; 80/20 mix; {measure} measured cycles after {warmup}. \
         Per-node throughput: {}",
        [
            ("R=4", &free4),
            ("R=4 FC", &fc4),
            ("R=16", &free16),
            ("R=16 FC", &fc16)
        ]
        .iter()
        .map(|(l, r)| format!("{l} [{}]", shares(r)))
        .collect::<Vec<_>>()
        .join("; ")
    ));

    // Fig. 6(a): the load at which P0 saturates, R=4, no flow control.
    let step = if quick { 0.02 } else { 0.01 };
    let loads: Vec<f64> = (0..)
        .map(|i| 0.10 + step * f64::from(i))
        .take_while(|&l| l <= 0.50 + 1e-9)
        .collect();
    let mut curve = Curve {
        title: "Fig. 6(a) R=4, no flow control: per-node throughput (bytes/ns) and mean latency (ns) vs offered load".into(),
        columns: vec!["offered".into()],
        rows: Vec::new(),
    };
    for k in 0..4 {
        curve.columns.push(format!("p{k}_throughput"));
        curve.columns.push(format!("p{k}_latency_ns"));
    }
    let mut p0_saturates = None;
    let mut p1_saturates = None;
    for &load in &loads {
        let r = poisson(&base(4), load)?;
        let mut row = vec![load];
        for n in &r.nodes {
            row.extend([n.throughput, n.latency_ns]);
        }
        curve.rows.push(row);
        if p0_saturates.is_none() && r.nodes[0].saturated(SATURATED_SHARE) {
            p0_saturates = Some(load);
        }
        if p1_saturates.is_none() && r.nodes[1].saturated(SATURATED_SHARE) {
            p1_saturates = Some(load);
        }
    }
    // A node that never saturates in the sweep saturates above its last load.
    let beyond = loads.last().map_or(f64::INFINITY, |l| l + step);
    let mut sweep = Table {
        title: "Fig. 6(a): R=4 without flow control, Poisson load swept: where P0 saturates".into(),
        ..Table::default()
    };
    sweep.rows.push(
        Row::new(
            "offered load at which P0 saturates",
            0.32,
            "§4.2 \"about 3.2\" read as 0.32",
            p0_saturates.unwrap_or(beyond),
            "bytes/ns",
            Tolerance::Relative(0.15),
        )
        .note(format!(
            "saturated: delivers < {:.0} % of the bytes it created in the window; sweep step {step} bytes/ns",
            SATURATED_SHARE * 100.0
        )),
    );
    // The App. A model, with the paper's inputs: the common per-node load at which the
    // first node (P0) saturates.
    let unit = ModelInput::sci(vec![1.0; 4], mg1::starved_routing(4, 0));
    let model_load = mg1::saturation_scale(&unit)
        .map_err(|e| ReproduceError::Model(e.to_string()))?
        * (unit.l_send() - 1.0);
    sweep.rows.push(
        Row::new(
            "offered load at which P0 saturates: App. A model",
            model_load,
            "App. A model",
            p0_saturates.unwrap_or(beyond),
            "bytes/ns",
            Tolerance::Relative(0.15),
        )
        .note("the model \"qualitatively predicts correct behavior\" (SCI §4.2)"),
    );
    sweep.rows.push(
        Row::new(
            "P0 saturates before P1",
            p1_saturates.unwrap_or(beyond),
            "emulated: load at which P1 saturates",
            p0_saturates.unwrap_or(beyond),
            "bytes/ns",
            Tolerance::AtMost(-0.0001),
        )
        .note("\"P0 saturates before the other nodes\""),
    );
    let mut curves = vec![curve];
    if !quick {
        for (nodes, flow_control, fig, top) in [
            (16, false, "6(b)", 0.09),
            (4, true, "7(a)", 0.40),
            (16, true, "7(b)", 0.09),
        ] {
            let r = RingRun {
                flow_control,
                ..RingRun::new(nodes, 20_000, 100_000)
            };
            curves.push(ring::sweep(
                format!("Fig. {fig} R={nodes}: per-node latency vs throughput, node 0 starved"),
                &r,
                &ring::loads(top, 9),
                true,
                |_, p| Arrivals::Bernoulli(p),
                |_| Destination::UniformExcept {
                    terminals: nodes,
                    except: 0,
                },
            )?);
        }
    }
    Ok(Report {
        curves,
        experiment: "sci-starvation".into(),
        section: "SCI §4.2".into(),
        tables: vec![sat, sweep],
    })
}

fn shares(r: &RingResult) -> String {
    r.nodes
        .iter()
        .map(|n| format!("{:.3}", n.throughput))
        .collect::<Vec<_>>()
        .join(" ")
}
