//! The memory a C104 network needs, known from its configuration before any routing
//! table is built ([`emu::network::Checked::memory_need`]), is a lower bound of what
//! the built plan says it needs ([`emu::network::Network::memory_need`]), so a network
//! refused early would have been refused late (docs/architecture.md "Memory").
//!
//! And what the estimate lets through is held to the limits as it runs: a saturated
//! 10-cube's run, sweep and stress search under an address-space limit (`ulimit -v`)
//! from 30 to 200 MB end with exit 2 and one line — refused for its size, stopped at
//! the limit or stopped for the growth its pace projects (a sweep's and a search's
//! too, from the runs in flight) — never aborted by the allocator (134), killed (137)
//! or panicking; a refusal under a tiny `--memory-limit` is one line too. A saturated
//! run and sweep whose latency histograms grow fast at first but that fit are not
//! stopped.

use crate::common;
use emu::config::{self, TopologyConfig, shipped_topologies};
use emu::network;
use std::process::Command;
use std::time::Duration;

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
    assert_eq!(compared, 36, "every shipped C104 topology");
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

/// A saturated 10-cube whose measured part is long (100 ms of virtual time): it
/// outgrows any limit up to 200 MB long before its end.
const SATURATED: &[&str] = &[
    "-t",
    "hypercube10",
    "-p",
    "uniform",
    "--set",
    "phases.measure_us=100000",
];

/// Runs `emu ARGS` under `ulimit -v MB` in the crate directory, failing the test if it
/// is still running after `seconds`; returns what it did and a line naming the case.
fn under_ulimit(mb: u64, args: &[&str], seconds: u64) -> (common::Captured, String) {
    let capture = tempfile::tempdir().expect("a temporary directory");
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {} && exec \"$EMU\" \"$@\"", mb * 1024))
        .arg("sh")
        .args(args)
        .env("EMU", env!("CARGO_BIN_EXE_emu"));
    let what = format!("ulimit -v {mb} MB: emu {}", args.join(" "));
    let c = common::run_captured(
        &mut cmd,
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
        capture.path(),
        Duration::from_secs(seconds),
    )
    .unwrap_or_else(|| panic!("{what}: still running after {seconds} s"));
    (c, what)
}

/// Runs `emu ARGS` under `ulimit -v MB` (its address space at most `mb` MB) in the
/// crate directory, and checks that it ends with exit 2 and exactly one line on
/// stderr, an `error:` one; returns the line.
fn one_line_under_ulimit(mb: u64, args: &[&str]) -> String {
    let (c, what) = under_ulimit(mb, args, 90);
    let lines: Vec<&str> = c.stderr.lines().collect();
    assert!(
        c.code == 2 && lines.len() == 1 && lines[0].starts_with("error: "),
        "{what}: exit {}, stderr:\n{}",
        c.code,
        c.stderr
    );
    lines[0].to_string()
}

#[test]
fn a_saturated_run_under_an_address_space_limit_ends_with_exit_2_and_one_line() {
    let mut seen = Vec::new();
    // 100 MB three times: the guard used to lose the race there now and then.
    for mb in [30, 40, 45, 62, 100, 100, 100, 200] {
        let mut args = vec!["-q"];
        args.extend(SATURATED);
        let line = one_line_under_ulimit(mb, &args);
        seen.push((mb, line));
    }
    // Small limits refuse the network for its size, larger ones stop its run.
    assert!(seen[0].1.contains("would need at least"), "{:?}", seen[0]);
    for (mb, line) in seen.iter().filter(|(mb, _)| *mb >= 62) {
        assert!(line.starts_with("error: memory: "), "{mb} MB: {line}");
        assert!(
            line.contains("address-space limit (ulimit -v)"),
            "{mb} MB: {line}"
        );
    }
    // At 200 MB the run is far from its limit at first: it is its projected growth
    // that stops it, saying how big it would get.
    let (_, line) = seen.last().expect("200 MB");
    assert!(
        line.contains("at its pace so far this run would grow to about"),
        "{line}"
    );
}

#[test]
fn a_saturated_sweep_under_an_address_space_limit_ends_with_exit_2_and_one_line() {
    for mb in [30, 45, 50, 62, 150, 200] {
        let mut args = vec!["sweep", "-q", "--threads", "2"];
        args.extend(SATURATED);
        args.extend(["--load", "0.9:1.0:0.1"]);
        let line = one_line_under_ulimit(mb, &args);
        // Far from the limit at first, the sweep is stopped for the growth its two
        // runs in flight project (their queues), saying so, not at the limit
        // (about a minute on).
        if mb >= 150 {
            assert!(
                line.contains(
                    "at their pace so far the 2 runs of this sweep in flight would grow to about"
                ),
                "{mb} MB: {line}"
            );
        }
    }
}

#[test]
fn a_stress_search_under_an_address_space_limit_ends_with_exit_2_and_one_line() {
    // The small limits are reached within seconds; under 150 MB, where the limit is
    // half a minute away, it is the growth projected from the runs in flight (their
    // latency histograms) that stops it (tools/memory-probe.sh tries every limit up
    // to 200 MB).
    let search = [
        "stress",
        "-q",
        "--threads",
        "2",
        "-t",
        "hypercube10",
        "--seeds",
        "4",
        "--run-us",
        "2000",
    ];
    for mb in [30, 45, 50, 58, 150] {
        let line = one_line_under_ulimit(mb, &search);
        if mb == 150 {
            assert!(
                line.contains("runs of this stress search in flight would grow to about"),
                "{mb} MB: {line}"
            );
        }
    }
}

/// Runs `emu ARGS` under `ulimit -v MB` and checks that it ends with exit 0, nothing
/// on stderr.
fn fits_under_ulimit(mb: u64, args: &[&str]) {
    let (c, what) = under_ulimit(mb, args, 300);
    assert!(
        c.code == 0 && c.stderr.is_empty(),
        "{what}: exit {}, stderr:\n{}",
        c.code,
        c.stderr
    );
}

#[test]
fn a_saturated_run_and_sweep_that_fit_are_not_stopped_for_their_histograms() {
    // An 8-cube offered more than it carries for 1,000 µs: its latency histograms are
    // made and grow fast in its first few hundred µs, then ever slower. It peaks at
    // about 88 MB of address space; carried on in proportion to the time, that fast
    // start projected it to 147 MB, and stopped it, under 150 MB.
    let saturated = [
        "-q",
        "-t",
        "hypercube8",
        "-p",
        "uniform",
        "--set",
        "phases.measure_us=1000",
    ];
    let mut run = saturated.to_vec();
    run.extend([
        "--set",
        "injection.kind=rate",
        "--set",
        "injection.load=1.0",
        "--threads",
        "1",
    ]);
    fits_under_ulimit(150, &run);
    // Two such runs at once, in a sweep.
    let mut sweep = vec!["sweep", "--threads", "2", "--load", "0.9:1.0:0.1"];
    sweep.extend(saturated);
    fits_under_ulimit(250, &sweep);
}

#[test]
fn a_network_refused_under_a_tiny_memory_limit_says_so_in_one_line() {
    // 1e-9 GB is one byte: every network is refused for its size before it runs, and
    // the run guard, which counts from there, does not add a line of its own.
    for args in [
        &["-q", "-t", "sci-ring4", "-p", "sci-uniform"][..],
        &["-q", "-t", "hypercube6", "-p", "uniform"][..],
        &[
            "sweep",
            "-q",
            "-t",
            "sci-ring4",
            "-p",
            "sci-uniform",
            "--load",
            "0.5",
        ][..],
        &[
            "sweep",
            "-q",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--load",
            "0.5",
        ][..],
        &["stress", "-q", "-t", "hypercube6", "--seeds", "2"][..],
        &["stress", "-q", "-t", "sci-ring4", "--seeds", "2"][..],
    ] {
        for _ in 0..3 {
            let mut all = args.to_vec();
            all.extend(["--memory-limit", "1e-9"]);
            let (code, _, stderr) = common::emu(&all);
            let lines: Vec<&str> = stderr.lines().collect();
            assert!(
                code == 2 && lines.len() == 1,
                "emu {}: exit {code}\n{stderr}",
                all.join(" ")
            );
            assert!(
                lines[0].starts_with("error: the network would need at least"),
                "{stderr}"
            );
        }
    }
}

#[test]
fn a_starvation_search_on_an_sci_ring_is_held_to_the_memory_limit() {
    // A ring of 2,000 nodes outgrows 20 MB at once: the search's guard stops it with one
    // line naming the search, as it stops a deadlock search.
    for _ in 0..3 {
        let args = [
            "stress",
            "-q",
            "-t",
            "sci-ring4",
            "--set",
            "network.nodes=2000",
            "--seeds",
            "2",
            "--memory-limit",
            "0.02",
        ];
        let (code, _, stderr) = common::emu(&args);
        let lines: Vec<&str> = stderr.lines().collect();
        assert!(
            code == 2 && lines.len() == 1,
            "emu {}: exit {code}\n{stderr}",
            args.join(" ")
        );
        assert!(
            lines[0].starts_with("error: memory: ") && lines[0].contains("stress search"),
            "{stderr}"
        );
    }
}
