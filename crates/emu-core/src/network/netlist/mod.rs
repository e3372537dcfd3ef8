//! A network the user draws: C104 switches, terminals and links listed explicitly in
//! the topology file (`network.kind = "netlist"`), with the routing tables given as
//! intervals per switch or computed as shortest paths.
//!
//! A C104 routes by interval labelling (INMOS ch. 7 §7.1): each output
//! link owns intervals of header labels. Here a terminal's label is its index in
//! `network.terminals`. A computed table sends label d along a shortest path (in switch
//! hops) to d's switch. Where several ports lead equally short, the destinations are
//! spread over them ([`spread`]), so that parallel paths (the spines of a leaf-spine
//! network, doubled links) all carry traffic; the choice depends on the destination
//! only, so that every switch still has a single next hop per label, and keeps each
//! destination switch's labels in at most as many runs as there are equal ports. The
//! table is then compressed into intervals ([`crate::routing::table::from_fn`]): runs
//! of consecutive labels with the same output become one interval. That is always a
//! correct table; it is a compact interval labelling only as far as the user numbered
//! the terminals so that neighbours share outputs (renumbering is not attempted).
//! Shortest-path routing on an irregular network can have cyclic channel
//! dependencies and deadlock under load (INMOS ch. 7 §7.3.2 on wrap-around links); the run's
//! deadlock diagnosis reports it, and `emu check` finds the cycle from the tables.
//!
//! Every table, given or computed, is walked for every (switch, label) before the run:
//! it must reach the label's terminal in fewer hops than there are switches. The links
//! no route crosses are then named in a warning ([`usage`]).

use super::build::{BuildError, Parts, topo_err};
use super::kinds::C104_LINKS;
use crate::network::NetlistConfig;
use crate::routing::{IntervalTable, RouteAction, table};
use std::collections::VecDeque;
use walk::walk;

mod usage;
mod walk;

/// What is on the far side of one switch port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Peer {
    Free,
    Terminal(u32),
    Switch(usize, usize),
}

/// The checked netlist: who is on every switch port.
#[derive(Debug)]
struct Wiring {
    ports: Vec<Vec<Peer>>,
    /// (switch, port) of each terminal.
    at: Vec<(usize, usize)>,
}

fn wiring(n: &NetlistConfig) -> Result<Wiring, BuildError> {
    if n.switches.is_empty() {
        return Err(topo_err(
            "network.switches",
            "give at least one switch (its port count)",
        ));
    }
    let mut ports = Vec::with_capacity(n.switches.len());
    for (i, &p) in n.switches.iter().enumerate() {
        if !(1..=C104_LINKS).contains(&p) {
            return Err(topo_err(
                "network.switches",
                format!("switch {i} has {p} ports: a C104 has 1 to {C104_LINKS} links"),
            ));
        }
        ports.push(vec![Peer::Free; p as usize]);
    }
    let port_ok = |key: &str, what: String, s: u32, p: u32| -> Result<(usize, usize), BuildError> {
        let (s, p) = (s as usize, p as usize);
        match n.switches.get(s) {
            None => Err(topo_err(
                key,
                format!(
                    "{what}: switch {s} does not exist (there are {})",
                    n.switches.len()
                ),
            )),
            Some(&np) if p >= np as usize => Err(topo_err(
                key,
                format!(
                    "{what}: switch {s} has ports {}, not {p}",
                    crate::text::indices(np.into())
                ),
            )),
            Some(_) => Ok((s, p)),
        }
    };
    if n.terminals.is_empty() {
        return Err(topo_err(
            "network.terminals",
            "give at least one terminal as [switch, port]",
        ));
    }
    if n.terminals.len() > 65_536 {
        return Err(topo_err(
            "network.terminals",
            "at most 65536 terminals (2-byte headers)",
        ));
    }
    let mut at = Vec::with_capacity(n.terminals.len());
    for (t, &[s, p]) in n.terminals.iter().enumerate() {
        let (s, p) = port_ok("network.terminals", format!("terminal {t}"), s, p)?;
        if ports[s][p] != Peer::Free {
            return Err(topo_err(
                "network.terminals",
                format!("terminal {t}: port {p} of switch {s} is already used"),
            ));
        }
        ports[s][p] = Peer::Terminal(t as u32);
        at.push((s, p));
    }
    for (i, &[a, pa, b, pb]) in n.links.iter().enumerate() {
        let what = format!("link {i} [{a}, {pa}, {b}, {pb}]");
        let (a, pa) = port_ok("network.links", what.clone(), a, pa)?;
        let (b, pb) = port_ok("network.links", what.clone(), b, pb)?;
        if a == b && pa == pb {
            return Err(topo_err(
                "network.links",
                format!("{what}: a port cannot link to itself"),
            ));
        }
        if a == b {
            return Err(topo_err(
                "network.links",
                format!(
                    "{what}: links switch {a} to itself; a link joins two different switches \
                     (a packet routed into it would come straight back)"
                ),
            ));
        }
        for (s, p) in [(a, pa), (b, pb)] {
            if ports[s][p] != Peer::Free {
                return Err(topo_err(
                    "network.links",
                    format!("{what}: port {p} of switch {s} is already used"),
                ));
            }
        }
        ports[a][pa] = Peer::Switch(b, pb);
        ports[b][pb] = Peer::Switch(a, pa);
    }
    Ok(Wiring { ports, at })
}

/// Switch hops from every switch to `target` (None: unreachable).
fn distances(w: &Wiring, target: usize) -> Vec<Option<u32>> {
    let mut d = vec![None; w.ports.len()];
    d[target] = Some(0);
    let mut q = VecDeque::from([target]);
    while let Some(s) = q.pop_front() {
        let here = d[s].unwrap_or(0);
        for peer in &w.ports[s] {
            if let Peer::Switch(n, _) = *peer
                && d[n].is_none()
            {
                d[n] = Some(here + 1);
                q.push_back(n);
            }
        }
    }
    d
}

/// Where each terminal sits among the terminals, for [`spread`]: the rank of its
/// switch among the switches that have terminals (in switch order), its index among
/// its switch's terminals (in label order), and how many its switch has.
struct Places {
    rank: Vec<usize>,
    index: Vec<usize>,
    count: Vec<usize>,
}

impl Places {
    fn of(w: &Wiring) -> Places {
        let switches = w.ports.len();
        let mut rank_of = vec![None; switches];
        let mut count_of = vec![0usize; switches];
        let mut index = Vec::with_capacity(w.at.len());
        let mut ranks = 0;
        for &(s, _) in &w.at {
            if rank_of[s].is_none() {
                rank_of[s] = Some(ranks);
                ranks += 1;
            }
            index.push(count_of[s]);
            count_of[s] += 1;
        }
        Places {
            rank: w.at.iter().map(|&(s, _)| rank_of[s].unwrap_or(0)).collect(),
            count: w.at.iter().map(|&(s, _)| count_of[s]).collect(),
            index,
        }
    }
}

/// Which of `k` equally short ports (in port order) label `t` takes: its switch's
/// terminals are cut into `k` consecutive blocks, one per port, starting at the port
/// given by the switch's rank, so that consecutive destination switches start on
/// different ports (destination-based round robin). A function of the destination
/// alone: the table stays a single next hop per label, and a switch's terminals,
/// numbered consecutively, take at most `k` intervals.
fn spread(places: &Places, t: usize, k: usize) -> usize {
    let k = k.max(1);
    let block = places.index[t] * k / places.count[t].max(1);
    (places.rank[t] + block) % k
}

/// Shortest-path tables, destinations spread over equally short ports ([`spread`]).
fn computed(w: &Wiring) -> Result<Vec<IntervalTable>, BuildError> {
    let labels = w.at.len() as u32;
    let switches = w.ports.len();
    // Distances to each switch that has a terminal, computed once per switch.
    let mut dist: Vec<Option<Vec<Option<u32>>>> = vec![None; switches];
    for &(s, _) in &w.at {
        if dist[s].is_none() {
            dist[s] = Some(distances(w, s));
        }
    }
    let places = Places::of(w);
    let mut equal: Vec<u8> = Vec::new();
    // Ports are below 32 (a C104), so a byte holds one.
    let mut next = vec![vec![0u8; labels as usize]; switches];
    for (t, &(ts, tp)) in w.at.iter().enumerate() {
        let d = dist[ts].as_ref().map_or(&[][..], |v| v.as_slice());
        for (s, row) in next.iter_mut().enumerate() {
            row[t] = if s == ts {
                tp as u8
            } else {
                let Some(here) = d.get(s).copied().flatten() else {
                    return Err(topo_err(
                        "network.links",
                        format!(
                            "switch {s} cannot reach terminal {t} (on switch {ts}): the network is not connected"
                        ),
                    ));
                };
                equal.clear();
                equal.extend(
                    w.ports[s]
                        .iter()
                        .enumerate()
                        .filter(
                            |&(_, p)| matches!(*p, Peer::Switch(n, _) if d[n] == Some(here - 1)),
                        )
                        .map(|(i, _)| i as u8),
                );
                equal
                    .get(spread(&places, t, equal.len()))
                    .copied()
                    .unwrap_or(0)
            };
        }
    }
    Ok(next
        .iter()
        .map(|row| {
            table::from_fn(labels, |d| {
                RouteAction::Output(usize::from(row[d as usize]))
            })
        })
        .collect())
}

/// The tables the file gives: per switch, `[lo, hi, port]` intervals (hi exclusive).
fn given(tables: &[Vec<[u32; 3]>], w: &Wiring) -> Result<Vec<IntervalTable>, BuildError> {
    let key = "network.tables";
    if tables.len() != w.ports.len() {
        return Err(topo_err(
            key,
            format!(
                "{} tables for {} switches: give one list of [lo, hi, port] intervals per switch, or none to compute shortest paths",
                tables.len(),
                w.ports.len()
            ),
        ));
    }
    let labels = w.at.len() as u32;
    let mut out = Vec::with_capacity(tables.len());
    for (s, t) in tables.iter().enumerate() {
        let mut iv = Vec::with_capacity(t.len());
        for &[lo, hi, port] in t {
            if lo >= hi || hi > labels {
                return Err(topo_err(
                    key,
                    format!(
                        "switch {s}: interval [{lo}, {hi}) is empty or beyond the {labels} terminal labels"
                    ),
                ));
            }
            if w.ports[s]
                .get(port as usize)
                .is_none_or(|p| *p == Peer::Free)
            {
                return Err(topo_err(
                    key,
                    format!(
                        "switch {s}: interval [{lo}, {hi}) goes to port {port}, which is not connected"
                    ),
                ));
            }
            iv.push((lo, hi, RouteAction::Output(port as usize)));
        }
        let table =
            IntervalTable::new(iv).map_err(|e| topo_err(key, format!("switch {s}: {e}")))?;
        out.push(table);
    }
    Ok(out)
}

/// A checked netlist: its wiring and links, and the tables the file gives (if any).
/// Its routing tables are made and walked by [`tables`], after the network's size
/// has been checked.
#[derive(Debug)]
pub(super) struct ValidNetlist {
    wiring: Wiring,
    given: Vec<Vec<[u32; 3]>>,
    links: Vec<[u32; 4]>,
}

impl ValidNetlist {
    /// Number of terminals.
    pub fn terminals(&self) -> u32 {
        self.wiring.at.len() as u32
    }
}

/// Checks the wiring of `n` (switches, terminals, links); the tables wait for
/// [`tables`].
pub(super) fn validate(n: &NetlistConfig) -> Result<ValidNetlist, BuildError> {
    Ok(ValidNetlist {
        wiring: wiring(n)?,
        given: n.tables.clone(),
        links: n.links.clone(),
    })
}

/// The routing tables of `n`, one per switch: given or computed, and walked for every
/// source and destination; with them, the warnings about the network they make: the
/// links no route crosses ([`usage::unused_note`]).
pub(super) fn tables(n: &ValidNetlist) -> Result<(Vec<IntervalTable>, Vec<String>), BuildError> {
    let w = &n.wiring;
    let t = if n.given.is_empty() {
        computed(w)?
    } else {
        given(&n.given, w)?
    };
    walk(w, &t)?;
    let unused = usage::unused_links(w, &n.links, &t);
    let notes = usage::unused_note(&n.links, &unused, n.given.is_empty())
        .into_iter()
        .collect();
    Ok((t, notes))
}

/// Adds the switches (routed by `tables`, from [`tables`]), processors and links of
/// `n`; returns the switch count.
pub(super) fn build(parts: &mut Parts, n: &ValidNetlist, tables: Vec<IntervalTable>) -> usize {
    let w = &n.wiring;
    let mut tables = tables.into_iter();
    let sw: Vec<_> = w
        .ports
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let table = tables.next();
            parts.switch(format!("c104[{i}]"), p.len(), || table.unwrap_or_default())
        })
        .collect();
    for (t, &(s, p)) in w.at.iter().enumerate() {
        let proc = parts.processor(t as u32);
        parts.link(sw[s], p, proc, 0);
    }
    for &[a, pa, b, pb] in &n.links {
        parts.link(sw[a as usize], pa as usize, sw[b as usize], pb as usize);
    }
    sw.len()
}
