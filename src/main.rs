//! `emu` command line: argument parsing, exit codes and printing only.

use clap::{Args, Parser, Subcommand};
use emu::config::{self, FileKind, Loaded, TopologyConfig, TrafficConfig};
use emu::engine::{self, EngineError, EngineKind, RunControl};
use emu::network::{self, Network};
use emu::stats::{Progress, Report, ReportInput, RunInfo};
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
  emu list
      the shipped topologies and traffic files
  emu sweep --topology grid8 --traffic uniform --load 0.05:0.6:0.05 --csv grid8.csv
      load sweep in parallel: throughput/delay table, saturation point, CSV

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
    /// Load sweep: throughput and delay against offered load, runs spread over the cores.
    #[command(after_help = emu::sweep::cli::EXAMPLES)]
    Sweep(emu::sweep::cli::SweepArgs),
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
    /// Worker threads for the actors engine (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Engine: actors (one task per node) or sequential (one loop, the reference).
    #[arg(long, value_enum, default_value_t = EngineKind::Actors)]
    engine: EngineKind,
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
        Some(Command::Sweep(a)) => emu::sweep::cli::main(&a),
        None => run(&cli.run),
    };
    ExitCode::from(code)
}

fn list() -> u8 {
    for kind in [FileKind::Topology, FileKind::Traffic] {
        println!(
            "{}:",
            if kind == FileKind::Topology {
                "topologies"
            } else {
                "traffic"
            }
        );
        for e in config::list_shipped()
            .into_iter()
            .filter(|e| e.kind == kind)
        {
            println!("  {:<16} {}", e.name, e.description);
        }
    }
    0
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
    if let Err(e) = config::validate_sets(&a.sets) {
        return fail(2, e);
    }
    let topo = match config::load_topology(topology, &a.sets) {
        Ok(t) => t,
        Err(e) => return fail(2, e),
    };
    let traf = match config::load_traffic(traffic, &a.sets) {
        Ok(t) => t,
        Err(e) => return fail(2, e),
    };
    let net = match network::build(&stem(&topo.file.name), &topo.config, &traf.config, a.seed) {
        Ok(n) => n,
        Err(e) => {
            let loc = if e.file == "topology" {
                topo.locate(&e.key)
            } else {
                traf.locate(&e.key)
            };
            return fail(2, format!("{loc}: {}", e.message));
        }
    };
    let mut ctl = RunControl {
        end_after: net.run.end_after,
        hard_stop: net.run.hard_stop,
        deadlock_window: net.run.deadlock_window,
        check: a.check,
    };
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
    let mut progress = if a.quiet {
        Progress::disabled()
    } else {
        Progress::new(ctl.end_after, net.time.tick_ns)
    };
    let mut on_progress = |t: u64, act: &emu::model::Activity| progress.update(t, act);
    let wall = Instant::now();
    let result = match a.engine {
        EngineKind::Actors => engine::actors::run(&net, &ctl, threads, Some(&mut on_progress)),
        EngineKind::Sequential => engine::sequential::run(&net, &ctl, Some(&mut on_progress)),
    };
    progress.finish();
    let wall_seconds = wall.elapsed().as_secs_f64();
    let outcome = match result {
        Ok(o) => o,
        Err(e) => return engine_failure(&e, &net, a, &topo, &traf),
    };
    let report = Report::new(&ReportInput {
        topology_name: &stem(&topo.file.name),
        traffic_name: &stem(&traf.file.name),
        topology: &topo.config,
        traffic: &traf.config,
        seed: a.seed,
        terminals: net.terminal_count(),
        switches: net.switches,
        tick_ns: net.time.tick_ns,
        header_time: net.header_time,
        byte_ticks: net.byte_ticks,
        header_bytes: net.header_bytes,
        max_data_bytes: net.max_data_bytes,
        message_bytes: net.message_bytes,
        window: if net.run.batch {
            (net.run.window.0, outcome.end_tick)
        } else {
            net.run.window
        },
        batch: net.run.batch,
        outcome: &outcome,
    });
    let engine_name = match a.engine {
        EngineKind::Actors => "actors",
        EngineKind::Sequential => "sequential",
    };
    let threads_used = if a.engine == EngineKind::Actors {
        threads
    } else {
        1
    };
    print!(
        "{}",
        report.render_text(&RunInfo {
            engine: engine_name.into(),
            threads: threads_used,
            wall_seconds
        })
    );
    let _ = std::io::stdout().flush();
    if let Some(path) = &a.json
        && let Err(e) = std::fs::write(path, report.to_json())
    {
        return fail(1, format!("cannot write {}: {e}", path.display()));
    }
    0
}

fn stem(name: &str) -> String {
    let base = std::path::Path::new(name)
        .file_name()
        .map_or(name.to_string(), |f| f.to_string_lossy().into_owned());
    base.strip_suffix(".toml").unwrap_or(&base).to_string()
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
            tick,
            since,
            in_flight,
            stuck,
        } => {
            eprintln!(
                "error: deadlock at tick {tick} ({:.3} µs): no token has moved since tick {since} ({:.3} µs), \
                 with {in_flight} packets in flight",
                us(*tick),
                us(*since)
            );
            eprintln!("stuck nodes ({}):", stuck.len());
            for s in stuck {
                for w in &s.waits {
                    eprintln!("  {} {w}", s.name);
                }
            }
            eprintln!("reproduce with: {repro}");
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
    if a.engine == EngineKind::Sequential {
        args.extend(["--engine".into(), "sequential".into()]);
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

/// Quotes `s` for a POSIX shell if it needs it.
fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}
