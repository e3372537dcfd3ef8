//! `dslink-bandwidth`: outbound user-data throughput of one DS-Link against message
//! size, with every packet acknowledged (INMOS ch. 6 §6.1.1-6.1.5,
//! Figures 6.1-6.4, Table 6.1).
//!
//! The emulated value is the steady-state throughput of two T9000s joined by one link,
//! measured by [`setups::batch_period`]. §6.1 is a bound on throughput: it counts the
//! bits a message costs on the outbound wire and assumes the wire is never idle, so the
//! emulator runs 16 virtual channels at once to keep acknowledge latency off the wire
//! (INMOS ch. 6 §6.2.3: "When many virtual channels are active simultaneously on a link, the
//! VCP ensures that the link is never idle").
//!
//! The formulas round the flow-control tokens up per message
//! (n_ft = ⌈n_dt/8⌉, "rounded up for the purposes of the model"); a real link, and the
//! emulator, sends one FCT per 8 tokens of the whole stream, so n_dt/8 per message on
//! average — the form §6.1.3 uses for the asymptotes. Rows are compared with that
//! unrounded form; the note gives the paper's rounded value where it differs.

use super::ReproduceError;
use super::setups::{self, Spec};
use super::table::{Report, Row, Table, Tolerance};
use crate::traffic::Injection;

/// Link direction use: data one way, or equal data both ways (INMOS ch. 6 §6.1.1 / §6.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Usage {
    /// Data on the outbound link only (acknowledges come back inbound).
    Unidirectional,
    /// The same data flow both ways.
    Bidirectional,
}

impl Usage {
    fn short(self) -> &'static str {
        match self {
            Usage::Unidirectional => "uni",
            Usage::Bidirectional => "bi",
        }
    }
}

/// Outbound bits per message, B, of INMOS ch. 6 §6.1.1 (unidirectional) or §6.1.2
/// (bidirectional), for m bytes split into packets of at most `max_packet` bytes with
/// s-byte headers. `round_fct` applies the paper's n_ft = ⌈n_dt / 8⌉; otherwise n_dt / 8.
pub fn outbound_bits(m: u32, s: u32, max_packet: u32, usage: Usage, round_fct: bool) -> f64 {
    let m = f64::from(m);
    let s = f64::from(s);
    let np = (m / f64::from(max_packet)).ceil().max(1.0);
    let (bd, ndt) = match usage {
        Usage::Unidirectional => (10.0 * m + (10.0 * s + 4.0) * np, (s + 1.0) * np),
        Usage::Bidirectional => (
            10.0 * m + 2.0 * (10.0 * s + 4.0) * np,
            m + 2.0 * (s + 1.0) * np,
        ),
    };
    let nft = if round_fct {
        (ndt / 8.0).ceil()
    } else {
        ndt / 8.0
    };
    bd + 4.0 * nft
}

/// Data rate D = 8m / B × 100 Mbit/s (INMOS ch. 6 §6.1.1, §6.1.2).
pub fn data_rate(m: u32, s: u32, max_packet: u32, usage: Usage, round_fct: bool) -> f64 {
    8.0 * f64::from(m) / outbound_bits(m, s, max_packet, usage, round_fct) * 100.0
}

/// The asymptotes of INMOS ch. 6 §6.1.3: 51200 / (649 + 21s) and 25600 / (345 + 21s) Mbit/s.
pub fn asymptote(s: u32, usage: Usage) -> f64 {
    let s = f64::from(s);
    match usage {
        Usage::Unidirectional => 51200.0 / (649.0 + 21.0 * s),
        Usage::Bidirectional => 25600.0 / (345.0 + 21.0 * s),
    }
}

/// Channels active at once: enough that acknowledge latency never idles the link.
const CHANNELS: u32 = 16;

/// Emulated outbound data rate in Mbit/s for messages of `m` bytes.
pub fn emulated_rate(
    m: u32,
    s: u32,
    max_packet: u32,
    usage: Usage,
    bytes_target: u32,
) -> Result<f64, ReproduceError> {
    let dk = (bytes_target.div_ceil(m.max(1)))
        .max(16)
        .next_multiple_of(8);
    let k1 = 2 * CHANNELS;
    let make = |k: u32| {
        let mut spec = Spec::new(m, Injection::Batch(k));
        spec.header_bytes = s;
        spec.max_data_bytes = max_packet;
        spec.channels = CHANNELS;
        setups::pair(&spec, [true, usage == Usage::Bidirectional])
    };
    let period = setups::batch_period(make, k1, k1 + dk)?;
    Ok(setups::mbit_s(f64::from(m) / period))
}

/// Runs the experiment; `quick` samples fewer message sizes over shorter runs.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    let target = if quick { 2048 } else { 16384 };
    let small: Vec<u32> = if quick {
        vec![1, 2, 5, 8, 16, 31, 32, 33, 64, 65, 96, 97, 128]
    } else {
        (1..=128).collect()
    };
    let large_i: Vec<u32> = if quick {
        vec![8]
    } else {
        vec![4, 8, 16, 32, 64]
    };
    let mut tables = Vec::new();
    for s in [1, 2] {
        for usage in [Usage::Unidirectional, Usage::Bidirectional] {
            let mut rows = Vec::new();
            let mut sizes = small.clone();
            for i in &large_i {
                sizes.push(32 * i);
                sizes.push(32 * i + 1);
            }
            for m in sizes {
                let exact = data_rate(m, s, 32, usage, false);
                let paper = data_rate(m, s, 32, usage, true);
                let emu = emulated_rate(m, s, 32, usage, target)?;
                let mut row = Row::new(
                    format!("m={m}"),
                    exact,
                    "§6.1 eq. (n_ft=n_dt/8)",
                    emu,
                    "Mbit/s",
                    Tolerance::Relative(0.01),
                );
                if (paper - exact).abs() > 0.0005 * exact {
                    row = row.note(format!(
                        "paper's ⌈n_dt/8⌉ gives {:.3} ({:+.2}%)",
                        paper,
                        100.0 * (paper - emu) / emu
                    ));
                }
                rows.push(row);
            }
            tables.push(Table {
                title: format!(
                    "{}-byte headers, {} (Figures 6.{}, 6.{}): outbound data rate vs message size m",
                    s,
                    if usage == Usage::Unidirectional {
                        "unidirectional"
                    } else {
                        "bidirectional"
                    },
                    if s == 1 { 1 } else { 3 },
                    if s == 1 { 2 } else { 4 },
                ),
                rows,
                notes: vec![],
            });
        }
    }
    // Table 6.1 asymptotes, and the single-packet limits of §6.1.5.
    let mut rows = Vec::new();
    let published = [
        (1, Usage::Unidirectional, 9.55),
        (1, Usage::Bidirectional, 8.74),
        (2, Usage::Unidirectional, 9.26),
        (2, Usage::Bidirectional, 8.27),
    ];
    let m_asym = if quick { 256 } else { 2048 };
    for (s, usage, table) in published {
        let emu = emulated_rate(m_asym, s, 32, usage, target.max(4 * m_asym))? / 8.0;
        rows.push(
            Row::new(
                format!("s={s} {} m={m_asym}", usage.short()),
                table,
                "Table 6.1",
                emu,
                "Mbyte/s",
                Tolerance::Relative(0.01),
            )
            .note(format!(
                "§6.1.3 asymptote {:.4}; m a multiple of 256 makes n_dt/8 whole, so the \
                 finite-m rate equals the asymptote",
                asymptote(s, usage) / 8.0
            )),
        );
    }
    let m_single = if quick { 4096 } else { 16384 };
    for (usage, limit) in [(Usage::Unidirectional, 80.0), (Usage::Bidirectional, 76.19)] {
        let emu = emulated_rate(m_single, 1, 65_536, usage, 4 * m_single)?;
        rows.push(
            Row::new(
                format!("single packet, s=1 {} m={m_single}", usage.short()),
                limit,
                "§6.1.5 limit",
                emu,
                "Mbit/s",
                Tolerance::Relative(0.01),
            )
            .note(format!(
                "§6.1 eq. at this m: {:.3}",
                data_rate(m_single, 1, 65_536, usage, false)
            )),
        );
    }
    tables.push(Table {
        title: "Table 6.1 asymptotes (32-byte packets) and unsplit-message limits".into(),
        rows,
        notes: vec![],
    });
    if let Some(t) = tables.first_mut() {
        t.notes.push(format!(
            "set-up: two T9000s, one link (20-token buffers, FCT per 8, 200 ns each way), \
             32-byte packets, every packet acknowledged, {CHANNELS} channels active; emulated = \
             steady-state rate from two batch runs (difference of completion times)"
        ));
    }
    Ok(Report {
        curves: Vec::new(),
        experiment: "dslink-bandwidth".into(),
        section: "INMOS ch. 6 §6.1".into(),
        tables,
    })
}
