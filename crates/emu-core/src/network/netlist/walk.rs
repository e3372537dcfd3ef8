//! The check that a netlist's routing tables, given or computed, take every label from
//! every switch to its terminal (the guide's "C104 networks on DS-Links": a label with no route, a
//! loop, a wrong terminal or an unconnected port is an error naming `network.tables`).

use super::{Peer, Wiring};
use crate::network::build::{BuildError, topo_err};
use crate::routing::{IntervalTable, RouteAction};

/// Where following one label's table entries from a switch leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    /// Not followed yet.
    Unknown,
    /// On the path being followed now.
    OnPath,
    /// To the label's terminal.
    Terminal,
    /// Nowhere: no route, a wrong terminal, a free port or a loop.
    Fails,
}

/// Follows every label from every switch: it must reach its terminal. One label's
/// entries give every switch a single next hop, so whether a switch reaches the
/// terminal does not depend on where the packet started: each switch is followed
/// once per label (switches × labels lookups, not × path length). The first failure
/// in (switch, label) order is then walked alone by [`walk_one`] to say what is wrong.
pub(super) fn walk(w: &Wiring, tables: &[IntervalTable]) -> Result<(), BuildError> {
    let switches = w.ports.len();
    let mut first: Option<(usize, u32)> = None;
    let mut reach = vec![Reach::Unknown; switches];
    let mut path = Vec::new();
    for d in 0..w.at.len() as u32 {
        reach.fill(Reach::Unknown);
        // Only a failure from an earlier switch comes before the one already found.
        let starts = first.map_or(switches, |(s, _)| s);
        for start in 0..starts {
            if follow(w, tables, d, start, &mut reach, &mut path) == Reach::Fails {
                first = Some((start, d));
                break;
            }
        }
    }
    match first {
        Some((start, d)) => walk_one(w, tables, start, d),
        None => Ok(()),
    }
}

/// Follows label `d` from `start` until a switch whose fate `reach` knows, and marks
/// the switches on the way with it; returns `start`'s.
fn follow(
    w: &Wiring,
    tables: &[IntervalTable],
    d: u32,
    start: usize,
    reach: &mut [Reach],
    path: &mut Vec<usize>,
) -> Reach {
    path.clear();
    let mut s = start;
    let end = loop {
        match reach[s] {
            Reach::Unknown => {}
            Reach::OnPath => break Reach::Fails,
            known => break known,
        }
        reach[s] = Reach::OnPath;
        path.push(s);
        let Some(RouteAction::Output(p)) = tables[s].lookup(d) else {
            break Reach::Fails;
        };
        match w.ports[s][p] {
            Peer::Terminal(t) if t == d => break Reach::Terminal,
            Peer::Switch(n, _) => s = n,
            Peer::Terminal(_) | Peer::Free => break Reach::Fails,
        }
    };
    for &s in path.iter() {
        reach[s] = end;
    }
    end
}

/// Follows label `d` from switch `start` hop by hop, saying what goes wrong.
fn walk_one(w: &Wiring, tables: &[IntervalTable], start: usize, d: u32) -> Result<(), BuildError> {
    let key = "network.tables";
    let mut s = start;
    for _ in 0..=w.ports.len() {
        let Some(RouteAction::Output(p)) = tables[s].lookup(d) else {
            return Err(topo_err(
                key,
                format!("switch {s} has no route for label {d}"),
            ));
        };
        match w.ports[s][p] {
            Peer::Terminal(t) if t == d => break,
            Peer::Terminal(t) => {
                return Err(topo_err(
                    key,
                    format!("label {d} reaches terminal {t} (from switch {start})"),
                ));
            }
            Peer::Switch(n, _) => s = n,
            Peer::Free => {
                return Err(topo_err(
                    key,
                    format!("switch {s}: label {d} leaves on unconnected port {p}"),
                ));
            }
        }
        if s == start {
            return Err(topo_err(
                key,
                format!("label {d} loops back to switch {start}"),
            ));
        }
    }
    if !matches!(tables[s].lookup(d), Some(RouteAction::Output(p)) if w.ports[s][p] == Peer::Terminal(d))
    {
        return Err(topo_err(
            key,
            format!("label {d} does not reach its terminal from switch {start}: a routing loop"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetlistConfig;
    use crate::routing::table;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Every (switch, label) walked hop by hop: the first failure, as before the walk
    /// remembered anything.
    fn reference(w: &Wiring, tables: &[IntervalTable]) -> Result<(), BuildError> {
        for start in 0..w.ports.len() {
            for d in 0..w.at.len() as u32 {
                walk_one(w, tables, start, d)?;
            }
        }
        Ok(())
    }

    /// A chain of `n` 4-port switches with a terminal on port 0 of each and a random
    /// extra link or two.
    fn netlist(rng: &mut ChaCha8Rng, n: u32) -> NetlistConfig {
        let mut links: Vec<[u32; 4]> = (1..n).map(|s| [s - 1, 2, s, 1]).collect();
        if n > 2 && rng.random::<bool>() {
            links.push([0, 3, n - 1, 3]);
        }
        NetlistConfig {
            switches: vec![4; n as usize],
            terminals: (0..n).map(|s| [s, 0]).collect(),
            links,
            tables: Vec::new(),
        }
    }

    #[test]
    fn the_remembering_walk_finds_the_first_failure_of_the_hop_by_hop_walk() {
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        let (mut good, mut bad) = (0, 0);
        for _ in 0..2000 {
            let n = rng.random_range(1..7u32);
            let w = super::super::wiring(&netlist(&mut rng, n)).expect("a valid chain");
            let mut tables = super::super::computed(&w).expect("connected");
            // Send a few (switch, label) pairs out of a random port instead.
            for _ in 0..rng.random_range(0..3) {
                let s = rng.random_range(0..n as usize);
                let (d, p) = (rng.random_range(0..n), rng.random_range(0..4usize));
                let old = tables[s].clone();
                tables[s] = table::from_fn(n, |l| {
                    if l == d {
                        RouteAction::Output(p)
                    } else {
                        old.lookup(l).unwrap_or(RouteAction::Delete)
                    }
                });
            }
            let want = reference(&w, &tables);
            if want.is_ok() {
                good += 1;
            } else {
                bad += 1;
            }
            assert_eq!(walk(&w, &tables), want, "{tables:?}");
        }
        assert!(good > 100 && bad > 100, "{good} good, {bad} bad tables");
    }
}
