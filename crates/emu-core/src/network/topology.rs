//! A whole topology file (`topologies/*.toml`): its `[network]` table, whose kinds
//! are the registry's ([`super::kinds`]), and the parts' sections.
//!
//! Every field has the source documents' default; unknown keys are errors. Semantic
//! checks (ranges, consistency) live in [`crate::network::build()`], so that each
//! message can name the key. The configuration layer below reads the file into it
//! without naming it (`crate::config::load::load_topology_with` is generic over what
//! it reads).

use super::kinds::NetworkConfig;
use crate::parts::c104::config::C104Config;
use crate::parts::dslink::config::{FaultConfig, LinkConfig, PacketConfig};
use crate::parts::t9000::config::VcpConfig;
use serde::{Deserialize, Serialize};

/// A whole topology file.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
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

impl TopologyConfig {
    /// The sections a topology file may have besides `description` and `[network]`, in
    /// file order. Which of them a network reads is its family's choice
    /// (`crate::family::Family::sections`).
    pub const SECTIONS: &'static [&'static str] =
        // The file's tables (`FileKind::sections`) after `[network]`, which comes first.
        match crate::config::FileKind::Topology.sections().split_first() {
                Some((_, rest)) => rest,
                None => &[],
            };

    /// The configuration as a report echoes it: `description`, `[network]` and, of
    /// [`TopologyConfig::SECTIONS`], those in `sections`, in file order. A family
    /// without `[link]` (SCI rings, fabrics) echoes `[faults]` only when a link fault
    /// is set, and only its link-fault keys.
    pub fn echo<'a>(&'a self, sections: &'a [&'a str]) -> Echo<'a> {
        Echo {
            config: self,
            sections,
        }
    }
}

/// A topology configuration with only some of its sections, for reports: see
/// [`TopologyConfig::echo`].
#[derive(Clone, Copy, Debug)]
pub struct Echo<'a> {
    config: &'a TopologyConfig,
    sections: &'a [&'a str],
}

/// The schema of an [`Echo`]: a topology configuration whose sections besides
/// `description` and `[network]` may each be absent.
pub(crate) fn echo_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let mut schema = <TopologyConfig as schemars::JsonSchema>::json_schema(generator);
    if let Some(required) = schema
        .get_mut("required")
        .and_then(serde_json::Value::as_array_mut)
    {
        required.retain(|key| !TopologyConfig::SECTIONS.iter().any(|s| key == s));
    }
    schema
}

impl Serialize for Echo<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let c = self.config;
        let has = |name: &str| self.sections.contains(&name);
        let fields = 2 + TopologyConfig::SECTIONS.iter().filter(|s| has(s)).count();
        let mut s = serializer.serialize_struct("TopologyConfig", fields)?;
        s.serialize_field("description", &c.description)?;
        s.serialize_field("network", &c.network)?;
        if has("link") {
            s.serialize_field("link", &c.link)?;
        }
        if has("packet") {
            s.serialize_field("packet", &c.packet)?;
        }
        if has("c104") {
            s.serialize_field("c104", &c.c104)?;
        }
        if has("vcp") {
            s.serialize_field("vcp", &c.vcp)?;
        }
        if has("faults") {
            if has("link") {
                s.serialize_field("faults", &c.faults)?;
            } else if c.faults != crate::parts::dslink::config::FaultConfig::default() {
                s.serialize_field("faults", &LinkFaults::of(&c.faults))?;
            }
        }
        s.end()
    }
}

/// The link-fault keys of `[faults]`, as a family without DS-Links echoes them: only
/// when some are set, and without the DS-Link credit faults it refuses.
#[derive(Serialize)]
struct LinkFaults<'a> {
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    link_down: &'a [crate::parts::dslink::config::LinkDown],
    #[serde(skip_serializing_if = "is_zero")]
    token_error_rate: f64,
}

impl<'a> LinkFaults<'a> {
    fn of(f: &'a crate::parts::dslink::config::FaultConfig) -> LinkFaults<'a> {
        LinkFaults {
            link_down: &f.link_down,
            token_error_rate: f.token_error_rate,
        }
    }
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}
