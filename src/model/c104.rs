//! IMS C104 (stub).
use super::dslink::LinkParams;
use crate::routing::IntervalTable;
use crate::time::Tick;
use std::sync::Arc;
/// Parameters of one C104.
#[derive(Clone, Debug)]
pub struct C104Params {
    /// Ports in use.
    pub ports: usize,
    /// Link parameters.
    pub link: LinkParams,
    /// Header bytes.
    pub header_bytes: u32,
    /// Routing delay in ticks.
    pub routing_delay: Tick,
    /// Output buffer tokens.
    pub output_buffer: u32,
    /// Interval table.
    pub table: Arc<IntervalTable>,
    /// Per input port: generate a random header in [lo, hi).
    pub random_headers: Vec<Option<(u32, u32)>>,
    /// RNG seed.
    pub seed: u64,
}
