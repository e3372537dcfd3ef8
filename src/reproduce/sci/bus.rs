//! `sci-bus`: the SCI ring against a conventional bus (SCI §4.6, Fig. 12).
//!
//! The paper compares the ring with "a simple M/G/1 bus model. The model assumes no
//! overhead for arbitration, and single-cycle synchronous transmission in 32-bit chunks",
//! for 4 and 16 nodes under 80 % 16-byte address and 20 % 80-byte data packets, as the
//! bus cycle time varies. It prints no values, only findings: at the ring's own cycle
//! time (2 ns) the bus "would clearly provide better performance"; at 4 ns "latency is
//! still lower when lightly loaded, but the maximum throughput is also lower"; and "the
//! SCI ring provides far greater bandwidth and lower latency than a bus of comparable
//! width running at 20 ns or slower" (a typical bus: 30 ns).
//!
//! The bus is computed here ([`Bus`]): every node's packets share one queue (Poisson,
//! so M/G/1), a packet of `b` bytes occupies the bus `b / 4` cycles, and its latency is
//! its wait (Pollaczek-Khinchine) plus that service time. The ring is the emulated SCI
//! ring (no flow control, unlimited active buffers, uniform destinations). Readings of
//! the words, written before the runs: "better" and "lower" compare the two values
//! directly; "lightly loaded" is a total throughput of 5 % of the ring's saturation
//! throughput, on both; "far greater bandwidth" is at least twice.

use super::super::ReproduceError;
use super::super::table::{Curve, Report, Row, Table, Tolerance};
use super::ring::{self, RingRun};
use crate::parts::sci::PacketMix;

/// Bytes one bus cycle carries: "32-bit chunks".
const CHUNK_BYTES: f64 = 4.0;

/// "Lightly loaded": this share of the ring's saturation throughput.
const LIGHT: f64 = 0.05;

/// The M/G/1 bus of SCI §4.6 at one cycle time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bus {
    /// Bus cycle time in ns.
    pub cycle_ns: f64,
}

impl Bus {
    /// The packet sizes in bytes and their shares under `mix` (a 16-bit symbol is 2
    /// bytes, SCI §2.1).
    fn packets(mix: &PacketMix) -> impl Iterator<Item = (f64, f64)> {
        mix.kinds()
            .into_iter()
            .map(|(symbols, share)| (2.0 * f64::from(symbols), share))
    }

    /// Mean bytes per packet under `mix`.
    fn mean_bytes(mix: &PacketMix) -> f64 {
        Bus::packets(mix).map(|(b, f)| f * b).sum()
    }

    /// Mean and second moment of a packet's service time in ns: one cycle per 32-bit
    /// chunk.
    pub fn service(&self, mix: &PacketMix) -> (f64, f64) {
        Bus::packets(mix).fold((0.0, 0.0), |(m1, m2), (bytes, share)| {
            let s = (bytes / CHUNK_BYTES).ceil() * self.cycle_ns;
            (m1 + share * s, m2 + share * s * s)
        })
    }

    /// Most bytes per ns the bus carries (every cycle a chunk).
    pub fn max_throughput(&self) -> f64 {
        CHUNK_BYTES / self.cycle_ns
    }

    /// Mean latency in ns (wait plus service) at a total throughput of `bytes_per_ns`,
    /// or `None` at or past saturation.
    pub fn latency(&self, mix: &PacketMix, bytes_per_ns: f64) -> Option<f64> {
        let rate = bytes_per_ns / Bus::mean_bytes(mix);
        let (s1, s2) = self.service(mix);
        let rho = rate * s1;
        (rho < 1.0).then(|| rate * s2 / (2.0 * (1.0 - rho)) + s1)
    }
}

/// Runs the experiment; `quick` runs a shorter window and fewer curve points.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    let (warmup, measure) = if quick {
        (10_000, 60_000)
    } else {
        (20_000, 300_000)
    };
    let mix = PacketMix::PAPER;
    let cycles = [2.0, 4.0, 20.0, 30.0];
    let mut tables = Vec::new();
    let mut curves = Vec::new();
    for nodes in [4u32, 16] {
        let r = RingRun::new(nodes, warmup, measure);
        let saturation = ring::saturated_uniform(&r)?.total();
        let light_total = LIGHT * saturation;
        let light = ring::poisson_uniform(&r, light_total / f64::from(nodes))?.latency_ns();
        let mut t = Table {
            title: format!("Fig. 12 R={nodes}: the SCI ring (emulated) against an M/G/1 bus"),
            ..Table::default()
        };
        for &cycle_ns in &cycles {
            let bus = Bus { cycle_ns };
            let bus_light = bus.latency(&mix, light_total).unwrap_or(f64::INFINITY);
            let bus_max = bus.max_throughput();
            let at = |what: &str| format!("R={nodes}, {cycle_ns} ns bus: {what}");
            // What the paper says of a bus of this cycle time: ring latency against the
            // bus's, and ring bandwidth against the bus's times a factor.
            let (latency, latency_note, factor, bandwidth, bandwidth_note) = if cycle_ns <= 2.0 {
                (
                    Tolerance::AtLeast(0.0),
                    "same cycle time: the bus \"would clearly provide better performance\" (ring ≥ bus)",
                    1.0,
                    Tolerance::AtMost(0.0),
                    "same cycle time: the bus is better (ring ≤ bus)",
                )
            } else if cycle_ns <= 4.0 {
                (
                    Tolerance::AtLeast(0.0),
                    "\"latency is still lower when lightly loaded\" (ring ≥ bus)",
                    1.0,
                    Tolerance::AtLeast(0.0),
                    "\"but the maximum throughput is also lower\" (ring ≥ bus)",
                )
            } else {
                (
                    Tolerance::AtMost(0.0),
                    "\"lower latency than a bus ... at 20 ns or slower\" (ring ≤ bus)",
                    2.0,
                    Tolerance::AtLeast(0.0),
                    "\"far greater bandwidth\", read as at least twice",
                )
            };
            let source = if factor == 1.0 {
                "M/G/1 bus"
            } else {
                "twice the M/G/1 bus"
            };
            let latency = Row::new(
                at("light-load latency"),
                bus_light,
                "M/G/1 bus",
                light,
                "ns",
                latency,
            )
            .note(latency_note);
            let bandwidth = Row::new(
                at("maximum throughput"),
                factor * bus_max,
                source,
                saturation,
                "bytes/ns",
                bandwidth,
            )
            .note(bandwidth_note);
            t.rows.push(latency);
            t.rows.push(bandwidth);
        }
        t.notes.push(format!(
            "Ring: emulated, no flow control, unlimited active buffers, uniform destinations, \
             80 % address / 20 % 64-byte data packets; saturation {saturation:.3} bytes/ns in \
             total (every node always sending), light load {light_total:.4} bytes/ns in total \
             (Poisson); {measure} measured cycles after {warmup}. Bus: M/G/1, every node's \
             packets in one queue, 4 or 20 cycles a packet (16 and 80 bytes in 32-bit chunks), \
             latency = wait + service."
        ));
        tables.push(t);
        curves.push(curve(nodes, &r, &mix, &cycles, saturation, quick)?);
    }
    Ok(Report {
        curves,
        experiment: "sci-bus".into(),
        section: "SCI §4.6".into(),
        tables,
    })
}

/// Fig. 12's curves: mean latency (ns) against total throughput (bytes/ns), the
/// emulated ring at fractions of its saturation and each bus from light load to 95 % of
/// its own.
fn curve(
    nodes: u32,
    r: &RingRun,
    mix: &PacketMix,
    cycles: &[f64],
    saturation: f64,
    quick: bool,
) -> Result<Curve, ReproduceError> {
    let mut columns = vec!["system".to_string(), "cycle_ns".to_string()];
    columns.extend(["throughput", "latency_ns"].map(String::from));
    let mut rows = Vec::new();
    let fractions: &[f64] = if quick {
        &[0.2, 0.6]
    } else {
        &[0.1, 0.3, 0.5, 0.7, 0.8, 0.9]
    };
    for &f in fractions {
        let e = ring::poisson_uniform(r, f * saturation / f64::from(nodes))?;
        rows.push(vec![0.0, 2.0, e.total(), e.latency_ns()]);
    }
    for &cycle_ns in cycles {
        let bus = Bus { cycle_ns };
        for k in 1..=19 {
            let x = bus.max_throughput() * f64::from(k) * 0.05;
            if let Some(l) = bus.latency(mix, x) {
                rows.push(vec![1.0, cycle_ns, x, l]);
            }
        }
    }
    Ok(Curve {
        title: format!(
            "Fig. 12 R={nodes}: mean latency (ns) vs total throughput (bytes/ns); system 0 = \
             the emulated ring, 1 = the M/G/1 bus"
        ),
        columns,
        rows,
    })
}
