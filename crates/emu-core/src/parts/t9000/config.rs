//! The `[vcp]` section of a topology file (INMOS ch. 6 §6.2.3), with its validation.

use crate::parts::ConfigError;
use serde::{Deserialize, Serialize};

/// Most virtual channels a terminal may have sending at once (`vcp.channels`).
pub(crate) const MAX_CHANNELS: u32 = 4096;

/// T9000 virtual channel processor parameters (INMOS ch. 6 §6.2.3).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct VcpConfig {
    /// Every data packet is acknowledged by an empty packet before its channel sends
    /// the next one. `false` turns the protocol off for network-only studies such as
    /// chapter 7 (INMOS ch. 7: "we have separated issues of protocol overhead ... from issues of
    /// network performance").
    pub acknowledge: bool,
    /// Virtual channels a terminal may have sending at once, one message each (the VCP
    /// multiplexes its channels over the link, INMOS ch. 6 §6.2.3).
    pub channels: u32,
}

impl Default for VcpConfig {
    fn default() -> Self {
        VcpConfig {
            acknowledge: true,
            channels: 1,
        }
    }
}

impl VcpConfig {
    /// Checks the section.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.channels == 0 || self.channels > MAX_CHANNELS {
            return Err(ConfigError::new(
                "vcp.channels",
                format!("{}: give 1..={MAX_CHANNELS} channels", self.channels),
            ));
        }
        Ok(())
    }
}
