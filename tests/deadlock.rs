//! Deadlock diagnosis: a network that deadlocks is explained by a closed
//! wait-for cycle whose links form a cycle of channels; a saturated network that keeps
//! moving is never reported.

use emu::deadlock::{Place, waitfor};
use emu::engine::{self, EngineError};
use emu::session::Case;

#[test]
fn ring_deadlock_is_explained_by_a_closed_cycle_around_the_ring() {
    let case = Case::load("ring4", "uniform", &[], 1).expect("shipped case");
    let err = engine::sharded::run(&case.net, &case.control(), 1, None)
        .expect_err("clockwise routing on a ring deadlocks under load");
    let EngineError::Deadlock { cycle, stuck, .. } = err else {
        panic!("expected a deadlock, got {err}");
    };
    assert!(!stuck.is_empty());
    let cycle = cycle.expect("the waits close a cycle");
    // Each step waits for the next, and the last for the first.
    for w in cycle.windows(2) {
        assert_eq!(w[0].next, w[1].place);
    }
    assert_eq!(cycle.last().map(|s| s.next), cycle.first().map(|s| s.place));
    // The links it crosses are the four clockwise ring links, each once.
    let links = waitfor::channels(&cycle);
    assert_eq!(links.len(), 4, "{:#?}", waitfor::render(&cycle));
    let mut from: Vec<usize> = links.iter().map(|(a, _)| a.node).collect();
    from.sort_unstable();
    assert_eq!(from, vec![0, 1, 2, 3]);
    for (a, b) in &links {
        assert_eq!(b.node, (a.node + 1) % 4, "not clockwise: {a:?} → {b:?}");
        assert_eq!(
            (a.port, b.port),
            (1, 2),
            "ring ports: 1 = next, 2 = previous"
        );
    }
    // Every place on the cycle holds a packet.
    assert!(cycle.iter().all(|s| s.packet.is_some()));
    assert!(matches!(
        cycle[0].place,
        Place::Input { .. } | Place::Output { .. }
    ));
}

/// Runs `topology` under continuous (100 % offered) uniform traffic for 2 ms of virtual
/// time — a hundred of the default 20 µs deadlock windows — and fails on any alarm.
fn saturated_run_without_alarm(topology: &str, sets: &[&str]) {
    let mut sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    sets.extend([
        "phases.warmup_us=50".to_string(),
        "phases.measure_us=2000".to_string(),
    ]);
    let case = Case::load(topology, "uniform", &sets, 3).expect("shipped case");
    let o = engine::sharded::run(&case.net, &case.control(), 2, None)
        .unwrap_or_else(|e| panic!("false alarm on a saturated {topology}: {e}"));
    assert!(o.complete, "{topology}: measured messages left undelivered");
    assert!(o.end_tick > 200_000);
}

#[test]
fn a_long_saturated_grid_run_is_never_called_a_deadlock() {
    // y-then-x routing on a 6×6 grid: the centre links saturate, and packets wait a
    // long time, but something always moves.
    saturated_run_without_alarm("grid8", &["network.side=6"]);
}

#[test]
fn a_long_saturated_hypercube_run_is_never_called_a_deadlock() {
    saturated_run_without_alarm("hypercube6", &[]);
}

#[test]
fn a_deadlock_of_some_flows_while_others_move_is_found_at_the_end_of_the_run() {
    // ring4, clockwise only: terminals 1, 2 and 3 send around the ring (1→3, 2→1, 3→2)
    // and their long packets close the ring's dependency cycle; terminal 0 sends to
    // itself and keeps moving, so the network as a whole never stops.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("partial.toml");
    std::fs::write(
        &file,
        "[pattern]\nkind = \"table\"\ndestinations = [0, 3, 1, 2]\n\
         [injection]\nkind = \"continuous\"\n[message]\nbytes = 128\n\
         [phases]\nwarmup_us = 20\nmeasure_us = 100\ndrain_limit_us = 200\n",
    )
    .expect("write traffic");
    let case = Case::load("ring4", &file.to_string_lossy(), &[], 1).expect("case");
    let result = engine::sharded::run(&case.net, &case.control(), 1, None);
    let Err(EngineError::Deadlock { partial, cycle, .. }) = result else {
        panic!("the stuck ring flows were not reported: {result:?}");
    };
    assert!(
        partial,
        "the network kept moving, so this is a partial deadlock"
    );
    let cycle = cycle.expect("a cycle");
    assert_eq!(
        waitfor::channels(&cycle).len(),
        4,
        "{:#?}",
        waitfor::render(&cycle)
    );
    // Terminal 0's flow is not in it.
    assert!(cycle.iter().all(|s| s.packet.is_some_and(|p| p.src != 0)));
}

/// Ticks the deadlock detector watched over one saturated run, or the alarm it raised.
/// [`saturated_ticks`] of a case of any family.
struct Saturated;

impl emu::session::CaseVisitor for Saturated {
    type Output = Result<u64, String>;
    fn visit<P: emu::model::LinkProtocol>(self, case: &Case<P>) -> Self::Output {
        saturated_ticks(case)
    }
}

fn saturated_ticks<P: emu::model::LinkProtocol>(
    case: &emu::session::Case<P>,
) -> Result<u64, String> {
    match engine::sharded::run(&case.net, &case.control(), 2, None) {
        Ok(o) => Ok(o.end_tick),
        Err(e) => Err(e.to_string()),
    }
}

/// The detector's false-alarm soak, long form (`cargo test --release --test integration
/// deadlock:: -- --ignored --nocapture`; README "Reliability"): every family of network that `emu check` proves
/// deadlock-free (or that cannot deadlock: SCI rings, switch fabrics), saturated (every
/// source always has a message waiting, or 98 % Bernoulli on a fabric) with the
/// smallest legal buffers (an input buffer of one flow-control batch, 8 tokens, and a
/// one-token output buffer), for at least 10⁷ ticks in all: no alarm.
#[test]
#[ignore]
fn figures_no_false_alarm_over_ten_million_saturated_ticks() {
    use emu::session::AnyCase;
    let smallest = ["link.buffer_tokens=8", "c104.output_buffer_tokens=1"];
    let dslink = |t: &'static str| (t, "uniform", smallest.to_vec());
    let cases: Vec<(&str, &str, Vec<&str>)> = vec![
        dslink("hypercube6"),
        dslink("hypercube6-universal"),
        dslink("grid8"),
        dslink("grid8-universal"),
        dslink("torus8"),
        dslink("kary4-3"),
        dslink("min64"),
        dslink("min64-universal"),
        dslink("min64-adaptive"),
        dslink("crossbar32"),
        dslink("netlist-tree"),
        // Every node a hot sender: always a packet waiting (SCI §4.3).
        (
            "sci-ring16",
            "sci-uniform",
            vec!["terminals.saturated=[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]"],
        ),
        ("fabric16-cioq", "bernoulli98", vec![]),
        ("fabric16-grant", "bernoulli98", vec![]),
    ];
    let mut total = 0u64;
    let mut alarms = Vec::new();
    for (topology, traffic, sets) in &cases {
        let mut sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        // About 8 × 10⁵ ticks each: 8 ms of 10 ns ticks on the DS-Link networks.
        let measure_us = match *topology {
            t if t.starts_with("sci") => 1_600,
            t if t.starts_with("fabric") => 41_000,
            _ => 8_000,
        };
        sets.extend([
            "phases.warmup_us=0".to_string(),
            format!("phases.measure_us={measure_us}"),
        ]);
        let case = AnyCase::load(topology, traffic, &sets, 5)
            .unwrap_or_else(|e| panic!("{topology} × {traffic}: {e}"));
        let r = case.visit(Saturated);
        match r {
            Ok(ticks) => {
                println!("{topology:<22} {traffic:<12} {ticks:>10} ticks, no alarm");
                total += ticks;
            }
            Err(e) => {
                println!("{topology:<22} {traffic:<12} ALARM: {e}");
                alarms.push(format!("{topology}: {e}"));
            }
        }
    }
    println!(
        "{} runs, {total} saturated ticks, {} false alarms",
        cases.len(),
        alarms.len()
    );
    assert!(alarms.is_empty(), "{alarms:#?}");
    assert!(total >= 10_000_000, "only {total} ticks");
}

/// A ring of five C104s as a netlist with computed (shortest-path) tables: two-hop
/// routes chain the ring's clockwise channels into a cycle.
const RING5: &str = "[network]\nkind = \"netlist\"\nswitches = [4, 4, 4, 4, 4]\n\
    terminals = [[0, 2], [0, 3], [1, 2], [1, 3], [2, 2], [2, 3], [3, 2], [3, 3], [4, 2], [4, 3]]\n\
    links = [[0, 0, 1, 1], [1, 0, 2, 1], [2, 0, 3, 1], [3, 0, 4, 1], [4, 0, 0, 1]]\n\
    [link]\nbuffer_tokens = 8\n[c104]\noutput_buffer_tokens = 1\n[vcp]\nacknowledge = false\n";

/// The long form: a corpus of configurations known to deadlock
/// (single-wrap tori, the ring of four routed one way, the one-set universal cube, the
/// dragonfly whose minimal routing shares one set of links, and a ring netlist with
/// computed tables), each under ten seeds of saturating uniform
/// traffic. Every run must end in a reported deadlock (of the whole network, or at the
/// end of the run of some packets while others moved) whose wait-for cycle follows
/// dependencies of the static graph, and the report must be true: run again with a
/// deadlock window ten times longer and a later hard stop, every packet of the cycle
/// is still stuck.
#[test]
#[ignore]
fn figures_every_known_deadlock_is_caught() {
    known_deadlocks_are_caught(10);
}

/// The fast form of [`figures_every_known_deadlock_is_caught`], for CI: one seed each.
#[test]
fn every_known_deadlock_is_caught_on_one_seed() {
    known_deadlocks_are_caught(1);
}

/// Runs the corpus of known deadlocks on seeds `1..=seeds` (see
/// [`figures_every_known_deadlock_is_caught`]).
fn known_deadlocks_are_caught(seeds: u64) {
    use emu::deadlock::cdg::Cdg;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let ring5 = dir.path().join("ring5.toml");
    std::fs::write(&ring5, RING5).expect("write");
    let ring5 = ring5.to_string_lossy().into_owned();
    let corpus: [(&str, &[&str]); 7] = [
        ("torus4-single", &[]),
        ("torus4-single", &["network.side=5"]),
        ("torus8-single", &[]),
        ("ring4", &[]),
        ("hypercube4-universal-oneset", &[]),
        ("dragonfly72-oneset", &[]),
        (&ring5, &[]),
    ];
    let (mut runs, mut caught) = (0, 0);
    for (topology, sets) in corpus {
        for seed in 1..=seeds {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            let case = Case::load(topology, "uniform", &sets, seed).expect("loads");
            let cdg = Cdg::build(&case.net).expect("a routing view");
            assert!(cdg.find_cycle().is_some(), "{topology} is not cyclic");
            runs += 1;
            let first = engine::sharded::run(&case.net, &case.control(), 1, None);
            let Err(EngineError::Deadlock {
                since,
                cycle: Some(cycle),
                ..
            }) = first
            else {
                println!(
                    "{topology} seed {seed}: MISSED: {:?}",
                    first.map(|o| o.end_tick)
                );
                continue;
            };
            let channels: Vec<_> = waitfor::channels(&cycle)
                .into_iter()
                .map(|(a, b)| cdg.channel(a, b).expect("a channel of the graph"))
                .collect();
            for (i, &c) in channels.iter().enumerate() {
                assert!(cdg.depends(c, channels[(i + 1) % channels.len()]));
            }
            let held: Vec<_> = cycle.iter().filter_map(|s| s.packet).collect();
            let mut longer = case.control();
            longer.deadlock_window *= 10;
            longer.hard_stop = longer.hard_stop.max(since + 20 * longer.deadlock_window);
            match engine::sharded::run(&case.net, &longer, 1, None) {
                Err(EngineError::Deadlock { stuck, .. })
                    if held.iter().all(|p| {
                        stuck
                            .iter()
                            .any(|n| n.waits.iter().any(|w| w.packet == Some(*p)))
                    }) =>
                {
                    caught += 1
                }
                other => println!(
                    "{topology} seed {seed}: not confirmed with a longer window: {}",
                    other.map_or_else(|e| e.to_string(), |o| format!("ended at {}", o.end_tick))
                ),
            }
        }
    }
    println!("{caught} of {runs} known deadlocks caught and confirmed");
    assert_eq!(caught, runs);
}
