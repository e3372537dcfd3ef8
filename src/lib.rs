//! `emu`: the command line of a cycle-accurate emulator of interconnection networks,
//! and the front end it is built from: one run as the command line does it
//! ([`session`]), load sweeps ([`sweep`]), the deadlock search ([`stress`]), the
//! published experiments ([`reproduce`]), pictures ([`plot`]), one-file HTML reports
//! ([`html`]), timelines and waveforms of a watched run ([`timeline`], [`waveform`]),
//! many runs at once ([`pool`], [`replicate`]) and progress bars ([`stats::progress`]).
//!
//! The model itself (parts, engines, networks, families, reports) is the `emu-core`
//! crate, re-exported here under the same paths (`emu::engine`, `emu::network`, …) so
//! that the front end and its tests read as one crate. A program that embeds emulation
//! needs only `emu-core` (see its crate documentation and `examples/embed.rs` there).

#![warn(missing_docs)]

pub use emu_core::{
    api, deadlock, engine, family, ids, memory, model, network, observe, parts, routing, terminal,
    text, time, traffic,
};

/// The core's configuration layer (`emu_core::config`), with the topology loaders that
/// pass it the network kinds: `emu::config::load_topology` is
/// [`family::load_topology`], `emu::config::load::load_topology_text` is
/// [`family::load_topology_text`]; and with what a topology file is read into, which
/// the network layer declares: `emu::config::TopologyConfig` is
/// [`network::TopologyConfig`], `emu::config::topology::NetworkConfig` is
/// [`network::NetworkConfig`].
pub mod config {
    pub use emu_core::config::*;
    pub use emu_core::family::load_topology;
    pub use emu_core::network::TopologyConfig;

    /// The sections of a topology file (`emu_core::config::topology`), with the whole
    /// file and its `[network]` table, which the network layer declares
    /// ([`crate::network::TopologyConfig`], [`crate::network::NetworkConfig`]).
    pub mod topology {
        pub use emu_core::config::topology::*;
        pub use emu_core::network::{NetlistConfig, NetworkConfig, TopologyConfig};
    }

    /// Loading a topology or traffic file (`emu_core::config::load`), with
    /// [`crate::family::load_topology_text`] passing the network kinds.
    pub mod load {
        pub use emu_core::config::load::*;
        pub use emu_core::family::load_topology_text;
    }
}

pub mod html;
pub mod plot;
pub mod pool;
pub mod replicate;
pub mod reproduce;
pub mod session;
pub mod shard;
pub mod stats;
pub mod stress;
pub mod sweep;
pub mod timeline;
pub mod waveform;
