//! What the command line asks for, checked: the checkout, the emu binary, its arguments,
//! the files to mutate, the folder for kept mutants.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use crate::cli::Cli;
use crate::emu::Emu;
use crate::mutate::Mode;
use crate::subject::{self, Role, Subject};

/// The file in the kept folder that marks it as this tool's, so that it may be emptied.
const MARKER: &str = ".emu-mutate";

/// The checked command line and the files it names.
#[derive(Debug)]
pub struct Setup {
    /// The emu binary the user named.
    pub emu: PathBuf,
    /// The arguments of every run after `-t TOPO -p TRAFFIC`.
    pub args: Vec<String>,
    /// Runs at once.
    pub jobs: usize,
    /// The wall-clock limit of a run.
    pub timeout: Duration,
    /// Where findings and the report are kept.
    pub keep: PathBuf,
    /// Full or quick.
    pub mode: Mode,
    /// The shipped topology files.
    pub topologies: Vec<Subject>,
    /// The shipped traffic files.
    pub traffic: Vec<Subject>,
    /// The file names and stems to mutate (empty: all).
    pub only: BTreeSet<String>,
}

impl Setup {
    /// Checks the command line; the error is a usage error (exit 2).
    pub fn from_cli(cli: &Cli) -> Result<Self, String> {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = cli.root.clone().unwrap_or_else(|| here.join("../.."));
        let root = root
            .canonicalize()
            .map_err(|e| format!("--root {}: {e}", root.display()))?;
        let emu = cli
            .emu
            .clone()
            .unwrap_or_else(|| root.join("target/release/emu"));
        let args = shlex::split(&cli.emu_args)
            .ok_or_else(|| format!("--emu-args {:?}: unbalanced quotes", cli.emu_args))?;
        let jobs = match cli.jobs {
            Some(0) => return Err("--jobs: at least 1".to_owned()),
            Some(n) => n,
            None => thread::available_parallelism().map_or(1, |n| n.get()),
        };
        if !(cli.timeout.is_finite() && cli.timeout > 0.0) {
            return Err(format!(
                "--timeout {}: a positive number of seconds",
                cli.timeout
            ));
        }
        let (topologies, mut problems) = subject::load(&root, Role::Topology)?;
        let (traffic, traffic_problems) = subject::load(&root, Role::Traffic)?;
        problems.extend(traffic_problems);
        for problem in problems {
            eprintln!("emu-mutate: skipped {problem}");
        }
        let only: BTreeSet<String> = cli.only.iter().map(|s| s.trim().to_owned()).collect();
        for name in &only {
            if !topologies
                .iter()
                .chain(&traffic)
                .any(|s| s.stem == *name || s.name == *name)
            {
                return Err(format!(
                    "--only {name}: no such file in {0}/topologies or {0}/traffic",
                    root.display()
                ));
            }
        }
        Ok(Self {
            emu,
            args,
            jobs,
            timeout: Duration::from_secs_f64(cli.timeout),
            keep: cli.keep.clone().unwrap_or_else(|| here.join("out")),
            mode: if cli.quick { Mode::Quick } else { Mode::Full },
            topologies,
            traffic,
            only,
        })
    }

    /// Whether the file is mutated (--only).
    pub fn wanted(&self, subject: &Subject) -> bool {
        self.only.is_empty()
            || self.only.contains(&subject.stem)
            || self.only.contains(&subject.name)
    }

    /// The files to mutate, topologies first.
    pub fn wanted_subjects(&self) -> impl Iterator<Item = &Subject> {
        self.topologies
            .iter()
            .chain(&self.traffic)
            .filter(|s| self.wanted(s))
    }

    /// For each traffic file, whether it is mutated.
    pub fn traffic_wanted(&self) -> Vec<bool> {
        self.traffic.iter().map(|s| self.wanted(s)).collect()
    }

    /// For each topology, whether it needs a partner: it is mutated, or it may partner a
    /// mutated traffic file (its family's).
    pub fn topologies_to_pair(&self) -> Vec<bool> {
        let families: BTreeSet<_> = self
            .traffic
            .iter()
            .filter(|s| self.wanted(s))
            .map(|s| s.family)
            .collect();
        self.topologies
            .iter()
            .map(|s| self.wanted(s) || families.contains(&s.family))
            .collect()
    }

    /// The runner: a copy of the emu binary in `scratch`, so that a rebuild of it during the
    /// run changes nothing.
    pub fn emu(&self, scratch: &Path) -> Result<Emu, String> {
        if !self.emu.is_file() {
            return Err(format!(
                "--emu {}: no such file (build emu first, or name it with --emu)",
                self.emu.display()
            ));
        }
        let shown = self
            .emu
            .canonicalize()
            .map_err(|e| format!("--emu {}: {e}", self.emu.display()))?;
        let binary = scratch.join("emu");
        fs::copy(&shown, &binary).map_err(|e| format!("copying {}: {e}", shown.display()))?;
        Ok(Emu {
            binary,
            shown,
            args: self.args.clone(),
            timeout: self.timeout,
        })
    }

    /// Empties (or makes) the kept folder `KEEP/findings` and returns it; a folder of that
    /// name that this tool did not make is left alone and refused.
    pub fn prepare_keep(&self) -> Result<PathBuf, String> {
        let findings = self.keep.join("findings");
        let refuse = |e: std::io::Error| format!("--keep {}: {e}", self.keep.display());
        if findings.exists() {
            if !findings.join(MARKER).is_file() {
                return Err(format!(
                    "--keep {}: {} exists and was not made by emu-mutate; name another folder",
                    self.keep.display(),
                    findings.display()
                ));
            }
            fs::remove_dir_all(&findings).map_err(refuse)?;
        }
        fs::create_dir_all(&findings).map_err(refuse)?;
        fs::write(
            findings.join(MARKER),
            "made by emu-mutate: emptied at each run\n",
        )
        .map_err(refuse)?;
        let keep = self.keep.canonicalize().map_err(refuse)?;
        Ok(keep.join("findings"))
    }

    /// The report's first line: the form, the binary, the arguments.
    pub fn heading(&self) -> String {
        format!(
            "emu-mutate, {} form: {} -t TOPO -p TRAFFIC {} · {} at a time · timeout {} s",
            match self.mode {
                Mode::Full => "full",
                Mode::Quick => "quick",
            },
            self.emu.display(),
            shlex::try_join(self.args.iter().map(String::as_str)).unwrap_or_default(),
            self.jobs,
            self.timeout.as_secs_f64()
        )
    }
}
