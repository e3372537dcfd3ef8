//! `emu sweep`: the command-line front end of a load sweep. Bad input gets one line
//! naming the flag or key and exit code 2.

use super::fail;
use emu::config::topology::NetworkConfig;
use emu::config::{self, traffic::InjectionConfig};
use emu::pool::{default_threads, run_all};
use emu::session::{CaseError, stem};
use emu::sweep::table::{csv, render};
use emu::sweep::{PointError, parse_loads, rows, run_point, saturation};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Examples shown by `emu sweep --help`.
pub const EXAMPLES: &str = "\
Examples:
  emu sweep --topology hypercube6 --traffic uniform
      random traffic on the 6-cube at offered loads 0.05, 0.10, … 1.0
  emu sweep -t grid8 -p systematic --load 0.02:0.4:0.02 --seeds 3 --csv grid8.csv
      the grid's worst case, three seeds per load, every run written to grid8.csv
  emu sweep -t min64-universal -p uniform --load 0.3:0.8:0.1 --set message.bytes=64
      64-byte messages (two packets) through the universally routed 64-way MIN

Every point is one single-threaded run with Bernoulli arrivals at that load
(injection.kind=rate); reproduce one with
  emu -t T -p P --set injection.kind=rate --set injection.load=L --seed S
The saturation point is the first load at which delivered throughput falls below 95 %
of offered, or measured messages are left undelivered, or a run deadlocks.";

/// Arguments of `emu sweep`.
#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// Topology file, or the name of a shipped one (e.g. hypercube6, grid8, min64).
    #[arg(long, short = 't')]
    pub topology: String,
    /// Traffic file, or the name of a shipped one; its injection is replaced by
    /// Bernoulli arrivals at each load.
    #[arg(long, short = 'p')]
    pub traffic: String,
    /// Offered loads FROM:TO:STEP (or one load), fractions of link data capacity.
    #[arg(long, default_value = "0.05:1.0:0.05")]
    pub load: String,
    /// Runs per load, with seeds SEED, SEED+1, …
    #[arg(long, default_value_t = 1)]
    pub seeds: u32,
    /// First seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Runs at once (default: the number of cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Override a field: section.key=value (as for a single run).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Write every run as a CSV line to this file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// No progress on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Runs the sweep; returns the process exit code.
pub fn main(a: &SweepArgs) -> u8 {
    let loads = match parse_loads(&a.load) {
        Ok(l) => l,
        Err(e) => return fail(2, format!("--load {}: {e}", a.load)),
    };
    if a.seeds == 0 || a.seeds > 1000 {
        return fail(2, format!("--seeds {}: give 1..=1000", a.seeds));
    }
    if a.threads == Some(0) {
        return fail(2, "--threads 0: give at least one thread");
    }
    if let Err(e) = config::validate_sets(&a.sets) {
        return fail(2, e);
    }
    let topo = match config::load_topology(&a.topology, &a.sets) {
        Ok(t) => t,
        Err(e) => return fail(2, e),
    };
    let traf = match config::load_traffic(&a.traffic, &a.sets) {
        Ok(t) => t,
        Err(e) => return fail(2, e),
    };
    if matches!(
        traf.config.injection,
        InjectionConfig::Batch { .. } | InjectionConfig::Trace { .. }
    ) {
        return fail(
            2,
            format!(
                "{}: injection.kind: a sweep needs a continuous, rate or bursty traffic file (batch and trace runs have no offered load)",
                traf.file.name
            ),
        );
    }
    let (tname, pname) = (stem(&topo.file.name), stem(&traf.file.name));
    let jobs: Vec<(f64, u64)> = loads
        .iter()
        .flat_map(|&l| (0..u64::from(a.seeds)).map(move |k| (l, a.seed + k)))
        .collect();
    let threads = a.threads.unwrap_or_else(default_threads);
    let show = !a.quiet && std::io::stderr().is_terminal();
    let results = run_all(
        &jobs,
        threads,
        |&(load, seed)| run_point(&tname, &topo.config, &traf.config, load, seed),
        |done, total| {
            if show {
                eprint!("\r{done}/{total} runs");
                let _ = std::io::stderr().flush();
            }
        },
    );
    if show {
        eprintln!();
    }
    let mut points = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Ok(p) => points.push(p),
            Err(PointError::Build(e)) => return fail(2, CaseError::build(e, &topo, Some(&traf))),
            Err(PointError::Engine(e)) => return fail(e.exit_code() as u8, e),
        }
    }
    let rows = rows(&points);
    let sat = saturation(&rows);
    let title = format!(
        "sweep       {tname} · traffic {pname} · {} loads × {} seeds (from seed {}) · {} threads",
        loads.len(),
        a.seeds,
        a.seed,
        threads.min(jobs.len())
    );
    let unit = match topo.config.network {
        NetworkConfig::SciRing(_) => "cycles (2 ns)",
        NetworkConfig::Fabric(_) => "packet cycles",
        _ => "header times",
    };
    print!("{}", render(&title, &rows, &sat, unit));
    let _ = std::io::stdout().flush();
    if let Some(path) = &a.csv
        && let Err(e) = std::fs::write(path, csv(&tname, &pname, &points))
    {
        return fail(1, format!("cannot write {}: {e}", path.display()));
    }
    0
}
