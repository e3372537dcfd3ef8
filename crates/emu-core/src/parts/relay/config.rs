//! The `[network]` table of a relay ring topology file (`kind = "relay_ring"`): the
//! toy family that shows how a family plugs into emu (docs/architecture.md "Adding a
//! family"). Nothing here is hardware.

use crate::parts::ConfigError;
use crate::time::Tick;
use serde::{Deserialize, Serialize};

/// Most nodes on one relay ring.
pub const MAX_NODES: u32 = 4096;

/// A ring of relay nodes, each passing balls to the next after a random think time.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RelayRingConfig {
    /// Nodes on the ring (2..=4096).
    pub nodes: u32,
    /// Hops every ball makes before it is retired (1..=1000000).
    pub hops: u32,
    /// Link latency in ticks (1..=1000000).
    #[serde(default = "one")]
    pub latency: Tick,
    /// Longest think time in ticks (1..=1000000): each ball waits 1..=max_think ticks
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
            if (1..=1_000_000).contains(&v) {
                Ok(())
            } else {
                Err(ConfigError::new(key, format!("{v}: give 1..=1000000")))
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
