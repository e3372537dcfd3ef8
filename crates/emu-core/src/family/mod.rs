//! Network families as the front end sees them, and the registry that lists them.
//!
//! A family is the kind of network a topology file describes: a network of C104s and
//! T9000s on DS-Links, an SCI ring, a switch fabric, a relay ring. Each implements
//! [`Family`]: it owns its topology sections, builds its case from the two files, says
//! what its report adds ([`ReportFamily`]: sections, the echo of its configuration, how
//! its messages are described) and how `emu check` and `emu stress` treat it. The front
//! end (session, sweep, stress, the command line) asks the registry ([`of`]) and never
//! matches on a family itself; `tests/layers.rs` fails if anything outside the network
//! layer and this module names a `NetworkConfig` variant.
//!
//! Adding a family is one file here, one row in [`FAMILIES`], and its `NetworkConfig`
//! variant (a row of the registry in `network::kinds`); docs/architecture.md "Adding a
//! family" walks through the relay ring.

mod c104;
mod case;
pub mod check;
mod fabric;
pub mod reference;
mod relay_ring;
mod sci;

pub use c104::build_within;
pub use case::{AnyCase, Case, CaseError, CaseVisitor};
pub use relay_ring::RelaySection;

use crate::config::{Loaded, TrafficConfig};
use crate::network::{NetworkConfig, TopologyConfig};
use crate::stats::ReportFamily;

/// What `emu check` does with a family's networks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeadlockCheck {
    /// Build the channel dependency graph from the routing tables and look for a cycle
    /// (networks of C104s).
    Channels,
    /// The family cannot deadlock, for this reason: `emu check` validates the whole
    /// configuration and says so.
    Impossible(&'static str),
}

/// What `emu stress` searches a family's networks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StressSearch {
    /// Deadlocks: random traffic, shrunk to a minimal failing case.
    Deadlock,
    /// Starved nodes, on a ring of this many nodes (SCI §4.2).
    Starvation {
        /// Nodes on the ring.
        nodes: u32,
    },
    /// Nothing to search for, for this reason (exit 2 with it).
    Refused(&'static str),
}

/// One network family: see the module documentation.
pub trait Family: ReportFamily + Sync {
    /// What one of its networks is called in messages, with its article: "a C104
    /// network", "an SCI ring".
    fn name(&self) -> &'static str;
    /// True if `network` (a topology's `[network]` section) is of this family.
    fn owns(&self, network: &NetworkConfig) -> bool;
    /// The `network.kind`s of its networks, as a topology file writes them (the
    /// networks [`Family::owns`]).
    fn kinds(&self) -> &'static [&'static str];
    /// The traffic-file sections its networks read, of [`TRAFFIC_SECTIONS`] (default:
    /// `MESSAGE_TRAFFIC`, all but `request_response`, which SCI rings alone read).
    /// Any other that differs from its default is an error naming the family
    /// ([`unread_traffic`]); `emu list` and the reference list exactly these.
    fn traffic_sections(&self) -> &'static [&'static str] {
        MESSAGE_TRAFFIC
    }
    /// Why a traffic section it does not read does not apply, for the message: e.g.
    /// "its packet lengths come from network.mix". Default: `unread_default`.
    fn unread_because(&self, section: &str) -> &'static str {
        unread_default(section)
    }
    /// The delay unit its sweeps report delays in, e.g. "header times".
    fn delay_unit(&self) -> &'static str;
    /// Builds a case from the loaded files with run seed `seed`. A network that would
    /// need more than `memory_limit` bytes (`None`: no limit) is refused before it is
    /// built where the family can tell beforehand.
    fn load(
        &'static self,
        topology: Loaded<TopologyConfig>,
        traffic: Loaded<TrafficConfig>,
        seed: u64,
        memory_limit: Option<u64>,
    ) -> Result<AnyCase, CaseError>;
    /// What `emu check` does.
    fn deadlock_check(&self) -> DeadlockCheck;
    /// What `emu stress` searches for in `topology`.
    fn stress(&self, topology: &TopologyConfig) -> StressSearch;
    /// A traffic file (TOML) its networks build with, for commands that read only the
    /// topology (`emu check` validates the whole configuration by building it).
    fn probe_traffic(&self) -> &'static str;
    /// Whether `emu sweep` applies: `Err` says why not (the family has no offered load).
    fn sweeps(&self) -> Result<(), &'static str> {
        Ok(())
    }
    /// The JSON Schemas of its own report sections ([`ReportFamily::sections`]), by
    /// their keys, made with `generator` ([`report_schema`]).
    fn section_schemas(
        &self,
        _generator: &mut schemars::SchemaGenerator,
    ) -> Vec<(&'static str, schemars::Schema)> {
        Vec::new()
    }
}

/// Every family, in the order `emu list` and the docs give them.
pub static FAMILIES: &[&dyn Family] = &[
    &c104::C104s,
    &sci::SciRings,
    &fabric::Fabrics,
    &relay_ring::RelayRings,
];

/// The family of `network`.
pub fn of(network: &NetworkConfig) -> &'static dyn Family {
    FAMILIES
        .iter()
        .copied()
        .find(|f| f.owns(network))
        .unwrap_or(FAMILIES[0])
}

/// The JSON Schema of the report (`docs/report-schema.json`, draft 2020-12), derived
/// from the report types, with every family's own sections as optional top-level
/// properties. Every object it describes is closed: a field the types do not have is
/// an error (`additionalProperties: false`).
pub fn report_schema() -> serde_json::Value {
    let mut generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let mut sections = Vec::new();
    for family in FAMILIES {
        sections.extend(family.section_schemas(&mut generator));
    }
    let schema = generator.into_root_schema_for::<crate::stats::Report>();
    let mut value = schema.to_value();
    if let Some(props) = value
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    {
        for (key, section) in sections {
            props.insert(key.to_string(), section.to_value());
        }
    }
    close_objects(&mut value);
    value
}

/// Sets `additionalProperties: false` on every object schema in `v` that lists its
/// properties and says nothing about others.
fn close_objects(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert(
                    "additionalProperties".into(),
                    serde_json::Value::Bool(false),
                );
            }
            map.values_mut().for_each(close_objects);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(close_objects),
        _ => {}
    }
}

/// The sections of a traffic file: tables and the `request_response` flag.
pub const TRAFFIC_SECTIONS: &[&str] = &[
    "pattern",
    "injection",
    "message",
    "phases",
    "terminals",
    "request_response",
];

/// The traffic sections of a family of messages (networks of C104s): all but
/// `request_response`, which SCI §4.7 defines for SCI rings only.
pub(crate) const MESSAGE_TRAFFIC: &[&str] =
    &["pattern", "injection", "message", "phases", "terminals"];

/// The traffic sections of a family whose packet lengths come from its topology
/// (switch fabrics): all but `[message]` and `request_response`.
pub(crate) const WITHOUT_MESSAGE: &[&str] = &["pattern", "injection", "phases", "terminals"];

/// Why a family that is no SCI ring does not read `section`, when the section says
/// more than "it does not read it" (`request_response`, SCI §4.7).
pub(crate) fn unread_default(section: &str) -> &'static str {
    match section {
        "request_response" => "request/response traffic is defined for SCI rings only, SCI §4.7",
        _ => "it does not read it",
    }
}

/// Checks that `traffic` sets nothing `family` does not read: a section of
/// [`TRAFFIC_SECTIONS`] outside [`Family::traffic_sections`] that differs from its
/// default is an error naming it and the family (exit 2). A section left at its default
/// (a shipped file's `[message] bytes = 32` on an SCI ring) is no request and passes.
pub fn unread_traffic(
    family: &dyn Family,
    traffic: &Loaded<TrafficConfig>,
) -> Result<(), CaseError> {
    let given = serde_json::to_value(&traffic.config).unwrap_or_default();
    let default = serde_json::to_value(TrafficConfig {
        injection: traffic.config.injection.clone(),
        ..TrafficConfig::default_for_unread()
    })
    .unwrap_or_default();
    for section in TRAFFIC_SECTIONS {
        if family.traffic_sections().contains(section) || given.get(section) == default.get(section)
        {
            continue;
        }
        return Err(CaseError::Build {
            location: Box::new(
                where_given(traffic, section).unwrap_or_else(|| traffic.location(section)),
            ),
            message: format!(
                "{section} does not apply to {} ({}): remove it, or leave it at its default",
                family.name(),
                family.unread_because(section)
            ),
        });
    }
    Ok(())
}

/// Checks that `topology` has only `family`'s sections ([`ReportFamily::topology_sections`]): a section another family reads
/// (in the file or given with `--set`) is an error naming the section, the families
/// that read it and this one (exit 2).
pub fn only_own_sections(
    family: &dyn Family,
    topology: &Loaded<TopologyConfig>,
) -> Result<(), CaseError> {
    for section in TopologyConfig::SECTIONS {
        if family.topology_sections().contains(section) {
            continue;
        }
        let Some(location) = where_given(topology, section) else {
            continue;
        };
        let readers: Vec<&str> = FAMILIES
            .iter()
            .filter(|f| f.topology_sections().contains(section))
            .map(|f| f.name())
            .collect();
        return Err(CaseError::Build {
            location: Box::new(location),
            message: format!(
                "[{section}] is a section of {}; this topology is {} (network.kind), which does \
                 not read it: remove it",
                readers.join(" and "),
                family.name()
            ),
        });
    }
    Ok(())
}

/// Where top-level `section` of a loaded file was given: the first `--set` of a key in
/// it (the location names the argument), else the section in the file; `None` if
/// neither has it.
fn where_given<T>(file: &Loaded<T>, section: &str) -> Option<crate::config::Location> {
    let section_of = |key: &str| key.split(['.', '[']).next().unwrap_or("").to_string();
    if let Some((key, _)) = file
        .overrides
        .iter()
        .find(|(k, _)| section_of(k) == section)
    {
        return Some(file.location(key));
    }
    file.written_in_file(section)
        .then(|| file.location(section))
}

/// Loads a topology file of any family (see [`crate::config::lookup::find_source`] for
/// how `spec` is found) and applies the `--set` arguments in `sets` that belong to
/// topology files; every argument in `sets` is checked. The kinds of networks of C104s
/// word the type errors at their keys ([`crate::config::load_topology_with`]).
pub fn load_topology(
    spec: &str,
    sets: &[String],
) -> Result<Loaded<TopologyConfig>, crate::config::ConfigError> {
    crate::config::load_topology_with(spec, sets, &crate::network::kinds::C104Kinds)
}

/// [`load_topology`] for a file already in memory: `text` is taken as the file named
/// `name`, with no lookup and no file read (for fuzzing and tests; see
/// [`crate::config::load::load_topology_text_with`]).
pub fn load_topology_text(
    name: &str,
    text: &str,
    sets: &[String],
) -> Result<Loaded<TopologyConfig>, crate::config::ConfigError> {
    crate::config::load::load_topology_text_with(
        name,
        text,
        sets,
        &crate::network::kinds::C104Kinds,
    )
}

/// Loads `topology` and `traffic` (paths or shipped names) with `sets` and builds the
/// case of whatever family the topology is (see [`AnyCase::load_within`]).
pub(crate) fn load_files(
    topology: &str,
    traffic: &str,
    sets: &[String],
) -> Result<(Loaded<TopologyConfig>, Loaded<TrafficConfig>), CaseError> {
    crate::config::validate_sets(sets)?;
    let topo = load_topology(topology, sets)?;
    let traf = crate::config::load_traffic(traffic, sets)?;
    Ok((topo, traf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_owns_its_shipped_topologies_and_only_one_owns_each() {
        for entry in crate::config::shipped_topologies() {
            let topo = load_topology(entry.0, &[]).expect("a shipped topology");
            let owners = FAMILIES
                .iter()
                .filter(|f| f.owns(&topo.config.network))
                .count();
            assert_eq!(owners, 1, "{}", entry.0);
            let kind = serde_json::to_value(&topo.config.network).expect("serialises")["kind"]
                .as_str()
                .map(str::to_string)
                .expect("a kind");
            assert!(
                of(&topo.config.network).kinds().contains(&kind.as_str()),
                "{}: {kind}",
                entry.0
            );
        }
    }

    /// Every `network.kind` the configuration types have is one family's.
    #[test]
    fn every_network_kind_is_one_familys() {
        let schema = schemars::schema_for!(NetworkConfig).to_value();
        let kinds: Vec<&str> = schema["oneOf"]
            .as_array()
            .expect("variants")
            .iter()
            .filter_map(|v| v["properties"]["kind"]["const"].as_str())
            .collect();
        assert!(kinds.len() >= 11, "{kinds:?}");
        for kind in kinds {
            let owners = FAMILIES
                .iter()
                .filter(|f| f.kinds().contains(&kind))
                .count();
            assert_eq!(owners, 1, "{kind}");
        }
    }
}
