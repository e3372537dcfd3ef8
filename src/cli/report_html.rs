//! `--report FILE.html`: one self-contained page of a run (or of its failure), a sweep
//! or a reproduction, built by [`emu::html`] and written here.

use super::exit::Exit;
use super::fail;
use super::run::RunArgs;
use emu::engine::{EngineError, RunOutcome};
use emu::html::{RunHeader, failure_page, run_page};
use emu::model::LinkProtocol;
use emu::session::{Case, shell_quote, stem};
use std::path::Path;

/// The command line this process was started with, as a shell would take it back,
/// the program named `emu`.
pub fn invocation() -> String {
    command_line(std::env::args().skip(1))
}

/// `emu` and `args`, as a shell would take them back.
pub fn command_line(args: impl IntoIterator<Item = String>) -> String {
    std::iter::once("emu".to_string())
        .chain(args)
        .map(|s| shell_quote(&s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes the page to `path`; a file that cannot be written is printed and
/// [`Exit::Failure`].
pub fn write(path: &Path, html: &str) -> Result<(), Exit> {
    super::output::write(path, html).map_err(|e| {
        fail(
            Exit::Failure,
            format!("--report: cannot write {}: {e}", path.display()),
        )
    })
}

/// The page's header of a run of `case`: nothing of the engine or its threads, which
/// never change a result, so that the page is the same bytes whichever ran it.
fn header<P: LinkProtocol>(a: &RunArgs, case: &Case<P>) -> RunHeader {
    RunHeader {
        emu_version: env!("CARGO_PKG_VERSION").into(),
        command: super::failure::reproduce_line(a, &case.topology, &case.traffic),
        topology: stem(&case.topology.file.name),
        traffic: stem(&case.traffic.file.name),
        seed: a.case.runs.seed,
    }
}

/// Writes the page of a finished run: its report and the pictures `--plot` draws.
pub fn run<P: LinkProtocol>(
    path: &Path,
    a: &RunArgs,
    case: &Case<P>,
    report: &emu::stats::Report,
    outcome: &RunOutcome,
) -> Result<(), Exit> {
    let plots =
        emu::plot::run::run_plots(report, outcome, case.family.latency_metrics(), &case.net)
            .map_err(|e| fail(Exit::Failure, e))?;
    write(path, &run_page(&header(a, case), report, &plots))
}

/// Writes the page of a run that failed with `e` (the exit code stays the failure's:
/// a page that cannot be written is only printed).
pub fn failure<P: LinkProtocol>(path: &Path, a: &RunArgs, case: &Case<P>, e: &EngineError) {
    let repro = super::failure::reproduce_line(a, &case.topology, &case.traffic);
    let text = super::failure::failure_text(e, &case.net, &repro);
    let deadlock_svg = super::draw::deadlock_picture(&case.net, &case.traffic.file.name, e);
    let _ = write(path, &failure_page(&header(a, case), &text, deadlock_svg));
}
