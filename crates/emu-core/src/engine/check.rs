//! The link protocol's invariant on every link direction, checked at every barrier
//! under `--check` ([`LinkProtocol::check_direction`]).

use super::EngineError;
use crate::model::LinkProtocol;
use crate::network::{End, Network};
use crate::time::Tick;

/// Checks both directions of every link. `counters` gives a port's counters,
/// `in_flight` the tokens the engine holds for a link direction (index into
/// [`Network::directions`], which lists a→b then b→a for each link). A link for which
/// `lossy` is true has lost tokens to a link fault, so its invariant cannot hold and it
/// is not checked (docs/architecture.md "Link faults").
pub(super) fn check_links<P: LinkProtocol>(
    net: &Network<P>,
    tick: Tick,
    counters: impl Fn(End) -> P::Counters,
    in_flight: impl Fn(usize) -> u64,
    lossy: impl Fn(usize) -> bool,
) -> Result<(), EngineError> {
    for (i, l) in net.links().iter().enumerate() {
        if lossy(i) {
            continue;
        }
        let (ca, cb) = (counters(l.a), counters(l.b));
        let (ab, ba) = (in_flight(2 * i), in_flight(2 * i + 1));
        for (from, to, x, y, fwd, back) in
            [(l.a, l.b, &ca, &cb, ab, ba), (l.b, l.a, &cb, &ca, ba, ab)]
        {
            P::check_direction(x, y, fwd, back).map_err(|what| EngineError::Invariant {
                tick,
                what: format!(
                    "link {} port {} → {} port {}: {what}",
                    net.nodes()[from.node].name,
                    from.port,
                    net.nodes()[to.node].name,
                    to.port
                ),
            })?;
        }
    }
    Ok(())
}
