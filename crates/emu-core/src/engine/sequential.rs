//! Runs a network on the calling thread: the sharded engine with a single partition,
//! so every link direction is a plain queue and no worker ever waits. This is the
//! entry point for library users (tests, `emu reproduce`, sweeps) that run many small
//! networks and want neither threads nor a runtime.

use super::{EngineError, ProgressFn, RunControl, RunOutcome};
use crate::model::LinkProtocol;
use crate::network::Network;

/// Runs `net` to completion on the calling thread.
pub fn run<P: LinkProtocol>(
    net: &Network<P>,
    ctl: &RunControl,
    progress: Option<ProgressFn>,
) -> Result<RunOutcome, EngineError> {
    super::sharded::run(net, ctl, 1, progress)
}
