//! The chapter 6 reproductions (`emu reproduce`) in their scaled-down `--quick` form:
//! every row must be within its tolerance, so a regression in any DS-Link, VCP or C104
//! protocol rule fails here. Also the subcommand's exit codes and JSON, and the
//! buffer-below-batch opt-in of INMOS ch. 6 §6.2.1.

use emu::reproduce::{EXPERIMENTS, Report, find};
use std::process::Command;

const EMU: &str = env!("CARGO_BIN_EXE_emu");

fn check(name: &str) -> Report {
    let e = find(name).unwrap_or_else(|| panic!("experiment {name} is registered"));
    let r = (e.run)(true).unwrap_or_else(|err| panic!("{name}: {err}"));
    let fails: Vec<String> = r
        .failures()
        .iter()
        .map(|(t, row)| {
            format!(
                "{t}: {}: emulated {} vs {} ({}) {:?}",
                row.parameter, row.emulated, row.reference, row.source, row.tolerance
            )
        })
        .collect();
    assert!(
        fails.is_empty(),
        "{name}:\n{}\n{}",
        fails.join("\n"),
        r.text()
    );
    assert!(r.row_count() > 0, "{name} produced no rows");
    r
}

#[test]
fn dslink_bandwidth_matches_section_6_1_and_table_6_1() {
    let r = check("dslink-bandwidth");
    // The four Table 6.1 asymptotes are among the rows.
    let table = r
        .tables
        .iter()
        .flat_map(|t| &t.rows)
        .filter(|row| row.source == "Table 6.1")
        .count();
    assert_eq!(table, 4);
}

#[test]
fn dslink_latency_knee_and_no_data_below_the_batch() {
    check("dslink-latency");
}

#[test]
fn vcp_single_channel_follows_the_acknowledge_rule_and_envelope() {
    check("vcp-single-channel");
}

#[test]
fn c104_contention_is_within_the_stated_band_of_the_model() {
    check("c104-contention");
}

#[test]
fn c104_worst_case_delay_is_about_115_us() {
    check("c104-worst-case");
}

#[test]
fn the_same_run_gives_the_same_numbers() {
    let a = (find("c104-contention").map(|e| e.run).unwrap())(true).unwrap();
    let b = (find("c104-contention").map(|e| e.run).unwrap())(true).unwrap();
    assert_eq!(a.text(), b.text());
}

#[test]
fn every_experiment_has_a_unique_name() {
    let mut names: Vec<_> = EXPERIMENTS.iter().map(|e| e.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), EXPERIMENTS.len());
}

fn emu(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(EMU).args(args).output().expect("run emu");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_lists_runs_and_rejects_unknown_names() {
    let (code, out, _) = emu(&["reproduce", "--list"]);
    assert_eq!(code, 0);
    for e in EXPERIMENTS {
        assert!(out.contains(e.name), "{out}");
    }
    // The sections and the descriptions each start in one column, however long a name
    // or a section is.
    let columns: Vec<(usize, usize)> = EXPERIMENTS
        .iter()
        .map(|e| {
            let line = out
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{} ", e.name)))
                .unwrap_or_else(|| panic!("no line for {}: {out}", e.name));
            let at = |text: &str| line.find(text).map_or(0, |b| line[..b].chars().count());
            (at(e.section), at(e.about))
        })
        .collect();
    assert!(
        columns.windows(2).all(|w| w[0] == w[1]),
        "{columns:?}\n{out}"
    );
    let (code, _, err) = emu(&["reproduce", "no-such-thing"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("no-such-thing") && err.contains("dslink-bandwidth"),
        "{err}"
    );
    let (code, _, err) = emu(&["reproduce", "--bogus"]);
    assert_eq!(code, 2, "{err}");

    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("worst.json");
    let (code, out, err) = emu(&[
        "reproduce",
        "c104-worst-case",
        "--quick",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("unlucky packet"), "{out}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["reports"][0]["experiment"], "c104-worst-case");
    assert_eq!(v["reports"][0]["pass"], true);
    assert!(v["reports"][0]["tables"][0]["rows"][0]["emulated"].is_number());
}

#[test]
fn a_buffer_below_the_batch_needs_the_opt_in_and_then_moves_nothing() {
    let base = [
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform",
        "-q",
        "--set",
        "link.buffer_tokens=4",
        "--set",
        "phases.warmup_us=5",
        "--set",
        "phases.measure_us=20",
    ];
    let (code, _, err) = emu(&base);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("link.buffer_tokens") && err.contains("faults.allow_buffer_below_batch"),
        "{err}"
    );
    let mut args = base.to_vec();
    args.extend(["--set", "faults.allow_buffer_below_batch=true"]);
    let (code, out, err) = emu(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("0 delivered"), "{out}");
    assert!(out.contains("token hops  0"), "{out}");
}

#[test]
fn the_set_ups_run_identically_on_both_engines() {
    use emu::engine::{RunControl, actors, sequential};
    use emu::reproduce::setups::{self, Spec};
    use emu::traffic::{Destination, Injection};
    let mut spec = Spec::new(16, Injection::Continuous);
    spec.acknowledge = false;
    spec.window = (setups::START + 2000, setups::START + 12_000);
    let star = setups::star(&spec, 8, 8, Destination::AnyOf { count: 8 }, 20, 18).expect("star");
    let mut spec = Spec::new(40, Injection::Batch(20));
    spec.channels = 4;
    let pair = setups::pair(&spec, [true, true]).expect("pair");
    for net in [star, pair] {
        let ctl = RunControl {
            check: true,
            ..RunControl::for_plan(&net)
        };
        let a = sequential::run(&net, &ctl, None).expect("sequential");
        let b = actors::run(&net, &ctl, 2, None).expect("actors");
        assert_eq!(a.end_tick, b.end_tick, "{}", net.name());
        assert_eq!(a.activity, b.activity, "{}", net.name());
        for (x, y) in a.terminals.iter().zip(&b.terminals) {
            assert_eq!(x.counters, y.counters, "{}", net.name());
            assert_eq!(
                x.network_latency.sum,
                y.network_latency.sum,
                "{}",
                net.name()
            );
        }
        assert!(a.terminals.iter().any(|t| t.counters.delivered > 0));
    }
}

/// Chapter 7 cells that miss their band in `--quick` form for reasons the notes column
/// and the README give (the delay of a saturated cube permutation depends on source
/// queueing the chapter does not state; the MIN universal tables are our reading of
/// figures the text lacks). Any other failing row is a regression.
const C104_NETWORKS_KNOWN_MISSES: [&str; 3] = [
    "n-cube 64 systematic: mean delay",
    "MIN 64 universal: throughput",
    "MIN 256 universal: throughput",
];

#[test]
fn c104_networks_quick_meets_the_chapter_7_bands_except_the_explained_misses() {
    let r = (find("c104-networks").expect("registered").run)(true).expect("runs");
    let unexpected: Vec<String> = r
        .failures()
        .iter()
        .filter(|(_, row)| {
            !C104_NETWORKS_KNOWN_MISSES
                .iter()
                .any(|k| row.parameter.starts_with(k))
        })
        .map(|(t, row)| {
            format!(
                "{t}: {} = {} vs {}",
                row.parameter, row.emulated, row.reference
            )
        })
        .collect();
    assert!(
        unexpected.is_empty(),
        "{}\n{}",
        unexpected.join("\n"),
        r.text()
    );
    for (_, row) in r.failures() {
        assert!(!row.note.contains("not explained"), "{}", row.parameter);
    }
    let rows: Vec<_> = r.tables.iter().flat_map(|t| &t.rows).collect();
    // 64 terminals: 9 cases; 256: the 6 cube and MIN cases; two rows each.
    assert_eq!(
        rows.iter()
            .filter(|x| x.source.starts_with("Table 7."))
            .count(),
        30
    );
    let cube = rows
        .iter()
        .find(|x| x.parameter.starts_with("n-cube 64 systematic: throughput"))
        .expect("the contention-bound cell");
    assert!(cube.pass(), "{}", r.text());
    assert!(
        rows.iter()
            .any(|x| x.source.starts_with("Figure 7.8") && x.pass())
    );
}

/// The SCI experiments in their `--quick` form: every row within its tolerance, or a
/// marked, explained miss that still misses (a marked row that starts to pass fails
/// here too, so that its mark is taken off).
/// Runs every experiment whose name starts with `prefix` in its `--quick` form (each
/// row within its tolerance or a marked miss that still misses) and returns its marked
/// misses as "experiment: parameter".
fn known_misses(prefix: &str) -> Vec<String> {
    let mut misses = Vec::new();
    for e in EXPERIMENTS.iter().filter(|e| e.name.starts_with(prefix)) {
        let r = check(e.name);
        for t in &r.tables {
            for row in t.rows.iter().filter(|row| row.expected_miss.is_some()) {
                misses.push(format!("{}: {}", e.name, row.parameter));
            }
        }
    }
    misses
}

#[test]
fn sci_experiments_reproduce_the_papers_findings() {
    let misses = known_misses("sci-");
    // The known misses, each explained in its row (and in the README).
    assert_eq!(
        misses,
        [
            "sci-active-buffers: R=16: two active buffers / one",
            "sci-flow-control-cost: 20 % 64-byte data, R=2",
            "sci-hot-sender: R=16, cold nodes 0.044 bytes/ns, flow control",
            "sci-latency-breakdown: R=4, 30 % of saturation: wait for a break",
            "sci-latency-breakdown: R=4, 80 % of saturation: wait for a break",
            "sci-latency-breakdown: R=16, 30 % of saturation: wait for a break",
            "sci-latency-breakdown: R=16, 80 % of saturation: wait for a break",
            "sci-request-response: R=4, no flow control: sustained data rate",
            "sci-request-response: R=16, no flow control: sustained data rate",
            "sci-request-response: R=16, flow control: sustained data rate",
        ]
    );
}

/// The switch-fabric experiments in their `--quick` form (Gramsamer ch. 4-7): every row
/// within its tolerance, or a marked, explained miss that still misses.
#[test]
fn fabric_experiments_reproduce_the_documents_tables() {
    let misses = known_misses("fabric-");
    // The known misses, each explained in its row (and in the README).
    assert_eq!(
        misses,
        [
            "fabric-analytic: N=64 a) stateless/stateless C",
            "fabric-analytic: d/d saving at N=8",
            "fabric-buffers: RTT=8 Grant ST",
            "fabric-buffers: RTT=8 Credit Abs I n=4",
            "fabric-buffers: RTT=16 Grant ST",
            "fabric-buffers: RTT=16 Credit Abs I n=4",
            "fabric-buffers: RTT=32 Grant ST",
            "fabric-buffers: RTT=32 Credit Abs I n=4",
            "fabric-credit-fifo: N=8 M=13 BS=10 L=80%: at least",
            "fabric-credit-fifo: N=8 M=13 BS=30 L=80%: at least",
            "fabric-dynamics: RR: cycles to 40 / 60 % after A has drained",
            "fabric-dynamics: OCF after RR: cycles to 40 / 60 % after A has drained",
            "fabric-non-uniform: BS=1 RTT=4 w=0.8 N=8 HOF",
            "fabric-oqs-fairness: 50/50/5 C RR mean delay",
            "fabric-oqs-fairness: 40/40/40 A OCF mean delay",
            "fabric-oqs-fairness: 50/50/5 A OCF mean delay",
            "fabric-parallel-departures: BS=30, L=100 %: P(0)",
        ]
    );
}
