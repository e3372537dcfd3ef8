//! The bounds the network validators check that the configuration layer must know too:
//! the words a type error and the user guide's reference give for a key
//! ([`super::bounds`]) come from these, and `network` checks against the same
//! constants (it re-exports them where it uses them).

use crate::routing::mode::RoutingMode;

/// Links on one C104 (INMOS ch. 7 §7.1: "a 32-way crossbar switch").
pub const C104_LINKS: u32 = 32;

/// Most switches on a ring (`network.switches`, `kind = "ring"`).
pub const MAX_RING_SWITCHES: u32 = 4096;

/// Fewest and most switches per side or per dimension (`network.side`, `network.k`).
pub const SIDES: std::ops::RangeInclusive<u32> = 2..=256;

/// Most dimensions of a hypercube under universal routing: it uses 2n + 1 of a C104's
/// 32 links.
pub const MAX_UNIVERSAL_DIMENSIONS: u32 = 15;

/// Most switches (and terminals) of a k-ary n-cube: what 2-byte headers address.
pub const MAX_KARY_SWITCHES: u32 = 65_536;

/// The routing modes of a hypercube and of a grid (INMOS ch. 7 §7.5).
pub const CUBE_ROUTING: &[RoutingMode] = &[RoutingMode::Deterministic, RoutingMode::Universal];

/// The routing modes of a multistage network (INMOS ch. 7 §7.5, last paragraph).
pub const MIN_ROUTING: &[RoutingMode] = &[
    RoutingMode::Deterministic,
    RoutingMode::Universal,
    RoutingMode::Adaptive,
];

/// Most packets in a bimodal frame, and the longest mean burst.
pub const MAX_FRAME: u32 = 1_000_000_000;

/// The most messages a batch run may queue at the start, over all terminals: every
/// message of a batch is created at once and waits in its source's queue, so the count
/// bounds the memory (about 2 GiB of queued messages at this bound).
pub const MAX_BATCH_MESSAGES: u64 = 1 << 26;
