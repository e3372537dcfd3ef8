//! The command line.

use std::path::PathBuf;

use clap::Parser;

/// The extra arguments of every run unless --emu-args replaces them.
pub const DEFAULT_EMU_ARGS: &str = "-q --time-limit 0.25 --memory-limit 4 --threads 1";

/// Mutation testing of emu's input files: every key of every shipped topology and traffic
/// file is changed (wrong type, extreme, empty, deleted, …) and emu is run on each mutant,
/// which must end in time with exit 0, 2, 3 or 5, never panic, and on bad input print one
/// line `error: …` without Rust type names.
#[derive(Debug, Parser)]
#[command(
    name = "emu-mutate",
    version,
    after_help = "Exit codes: 0 no findings, 1 findings, 2 bad usage of this tool."
)]
pub struct Cli {
    /// The emu binary [default: ROOT/target/release/emu]
    #[arg(long, value_name = "PATH")]
    pub emu: Option<PathBuf>,

    /// The checkout whose topologies/*.toml and traffic/*.toml are mutated [default: the
    /// one this tool is in]
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// The arguments of every run after `-t TOPO -p TRAFFIC`, split as a shell would
    #[arg(long, value_name = "ARGS", default_value = DEFAULT_EMU_ARGS, allow_hyphen_values = true)]
    pub emu_args: String,

    /// Runs at once [default: the number of cores]
    #[arg(long, short, value_name = "N")]
    pub jobs: Option<usize>,

    /// Where the mutants with findings are kept, with the report (report.txt) [default:
    /// tools/mutate/out]
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,

    /// The quick form for CI: for every key its deletion, one type change and one extreme,
    /// for every list a repeated element, and every table's unknown key
    #[arg(long)]
    pub quick: bool,

    /// Mutate only these files (names or stems, e.g. hypercube6,sci-uniform); partners are
    /// still chosen among all files
    #[arg(long, value_name = "FILES", value_delimiter = ',')]
    pub only: Vec<String>,

    /// The wall-clock limit of one run, in seconds; a run still going then is killed
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,

    /// Print the mutants (file and change) and their count, and run nothing
    #[arg(long)]
    pub list: bool,
}
