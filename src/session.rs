//! One run as the command line does it, for every front end (the `emu` binary, tests,
//! benchmarks, reproductions): load the two files with their `--set` overrides, build
//! the plan, derive the run control, and turn an engine's outcome into the report.

pub use crate::config::stem;
pub use crate::family::check::{CheckPlan, Impossible, check_plan, topology_plan};
pub use crate::family::{AnyCase, Case, CaseError, CaseVisitor};

pub use crate::text::shell_quote;
