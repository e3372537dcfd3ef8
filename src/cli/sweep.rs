//! `emu sweep`: the command-line front end of a load sweep, whole or as one shard of
//! many (`--shard`, `--plan`; `emu merge` puts shards together). Bad input gets one line
//! naming the flag or key and exit code 2.

use super::args::{CaseArgs, JsonArg};
use super::exit::Exit;
use super::fail;
use emu::config;
use emu::html::sweep_page;
use emu::plot::sweep::sweep_svg;
use emu::pool::default_threads;
use emu::stats::job_progress::JobProgress;
use emu::sweep::table::{csv, render, summary_csv};
use emu::sweep::{
    Header, Point, PointError, Shard, SpecError, SweepSpec, parse_loads, rows, saturation,
};
use std::path::{Path, PathBuf};

/// Examples shown by `emu sweep --help`.
pub const EXAMPLES: &str = "\
Examples:
  emu sweep --topology hypercube6 --traffic uniform
      random traffic on the 6-cube at offered loads 0.05, 0.10, … 1.0
  emu sweep -t hypercube8 -p uniform --load 0.1:0.9:0.1 --replications 5 --plot curve.svg
      five seeds per load, 90 % confidence intervals, the load-latency picture as SVG
  emu sweep -t grid8 -p systematic --load 0.02:0.4:0.02 --seeds 3 --csv grid8.csv
      the grid's worst case, three seeds per load, every run written to grid8.csv
  emu sweep -t min64-universal -p uniform --load 0.3:0.8:0.1 --set message.bytes=64
      64-byte messages (two packets) through the universally routed 64-way MIN
  emu sweep -t hypercube6 -p uniform --load 0.1:0.9:0.2 --report sweep.html
      the table and the curves on one self-contained HTML page

On several machines or processes (the merged result is byte for byte the same):
  parallel emu sweep -t hypercube8 -p uniform --shard {}/4 --out part{}.jsonl ::: 1 2 3 4
  emu merge part*.jsonl --csv runs.csv --plot curve.svg
  emu sweep -t hypercube8 -p uniform --plan jobs.txt    # one command line per run
  parallel < jobs.txt > runs.jsonl && emu merge runs.jsonl

Every point is one single-threaded run with Bernoulli arrivals at that load
(injection.kind=rate); reproduce one with
  emu -t T -p P --set injection.kind=rate --set injection.load=L --seed S
The saturation point is the first load at which delivered throughput falls below 95 %
of offered, or measured messages are left undelivered, or a run deadlocks.";

/// Arguments of `emu sweep`.
#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// The case: topology, traffic (its injection is replaced by Bernoulli arrivals at
    /// each load), the first seed, runs at once (`--threads`, default: the number of
    /// cores), `--set`, `--memory-limit` (each run's).
    #[command(flatten)]
    pub case: CaseArgs,
    /// Offered loads FROM:TO:STEP (or one load), fractions of link data capacity.
    #[arg(long, default_value = "0.05:1.0:0.05")]
    pub load: String,
    /// Runs per load (replications), with seeds SEED, SEED+1, …; two or more give
    /// 90 %/95 % Student-t intervals of the means.
    #[arg(long, visible_alias = "replications", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub seeds: u32,
    /// The files a finished sweep writes.
    #[command(flatten)]
    pub outputs: OutputArgs,
    /// Run only the K-th of N slices of the runs and write them as JSON lines (to --out,
    /// or stdout) for `emu merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// With --shard: the file for the slice's runs (default: stdout).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub out: Option<PathBuf>,
    /// Run nothing; write one self-contained command line per run to FILE (a job list
    /// for GNU parallel, Slurm, …) whose outputs `emu merge` combines.
    #[arg(long, value_name = "FILE", conflicts_with = "shard")]
    pub plan: Option<PathBuf>,
    /// No progress on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Where a finished sweep's results go besides the table on stdout (`emu sweep` and
/// `emu merge` take the same flags).
#[derive(clap::Args, Debug, Default)]
pub struct OutputArgs {
    /// Write every run as a CSV line to this file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write the table as CSV (one line per load: means with 90 % and 95 % half-widths).
    #[arg(long, value_name = "FILE")]
    pub table_csv: Option<PathBuf>,
    /// Draw throughput and mean/p99 delay against offered load, with 90 % error bars
    /// and the saturation point, as an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Write the table and the curves as one self-contained HTML page (no network
    /// needed to read it). Example: --report sweep.html
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// `--json FILE`: the sweep's description, every run, the table's rows and the
    /// saturation point.
    #[command(flatten)]
    pub output: JsonArg,
}

/// Runs the sweep; returns the process exit code.
pub fn main(a: &SweepArgs) -> Exit {
    let spec = match spec(a) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let shard = match a.shard.as_deref().map(str::parse::<Shard>) {
        None => Shard::WHOLE,
        Some(Ok(s)) => s,
        Some(Err(e)) => {
            return fail(
                Exit::BadInput,
                format!("--shard {}: {e}", a.shard.as_deref().unwrap_or("")),
            );
        }
    };
    let f = &a.outputs;
    if a.shard.is_some()
        && (f.csv.is_some()
            || f.table_csv.is_some()
            || f.plot.is_some()
            || f.report.is_some()
            || f.output.json.is_some())
    {
        return fail(
            Exit::BadInput,
            "--shard writes the slice's runs only: give --csv, --table-csv, --plot, --report and --json to `emu merge`",
        );
    }
    if let Some(plan) = &a.plan {
        return write_plan(a, &spec, plan);
    }
    let jobs = shard.select(&spec.jobs());
    let threads = a.case.runs.threads.unwrap_or_else(default_threads);
    let guard = match a.case.network.guard(None) {
        Ok(g) => g,
        Err(code) => return code,
    };
    guard.arm_runs("sweep", jobs.len(), threads);
    let progress = JobProgress::new("sweep", jobs.len() as u64, "runs", a.quiet);
    let points = match spec.run_jobs(&jobs, threads, &guard, None, |_, _| progress.inc()) {
        Ok(Some(points)) => points,
        Ok(None) => {
            progress.clear();
            return fail(Exit::Failure, "the sweep was stopped");
        }
        Err(e) => {
            progress.clear();
            return match e {
                PointError::Build(e) => fail(Exit::BadInput, e),
                PointError::Engine(e) => fail(super::exit::of_engine(&e), e),
            };
        }
    };
    progress.finish();
    let header = spec.header();
    if a.shard.is_some() {
        let text = emu::sweep::shard::write(&header, shard, &points);
        return match &a.out {
            None => {
                super::emit(&text);
                Exit::Ok
            }
            Some(path) => match super::output::write_or_fail(path, text) {
                Ok(()) => Exit::Ok,
                Err(code) => code,
            },
        };
    }
    let points: Vec<Point> = points.into_iter().map(|(_, p)| p).collect();
    finish(&header, &points, &a.outputs)
}

/// Checks the arguments and loads the files into the sweep's description, or prints
/// the error and gives the exit code.
fn spec(a: &SweepArgs) -> Result<SweepSpec, Exit> {
    outputs(&a.outputs)
        .file("--out", a.out.as_deref())
        .file("--plan", a.plan.as_deref())
        .reading(&a.case.network, a.case.traffic.as_deref())
        .check()?;
    let loads = parse_loads(&a.load)
        .map_err(|e| fail(Exit::BadInput, format!("--load {}: {e}", a.load)))?;
    super::check_threads(a.case.runs.threads)?;
    let (topology, traffic) = a.case.files()?;
    let memory_limit = a.case.network.memory_limit()?;
    let sets = &a.case.network.sets;
    config::validate_sets(sets).map_err(|e| fail(Exit::BadInput, e))?;
    let topo = config::load_topology(topology, sets).map_err(|e| fail(Exit::BadInput, e))?;
    let traf = config::load_traffic(traffic, sets).map_err(|e| fail(Exit::BadInput, e))?;
    SweepSpec::new(topo, traf, loads, a.seeds, a.case.runs.seed, memory_limit).map_err(|e| {
        let message = match e {
            SpecError::Seeds(e) => format!("--seed {}: {e}", a.case.runs.seed),
            e => e.to_string(),
        };
        fail(Exit::BadInput, message)
    })
}

/// The output files of a finished sweep, to check before any run
/// ([`super::output::Outputs::check`]) with the command's own.
pub fn outputs(o: &OutputArgs) -> super::output::Outputs<'_> {
    super::output::Outputs::new()
        .file("--csv", o.csv.as_deref())
        .file("--table-csv", o.table_csv.as_deref())
        .file("--plot", o.plot.as_deref())
        .file("--report", o.report.as_deref())
        .file("--json", o.output.json.as_deref())
}

/// Prints the table of a whole sweep (run here or merged) and writes the files asked
/// for; returns the exit code.
pub fn finish(header: &Header, points: &[Point], out: &OutputArgs) -> Exit {
    let rows = rows(points);
    let sat = saturation(&rows);
    let unit = header.delay_unit.as_str();
    super::emit(&render(&header.title(), &rows, &sat, unit));
    let (t, p) = (header.topology.as_str(), header.traffic.as_str());
    let mut files: Vec<(&Path, String)> = Vec::new();
    if let Some(path) = &out.csv {
        files.push((path, csv(t, p, unit, points)));
    }
    if let Some(path) = &out.table_csv {
        files.push((path, summary_csv(t, p, unit, &rows)));
    }
    if out.plot.is_some() || out.report.is_some() {
        let svg = match sweep_svg(&header.title(), &rows, &sat, unit) {
            Ok(svg) => svg,
            Err(e) => return fail(Exit::Failure, e),
        };
        if let Some(path) = &out.report {
            let plots = [("curve.svg".to_string(), svg.clone())];
            let command = super::report_html::invocation();
            files.push((path, sweep_page(&command, header, &rows, &sat, &plots)));
        }
        if let Some(path) = &out.plot {
            files.push((path, svg));
        }
    }
    for (path, text) in files {
        if let Err(code) = super::output::write_or_fail(path, text) {
            return code;
        }
    }
    if let Some(path) = &out.output.json {
        let doc = emu::sweep::table::document(header, points, &rows, &sat);
        if let Err(code) = super::write_json_file(path, &doc) {
            return code;
        }
    }
    Exit::Ok
}

/// Writes the job list: one `emu sweep … --shard I/RUNS` line per run, with the files
/// named by absolute path so that the line runs from any directory.
fn write_plan(a: &SweepArgs, spec: &SweepSpec, plan: &Path) -> Exit {
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "emu".into());
    let absolute = |s: &str| {
        let p = Path::new(s);
        if p.exists() {
            std::path::absolute(p).map_or(s.to_string(), |p| p.display().to_string())
        } else {
            s.to_string()
        }
    };
    let mut common: Vec<String> = vec![
        exe,
        "sweep".into(),
        "--topology".into(),
        absolute(a.case.network.topology.as_deref().unwrap_or_default()),
        "--traffic".into(),
        absolute(a.case.traffic.as_deref().unwrap_or_default()),
        "--load".into(),
        a.load.clone(),
        "--seeds".into(),
        a.seeds.to_string(),
        "--seed".into(),
        a.case.runs.seed.to_string(),
        "--quiet".into(),
    ];
    if let Some(gb) = a.case.network.memory_limit {
        common.push("--memory-limit".into());
        common.push(gb.to_string());
    }
    for s in &a.case.network.sets {
        common.push("--set".into());
        common.push(s.clone());
    }
    super::merge::write_shard_plan(plan, &common, spec.jobs().len(), "runs", "runs.jsonl")
}
