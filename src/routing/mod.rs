//! Routing (stub).
/// Interval table.
#[derive(Clone, Debug, Default)]
pub struct IntervalTable;
