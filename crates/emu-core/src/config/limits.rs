//! The bounds the network validators check that the configuration layer must know too:
//! the words a type error and the user guide's reference give for a key
//! ([`super::bounds`]) come from these, and `network` checks against the same
//! constants (it re-exports them where it uses them). A whole-number range is a
//! [`Bound`](crate::parts::bounds::Bound), written once: it checks a value, words its refusal, and words what the
//! key takes for the reference and for type errors. The bounds of one kind of network
//! of C104s live in that kind's file (`network::kinds`), with its reference rows.

/// Links on one C104 (INMOS ch. 7 §7.1: "a 32-way crossbar switch").
pub const C104_LINKS: u32 = 32;

/// Most packets in a bimodal frame, and the longest mean burst.
pub const MAX_FRAME: u32 = 1_000_000_000;

/// The most messages a batch run may queue at the start, over all terminals: every
/// message of a batch is created at once and waits in its source's queue, so the count
/// bounds the memory (about 2 GiB of queued messages at this bound).
pub const MAX_BATCH_MESSAGES: u64 = 1 << 26;
