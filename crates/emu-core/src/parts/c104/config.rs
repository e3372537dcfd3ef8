//! The `[c104]` section of a topology file (INMOS ch. 7 §7.1, INMOS ch. 6 §6.3), with
//! its validation.

use crate::parts::ConfigError;
use crate::parts::dslink::config::{BufferSize, DsLinkSpec, ns_to_ticks};
use crate::parts::dslink::token::DATA_TOKEN_BITS;
use crate::time::Tick;
use serde::{Deserialize, Serialize};

/// IMS C104 parameters (INMOS ch. 7 §7.1, INMOS ch. 6 §6.3).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct C104Config {
    /// Header time: from a header leaving one switch to it being routed and ready to
    /// leave the next (INMOS ch. 7 §7.6: "approximately 500ns"; INMOS ch. 6 §6.3.6 h). The switch's own
    /// routing delay is this minus the header's bits and the wire delay.
    pub header_time_ns: u32,
    /// Output buffer per link, in tokens, or "packet" (INMOS ch. 7 §7.1: one packet).
    pub output_buffer_tokens: BufferSize,
}

impl Default for C104Config {
    fn default() -> Self {
        C104Config {
            header_time_ns: 500,
            output_buffer_tokens: BufferSize::Packet,
        }
    }
}

/// The validated `[c104]` section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct C104Spec {
    /// Header time in ticks: the delay unit of INMOS ch. 7 (§7.6).
    pub header_time: Tick,
    /// The switch's own routing delay: the header time less the header's bits and the
    /// wire delay.
    pub routing_delay: Tick,
    /// Output buffer per link, in tokens.
    pub output_buffer: u32,
}

impl C104Config {
    /// Checks the section against the validated link it sits on.
    pub fn validate(&self, link: &DsLinkSpec) -> Result<C104Spec, ConfigError> {
        let output_buffer = self.output_buffer_tokens.tokens(link.packet_tokens);
        if output_buffer == 0 {
            return Err(ConfigError::new(
                "c104.output_buffer_tokens",
                "must be at least 1 token",
            ));
        }
        let max = crate::parts::dslink::config::MAX_BUFFER_TOKENS;
        if output_buffer > max {
            return Err(ConfigError::new(
                "c104.output_buffer_tokens",
                format!("{output_buffer} tokens: give at most {max}"),
            ));
        }
        let header_time =
            ns_to_ticks("c104.header_time_ns", self.header_time_ns, link.rate_mbit_s)?;
        let hb = link.header_bytes;
        let header_bits = Tick::from(hb) * DATA_TOKEN_BITS;
        let routing_delay = header_time
            .checked_sub(header_bits + link.wire)
            .ok_or_else(|| {
                ConfigError::new(
                    "c104.header_time_ns",
                    format!(
                        "{} ns is shorter than sending the {hb}-byte header ({} ns) plus the wire delay ({} ns): \
                         the header time includes both (INMOS ch. 7 §7.6)",
                        self.header_time_ns,
                        header_bits as f64 * link.time.tick_ns,
                        link.wire_delay_ns
                    ),
                )
            })?;
        Ok(C104Spec {
            header_time,
            routing_delay,
            output_buffer,
        })
    }
}
