//! `emu merge`: puts the shards of a sweep (`emu sweep --shard K/N`, or the lines of a
//! `--plan`), of a reproduction (`emu reproduce --shard`) or of a stress search (`emu
//! stress --shard`) back together and prints exactly what the single process prints.
//! The kind comes from the shards' headers; shards of different kinds are refused.

use super::exit::Exit;
use super::fail;
use super::sweep::{OutputArgs, finish};
use emu::config::input;
use emu::reproduce::fabric::memo::{self, Memo};
use emu::shard::{Kind, kind_of};
use emu::sweep::merge;
use std::path::PathBuf;
use std::sync::Arc;

/// Examples shown by `emu merge --help`.
pub const EXAMPLES: &str = "\
Examples:
  emu merge part1.jsonl part2.jsonl part3.jsonl part4.jsonl --csv runs.csv --plot curve.svg
  parallel < jobs.txt > runs.jsonl && emu merge runs.jsonl
  emu merge - < runs.jsonl
  emu merge repro1.jsonl repro2.jsonl --json results.json --report repro.html
  emu merge stress1.jsonl stress2.jsonl --out deadlock.toml --json stress.json

Files may come in any order and may each hold several shards; a run given twice with
the same result counts once. Shards of different jobs (a sweep's with a stress
search's), of different commands, missing runs and conflicting results are errors
(exit 2). Otherwise the exit code is the single process's: a reproduction with a
failed row exits 1, a stress search that found a deadlock 3.";

/// Arguments of `emu merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// Shard files written by `emu sweep --shard`, `emu reproduce --shard` or `emu
    /// stress --shard` (or `-` for stdin).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// The files to write, as for `emu sweep` (a reproduction: --json and --report; a
    /// stress search: --json, and --plot DIR for the deadlock's picture).
    #[command(flatten)]
    pub outputs: OutputArgs,
    /// A stress search's shrunk deadlocking traffic file, as `emu stress --out` writes.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// A stress search: one line per case searched, as `emu stress -v` prints.
    #[arg(long, short = 'v')]
    pub verbose: bool,
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
    // Every output but --plot (a file for a sweep, a directory for a stress search)
    // is checked before the shards are read.
    let o = &a.outputs;
    if let Err(code) = super::output::Outputs::new()
        .file("--csv", o.csv.as_deref())
        .file("--table-csv", o.table_csv.as_deref())
        .file("--report", o.report.as_deref())
        .file("--json", o.output.json.as_deref())
        .file("--out", a.out.as_deref())
        .inputs(shards)
        .check()
    {
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
    let kind = match kind_of(&texts) {
        Ok(k) => k.unwrap_or(Kind::Sweep),
        Err(e) => return fail(Exit::BadInput, e),
    };
    if let Some(flag) = not_for(kind, a) {
        return fail(
            Exit::BadInput,
            format!(
                "{flag}: a {} merge does not write it ({})",
                kind.name(),
                match kind {
                    Kind::Sweep => "a sweep's: --csv, --table-csv, --plot, --report, --json",
                    Kind::Reproduce => "a reproduction's: --json, --report",
                    Kind::Stress => "a stress search's: --out, --json, --plot DIR, -v",
                }
            ),
        );
    }
    // Now with --plot, against the others too.
    let outputs = if kind == Kind::Stress {
        // A stress search draws its deadlock into a directory, as `emu stress --plot`.
        super::output::Outputs::new()
            .file("--json", o.output.json.as_deref())
            .file("--out", a.out.as_deref())
            .dir("--plot", o.plot.as_deref())
    } else {
        super::sweep::outputs(o).file("--out", a.out.as_deref())
    };
    if let Err(code) = outputs.check() {
        return code;
    }
    match kind {
        Kind::Sweep => {
            let merged = match merge(&texts) {
                Ok(m) => m,
                Err(e) => return fail(Exit::BadInput, e),
            };
            finish(&merged.header, &merged.points, &a.outputs)
        }
        Kind::Reproduce => {
            // The grids' points read back are kept in a memo, for what follows a grid
            // to take rather than run again (fabric-memory's §7.6.2 claim).
            let memo = Arc::new(Memo::default());
            let merged = match memo::remembering(&memo, || emu::shard::reproduce::merge(&texts)) {
                Ok(m) => m,
                Err(e) => return fail(Exit::BadInput, e),
            };
            super::reproduce::note_merge_reused(&merged.reused);
            let (json, report) = (
                a.outputs.output.json.as_deref(),
                a.outputs.report.as_deref(),
            );
            let command = super::reproduce::merged_command(&merged.header, json, report);
            super::reproduce::finish(&merged.outcomes, json, report, &command, true)
        }
        Kind::Stress => super::stress::merge(a, &texts),
    }
}

/// The first flag given that a merge of `kind` does not take.
fn not_for(kind: Kind, a: &MergeArgs) -> Option<&'static str> {
    let o = &a.outputs;
    let given = [
        ("--csv", o.csv.is_some()),
        ("--table-csv", o.table_csv.is_some()),
        ("--plot", o.plot.is_some()),
        ("--report", o.report.is_some()),
        ("--json", o.output.json.is_some()),
        ("--out", a.out.is_some()),
        ("-v", a.verbose),
    ];
    let takes: &[&str] = match kind {
        Kind::Sweep => &["--csv", "--table-csv", "--plot", "--report", "--json"],
        Kind::Reproduce => &["--report", "--json"],
        Kind::Stress => &["--plot", "--json", "--out", "-v"],
    };
    given
        .iter()
        .find(|(flag, on)| *on && !takes.contains(flag))
        .map(|(flag, _)| *flag)
}

/// `words` quoted for a shell and joined by spaces: one command line.
pub fn shell_line(words: &[String]) -> String {
    words
        .iter()
        .map(|s| emu::session::shell_quote(s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes a job list to `plan`: the command `words` once per shard, `--shard 1/N` to
/// `--shard N/N`, and says so on stderr, naming the `units` (experiments, cases, runs)
/// and the file a scheduler could gather them in (`gathered`).
pub fn write_shard_plan(
    plan: &std::path::Path,
    words: &[String],
    n: usize,
    units: &str,
    gathered: &str,
) -> Exit {
    let line = shell_line(words);
    let text: String = (1..=n)
        .map(|i| format!("{line} --shard {i}/{n}\n"))
        .collect();
    if let Err(code) = super::output::write_or_fail(plan, text) {
        return code;
    }
    note!(
        "{n} {units} written to {}: run them (e.g. `parallel < {0} > {gathered}`), then `emu merge {gathered}`",
        super::output::shown(plan)
    );
    Exit::Ok
}
