//! The topology file schema (`topologies/*.toml`).
//!
//! Every field has the source documents' default; unknown keys are errors. Semantic
//! checks (ranges, consistency) live in [`crate::network::build()`], so that each
//! message can name the key.

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A whole topology file.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TopologyConfig {
    /// One line shown by `emu list`.
    #[serde(default)]
    pub description: String,
    /// The shape of the network and its routing.
    pub network: NetworkConfig,
    /// DS-Link parameters, shared by every link.
    #[serde(default)]
    pub link: LinkConfig,
    /// Packet format.
    #[serde(default)]
    pub packet: PacketConfig,
    /// IMS C104 switch parameters.
    #[serde(default)]
    pub c104: C104Config,
    /// T9000 virtual channel processor parameters.
    #[serde(default)]
    pub vcp: VcpConfig,
    /// Deliberate misconfigurations, for testing the emulator's own checks.
    #[serde(default)]
    pub faults: FaultConfig,
}

/// The network family and its size.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum NetworkConfig {
    /// Binary n-cube of C104s, one terminal per switch, e-cube routing highest
    /// dimension first (002_90368e98637f104c.txt §7.3.1).
    Hypercube {
        /// n: the cube has 2^n switches and 2^n terminals (1..=20).
        dimensions: u32,
        /// `deterministic` (e-cube) or `universal`: two parallel cubes, the first to
        /// a random intermediate switch, the second from it to the destination
        /// (002 §7.5).
        #[serde(default)]
        routing: RoutingMode,
        /// Universal routing only: 2 (the default) gives each journey its own cube of
        /// links (002 §7.5); 1 forces both journeys onto one set of links, whose
        /// channel dependencies then have cycles (for deadlock studies: `emu check`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        link_sets: Option<u32>,
    },
    /// A ring of C104s, one terminal per switch, every packet routed clockwise: the
    /// simplest network whose channel dependency graph has a cycle, so it can
    /// deadlock (002 §7.3.2 on why wrap-around links need doubling).
    Ring {
        /// Number of switches (2..=1024).
        switches: u32,
    },
    /// A square 2-D grid of C104s, one terminal per switch, edge links unused,
    /// routed first in y then in x (002 §7.3.2). Terminal label = y·side + x.
    Grid {
        /// Switches per side (2..=256); the grid has side² switches and terminals.
        side: u32,
        /// `deterministic` (y then x) or `universal`: first to a random column of the
        /// same row over an extra set of x links, then y then x (002 §7.5).
        #[serde(default)]
        routing: RoutingMode,
    },
    /// A k-ary 2-cube (2-D torus), one terminal per switch, dimension-order routing
    /// (y then x) the shorter way round each ring (002 §7.3.2 on wrap-around links).
    Torus {
        /// Switches per side (2..=256).
        side: u32,
        /// `single` (one set of wrap-around links: can deadlock) or `doubled`.
        #[serde(default)]
        wrap: Wrap,
    },
    /// A general k-ary n-cube (or, with `wrap = "none"`, an n-dimensional mesh), one
    /// terminal per switch, dimension-order routing highest dimension first.
    KaryNcube {
        /// Switches per dimension (2..=256).
        k: u32,
        /// Dimensions (1..=15, within a C104's 32 links).
        n: u32,
        /// `none` (a mesh), `single` or `doubled`.
        #[serde(default)]
        wrap: Wrap,
    },
    /// One C104 with a terminal on each of `terminals` links: a single-stage crossbar
    /// network (004_084d320f46657248.txt, crossbar networks; 002 §7.1).
    Crossbar {
        /// Terminals (1..=32, the C104's links).
        terminals: u32,
    },
    /// The indirect multistage network of 002 §7.2-7.3.3 (Figures 7.1-7.4): a left
    /// column of C104s with 16 terminal links and 16 links to a right column; 1024
    /// terminals use 64-way networks as centre stages.
    Min {
        /// 32, 64, 128, 256, 512 or 1024.
        terminals: u32,
        /// `deterministic` (a fixed right-hand switch per source switch and
        /// destination), `universal` (a random right-hand link) or `adaptive` (grouped
        /// adaptive routing over the right-hand links, 002 §7.5 last paragraph).
        #[serde(default)]
        routing: RoutingMode,
    },
    /// A network drawn by the user: C104 switches, terminals and links listed
    /// explicitly, routing tables given as intervals or computed as shortest paths
    /// (interval labelling, 002 §7.1). See [`NetlistConfig`].
    Netlist(NetlistConfig),
}

/// The explicit form of a network (`kind = "netlist"`): switches by port count,
/// terminals by the switch port they hang on (terminal i has header label i), links
/// between switch ports, and optionally each switch's interval table (002 §7.1: a C104
/// routes by giving each output link intervals of header labels).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NetlistConfig {
    /// Port count of each C104 switch (1..=32); switch i is the i-th entry.
    pub switches: Vec<u32>,
    /// `[switch, port]` of each terminal; terminal i has label i.
    pub terminals: Vec<[u32; 2]>,
    /// `[switch_a, port_a, switch_b, port_b]`: one bidirectional DS-Link each.
    #[serde(default)]
    pub links: Vec<[u32; 4]>,
    /// Per switch, `[lo, hi, port]` intervals: labels lo..hi (hi exclusive) leave on
    /// `port`. Empty: shortest-path tables are computed.
    #[serde(default)]
    pub tables: Vec<Vec<[u32; 3]>>,
}

impl NetworkConfig {
    /// True if the packets of one source–destination pair can take different paths
    /// (universal or adaptive routing), so that without acknowledges they may arrive
    /// out of order (002 §7.5).
    pub fn multipath(&self) -> bool {
        match self {
            NetworkConfig::Hypercube { routing, .. }
            | NetworkConfig::Grid { routing, .. }
            | NetworkConfig::Min { routing, .. } => *routing != RoutingMode::Deterministic,
            _ => false,
        }
    }
}

/// How packets choose their path (002 §7.5).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RoutingMode {
    /// The same route every time between a source and a destination.
    #[default]
    Deterministic,
    /// Via a random intermediate: a random header generated on the terminal link and
    /// deleted where the random phase ends (002 §7.1, §7.5).
    Universal,
    /// Grouped adaptive routing: a packet takes any free link of a group of
    /// consecutive outputs (002 §7.5, last paragraph). MIN only.
    Adaptive,
}

/// Wrap-around links of a torus or k-ary n-cube (002 §7.3.2: "the number of links
/// used to 'wrap around' must be doubled to avoid the possibility of deadlock").
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Wrap {
    /// No wrap-around links: a mesh.
    None,
    /// One set of ring links: dimension-order routing has cyclic channel dependencies
    /// and can deadlock.
    Single,
    /// Two sets of ring links, with a dateline: a packet uses the second set until it
    /// has crossed the wrap-around link and the first after, so no cycle (deadlock-free).
    #[default]
    Doubled,
}

/// DS-Link parameters (000_e95d114b48e985aa.txt §6.1-6.2).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LinkConfig {
    /// Link bit rate. One tick is one bit period: 100 Mbit/s → 10 ns ticks (000 §6.1.1).
    pub bit_rate_mbit_s: u32,
    /// One-way delay from a token's last bit leaving a transmitter to it being in the
    /// receiver's buffer: wire plus link output and input circuitry. 000 §6.2.2 puts
    /// the link circuitry at about 400 ns for the round trip; 200 ns each way.
    pub wire_delay_ns: u32,
    /// Input buffer of every link receiver, in tokens, or "packet" for one maximum
    /// packet (000 §6.2.2: 20 tokens).
    pub buffer_tokens: BufferSize,
    /// Tokens of credit per flow-control token (000 §6.1.1: one FCT per 8 tokens).
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

/// Packet format (000 §6.1.1, §6.2.3).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct PacketConfig {
    /// Routing header length in bytes: 1 or 2.
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

/// IMS C104 parameters (002 §7.1, 000 §6.3).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct C104Config {
    /// Header time: from a header leaving one switch to it being routed and ready to
    /// leave the next (002 §7.6: "approximately 500ns"; 000 §6.3.6 h). The switch's own
    /// routing delay is this minus the header's bits and the wire delay.
    pub header_time_ns: u32,
    /// Output buffer per link, in tokens, or "packet" (002 §7.1: one packet).
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

/// T9000 virtual channel processor parameters (000 §6.2.3).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct VcpConfig {
    /// Every data packet is acknowledged by an empty packet before its channel sends
    /// the next one. `false` turns the protocol off for network-only studies such as
    /// chapter 7 (002: "we have separated issues of protocol overhead ... from issues of
    /// network performance").
    pub acknowledge: bool,
    /// Virtual channels a terminal may have sending at once (one message each).
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

/// Fault injection: deliberate misconfigurations that break the hardware's rules, so
/// that the emulator's flow-control checks can be seen to work. Off by default.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct FaultConfig {
    /// Every receiver grants this many tokens of credit beyond its buffer at start-up,
    /// as a misprogrammed link would. Any value > 0 eventually overflows a buffer.
    pub extra_initial_credit: u32,
    /// Accept an input buffer smaller than the flow-control batch. Such a link can never
    /// grant a whole FCT, so no data ever moves (000_e95d114b48e985aa.txt §6.2.1); the
    /// check in [`crate::network::build()`] rejects it unless this is set, and
    /// `emu reproduce dslink-latency` sets it to show the stall.
    pub allow_buffer_below_batch: bool,
}

/// A buffer size: a number of tokens, or `"packet"` for one maximum-size packet
/// (header + payload + terminator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
                    E::custom(format!("{v} is not a number of tokens (0..=4294967295)"))
                })
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<BufferSize, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(-1))
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
