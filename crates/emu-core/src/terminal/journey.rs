//! Journey statistics: where measured messages spent their time (Proteus §MTime and
//! §Message Timing), and, under `--check`, the records
//! that let the run check every message's timing identity against the uncontended
//! latency of its path (book/src/journeys.md).

use super::metric::Metric;
use super::packet::{Arrival, Stamp};
use crate::time::Tick;
use std::collections::BTreeMap;

/// The breakdown of measured messages' latency, recorded at their destination from
/// the journey of the packet that completed each message.
#[derive(Clone, Debug)]
pub struct JourneyStats {
    /// True if the terminal records journeys (DS-Link terminals; SCI and fabric
    /// terminals keep their own [`JourneyParts`] instead).
    pub recorded: bool,
    /// Creation of the message to the completing packet's first token starting on the
    /// source link (Proteus's wNWI: waiting in the network interface).
    pub source: Metric,
    /// What the rest of the latency leaves: the uncontended delay of the path, its
    /// links' latencies and its switches' transit (Proteus's distance × (WIRE_DELAY +
    /// SWITCH_DELAY)); `--check` checks it against the plan.
    pub path: Metric,
    /// Ticks waited at switch inputs (Proteus's wIn).
    pub input_wait: Metric,
    /// Ticks waited at switch outputs (Proteus's wOut).
    pub output_wait: Metric,
    /// The completing packet's transfer time over its last link (Proteus's tX).
    pub transfer: Metric,
    /// Switches crossed.
    pub hops: Metric,
    /// Journeys whose sums saturated (not exact; never expected).
    pub saturated: u64,
    /// Under `--check`: per source, what the identity leaves for the path (see
    /// [`PathDelays`]); `None` when not checking.
    pub path_delays: Option<PathDelays>,
}

impl Default for JourneyStats {
    fn default() -> Self {
        JourneyStats {
            recorded: false,
            source: Metric::coarse(),
            path: Metric::coarse(),
            input_wait: Metric::coarse(),
            output_wait: Metric::coarse(),
            transfer: Metric::coarse(),
            hops: Metric::coarse(),
            saturated: 0,
            path_delays: None,
        }
    }
}

/// Histograms a [`JourneyStats`] holds (for the memory estimate).
pub(crate) const JOURNEY_HISTOGRAMS: u64 = 6;

/// What a destination saw of the identity *latency = source wait + path delay + input
/// waits + output waits + transfer*: per source, the path delay each message's
/// latency left once its measured parts were taken away. On a network whose route
/// from a source is fixed, every message from that source must leave the same value,
/// and it must be the uncontended delay of that route; the run checks both (exact,
/// zero ticks of tolerance).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathDelays {
    /// Per source terminal, what its messages here left.
    pub by_source: BTreeMap<u32, PathRecord>,
    /// Messages recorded.
    pub messages: u64,
}

/// What the messages from one source to one destination left for their path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathRecord {
    /// (path delay in ticks, switches crossed) of the first message.
    pub first: (i128, u16),
    /// Messages recorded.
    pub messages: u64,
    /// The first message that left something else, and what it left (expected only
    /// where the path is not fixed: random headers, adaptive routing).
    pub conflict: Option<(Stamp, (i128, u16))>,
}

impl JourneyStats {
    /// Records the message `m`, completed by the packet `a` (whose stamp carries the
    /// packet's own start tick in `injected`), `latency` ticks after its creation.
    pub fn record(&mut self, m: &Stamp, a: &Arrival, latency: Tick, measured: bool) {
        let source = m.injected - m.created;
        let j = a.journey;
        let waits = i128::from(source)
            + i128::from(j.input_wait)
            + i128::from(j.output_wait)
            + i128::from(a.transfer);
        let path = i128::from(latency) - waits;
        if measured {
            self.saturated += u64::from(j.saturated());
            self.source.record(source);
            // Never negative where the identity holds; `--check` reports it if not.
            self.path.record(u64::try_from(path).unwrap_or(0));
            self.input_wait.record(u64::from(j.input_wait));
            self.output_wait.record(u64::from(j.output_wait));
            self.transfer.record(a.transfer);
            self.hops.record(u64::from(j.hops));
        }
        if let Some(d) = &mut self.path_delays {
            let this = (path, j.hops);
            d.messages += 1;
            let r = d.by_source.entry(m.src).or_insert(PathRecord {
                first: this,
                messages: 0,
                conflict: None,
            });
            r.messages += 1;
            if r.first != this && r.conflict.is_none() {
                r.conflict = Some((*m, this));
            }
        }
    }

    /// Adds `other`'s distributions into `self` (the per-source check records are
    /// per terminal and are not merged).
    pub fn merge(&mut self, other: &JourneyStats) {
        self.recorded |= other.recorded;
        self.source.merge(&other.source);
        self.path.merge(&other.path);
        self.input_wait.merge(&other.input_wait);
        self.output_wait.merge(&other.output_wait);
        self.transfer.merge(&other.transfer);
        self.hops.merge(&other.hops);
        self.saturated += other.saturated;
    }
}

/// A family's own breakdown of measured messages' latency into named parts that add up
/// to each message's latency (an SCI ring's source queue, idle source, ring buffer and
/// fixed delay: SCI §4.8), recorded at the destination. DS-Link terminals keep
/// [`JourneyStats`] instead; terminals that record neither keep no names.
#[derive(Clone, Debug, Default)]
pub struct JourneyParts {
    /// The parts' names, snake_case, in the order they add up (the report's keys).
    pub names: &'static [&'static str],
    /// One distribution per name.
    pub parts: Vec<Metric>,
    /// Under `--check`: what the terminal's part found checking each message's parts
    /// against its path ([`crate::network::timing::check_journeys`] reports it);
    /// `None` when not checking (boxed: every terminal has a `JourneyParts`).
    pub check: Option<Box<PartsCheck>>,
}

/// What a terminal found checking its messages' journey parts against their paths (an
/// SCI node: the fixed part must be the path's fixed delay, SCI §4; a fabric's output
/// adapter: the link part must be the data path).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartsCheck {
    /// Messages checked.
    pub messages: u64,
    /// The sources they came from.
    pub sources: std::collections::BTreeSet<u32>,
    /// The first message whose parts did not fit its path, described.
    pub first_miss: Option<String>,
}

impl JourneyParts {
    /// Empty distributions for the parts `names`.
    pub fn new(names: &'static [&'static str]) -> JourneyParts {
        JourneyParts {
            names,
            parts: names.iter().map(|_| Metric::coarse()).collect(),
            check: None,
        }
    }

    /// True if the terminal records these.
    pub fn recorded(&self) -> bool {
        !self.names.is_empty()
    }

    /// Records one message's parts, one value per name, in order.
    #[inline]
    pub fn record(&mut self, values: &[u64]) {
        debug_assert_eq!(values.len(), self.parts.len(), "one value per part");
        for (m, &v) in self.parts.iter_mut().zip(values) {
            m.record(v);
        }
    }

    /// [`JourneyParts::record`] of a fixed number of parts, as a family that knows
    /// its parts records them: the loop is unrolled. Parts of another number are
    /// recorded as [`JourneyParts::record`] does.
    #[inline]
    pub fn record_all<const K: usize>(&mut self, values: &[u64; K]) {
        match <&mut [Metric; K]>::try_from(self.parts.as_mut_slice()) {
            Ok(parts) => {
                for (m, &v) in parts.iter_mut().zip(values) {
                    m.record(v);
                }
            }
            Err(_) => self.record(values),
        }
    }

    /// Adds `other`'s distributions into `self` (the check records are per terminal
    /// and are not merged). Terminals of one network record the same parts; one that
    /// records none adds nothing.
    pub fn merge(&mut self, other: &JourneyParts) {
        if !other.recorded() {
            return;
        }
        if !self.recorded() {
            *self = JourneyParts::new(other.names);
        }
        debug_assert_eq!(self.names, other.names, "one network, one breakdown");
        for (a, b) in self.parts.iter_mut().zip(&other.parts) {
            a.merge(b);
        }
    }
}
