//! What a run gives: how it ended, its statistics, and the JSON document the command
//! line's `--json` writes for it.

use crate::deadlock;
use crate::engine::{EngineError, EngineKind, RunOutcome};
use crate::model::LinkProtocol;
use crate::network::Network;
use crate::network::timing::TimingSummary;
use crate::stats::RunInfo;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// The run ended as its phases say: the report has its statistics.
    Completed,
    /// No token moved for the deadlock window while packets were in flight (exit 3).
    Deadlock,
    /// At the end of the run some packets were in a wait-for cycle that nothing can
    /// break, while the rest of the network kept moving (exit 3).
    PartialDeadlock,
    /// Packets were blocked behind links that died (exit 5).
    BlockedByFault,
    /// The progress hook asked the run to stop ([`super::RunOptions::on_progress`]).
    Stopped,
}

impl Outcome {
    /// The outcome as the JSON document writes it: `completed`, `deadlock`,
    /// `partial_deadlock`, `blocked_by_fault`, `stopped`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Completed => "completed",
            Outcome::Deadlock => "deadlock",
            Outcome::PartialDeadlock => "partial_deadlock",
            Outcome::BlockedByFault => "blocked_by_fault",
            Outcome::Stopped => "stopped",
        }
    }
}

/// The report of one run ([`crate::run`]).
#[derive(Debug)]
#[non_exhaustive]
pub struct Report {
    /// How the run ended.
    pub outcome: Outcome,
    /// The run's statistics, for a run that completed; `None` otherwise.
    pub stats: Option<crate::stats::Report>,
    /// What the engine said about a run that did not complete: the deadlock with its
    /// wait-for cycle and stuck nodes, the links that died and the packets behind them,
    /// or where it was stopped.
    pub failure: Option<EngineError>,
    /// The engine that ran it.
    pub engine: EngineKind,
    /// Worker threads it ran on.
    pub threads: usize,
    /// Wall-clock seconds the engine took.
    pub wall_seconds: f64,
    /// The command line that reproduces the run (`emu --topology … --seed …`).
    pub reproduce: String,
    /// What the engine gave for a run that completed, from which [`Report::stats`] was
    /// made: every terminal's statistics and latency histograms, the activity totals,
    /// the tick it ended at. `None` for a run that did not complete.
    pub run: Option<RunOutcome>,
    /// With [`super::RunOptions::check`], what the check of every message's latency
    /// against the timing of its path covered, for a run that completed.
    pub timing: Option<TimingSummary>,
    /// The length of a tick of the network's time base, in ns.
    pub tick_ns: f64,
    json: String,
}

impl Report {
    /// A report of a run that ended this way.
    pub(crate) fn new(
        outcome: Outcome,
        stats: Option<crate::stats::Report>,
        failure: Option<EngineError>,
        json: String,
        reproduce: String,
    ) -> Report {
        Report {
            outcome,
            stats,
            failure,
            engine: EngineKind::Sharded,
            threads: 1,
            wall_seconds: 0.0,
            reproduce,
            run: None,
            timing: None,
            tick_ns: 0.0,
            json,
        }
    }

    /// The JSON document `emu --json FILE` writes for the same run, byte for byte: the
    /// full report of a run that completed (docs/report-schema.json), or for a deadlock
    /// or a link fault the document that explains it; for a stopped run, its outcome,
    /// seed and tick.
    pub fn to_json(&self) -> &str {
        &self.json
    }

    /// The text report `emu` prints for a run that completed, with `overrides` shown as
    /// the `--set`s given; `None` for a run that did not complete.
    pub fn render_text(&self, overrides: &[String]) -> Option<String> {
        self.stats.as_ref().map(|s| {
            s.render_text(&RunInfo {
                engine: self.engine.name().into(),
                threads: self.threads,
                wall_seconds: self.wall_seconds,
                overrides: overrides.to_vec(),
            })
        })
    }
}

/// The command line that reproduces a run: everything that affects its result, each
/// word quoted for a POSIX shell where it needs it.
pub fn reproduce_command(
    topology: &str,
    traffic: &str,
    seed: u64,
    sets: &[String],
    deadlock_window_us: Option<f64>,
    check: bool,
) -> String {
    let mut args: Vec<String> = vec![
        "emu".into(),
        "--topology".into(),
        topology.into(),
        "--traffic".into(),
        traffic.into(),
        "--seed".into(),
        seed.to_string(),
    ];
    for s in sets {
        args.push("--set".into());
        args.push(s.clone());
    }
    if let Some(us) = deadlock_window_us {
        args.extend(["--deadlock-window-us".into(), us.to_string()]);
    }
    if check {
        args.push("--check".into());
    }
    args.iter()
        .map(|s| crate::text::shell_quote(s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The JSON document `--json` gets for a run that ended in `e` on `net` with `seed`,
/// `reproduce` being the command that reproduces it: for a deadlock its tick, the
/// wait-for cycle and the stuck nodes; for packets blocked behind dead links, the links
/// and the packets; for a stopped run, where it stopped. `None` for any other error,
/// which writes no document.
pub fn failure_json<P: LinkProtocol>(
    e: &EngineError,
    net: &Network<P>,
    seed: u64,
    reproduce: &str,
) -> Option<String> {
    let doc = match e {
        EngineError::Deadlock {
            partial,
            tick,
            since,
            in_flight,
            stuck,
            cycle,
        } => serde_json::json!({
            "schema": 1,
            "emu_version": env!("CARGO_PKG_VERSION"),
            "outcome": if *partial { "partial_deadlock" } else { "deadlock" },
            "seed": seed,
            "tick": tick,
            "tick_ns": net.time().tick_ns,
            "last_move_tick": since,
            "packets_in_flight": in_flight,
            "reproduce": reproduce,
            "cycle": cycle,
            "cycle_text": cycle.as_deref().map(deadlock::waitfor::render),
            "stuck": stuck.iter().map(|s| serde_json::json!({
                "node": s.name,
                "waits": s.waits.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        }),
        EngineError::BlockedByFault {
            tick,
            in_flight,
            links,
            blocked,
            ..
        } => serde_json::json!({
            "schema": 1,
            "emu_version": env!("CARGO_PKG_VERSION"),
            "outcome": "blocked_by_fault",
            "seed": seed,
            "tick": tick,
            "tick_ns": net.time().tick_ns,
            "packets_in_flight": in_flight,
            "reproduce": reproduce,
            "links_down": links,
            "blocked": blocked.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
        }),
        EngineError::Stopped { tick } => serde_json::json!({
            "schema": 1,
            "emu_version": env!("CARGO_PKG_VERSION"),
            "outcome": "stopped",
            "seed": seed,
            "tick": tick,
            "tick_ns": net.time().tick_ns,
            "reproduce": reproduce,
        }),
        _ => return None,
    };
    Some(serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n")
}

/// The outcome a failed run's error stands for, if it is one a report carries rather
/// than an error.
pub(crate) fn outcome_of(e: &EngineError) -> Option<Outcome> {
    match e {
        EngineError::Deadlock { partial: false, .. } => Some(Outcome::Deadlock),
        EngineError::Deadlock { partial: true, .. } => Some(Outcome::PartialDeadlock),
        EngineError::BlockedByFault { .. } => Some(Outcome::BlockedByFault),
        EngineError::Stopped { .. } => Some(Outcome::Stopped),
        _ => None,
    }
}
