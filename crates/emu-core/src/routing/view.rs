//! Routing views: what a part that forwards packets tells the tools that reason about
//! routes without running anything (the table walker, [`crate::network::walk`], and the
//! channel dependency graph of `emu check`, [`crate::deadlock::cdg`]). The part's own
//! state machine routes through the same view, so the three cannot disagree.

use super::{IntervalTable, RouteAction};
use crate::ids::PortId;
use std::sync::Arc;

/// How a part forwards what arrives on its ports.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Routing<'a> {
    /// It forwards nothing: it consumes every packet that arrives for it (a terminal).
    /// The channels into it depend on no other channel.
    Sink,
    /// It routes by header labels through interval tables (INMOS ch. 7 §7.1).
    Labels(&'a LabelRouting),
    /// It forwards packets but offers no routing view: static analysis cannot follow
    /// packets through it, and `emu check` says so rather than call the network acyclic.
    Opaque,
}

/// Interval-labelling routing as a C104 does it (INMOS ch. 7 §7.1: "All routing,
/// header creation and deletion is performed on a per link basis"): the top header
/// label is looked up in one interval table; a link may prepend a random header to
/// every packet that arrives on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelRouting {
    table: Arc<IntervalTable>,
    random_headers: Vec<Option<(u32, u32)>>,
}

impl LabelRouting {
    /// Bytes this routing holds on the heap: the shared table (its two reference counts,
    /// the table and its intervals) and the per-port random header ranges. A plan
    /// gives every switch a table of its own, so counting it with each switch counts
    /// every table once.
    pub(crate) fn heap_bytes(&self) -> u64 {
        (2 * std::mem::size_of::<usize>()
            + std::mem::size_of::<IntervalTable>()
            + self.random_headers.len() * std::mem::size_of::<Option<(u32, u32)>>()) as u64
            + self.table.heap_bytes()
    }

    /// Routing by `table` on a part with `ports` ports, none generating headers.
    pub fn new(table: Arc<IntervalTable>, ports: usize) -> LabelRouting {
        LabelRouting {
            table,
            random_headers: vec![None; ports],
        }
    }

    /// Makes input `port` prepend a random header drawn uniformly from `[lo, hi)` to
    /// every packet that arrives on it (INMOS ch. 7 §7.1, universal routing). Ports
    /// beyond the part's are ignored.
    pub(crate) fn generate_on(&mut self, port: PortId, range: (u32, u32)) {
        if let Some(slot) = self.random_headers.get_mut(port) {
            *slot = Some(range);
        }
    }

    /// The range input `port` draws random headers from, if it generates them.
    pub fn generates(&self, port: PortId) -> Option<(u32, u32)> {
        self.random_headers.get(port).copied().flatten()
    }

    /// Every generating input's range, in port order.
    pub(crate) fn generated_ranges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.random_headers.iter().flatten().copied()
    }

    /// What the table does with a top header `label`, if any interval contains it.
    pub fn lookup(&self, label: u32) -> Option<RouteAction> {
        self.table.lookup(label)
    }

    /// The interval table.
    pub fn table(&self) -> &IntervalTable {
        &self.table
    }
}
