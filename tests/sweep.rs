//! End-to-end tests of `emu sweep`: the table, the CSV, determinism across thread
//! counts, the saturation line, deadlocked points, and bad input (exit code 2 with one
//! line naming the flag or key). Runs are short (small networks, short phases).

use std::process::{Command, Output};

const EMU: &str = env!("CARGO_BIN_EXE_emu");

const SHORT: [&str; 4] = [
    "--set",
    "phases.warmup_us=20",
    "--set",
    "phases.measure_us=100",
];

fn emu(args: &[&str]) -> Output {
    Command::new(EMU)
        .args(args)
        .args(SHORT)
        .output()
        .expect("emu runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_sweep_prints_one_row_per_load_and_writes_every_run_to_csv() {
    let dir = std::env::temp_dir().join(format!("emu-sweep-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("s.csv");
    let o = emu(&[
        "sweep",
        "-t",
        "grid8",
        "-p",
        "uniform",
        "--set",
        "network.side=4",
        "--load",
        "0.1:0.9:0.4",
        "--seeds",
        "2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("0."))
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert!(out.contains("saturation"), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 1 + 3 * 2);
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with("grid8,uniform,0.1,1,ok,")
    );
    // The 4x4 grid keeps up at 10 % and cannot carry 90 % (its bisection is 4 links
    // for 8 terminals sending half their traffic across): saturation is 0.5 or 0.9.
    let sat = out.lines().find(|l| l.starts_with("saturation")).unwrap();
    assert!(
        sat.contains("offered load 0.5") || sat.contains("offered load 0.9"),
        "{sat}"
    );
    // Same seeds, one thread: the same bytes.
    let one = emu(&[
        "sweep",
        "-t",
        "grid8",
        "-p",
        "uniform",
        "--set",
        "network.side=4",
        "--load",
        "0.1:0.9:0.4",
        "--seeds",
        "2",
        "--threads",
        "1",
    ]);
    let body = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(
        body(&stdout(&one)),
        body(&out),
        "thread count changes nothing"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_deadlocked_point_is_reported_not_fatal() {
    let o = emu(&[
        "sweep",
        "-t",
        "torus8-single",
        "-p",
        "uniform",
        "--set",
        "network.side=4",
        "--load",
        "0.9",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("1/1"), "the run deadlocked: {out}");
    assert!(out.contains("saturation  at offered load 0.9"), "{out}");
}

#[test]
fn bad_sweep_input_is_one_line_and_exit_2() {
    for (args, needle) in [
        (vec!["--load", "0.1:x:0.1"], "--load"),
        (vec!["--load", "0:1:0.5"], "--load"),
        (vec!["--seeds", "0"], "--seeds"),
        (vec!["--threads", "0"], "--threads"),
        (vec!["--set", "network.side=1"], "network.side"),
        (vec!["--set", "network.routing=adaptive"], "network.routing"),
    ] {
        let mut all = vec!["sweep", "-t", "grid8", "-p", "uniform"];
        all.extend(args.iter());
        let o = emu(&all);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let o = emu(&["sweep", "-t", "grid8", "-p", "shuffle20"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("injection.kind"));
}
