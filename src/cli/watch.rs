//! `--trace`, `--vcd` and their selections: what a plain run records of its packets
//! and links, and the files written from it (book/src/observing.md).

use super::exit::Exit;
use super::fail;
use emu::ids::End;
use emu::model::LinkProtocol;
use emu::network::Network;
use emu::observe::{Recorder, Watch};
use emu::text::group;
use emu::time::Tick;
use emu::timeline::TimelineSummary;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

/// The default of `--trace-limit`: about 2 million records make a timeline of a few
/// hundred megabytes.
const DEFAULT_LIMIT: u64 = 2_000_000;

/// Arguments that watch a run.
#[derive(clap::Args, Debug, Default)]
pub struct WatchArgs {
    /// Write the run's packets as a timeline in the Trace Event Format (open it in
    /// Perfetto UI or chrome://tracing): a track per node port, a slice per packet per
    /// node split into its journey's parts, flow arrows along each packet's path, and
    /// the ports' credit and buffers as counters.
    /// Example: --trace t.json --trace-window 100:110
    #[arg(long, value_name = "FILE.json")]
    pub trace: Option<PathBuf>,
    /// Keep only what overlaps this span of virtual time in --trace (and end --vcd at
    /// its end), in µs. Example: --trace-window 100:110
    #[arg(long, value_name = "FROM_US:TO_US")]
    pub trace_window: Option<String>,
    /// Keep only packets from or to these terminals in --trace (labels, as the report's
    /// per-terminal table numbers them). Example: --trace-terminals 0,5
    #[arg(long, value_name = "N[,N…]")]
    pub trace_terminals: Option<String>,
    /// Stop recording past this many records (packet slices, counter changes, tokens
    /// of watched links) and write nothing, with a message saying how to narrow it.
    #[arg(long, value_name = "RECORDS", default_value_t = DEFAULT_LIMIT)]
    pub trace_limit: u64,
    /// Write the links named by --watch as a Value Change Dump (GTKWave and other
    /// waveform viewers read it): a DS-Link's D and S wires bit by bit with the decoded
    /// token kind and the sender's credit; an SCI link's symbols; a fabric link's cells.
    /// Example: --vcd link.vcd --watch 'c104[0]:3'
    #[arg(long, value_name = "FILE.vcd", requires = "watch")]
    pub vcd: Option<PathBuf>,
    /// The links --vcd draws, each named by either end as the report names nodes (as in
    /// faults.link_down): both directions of each. Example: --watch 'sci[0]:1,sci[1]:1'
    #[arg(long, value_name = "LINK[,LINK…]", requires = "vcd")]
    pub watch: Option<String>,
}

impl WatchArgs {
    /// True if the run is watched.
    pub fn any(&self) -> bool {
        self.trace.is_some() || self.vcd.is_some()
    }

    /// Checks the flags that need no network: the selections' form (the output files
    /// are checked with the command's others, [`super::output::Outputs`]). `Err` is the exit code, after one line naming the flag.
    pub fn check(&self) -> Result<(), Exit> {
        if !self.any() {
            for (flag, given) in [
                ("--trace-window", self.trace_window.is_some()),
                ("--trace-terminals", self.trace_terminals.is_some()),
                ("--trace-limit", self.trace_limit != DEFAULT_LIMIT),
            ] {
                if given {
                    return Err(fail(
                        Exit::BadInput,
                        format!("{flag} selects what --trace or --vcd records: give one of them"),
                    ));
                }
            }
        }
        if self.trace.is_none() && self.trace_terminals.is_some() {
            return Err(fail(
                Exit::BadInput,
                "--trace-terminals selects the packets of --trace: give --trace FILE.json",
            ));
        }
        if self.trace_limit == 0 {
            return Err(fail(
                Exit::BadInput,
                "--trace-limit 0: give a positive number of records",
            ));
        }
        Ok(())
    }

    /// The recorder for a run of `net`, if the run is watched.
    pub fn recorder<P: LinkProtocol>(
        &self,
        net: &Network<P>,
    ) -> Result<Option<Arc<Recorder>>, Exit> {
        if !self.any() {
            return Ok(None);
        }
        let (from, to) = match &self.trace_window {
            Some(text) => window(text, net).map_err(|e| fail(Exit::BadInput, e))?,
            None => (0, Tick::MAX),
        };
        let latest = net.run().hard_stop;
        if self.trace.is_some() && from >= latest {
            // The run stops by its hard stop whatever happens: nothing could be traced.
            let text = self.trace_window.as_deref().unwrap_or_default();
            return Err(fail(
                Exit::BadInput,
                format!(
                    "--trace-window {text}: the run stops by {} µs at the latest, so the \
                     trace would be empty: give a window that starts before then",
                    us_text(net, latest)
                ),
            ));
        }
        let terminals = match &self.trace_terminals {
            Some(text) => Some(terminals(text, net.terminals().len())?),
            None => None,
        };
        let wires = self
            .watched(net)?
            .into_iter()
            .map(|e| (e.node, e.port))
            .collect();
        let watch = Watch {
            packets: self.trace.is_some(),
            gauges: self.trace.is_some(),
            from,
            to,
            terminals,
            wires,
            limit: self.trace_limit,
        };
        Ok(Some(Arc::new(Recorder::new(
            watch,
            net.nodes().len(),
            net.terminals(),
        ))))
    }

    /// The ports whose sent tokens `--watch` draws: both ends of each link named.
    fn watched<P: LinkProtocol>(&self, net: &Network<P>) -> Result<Vec<End>, Exit> {
        let Some(text) = &self.watch else {
            return Ok(Vec::new());
        };
        let mut ends = Vec::new();
        for name in text.split(',').filter(|s| !s.trim().is_empty()) {
            let link = net
                .link_named(name)
                .map_err(|e| fail(Exit::BadInput, format!("--watch {}: {e}", name.trim())))?;
            let l = &net.links()[link];
            for end in [l.a, l.b] {
                // A port that only receives (an SCI node's input, a fabric adapter's
                // egress) has no direction to draw.
                if net.nodes()[end.node].part.transmits(end.port) && !ends.contains(&end) {
                    ends.push(end);
                }
            }
        }
        if ends.is_empty() {
            return Err(fail(
                Exit::BadInput,
                "--watch: name at least one link, e.g. --watch 'c104[0]:3'",
            ));
        }
        Ok(ends)
    }

    /// Writes what `recorder` holds to the files asked for, and prints a line for
    /// each (to stdout after a report, to stderr after a failure: `say`). `end_tick`
    /// is where the run stopped, if known.
    pub fn write<P: LinkProtocol>(
        &self,
        net: &Network<P>,
        recorder: &Recorder,
        end_tick: Option<Tick>,
        say: &dyn Fn(&str),
    ) -> Result<(), Exit> {
        let records = recorder.take();
        if let Some(at) = recorder.overflowed() {
            return Err(fail(
                Exit::Failure,
                format!(
                    "--trace/--vcd: more than {} records by {:.3} µs, so nothing was written: \
                     narrow --trace-window, select packets with --trace-terminals, watch fewer \
                     links, or raise --trace-limit",
                    group(self.trace_limit),
                    net.time().ticks_to_us(at as f64)
                ),
            ));
        }
        let end =
            end_tick.unwrap_or_else(|| records.iter().map(|r| r.last_tick).max().unwrap_or(0));
        if let Some(path) = &self.trace {
            let from = recorder.watch().from;
            if from >= end {
                return Err(fail(
                    Exit::BadInput,
                    format!(
                        "--trace-window {}: the run ended at {} µs, before the window \
                         starts, so the trace would be empty and nothing was written: give \
                         a window within 0 to {} µs",
                        self.trace_window.as_deref().unwrap_or_default(),
                        us_text(net, end),
                        us_text(net, end)
                    ),
                ));
            }
            let (text, s) = emu::timeline::timeline(net, &records, end);
            write_file(path, &text)?;
            say(&format!(
                "trace       {}: {}",
                path.display(),
                self.held(net, &s)
            ));
        }
        if let Some(path) = &self.vcd {
            let ends = self.watched(net)?;
            let to = recorder.watch().to;
            let (text, dirs) = emu::waveform::waveform(net, &records, &ends, end, to);
            write_file(path, &text)?;
            for d in dirs {
                let counted = if to >= end {
                    format!(" (the port counted {})", group(d.counted))
                } else {
                    String::new()
                };
                let cut = if d.cut {
                    ", the last one cut at the end"
                } else {
                    ""
                };
                say(&format!(
                    "waveform    {}: {} → {}: {} tokens{counted}{cut}",
                    path.display(),
                    d.from,
                    d.to,
                    group(d.tokens)
                ));
            }
        }
        Ok(())
    }
}

impl WatchArgs {
    /// What the trace holds, for its line: packets as the report counts them, answers
    /// apart, or why it is empty.
    fn held<P: LinkProtocol>(&self, net: &Network<P>, s: &TimelineSummary) -> String {
        if s.packets == 0 && s.answers == 0 {
            if !s.packets_seen {
                return format!(
                    "empty: {} tokens show no packets to an observer (the family does not \
                     describe them), so there is nothing to trace",
                    P::NAME
                );
            }
            let why = {
                let only = if self.trace_terminals.is_some() {
                    " from or to the terminals of --trace-terminals"
                } else {
                    ""
                };
                let when = if self.trace_window.is_some() {
                    "overlapped --trace-window"
                } else {
                    "was recorded"
                };
                format!("no packet{only} {when}")
            };
            return format!(
                "no packets ({why}), {} counter events",
                group(s.events as u64)
            );
        }
        let answers = if s.answers > 0 {
            format!(", {} {}", group(s.answers as u64), answer_noun(net))
        } else {
            String::new()
        };
        format!(
            "{} packets ({} delivered in it){answers}, {} slices, {} events",
            group(s.packets as u64),
            group(s.delivered as u64),
            group(s.slices as u64),
            group(s.events as u64)
        )
    }
}

/// What a family calls the packets that travel back: an SCI echo (SCI §2.1), a DS-Link
/// acknowledge.
fn answer_noun<P: LinkProtocol>(_net: &Network<P>) -> &'static str {
    if P::NAME == "SCI" {
        "echoes"
    } else {
        "acknowledges"
    }
}

/// Tick `t` of `net` in microseconds, as the report prints them (`674.040`).
fn us_text<P: LinkProtocol>(net: &Network<P>, t: Tick) -> String {
    format!("{:.3}", net.time().ticks_to_us(t as f64))
}

fn write_file(path: &std::path::Path, text: &str) -> Result<(), Exit> {
    super::output::write_or_fail(path, text)
}

/// `FROM_US:TO_US` in ticks of `net`'s time base.
fn window<P: LinkProtocol>(text: &str, net: &Network<P>) -> Result<(Tick, Tick), String> {
    let bad = || {
        format!(
            "--trace-window {text}: give FROM_US:TO_US, microseconds of virtual time with \
             FROM below TO, e.g. --trace-window 100:110"
        )
    };
    let (a, b) = text.split_once(':').ok_or_else(bad)?;
    let us = |s: &str| -> Result<f64, String> {
        let v = s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| !v.is_nan())
            .ok_or_else(bad)?;
        if (0.0..=emu::time::MAX_DURATION_US).contains(&v) {
            Ok(v)
        } else {
            Err(format!(
                "--trace-window {text}: {} µs is not a time a run reaches: give times from 0 to {} µs",
                emu::text::number(v),
                emu::text::group(emu::time::MAX_DURATION_US as u64)
            ))
        }
    };
    let (from, to) = (us(a)?, us(b)?);
    if from >= to {
        return Err(format!(
            "--trace-window {text}: the window is empty: give FROM below TO, e.g. --trace-window 100:110"
        ));
    }
    let tick = |v: f64| (v * 1000.0 / net.time().tick_ns) as Tick;
    Ok((tick(from), tick(to).max(tick(from) + 1)))
}

/// `N[,N…]`: terminal labels below `count`.
fn terminals(text: &str, count: usize) -> Result<BTreeSet<u32>, Exit> {
    let mut set = BTreeSet::new();
    for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match part.parse::<u32>() {
            Ok(t) if (t as usize) < count => {
                set.insert(t);
            }
            _ => {
                return Err(fail(
                    Exit::BadInput,
                    format!(
                        "--trace-terminals {text}: {part} is not a terminal: give labels 0..{count}, comma-separated"
                    ),
                ));
            }
        }
    }
    if set.is_empty() {
        return Err(fail(
            Exit::BadInput,
            format!("--trace-terminals {text}: give at least one terminal label"),
        ));
    }
    Ok(set)
}
