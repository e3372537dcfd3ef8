//! The memory a C104 network needs, known from its configuration before any routing
//! table is built ([`emu::network::Checked::memory_need`]), is a lower bound of what
//! the built plan says it needs ([`emu::network::Network::memory_need`]), so a network
//! refused early would have been refused late (docs/architecture.md "Memory").

use emu::config::{self, TopologyConfig, shipped_topologies};
use emu::network;

/// Early and late figures of `topology` (a shipped name or path) with `sets`, under
/// uniform traffic: (least, most) each, and the node and terminal counts agree.
fn early_and_late(topology: &str, sets: &[&str]) -> ((u64, u64), (u64, u64)) {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let topo = config::load_topology(topology, &sets).expect("loads");
    let traffic = config::load_traffic("uniform", &[]).expect("loads");
    let checked = network::check(topology, &topo.config, &traffic.config, 1).expect("valid");
    let (early, nodes, terminals) = checked.memory_need().expect("counted");
    let net = checked.build().expect("builds");
    let late = net.memory_need();
    assert_eq!(nodes, net.nodes().len(), "{topology} {sets:?}");
    assert_eq!(terminals, net.terminals().len(), "{topology} {sets:?}");
    ((early.least, early.most), (late.least, late.most))
}

fn is_c104(t: &TopologyConfig) -> bool {
    emu::family::of(&t.network).deadlock_check() == emu::family::DeadlockCheck::Channels
}

#[test]
fn the_early_figure_is_at_most_the_late_one_on_every_shipped_c104_network() {
    let mut compared = 0;
    for (stem, _) in shipped_topologies() {
        let topo = config::load_topology(stem, &[]).expect("a shipped file loads");
        if !is_c104(&topo.config) {
            continue;
        }
        let (early, late) = early_and_late(stem, &[]);
        assert!(
            early.0 <= late.0 && early.1 <= late.1,
            "{stem}: {early:?} > {late:?}"
        );
        // The late figure counts the routing tables, which the early one cannot see.
        assert!(early.0 < late.0, "{stem}: the tables are not counted");
        // ... and they are small beside the rest.
        assert!(
            late.0 - early.0 < late.0 / 10,
            "{stem}: {early:?} vs {late:?}"
        );
        compared += 1;
    }
    assert_eq!(compared, 29, "every shipped C104 topology");
}

#[test]
fn the_early_figure_is_at_most_the_late_one_on_scaled_networks() {
    let two = "packet.header_bytes=2";
    for (topology, sets) in [
        ("grid8", &["network.side=48", two][..]),
        ("grid8-universal", &["network.side=24", two][..]),
        ("kary4-3", &["network.k=9", "network.n=3", two][..]),
        ("torus8", &["network.side=20", two][..]),
        ("hypercube10-universal", &["network.dimensions=11"][..]),
        ("min1024-adaptive", &[][..]),
        ("ring4", &["network.switches=300", two][..]),
    ] {
        let (early, late) = early_and_late(topology, sets);
        assert!(
            early.0 <= late.0 && early.1 <= late.1,
            "{topology} {sets:?}: {early:?} > {late:?}"
        );
        assert!(early.0 < late.0, "{topology} {sets:?}");
    }
}

#[test]
fn the_early_figure_is_at_most_the_late_one_on_a_netlist_chain() {
    let dir = std::env::temp_dir().join(format!("emu-memory-early-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let n = 300u32;
    let path = dir.join("chain.toml");
    let switches = vec!["3"; n as usize].join(", ");
    let terminals: Vec<String> = (0..n).map(|s| format!("[{s}, 0]")).collect();
    let links: Vec<String> = (1..n).map(|s| format!("[{}, 2, {s}, 1]", s - 1)).collect();
    let text = format!(
        "[network]\nkind = \"netlist\"\nswitches = [{switches}]\nterminals = [{}]\nlinks = [{}]\n[packet]\nheader_bytes = 2\n",
        terminals.join(", "),
        links.join(", ")
    );
    std::fs::write(&path, text).expect("written");
    let (early, late) = early_and_late(path.to_str().expect("utf-8"), &[]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        early.0 <= late.0 && early.1 <= late.1,
        "{early:?} > {late:?}"
    );
    assert!(early.0 < late.0);
}
