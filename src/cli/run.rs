//! The plain run, `emu --topology T --traffic P`: load the case, run it on the chosen
//! engine with a progress bar, print the report (and write it as JSON); or, with
//! `--verify-engines`, run it on every engine ([`super::verify`]). A failed run is
//! explained by [`super::failure`].

use super::args::{CaseArgs, JsonArg};
use super::exit::Exit;
use super::failure::{engine_failure, reproduce_line};
use super::verify::verify_engines;
use super::{emit, fail};
use emu::api::{RunOptions, run_typed};
use emu::engine::{self, EngineError, EngineKind};
use emu::model::LinkProtocol;
use emu::observe::Recorder;
use emu::pool::default_threads;
use emu::session::{AnyCase, Case, CaseVisitor};
use emu::stats::Progress;
use std::ops::ControlFlow;

/// The engine as a command-line value: [`EngineKind`] for clap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// One worker thread per core, each stepping its partition of the nodes; bounded
    /// channels only between partitions. The fast one.
    Sharded,
    /// One tokio task per hardware node, bounded async channels per link direction.
    Actors,
}

impl From<Engine> for EngineKind {
    fn from(e: Engine) -> EngineKind {
        match e {
            Engine::Sharded => EngineKind::Sharded,
            Engine::Actors => EngineKind::Actors,
        }
    }
}

/// Arguments of a plain run (`emu --topology T --traffic P`).
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The case: topology, traffic, seed, threads, `--set`, `--memory-limit`.
    #[command(flatten)]
    pub case: CaseArgs,
    /// `--json FILE`: the full report.
    #[command(flatten)]
    pub output: JsonArg,
    /// Engine: sharded (one worker per core, each stepping a partition of the nodes;
    /// the fast one) or actors (one tokio task per node). Results never depend on it.
    #[arg(long, value_enum, default_value_t = Engine::Sharded)]
    pub engine: Engine,
    /// Run the case with every engine (sharded and actors, on --threads and on one
    /// thread) and check that the reports are byte-identical; exit 1 if not.
    #[arg(long)]
    pub verify_engines: bool,
    /// Write the latency distributions in HdrHistogram's percentile format (values in
    /// µs) to DIR: message.hgrm, network.hgrm, source_queue.hgrm (created if missing;
    /// SCI and relay rings record message latency only, so only message.hgrm).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["replications", "verify_engines"])]
    pub hgrm: Option<std::path::PathBuf>,
    /// Draw the run as SVG in DIR (created if missing): latency-message.svg,
    /// latency-network.svg, latency-source_queue.svg (percentile distributions; SCI and
    /// relay rings: message latency only),
    /// terminals.svg (throughput per terminal) and links.svg (link utilisation: each
    /// link direction coloured on the network in its natural layout, or for a netlist
    /// a switch × switch heat map). A run that deadlocks writes deadlock.svg instead:
    /// the network with the wait-for cycle numbered and its packets listed.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["replications", "verify_engines"])]
    pub plot: Option<std::path::PathBuf>,
    /// `--trace`, `--vcd` and their selections.
    #[command(flatten)]
    pub watch: super::watch::WatchArgs,
    /// Write the run as one self-contained HTML page (no network needed to read it):
    /// the command that reproduces it, the summary, latency and journey tables, every
    /// picture of --plot, and a per-terminal table sortable by a click on its header;
    /// a run that deadlocks still gets its page, with the wait-for cycle.
    /// Example: --report run.html
    #[arg(long, value_name = "FILE.html", conflicts_with_all = ["replications", "verify_engines"])]
    pub report: Option<std::path::PathBuf>,
    /// Check the credit invariant of every link at every barrier (slower).
    #[arg(long)]
    pub check: bool,
    /// Report a deadlock when no token has moved for this long while packets are in
    /// flight (default: ten packet times, at least 20 µs).
    #[arg(long, value_name = "MICROSECONDS")]
    pub deadlock_window_us: Option<f64>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Stop a run, with exit 2 and its projected wall time, when its pace over its
    /// first seconds says it would take longer than this many minutes (0: no limit).
    /// Example: --time-limit 0 to run a known multi-hour case.
    #[arg(long, value_name = "MINUTES", default_value_t = 60.0)]
    pub time_limit: f64,
    /// Run independent replications (seeds --seed, --seed + 1, …) and print the mean of
    /// throughput and of mean and p99 latency with 90 % and 95 % Student-t intervals:
    /// a number of runs, or `auto` to run until the 90 % interval of the mean latency is
    /// within --ci-target percent (3 to 30 runs). Example: --replications auto
    #[arg(long, value_name = "N|auto")]
    pub replications: Option<String>,
    /// With --replications auto: the target half-width of the 90 % interval of the mean
    /// latency, in percent of it (default 3).
    #[arg(long, value_name = "PERCENT")]
    pub ci_target: Option<f64>,
    /// With --replications N: also run the case with this key set (as --set does; repeat
    /// for several) on the same seeds, and print each figure for both and their paired
    /// difference with its 90 % interval. Example: --compare network.strategy=fifo
    #[arg(long, value_name = "KEY=VALUE")]
    pub compare: Vec<String>,
}

/// The longest `--time-limit`, in minutes (about two years).
const MAX_TIME_LIMIT_MIN: f64 = 1e6;

/// `--time-limit MINUTES` as a duration (`None` for 0: no limit).
fn time_limit(minutes: f64) -> Result<Option<std::time::Duration>, String> {
    if !(minutes.is_finite() && (0.0..=MAX_TIME_LIMIT_MIN).contains(&minutes)) {
        return Err(format!(
            "--time-limit {}: give minutes from 0 (no limit) to {MAX_TIME_LIMIT_MIN:e}",
            emu::text::number(minutes)
        ));
    }
    Ok((minutes > 0.0).then(|| std::time::Duration::from_secs_f64(minutes * 60.0)))
}

/// Runs one case; returns the process exit code.
pub fn run(a: &RunArgs) -> Exit {
    let (topology, traffic) = match a.case.files() {
        Ok(files) => files,
        Err(code) => return code,
    };
    if let Err(code) = a.watch.check().and_then(|()| {
        super::output::Outputs::new()
            .file("--json", a.output.json.as_deref())
            .file("--trace", a.watch.trace.as_deref())
            .file("--vcd", a.watch.vcd.as_deref())
            .file("--report", a.report.as_deref())
            .dir("--hgrm", a.hgrm.as_deref())
            .dir("--plot", a.plot.as_deref())
            .reading(&a.case.network, Some(traffic))
            .check()
    }) {
        return code;
    }
    let memory_limit = match a.case.network.memory_limit() {
        Ok(limit) => limit,
        Err(code) => return code,
    };
    let time_limit = match time_limit(a.time_limit) {
        Ok(t) => t,
        Err(e) => return fail(Exit::BadInput, e),
    };
    let guard = match a.case.network.guard(time_limit) {
        Ok(g) => g,
        Err(code) => return code,
    };
    if a.replications.is_none() && a.ci_target.is_some() {
        return fail(
            Exit::BadInput,
            "--ci-target applies to --replications auto only: give --replications auto",
        );
    }
    if a.watch.any() && (a.replications.is_some() || a.verify_engines) {
        return fail(
            Exit::BadInput,
            "--trace and --vcd watch one run: leave out --replications and --verify-engines",
        );
    }
    if !a.compare.is_empty() && a.replications.is_none() {
        return fail(
            Exit::BadInput,
            "--compare runs both sides on the same seeds: give --replications N too",
        );
    }
    if let Some(text) = &a.replications {
        if a.verify_engines || a.check {
            return fail(
                Exit::BadInput,
                "--replications runs each seed on the reference engine: leave out \
                 --verify-engines and --check (run one seed with them instead)",
            );
        }
        guard.arm();
        if a.ci_target.is_some() && text != "auto" {
            return fail(
                Exit::BadInput,
                "--ci-target applies to --replications auto only: leave it out, or give \
                 --replications auto",
            );
        }
        return match super::replications::parse_plan(text, a.ci_target.unwrap_or(3.0)) {
            Ok(emu::replicate::Plan::Fixed(runs)) if !a.compare.is_empty() => {
                super::replications::compare_main(
                    &a.case,
                    (topology, traffic),
                    runs,
                    &a.compare,
                    memory_limit,
                    a.output.json.as_deref(),
                )
            }
            Ok(emu::replicate::Plan::Until { .. }) if !a.compare.is_empty() => fail(
                Exit::BadInput,
                "--compare runs both sides on the same seeds: give a number of runs, \
                 --replications N, not auto",
            ),
            Ok(plan) => super::replications::main(
                &a.case,
                topology,
                traffic,
                plan,
                memory_limit,
                a.output.json.as_deref(),
            ),
            Err(e) => fail(Exit::BadInput, e),
        };
    }
    match AnyCase::load_within(
        topology,
        traffic,
        &a.case.network.sets,
        a.case.runs.seed,
        memory_limit,
    ) {
        Ok(case) => case.visit(Runner {
            a,
            memory_limit,
            guard: &guard,
        }),
        Err(e) => fail(Exit::BadInput, e),
    }
}

/// Runs a case of any family.
struct Runner<'a> {
    a: &'a RunArgs,
    memory_limit: Option<u64>,
    guard: &'a super::guard::RunGuard,
}

impl CaseVisitor for Runner<'_> {
    type Output = Exit;
    fn visit<P: LinkProtocol>(self, case: &Case<P>) -> Exit {
        run_case(case, self.a, self.memory_limit, self.guard)
    }
}

/// Runs a loaded case of any family with the memory it may use (`memory_limit`, from
/// `--memory-limit`) through the library's facade ([`emu::api::run_typed`]); returns
/// the process exit code.
fn run_case<P: LinkProtocol>(
    case: &Case<P>,
    a: &RunArgs,
    memory_limit: Option<u64>,
    guard: &super::guard::RunGuard,
) -> Exit {
    let net = &case.net;
    // The checks the facade makes too, here first so that their errors name the
    // command line's options and come in the command line's order.
    let mut ctl = case.control();
    if let Some(us) = a.deadlock_window_us
        && let Err(e) = ctl.set_deadlock_window_us(us, net)
    {
        return fail(Exit::BadInput, e);
    }
    ctl.memory_limit = memory_limit;
    if let Err(code) = super::check_threads(a.case.runs.threads) {
        return code;
    }
    let recorder = match a.watch.recorder(net) {
        Ok(r) => r,
        Err(code) => return code,
    };
    // Made below; declared here to outlive the options whose hook draws it.
    let mut progress;
    let options = RunOptions {
        set: a.case.network.sets.clone(),
        seed: a.case.runs.seed,
        engine: EngineKind::from(a.engine),
        threads: a.case.runs.threads,
        check: a.check,
        deadlock_window_us: a.deadlock_window_us,
        memory_limit,
        recorder: recorder.clone(),
        ..RunOptions::default()
    };
    if a.verify_engines {
        // One thread per core, even on a network too small to gain from them: the
        // check is about the engines agreeing, not speed.
        let threads = a.case.runs.threads.unwrap_or_else(default_threads);
        return verify_engines(case, &options, threads, a);
    }
    progress = if a.quiet {
        Progress::disabled()
    } else {
        Progress::new(ctl.end_after, net.time().tick_ns)
    };
    let tick_ns = net.time().tick_ns;
    guard.begin(emu::pool::Started::of(net, &ctl));
    let options = options.on_progress(|p| {
        progress.update(p.tick, &p.activity);
        guard.note(p.tick as f64 * tick_ns, &p.activity);
        ControlFlow::Continue(())
    });
    let result = run_typed(case, &options);
    drop(options);
    progress.finish();
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            if let Some(t) = e.timing_error() {
                note!(
                    "reproduce with: {}",
                    reproduce_line(a, &case.topology, &case.traffic)
                );
                return fail(Exit::FlowControl, t);
            }
            return match e.into_engine_error() {
                Ok(e) => failed(case, a, recorder.as_deref(), &e),
                Err(e) => fail(Exit::Failure, e),
            };
        }
    };
    let (Some(stats), Some(outcome)) = (&report.stats, &report.run) else {
        return match &report.failure {
            Some(e) => failed(case, a, recorder.as_deref(), e),
            None => fail(
                Exit::Failure,
                format!("the run ended {}", report.outcome.name()),
            ),
        };
    };
    emit(&report.render_text(&a.case.network.sets).unwrap_or_default());
    if let Some(s) = &report.timing {
        emit(&check_line(s));
    }
    if stats.nodes.as_ref().is_some_and(|n| !n.starved.is_empty()) {
        note!(
            "reproduce with: {}",
            reproduce_line(a, &case.topology, &case.traffic)
        );
    }
    if let Some(path) = &a.output.json
        && let Err(code) = super::output::write_or_fail(path, report.to_json())
    {
        return code;
    }
    if let Some(r) = &recorder
        && let Err(code) = a
            .watch
            .write(net, r, Some(outcome.end_tick), &|l| emit(&format!("{l}\n")))
    {
        return code;
    }
    let metrics = case.family.latency_metrics();
    if let Some(dir) = &a.hgrm
        && let Err(e) = write_hgrm(dir, outcome, report.tick_ns, metrics)
    {
        return fail(Exit::Failure, e);
    }
    if let Some(dir) = &a.plot
        && let Err(e) = write_plots(dir, net, stats, outcome, metrics)
    {
        return fail(Exit::Failure, e);
    }
    if let Some(path) = &a.report
        && let Err(code) = super::report_html::run(path, a, case, stats, outcome)
    {
        return code;
    }
    Exit::Ok
}

/// Explains a run of `case` that failed with `e` (and writes `--json`, `--report` and
/// the trace the run recorded in `recorder`); returns the failure's exit code.
fn failed<P: LinkProtocol>(
    case: &Case<P>,
    a: &RunArgs,
    recorder: Option<&Recorder>,
    e: &EngineError,
) -> Exit {
    let net = &case.net;
    let code = engine_failure(e, net, a, &case.topology, &case.traffic);
    if let Some(path) = &a.report {
        super::report_html::failure(path, a, case, e);
    }
    // The failure (a deadlock, a fault) is the answer and keeps its exit code; a trace
    // that cannot be written has said why in its own line.
    if let Some(r) = recorder {
        let _ = a.watch.write(net, r, e.tick(), &|l| note!("{l}"));
    }
    code
}

/// What `--check` verified, for the end of the text report.
fn check_line(s: &emu::network::timing::TimingSummary) -> String {
    use emu::stats::format::group;
    let mut line = String::from("checked     credit invariant at every barrier");
    if s.messages + s.unfixed_messages > 0 {
        line += &format!(
            "; timing identity exact (0 ticks) for {} messages, {} source–destination pairs",
            group(s.messages),
            group(s.pairs)
        );
        if s.unfixed_pairs > 0 {
            line += &format!(
                "; {} messages of {} pairs on paths that are not fixed (random headers, adaptive routing) not checked",
                group(s.unfixed_messages),
                group(s.unfixed_pairs)
            );
        }
    }
    line + "\n"
}

/// Draws the run's pictures in `dir` (see `--plot`).
fn write_plots<P: LinkProtocol>(
    dir: &std::path::Path,
    net: &emu::network::Network<P>,
    report: &emu::stats::Report,
    outcome: &engine::RunOutcome,
    metrics: &[&str],
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let files =
        emu::plot::run::run_plots(report, outcome, metrics, net).map_err(|e| e.to_string())?;
    for (file, svg) in files {
        let path = dir.join(file);
        super::output::write(&path, svg)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Writes the run's latency distributions that its family records (`metrics`) as
/// `.hgrm` files in `dir`.
fn write_hgrm(
    dir: &std::path::Path,
    outcome: &engine::RunOutcome,
    tick_ns: f64,
    metrics: &[&str],
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let total = emu::terminal::TerminalStats::total(&outcome.terminals);
    for (name, metric) in [
        ("message", &total.message_latency),
        ("network", &total.network_latency),
        ("source_queue", &total.source_queueing),
    ] {
        if !metrics.contains(&name) {
            continue;
        }
        let path = dir.join(format!("{name}.hgrm"));
        super::output::write(&path, emu::stats::hgrm::hgrm(metric, tick_ns))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
