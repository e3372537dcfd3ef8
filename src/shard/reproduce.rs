//! Reproductions split over processes or machines: `emu reproduce NAMES --shard K/N`
//! runs the experiments that a deterministic plan ([`plan`]) gives shard K and writes
//! their reports as JSON lines after a header; [`merge`] puts the shards back into
//! every experiment's report (or the error that stopped it) in the reproduction's
//! order, so that the merge prints and writes what one process does.
//!
//! The unit is the experiment, whose rows come from one run of its code, except for the
//! experiments whose runs are one grid of switch-fabric points
//! ([`crate::reproduce::BY_POINT`], the longest): every shard runs every N-th point of
//! their grid from the K-th ([`crate::reproduce::fabric::grid::share`]), and the merge
//! computes their reports from all the points read back
//! ([`crate::reproduce::fabric::grid::replay`]). The plan balances the other
//! experiments' wall times in the stored full validation run
//! ([`super::stored_wall_times`]; 1 s for one it lacks).
//!
//! The shard file format (`emu-reproduce-shard/2`), one JSON value per line:
//!
//! - a header: `{"format", "emu_version", "command", "experiments": [NAME…], "quick",
//!   "plan": [K…] (each experiment's shard, 0 for one split by point), "shard": [K, N]}`;
//! - then one line per experiment of that shard: `{"experiment": NAME, "report": {…}}`
//!   or `{"experiment": NAME, "error": MESSAGE}`, or for an experiment split by point
//!   `{"experiment": NAME, "grids": [{"total": POINTS, "points": [[I, [SAMPLE…]]…],
//!   "error": MESSAGE?}]}` with each sample `{"mean_delay", "output_pct",
//!   "credits_queued", "parallel": […]}`.
//!
//! Numbers are written in the shortest form that reads back to the same `f64` (one
//! that is not finite as the string `NaN`, `inf` or `-inf`), so nothing is lost.

use crate::reproduce::fabric::grid::GridShare;
use crate::reproduce::fabric::memo::{self, Reused};
use crate::reproduce::fabric::point::Sample;
use crate::reproduce::{Curve, Report, Row, Table, Tolerance};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The format tag of a reproduction shard's header line.
pub const FORMAT: &str = "emu-reproduce-shard/2";

/// A reproduction's description: what runs, and which shard runs what.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// The emu version that wrote it.
    pub emu_version: String,
    /// The single command that prints the same, e.g. `emu reproduce sci-bus --quick`.
    pub command: String,
    /// The experiments, in the order their reports are printed.
    pub experiments: Vec<String>,
    /// The scaled-down forms (`--quick`).
    pub quick: bool,
    /// Each experiment's shard, counted from 1; 0 for one whose points every shard
    /// shares.
    pub plan: Vec<u32>,
    /// `[K, N]`.
    pub shard: [u32; 2],
}

impl Header {
    /// The header of shard `k` of `n` for `experiments` (`quick`: their scaled-down
    /// forms), planned by their stored wall times.
    pub fn new(experiments: &[&str], quick: bool, k: u32, n: u32) -> Header {
        let mut command = String::from("emu reproduce");
        for e in experiments {
            command.push(' ');
            command.push_str(e);
        }
        if quick {
            command.push_str(" --quick");
        }
        Header {
            format: FORMAT.into(),
            emu_version: env!("CARGO_PKG_VERSION").into(),
            command,
            experiments: experiments.iter().map(|e| e.to_string()).collect(),
            quick,
            plan: plan(experiments, n),
            shard: [k, n],
        }
    }

    /// The experiments shard K runs, in order, each with whether it runs only its
    /// share of the experiment's points.
    pub fn mine(&self) -> Vec<(&str, bool)> {
        self.experiments
            .iter()
            .zip(&self.plan)
            .filter(|(_, k)| **k == self.shard[0] || **k == 0)
            .map(|(e, k)| (e.as_str(), *k == 0))
            .collect()
    }
}

/// Each experiment's shard (from 1) when `experiments` are split `n` ways, balancing
/// their stored wall times; 0 for those split by point ([`crate::reproduce::BY_POINT`])
/// when there is more than one shard.
pub fn plan(experiments: &[&str], n: u32) -> Vec<u32> {
    let times = super::stored_wall_times();
    let by_point = |e: &str| n > 1 && crate::reproduce::BY_POINT.contains(&e);
    let whole: Vec<&str> = experiments
        .iter()
        .copied()
        .filter(|e| !by_point(e))
        .collect();
    let weights: Vec<f64> = whole
        .iter()
        .map(|e| times.get(*e).copied().unwrap_or(1.0))
        .collect();
    let mut shards = super::balance(&weights, n).into_iter();
    experiments
        .iter()
        .map(|e| {
            if by_point(e) {
                0
            } else {
                shards.next().unwrap_or(1)
            }
        })
        .collect()
}

/// A number that survives JSON: finite as a number, else a string.
#[derive(Clone, Copy, Debug, PartialEq)]
struct F(f64);

impl Serialize for F {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.is_finite() {
            s.serialize_f64(v)
        } else if v.is_nan() {
            s.serialize_str("NaN")
        } else if v > 0.0 {
            s.serialize_str("inf")
        } else {
            s.serialize_str("-inf")
        }
    }
}

impl<'de> Deserialize<'de> for F {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<F, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            N(f64),
            S(String),
        }
        match Either::deserialize(d)? {
            Either::N(v) => Ok(F(v)),
            Either::S(s) => match s.as_str() {
                "NaN" => Ok(F(f64::NAN)),
                "inf" => Ok(F(f64::INFINITY)),
                "-inf" => Ok(F(f64::NEG_INFINITY)),
                _ => Err(serde::de::Error::custom(format!(
                    "\"{s}\" is not a number (NaN, inf or -inf)"
                ))),
            },
        }
    }
}

#[derive(Serialize, Deserialize)]
struct RowLine {
    parameter: String,
    reference: F,
    source: String,
    emulated: F,
    unit: String,
    tolerance: Tolerance,
    note: String,
    expected_miss: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct TableLine {
    title: String,
    rows: Vec<RowLine>,
    notes: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct CurveLine {
    title: String,
    columns: Vec<String>,
    rows: Vec<Vec<F>>,
}

#[derive(Serialize, Deserialize)]
struct ReportLine {
    experiment: String,
    section: String,
    tables: Vec<TableLine>,
    curves: Vec<CurveLine>,
}

impl ReportLine {
    fn of(r: &Report) -> ReportLine {
        ReportLine {
            experiment: r.experiment.clone(),
            section: r.section.clone(),
            tables: r
                .tables
                .iter()
                .map(|t| TableLine {
                    title: t.title.clone(),
                    rows: t
                        .rows
                        .iter()
                        .map(|row| RowLine {
                            parameter: row.parameter.clone(),
                            reference: F(row.reference),
                            source: row.source.clone(),
                            emulated: F(row.emulated),
                            unit: row.unit.clone(),
                            tolerance: row.tolerance,
                            note: row.note.clone(),
                            expected_miss: row.expected_miss.clone(),
                        })
                        .collect(),
                    notes: t.notes.clone(),
                })
                .collect(),
            curves: r
                .curves
                .iter()
                .map(|c| CurveLine {
                    title: c.title.clone(),
                    columns: c.columns.clone(),
                    rows: c
                        .rows
                        .iter()
                        .map(|r| r.iter().map(|v| F(*v)).collect())
                        .collect(),
                })
                .collect(),
        }
    }

    fn report(self) -> Report {
        Report {
            experiment: self.experiment,
            section: self.section,
            tables: self
                .tables
                .into_iter()
                .map(|t| Table {
                    title: t.title,
                    rows: t
                        .rows
                        .into_iter()
                        .map(|r| {
                            let mut row = Row::new(
                                r.parameter,
                                r.reference.0,
                                r.source,
                                r.emulated.0,
                                r.unit,
                                r.tolerance,
                            )
                            .note(r.note);
                            row.expected_miss = r.expected_miss;
                            row
                        })
                        .collect(),
                    notes: t.notes,
                })
                .collect(),
            curves: self
                .curves
                .into_iter()
                .map(|c| Curve {
                    title: c.title,
                    columns: c.columns,
                    rows: c
                        .rows
                        .into_iter()
                        .map(|r| r.into_iter().map(|v| v.0).collect())
                        .collect(),
                })
                .collect(),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct SampleLine {
    mean_delay: F,
    output_pct: F,
    credits_queued: F,
    parallel: Vec<F>,
}

#[derive(Serialize, Deserialize)]
struct GridLine {
    total: usize,
    points: Vec<(usize, Vec<SampleLine>)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl GridLine {
    fn of(g: &GridShare) -> GridLine {
        GridLine {
            total: g.total,
            points: g
                .points
                .iter()
                .map(|(i, samples)| {
                    let samples = samples
                        .iter()
                        .map(|x| SampleLine {
                            mean_delay: F(x.mean_delay),
                            output_pct: F(x.output_pct),
                            credits_queued: F(x.credits_queued),
                            parallel: x.parallel.iter().map(|v| F(*v)).collect(),
                        })
                        .collect();
                    (*i, samples)
                })
                .collect(),
            error: g.error.clone(),
        }
    }

    fn share(self) -> GridShare {
        GridShare {
            total: self.total,
            points: self
                .points
                .into_iter()
                .map(|(i, samples)| {
                    let samples = samples
                        .into_iter()
                        .map(|x| Sample {
                            mean_delay: x.mean_delay.0,
                            output_pct: x.output_pct.0,
                            credits_queued: x.credits_queued.0,
                            parallel: x.parallel.into_iter().map(|v| v.0).collect(),
                        })
                        .collect();
                    (i, samples)
                })
                .collect(),
            error: self.error,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Line {
    experiment: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    report: Option<ReportLine>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    grids: Option<Vec<GridLine>>,
}

/// What a shard gives for one experiment: its report or the error that stopped it, or
/// for one split by point the shard's share of its grid ([`Header::mine`]).
#[derive(Debug)]
pub enum Unit {
    /// The experiment ran to its end here.
    Outcome(Result<Report, String>),
    /// The points of its grid this shard ran.
    Grids(Vec<GridShare>),
}

/// Why a report cannot be written to a shard exactly.
#[derive(Debug, thiserror::Error)]
#[error(
    "{0}: its report does not read back the same from a shard file (a tolerance that is not a finite number?)"
)]
pub struct WriteError(String);

/// A shard's file: the header and one line per experiment run, each its report or
/// the error that stopped it. Checks that every report reads back to the same text
/// and JSON.
pub fn write(header: &Header, units: &[(String, Unit)]) -> Result<String, WriteError> {
    let mut s = String::new();
    let _ = writeln!(s, "{}", serde_json::to_string(header).unwrap_or_default());
    for (name, unit) in units {
        let line = Line {
            experiment: name.clone(),
            report: None,
            error: None,
            grids: None,
        };
        let line = match unit {
            Unit::Outcome(Ok(r)) => Line {
                report: Some(ReportLine::of(r)),
                ..line
            },
            Unit::Outcome(Err(e)) => Line {
                error: Some(e.clone()),
                ..line
            },
            Unit::Grids(g) => Line {
                grids: Some(g.iter().map(GridLine::of).collect()),
                ..line
            },
        };
        let text = serde_json::to_string(&line).unwrap_or_default();
        if let Unit::Outcome(Ok(r)) = unit {
            let back = serde_json::from_str::<Line>(&text)
                .ok()
                .and_then(|l| l.report)
                .map(ReportLine::report);
            let same = back.is_some_and(|b| {
                b.text() == r.text()
                    && crate::reproduce::table::json(std::slice::from_ref(&b))
                        == crate::reproduce::table::json(std::slice::from_ref(r))
            });
            if !same {
                return Err(WriteError(name.clone()));
            }
        }
        let _ = writeln!(s, "{text}");
    }
    Ok(s)
}

/// The reproduction shard format, for [`super::read`].
pub struct Shards;

impl super::read::Format for Shards {
    type Header = Header;
    /// The experiment's place in the header's list, and for one split by point the
    /// shard that ran its share (0 for the others).
    type Key = (usize, u32);
    type Unit = Unit;
    type Stray = super::read::NotMine;
    type Difference = super::read::OtherCommand;
    const TAG: &'static str = FORMAT;
    const JOB: &'static str = "reproduce";
    const NOUN: &'static str = "reproduction";
    const UNIT: &'static str = "experiment";
    const RESULTS: &'static str = "results";

    fn version(h: &Header) -> Option<&str> {
        Some(&h.emu_version)
    }

    fn check(h: &mut Header) -> Result<(), &'static str> {
        let [k, shards] = h.shard;
        if k == 0 || k > shards || h.plan.len() != h.experiments.len() {
            return Err("the header's shard or plan is not one emu writes");
        }
        Ok(())
    }

    fn shard(h: &Header) -> [u32; 2] {
        h.shard
    }

    fn differ(f: &Header, at: &str, h: &Header) -> Option<super::read::OtherCommand> {
        super::read::OtherCommand::when(
            (&f.command, &f.experiments, f.quick, &f.plan, f.shard[1])
                != (&h.command, &h.experiments, h.quick, &h.plan, h.shard[1]),
            (&f.command, f.shard[1]),
            at,
            (&h.command, h.shard[1]),
        )
    }

    fn unit(h: &Header, value: serde_json::Value) -> super::read::UnitRead<Self> {
        let l: Line = serde_json::from_value(value)?;
        let [k, _] = h.shard;
        let (index, by_point) = h
            .experiments
            .iter()
            .zip(&h.plan)
            .enumerate()
            .find(|(_, (e, plan))| **e == l.experiment && (**plan == k || **plan == 0))
            .map(|(i, (_, plan))| (i, *plan == 0))
            .ok_or_else(|| {
                super::read::UnitError::Stray(super::read::NotMine {
                    unit: format!("experiment {}", l.experiment),
                    shard: h.shard,
                })
            })?;
        let unit = match (l.report, l.error, l.grids) {
            (Some(r), None, None) => Unit::Outcome(Ok(r.report())),
            (None, Some(e), None) => Unit::Outcome(Err(e)),
            (None, None, Some(g)) if by_point => {
                Unit::Grids(g.into_iter().map(GridLine::share).collect())
            }
            _ => {
                return Err(super::read::UnitError::Syntax(if by_point {
                    "an experiment line has a report, an error or grids".into()
                } else {
                    "an experiment line has a report or an error".into()
                }));
            }
        };
        Ok(((index, if by_point { k } else { 0 }), unit))
    }

    /// Reports hold numbers that are not equal to themselves (NaN): lines are compared
    /// as written.
    fn conflict(a: (&str, &Self::Unit), b: (&str, &Self::Unit)) -> bool {
        a.0 != b.0
    }

    fn name(h: &Header, (index, _): (usize, u32)) -> String {
        format!("experiment {}", h.experiments[index])
    }
}

/// Why shard files do not make one reproduction.
pub type MergeError = super::read::MergeError<Shards>;

/// A merged reproduction: its header (of the first shard) and every experiment's
/// outcome in order.
#[derive(Debug)]
pub struct Merged {
    /// The reproduction.
    pub header: Header,
    /// Each experiment's report, or the error that stopped it.
    pub outcomes: Vec<(String, Result<Report, String>)>,
    /// The experiments finished here from their grids' points whose runs after the grid
    /// were taken from the calling thread's memo ([`memo::remembering`], which also keeps
    /// the points read back), with how many.
    pub reused: Vec<(String, Reused)>,
}

/// Merges shard files given as `(name, text)`; a file may hold several shards one after
/// the other. An experiment given twice with the same result counts once.
pub fn merge(files: &[(String, String)]) -> Result<Merged, MergeError> {
    let super::read::Read { header, mut units } = super::read::read::<Shards>(files)?;
    let total = header.experiments.len();
    let [_, n] = header.shard;
    // Each experiment's keys: (i, 0), or (i, K) for every shard K of one split by point.
    let keys = |i: usize| -> Vec<(usize, u32)> {
        if header.plan[i] == 0 {
            (1..=n).map(|k| (i, k)).collect()
        } else {
            vec![(i, 0)]
        }
    };
    let missing: Vec<(usize, u32)> = (0..total)
        .flat_map(keys)
        .filter(|key| !units.contains_key(key))
        .collect();
    if let Some(&(i, k)) = missing.first() {
        let shard = if k == 0 { header.plan[i] } else { k };
        let experiments = missing
            .iter()
            .map(|&(i, _)| i)
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        return Err(MergeError::Missing(super::read::Missing {
            missing: experiments,
            of: format!("{total} experiments"),
            first: format!("{}, shard {shard}/{n}", header.experiments[i]),
        }));
    }
    let mut outcomes = Vec::with_capacity(total);
    let mut reused = Vec::new();
    for i in 0..total {
        let mut grids: Vec<Vec<GridShare>> = Vec::new();
        let mut outcome = None;
        for key in keys(i) {
            match units.remove(&key) {
                Some(Unit::Outcome(o)) => {
                    outcome.get_or_insert(o);
                }
                Some(Unit::Grids(g)) => grids.push(g),
                None => {}
            }
        }
        let name = header.experiments[i].clone();
        let outcome = outcome.unwrap_or_else(|| {
            memo::take_reused();
            let replayed = replay(&name, header.quick, grids);
            let r = memo::take_reused();
            if r.reused > 0 {
                reused.push((name.clone(), r));
            }
            replayed
        });
        outcomes.push((name, outcome));
    }
    Ok(Merged {
        header,
        outcomes,
        reused,
    })
}

/// The report of experiment `name` computed from its grids' points as the shards ran
/// them (`shares`: each shard's grids, in shard order), or the error that stops it.
fn replay(name: &str, quick: bool, shares: Vec<Vec<GridShare>>) -> Result<Report, String> {
    let Some(e) = crate::reproduce::find(name) else {
        return Err(format!("no experiment {name} in this emu"));
    };
    let grids = shares.iter().map(Vec::len).max().unwrap_or(0);
    let mut joined: Vec<Vec<GridShare>> = (0..grids).map(|_| Vec::new()).collect();
    for shard in shares {
        for (g, share) in shard.into_iter().enumerate() {
            joined[g].push(share);
        }
    }
    let grids = joined.into_iter().map(GridShare::join).collect();
    crate::reproduce::fabric::grid::replay(grids, || (e.run)(quick)).map_err(|e| e.to_string())
}
