//! Link faults in the engines (docs/architecture.md "Link faults"): which tokens a
//! dead link loses, and, when the run stops, which links died and which packets are
//! blocked behind them.
//!
//! The rule (emu's decision; the INMOS documents describe no disconnect detection): a
//! link that goes down at tick T is dead in both directions from T, like a cut cable:
//! every token whose arrival tick is ≥ T is lost. For a parity error T is the arrival
//! tick of the corrupted token, which is lost too. The parts are not told: a
//! transmitter keeps sending while it has credit, then waits for credit forever, and a
//! packet cut in half keeps its route through the switches open.
//!
//! Each end of a link keeps its own view ([`EndFault`]), touched only by the node that
//! owns the port, so no engine needs to share it between threads:
//!
//! - on sending (its *out* direction) it loses a token that would arrive at or after the
//!   tick it knows the link dead, and counts down the intact tokens of its direction;
//!   the token that finds the count at zero has the parity error: the end now knows the
//!   link dead from that token's arrival tick;
//! - on delivery (its *in* direction) it loses a token that arrives at or after that
//!   tick. It learns of its own parity error when it sends the token, at least one link
//!   latency before that token's arrival, so before it takes delivery of anything that
//!   arrives at or after it: the reverse direction dies at the same tick whatever the
//!   engine or thread count.
//!
//! The other end learns nothing; the tokens it sends are lost on delivery. With no fault
//! configured the engines keep no views at all, and a token costs one test of an
//! `Option`.

use super::EngineError;
use crate::deadlock::waitfor::{Place, edges};
use crate::model::{LinkProtocol, Wait, WaitReason, wait::describe_packet};
use crate::network::faults::NEVER;
use crate::network::{End, FaultPlan, Network, PortWires};
use crate::time::Tick;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

/// One port's view of its link's faults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndFault {
    /// The tick from which this end knows the link dead ([`NEVER`]: not known).
    dead_from: Tick,
    /// Tokens this end may still send intact before one has a parity error.
    intact: u64,
    /// The parity error of this end's direction: the token's number, counted from 1.
    parity: Option<u64>,
    /// Tokens this end lost: sent into the dead link, or arrived from it.
    lost: u64,
    /// Tokens sent into the link so far (lost ones included).
    sent: u64,
    /// Of the lost tokens, those whose loss lost their packet for good
    /// ([`crate::model::LinkProtocol::loses_packet`]).
    packets_lost: u64,
}

impl EndFault {
    /// The view of an unlinked port: nothing ever happens.
    const UNLINKED: EndFault = EndFault {
        dead_from: NEVER,
        intact: NEVER,
        parity: None,
        lost: 0,
        sent: 0,
        packets_lost: 0,
    };

    /// A token leaves this end and would arrive at `arrival`: true if it is lost.
    /// `ends` says whether losing it loses its packet
    /// ([`crate::model::LinkProtocol::loses_packet`]).
    #[inline]
    pub(super) fn lose_sent(&mut self, arrival: Tick, ends: bool) -> bool {
        self.sent += 1;
        if arrival >= self.dead_from {
            self.count_lost(ends);
            return true;
        }
        if self.intact == 0 {
            self.dead_from = arrival;
            self.parity = Some(self.sent);
            self.count_lost(ends);
            return true;
        }
        self.intact -= 1;
        false
    }

    /// A token arrives at this end at `arrival`: true if it is lost. `ends` as for
    /// [`Self::lose_sent`].
    #[inline]
    pub(super) fn lose_arrived(&mut self, arrival: Tick, ends: bool) -> bool {
        if arrival >= self.dead_from {
            self.count_lost(ends);
            return true;
        }
        false
    }

    /// Counts one lost token, and its packet if the token ended one.
    #[inline]
    fn count_lost(&mut self, ends: bool) {
        self.lost += 1;
        self.packets_lost += u64::from(ends);
    }

    /// Tokens this end lost so far.
    pub(super) fn lost(&self) -> u64 {
        self.lost
    }
}

/// Every port's view of node `node`, at the start of the run (ports without a link
/// never lose anything).
pub(super) fn views(plan: &FaultPlan, ports: &[PortWires]) -> Vec<EndFault> {
    ports
        .iter()
        .map(|w| match w.out {
            Some(d) => EndFault {
                dead_from: plan.down(d / 2),
                intact: plan.intact(d),
                ..EndFault::UNLINKED
            },
            None => EndFault::UNLINKED,
        })
        .collect()
}

/// One end of a link, named as the report names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LinkEnd {
    /// Node name, e.g. `c104[3]`.
    pub node: String,
    /// Port.
    pub port: usize,
}

impl fmt::Display for LinkEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} port {}", self.node, self.port)
    }
}

/// Why a link died.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum DeathCause {
    /// `faults.link_down` named it.
    Scheduled,
    /// A token had a parity error (`faults.token_error_rate`).
    ParityError {
        /// The end that sent the token.
        sender: LinkEnd,
        /// The token's number on that direction, counted from 1.
        token: u64,
    },
}

/// A link that died during the run.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct DeadLink {
    /// One end.
    pub a: LinkEnd,
    /// The other end.
    pub b: LinkEnd,
    /// The tick from which it was dead.
    pub since_tick: Tick,
    /// The same in µs.
    pub since_us: f64,
    /// Why.
    pub cause: DeathCause,
    /// Tokens lost on it, both directions.
    pub tokens_lost: u64,
}

impl fmt::Display for DeadLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "link {} ↔ {} dead since tick {} ({:.3} µs): ",
            self.a, self.b, self.since_tick, self.since_us
        )?;
        match &self.cause {
            DeathCause::Scheduled => write!(f, "scheduled (faults.link_down)")?,
            DeathCause::ParityError { sender, token } => {
                write!(f, "parity error on token {token} sent by {sender}")?
            }
        }
        write!(f, "; {} tokens lost", self.tokens_lost)
    }
}

/// What the link faults did in a run, for the report (`faults` in the JSON).
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FaultReport {
    /// The probability of a parity error per token.
    pub token_error_rate: f64,
    /// Links `faults.link_down` scheduled.
    pub scheduled: usize,
    /// The links that died, in link order.
    pub links_down: Vec<DeadLink>,
    /// Tokens lost on all of them.
    pub tokens_lost: u64,
    /// Packets lost for good on all of them (their last token was lost, so they never
    /// reach their terminal): no longer in flight. Not in the JSON.
    #[serde(skip)]
    pub packets_lost: u64,
}

impl FaultReport {
    /// The links that died by tick `now` (or lost a token), from every port's view
    /// (`views[node][port]`).
    pub(super) fn new<P: LinkProtocol>(
        net: &Network<P>,
        plan: &FaultPlan,
        views: &[Vec<EndFault>],
        now: Tick,
    ) -> FaultReport {
        let view = |e: End| {
            views
                .get(e.node)
                .and_then(|v| v.get(e.port))
                .copied()
                .unwrap_or(EndFault::UNLINKED)
        };
        let name = |e: End| LinkEnd {
            node: net.nodes()[e.node].name.clone(),
            port: e.port,
        };
        let mut links_down = Vec::new();
        let mut packets_lost = 0;
        for (i, l) in net.links().iter().enumerate() {
            let (va, vb) = (view(l.a), view(l.b));
            let since = va.dead_from.min(vb.dead_from);
            let lost = va.lost + vb.lost;
            packets_lost += va.packets_lost + vb.packets_lost;
            if since > now && lost == 0 {
                continue;
            }
            // The earlier parity error, the a end's if both at once; else scheduled.
            let cause = [(l.a, va), (l.b, vb)]
                .into_iter()
                .filter(|(_, v)| v.dead_from == since)
                .find_map(|(e, v)| {
                    v.parity.map(|token| DeathCause::ParityError {
                        sender: name(e),
                        token,
                    })
                })
                .unwrap_or(DeathCause::Scheduled);
            debug_assert!(since != NEVER || plan.down(i) != NEVER || lost > 0);
            links_down.push(DeadLink {
                a: name(l.a),
                b: name(l.b),
                since_tick: since,
                since_us: net.time().ticks_to_us(since as f64),
                cause,
                tokens_lost: lost,
            });
        }
        FaultReport {
            token_error_rate: plan.rate(),
            scheduled: plan.scheduled().len(),
            tokens_lost: links_down.iter().map(|l| l.tokens_lost).sum(),
            packets_lost,
            links_down,
        }
    }
}

/// The ends of every link dead by tick `now`.
pub(super) fn dead_ends<P: LinkProtocol>(
    net: &Network<P>,
    views: &[Vec<EndFault>],
    now: Tick,
) -> std::collections::HashSet<End> {
    let since = |e: End| {
        views
            .get(e.node)
            .and_then(|v| v.get(e.port))
            .map_or(NEVER, |v| v.dead_from)
    };
    net.links()
        .iter()
        .filter(|l| since(l.a).min(since(l.b)) <= now)
        .flat_map(|l| [l.a, l.b])
        .collect()
}

/// A packet blocked behind a dead link, where it is held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedPacket {
    /// The node holding it.
    pub node: String,
    /// What it waits for ([`Wait`]'s text: port, packet, reason).
    pub wait: String,
    /// The dead link's end it is behind: where the chain of waits ends.
    pub behind: String,
}

impl fmt::Display for BlockedPacket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}, behind {}", self.node, self.wait, self.behind)
    }
}

/// Packets shown in full in the error; the rest are counted.
pub(crate) const SHOWN: usize = 5;

/// The error of a run that stopped with packets blocked behind dead links (exit 5).
pub(super) fn blocked_error(
    tick: Tick,
    tick_ns: f64,
    in_flight: u64,
    report: FaultReport,
    blocked: Vec<BlockedPacket>,
) -> EngineError {
    EngineError::BlockedByFault {
        tick,
        us: tick as f64 * tick_ns / 1000.0,
        in_flight,
        links: report.links_down,
        blocked,
    }
}

/// The message of [`EngineError::BlockedByFault`].
pub(super) fn blocked_message(
    tick: Tick,
    us: f64,
    in_flight: u64,
    links: &[DeadLink],
    blocked: &[BlockedPacket],
) -> String {
    let links_text = format!(
        "{} dead link{}",
        links.len(),
        if links.len() == 1 { "" } else { "s" }
    );
    let mut s = if blocked.is_empty() {
        format!(
            "lost to a link fault at tick {tick} ({us:.3} µs): {in_flight} packets in flight; the run \
             ended with measured messages undelivered that no part holds: they were lost on \
             {links_text}"
        )
    } else {
        format!(
            "blocked by a link fault at tick {tick} ({us:.3} µs): {in_flight} packets in flight; {} \
             place{} hold packets blocked behind {links_text}",
            blocked.len(),
            if blocked.len() == 1 { "" } else { "s" },
        )
    };
    for l in links {
        s.push_str(&format!("\n  {l}"));
    }
    for b in blocked.iter().take(SHOWN) {
        s.push_str(&format!("\n  blocked: {b}"));
    }
    if blocked.len() > SHOWN {
        s.push_str(&format!("\n  … and {} more", blocked.len() - SHOWN));
    }
    s
}

/// The place a wait is about: the input a packet is held at, or the output that has
/// no credit; an acknowledge awaited is at no place.
fn place(node: usize, w: &Wait) -> Option<Place> {
    match w.reason {
        WaitReason::OutputHeld { .. }
        | WaitReason::OutputFull { .. }
        | WaitReason::Routing
        | WaitReason::Incomplete => Some(Place::Input { node, port: w.port }),
        WaitReason::NoCredit => Some(Place::Output { node, port: w.port }),
        WaitReason::AwaitingAck | WaitReason::AckOverdue => None,
    }
}

/// The packets blocked behind a dead link (`dead(end)`: the link at that end died),
/// from every node's waits: directly (no credit on a dead link; the rest of a packet
/// to come on a dead link; with `stuck`, a header half received on one) and through
/// the wait-for chain (waiting for an output held by such a packet, a full output
/// buffer behind one, credit from an input holding one). An acknowledge awaited is
/// blocked when its packet is, or, with `stuck` (nothing has moved for the deadlock
/// window), always: it can never come. An overdue acknowledge
/// ([`WaitReason::AckOverdue`]) is blocked always: its part knows it will not come. In
/// node order, then wait order, acknowledges last.
pub(super) fn blocked<P: LinkProtocol>(
    net: &Network<P>,
    waits: &[Vec<Wait>],
    dead: impl Fn(End) -> bool,
    stuck: bool,
) -> Vec<BlockedPacket> {
    let name = |n: usize| net.nodes()[n].name.as_str();
    let graph = edges(net, waits);
    // Places blocked directly, with what they are behind.
    let mut root: HashMap<Place, String> = HashMap::new();
    for (node, ws) in waits.iter().enumerate() {
        for w in ws {
            let end = End { node, port: w.port };
            let direct = match w.reason {
                WaitReason::NoCredit | WaitReason::Incomplete => dead(end),
                WaitReason::Routing => stuck && dead(end),
                WaitReason::OutputHeld { .. }
                | WaitReason::OutputFull { .. }
                | WaitReason::AwaitingAck
                | WaitReason::AckOverdue => false,
            };
            if let (true, Some(p)) = (direct, place(node, w)) {
                root.insert(
                    p,
                    format!("the dead link at {} port {}", name(node), w.port),
                );
            }
        }
    }
    // Follow each place's chain to a root (each place waits for at most one other).
    let behind = |start: Place| -> Option<String> {
        let mut at = start;
        for _ in 0..=graph.len() {
            if let Some(r) = root.get(&at) {
                return Some(r.clone());
            }
            at = graph.get(&at)?.0;
        }
        None
    };
    let mut out = Vec::new();
    let mut packets = Vec::new();
    let mut acks = Vec::new();
    for (node, ws) in waits.iter().enumerate() {
        for w in ws {
            match place(node, w) {
                Some(p) => {
                    if let Some(b) = behind(p) {
                        packets.extend(w.packet.map(|s| (s.src, s.dst, s.seq, s.pkt)));
                        out.push(BlockedPacket {
                            node: name(node).to_string(),
                            wait: w.to_string(),
                            behind: b,
                        });
                    }
                }
                None => acks.push((node, w)),
            }
        }
    }
    let any_dead = !out.is_empty() || stuck;
    for (node, w) in acks {
        let of_blocked = w
            .packet
            .is_some_and(|s| packets.contains(&(s.src, s.dst, s.seq, s.pkt)));
        let overdue = w.reason == WaitReason::AckOverdue;
        if of_blocked || overdue || (stuck && any_dead) {
            out.push(BlockedPacket {
                node: name(node).to_string(),
                wait: w.to_string(),
                behind: match &w.packet {
                    Some(s) if of_blocked => format!("its packet ({})", describe_packet(s)),
                    _ => "a dead link (the packet or its acknowledge was lost)".to_string(),
                },
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    //! The rule on the protocol-free relay protocol: two beacons, each sending a ball
    //! every 10 ticks from tick 0 to 200 over one link of 5 ticks, each recording when
    //! balls arrive.
    use crate::engine::{RunControl, RunOutcome, actors, sequential, sharded};
    use crate::model::{Activity, ModelError, Node, Outbox, PartStats, PortId, Wait};
    use crate::network::{Builder, DelayUnit, End, FaultPlan, Network, RunPlan, Units};
    use crate::parts::Part;
    use crate::parts::relay::{Ball, Relay, RelayCounters};
    use crate::routing::Routing;
    use crate::time::{Tick, TimeBase};

    #[derive(Clone, Debug)]
    struct BeaconParams;

    struct Beacon {
        arrivals: Vec<u64>,
        sent: u64,
    }

    impl Node<Relay> for Beacon {
        fn receive(&mut self, now: Tick, _port: PortId, _ball: Ball) -> Result<(), ModelError> {
            self.arrivals.push(now);
            Ok(())
        }
        fn step(&mut self, now: Tick, out: &mut Outbox<Ball>) -> Result<Option<Tick>, ModelError> {
            if now.is_multiple_of(10) && now <= 200 {
                let ball = Ball {
                    id: now as u32,
                    born: now,
                    hops_left: 1,
                };
                out.send(0, ball, now);
                self.sent += 1;
                out.activity = Activity::default();
            }
            Ok((now < 200).then_some(now / 10 * 10 + 10))
        }
        fn port_counters(&self, _port: PortId) -> RelayCounters {
            RelayCounters {
                sent: self.sent,
                received: self.arrivals.len() as u64,
                held: 0,
                capacity: 64,
            }
        }
        fn waits(&self) -> Vec<Wait> {
            Vec::new()
        }
        fn part_stats(&self) -> Option<PartStats> {
            Some(PartStats {
                series: vec![("arrivals", self.arrivals.clone())],
            })
        }
    }

    impl Part<Relay> for BeaconParams {
        fn kind(&self) -> &'static str {
            "beacon"
        }
        fn ports(&self) -> usize {
            1
        }
        fn receive_capacity(&self, _port: PortId) -> usize {
            64
        }
        fn instantiate(&self) -> Box<dyn Node<Relay>> {
            Box::new(Beacon {
                arrivals: Vec::new(),
                sent: 0,
            })
        }
        fn routing(&self) -> Routing<'_> {
            Routing::Sink
        }
        fn memory_bound(&self, _fill: crate::memory::Fill) -> u64 {
            1024
        }
    }

    fn pair(faults: FaultPlan) -> Network<Relay> {
        let mut b = Builder::new();
        b.node("beacon[0]", BeaconParams);
        b.node("beacon[1]", BeaconParams);
        b.link(End { node: 0, port: 0 }, End { node: 1, port: 0 }, 5, 64);
        let run = RunPlan::new(0, (0, 300), false, 1000, 1000);
        let units = Units::plain(DelayUnit {
            name: "ticks",
            ticks: 1,
        });
        b.finish("beacons", TimeBase { tick_ns: 10.0 }, 0, units, run)
            .expect("a good plan")
            .with_faults(faults)
    }

    /// The arrival ticks at each beacon, the same on every engine and thread count
    /// (under `--check`, which must skip the link once it has lost a token).
    fn run(net: &Network<Relay>) -> (Vec<u64>, Vec<u64>, RunOutcome) {
        let mut ctl = RunControl::for_plan(net);
        ctl.check = true;
        let o = sequential::run(net, &ctl, None).expect("the beacons run");
        let text = |o: &RunOutcome| format!("{:?} {:?}", o.parts, o.faults);
        for threads in [1, 2] {
            let s = sharded::run(net, &ctl, threads, None).expect("sharded");
            assert_eq!(text(&s), text(&o), "sharded on {threads} threads");
            let a = actors::run(net, &ctl, threads, None).expect("actors");
            assert_eq!(text(&a), text(&o), "actors on {threads} threads");
        }
        let at = |n: usize| o.parts[n].1.get("arrivals").to_vec();
        (at(0), at(1), o)
    }

    #[test]
    fn a_link_down_at_t_loses_every_token_arriving_from_t_in_both_directions() {
        let (a, b, o) = run(&pair(FaultPlan::new(1, &[(0, 105)], 0.0, 1)));
        let before: Vec<u64> = (0..10).map(|k| 10 * k + 5).collect();
        assert_eq!(a, before, "beacon 0 hears only what arrived before 105");
        assert_eq!(b, before, "beacon 1 too");
        let f = o.faults.expect("faults were configured");
        assert_eq!(f.links_down.len(), 1);
        let l = &f.links_down[0];
        assert_eq!((l.since_tick, l.tokens_lost), (105, 22));
        assert_eq!(l.cause, super::DeathCause::Scheduled);
        // A token arriving exactly at T is lost: down at 95 loses the one sent at 90.
        let (a, _, _) = run(&pair(FaultPlan::new(1, &[(0, 95)], 0.0, 1)));
        assert_eq!(a, (0..9).map(|k| 10 * k + 5).collect::<Vec<_>>());
    }

    #[test]
    fn a_parity_error_kills_the_link_from_the_corrupted_tokens_arrival() {
        // Direction 0 (beacon 0 → 1): its 4th token, sent at 30 and due at 35, errs.
        let plan = FaultPlan::new(1, &[], 0.0, 1).with_intact(0, 3);
        let (a, b, o) = run(&pair(plan));
        assert_eq!(
            b,
            vec![5, 15, 25],
            "beacon 1 loses the corrupted token and all after"
        );
        assert_eq!(
            a,
            vec![5, 15, 25],
            "the reverse direction dies at the same tick"
        );
        let l = &o.faults.expect("configured").links_down[0];
        assert_eq!(l.since_tick, 35);
        assert_eq!(l.tokens_lost, 2 * 21 - 6);
        assert_eq!(
            l.cause,
            super::DeathCause::ParityError {
                sender: super::LinkEnd {
                    node: "beacon[0]".into(),
                    port: 0
                },
                token: 4
            }
        );
        // Rate 1: the first token of each direction errs.
        let (a, b, o) = run(&pair(FaultPlan::new(1, &[], 1.0, 9)));
        assert!(a.is_empty() && b.is_empty());
        let l = &o.faults.expect("configured").links_down[0];
        assert_eq!((l.since_tick, l.tokens_lost), (5, 42));
    }

    #[test]
    fn no_fault_that_happens_changes_nothing() {
        let (a, b, o) = run(&pair(FaultPlan::new(1, &[(0, 10_000)], 0.0, 1)));
        let all: Vec<u64> = (0..21).map(|k| 10 * k + 5).collect();
        assert_eq!((a, b), (all.clone(), all));
        assert!(o.faults.expect("configured").links_down.is_empty());
    }
}
