//! `emu check`: proves a topology's routing deadlock-free from its channel dependency
//! graph, or prints one cycle of channels (../shared/DESIGN.md "Deadlock"; issue 6
//! part 2). Exit 0 for no cycle, 3 for a cycle, 2 for bad input (one line naming the
//! flag or key), 1 if the routing tables cannot be followed or the network is too
//! large for the analysis.

use super::cdg::{Cdg, Channel, Witness};
use crate::config::{self, FileKind, TrafficConfig, overrides::parse_sets};
use crate::network::{self, Network};
use crate::session::stem;
use serde::Serialize;
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

/// One channel of a printed cycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CycleChannel {
    /// Channel index (link direction, [`Network::directions`] order).
    pub channel: Channel,
    /// Sending node and port.
    pub from_node: String,
    /// Sending port.
    pub from_port: usize,
    /// Receiving node.
    pub to_node: String,
    /// Receiving port.
    pub to_port: usize,
    /// The header with which a packet on this channel is routed to the next one.
    pub then: Witness,
}

/// The result of `emu check` on one topology.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// Topology name (file stem).
    pub topology: String,
    /// Terminals.
    pub terminals: usize,
    /// Switches.
    pub switches: usize,
    /// Channels (link directions) in the graph.
    pub channels: usize,
    /// Dependencies (edges).
    pub dependencies: usize,
    /// One cycle of channels, each depending on the next and the last on the first;
    /// `None` if the graph is acyclic.
    pub cycle: Option<Vec<CycleChannel>>,
}

impl CheckReport {
    /// Builds the dependency graph of `net` and looks for a cycle.
    pub fn of(net: &Network) -> Result<CheckReport, super::cdg::CdgError> {
        let g = Cdg::build(net)?;
        let cycle = g.find_cycle().map(|cycle| {
            cycle
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    let next = cycle[(i + 1) % cycle.len()];
                    let d = &g.channels[c];
                    let then = g
                        .successors(c)
                        .iter()
                        .find(|&&(n, _)| n == next)
                        .map(|&(_, w)| w)
                        .unwrap_or(Witness {
                            label: 0,
                            random: false,
                        });
                    CycleChannel {
                        channel: c,
                        from_node: net.nodes[d.from.node].name.clone(),
                        from_port: d.from.port,
                        to_node: net.nodes[d.to.node].name.clone(),
                        to_port: d.to.port,
                        then,
                    }
                })
                .collect()
        });
        Ok(CheckReport {
            topology: net.name.clone(),
            terminals: net.terminal_count(),
            switches: net.switches,
            channels: g.channels.len(),
            dependencies: g.dependencies(),
            cycle,
        })
    }

    /// The exit code: 0 deadlock-free, 3 a cycle.
    pub fn exit_code(&self) -> u8 {
        if self.cycle.is_some() { 3 } else { 0 }
    }

    /// The human summary printed on stdout.
    pub fn render_text(&self) -> String {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "es" });
        let mut s = format!(
            "topology    {} ({} terminals, {})\n",
            self.topology,
            self.terminals,
            plural(self.switches, "switch")
        );
        match &self.cycle {
            None => s.push_str(&format!(
                "deadlock-free: CDG has {} channels, {} dependencies, no cycle\n",
                self.channels, self.dependencies
            )),
            Some(cycle) => {
                s.push_str(&format!(
                    "deadlock possible: the routing has a cycle of {} channel{}:\n",
                    cycle.len(),
                    if cycle.len() == 1 { "" } else { "s" }
                ));
                let width = cycle
                    .iter()
                    .map(|c| channel_text(c).chars().count())
                    .max()
                    .unwrap_or(0);
                for (i, c) in cycle.iter().enumerate() {
                    let header = if c.then.random {
                        format!("a packet with random header {}", c.then.label)
                    } else {
                        format!("a packet for terminal {}", c.then.label)
                    };
                    let last = if i + 1 == cycle.len() {
                        " the first"
                    } else {
                        ""
                    };
                    s.push_str(&format!(
                        "  {:<width$}   {header} there waits for{last}\n",
                        channel_text(c)
                    ));
                }
                s.push_str(&format!(
                    "CDG has {} channels, {} dependencies\n",
                    self.channels, self.dependencies
                ));
            }
        }
        s
    }

    /// The JSON document written by `--json`.
    pub fn to_json(&self) -> String {
        let doc = serde_json::json!({
            "schema": 1,
            "emu_version": env!("CARGO_PKG_VERSION"),
            "deadlock_free": self.cycle.is_none(),
            "check": self,
        });
        serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
    }
}

fn channel_text(c: &CycleChannel) -> String {
    format!(
        "{} port {} → {} port {}",
        c.from_node, c.from_port, c.to_node, c.to_port
    )
}

/// Loads topology `spec` with topology `--set` overrides and builds its plan (with a
/// placeholder traffic: the routing does not depend on it). Errors are one line
/// naming the file, line and key, or the `--set` (exit 2).
pub fn load(spec: &str, sets: &[String]) -> Result<Network, String> {
    let parsed = parse_sets(sets).map_err(|e| e.to_string())?;
    if let Some(o) = parsed.iter().find(|o| o.kind == FileKind::Traffic) {
        return Err(format!(
            "--set {}: emu check reads only the topology; traffic keys do not apply",
            o.text
        ));
    }
    let topo = config::load_topology(spec, sets).map_err(|e| e.to_string())?;
    let traffic = TrafficConfig {
        description: String::new(),
        pattern: config::traffic::PatternConfig::Uniform,
        injection: config::traffic::InjectionConfig::Continuous,
        message: Default::default(),
        phases: Default::default(),
        terminals: Default::default(),
    };
    network::build(&stem(&topo.file.name), &topo.config, &traffic, 1)
        .map_err(|e| format!("{}: {}", topo.locate(&e.key), e.message))
}

/// Runs `emu check`; returns the process exit code.
pub fn main(a: &CheckArgs) -> u8 {
    let net = match load(&a.topology, &a.sets) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let report = match CheckReport::of(&net) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}: {e}", net.name);
            return 1;
        }
    };
    print!("{}", report.render_text());
    if let Some(path) = &a.json
        && let Err(e) = std::fs::write(path, report.to_json())
    {
        eprintln!("error: cannot write {}: {e}", path.display());
        return 1;
    }
    report.exit_code()
}
