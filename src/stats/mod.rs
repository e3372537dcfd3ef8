//! Statistics: per-terminal HDR histograms and counters, merged in node order, and the
//! reports built from them (../shared/DESIGN.md "Output").

pub mod format;
pub mod latency;
pub mod metric;
pub mod progress;
pub mod report;
pub mod terminal_stats;
pub mod text;

pub use latency::LatencySummary;
pub use metric::Metric;
pub use progress::Progress;
pub use report::{Report, ReportInput};
pub use terminal_stats::{TerminalCounters, TerminalStats};
pub use text::RunInfo;
