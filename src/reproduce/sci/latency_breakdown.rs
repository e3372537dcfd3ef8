//! `sci-latency-breakdown`: where an SCI packet's latency goes (SCI §4.8, Fig. 14),
//! measured packet by packet beside the analytical model the paper drew it from.
//!
//! SCI §4.8 plots four curves for R = 4 and 16 under uniform traffic with 20 % 64-byte
//! data packets, from its App. A model only: *Fixed* (wire and fixed switching delay),
//! *Transit* (from the start of transmission to consumption; Transit − Fixed is the
//! ring-buffer delay), *Idle Source* (the latency of a packet that finds its source idle;
//! Idle Source − Transit is the wait for a passing packet's tail) and *Total* (Total −
//! Transit is the source-queue wait). It prints no values, only findings: "Much of the
//! latency under heavy loads is due to waiting in the source queues ... Delay due to
//! buffer backlog becomes more significant relative to source queueing delay as the ring
//! size is increased from 4 to 16. For very large rings, transmission delay becomes
//! dominant except when the ring is very close to saturation."
//!
//! emu measures the parts of every packet's latency (book/src/journeys.md "SCI rings"):
//! source queue, idle source, ring buffer, fixed. The model ([`crate::parts::sci::mg1`])
//! is computed here from its equations. Two accounting differences are moved to the
//! model's side of the rows: the model counts a packet's separator idle in its length
//! (`l_send`, App. A), which stands for the cycle emu spends queueing it, so the model's
//! Fixed and Transit are one cycle above emu's and emu's source queue one cycle above
//! the model's; and the model's Idle Source curve is a conditional latency (a packet that
//! finds the source idle), so the row compares the mean wait for a break over all packets,
//! `(1 − ρ) w` in the model.

use super::super::ReproduceError;
use super::super::table::{Curve, Report, Row, Table, Tolerance};
use super::ring::{self, RingResult, RingRun};
use super::uniform;
use crate::network::CYCLE_NS;
use crate::parts::sci::PacketMix;
use crate::parts::sci::mg1::NodeResult;

/// The model's accuracy as SCI §4.1 states it for its latency ("very accurate" on 4
/// nodes, "accurate" for address packets on 16), read as within 10 %, as in
/// `sci-uniform`.
const ACCURATE: f64 = 0.10;

/// The fixed delay depends only on the destinations and the packet mix drawn, so model
/// and emulation differ only by sampling: with some 10,000 packets a run its mean's
/// standard error is under 0.5 %, and 2 % is four of them.
const SAMPLED: f64 = 0.02;

/// The model's `(fixed, transit, mean wait for a break, total)` latency parts and its
/// Idle Source curve, in ns, with the cycle it counts in the packet's length moved out
/// of Fixed and Transit (module documentation).
fn model_parts(m: &NodeResult) -> [f64; 5] {
    let w = if m.utilisation < 1.0 {
        m.idle_wait / (1.0 - m.utilisation)
    } else {
        f64::INFINITY
    };
    [
        (m.fixed - 1.0) * CYCLE_NS,
        (m.transit - 1.0) * CYCLE_NS,
        m.idle_wait * CYCLE_NS,
        m.latency * CYCLE_NS,
        (m.transit + w) * CYCLE_NS,
    ]
}

/// The emulation's `(fixed, transit, mean idle-source wait, total, source wait)` in ns.
fn emulated_parts(e: &RingResult) -> [f64; 5] {
    let [queue, idle, ring, fixed] = [0, 1, 2, 3].map(|k| e.journey.get(k).copied().unwrap_or(0.0));
    [
        fixed * CYCLE_NS,
        (fixed + ring) * CYCLE_NS,
        idle * CYCLE_NS,
        e.target_latency * CYCLE_NS,
        (queue + idle) * CYCLE_NS,
    ]
}

/// Why the mean wait for a break misses at every point (full form, 2026-11-26: the
/// model 14-31 % above the emulation).
const WAIT_MISS: &str = "the model's mean wait for a break is 14-31 % above emu's idle-source \
     wait at every point (full form). Part of it is accounting: emu counts the cycle a new packet \
     is being queued (SCI §4) as source queue even while a passing packet goes by, the model as \
     waiting from its arrival; counting that cycle as idle source in a trial closed a third to a \
     half of the gap (quick form, R=4 30 %: 2.14 → 2.38 ns against 2.82; R=16 30 %: 4.44 → 4.85 \
     against 5.28). The rest is the model's estimate of w from its train statistics, not \
     separated here; Transit and Total agree within their bands";

/// One row of Fig. 14's curve: the ring, the load, the throughput, the model's Fixed,
/// Transit, Idle Source and Total, and the emulated ones.
fn curve_row(
    nodes: u32,
    fraction: f64,
    e: &RingResult,
    model: &[f64; 5],
    emu: &[f64; 5],
) -> Vec<f64> {
    vec![
        f64::from(nodes),
        fraction,
        e.per_node(),
        model[0],
        model[1],
        model[4],
        model[3],
        emu[0],
        emu[1],
        emu[1] + emu[2],
        emu[3],
    ]
}

/// One ring of `nodes` at `fraction` of the model's saturation throughput per node:
/// the model's node 0 and the emulation.
fn point(
    nodes: u32,
    fraction: f64,
    warmup: u64,
    measure: u64,
) -> Result<(f64, NodeResult, RingResult), ReproduceError> {
    let (load, m) = uniform::model_at(nodes, &PacketMix::PAPER, 0.2, fraction)?;
    let m = m.nodes[0];
    let e = ring::poisson_uniform(&RingRun::new(nodes, warmup, measure), load)?;
    Ok((load, m, e))
}

/// Runs the experiment; `quick` runs two loads, shorter windows and one large ring.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    let (warmup, measure) = uniform::window(quick);
    let fractions: &[f64] = if quick {
        &[0.3, 0.8]
    } else {
        &[0.2, 0.4, 0.6, 0.8]
    };
    let mut curve = Curve {
        title: "Fig. 14: latency parts (ns) vs throughput per node (bytes/ns), model and emulated"
            .into(),
        columns: [
            "nodes",
            "fraction_of_saturation",
            "throughput",
            "model_fixed_ns",
            "model_transit_ns",
            "model_idle_source_ns",
            "model_total_ns",
            "fixed_ns",
            "transit_ns",
            "idle_source_wait_ns",
            "total_ns",
        ]
        .map(String::from)
        .to_vec(),
        rows: Vec::new(),
    };
    let mut tables = Vec::new();
    // Per ring size, at the heaviest load: (ring-buffer delay, source wait) emulated.
    let mut heavy: Vec<(u32, f64, f64)> = Vec::new();
    for nodes in [4u32, 16] {
        let mut t = Table {
            title: format!("Fig. 14 R={nodes}: latency parts, model against emulation"),
            ..Table::default()
        };
        for &f in fractions {
            let (_, m, e) = point(nodes, f, warmup, measure)?;
            let model = model_parts(&m);
            let emu = emulated_parts(&e);
            curve.rows.push(curve_row(nodes, f, &e, &model, &emu));
            if f == fractions[fractions.len() - 1] {
                heavy.push((nodes, emu[1] - emu[0], emu[4]));
            }
            let at = |what: &str| format!("R={nodes}, {:.0} % of saturation: {what}", f * 100.0);
            // SCI §4.1: the model underestimates latency on 16 nodes under moderate to
            // heavy load; there it is a lower bound (as in `sci-uniform`).
            let bound = if nodes == 16 && f >= 0.5 {
                Tolerance::AtLeast(0.0)
            } else {
                Tolerance::Relative(ACCURATE)
            };
            t.rows.push(
                Row::new(
                    at("Fixed"),
                    model[0],
                    "App. A model",
                    emu[0],
                    "ns",
                    Tolerance::Relative(SAMPLED),
                )
                .note("wire, switching and length: only the destinations and mix drawn differ"),
            );
            t.rows.push(
                Row::new(at("Transit"), model[1], "App. A model", emu[1], "ns", bound)
                    .note("Fixed + ring-buffer delay"),
            );
            t.rows.push(
                Row::new(
                    at("wait for a break"),
                    model[2],
                    "App. A model",
                    emu[2],
                    "ns",
                    Tolerance::Relative(ACCURATE),
                )
                .note("mean over all packets: (1 − ρ) w, against emu's idle-source part")
                .expected_miss(WAIT_MISS),
            );
            t.rows.push(
                Row::new(at("Total"), model[3], "App. A model", emu[3], "ns", bound)
                    .note("mean latency, creation to consumption"),
            );
        }
        t.notes.push(format!(
            "Poisson arrivals at a fraction of the model's saturation throughput per node, \
             uniform destinations, 20 % 64-byte data packets, no flow control, unlimited \
             active buffers; {measure} measured cycles after {warmup}. Emulated parts are \
             means over every measured packet, recorded at its target."
        ));
        tables.push(t);
    }
    tables.push(findings(
        &heavy, fractions, quick, warmup, measure, &mut curve,
    )?);
    Ok(Report {
        curves: vec![curve],
        experiment: "sci-latency-breakdown".into(),
        section: "SCI §4.8".into(),
        tables,
    })
}

/// The paper's three findings, on the emulated parts: at the heaviest load the source
/// wait outweighs the ring-buffer delay on 4 and 16 nodes; the ring-buffer delay grows
/// relative to the source wait from 4 to 16 nodes; and on a 64-node ring the fixed delay
/// is more than half the latency away from saturation.
fn findings(
    heavy: &[(u32, f64, f64)],
    fractions: &[f64],
    quick: bool,
    warmup: u64,
    measure: u64,
    curve: &mut Curve,
) -> Result<Table, ReproduceError> {
    let top = fractions[fractions.len() - 1] * 100.0;
    let mut t = Table {
        title: "SCI §4.8's findings, on the emulated parts".into(),
        ..Table::default()
    };
    for &(nodes, ring, source) in heavy {
        t.rows.push(
            Row::new(
                format!(
                    "R={nodes}, {top:.0} % of saturation: source wait against ring-buffer delay"
                ),
                ring,
                "ring-buffer delay (emulated)",
                source,
                "ns",
                Tolerance::AtLeast(0.0),
            )
            .note(
                "\"Much of the latency under heavy loads is due to waiting in the source queues\"",
            ),
        );
    }
    let ratio = |&(_, ring, source): &(u32, f64, f64)| ring / source;
    if let [small, large] = heavy {
        t.rows.push(
            Row::new(
                format!("{top:.0} % of saturation: ring-buffer delay / source wait, R=16 against R=4"),
                ratio(small),
                "R=4 (emulated)",
                ratio(large),
                "ratio",
                Tolerance::AtLeast(0.0),
            )
            .note("\"Delay due to buffer backlog becomes more significant relative to source queueing delay as the ring size is increased from 4 to 16\""),
        );
    }
    let large: &[f64] = if quick { &[0.5] } else { &[0.5, 0.8] };
    for &f in large {
        let (_, m, e) = point(64, f, warmup, measure)?;
        let emu = emulated_parts(&e);
        let model = model_parts(&m);
        curve.rows.push(curve_row(64, f, &e, &model, &emu));
        t.rows.push(
            Row::new(
                format!("R=64, {:.0} % of saturation: Fixed share of the latency", f * 100.0),
                50.0,
                "more than half",
                100.0 * emu[0] / emu[3],
                "%",
                Tolerance::AtLeast(0.0),
            )
            .note("\"For very large rings, transmission delay becomes dominant except when the ring is very close to saturation\""),
        );
    }
    t.notes.push(
        "Source wait = Total − Transit (source queue and idle-source wait); ring-buffer delay = \
         Transit − Fixed."
            .into(),
    );
    Ok(t)
}
