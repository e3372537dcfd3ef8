//! `emu` command line: argument parsing, exit codes and printing only (the
//! subcommands are in [`cli`]).

mod alloc;
#[macro_use]
mod cli;

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

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
  emu -t hypercube8 -p bitrev --report run.html
      the report, its pictures and a sortable per-terminal table on one offline HTML page
  emu -t hypercube6 -p uniform --trace t.json --trace-window 100:110
      every packet's hops from 100 to 110 µs as a timeline for Perfetto UI or chrome://tracing
  emu -t hypercube6 -p uniform --vcd link.vcd --watch 'c104[0]:6'
      one DS-Link's D and S wires bit by bit, with token kinds and credit, for GTKWave
  emu -t torus4-single -p torus4-ring --plot pictures
      a deadlock, drawn: pictures/deadlock.svg shows the wait-for cycle on the torus
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
  emu -t fabric16-cicq-lof -p bernoulli98 --set network.memory=16 --replications 10 --compare network.strategy=fifo
      two credit return strategies on the same ten seeds: each figure's paired difference, 90 % interval
  emu sweep --topology grid8 --traffic uniform --load 0.05:0.6:0.05 --csv grid8.csv
      load sweep in parallel: throughput/delay table, saturation point, CSV
  emu sweep -t hypercube8 -p uniform --load 0.1:0.9:0.1 --replications 5 --plot curve.svg
      five seeds per load: 90 % confidence intervals, and the load-latency curve as SVG
  emu check --topology torus8-single
      static deadlock check: prove the routing's channel dependencies acyclic, or print a cycle
  emu stress --topology ring4 --buffers small --out deadlock.toml
      search many seeds and patterns for a deadlock; shrink it to a rerunnable traffic file

Exit codes: 0 ok, 1 other failure, 2 bad input, 3 deadlock, 4 flow-control violation,
5 blocked by a link fault.";

/// Emulates DS-Link / IMS C104 / T9000 interconnection networks, token by token.
#[derive(Parser, Debug)]
#[command(
    name = "emu",
    version,
    about,
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true,
    allow_negative_numbers = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: cli::run::RunArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the shipped topologies and traffic files.
    List,
    #[command(allow_negative_numbers = true)]
    /// Reproduce the source documents' published results by emulation (INMOS ch. 6-7, the SCI ring paper, Gramsamer's switch fabrics): emu reproduce --list.
    Reproduce(cli::reproduce::ReproduceArgs),
    /// Load sweep: throughput and delay against offered load, runs spread over the cores.
    #[command(after_help = cli::sweep::EXAMPLES, allow_negative_numbers = true)]
    Sweep(cli::sweep::SweepArgs),
    /// Combine the shards of a sweep, a reproduction or a stress search (`--shard K/N`) into what one process prints and writes.
    #[command(after_help = cli::merge::EXAMPLES, allow_negative_numbers = true)]
    Merge(cli::merge::MergeArgs),
    /// Static deadlock check: the channel dependency graph of the routing, acyclic or a cycle.
    #[command(after_help = cli::check::EXAMPLES, allow_negative_numbers = true)]
    Check(cli::check::CheckArgs),
    /// Deadlock search: many seeds and traffic patterns at saturation, the first
    /// deadlock shrunk to a small traffic file.
    #[command(after_help = cli::stress::EXAMPLES, allow_negative_numbers = true)]
    Stress(cli::stress::StressArgs),
}

/// The command line, or the exit code of a bad one: clap's message cut to its first
/// line (bad input is one line; exit codes as the guide's "Getting started" lists
/// them), `--help` and `--version` as clap prints them.
fn parse() -> Result<Cli, cli::Exit> {
    use clap::error::ErrorKind;
    match Cli::try_parse() {
        Ok(cli) => Ok(cli),
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            // Help and version go to standard output through the same accounting as
            // every other write: `emu --help > /dev/full` is exit 1, not 0.
            cli::emit(&e.render().to_string());
            Err(cli::Exit::Ok)
        }
        Err(e) => {
            note!(
                "{} (see emu --help)",
                emu::config::plain::plain(&one_line(&e.to_string()))
            );
            Err(cli::Exit::BadInput)
        }
    }
}

/// clap's message on one line: its first line; the arguments it lists under a first
/// line ending in a colon ("the following required arguments were not provided:");
/// its list of possible values and its tip, if any. Usage and help hints are dropped.
fn one_line(text: &str) -> String {
    let mut lines = text.lines();
    let mut message = lines
        .next()
        .unwrap_or("error: bad arguments")
        .trim()
        .to_string();
    if message.ends_with(':') {
        let listed: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.trim().is_empty())
            .map(str::trim)
            .collect();
        message.push(' ');
        message.push_str(&listed.join(", "));
    }
    for extra in lines
        .map(str::trim)
        .filter(|l| l.starts_with("[possible values") || l.starts_with("tip:"))
    {
        message.push(' ');
        message.push_str(extra);
    }
    message
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(args) => args,
        Err(code) => return cli::streams::finish(code).into(),
    };
    let code = match args.command {
        Some(Command::List) => cli::list::list(),
        Some(Command::Reproduce(a)) => cli::reproduce::main(&a),
        Some(Command::Sweep(a)) => cli::sweep::main(&a),
        Some(Command::Merge(a)) => cli::merge::main(&a),
        Some(Command::Check(a)) => cli::check::main(&a),
        Some(Command::Stress(a)) => cli::stress::main(&a),
        None => cli::run::run(&args.run),
    };
    cli::streams::finish(code).into()
}
