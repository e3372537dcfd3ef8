//! The `[network]` table of a switch-fabric topology file (`kind = "fabric"`), with its
//! validation (Gramsamer §2.3, §4.3, §7.4-7.6).

use super::flow::FlowControl;
use super::rxs::Strategy;
use super::{Architecture, OutputScheduler};
use crate::parts::ConfigError;
use crate::parts::bounds::{Bound, Low, Reals, real};
use serde::{Deserialize, Serialize};

/// Ports (`network.ports`): a fabric keeps N² crosspoint queues and its links'
/// channels hold up to N flow-control cells per cycle (the document studies up to 64).
pub const PORTS: Bound = Bound::counting(1, 256, "ports");
/// Most ports ([`PORTS`]), for sizing.
pub(crate) const MAX_PORTS: u32 = PORTS.max as u32;
/// Round trip in packet cycles (`network.rtt`): each direction of a link takes at
/// least one cycle.
pub const RTT: Bound = Bound::counting(2, 1_000_000, "packet cycles of round trip");
/// Crosspoint memory in packets (`network.memory`; the document's largest is 4 RTT =
/// 256).
pub const MEMORY: Bound = Bound::counting(1, 1_000_000, "packets");
/// Bytes per packet (`network.packet_bytes`; the document's cells are 64 to 128).
pub const PACKET_BYTES: Bound = Bound::counting(1, 65_536, "bytes");
/// Link rate in Gb/s (`network.link_gbps`): from 1 Mb/s, a packet cycle of half a
/// millisecond at 64 bytes, to 10 Tb/s (the document's is 10, OC-192).
pub const LINK_GBPS: Reals = Reals::closed(0.001, 10_000.0, "Gb/s");
/// Packets an adapter's VOQs may hold together (`network.voq_cap`).
pub const VOQ_CAP: Bound = Bound::counting(1, 100_000_000, "packets");
/// The values of `network.architecture`.
pub(crate) const ARCHITECTURES: [&str; 2] = ["cicq", "cioq"];
/// The values of `network.output_scheduler`.
pub(crate) const OUTPUT_SCHEDULERS: [&str; 2] = ["rr", "ocf"];

/// A single-stage N × N switch fabric with its adapters (Gramsamer ch. 2, 7).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FabricConfig {
    /// N: switch ports, one adapter each (Gramsamer §7.6 studies up to 64).
    pub ports: u32,
    /// Round trip of a link in packet cycles: RTT/2 on the data path, RTT/2 back on the
    /// control path (§2.3; 64 is the document's design point, 4 its short links).
    #[serde(default = "design_rtt")]
    pub rtt: u32,
    /// Crosspoint memory M: packets (`64`) or a percentage of RTT (`"60%"`, rounded to
    /// the nearest packet: 20 % of 64 is 13, 60 % is 38, as §7.6.2 prints). Default:
    /// RTT. Not with `flow_control = "none"`, whose queues are unbounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryConfig>,
    /// `cicq` (buffered crossbar, default) or `cioq` (shared output queues).
    #[serde(default = "cicq")]
    pub architecture: String,
    /// `rr` or `ocf`; default: `rr` for CICQ, `ocf` for CIOQ (§7.2.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_scheduler: Option<String>,
    /// `credit` (relative credit, default), `grant` (Grant ST/MT), `absolute` (Credit
    /// Abs), `grant-ot` (optimised grant), `absolute-i` (Credit Abs I, N123),
    /// `absolute-b` (Credit Abs B, N23), or `none` (no flow control, unbounded queues:
    /// the set-up of §7.2). Gramsamer §4.3, Table 4.1.
    #[serde(default = "credit")]
    pub flow_control: String,
    /// Relative credit: how credits are returned: `reference` (all at once, up to N per
    /// cycle), or one per cycle by `rr`, `fifo`, `hof`, `lof` or `lof-cliq` (§7.5).
    /// Default: `reference`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<String>,
    /// Grant: occupancy thresholds, ascending; one is Grant ST, several Grant MT
    /// (§4.3.1). Default: one at M − RTT + 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thresholds: Option<Vec<u32>>,
    /// Abs I and Abs B: n, a crosspoint sends its free locations on every n-th packet
    /// departure (§4.3.2); B_n = n of the memory hides the wait. Required by them,
    /// refused by the others; 1..=M − RTT + 1 (Abs I) or 1..=M (Abs B).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_every: Option<u32>,
    /// Bytes per packet (default 64, §2.5.1).
    #[serde(default = "packet_bytes")]
    pub packet_bytes: u32,
    /// Link rate in Gb/s (default 10, OC-192, §5.6.4); with `packet_bytes` it sets the
    /// packet cycle (64 bytes at 10 Gb/s: 51.2 ns).
    #[serde(default = "link_gbps")]
    pub link_gbps: f64,
    /// Most packets an input adapter's VOQs may hold together (default 100 000); more
    /// are refused and counted, so a run above saturation reports its overload instead
    /// of eating memory.
    #[serde(default = "voq_cap")]
    pub voq_cap: u64,
}

fn design_rtt() -> u32 {
    64
}
fn cicq() -> String {
    "cicq".into()
}
fn credit() -> String {
    "credit".into()
}
fn packet_bytes() -> u32 {
    64
}
fn link_gbps() -> f64 {
    10.0
}
fn voq_cap() -> u64 {
    100_000
}

/// Crosspoint memory: packets (1 to 1,000,000), or a percentage of RTT.
// Read by hand rather than as an untagged enum, so that a bad value is reported at
// its key with the range.
#[derive(Clone, Debug, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(untagged)]
#[non_exhaustive]
pub enum MemoryConfig {
    /// Packets.
    Packets(u32),
    /// "60%": a percentage of RTT.
    Percent(String),
}

impl<'de> Deserialize<'de> for MemoryConfig {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{self, Unexpected, Visitor};
        /// What a memory takes, as serde's "expected …": with the value as serde
        /// describes it, the error is placed at the key (`config::keypath`).
        struct V;
        impl V {
            fn takes(&self) -> String {
                format!(
                    "{}, or a percentage of RTT in quotes (\"60%\")",
                    MEMORY.give()
                )
            }
        }
        impl Visitor<'_> for V {
            type Value = MemoryConfig;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(&self.takes())
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<MemoryConfig, E> {
                match u32::try_from(v) {
                    Ok(p) => self.visit_u64(p.into()),
                    Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &&*self.takes())),
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<MemoryConfig, E> {
                match u32::try_from(v) {
                    Ok(p) if MEMORY.contains(p.into()) => Ok(MemoryConfig::Packets(p)),
                    _ => Err(E::invalid_value(Unexpected::Unsigned(v), &&*self.takes())),
                }
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<MemoryConfig, E> {
                Err(E::invalid_type(Unexpected::Float(v), &&*self.takes()))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<MemoryConfig, E> {
                Ok(MemoryConfig::Percent(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A validated fabric.
#[derive(Clone, Debug, PartialEq)]
pub struct FabricSpec {
    /// N.
    pub ports: u16,
    /// RTT in packet cycles (≥ 2).
    pub rtt: u32,
    /// M in packets; `None` without flow control.
    pub memory: Option<u32>,
    /// The architecture.
    pub architecture: Architecture,
    /// The output scheduler.
    pub output_scheduler: OutputScheduler,
    /// The ingress flow control.
    pub flow_control: FlowControl,
    /// Bytes per packet.
    pub packet_bytes: u32,
    /// One packet cycle in ns.
    pub cycle_ns: f64,
    /// VOQ cap per adapter.
    pub voq_cap: u64,
}

impl FabricSpec {
    /// Cycles on the data path (⌈RTT/2⌉).
    pub fn data_cycles(&self) -> u32 {
        self.rtt.div_ceil(2)
    }

    /// Cycles on the control path (⌊RTT/2⌋).
    pub(crate) fn control_cycles(&self) -> u32 {
        self.rtt / 2
    }

    /// What the report should say about this fabric under traffic that offers at most
    /// `pair_load` packets per cycle from one input to one output, one line each: a
    /// crosspoint memory below the round trip under relative credit or Grant OT, which
    /// the document takes (B_min = 1) but which holds each input–output pair to M
    /// packets per round trip, below the work-conserving B = RTT (Gramsamer §4.3.1,
    /// §4.3.3, Table 4.1). Said only where the traffic asks a pair for more than that.
    pub fn warnings(&self, pair_load: f64) -> Vec<String> {
        let name = match self.flow_control {
            FlowControl::Credit(_) => "relative credit",
            FlowControl::GrantOt { .. } => "Grant OT",
            _ => return Vec::new(),
        };
        let Some(m) = self.memory.filter(|&m| m < self.rtt) else {
            return Vec::new();
        };
        let bound = f64::from(m) / f64::from(self.rtt);
        if pair_load <= bound {
            return Vec::new();
        }
        let pct = |x: f64| crate::text::decimal((x * 1000.0).round() / 10.0);
        vec![format!(
            "network.memory is {memory}, below the round trip of {rtt} cycles: {name} \
             then lets each input send at most {memory} per round trip to each output \
             ({bound} % of a packet per cycle), and this traffic offers one pair up to \
             {offered} %: correct, but not work-conserving (Gramsamer Table 4.1: B = RTT)",
            memory = crate::text::count(u64::from(m), "packet", "packets"),
            rtt = self.rtt,
            bound = pct(bound),
            offered = pct(pair_load),
        )]
    }
}

fn err(key: &'static str, message: impl Into<String>) -> ConfigError {
    ConfigError::new(key, message)
}

/// The values of `network.flow_control` (Gramsamer Table 4.1, and `none`).
pub(crate) const FLOW_CONTROLS: [&str; 7] = [
    "credit",
    "grant",
    "absolute",
    "grant-ot",
    "absolute-i",
    "absolute-b",
    "none",
];

fn unknown_flow_control(name: &str) -> ConfigError {
    let quoted: Vec<String> = FLOW_CONTROLS.iter().map(|f| format!("\"{f}\"")).collect();
    let (last, rest) = quoted
        .split_last()
        .map_or(("", &[][..]), |(l, r)| (l.as_str(), r));
    err(
        "network.flow_control",
        format!(
            "{}: give {} or {last}",
            crate::text::excerpt(name),
            rest.join(", ")
        ),
    )
}

impl FabricConfig {
    /// The validated fabric; every error names its key.
    pub fn validate(&self) -> Result<FabricSpec, ConfigError> {
        PORTS.check("network.ports", self.ports.into())?;
        RTT.check("network.rtt", self.rtt.into())?;
        let architecture = match self.architecture.as_str() {
            "cicq" => Architecture::Cicq,
            "cioq" => Architecture::Cioq,
            other => {
                return Err(err(
                    "network.architecture",
                    format!("{}: give \"cicq\" or \"cioq\"", crate::text::excerpt(other)),
                ));
            }
        };
        let output_scheduler = match self.output_scheduler.as_deref() {
            None => architecture.default_scheduler(),
            Some("rr") => OutputScheduler::Rr,
            Some("ocf") => OutputScheduler::Ocf,
            Some(other) => {
                return Err(err(
                    "network.output_scheduler",
                    format!("{}: give \"rr\" or \"ocf\"", crate::text::excerpt(other)),
                ));
            }
        };
        let fc_name = self.flow_control.as_str();
        if !FLOW_CONTROLS.contains(&fc_name) {
            return Err(unknown_flow_control(fc_name));
        }
        if self.strategy.is_some() && fc_name != "credit" {
            return Err(err(
                "network.strategy",
                "a credit return strategy applies to flow_control = \"credit\" only",
            ));
        }
        if self.thresholds.is_some() && fc_name != "grant" {
            return Err(err(
                "network.thresholds",
                "thresholds apply to flow_control = \"grant\" only",
            ));
        }
        if self.update_every.is_some() && !["absolute-i", "absolute-b"].contains(&fc_name) {
            return Err(err(
                "network.update_every",
                "update_every applies to flow_control = \"absolute-i\" or \"absolute-b\" only",
            ));
        }
        let memory = match (&self.memory, fc_name) {
            (Some(_), "none") => {
                return Err(err(
                    "network.memory",
                    "flow_control = \"none\" has unbounded crosspoint queues: remove memory",
                ));
            }
            (_, "none") => None,
            (None, _) => Some(self.rtt),
            (Some(m), _) => Some(self.memory_packets(m)?),
        };
        let flow_control = match fc_name {
            "none" => FlowControl::None,
            "credit" => {
                let name = self.strategy.as_deref().unwrap_or("reference");
                let s = Strategy::from_name(name).ok_or_else(|| {
                    err(
                        "network.strategy",
                        format!(
                            "{}: give one of reference, rr, fifo, hof, lof, lof-cliq",
                            crate::text::excerpt(name)
                        ),
                    )
                })?;
                FlowControl::Credit(s)
            }
            "grant" => FlowControl::Grant {
                thresholds: self.grant_thresholds(memory.unwrap_or(self.rtt))?,
            },
            "absolute" => {
                let m = memory.unwrap_or(self.rtt);
                let regular = FlowControl::absolute_regular(m, self.rtt).ok_or_else(|| {
                    err(
                        "network.memory",
                        format!(
                            "absolute credit needs M ≥ RTT = {}: an excess buffer of RTT − 1 \
                             locations for the packets on their way, and at least one regular \
                             location (Gramsamer §4.3.2): M is {m}",
                            self.rtt
                        ),
                    )
                })?;
                FlowControl::Absolute { regular }
            }
            // Gramsamer §4.3.1, Table 4.1: Grant OT is correct from B_min = 1 (it
            // oscillates there) and work-conserving from B = RTT; every M is taken.
            "grant-ot" => FlowControl::GrantOt {
                window: self.rtt - 1,
            },
            "absolute-i" => {
                let m = memory.unwrap_or(self.rtt);
                // B_r + B_n: what is left after the excess buffer of RTT − 1, as B_r is
                // for Credit Abs.
                let Some(counted) = FlowControl::absolute_regular(m, self.rtt) else {
                    return Err(err(
                        "network.memory",
                        format!(
                            "Credit Abs I needs M ≥ RTT = {}: an excess buffer of RTT − 1 \
                             locations for the packets on their way, and B_r + B_n ≥ n ≥ 1 \
                             (Gramsamer §4.3.2): M is {m}",
                            self.rtt
                        ),
                    ));
                };
                let every = self.update_every(counted, "M − RTT + 1")?;
                FlowControl::AbsoluteI { counted, every }
            }
            "absolute-b" => {
                let m = memory.unwrap_or(self.rtt);
                let every = self.update_every(m, "M")?;
                FlowControl::AbsoluteB {
                    counted: m,
                    every,
                    window: self.rtt - 1,
                }
            }
            other => return Err(unknown_flow_control(other)),
        };
        PACKET_BYTES.check("network.packet_bytes", self.packet_bytes.into())?;
        LINK_GBPS.check("network.link_gbps", self.link_gbps)?;
        VOQ_CAP.check("network.voq_cap", self.voq_cap)?;
        Ok(FabricSpec {
            ports: self.ports as u16,
            rtt: self.rtt,
            memory,
            architecture,
            output_scheduler,
            flow_control,
            packet_bytes: self.packet_bytes,
            cycle_ns: f64::from(self.packet_bytes) * 8.0 / self.link_gbps,
            voq_cap: self.voq_cap,
        })
    }

    fn memory_packets(&self, m: &MemoryConfig) -> Result<u32, ConfigError> {
        let packets = match m {
            MemoryConfig::Packets(p) => *p,
            MemoryConfig::Percent(s) => {
                let pct: f64 = s
                    .trim()
                    .strip_suffix('%')
                    .and_then(|v| v.trim().parse().ok())
                    .ok_or_else(|| {
                        err(
                            "network.memory",
                            format!(
                                "{}: give packets (64) or a percentage of RTT (\"60%\")",
                                crate::text::excerpt(s)
                            ),
                        )
                    })?;
                let most = MEMORY.max as f64 / f64::from(self.rtt) * 100.0;
                let pct = real("network.memory", pct, Low::Open, 0.0, most, "% of RTT")?;
                (pct / 100.0 * f64::from(self.rtt)).round() as u32
            }
        };
        if packets == 0 {
            return Err(err(
                "network.memory",
                "a crosspoint needs at least one packet location",
            ));
        }
        MEMORY.check("network.memory", packets.into())?;
        Ok(packets)
    }

    /// n of Abs I and Abs B, at most `most` (B_r + B_n: with fewer locations counted
    /// than n, the adapter could spend its counter and never see another value).
    fn update_every(&self, most: u32, most_is: &str) -> Result<u32, ConfigError> {
        let key = "network.update_every";
        let Some(n) = self.update_every else {
            return Err(err(
                key,
                format!(
                    "flow_control = \"{}\" sends its free locations on every n-th departure: \
                     give update_every = n, 1 to {most} ({most_is})",
                    self.flow_control
                ),
            ));
        };
        if !(1..=most).contains(&n) {
            return Err(err(
                key,
                format!(
                    "{n}: give 1 to {most} ({most_is}: the memory the values count must hold \
                     the n packets whose departures send the next one)"
                ),
            ));
        }
        Ok(n)
    }

    fn grant_thresholds(&self, m: u32) -> Result<Vec<u32>, ConfigError> {
        let key = "network.thresholds";
        // A stop signal takes effect after RTT − 1 more packets can have been sent.
        let Some(top) = (m + 1).checked_sub(self.rtt).filter(|&t| t >= 1) else {
            return Err(err(
                "network.memory",
                format!(
                    "grant flow control needs M ≥ RTT = {} locations (Gramsamer §4.3.1: \
                     B_min = RTT + 1 with the stop counted from the next cycle; here it \
                     takes effect in the cycle of the crossing): M is {m}",
                    self.rtt
                ),
            ));
        };
        let t = self.thresholds.clone().unwrap_or_else(|| vec![top]);
        if t.is_empty() || t.len() > 255 {
            return Err(err(key, "give 1 to 255 thresholds"));
        }
        if t.windows(2).any(|w| w[0] >= w[1]) {
            return Err(err(
                key,
                format!("{t:?}: thresholds must be strictly ascending"),
            ));
        }
        if t[0] == 0 || t[t.len() - 1] > top {
            return Err(err(
                key,
                format!(
                    "{t:?}: each threshold must be from 1 to {top} (M − RTT + 1, so that the \
                     RTT − 1 packets still on their way after a stop fit)"
                ),
            ));
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> FabricConfig {
        toml::from_str("ports = 16").expect("minimal fabric")
    }

    #[test]
    fn defaults_are_the_design_point() {
        let s = base().validate().expect("valid");
        assert_eq!((s.ports, s.rtt, s.memory), (16, 64, Some(64)));
        assert_eq!(s.flow_control, FlowControl::Credit(Strategy::Reference));
        assert_eq!(s.output_scheduler, OutputScheduler::Rr);
        assert!((s.cycle_ns - 51.2).abs() < 1e-9);
        assert_eq!((s.data_cycles(), s.control_cycles()), (32, 32));
    }

    /// The value lists the reference prints are the ones the validator takes.
    #[test]
    fn every_listed_architecture_and_scheduler_is_taken() {
        for a in ARCHITECTURES {
            for o in OUTPUT_SCHEDULERS {
                let c = FabricConfig {
                    architecture: a.into(),
                    output_scheduler: Some(o.into()),
                    ..base()
                };
                assert!(c.validate().is_ok(), "{a} {o}");
            }
        }
    }

    #[test]
    fn memory_in_percent_rounds_as_the_document_prints() {
        for (pct, m) in [
            ("20%", 13),
            ("40%", 26),
            ("60%", 38),
            ("100%", 64),
            ("200%", 128),
        ] {
            let c = FabricConfig {
                memory: Some(MemoryConfig::Percent(pct.into())),
                ..base()
            };
            assert_eq!(c.validate().expect("valid").memory, Some(m), "{pct}");
        }
        let bad = FabricConfig {
            memory: Some(MemoryConfig::Percent("lots".into())),
            ..base()
        };
        assert_eq!(bad.validate().unwrap_err().key, "network.memory");
    }

    #[test]
    fn bad_values_name_their_key() {
        let cases: Vec<(FabricConfig, &str)> = vec![
            (FabricConfig { ports: 0, ..base() }, "network.ports"),
            (FabricConfig { rtt: 1, ..base() }, "network.rtt"),
            (
                FabricConfig {
                    strategy: Some("lifo".into()),
                    ..base()
                },
                "network.strategy",
            ),
            (
                FabricConfig {
                    flow_control: "grant".into(),
                    strategy: Some("lof".into()),
                    ..base()
                },
                "network.strategy",
            ),
            (
                FabricConfig {
                    flow_control: "grant".into(),
                    memory: Some(MemoryConfig::Packets(10)),
                    ..base()
                },
                "network.memory",
            ),
            (
                FabricConfig {
                    flow_control: "grant".into(),
                    memory: Some(MemoryConfig::Packets(128)),
                    thresholds: Some(vec![70, 66]),
                    ..base()
                },
                "network.thresholds",
            ),
            (
                FabricConfig {
                    flow_control: "none".into(),
                    memory: Some(MemoryConfig::Packets(128)),
                    ..base()
                },
                "network.memory",
            ),
            (
                FabricConfig {
                    architecture: "banyan".into(),
                    ..base()
                },
                "network.architecture",
            ),
        ];
        for (c, key) in cases {
            assert_eq!(c.validate().unwrap_err().key, key, "{c:?}");
        }
    }

    #[test]
    fn grant_defaults_to_one_threshold_rtt_from_the_top() {
        let c = FabricConfig {
            flow_control: "grant".into(),
            memory: Some(MemoryConfig::Packets(128)),
            ..base()
        };
        assert_eq!(
            c.validate().expect("valid").flow_control,
            FlowControl::Grant {
                thresholds: vec![65]
            }
        );
    }

    #[test]
    fn the_other_schemes_of_table_4_1_read_their_parameters() {
        let with = |fc: &str, m: u32, n: Option<u32>| FabricConfig {
            flow_control: fc.into(),
            memory: Some(MemoryConfig::Packets(m)),
            update_every: n,
            ..base()
        };
        let fc = |c: FabricConfig| c.validate().map(|s| s.flow_control);
        assert_eq!(
            fc(with("grant-ot", 1, None)),
            Ok(FlowControl::GrantOt { window: 63 })
        );
        assert_eq!(
            fc(with("absolute-i", 67, Some(4))),
            Ok(FlowControl::AbsoluteI {
                counted: 4,
                every: 4
            })
        );
        assert_eq!(
            fc(with("absolute-b", 4, Some(4))),
            Ok(FlowControl::AbsoluteB {
                counted: 4,
                every: 4,
                window: 63
            })
        );
        // n must fit what the values count (B_r + B_n ≥ n), and be given.
        for (c, key) in [
            (with("absolute-i", 66, Some(4)), "network.update_every"),
            (with("absolute-i", 63, Some(1)), "network.memory"),
            (with("absolute-b", 3, Some(4)), "network.update_every"),
            (with("absolute-b", 64, Some(0)), "network.update_every"),
            (with("absolute-b", 64, None), "network.update_every"),
            (with("absolute", 64, Some(1)), "network.update_every"),
            (with("grant-ot", 64, Some(1)), "network.update_every"),
            (with("grant-st", 64, None), "network.flow_control"),
        ] {
            let e = c.validate().unwrap_err();
            assert_eq!(e.key, key, "{c:?}: {e}");
        }
    }
}
