//! The observing wrapper: a node that passes every call to the part inside it and
//! records what crosses its ports.

use super::{Arrival, GaugeSample, Held, Hop, NodeRecord, Recorder, WireToken};
use crate::ids::PortId;
use crate::model::{
    Gauge, LinkProtocol, ModelError, Node, Outbox, PacketId, PartStats, TokenView, Wait,
};
use crate::terminal::TerminalStats;
use crate::time::Tick;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// How many packets delivered here are remembered, for the answers (acknowledges,
/// echoes) this node then sends: an answer's time here starts when its packet arrived.
const REMEMBERED: usize = 4096;

/// A node that records what crosses its ports, then passes the call to `inner`
/// (see [`super`]).
pub struct Observed<P: LinkProtocol> {
    inner: Box<dyn Node<P>>,
    watcher: Watcher,
    /// The counters last seen per port, for the timeline (when counters are watched).
    gauges: Vec<Vec<Gauge>>,
    /// The counters last seen per port, for the waveform (watched ports only).
    wire_gauges: Vec<Vec<Gauge>>,
    /// True once the counters have been sampled inside the window.
    sampled: bool,
    scratch: Vec<Gauge>,
    /// What was handed over ahead of its due tick ([`LinkProtocol::RECEIVE_AHEAD`]):
    /// (arrival, port, view), recorded at the step of its due tick, as it would be
    /// if handed over then.
    heard: VecDeque<(Tick, PortId, TokenView)>,
}

impl<P: LinkProtocol> Observed<P> {
    /// `inner`, node `node` with `ports` ports, recording into `recorder`.
    pub fn new(
        inner: Box<dyn Node<P>>,
        node: usize,
        ports: usize,
        recorder: Arc<Recorder>,
    ) -> Observed<P> {
        let terminal = recorder.terminal_of.get(node).copied().flatten();
        let watched = (0..ports)
            .map(|p| recorder.watch.wires.contains(&(node, p)))
            .collect();
        Observed {
            inner,
            watcher: Watcher {
                recorder,
                terminal,
                watched,
                rx: vec![None; ports],
                tx: vec![None; ports],
                pending: HashMap::new(),
                delivered: VecDeque::new(),
                record: NodeRecord {
                    node,
                    ..NodeRecord::default()
                },
            },
            gauges: vec![Vec::new(); ports],
            wire_gauges: vec![Vec::new(); ports],
            sampled: false,
            scratch: Vec::new(),
            heard: VecDeque::new(),
        }
    }

    /// Records the ports' counters that changed since the last step (all of them at
    /// the first step inside the window).
    fn sample_gauges(&mut self, now: Tick) {
        let w = &self.watcher.recorder.watch;
        if !(w.gauges && w.packets && now >= w.from && now <= w.to) {
            return;
        }
        for port in 0..self.gauges.len() {
            self.scratch.clear();
            P::gauges(&self.inner.port_counters(port), &mut self.scratch);
            let all = !self.sampled;
            record_changes(
                &self.watcher.recorder,
                &mut self.gauges[port],
                &mut self.scratch,
                all,
                (port, now),
                &mut self.watcher.record.gauges,
            );
        }
        self.sampled = true;
    }

    /// Records the watched ports' tokens sent so far and their counters' changes
    /// (from the start of the run to the window's end).
    fn sample_wires(&mut self, now: Tick) {
        for port in 0..self.watcher.watched.len() {
            if !self.watcher.watched[port] {
                continue;
            }
            let counters = self.inner.port_counters(port);
            let sent = P::sent(&counters);
            let record = &mut self.watcher.record;
            match record.sent.iter_mut().find(|(p, _)| *p == port) {
                Some(s) => s.1 = sent,
                None => record.sent.push((port, sent)),
            }
            if now > self.watcher.recorder.watch.to {
                continue;
            }
            self.scratch.clear();
            P::gauges(&counters, &mut self.scratch);
            record_changes(
                &self.watcher.recorder,
                &mut self.wire_gauges[port],
                &mut self.scratch,
                false,
                (port, now),
                &mut record.wire_gauges,
            );
        }
    }
}

/// Pushes onto `out` each counter of `fresh` (a port's, at tick `at.1`) that differs
/// from `last`, or every one if `all`, while the recorder admits them; `fresh` then
/// becomes `last` (and `fresh` the old values, to reuse).
fn record_changes(
    recorder: &Recorder,
    last: &mut Vec<Gauge>,
    fresh: &mut Vec<Gauge>,
    all: bool,
    (port, tick): (PortId, Tick),
    out: &mut Vec<GaugeSample>,
) {
    for (i, &(name, value)) in fresh.iter().enumerate() {
        let before = last.get(i).map(|g| g.1);
        if (all || before != Some(value)) && recorder.admit(tick) {
            out.push(GaugeSample {
                port,
                tick,
                name,
                value,
            });
        }
    }
    std::mem::swap(last, fresh);
}

/// The packet a port is receiving.
#[derive(Clone, Copy, Debug)]
struct Receiving {
    packet: PacketId,
    first: Tick,
}

/// A packet that arrived here and has not yet started out again.
#[derive(Clone, Copy, Debug)]
struct Pending {
    arrived: Tick,
    input: PortId,
    waits: [u32; 2],
}

/// The records of one node; dropping it hands them to the recorder.
struct Watcher {
    recorder: Arc<Recorder>,
    /// The terminal this node hosts.
    terminal: Option<u32>,
    /// Per port: its sent tokens are kept for a waveform.
    watched: Vec<bool>,
    /// Per port: the packet arriving on it.
    rx: Vec<Option<Receiving>>,
    /// Per port: the packet leaving on it.
    tx: Vec<Option<Hop>>,
    pending: HashMap<PacketId, Pending>,
    /// Packets delivered here lately, with the tick their first token arrived.
    delivered: VecDeque<(PacketId, Tick)>,
    record: NodeRecord,
}

impl Watcher {
    fn received(&mut self, now: Tick, port: PortId, v: &TokenView) {
        if !self.recorder.watch.packets {
            return;
        }
        if let Some(tag) = v.starts {
            let packet = tag.id;
            self.rx[port] = Some(Receiving { packet, first: now });
            if Some(packet.to()) == self.terminal {
                if self.delivered.len() == REMEMBERED {
                    self.delivered.pop_front();
                }
                self.delivered.push_back((packet, now));
            } else {
                self.pending.insert(
                    packet,
                    Pending {
                        arrived: now,
                        input: port,
                        waits: tag.waits.map(|w| w.1),
                    },
                );
            }
        }
        if v.ends
            && let Some(r) = self.rx[port].take()
            && Some(r.packet.to()) == self.terminal
            && self.keeps(r.packet, r.first, now)
            && self.recorder.admit(now)
        {
            self.record.arrivals.push(Arrival {
                packet: r.packet,
                input: port,
                first: r.first,
                last: now,
            });
        }
    }

    fn sent(&mut self, port: PortId, v: &TokenView, at: Tick) {
        let start = at.saturating_sub(v.ticks);
        let w = &self.recorder.watch;
        if self.watched[port] && start <= w.to && self.recorder.admit(at) {
            self.record.wires.push(WireToken {
                port,
                start,
                view: *v,
            });
        }
        if !self.recorder.watch.packets {
            return;
        }
        if let Some(tag) = v.starts {
            self.record.packets_seen = true;
            let (arrived, input, before, rest) = match self.pending.remove(&tag.id) {
                Some(p) => (p.arrived, Some(p.input), p.waits, tag.transit),
                None => (
                    self.origin(tag.id, tag.created, start),
                    None,
                    [0; 2],
                    tag.origin,
                ),
            };
            let waits = [0, 1].map(|i| {
                let (name, total) = tag.waits[i];
                (name, u64::from(total.saturating_sub(before[i])))
            });
            self.tx[port] = Some(Hop {
                packet: tag.id,
                input,
                out: port,
                arrived,
                start,
                end: None,
                waits,
                rest,
            });
        }
        if v.ends
            && let Some(mut hop) = self.tx[port].take()
        {
            hop.end = Some(at);
            if self.keeps(hop.packet, hop.arrived, at) && self.recorder.admit(at) {
                self.record.hops.push(hop);
            }
        }
    }

    /// Where a packet starting here began: its creation, or for an answer the arrival
    /// of the packet it answers (never after it starts out).
    fn origin(&self, packet: PacketId, created: Tick, start: Tick) -> Tick {
        if !packet.answer {
            return created.min(start);
        }
        let answered = PacketId {
            answer: false,
            ..packet
        };
        self.delivered
            .iter()
            .rev()
            .find(|(p, _)| *p == answered)
            .map_or(start, |&(_, t)| t.min(start))
    }

    fn keeps(&self, packet: PacketId, from: Tick, to: Tick) -> bool {
        let w = &self.recorder.watch;
        w.selects(packet.src, packet.dst) && w.overlaps(from, to)
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let last = self.record.last_tick;
        let open: Vec<Hop> = self.tx.iter_mut().filter_map(Option::take).collect();
        for hop in open {
            if self.keeps(hop.packet, hop.arrived, last) && self.recorder.admit(last) {
                self.record.hops.push(hop);
            }
        }
        let mut held: Vec<Held> = self
            .pending
            .drain()
            .map(|(packet, p)| Held {
                packet,
                input: p.input,
                arrived: p.arrived,
            })
            .collect();
        held.sort_by_key(|h| (h.arrived, h.input, h.packet));
        let w = &self.recorder.watch;
        held.retain(|h| w.selects(h.packet.src, h.packet.dst) && w.overlaps(h.arrived, last));
        self.record.held = held;
        let record = std::mem::take(&mut self.record);
        self.recorder.lock().push(record);
    }
}

impl<P: LinkProtocol> Node<P> for Observed<P> {
    fn receive(&mut self, now: Tick, port: PortId, token: P::Token) -> Result<(), ModelError> {
        P::views(&token, |offset, v| {
            self.heard.push_back((now + offset, port, v))
        });
        self.inner.receive(now, port, token)
    }

    /// The inner node runs one tick a step, whatever the window, so that its counters
    /// are sampled at every tick.
    fn step(&mut self, now: Tick, out: &mut Outbox<P::Token>) -> Result<Option<Tick>, ModelError> {
        // What is due by now, in the order handed over: port by port, each in order.
        let watcher = &mut self.watcher;
        self.heard.retain(|(arrival, port, v)| {
            let now_due = arrival.saturating_add(P::RECEIVE_DELAY) <= now;
            if now_due {
                watcher.received(*arrival, *port, v);
            }
            !now_due
        });
        let before = out.emits.len();
        let window_end = std::mem::replace(&mut out.window_end, now + 1);
        let next = self.inner.step(now, out);
        out.window_end = window_end;
        for e in &out.emits[before..] {
            P::views(&e.token, |offset, v| {
                self.watcher.sent(e.port, &v, e.at + offset)
            });
        }
        self.watcher.record.last_tick = now;
        self.sample_gauges(now);
        self.sample_wires(now);
        next
    }

    fn port_counters(&self, port: PortId) -> P::Counters {
        self.inner.port_counters(port)
    }

    fn waits(&self) -> Vec<Wait> {
        self.inner.waits()
    }

    fn enable_checks(&mut self) {
        self.inner.enable_checks();
    }

    fn expect_link_faults(&mut self) {
        self.inner.expect_link_faults();
    }

    fn terminal_stats(&self) -> Option<&TerminalStats> {
        self.inner.terminal_stats()
    }

    fn into_terminal_stats(self: Box<Self>) -> Option<TerminalStats> {
        let Observed { inner, .. } = *self;
        inner.into_terminal_stats()
    }

    fn part_stats(&self) -> Option<PartStats> {
        self.inner.part_stats()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Recorder, Watch};
    use super::*;
    use crate::model::Stamp;
    use crate::model::testkit::Driver;
    use crate::parts::dslink::{DsLink, PortCounters, token::Token};
    use std::collections::VecDeque;

    /// A protocol-less stand-in for a switch: passes what arrives on port 0 to port 1
    /// back to back, adding 5 ticks of input wait and 7 of output wait to each
    /// packet's journey; or, `holding`, keeps everything.
    #[derive(Default)]
    struct Passer {
        queue: VecDeque<Token>,
        busy: Tick,
        holding: bool,
    }

    impl Node<DsLink> for Passer {
        fn receive(&mut self, _now: Tick, _port: PortId, token: Token) -> Result<(), ModelError> {
            self.queue.push_back(token);
            Ok(())
        }

        fn step(&mut self, now: Tick, out: &mut Outbox<Token>) -> Result<Option<Tick>, ModelError> {
            while !self.holding
                && let Some(mut t) = self.queue.pop_front()
            {
                t.cross(5, 7);
                let start = self.busy.max(now);
                self.busy = start + t.bits();
                out.send(1, t, self.busy);
            }
            Ok(None)
        }

        fn port_counters(&self, _port: PortId) -> PortCounters {
            PortCounters::default()
        }

        fn waits(&self) -> Vec<Wait> {
            Vec::new()
        }
    }

    fn stamp() -> Stamp {
        to(2)
    }

    /// Message 3 from terminal 1 to `dst`, created at tick 40.
    fn to(dst: u32) -> Stamp {
        Stamp {
            src: 1,
            dst,
            seq: 3,
            created: 40,
            ..Stamp::default()
        }
    }

    fn watch() -> Watch {
        Watch {
            packets: true,
            gauges: false,
            from: 0,
            to: Tick::MAX,
            terminals: None,
            wires: [(0, 1)].into_iter().collect(),
            limit: 100,
        }
    }

    /// Drives `node` (node 0 of a network whose terminals sit at `terminals`) with a
    /// three-token packet arriving on port 0 at ticks 100, 110 and 114, and returns
    /// what was recorded.
    fn drive(node: Passer, terminals: &[usize], w: Watch) -> super::super::NodeRecord {
        drive_to(node, terminals, w, stamp())
    }

    /// [`drive`] with a packet of stamp `s`.
    fn drive_to(node: Passer, terminals: &[usize], w: Watch, s: Stamp) -> super::super::NodeRecord {
        let rec = Arc::new(Recorder::new(w, 1, terminals));
        let mut d = Driver::new(Observed::<DsLink>::new(
            Box::new(node),
            0,
            2,
            Arc::clone(&rec),
        ));
        d.arrive(100, 0, Token::data(9, s));
        d.arrive(110, 0, Token::data_only(1));
        d.arrive(114, 0, Token::end_only(true));
        d.run_until(200).expect("runs");
        drop(d);
        rec.take().pop().expect("the node's record")
    }

    #[test]
    fn a_packet_crossing_a_node_is_one_hop_with_what_the_node_added() {
        let r = drive(Passer::default(), &[], watch());
        assert_eq!(r.hops.len(), 1);
        let h = &r.hops[0];
        assert_eq!(h.packet.name(), "1→2 #3.0");
        assert_eq!((h.input, h.out), (Some(0), 1));
        assert_eq!(h.arrived, 100, "its first token arrived at 100");
        assert_eq!(h.start, 100, "and left at once");
        // Head 100–110, data 110–120, EOM 120–124.
        assert_eq!(h.end, Some(124));
        assert_eq!(h.waits, [("input wait", 5), ("output wait", 7)]);
        assert_eq!(h.rest, "route");
        assert!(r.arrivals.is_empty() && r.held.is_empty());
        let kinds: Vec<&str> = r.wires.iter().map(|w| w.view.kind).collect();
        assert_eq!(kinds, ["data", "data", "eom"], "the watched port's tokens");
        assert_eq!(r.wires[2].start, 120);
    }

    #[test]
    fn a_packet_for_the_nodes_terminal_is_an_arrival_and_one_kept_is_held() {
        let keeper = || Passer {
            holding: true,
            ..Passer::default()
        };
        // Node 0 hosts terminal 0, the packet's destination: delivered, 100 to 114.
        let r = drive_to(keeper(), &[0], watch(), to(0));
        assert_eq!(r.arrivals.len(), 1);
        assert_eq!((r.arrivals[0].first, r.arrivals[0].last), (100, 114));
        assert!(r.held.is_empty());
        // A node without the destination that never passes it on still holds it.
        let r = drive(keeper(), &[], watch());
        assert!(r.arrivals.is_empty());
        assert_eq!(r.held.len(), 1);
        assert_eq!((r.held[0].arrived, r.held[0].input), (100, 0));
    }

    #[test]
    fn the_window_and_the_terminal_selection_keep_only_what_they_name() {
        let late = Watch {
            from: 500,
            to: 600,
            ..watch()
        };
        let r = drive(Passer::default(), &[], late);
        assert!(r.hops.is_empty());
        assert!(r.packets_seen, "a packet was seen, outside the window");
        let other = Watch {
            terminals: Some([7].into_iter().collect()),
            ..watch()
        };
        assert!(drive(Passer::default(), &[], other).hops.is_empty());
        let mine = Watch {
            terminals: Some([2].into_iter().collect()),
            ..watch()
        };
        assert_eq!(drive(Passer::default(), &[], mine).hops.len(), 1);
    }

    #[test]
    fn recording_stops_at_the_limit_and_says_when() {
        let rec = Arc::new(Recorder::new(
            Watch {
                limit: 2,
                ..watch()
            },
            1,
            &[],
        ));
        let mut d = Driver::new(Observed::<DsLink>::new(
            Box::new(Passer::default()),
            0,
            2,
            Arc::clone(&rec),
        ));
        d.arrive(100, 0, Token::data(9, stamp()));
        d.arrive(114, 0, Token::end_only(true));
        d.run_until(200).expect("runs");
        drop(d);
        // The watched port's two counters at its first step, then the head on the
        // wire, at 110: the third record.
        assert_eq!(rec.overflowed(), Some(110));
    }
}
