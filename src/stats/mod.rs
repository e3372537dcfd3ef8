//! Statistics: per-terminal HDR histograms and counters, merged in node order, and the
//! reports built from them (../shared/DESIGN.md "Output").

pub mod metric;
pub mod terminal_stats;

pub use metric::Metric;
pub use terminal_stats::{TerminalCounters, TerminalStats};
