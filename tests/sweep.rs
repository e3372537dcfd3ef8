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
    let dir = scratch("csv");
    let csv = dir.path().join("s.csv");
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

/// A fresh directory for one test's files, removed when the value is dropped.
fn scratch(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("emu-sweep-{tag}-"))
        .tempdir()
        .unwrap()
}

const SMALL: [&str; 10] = [
    "sweep",
    "-t",
    "grid8",
    "-p",
    "uniform",
    "--set",
    "network.side=4",
    "--load",
    "0.1:0.9:0.4",
    "--quiet",
];

/// The table, per-run CSV, table CSV and plot of a whole sweep in `dir`.
fn outputs(dir: &std::path::Path, o: &Output) -> Vec<(String, Vec<u8>)> {
    assert!(o.status.success(), "{}", stderr(o));
    let mut v = vec![("table".to_string(), o.stdout.clone())];
    for f in ["runs.csv", "table.csv", "curve.svg", "sweep.json"] {
        v.push((f.to_string(), std::fs::read(dir.join(f)).unwrap()));
    }
    v
}

fn file_args(dir: &std::path::Path) -> Vec<String> {
    [
        ("--csv", "runs.csv"),
        ("--table-csv", "table.csv"),
        ("--plot", "curve.svg"),
        ("--json", "sweep.json"),
    ]
    .iter()
    .flat_map(|(f, n)| [f.to_string(), dir.join(n).display().to_string()])
    .collect()
}

#[test]
fn shards_merged_in_any_order_give_the_single_process_sweep_byte_for_byte() {
    let whole = scratch("whole");
    let mut args: Vec<String> = SMALL.iter().map(|s| s.to_string()).collect();
    args.extend(["--replications".into(), "3".into()]);
    let mut w = args.clone();
    w.extend(file_args(whole.path()));
    let o = emu(&w.iter().map(String::as_str).collect::<Vec<_>>());
    let expect = outputs(whole.path(), &o);
    let table = String::from_utf8_lossy(&expect[0].1).into_owned();
    assert!(table.contains("0/3"), "{table}");
    assert!(table.contains("90%ci"), "{table}");
    let svg = String::from_utf8_lossy(&expect[3].1).into_owned();
    assert!(
        svg.starts_with("<svg") && svg.contains("saturation at load"),
        "{svg:.200}"
    );

    let parts = scratch("parts");
    for k in 1..=4 {
        let mut s = args.clone();
        let out = parts.path().join(format!("p{k}.jsonl"));
        s.extend([
            "--shard".into(),
            format!("{k}/4"),
            "--out".into(),
            out.display().to_string(),
        ]);
        let o = emu(&s.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
    let mut m: Vec<String> = vec!["merge".into()];
    for k in [3, 1, 4, 2] {
        m.push(
            parts
                .path()
                .join(format!("p{k}.jsonl"))
                .display()
                .to_string(),
        );
    }
    m.extend(file_args(parts.path()));
    let o = Command::new(EMU).args(&m).output().unwrap();
    assert_eq!(
        outputs(parts.path(), &o),
        expect,
        "merged == single process"
    );

    // One shard missing: exit 2, one line that says how many runs are missing.
    let o = Command::new(EMU).args(&m[..3]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("runs are missing"), "{}", stderr(&o));
}

#[test]
fn a_plan_is_one_self_contained_command_per_run_and_its_outputs_merge() {
    let dir = scratch("plan");
    let plan = dir.path().join("jobs.txt");
    let mut args: Vec<String> = SMALL.iter().map(|s| s.to_string()).collect();
    args.extend(["--seeds".into(), "2".into()]);
    let mut p = args.clone();
    p.extend(["--plan".into(), plan.display().to_string()]);
    let o = emu(&p.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&plan).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3 * 2, "{text}");
    assert!(lines[5].ends_with("--shard 6/6"), "{}", lines[5]);
    // Run every line through a shell, from another directory, into one file.
    let mut all = String::new();
    for l in &lines {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "{l} --set phases.warmup_us=20 --set phases.measure_us=100"
            ))
            .current_dir("/")
            .output()
            .unwrap();
        assert!(o.status.success(), "{l}: {}", stderr(&o));
        all.push_str(&String::from_utf8_lossy(&o.stdout));
    }
    let rows = dir.path().join("rows.jsonl");
    std::fs::write(&rows, all).unwrap();
    let merged = Command::new(EMU)
        .args(["merge", rows.to_str().unwrap()])
        .output()
        .unwrap();
    let whole = emu(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(merged.status.success(), "{}", stderr(&merged));
    assert_eq!(stdout(&merged), stdout(&whole));
}

#[test]
fn bad_shard_and_merge_input_is_one_line_and_exit_2() {
    for (extra, needle) in [
        (vec!["--shard", "5/4"], "--shard 5/4"),
        (vec!["--shard", "x"], "--shard x"),
        (vec!["--shard", "1/2", "--csv", "x.csv"], "emu merge"),
        (
            vec!["--seed", "18446744073709551615", "--seeds", "3"],
            "--seed",
        ),
    ] {
        let mut a: Vec<&str> = SMALL.to_vec();
        a.extend(extra.iter());
        let o = emu(&a);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{extra:?}: {}", stderr(&o));
    }
    let dir = scratch("badmerge");
    let junk = dir.path().join("junk.jsonl");
    std::fs::write(&junk, "hello\n").unwrap();
    for (file, needle) in [
        (
            junk.display().to_string(),
            "junk.jsonl:1: not a line of an emu sweep shard",
        ),
        (
            dir.path().join("absent").display().to_string(),
            "cannot read",
        ),
    ] {
        let o = Command::new(EMU).args(["merge", &file]).output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(needle), "{}", stderr(&o));
    }
}

#[test]
fn a_sweep_split_over_gnu_parallel_merges_to_the_single_process_result() {
    let Some(parallel) = super::common::gnu_parallel() else {
        return;
    };
    let dir = scratch("parallel");
    let mut args: Vec<String> = SMALL.iter().map(|s| s.to_string()).collect();
    args.extend(SHORT.iter().map(|s| s.to_string()));
    args.extend(["--seeds".into(), "2".into()]);
    let whole = Command::new(EMU).args(&args).output().unwrap();
    assert!(whole.status.success(), "{}", stderr(&whole));
    // Shards: one job per slice, as in the README.
    let line = args.join(" ");
    let script = format!(
        "{parallel} --will-cite {EMU} {line} --shard {{}}/3 --out part{{}}.jsonl ::: 1 2 3 \
         && {EMU} merge part1.jsonl part2.jsonl part3.jsonl"
    );
    let o = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{script}: {}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&whole), "shards over parallel");
    // A plan: one command per run, all outputs into one file.
    let script = format!(
        "{EMU} {line} --plan jobs.txt && {parallel} --will-cite < jobs.txt > runs.jsonl \
         && {EMU} merge runs.jsonl"
    );
    let o = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{script}: {}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&whole), "a plan over parallel");
}

/// A stand-in for Slurm's `sbatch` that runs a job at once: each array task in turn
/// with SLURM_ARRAY_TASK_ID set, then prints a job id.
const FAKE_SBATCH: &str = r#"#!/bin/sh
array=""; wrap=""
for a in "$@"; do
  case $a in
    --array=*) array=${a#--array=} ;;
    --wrap=*) wrap=${a#--wrap=} ;;
  esac
done
if [ -n "$array" ]; then
  i=${array%-*}; n=${array#*-}
  while [ "$i" -le "$n" ]; do SLURM_ARRAY_TASK_ID=$i sh -c "$wrap" || exit 1; i=$((i + 1)); done
else
  sh -c "$wrap" || exit 1
fi
echo 4242
"#;

#[test]
fn the_slurm_example_gives_the_single_process_result() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("slurm");
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let sbatch = bin.join("sbatch");
    std::fs::write(&sbatch, FAKE_SBATCH).unwrap();
    std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/slurm-sweep.sh");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("bash")
        .arg(&script)
        .current_dir(dir.path())
        .env("PATH", path)
        .env("EMU", EMU)
        .env("TOPOLOGY", "hypercube6")
        .env("LOAD", "0.2:0.6:0.2")
        .env("SEEDS", "2")
        .env("SHARDS", "4")
        .env("CPUS", "1")
        .env("OUT", "out")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let merged = std::fs::read_to_string(dir.path().join("out/table.txt")).unwrap();
    let whole = Command::new(EMU)
        .args([
            "sweep",
            "--topology",
            "hypercube6",
            "--traffic",
            "uniform",
            "--load",
            "0.2:0.6:0.2",
            "--seeds",
            "2",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert_eq!(merged, stdout(&whole));
    for f in ["runs.csv", "table.csv", "curve.svg", "sweep.json"] {
        assert!(dir.path().join("out").join(f).exists(), "{f}");
    }
}

#[test]
fn the_plot_s_load_axis_fits_the_loads_asked_with_every_point_inside() {
    let dir = scratch("plot-axis");
    let svg = dir.path().join("curve.svg");
    let o = emu(&[
        "sweep",
        "-t",
        "crossbar32",
        "-p",
        "uniform",
        "--load",
        "0.40:0.50:0.02",
        "--seeds",
        "2",
        "--plot",
        &svg.display().to_string(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&svg).unwrap();
    // The markers of the points (circles of radius 3), across the 800-pixel panel.
    let xs: Vec<f64> = svg
        .match_indices("<circle ")
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()])
        .filter(|t| t.contains(" r=\"3\""))
        .map(|t| {
            let at = t.find(" cx=\"").unwrap() + 5;
            t[at..at + t[at..].find('"').unwrap()].parse().unwrap()
        })
        .collect();
    // Six loads, three measures (throughput, mean and 99th percentile delay).
    assert_eq!(xs.len(), 18, "{xs:?}");
    let (lo, hi) = xs
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    // The plot spans x = 72 (label room and margin) to 788: the points spread over
    // most of it, and the error bars' 8-pixel caps stay inside.
    assert!(lo > 72.0 + 8.0 && hi < 788.0 - 8.0, "{lo}..{hi}");
    assert!(hi - lo > 0.7 * (788.0 - 72.0), "spread {lo}..{hi}");
}
