//! Runs the emu binary on a case with a wall-clock limit, and captures what it printed.

use std::fs::{self, File};
use std::io;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

use crate::case::LaidOut;

/// How emu is run: the binary, the arguments after `-t TOPO -p TRAFFIC`, the time limit.
#[derive(Clone, Debug)]
pub struct Emu {
    /// The binary run (a copy taken at the start, so a rebuild does not change it mid-run).
    pub binary: PathBuf,
    /// The binary named in reproducer commands (the one the user gave).
    pub shown: PathBuf,
    /// The arguments after `-t TOPO -p TRAFFIC`.
    pub args: Vec<String>,
    /// The wall-clock limit; a run still going then is killed.
    pub timeout: Duration,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// emu exited with this code.
    Exited(i32),
    /// emu was killed by this signal (not by us).
    Signal(i32),
    /// emu was still running at the time limit and was killed.
    TimedOut,
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Exited(code) => write!(f, "exit {code}"),
            Self::Signal(signal) => write!(f, "killed by signal {signal}"),
            Self::TimedOut => f.write_str("timed out"),
        }
    }
}

/// What one run did.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// Its wall-clock time.
    pub wall: Duration,
    /// What it printed on stdout (lossily decoded).
    pub stdout: String,
    /// What it printed on stderr (lossily decoded).
    pub stderr: String,
}

impl Emu {
    /// The arguments of a run of the case: `-t TOPO -p TRAFFIC` and the extra arguments.
    pub fn arguments(&self, files: &LaidOut) -> Vec<String> {
        let mut out = vec![
            "-t".to_owned(),
            files.topology.to_string_lossy().into_owned(),
            "-p".to_owned(),
            files.traffic.to_string_lossy().into_owned(),
        ];
        out.extend(self.args.iter().cloned());
        out
    }

    /// Runs emu on the files laid out in `dir`, from `dir`, its output into files there.
    pub fn run(&self, dir: &Path, files: &LaidOut) -> io::Result<Outcome> {
        let stdout_path = dir.join("stdout.txt");
        let stderr_path = dir.join("stderr.txt");
        let start = Instant::now();
        let mut child = Command::new(&self.binary)
            .args(self.arguments(files))
            .current_dir(dir)
            .env_remove("RUST_BACKTRACE")
            .env_remove("RUST_LIB_BACKTRACE")
            .stdin(Stdio::null())
            .stdout(File::create(&stdout_path)?)
            .stderr(File::create(&stderr_path)?)
            .spawn()?;
        let status = match child.wait_timeout(self.timeout)? {
            Some(status) => match (status.code(), status.signal()) {
                (Some(code), _) => Status::Exited(code),
                (None, Some(signal)) => Status::Signal(signal),
                (None, None) => Status::Signal(0),
            },
            None => {
                // Killing fails only if it has just exited; either way it is reaped below.
                let _ = child.kill();
                child.wait()?;
                Status::TimedOut
            }
        };
        let wall = start.elapsed();
        Ok(Outcome {
            status,
            wall,
            stdout: read_lossy(&stdout_path)?,
            stderr: read_lossy(&stderr_path)?,
        })
    }
}

fn read_lossy(path: &Path) -> io::Result<String> {
    Ok(String::from_utf8_lossy(&fs::read(path)?).into_owned())
}
