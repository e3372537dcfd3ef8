//! Loading a topology or traffic file: find it, apply `--set` overrides, deserialize.

use super::decode::decode;
use super::error::ConfigError;
use super::lookup::find_source;
use super::overrides::parse_sets;
use super::source::{FileKind, SourceFile};
use super::{TopologyConfig, TrafficConfig};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A deserialized file with what is needed to say where each value came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded<T> {
    /// The deserialized configuration, overrides applied.
    pub config: T,
    /// The file it was read from.
    pub file: SourceFile,
    /// The overrides applied to this file, in order, as (dotted key without the
    /// `topology.`/`traffic.` prefix, raw value).
    pub overrides: Vec<(String, String)>,
}

/// Loads a topology file (see [`super::lookup::find_source`] for how `spec` is found)
/// and applies the `--set` arguments in `sets` that belong to topology files. Every
/// argument in `sets` is checked, including those for traffic files.
pub fn load_topology(spec: &str, sets: &[String]) -> Result<Loaded<TopologyConfig>, ConfigError> {
    load(FileKind::Topology, spec, sets)
}

/// Loads a traffic file (see [`super::lookup::find_source`] for how `spec` is found)
/// and applies the `--set` arguments in `sets` that belong to traffic files. Every
/// argument in `sets` is checked, including those for topology files.
pub fn load_traffic(spec: &str, sets: &[String]) -> Result<Loaded<TrafficConfig>, ConfigError> {
    load(FileKind::Traffic, spec, sets)
}

fn load<T: DeserializeOwned + Serialize>(
    kind: FileKind,
    spec: &str,
    sets: &[String],
) -> Result<Loaded<T>, ConfigError> {
    let overrides: Vec<_> = parse_sets(sets)?
        .into_iter()
        .filter(|o| o.kind == kind)
        .collect();
    let file = find_source(kind, spec)?;
    load_source(file, &overrides)
}

/// Deserializes an already-found file with these overrides (all of its kind).
pub(crate) fn load_source<T: DeserializeOwned + Serialize>(
    file: SourceFile,
    overrides: &[super::overrides::Override],
) -> Result<Loaded<T>, ConfigError> {
    let config = decode(&file, overrides)?;
    let overrides = overrides
        .iter()
        .map(|o| (o.key.clone(), o.value.clone()))
        .collect();
    Ok(Loaded {
        config,
        file,
        overrides,
    })
}
