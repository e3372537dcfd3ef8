//! The DS-Link sections of a topology file: `[link]`, `[packet]` and `[faults]`
//! (INMOS ch. 6 §6.1-6.2), with their validation.

use super::LinkParams;
use crate::parts::ConfigError;
use crate::time::{Tick, TimeBase};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// DS-Link parameters (INMOS ch. 6 §6.1-6.2).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct LinkConfig {
    /// Link bit rate. One tick is one bit period: 100 Mbit/s → 10 ns ticks (INMOS ch. 6 §6.1.1).
    pub bit_rate_mbit_s: u32,
    /// One-way delay from a token's last bit leaving a transmitter to it being in the
    /// receiver's buffer: wire plus link output and input circuitry. INMOS ch. 6 §6.2.2 puts
    /// the link circuitry at about 400 ns for the round trip; 200 ns each way.
    pub wire_delay_ns: u32,
    /// Input buffer of every link receiver, in tokens, or "packet" for one maximum
    /// packet (INMOS ch. 6 §6.2.2: 20 tokens).
    pub buffer_tokens: BufferSize,
    /// Tokens of credit per flow-control token (INMOS ch. 6 §6.1.1: one FCT per 8 tokens).
    pub fct_batch_tokens: u32,
}

impl Default for LinkConfig {
    fn default() -> Self {
        LinkConfig {
            bit_rate_mbit_s: 100,
            wire_delay_ns: 200,
            buffer_tokens: BufferSize::Tokens(20),
            fct_batch_tokens: 8,
        }
    }
}

/// Packet format (INMOS ch. 6 §6.1.1, §6.2.3).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct PacketConfig {
    /// Routing header length in bytes: 2 when the header labels do not fit in one
    /// byte (universal routing needs extra labels for its random headers).
    pub header_bytes: u32,
    /// Largest packet payload; messages are split into packets of at most this many
    /// bytes (the T9000 uses 32).
    pub max_data_bytes: u32,
}

impl Default for PacketConfig {
    fn default() -> Self {
        PacketConfig {
            header_bytes: 1,
            max_data_bytes: 32,
        }
    }
}

/// Fault injection, off by default: deliberate misconfigurations that break the
/// hardware's rules, so that the emulator's flow-control checks can be seen to work
/// (networks of C104s only), and link faults for stress-testing: a link that goes
/// down, parity errors (every family but relay rings). The link faults are emu's
/// decision, not the documents' (docs/architecture.md "Link faults"); the network
/// builder reads them, as it knows the node names.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct FaultConfig {
    /// Links that go down, each dead in both directions from its time on, as a cut
    /// cable would be: every token arriving from then on is lost. For example
    /// `[{ link = "c104[3]:2", at_us = 100.0 }]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("default" = []))]
    pub link_down: Vec<LinkDown>,
    /// Probability that a token arriving on a link has a parity error, which brings
    /// that link down from the arrival of that token (itself lost). 0: none, and the
    /// run is that of a file without the key, byte for byte.
    #[serde(skip_serializing_if = "is_zero")]
    #[schemars(extend("default" = 0.0))]
    pub token_error_rate: f64,
    /// Every receiver grants this many tokens of credit beyond its buffer at start-up,
    /// as a misprogrammed link would. Any value > 0 eventually overflows a buffer.
    pub extra_initial_credit: u32,
    /// Accept an input buffer smaller than the flow-control batch. Such a link can never
    /// grant a whole FCT, so no data ever moves (INMOS ch. 6 §6.2.1); emu refuses such
    /// a buffer unless this is set, and `emu reproduce dslink-latency` sets it to show
    /// the stall.
    pub allow_buffer_below_batch: bool,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// One entry of `faults.link_down`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkDown {
    /// The link, by either end: `NODE:PORT` with the node named as the report names
    /// it, e.g. `"c104[3]:2"`.
    pub link: String,
    /// When it goes down, in µs of virtual time (from 0 up to the run's hard stop).
    pub at_us: f64,
}

/// A buffer size: a number of tokens, or `"packet"` for one maximum-size packet
/// (header + payload + terminator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BufferSize {
    /// This many tokens.
    Tokens(u32),
    /// One maximum-size packet.
    Packet,
}

impl BufferSize {
    /// The size in tokens, given the token count of a maximum-size packet.
    pub fn tokens(self, packet_tokens: u32) -> u32 {
        match self {
            BufferSize::Tokens(n) => n,
            BufferSize::Packet => packet_tokens,
        }
    }
}

/// As written: a number of tokens or the string `"packet"`.
impl schemars::JsonSchema for BufferSize {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "BufferSize".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A number of tokens, or \"packet\" for one maximum-size packet.",
            "oneOf": [
                { "type": "integer", "minimum": 0, "maximum": u32::MAX },
                { "const": "packet" }
            ]
        })
    }
}

impl Serialize for BufferSize {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            BufferSize::Tokens(n) => s.serialize_u32(*n),
            BufferSize::Packet => s.serialize_str("packet"),
        }
    }
}

impl<'de> Deserialize<'de> for BufferSize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = BufferSize;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number of tokens or \"packet\"")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<BufferSize, E> {
                u32::try_from(v).map(BufferSize::Tokens).map_err(|_| {
                    E::custom(format!(
                        "{v} tokens: give 0 to {MAX_BUFFER_TOKENS} tokens, or \"packet\""
                    ))
                })
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<BufferSize, E> {
                u32::try_from(v).map(BufferSize::Tokens).map_err(|_| {
                    E::custom(format!(
                        "{v} tokens: give 0 to {MAX_BUFFER_TOKENS} tokens, or \"packet\""
                    ))
                })
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<BufferSize, E> {
                if v == "packet" {
                    Ok(BufferSize::Packet)
                } else {
                    Err(E::custom(format!(
                        "\"{v}\" is not a buffer size: give a number of tokens or \"packet\""
                    )))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// The validated `[link]`, `[packet]` and `[faults]` sections: the time base, the wire
/// and every endpoint's parameters, and the packet format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DsLinkSpec {
    /// One tick is one bit period of the link (INMOS ch. 6 §6.1.1).
    pub time: TimeBase,
    /// Link bit rate in Mbit/s.
    pub rate_mbit_s: u32,
    /// One-way link delay in nanoseconds, as given.
    pub wire_delay_ns: u32,
    /// One-way link delay in ticks (≥ 1).
    pub wire: Tick,
    /// Every endpoint's buffer, batch and fault settings.
    pub link: LinkParams,
    /// Routing header bytes (1 or 2).
    pub header_bytes: u32,
    /// Largest packet payload in bytes.
    pub max_data_bytes: u32,
    /// Tokens of a maximum-size packet: header, payload and terminator.
    pub packet_tokens: u32,
}

/// Converts whole nanoseconds to whole bit periods at `rate_mbit_s`, or explains why
/// it cannot.
pub(crate) fn ns_to_ticks(
    key: &'static str,
    ns: u32,
    rate_mbit_s: u32,
) -> Result<Tick, ConfigError> {
    let scaled = u64::from(ns) * u64::from(rate_mbit_s);
    if scaled % 1000 != 0 {
        return Err(ConfigError::new(
            key,
            format!(
                "{ns} ns is not a whole number of bit periods at {rate_mbit_s} Mbit/s (one tick = {} ns)",
                1000.0 / f64::from(rate_mbit_s)
            ),
        ));
    }
    Ok(scaled / 1000)
}

/// The largest buffer accepted, in tokens (`link.buffer_tokens`, `c104.output_buffer_tokens`):
/// a packet of the largest payload fits with room to spare, and a mistyped value
/// cannot ask for gigabytes.
pub(crate) const MAX_BUFFER_TOKENS: u32 = 1 << 20;

/// The fastest link, in Mbit/s (`link.bit_rate_mbit_s`): a tick of 1 ps.
pub(crate) const MAX_BIT_RATE_MBIT_S: u32 = 1_000_000;

/// The largest packet payload, in bytes (`packet.max_data_bytes`; the T9000's is 32).
pub(crate) const MAX_DATA_BYTES: u32 = 65_536;

/// The most extra credit `faults.extra_initial_credit` accepts, in tokens.
pub(crate) const MAX_EXTRA_CREDIT: u32 = 1 << 16;

/// Checks the DS-Link sections, in the order a reader meets them.
pub fn validate(
    link: &LinkConfig,
    packet: &PacketConfig,
    faults: &FaultConfig,
) -> Result<DsLinkSpec, ConfigError> {
    let rate = link.bit_rate_mbit_s;
    if rate == 0 || rate > MAX_BIT_RATE_MBIT_S {
        return Err(ConfigError::new(
            "link.bit_rate_mbit_s",
            format!("{rate} is not a link rate: give Mbit/s in 1..={MAX_BIT_RATE_MBIT_S}"),
        ));
    }
    let time = TimeBase {
        tick_ns: 1000.0 / f64::from(rate),
    };
    let wire = ns_to_ticks("link.wire_delay_ns", link.wire_delay_ns, rate)?;
    if wire == 0 {
        return Err(ConfigError::new(
            "link.wire_delay_ns",
            "must be at least one bit period: every link has a delay",
        ));
    }
    let hb = packet.header_bytes;
    if !(1..=2).contains(&hb) {
        return Err(ConfigError::new(
            "packet.header_bytes",
            format!("{hb}: a C104 header is 1 or 2 bytes"),
        ));
    }
    let max_data = packet.max_data_bytes;
    if !(1..=MAX_DATA_BYTES).contains(&max_data) {
        return Err(ConfigError::new(
            "packet.max_data_bytes",
            format!("{max_data}: give 1..={MAX_DATA_BYTES} bytes"),
        ));
    }
    let packet_tokens = hb + max_data + 1;
    let batch = link.fct_batch_tokens;
    if batch == 0 {
        return Err(ConfigError::new(
            "link.fct_batch_tokens",
            "must be at least 1 token per FCT",
        ));
    }
    let buffer = link.buffer_tokens.tokens(packet_tokens);
    if buffer > MAX_BUFFER_TOKENS {
        return Err(ConfigError::new(
            "link.buffer_tokens",
            format!(
                "{buffer} tokens: give at most {MAX_BUFFER_TOKENS} (a C104 input buffer holds about 20; INMOS ch. 6 §6.2.1)"
            ),
        ));
    }
    if faults.extra_initial_credit > MAX_EXTRA_CREDIT {
        return Err(ConfigError::new(
            "faults.extra_initial_credit",
            format!(
                "{}: give at most {MAX_EXTRA_CREDIT} tokens (one is enough to overflow a buffer; millions would only keep every link sending FCTs, and nothing would move)",
                faults.extra_initial_credit
            ),
        ));
    }
    if buffer < batch && !faults.allow_buffer_below_batch {
        return Err(ConfigError::new(
            "link.buffer_tokens",
            format!(
                "{buffer} tokens is smaller than the flow-control batch of {batch}: no data could ever be sent \
                 (INMOS ch. 6 §6.2.1: the input buffer must be at least the batch size); \
                 set faults.allow_buffer_below_batch = true to run it anyway"
            ),
        ));
    }
    Ok(DsLinkSpec {
        time,
        rate_mbit_s: rate,
        wire_delay_ns: link.wire_delay_ns,
        wire,
        link: LinkParams {
            buffer,
            batch,
            extra_initial_credit: faults.extra_initial_credit,
        },
        header_bytes: hb,
        max_data_bytes: max_data,
        packet_tokens,
    })
}
