//! `emu check`: proves a topology's routing deadlock-free from its channel dependency
//! graph, or prints one cycle of channels (docs/architecture.md "Deadlock"; issue 6
//! part 2). Exit 0 for no cycle, 3 for a cycle, 2 for bad input (one line naming the
//! flag or key), 1 if the routing tables cannot be followed or the network is too
//! large for the analysis.

use super::fail;
use emu::deadlock::check::CheckReport;
use emu::session::{CaseError, topology_plan};
use std::path::PathBuf;

/// Examples shown by `emu check --help`.
pub const EXAMPLES: &str = "\
Examples:
  emu check --topology hypercube6
      e-cube routing: deadlock-free (exit 0)
  emu check --topology torus4-single
      dimension order with single wrap links: prints a cycle of channels (exit 3)
  emu check -t hypercube6-universal --set network.link_sets=1 --json cdg.json
      universal routing forced onto one link set, result also written as JSON

A channel is a link direction; c1 depends on c2 when a packet arriving on c1 can be
routed out on c2 (interval tables, header deletion, random headers and groups
followed as the C104 does). No cycle means no deadlock. A cycle means packets can
hold its channels while each waits for the next: rerun with emu --topology T and a
traffic that loads it (e.g. emu -t torus4-single -p torus4-ring) to see it happen.

An SCI ring (kind = \"sci_ring\") cannot deadlock: emu check says so and exits 0.

Exit codes: 0 deadlock-free, 1 other failure, 2 bad input, 3 cycle found.";

/// Arguments of `emu check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Topology file, or the name of a shipped one (e.g. hypercube6, torus8-single).
    #[arg(long, short = 't')]
    pub topology: String,
    /// Override a topology field: section.key=value (as for a run; traffic keys do
    /// not apply).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Also write the result (counts and the cycle) as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// Runs `emu check`; returns the process exit code.
pub fn main(a: &CheckArgs) -> u8 {
    if let Err(code) = super::check_output_file("--json", a.json.as_deref()) {
        return code;
    }
    let net = match topology_plan(&a.topology, &a.sets) {
        Ok(n) => n,
        Err(e @ CaseError::CannotDeadlock { .. }) => {
            say!("{e}");
            return 0;
        }
        Err(e) => return fail(2, e),
    };
    let report = match CheckReport::of(&net) {
        Ok(r) => r,
        Err(e) => return fail(1, format!("{}: {e}", net.name())),
    };
    print!("{}", report.render_text());
    if let Some(path) = &a.json
        && let Err(e) = std::fs::write(path, report.to_json())
    {
        return fail(1, format!("cannot write {}: {e}", path.display()));
    }
    report.exit_code()
}
