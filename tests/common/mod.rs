//! What the integration tests that run the `emu` binary share: running it with its
//! output captured and a time limit; the Rust files under a directory, for the tests
//! that read the sources; and a made-up step of a wait-for cycle, for the deadlock
//! pictures.

use emu::deadlock::waitfor::{CycleStep, Place};
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a finished run of a command printed and how it ended.
pub struct Captured {
    /// Exit code, or -1 if killed by a signal.
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `cmd` in `dir` with stdin null and its output captured in files in `capture`
/// (no pipe can fill); kills it past `limit` and returns `None` then.
pub fn run_captured(
    cmd: &mut Command,
    dir: &Path,
    capture: &Path,
    limit: Duration,
) -> Option<Captured> {
    let out_path = capture.join("stdout");
    let err_path = capture.join("stderr");
    let start = Instant::now();
    let mut child = cmd
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(File::create(&out_path).expect("stdout file"))
        .stderr(File::create(&err_path).expect("stderr file"))
        .spawn()
        .expect("spawn emu");
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for emu") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let read = |p: &Path| {
        String::from_utf8_lossy(&std::fs::read(p).expect("read captured output")).into_owned()
    };
    Some(Captured {
        code: status.code().unwrap_or(-1),
        stdout: read(&out_path),
        stderr: read(&err_path),
        elapsed: start.elapsed(),
    })
}

/// Runs the `emu` binary with `args` in the current directory: (exit code, or -1 if
/// killed by a signal; stdout; stderr).
pub fn emu(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_emu"))
        .args(args)
        .output()
        .expect("emu runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// GNU parallel, or `None` (and a note) where it is not installed. `.ci/run` installs it
/// and sets EMU_REQUIRE_PARALLEL=1, so that CI runs the parallel paths for real.
pub fn gnu_parallel() -> Option<&'static str> {
    let found = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found && std::env::var_os("EMU_REQUIRE_PARALLEL").is_some() {
        panic!("EMU_REQUIRE_PARALLEL is set and GNU parallel is not installed");
    }
    if !found {
        eprintln!("GNU parallel is not installed: the parallel path is not tested here");
    }
    found.then_some("parallel")
}

/// Appends every `.rs` file under `dir`, at any depth, to `out`.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A step of a wait-for cycle from `place` to `next`, at node `c104[0]` with made-up
/// packet and wait texts.
pub fn cycle_step(place: Place, next: Place) -> CycleStep {
    CycleStep {
        place,
        node_name: "c104[0]".into(),
        packet: None,
        packet_text: Some("packet 0→2 (message 1, packet 0)".into()),
        waits_for: "waits".into(),
        next,
    }
}
