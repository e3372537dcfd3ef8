//! Build (stub).
use super::Network;
use crate::config::{TopologyConfig, TrafficConfig};
/// A validation error naming the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {message}")]
pub struct BuildError {
    /// Which file: "topology" or "traffic".
    pub file: &'static str,
    /// Dotted key path, e.g. `network.dimensions`.
    pub key: String,
    /// What is wrong.
    pub message: String,
}
/// Builds the plan.
pub fn build(
    _name: &str,
    _t: &TopologyConfig,
    _f: &TrafficConfig,
    _seed: u64,
) -> Result<Network, BuildError> {
    todo!()
}
