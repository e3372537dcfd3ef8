//! `emu check`: proves a topology's routing deadlock-free from its channel dependency
//! graph, or prints one cycle of channels (docs/architecture.md "Deadlock"). Exit 0 for no cycle, 3 for a cycle, 2 for bad input (one line naming the
//! flag or key), 1 if the routing tables cannot be followed or the network is too
//! large for the analysis.

use super::args::{JsonArg, NetworkArgs};
use super::exit::Exit;
use super::fail;
use emu::deadlock::check::CheckReport;
use emu::session::{CheckPlan, Impossible, check_plan};

/// Examples shown by `emu check --help`.
pub const EXAMPLES: &str = "\
Examples:
  emu check --topology hypercube6
      e-cube routing: deadlock-free (exit 0)
  emu check --topology torus4-single
      dimension order with single wrap links: prints a cycle of channels (exit 3)
  emu check -t hypercube6-universal --set network.link_sets=1 --json cdg.json
      universal routing forced onto one link set, result also written as JSON
  emu check -t torus8-single --plot pictures
      the cycle drawn on the torus in pictures/cdg-cycle.svg (exit 3)

A channel is a link direction; c1 depends on c2 when a packet arriving on c1 can be
routed out on c2 (interval tables, header deletion, random headers and groups
followed as the C104 does). No cycle means no deadlock. A cycle means packets can
hold its channels while each waits for the next: rerun with emu --topology T and a
traffic that loads it (e.g. emu -t torus4-single -p torus4-ring) to see it happen.

SCI rings, switch fabrics and relay rings cannot deadlock: emu check validates the
whole topology, says why it cannot deadlock and exits 0 (with --json, the answer too).

Exit codes: 0 deadlock-free, 1 other failure, 2 bad input, 3 cycle found.";

/// Arguments of `emu check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The network (`--set`: topology keys only; traffic keys do not apply).
    #[command(flatten)]
    pub network: NetworkArgs,
    /// `--json FILE`: the answer (counts and the cycle, or why it cannot deadlock).
    #[command(flatten)]
    pub output: JsonArg,
    /// Draw the cycle of channels, if one is found, as SVG in DIR (created if
    /// missing): cdg-cycle.svg, the network in its natural layout with the cycle's
    /// link directions numbered in order. Example: --plot pictures
    #[arg(long, value_name = "DIR")]
    pub plot: Option<std::path::PathBuf>,
}

/// Runs `emu check`; returns the process exit code.
pub fn main(a: &CheckArgs) -> Exit {
    let json = a.output.json.as_deref();
    let checked = super::output::Outputs::new()
        .file("--json", json)
        .dir("--plot", a.plot.as_deref())
        .reading(&a.network, None)
        .check()
        .and_then(|()| Ok((a.network.topology()?, a.network.memory_limit()?)));
    let (topology, memory_limit) = match checked {
        Ok(args) => args,
        Err(code) => return code,
    };
    let net = match check_plan(topology, &a.network.sets, memory_limit) {
        Ok(CheckPlan::Channels(n)) => *n,
        Ok(CheckPlan::Impossible(i)) => return cannot_deadlock(&i, json),
        Ok(other) => return fail(Exit::Failure, format!("no analysis for {other:?}")),
        Err(e) => return fail(Exit::BadInput, e),
    };
    let report = match CheckReport::of(&net) {
        Ok(r) => r,
        Err(e) => return fail(Exit::Failure, format!("{}: {e}", net.name())),
    };
    super::emit(&report.render_text());
    if let Some(path) = json
        && let Err(code) = super::output::write_or_fail(path, report.to_json())
    {
        return code;
    }
    if let (Some(dir), Some(cycle)) = (&a.plot, &report.cycle) {
        let title = format!("channel dependency cycle · {}", net.name());
        if let Err(e) = super::draw::cdg_cycle(dir, &title, &net, cycle) {
            return fail(Exit::Failure, e);
        }
    }
    if report.cycle.is_some() {
        Exit::Deadlock
    } else {
        Exit::Ok
    }
}

/// Prints (and with `--json` writes) the answer for a network that cannot deadlock.
fn cannot_deadlock(i: &Impossible, json: Option<&std::path::Path>) -> Exit {
    super::streams::out(&i.render_text());
    if let Some(path) = json
        && let Err(code) = super::write_json_file(path, &i.to_json_value())
    {
        return code;
    }
    Exit::Ok
}
