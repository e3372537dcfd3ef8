//! `sci-active-buffers` and `sci-sink-rate`: how the number of active buffers and the
//! sink queue's consumption rate bound a ring's maximum throughput (SCI §4.4-4.5,
//! Figs. 10-11).
//!
//! Maximum throughput is measured at saturation (every node always has a packet,
//! destinations uniform, 80/20 mix): the ring's total realised send-packet bytes per
//! ns. The paper prints no values for these figures, only findings: "Both the 4- and
//! 16-node rings benefit from a single active buffer, and the 4-node ring benefits
//! from a second active buffer. There is very little incremental benefit from
//! additional buffers" (§4.4); reducing the consumption rate from 1.0 towards 0.2
//! lowers the maximum throughput, and "The effect of a reduced sink queue servicing
//! rate is greater for smaller rings" (§4.5).

use super::super::ReproduceError;
use super::super::table::{Curve, Report, Row, Table, Tolerance};
use super::ring::{self, RingRun};
use crate::parts::sci::Arrivals;
use crate::traffic::Destination;

/// A change counts as a benefit when it raises the maximum throughput by at least
/// this share (emu's reading of "benefit" and "very little").
const BENEFIT: f64 = 0.03;

fn windows(quick: bool) -> (u64, u64) {
    if quick {
        (5_000, 40_000)
    } else {
        (20_000, 200_000)
    }
}

/// `sci-active-buffers`; `quick` shortens the windows.
pub fn active_buffers(quick: bool) -> Result<Report, ReproduceError> {
    let (warmup, measure) = windows(quick);
    let counts: [Option<u32>; 5] = [Some(0), Some(1), Some(2), Some(3), None];
    let mut table = Table {
        title: "Fig. 10: maximum throughput against the number of active buffers".into(),
        ..Table::default()
    };
    let mut curve = Curve {
        title: "Fig. 10: max throughput (bytes/ns) by active buffers (-1: unlimited)".into(),
        columns: vec![
            "nodes".into(),
            "active_buffers".into(),
            "max_throughput".into(),
        ],
        rows: Vec::new(),
    };
    for nodes in [4, 16] {
        let mut max = Vec::new();
        for a in counts {
            let r = RingRun {
                active_buffers: a,
                ..RingRun::new(nodes, warmup, measure)
            };
            let x = ring::saturated_uniform(&r)?.total();
            curve
                .rows
                .push(vec![f64::from(nodes), a.map_or(-1.0, f64::from), x]);
            max.push(x);
        }
        let gain = |from: usize, to: usize| max[to] / max[from];
        let helps = Tolerance::AtLeast(-BENEFIT);
        let little = Tolerance::AtMost(BENEFIT);
        table.rows.push(
            Row::new(
                format!("R={nodes}: one active buffer / none"),
                1.0,
                "§4.4: \"benefit from a single active buffer\"",
                gain(0, 1),
                "",
                helps,
            )
            .note("a benefit: ≥ 3 % more (emu's reading)"),
        );
        let second = Row::new(
            format!("R={nodes}: two active buffers / one"),
            1.0,
            if nodes == 4 {
                "§4.4: \"the 4-node ring benefits from a second\""
            } else {
                "§4.4: only the 4-node ring benefits from a second"
            },
            gain(1, 2),
            "",
            if nodes == 4 { helps } else { little },
        );
        let second = if nodes == 4 {
            second.note("a benefit: ≥ 3 % more")
        } else {
            second.note("very little: < 3 % more").expected_miss(
                "a second buffer still adds about 4 % at saturation on 16 nodes (half the 4-node \
                 ring's gain, so the paper's ordering holds); the paper judges from latency \
                 curves it does not print, emu from the maximum throughput",
            )
        };
        table.rows.push(second);
        table.rows.push(
            Row::new(
                format!("R={nodes}: unlimited / three active buffers"),
                1.0,
                "§4.4: \"very little incremental benefit\"",
                gain(3, 4),
                "",
                little,
            )
            .note("very little: < 3 % more"),
        );
    }
    table.notes.push(format!(
        "every node saturated, uniform destinations, 80/20 mix; {measure} measured cycles after {warmup}. \
         A node may have its active buffers plus one send packets awaiting their echo (SCI §4.4)."
    ));
    let mut curves = vec![curve];
    if !quick {
        for (nodes, top) in [(4u32, 0.35), (16, 0.088)] {
            for a in [Some(0), Some(1), Some(2), None] {
                let r = RingRun {
                    active_buffers: a,
                    ..RingRun::new(nodes, 20_000, 100_000)
                };
                curves.push(ring::sweep(
                    format!(
                        "Fig. 10 R={nodes}, {} active buffers: latency vs throughput",
                        a.map_or("unlimited".to_string(), |a| a.to_string())
                    ),
                    &r,
                    &ring::loads(top, 8),
                    false,
                    |_, p| Arrivals::Bernoulli(p),
                    |_| Destination::Uniform { terminals: nodes },
                )?);
            }
        }
    }
    Ok(Report {
        curves,
        experiment: "sci-active-buffers".into(),
        section: "SCI §4.4".into(),
        tables: vec![table],
    })
}

/// `sci-sink-rate`; `quick` shortens the windows.
pub fn sink_rate(quick: bool) -> Result<Report, ReproduceError> {
    let (warmup, measure) = windows(quick);
    let rates = [0.2, 0.4, 0.6, 0.8, 1.0];
    let mut table = Table {
        title: "Fig. 11: maximum throughput against the sink queue's consumption rate".into(),
        ..Table::default()
    };
    let mut curve = Curve {
        title: "Fig. 11: max throughput (bytes/ns) by sink consumption rate".into(),
        columns: vec!["nodes".into(), "sink_rate".into(), "max_throughput".into()],
        rows: Vec::new(),
    };
    let mut lowest_share = Vec::new();
    for nodes in [4, 16] {
        let mut max = Vec::new();
        for rate in rates {
            let r = RingRun {
                sink_rate: rate,
                ..RingRun::new(nodes, warmup, measure)
            };
            let x = ring::saturated_uniform(&r)?.total();
            curve.rows.push(vec![f64::from(nodes), rate, x]);
            max.push(x);
        }
        for k in 0..rates.len() - 1 {
            table.rows.push(
                Row::new(
                    format!("R={nodes}: rate {} / rate {}", rates[k], rates[k + 1]),
                    1.0,
                    "§4.5: a lower rate lowers the maximum",
                    max[k] / max[k + 1],
                    "",
                    Tolerance::AtMost(0.01),
                )
                .note("not higher (1 % for noise)"),
            );
        }
        lowest_share.push((nodes, max[0] / max[rates.len() - 1]));
    }
    if let [(_, small), (_, large)] = lowest_share[..] {
        table.rows.push(
            Row::new(
                "rate 0.2 / rate 1.0: R=4 against R=16",
                large,
                "emulated, R=16",
                small,
                "",
                Tolerance::AtMost(0.0),
            )
            .note("\"greater for smaller rings\": the 4-node ring keeps the smaller share"),
        );
    }
    table.notes.push(format!(
        "every node saturated, uniform destinations, 80/20 mix, unlimited active buffers; \
         {measure} measured cycles after {warmup}. The sink queue holds the largest packet \
         (SCI §4.5); a packet that finds no room is nacked and sent again."
    ));
    Ok(Report {
        curves: vec![curve],
        experiment: "sci-sink-rate".into(),
        section: "SCI §4.5".into(),
        tables: vec![table],
    })
}
