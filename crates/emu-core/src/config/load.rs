//! Loading a topology or traffic file: find it, apply `--set` overrides, deserialize.

use super::TrafficConfig;
use super::decode::decode;
use super::error::ConfigError;
use super::kinds::{Kinds, NoKinds};
use super::lookup::find_source;
use super::overrides::parse_sets;
use super::source::{FileKind, Origin, SourceFile};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::PathBuf;

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
/// into `T` and applies the `--set` arguments in `sets` that belong to topology files.
/// Every argument in `sets` is checked, including those for traffic files. A type
/// error at a key of `[network]` words the key's range as `kinds` says. `T` and
/// `kinds` are the network layer's (its `TopologyConfig` and its registry of kinds:
/// `emu_core::family::load_topology` passes them), which this layer does not name.
pub fn load_topology_with<T: DeserializeOwned + Serialize>(
    spec: &str,
    sets: &[String],
    kinds: &dyn Kinds,
) -> Result<Loaded<T>, ConfigError> {
    load(FileKind::Topology, spec, sets, kinds)
}

/// Loads a traffic file (see [`super::lookup::find_source`] for how `spec` is found)
/// and applies the `--set` arguments in `sets` that belong to traffic files. Every
/// argument in `sets` is checked, including those for topology files.
pub fn load_traffic(spec: &str, sets: &[String]) -> Result<Loaded<TrafficConfig>, ConfigError> {
    load(FileKind::Traffic, spec, sets, &NoKinds)
}

/// [`load_topology_with`] for a file already in memory: `text` is taken as the file
/// named `name` (an [`Origin::Path`] of `name`, which messages show), with no lookup
/// and no file read. For fuzzing and tests; the rest of the path is
/// [`load_topology_with`]'s.
pub fn load_topology_text_with<T: DeserializeOwned + Serialize>(
    name: &str,
    text: &str,
    sets: &[String],
    kinds: &dyn Kinds,
) -> Result<Loaded<T>, ConfigError> {
    load_text(FileKind::Topology, name, text, sets, kinds)
}

/// [`load_traffic`] for a file already in memory, as [`load_topology_text_with`]: a
/// trace the traffic names would be looked for beside `name`.
pub fn load_traffic_text(
    name: &str,
    text: &str,
    sets: &[String],
) -> Result<Loaded<TrafficConfig>, ConfigError> {
    load_text(FileKind::Traffic, name, text, sets, &NoKinds)
}

fn load_text<T: DeserializeOwned + Serialize>(
    kind: FileKind,
    name: &str,
    text: &str,
    sets: &[String],
    kinds: &dyn Kinds,
) -> Result<Loaded<T>, ConfigError> {
    let overrides = overrides_for(kind, sets)?;
    let file = SourceFile {
        kind,
        name: name.to_string(),
        text: text.to_string(),
        origin: Origin::Path(PathBuf::from(name)),
    };
    load_source(file, &overrides, kinds)
}

fn load<T: DeserializeOwned + Serialize>(
    kind: FileKind,
    spec: &str,
    sets: &[String],
    kinds: &dyn Kinds,
) -> Result<Loaded<T>, ConfigError> {
    let overrides = overrides_for(kind, sets)?;
    let file = find_source(kind, spec)?;
    load_source(file, &overrides, kinds)
}

/// The `--set` arguments of `sets` that belong to files of `kind`; every argument is
/// checked.
pub(crate) fn overrides_for(
    kind: FileKind,
    sets: &[String],
) -> Result<Vec<super::overrides::Override>, ConfigError> {
    Ok(parse_sets(sets)?
        .into_iter()
        .filter(|o| o.kind == kind)
        .collect())
}

/// Deserializes an already-found file with these overrides (all of its kind), type
/// errors at `[network]` keys worded as `kinds` says.
pub(crate) fn load_source<T: DeserializeOwned + Serialize>(
    file: SourceFile,
    overrides: &[super::overrides::Override],
    kinds: &dyn Kinds,
) -> Result<Loaded<T>, ConfigError> {
    let config = decode(&file, overrides, kinds)?;
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

/// The file name without directory and `.toml` (or `.graphml`):
/// `topologies/hypercube8.toml` → `hypercube8`. A file of the current directory that shadows a shipped one (named
/// `./hypercube8.toml`, see [`super::lookup::find_source`]) keeps its `./`, so that the
/// report header says which was read.
pub fn stem(name: &str) -> String {
    let base = std::path::Path::new(name)
        .file_name()
        .map_or(name.to_string(), |f| f.to_string_lossy().into_owned());
    let extension = if base.ends_with(".graphml") {
        ".graphml"
    } else {
        ".toml"
    };
    let base = base.strip_suffix(extension).unwrap_or(&base);
    let here = format!(".{}", std::path::MAIN_SEPARATOR);
    if name.starts_with(&here) && name[here.len()..] == *format!("{base}{extension}") {
        format!("{here}{base}")
    } else {
        base.to_string()
    }
}
