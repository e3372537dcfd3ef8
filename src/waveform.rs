//! A watched link's two directions as a Value Change Dump (IEEE 1364 §18), the
//! waveform format GTKWave and every logic-simulation tool read (book/src/observing.md
//! "Waveforms").
//!
//! One scope per link direction, named after its sending and receiving ports
//! (`c104_0_p3__c104_1_p0`), holding:
//! - where the protocol defines a line code ([`crate::model::LineCode`]), its wires bit
//!   by bit: a DS-Link's `D` and `S`, one tick being one bit period, with null tokens
//!   filling the time between tokens as an idle link sends them;
//! - `kind`: the token on the wire, decoded (the protocol's kind code; 0 while nothing
//!   is sent, which on a DS-Link is a null), and `value`: what it carries (a DS-Link's
//!   byte, an SCI symbol's target or position, a fabric cell's output);
//! - `token`: the number of tokens started so far on the direction;
//! - the sending port's counters (a DS-Link's `credit`, the tokens it may still send).
//!
//! Times are in picoseconds from the start of the run. Same records, same bytes.

use crate::ids::End;
use crate::model::LinkProtocol;
use crate::network::Network;
use crate::observe::{GaugeSample, NodeRecord, WireToken};
use crate::time::Tick;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the waveform shows of one link direction, for the line the run prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectionSummary {
    /// Sending end, as the report names it (`c104[0]:3`).
    pub from: String,
    /// Receiving end.
    pub to: String,
    /// Tokens drawn.
    pub tokens: u64,
    /// Tokens the sending port had counted at the end of the run.
    pub counted: u64,
    /// True if the last token drawn was still on the wire when the dump ends: its
    /// bits after the end are not drawn.
    pub cut: bool,
    /// Gaps between tokens that idle units did not fill exactly (always 0 for a
    /// DS-Link, whose tokens start on a null's boundary).
    pub ragged_gaps: u64,
}

/// One VCD variable: its identifier code, width and last value written.
struct Var {
    code: String,
    width: u32,
    last: Option<u64>,
}

/// Value changes to write, by time in picoseconds.
type Changes = BTreeMap<u64, Vec<(usize, u64)>>;

/// The VCD of the directions sending from `ends` (each a watched port), from `records`
/// of a run of `net` that ended at `end_tick`, up to tick `to`.
///
/// The dump covers ticks `0..min(end_tick, to)`: time only increases, and the last
/// timestamp is the end of the run or of the window. A token still on the wire then
/// is drawn up to the end only ([`DirectionSummary::cut`]), and tokens that start
/// later are not drawn.
pub fn waveform<P: LinkProtocol>(
    net: &Network<P>,
    records: &[NodeRecord],
    ends: &[End],
    end_tick: Tick,
    to: Tick,
) -> (String, Vec<DirectionSummary>) {
    let stop = end_tick.min(to);
    let ps = |t: Tick| (t as f64 * net.time().tick_ns * 1000.0).round() as u64;
    let name = |e: End| format!("{}:{}", net.nodes()[e.node].name, e.port);
    let ports = net.port_map();
    let directions = net.directions();
    let mut vars: Vec<Var> = Vec::new();
    let mut header = String::new();
    let mut changes: Changes = BTreeMap::new();
    let mut summaries = Vec::new();
    let _ = writeln!(header, "$version emu {} $end", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(header, "$comment {} $end", net.name());
    let _ = writeln!(header, "$timescale 1ps $end");
    let _ = writeln!(header, "$scope module emu $end");
    for &end in ends {
        let Some(record) = records.iter().find(|r| r.node == end.node) else {
            continue;
        };
        let Some(peer) = ports[end.node]
            .get(end.port)
            .and_then(|w| w.out)
            .map(|d| directions[d].to)
        else {
            continue;
        };
        let tokens: Vec<&WireToken> = record.wires.iter().filter(|w| w.port == end.port).collect();
        let gauges: Vec<&GaugeSample> = record
            .wire_gauges
            .iter()
            .filter(|g| g.port == end.port)
            .collect();
        let scope = format!("{}__{}", ident(&name(end)), ident(&name(peer)));
        let _ = writeln!(header, "$scope module {scope} $end");
        let mut declare = |header: &mut String, width: u32, label: &str| {
            let code = code_of(vars.len());
            let kind = if width == 1 { "wire" } else { "reg" };
            let _ = writeln!(header, "$var {kind} {width} {code} {label} $end");
            vars.push(Var {
                code,
                width,
                last: None,
            });
            vars.len() - 1
        };
        let mut code = P::line_code();
        let wires: Vec<usize> = code
            .as_ref()
            .map(|c| {
                c.wires()
                    .iter()
                    .map(|w| declare(&mut header, 1, w))
                    .collect()
            })
            .unwrap_or_default();
        let kind = declare(&mut header, 8, "kind");
        let value = declare(&mut header, 16, "value");
        let count = declare(&mut header, 32, "token");
        let mut gauge_vars: BTreeMap<&str, usize> = BTreeMap::new();
        for g in &gauges {
            if !gauge_vars.contains_key(g.name) {
                let v = declare(&mut header, 32, &ident(g.name));
                gauge_vars.insert(g.name, v);
            }
        }
        let _ = writeln!(header, "$upscope $end");
        // Nothing at or after the end: the initial values at 0 always.
        let mut put = |t: Tick, var: usize, v: u64| {
            if t < stop || t == 0 {
                changes.entry(ps(t)).or_default().push((var, v));
            }
        };
        put(0, kind, 0);
        put(0, value, 0);
        put(0, count, 0);
        let mut ragged = 0;
        let mut at: Tick = 0;
        let mut cut = false;
        for (n, w) in tokens.iter().enumerate() {
            if w.start >= stop {
                break;
            }
            cut = w.start + w.view.ticks > stop;
            if let Some(c) = code.as_mut() {
                let unit = c.idle_ticks().max(1);
                let mut bits: Vec<bool> = Vec::new();
                let gap = w.start.saturating_sub(at);
                for _ in 0..gap / unit {
                    bits.extend(c.idle());
                }
                if gap % unit != 0 {
                    ragged += 1;
                }
                let skipped = gap - bits.len() as Tick;
                bits.extend(c.token(&w.view));
                for (i, b) in bits.into_iter().enumerate() {
                    let t = at + skipped + i as Tick;
                    for (&var, level) in wires.iter().zip(c.levels(b)) {
                        put(t, var, u64::from(level));
                    }
                }
            }
            put(w.start, kind, u64::from(w.view.code));
            put(w.start, value, w.view.value);
            put(w.start, count, n as u64 + 1);
            at = w.start + w.view.ticks;
            if tokens.get(n + 1).is_none_or(|next| next.start > at) {
                // Nothing on the wire (a DS-Link sends nulls): the kind reads 0 until
                // the next token.
                put(at, kind, 0);
                put(at, value, 0);
            }
        }
        if let Some(c) = code.as_mut() {
            // Nulls until the end of the dump, the last one cut there.
            let unit = c.idle_ticks().max(1);
            let mut t = at;
            while t < stop {
                let idle = c.idle();
                for (i, b) in idle.into_iter().enumerate() {
                    for (&var, level) in wires.iter().zip(c.levels(b)) {
                        put(t + i as Tick, var, u64::from(level));
                    }
                }
                t += unit;
            }
        }
        for g in &gauges {
            put(g.tick, gauge_vars[g.name], g.value);
        }
        let drawn = tokens.iter().filter(|w| w.start < stop).count() as u64;
        summaries.push(DirectionSummary {
            from: name(end),
            to: name(peer),
            tokens: drawn,
            counted: record
                .sent
                .iter()
                .find(|(p, _)| *p == end.port)
                .map_or(0, |s| s.1),
            ragged_gaps: ragged,
            cut,
        });
    }
    let _ = writeln!(header, "$upscope $end");
    let _ = writeln!(header, "$enddefinitions $end");
    let mut body = String::new();
    let mut last = None;
    for (t, list) in changes {
        let mut line = String::new();
        for (var, v) in list {
            let var = &mut vars[var];
            if var.last == Some(v) {
                continue;
            }
            var.last = Some(v);
            if var.width == 1 {
                let _ = writeln!(line, "{v}{}", var.code);
            } else {
                let _ = writeln!(line, "b{v:b} {}", var.code);
            }
        }
        if !line.is_empty() {
            let _ = writeln!(body, "#{t}");
            body += &line;
            last = Some(t);
        }
    }
    if last.is_none_or(|t| t < ps(stop)) {
        let _ = writeln!(body, "#{}", ps(stop));
    }
    (header + &body, summaries)
}

/// A VCD identifier code for variable `n`: printable ASCII from `!`, base 94.
pub fn code_of(mut n: usize) -> String {
    let mut s = String::new();
    loop {
        s.push(char::from(b'!' + (n % 94) as u8));
        n /= 94;
        if n == 0 {
            return s;
        }
    }
}

/// A name as a VCD identifier: letters, digits and `_` only.
pub fn ident(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect::<String>()
        .trim_matches('_')
        .replace("__", "_")
}
