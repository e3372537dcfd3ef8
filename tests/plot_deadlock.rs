//! The deadlock picture (`emu::plot::deadlock`): a cycle must follow links, and
//! without a cycle the stuck nodes are ringed.

use super::common::cycle_step as step;
use emu::deadlock::waitfor::Place;
use emu::engine::StuckNode;
use emu::network::Network;
use emu::plot::deadlock::{STUCK, deadlock_svg};

fn torus() -> Network {
    emu::session::Case::load("torus4-single", "uniform", &[], 1)
        .expect("torus4-single")
        .net
}

#[test]
fn a_cycle_through_ports_that_are_not_linked_is_an_error() {
    let net = torus();
    let out = |node, port| Place::Output { node, port };
    let inp = |node, port| Place::Input { node, port };
    // c104[0] port 1 goes to c104[1] port 2, not c104[5].
    let bad = [step(out(0, 1), inp(5, 2)), step(inp(5, 2), out(0, 1))];
    let e = deadlock_svg("t", &net, &bad, &[]).expect_err("not a link");
    assert!(e.0.contains("c104[0] port 1 → c104[5] port 2"), "{e}");
    let missing = [step(out(0, 99), inp(1, 2))];
    let e = deadlock_svg("t", &net, &missing, &[]).expect_err("no such port");
    assert!(e.0.contains("port 99"), "{e}");
    let good = [step(out(0, 1), inp(1, 2)), step(inp(1, 2), out(0, 1))];
    let svg = deadlock_svg("t", &net, &good, &[]).expect("draws");
    assert_eq!(svg.matches("class=\"cycle-link\"").count(), 1);
    assert!(
        svg.contains("1 place") || svg.contains("2 places, 1 link,"),
        "{svg}"
    );
}

#[test]
fn without_a_cycle_the_stuck_nodes_are_ringed_and_nothing_highlighted() {
    let net = torus();
    let stuck = [StuckNode {
        node: 3,
        name: "c104[3]".into(),
        waits: Vec::new(),
    }];
    let svg = deadlock_svg("t", &net, &[], &stuck).expect("draws");
    assert!(!svg.contains("class=\"cycle-link\""));
    assert!(
        svg.contains("no wait-for cycle") && svg.contains(STUCK),
        "{svg}"
    );
}
