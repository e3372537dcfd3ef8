//! `emu reproduce --shard K/N` and `emu merge`: the shards of a reproduction merged in
//! any order, or run at once in one process (`--jobs N`), print and write exactly what
//! one process running one experiment at a time does (text, `--json`, `--report`) with
//! its exit code; a merge refuses shards of different jobs or commands and missing
//! shards with one line and exit 2. The experiments are small quick forms (seconds).

use std::path::Path;
use std::process::{Command, Output};

const EMU: &str = env!("CARGO_BIN_EXE_emu");

/// Small, quick experiments of several source documents.
const NAMES: [&str; 5] = [
    "dslink-latency",
    "vcp-single-channel",
    "c104-worst-case",
    "fabric-analytic",
    "sci-request-response",
];

fn emu_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(EMU)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("emu runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scratch(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("emu-reproduce-shard-{tag}-"))
        .tempdir()
        .unwrap()
}

/// `emu reproduce NAMES --quick` and the given flags.
fn reproduce(extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = vec!["reproduce".into()];
    v.extend(NAMES.iter().map(|s| s.to_string()));
    v.push("--quick".into());
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Runs the shards 1..=n of the reproduction in `dir`, each to part{k}.jsonl.
fn shards(dir: &Path, n: u32) {
    for k in 1..=n {
        let shard = format!("{k}/{n}");
        let out = format!("part{k}.jsonl");
        let o = emu_in(
            dir,
            &strs(&reproduce(&["-q", "--shard", &shard, "--out", &out])),
        );
        assert_eq!(o.status.code(), Some(0), "shard {shard}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "a shard with --out prints nothing");
    }
}

/// `o` exited 0 and printed `whole`'s text, and wrote its JSON and page as r.json and
/// r.html in `dir`.
fn same_as(o: &Output, dir: &Path, whole: (&str, &[u8], &[u8]), what: &str) {
    let (text, json, html) = whole;
    assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), text, "{what}: the text");
    assert!(
        std::fs::read(dir.join("r.json")).unwrap() == json,
        "{what}: --json"
    );
    assert!(
        std::fs::read(dir.join("r.html")).unwrap() == html,
        "{what}: --report"
    );
}

#[test]
fn shards_merged_in_any_order_give_the_single_process_reproduction_byte_for_byte() {
    let whole = scratch("whole");
    let o = emu_in(
        whole.path(),
        &strs(&reproduce(&[
            "--jobs", "1", "--json", "r.json", "--report", "r.html",
        ])),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        text.contains("== sci-request-response") && text.contains("summary"),
        "{text}"
    );
    let json = std::fs::read(whole.path().join("r.json")).unwrap();
    let html = std::fs::read(whole.path().join("r.html")).unwrap();
    for n in [2, 3] {
        let dir = scratch("shards");
        shards(dir.path(), n);
        // Every experiment is in exactly one shard.
        let mut seen = 0;
        for k in 1..=n {
            let part = std::fs::read_to_string(dir.path().join(format!("part{k}.jsonl"))).unwrap();
            assert!(
                part.starts_with("{\"format\":\"emu-reproduce-shard/2\""),
                "{part:.100}"
            );
            seen += part.lines().count() - 1;
        }
        assert_eq!(seen, NAMES.len(), "{n} shards");
        let mut files: Vec<String> = (1..=n).rev().map(|k| format!("part{k}.jsonl")).collect();
        files.insert(0, "merge".into());
        files.extend(["--json", "r.json", "--report", "r.html"].map(String::from));
        let m = emu_in(dir.path(), &strs(&files));
        let whole = (text.as_str(), json.as_slice(), html.as_slice());
        same_as(&m, dir.path(), whole, &format!("{n} shards"));
        // The same shards run at once on threads of one process and merged there.
        let jobs = n.to_string();
        let at_once = scratch("jobs");
        let o = emu_in(
            at_once.path(),
            &strs(&reproduce(&[
                "--jobs", &jobs, "--json", "r.json", "--report", "r.html",
            ])),
        );
        same_as(&o, at_once.path(), whole, &format!("--jobs {n}"));
        // Each shard's experiments are noted with the shard that ran them.
        let notes = stderr(&o);
        assert!(
            notes.contains(&format!("(shard {n}/{n}): wall time")),
            "{notes}"
        );
    }
}

/// Runs `emu reproduce NAMES --quick -q` with `extra` in `dir`, exit 0; gives stdout.
fn quick_in(dir: &Path, names: &[&str], extra: &[&str]) -> String {
    let mut args = vec!["reproduce"];
    args.extend(names);
    args.extend(["--quick", "-q"]);
    args.extend(extra);
    let o = emu_in(dir, &args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_strategy_grid_is_split_by_point_and_merges_to_the_single_process_bytes() {
    // fabric-non-uniform's quick grid: one configuration, six strategies (six points),
    // beside an experiment that goes whole to one shard.
    let names = ["dslink-latency", "fabric-non-uniform"];
    let dir = scratch("grid");
    let d = dir.path();
    let text = quick_in(d, &names, &["--jobs", "1", "--json", "one.json"]);
    assert!(text.contains("== fabric-non-uniform"), "{text}");
    // Two shards at once in one process split the grid the same way.
    assert_eq!(
        quick_in(d, &names, &["--jobs", "2", "--json", "two.json"]),
        text
    );
    assert!(
        std::fs::read(d.join("two.json")).unwrap() == std::fs::read(d.join("one.json")).unwrap()
    );
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let out = format!("g{k}.jsonl");
        quick_in(d, &names, &["--shard", &shard, "--out", &out]);
        let part = std::fs::read_to_string(d.join(&out)).unwrap();
        let header = part.lines().next().unwrap_or_default();
        assert!(header.contains("\"plan\":[1,0]"), "{header}");
        // Each shard holds three of the six points: every other one from the K-th.
        let grid = part
            .lines()
            .find(|l| l.contains("\"grids\""))
            .expect("the shard's points");
        let want: Vec<String> = (0..6)
            .filter(|i| i % 2 == k - 1)
            .map(|i| format!("[{i},[{{"))
            .collect();
        for w in &want {
            assert!(grid.contains(w.as_str()), "shard {k}: {w} in {grid:.300}");
        }
        assert!(grid.contains("\"total\":6"), "{grid:.100}");
    }
    let o = emu_in(d, &["merge", "g2.jsonl", "g1.jsonl", "--json", "m.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), text);
    assert!(std::fs::read(d.join("m.json")).unwrap() == std::fs::read(d.join("one.json")).unwrap());
    // Without shard 2, the grid's points are missing: one line, exit 2.
    let o = emu_in(d, &["merge", "g1.jsonl"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "error: 1 of 2 experiments are missing (first: fabric-non-uniform, shard 2/2); merge every shard's file\n"
    );
}

#[test]
fn a_failing_row_or_broken_experiment_in_a_shard_fails_the_merge_as_it_fails_one_process() {
    let dir = scratch("fail");
    let o = emu_in(
        dir.path(),
        &[
            "reproduce",
            "c104-worst-case",
            "fabric-analytic",
            "--quick",
            "-q",
            "--shard",
            "1/1",
            "--out",
            "p.jsonl",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let part = std::fs::read_to_string(dir.path().join("p.jsonl")).unwrap();
    // The first row of c104-worst-case, moved far from its reference.
    let at = part.find("\"emulated\":").expect("a row") + "\"emulated\":".len();
    let end = at + part[at..].find(',').unwrap();
    let failing = format!("{}1e9{}", &part[..at], &part[end..]);
    std::fs::write(dir.path().join("f.jsonl"), &failing).unwrap();
    let m = emu_in(dir.path(), &["merge", "f.jsonl"]);
    assert_eq!(m.status.code(), Some(1), "{}", stderr(&m));
    assert!(
        stderr(&m).starts_with("FAIL c104-worst-case: "),
        "{}",
        stderr(&m)
    );
    assert!(String::from_utf8_lossy(&m.stdout).contains("— FAILED"));
    // An experiment that broke: its error, exit 1, the other reports printed.
    let lines: Vec<&str> = part.lines().collect();
    let broken = format!(
        "{}\n{{\"experiment\":\"c104-worst-case\",\"error\":\"no plan\"}}\n{}\n",
        lines[0], lines[2]
    );
    std::fs::write(dir.path().join("b.jsonl"), broken).unwrap();
    let m = emu_in(dir.path(), &["merge", "b.jsonl"]);
    assert_eq!(m.status.code(), Some(1), "{}", stderr(&m));
    assert_eq!(stderr(&m), "error: c104-worst-case: run failed: no plan\n");
    assert!(String::from_utf8_lossy(&m.stdout).starts_with("== fabric-analytic"));
}

#[test]
fn mixed_kinds_other_commands_and_missing_shards_are_one_line_and_exit_2() {
    let dir = scratch("refused");
    shards(dir.path(), 3);
    let d = dir.path();
    let o = emu_in(
        d,
        &[
            "reproduce",
            "c104-worst-case",
            "--quick",
            "-q",
            "--shard",
            "1/2",
            "--out",
            "other.jsonl",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = emu_in(
        d,
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--load",
            "0.2",
            "--set",
            "phases.warmup_us=5",
            "--set",
            "phases.measure_us=10",
            "-q",
            "--shard",
            "1/1",
            "--out",
            "sweep.jsonl",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for (files, needle) in [
        (
            vec!["part1.jsonl", "part2.jsonl"],
            "experiments are missing (first: ",
        ),
        (
            vec!["part1.jsonl", "other.jsonl"],
            "other.jsonl:1: a shard of another reproduction",
        ),
        (
            vec!["part1.jsonl", "sweep.jsonl"],
            "part1.jsonl:1 holds a reproduce shard and sweep.jsonl:1 a sweep shard",
        ),
        (
            vec![
                "part1.jsonl",
                "part2.jsonl",
                "part3.jsonl",
                "--csv",
                "x.csv",
            ],
            "--csv: a reproduce merge does not write it",
        ),
    ] {
        let mut args = vec!["merge"];
        args.extend(files);
        let o = emu_in(d, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    for (args, needle) in [
        (
            vec!["reproduce", "sci-bus", "--shard", "3/2"],
            "--shard 3/2",
        ),
        (
            vec!["reproduce", "sci-bus", "--shard", "1/2", "--json", "x.json"],
            "give --json and --report to `emu merge`",
        ),
        (
            vec!["reproduce", "sci-bus", "nosuch"],
            "unknown experiment `nosuch`",
        ),
    ] {
        let o = emu_in(d, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_plan_runs_one_experiment_per_line_and_merges_to_the_single_process_result() {
    let dir = scratch("plan");
    let d = dir.path();
    let o = emu_in(d, &strs(&reproduce(&["--plan", "jobs.txt"])));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let jobs = std::fs::read_to_string(d.join("jobs.txt")).unwrap();
    let lines: Vec<&str> = jobs.lines().collect();
    assert_eq!(lines.len(), NAMES.len());
    assert!(
        lines[4].ends_with("--quick --quiet --shard 5/5"),
        "{}",
        lines[4]
    );
    // The lines run one after another, as a runner would, into one file.
    let o = Command::new("sh")
        .arg("-c")
        .arg("sh jobs.txt > parts.jsonl")
        .current_dir(d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let m = emu_in(d, &["merge", "parts.jsonl"]);
    let whole = emu_in(d, &strs(&reproduce(&["-q"])));
    assert_eq!(m.status.code(), Some(0), "{}", stderr(&m));
    assert_eq!(m.stdout, whole.stdout);
}

#[test]
fn a_reproduction_split_over_gnu_parallel_merges_to_the_single_process_result() {
    let Some(parallel) = super::common::gnu_parallel() else {
        return;
    };
    let dir = scratch("parallel");
    let line = reproduce(&["-q"]).join(" ");
    let script = format!(
        "{parallel} --will-cite {EMU} {line} --shard {{}}/3 --out part{{}}.jsonl ::: 1 2 3 \
         && {EMU} merge part3.jsonl part2.jsonl part1.jsonl"
    );
    let o = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{script}: {}", stderr(&o));
    let whole = emu_in(dir.path(), &strs(&reproduce(&["-q"])));
    assert_eq!(o.stdout, whole.stdout, "shards over parallel");
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
  sh -c "$wrap" || echo "the merge exited $?"
fi
echo 4242
"#;

/// Runs `examples/SCRIPT` in `dir` with a fake `sbatch` first on `PATH`, EMU set and
/// the settings `env`; gives its output.
pub fn slurm(script: &str, dir: &Path, env: &[(&str, &str)]) -> Output {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let sbatch = bin.join("sbatch");
    std::fs::write(&sbatch, FAKE_SBATCH).unwrap();
    std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(script);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("bash")
        .arg(&script)
        .current_dir(dir)
        .env("PATH", path)
        .env("EMU", EMU)
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

#[test]
fn the_slurm_reproduction_example_gives_the_single_process_result() {
    let dir = scratch("slurm");
    let names = NAMES.join(" ");
    let o = slurm(
        "slurm-reproduce.sh",
        dir.path(),
        &[
            ("NAMES", &names),
            ("QUICK", "--quick"),
            ("SHARDS", "3"),
            ("OUT", "out"),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let merged = std::fs::read(dir.path().join("out/reproduce.txt")).unwrap();
    let whole = emu_in(dir.path(), &strs(&reproduce(&["-q"])));
    assert!(
        merged == whole.stdout,
        "{}",
        String::from_utf8_lossy(&merged)
    );
    for f in ["results.json", "reproduce.html"] {
        assert!(dir.path().join("out").join(f).exists(), "{f}");
    }
}

#[test]
fn a_fabric_run_asked_for_twice_is_made_once_in_a_call_or_a_merge_and_said_so() {
    // fabric-memory's claim of §7.6.2 asks for LOF at M = 64, N = 8, BS = 30 with seeds
    // 1-3, which its Table 7.7 grid ran already. (That a reused run gives the sample a
    // new run gives is tests/reproduce_memo.rs's.)
    let dir = scratch("memo");
    let d = dir.path();
    let o = emu_in(
        d,
        &[
            "reproduce",
            "fabric-memory",
            "--quick",
            "-q",
            "--json",
            "one.json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let notes = stderr(&o);
    assert!(
        notes.contains(
            "fabric-memory: 3 of its 83 fabric runs reused, their configuration and seed run already\n"
        ),
        "{notes}"
    );
    // Split by point over two processes, the claim runs in `emu merge`, which takes the
    // three from the grid's points it read back: 3 of the claim's 12 runs.
    for k in 1..=2 {
        let (shard, out) = (format!("{k}/2"), format!("m{k}.jsonl"));
        let s = emu_in(
            d,
            &[
                "reproduce",
                "fabric-memory",
                "--quick",
                "-q",
                "--shard",
                &shard,
                "--out",
                &out,
            ],
        );
        assert_eq!(s.status.code(), Some(0), "{}", stderr(&s));
    }
    let m = emu_in(d, &["merge", "m1.jsonl", "m2.jsonl", "--json", "m.json"]);
    assert_eq!(m.status.code(), Some(0), "{}", stderr(&m));
    assert_eq!(
        stderr(&m),
        "fabric-memory (merge): 3 of its 12 fabric runs reused, their configuration and seed run already\n"
    );
    assert_eq!(m.stdout, o.stdout);
    assert!(std::fs::read(d.join("m.json")).unwrap() == std::fs::read(d.join("one.json")).unwrap());
}
