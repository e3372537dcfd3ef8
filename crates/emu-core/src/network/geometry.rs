//! Where a family's nodes sit when the network is drawn: the shape its builder made,
//! kept on the plan ([`super::Network::geometry`]) so that a picture lays a torus out
//! as a grid and a ring as a circle without asking which family built it or reading
//! node names. Only the switches (or, on a ring, the ring's nodes) are placed by the
//! shape; a node hanging off a single neighbour (a terminal's processor, a fabric's
//! adapter) is drawn beside it.

use super::NodeId;

/// The natural drawing of a plan's nodes (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Geometry {
    /// No shape known (a netlist): any layout will do.
    #[default]
    Free,
    /// Nodes `0..k^n` are the switches of a k-ary n-cube or an n-dimensional mesh:
    /// switch `s` sits at the base-`k` digits of `s`, digit `j` its coordinate in
    /// dimension `j` (the 2-D grid and torus are `n = 2`).
    Kary {
        /// Switches per dimension.
        k: u32,
        /// Dimensions.
        n: u32,
        /// Whether each dimension closes into a ring (a torus).
        wrap: bool,
    },
    /// Nodes `0..2^n` are the switches of a binary n-cube, switch `s` at address `s`.
    Hypercube {
        /// Dimensions.
        n: u32,
    },
    /// Nodes `0..nodes` form a ring, in order.
    Ring {
        /// Nodes on the ring.
        nodes: u32,
    },
    /// One switch, node `hub`, with every other node linked to it alone (a single
    /// crossbar, a switch fabric's core and its adapters).
    Star {
        /// The switch.
        hub: NodeId,
    },
    /// A multistage network: switches in columns by their distance in links from the
    /// terminals (the switches the terminals hang on first).
    Stages,
}
