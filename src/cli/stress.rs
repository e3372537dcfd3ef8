//! `emu stress`: the command-line front end of the deadlock search.
//! Bad input gets one line naming the flag or key and exit code 2; a deadlock found
//! exits 3, a flow-control violation 4, a clean search 0.

use super::args::{JsonArg, NetworkArgs, RunsArgs};
use super::exit::Exit;
use super::fail;
use super::shrunk::{report_shrunk, write_json};
use emu::config::traffic::InjectionConfig;
use emu::config::{self, TrafficConfig};
use emu::family::StressSearch;
use emu::pool::default_threads;
use emu::session::stem;
use emu::stats::job_progress::JobProgress;
use emu::stress::{SearchResult, StressCase, Target, Verdict, generate, search_watched, shrink};
use std::path::PathBuf;

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

Every case is one single-threaded run (continuous injection for --run-us, or a burst of
queued messages); a deadlock is no token moving for the deadlock window while packets are
in flight. --buffers small sets link.buffer_tokens to the FCT batch (the smallest legal
input buffer, INMOS ch. 6 §6.2.1) and c104.output_buffer_tokens to the same, so one packet spans
several switches. On an SCI ring a case fails when a node delivers nothing in the
window while it has packets waiting; cases are not shrunk. Exit codes: 0 no deadlock
(no starved node), 2 bad input, 3 deadlock (a starved node), 4 flow-control violation.";

/// Buffer sizes for the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Buffers {
    /// The topology file's own buffers.
    Topology,
    /// Input buffer = the FCT batch (the smallest legal one), output buffer the same.
    Small,
}

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
    /// Write the shrunk deadlocking traffic file here.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Draw the shrunk case's deadlock as SVG in DIR (created if missing):
    /// deadlock.svg, the network with the printed wait-for cycle numbered in order.
    /// Example: --plot pictures
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,
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

/// Runs the search; returns the process exit code.
pub fn main(a: &StressArgs) -> Exit {
    let checked = super::output::Outputs::new()
        .file("--json", a.output.json.as_deref())
        .file("--out", a.out.as_deref())
        .dir("--plot", a.plot.as_deref())
        .reading(&a.network, None)
        .check()
        .and_then(|()| a.network.topology().map(|_| ()))
        .and_then(|()| a.network.memory_limit());
    let memory_limit = match checked {
        Ok(limit) => limit,
        Err(code) => return code,
    };
    if !(a.run_us.is_finite() && a.run_us >= 1.0 && a.run_us <= 1e6) {
        return fail(
            Exit::BadInput,
            format!(
                "--run-us {}: give 1 to 1,000,000 microseconds",
                emu::text::number(a.run_us)
            ),
        );
    }
    if let Err(code) = super::check_threads(a.runs.threads) {
        return code;
    }
    if a.runs.seed.checked_add(u64::from(a.seeds) - 1).is_none() {
        return fail(
            Exit::BadInput,
            format!(
                "--seed {}: seeds {} + {} overflow a 64-bit seed",
                a.runs.seed, a.runs.seed, a.seeds
            ),
        );
    }
    if let Err(e) = config::validate_sets(&a.network.sets) {
        return fail(Exit::BadInput, e);
    }
    let topo = match config::load_topology(a.topology(), &a.network.sets) {
        Ok(t) => t,
        Err(e) => return fail(Exit::BadInput, e),
    };
    if topo.overrides.len() != a.network.sets.len() {
        return fail(
            Exit::BadInput,
            "--set: emu stress generates its own traffic; give only topology keys",
        );
    }
    let family = emu::family::of(&topo.config.network);
    if let Err(e) = emu::family::only_own_sections(family, &topo) {
        return fail(Exit::BadInput, e);
    }
    match family.stress(&topo.config) {
        StressSearch::Deadlock => {}
        StressSearch::Starvation { .. } if a.plot.is_some() => {
            return fail(
                Exit::BadInput,
                format!(
                    "--plot draws a deadlock, and {} cannot deadlock (it searches for starved nodes): leave --plot out",
                    family.name()
                ),
            );
        }
        StressSearch::Starvation { nodes } => {
            return super::stress_sci::main(a, &topo, nodes, memory_limit);
        }
        StressSearch::Refused(why) => {
            return fail(
                Exit::BadInput,
                format!("{}: {why}", topo.locate("network.kind")),
            );
        }
        _ => {
            return fail(
                Exit::BadInput,
                format!(
                    "{}: emu stress has no search for {}",
                    topo.locate("network.kind"),
                    family.name()
                ),
            );
        }
    }
    let mut sets = a.network.sets.clone();
    if a.buffers == Buffers::Small {
        let b = topo.config.link.fct_batch_tokens;
        sets.push(format!("link.buffer_tokens={b}"));
        sets.push(format!("c104.output_buffer_tokens={b}"));
    }
    let topo = match config::load_topology(a.topology(), &sets) {
        Ok(t) => t,
        Err(e) => return fail(Exit::BadInput, e),
    };
    let name = stem(&topo.file.name);
    let target = Target {
        name: &name,
        topology: &topo.config,
    };
    let probe: TrafficConfig =
        match toml::from_str("[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"continuous\"\n")
        {
            Ok(t) => t,
            Err(e) => return fail(Exit::Failure, e),
        };
    let built = emu::family::build_within(&topo, &probe, None, a.runs.seed, memory_limit);
    let terminals = match built {
        Ok(n) => n.terminal_count() as u32,
        Err(e) => return fail(Exit::BadInput, e),
    };
    let cases = generate(a.runs.seed, a.seeds, terminals, a.run_us);
    let threads = a.runs.threads.unwrap_or_else(default_threads);
    let lines = std::sync::Mutex::new(Vec::new());
    let guard = match a.network.guard(None) {
        Ok(g) => g,
        Err(code) => return code,
    };
    guard.arm_runs("stress search", cases.len(), threads);
    let progress = JobProgress::new("stress", cases.len() as u64, "cases", a.quiet);
    let found = match search_watched(target, &cases, threads, &guard, |c, v| {
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
    if a.verbose {
        let mut l = lines.into_inner().unwrap_or_else(|p| p.into_inner());
        l.sort();
        for (_, line) in l.iter().take(found.tried) {
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
        return write_json(a, &json_clean(&name, &found));
    };
    say!(
        "deadlock in case {} of {} ({} traffic, seed {}) at tick {}, after {} cases ({:.3e} ticks); {buffers}",
        case.index + 1,
        cases.len(),
        case.kind.name(),
        case.seed,
        first.tick,
        found.tried,
        found.ticks as f64
    );
    let shrunk = match shrink(
        target,
        terminals,
        &case.traffic,
        case.seed,
        first,
        a.max_candidates,
    ) {
        Ok(s) => s,
        Err(e) => return fail(super::exit::of_stress(&e), e),
    };
    let code = report_shrunk(a, &name, &sets, &found, case.kind.name(), &shrunk);
    if let Some(dir) = &a.plot {
        // The shrunk case's plan, built as its reproduce command builds it.
        let drawn =
            emu::family::build_within(&topo, &shrunk.traffic, None, shrunk.seed, memory_limit)
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

fn json_clean(name: &str, r: &SearchResult) -> serde_json::Value {
    serde_json::json!({
        "schema": 1,
        "emu_version": env!("CARGO_PKG_VERSION"),
        "outcome": "no_deadlock",
        "topology": name,
        "cases_tried": r.tried,
        "ticks_tried": r.ticks,
        "cases_incomplete": r.incomplete,
    })
}

/// Merges stress search shards (`emu stress --shard`); returns the exit code.
pub fn merge(_a: &super::merge::MergeArgs, _texts: &[(String, String)]) -> Exit {
    fail(Exit::BadInput, "stress shards cannot be merged yet")
}
