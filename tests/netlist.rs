//! The `netlist` topology form: a network listed switch by switch, with computed
//! shortest-path or given interval tables (INMOS ch. 7 §7.1). The shipped
//! example's tables route every pair along a shortest path, every message is
//! delivered once, given tables are checked, and bad lists name their key. Computed
//! tables spread destinations over equally short ports (both spines of a leaf-spine
//! network carry traffic), and links no route crosses are named in a warning.

use emu::config::{load_topology, load_traffic};
use emu::engine::{RunControl, sequential};
use emu::network::walk::Walker;
use emu::network::{Network, build};

fn plan_from(topology: &str, overrides: &[&str]) -> Result<Network, String> {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let t = load_topology(topology, &o).map_err(|e| e.to_string())?;
    let f = load_traffic("uniform", &o).map_err(|e| e.to_string())?;
    build("netlist", &t.config, &f.config, 1).map_err(|e| format!("{}: {}", e.key, e.message))
}

/// Switch hops of the shipped example: terminal i's switch, and the switch graph.
const SWITCH_OF: [usize; 11] = [1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0];

fn switches_crossed(a: usize, b: usize) -> usize {
    // s0 is the hub; s1 and s2 also have a direct link.
    let hops = match (a.min(b), a.max(b)) {
        (x, y) if x == y => 0,
        (0, _) | (1, 2) => 1,
        _ => 2,
    };
    hops + 1
}

#[test]
fn computed_tables_route_every_pair_along_a_shortest_path() {
    let net = plan_from("netlist-tree", &[]).expect("builds");
    assert_eq!((net.terminal_count(), net.switches()), (11, 4));
    let w = Walker::new(&net);
    for s in 0..11u32 {
        for d in 0..11u32 {
            let r = w.route(s, d, None, &mut |_| 0).expect("routes");
            assert_eq!(r.terminal, d, "{s}→{d}");
            let want = switches_crossed(SWITCH_OF[s as usize], SWITCH_OF[d as usize]);
            assert_eq!(r.switches.len(), want, "{s}→{d}: {:?}", r.switches);
        }
    }
}

#[test]
fn every_message_is_delivered_once_with_the_credit_check_on() {
    let net = plan_from(
        "netlist-tree",
        &[
            "injection.kind=batch",
            "injection.messages=20",
            "message.bytes=100",
        ],
    )
    .expect("builds");
    let ctl = RunControl {
        check: true,
        ..RunControl::for_plan_within(&net, None)
    };
    let o = sequential::run(&net, &ctl, None).expect("runs without deadlock");
    assert!(o.complete);
    let delivered: u64 = o.terminals.iter().map(|t| t.counters.delivered).sum();
    let packets: u64 = o
        .terminals
        .iter()
        .map(|t| t.counters.packets_delivered)
        .sum();
    let wrong: u64 = o.terminals.iter().map(|t| t.counters.out_of_order).sum();
    assert_eq!(delivered, 11 * 20);
    assert_eq!(packets, 4 * 11 * 20);
    assert_eq!(wrong, 0);
    assert_eq!(o.activity.packets_injected, o.activity.packets_ejected);
}

/// A netlist topology file named `name` in the test binary's own directory (one for
/// the whole run, removed with the process's temp files).
fn netlist_file(name: &str, network: &str) -> std::path::PathBuf {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(|| tempfile::tempdir().unwrap()).path();
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, format!("[network]\nkind = \"netlist\"\n{network}")).unwrap();
    path
}

/// Two switches in a line, two terminals each.
const LINE: &str =
    "switches = [3, 3]\nterminals = [[0, 0], [0, 1], [1, 0], [1, 1]]\nlinks = [[0, 2, 1, 2]]\n";

#[test]
fn given_tables_are_used_and_checked() {
    let good = netlist_file(
        "given",
        &format!(
            "{LINE}tables = [[[0, 1, 0], [1, 2, 1], [2, 4, 2]], [[0, 2, 2], [2, 3, 0], [3, 4, 1]]]\n"
        ),
    );
    let net = plan_from(good.to_str().unwrap(), &[]).expect("given tables build");
    let w = Walker::new(&net);
    for s in 0..4 {
        for d in 0..4 {
            assert_eq!(w.route(s, d, None, &mut |_| 0).unwrap().terminal, d);
        }
    }
    for (name, tables, needle) in [
        (
            "loop",
            "[[[0, 1, 0], [1, 2, 1], [2, 4, 2]], [[0, 2, 2], [2, 3, 0], [3, 4, 2]]]",
            "label 3 loops back",
        ),
        (
            "wrong",
            "[[[0, 1, 1], [1, 2, 0], [2, 4, 2]], [[0, 2, 2], [2, 3, 0], [3, 4, 1]]]",
            "reaches terminal",
        ),
        (
            "gap",
            "[[[0, 1, 0], [2, 4, 2]], [[0, 2, 2], [2, 3, 0], [3, 4, 1]]]",
            "no route for label 1",
        ),
        ("count", "[[[0, 4, 2]]]", "1 tables for 2 switches"),
        (
            "free",
            "[[[0, 1, 0], [1, 2, 1], [2, 4, 2]], [[0, 2, 2], [2, 3, 0], [3, 4, 1]], []]",
            "3 tables",
        ),
    ] {
        let f = netlist_file(name, &format!("{LINE}tables = {tables}\n"));
        let e = plan_from(f.to_str().unwrap(), &[]).expect_err(name);
        assert!(
            e.starts_with("network.tables:") && e.contains(needle),
            "{name}: {e}"
        );
    }
}

#[test]
fn bad_lists_name_their_key() {
    for (name, network, key, needle) in [
        (
            "ports",
            "switches = [33]\nterminals = [[0, 0]]\n",
            "network.switches",
            "1 to 32",
        ),
        (
            "noswitch",
            "switches = [2]\nterminals = [[1, 0]]\n",
            "network.terminals",
            "switch 1 does not exist",
        ),
        (
            "twice",
            "switches = [2]\nterminals = [[0, 0], [0, 0]]\n",
            "network.terminals",
            "already used",
        ),
        (
            "port",
            "switches = [2, 2]\nterminals = [[0, 0], [1, 0]]\nlinks = [[0, 1, 1, 2]]\n",
            "network.links",
            "not 2",
        ),
        (
            "apart",
            "switches = [2, 2]\nterminals = [[0, 0], [1, 0]]\n",
            "network.links",
            "not connected",
        ),
        (
            "busy",
            "switches = [2, 2]\nterminals = [[0, 0], [1, 0]]\nlinks = [[0, 0, 1, 1]]\n",
            "network.links",
            "already used",
        ),
        (
            "loop",
            "switches = [4, 2]\nterminals = [[0, 0], [1, 0]]\nlinks = [[0, 1, 1, 1], [0, 2, 0, 3]]\n",
            "network.links",
            "links switch 0 to itself",
        ),
    ] {
        let f = netlist_file(name, network);
        let e = plan_from(f.to_str().unwrap(), &[]).expect_err(name);
        assert!(
            e.starts_with(&format!("{key}:")) && e.contains(needle),
            "{name}: {e}"
        );
    }
    // The command line says the same, with exit code 2.
    let f = netlist_file("cli", "switches = [2, 2]\nterminals = [[0, 0], [1, 0]]\n");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_emu"))
        .args(["-t", f.to_str().unwrap(), "-p", "uniform", "-q"])
        .output()
        .expect("emu runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("network.links") && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn the_systematic_pattern_is_refused_on_a_netlist() {
    let o: Vec<String> = Vec::new();
    let t = load_topology("netlist-tree", &o).unwrap();
    let f = load_traffic("systematic", &o).unwrap();
    let e = build("netlist", &t.config, &f.config, 1).expect_err("no systematic pattern");
    assert!(e.message.contains("netlist"), "{}", e.message);
}

/// Four leaves (switches 0-3) of two terminals each, every leaf linked to both spines
/// (switches 4 and 5).
const LEAF_SPINE: &str = "switches = [4, 4, 4, 4, 4, 4]
terminals = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1]]
links = [[0, 2, 4, 0], [1, 2, 4, 1], [2, 2, 4, 2], [3, 2, 4, 3],
         [0, 3, 5, 0], [1, 3, 5, 1], [2, 3, 5, 2], [3, 3, 5, 3]]
";

#[test]
fn computed_tables_spread_destinations_over_both_spines_of_a_leaf_spine_network() {
    let f = netlist_file("leafspine", LEAF_SPINE);
    let net = plan_from(f.to_str().unwrap(), &[]).expect("builds");
    let w = Walker::new(&net);
    let name = |n: usize| net.nodes()[n].name.clone();
    let mut through = std::collections::BTreeMap::<String, u32>::new();
    for s in 0..8u32 {
        for d in 0..8u32 {
            let r = w.route(s, d, None, &mut |_| 0).expect("routes");
            assert_eq!(r.terminal, d);
            // Same leaf: one switch; else leaf, spine, leaf (a shortest path).
            let want = if s / 2 == d / 2 { 1 } else { 3 };
            assert_eq!(r.switches.len(), want, "{s}→{d}: {:?}", r.switches);
            if want == 3 {
                *through.entry(name(r.switches[1])).or_default() += 1;
            }
        }
    }
    // 48 pairs on different leaves: each spine carries half of them.
    let want: std::collections::BTreeMap<String, u32> =
        [("c104[4]".to_string(), 24), ("c104[5]".to_string(), 24)].into();
    assert_eq!(through, want);
    assert!(net.warnings().is_empty(), "{:?}", net.warnings());
}

#[test]
fn a_link_no_route_crosses_is_named_in_a_warning() {
    // A triangle: switches 0 and 1 are linked directly and through switch 2, which has
    // no terminal; the detour is longer, so no shortest path takes it.
    let f = netlist_file(
        "detour",
        "switches = [3, 3, 2]\nterminals = [[0, 0], [1, 0]]\nlinks = [[0, 1, 1, 1], [0, 2, 2, 0], [1, 2, 2, 1]]\n",
    );
    let net = plan_from(f.to_str().unwrap(), &[]).expect("builds");
    let [w] = net.warnings() else {
        panic!("one warning: {:?}", net.warnings());
    };
    assert!(
        w.starts_with("network.links: 2 links carry no traffic")
            && w.ends_with("link 1 [0, 2, 2, 0], link 2 [1, 2, 2, 1]"),
        "{w}"
    );
    // The report ends with it, once, and its JSON does not change for it.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_emu"))
        .args(["-t", f.to_str().unwrap(), "-p", "uniform", "-q"])
        .args([
            "--set",
            "phases.warmup_us=10",
            "--set",
            "phases.measure_us=50",
        ])
        .output()
        .expect("emu runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(out.matches(&format!("WARNING: {w}")).count(), 1, "{out}");
    // The shipped example uses every link.
    let tree = plan_from("netlist-tree", &[]).expect("builds");
    assert!(tree.warnings().is_empty(), "{:?}", tree.warnings());
}

#[test]
fn given_tables_that_leave_a_link_idle_are_warned_about_too() {
    // Two switches joined by two links; the given tables use the first only.
    let f = netlist_file(
        "idle",
        "switches = [3, 3]\nterminals = [[0, 0], [1, 0]]\nlinks = [[0, 1, 1, 1], [0, 2, 1, 2]]\n\
         tables = [[[0, 1, 0], [1, 2, 1]], [[0, 1, 1], [1, 2, 0]]]\n",
    );
    let net = plan_from(f.to_str().unwrap(), &[]).expect("builds");
    assert_eq!(net.warnings().len(), 1, "{:?}", net.warnings());
    assert!(
        net.warnings()[0].contains("1 link carries no traffic")
            && net.warnings()[0].contains("given network.tables")
            && net.warnings()[0].ends_with("link 1 [0, 2, 1, 2]"),
        "{:?}",
        net.warnings()
    );
    // Computed, the two parallel links share the labels.
    let computed = netlist_file(
        "parallel",
        "switches = [3, 3]\nterminals = [[0, 0], [1, 0]]\nlinks = [[0, 1, 1, 1], [0, 2, 1, 2]]\n",
    );
    let net = plan_from(computed.to_str().unwrap(), &[]).expect("builds");
    assert!(net.warnings().is_empty(), "{:?}", net.warnings());
}
