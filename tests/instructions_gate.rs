//! The instruction-count gate (`tools/instructions.sh`, run by `.ci/run`) read on fake
//! callgrind outputs and reports (`--from`): a case within its ceiling passes, one over
//! it or whose work changed fails with a line naming the case and the figures, a file or
//! output it cannot read stops it with exit 2, and `--update` rewrites the measured
//! figures and ceilings and keeps every other line. The shipped ceiling file is read as
//! well, so that a malformed `benches/instructions.toml` fails here rather than in CI.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A ceiling file of two cases, `small` (1,000 token-hops, ceiling 1,100 per hop) and
/// `ring` (500 symbol-hops, ceiling 2,200 per hop).
const CEILINGS: &str = r#"# Ceilings (a comment kept by --update)
margin = 1.10

# the first case
[small]
args = "-t hypercube4 -p uniform --threads 1 -q"
unit = "token-hops"
commit = "abc1234"
date = "2026-01-01"
machine = "a machine"
work = 1000
instructions = 1000000
per_unit = 1000.00
ceiling = 1100.00

[ring]
args = "-t sci-ring4 -p sci-uniform --threads 1 -q"
unit = "symbol-hops"
commit = "abc1234"
date = "2026-01-01"
machine = "a machine"
work = 500
instructions = 1000000
per_unit = 2000.00
ceiling = 2200.00
"#;

/// A directory with the ceiling file `ceilings` and, per case, a callgrind output
/// counting `instructions` and a report of `work` token-hops.
fn fixture(ceilings: &str, cases: &[(&str, u64, u64)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("instructions.toml");
    std::fs::write(&file, ceilings).expect("write the ceilings");
    let out = dir.path().join("out");
    std::fs::create_dir(&out).expect("out directory");
    for (case, instructions, work) in cases {
        std::fs::write(
            out.join(format!("{case}.callgrind")),
            format!(
                "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\ncmd: emu\n\
                 events: Ir\nfn=(1) main\n0 {instructions}\nsummary: {instructions}\n\
                 totals: {instructions}\n"
            ),
        )
        .expect("write a callgrind output");
        std::fs::write(
            out.join(format!("{case}.json")),
            format!(
                "{{\n  \"schema\": 5,\n  \"run\": {{\n    \"token_hops\": 7\n  }},\n  \
                 \"token_hops\": {work},\n  \"latency\": {{}}\n}}\n"
            ),
        )
        .expect("write a report");
    }
    (dir, file)
}

/// Runs the gate on the fixture: (exit code, stdout, stderr).
fn gate(file: &Path, from: &Path, extra: &[&str]) -> (i32, String, String) {
    let o = Command::new("bash")
        .arg(root().join("tools/instructions.sh"))
        .arg("--file")
        .arg(file)
        .arg("--from")
        .arg(from)
        .args(extra)
        .output()
        .expect("run bash tools/instructions.sh");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn out(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("out")
}

#[test]
fn cases_within_their_ceilings_pass() {
    // 1,099 and 2,199.99 per hop: just under the ceilings.
    let (dir, file) = fixture(
        CEILINGS,
        &[("small", 1_099_000, 1000), ("ring", 1_099_995, 500)],
    );
    let (code, stdout, stderr) = gate(&file, &out(&dir), &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with("ok   small: 1,099.00 instructions per token-hop, ceiling 1,100.00"),
        "{stdout}"
    );
    assert!(
        lines[0].contains("+9.9 % on the 1,000.00 measured at abc1234 on 2026-01-01"),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("ok   ring: 2,199.99 instructions per symbol-hop, ceiling 2,200.00"),
        "{stdout}"
    );
}

#[test]
fn a_case_over_its_ceiling_fails_naming_the_case_the_figure_and_the_ceiling() {
    let (dir, file) = fixture(
        CEILINGS,
        &[("small", 1_100_010, 1000), ("ring", 1_000_000, 500)],
    );
    let (code, stdout, stderr) = gate(&file, &out(&dir), &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let fail: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(fail.len(), 1, "{stdout}");
    assert!(
        fail[0].starts_with(
            "FAIL small: 1,100.01 instructions per token-hop, over its ceiling of 1,100.00 \
             (1,100,010 instructions for 1,000 token-hops; +10.0 % on the 1,000.00 measured \
             at abc1234 on 2026-01-01)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|l| l.starts_with("ok   ring:")),
        "{stdout}"
    );
    // Only the named case is read.
    let (code, stdout, _) = gate(&file, &out(&dir), &["ring"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(!stdout.contains("small"), "{stdout}");
}

#[test]
fn a_case_whose_work_changed_fails_even_when_cheaper() {
    // The nested "token_hops": 7 of the fake report is not the top-level figure.
    let (dir, file) = fixture(
        CEILINGS,
        &[("small", 500_000, 1001), ("ring", 1_000_000, 500)],
    );
    let (code, stdout, stderr) = gate(&file, &out(&dir), &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.lines().any(|l| l.starts_with(
            "FAIL small: 1,001 token-hops, not the 1,000 measured at abc1234 on 2026-01-01: \
             the case simulates something else now, so its reports changed"
        )),
        "{stdout}"
    );
}

#[test]
fn what_the_gate_cannot_read_stops_it_with_exit_2() {
    let (dir, file) = fixture(CEILINGS, &[("small", 1_000_000, 1000)]);
    // No output for ring.
    let (code, _, stderr) = gate(&file, &out(&dir), &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("ring: no callgrind output"), "{stderr}");
    // A callgrind output without its summary.
    std::fs::write(out(&dir).join("small.callgrind"), "events: Ir\n").expect("write");
    let (code, _, stderr) = gate(&file, &out(&dir), &["small"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("small: no summary: or totals: line"),
        "{stderr}"
    );
    // A case that is not in the file.
    let (code, _, stderr) = gate(&file, &out(&dir), &["nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no case nope in"), "{stderr}");
    // A ceiling file with a line it cannot read, and one without a case's ceiling.
    for (bad, says) in [
        (
            CEILINGS.replace("margin = 1.10", "margin: 1.10"),
            "not a key = number",
        ),
        (
            CEILINGS.replace("ceiling = 2200.00\n", ""),
            "case ring has no ceiling",
        ),
        (CEILINGS.replace("[ring]", "[small]"), "case small twice"),
    ] {
        std::fs::write(&file, bad).expect("write");
        let (code, _, stderr) = gate(&file, &out(&dir), &["small"]);
        assert_eq!(code, 2, "{says}: {stderr}");
        assert!(stderr.contains(says), "{says}: {stderr}");
    }
}

#[test]
fn update_rewrites_the_figures_and_ceilings_and_keeps_the_rest() {
    let (dir, file) = fixture(
        CEILINGS,
        &[("small", 1_234_567, 1000), ("ring", 1_000_000, 400)],
    );
    let (code, stdout, stderr) = gate(&file, &out(&dir), &["--update"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("small: 1,234.57 instructions per token-hop, new ceiling 1,358.03"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&file).expect("read back");
    for kept in [
        "# Ceilings (a comment kept by --update)",
        "margin = 1.10",
        "# the first case",
        "args = \"-t hypercube4 -p uniform --threads 1 -q\"",
    ] {
        assert!(text.contains(kept), "{kept} lost:\n{text}");
    }
    for written in [
        "work = 1000\ninstructions = 1234567\nper_unit = 1234.57\nceiling = 1358.03\n",
        "work = 400\ninstructions = 1000000\nper_unit = 2500.00\nceiling = 2750.00\n",
    ] {
        assert!(text.contains(written), "{written} missing:\n{text}");
    }
    assert!(
        !text.contains("abc1234") && !text.contains("a machine"),
        "{text}"
    );
    assert_eq!(text.matches("commit = ").count(), 2, "{text}");
    assert_eq!(text.matches("ceiling = ").count(), 2, "{text}");
    // The rewritten file passes on the outputs it was measured from.
    let (code, stdout, _) = gate(&file, &out(&dir), &[]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(stdout.matches("+0.0 % on the").count(), 2, "{stdout}");
}

#[test]
fn the_shipped_ceilings_are_read_and_name_the_cases_the_gate_runs() {
    let text = std::fs::read_to_string(root().join("benches/instructions.toml")).expect("read");
    let cases: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix('[')?.strip_suffix(']'))
        .collect();
    assert_eq!(
        cases,
        ["hypercube8-shuffle", "sci-ring16", "fabric16-cicq-lof"]
    );
    // Fake outputs at the shipped work counts and figures pass the shipped file.
    let mut fakes = Vec::new();
    for case in &cases {
        let section = text.split(&format!("[{case}]")).nth(1).expect("section");
        let number = |key: &str| -> u64 {
            section
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{key} = ")))
                .unwrap_or_else(|| panic!("{case}: no {key}"))
                .parse()
                .unwrap_or_else(|e| panic!("{case}: {key}: {e}"))
        };
        fakes.push((*case, number("instructions"), number("work")));
    }
    let (dir, _) = fixture("", &fakes);
    let (code, stdout, stderr) = gate(&root().join("benches/instructions.toml"), &out(&dir), &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("ok   ")).count(),
        3,
        "{stdout}"
    );
}
