//! The result of `emu check`: a topology's channel dependency graph proved acyclic
//! (the routing is deadlock-free), or one cycle of channels, as text and JSON
//! (docs/architecture.md "Deadlock"). The network comes from
//! [`crate::family::check::check_plan`]; the command-line front end is the binary's.

use super::cdg::{Cdg, Channel, Witness};
use crate::network::Network;
use serde::Serialize;

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
                        from_node: net.nodes()[d.from.node].name.clone(),
                        from_port: d.from.port,
                        to_node: net.nodes()[d.to.node].name.clone(),
                        to_port: d.to.port,
                        then,
                    }
                })
                .collect()
        });
        Ok(CheckReport {
            topology: net.name().to_string(),
            terminals: net.terminal_count(),
            switches: net.switches(),
            channels: g.channels.len(),
            dependencies: g.dependencies(),
            cycle,
        })
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
                    .map(|c| c.channel_text().chars().count())
                    .max()
                    .unwrap_or(0);
                for (i, c) in cycle.iter().enumerate() {
                    s.push_str(&format!(
                        "  {:<width$}   {}\n",
                        c.channel_text(),
                        c.waits_text(i + 1 == cycle.len())
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

impl CycleChannel {
    /// The channel as the cycle names it: `c104[1] port 3 → c104[9] port 4`.
    pub fn channel_text(&self) -> String {
        format!(
            "{} port {} → {} port {}",
            self.from_node, self.from_port, self.to_node, self.to_port
        )
    }

    /// What waits on the channel, for the next one (for the first, if `last`): `a packet
    /// for terminal 5 there waits for`.
    pub fn waits_text(&self, last: bool) -> String {
        let header = if self.then.random {
            format!("a packet with random header {}", self.then.label)
        } else {
            format!("a packet for terminal {}", self.then.label)
        };
        format!(
            "{header} there waits for{}",
            if last { " the first" } else { "" }
        )
    }
}
