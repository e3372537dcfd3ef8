//! Stub.

use super::table::Report;

/// Runs the experiment.
pub fn run(_quick: bool) -> Result<Report, String> {
    Err("not yet".into())
}
