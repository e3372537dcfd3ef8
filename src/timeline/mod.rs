//! A watched run's packets as a timeline in the Trace Event Format (`{"traceEvents":
//! […]}`), which Perfetto UI and chrome://tracing open (book/src/observing.md
//! "Timelines").
//!
//! - One process per node (named as the report names it), one track per port and
//!   direction: `port 3 out → c104[5]:7` holds the packets that left on port 3,
//!   `port 2 in ← …` the packets delivered or held there. Packets that overlap in time
//!   on one port (interleaved virtual channels, a packet waiting while another leaves)
//!   go on extra lanes of the port (`port 3 out (2)`).
//! - One slice per packet per node, named after the packet (`3→7 #12.0`), from its
//!   arrival (at its source: its creation) to its last token leaving, split into what
//!   the journey record says happened there: the time before the node's waits
//!   (`source queue` at the source; `route`, `bypass` or `output scheduling`
//!   elsewhere), the waits themselves (`input wait`, `output wait`; `idle source`,
//!   `ring buffer`; `credit wait`, `crosspoint`) and the `transfer` over the link.
//!   A delivered packet ends in a `deliver` slice on its destination's input, a packet
//!   still inside a node when the run ended in a `held` slice.
//! - A flow arrow links a packet's slices in order.
//! - Counters per port (`port 3 credit`, `port 3 buffered`, `port 0 ring buffer`) where
//!   the protocol has them.
//!
//! Same records, same bytes: events are written in a fixed order whatever the engine.

mod lanes;

use crate::model::{LinkProtocol, PacketId};
use crate::network::Network;
use crate::observe::NodeRecord;
use crate::time::Tick;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// What a timeline holds, for the line the run prints. Packets are counted as the
/// report counts them: the answers travelling back (a DS-Link acknowledge, an SCI
/// echo) apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimelineSummary {
    /// Distinct packets with at least one slice, answers not included.
    pub packets: usize,
    /// Of those, packets delivered in it (a `deliver` slice).
    pub delivered: usize,
    /// Distinct answers with at least one slice.
    pub answers: usize,
    /// True if some node sent a token that starts a packet, in the window or not:
    /// false when the protocol shows no packets to an observer at all.
    pub packets_seen: bool,
    /// Packet slices at nodes (hops, deliveries, held packets).
    pub slices: usize,
    /// Trace events written.
    pub events: usize,
}

/// One slice of a packet on a track, before lanes are assigned.
struct Slice {
    node: usize,
    port: usize,
    /// 0: out, 1: in.
    dir: usize,
    packet: PacketId,
    start: Tick,
    end: Tick,
    /// Child slices (name, start, end), in order.
    parts: Vec<(&'static str, Tick, Tick)>,
    args: Value,
}

/// The Trace Event Format document of `records` (from a run of `net` that ended at
/// `end_tick`), and what it holds.
pub fn timeline<P: LinkProtocol>(
    net: &Network<P>,
    records: &[NodeRecord],
    end_tick: Tick,
) -> (String, TimelineSummary) {
    let us = |t: Tick| round_us(net.time().ticks_to_us(t as f64));
    let mut slices = Vec::new();
    for r in records {
        let last = r.last_tick.max(end_tick);
        for h in &r.hops {
            let end = h.end.unwrap_or(last);
            let waited: Tick = h.waits.iter().map(|w| w.1).sum();
            let before = h.start.saturating_sub(waited).max(h.arrived);
            let mut parts = Vec::new();
            if before > h.arrived {
                parts.push((h.rest, h.arrived, before));
            }
            let mut at = before;
            for &(name, ticks) in &h.waits {
                let to = (at + ticks).min(h.start);
                if to > at && !name.is_empty() {
                    parts.push((name, at, to));
                }
                at = to;
            }
            parts.push(("transfer", h.start, end));
            slices.push(Slice {
                node: r.node,
                port: h.out,
                dir: 0,
                packet: h.packet,
                start: h.arrived,
                end,
                parts,
                args: json!({
                    "packet": h.packet.name_as(P::ANSWER),
                    "from_port": h.input,
                    "to_port": h.out,
                    h.rest: h.start.saturating_sub(waited).saturating_sub(h.arrived),
                    h.waits[0].0: h.waits[0].1,
                    h.waits[1].0: h.waits[1].1,
                    "transfer": end - h.start,
                    "complete": h.end.is_some(),
                }),
            });
        }
        for a in &r.arrivals {
            slices.push(Slice {
                node: r.node,
                port: a.input,
                dir: 1,
                packet: a.packet,
                start: a.first,
                end: a.last,
                parts: vec![("deliver", a.first, a.last)],
                args: json!({ "packet": a.packet.name_as(P::ANSWER), "delivered": true }),
            });
        }
        for h in &r.held {
            slices.push(Slice {
                node: r.node,
                port: h.input,
                dir: 1,
                packet: h.packet,
                start: h.arrived,
                end: last,
                parts: vec![("held", h.arrived, last)],
                args: json!({ "packet": h.packet.name_as(P::ANSWER), "held_at_end": true }),
            });
        }
    }
    let lanes = lanes::assign(&slices);
    let mut events: Vec<Value> = Vec::new();
    // Track names, in node and port order.
    let tracks: BTreeSet<(usize, usize, usize, usize)> = slices
        .iter()
        .zip(&lanes)
        .map(|(s, &lane)| (s.node, s.port, s.dir, lane))
        .collect();
    let ports = net.port_map();
    let directions = net.directions();
    let name_of = |node: usize| net.nodes()[node].name.clone();
    let mut named_nodes = BTreeSet::new();
    for r in records {
        if !(r.hops.is_empty() && r.arrivals.is_empty() && r.held.is_empty() && r.gauges.is_empty())
        {
            named_nodes.insert(r.node);
        }
    }
    for &node in &named_nodes {
        events.push(
            json!({"ph": "M", "name": "process_name", "pid": node + 1, "tid": 0,
            "args": {"name": name_of(node)}}),
        );
        events.push(
            json!({"ph": "M", "name": "process_sort_index", "pid": node + 1, "tid": 0,
            "args": {"sort_index": node}}),
        );
    }
    for &(node, port, dir, lane) in &tracks {
        let wires = ports[node].get(port).copied().unwrap_or_default();
        let peer = if dir == 0 {
            wires.out.map(|d| directions[d].to)
        } else {
            wires.inp.map(|d| directions[d].from)
        };
        let peer = peer.map_or(String::new(), |e| {
            format!(
                " {} {}:{}",
                if dir == 0 { "→" } else { "←" },
                name_of(e.node),
                e.port
            )
        });
        let tid = tid(port, dir, lane);
        let lane = if lane == 0 {
            String::new()
        } else {
            format!(" ({})", lane + 1)
        };
        let name = format!(
            "port {port} {}{peer}{lane}",
            if dir == 0 { "out" } else { "in" }
        );
        events.push(
            json!({"ph": "M", "name": "thread_name", "pid": node + 1, "tid": tid,
            "args": {"name": name}}),
        );
        events.push(
            json!({"ph": "M", "name": "thread_sort_index", "pid": node + 1, "tid": tid,
            "args": {"sort_index": tid}}),
        );
    }
    // Slices, in track and time order; flows in each packet's time order.
    let mut order: Vec<usize> = (0..slices.len()).collect();
    order.sort_by_key(|&i| {
        let s = &slices[i];
        (s.node, s.port, s.dir, lanes[i], s.start, s.end, s.packet)
    });
    for &i in &order {
        let s = &slices[i];
        let (pid, tid) = (s.node + 1, tid(s.port, s.dir, lanes[i]));
        events.push(
            json!({"ph": "X", "name": s.packet.name_as(P::ANSWER), "cat": "packet",
            "pid": pid, "tid": tid, "ts": us(s.start), "dur": round_us(us(s.end) - us(s.start)),
            "args": s.args}),
        );
        for &(name, a, b) in &s.parts {
            events.push(
                json!({"ph": "X", "name": name, "cat": "journey", "pid": pid,
                "tid": tid, "ts": us(a), "dur": round_us(us(b) - us(a))}),
            );
        }
    }
    let mut by_packet: BTreeMap<PacketId, Vec<usize>> = BTreeMap::new();
    for (i, s) in slices.iter().enumerate() {
        by_packet.entry(s.packet).or_default().push(i);
    }
    for (flow, (packet, ids)) in by_packet.iter_mut().enumerate() {
        ids.sort_by_key(|&i| (slices[i].start, slices[i].dir, slices[i].end));
        if ids.len() < 2 {
            continue;
        }
        for (k, &i) in ids.iter().enumerate() {
            let s = &slices[i];
            let ph = if k == 0 {
                "s"
            } else if k + 1 == ids.len() {
                "f"
            } else {
                "t"
            };
            let mut e = json!({"ph": ph, "name": packet.name_as(P::ANSWER), "cat": "packet", "id": flow + 1,
                "pid": s.node + 1, "tid": tid(s.port, s.dir, lanes[i]), "ts": us(s.start)});
            if ph == "f" {
                e["bp"] = json!("e");
            }
            events.push(e);
        }
    }
    for r in records {
        for g in &r.gauges {
            events.push(
                json!({"ph": "C", "name": format!("port {} {}", g.port, g.name),
                "pid": r.node + 1, "ts": us(g.tick), "args": {g.name: g.value}}),
            );
        }
    }
    let answers = by_packet.keys().filter(|p| p.answer).count();
    let summary = TimelineSummary {
        packets: by_packet.len() - answers,
        delivered: records
            .iter()
            .flat_map(|r| r.arrivals.iter().map(|a| a.packet))
            .filter(|p| !p.answer)
            .collect::<BTreeSet<_>>()
            .len(),
        answers,
        packets_seen: records.iter().any(|r| r.packets_seen),
        slices: slices.len(),
        events: events.len(),
    };
    let doc = json!({
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {
            "generator": format!("emu {}", env!("CARGO_PKG_VERSION")),
            "network": net.name(),
            "tick_ns": net.time().tick_ns,
            "packets": summary.packets,
            "packets_delivered": summary.delivered,
            "answers": summary.answers,
        },
    });
    (doc.to_string(), summary)
}

/// A track's thread id: port, direction and lane.
fn tid(port: usize, dir: usize, lane: usize) -> usize {
    1 + (port * 2 + dir) * lanes::MAX_LANES + lane
}

/// Microseconds rounded to the picosecond, so that sums print without noise.
fn round_us(us: f64) -> f64 {
    (us * 1e6).round() / 1e6
}
