//! The names of places in a network: nodes, ports and link ends. A leaf module that
//! every layer may use.

/// Index of a node in a plan ([`crate::network::Network::nodes`]); statistics are
/// merged in this order.
pub type NodeId = usize;

/// Index of a port (a link attachment) on a node.
pub type PortId = usize;

/// One end of a link: a node and one of its ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct End {
    /// The node.
    pub node: NodeId,
    /// Its port.
    pub port: PortId,
}
