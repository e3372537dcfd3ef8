//! Outputs that never destroy inputs, and writes that never fail silently.
//!
//! - A generator: every output flag of every command against every input file of that
//!   command and against every other output, each named five ways (the path, `./`
//!   path, absolute path, a symbolic link and a hard link): each is refused with exit 2
//!   and one line before any work, the files left byte for byte as they were, no
//!   temporary file left behind.
//! - Standard output and standard error that cannot be written (`/dev/full`): exit 1
//!   with one line (or the command's own failure code), never a panic, never exit 0.
//! - `-` as standard output for one output; an existing output replaced whole, keeping
//!   its permissions, written through a symbolic link.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const EMU: &str = env!("CARGO_BIN_EXE_emu");

const TOPO: &str = "[network]\nkind = \"hypercube\"\ndimensions = 2\n";
const TRAFFIC: &str = "[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"rate\"\nload = 0.05\n";

/// One command: its arguments before the outputs, the files it reads, its output
/// flags that take a file and those that take a directory.
struct Surface {
    name: &'static str,
    base: &'static [&'static str],
    inputs: &'static [&'static str],
    files: &'static [&'static str],
    dirs: &'static [&'static str],
}

const SURFACES: &[Surface] = &[
    Surface {
        name: "run",
        base: &[
            "-t",
            "topo.toml",
            "-p",
            "traf.toml",
            "-q",
            "--watch",
            "c104[0]:0",
        ],
        inputs: &["topo.toml", "traf.toml"],
        files: &["--json", "--trace", "--report", "--vcd"],
        dirs: &["--plot", "--hgrm"],
    },
    Surface {
        name: "sweep",
        base: &[
            "sweep",
            "-t",
            "topo.toml",
            "-p",
            "traf.toml",
            "-q",
            "--load",
            "0.05",
        ],
        inputs: &["topo.toml", "traf.toml"],
        files: &[
            "--csv",
            "--table-csv",
            "--plot",
            "--report",
            "--json",
            "--plan",
        ],
        dirs: &[],
    },
    Surface {
        name: "sweep shard",
        base: &[
            "sweep",
            "-t",
            "topo.toml",
            "-p",
            "traf.toml",
            "-q",
            "--load",
            "0.05",
            "--shard",
            "1/1",
        ],
        inputs: &["topo.toml", "traf.toml"],
        files: &["--out"],
        dirs: &[],
    },
    Surface {
        name: "merge",
        base: &["merge", "p1.jsonl", "p2.jsonl"],
        inputs: &["p1.jsonl", "p2.jsonl"],
        files: &["--csv", "--table-csv", "--plot", "--report", "--json"],
        dirs: &[],
    },
    Surface {
        name: "stress",
        base: &["stress", "-t", "topo.toml", "-q", "--seeds", "1"],
        inputs: &["topo.toml"],
        files: &["--json", "--out"],
        dirs: &["--plot"],
    },
    Surface {
        name: "check",
        base: &["check", "-t", "topo.toml"],
        inputs: &["topo.toml"],
        files: &["--json"],
        dirs: &["--plot"],
    },
];

/// The files every case starts with: the inputs, and `o.out`, an existing output.
const FILES: &[(&str, &str)] = &[
    ("topo.toml", TOPO),
    ("traf.toml", TRAFFIC),
    ("p1.jsonl", "{}\n"),
    ("p2.jsonl", "{}\n"),
    ("o.out", "an earlier output\n"),
];

/// Five names of the existing file `name` in `dir`: itself, `./` it, its absolute
/// path, a symbolic link and a hard link (the links created here).
fn spellings(dir: &Path, name: &str) -> Vec<String> {
    let sym = format!("sym-{name}");
    let hard = format!("hard-{name}");
    let _ = std::fs::remove_file(dir.join(&sym));
    let _ = std::fs::remove_file(dir.join(&hard));
    std::os::unix::fs::symlink(name, dir.join(&sym)).expect("symlink");
    std::fs::hard_link(dir.join(name), dir.join(&hard)).expect("hard link");
    vec![
        name.to_string(),
        format!("./{name}"),
        dir.join(name).display().to_string(),
        sym,
        hard,
    ]
}

/// Runs emu in `dir` with `args`: (exit code, stdout, stderr).
fn run_in(dir: &Path, args: &[String]) -> (i32, String, String) {
    let o = Command::new(EMU)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("emu runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// What is wrong with a refused command's outcome and its directory afterwards.
fn refusal_problems(dir: &Path, (code, stdout, stderr): &(i32, String, String)) -> Vec<String> {
    let mut p = Vec::new();
    if *code != 2 {
        p.push(format!("exit {code}, expected 2"));
    }
    if !stdout.is_empty() {
        p.push("stdout not empty".into());
    }
    if stderr.lines().count() != 1 || !stderr.starts_with("error: ") {
        p.push(format!("stderr is not one error line: {stderr:?}"));
    }
    for (name, text) in FILES {
        if std::fs::read_to_string(dir.join(name)).ok().as_deref() != Some(*text) {
            p.push(format!("{name} changed"));
        }
    }
    for e in std::fs::read_dir(dir)
        .expect("read dir")
        .filter_map(Result::ok)
    {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".part") || name.starts_with(".emu-check-") {
            p.push(format!("temporary file {name} left"));
        }
    }
    p
}

fn fresh_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in FILES {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

/// Every output flag against every input and every other output, five spellings each.
#[test]
fn no_output_can_replace_an_input_or_another_output() {
    let dir = fresh_dir();
    let d = dir.path();
    let mut failures = Vec::new();
    let mut tried = 0;
    let mut check = |args: Vec<String>, what: String| {
        tried += 1;
        let outcome = run_in(d, &args);
        let problems = refusal_problems(d, &outcome);
        if !problems.is_empty() {
            failures.push(format!(
                "{what}: emu {}: {}\n  stderr: {}",
                args.join(" "),
                problems.join("; "),
                outcome.2.trim_end()
            ));
        }
    };
    for s in SURFACES {
        let base: Vec<String> = s.base.iter().map(|a| (*a).to_string()).collect();
        let flags: Vec<&str> = s.files.iter().chain(s.dirs).copied().collect();
        for flag in &flags {
            for input in s.inputs {
                for spelled in spellings(d, input) {
                    let mut args = base.clone();
                    args.extend([(*flag).to_string(), spelled.clone()]);
                    check(
                        args,
                        format!("{} {flag} on input {input} as {spelled}", s.name),
                    );
                }
            }
        }
        for (i, first) in flags.iter().enumerate() {
            for second in &flags[i + 1..] {
                for spelled in spellings(d, "o.out") {
                    let mut args = base.clone();
                    args.extend([
                        (*first).to_string(),
                        "o.out".to_string(),
                        (*second).to_string(),
                        spelled.clone(),
                    ]);
                    check(
                        args,
                        format!("{} {first} and {second} as {spelled}", s.name),
                    );
                }
            }
        }
    }
    assert!(tried > 300, "the generator made only {tried} cases");
    assert!(
        failures.is_empty(),
        "{} of {tried} cases went wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Runs emu with standard output (or error) on `/dev/full`: (exit code, the other
/// stream).
fn with_full(args: &[&str], full_stdout: bool) -> (i32, String) {
    let full = || {
        std::fs::File::options()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    let mut cmd = Command::new(EMU);
    cmd.args(args)
        .stdin(Stdio::null())
        .env_remove("RUST_BACKTRACE");
    let o = if full_stdout {
        cmd.stdout(full()).stderr(Stdio::piped()).output()
    } else {
        cmd.stdout(Stdio::piped()).stderr(full()).output()
    }
    .expect("emu runs");
    let other = if full_stdout { o.stderr } else { o.stdout };
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&other).into_owned(),
    )
}

#[test]
fn a_full_standard_output_is_exit_1_with_one_line() {
    for (args, code) in [
        (&["-t", "hypercube6", "-p", "uniform", "-q"][..], 1),
        (&["list"][..], 1),
        (&["--help"][..], 1),
        (&["check", "-t", "torus8"][..], 1),
        // A verdict stays the exit code; the lost report is still said.
        (&["check", "-t", "torus4-single"][..], 3),
        (
            &[
                "sweep",
                "-t",
                "hypercube6",
                "-p",
                "uniform",
                "-q",
                "--load",
                "0.1",
            ][..],
            1,
        ),
        (&["reproduce", "--list"][..], 1),
    ] {
        let (got, stderr) = with_full(args, true);
        assert_eq!(got, code, "emu {}: stderr {stderr:?}", args.join(" "));
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(
            lines.last().copied(),
            Some("error: cannot write to standard output: No space left on device (os error 28)"),
            "emu {}: {stderr:?}",
            args.join(" ")
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn a_full_standard_error_never_panics() {
    for (args, code) in [
        // A bad input keeps its code; the lost message cannot be said anywhere.
        (&["-t", "no-such-topology", "-p", "uniform"][..], 2),
        (&["--no-such-flag"][..], 2),
        (&["check", "-t", "torus4-single"][..], 3),
        // A quiet run that succeeds writes nothing to standard error.
        (&["-t", "hypercube6", "-p", "uniform", "-q"][..], 0),
    ] {
        let (got, _stdout) = with_full(args, false);
        assert_ne!(got, 101, "emu {} panicked", args.join(" "));
        assert_eq!(got, code, "emu {}", args.join(" "));
    }
}

#[test]
fn dash_is_standard_output_for_one_output() {
    let dir = fresh_dir();
    let args: Vec<String> = ["-t", "hypercube6", "-p", "uniform", "-q", "--json", "-"]
        .iter()
        .map(|a| (*a).to_string())
        .collect();
    let (code, stdout, stderr) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("stdout is the JSON alone");
    assert!(doc.get("topology").is_some());
    assert!(
        stderr.contains("throughput"),
        "the text report goes to stderr: {stderr}"
    );
    assert!(!dir.path().join("-").exists(), "no file named -");
}

#[test]
fn an_output_is_replaced_whole_keeping_permissions_and_links() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = fresh_dir();
    let d = dir.path();
    let real = d.join("report.json");
    std::fs::write(&real, "old").expect("write");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    std::os::unix::fs::symlink("report.json", d.join("latest.json")).expect("symlink");
    let args: Vec<String> = [
        "-t",
        "hypercube6",
        "-p",
        "uniform",
        "-q",
        "--json",
        "latest.json",
    ]
    .iter()
    .map(|a| (*a).to_string())
    .collect();
    let (code, _, stderr) = run_in(d, &args);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&real).expect("read");
    assert!(
        text.starts_with('{'),
        "the JSON went through the link: {text:.40}"
    );
    let link = std::fs::symlink_metadata(d.join("latest.json")).expect("link");
    assert!(link.file_type().is_symlink(), "the link is still a link");
    let mode = std::fs::metadata(&real).expect("meta").permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "permissions kept");
    let stray: Vec<PathBuf> = std::fs::read_dir(d)
        .expect("read dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".part"))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}

#[test]
fn the_null_device_takes_an_output() {
    let dir = fresh_dir();
    let args: Vec<String> = [
        "-t",
        "hypercube6",
        "-p",
        "uniform",
        "-q",
        "--json",
        "/dev/null",
    ]
    .iter()
    .map(|a| (*a).to_string())
    .collect();
    let (code, _, stderr) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    let null = std::fs::metadata("/dev/null").expect("/dev/null");
    assert!(!null.is_file(), "/dev/null is still the device");
}
