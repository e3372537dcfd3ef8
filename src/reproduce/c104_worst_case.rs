//! `c104-worst-case`: the longest a packet can wait in one C104
//! (INMOS ch. 6 §6.3.7).
//!
//! 32 inputs send a packet each to the same output at the same instant (one of them
//! the output's own link, footnote 20), with 2-byte headers and 37-token packets (a
//! 2-byte routing header, a 2-byte virtual channel header and 32 data bytes, then the
//! terminator). The unlucky packet waits for the 31 others; its delay runs "from the
//! header arriving on an input link of the C104 to the time that the header is
//! transmitted from the chosen output link". The paper's total is
//! (L_header + 31 × L_packet) × 100 ns + 4 × 20 ns + link latency, "about 115 µs".
//!
//! The emulator measures, for the last packet delivered, the tick its header started on
//! the output link less the tick its header's first bit reached the switch: its EOM
//! arrival, less the packet's 36 × 10 + 4 bit periods and the wire, less its injection
//! and the wire in. The first packet's delay (header reception and routing only) checks
//! the method.

use super::ReproduceError;
use super::setups::{self, Spec};
use super::table::{Report, Row, Table, Tolerance};
use crate::time::Tick;
use crate::traffic::{Destination, Injection};

/// Routing decision and arbitration: "about 60ns" (INMOS ch. 6 §6.3.7), in ticks.
const ROUTING: Tick = 6;
/// Header bytes (the worst case of §6.3.7).
const HEADER: u32 = 2;
/// Bytes after the routing header: a 2-byte virtual channel header and 32 data bytes.
const BODY: u32 = 34;
/// Inputs contending for the output.
const INPUTS: u32 = 32;

/// The paper's total in ns: (L_header + 31 L_packet) × 100 ns + 4 × 20 ns, every token
/// counted as 100 ns (INMOS ch. 6 §6.3.7), without the link latency it calls small.
pub fn paper_total_ns() -> f64 {
    let l_packet = f64::from(HEADER + BODY + 1);
    (f64::from(HEADER) + 31.0 * l_packet) * 100.0 + 4.0 * 20.0
}

/// FCTs the switch sends on the output link while the packet that arrived on that same
/// link (footnote 20) comes in: its receiver keeps `buffer` tokens granted, so
/// ⌊(packet + buffer) / 8⌋ − ⌊buffer / 8⌋ after the reset grant (INMOS ch. 6 §6.2.1). They
/// share the output wire with the data going out (INMOS ch. 6 §6.1.2); §6.3.7 leaves them out.
pub fn own_link_fcts(packet_tokens: u32, buffer: u32, batch: u32) -> u32 {
    (packet_tokens + buffer) / batch - buffer / batch
}

/// The §6.3.7 sum with each token at its real length (data 100 ns, terminator 40 ns):
/// the header received, routed (60 ns), then 31 whole packets on the output link, plus
/// the 40 ns FCTs of [`own_link_fcts`].
pub fn exact_total_ns() -> f64 {
    let packet = f64::from(HEADER + BODY) * 100.0 + 40.0;
    f64::from(HEADER) * 100.0 + ROUTING as f64 * 10.0 + 31.0 * packet + fct_ns()
}

fn fct_ns() -> f64 {
    40.0 * f64::from(own_link_fcts(HEADER + BODY + 1, 20, 8))
}

/// Runs the experiment (it is small: `quick` changes nothing).
pub fn run(_quick: bool) -> Result<Report, ReproduceError> {
    let mut spec = Spec::new(BODY, Injection::Batch(1));
    spec.header_bytes = HEADER;
    spec.max_data_bytes = BODY;
    spec.acknowledge = false;
    let packet_tokens = HEADER + BODY + 1;
    let net = setups::star(
        &spec,
        INPUTS,
        INPUTS,
        Destination::Fixed(0),
        ROUTING,
        packet_tokens,
    )?;
    let out = setups::run(&net)?;
    if !out.complete {
        return Err(ReproduceError::PacketsUndelivered);
    }
    let lat = &out.terminals[0].network_latency;
    if lat.count() != u64::from(INPUTS) {
        return Err(ReproduceError::PacketCount {
            arrived: lat.count(),
            expected: INPUTS,
        });
    }
    let tail = Tick::from(HEADER + BODY) * 10 + 4; // header start to terminator end
    let header_delay = |latency: u64| (latency - tail - 2 * spec.wire) as f64 * setups::TICK_NS;
    let unlucky = header_delay(lat.max);
    let lucky = header_delay(lat.min);
    let rows = vec![
        Row::new(
            "unlucky packet (32nd), header in → header out",
            115.0,
            "§6.3.7 text",
            unlucky / 1000.0,
            "µs",
            Tolerance::Relative(0.03),
        )
        .note(format!(
            "paper's sum {:.2} µs counts every token as 100 ns; ±3 %: the 31 terminators are \
             40 ns, not 100 (1.6 %), and the text says \"about\"",
            paper_total_ns() / 1000.0
        )),
        Row::new(
            "unlucky packet, same sum with real token lengths",
            exact_total_ns() / 1000.0,
            "§6.3.7 sum",
            unlucky / 1000.0,
            "µs",
            Tolerance::Absolute(0.08),
        )
        .note(format!(
            "includes {} FCTs ({:.0} ns) the output link carries for the packet that came in on \
             it; ±80 ns: the output link, idle before, finishes the null token in progress",
            own_link_fcts(HEADER + BODY + 1, 20, 8),
            fct_ns()
        )),
        Row::new(
            "first packet (own link), header in → header out",
            (f64::from(HEADER) * 100.0 + ROUTING as f64 * 10.0 + fct_ns()) / 1000.0,
            "§6.3.7 header + 60 ns",
            lucky / 1000.0,
            "µs",
            Tolerance::Absolute(0.08),
        )
        .note(
            "the header's 2 tokens and the routing decision, plus the FCTs inside its own tail \
             (the measurement subtracts a tail without them); ±80 ns: the null in progress",
        ),
    ];
    Ok(Report {
        curves: Vec::new(),
        experiment: "c104-worst-case".into(),
        section: "INMOS ch. 6 §6.3.7".into(),
        tables: vec![Table {
            title: "32 packets for one output arriving together, 2-byte headers, 37-token packets"
                .into(),
            rows,
            notes: vec![
                "set-up: one C104 with 32 T9000s, all starting one 34-byte packet to terminal 0 \
                 at the same tick; routing 60 ns, links 200 ns each way, round-robin arbitration"
                    .into(),
            ],
        }],
    })
}
