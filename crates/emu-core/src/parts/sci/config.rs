//! The `[network]` table of an SCI ring topology file (`kind = "sci_ring"`), with its
//! validation (SCI §2, §4).

use super::PacketMix;
use crate::parts::ConfigError;
use crate::parts::bounds::{Bound, Low, real};
use serde::{Deserialize, Serialize};

/// Nodes on one ring (`network.nodes`): the paper studies 2 to 64 (SCI §4.1, Fig. 5);
/// emu allows more, up to the size at which a run is still interactive.
pub const NODES: Bound = Bound::counting(2, 4096, "nodes");

/// Active buffers per node (`network.active_buffers`; SCI §4.4 studies one and two;
/// with many, a node never waits for its echoes).
pub const ACTIVE_BUFFERS: Bound = Bound::counting(0, 65_535, "active buffers");

/// An SCI ring (SCI §2, Figure 1): `nodes` nodes, each one link to the next.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SciRingConfig {
    /// Nodes on the ring (the paper studies 2 to 64, SCI §4.1 Fig. 5).
    pub nodes: u32,
    /// Go-bit flow control (SCI §2.2). Off by default, as in the paper's base case
    /// (Fig. 3).
    #[serde(default)]
    pub flow_control: bool,
    /// Active buffers per node: a node may have this many plus one send packets
    /// awaiting their echo (SCI §4.4). Absent: unlimited, the paper's default (SCI §4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_buffers: Option<u32>,
    /// Probability that the sink queue consumes a symbol in a cycle (SCI §4.5: 0.2 to
    /// 1.0; default 1).
    #[serde(default = "one")]
    pub sink_rate: f64,
    /// The send-packet mix (SCI §4): the fractions of address, 64-byte and 256-byte
    /// data packets, which must sum to 1.
    #[serde(default)]
    pub mix: MixConfig,
}

fn one() -> f64 {
    1.0
}

/// Fractions of address (16-byte), 64-byte data and 256-byte data send packets
/// (SCI §4; default 80 % / 20 % / 0). They must sum to 1.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct MixConfig {
    /// Address packets: a 16-byte header, 8 symbols.
    pub address: f64,
    /// Data packets with a 64-byte block: 40 symbols.
    pub data64: f64,
    /// Data packets with a 256-byte block: 136 symbols.
    pub data256: f64,
}

impl Default for MixConfig {
    fn default() -> Self {
        let m = PacketMix::PAPER;
        MixConfig {
            address: m.address,
            data64: m.data64,
            data256: m.data256,
        }
    }
}

/// The validated ring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SciRingSpec {
    /// Nodes on the ring.
    pub nodes: u32,
    /// Go-bit flow control.
    pub flow_control: bool,
    /// Active buffers; `None` for unlimited.
    pub active_buffers: Option<u32>,
    /// Sink consumption probability per cycle.
    pub sink_rate: f64,
    /// The packet mix.
    pub mix: PacketMix,
}

impl SciRingConfig {
    /// Checks every field; errors name the key.
    pub fn validate(&self) -> Result<SciRingSpec, ConfigError> {
        NODES.check("network.nodes", self.nodes.into())?;
        if let Some(n) = self.active_buffers {
            ACTIVE_BUFFERS.check("network.active_buffers", n.into())?;
        }
        if !(self.sink_rate > 0.0 && self.sink_rate <= 1.0) {
            return Err(ConfigError::new(
                "network.sink_rate",
                format!(
                    "{}: give a probability in (0, 1] (SCI §4.5 studies 0.2 to 1)",
                    crate::text::number(self.sink_rate)
                ),
            ));
        }
        let m = self.mix;
        for (key, f) in [
            ("network.mix.address", m.address),
            ("network.mix.data64", m.data64),
            ("network.mix.data256", m.data256),
        ] {
            real(key, f, Low::Closed, 0.0, 1.0, "(a fraction)")?;
        }
        let sum = m.address + m.data64 + m.data256;
        if (sum - 1.0).abs() > 1e-9 {
            return Err(ConfigError::new(
                "network.mix",
                format!("the fractions sum to {sum}; they must sum to 1"),
            ));
        }
        Ok(SciRingSpec {
            nodes: self.nodes,
            flow_control: self.flow_control,
            active_buffers: self.active_buffers,
            sink_rate: self.sink_rate,
            mix: PacketMix {
                address: m.address,
                data64: m.data64,
                data256: m.data256,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(text: &str) -> Result<SciRingSpec, ConfigError> {
        let c: SciRingConfig = toml::from_str(text).expect("parses");
        c.validate()
    }

    #[test]
    fn defaults_are_the_papers_base_case() {
        let s = ring("nodes = 4").expect("valid");
        assert!(!s.flow_control);
        assert_eq!(s.active_buffers, None);
        assert_eq!(s.sink_rate, 1.0);
        assert_eq!(s.mix, PacketMix::PAPER);
    }

    #[test]
    fn bad_values_name_their_key() {
        assert_eq!(ring("nodes = 1").unwrap_err().key, "network.nodes");
        assert_eq!(
            ring("nodes = 4\nsink_rate = 0").unwrap_err().key,
            "network.sink_rate"
        );
        let e = ring("nodes = 4\n[mix]\naddress = 0.5\ndata64 = 0.2").unwrap_err();
        assert_eq!(e.key, "network.mix");
        assert!(e.message.contains("0.7"), "{}", e.message);
        let e = ring("nodes = 4\n[mix]\naddress = 1.5\ndata64 = -0.5").unwrap_err();
        assert_eq!(e.key, "network.mix.address");
    }
}
