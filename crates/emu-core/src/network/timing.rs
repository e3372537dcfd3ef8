//! The timing identity of every message, checked under `--check` (Proteus §Message
//! Timing: Proteus validates its networks by comparing each
//! message's latency with a formula and counts a deviation over 20 cycles as a timing
//! error; emu's tolerance is zero ticks).
//!
//! For a message completed by a packet that crossed switches s_1 … s_H:
//!
//! latency = source wait + Σ link latencies + Σ transit(s_k) + input waits + output
//! waits + transfer
//!
//! where the waits and the transfer are what the hardware measured on the way (the
//! packet's [`crate::terminal::packet::Journey`] and its arrival) and the rest is the
//! uncontended delay of the path, computed here from the plan alone: the links' latencies
//! and each switch's [`crate::parts::Part::transit`]. Each destination keeps, per
//! source, the path delay its messages' latencies leave
//! ([`crate::terminal::journey::PathDelays`]); this module compares it with the plan's.
//! Paths that are not fixed (random headers, grouped adaptive routing) are not checked,
//! as Proteus does not validate every configuration either.
//!
//! Families with their own journey parts check them in the part, which knows its path's
//! fixed delay (an SCI node: 4 cycles a node and the packet's length, SCI §4), and keep
//! what they found in [`crate::terminal::journey::PartsCheck`]; this module reports it
//! the same way.

use super::Network;
use super::walk::Walker;
use crate::model::LinkProtocol;
use crate::model::wait::describe_packet;
use crate::terminal::TerminalStats;
use crate::time::Tick;

/// What the check covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimingSummary {
    /// Messages whose identity was checked.
    pub messages: u64,
    /// Source–destination pairs compared with the plan.
    pub pairs: u64,
    /// Messages not checked because their path is not fixed.
    pub unfixed_messages: u64,
    /// Pairs not compared because their path is not fixed.
    pub unfixed_pairs: u64,
}

/// A message whose latency is not its path's uncontended delay plus its waits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("timing error: {0}")]
pub struct TimingError(pub String);

/// Checks every destination's records against the plan `net` (see the module
/// documentation). Terminals that kept no records (no `--check`, or a family without
/// journeys) are skipped.
pub fn check_journeys<P: LinkProtocol>(
    net: &Network<P>,
    terminals: &[TerminalStats],
) -> Result<TimingSummary, TimingError> {
    let walker = Walker::new(net);
    let mut summary = TimingSummary::default();
    for (dst, stats) in terminals.iter().enumerate() {
        if let Some(check) = &stats.journey_parts.check {
            // A family that checks its own parts against its paths (SCI rings).
            if let Some(miss) = &check.first_miss {
                return Err(TimingError(miss.clone()));
            }
            summary.messages += check.messages;
            summary.pairs += check.sources.len() as u64;
        }
        let Some(records) = &stats.journey.path_delays else {
            continue;
        };
        let dst = dst as u32;
        for (&src, record) in &records.by_source {
            let Some(expected) = uncontended(net, &walker, src, dst) else {
                summary.unfixed_pairs += 1;
                summary.unfixed_messages += record.messages;
                continue;
            };
            summary.pairs += 1;
            summary.messages += record.messages;
            let (delay, hops) = record.first;
            if let Some((m, (other, other_hops))) = &record.conflict {
                return Err(TimingError(format!(
                    "{}: its latency leaves a path delay of {other} ticks over {other_hops} \
                     switches, but the first message from {src} to {dst} left {delay} ticks over \
                     {hops}: on a fixed path the two must be equal",
                    describe_packet(m)
                )));
            }
            if (i128::from(expected.0), usize::from(hops)) != (delay, expected.1) {
                return Err(TimingError(format!(
                    "messages from {src} to {dst}: latency less source wait, input and output \
                     waits and transfer leaves {delay} ticks over {hops} switches, but the \
                     path's uncontended delay is {} ticks over {} switches",
                    expected.0, expected.1
                )));
            }
        }
    }
    Ok(summary)
}

/// The uncontended delay from `src` to `dst` (link latencies plus every switch's
/// transit) and the switches crossed, or `None` if the path is not fixed or crosses a
/// part with no transit.
fn uncontended<P: LinkProtocol>(
    net: &Network<P>,
    walker: &Walker<'_, P>,
    src: u32,
    dst: u32,
) -> Option<(Tick, usize)> {
    let mut adaptive = false;
    let route = walker
        .route(src, dst, None, &mut |_| {
            adaptive = true;
            0
        })
        .ok()?;
    if adaptive || !route.deleted_at.is_empty() {
        return None;
    }
    let mut delay = route.wire;
    for (&node, &input) in route.switches.iter().zip(&route.entered) {
        delay += net.nodes()[node].part.transit(input)?;
    }
    Some((delay, route.switches.len()))
}
