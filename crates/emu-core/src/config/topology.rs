//! The sections of a topology file (`topologies/*.toml`) besides `[network]`, as the
//! parts define them, and the routing choices of its `[network]` table.
//!
//! The whole file, `TopologyConfig`, and its `[network]` table, `NetworkConfig`, are
//! the network layer's (`crate::network::topology`, `crate::network::kinds`): each kind
//! of network declares its table in its own file there. This layer loads a topology
//! file into them without naming them (see `crate::config::load::load_topology_with`).

pub use crate::parts::c104::config::C104Config;
pub use crate::parts::dslink::config::{BufferSize, FaultConfig, LinkConfig, PacketConfig};
pub use crate::parts::fabric::config::{FabricConfig, MemoryConfig};
pub use crate::parts::relay::config::RelayRingConfig;
pub use crate::parts::sci::config::{MixConfig, SciRingConfig};
pub use crate::parts::t9000::config::VcpConfig;
pub use crate::routing::mode::{RoutingMode, Wrap};
