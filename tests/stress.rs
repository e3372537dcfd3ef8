//! `emu stress`: the search finds the deadlock of a network whose
//! routing can deadlock, the shrinker turns it into a case no larger that still
//! deadlocks when rerun from the printed traffic file, a deadlock-free network is
//! reported clean with its case and tick counts, and the exit codes.

use emu::config::{self, TrafficConfig};
use emu::engine::{self, EngineError};
use emu::session::Case;
use emu::stress::shrink::Size;
use emu::stress::{Target, Verdict, generate, run_one, search, shrink, write};
use std::process::Command;

const EMU: &str = env!("CARGO_BIN_EXE_emu");

/// A fresh directory, removed when the value is dropped.
fn temp(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("emu-stress-{tag}-"))
        .tempdir()
        .expect("temp dir")
}

/// Reruns a traffic file the way the user would, through `Case::load` and the
/// engine, and returns the deadlock tick.
fn rerun(topology: &str, traffic: &std::path::Path, sets: &[String], seed: u64) -> u64 {
    let path = traffic.to_string_lossy();
    let case = Case::load(topology, &path, sets, seed).expect("the printed file loads");
    match engine::sharded::run(&case.net, &case.control(), 1, None) {
        Err(e @ EngineError::Deadlock { .. }) => {
            let EngineError::Deadlock { tick, cycle, .. } = e else {
                unreachable!()
            };
            assert!(
                cycle.is_some(),
                "a deadlock on a ring closes a wait-for cycle"
            );
            tick
        }
        other => panic!("the shrunk case must deadlock when rerun, got {other:?}"),
    }
}

#[test]
fn the_shrinker_makes_a_deadlocking_ring_case_smaller_and_it_still_deadlocks() {
    // ring4 under the shipped continuous uniform traffic deadlocks (tests/deadlock.rs).
    let topo = config::load_topology("ring4", &[]).expect("shipped");
    let target = Target {
        name: "ring4",
        topology: &topo.config,
    };
    let traffic: TrafficConfig = config::load_traffic("uniform", &[])
        .expect("shipped")
        .config;
    let Verdict::Deadlock(found) = run_one(target, &traffic, 1).expect("runs") else {
        panic!("ring4 with uniform traffic deadlocks");
    };
    let s = shrink(target, 4, &traffic, 1, *found, 200).expect("shrinks");
    let original = Size::of(&traffic, 4);
    assert_eq!(original.senders, 4);
    assert_eq!(original.messages, None, "continuous");
    assert!(s.size.within(&original), "{:?} vs {original:?}", s.size);
    // Continuous injection became a finite batch: strictly smaller.
    assert!(s.size.messages.is_some(), "{:?}", s.steps);
    assert!(s.candidates <= 200);
    // The printed file reruns to the same deadlock, at the same tick.
    let dir = temp("ring");
    let file = dir.path().join("deadlock.toml");
    let text = write::traffic_file(&s.traffic, &["test".into()]).expect("writes");
    std::fs::write(&file, text).expect("write");
    assert_eq!(rerun("ring4", &file, &[], 1), s.found.tick);
}

#[test]
fn the_search_stops_at_the_same_first_deadlock_on_any_thread_count() {
    let topo = config::load_topology("ring4", &[]).expect("shipped");
    let target = Target {
        name: "ring4",
        topology: &topo.config,
    };
    let cases = generate(1, 4, 4, 50.0);
    let one = search(target, &cases, 1, |_, _| {}).expect("runs");
    let two = search(target, &cases, 2, |_, _| {}).expect("runs");
    let (c1, f1) = one.first.expect("ring4 deadlocks within 4 seeds");
    let (c2, f2) = two.first.expect("same");
    assert_eq!((c1.index, f1.tick), (c2.index, f2.tick));
    assert_eq!((one.tried, one.ticks), (two.tried, two.ticks));
    assert_eq!(one.tried, c1.index + 1);
}

#[test]
fn a_deadlock_free_hypercube_reports_no_deadlock_with_counts() {
    let out = Command::new(EMU)
        .args([
            "stress",
            "-t",
            "hypercube6",
            "--seeds",
            "2",
            "--buffers",
            "small",
            "--run-us",
            "30",
        ])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("no deadlock in 6 cases ("), "{stdout}");
    assert!(stdout.contains("ticks) on hypercube6"), "{stdout}");
    assert!(
        stdout.contains("small buffers (input 8 tokens, output 8 tokens)"),
        "{stdout}"
    );
}

#[test]
fn the_cli_prints_and_writes_a_rerunnable_case_and_exits_3() {
    let dir = temp("cli");
    let out_file = dir.path().join("d.toml");
    let json = dir.path().join("s.json");
    let out = Command::new(EMU)
        .args([
            "stress",
            "-t",
            "ring4",
            "--seeds",
            "2",
            "--buffers",
            "small",
            "--out",
        ])
        .arg(&out_file)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("reproduce with: emu --topology ring4 --traffic"),
        "{stdout}"
    );
    assert!(stdout.contains("--set link.buffer_tokens=8 --set c104.output_buffer_tokens=8"));
    assert!(stdout.contains("wait-for cycle at tick"), "{stdout}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json written")).expect("json");
    assert_eq!(doc["outcome"], "deadlock");
    assert!(doc["shrunk"]["cycle"].is_array());
    let sets = vec![
        "link.buffer_tokens=8".to_string(),
        "c104.output_buffer_tokens=8".to_string(),
    ];
    let seed = doc["original"]["seed"].as_u64().expect("seed");
    assert_eq!(
        rerun("ring4", &out_file, &sets, seed),
        doc["shrunk"]["tick"].as_u64().expect("tick")
    );
    // The emu command it prints exits 3 too.
    let rerun_cli = Command::new(EMU)
        .args(["-q", "--topology", "ring4", "--traffic"])
        .arg(&out_file)
        .args([
            "--seed",
            &seed.to_string(),
            "--set",
            &sets[0],
            "--set",
            &sets[1],
        ])
        .output()
        .expect("runs");
    assert_eq!(rerun_cli.status.code(), Some(3));
}

#[test]
fn bad_input_exits_2_naming_the_flag_or_key() {
    for (args, says) in [
        (
            vec!["stress", "-t", "ring4", "--seeds", "0"],
            "0 is not from 1 to 100000",
        ),
        (vec!["stress", "-t", "ring4", "--run-us", "0"], "--run-us 0"),
        (vec!["stress", "-t", "nosuch"], "nosuch"),
        (
            vec!["stress", "-t", "ring4", "--set", "pattern.kind=uniform"],
            "give only topology keys",
        ),
        (
            vec!["stress", "-t", "ring4", "--set", "link.buffer_tokens=3"],
            "link.buffer_tokens",
        ),
    ] {
        let out = Command::new(EMU).args(&args).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn on_a_single_wrap_torus_the_shrunk_deadlock_is_one_ring_of_links() {
    // Small buffers (input = FCT batch = 8 tokens, output 8), as `--buffers small`.
    let sets = vec![
        "link.buffer_tokens=8".to_string(),
        "c104.output_buffer_tokens=8".to_string(),
    ];
    let topo = config::load_topology("torus8-single", &sets).expect("shipped");
    let target = Target {
        name: "torus8-single",
        topology: &topo.config,
    };
    let cases = generate(1, 2, 64, 100.0);
    let r = search(target, &cases, 2, |_, _| {}).expect("runs");
    let (case, found) = r.first.expect("torus8-single deadlocks within 2 seeds");
    let original = Size::of(&case.traffic, 64);
    let s = shrink(target, 64, &case.traffic, case.seed, found, 150).expect("shrinks");
    assert!(s.size.within(&original), "{:?} vs {original:?}", s.size);
    assert!(s.size.senders < original.senders, "{:?}", s.steps);
    let cycle = s.found.cycle.as_deref().expect("a wait-for cycle");
    // The links of the cycle close one ring of the torus: 8 switches, each link
    // leaving the switch the previous one entered.
    let links = emu::deadlock::waitfor::channels(cycle);
    assert_eq!(
        links.len(),
        8,
        "{:#?}",
        emu::deadlock::waitfor::render(cycle)
    );
    for (i, (_, to)) in links.iter().enumerate() {
        assert_eq!(to.node, links[(i + 1) % links.len()].0.node);
    }
    let dir = temp("torus");
    let file = dir.path().join("deadlock.toml");
    std::fs::write(&file, write::traffic_file(&s.traffic, &[]).expect("writes")).expect("write");
    assert_eq!(
        rerun("torus8-single", &file, &sets, case.seed),
        s.found.tick
    );
}

#[test]
fn a_flow_control_violation_is_exit_4_not_a_deadlock() {
    let out = Command::new(EMU)
        .args([
            "stress",
            "-t",
            "hypercube6",
            "--seeds",
            "1",
            "--set",
            "faults.extra_initial_credit=8",
        ])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(
        err.contains("flow-control violation") && err.contains("(link to c104["),
        "{err}"
    );
}

fn run_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(EMU)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("emu runs")
}

fn err_of(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// What a stress search printed and wrote in `dir` (--out s.toml, --json s.json).
fn results(dir: &std::path::Path, o: &std::process::Output) -> Vec<Vec<u8>> {
    let mut v = vec![o.stdout.clone()];
    for f in ["s.toml", "s.json"] {
        v.push(std::fs::read(dir.join(f)).unwrap_or_default());
    }
    v
}

/// Runs shards 1..=n of `emu stress SEARCH` in `dir`, then merges them in reverse
/// order with `outputs`; returns the merge.
fn sharded(
    dir: &std::path::Path,
    search: &[&str],
    n: u32,
    outputs: &[&str],
) -> std::process::Output {
    let mut files = vec![];
    for k in 1..=n {
        let (shard, out) = (format!("{k}/{n}"), format!("part{k}.jsonl"));
        let mut args = vec!["stress"];
        args.extend(search);
        args.extend(["-q", "--shard", &shard, "--out", &out]);
        let o = run_in(dir, &args);
        assert_eq!(o.status.code(), Some(0), "shard {shard}: {}", err_of(&o));
        assert!(o.stdout.is_empty());
        files.push(out);
    }
    let mut args = vec!["merge"];
    args.extend(files.iter().rev().map(String::as_str));
    args.extend(outputs);
    run_in(dir, &args)
}

#[test]
fn stress_shards_merge_to_the_single_process_deadlock_shrunk_file_and_exit_3() {
    // The first deadlock is case 6 of 12: in the middle of a shard, after clean cases
    // of every other shard.
    let search = ["-t", "torus4-single", "--seeds", "4", "--run-us", "30"];
    let outputs = ["-v", "--out", "s.toml", "--json", "s.json"];
    let whole = temp("shard-whole");
    let mut args = vec!["stress"];
    args.extend(search);
    args.push("-q");
    args.extend(outputs);
    let o = run_in(whole.path(), &args);
    assert_eq!(o.status.code(), Some(3), "{}", err_of(&o));
    let expect = results(whole.path(), &o);
    let text = String::from_utf8_lossy(&expect[0]).into_owned();
    assert!(text.contains("deadlock in case 6 of 12 "), "{text}");
    assert!(
        text.contains("case    5: ") && !text.contains("case    7: "),
        "{text}"
    );
    assert!(!expect[1].is_empty() && !expect[2].is_empty());
    for n in [2, 3, 5] {
        let dir = temp("shards");
        let m = sharded(dir.path(), &search, n, &outputs);
        assert_eq!(m.status.code(), Some(3), "{n} shards: {}", err_of(&m));
        let got = results(dir.path(), &m);
        assert_eq!(String::from_utf8_lossy(&got[0]), text, "{n} shards: stdout");
        assert!(got[1] == expect[1], "{n} shards: the shrunk traffic file");
        assert!(got[2] == expect[2], "{n} shards: --json");
    }
}

#[test]
fn clean_and_failing_stress_shards_merge_as_the_single_process_ends() {
    // No deadlock: every case of every shard is searched.
    let search = [
        "-t",
        "hypercube6",
        "--seeds",
        "2",
        "--buffers",
        "small",
        "--run-us",
        "30",
    ];
    let dir = temp("shard-clean");
    let mut args = vec!["stress"];
    args.extend(search);
    args.extend(["-q", "--json", "s.json"]);
    let whole = run_in(dir.path(), &args);
    assert_eq!(whole.status.code(), Some(0), "{}", err_of(&whole));
    let json = std::fs::read(dir.path().join("s.json")).unwrap();
    let m = sharded(dir.path(), &search, 2, &["--json", "s.json"]);
    assert_eq!(m.status.code(), Some(0), "{}", err_of(&m));
    assert_eq!(m.stdout, whole.stdout);
    assert!(std::fs::read(dir.path().join("s.json")).unwrap() == json);
    let part = std::fs::read_to_string(dir.path().join("part2.jsonl")).unwrap();
    assert!(part.ends_with("{\"searched\":3}\n"), "{part}");
    // One shard missing: exit 2, one line naming the first case not searched.
    let m = run_in(dir.path(), &["merge", "part2.jsonl"]);
    assert_eq!(m.status.code(), Some(2));
    assert_eq!(
        err_of(&m),
        "error: 3 of the 6 cases the search needs are missing (first: case 1, shard 1/2); merge every shard's file\n"
    );
    // A flow-control violation: the single process's message and exit 4.
    let search = [
        "-t",
        "hypercube6",
        "--seeds",
        "1",
        "--set",
        "faults.extra_initial_credit=8",
    ];
    let mut args = vec!["stress"];
    args.extend(search);
    args.push("-q");
    let whole = run_in(dir.path(), &args);
    assert_eq!(whole.status.code(), Some(4));
    let m = sharded(dir.path(), &search, 2, &[]);
    assert_eq!(m.status.code(), Some(4), "{}", err_of(&m));
    assert_eq!(err_of(&m), err_of(&whole));
    // A stress shard with a sweep's flag.
    let m = run_in(
        dir.path(),
        &["merge", "part1.jsonl", "part2.jsonl", "--csv", "x.csv"],
    );
    assert_eq!(m.status.code(), Some(2));
    assert!(
        err_of(&m).contains("--csv: a stress merge does not write it"),
        "{}",
        err_of(&m)
    );
}

#[test]
fn sci_starvation_shards_merge_to_the_single_process_result() {
    // Without flow control the first case starves a node (exit 3, the case written);
    // with it none does (exit 0).
    for (search, code) in [
        (vec!["-t", "sci-ring4", "--seeds", "2", "--run-us", "30"], 3),
        (
            vec![
                "-t",
                "sci-ring4",
                "--seeds",
                "3",
                "--run-us",
                "30",
                "--set",
                "network.flow_control=true",
            ],
            0,
        ),
    ] {
        let outputs = ["-v", "--out", "s.toml", "--json", "s.json"];
        let whole = temp("sci-whole");
        let mut args = vec!["stress"];
        args.extend(&search);
        args.push("-q");
        args.extend(outputs);
        let o = run_in(whole.path(), &args);
        assert_eq!(o.status.code(), Some(code), "{}", err_of(&o));
        let expect = results(whole.path(), &o);
        let dir = temp("sci-shards");
        let m = sharded(dir.path(), &search, 3, &outputs);
        assert_eq!(m.status.code(), Some(code), "{search:?}: {}", err_of(&m));
        assert_eq!(results(dir.path(), &m), expect, "{search:?}");
    }
}

#[test]
fn a_stress_plan_over_gnu_parallel_merges_to_the_single_process_result() {
    let dir = temp("shard-plan");
    let search = "-t ring4 --seeds 2 --buffers small";
    let whole = Command::new("sh")
        .arg("-c")
        .arg(format!("{EMU} stress {search} -q --out s.toml"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(whole.status.code(), Some(3), "{}", err_of(&whole));
    let toml = std::fs::read(dir.path().join("s.toml")).unwrap();
    // Without GNU parallel the plan runs line by line.
    let runner = super::common::gnu_parallel().map_or("sh", |_| "parallel --will-cite");
    let script = format!(
        "{EMU} stress {search} --plan jobs.txt && {runner} < jobs.txt > cases.jsonl \
         && {EMU} merge cases.jsonl --out s.toml"
    );
    let m = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(m.status.code(), Some(3), "{script}: {}", err_of(&m));
    assert_eq!(m.stdout, whole.stdout);
    assert!(std::fs::read(dir.path().join("s.toml")).unwrap() == toml);
    let jobs = std::fs::read_to_string(dir.path().join("jobs.txt")).unwrap();
    assert_eq!(jobs.lines().count(), 6);
    assert!(
        jobs.lines().all(|l| l.contains(" --quiet --shard ")),
        "{jobs}"
    );
}

#[test]
fn the_slurm_stress_example_gives_the_single_process_result() {
    let dir = temp("slurm");
    let o = crate::reproduce_shard::slurm(
        "slurm-stress.sh",
        dir.path(),
        &[
            ("TOPOLOGY", "torus4-single"),
            ("SEEDS", "4"),
            ("RUN_US", "30"),
            ("SHARDS", "3"),
            ("CPUS", "1"),
            ("OUT", "out"),
        ],
    );
    assert!(o.status.success(), "{}", err_of(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("the merge exited 3"));
    let merged = std::fs::read(dir.path().join("out/stress.txt")).unwrap();
    let toml = std::fs::read(dir.path().join("out/deadlock.toml")).unwrap();
    let whole = run_in(
        dir.path(),
        &[
            "stress",
            "--topology",
            "torus4-single",
            "--seeds",
            "4",
            "--buffers",
            "topology",
            "--run-us",
            "30",
            "--quiet",
            "--out",
            "out/deadlock.toml",
        ],
    );
    assert_eq!(whole.status.code(), Some(3));
    assert!(
        merged == whole.stdout,
        "{}",
        String::from_utf8_lossy(&merged)
    );
    assert!(std::fs::read(dir.path().join("out/deadlock.toml")).unwrap() == toml);
}
