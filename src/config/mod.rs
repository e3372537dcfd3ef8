//! Configuration: strict serde schemas for topology and traffic files.

pub mod topology;
pub mod traffic;

pub use topology::TopologyConfig;
pub use traffic::TrafficConfig;
