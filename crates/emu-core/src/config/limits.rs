//! The bounds the network validators check that the configuration layer must know too:
//! the words a type error and the user guide's reference give for a key
//! ([`super::bounds`]) come from these, and `network` checks against the same
//! constants (it re-exports them where it uses them). A whole-number range is a
//! [`Bound`], written once: it checks a value, words its refusal, and words what the
//! key takes for the reference and for type errors.

pub use crate::parts::bounds::Bound;
use crate::routing::mode::RoutingMode;

/// Links on one C104 (INMOS ch. 7 §7.1: "a 32-way crossbar switch").
pub const C104_LINKS: u32 = 32;

/// Switches on a ring (`network.switches`, `kind = "ring"`).
pub const RING_SWITCHES: Bound = Bound::whole(2, 4096);

/// Switches per side or per dimension (`network.side`, `network.k`).
pub const SIDES: Bound = Bound::counting(2, 256, "switches per side");

/// Dimensions of a hypercube under deterministic routing: 2^20 terminals, far past
/// what a machine holds.
pub const DIMENSIONS: Bound = Bound::whole(1, 20);

/// Dimensions of a hypercube under universal routing: it uses 2n + 1 of a C104's 32
/// links.
pub const UNIVERSAL_DIMENSIONS: Bound = Bound::whole(1, 15);

/// Terminals of a crossbar: one C104's links (`network.terminals`, `kind = "crossbar"`).
pub const CROSSBAR_TERMINALS: Bound = Bound::counting(1, C104_LINKS as u64, "");

/// Terminals per leaf switch of a fat tree (`network.k`): a switch uses k links down and
/// k up.
pub const FAT_TREE_K: Bound =
    Bound::counting(2, (C104_LINKS / 2) as u64, "terminals per leaf switch");

/// Rows, columns and terminals per switch of a flattened butterfly (`network.rows`,
/// `network.cols`, `network.p`).
pub const FLATTENED_BUTTERFLY_COUNTS: Bound = Bound::counting(1, C104_LINKS as u64, "");

/// Switches per group, terminals and global links per switch of a dragonfly
/// (`network.a`, `network.p`, `network.h`).
pub const DRAGONFLY_COUNTS: Bound = Bound::counting(1, C104_LINKS as u64, "");

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_checks_and_words_its_range() {
        assert!(SIDES.contains(2) && SIDES.contains(256) && !SIDES.contains(257));
        assert!(!RING_SWITCHES.contains(1));
        assert_eq!(RING_SWITCHES.takes(), "a whole number from 2 to 4,096");
        for (bound, value, lead, why, words) in [
            (
                RING_SWITCHES,
                1,
                "",
                "",
                "1: give a whole number from 2 to 4,096",
            ),
            (SIDES, 300, "", "", "300: give 2 to 256 switches per side"),
            (
                CROSSBAR_TERMINALS,
                33,
                "one C104 has 32 links, ",
                "",
                "33: one C104 has 32 links, give 1 to 32",
            ),
            (
                UNIVERSAL_DIMENSIONS,
                16,
                "",
                " (why)",
                "16: give a whole number from 1 to 15 (why)",
            ),
        ] {
            assert_eq!(bound.refusal(value, lead, why), words);
        }
    }
}
