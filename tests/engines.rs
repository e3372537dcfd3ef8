//! The engine contract (docs/architecture.md): for every shipped topology and traffic
//! file small enough for CI, the sharded engine on 1, 2 and 3 threads and the actors
//! engine on 1 and 2 threads give byte-identical JSON reports for the same seed (all
//! five with every traffic file on hypercube6 and ring4; sharded on 1 and 3 threads and
//! actors on 2 with uniform, systematic and shuffle traffic elsewhere) — or,
//! when the run fails (a deadlock on a ring), the same error and the same list of
//! what every stuck node waits for. The SCI rings run the SCI traffic files, with
//! `--check` on.

use emu::config::{FileKind, list_shipped};
use emu::engine::{self, EngineError, RunOutcome};
use emu::model::LinkProtocol;
use emu::session::{AnyCase, Case, CaseVisitor};

/// Phases that keep each run short.
fn short() -> Vec<String> {
    vec!["phases.warmup_us=5".into(), "phases.measure_us=30".into()]
}

/// Networks above this many nodes are left to `--verify-engines` by hand.
const MAX_NODES: usize = 200;

fn text<P: LinkProtocol>(case: &Case<P>, r: Result<RunOutcome, EngineError>) -> String {
    match r {
        Ok(o) => case.report(&o).to_json(),
        Err(e) => {
            let mut s = format!("{e}\n");
            if let EngineError::Deadlock { stuck, .. } = &e {
                for n in stuck {
                    for w in &n.waits {
                        s.push_str(&format!("{} {w}\n", n.name));
                    }
                }
            }
            if let EngineError::BlockedByFault { blocked, .. } = &e {
                for b in blocked {
                    s.push_str(&format!("{b}\n"));
                }
            }
            s
        }
    }
}

#[test]
fn every_engine_and_thread_count_gives_identical_reports_for_every_small_shipped_case() {
    let shipped = list_shipped();
    let names = |k: FileKind| -> Vec<String> {
        shipped
            .iter()
            .filter(|e| e.kind == k)
            .map(|e| e.name.clone())
            .collect()
    };
    let mut compared = 0;
    let mut relay_compared = false;
    for topology in names(FileKind::Topology) {
        for traffic in names(FileKind::Traffic) {
            // Every traffic file on the reference topologies; three patterns elsewhere;
            // the SCI traffic files on the SCI rings.
            let reference_topology = topology == "hypercube6" || topology == "ring4";
            let fabric_traffic = [
                "bursty30",
                "bernoulli98",
                "fabric-nonuniform",
                "fabric-trace",
            ]
            .contains(&traffic.as_str());
            let wanted = if topology.starts_with("relay") {
                traffic.starts_with("relay")
            } else if topology.starts_with("sci-") {
                traffic.starts_with("sci-")
            } else if topology.starts_with("fabric") {
                fabric_traffic
            } else {
                reference_topology
                    || ["uniform", "systematic", "shuffle"].contains(&traffic.as_str())
            };
            if !wanted {
                continue;
            }
            // SCI rings synchronise every 2 ns cycle (1-cycle links), and 3 threads on a
            // 2-core machine make each barrier slow: their runs are kept shorter.
            let phases = if topology.starts_with("relay") {
                // A relay ring reads no phases: its balls run out by themselves.
                Vec::new()
            } else if topology.starts_with("sci-") {
                vec!["phases.warmup_us=2".into(), "phases.measure_us=10".into()]
            } else if topology.starts_with("fabric") {
                // 1,000 packet cycles of 51.2 ns after 200 of warm-up.
                vec![
                    "phases.warmup_us=10".into(),
                    "phases.measure_us=51.2".into(),
                ]
            } else {
                short()
            };
            let same = match AnyCase::load(&topology, &traffic, &phases, 5) {
                // DS-Link networks run without --check (their own tests cover it); SCI
                // rings check their invariants at every barrier, fabrics the credit
                // invariant of Gramsamer §7.4, relay rings conservation.
                Ok(AnyCase::DsLink(case)) => all_engines_agree(&case, false),
                Ok(case) => case.visit(Agree),
                // A pattern that does not fit the topology is bad input, not a result.
                Err(_) => continue,
            };
            match same {
                None => continue,
                Some(Err(diff)) => panic!("{topology} × {traffic}: {diff}"),
                Some(Ok(())) => {}
            }
            compared += 1;
            relay_compared |= topology.starts_with("relay");
        }
    }
    assert!(
        relay_compared,
        "the relay ring (a family of its own) was not compared"
    );
    // hypercube6 with every traffic file, the ring, and the SCI rings with theirs: the
    // comparison really ran.
    assert!(compared >= 34, "only {compared} cases compared");
}

/// Every engine agrees on a case of any family, checked at every barrier.
struct Agree;

impl CaseVisitor for Agree {
    type Output = Option<Result<(), String>>;
    fn visit<P: LinkProtocol>(self, case: &Case<P>) -> Self::Output {
        all_engines_agree(case, true)
    }
}

/// Runs `case` on every engine and thread count; `None` if it is too large for CI,
/// else whether every report equals the reference (sharded, 1 thread).
fn all_engines_agree<P: LinkProtocol>(case: &Case<P>, check: bool) -> Option<Result<(), String>> {
    if case.net.nodes().len() > MAX_NODES {
        return None;
    }
    let mut ctl = case.control();
    ctl.check = check;
    let reference = text(case, engine::sharded::run(&case.net, &ctl, 1, None));
    for (label, result) in [
        (
            "sharded, 2 threads",
            engine::sharded::run(&case.net, &ctl, 2, None),
        ),
        (
            "sharded, 3 threads",
            engine::sharded::run(&case.net, &ctl, 3, None),
        ),
        (
            "actors, 1 thread",
            engine::actors::run(&case.net, &ctl, 1, None),
        ),
        (
            "actors, 2 threads",
            engine::actors::run(&case.net, &ctl, 2, None),
        ),
    ] {
        let t = text(case, result);
        if t != reference {
            return Some(Err(format!(
                "{label} differs from sharded on 1 thread\n--- reference ---\n{reference}\n--- {label} ---\n{t}"
            )));
        }
    }
    Some(Ok(()))
}

#[test]
fn link_faults_give_identical_reports_on_every_engine_and_thread_count() {
    // A switch link down mid-run (packets blocked: the error and every blocked packet),
    // a link nobody uses (a report with its faults section), parity errors at a rate
    // that kills a few links (tokens lost at both ends of a link, on links that cross
    // partitions too), the last also under --check (which skips the lossy links).
    let cases: [&[&str]; 3] = [
        &[r#"faults.link_down=[{ link = "c104[5]:2", at_us = 20.0 }]"#],
        &[
            "pattern.kind=fixed",
            "pattern.destination=1",
            r#"faults.link_down=[{ link = "c104[33]:0", at_us = 2.0 }]"#,
        ],
        &["faults.token_error_rate=0.0002"],
    ];
    let mut seen = Vec::new();
    for (i, sets) in cases.into_iter().enumerate() {
        let mut all = short();
        all.extend(sets.iter().map(|s| s.to_string()));
        let case = Case::load("hypercube6", "uniform", &all, 3).expect("the case loads");
        for check in [false, i == 2] {
            match all_engines_agree(&case, check) {
                Some(Ok(())) => {}
                Some(Err(diff)) => panic!("{sets:?} (check {check}): {diff}"),
                None => panic!("hypercube6 is small enough"),
            }
        }
        let ctl = case.control();
        seen.push(text(&case, engine::sharded::run(&case.net, &ctl, 1, None)));
    }
    assert!(
        seen[0].starts_with("blocked by a link fault"),
        "{}",
        seen[0]
    );
    assert!(seen[1].contains("\"links_down\""), "{}", seen[1]);
    assert!(
        seen[2].contains("parity error") || seen[2].contains("parity_error"),
        "{}",
        seen[2]
    );
}

#[test]
fn the_partition_really_splits_the_network_across_threads() {
    let case = Case::load("hypercube6", "uniform", &short(), 1).expect("shipped case");
    let (part, used) = engine::partition::partition(&case.net, 2);
    assert_eq!(used, 2);
    assert!(part.contains(&0) && part.contains(&1));
    assert_eq!(engine::partition::crossing_links(&case.net, &part), 32);
}

/// Everything a relay run produced, as text: the run's totals and every node's
/// retired balls and their ages.
fn relay_outcome(o: &RunOutcome) -> String {
    let mut s = format!(
        "end {} complete {} windows {} runs {} {:?}\n",
        o.end_tick, o.complete, o.windows, o.node_runs, o.activity
    );
    for (i, t) in o.terminals.iter().enumerate() {
        let m = &t.message_latency;
        s.push_str(&format!(
            "relay[{i}] {:?} count {} mean {} p50 {} p99 {} max {}\n",
            t.counters,
            m.count(),
            m.mean(),
            m.quantile(0.5),
            m.quantile(0.99),
            m.quantile(1.0)
        ));
    }
    s
}

#[test]
fn a_protocol_free_part_runs_identically_on_every_engine_and_thread_count() {
    // 12 relays, 3 balls each, 300 hops per ball, 4-tick links, think times 1..=9.
    let net = emu::network::relay_ring(12, 3, 300, 4, 9, 7).expect("a valid plan");
    let mut ctl = engine::RunControl::for_plan(&net);
    ctl.check = true;
    let reference = engine::sequential::run(&net, &ctl, None).expect("the relay ring runs");
    assert!(reference.complete, "every ball retired");
    assert_eq!(reference.activity.obligations_closed, 36);
    assert_eq!(reference.activity.tokens_moved, 36 * 300);
    let want = relay_outcome(&reference);
    for threads in [2, 3] {
        let o = engine::sharded::run(&net, &ctl, threads, None).expect("sharded");
        assert_eq!(relay_outcome(&o), want, "sharded on {threads} threads");
    }
    for threads in [1, 2] {
        let o = engine::actors::run(&net, &ctl, threads, None).expect("actors");
        assert_eq!(relay_outcome(&o), want, "actors on {threads} threads");
    }
}

/// `net` run by the sequential engine, the sharded engine on each of `sharded` thread
/// counts and the actors engine on 1 and 2 threads, each with its label.
fn every_engine(
    net: &emu::network::Network<emu::parts::relay::Relay>,
    sharded: &[usize],
) -> Vec<(String, Result<RunOutcome, EngineError>)> {
    let ctl = engine::RunControl::for_plan(net);
    let mut runs = vec![(
        "sequential".to_string(),
        engine::sequential::run(net, &ctl, None),
    )];
    for &t in sharded {
        runs.push((
            format!("sharded {t}"),
            engine::sharded::run(net, &ctl, t, None),
        ));
    }
    for t in [1, 2] {
        runs.push((
            format!("actors {t}"),
            engine::actors::run(net, &ctl, t, None),
        ));
    }
    runs
}

/// A relay that panics at its first step at or after tick `at`: a stand-in for a bug
/// in a part, which the engines must turn into an error naming the node.
#[derive(Debug)]
struct PanicsAt {
    relay: emu::parts::relay::RelayParams,
    at: emu::time::Tick,
}

struct PanickingRelay {
    inner: Box<dyn emu::model::Node<emu::parts::relay::Relay>>,
    at: emu::time::Tick,
}

impl emu::model::Node<emu::parts::relay::Relay> for PanickingRelay {
    fn receive(
        &mut self,
        now: emu::time::Tick,
        port: emu::model::PortId,
        token: emu::parts::relay::Ball,
    ) -> Result<(), emu::model::ModelError> {
        self.inner.receive(now, port, token)
    }

    fn step(
        &mut self,
        now: emu::time::Tick,
        out: &mut emu::model::Outbox<emu::parts::relay::Ball>,
    ) -> Result<Option<emu::time::Tick>, emu::model::ModelError> {
        assert!(now < self.at, "the test part's deliberate fault");
        self.inner.step(now, out)
    }

    fn port_counters(&self, port: emu::model::PortId) -> emu::parts::relay::RelayCounters {
        self.inner.port_counters(port)
    }

    fn waits(&self) -> Vec<emu::model::Wait> {
        self.inner.waits()
    }
}

impl emu::parts::Part<emu::parts::relay::Relay> for PanicsAt {
    fn kind(&self) -> &'static str {
        "panics-at"
    }
    fn ports(&self) -> usize {
        self.relay.ports()
    }
    fn receive_capacity(&self, port: emu::model::PortId) -> usize {
        self.relay.receive_capacity(port)
    }
    fn instantiate(&self) -> Box<dyn emu::model::Node<emu::parts::relay::Relay>> {
        Box::new(PanickingRelay {
            inner: self.relay.instantiate(),
            at: self.at,
        })
    }
    fn routing(&self) -> emu::routing::Routing<'_> {
        emu::routing::Routing::Opaque
    }
    fn memory_bound(&self, fill: emu::memory::Fill) -> u64 {
        self.relay.memory_bound(fill)
    }
}

#[test]
fn a_part_that_panics_ends_the_run_with_an_error_naming_it_on_every_engine() {
    use emu::parts::relay::RelayParams;
    // Relay 5 of 12 panics at its first step from tick 500 (balls keep every relay busy
    // well past it). The run must end, on every engine and thread count, with an error
    // naming relay[5], the tick and the panic's message; not hang, not crash.
    let ring = emu::network::relay_ring(12, 3, 300, 4, 9, 7).expect("a valid plan");
    let relay = RelayParams {
        seed_balls: 3,
        hops: 300,
        max_think: 9,
        capacity: 36,
        first_id: 15,
        seed: 7,
    };
    let net = ring
        .with_part(5, PanicsAt { relay, at: 500 })
        .expect("same ports");
    for (label, r) in every_engine(&net, &[2, 3]) {
        match r {
            Err(EngineError::Panicked {
                node,
                tick,
                message,
            }) => {
                assert_eq!(node, "relay[5]", "{label}");
                assert!((500..600).contains(&tick), "{label}: tick {tick}");
                assert!(message.contains("deliberate fault"), "{label}: {message}");
            }
            Err(e) => panic!("{label}: expected a panic report, got: {e}"),
            Ok(_) => panic!("{label}: the run ended as if nothing happened"),
        }
    }
}

/// A node that ignores flow control: from tick 0 it sends a ball on port 1 at every
/// tick, each leaving its transmitter 1,000 ticks later, so that they pile up on the
/// link (a stand-in for a part whose credit accounting is broken).
struct Flooder;

impl emu::model::Node<emu::parts::relay::Relay> for Flooder {
    fn receive(
        &mut self,
        _now: emu::time::Tick,
        _port: emu::model::PortId,
        _token: emu::parts::relay::Ball,
    ) -> Result<(), emu::model::ModelError> {
        Ok(())
    }

    fn step(
        &mut self,
        now: emu::time::Tick,
        out: &mut emu::model::Outbox<emu::parts::relay::Ball>,
    ) -> Result<Option<emu::time::Tick>, emu::model::ModelError> {
        let ball = emu::parts::relay::Ball {
            id: 1_000 + now as u32,
            born: now,
            hops_left: 1,
        };
        out.send(1, ball, now + 1_000);
        Ok(Some(now + 1))
    }

    fn port_counters(&self, _port: emu::model::PortId) -> emu::parts::relay::RelayCounters {
        emu::parts::relay::RelayCounters::default()
    }

    fn waits(&self) -> Vec<emu::model::Wait> {
        Vec::new()
    }
}

/// The [`Flooder`] part, with the ports of a relay.
#[derive(Debug)]
struct Floods;

impl emu::parts::Part<emu::parts::relay::Relay> for Floods {
    fn kind(&self) -> &'static str {
        "floods"
    }
    fn ports(&self) -> usize {
        2
    }
    fn receive_capacity(&self, _port: emu::model::PortId) -> usize {
        // Room for every ball of the ring: what it receives, it drops.
        64
    }
    fn instantiate(&self) -> Box<dyn emu::model::Node<emu::parts::relay::Relay>> {
        Box::new(Flooder)
    }
    fn routing(&self) -> emu::routing::Routing<'_> {
        emu::routing::Routing::Opaque
    }
    fn memory_bound(&self, _fill: emu::memory::Fill) -> u64 {
        0
    }
}

#[test]
fn a_sender_that_overfills_a_link_is_a_flow_control_violation_on_every_engine() {
    // Relay 1 of 4 floods its link to relay 2 (latency 5, so windows are 5 ticks): the
    // link's channel holds 1 + relay 2's capacity of 8 balls, filled in 9 ticks. On two
    // threads the link crosses partitions (relays 0-1 and 2-3) and fewer balls than
    // that are sent in any one window, so the sharded engine finds the overflow when it
    // hands a window's balls over; on one thread, at the send. Every engine must end the run with the channel
    // named, not lose or queue balls without bound.
    let ring = emu::network::relay_ring(4, 2, 50, 5, 3, 11).expect("a valid plan");
    let net = ring.with_part(1, Floods).expect("same ports");
    for (label, r) in every_engine(&net, &[1, 2]) {
        match r {
            Err(EngineError::ChannelFull {
                tick,
                from_name,
                to_name,
                capacity,
                ..
            }) => {
                assert_eq!(
                    (from_name.as_str(), to_name.as_str(), capacity),
                    ("relay[1]", "relay[2]", 9),
                    "{label}"
                );
                assert!(tick < 20, "{label}: found late, at tick {tick}");
            }
            Err(e) => panic!("{label}: expected a full channel, got: {e}"),
            Ok(_) => panic!("{label}: the run ended as if nothing happened"),
        }
    }
}
