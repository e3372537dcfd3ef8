//! `emu` command line: argument parsing, exit codes and printing only.

use clap::{Args, Parser, Subcommand};
use emu::config::{self, FileKind, Loaded, TopologyConfig, TrafficConfig};
use emu::deadlock;
use emu::engine::{self, EngineError, EngineKind, RunControl};
use emu::network::Network;
use emu::session::{Case, shell_quote};
use emu::stats::{Progress, RunInfo};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

const EXAMPLES: &str = "\
Examples:
  emu --topology hypercube8.toml --traffic shuffle
      256-terminal C104 hypercube under the perfect-shuffle permutation
  emu --topology hypercube6 --traffic uniform --set injection.kind=rate --set injection.load=0.5
      random traffic at 50% offered load
  emu --topology hypercube6 --traffic systematic --json out.json --seed 7
      the chapter 7 worst case, full report written as JSON
  emu --topology ring4 --traffic uniform
      a network whose routing can deadlock: emu stops and shows what is stuck
  emu --topology hypercube6 --traffic shuffle --verify-engines
      run with both engines and every thread count, and check the reports are identical
  emu list
      the shipped topologies and traffic files
  emu reproduce all
      every reproduction: the chapter 6 DS-Link, VCP and C104 models, and chapter 7
  emu reproduce c104-networks --quick
      chapter 7's C104 networks next to Tables 7.1-7.9 and Figure 7.8 (scaled down)
  emu --topology netlist-tree --traffic uniform
      a network drawn by hand: switches, terminals and links listed in the file
  emu sweep --topology grid8 --traffic uniform --load 0.05:0.6:0.05 --csv grid8.csv
      load sweep in parallel: throughput/delay table, saturation point, CSV
  emu check --topology torus8-single
      static deadlock check: prove the routing's channel dependencies acyclic, or print a cycle
  emu stress --topology ring4 --buffers small --out deadlock.toml
      search many seeds and patterns for a deadlock; shrink it to a rerunnable traffic file

Exit codes: 0 ok, 1 other failure, 2 bad input, 3 deadlock, 4 flow-control violation.";

/// Emulates DS-Link / IMS C104 / T9000 interconnection networks, token by token.
#[derive(Parser, Debug)]
#[command(name = "emu", version, about, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the shipped topologies and traffic files.
    List,
    /// Reproduce the chapter 6 models (000 §6.1-6.3) and chapter 7 networks (002 §7.6-7.7) by emulation: emu reproduce --list.
    Reproduce(emu::reproduce::cli::ReproduceArgs),
    /// Load sweep: throughput and delay against offered load, runs spread over the cores.
    #[command(after_help = emu::sweep::cli::EXAMPLES)]
    Sweep(emu::sweep::cli::SweepArgs),
    /// Static deadlock check: the channel dependency graph of the routing, acyclic or a cycle.
    #[command(after_help = emu::deadlock::check_cli::EXAMPLES)]
    Check(emu::deadlock::check_cli::CheckArgs),
    /// Deadlock search: many seeds and traffic patterns at saturation, the first
    /// deadlock shrunk to a small traffic file.
    #[command(after_help = emu::deadlock::stress::cli::EXAMPLES)]
    Stress(emu::deadlock::stress::cli::StressArgs),
}

#[derive(Args, Debug)]
struct RunArgs {
    /// Topology file, or the name of a shipped one (e.g. hypercube8.toml, hypercube6).
    #[arg(long, short = 't')]
    topology: Option<String>,
    /// Traffic file, or the name of a shipped one (e.g. shuffle, uniform).
    #[arg(long, short = 'p')]
    traffic: Option<String>,
    /// Run seed: the same seed gives the same result, byte for byte.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: the number of cores). Results never depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Engine: sharded (one worker per core, each stepping a partition of the nodes;
    /// the fast one) or actors (one tokio task per node). Results never depend on it.
    #[arg(long, value_enum, default_value_t = EngineKind::Sharded)]
    engine: EngineKind,
    /// Run the case with every engine (sharded and actors, on --threads and on one
    /// thread) and check that the reports are byte-identical; exit 1 if not.
    #[arg(long)]
    verify_engines: bool,
    /// Override a field: section.key=value (prefix topology. or traffic. if ambiguous).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Write the full report as JSON to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<std::path::PathBuf>,
    /// Check the credit invariant of every link at every barrier (slower).
    #[arg(long)]
    check: bool,
    /// Report a deadlock when no token has moved for this long while packets are in
    /// flight (default: ten packet times, at least 20 µs).
    #[arg(long, value_name = "MICROSECONDS")]
    deadlock_window_us: Option<f64>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Some(Command::List) => list(),
        Some(Command::Reproduce(a)) => emu::reproduce::cli::main(&a),
        Some(Command::Sweep(a)) => emu::sweep::cli::main(&a),
        Some(Command::Check(a)) => emu::deadlock::check_cli::main(&a),
        Some(Command::Stress(a)) => emu::deadlock::stress::cli::main(&a),
        None => run(&cli.run),
    };
    ExitCode::from(code)
}

fn list() -> u8 {
    let shipped = config::list_shipped();
    let width = shipped.iter().map(|e| e.name.len()).max().unwrap_or(0);
    let mut text = String::new();
    for kind in [FileKind::Topology, FileKind::Traffic] {
        text.push_str(if kind == FileKind::Topology {
            "topologies:\n"
        } else {
            "traffic:\n"
        });
        for e in shipped.iter().filter(|e| e.kind == kind) {
            text.push_str(&format!("  {:<width$}  {}\n", e.name, e.description));
        }
    }
    emit(&text);
    0
}

/// Writes `text` to stdout. A reader that went away (`emu list | head`) is not an
/// error worth a panic: the output is simply cut short.
fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

fn fail(code: u8, msg: impl std::fmt::Display) -> u8 {
    eprintln!("error: {msg}");
    code
}

fn run(a: &RunArgs) -> u8 {
    let (Some(topology), Some(traffic)) = (&a.topology, &a.traffic) else {
        return fail(
            2,
            "give --topology and --traffic (see emu --help; emu list shows the shipped files)",
        );
    };
    let case = match Case::load(topology, traffic, &a.sets, a.seed) {
        Ok(c) => c,
        Err(e) => return fail(2, e),
    };
    let net = &case.net;
    let mut ctl = case.control();
    ctl.check = a.check;
    if let Some(us) = a.deadlock_window_us {
        if !(us.is_finite() && us > 0.0) {
            return fail(
                2,
                format!("--deadlock-window-us {us}: give a positive number of microseconds"),
            );
        }
        ctl.deadlock_window = (us * 1000.0 / net.time.tick_ns).ceil() as u64;
    }
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return fail(2, "--threads 0: give at least one thread");
    }
    if a.verify_engines {
        return verify_engines(&case, &ctl, threads, a);
    }
    let mut progress = if a.quiet {
        Progress::disabled()
    } else {
        Progress::new(ctl.end_after, net.time.tick_ns)
    };
    let mut on_progress = |t: u64, act: &emu::model::Activity| progress.update(t, act);
    let wall = Instant::now();
    let result = execute(a.engine, threads, net, &ctl, Some(&mut on_progress));
    progress.finish();
    let wall_seconds = wall.elapsed().as_secs_f64();
    let outcome = match result {
        Ok(o) => o,
        Err(e) => return engine_failure(&e, net, a, &case.topology, &case.traffic),
    };
    let report = case.report(&outcome);
    emit(&report.render_text(&RunInfo {
        engine: engine_name(a.engine).into(),
        threads,
        wall_seconds,
    }));
    if let Some(path) = &a.json
        && let Err(e) = std::fs::write(path, report.to_json())
    {
        return fail(1, format!("cannot write {}: {e}", path.display()));
    }
    0
}

fn engine_name(e: EngineKind) -> &'static str {
    match e {
        EngineKind::Sharded => "sharded",
        EngineKind::Actors => "actors",
    }
}

fn execute(
    engine: EngineKind,
    threads: usize,
    net: &Network,
    ctl: &RunControl,
    progress: Option<engine::ProgressFn>,
) -> Result<engine::RunOutcome, EngineError> {
    match engine {
        EngineKind::Sharded => engine::sharded::run(net, ctl, threads, progress),
        EngineKind::Actors => engine::actors::run(net, ctl, threads, progress),
    }
}

/// `--verify-engines`: runs the case on every engine and thread count and compares the
/// JSON reports (or, for a failed run, the error and what every stuck node waits for)
/// byte for byte.
fn verify_engines(case: &Case, ctl: &RunControl, threads: usize, a: &RunArgs) -> u8 {
    let net = &case.net;
    let mut cases = vec![
        (EngineKind::Sharded, threads),
        (EngineKind::Actors, threads),
    ];
    if threads != 1 {
        cases.extend([(EngineKind::Sharded, 1), (EngineKind::Actors, 1)]);
    }
    let mut results: Vec<(String, String)> = Vec::new();
    for (engine, t) in cases {
        let label = format!(
            "{} on {t} thread{}",
            engine_name(engine),
            if t == 1 { "" } else { "s" }
        );
        let wall = Instant::now();
        let text = match execute(engine, t, net, ctl, None) {
            Ok(o) => case.report(&o).to_json(),
            Err(e) => failure_text(&e),
        };
        eprintln!(
            "{label}: {:.2} s, {} bytes of report",
            wall.elapsed().as_secs_f64(),
            text.len()
        );
        results.push((label, text));
    }
    let (ref_label, reference) = &results[0];
    let mut same = true;
    for (label, text) in &results[1..] {
        if text != reference {
            same = false;
            let line = reference
                .lines()
                .zip(text.lines())
                .position(|(x, y)| x != y)
                .unwrap_or_else(|| reference.lines().count().min(text.lines().count()));
            println!(
                "DIFFER: {label} and {ref_label} first differ at line {}:",
                line + 1
            );
            println!(
                "  {ref_label}: {}",
                reference.lines().nth(line).unwrap_or("(end)")
            );
            println!("  {label}: {}", text.lines().nth(line).unwrap_or("(end)"));
        }
    }
    if same {
        let names: Vec<&str> = results.iter().map(|(l, _)| l.as_str()).collect();
        println!(
            "engines agree: {} gave byte-identical results ({} bytes)",
            names.join(", "),
            reference.len()
        );
        if let Some(path) = &a.json
            && let Err(e) = std::fs::write(path, reference)
        {
            return fail(1, format!("cannot write {}: {e}", path.display()));
        }
        0
    } else {
        1
    }
}

/// A failed run as text: the error, and what every stuck node waits for.
fn failure_text(e: &EngineError) -> String {
    let mut s = format!("{e}\n");
    if let EngineError::Deadlock { stuck, cycle, .. } = e {
        for line in cycle
            .as_deref()
            .map(deadlock::waitfor::render)
            .unwrap_or_default()
        {
            s.push_str(&format!("{line}\n"));
        }
        for n in stuck {
            for w in &n.waits {
                s.push_str(&format!("{} {w}\n", n.name));
            }
        }
    }
    s
}

fn engine_failure(
    e: &EngineError,
    net: &Network,
    a: &RunArgs,
    topo: &Loaded<TopologyConfig>,
    traf: &Loaded<TrafficConfig>,
) -> u8 {
    let code = e.exit_code() as u8;
    let us = |t: u64| net.time.ticks_to_us(t as f64);
    let repro = reproduce_line(a, topo, traf);
    match e {
        EngineError::Deadlock {
            partial,
            tick,
            since,
            in_flight,
            stuck,
            cycle,
        } => {
            if *partial {
                eprintln!(
                    "error: partial deadlock at the end of the run, tick {tick} ({:.3} µs): of the {in_flight} \
                     packets in flight, some are in a wait-for cycle that no credit can ever break, \
                     while the rest of the network kept moving",
                    us(*tick)
                );
            } else {
                eprintln!(
                    "error: deadlock at tick {tick} ({:.3} µs): no token has moved since tick {since} ({:.3} µs), \
                     with {in_flight} packets in flight",
                    us(*tick),
                    us(*since)
                );
            }
            match cycle {
                Some(c) => {
                    let links = deadlock::waitfor::channels(c).len();
                    eprintln!(
                        "wait-for cycle ({} places, {links} link{}), each waiting for the next:",
                        c.len(),
                        if links == 1 { "" } else { "s" }
                    );
                    for line in deadlock::waitfor::render(c) {
                        eprintln!("  {line}");
                    }
                    if let Some(first) = c.first() {
                        eprintln!("  … which is where the cycle started ({})", first.node_name);
                    }
                }
                None => eprintln!(
                    "no wait-for cycle among the stuck nodes (a packet waits for something outside them)"
                ),
            }
            eprintln!("stuck nodes ({}):", stuck.len());
            for s in stuck {
                for w in &s.waits {
                    eprintln!("  {} {w}", s.name);
                }
            }
            eprintln!("reproduce with: {repro}");
            if let Some(path) = &a.json {
                let doc = serde_json::json!({
                    "schema": 1,
                    "emu_version": env!("CARGO_PKG_VERSION"),
                    "outcome": if *partial { "partial_deadlock" } else { "deadlock" },
                    "seed": a.seed,
                    "tick": tick,
                    "tick_ns": net.time.tick_ns,
                    "last_move_tick": since,
                    "packets_in_flight": in_flight,
                    "reproduce": repro,
                    "cycle": cycle,
                    "cycle_text": cycle.as_deref().map(deadlock::waitfor::render),
                    "stuck": stuck.iter().map(|s| serde_json::json!({
                        "node": s.name,
                        "waits": s.waits.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                });
                let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
                if let Err(err) = std::fs::write(path, text + "\n") {
                    eprintln!("error: cannot write {}: {err}", path.display());
                }
            }
        }
        other => {
            eprintln!("error: {other}");
            if code == 4 {
                let check = if a.check { "" } else { " --check" };
                eprintln!("reproduce with: {repro}{check}");
            }
        }
    }
    code
}

/// The command line that reproduces this run: everything that affects the result.
fn reproduce_line(
    a: &RunArgs,
    topo: &Loaded<TopologyConfig>,
    traf: &Loaded<TrafficConfig>,
) -> String {
    let mut args: Vec<String> = vec![
        "emu".into(),
        "--topology".into(),
        topo.file.name.clone(),
        "--traffic".into(),
        traf.file.name.clone(),
        "--seed".into(),
        a.seed.to_string(),
    ];
    for s in &a.sets {
        args.push("--set".into());
        args.push(s.clone());
    }
    if let Some(us) = a.deadlock_window_us {
        args.extend(["--deadlock-window-us".into(), us.to_string()]);
    }
    if a.check {
        args.push("--check".into());
    }
    args.iter()
        .map(|s| shell_quote(s))
        .collect::<Vec<_>>()
        .join(" ")
}
