//! Statistics: per-terminal HDR histograms and counters, merged in node order, and the
//! reports built from them (docs/architecture.md "Output").

pub mod confidence;
pub mod fabric;
pub mod fairness;
pub mod faults_text;
pub mod flows;
pub mod format;
pub mod hgrm;
pub mod journey;
pub mod latency;
pub mod links;
pub mod per_node;
pub mod report;
pub mod section;
pub mod shares;
pub mod text;

pub use crate::terminal::Metric;
pub use crate::terminal::{TerminalCounters, TerminalStats};
pub use latency::LatencySummary;
pub use report::{Generic, Report, ReportFamily, ReportInput};
pub use section::{FamilySection, FamilySections};
pub use text::RunInfo;
