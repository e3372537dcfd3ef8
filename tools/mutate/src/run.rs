//! Runs one mutant with its partner, checks the run, and keeps the case when it broke a
//! rule.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::case::{self, Case, LaidOut};
use crate::check::{self, Violation};
use crate::emu::{Emu, Status};
use crate::mutate::Mutant;
use crate::subject::{Role, Subject};

/// One mutant to run: the mutated file, its partner, and where to keep it on a finding.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// The file mutated.
    pub subject: &'a Subject,
    /// The mutant.
    pub mutant: &'a Mutant,
    /// Its number among the file's mutants (from 1).
    pub number: usize,
    /// The shipped file it runs with.
    pub partner: &'a Subject,
}

/// What one mutant's run did.
#[derive(Clone, Debug)]
pub struct Record {
    /// How it ended (`None` if it could not be run at all).
    pub status: Option<Status>,
    /// Its wall time.
    pub wall: Duration,
    /// The rules it broke.
    pub violations: Vec<Violation>,
    /// The reproducer command (with the kept copy's paths) when it broke one.
    pub command: Option<String>,
    /// The first three lines of stderr when it broke one.
    pub stderr_head: Vec<String>,
    /// Why it could not be run or kept (a failure of this tool, not of emu).
    pub error: Option<String>,
}

impl Job<'_> {
    /// The two files of the run: the mutant in its file's place.
    fn case(&self) -> Case<'_> {
        let mutated = (self.subject, self.mutant.text.as_str());
        let shipped = (self.partner, self.partner.text.as_str());
        match self.subject.role {
            Role::Topology => Case {
                topology: mutated,
                traffic: shipped,
            },
            Role::Traffic => Case {
                topology: shipped,
                traffic: mutated,
            },
        }
    }

    /// Where the case is kept on a finding: `KEEP/findings/STEM/NNNN`.
    pub fn kept_dir(&self, keep: &Path) -> PathBuf {
        let role = match self.subject.role {
            Role::Topology => "topology",
            Role::Traffic => "traffic",
        };
        keep.join(format!("{}-{role}", self.subject.stem))
            .join(format!("{:04}", self.number))
    }

    /// Runs the mutant in `scratch/run-N` (removed afterwards), checks the run, and on a
    /// finding copies the case under `keep`.
    pub fn run(&self, emu: &Emu, scratch: &Path, keep: &Path) -> Record {
        let dir = scratch.join(format!(
            "{}-{}-{:04}",
            self.subject.role.dir(),
            self.subject.stem,
            self.number
        ));
        let record = self.run_in(emu, &dir, keep).unwrap_or_else(|error| Record {
            status: None,
            wall: Duration::ZERO,
            violations: Vec::new(),
            command: None,
            stderr_head: Vec::new(),
            error: Some(format!("{}: {error}", dir.display())),
        });
        // Scratch; anything left goes with the scratch folder at the end.
        let _ = fs::remove_dir_all(&dir);
        record
    }

    fn run_in(&self, emu: &Emu, dir: &Path, keep: &Path) -> std::io::Result<Record> {
        let files = self.case().lay_out(dir)?;
        let mut outcome = emu.run(dir, &files)?;
        let kept = self.kept_dir(keep);
        // What emu printed names the scratch folder; name the kept copy instead.
        let scratch_name = dir.to_string_lossy().into_owned();
        let kept_name = kept.to_string_lossy().into_owned();
        outcome.stderr = outcome.stderr.replace(&scratch_name, &kept_name);
        outcome.stdout = outcome.stdout.replace(&scratch_name, &kept_name);
        let violations = check::violations(&outcome);
        let mut record = Record {
            status: Some(outcome.status),
            wall: outcome.wall,
            violations,
            command: None,
            stderr_head: Vec::new(),
            error: None,
        };
        if !record.violations.is_empty() {
            if kept.exists() {
                fs::remove_dir_all(&kept)?;
            }
            case::copy_dir(dir, &kept)?;
            fs::write(
                kept.join("mutation.txt"),
                format!("{}\n", self.mutant.label),
            )?;
            // The copies of what emu printed name the kept folder, as the report does.
            fs::write(kept.join("stdout.txt"), &outcome.stdout)?;
            fs::write(kept.join("stderr.txt"), &outcome.stderr)?;
            let kept_files = LaidOut {
                topology: kept.join(files.topology.strip_prefix(dir).unwrap_or(&files.topology)),
                traffic: kept.join(files.traffic.strip_prefix(dir).unwrap_or(&files.traffic)),
            };
            let mut words = vec![emu.shown.to_string_lossy().into_owned()];
            words.extend(emu.arguments(&kept_files));
            record.command = Some(
                shlex::try_join(words.iter().map(String::as_str))
                    .unwrap_or_else(|_| words.join(" ")),
            );
            record.stderr_head = outcome.stderr.lines().take(3).map(str::to_owned).collect();
        }
        Ok(record)
    }
}
