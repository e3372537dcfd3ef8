//! Stress searches split over processes or machines: `emu stress … --shard K/N`
//! searches every N-th case from the K-th, in case order, and stops at its first
//! deadlock (or error); [`merge`] finds the lowest case that did not end clean over
//! all shards — the one a single process stops at, since every shard searched all its
//! cases below its own find — and checks that every case below it was searched.
//!
//! The shard file format (`emu-stress-shard/1`), one JSON value per line:
//!
//! - a header: `{"format", "emu_version", "command", "args": [the search's flags],
//!   "topology", "configuration" (the resolved topology, buffers applied), "cases",
//!   "shard": [K, N]}`;
//! - one line per case searched, in case order: `{"index": I, "clean": {"ticks",
//!   "complete"}}`, `{"index": I, "deadlock": {"tick"}}`, `{"index": I, "starved":
//!   {"nodes", "ticks"}}` (an SCI ring's search for starved nodes, which ends the same
//!   way) or `{"index": I, "error": {"message", "exit"}}`;
//! - an end line, `{"searched": CASES}`: a shard file without it is incomplete.

use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The format tag of a stress shard's header line.
pub const FORMAT: &str = "emu-stress-shard/1";

/// A search's description: what it searches, and which shard this is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// The emu version that wrote it.
    pub emu_version: String,
    /// The single command that searches the same, e.g. `emu stress --topology ring4 …`.
    pub command: String,
    /// The search's flags (topology, seeds, buffers, …), as `emu stress` takes them.
    pub args: Vec<String>,
    /// The topology's name.
    pub topology: String,
    /// The resolved topology configuration (every `--set` and the buffers applied).
    pub configuration: serde_json::Value,
    /// Cases in the whole search.
    pub cases: usize,
    /// `[K, N]`.
    pub shard: [u32; 2],
}

impl Header {
    /// True if case `index` is shard K's: every N-th case from the K-th.
    pub fn mine(&self, index: usize) -> bool {
        index % self.shard[1].max(1) as usize == (self.shard[0].max(1) - 1) as usize
    }
}

/// How one case of a search ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// It finished (or gave up at the drain limit).
    Clean {
        /// Ticks simulated.
        ticks: u64,
        /// False if measured messages were undelivered at the drain limit.
        complete: bool,
    },
    /// It deadlocked.
    Deadlock {
        /// The tick the engine declared it.
        tick: u64,
    },
    /// It starved a node (an SCI ring's search).
    Starved {
        /// The nodes starved.
        nodes: Vec<usize>,
        /// Cycles simulated.
        ticks: u64,
    },
    /// It could not be judged (a bad plan, a flow-control violation, …).
    Error {
        /// The error as the single process prints it.
        message: String,
        /// The exit code the single process gives.
        exit: u8,
    },
}

#[derive(Serialize, Deserialize)]
struct Line {
    index: usize,
    #[serde(flatten)]
    outcome: Outcome,
}

#[derive(Serialize, Deserialize)]
struct End {
    searched: usize,
}

/// A shard's file: the header, its cases' outcomes in case order, the end line.
pub fn write(header: &Header, outcomes: &[(usize, Outcome)]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", serde_json::to_string(header).unwrap_or_default());
    for (index, outcome) in outcomes {
        let line = Line {
            index: *index,
            outcome: outcome.clone(),
        };
        let _ = writeln!(s, "{}", serde_json::to_string(&line).unwrap_or_default());
    }
    let end = End {
        searched: outcomes.len(),
    };
    let _ = writeln!(s, "{}", serde_json::to_string(&end).unwrap_or_default());
    s
}

/// The stress shard format, for [`super::read`].
pub struct Shards;

impl super::read::Format for Shards {
    type Header = Header;
    /// The case, from 0.
    type Key = usize;
    type Unit = Outcome;
    type Stray = super::read::NotMine;
    type Difference = super::read::OtherCommand;
    const TAG: &'static str = FORMAT;
    const JOB: &'static str = "stress";
    const NOUN: &'static str = "search";
    const UNIT: &'static str = "case";
    const RESULTS: &'static str = "outcomes";
    const END: Option<&'static str> = Some("searched");

    fn version(h: &Header) -> Option<&str> {
        Some(&h.emu_version)
    }

    fn check(h: &mut Header) -> Result<(), &'static str> {
        if h.shard[0] == 0 || h.shard[0] > h.shard[1] || h.cases == 0 {
            return Err("the header's shard or cases are not what emu writes");
        }
        Ok(())
    }

    fn shard(h: &Header) -> [u32; 2] {
        h.shard
    }

    fn differ(f: &Header, at: &str, h: &Header) -> Option<super::read::OtherCommand> {
        fn same(
            h: &Header,
        ) -> (
            &String,
            &Vec<String>,
            &String,
            &serde_json::Value,
            usize,
            u32,
        ) {
            (
                &h.command,
                &h.args,
                &h.topology,
                &h.configuration,
                h.cases,
                h.shard[1],
            )
        }
        super::read::OtherCommand::when(
            same(f) != same(h),
            (&f.command, f.shard[1]),
            at,
            (&h.command, h.shard[1]),
        )
    }

    fn unit(h: &Header, value: serde_json::Value) -> super::read::UnitRead<Self> {
        let l: Line = serde_json::from_value(value)?;
        if !h.mine(l.index) || l.index >= h.cases {
            return Err(super::read::UnitError::Stray(super::read::NotMine {
                unit: Self::name(h, l.index),
                shard: h.shard,
            }));
        }
        Ok((l.index, l.outcome))
    }

    fn conflict(a: (&str, &Outcome), b: (&str, &Outcome)) -> bool {
        a.1 != b.1
    }

    fn name(_: &Header, index: usize) -> String {
        format!("case {}", index + 1)
    }
}

/// Why shard files do not make one search.
pub type MergeError = super::read::MergeError<Shards>;

/// A merged search: its header (of the first shard) and the outcome of every case a
/// single process runs: all of them, or those up to and including the first that did
/// not end clean (the last).
#[derive(Debug)]
pub struct Merged {
    /// The search.
    pub header: Header,
    /// Cases 0, 1, … in order.
    pub outcomes: Vec<Outcome>,
}

/// Merges shard files given as `(name, text)`; a file may hold several shards one after
/// the other. A case given twice with the same outcome counts once.
pub fn merge(files: &[(String, String)]) -> Result<Merged, MergeError> {
    let super::read::Read { header, units } = super::read::read::<Shards>(files)?;
    let stop = units
        .iter()
        .find(|(_, o)| !matches!(o, Outcome::Clean { .. }))
        .map(|(i, _)| *i);
    let needed = stop.map_or(header.cases, |i| i + 1);
    let missing: Vec<usize> = (0..needed).filter(|i| !units.contains_key(i)).collect();
    if let Some(&i) = missing.first() {
        let n = header.shard[1].max(1);
        return Err(MergeError::Missing(super::read::Missing {
            missing: missing.len(),
            of: format!("the {needed} cases the search needs"),
            first: format!("case {}, shard {}/{n}", i + 1, i % n as usize + 1),
        }));
    }
    let outcomes = units.into_values().take(needed).collect();
    Ok(Merged { header, outcomes })
}
