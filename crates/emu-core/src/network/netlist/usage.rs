//! Which of a netlist's links its routing tables use: a link that no route from any
//! terminal to any other crosses carries nothing, whatever the traffic, and the report
//! warns about it (the guide's "C104 networks on DS-Links", drawing a network).

use super::{Peer, Wiring};
use crate::routing::{IntervalTable, RouteAction};

/// Links shown by name in the warning; the rest are counted.
const SHOWN: usize = 8;

/// The indices (into `links`) of the links no route crosses in either direction. A
/// route is followed from every switch that has a terminal sending to label `d` (any
/// terminal but `d` itself); one label's entries give each switch one next hop, so each
/// switch is followed once per label. The tables must have been walked (every label
/// reaches its terminal from every switch).
pub(super) fn unused_links(w: &Wiring, links: &[[u32; 4]], tables: &[IntervalTable]) -> Vec<usize> {
    let switches = w.ports.len();
    let mut terminals_on = vec![0usize; switches];
    for &(s, _) in &w.at {
        terminals_on[s] += 1;
    }
    let mut used: Vec<Vec<bool>> = w.ports.iter().map(|p| vec![false; p.len()]).collect();
    let mut seen = vec![false; switches];
    for (d, &(ds, _)) in w.at.iter().enumerate() {
        seen.fill(false);
        for (start, &on) in terminals_on.iter().enumerate() {
            let senders = on - usize::from(start == ds);
            if senders == 0 {
                continue;
            }
            let mut s = start;
            while !seen[s] {
                seen[s] = true;
                let Some(RouteAction::Output(p)) = tables[s].lookup(d as u32) else {
                    break;
                };
                used[s][p] = true;
                match w.ports[s][p] {
                    Peer::Switch(n, _) => s = n,
                    Peer::Terminal(_) | Peer::Free => break,
                }
            }
        }
    }
    links
        .iter()
        .enumerate()
        .filter(|&(_, &[a, pa, b, pb])| {
            !used[a as usize][pa as usize] && !used[b as usize][pb as usize]
        })
        .map(|(i, _)| i)
        .collect()
}

/// The warning naming the links of `unused` (indices into `links`), if any: one line.
/// `computed` says whether the tables were computed (shortest paths) or given.
pub(super) fn unused_note(links: &[[u32; 4]], unused: &[usize], computed: bool) -> Option<String> {
    if unused.is_empty() {
        return None;
    }
    let mut named: Vec<String> = unused
        .iter()
        .take(SHOWN)
        .map(|&i| {
            let [a, pa, b, pb] = links[i];
            format!("link {i} [{a}, {pa}, {b}, {pb}]")
        })
        .collect();
    if unused.len() > SHOWN {
        named.push(format!("{} more", unused.len() - SHOWN));
    }
    let (subject, them) = if unused.len() == 1 {
        ("1 link carries".to_string(), "it")
    } else {
        (format!("{} links carry", unused.len()), "them")
    };
    let why = if computed {
        format!("the computed shortest paths avoid {them}")
    } else {
        format!("the given network.tables send nothing across {them}")
    };
    Some(format!(
        "network.links: {subject} no traffic whatever the pattern, as no route between two \
         terminals crosses {them} ({why}): {}",
        named.join(", ")
    ))
}
