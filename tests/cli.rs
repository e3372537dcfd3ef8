//! End-to-end tests of the `emu` binary: summary output, `emu list` and `--help`,
//! determinism of the JSON report, exit codes and the one-line messages for bad input,
//! deadlock and flow-control reports, and `--check`.
//!
//! Every run is short (hypercube6 or smaller, shortened phases) and has a time limit, so
//! that a hang fails the test instead of stalling the suite.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::common;

const EMU: &str = env!("CARGO_BIN_EXE_emu");

/// Phases that keep a hypercube6 run well under a second.
const SHORT: [&str; 4] = [
    "--set",
    "phases.warmup_us=20",
    "--set",
    "phases.measure_us=60",
];

/// No run may take longer than this.
const TIME_LIMIT: Duration = Duration::from_secs(60);

// ---------------------------------------------------------------------------------
// Helpers

/// A fresh empty directory under the system temp directory, removed on drop.
struct TempDir(tempfile::TempDir);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("emu-cli-{tag}-"))
            .tempdir()
            .expect("create temp dir");
        TempDir(dir)
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    /// Writes `text` to `name` (which may contain a subdirectory) in this directory.
    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create subdir");
        }
        std::fs::write(&path, text).expect("write temp file");
        path
    }
}

/// The outcome of one `emu` invocation.
struct Run {
    args: Vec<String>,
    dir: PathBuf,
    /// Exit code, or -1 if the process was killed by a signal.
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// Everything about the run, for assertion messages.
    fn describe(&self) -> String {
        format!(
            "emu {}\n  (in {})\n  exit code {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.args.join(" "),
            self.dir.display(),
            self.code,
            self.stdout,
            self.stderr
        )
    }

    fn assert_code(&self, code: i32) {
        assert_eq!(self.code, code, "wrong exit code\n{}", self.describe());
        self.assert_no_panic();
    }

    fn assert_no_panic(&self) {
        assert!(
            !self.stderr.contains("panicked") && !self.stdout.contains("panicked"),
            "emu panicked\n{}",
            self.describe()
        );
    }

    /// The report line that starts with `label`.
    fn stdout_line(&self, label: &str) -> &str {
        self.stdout
            .lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no {label} line\n{}", self.describe()))
    }

    fn assert_stdout_has(&self, needles: &[&str]) {
        for n in needles {
            assert!(
                self.stdout.contains(n),
                "stdout lacks {n:?}\n{}",
                self.describe()
            );
        }
    }

    fn assert_stderr_has(&self, needles: &[&str]) {
        for n in needles {
            assert!(
                self.stderr.contains(n),
                "stderr lacks {n:?}\n{}",
                self.describe()
            );
        }
    }

    /// Bad input: exit code 2, no panic, nothing on stdout (no half-run), and one line
    /// on stderr, `error: ...`, containing every needle.
    fn assert_bad_input(&self, needles: &[&str]) {
        self.assert_code(2);
        assert!(
            self.stdout.is_empty(),
            "bad input printed a report\n{}",
            self.describe()
        );
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(
            lines.len(),
            1,
            "the message is not one line\n{}",
            self.describe()
        );
        assert!(
            lines[0].starts_with("error: "),
            "the message does not start with `error: `\n{}",
            self.describe()
        );
        self.assert_stderr_has(needles);
    }

    /// Bad input in a file: the message is `error: FILE:LINE:COL: KEY: message`.
    fn assert_located(&self, file: &str, line: u32, key: &str) {
        self.assert_bad_input(&[key]);
        let prefix = format!("error: {file}:{line}:");
        assert!(
            self.stderr.starts_with(&prefix),
            "the message does not start with {prefix:?}\n{}",
            self.describe()
        );
        let rest = &self.stderr[prefix.len()..];
        let (col, rest) = rest
            .split_once(": ")
            .unwrap_or_else(|| panic!("no column\n{}", self.describe()));
        assert!(
            !col.is_empty() && col.bytes().all(|b| b.is_ascii_digit()),
            "no column number after the line\n{}",
            self.describe()
        );
        assert!(
            rest.starts_with(&format!("{key}: ")),
            "the key {key:?} does not follow the position\n{}",
            self.describe()
        );
    }

    /// The `reproduce with: emu ...` line of stderr, as arguments (without `emu`).
    fn repro_args(&self) -> Vec<String> {
        let line = self
            .stderr
            .lines()
            .find_map(|l| l.strip_prefix("reproduce with: emu "))
            .unwrap_or_else(|| panic!("no reproduce line\n{}", self.describe()));
        line.split_whitespace().map(String::from).collect()
    }
}

/// Runs `emu` with exactly these arguments in `dir`, with a time limit.
fn emu_raw(dir: &Path, args: &[&str]) -> Run {
    let mut cmd = Command::new(EMU);
    cmd.args(args);
    run_captured(cmd, dir, args)
}

/// Runs `emu ARGS` in the crate directory under `sh` with `ulimit LIMIT` set first
/// (e.g. `-v 300000`: at most 300,000 KiB of address space), with a time limit.
fn emu_under_ulimit(limit: &str, args: &[&str]) -> Run {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit {limit} && exec \"$EMU\" \"$@\""))
        .arg("sh")
        .args(args)
        .env("EMU", EMU);
    run_captured(cmd, Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// Runs `cmd` in `dir` with its output captured, killing it (and failing the test)
/// past the time limit.
fn run_captured(mut cmd: Command, dir: &Path, args: &[&str]) -> Run {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let capture = TempDir::new(&format!("capture{n}"));
    let c = common::run_captured(&mut cmd, dir, capture.path(), TIME_LIMIT).unwrap_or_else(|| {
        panic!(
            "emu {} did not finish within {TIME_LIMIT:?}",
            args.join(" ")
        )
    });
    Run {
        args: args.iter().map(|s| s.to_string()).collect(),
        dir: dir.to_path_buf(),
        code: c.code,
        stdout: c.stdout,
        stderr: c.stderr,
    }
}

/// Runs `emu -q ARGS` in `dir`.
fn emu_in(dir: &Path, args: &[&str]) -> Run {
    let mut all = vec!["-q"];
    all.extend_from_slice(args);
    emu_raw(dir, &all)
}

/// Runs `emu -q ARGS` in the crate directory (so `topologies/` and `traffic/` are found
/// there).
fn emu(args: &[&str]) -> Run {
    emu_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// `ARGS` followed by the shortening `--set`s.
fn short<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.extend_from_slice(&SHORT);
    all
}

/// Runs `emu` with `args`, the shortening `--set`s and `--json DIR/NAME.json`; it must
/// exit 0. Returns the run and the report's path.
fn run_json(dir: &TempDir, name: &str, args: &[&str]) -> (Run, std::path::PathBuf) {
    let json = dir.path().join(format!("{name}.json"));
    let json_arg = json.to_string_lossy().into_owned();
    let mut all = args.to_vec();
    all.extend(["--json", json_arg.as_str()]);
    let r = emu(&short(&all));
    assert_eq!(r.code, 0, "{}", r.stderr);
    (r, json)
}

fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// A minimal valid hypercube topology with `dimensions` written verbatim on line 3.
fn hypercube_file(dimensions: &str) -> String {
    format!("[network]\nkind = \"hypercube\"\ndimensions = {dimensions}\n")
}

// ---------------------------------------------------------------------------------
// 1. Smoke

#[test]
fn smoke_shuffle_prints_the_summary() {
    let r = emu(&short(&[
        "--topology",
        "hypercube6.toml",
        "--traffic",
        "shuffle",
    ]));
    r.assert_code(0);
    r.assert_stdout_has(&[
        "64 terminals",
        "throughput",
        "latency",
        "ticks",
        "µs",
        "header times",
    ]);
    for row in ["message", "network", "source queue"] {
        assert!(
            r.stdout.lines().any(|l| l.starts_with(row)),
            "no latency row starting with {row:?}\n{}",
            r.describe()
        );
    }
    assert!(
        r.stderr.trim().is_empty(),
        "-q run wrote to stderr\n{}",
        r.describe()
    );
}

// ---------------------------------------------------------------------------------
// 2. list and --help

#[test]
fn list_shows_the_shipped_files() {
    let dir = TempDir::new("list");
    let r = emu_raw(dir.path(), &["list"]);
    r.assert_code(0);
    let names: Vec<&str> = r
        .stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for name in [
        "topologies:",
        "hypercube6",
        "hypercube8",
        "hypercube10",
        "ring4",
        "traffic:",
        "uniform",
        "shuffle",
        "systematic",
    ] {
        assert!(
            names.contains(&name),
            "`emu list` lacks {name}\n{}",
            r.describe()
        );
    }
    // Every listed file has a description after its name.
    for line in r.stdout.lines().filter(|l| l.starts_with("  ")) {
        assert!(
            line.split_whitespace().count() >= 2,
            "{line:?} has no description\n{}",
            r.describe()
        );
    }
}

#[test]
fn help_mentions_examples_and_exit_codes() {
    let dir = TempDir::new("help");
    let r = emu_raw(dir.path(), &["--help"]);
    r.assert_code(0);
    r.assert_stdout_has(&[
        "Examples",
        "emu list",
        "--topology",
        "--traffic",
        "--set",
        "Exit codes",
        "0 ok",
        "2 bad input",
        "3 deadlock",
        "4 flow-control violation",
        "5 blocked by a link fault",
        "--trace t.json",
        "--vcd link.vcd",
        "--report run.html",
    ]);
}

// ---------------------------------------------------------------------------------
// 3. and 4. Determinism and JSON content

#[test]
fn same_seed_gives_identical_json_across_threads_engines_and_runs() {
    let dir = TempDir::new("determinism");
    let base = ["--topology", "hypercube6", "--traffic", "uniform"];
    let variants: [(&str, &[&str]); 5] = [
        ("threads1.json", &["--seed", "11", "--threads", "1"]),
        ("threads2.json", &["--seed", "11", "--threads", "2"]),
        (
            "actors.json",
            &["--seed", "11", "--engine", "actors", "--threads", "2"],
        ),
        ("again.json", &["--seed", "11", "--threads", "2"]),
        ("other-seed.json", &["--seed", "12", "--threads", "2"]),
    ];
    let mut texts = Vec::new();
    for (file, extra) in variants {
        let mut args = short(&base);
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--json", file]);
        let r = emu_in(dir.path(), &args);
        r.assert_code(0);
        let text = std::fs::read(dir.path().join(file))
            .unwrap_or_else(|e| panic!("no JSON written ({e})\n{}", r.describe()));
        texts.push((file, text));
    }
    let (reference_name, reference) = &texts[0];
    for (name, text) in &texts[1..4] {
        assert!(
            text == reference,
            "{name} differs from {reference_name} with the same seed:\n{}\n---\n{}",
            String::from_utf8_lossy(reference),
            String::from_utf8_lossy(text)
        );
    }
    let (name, other) = &texts[4];
    assert!(
        other != reference,
        "{name} (seed 12) is identical to {reference_name} (seed 11)"
    );
}

#[test]
fn json_report_has_the_expected_content() {
    let dir = TempDir::new("json");
    let mut args = short(&["--topology", "hypercube6", "--traffic", "uniform"]);
    args.extend_from_slice(&["--seed", "7", "--engine", "actors", "--json", "r.json"]);
    let r = emu_in(dir.path(), &args);
    r.assert_code(0);
    let j = read_json(&dir.path().join("r.json"));
    let ctx = || format!("{j:#}\n{}", r.describe());
    assert_eq!(j["schema"], 5, "schema\n{}", ctx());
    assert_eq!(j["seed"], 7, "seed\n{}", ctx());
    assert_eq!(j["topology"]["name"], "hypercube6", "name\n{}", ctx());
    assert_eq!(j["topology"]["terminals"], 64, "terminals\n{}", ctx());
    assert_eq!(j["traffic"]["name"], "uniform", "traffic\n{}", ctx());
    // The --set overrides are in the recorded configuration.
    assert_eq!(
        j["traffic"]["config"]["phases"]["measure_us"].as_f64(),
        Some(60.0),
        "measure_us\n{}",
        ctx()
    );
    let count = j["latency"]["message_latency"]["count"].as_u64();
    assert!(
        count.is_some_and(|c| c > 0),
        "message_latency.count\n{}",
        ctx()
    );
    assert_eq!(j["messages"]["undelivered"], 0, "undelivered\n{}", ctx());
    assert_eq!(j["messages"]["out_of_order"], 0, "out_of_order\n{}", ctx());
    assert_eq!(
        j["messages"]["measured_delivered"].as_u64(),
        count,
        "every measured message has a latency\n{}",
        ctx()
    );
}

#[test]
fn journeys_add_up_in_the_report_and_check_says_what_it_checked() {
    let dir = TempDir::new("journey");
    let mut args = short(&["--topology", "hypercube6", "--traffic", "uniform"]);
    args.extend_from_slice(&["--check", "--json", "r.json"]);
    let r = emu_in(dir.path(), &args);
    r.assert_code(0);
    assert!(
        r.stdout.contains("journey ") && r.stdout.contains("output wait"),
        "no journey table\n{}",
        r.describe()
    );
    let checked = r
        .stdout
        .lines()
        .find(|l| l.starts_with("checked"))
        .unwrap_or_else(|| panic!("no checked line\n{}", r.describe()));
    assert!(
        checked.contains("timing identity exact (0 ticks)"),
        "{checked}"
    );
    let j = read_json(&dir.path().join("r.json"));
    let mean = |v: &serde_json::Value| v["ticks"]["mean"].as_f64().unwrap_or(f64::NAN);
    let jy = &j["journey"];
    let parts: f64 = [
        "source_wait",
        "path",
        "input_wait",
        "output_wait",
        "transfer",
    ]
    .iter()
    .map(|k| mean(&jy[*k]))
    .sum();
    let latency = mean(&j["latency"]["message_latency"]);
    // Message by message the parts add up to the latency, so their exact means do too
    // (to floating-point rounding).
    assert!(
        (parts - latency).abs() < 1e-6 * latency,
        "{parts} vs {latency}\n{jy:#}"
    );
    assert_eq!(jy["saturated"], 0);
    // An SCI ring's journey is its own (SCI §4.8), without the DS-Link parts.
    let r = emu_in(
        dir.path(),
        &short(&[
            "--topology",
            "sci-ring4",
            "--traffic",
            "sci-uniform",
            "--json",
            "s.json",
        ]),
    );
    r.assert_code(0);
    let v = read_json(&dir.path().join("s.json"));
    assert!(v["journey"].get("source_wait").is_none());
    assert!(v["journey"].get("ring_buffer").is_some());
}

// ---------------------------------------------------------------------------------
// 5. Bad input: exit code 2, one line naming the file, line and key

#[test]
fn toml_syntax_error_names_file_and_line() {
    let dir = TempDir::new("syntax");
    dir.write(
        "syntax.toml",
        "description = \"x\"\n[network]\nkind = \"hypercube\"\ndimensions = = 6\n",
    );
    let r = emu_in(
        dir.path(),
        &["--topology", "syntax.toml", "--traffic", "shuffle"],
    );
    r.assert_located("syntax.toml", 4, "network.dimensions");

    dir.write("unclosed.toml", "[network\nkind = \"hypercube\"\n");
    let r = emu_in(
        dir.path(),
        &["--topology", "unclosed.toml", "--traffic", "shuffle"],
    );
    r.assert_bad_input(&["unclosed.toml:1:"]);
}

#[test]
fn unknown_key_names_file_line_and_key() {
    let dir = TempDir::new("unknown-key");
    dir.write(
        "bad-key.toml",
        "description = \"bad\"\n[network]\nkind = \"hypercube\"\ndimensions = 6\n\n[link]\nfoo = 1\n",
    );
    let r = emu_in(
        dir.path(),
        &["--topology", "bad-key.toml", "--traffic", "shuffle"],
    );
    r.assert_located("bad-key.toml", 7, "link.foo");
    r.assert_stderr_has(&["buffer_tokens"]); // the valid keys are listed

    // The same in a traffic file.
    dir.write(
        "bad-traffic.toml",
        "[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"continuous\"\n[phases]\nwarmup = 3\n",
    );
    let r = emu_in(
        dir.path(),
        &["--topology", "hypercube6", "--traffic", "bad-traffic.toml"],
    );
    r.assert_located("bad-traffic.toml", 6, "phases.warmup");
}

#[test]
fn zero_buffer_from_set_names_the_key_and_the_set() {
    let r = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "shuffle",
        "--set",
        "link.buffer_tokens=0",
    ]));
    r.assert_bad_input(&["--set", "link.buffer_tokens"]);
    r.assert_stderr_has(&["--set link.buffer_tokens=0"]);
}

#[test]
fn small_buffer_in_a_file_names_file_line_and_key() {
    let dir = TempDir::new("buffer4");
    dir.write(
        "buf4.toml",
        "[network]\nkind = \"hypercube\"\ndimensions = 6\n\n[link]\nbuffer_tokens = 4\n",
    );
    let r = emu_in(
        dir.path(),
        &["--topology", "buf4.toml", "--traffic", "shuffle"],
    );
    r.assert_located("buf4.toml", 6, "link.buffer_tokens");
}

#[test]
fn dimensions_out_of_range_name_the_key() {
    let dir = TempDir::new("dimensions");
    for d in ["0", "21"] {
        let file = format!("dim{d}.toml");
        dir.write(&file, &hypercube_file(d));
        let r = emu_in(dir.path(), &["--topology", &file, "--traffic", "shuffle"]);
        r.assert_located(&file, 3, "network.dimensions");

        let set = format!("network.dimensions={d}");
        let r = emu_in(
            dir.path(),
            &[
                "--topology",
                "hypercube6",
                "--traffic",
                "shuffle",
                "--set",
                &set,
            ],
        );
        r.assert_bad_input(&[&format!("--set {set}"), "network.dimensions"]);
    }
    // Not a number at all.
    dir.write("dimsix.toml", &hypercube_file("\"six\""));
    let r = emu_in(
        dir.path(),
        &["--topology", "dimsix.toml", "--traffic", "shuffle"],
    );
    r.assert_located("dimsix.toml", 3, "network.dimensions");
}

#[test]
fn unknown_pattern_kind_names_the_key() {
    let dir = TempDir::new("pattern");
    let r = emu_in(
        dir.path(),
        &[
            "--topology",
            "hypercube6",
            "--traffic",
            "shuffle",
            "--set",
            "pattern.kind=zigzag",
        ],
    );
    r.assert_bad_input(&["pattern.kind", "zigzag", "uniform"]);

    dir.write(
        "zigzag.toml",
        "description = \"t\"\n[pattern]\nkind = \"zigzag\"\n[injection]\nkind = \"continuous\"\n",
    );
    let r = emu_in(
        dir.path(),
        &["--topology", "hypercube6", "--traffic", "zigzag.toml"],
    );
    r.assert_located("zigzag.toml", 3, "pattern.kind");
}

#[test]
fn missing_files_list_the_available_names() {
    let dir = TempDir::new("missing");
    for spec in ["nosuch", "nosuch.toml", "./nosuch.toml"] {
        let r = emu_in(dir.path(), &["--topology", spec, "--traffic", "shuffle"]);
        r.assert_bad_input(&[spec, "not found", "hypercube6", "hypercube8", "ring4"]);
        let r = emu_in(dir.path(), &["--topology", "hypercube6", "--traffic", spec]);
        r.assert_bad_input(&[spec, "not found", "uniform", "shuffle", "systematic"]);
    }
    // A traffic name is not a topology.
    let r = emu_in(
        dir.path(),
        &["--topology", "shuffle", "--traffic", "shuffle"],
    );
    r.assert_bad_input(&["topology", "shuffle", "hypercube6"]);
}

#[test]
fn malformed_sets_are_rejected() {
    let dir = TempDir::new("sets");
    let cases: [(&str, &[&str]); 5] = [
        (
            "network.dimensions",
            &["--set network.dimensions", "KEY=VALUE"],
        ),
        (
            "foo.bar=1",
            &["--set foo.bar=1", "foo", "network", "pattern"],
        ),
        ("=1", &["--set =1"]),
        ("topology.pattern.kind=uniform", &["pattern"]),
        ("description=x", &["topology.description"]),
    ];
    for (set, needles) in cases {
        let r = emu_in(
            dir.path(),
            &[
                "--topology",
                "hypercube6",
                "--traffic",
                "shuffle",
                "--set",
                set,
            ],
        );
        r.assert_bad_input(needles);
    }
    // A key that is not in the schema, and a value of the wrong type.
    for (set, key) in [
        ("link.foo=1", "foo"),
        ("network.dimensions=abc", "network.dimensions"),
        ("link.buffer_tokens=lots", "link.buffer_tokens"),
    ] {
        let r = emu_in(
            dir.path(),
            &[
                "--topology",
                "hypercube6",
                "--traffic",
                "shuffle",
                "--set",
                set,
            ],
        );
        r.assert_bad_input(&[&format!("--set {set}"), key]);
    }
}

#[test]
fn an_empty_sender_list_is_bad_input_not_every_terminal() {
    // `terminals.senders = []` used to mean "all": a run of every terminal that the
    // file said should send nothing. (`--set terminals.senders=[]` is in the table of
    // bad `--set`s below.)
    let dir = TempDir::new("senders");
    let file = dir.path().join("none.toml");
    std::fs::write(
        &file,
        "[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"continuous\"\n[terminals]\nsenders = []\n",
    )
    .expect("write");
    let path = file.to_string_lossy().into_owned();
    let r = emu(&short(&["--topology", "hypercube6", "--traffic", &path]));
    r.assert_bad_input(&[
        "none.toml:6:1: terminals.senders",
        "an empty list sends nothing",
    ]);
}

#[test]
fn zero_threads_is_bad_input() {
    let r = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "shuffle",
        "--threads",
        "0",
    ]));
    r.assert_bad_input(&["--threads"]);
}

#[test]
fn out_of_range_numbers_are_bad_input_not_overflow() {
    // Each used to be accepted and then wrapped or overflowed (a debug build panicked).
    let base = ["--topology", "hypercube6", "--traffic", "shuffle"];
    for (extra, needle) in [
        (
            vec!["--threads", "99999999999"],
            "--threads 99999999999: give at most 4096",
        ),
        (vec!["--deadlock-window-us", "1e18"], "--deadlock-window-us"),
    ] {
        let mut args = base.to_vec();
        args.extend(extra.iter());
        emu(&short(&args)).assert_bad_input(&[needle]);
    }
    for args in [
        vec![
            "stress",
            "-t",
            "ring4",
            "--seed",
            "18446744073709551615",
            "--seeds",
            "3",
        ],
        vec![
            "sweep",
            "-t",
            "grid8",
            "-p",
            "uniform",
            "--seed",
            "18446744073709551615",
            "--seeds",
            "3",
        ],
        vec!["sweep", "-t", "grid8", "-p", "uniform", "--threads", "5000"],
        vec!["stress", "-t", "ring4", "--threads", "5000"],
    ] {
        let r = emu_raw(Path::new(env!("CARGO_MANIFEST_DIR")), &args);
        r.assert_bad_input(&[if args.contains(&"--threads") {
            "--threads"
        } else {
            "--seed"
        }]);
    }
}

#[test]
fn threads_the_system_refuses_end_the_run_with_an_error_not_a_hang() {
    // 300,000 KiB of address space cannot hold 256 thread stacks of 2 MiB: the system
    // refuses a worker thread. Both engines used to panic and then hang. The run guard
    // is off (--memory-limit 0), or it would stop the run first, as the stacks near
    // the address-space limit.
    for engine in ["sharded", "actors"] {
        let r = emu_under_ulimit(
            "-v 300000",
            &[
                "-q",
                "--memory-limit",
                "0",
                "--topology",
                "hypercube8",
                "--traffic",
                "uniform",
                "--engine",
                engine,
                "--threads",
                "4096",
                "--set",
                "phases.measure_us=5",
            ],
        );
        r.assert_code(1);
        r.assert_stderr_has(&["cannot start", "worker threads", "fewer --threads"]);
    }
}

/// Runs `emu -q ARGS` in the crate directory to the end and returns its exit code and
/// its peak resident memory in bytes, as GNU time measures it. Not from this process's
/// own wait4(2): Linux keeps a process's peak across exec, and a child spawned from
/// this test binary starts with the binary's peak.
fn emu_peak_memory(args: &[&str]) -> (i32, u64) {
    let out = tempfile::NamedTempFile::new().expect("a temporary file");
    let status = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(out.path())
        .arg(EMU)
        .arg("-q")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run /usr/bin/time (GNU time; .ci/run installs it)");
    let text = std::fs::read_to_string(out.path()).expect("GNU time's output");
    // GNU time prints "Command exited with non-zero status N" first when it did.
    let kib: u64 = text
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("GNU time printed {text:?}"));
    (status.code().unwrap_or(-1), kib * 1024)
}

/// The "at least" and "up to" sizes of a refusal message, in bytes.
fn refused_sizes(stderr: &str) -> (f64, f64) {
    let size = |after: &str| -> f64 {
        let rest = &stderr[stderr.find(after).expect(after) + after.len()..];
        let mut words = rest.split_whitespace();
        let n: f64 = words.next().expect("number").parse().expect("a number");
        let unit = match words.next().expect("unit").trim_end_matches([',', ')']) {
            "kB" => 1e3,
            "MB" => 1e6,
            "GB" => 1e9,
            "TB" => 1e12,
            u => panic!("unit {u}"),
        };
        n * unit
    };
    (size("at least "), size("up to "))
}

/// The one line a run guard prints, checked to be one line with no trailing hints.
fn guard_line(r: &Run, starts: &str) -> String {
    r.assert_code(2);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line\n{}", r.describe());
    assert!(lines[0].starts_with(starts), "{}", r.describe());
    lines[0].to_string()
}

#[test]
fn a_run_whose_memory_grows_past_its_limit_is_stopped_with_exit_2() {
    // 4 MB lightly loaded, within the 30 MB allowed; at saturation its buffers and
    // histograms then grow past it.
    let r = emu(&[
        "--topology",
        "hypercube8",
        "--traffic",
        "uniform",
        "--memory-limit",
        "0.03",
    ]);
    // Stopped at the limit, or before it for the growth its pace projects.
    let line = guard_line(&r, "error: memory: ");
    assert!(line.contains("of --memory-limit"), "{line}");
    assert!(line.contains("estimated at 4 MB lightly loaded"), "{line}");
    // Under an address-space limit the run is stopped by the guard, not aborted by the
    // allocator (exit 134).
    let r = emu_under_ulimit(
        "-v 60000",
        &[
            "-q",
            "--threads",
            "1",
            "--topology",
            "hypercube8",
            "--traffic",
            "uniform",
        ],
    );
    let line = guard_line(&r, "error: memory: ");
    assert!(line.contains("address-space limit (ulimit -v)"), "{line}");
}

#[test]
fn the_estimate_is_held_to_the_process_limit_not_only_the_machines() {
    // A 2^16-terminal hypercube needs at least 1.7 GB: refused under ulimit -v 1 GB
    // before anything is built (it used to abort with exit 134 on a larger machine).
    let r = emu_under_ulimit(
        "-v 1000000",
        &[
            "-q",
            "--topology",
            "hypercube8",
            "--traffic",
            "uniform",
            "--set",
            "network.dimensions=16",
            "--set",
            "packet.header_bytes=2",
        ],
    );
    guard_line(
        &r,
        "error: the network would need at least 1.7 GB of memory",
    );
}

#[test]
fn a_run_projected_past_its_time_limit_says_how_long_it_would_take() {
    let r = emu(&[
        "--topology",
        "hypercube10",
        "--traffic",
        "uniform",
        "--set",
        "phases.measure_us=100000",
        "--time-limit",
        "0.05",
    ]);
    let line = guard_line(&r, "error: time: this run would take about ");
    assert!(line.contains("more than --time-limit 0.05 min"), "{line}");
    let r = emu(&["-t", "hypercube6", "-p", "uniform", "--time-limit", "-1"]);
    guard_line(&r, "error: --time-limit -1: give minutes from 0 (no limit)");
}

#[test]
fn a_network_too_large_for_the_memory_is_refused_before_it_is_built() {
    // A 16-cube of C104s (65,536 terminals) used to abort with "memory allocation
    // failed" (exit 134); lightly loaded it needs about 1.7 GB (1.87 GB measured at 10 %
    // load, docs/architecture.md "Memory"). With a 1 GB limit it is refused at once.
    let r = emu(&[
        "--topology",
        "hypercube6",
        "--set",
        "network.dimensions=16",
        "--set",
        "packet.header_bytes=2",
        "--traffic",
        "uniform",
        "--memory-limit",
        "1",
    ]);
    r.assert_bad_input(&[
        "would need at least",
        "131072 nodes",
        "65536 terminals",
        "1.0 GB available",
        "--memory-limit",
    ]);
    let (least, most) = refused_sizes(&r.stderr);
    assert!(
        (1.2e9..2.5e9).contains(&least) && most > least,
        "{}",
        r.describe()
    );
    // The limit is a flag: 0 lifts it, a small one refuses even the shipped 6-cube.
    let six = [
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform",
        "--set",
        "phases.measure_us=20",
    ];
    let mut tight = six.to_vec();
    tight.extend(["--memory-limit", "0.0001"]);
    emu(&tight).assert_bad_input(&["would need at least"]);
    let mut none = six.to_vec();
    none.extend(["--memory-limit", "0"]);
    emu(&none).assert_code(0);
    for bad in [
        "--memory-limit=-1",
        "--memory-limit=nan",
        "--memory-limit=1e10",
    ] {
        let mut args = six.to_vec();
        args.push(bad);
        emu(&args).assert_bad_input(&["--memory-limit"]);
    }
}

#[test]
fn a_network_too_large_is_refused_before_its_routing_tables_are_made() {
    // A netlist whose given tables are wrong (one table for three switches): refused
    // for its size first, because the tables are made and walked only once the size
    // is known to fit; without a limit the tables' error shows.
    let dir = TempDir::new("early");
    let topo = dir.write(
        "chain.toml",
        "[network]\nkind = \"netlist\"\nswitches = [3, 3, 3]\nterminals = [[0, 0], [1, 0], [2, 0]]\n\
         links = [[0, 2, 1, 1], [1, 2, 2, 1]]\ntables = [[[0, 3, 2]]]\n",
    );
    let topo = topo.to_str().expect("utf-8 path");
    let args = |limit: &'static str| {
        [
            "--topology",
            topo,
            "--traffic",
            "uniform",
            "--memory-limit",
            limit,
        ]
    };
    emu(&args("0.000001")).assert_bad_input(&["would need at least", "6 nodes", "3 terminals"]);
    emu(&args("0")).assert_bad_input(&["network.tables", "1 tables for 3 switches"]);
}

#[test]
fn the_memory_estimate_brackets_what_a_run_really_takes() {
    // A 10-cube of C104s. The first figure is what a lightly loaded run needs: at 10 %
    // Bernoulli load it is within 25 % of the network's share of the peak resident
    // memory (the peak less that of a 2-terminal cube's run, the process's own); the
    // second, every buffer full and histograms reaching the hard stop, is above the
    // peak of a run offered more than it can carry (20 + 30 µs at load 1.0). Neither
    // counts the source queues, which stay small in so short a run. (Measured: 19 MB
    // against 27.8 - 6.8 MB light; 48.5 MB after 100 µs at load 1.0, below 492 MB;
    // docs/architecture.md "Memory".)
    let cube = [
        "--topology",
        "hypercube6",
        "--set",
        "network.dimensions=10",
        "--set",
        "packet.header_bytes=2",
        "--threads",
        "1",
    ];
    let mut refuse = cube.to_vec();
    refuse.extend(["--traffic", "uniform", "--memory-limit", "0.000001"]);
    let (least, most) = refused_sizes(&emu(&refuse).stderr);
    let (code, process) = emu_peak_memory(&[
        "-t",
        "hypercube6",
        "-p",
        "uniform",
        "--set",
        "network.dimensions=1",
        "--set",
        "phases.warmup_us=0",
        "--set",
        "phases.measure_us=2",
    ]);
    assert_eq!(code, 0);
    let mut light = cube.to_vec();
    light.extend([
        "--traffic",
        "uniform-rate",
        "--set",
        "injection.load=0.1",
        "--set",
        "phases.warmup_us=20",
        "--set",
        "phases.measure_us=100",
    ]);
    let (code, light_peak) = emu_peak_memory(&light);
    assert_eq!(code, 0);
    let network = light_peak.saturating_sub(process) as f64;
    assert!(
        (least - network).abs() <= 0.25 * network && (light_peak as f64) < most,
        "at least {least} B, up to {most} B, measured {light_peak} B, {process} B of it the \
         process's own"
    );
    let mut heavy = cube.to_vec();
    heavy.extend([
        "--traffic",
        "uniform-rate",
        "--set",
        "injection.load=1.0",
        "--set",
        "phases.warmup_us=20",
        "--set",
        "phases.measure_us=30",
    ]);
    let (code, heavy_peak) = emu_peak_memory(&heavy);
    assert_eq!(code, 0);
    assert!(
        most > heavy_peak as f64,
        "up to {most} B, measured {heavy_peak} B"
    );
}

#[test]
fn configurations_that_aborted_on_allocation_are_refused_or_run() {
    // Each of these aborted with "memory allocation failed" (exit 134).
    let base = ["--topology", "hypercube6", "--traffic", "uniform"];
    for (set, key) in [
        ("link.buffer_tokens=4294967295", "link.buffer_tokens"),
        (
            "c104.output_buffer_tokens=2000000",
            "c104.output_buffer_tokens",
        ),
        (
            "faults.extra_initial_credit=268435456",
            "faults.extra_initial_credit",
        ),
        ("injection.messages=10000000", "injection.messages"),
    ] {
        let mut args = base.to_vec();
        args.extend([
            "--set",
            "injection.kind=batch",
            "--set",
            "injection.messages=1",
        ]);
        args.extend(["--set", set]);
        emu(&short(&args)).assert_bad_input(&[key]);
    }
    // Large buffers are allocated as tokens arrive, not up front: these now run.
    for sets in [
        vec!["--set", "c104.output_buffer_tokens=1000000"],
        vec![
            "--set",
            "packet.max_data_bytes=65535",
            "--set",
            "link.buffer_tokens=packet",
        ],
    ] {
        let mut args = base.to_vec();
        args.extend(sets);
        emu(&short(&args)).assert_code(0);
    }
}

#[test]
fn schema_errors_use_the_files_words_not_rusts() {
    for set in [
        "injection=3",
        "network.dimensions=-1",
        "network.dimensions=99999999999999999999999",
        "network.dimensions=1.5",
        "injection.kind=7",
        "terminals.senders=[0,x]",
        "terminals.senders=[]",
    ] {
        let r = emu(&short(&[
            "--topology",
            "hypercube6",
            "--traffic",
            "uniform",
            "--set",
            set,
        ]));
        r.assert_bad_input(&[set]);
        for rust in [
            "internally tagged",
            "expected u32",
            "i128",
            "variant identifier",
            "sequence",
            "floating point",
        ] {
            assert!(!r.stderr.contains(rust), "{set}: {}", r.stderr);
        }
    }
}

#[test]
fn the_header_lists_the_overrides_the_run_was_given() {
    let r = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform",
        "--set",
        "network.dimensions=4",
    ]));
    r.assert_code(0);
    let line = r.stdout_line("overrides");
    assert!(line.contains("network.dimensions=4"), "{line}");
    assert!(r.stdout.contains("(16 terminals"), "{}", r.stdout);
}

#[test]
fn usage_errors_exit_2() {
    let dir = TempDir::new("usage");
    let cases: [&[&str]; 7] = [
        &[
            "--topology",
            "hypercube6",
            "--traffic",
            "shuffle",
            "--bogus",
        ],
        &["--topology", "hypercube6"],
        &[],
        &[
            "--topology",
            "hypercube6",
            "--traffic",
            "shuffle",
            "--engine",
            "foo",
        ],
        &[
            "--topology",
            "hypercube6",
            "--traffic",
            "shuffle",
            "--seed",
            "x",
        ],
        &[
            "--topology",
            "hypercube6",
            "--traffic",
            "shuffle",
            "--threads",
            "-1",
        ],
        &[
            "--topology",
            "hypercube6",
            "--traffic",
            "shuffle",
            "--deadlock-window-us",
            "0",
        ],
    ];
    for args in cases {
        let r = emu_in(dir.path(), args);
        r.assert_code(2);
        assert!(r.stdout.is_empty(), "usage error ran\n{}", r.describe());
        r.assert_stderr_has(&["error"]);
    }
    let r = emu_raw(dir.path(), &["list", "extra"]);
    r.assert_code(2);
}

#[test]
fn unwritable_outputs_are_bad_input_found_before_the_run() {
    let dir = TempDir::new("outputs-unwritable");
    let file = dir.write("a-file", "x");
    let file = file.to_string_lossy().into_owned();
    let in_file = format!("{file}/out.json");
    let base = ["--topology", "hypercube6", "--traffic", "shuffle"];
    for (flag, path) in [
        ("--json", "no/such/dir/out.json"),
        ("--json", dir.path().to_str().unwrap()),
        ("--hgrm", in_file.as_str()),
        ("--plot", file.as_str()),
    ] {
        let mut args = base.to_vec();
        args.extend([flag, path]);
        let r = emu_in(dir.path(), &short(&args));
        r.assert_bad_input(&[flag]);
        assert!(r.stdout.is_empty(), "ran before refusing\n{}", r.describe());
    }
    for args in [
        vec![
            "sweep",
            "-t",
            "grid8",
            "-p",
            "uniform",
            "--csv",
            "no/such/dir/s.csv",
        ],
        vec![
            "sweep",
            "-t",
            "grid8",
            "-p",
            "uniform",
            "--plot",
            "no/such/dir/s.svg",
        ],
        vec!["merge", "x.jsonl", "--table-csv", "no/such/dir/t.csv"],
        vec!["check", "-t", "ring4", "--json", "no/such/dir/c.json"],
        vec!["stress", "-t", "ring4", "--out", "no/such/dir/d.toml"],
        vec![
            "reproduce",
            "dslink-bandwidth",
            "--json",
            "no/such/dir/r.json",
        ],
    ] {
        let r = emu_raw(dir.path(), &args);
        r.assert_bad_input(&["no/such/dir"]);
        assert!(r.stdout.is_empty(), "ran before refusing\n{}", r.describe());
    }
}

#[test]
fn names_resolve_from_any_directory_and_local_files_come_first() {
    let dir = TempDir::new("lookup");
    // Shipped files by bare name, with and without .toml, from an empty directory.
    let r = emu_in(
        dir.path(),
        &[
            "--topology",
            "hypercube6.toml",
            "--traffic",
            "shuffle",
            "--engine",
            "sharded",
            "--set",
            "phases.warmup_us=2",
            "--set",
            "phases.measure_us=5",
        ],
    );
    r.assert_code(0);
    r.assert_stdout_has(&["hypercube6", "64 terminals", "rotate 1"]);

    // A file in ./traffic shadows the shipped one of the same name.
    dir.write(
        "traffic/shuffle.toml",
        "description = \"local\"\n[pattern]\nkind = \"shuffle\"\nrotate = 2\n\
         [injection]\nkind = \"continuous\"\n[phases]\nwarmup_us = 2\nmeasure_us = 5\n",
    );
    let r = emu_in(
        dir.path(),
        &[
            "--topology",
            "hypercube6",
            "--traffic",
            "shuffle",
            "--engine",
            "sharded",
        ],
    );
    r.assert_code(0);
    r.assert_stdout_has(&["rotate 2"]);

    // A file in ./topologies is found by its stem, and errors name it as found.
    dir.write(
        "topologies/mine.toml",
        "description = \"mine\"\n[network]\nkind = \"hypercube\"\ndimensions = 4\n[link]\nbuffer_tokens = 3\n",
    );
    let r = emu_in(dir.path(), &["--topology", "mine", "--traffic", "shuffle"]);
    let shown = Path::new("topologies").join("mine.toml");
    r.assert_located(&shown.display().to_string(), 6, "link.buffer_tokens");
}

// ---------------------------------------------------------------------------------
// 6. Deadlock

#[test]
fn ring4_deadlock_is_exit_3_with_a_report() {
    let r = emu(&["--topology", "ring4", "--traffic", "uniform"]);
    r.assert_code(3);
    r.assert_stderr_has(&[
        "deadlock",
        "stuck nodes",
        "c104[",
        "waits for output",
        "reproduce with: emu",
    ]);
    assert!(
        r.stdout.is_empty(),
        "a deadlocked run printed a report\n{}",
        r.describe()
    );
}

#[test]
fn deadlock_report_is_deterministic_and_reproducible() {
    let dir = TempDir::new("deadlock");
    let base = ["--topology", "ring4", "--traffic", "uniform", "--seed", "3"];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let r = emu_in(dir.path(), &args);
        r.assert_code(3);
        r
    };
    let one = with(&["--threads", "1"]);
    let two = with(&["--threads", "2"]);
    let seq = with(&["--engine", "actors"]);
    assert_eq!(
        one.stderr,
        two.stderr,
        "deadlock report depends on the thread count\n{}\n{}",
        one.describe(),
        two.describe()
    );
    let body = |r: &Run| -> Vec<String> {
        r.stderr
            .lines()
            .filter(|l| !l.starts_with("reproduce with:"))
            .map(String::from)
            .collect()
    };
    assert_eq!(
        body(&one),
        body(&seq),
        "deadlock report depends on the engine\n{}\n{}",
        one.describe(),
        seq.describe()
    );
    assert_eq!(
        seq.repro_args(),
        one.repro_args(),
        "the reproduce line depends on the engine or threads (results do not)\n{}\n{}",
        seq.describe(),
        one.describe()
    );

    // The reproduce line gives the same report.
    let repro = two.repro_args();
    let again = emu_in(
        dir.path(),
        &repro.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    again.assert_code(3);
    assert_eq!(
        again.stderr,
        two.stderr,
        "the reproduce line does not reproduce the report\n{}\n{}",
        two.describe(),
        again.describe()
    );
}

#[test]
fn deadlock_reproduce_line_keeps_the_deadlock_window() {
    let dir = TempDir::new("deadlock-window");
    let r = emu_in(
        dir.path(),
        &[
            "--topology",
            "ring4",
            "--traffic",
            "uniform",
            "--deadlock-window-us",
            "300",
        ],
    );
    r.assert_code(3);
    let repro = r.repro_args();
    let again = emu_in(
        dir.path(),
        &repro.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    again.assert_code(3);
    assert_eq!(
        again.stderr,
        r.stderr,
        "the reproduce line does not reproduce the report\n{}\n{}",
        r.describe(),
        again.describe()
    );
}

#[test]
fn reproduce_line_is_shell_quoted() {
    let dir = TempDir::new("repro-quote");
    dir.write(
        "my ring.toml",
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("topologies/ring4.toml"),
        )
        .expect("ring4.toml"),
    );
    let r = emu_in(
        dir.path(),
        &["--topology", "my ring.toml", "--traffic", "uniform"],
    );
    r.assert_code(3);
    let line = r
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("reproduce with: emu "))
        .expect("reproduce line")
        .to_string();
    // Run the line through a shell, as a user pasting it would.
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("\"$EMU\" -q {line}"))
        .env("EMU", EMU)
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(start.elapsed() < TIME_LIMIT, "sh -c {line} hung");
        std::thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(
        status.code(),
        Some(3),
        "`{line}` pasted into a shell does not reproduce the deadlock\n{}",
        r.describe()
    );
}

#[test]
fn starved_sources_are_flagged_and_an_even_run_is_not() {
    // The shipped torus with systematic traffic starves some sources completely (the
    // text used to say nothing beyond a 0.0 % minimum): a WARNING names them, and the
    // JSON lists them with the bound.
    let dir = TempDir::new("starvation");
    let json = dir.path().join("t.json");
    let json_arg = json.to_string_lossy().into_owned();
    let r = emu(&[
        "--topology",
        "torus8",
        "--traffic",
        "systematic",
        "--set",
        "phases.measure_us=200",
        "--json",
        &json_arg,
    ]);
    r.assert_code(0);
    r.assert_stdout_has(&["sources were starved", "less than 10 % of the mean"]);
    let v = read_json(&json);
    let s = &v["starvation"];
    assert_eq!(s["sources"], 64);
    assert_eq!(s["bound_of_mean"], 0.1);
    let starved = s["starved"].as_array().expect("a list");
    assert!(!starved.is_empty(), "{s}");
    let mean = s["mean_sent_pct"].as_f64().expect("a number");
    for pair in starved {
        assert!(pair[1].as_f64().expect("sent %") < 0.1 * mean, "{pair}");
    }
    // Uniform traffic on the hypercube shares the links evenly: nobody is starved.
    let r = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform",
    ]));
    r.assert_code(0);
    assert!(!r.stdout.contains("starved"), "{}", r.describe());
}

#[test]
fn an_offered_load_above_the_link_says_it_is_a_sample() {
    // Bernoulli arrivals at load 1.0 create, in this sample, 100.4 % of what a link
    // carries; the header used to print that bare.
    let r = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform-rate",
        "--set",
        "injection.load=1.0",
        "--set",
        "message.bytes=1",
    ]));
    r.assert_code(0);
    let line = r.stdout_line("throughput");
    let offered: f64 = line
        .split("offered ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .expect("an offered figure");
    assert!(offered > 100.0, "{line}");
    assert!(
        line.contains("(random arrivals: more than a link carries in this sample)"),
        "{line}"
    );
    // At 30 % nothing is said.
    let r = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform-rate",
    ]));
    assert!(!r.stdout.contains("random arrivals"), "{}", r.describe());
}

// ---------------------------------------------------------------------------------
// 7. Flow-control violation

#[test]
fn extra_credit_is_a_flow_control_violation() {
    let dir = TempDir::new("flow");
    // Extra credit only overflows a buffer that fills: oversubscribe the hot spot
    // (64 terminals × 30 % of a link into one link).
    let base = [
        "--topology",
        "hypercube6",
        "--traffic",
        "hotspot",
        "--set",
        "injection.load=0.3",
        "--set",
        "faults.extra_initial_credit=8",
    ];
    let mut first_lines = Vec::new();
    for extra in [
        &[][..],
        &["--check"][..],
        &["--engine", "actors"][..],
        &["--threads", "1"][..],
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let r = emu_in(dir.path(), &args);
        r.assert_code(4);
        r.assert_stderr_has(&["flow-control violation", "reproduce with: emu"]);
        assert!(
            r.stderr.contains("c104[") || r.stderr.contains("t9000["),
            "no node named\n{}",
            r.describe()
        );
        assert!(
            r.stdout.is_empty(),
            "a failed run printed a report\n{}",
            r.describe()
        );
        first_lines.push((r.stderr.lines().next().unwrap_or("").to_string(), r));
    }
    // Without --check the violation is found at the same place by both engines and
    // any thread count.
    let (reference, r0) = &first_lines[0];
    for (line, r) in [&first_lines[2], &first_lines[3]] {
        assert_eq!(
            line,
            reference,
            "the violation depends on the engine or threads\n{}\n{}",
            r0.describe(),
            r.describe()
        );
    }
    // The reproduce line (which adds --check) also fails with exit code 4.
    let repro = r0.repro_args();
    assert!(
        repro.iter().any(|a| a == "--check"),
        "the reproduce line lacks --check\n{}",
        r0.describe()
    );
    let again = emu_in(
        dir.path(),
        &repro.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    again.assert_code(4);
    again.assert_stderr_has(&["flow-control violation"]);
}

// ---------------------------------------------------------------------------------
// 8. --check on a healthy network

#[test]
fn check_has_no_false_alarm() {
    let r = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "shuffle",
        "--check",
    ]));
    r.assert_code(0);
    r.assert_stdout_has(&["64 terminals", "0 undelivered", "0 out of order"]);

    let r = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform",
        "--engine",
        "sharded",
        "--check",
    ]));
    r.assert_code(0);
    r.assert_stdout_has(&["0 undelivered", "0 out of order"]);
}

// ---------------------------------------------------------------------------------
// Shipped files

#[test]
fn every_shipped_traffic_file_runs_on_hypercube6() {
    let dir = TempDir::new("traffic");
    for traffic in [
        "bitcomp",
        "bitrev",
        "hotspot",
        "shuffle",
        "shuffle20",
        "systematic",
        "transpose",
        "uniform-rate",
        "uniform",
    ] {
        let r = emu_in(
            dir.path(),
            &[
                "--topology",
                "hypercube6",
                "--traffic",
                traffic,
                "--engine",
                "sharded",
                "--set",
                "phases.warmup_us=5",
                "--set",
                "phases.measure_us=10",
                "--set",
                "phases.drain_limit_us=500",
            ],
        );
        r.assert_code(0);
        r.assert_stdout_has(&[&format!("traffic {traffic}")]);
        // Under the hot spot the tree of paths into terminal 0 saturates and the far
        // sources starve (round-robin at every switch), so only the permutations and
        // uniform traffic must deliver everything.
        if traffic != "hotspot" {
            r.assert_stdout_has(&["0 undelivered"]);
        }
    }
}

/// One message from terminal 0, so that even a large network runs in a moment.
fn one_message(dir: &Path, topology: &str) -> Run {
    emu_in(
        dir,
        &[
            "--topology",
            topology,
            "--traffic",
            "shuffle20",
            "--engine",
            "sharded",
            "--set",
            "injection.messages=1",
            "--set",
            "terminals.senders=[0]",
        ],
    )
}

#[test]
fn shipped_topologies_run_one_message() {
    let dir = TempDir::new("topologies");
    for (topology, terminals) in [
        ("hypercube6", "64 terminals"),
        ("hypercube8", "256 terminals"),
        ("ring4", "4 terminals"),
    ] {
        let r = one_message(dir.path(), topology);
        r.assert_code(0);
        r.assert_stdout_has(&[terminals, "completion"]);
    }
}

#[test]
fn shipped_hypercube10_runs_one_message() {
    let dir = TempDir::new("hypercube10");
    let r = one_message(dir.path(), "hypercube10");
    r.assert_code(0);
    r.assert_stdout_has(&["1,024 terminals", "completion"]);
}

// ---------------------------------------------------------------------------------
// Regression: a lone sender must not stall

#[test]
fn a_lone_sender_keeps_sending() {
    // Terminal 1 sends to terminal 2 along the shuffle; nobody sends to terminal 1,
    // so nothing but its own transmitter wakes it. With continuous injection it must
    // keep its link about as busy as terminal 0 (which sends to itself).
    let dir = TempDir::new("lone-sender");
    let created = |sender: &str| {
        let set = format!("terminals.senders=[{sender}]");
        let mut args = short(&["--topology", "hypercube6", "--traffic", "shuffle"]);
        args.extend_from_slice(&["--set", &set, "--json", "r.json"]);
        let r = emu_in(dir.path(), &args);
        r.assert_code(0);
        let j = read_json(&dir.path().join("r.json"));
        let n = j["messages"]["measured_created"].as_u64().unwrap_or(0);
        (n, r)
    };
    let (zero, r0) = created("0");
    let (one, r1) = created("1");
    assert!(
        zero >= 10,
        "terminal 0 alone sent too little\n{}",
        r0.describe()
    );
    assert!(
        one * 10 >= zero * 8,
        "terminal 1 alone created {one} measured messages, terminal 0 alone {zero}\n{}",
        r1.describe()
    );
}

#[test]
fn verify_engines_runs_every_engine_and_reports_agreement() {
    let mut args = short(&["--topology", "hypercube6", "--traffic", "shuffle"]);
    args.extend_from_slice(&["--verify-engines", "--threads", "2"]);
    let r = emu(&args);
    r.assert_code(0);
    r.assert_stdout_has(&[
        "engines agree",
        "sharded on 2 threads",
        "actors on 2 threads",
        "sharded on 1 thread",
        "actors on 1 thread",
    ]);
    // A run that ends in deadlock is compared by its diagnosis, and the deadlock the
    // engines agree on is the exit code.
    let r = emu(&[
        "--topology",
        "ring4",
        "--traffic",
        "uniform",
        "--verify-engines",
    ]);
    r.assert_code(3);
    r.assert_stdout_has(&["engines agree", "failed the same way"]);
}

#[test]
fn a_deadlock_writes_its_cycle_to_the_json_report() {
    let dir = TempDir::new("deadlock-json");
    let r = emu_in(
        dir.path(),
        &[
            "--topology",
            "ring4",
            "--traffic",
            "uniform",
            "--json",
            "d.json",
        ],
    );
    r.assert_code(3);
    r.assert_stderr_has(&["wait-for cycle", "each waiting for the next"]);
    let j = read_json(&dir.path().join("d.json"));
    assert_eq!(j["outcome"], "deadlock", "{j:#}");
    assert_eq!(j["seed"], 1);
    let cycle = j["cycle"].as_array().expect("a cycle");
    assert!(cycle.len() >= 4, "{j:#}");
    // Each place waits for the next one, and the last for the first.
    for k in 0..cycle.len() {
        assert_eq!(
            cycle[k]["next"],
            cycle[(k + 1) % cycle.len()]["place"],
            "{j:#}"
        );
    }
    assert!(
        j["reproduce"]
            .as_str()
            .is_some_and(|s| s.starts_with("emu --topology")),
        "{j:#}"
    );
}

#[test]
fn a_closed_pipe_is_not_a_panic() {
    // The reading end is closed before emu starts, so its first write fails whatever
    // the machine's load (a pipe closed after the spawn may already hold the list).
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(EMU)
        .arg("list")
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("emu runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The list was not delivered, so not exit 0; the reader chose to stop reading, so
    // no line tells it.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr, "", "a closed pipe is said by the exit code alone");
}

// ---------------------------------------------------------------------------------
// Replications and switch fabrics

#[test]
fn replications_report_intervals_and_do_not_depend_on_threads() {
    let dir = TempDir::new("replications");
    let json = dir.path().join("rep.json");
    let json_arg = json.to_string_lossy().into_owned();
    let args = |threads: &'static str| {
        short(&[
            "--topology",
            "hypercube6",
            "--traffic",
            "uniform",
            "--replications",
            "3",
            "--threads",
            threads,
        ])
    };
    let one = emu(&args("1"));
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert!(
        one.stdout.contains("replications  3 runs (seeds 1-3)"),
        "{}",
        one.stdout
    );
    assert!(one.stdout.contains("90 % interval"), "{}", one.stdout);
    let two = emu(&args("2"));
    assert_eq!(one.stdout, two.stdout, "thread count changed the result");
    let mut with_json = args("2");
    with_json.extend_from_slice(&["--json", &json_arg]);
    assert_eq!(emu(&with_json).code, 0);
    let v = read_json(&json);
    assert_eq!(v["seeds"].as_array().map(Vec::len), Some(3));
    assert!(
        v["mean_latency"]["half_width_90"]
            .as_f64()
            .is_some_and(|h| h > 0.0)
    );
    let bad = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform",
        "--replications",
        "zero",
    ]));
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--replications zero"), "{}", bad.stderr);
}

#[test]
fn a_fabric_run_prints_delay_in_packet_cycles_throughput_per_port_and_underflow() {
    let r = emu(&[
        "--topology",
        "fabric16-cicq-lof",
        "--traffic",
        "bursty30",
        "--set",
        "traffic.phases.measure_us=200",
        "--check",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for needle in [
        "packet cycles",
        "per input",
        "per output",
        "severe underflow",
        "credits queued",
    ] {
        assert!(
            r.stdout.contains(needle),
            "missing {needle:?}:\n{}",
            r.stdout
        );
    }
    // Bad fabric input names its key.
    let bad = emu(&[
        "--topology",
        "fabric16-cicq-lof",
        "--traffic",
        "bursty30",
        "--set",
        "topology.network.strategy=lifo",
    ]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("network.strategy"), "{}", bad.stderr);
    let wrong_family = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "bursty30",
    ]));
    assert_eq!(wrong_family.code, 2);
    assert!(
        wrong_family.stderr.contains("switch fabrics"),
        "{}",
        wrong_family.stderr
    );
    let check = emu_raw(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["check", "--topology", "fabric16-cioq"],
    );
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(check.stdout.contains("cannot deadlock") || check.stderr.contains("cannot deadlock"));
    // A sweep over a bursty fabric keeps the burst size and reports packet cycles.
    let sweep = emu_raw(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &[
            "sweep",
            "-q",
            "--topology",
            "fabric16-cicq-lof",
            "--traffic",
            "bursty30",
            "--load",
            "0.5:0.6:0.1",
            "--set",
            "traffic.phases.measure_us=100",
        ],
    );
    assert_eq!(sweep.code, 0, "{}", sweep.stderr);
    assert!(
        sweep.stdout.contains("delays in packet cycles"),
        "{}",
        sweep.stdout
    );
}

#[test]
fn hgrm_files_are_written_for_each_latency_metric() {
    let dir = TempDir::new("hgrm");
    let out = dir.path().join("h");
    let out_arg = out.to_string_lossy().into_owned();
    let r = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform",
        "--hgrm",
        &out_arg,
    ]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    for name in ["message", "network", "source_queue"] {
        let text = std::fs::read_to_string(out.join(format!("{name}.hgrm")))
            .unwrap_or_else(|e| panic!("{name}.hgrm: {e}"));
        let rows: Vec<(f64, f64, u64)> = text
            .lines()
            .filter_map(emu::stats::hgrm::parse_row)
            .collect();
        assert!(!rows.is_empty(), "{name}: no rows");
        let last = rows[rows.len() - 1];
        assert_eq!(last.1, 1.0, "{name}: last row is not the 100th percentile");
        assert!(text.contains("Total count"), "{name}");
    }
}

/// An SCI ring records message latency only: `--hgrm` writes that file and no empty
/// ones for the metrics it does not record.
#[test]
fn hgrm_writes_only_the_metrics_a_family_records() {
    let dir = TempDir::new("hgrm-sci");
    let out = dir.path().join("h");
    let out_arg = out.to_string_lossy().into_owned();
    let r = emu(&[
        "--topology",
        "sci-ring4",
        "--traffic",
        "sci-uniform",
        "--set",
        "phases.measure_us=20",
        "--hgrm",
        &out_arg,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(out.join("message.hgrm").exists());
    for name in ["network", "source_queue"] {
        assert!(!out.join(format!("{name}.hgrm")).exists(), "{name}.hgrm");
    }
}

#[test]
fn plot_draws_each_latency_distribution_the_terminals_and_the_links() {
    let dir = TempDir::new("plot");
    let svgs = |sub: &str, topology: &str, traffic: &str| {
        let out = dir.path().join(sub);
        let out_arg = out.to_string_lossy().into_owned();
        let r = emu(&short(&[
            "--topology",
            topology,
            "--traffic",
            traffic,
            "--plot",
            &out_arg,
        ]));
        assert_eq!(r.code, 0, "{}", r.stderr);
        let mut names: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for n in &names {
            let text = std::fs::read_to_string(out.join(n)).unwrap();
            assert!(
                text.starts_with("<svg") && text.trim_end().ends_with("</svg>"),
                "{n}"
            );
        }
        (out, names)
    };
    let (out, names) = svgs("h", "hypercube6", "uniform");
    assert_eq!(
        names,
        [
            "latency-message.svg",
            "latency-network.svg",
            "latency-source_queue.svg",
            "links.svg",
            "terminals.svg"
        ]
    );
    let lat = std::fs::read_to_string(out.join("latency-message.svg")).unwrap();
    assert!(lat.contains("message latency · hypercube6 · uniform") && lat.contains("99%"));
    // Pictures are of one run: not of replications.
    let r = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform",
        "--replications",
        "2",
        "--plot",
        "x",
    ]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    // An SCI ring's links are drawn round the ring, each direction named in its
    // tooltip by its transmitter and port; and it records message latency only.
    let (out, names) = svgs("s", "sci-ring4", "sci-uniform");
    assert_eq!(names, ["latency-message.svg", "links.svg", "terminals.svg"]);
    let links = std::fs::read_to_string(out.join("links.svg")).unwrap();
    for i in 0..4 {
        assert!(links.contains(&format!("sci[{i}]:1")), "{links}");
    }
}

/// The `links` of a run's JSON report, as (from, from_port, to, to_port, busy %).
fn link_uses(v: &serde_json::Value) -> Vec<(String, u64, String, u64, f64)> {
    v["links"]
        .as_array()
        .unwrap_or_else(|| panic!("no links in {v}"))
        .iter()
        .map(|l| {
            (
                l["from"].as_str().unwrap().to_string(),
                l["from_port"].as_u64().unwrap(),
                l["to"].as_str().unwrap().to_string(),
                l["to_port"].as_u64().unwrap(),
                l["busy_pct"].as_f64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn permutations_on_rings_and_fabrics_are_reported_flow_by_flow() {
    // Every node sends to the next one: a permutation, so each destination's
    // statistics are one flow's (as on DS-Link networks). A random pattern has none.
    let dir = TempDir::new("flows");
    let flows = |topology: &str, traffic: &str, sets: &[&str]| {
        let mut args = vec!["--topology", topology, "--traffic", traffic];
        for s in sets {
            args.extend(["--set", s]);
        }
        let (_, json) = run_json(&dir, topology, &args);
        read_json(&json)["flows"].clone()
    };
    let next = |n: u32| {
        let d: Vec<String> = (0..n).map(|i| ((i + 1) % n).to_string()).collect();
        format!("pattern.destinations=[{}]", d.join(","))
    };
    for (topology, traffic, n, load) in [
        ("sci-ring4", "sci-uniform", 4, "injection.load=0.05"),
        ("fabric16-cioq", "uniform-rate", 16, "injection.load=0.5"),
    ] {
        let table = next(n);
        let f = flows(topology, traffic, &["pattern.kind=table", &table, load]);
        let pairs: Vec<(u64, u64)> = f
            .as_array()
            .unwrap_or_else(|| panic!("{topology}: no flows"))
            .iter()
            .map(|x| {
                (
                    x["source"].as_u64().unwrap(),
                    x["destination"].as_u64().unwrap(),
                )
            })
            .collect();
        let want: Vec<(u64, u64)> = (0..u64::from(n))
            .map(|i| (i, (i + 1) % u64::from(n)))
            .collect();
        assert_eq!(pairs, want, "{topology}");
        assert!(
            f.as_array()
                .unwrap()
                .iter()
                .all(|x| x["messages"].as_u64() > Some(0)),
            "{topology}: {f}"
        );
        assert!(
            flows(topology, traffic, &[load]).is_null(),
            "{topology}: uniform has no flows"
        );
    }
}

#[test]
fn an_sci_ring_s_journey_parts_add_up_to_its_latency() {
    // SCI §4.8's breakdown, measured: the text table and the JSON section name the four
    // parts in the order they add up, and their means add up to the mean latency
    // (message by message they add up exactly; `--check` holds the fixed part to the
    // path's fixed delay).
    let dir = TempDir::new("sci-journey");
    let (r, json) = run_json(
        &dir,
        "j",
        &[
            "--topology",
            "sci-ring16-fc",
            "--traffic",
            "sci-uniform",
            "--check",
        ],
    );
    assert!(
        r.stdout.contains(
            "(ticks; message latency = source queue + idle source + ring buffer + fixed)"
        ),
        "{}",
        r.stdout
    );
    let v = read_json(&json);
    let j = v["journey"].as_object().expect("a journey section");
    let mut names: Vec<&str> = j.keys().map(String::as_str).collect();
    names.sort();
    assert_eq!(
        names,
        ["fixed", "idle_source", "ring_buffer", "source_queue"]
    );
    // In the file, in the order they add up.
    let text = std::fs::read_to_string(&json).unwrap();
    let at = |k: &str| text.find(&format!("\"{k}\": {{")).unwrap();
    assert!(at("journey") < at("source_queue"));
    assert!(at("source_queue") < at("idle_source") && at("idle_source") < at("ring_buffer"));
    assert!(at("ring_buffer") < at("fixed"));
    let mean = |x: &serde_json::Value| x["ticks"]["mean"].as_f64().unwrap();
    let count = |x: &serde_json::Value| x["count"].as_u64().unwrap();
    let latency = &v["latency"]["message_latency"];
    let sum: f64 = j.values().map(mean).sum();
    assert!(
        (sum - mean(latency)).abs() < 1e-9 * mean(latency),
        "{sum} against {}",
        mean(latency)
    );
    assert!(j.values().all(|x| count(x) == count(latency)));
    assert!(
        j.values().all(|x| mean(x) > 0.0),
        "every part is there under load: {j:?}"
    );
}

#[test]
fn link_utilisation_of_rings_and_fabrics_adds_up_to_their_token_hops() {
    // An SCI ring: one direction per ring link (port 1 sends, port 0 only receives),
    // busy for every symbol that is not an idle, so the ring's busy cycles are its
    // token-hops. A fabric: an adapter sends packets on its ingress link, the switch
    // credits back on it and packets on to the output adapters, which send nothing;
    // the packet directions' busy cycles are the token-hops, and the credit directions
    // are busy at most every cycle.
    let dir = TempDir::new("link-use");
    let run = |topology: &str, traffic: &str| {
        let (_, json) = run_json(
            &dir,
            topology,
            &["--topology", topology, "--traffic", traffic],
        );
        let v = read_json(&json);
        let ticks = v["run"]["end_tick"].as_f64().unwrap();
        let hops = v["token_hops"].as_f64().unwrap();
        (link_uses(&v), ticks, hops)
    };
    let busy = |pct: f64, ticks: f64| (pct / 100.0 * ticks).round();

    let (links, ticks, hops) = run("sci-ring4", "sci-uniform");
    let ring: Vec<(String, u64, String, u64)> = links
        .iter()
        .map(|(f, fp, t, tp, _)| (f.clone(), *fp, t.clone(), *tp))
        .collect();
    let want: Vec<(String, u64, String, u64)> = (0..4)
        .map(|i| (format!("sci[{i}]"), 1, format!("sci[{}]", (i + 1) % 4), 0))
        .collect();
    assert_eq!(ring, want);
    let sum: f64 = links.iter().map(|l| busy(l.4, ticks)).sum();
    assert_eq!(sum, hops);
    assert!(links.iter().all(|l| l.4 > 0.0 && l.4 <= 100.0), "{links:?}");

    let (links, ticks, hops) = run("fabric16-cioq", "bursty30");
    assert_eq!(links.len(), 3 * 16, "{links:?}");
    let is_credit = |l: &(String, u64, String, u64, f64)| l.0 == "switch" && l.1 < 16;
    let packets: f64 = links
        .iter()
        .filter(|l| !is_credit(l))
        .map(|l| busy(l.4, ticks))
        .sum();
    assert_eq!(packets, hops);
    assert!(links.iter().all(|l| l.4 <= 100.0), "{links:?}");
    let credit: Vec<f64> = links.iter().filter(|l| is_credit(l)).map(|l| l.4).collect();
    assert_eq!(credit.len(), 16);
    assert!(
        credit.iter().all(|&c| c > 50.0),
        "credits flow back: {credit:?}"
    );
    assert!(
        links
            .iter()
            .all(|l| !l.0.starts_with("adapter") || l.1 == 0),
        "an adapter sends on its ingress link only: {links:?}"
    );
}

#[test]
fn packets_blocked_behind_a_dead_link_exit_5_naming_the_link_and_the_packets() {
    // A hypercube link down mid-run under uniform traffic: the run must not hang, and
    // must not call it a deadlock (3): exit 5, the link with both ends, since when, why,
    // the tokens lost, the first blocked packets and the count of the rest; the JSON
    // names the outcome.
    let dir = TempDir::new("link-fault");
    let json = dir.path().join("f.json");
    let json_arg = json.to_string_lossy().into_owned();
    let r = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform",
        "--set",
        r#"faults.link_down=[{ link = "c104[5]:2", at_us = 30.0 }]"#,
        "--json",
        &json_arg,
    ]));
    assert_eq!(r.code, 5, "{}", r.describe());
    assert!(r.stdout.is_empty(), "{}", r.describe());
    for want in [
        "error: blocked by a link fault at tick ",
        "link c104[1] port 2 ↔ c104[5] port 2 dead since tick 3000 (30.000 µs): scheduled (faults.link_down); ",
        " tokens lost",
        "\n  blocked: c104[",
        " more\n",
        "reproduce with: emu --topology topologies/hypercube6.toml --traffic traffic/uniform.toml --seed 1 --set",
    ] {
        assert!(r.stderr.contains(want), "{want:?}\n{}", r.describe());
    }
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json written"))
            .expect("valid JSON");
    assert_eq!(v["outcome"], "blocked_by_fault");
    assert_eq!(v["links_down"][0]["since_tick"], 3000);
    // The same run without the fault succeeds.
    let ok = emu(&short(&[
        "--topology",
        "hypercube6",
        "--traffic",
        "uniform",
    ]));
    assert_eq!(ok.code, 0, "{}", ok.describe());
}
