//! A run that failed: the deadlock explained (wait-for cycle, stuck nodes, the
//! command that reproduces it, and the JSON document), or the engine's error.

use super::exit::Exit;
use super::run::RunArgs;
use emu::config::{Loaded, TopologyConfig, TrafficConfig};
use emu::deadlock;
use emu::engine::EngineError;
use emu::html::FailureText;
use emu::model::LinkProtocol;
use emu::network::Network;

/// Prints why the run failed (and writes `--json`); returns the exit code.
pub fn engine_failure<P: LinkProtocol>(
    e: &EngineError,
    net: &Network<P>,
    a: &RunArgs,
    topo: &Loaded<TopologyConfig>,
    traf: &Loaded<TrafficConfig>,
) -> Exit {
    let code = super::exit::of_engine(e);
    let repro = reproduce_line(a, topo, traf);
    match e {
        EngineError::Deadlock {
            tick, stuck, cycle, ..
        } => {
            print_deadlock(&failure_text(e, net, &repro));
            note!("reproduce with: {repro}");
            if let Some(dir) = &a.plot {
                let title = super::draw::deadlock_title(net, &traf.file.name, *tick);
                if let Err(err) = super::draw::deadlock(dir, &title, net, cycle.as_deref(), stuck) {
                    note!("error: {err}");
                }
            }
            write_failure_json(e, net, a, &repro);
        }
        EngineError::BlockedByFault { .. } => {
            note!("error: {e}");
            note!("reproduce with: {repro}");
            write_failure_json(e, net, a, &repro);
        }
        other => {
            note!("error: {other}");
            if code == Exit::FlowControl {
                let check = if a.check { "" } else { " --check" };
                note!("reproduce with: {repro}{check}");
            }
        }
    }
    code
}

/// The failure as the command line tells it: a deadlock's headline, wait-for cycle and
/// stuck nodes, or the engine's error; and the command that reproduces it (`repro`).
/// [`engine_failure`] prints it and `--report` puts it in the page.
pub fn failure_text<P: LinkProtocol>(
    e: &EngineError,
    net: &Network<P>,
    repro: &str,
) -> FailureText {
    let us = |t: u64| net.time().ticks_to_us(t as f64);
    let EngineError::Deadlock {
        partial,
        tick,
        since,
        in_flight,
        stuck,
        cycle,
    } = e
    else {
        return FailureText {
            title: "Run failed".into(),
            headline: e.to_string(),
            cycle: None,
            stuck: None,
            reproduce: repro.into(),
        };
    };
    let headline = if *partial {
        format!(
            "partial deadlock at the end of the run, tick {tick} ({:.3} µs): of the {in_flight} \
             packets in flight, some are in a wait-for cycle that no credit can ever break, \
             while the rest of the network kept moving",
            us(*tick)
        )
    } else {
        format!(
            "deadlock at tick {tick} ({:.3} µs): no token has moved since tick {since} ({:.3} µs), \
             with {in_flight} packets in flight",
            us(*tick),
            us(*since)
        )
    };
    let cycle = match cycle {
        Some(c) => {
            let links = deadlock::waitfor::channels(c).len();
            let mut places = deadlock::waitfor::render(c);
            if let Some(first) = c.first() {
                places.push(format!(
                    "… which is where the cycle started ({})",
                    first.node_name
                ));
            }
            (
                format!(
                    "wait-for cycle ({} places, {links} link{}), each waiting for the next:",
                    c.len(),
                    if links == 1 { "" } else { "s" }
                ),
                places,
            )
        }
        None => (
            "no wait-for cycle among the stuck nodes (a packet waits for something outside them)"
                .into(),
            Vec::new(),
        ),
    };
    let waits = stuck
        .iter()
        .flat_map(|s| s.waits.iter().map(move |w| format!("{} {w}", s.name)))
        .collect();
    FailureText {
        title: if *partial {
            "Partial deadlock"
        } else {
            "Deadlock"
        }
        .into(),
        headline,
        cycle: Some(cycle),
        stuck: Some((format!("stuck nodes ({}):", stuck.len()), waits)),
        reproduce: repro.into(),
    }
}

/// Prints a deadlock's explanation on stderr (all but the reproduce line).
fn print_deadlock(f: &FailureText) {
    note!("error: {}", f.headline);
    for (intro, lines) in [&f.cycle, &f.stuck].into_iter().flatten() {
        note!("{intro}");
        for line in lines {
            note!("  {line}");
        }
    }
}

/// Writes `--json`, if given, for a run that failed with `e`: the document that
/// explains a deadlock or a link fault ([`emu::api::failure_json`]).
fn write_failure_json<P: LinkProtocol>(
    e: &EngineError,
    net: &Network<P>,
    a: &RunArgs,
    repro: &str,
) {
    if let (Some(path), Some(text)) = (
        &a.output.json,
        emu::api::failure_json(e, net, a.case.runs.seed, repro),
    ) && let Err(err) = super::output::write(path, text)
    {
        note!("error: cannot write {}: {err}", path.display());
    }
}

/// The command line that reproduces this run: everything that affects the result.
pub fn reproduce_line(
    a: &RunArgs,
    topo: &Loaded<TopologyConfig>,
    traf: &Loaded<TrafficConfig>,
) -> String {
    emu::api::reproduce_command(
        &topo.file.name,
        &traf.file.name,
        a.case.runs.seed,
        &a.case.network.sets,
        a.deadlock_window_us,
        a.check,
    )
}
