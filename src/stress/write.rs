//! Writing a stress case out: the traffic file (TOML that `emu` reads back exactly)
//! and the command line that reruns it with the same topology, buffers and seed.

use super::prepare::Buffers;
use super::run::SearchResult;
use super::shrink::Shrunk;
use super::starvation::Starvation;
use crate::config::TrafficConfig;
use crate::config::traffic::PatternConfig;
use crate::deadlock::waitfor;
use crate::session::shell_quote;

/// The traffic configuration could not be serialised as TOML.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the traffic file: {0}")]
pub struct TrafficFileError(#[from] toml::ser::Error);

/// The traffic file for `t`, with `comments` (one per line) at the top, and for a
/// `table` pattern the flows of the sending terminals spelled out.
pub fn traffic_file(t: &TrafficConfig, comments: &[String]) -> Result<String, TrafficFileError> {
    let mut out = String::new();
    for c in comments {
        out.push_str(&format!("# {c}\n"));
    }
    if let PatternConfig::Table { destinations } = &t.pattern {
        let flows: Vec<String> = destinations
            .iter()
            .enumerate()
            .filter(|(s, _)| {
                t.terminals
                    .senders
                    .as_ref()
                    .is_none_or(|list| list.contains(&(*s as u32)))
            })
            .map(|(s, d)| format!("{s}→{d}"))
            .collect();
        out.push_str(&format!(
            "# flows (source→destination): {}\n",
            flows.join(" ")
        ));
    }
    let body = toml::to_string(t)?;
    out.push_str(&body);
    Ok(out)
}

/// The `emu` command that runs `traffic_path` on `topology` with `seed` and the
/// `--set` overrides `sets`, shell-quoted.
pub fn command(topology: &str, traffic_path: &str, seed: u64, sets: &[String]) -> String {
    let mut args: Vec<String> = vec![
        "emu".into(),
        "--topology".into(),
        topology.into(),
        "--traffic".into(),
        traffic_path.into(),
        "--seed".into(),
        seed.to_string(),
    ];
    for s in sets {
        args.push("--set".into());
        args.push(s.clone());
    }
    args.iter()
        .map(|s| shell_quote(s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How a search was asked for, as the shrunk case's traffic file and command name it.
#[derive(Clone, Copy, Debug)]
pub struct Asked<'a> {
    /// The topology as given (a name or a path).
    pub topology: &'a str,
    /// Seeds searched.
    pub seeds: u32,
    /// The first seed.
    pub seed: u64,
    /// The buffers searched with.
    pub buffers: Buffers,
    /// Where the traffic file is (or is to be) saved, as the command names it.
    pub traffic_path: &'a str,
}

/// A case written out, a shrunk deadlock or a starved node: the traffic file, the
/// command that reruns it and the JSON document of the search (`emu stress --json`).
#[derive(Clone, Debug)]
pub struct Described {
    /// The traffic file's text, its comments saying how it was found and how to rerun it.
    pub traffic_file: String,
    /// The `emu` command that reruns the case.
    pub command: String,
    /// The search's JSON document.
    pub doc: serde_json::Value,
}

/// Writes out `shrunk`, the shrunk first deadlock (of `kind` traffic) of the search
/// `found` on `name` (`sets`: the overrides it ran with, buffers' included) asked as
/// `asked` says.
pub fn describe(
    asked: &Asked,
    name: &str,
    sets: &[String],
    found: &SearchResult,
    kind: &str,
    shrunk: &Shrunk,
) -> Result<Described, TrafficFileError> {
    let s = shrunk;
    let cmd = command(asked.topology, asked.traffic_path, s.seed, sets);
    let mut traffic = s.traffic.clone();
    traffic.description = format!(
        "emu stress: smallest deadlocking case found on {name} ({kind} traffic, seed {})",
        s.seed
    );
    let comments = vec![
        format!(
            "Found by: emu stress --topology {} --seeds {} --seed {}{}",
            asked.topology,
            asked.seeds,
            asked.seed,
            if asked.buffers == Buffers::Small {
                " --buffers small"
            } else {
                ""
            }
        ),
        format!(
            "Deadlocks at tick {} with {} packets in flight; rerun with:",
            s.found.tick, s.found.in_flight
        ),
        format!("  {cmd}"),
    ];
    let text = traffic_file(&traffic, &comments)?;
    let doc = search_doc(
        "deadlock",
        name,
        found.tried,
        found.ticks,
        serde_json::json!({
            "original": {"kind": kind, "seed": s.seed, "size": s.original},
            "shrunk": {
                "size": s.size,
                "candidates": s.candidates,
                "candidate_ticks": s.ticks,
                "steps": s.steps,
                "tick": s.found.tick,
                "packets_in_flight": s.found.in_flight,
                "traffic_file": text,
                "reproduce": cmd,
                "cycle": s.found.cycle,
                "cycle_text": s.found.cycle.as_deref().map(waitfor::render),
            },
        }),
    );
    Ok(Described {
        traffic_file: text,
        command: cmd,
        doc,
    })
}

/// The JSON document of a search of `name` that found no deadlock.
pub fn clean_json(name: &str, r: &SearchResult) -> serde_json::Value {
    search_doc(
        "no_deadlock",
        name,
        r.tried,
        r.ticks,
        serde_json::json!({ "cases_incomplete": r.incomplete }),
    )
}

/// The JSON document of a search for starved nodes on the ring `name` that found none
/// in `results` (every case it ran).
pub fn no_starvation_json(name: &str, results: &[Starvation]) -> serde_json::Value {
    let ticks = results.iter().map(|r| r.ticks).sum();
    search_doc(
        "no_starvation",
        name,
        results.len(),
        ticks,
        serde_json::json!({}),
    )
}

/// Writes out `found`, the first case of a search for starved nodes (`results`: every
/// case it ran, up to `found`) on the ring `name`, read from the file `topology_file`
/// with the overrides `sets`; `traffic_path` is where its traffic file is (or is to
/// be) saved, as the rerun command names it.
pub fn describe_starved(
    name: &str,
    topology_file: &str,
    sets: &[String],
    traffic_path: &str,
    results: &[Starvation],
    found: &Starvation,
) -> Result<Described, TrafficFileError> {
    let c = &found.case;
    let comments = vec![
        c.traffic.description.clone(),
        format!("starves node(s) {:?} on {name}", found.starved),
    ];
    let text = traffic_file(&c.traffic, &comments)?;
    let rerun = command(topology_file, traffic_path, c.seed, sets);
    let ticks = results.iter().map(|r| r.ticks).sum();
    let doc = search_doc(
        "starvation",
        name,
        results.len(),
        ticks,
        serde_json::json!({
            "case": { "index": c.index, "kind": c.kind, "seed": c.seed, "starved": found.starved },
            "traffic_file": text,
            "command": rerun,
        }),
    );
    Ok(Described {
        traffic_file: text,
        command: rerun,
        doc,
    })
}

/// A search's JSON document: its outcome on `name` after `tried` cases of `ticks` ticks
/// in all, then the fields of `more` (an object).
fn search_doc(
    outcome: &str,
    name: &str,
    tried: usize,
    ticks: u64,
    more: serde_json::Value,
) -> serde_json::Value {
    let mut doc = serde_json::json!({
        "schema": 1,
        "emu_version": env!("CARGO_PKG_VERSION"),
        "outcome": outcome,
        "topology": name,
        "cases_tried": tried,
        "ticks_tried": ticks,
    });
    if let (Some(d), serde_json::Value::Object(more)) = (doc.as_object_mut(), more) {
        d.extend(more);
    }
    doc
}

/// The JSON text `emu stress --json` writes for `doc`.
pub fn json_text(doc: &serde_json::Value) -> String {
    serde_json::to_string_pretty(doc).unwrap_or_default() + "\n"
}
