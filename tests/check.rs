//! Static deadlock check: the channel dependency graph of each
//! routing is acyclic exactly where the routing is deadlock-free, and the runtime
//! agrees — a network with a CDG cycle really deadlocks on a traffic that loads the
//! cycle, the wait-for cycle it reports is a cycle of the CDG, and the same traffic
//! on the deadlock-free variant completes.

use emu::deadlock::cdg::{Cdg, Channel};
use emu::deadlock::check::CheckReport;
use emu::deadlock::waitfor;
use emu::engine::{self, EngineError};
use emu::network::Network;
use emu::session::{Case, topology_plan};
use std::process::Command;

const EMU: &str = env!("CARGO_BIN_EXE_emu");

fn net(topology: &str, sets: &[&str]) -> Network {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    topology_plan(topology, &sets).unwrap_or_else(|e| panic!("{topology}: {e}"))
}

fn cdg(topology: &str, sets: &[&str]) -> Cdg {
    Cdg::build(&net(topology, sets)).unwrap_or_else(|e| panic!("{topology}: {e}"))
}

/// Asserts that `cycle` is a closed cycle of `g`: each channel depends on the next,
/// the last on the first.
fn assert_closed(g: &Cdg, cycle: &[Channel], what: &str) {
    assert!(!cycle.is_empty(), "{what}: empty cycle");
    for (i, &c) in cycle.iter().enumerate() {
        let next = cycle[(i + 1) % cycle.len()];
        assert!(g.depends(c, next), "{what}: {c} does not depend on {next}");
    }
}

#[test]
fn static_results_for_the_small_instances() {
    // (topology, --set, expect a cycle)
    let cases: [(&str, &[&str], bool); 14] = [
        ("torus4-single", &[], true),
        ("torus8", &["network.side=4"], false),
        ("grid8", &["network.side=4"], false),
        ("hypercube6", &["network.dimensions=4"], false),
        ("hypercube6-universal", &["network.dimensions=4"], false),
        ("hypercube4-universal-oneset", &[], true),
        ("min64", &[], false),
        ("ring4", &[], true),
        ("tree4-3", &[], false),
        ("tree4-3-universal", &[], false),
        ("dragonfly72", &[], false),
        ("dragonfly72-oneset", &[], true),
        ("dragonfly72-universal", &[], false),
        ("dragonfly72-universal", &["network.local_sets=1"], true),
    ];
    for (topology, sets, cyclic) in cases {
        let g = cdg(topology, sets);
        match g.find_cycle() {
            Some(cycle) => {
                assert!(cyclic, "{topology} {sets:?}: unexpected cycle {cycle:?}");
                assert_closed(&g, &cycle, topology);
            }
            None => assert!(!cyclic, "{topology} {sets:?}: no cycle found"),
        }
    }
}

#[test]
fn e_cube_on_the_4_cube_has_the_dependencies_counted_by_hand() {
    // 16 terminal links and 32 cube links, two directions each. At every switch the
    // terminal's packets may take any of 4 dimensions or come straight back (5), and a
    // packet that arrived on dimension k may take a lower dimension or the terminal
    // (k + 1): 5 + 1 + 2 + 3 + 4 = 15 per switch.
    let g = cdg("hypercube6", &["network.dimensions=4"]);
    assert_eq!(g.channels.len(), 96);
    assert_eq!(g.dependencies(), 16 * 15);
}

#[test]
fn the_single_wrap_torus_cycle_is_a_ring_and_the_dateline_breaks_it() {
    let n = net("torus4-single", &[]);
    let g = Cdg::build(&n).expect("cdg");
    let cycle = g.find_cycle().expect("cycle");
    // The lowest cyclic channel is switch 0's +x link; the shortest cycle through it is
    // row 0's +x ring: 0 → 1 → 2 → 3 → 0, out of port 1 and into port 2.
    let hops: Vec<(usize, usize, usize, usize)> = cycle
        .iter()
        .map(|&c| {
            let d = g.channels[c];
            (d.from.node, d.from.port, d.to.node, d.to.port)
        })
        .collect();
    assert_eq!(
        hops,
        vec![(0, 1, 1, 2), (1, 1, 2, 2), (2, 1, 3, 2), (3, 1, 0, 2)]
    );
    // With doubled ring links and the dateline, the same shape has no cycle.
    assert_eq!(cdg("torus8", &["network.side=4"]).find_cycle(), None);
}

#[test]
fn every_shipped_topology_is_deadlock_free_except_the_deadlock_demonstrations() {
    let cyclic = [
        "ring4",
        "torus8-single",
        "torus4-single",
        "hypercube4-universal-oneset",
        "dragonfly72-oneset",
        "petersen",
    ];
    for (name, _) in emu::config::shipped_topologies() {
        if name.starts_with("sci-") || name.starts_with("fabric") || name.starts_with("relay") {
            let e = topology_plan(name, &[]).err();
            assert!(
                matches!(e, Some(emu::session::CaseError::CannotDeadlock { .. })),
                "{name}: {e:?}"
            );
            continue;
        }
        let report = CheckReport::of(&net(name, &[])).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            report.cycle.is_some(),
            cyclic.contains(name),
            "{name}: {}",
            report.render_text()
        );
    }
}

/// Runs `topology` × `traffic` on the sharded engine (2 threads) and returns the link
/// directions of the reported wait-for cycle as CDG channels, or `None` if the run
/// completed.
fn runtime_cycle(topology: &str, traffic: &str, sets: &[&str], g: &Cdg) -> Option<Vec<Channel>> {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let case = Case::load(topology, traffic, &sets, 1).expect("case");
    match engine::sharded::run(&case.net, &case.control(), 2, None) {
        Ok(o) => {
            assert!(o.complete, "{topology} × {traffic} did not complete");
            None
        }
        Err(EngineError::Deadlock { cycle, .. }) => {
            let cycle = cycle.expect("the waits close a cycle");
            let channels = waitfor::channels(&cycle)
                .iter()
                .map(|&(from, to)| g.channel(from, to).expect("a link direction"))
                .collect();
            Some(channels)
        }
        Err(e) => panic!("{topology} × {traffic}: {e}"),
    }
}

#[test]
fn the_single_wrap_torus_deadlocks_on_the_ring_traffic_exactly_around_the_static_cycle() {
    let g = cdg("torus4-single", &[]);
    let runtime = runtime_cycle("torus4-single", "torus4-ring", &[], &g)
        .expect("the ring traffic deadlocks the single-wrap torus");
    assert_closed(&g, &runtime, "runtime cycle");
    let mut a = runtime.clone();
    let mut b = g.find_cycle().expect("static cycle");
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(
        a, b,
        "the runtime cycle crosses the static cycle's channels"
    );
}

#[test]
fn the_same_traffic_completes_on_the_doubled_torus() {
    let g = cdg("torus8", &["network.side=4"]);
    let sets = ["network.side=4", "phases.measure_us=300"];
    assert_eq!(runtime_cycle("torus8", "torus4-ring", &sets, &g), None);
}

#[test]
fn universal_routing_on_one_link_set_deadlocks_at_runtime_and_two_sets_do_not() {
    let g = cdg("hypercube4-universal-oneset", &[]);
    let runtime = runtime_cycle("hypercube4-universal-oneset", "uniform", &[], &g)
        .expect("one link set deadlocks under uniform traffic");
    assert_closed(&g, &runtime, "runtime cycle");
    let sets = ["network.dimensions=4", "phases.measure_us=300"];
    let g2 = cdg("hypercube6-universal", &sets[..1]);
    assert_eq!(
        runtime_cycle("hypercube6-universal", "uniform", &sets, &g2),
        None
    );
}

fn emu(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(EMU).args(args).output().expect("runs emu");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_exit_codes_and_messages() {
    let (code, out, _) = emu(&["check", "--topology", "hypercube6"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("deadlock-free: CDG has 512 channels, 1792 dependencies, no cycle"),
        "{out}"
    );
    let (code, out, _) = emu(&["check", "-t", "torus4-single"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("deadlock possible: the routing has a cycle of 4 channels:"),
        "{out}"
    );
    assert!(
        out.contains("c104[0] port 1 → c104[1] port 2   a packet for terminal 2 there waits for\n"),
        "{out}"
    );
    assert!(out.contains("waits for the first\n"), "{out}");
    // --set applies to the topology; a traffic key or a bad value is bad input.
    let (code, out, _) = emu(&[
        "check",
        "-t",
        "torus8-single",
        "--set",
        "network.wrap=doubled",
    ]);
    assert_eq!(code, 0, "{out}");
    for bad in [
        "injection.kind=rate",
        "network.link_sets=3",
        "network.sides=4",
    ] {
        let (code, _, err) = emu(&["check", "-t", "hypercube6-universal", "--set", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert_eq!(err.lines().count(), 1, "{bad}: {err}");
        let key = bad.split('=').next().unwrap_or_default();
        assert!(err.contains(key), "{bad}: {err}");
    }
    let (code, _, err) = emu(&["check", "-t", "no-such-topology"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn cli_json_has_the_counts_and_the_cycle() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("check.json");
    let file = path.to_string_lossy().into_owned();
    let (code, _, _) = emu(&["check", "-t", "ring4", "--json", &file]);
    assert_eq!(code, 3);
    let text = std::fs::read_to_string(&path).expect("json written");
    let j: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(j["deadlock_free"], false);
    assert_eq!(j["check"]["channels"], 16);
    assert_eq!(j["check"]["dependencies"], 16);
    let cycle = j["check"]["cycle"].as_array().expect("cycle");
    assert_eq!(cycle.len(), 4);
    assert_eq!(cycle[0]["from_node"], "c104[0]");
    assert_eq!(cycle[0]["then"]["label"], 2);
}

/// Every family that cannot deadlock gets an answer on stdout and, with `--json`, in the
/// file; a bad value of its own is exit 2, not an answer.
#[test]
fn families_that_cannot_deadlock_answer_and_write_the_answer() {
    let dir = std::env::temp_dir().join(format!("emu-check-families-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    for (topology, family) in [
        ("sci-ring16", "an SCI ring"),
        ("fabric16-grant", "a switch fabric"),
        ("relay-ring", "a relay ring"),
    ] {
        let json = dir.join(format!("{topology}.json"));
        let path = json.to_string_lossy().into_owned();
        let (code, out, err) = emu(&["check", "-t", topology, "--json", &path]);
        assert_eq!(code, 0, "{topology}: {err}");
        assert!(
            out.contains(family) && out.contains("cannot deadlock"),
            "{out}"
        );
        let text = std::fs::read_to_string(&json).unwrap_or_else(|e| panic!("{topology}: {e}"));
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(v["deadlock_free"], true, "{text}");
        assert_eq!(v["cannot_deadlock"]["family"], family, "{text}");
        assert_eq!(v["cannot_deadlock"]["topology"], topology, "{text}");
    }
    let (code, _, err) = emu(&["check", "-t", "sci-ring4", "--set", "network.nodes=1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("network.nodes=1"), "{err}");
    let (code, _, err) = emu(&["check", "-t", "relay-ring", "--set", "link.buffer_tokens=8"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("[link] is a section of a network of C104s"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
