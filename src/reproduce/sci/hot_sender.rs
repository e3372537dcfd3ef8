//! `sci-hot-sender`: a node that always has a packet to send, with and without go-bit
//! flow control (SCI §4.3, Figs. 8-9).
//!
//! Node 0 is saturated; the other nodes are Poisson at the cold-node throughput of the
//! paper's vertical slices (Fig. 9(c): 0.177 bytes/ns on 4 nodes; Fig. 9(d): 0.044 on
//! 16), destinations uniform, 80/20 mix. The paper prints the hot sender's realised
//! rate: "Without flow control, it realizes a rate of 0.643 bytes/ns on the 4-node ring.
//! With flow control, it realizes only 0.517 bytes/ns. For the 16-node ring, the hot
//! sender's throughput is reduced from 0.511 bytes/ns to 0.264 bytes/ns." The text
//! does not say at which cold load these were measured; the slices' loads are the
//! reading taken here (the sentence follows their description).

use super::super::ReproduceError;
use super::super::table::{Curve, Report, Row, Table, Tolerance};
use super::ring::{self, RingResult, RingRun};
use crate::parts::sci::Arrivals;
use crate::parts::sci::mg1::{self, ModelInput};
use crate::traffic::Destination;

/// (nodes, cold-node bytes/ns, the paper's rate without and with flow control).
const CASES: [(u32, f64, f64, f64); 2] = [(4, 0.177, 0.643, 0.517), (16, 0.044, 0.511, 0.264)];

/// The band on each printed rate: the paper's own runs were 9.3 M cycles with
/// confidence intervals "generally under or about 1%", so the band covers the
/// protocol decisions the paper leaves open (which go-idle licenses a start, ring
/// buffer size: see `parts::sci`), not noise.
const BAND: f64 = 0.15;

fn hot_run(r: &RingRun, cold: f64) -> Result<RingResult, ReproduceError> {
    let n = r.nodes;
    let p = ring::rate_for(cold, &r.mix);
    ring::run(
        r,
        ring::traffic(
            r,
            |i| {
                if i == 0 {
                    Arrivals::Saturated
                } else {
                    Arrivals::Bernoulli(p)
                }
            },
            |_| Destination::Uniform { terminals: n },
        ),
    )
}

/// Runs the experiment; `quick` shortens the window and the sweep.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    let (warmup, measure) = if quick {
        (20_000, 100_000)
    } else {
        (20_000, 400_000)
    };
    let mut rates = Table {
        title: "Fig. 9: the hot sender's realised rate, without and with flow control".into(),
        ..Table::default()
    };
    let mut slices = Table {
        title: "Fig. 9(c)-(d): the cold nodes' latency at the slice load".into(),
        ..Table::default()
    };
    let mut curves = Vec::new();
    for (nodes, cold, free_ref, fc_ref) in CASES {
        let base = RingRun::new(nodes, warmup, measure);
        let free = hot_run(&base, cold)?;
        let fc = hot_run(
            &RingRun {
                flow_control: true,
                ..base
            },
            cold,
        )?;
        let (x_free, x_fc) = (free.nodes[0].throughput, fc.nodes[0].throughput);
        let at = format!("R={nodes}, cold nodes {cold} bytes/ns");
        rates.rows.push(Row::new(
            format!("{at}, no flow control"),
            free_ref,
            "§4.3 text",
            x_free,
            "bytes/ns",
            Tolerance::Relative(BAND),
        ));
        rates.rows.push(
            Row::new(
                format!("{at}, no flow control: App. A model"),
                model_rate(nodes, cold)?,
                "App. A model",
                x_free,
                "bytes/ns",
                Tolerance::Relative(BAND),
            )
            .note("the model (no flow control) throttles the saturated node to ρ = 1 (SCI §4.2)"),
        );
        let mut row = Row::new(
            format!("{at}, flow control"),
            fc_ref,
            "§4.3 text",
            x_fc,
            "bytes/ns",
            Tolerance::Relative(BAND),
        );
        if nodes == 16 {
            row = row.expected_miss(
                "emu lets a node's own postpended go-idle license its next packet, the reading \
                 that reproduces every finding of Fig. 5 (parts::sci); letting only a go-idle passed \
                 on from upstream license it gives 0.275 here (+4 %) but costs 22 % of the maximum \
                 throughput on 2 nodes, where the paper says flow control costs nearly nothing",
            );
        }
        rates.rows.push(row);
        rates.rows.push(
            Row::new(
                format!("{at}: with / without flow control"),
                1.0,
                "§4.3: \"reduced\"",
                x_fc / x_free,
                "",
                Tolerance::AtMost(0.0),
            )
            .note(format!(
                "the drop must hold (below 1); the paper's ratio is {:.3}",
                fc_ref / free_ref
            )),
        );
        // Without flow control the nearest downstream node suffers most; with it the
        // hot node affects every other node about equally (SCI §4.3).
        let spread = |r: &RingResult| {
            let lat: Vec<f64> = r.nodes[1..].iter().map(|n| n.latency_ns).collect();
            let max = lat.iter().cloned().fold(f64::MIN, f64::max);
            let min = lat.iter().cloned().fold(f64::MAX, f64::min);
            max / min
        };
        slices.rows.push(
            Row::new(
                format!("R={nodes}: P1 latency / mean of the other cold nodes, no flow control"),
                1.0,
                "§4.3: P1 \"severely affected\"",
                free.nodes[1].latency_ns / mean_latency(&free.nodes[2..]),
                "",
                Tolerance::AtLeast(-0.2),
            )
            .note("≥ 1.2: the first downstream node is the worst off"),
        );
        slices.rows.push(
            Row::new(
                format!("R={nodes}: cold-node latency spread (max/min), flow control"),
                spread(&free),
                "emulated, no flow control",
                spread(&fc),
                "",
                Tolerance::AtMost(0.0),
            )
            .note("flow control \"equalizes the effect of the hot node\": the spread shrinks"),
        );
        curves.push(per_node_curve(nodes, cold, &free, &fc));
    }
    rates.notes.push(format!(
        "node 0 saturated, the others Poisson at the cold load, uniform destinations, 80 % address / \
         20 % 64-byte data packets; {measure} measured cycles after {warmup} (the paper: 9.3 M cycles). \
         Rates are send-packet bytes of node 0 delivered per ns. Band ±{}%: the printed rates \
         depend on protocol details the paper leaves open (parts::sci lists the decisions).",
        BAND * 100.0
    ));
    if !quick {
        for (nodes, top) in [(4u32, 0.25), (16, 0.06)] {
            for flow_control in [false, true] {
                let r = RingRun {
                    flow_control,
                    ..RingRun::new(nodes, 20_000, 100_000)
                };
                curves.push(ring::sweep(
                    format!(
                        "Fig. {} R={nodes}: per-node latency vs cold-node throughput, node 0 hot",
                        if flow_control { "9" } else { "8" }
                    ),
                    &r,
                    &ring::loads(top, 8),
                    true,
                    |i, p| {
                        if i == 0 {
                            Arrivals::Saturated
                        } else {
                            Arrivals::Bernoulli(p)
                        }
                    },
                    |_| Destination::Uniform { terminals: nodes },
                )?);
            }
        }
    }
    Ok(Report {
        curves,
        experiment: "sci-hot-sender".into(),
        section: "SCI §4.3".into(),
        tables: vec![rates, slices],
    })
}

/// The App. A model's rate for the hot node: it offers more than it can send, so the
/// model throttles it to a source-queue utilisation of one (SCI §4.2).
fn model_rate(nodes: u32, cold: f64) -> Result<f64, ReproduceError> {
    let n = nodes as usize;
    let unit = ModelInput::sci(vec![1.0; n], mg1::uniform_routing(n));
    let cold_lambda = cold / (unit.l_send() - 1.0);
    let mut arrival = vec![cold_lambda; n];
    arrival[0] = 1.0;
    let m = mg1::solve(&ModelInput { arrival, ..unit })
        .map_err(|e| ReproduceError::Model(e.to_string()))?;
    Ok(m.nodes[0].throughput)
}

fn mean_latency(nodes: &[ring::NodeResult]) -> f64 {
    nodes.iter().map(|n| n.latency_ns).sum::<f64>() / nodes.len().max(1) as f64
}

/// Fig. 9(c)/(d): per node, throughput and mean latency without and with flow control.
fn per_node_curve(nodes: u32, cold: f64, free: &RingResult, fc: &RingResult) -> Curve {
    Curve {
        title: format!("Fig. 9 slice, R={nodes}, cold nodes at {cold} bytes/ns: per node"),
        columns: [
            "node",
            "throughput_no_fc",
            "latency_ns_no_fc",
            "throughput_fc",
            "latency_ns_fc",
        ]
        .map(String::from)
        .to_vec(),
        rows: free
            .nodes
            .iter()
            .zip(&fc.nodes)
            .enumerate()
            .map(|(i, (a, b))| {
                vec![
                    i as f64,
                    a.throughput,
                    a.latency_ns,
                    b.throughput,
                    b.latency_ns,
                ]
            })
            .collect(),
    }
}
