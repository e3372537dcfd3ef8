//! The `emu reproduce` subcommand: arguments, output and exit codes (0 every row
//! passes, 1 a row failed or a run broke, 2 unknown experiment or bad flag). Each
//! experiment's wall time goes to stderr. With `--shard K/N` it runs only the
//! experiments the plan ([`emu::shard::reproduce`]) gives shard K and writes them for
//! `emu merge`, which prints and writes what one process does ([`finish`]). Without it,
//! several experiments run as `--jobs` shards at once on threads of this process (one
//! per core by default), merged here as `emu merge` merges them.

use super::exit::Exit;
use super::fail;
use emu::reproduce::fabric::grid;
use emu::reproduce::fabric::memo::{self, Memo};
use emu::reproduce::{EXPERIMENTS, Experiment, Report, ReproduceError, find, table};
use emu::session::shell_quote;
use emu::shard::reproduce as shard;
use emu::stats::job_progress::JobProgress;
use emu::sweep::Shard;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
      every experiment in its scaled-down form (what CI runs); without --quick 43 to
      48 minutes on 2 cores as measured, most of it the switch-fabric strategy tables
  emu reproduce sci-bus sci-uniform sci-starvation --quick
      several experiments, in the order given
  emu reproduce all --jobs 1
      one experiment after another, each report printed as it finishes (by default
      one shard per core runs at once, merged here: the same bytes, printed at the end)

On several machines or processes (the merged result is byte for byte the same):
  parallel emu reproduce all --shard {}/4 --out part{}.jsonl ::: 1 2 3 4
  emu merge part*.jsonl --json results.json --report repro.html
  emu reproduce all --plan jobs.txt    # one command line per experiment
  parallel < jobs.txt > parts.jsonl && emu merge parts.jsonl
Every shard runs its share (every N-th point) of the switch-fabric strategy grids,
the longest experiments; the plan gives each other experiment whole to one shard,
balancing their wall times in the stored full run (docs/validation/provenance.toml).

Exit codes: 0 every row within its tolerance, 1 a row failed (listed on stderr),
2 unknown experiment or bad flag. A shard exits 0 once its file is written: the merge
gives the reproduction's exit code.";

/// Arguments of `emu reproduce`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct ReproduceArgs {
    /// Experiment names (see --list), or `all`.
    #[arg(value_name = "NAMES")]
    pub names: Vec<String>,
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
    /// Run only the experiments the plan gives the K-th of N shards and write their
    /// reports as JSON lines (to --out, or stdout) for `emu merge`. Example:
    /// --shard 2/4 --out part2.jsonl
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// With --shard: the file for the shard's reports (default: stdout).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub out: Option<PathBuf>,
    /// Run nothing; write one self-contained command line per experiment to FILE (a
    /// job list for GNU parallel, Slurm, …) whose outputs `emu merge` combines.
    #[arg(long, value_name = "FILE", conflicts_with = "shard")]
    pub plan: Option<PathBuf>,
    /// No progress bar on stderr (the wall-time line of each experiment stays).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Run the experiments as N shards at once on threads of this process and merge
    /// them as `emu merge` does (default: one per core, at most one per experiment).
    /// Every N gives the same bytes; with 1 each report is printed as its experiment
    /// finishes, otherwise all of them at the end. Example: --jobs 1
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..),
          conflicts_with_all = ["shard", "plan"])]
    pub jobs: Option<u32>,
}

fn names() -> String {
    EXPERIMENTS
        .iter()
        .map(|e| e.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The experiments `names` choose, in order (`all`: every one), each once; or the
/// printed error and exit 2.
fn choose(names: &[String]) -> Result<Vec<&'static Experiment>, Exit> {
    if names.is_empty() {
        return Err(fail(
            Exit::BadInput,
            format!(
                "give an experiment name or `all` (one of: {})",
                self::names()
            ),
        ));
    }
    let mut chosen: Vec<&'static Experiment> = Vec::new();
    for name in names {
        let more: Vec<&'static Experiment> = if name == "all" {
            EXPERIMENTS.iter().collect()
        } else {
            match find(name) {
                Some(e) => vec![e],
                None => {
                    return Err(fail(
                        Exit::BadInput,
                        format!(
                            "unknown experiment `{name}`: give one of {}, or all",
                            self::names()
                        ),
                    ));
                }
            }
        };
        for e in more {
            if !chosen.iter().any(|c| c.name == e.name) {
                chosen.push(e);
            }
        }
    }
    Ok(chosen)
}

/// Runs `emu reproduce`; returns the process exit code.
pub fn main(a: &ReproduceArgs) -> Exit {
    if let Err(code) = super::output::Outputs::new()
        .file("--json", a.json.as_deref())
        .file("--report", a.report.as_deref())
        .file("--out", a.out.as_deref())
        .file("--plan", a.plan.as_deref())
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
    let chosen = match choose(&a.names) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let shard = match a.shard.as_deref().map(str::parse::<Shard>) {
        None => None,
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            return fail(
                Exit::BadInput,
                format!("--shard {}: {e}", a.shard.as_deref().unwrap_or("")),
            );
        }
    };
    if shard.is_some() && (a.json.is_some() || a.report.is_some()) {
        return fail(
            Exit::BadInput,
            "--shard writes the shard's reports only: give --json and --report to `emu merge`",
        );
    }
    let names: Vec<&str> = chosen.iter().map(|e| e.name).collect();
    if let Some(plan) = &a.plan {
        return write_plan(a, &names, plan);
    }
    // One memo for every experiment of this call, on every shard thread: a fabric run
    // several tables share is made once.
    let memo = Arc::new(Memo::default());
    if let Some(s) = shard {
        let progress = JobProgress::new(
            "reproduce",
            mine_count(&names, a.quick, s) as u64,
            "experiments",
            a.quiet,
        );
        let text = match shard_text(a.quick, &names, &chosen, s, &progress, "", &memo) {
            Ok(t) => t,
            Err(e) => return fail(Exit::Failure, e),
        };
        progress.clear();
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
    let jobs = a
        .jobs
        .unwrap_or_else(|| u32::try_from(emu::pool::default_threads()).unwrap_or(1))
        .min(u32::try_from(chosen.len()).unwrap_or(u32::MAX));
    if jobs > 1 {
        return run_at_once(a, &names, &chosen, jobs, &memo);
    }
    let progress = JobProgress::new("reproduce", chosen.len() as u64, "experiments", a.quiet);
    let outcomes = run(
        &chosen,
        &progress,
        "",
        |e| memo::remembering(&memo, || (e.run)(a.quick)).map_err(|e| e.to_string()),
        show,
    );
    progress.clear();
    let command = page_command();
    finish(
        &outcomes,
        a.json.as_deref(),
        a.report.as_deref(),
        &command,
        false,
    )
}

/// Runs the experiments in order by `one`, each result handed to `shown` as it comes
/// (with its name), counted on `progress` and its wall time noted after its name and
/// `label`, with the fabric runs it took from the memo, if any; gives every
/// experiment's result (its report or the error that stopped it, or a shard's part of
/// it).
fn run<T>(
    chosen: &[&Experiment],
    progress: &JobProgress,
    label: &str,
    one: impl Fn(&Experiment) -> T,
    shown: impl Fn(&str, &T),
) -> Vec<(String, T)> {
    let mut outcomes = Vec::with_capacity(chosen.len());
    for e in chosen {
        let started = std::time::Instant::now();
        progress.set_message(e.name);
        memo::take_reused();
        let result = one(e);
        progress.inc();
        progress.note(&format!(
            "{}{label}: wall time {:.1} s",
            e.name,
            started.elapsed().as_secs_f64()
        ));
        let reused = memo::take_reused();
        if reused.reused > 0 {
            progress.note(&reused_note(e.name, label, reused));
        }
        shown(e.name, &result);
        outcomes.push((e.name.to_string(), result));
    }
    outcomes
}

/// The line that says experiment `name` (with `label`) took fabric runs from the memo.
fn reused_note(name: &str, label: &str, r: memo::Reused) -> String {
    format!(
        "{name}{label}: {} of its {} fabric runs reused, their configuration and seed run \
         already",
        r.reused, r.asked
    )
}

/// Says on standard error which experiments finished in a merge took fabric runs from
/// the memo (the grids' points it read back, or the shards' runs), as `(merge)`.
pub fn note_merge_reused(reused: &[(String, memo::Reused)]) {
    for (name, r) in reused {
        // Chatter, as progress is: a standard error that cannot take it loses nothing.
        let _ = writeln!(std::io::stderr(), "{}", reused_note(name, " (merge)", *r));
    }
}

/// The experiments (or shares of one's points) shard `s` runs of `names`.
fn mine_count(names: &[&str], quick: bool, s: Shard) -> usize {
    shard::Header::new(names, quick, s.k, s.n).mine().len()
}

/// Runs shard `s` of the `chosen` experiments (`names`) and gives its file for `emu
/// merge`: the experiments the plan gives it whole, and its share of the points of
/// those split by point. Each wall time is noted with `label`. The fabric runs are
/// taken from `memo` where they were made before, and kept there.
fn shard_text(
    quick: bool,
    names: &[&str],
    chosen: &[&Experiment],
    s: Shard,
    progress: &JobProgress,
    label: &str,
    memo: &Arc<Memo>,
) -> Result<String, String> {
    let header = shard::Header::new(names, quick, s.k, s.n);
    let mine = header.mine();
    let chosen: Vec<(&Experiment, bool)> = chosen
        .iter()
        .filter_map(|e| {
            mine.iter()
                .find(|(name, _)| *name == e.name)
                .map(|&(_, by_point)| (*e, by_point))
        })
        .collect();
    let experiments: Vec<&Experiment> = chosen.iter().map(|(e, _)| *e).collect();
    let units = run(
        &experiments,
        progress,
        label,
        |e| {
            let by_point = chosen.iter().any(|(c, b)| c.name == e.name && *b);
            let experiment = || memo::remembering(memo, || (e.run)(quick));
            if !by_point {
                return shard::Unit::Outcome(experiment().map_err(|e| e.to_string()));
            }
            match grid::share(s.k, s.n, experiment) {
                (Err(ReproduceError::Shared), grids) => shard::Unit::Grids(grids),
                (result, _) => shard::Unit::Outcome(result.map_err(|e| e.to_string())),
            }
        },
        |_, _| {},
    );
    shard::write(&header, &units).map_err(|e| e.to_string())
}

/// Runs the `chosen` experiments as `jobs` shards at once, each on a thread of its own,
/// and merges them as `emu merge` merges shard files: the same reports, JSON and page,
/// byte for byte, as one experiment after another (the grids split by point run on
/// every shard, the other experiments whole on the one the plan balances them to). The
/// shards share `memo`.
fn run_at_once(
    a: &ReproduceArgs,
    names: &[&str],
    chosen: &[&Experiment],
    jobs: u32,
    memo: &Arc<Memo>,
) -> Exit {
    let total: usize = (1..=jobs)
        .map(|k| mine_count(names, a.quick, Shard { k, n: jobs }))
        .sum();
    let progress = JobProgress::new("reproduce", total as u64, "experiments", a.quiet);
    let texts: Vec<Result<String, String>> = std::thread::scope(|scope| {
        let progress = &progress;
        let handles: Vec<_> = (1..=jobs)
            .map(|k| {
                let label = format!(" (shard {k}/{jobs})");
                scope.spawn(move || {
                    shard_text(
                        a.quick,
                        names,
                        chosen,
                        Shard { k, n: jobs },
                        progress,
                        &label,
                        memo,
                    )
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a shard's thread panicked".to_string()))
            })
            .collect()
    });
    progress.clear();
    let mut files = Vec::with_capacity(texts.len());
    for (k, text) in (1..).zip(texts) {
        match text {
            Ok(t) => files.push((format!("shard {k}/{jobs}"), t)),
            Err(e) => return fail(Exit::Failure, e),
        }
    }
    // The merge finishes the grids' experiments from their points (what follows a grid
    // in one runs here, e.g. fabric-memory's §7.6.2 claim), with the shards' memo.
    let merged = match memo::remembering(memo, || shard::merge(&files)) {
        Ok(m) => m,
        Err(e) => return fail(Exit::Failure, e.to_string()),
    };
    note_merge_reused(&merged.reused);
    let command = page_command();
    finish(
        &merged.outcomes,
        a.json.as_deref(),
        a.report.as_deref(),
        &command,
        true,
    )
}

/// The command line this process was started with, as a shell would take it back,
/// less `--jobs`, which never changes a result: the page names the same command
/// however many shards made it.
fn page_command() -> String {
    let mut words = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--jobs" {
            args.next();
        } else if !arg.starts_with("--jobs=") {
            words.push(arg);
        }
    }
    super::report_html::command_line(words)
}

/// Prints one experiment's outcome as it finishes: its report on stdout, or the error
/// that stopped it on stderr.
fn show(name: &str, outcome: &Result<Report, String>) {
    match outcome {
        Ok(r) => say!("{}", r.text()),
        Err(msg) => note!("error: {name}: run failed: {msg}"),
    }
}

/// Finishes a reproduction run here or merged from shards (`merged`: the outcomes are
/// shown here first): the summary, `--json`, `--report` (a page naming `command`) and
/// the failed rows on stderr; returns the exit code (1 if a row failed or an
/// experiment broke).
pub fn finish(
    outcomes: &[(String, Result<Report, String>)],
    json: Option<&Path>,
    report: Option<&Path>,
    command: &str,
    merged: bool,
) -> Exit {
    if merged {
        for (name, outcome) in outcomes {
            show(name, outcome);
        }
    }
    let broken = outcomes.iter().any(|(_, o)| o.is_err());
    let reports: Vec<Report> = outcomes
        .iter()
        .filter_map(|(_, o)| o.as_ref().ok().cloned())
        .collect();
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
    if let Some(path) = json {
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
    if let Some(path) = report {
        let page = emu::html::reproduce_page(command, &reports);
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

/// The command a merged reproduction's page names: the single command that prints the
/// same, with the merge's `--json` and `--report`.
pub fn merged_command(
    header: &shard::Header,
    json: Option<&Path>,
    report: Option<&Path>,
) -> String {
    let mut command = header.command.clone();
    for (flag, path) in [("--json", json), ("--report", report)] {
        if let Some(p) = path {
            command.push_str(&format!(
                " {flag} {}",
                shell_quote(&p.display().to_string())
            ));
        }
    }
    command
}

/// Writes the job list: one `emu reproduce … --shard I/N` line per experiment (N the
/// number of experiments, so each line runs one).
fn write_plan(a: &ReproduceArgs, names: &[&str], plan: &Path) -> Exit {
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "emu".into());
    let mut words: Vec<String> = vec![exe, "reproduce".into()];
    words.extend(names.iter().map(|n| n.to_string()));
    if a.quick {
        words.push("--quick".into());
    }
    words.push("--quiet".into());
    super::merge::write_shard_plan(plan, &words, names.len(), "experiments", "parts.jsonl")
}
