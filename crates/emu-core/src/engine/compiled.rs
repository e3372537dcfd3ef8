//! The engines compiled once per link protocol, in this crate.
//!
//! Rust compiles a generic function in every crate that calls it with a concrete type.
//! The engines are generic over the link protocol, so without this table every crate
//! that runs a network (the `emu` front end and its binary, the Python extension, the
//! tests) would compile its own copy of both engines for each protocol it names: eleven
//! copies of the sharded engine's window loop in the `emu` binary alone. Each protocol's [`LinkProtocol::engines`] instead returns
//! [`Entry::COMPILED`] from a non-generic function of this crate, so the engines'
//! code for that protocol is made here, once; [`super::sharded::run`] and
//! [`super::actors::run`] are small generic calls through the table.

use super::{EngineError, ProgressFn, RunControl, RunOutcome};
use crate::model::LinkProtocol;
use crate::network::Network;

/// One engine's entry point for networks of protocol `P`: runs `net` under `ctl` on
/// `threads` workers, calling `progress` as virtual time advances.
pub type EntryFn<P> = for<'a, 'b> fn(
    &Network<P>,
    &RunControl,
    usize,
    Option<ProgressFn<'a>>,
) -> Result<RunOutcome, EngineError>;

/// The engines' entry points for networks of protocol `P`, compiled where this table
/// is made: a protocol's [`LinkProtocol::engines`] returns `&Entry::COMPILED`.
pub struct Entry<P: LinkProtocol> {
    /// The sharded engine ([`super::sharded`]).
    pub(super) sharded: EntryFn<P>,
    /// The actors engine ([`super::actors`]).
    pub(super) actors: EntryFn<P>,
}

impl<P: LinkProtocol> Entry<P> {
    /// Both engines for `P`: a protocol's [`LinkProtocol::engines`] returns a reference
    /// to this from a non-generic function, which compiles them for `P` in the crate
    /// that defines the protocol.
    pub const COMPILED: Self = Self {
        sharded: super::sharded::run_compiled::<P>,
        actors: super::actors::run_compiled::<P>,
    };
}
