//! The traffic file schema (`traffic/*.toml`).

use serde::{Deserialize, Serialize};

/// A whole traffic file.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrafficConfig {
    /// One line shown by `emu list`.
    #[serde(default)]
    pub description: String,
    /// How each message's destination is chosen (default: uniform).
    #[serde(default)]
    pub pattern: PatternConfig,
    /// When messages are created.
    pub injection: InjectionConfig,
    /// Message size.
    #[serde(default)]
    pub message: MessageConfig,
    /// Warm-up, measurement and drain.
    #[serde(default)]
    pub phases: PhasesConfig,
    /// Which terminals send.
    #[serde(default)]
    pub terminals: TerminalsConfig,
    /// SCI rings only: every message is a read request (an address packet), and its
    /// target answers it at once with a 64-byte read response (SCI §4.7). The
    /// `[message]` size does not apply.
    #[serde(default, skip_serializing_if = "is_false")]
    #[schemars(extend("default" = false))]
    pub request_response: bool,
}

impl TrafficConfig {
    /// Every section at its default, with continuous injection (which has no
    /// default): what a section a family does not read is compared with.
    pub fn default_for_unread() -> TrafficConfig {
        TrafficConfig {
            description: String::new(),
            pattern: PatternConfig::default(),
            injection: InjectionConfig::Continuous,
            message: MessageConfig::default(),
            phases: PhasesConfig::default(),
            terminals: TerminalsConfig::default(),
            request_response: false,
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Destination patterns. The bit patterns (`shuffle`, `bitrev`, `bitcomp`,
/// `transpose`) need a power-of-two number of terminals.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum PatternConfig {
    /// A destination chosen uniformly at random for every message among all other
    /// terminals (INMOS ch. 7 §7.4.1). On a switch fabric, among all outputs: input i
    /// and output i are different ports (Gramsamer §2.4).
    #[default]
    Uniform,
    /// Uniform among the other terminals, except that no message goes to `node`, which
    /// itself sends uniformly to all others: the starved-node workload of SCI §4.2 (its
    /// Figures 6-7 use node 0).
    Starved {
        /// The terminal no message is sent to.
        #[serde(default)]
        node: u32,
    },
    /// Perfect shuffle: destination = source address rotated left by `rotate` bits
    /// (INMOS ch. 7 §7.7; rotation 0 is the identity: every terminal sends to itself).
    Shuffle {
        /// Bits to rotate by.
        #[serde(default = "one")]
        rotate: u32,
    },
    /// The chapter 7 worst case for the network family: on a binary n-cube, the
    /// sub-cube at one end of a middle-dimension link swapped with the one at the other
    /// end, giving 4/8/16-way contention on the 6/8/10-cube (INMOS ch. 7 §7.6.1).
    Systematic,
    /// Destination = source address with its bits reversed (a standard permutation
    /// that emu adds; the documents do not use it).
    Bitrev,
    /// Destination = source address with every bit complemented (a standard
    /// permutation that emu adds).
    Bitcomp,
    /// Destination = source address with its upper and lower halves swapped, for an
    /// even number of address bits (a standard permutation that emu adds).
    Transpose,
    /// Every message goes to one terminal: a hot spot, or with `terminals.senders` a
    /// single source-destination pair (emu's addition).
    Fixed {
        /// The destination terminal.
        destination: u32,
    },
    /// Switch fabrics only: output i is favoured by input i, which sends there with
    /// probability w + (1 − w)/N and uniformly otherwise (Gramsamer Eq. 2.2: w = 0 is
    /// uniform, w = 1 sends every input to its own output).
    NonUniform {
        /// The unbalance w.
        w: f64,
    },
    /// An explicit destination per source: terminal i sends every message to
    /// `destinations[i]` (one entry per terminal). For a traffic that loads exactly
    /// the channels of a dependency cycle found by `emu check`, or a case `emu stress`
    /// shrank (emu's addition).
    Table {
        /// Index = source terminal, value = its destination.
        destinations: Vec<u32>,
    },
}

fn one() -> u32 {
    1
}

/// Injection processes: when each terminal creates its messages.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum InjectionConfig {
    /// A new message whenever the terminal's source queue is empty: the terminal
    /// always has a message waiting (INMOS ch. 7 §7.4.1, saturating load).
    Continuous,
    /// Bernoulli arrivals: each tick a message is created with a probability that makes
    /// the offered load `load` × link data capacity (one byte per data-token time; on
    /// an SCI ring, of a link's 1 byte/ns; on a fabric, of one packet per cycle:
    /// Gramsamer §2.5.1's Bernoulli traffic).
    Rate {
        /// Offered load as a fraction of link data capacity.
        load: f64,
    },
    /// Each terminal sends `messages` messages, all queued at the start; the run ends
    /// when every one is delivered and reports the completion time (INMOS ch. 7 §7.7).
    Batch {
        /// Messages per sending terminal (on a relay ring: balls per node).
        messages: u32,
    },
    /// Switch fabrics only: on/off bursts (Gramsamer Fig. 2.9, App. D): each burst sends
    /// one packet per cycle to one destination drawn when it begins; bursts last
    /// `burst` packets on average (geometric), and the off periods are such that the
    /// offered load is `load` (p10 = 1/BS, p01 = 1/(BS(1/L − 1) + 1)). `burst = 1` is
    /// Bernoulli.
    Bursty {
        /// Offered load L as a fraction of the link.
        load: f64,
        /// Mean burst size BS in packets.
        burst: f64,
    },
    /// Switch fabrics only: bimodal frames (Gramsamer §2.5.1, "Bimodal Traffic"): on/off
    /// as `bursty`, but each burst is a frame of one of two lengths, `short` or `long`
    /// packets (the long one with probability `long_share`), sent back to back to one
    /// destination drawn when it begins; the off periods (geometric) make the offered
    /// load `load`. The document gives no lengths (it cites its ref. \[72\]); the defaults,
    /// 10 and 30 packets, are the burst sizes it maps from the Internet's two dominant
    /// frame lengths, 565 and 1500 bytes, onto 64-byte packets (§2.5.1), and half the
    /// frames are long (no mix is given): a mean frame of 20 packets.
    Bimodal {
        /// Offered load L as a fraction of the link.
        load: f64,
        /// Packets in a short frame.
        #[serde(default = "short_frame")]
        short: u32,
        /// Packets in a long frame, at least `short`.
        #[serde(default = "long_frame")]
        long: u32,
        /// Probability that a frame is long.
        #[serde(default = "long_share")]
        long_share: f64,
    },
    /// Switch fabrics only: packets at the cycles a trace file gives, one line per
    /// packet or message: `cycle input output packets` (cycle counted from the start in
    /// packet cycles; `#` starts a comment). A relative path is read from the traffic
    /// file's directory. The pattern does not apply.
    Trace {
        /// The trace file.
        file: String,
    },
}

impl InjectionConfig {
    /// The same kind of injection at offered load `load`, for a load sweep: a bursty
    /// process keeps its burst size and a bimodal one its frames; every other kind
    /// becomes Bernoulli (`rate`).
    pub fn at_load(&self, load: f64) -> InjectionConfig {
        match *self {
            InjectionConfig::Bursty { burst, .. } => InjectionConfig::Bursty { load, burst },
            InjectionConfig::Bimodal {
                short,
                long,
                long_share,
                ..
            } => InjectionConfig::Bimodal {
                load,
                short,
                long,
                long_share,
            },
            _ => InjectionConfig::Rate { load },
        }
    }
}

fn short_frame() -> u32 {
    10
}
fn long_frame() -> u32 {
    30
}
fn long_share() -> f64 {
    0.5
}

/// Largest message, in bytes (16 MiB: far past any packet study, small enough that a
/// batch of them is counted before it is queued).
pub(crate) const MAX_MESSAGE_BYTES: u32 = 1 << 24;

/// Message size (INMOS ch. 6 §6.1.1: a message is sent as packets of at most
/// `packet.max_data_bytes`). Networks of C104s only: an SCI ring's and a fabric's
/// packet lengths come from the topology.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct MessageConfig {
    /// Payload bytes per message, split by the VCP into packets of at most
    /// `packet.max_data_bytes`.
    pub bytes: u32,
}

impl Default for MessageConfig {
    fn default() -> Self {
        MessageConfig { bytes: 32 }
    }
}

/// Run phases, in microseconds of virtual time (converted to the nearest tick): a
/// warm-up whose messages are not measured, then a measurement window, then a drain
/// (as the warm-up, running and ending phases of Gramsamer §2.4).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct PhasesConfig {
    /// Sources start creating messages at this time.
    pub start_us: f64,
    /// Warm-up after the start: messages created then are not measured.
    pub warmup_us: f64,
    /// Measurement window: messages created in it are measured, and throughput is
    /// the payload delivered in it.
    pub measure_us: f64,
    /// After the window, how long to wait for the measured messages to be delivered
    /// before giving up and reporting them as undelivered.
    pub drain_limit_us: f64,
}

impl Default for PhasesConfig {
    fn default() -> Self {
        PhasesConfig {
            start_us: 0.0,
            warmup_us: 100.0,
            measure_us: 500.0,
            drain_limit_us: 10_000.0,
        }
    }
}

/// Which terminals send, and which always have a message waiting (emu's addition,
/// for the hot-sender workload of SCI §4.3 and for tests).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct TerminalsConfig {
    /// Terminals that create messages; without the key, all of them. An empty list
    /// is refused (it would send nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub senders: Option<Vec<u32>>,
    /// Terminals that always have a message waiting, whatever the injection: hot
    /// senders (SCI §4.3: "node 0 always tries to transmit a packet"). Not with batch
    /// injection.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub saturated: Vec<u32>,
}

impl TerminalsConfig {
    /// The terminals among `0..terminals` that create messages: the listed ones, or
    /// all of them when the key is left out.
    pub fn sender_list(&self, terminals: u32) -> Vec<u32> {
        match &self.senders {
            Some(list) => list.clone(),
            None => (0..terminals).collect(),
        }
    }
}
