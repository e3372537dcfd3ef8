//! Watching a run from outside its parts: what each packet did at every node, how
//! each watched link's wires moved, and how ports' credit and buffers changed
//! (book/src/observing.md).
//!
//! Observation costs nothing when it is not asked for: the engines know nothing of it.
//! A run that is watched has its nodes wrapped, when they are built
//! ([`crate::network::Network::instantiate`]), in an [`Observed`] node that passes
//! every call through and looks at the tokens going in and out through the
//! protocol's [`crate::model::LinkProtocol::view`]. Each wrapper keeps its own records
//! and hands them to the shared [`Recorder`] when it is dropped, at the end of the run
//! (a deadlocked or failed one too), so what is recorded does not depend on the engine
//! or its threads; [`Recorder::take`] returns it in node order.

mod node;
mod records;

pub use node::Observed;
pub use records::{Arrival, GaugeSample, Held, Hop, NodeRecord, WireToken};

use crate::ids::PortId;
use crate::time::Tick;
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What to record.
#[derive(Clone, Debug, Default)]
pub struct Watch {
    /// Record packet hops, arrivals and held packets (a timeline).
    pub packets: bool,
    /// Record the ports' counters ([`crate::model::LinkProtocol::gauges`]) when they
    /// change (with `packets`).
    pub gauges: bool,
    /// Keep only what overlaps ticks `from..=to`.
    pub from: Tick,
    /// See `from`.
    pub to: Tick,
    /// Keep only packets from or to these terminals (`None`: all).
    pub terminals: Option<BTreeSet<u32>>,
    /// Ports (node, port) whose every sent token is kept for a waveform, from tick 0
    /// up to `to`.
    pub wires: BTreeSet<(usize, PortId)>,
    /// Most records kept in all (hops, arrivals, counter changes, wire tokens); past
    /// it, recording stops and [`Recorder::overflowed`] says at which tick.
    pub limit: u64,
}

impl Watch {
    /// True if the span `start..=end` overlaps the window.
    pub fn overlaps(&self, start: Tick, end: Tick) -> bool {
        start <= self.to && end >= self.from
    }

    /// True if packets between `src` and `dst` are selected.
    pub fn selects(&self, src: u32, dst: u32) -> bool {
        self.terminals
            .as_ref()
            .is_none_or(|t| t.contains(&src) || t.contains(&dst))
    }
}

/// The records of a watched run, shared by its nodes' wrappers.
#[derive(Debug)]
pub struct Recorder {
    watch: Watch,
    /// Terminal (label) each node hosts, by node index.
    terminal_of: Vec<Option<u32>>,
    kept: AtomicU64,
    full: AtomicBool,
    full_at: AtomicU64,
    records: Mutex<Vec<NodeRecord>>,
}

impl Recorder {
    /// A recorder for a network whose terminal `i` is hosted by node `terminals[i]`,
    /// among `nodes` nodes.
    pub fn new(watch: Watch, nodes: usize, terminals: &[crate::ids::NodeId]) -> Recorder {
        let mut terminal_of = vec![None; nodes];
        for (label, &node) in terminals.iter().enumerate() {
            if let Some(t) = terminal_of.get_mut(node) {
                *t = u32::try_from(label).ok();
            }
        }
        Recorder {
            watch,
            terminal_of,
            kept: AtomicU64::new(0),
            full: AtomicBool::new(false),
            full_at: AtomicU64::new(0),
            records: Mutex::new(Vec::new()),
        }
    }

    /// What is recorded.
    pub fn watch(&self) -> &Watch {
        &self.watch
    }

    /// Counts one more record made at tick `now`; false once the limit is reached (the
    /// record is then not kept).
    fn admit(&self, now: Tick) -> bool {
        if self.full.load(Ordering::Relaxed) {
            return false;
        }
        if self.kept.fetch_add(1, Ordering::Relaxed) >= self.watch.limit {
            if !self.full.swap(true, Ordering::Relaxed) {
                self.full_at.store(now, Ordering::Relaxed);
            }
            return false;
        }
        true
    }

    /// If the limit was reached: the tick at which recording stopped (the first
    /// record turned away; threads may have turned away a few of the same tick).
    pub fn overflowed(&self) -> Option<Tick> {
        self.full
            .load(Ordering::Relaxed)
            .then(|| self.full_at.load(Ordering::Relaxed))
    }

    /// Takes the records, in node order (every node's, once its wrapper is dropped).
    pub fn take(&self) -> Vec<NodeRecord> {
        let mut v = std::mem::take(&mut *self.lock());
        v.sort_by_key(|r| r.node);
        v
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<NodeRecord>> {
        // A wrapper that panicked holding the lock left whole records behind: keep them.
        self.records.lock().unwrap_or_else(|p| p.into_inner())
    }
}
