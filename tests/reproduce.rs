//! The reproductions (`emu reproduce`) in their scaled-down `--quick` form: every row
//! must be within its tolerance or a marked known miss that still misses, and where a
//! row is also in the stored full-form run (`docs/validation/results.json`) its mark
//! must be the stored row's, so that the two forms explain a miss alike. Also the
//! subcommand's exit codes and JSON, and the buffer-below-batch opt-in of INMOS ch. 6
//! §6.2.1.

use emu::reproduce::{EXPERIMENTS, Forms, Report, c104_networks, find};
use std::collections::HashMap;
use std::process::Command;
use std::sync::OnceLock;

const EMU: &str = env!("CARGO_BIN_EXE_emu");

/// A row's place: experiment, table title, parameter (a parameter can recur in
/// several tables of one experiment).
type Place = (String, String, String);

/// The stored full-form run's marks, by place: `Some(why)` for a known miss, `None`
/// for an unmarked row.
fn stored_marks() -> &'static HashMap<Place, Option<String>> {
    static MARKS: OnceLock<HashMap<Place, Option<String>>> = OnceLock::new();
    MARKS.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let provenance = std::fs::read_to_string(root.join("docs/validation/provenance.toml"))
            .expect("the stored provenance");
        assert!(
            provenance.contains("form = \"full\""),
            "the stored run is the full form"
        );
        let text = std::fs::read_to_string(root.join("docs/validation/results.json"))
            .expect("the stored results");
        let v: serde_json::Value = serde_json::from_str(&text).expect("stored JSON");
        let mut marks = HashMap::new();
        for r in v["reports"].as_array().expect("reports") {
            let name = r["experiment"].as_str().expect("experiment").to_string();
            for t in r["tables"].as_array().expect("tables") {
                let title = t["title"].as_str().expect("title").to_string();
                for row in t["rows"].as_array().expect("rows") {
                    let parameter = row["parameter"].as_str().expect("parameter").to_string();
                    let why = row["expected_miss"].as_str().map(String::from);
                    marks.insert((name.clone(), title.clone(), parameter), why);
                }
            }
        }
        marks
    })
}

/// True if the row is marked in one form only (so its quick and full marks may differ).
fn marked_in_one_form(experiment: &str, parameter: &str) -> bool {
    experiment == "c104-networks"
        && c104_networks::KNOWN_MISSES
            .iter()
            .any(|m| m.forms != Forms::Both && parameter.starts_with(m.row))
}

/// Runs `name` in its `--quick` form and checks it: every row as expected (within its
/// tolerance, or a marked miss that still misses), every mark explained in numbers,
/// and every row the stored full-form run also has (same table title and parameter)
/// marked as the stored row is. Notes are not compared: they carry each run's own
/// measurements (a largest delay, a confidence interval, a sweep step), which differ
/// between the forms; the explanation of a miss is in its mark.
fn check(name: &str) -> Report {
    let e = find(name).unwrap_or_else(|| panic!("experiment {name} is registered"));
    let r = (e.run)(true).unwrap_or_else(|err| panic!("{name}: {err}"));
    let fails: Vec<String> = r
        .failures()
        .iter()
        .map(|(t, row)| {
            format!(
                "{t}: {}: emulated {} vs {} ({}) {:?} {}",
                row.parameter,
                row.emulated,
                row.reference,
                row.source,
                row.tolerance,
                row.verdict()
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
    let mut differ = Vec::new();
    for (title, row) in r
        .tables
        .iter()
        .flat_map(|t| t.rows.iter().map(move |row| (&t.title, row)))
    {
        if let Some(why) = &row.expected_miss {
            assert!(
                why.chars().any(|c| c.is_ascii_digit()),
                "{name}: {}: a known miss explained without a number: {why}",
                row.parameter
            );
        }
        let key = (name.to_string(), title.clone(), row.parameter.clone());
        if let Some(full) = stored_marks().get(&key)
            && *full != row.expected_miss
            && !marked_in_one_form(name, &row.parameter)
        {
            differ.push(format!(
                "{}: quick {:?}, stored full {:?}",
                row.parameter, row.expected_miss, full
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{name}: marks differ from the stored full-form run (rerun the experiment's full \
         form and store it, tools/validation-pages.sh --only {name}):\n{}",
        differ.join("\n")
    );
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

/// Chapter 7 in its `--quick` form: every cell within its band or a known miss marked
/// for this form (`c104_networks::KNOWN_MISSES`), explained in numbers.
#[test]
fn c104_networks_quick_meets_the_chapter_7_bands_or_marks_the_miss() {
    let r = check("c104-networks");
    let marked: Vec<&str> = r
        .tables
        .iter()
        .flat_map(|t| &t.rows)
        .filter(|x| x.expected_miss.is_some())
        .map(|x| x.parameter.as_str())
        .collect();
    // Every mark the list gives the quick form lands on a row of it (none is stale).
    for m in c104_networks::KNOWN_MISSES
        .iter()
        .filter(|m| m.forms.include(true))
    {
        assert!(
            marked.iter().any(|p| p.starts_with(m.row)),
            "{} is marked for --quick but no such row misses: {marked:?}",
            m.row
        );
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

/// One test per SCI and switch-fabric experiment, each its `--quick` form held to
/// [`check`] (every row within its tolerance, or a marked, explained miss that still
/// misses and is marked as in the stored full form): tests of their own, so that the
/// test harness spreads them over its threads (the fabric's take 1-40 s each).
macro_rules! experiment_tests {
    ($($test:ident => $name:literal,)*) => {
        $(
            #[test]
            fn $test() {
                check($name);
            }
        )*

        /// The experiments that have a test of their own above.
        const EXPERIMENT_TESTS: &[&str] = &[$($name),*];
    };
}

experiment_tests! {
    sci_active_buffers => "sci-active-buffers",
    sci_bus => "sci-bus",
    sci_flow_control_cost => "sci-flow-control-cost",
    sci_hot_sender => "sci-hot-sender",
    sci_latency_breakdown => "sci-latency-breakdown",
    sci_request_response => "sci-request-response",
    sci_sink_rate => "sci-sink-rate",
    sci_starvation => "sci-starvation",
    sci_uniform => "sci-uniform",
    fabric_analytic => "fabric-analytic",
    fabric_buffers => "fabric-buffers",
    fabric_bimodal => "fabric-bimodal",
    fabric_credit_fifo => "fabric-credit-fifo",
    fabric_design_point => "fabric-design-point",
    fabric_dynamics => "fabric-dynamics",
    fabric_fc_events => "fabric-fc-events",
    fabric_link_length => "fabric-link-length",
    fabric_memory => "fabric-memory",
    fabric_non_uniform => "fabric-non-uniform",
    fabric_oqs_fairness => "fabric-oqs-fairness",
    fabric_parallel_departures => "fabric-parallel-departures",
}

/// Every SCI and switch-fabric experiment has its test above, and every name there is
/// an experiment.
#[test]
fn every_sci_and_fabric_experiment_has_a_test_of_its_own() {
    let mut registered: Vec<&str> = EXPERIMENTS
        .iter()
        .map(|e| e.name)
        .filter(|n| n.starts_with("sci-") || n.starts_with("fabric-"))
        .collect();
    let mut tested = EXPERIMENT_TESTS.to_vec();
    registered.sort_unstable();
    tested.sort_unstable();
    assert_eq!(tested, registered);
}
