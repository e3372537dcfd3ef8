//! Deadlock diagnosis (issue 6): a network that deadlocks is explained by a closed
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
