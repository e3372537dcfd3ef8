//! Pairs each file with a shipped partner of its family that runs with it (exit 0): a
//! topology's mutants run with that traffic file, a traffic file's with that topology.

use std::fs;
use std::path::Path;
use std::time::Duration;

use toml_edit::DocumentMut;

use crate::case::Case;
use crate::emu::{Emu, Status};
use crate::pool;
use crate::subject::Subject;

/// The partner a file's unmutated pair ran with.
#[derive(Clone, Debug)]
pub struct Partner {
    /// Its index in the other list (traffic files for a topology, and the reverse).
    pub index: usize,
    /// The wall time of the unmutated pair.
    pub wall: Duration,
}

/// A file's partner, or why it has none.
pub type Pairing = Result<Partner, String>;

/// How much work a traffic file asks for, roughly: none for batch and trace injection, else
/// the simulated microseconds times the offered load. Cheap partners are tried first.
pub fn traffic_cost(doc: &DocumentMut) -> f64 {
    let injection = doc.get("injection");
    let kind = injection
        .and_then(|i| i.get("kind"))
        .and_then(|k| k.as_str())
        .unwrap_or("continuous");
    if matches!(kind, "batch" | "trace") {
        return 0.0;
    }
    let number = |table: &str, key: &str, default: f64| {
        doc.get(table)
            .and_then(|t| t.get(key))
            .and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
            .unwrap_or(default)
    };
    let load = if kind == "continuous" {
        1.0
    } else {
        number("injection", "load", 1.0)
    };
    (number("phases", "warmup_us", 100.0) + number("phases", "measure_us", 500.0)) * load
}

/// Runs the unmutated pair; its wall time if it exits 0, else what it did.
fn try_pair(
    emu: &Emu,
    scratch: &Path,
    topology: &Subject,
    traffic: &Subject,
) -> Result<Duration, String> {
    let dir = scratch.join(format!("pair-{}-{}", topology.stem, traffic.stem));
    let case = Case {
        topology: (topology, &topology.text),
        traffic: (traffic, &traffic.text),
    };
    let outcome = case
        .lay_out(&dir)
        .and_then(|files| emu.run(&dir, &files))
        .map_err(|e| format!("{}: could not run: {e}", traffic.name));
    // The folder is scratch; what is left is removed with the scratch folder.
    let _ = fs::remove_dir_all(&dir);
    let outcome = outcome?;
    match outcome.status {
        Status::Exited(0) => Ok(outcome.wall),
        status => {
            let first = outcome
                .stderr
                .lines()
                .next()
                .unwrap_or("")
                .replace(&format!("{}/", dir.display()), "");
            Err(format!(
                "{} + {}: {status}: {first}",
                topology.stem, traffic.stem
            ))
        }
    }
}

/// For each topology marked `wanted`, the cheapest traffic file of its family that runs
/// with it (candidates by [`traffic_cost`], the first that exits 0).
pub fn for_topologies(
    emu: &Emu,
    scratch: &Path,
    jobs: usize,
    topologies: &[Subject],
    traffic: &[Subject],
    wanted: &[bool],
) -> Vec<Option<Pairing>> {
    let items: Vec<usize> = (0..topologies.len()).collect();
    pool::map(
        &items,
        jobs,
        |&t| {
            if !wanted[t] {
                return None;
            }
            let topology = &topologies[t];
            let mut candidates: Vec<usize> = (0..traffic.len())
                .filter(|&p| traffic[p].family == topology.family)
                .collect();
            candidates.sort_by(|&a, &b| {
                traffic_cost(&traffic[a].doc)
                    .total_cmp(&traffic_cost(&traffic[b].doc))
                    .then_with(|| traffic[a].name.cmp(&traffic[b].name))
            });
            Some(first_working(&candidates, topology.family, |p| {
                try_pair(emu, scratch, topology, &traffic[p])
            }))
        },
        |_, _| {},
    )
}

/// For each traffic file marked `wanted`, the fastest topology of its family (by the
/// topologies' own unmutated runs) that runs with it.
pub fn for_traffic(
    emu: &Emu,
    scratch: &Path,
    jobs: usize,
    topologies: &[Subject],
    topology_pairings: &[Option<Pairing>],
    traffic: &[Subject],
    wanted: &[bool],
) -> Vec<Option<Pairing>> {
    let items: Vec<usize> = (0..traffic.len()).collect();
    pool::map(
        &items,
        jobs,
        |&p| {
            if !wanted[p] {
                return None;
            }
            let file = &traffic[p];
            let mut candidates: Vec<(Duration, usize)> = topology_pairings
                .iter()
                .enumerate()
                .filter(|&(t, _)| topologies[t].family == file.family)
                .filter_map(|(t, pairing)| match pairing {
                    Some(Ok(partner)) => Some((partner.wall, t)),
                    _ => None,
                })
                .collect();
            candidates.sort();
            let candidates: Vec<usize> = candidates.into_iter().map(|(_, t)| t).collect();
            Some(first_working(&candidates, file.family, |t| {
                try_pair(emu, scratch, &topologies[t], file)
            }))
        },
        |_, _| {},
    )
}

/// The first candidate the trial accepts, or every candidate's failure.
fn first_working(
    candidates: &[usize],
    family: crate::family::Family,
    mut trial: impl FnMut(usize) -> Result<Duration, String>,
) -> Pairing {
    let mut failures = Vec::new();
    for &index in candidates {
        match trial(index) {
            Ok(wall) => return Ok(Partner { index, wall }),
            Err(why) => failures.push(why),
        }
    }
    if failures.is_empty() {
        Err(format!("no file of the {family} family to pair it with"))
    } else {
        Err(format!(
            "no file of the {family} family runs with it (exit 0): {}",
            failures.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(text: &str) -> f64 {
        traffic_cost(&text.parse().expect("test document parses"))
    }

    #[test]
    fn batch_and_trace_cost_nothing_and_rates_scale_the_phases() {
        assert_eq!(cost("[injection]\nkind = \"batch\"\nmessages = 20"), 0.0);
        assert_eq!(cost("[injection]\nkind = \"trace\""), 0.0);
        assert_eq!(cost("[injection]\nkind = \"continuous\""), 600.0);
        assert_eq!(
            cost(
                "[injection]\nkind = \"rate\"\nload = 0.5\n[phases]\nwarmup_us = 0\nmeasure_us = 100"
            ),
            50.0
        );
    }
}
