//! emu-mutate: mutation testing of emu's shipped topology and traffic files. See README.md.

mod case;
mod check;
mod cli;
mod edit;
mod emu;
mod family;
mod keypath;
mod mutate;
mod partner;
mod pool;
mod quick;
mod report;
mod run;
mod setup;
mod subject;
mod values;
mod walk;

use std::fs;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;

use crate::mutate::{Mode, Mutant};
use crate::report::{FileRuns, Summary};
use crate::run::Job;
use crate::setup::Setup;
use crate::subject::Subject;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let setup = match Setup::from_cli(&cli) {
        Ok(setup) => setup,
        Err(usage) => {
            eprintln!("error: {usage}");
            return ExitCode::from(2);
        }
    };
    if cli.list {
        return list(&setup);
    }
    match mutate_and_run(&setup) {
        Ok(summary) if summary.findings() == 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(usage) => {
            eprintln!("error: {usage}");
            ExitCode::from(2)
        }
    }
}

/// The mutants of a file, or none (with a note on stderr) if it cannot be mutated.
fn mutants_of(subject: &Subject, mode: Mode) -> Vec<Mutant> {
    mutate::mutants(&subject.text, mode).unwrap_or_else(|e| {
        eprintln!("{}: not TOML: {e}", subject.path.display());
        Vec::new()
    })
}

/// `--list`: every mutant's file and change, and the count.
fn list(setup: &Setup) -> ExitCode {
    let mut total = 0;
    let mut stdout = std::io::stdout().lock();
    for subject in setup.wanted_subjects() {
        for mutant in mutants_of(subject, setup.mode) {
            total += 1;
            let _ = writeln!(
                stdout,
                "{}/{}: {}",
                subject.role.dir(),
                subject.name,
                mutant.label
            );
        }
    }
    let _ = writeln!(stdout, "{total} mutants");
    ExitCode::SUCCESS
}

/// Pairs the files, makes and runs the mutants, prints and keeps the report.
fn mutate_and_run(setup: &Setup) -> Result<Summary<'_>, String> {
    let start = Instant::now();
    let scratch = tempfile::Builder::new()
        .prefix("emu-mutate-")
        .tempdir()
        .map_err(|e| format!("a scratch folder: {e}"))?;
    let emu = setup.emu(scratch.path())?;
    let keep = setup.prepare_keep()?;
    eprintln!("emu-mutate: running the unmutated pairs to choose partners");
    let topology_pairings = partner::for_topologies(
        &emu,
        scratch.path(),
        setup.jobs,
        &setup.topologies,
        &setup.traffic,
        &setup.topologies_to_pair(),
    );
    let traffic_pairings = partner::for_traffic(
        &emu,
        scratch.path(),
        setup.jobs,
        &setup.topologies,
        &topology_pairings,
        &setup.traffic,
        &setup.traffic_wanted(),
    );
    let mut skipped = Vec::new();
    let mut files = Vec::new();
    let mut baseline = Vec::new();
    let groups = [
        (&setup.topologies, &topology_pairings, &setup.traffic),
        (&setup.traffic, &traffic_pairings, &setup.topologies),
    ];
    for (subjects, pairings, others) in groups {
        for (subject, pairing) in subjects.iter().zip(pairings) {
            match pairing {
                _ if !setup.wanted(subject) => {}
                None => {}
                Some(Err(why)) => {
                    skipped.push(format!("{}/{}: {why}", subject.role.dir(), subject.name))
                }
                Some(Ok(partner)) => {
                    baseline.push(partner.wall);
                    files.push(FileRuns {
                        subject,
                        partner: &others[partner.index],
                        mutants: mutants_of(subject, setup.mode),
                        records: Vec::new(),
                    });
                }
            }
        }
    }
    if setup.mode == Mode::Quick {
        quick::share_out(&mut files, &baseline);
    }
    for why in &skipped {
        eprintln!("emu-mutate: skipped {why}");
    }
    let jobs: Vec<Job> = files
        .iter()
        .flat_map(|file| {
            file.mutants.iter().enumerate().map(|(i, mutant)| Job {
                subject: file.subject,
                mutant,
                number: i + 1,
                partner: file.partner,
            })
        })
        .collect();
    eprintln!(
        "emu-mutate: {} mutants of {} files, {} at a time",
        jobs.len(),
        files.len(),
        setup.jobs
    );
    let found = AtomicUsize::new(0);
    let mut last = Instant::now();
    let mut records = pool::map(
        &jobs,
        setup.jobs,
        |job| {
            let record = job.run(&emu, scratch.path(), &keep);
            if !record.violations.is_empty() || record.error.is_some() {
                found.fetch_add(1, Ordering::Relaxed);
            }
            record
        },
        |done, total| {
            if last.elapsed() >= Duration::from_secs(10) || done == total {
                last = Instant::now();
                eprintln!(
                    "emu-mutate: {done}/{total} mutants run, {} findings, {}",
                    found.load(Ordering::Relaxed),
                    report::clock(start.elapsed())
                );
            }
        },
    )
    .into_iter();
    for file in &mut files {
        file.records = records.by_ref().take(file.mutants.len()).collect();
    }
    let summary = Summary {
        heading: setup.heading(),
        files,
        skipped,
        wall: start.elapsed(),
    };
    let text = summary.render();
    print!("{text}");
    let report = keep.join("report.txt");
    if let Err(e) = fs::write(&report, &text) {
        eprintln!("emu-mutate: could not write {}: {e}", report.display());
    }
    Ok(summary)
}
