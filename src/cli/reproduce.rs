//! The `emu reproduce` subcommand: arguments, output and exit codes (0 every row
//! passes, 1 a row failed or a run broke, 2 unknown experiment or bad flag). Each
//! experiment's wall time goes to stderr.

use super::exit::Exit;
use super::fail;
use emu::reproduce::{EXPERIMENTS, Report, find, table};
use emu::stats::job_progress::JobProgress;
use std::path::PathBuf;

/// Examples shown by `emu reproduce --help`.
pub const EXAMPLES: &str = "\
Examples:
  emu reproduce --list
      the experiments and the sections of the source documents they reproduce
  emu reproduce dslink-bandwidth
      Figures 6.1-6.4 and Table 6.1: link throughput vs message size
  emu reproduce c104-contention --quick --json c104.json
      the scaled-down sweep the tests run, also written as JSON
  emu reproduce c104-networks --quick
      chapter 7 (INMOS ch. 7 §7.6-7.7) on the 64-terminal networks and the 256-terminal cubes
      and MINs, short phases; without --quick all 27 cases and Figure 7.8 on the
      8-cube (long: the 1,024-terminal networks; the wall time goes to stderr)
  emu reproduce sci-hot-sender
      SCI Fig. 9: a saturated node's rate without and with go-bit flow control
  emu reproduce dslink-latency --report dslink.html
      the tables, pass and miss marked, on one self-contained HTML page
  emu reproduce fabric-buffers
      Gramsamer Table 4.1: the buffer each flow-control scheme needs
  emu reproduce all --quick
      every experiment in its scaled-down form (what CI runs); without --quick the
      switch-fabric strategy tables take about an hour on 2 cores

Exit codes: 0 every row within its tolerance, 1 a row failed (listed on stderr),
2 unknown experiment or bad flag.";

/// Arguments of `emu reproduce`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct ReproduceArgs {
    /// Experiment name (see --list), or `all`.
    pub name: Option<String>,
    /// List the experiments.
    #[arg(long)]
    pub list: bool,
    /// Write the results as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write every experiment's tables (pass and miss marked) and curves as one
    /// self-contained HTML page (no network needed to read it). Example:
    /// --report repro.html
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// The scaled-down version (fewer points, shorter runs) that the tests run.
    #[arg(long)]
    pub quick: bool,
    /// No progress bar on stderr (the wall-time line of each experiment stays).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

fn names() -> String {
    EXPERIMENTS
        .iter()
        .map(|e| e.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `emu reproduce`; returns the process exit code.
pub fn main(a: &ReproduceArgs) -> Exit {
    if let Err(code) = super::output::Outputs::new()
        .file("--json", a.json.as_deref())
        .file("--report", a.report.as_deref())
        .check()
    {
        return code;
    }
    if a.list {
        // Columns as wide as their longest entry, so that every line lines up.
        let name = EXPERIMENTS
            .iter()
            .map(|e| e.name.chars().count())
            .max()
            .unwrap_or(0);
        let section = EXPERIMENTS
            .iter()
            .map(|e| e.section.chars().count())
            .max()
            .unwrap_or(0);
        for e in EXPERIMENTS {
            say!("  {:<name$} {:<section$} {}", e.name, e.section, e.about);
        }
        say!("  {:<name$} {:<section$} every experiment above", "all", "");
        return Exit::Ok;
    }
    let Some(name) = &a.name else {
        return fail(
            Exit::BadInput,
            format!("give an experiment name or `all` (one of: {})", names()),
        );
    };
    let chosen: Vec<_> = if name == "all" {
        EXPERIMENTS.iter().collect()
    } else {
        match find(name) {
            Some(e) => vec![e],
            None => {
                return fail(
                    Exit::BadInput,
                    format!(
                        "unknown experiment `{name}`: give one of {}, or all",
                        names()
                    ),
                );
            }
        }
    };
    let mut reports: Vec<Report> = Vec::new();
    let mut broken = false;
    let progress = JobProgress::new("reproduce", chosen.len() as u64, "experiments", a.quiet);
    for e in chosen {
        let started = std::time::Instant::now();
        progress.set_message(e.name);
        let result = (e.run)(a.quick);
        progress.inc();
        progress.note(&format!(
            "{}: wall time {:.1} s",
            e.name,
            started.elapsed().as_secs_f64()
        ));
        match result {
            Ok(r) => {
                say!("{}", r.text());
                reports.push(r);
            }
            Err(msg) => {
                note!("error: {}: run failed: {msg}", e.name);
                broken = true;
            }
        }
    }
    progress.clear();
    if reports.len() > 1 {
        say!("summary");
        for r in &reports {
            for (title, passed, rows, worst) in r.summary() {
                say!(
                    "  {:<20} {:>4}/{:<4} pass  {}\n  {:<20} {:>9}  closest to its tolerance: {}",
                    r.experiment,
                    passed,
                    rows,
                    title,
                    "",
                    "",
                    worst
                );
            }
        }
    }
    if let Some(path) = &a.json {
        let text = match serde_json::to_string_pretty(&table::json(&reports)) {
            Ok(t) => t,
            Err(e) => return fail(Exit::Failure, format!("--json: {e}")),
        };
        if let Err(e) = super::output::write(path, text + "\n") {
            return fail(
                Exit::Failure,
                format!("cannot write {}: {e}", super::output::shown(path)),
            );
        }
    }
    if let Some(path) = &a.report {
        let page = emu::html::reproduce_page(&super::report_html::invocation(), &reports);
        if let Err(code) = super::report_html::write(path, &page) {
            return code;
        }
    }
    let mut failed = false;
    for r in &reports {
        for (title, row) in r.failures() {
            failed = true;
            note!(
                "FAIL {}: {} — {}: emulated {} {} vs {} ({}), tolerance {:?}",
                r.experiment,
                title,
                row.parameter,
                table::num(row.emulated),
                row.unit,
                table::num(row.reference),
                row.source,
                row.tolerance
            );
        }
    }
    if failed || broken {
        Exit::Failure
    } else {
        Exit::Ok
    }
}
