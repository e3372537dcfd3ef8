//! The `[network]` table of a relay ring topology file (`kind = "relay_ring"`): the
//! toy family that shows how a family plugs into emu (docs/architecture.md "Adding a
//! family"). Nothing here is hardware.

use crate::parts::ConfigError;
use crate::time::Tick;
use serde::{Deserialize, Serialize};

/// Most nodes on one relay ring.
pub const MAX_NODES: u32 = 4096;

/// Most hops per ball, and the longest latency and think time in ticks.
pub const MAX_STEPS: u64 = 1_000_000;

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
        if !(2..=MAX_NODES).contains(&self.nodes) {
            return Err(ConfigError::new(
                "network.nodes",
                format!("{}: give 2..={MAX_NODES} nodes", self.nodes),
            ));
        }
        let within = |key: &'static str, v: u64| {
            if (1..=MAX_STEPS).contains(&v) {
                Ok(())
            } else {
                Err(ConfigError::new(key, format!("{v}: give 1..={MAX_STEPS}")))
            }
        };
        within("network.hops", u64::from(self.hops))?;
        within("network.latency", self.latency)?;
        within("network.max_think", self.max_think)
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
