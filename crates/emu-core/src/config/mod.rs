//! Configuration: strict serde schemas for topology and traffic files, and loading
//! them (lookup, `--set` overrides, one-line errors naming file, line and key).

pub(crate) mod bounds;
mod decode;
pub mod error;
mod given;
pub(crate) mod graphml;
pub mod input;
mod keypath;
pub mod kind_defaults;
pub mod kinds;
pub(crate) mod limits;
pub mod load;
mod locate;
mod location;
pub mod lookup;
pub mod overrides;
pub mod plain;
mod ranges;
pub mod shipped;
#[cfg(test)]
mod shipped_files;
pub mod source;
pub mod topology;
pub mod trace_file;
pub mod traffic;
mod unused;
mod variants;

#[cfg(test)]
mod tests;
/// The kinds a topology file is loaded with, for the tests (`tests`).
#[cfg(test)]
use crate::{
    family::load_topology,
    network::{NetworkConfig, TopologyConfig, kinds::C104Kinds},
};

pub use error::ConfigError;
pub use given::Input;
pub use kinds::{Kinds, NoKinds};
pub use load::{Loaded, load_topology_with, load_traffic, stem};
pub use location::Location;
pub use lookup::find_source;
pub use overrides::validate_sets;
pub use ranges::takes;
pub use shipped::{ListEntry, list_shipped, shipped, shipped_topologies, shipped_traffic};
pub use source::{FileKind, Origin, SourceFile};
pub use traffic::TrafficConfig;
