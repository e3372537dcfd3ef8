//! `emu stress`: the command-line front end of the deadlock search.
//! Bad input gets one line naming the flag or key and exit code 2; a deadlock found
//! exits 3, a flow-control violation 4, a clean search 0.

use super::args::{JsonArg, NetworkArgs, RunsArgs};
use super::exit::Exit;
use super::fail;
use super::shrunk::{report_shrunk, write_json};
use emu::config::Input;
use emu::config::traffic::InjectionConfig;
use emu::pool::default_threads;
use emu::shard::stress as shard;
use emu::stats::job_progress::JobProgress;
use emu::stress::starvation::SciCase;
use emu::stress::write::clean_json;
use emu::stress::{
    self, Ask, PrepareError, Search, SearchResult, StressCase, Verdict, run_one, search_watched,
    shrink,
};
pub use emu::stress::{Buffers, Prepared};
use emu::sweep::Shard;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Examples shown by `emu stress --help`.
pub const EXAMPLES: &str = "\
Examples:
  emu stress --topology ring4
      16 seeds × (random permutation, hot spot, random burst) at saturation; the
      first deadlock is shrunk and printed as a traffic file with the command to rerun it
  emu stress -t torus8-single --buffers small --out deadlock.toml --json stress.json
      smallest legal buffers; the shrunk case written to deadlock.toml, everything to JSON
  emu stress -t torus8-single --plot pictures
      the shrunk case's wait-for cycle drawn on the torus in pictures/deadlock.svg
  emu stress -t hypercube6 --seeds 32 --buffers small
      a deadlock-free network: reports how many cases and ticks were tried
  emu stress -t sci-ring4 --out starved.toml
      an SCI ring cannot deadlock but can starve a node: searches starved-node, hot-sender,
      permutation and hot-spot traffic at saturation and writes the first case that
      starves a node (exit 3); with --set network.flow_control=true none does

On several machines or processes (the merged result is byte for byte the same):
  parallel emu stress -t torus8-single --seeds 64 --shard {}/4 --out part{}.jsonl ::: 1 2 3 4
  emu merge part*.jsonl --out deadlock.toml --json stress.json
Each shard searches every 4th case in order and stops at its first deadlock; the merge
takes the lowest, checks that every case below it was searched, and shrinks it.
`--plan jobs.txt` writes one command line per case instead.

Every case is one single-threaded run (continuous injection for --run-us, or a burst of
queued messages); a deadlock is no token moving for the deadlock window while packets are
in flight. --buffers small sets link.buffer_tokens to the FCT batch (the smallest legal
input buffer, INMOS ch. 6 §6.2.1) and c104.output_buffer_tokens to the same, so one packet spans
several switches. On an SCI ring a case fails when a node delivers nothing in the
window while it has packets waiting; cases are not shrunk. Exit codes: 0 no deadlock
(no starved node), 2 bad input, 3 deadlock (a starved node), 4 flow-control violation.";

/// Arguments of `emu stress`.
#[derive(clap::Args, Debug)]
pub struct StressArgs {
    /// The network (`--set`: topology keys only; the traffic is generated).
    #[command(flatten)]
    pub network: NetworkArgs,
    /// Seeds to try; each runs a random permutation, a hot spot and a random burst.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub seeds: u32,
    /// Buffer sizes: the topology's own, or small (see below).
    #[arg(long, value_enum, default_value_t = Buffers::Topology)]
    pub buffers: Buffers,
    /// Injection time of the continuous cases, in microseconds of virtual time.
    #[arg(long, default_value_t = 100.0, value_name = "MICROSECONDS")]
    pub run_us: f64,
    /// Most candidate runs the shrinker may try.
    #[arg(long, default_value_t = 400)]
    pub max_candidates: usize,
    /// `--seed` (the first of the seeds) and `--threads` (runs at once).
    #[command(flatten)]
    pub runs: RunsArgs,
    /// `--json FILE`: the outcome (and the shrunk case, its cycle and command).
    #[command(flatten)]
    pub output: JsonArg,
    /// Also print one line per case run, in case order.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Write the shrunk deadlocking traffic file here (with --shard: the shard's file).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Draw the shrunk case's deadlock as SVG in DIR (created if missing):
    /// deadlock.svg, the network with the printed wait-for cycle numbered in order.
    /// Example: --plot pictures
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,
    /// Search only every N-th case from the K-th, in order, to its first deadlock (or
    /// starved node), and write the outcomes as JSON lines (to --out, or stdout) for `emu merge`, which
    /// gives the single process's answer. Example: --shard 2/4 --out part2.jsonl
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Run nothing; write one self-contained command line per case to FILE (a job list
    /// for GNU parallel, Slurm, …) whose outputs `emu merge` combines.
    #[arg(long, value_name = "FILE", conflicts_with = "shard")]
    pub plan: Option<PathBuf>,
    /// No progress on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl StressArgs {
    /// The topology as given (checked present when the search starts).
    pub fn topology(&self) -> &str {
        self.network.topology.as_deref().unwrap_or_default()
    }
}

/// Runs the search (whole, or one shard of it); returns the process exit code.
pub fn main(a: &StressArgs) -> Exit {
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
    if shard.is_some() && (a.output.json.is_some() || a.plot.is_some() || a.verbose) {
        return fail(
            Exit::BadInput,
            "--shard writes the shard's cases only: give --json, --plot and -v to `emu merge` (and --out there for the shrunk traffic file)",
        );
    }
    let p = match prepare(a) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Some(plan) = &a.plan {
        return write_plan(a, &p, plan);
    }
    if let Some(shard) = shard {
        return run_shard(a, &p, shard);
    }
    let s = match p {
        Prepared::Deadlock(s) => s,
        Prepared::Starvation(r) => {
            return super::stress_sci::main(a, &r.topo, r.nodes, r.memory_limit);
        }
    };
    let threads = a.runs.threads.unwrap_or_else(default_threads);
    let lines = std::sync::Mutex::new(Vec::new());
    let guard = match a.network.guard(None) {
        Ok(g) => g,
        Err(code) => return code,
    };
    guard.arm_runs("stress search", s.cases.len(), threads);
    let progress = JobProgress::new("stress", s.cases.len() as u64, "cases", a.quiet);
    let found = match search_watched(s.target(), &s.cases, threads, &guard, |c, v| {
        progress.inc();
        if let Ok(mut l) = lines.lock() {
            l.push((c.index, case_line(c, v)));
        }
    }) {
        Ok(r) => r,
        Err(e) => {
            progress.clear();
            return fail(super::exit::of_stress(&e), e);
        }
    };
    progress.finish();
    let mut lines = lines.into_inner().unwrap_or_else(|p| p.into_inner());
    lines.sort();
    let lines: Vec<String> = lines
        .into_iter()
        .take(found.tried)
        .map(|(_, l)| l)
        .collect();
    conclude(a, &s, &found, &lines)
}

/// Checks the arguments and builds the search, or prints the error and gives the exit
/// code.
pub fn prepare(a: &StressArgs) -> Result<Prepared, Exit> {
    let memory_limit = super::output::Outputs::new()
        .file("--json", a.output.json.as_deref())
        .file("--out", a.out.as_deref())
        .file("--plan", a.plan.as_deref())
        .dir("--plot", a.plot.as_deref())
        .reading(&a.network, None)
        .check()
        .and_then(|()| a.network.topology().map(|_| ()))
        .and_then(|()| a.network.memory_limit())?;
    if !(a.run_us.is_finite() && a.run_us >= 1.0 && a.run_us <= 1e6) {
        return Err(fail(
            Exit::BadInput,
            format!(
                "--run-us {}: give 1 to 1,000,000 microseconds",
                emu::text::number(a.run_us)
            ),
        ));
    }
    super::check_threads(a.runs.threads)?;
    if a.runs.seed.checked_add(u64::from(a.seeds) - 1).is_none() {
        return Err(fail(
            Exit::BadInput,
            format!(
                "--seed {}: seeds {} + {} overflow a 64-bit seed",
                a.runs.seed, a.runs.seed, a.seeds
            ),
        ));
    }
    let ask = Ask {
        sets: a.network.sets.clone(),
        buffers: a.buffers,
        seed: a.runs.seed,
        seeds: a.seeds,
        run_us: a.run_us,
        memory_limit,
    };
    let prepared = stress::prepare(&Input::lookup(a.topology()), &ask).map_err(|e| {
        let code = match e {
            PrepareError::Internal(_) => Exit::Failure,
            _ => Exit::BadInput,
        };
        fail(code, e)
    })?;
    if let Prepared::Starvation(r) = &prepared {
        if a.plot.is_some() {
            let family = emu::family::of(&r.topo.config.network);
            return Err(fail(
                Exit::BadInput,
                format!(
                    "--plot draws a deadlock, and {} cannot deadlock (it searches for starved nodes): leave --plot out",
                    family.name()
                ),
            ));
        }
        super::stress_sci::check(a)?;
    }
    Ok(prepared)
}

/// Prints the search's outcome (`lines`: the `-v` line of every case it ran, in
/// order), shrinks and writes the first deadlock; returns the exit code. A whole
/// search and a merge of its shards end here alike.
fn conclude(a: &StressArgs, s: &Search, found: &SearchResult, lines: &[String]) -> Exit {
    let name = &s.name;
    let topo = &s.topo;
    if a.verbose {
        for line in lines {
            say!("{line}");
        }
    }
    let buffers = match a.buffers {
        Buffers::Small => format!(
            "small buffers (input {0} tokens, output {0} tokens)",
            topo.config.link.fct_batch_tokens
        ),
        Buffers::Topology => "the topology's buffers".to_string(),
    };
    let Some((case, first)) = found.first.clone() else {
        say!(
            "no deadlock in {} cases ({:.3e} ticks) on {name}: seeds {} to {} × permutation, hotspot, burst; {buffers}",
            found.tried,
            found.ticks as f64,
            a.runs.seed,
            a.runs.seed + u64::from(a.seeds) - 1
        );
        if found.incomplete > 0 {
            say!(
                "{} of them ended with measured messages undelivered at the drain limit (2 × --run-us after injection): \
                 slow or starved flows, or part of the network stuck while the rest kept moving; -v lists them",
                found.incomplete
            );
        }
        return write_json(a, &clean_json(name, found));
    };
    say!(
        "deadlock in case {} of {} ({} traffic, seed {}) at tick {}, after {} cases ({:.3e} ticks); {buffers}",
        case.index + 1,
        s.cases.len(),
        case.kind.name(),
        case.seed,
        first.tick,
        found.tried,
        found.ticks as f64
    );
    let shrunk = match shrink(
        s.target(),
        s.terminals,
        &case.traffic,
        case.seed,
        first,
        a.max_candidates,
    ) {
        Ok(s) => s,
        Err(e) => return fail(super::exit::of_stress(&e), e),
    };
    let code = report_shrunk(a, name, &s.sets, found, case.kind.name(), &shrunk);
    if let Some(dir) = &a.plot {
        // The shrunk case's plan, built as its reproduce command builds it.
        let drawn =
            emu::family::build_within(topo, &shrunk.traffic, None, shrunk.seed, s.memory_limit)
                .map_err(|e| e.to_string())
                .and_then(|net| {
                    let title = format!(
                        "deadlock · {name} · emu stress shrunk case · tick {}",
                        shrunk.found.tick
                    );
                    super::draw::deadlock(dir, &title, &net, shrunk.found.cycle.as_deref(), &[])
                });
        if let Err(e) = drawn {
            return fail(Exit::Failure, e);
        }
    }
    code
}

/// The search's own flags, as `emu stress` takes them (no outputs, threads or
/// shard): what a shard file records and a merge parses back. `topology` is the
/// topology as the command names it.
fn search_flags(a: &StressArgs, topology: &str) -> Vec<String> {
    let mut v: Vec<String> = vec![
        "--topology".into(),
        topology.into(),
        "--seeds".into(),
        a.seeds.to_string(),
        "--seed".into(),
        a.runs.seed.to_string(),
        "--buffers".into(),
        a.buffers.name().into(),
        "--run-us".into(),
        a.run_us.to_string(),
        "--max-candidates".into(),
        a.max_candidates.to_string(),
    ];
    if let Some(gb) = a.network.memory_limit {
        v.push("--memory-limit".into());
        v.push(gb.to_string());
    }
    for s in &a.network.sets {
        v.push("--set".into());
        v.push(s.clone());
    }
    v
}

/// Searches shard `shard`'s cases in order to its first deadlock or starved node (or
/// error) and writes their outcomes for `emu merge`; exit 0 once written.
fn run_shard(a: &StressArgs, p: &Prepared, shard: Shard) -> Exit {
    let flags = search_flags(a, a.topology());
    let header = shard::Header {
        format: shard::FORMAT.into(),
        emu_version: env!("CARGO_PKG_VERSION").into(),
        command: format!("emu stress {}", super::merge::shell_line(&flags)),
        args: flags,
        topology: p.name(),
        configuration: serde_json::to_value(p.topology()).unwrap_or_default(),
        cases: p.cases(),
        shard: [shard.k, shard.n],
    };
    let threads = a.runs.threads.unwrap_or_else(default_threads);
    let guard = match a.network.guard(None) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let outcomes = match p {
        Prepared::Deadlock(s) => {
            let mine: Vec<StressCase> = s
                .cases
                .iter()
                .filter(|c| header.mine(c.index))
                .cloned()
                .collect();
            guard.arm_runs("stress search", mine.len(), threads);
            search_shard(a, s, &mine, threads, &guard)
        }
        Prepared::Starvation(r) => {
            let mine: Vec<SciCase> = r
                .cases
                .iter()
                .filter(|c| header.mine(c.index))
                .cloned()
                .collect();
            guard.arm_runs("stress search", mine.len(), threads);
            super::stress_sci::search_shard(a, &r.topo, &mine, r.memory_limit, &guard)
        }
    };
    let text = shard::write(&header, &outcomes);
    match &a.out {
        None => {
            super::emit(&text);
            Exit::Ok
        }
        Some(path) => match super::output::write_or_fail(path, text) {
            Ok(()) => Exit::Ok,
            Err(code) => code,
        },
    }
}

/// Searches a shard's deadlock cases `mine` in order to the first deadlock or error:
/// each case's outcome, in order, up to and including that one.
fn search_shard(
    a: &StressArgs,
    s: &Search,
    mine: &[StressCase],
    threads: usize,
    guard: &super::guard::RunGuard,
) -> Vec<(usize, shard::Outcome)> {
    let progress = JobProgress::new("stress", mine.len() as u64, "cases", a.quiet);
    let seen = std::sync::Mutex::new(BTreeMap::new());
    let result = search_watched(s.target(), mine, threads, guard, |c, v| {
        progress.inc();
        let outcome = match v {
            Verdict::Clean { ticks, complete } => shard::Outcome::Clean {
                ticks: *ticks,
                complete: *complete,
            },
            Verdict::Deadlock(f) => shard::Outcome::Deadlock { tick: f.tick },
        };
        if let Ok(mut m) = seen.lock() {
            m.insert(c.index, outcome);
        }
    });
    progress.finish();
    let mut seen = seen.into_inner().unwrap_or_else(|p| p.into_inner());
    // Every case of the shard below its first deadlock or error ran clean; cases above
    // it that happened to run do not count.
    let stop = match &result {
        Ok(r) => r.first.as_ref().map(|(c, _)| c.index),
        // The error is the first of the shard's cases that did not report a verdict.
        Err(_) => mine.iter().map(|c| c.index).find(|i| !seen.contains_key(i)),
    };
    if let (Err(e), Some(i)) = (&result, stop) {
        seen.insert(
            i,
            shard::Outcome::Error {
                message: e.to_string(),
                exit: super::exit::of_stress(e) as u8,
            },
        );
    }
    seen.into_iter()
        .filter(|(i, _)| stop.is_none_or(|s| *i <= s))
        .collect()
}

/// Writes the job list: one `emu stress … --shard I/CASES` line per case, the topology
/// named by absolute path so that the line runs from any directory.
fn write_plan(a: &StressArgs, p: &Prepared, plan: &Path) -> Exit {
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "emu".into());
    let t = a.topology();
    let topology = if Path::new(t).exists() {
        std::path::absolute(t).map_or(t.to_string(), |p| p.display().to_string())
    } else {
        t.to_string()
    };
    let mut words = vec![exe, "stress".to_string()];
    words.extend(search_flags(a, &topology));
    words.push("--quiet".into());
    super::merge::write_shard_plan(plan, &words, p.cases(), "cases", "cases.jsonl")
}

/// Merges the shards of a search (`texts`, as `(name, text)`) and ends as the single
/// process does: the same lines, traffic file (the merge's `--out`), JSON and exit
/// code; the first deadlock is run again here and shrunk.
pub fn merge(m: &super::merge::MergeArgs, texts: &[(String, String)]) -> Exit {
    let merged = match shard::merge(texts) {
        Ok(m) => m,
        Err(e) => return fail(Exit::BadInput, e),
    };
    let h = &merged.header;
    // The search's arguments as the shards had them, with the merge's outputs.
    let mut argv: Vec<std::ffi::OsString> = vec!["emu stress".into()];
    argv.extend(h.args.iter().map(Into::into));
    argv.push("--quiet".into());
    for (flag, path) in [
        ("--out", &m.out),
        ("--json", &m.outputs.output.json),
        ("--plot", &m.outputs.plot),
    ] {
        if let Some(p) = path {
            argv.push(flag.into());
            argv.push(p.into());
        }
    }
    if m.verbose {
        argv.push("--verbose".into());
    }
    #[derive(clap::Parser)]
    struct Command {
        #[command(flatten)]
        stress: StressArgs,
    }
    let a = match <Command as clap::Parser>::try_parse_from(argv) {
        Ok(c) => c.stress,
        Err(e) => {
            let first = e.to_string();
            return fail(
                Exit::BadInput,
                format!(
                    "the shards' command `{}` is not one this emu takes: {}",
                    h.command,
                    first.lines().next().unwrap_or_default()
                ),
            );
        }
    };
    let p = match prepare(&a) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if serde_json::to_value(p.topology()).unwrap_or_default() != h.configuration
        || p.cases() != h.cases
    {
        return fail(
            Exit::BadInput,
            format!(
                "{}: not the topology the shards searched (its file or this emu changed): merge where the shards ran",
                a.topology()
            ),
        );
    }
    let s = match p {
        Prepared::Deadlock(s) => s,
        Prepared::Starvation(r) => {
            return match super::stress_sci::results(&r.cases, &merged.outcomes) {
                Ok(results) => super::stress_sci::conclude(&a, &r.topo, r.cases.len(), &results),
                Err((code, message)) => fail(code, message),
            };
        }
    };
    let (mut ticks, mut incomplete) = (0u64, 0usize);
    let mut lines = Vec::with_capacity(merged.outcomes.len());
    let mut first = None;
    for (i, o) in merged.outcomes.iter().enumerate() {
        let case = &s.cases[i];
        let verdict = match o {
            shard::Outcome::Clean { ticks: t, complete } => {
                ticks += t;
                incomplete += usize::from(!complete);
                Verdict::Clean {
                    ticks: *t,
                    complete: *complete,
                }
            }
            shard::Outcome::Error { message, exit } => {
                return fail(super::exit::Exit::from_code(*exit), message);
            }
            shard::Outcome::Starved { .. } => {
                return fail(
                    Exit::BadInput,
                    format!(
                        "case {}: a starved node is an SCI ring's, and {} is not one: these shards are not of this topology",
                        i + 1,
                        a.topology()
                    ),
                );
            }
            shard::Outcome::Deadlock { tick } => {
                // The deadlock again, for its cycle: every run is deterministic.
                match run_one(s.target(), &case.traffic, case.seed) {
                    Ok(Verdict::Deadlock(f)) if f.tick == *tick => {
                        ticks += f.tick;
                        first = Some((case.clone(), (*f).clone()));
                        Verdict::Deadlock(f)
                    }
                    _ => {
                        return fail(
                            Exit::Failure,
                            format!(
                                "case {} deadlocked at tick {tick} in its shard and not so here: merge with the emu that made the shards",
                                i + 1
                            ),
                        );
                    }
                }
            }
        };
        lines.push(case_line(case, &verdict));
    }
    let found = SearchResult {
        tried: merged.outcomes.len(),
        ticks,
        incomplete,
        first,
    };
    conclude(&a, &s, &found, &lines)
}

/// One line per case for `--verbose`.
fn case_line(c: &StressCase, v: &Verdict) -> String {
    let what = match v {
        Verdict::Clean {
            ticks,
            complete: true,
        } => format!("no deadlock, {ticks} ticks"),
        Verdict::Clean {
            ticks,
            complete: false,
        } => {
            format!("no deadlock, {ticks} ticks, measured messages undelivered at the drain limit")
        }
        Verdict::Deadlock(f) => format!("DEADLOCK at tick {}", f.tick),
    };
    format!(
        "case {:>4}: {:<11} seed {:<6} {:>3}-byte messages, {}: {what}",
        c.index + 1,
        c.kind.name(),
        c.seed,
        c.traffic.message.bytes,
        match c.traffic.injection {
            InjectionConfig::Batch { messages } => match &c.traffic.terminals.senders {
                Some(list) => format!("{} senders × {messages} queued", list.len()),
                None => format!("every terminal × {messages} queued"),
            },
            _ => "continuous".to_string(),
        }
    )
}
