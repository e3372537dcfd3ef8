//! `c104-contention`: throughput and delay of one C104 whose inputs send packets to
//! random outputs (INMOS ch. 6 §6.3, Figures 6.7-6.14).
//!
//! The model (§6.3.2-6.3.4): in slots of S, each of `in` inputs submits a packet to one
//! of `out` outputs at random; one packet per requested output succeeds, so an input's
//! throughput is T = (1 − (1 − 1/out)^in) / S × r k and a packet's mean delay
//! D = S / (r (1 − (1 − 1/out)^in)), with r = out / in; D_lim = 1.582 S at r = 1 (§6.3.5).
//!
//! The emulator runs one C104 with a T9000 on each link; inputs `0..in` send
//! single-packet messages continuously (saturation, acknowledges off), each to one of
//! terminals `0..out` at random, itself included (footnote 20). T is payload bits
//! delivered per input per second in the measurement window. D is measured the way the
//! model defines it: a saturated input always has a packet submitted, and the next is
//! submitted when it has crossed, so the mean time a submitted packet takes to cross is
//! the window divided by the packets each input delivered (Little's law; hence D·T = k,
//! as in the model).
//!
//! Differences, each explained in the report:
//! - The slot. The paper's S = h + k'b charges the 500 ns header time to every slot.
//!   The emulated C104 routes a queued packet's header while the packet ahead of it is
//!   still leaving (the header waits in the input buffer, and wire and routing delay
//!   overlap the previous packet), so in saturation the slot is the packet's wire time
//!   W = 10 s + 10 k/8 + 4 bit periods: in = 1, out = 32 gives W to 0.2 %. The analytic
//!   column uses S = W; the notes give the paper's S.
//! - Flow control. Where a terminal also receives (in = out), each direction of its
//!   link carries one FCT per 8 tokens of the other (INMOS ch. 6 §6.1.2), about 5 % of the
//!   wire, which the §6.3 slot does not count: in = out = 1 comes out 5 % low.
//! - Head-of-line blocking. The model discards the losers and draws fresh destinations
//!   every slot; the C104 keeps a blocked packet at the head of its input with the same
//!   destination, and it blocks the packet behind it. For many links this lowers the
//!   saturation throughput from 1 − 1/e = 0.632 to 2 − √2 = 0.586 (−7 %): it shows
//!   with long packets.
//! - Buffering. A C104 input buffers 20 tokens and each output a whole packet, and an
//!   output takes the next packet as soon as the previous terminator has crossed into
//!   its buffer. A short packet crosses the crossbar almost at once and frees its input
//!   while the output link is still sending it, so contention costs less than a slot:
//!   short packets do better than the model.
//!
//! Tolerance ±15 %: over the sweep these effects stay within −9 % .. +14 % (the
//! largest: 8-byte packets, out = 32, in = 16, where whole packets sit in the buffers),
//! plus the sampling error of a random-destination run (at least 300 packets per input
//! in the full sweep).

use super::ReproduceError;
use super::setups::{self, Spec};
use super::table::{Report, Row, Table, Tolerance};
use crate::parts::dslink::token::DATA_TOKEN_BITS;
use crate::time::Tick;
use crate::traffic::{Destination, Injection};

/// The C104 header time of INMOS ch. 6 §6.3.6 (h ≈ 500 ns), in ticks.
const HEADER_TIME: Tick = 50;

/// Tolerance on T and D: head-of-line blocking and unsynchronised slots (see above).
const TOLERANCE: f64 = 0.15;

/// p(use) = 1 − (1 − 1/out)^in (INMOS ch. 6 §6.3.2).
pub fn p_use(inputs: u32, outputs: u32) -> f64 {
    1.0 - (1.0 - 1.0 / f64::from(outputs)).powi(inputs as i32)
}

/// T = p(use) / S × r k in bits per slot unit (INMOS ch. 6 §6.3.4).
pub fn throughput(inputs: u32, outputs: u32, k_bits: f64, slot: f64) -> f64 {
    let r = f64::from(outputs) / f64::from(inputs);
    p_use(inputs, outputs) / slot * r * k_bits
}

/// D = S / (r p(use)) (INMOS ch. 6 §6.3.4).
pub fn delay(inputs: u32, outputs: u32, slot: f64) -> f64 {
    let r = f64::from(outputs) / f64::from(inputs);
    slot / (r * p_use(inputs, outputs))
}

/// The paper's slot S = h + k'b in ticks: k' = 1.25k + 4 with 1-byte headers, plus 10
/// for a second header byte (INMOS ch. 6 §6.3.1, §6.3.6).
pub fn paper_slot(bytes: u32, s: u32) -> f64 {
    HEADER_TIME as f64 + 10.0 * f64::from(bytes) + 4.0 + 10.0 * f64::from(s - 1)
}

/// The one-way link latency the set-up uses (ticks), part of the paper's h.
const WIRE: Tick = 20;

/// The emulated switch's slot in saturation: the packet's wire time W (header, data,
/// terminator); routing overlaps the packet ahead.
pub fn emulated_slot(bytes: u32, s: u32) -> f64 {
    10.0 * f64::from(s + bytes) + 4.0
}

/// One saturated run: (T in Mbit/s per input, D in ticks).
fn emulate(
    inputs: u32,
    outputs: u32,
    bytes: u32,
    s: u32,
    measure: Tick,
) -> Result<(f64, f64), ReproduceError> {
    let warmup = 20 * emulated_slot(bytes, s) as Tick + 2000;
    let mut spec = Spec::new(bytes, Injection::Continuous);
    spec.wire = WIRE;
    spec.header_bytes = s;
    spec.max_data_bytes = bytes;
    spec.acknowledge = false;
    spec.window = (setups::START + warmup, setups::START + warmup + measure);
    let terminals = inputs.max(outputs);
    let routing = HEADER_TIME - Tick::from(s) * DATA_TOKEN_BITS - spec.wire;
    let net = setups::star(
        &spec,
        terminals,
        inputs,
        Destination::AnyOf { count: outputs },
        routing,
        s + bytes + 1,
    )?;
    let out = setups::run(&net)?;
    let delivered: u64 = out
        .terminals
        .iter()
        .map(|t| t.counters.bytes_delivered_in_window)
        .sum();
    let packets = delivered as f64 / f64::from(bytes);
    let t = setups::mbit_s(delivered as f64 / measure as f64 / f64::from(inputs));
    let d = measure as f64 * f64::from(inputs) / packets;
    Ok((t, d))
}

fn t_row(inputs: u32, outputs: u32, bytes: u32, s: u32, t: f64) -> Row {
    let k = 8.0 * f64::from(bytes);
    let analytic = setups::mbit_s(throughput(inputs, outputs, k, emulated_slot(bytes, s)) / 8.0);
    let paper = setups::mbit_s(throughput(inputs, outputs, k, paper_slot(bytes, s)) / 8.0);
    Row::new(
        format!("in={inputs} out={outputs} {bytes} B s={s}"),
        analytic,
        "§6.3.4 T",
        t,
        "Mbit/s",
        Tolerance::Relative(TOLERANCE),
    )
    .note(format!("with the paper's S (h = 500 ns): {paper:.2}"))
}

/// Runs the experiment; `quick` runs a few points over shorter windows.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    let measure: Tick = if quick { 20_000 } else { 100_000 };
    let slots: Tick = if quick { 60 } else { 300 };
    let square: &[u32] = if quick {
        &[4, 32]
    } else {
        &[1, 2, 4, 8, 16, 32]
    };
    let sizes: &[u32] = if quick {
        &[8, 64]
    } else {
        &[8, 16, 32, 64, 128, 256]
    };
    let mut tables = Vec::new();
    let mut t_rows = Vec::new();
    let mut d_rows = Vec::new();
    for s in [1, 2] {
        for &bytes in sizes {
            for &n in square {
                let long = measure.max(slots * emulated_slot(bytes, s) as Tick);
                let (t, d) = emulate(n, n, bytes, s, long)?;
                t_rows.push(t_row(n, n, bytes, s, t));
                let slot = emulated_slot(bytes, s);
                d_rows.push(
                    Row::new(
                        format!("in=out={n} {bytes} B s={s}"),
                        delay(n, n, slot) * setups::TICK_NS / 1000.0,
                        "§6.3.4 D",
                        d * setups::TICK_NS / 1000.0,
                        "µs",
                        Tolerance::Relative(TOLERANCE),
                    )
                    .note(format!(
                        "with the paper's S: {:.3}",
                        delay(n, n, paper_slot(bytes, s)) * setups::TICK_NS / 1000.0
                    )),
                );
            }
        }
    }
    tables.push(Table {
        title: "in = out, throughput per input link vs packet size (Figure 6.7)".into(),
        rows: t_rows,
        notes: vec![
            "set-up: one C104, a T9000 on each link, inputs 0..in saturated with single-packet \
             messages, each to a random terminal among 0..out (itself included), no \
             acknowledges, 20-token input buffers, one packet of output buffer, h = 500 ns"
                .into(),
            "analytic S = the packet's wire time: the emulated C104 routes a queued header while \
             the packet ahead leaves (in = 1, out = 32 matches it to 0.2 %); the paper's \
             S = 500 ns + k'b is in the note"
                .into(),
            "in = out = 1 is 5 % low: the terminal receives its own packets, so each direction \
             of its link carries one FCT per 8 tokens of the other (§6.1.2), which the slot \
             model does not count; every in = out row carries that cost"
                .into(),
            "long packets come out lower than the model: a blocked packet keeps its destination \
             and blocks its input (head-of-line blocking), which the model's fresh random choice \
             each slot ignores; short packets come out higher: the 20-token input buffer and the \
             packet-sized output buffer let a short packet cross at once and free its input while \
             the output still sends it"
                .into(),
        ],
    });
    tables.push(Table {
        title: "in = out, mean packet delay vs packet size (Figure 6.8)".into(),
        rows: d_rows,
        notes: vec![
            "emulated D = window × in / packets delivered: the mean time a submitted packet takes \
             to cross a saturated input (Little's law), so D·T = k as in the model"
                .into(),
        ],
    });
    for outputs in [32, 8] {
        let ins: &[u32] = if quick {
            &[4, 32]
        } else {
            &[1, 2, 4, 8, 12, 16, 24, 32]
        };
        let cases: &[(u32, u32)] = match (quick, outputs) {
            (true, _) => &[(32, 1)],
            (false, 32) => &[(8, 1), (32, 1), (128, 1), (32, 2)],
            (false, _) => &[(32, 1), (32, 2)],
        };
        let mut rows = Vec::new();
        for &(bytes, s) in cases {
            for &i in ins {
                let long = measure.max(slots * emulated_slot(bytes, s) as Tick);
                let (t, _) = emulate(i, outputs, bytes, s, long)?;
                let r = f64::from(outputs) / f64::from(i);
                let k = 8.0 * f64::from(bytes);
                let lim = (1.0 - (-1.0 / r).exp()) / emulated_slot(bytes, s) * r * k;
                let row = t_row(i, outputs, bytes, s, t);
                let note = format!(
                    "{}; asymptote T_lim {:.2}",
                    row.note,
                    setups::mbit_s(lim / 8.0)
                );
                rows.push(row.note(note));
            }
        }
        tables.push(Table {
            title: format!(
                "out = {outputs}, throughput per input vs inputs used (Figures 6.{})",
                if outputs == 32 { "9, 6.11" } else { "13" }
            ),
            rows,
            notes: vec![
                "the note also gives §6.3.5's T_lim = (1 − e^(−1/r)) / S × r k; D mirrors T (D·T = k), \
                 so Figures 6.10, 6.12 and 6.14 are the reciprocals"
                    .into(),
            ],
        });
    }
    // The asymptote D_lim = 1.582 S at r = 1 (§6.3.5), in slots.
    let (_, d) = emulate(32, 32, 32, 1, measure)?;
    let slot = emulated_slot(32, 1);
    let rows = vec![
        Row::new(
            "in = out = 32, 32 B, s=1: D / S",
            1.582,
            "§6.3.5 D_lim",
            d / slot,
            "slots",
            Tolerance::Relative(TOLERANCE),
        )
        .note(format!(
            "exact model at in = out = 32: {:.4}; head-of-line blocking bound for many links: \
             1/(2 − √2) = {:.4}",
            delay(32, 32, 1.0),
            1.0 / (2.0 - 2f64.sqrt())
        )),
    ];
    tables.push(Table {
        title: "Asymptote of the delay at r = 1 (§6.3.5)".into(),
        rows,
        notes: vec![],
    });
    Ok(Report {
        curves: Vec::new(),
        experiment: "c104-contention".into(),
        section: "INMOS ch. 6 §6.3.1-6.3.6".into(),
        tables,
    })
}
