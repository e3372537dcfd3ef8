//! `emu merge`: puts the shards of a sweep (`emu sweep --shard K/N`, or the lines of a
//! `--plan`) back together and prints exactly what the single-process sweep prints.

use super::exit::Exit;
use super::fail;
use super::sweep::{OutputArgs, finish};
use emu::config::input;
use emu::sweep::merge;
use std::path::PathBuf;

/// Examples shown by `emu merge --help`.
pub const EXAMPLES: &str = "\
Examples:
  emu merge part1.jsonl part2.jsonl part3.jsonl part4.jsonl --csv runs.csv --plot curve.svg
  parallel < jobs.txt > runs.jsonl && emu merge runs.jsonl
  emu merge - < runs.jsonl

Files may come in any order and may each hold several shards; a run given twice with
the same result counts once. Shards of different sweeps, missing runs and conflicting
results are errors (exit 2).";

/// Arguments of `emu merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// Shard files written by `emu sweep --shard` (or `-` for stdin).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// The files to write, as for `emu sweep`.
    #[command(flatten)]
    pub outputs: OutputArgs,
    /// Quiet, as for `emu sweep` (a merge shows no progress: it runs nothing), so that
    /// a sweep's flags carry over.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Merges; returns the process exit code.
pub fn main(a: &MergeArgs) -> Exit {
    let shards: Vec<(String, PathBuf)> = a
        .files
        .iter()
        .filter(|f| !super::output::is_stdout(f))
        .map(|f| ("shard file".to_string(), f.clone()))
        .collect();
    if let Err(code) = super::sweep::outputs(&a.outputs).inputs(shards).check() {
        return code;
    }
    let mut texts = Vec::with_capacity(a.files.len());
    for f in &a.files {
        let name = f.display().to_string();
        let text = if name == "-" {
            input::read_stdin(input::SHARD)
        } else {
            input::read_file(f, &name, input::SHARD)
        };
        match text {
            Ok(t) => texts.push((name, t)),
            Err(e) => return fail(Exit::BadInput, e),
        }
    }
    let merged = match merge(&texts) {
        Ok(m) => m,
        Err(e) => return fail(Exit::BadInput, e),
    };
    finish(&merged.header, &merged.points, &a.outputs)
}
