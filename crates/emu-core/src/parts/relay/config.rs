//! The `[network]` table of a relay ring topology file (`kind = "relay_ring"`): the
//! toy family that shows how a family plugs into emu (docs/architecture.md "Adding a
//! family"). Nothing here is hardware.

use crate::parts::ConfigError;
use crate::parts::bounds::Bound;
use crate::time::Tick;
use serde::{Deserialize, Serialize};

/// Nodes on one relay ring (`network.nodes`).
pub const NODES: Bound = Bound::span(2, 4096, "nodes");

/// Hops per ball, and latency and think time in ticks (`network.hops`,
/// `network.latency`, `network.max_think`).
pub const STEPS: Bound = Bound::span(1, 1_000_000, "");

/// A ring of relay nodes, each passing balls to the next after a random think time.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RelayRingConfig {
    /// Nodes on the ring.
    pub nodes: u32,
    /// Hops every ball makes before it is retired.
    pub hops: u32,
    /// Link latency in ticks.
    #[serde(default = "one")]
    pub latency: Tick,
    /// Longest think time in ticks: each ball waits 1 to `max_think` ticks (uniformly)
    /// at each node.
    #[serde(default = "one")]
    pub max_think: Tick,
}

fn one() -> Tick {
    1
}

impl RelayRingConfig {
    /// Checks every value's range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        NODES.check("network.nodes", self.nodes.into())?;
        STEPS.check("network.hops", self.hops.into())?;
        STEPS.check("network.latency", self.latency)?;
        STEPS.check("network.max_think", self.max_think)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_range_is_checked_and_named() {
        let ok = RelayRingConfig {
            nodes: 4,
            hops: 8,
            latency: 1,
            max_think: 3,
        };
        assert_eq!(ok.validate(), Ok(()));
        let bad = |c: RelayRingConfig| c.validate().unwrap_err().key;
        assert_eq!(
            bad(RelayRingConfig {
                nodes: 1,
                ..ok.clone()
            }),
            "network.nodes"
        );
        assert_eq!(
            bad(RelayRingConfig {
                hops: 0,
                ..ok.clone()
            }),
            "network.hops"
        );
        assert_eq!(
            bad(RelayRingConfig {
                latency: 0,
                ..ok.clone()
            }),
            "network.latency"
        );
        let slow = RelayRingConfig {
            max_think: 1_000_001,
            ..ok
        };
        assert_eq!(bad(slow), "network.max_think");
    }
}
