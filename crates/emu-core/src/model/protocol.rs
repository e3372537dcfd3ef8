//! A link protocol: what travels on a wire, what each end counts, and the rules an
//! engine checks without knowing them (docs/architecture.md "Link protocols").
//!
//! A network has one link protocol; its parts may be mixed. The engines, their wires,
//! `--check` and deadlock detection are generic over a [`LinkProtocol`] and are
//! compiled once per protocol, so nothing on the hot path is a dynamic call per token.
//! The DS-Link ([`crate::parts::dslink::DsLink`]) is the first implementation.

use crate::time::Tick;
use std::fmt::Debug;

/// A rule of a link protocol's conservation invariant failed: tokens were lost or
/// duplicated, or credit exceeds the receiver's buffer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Violation(pub String);

/// One link protocol, implemented by a unit type (`DsLink`, …).
pub trait LinkProtocol: Copy + Default + Debug + Send + Sync + 'static {
    /// What travels on one direction of a link, one value per wire event.
    type Token: Clone + Send + Sync + Debug + 'static;

    /// Cumulative counters of one port (both directions of the link at that end), for
    /// the invariant check and the permanence rule.
    type Counters: Copy + Default + Send + Sync + Debug + 'static;

    /// The protocol's name in messages, e.g. "DS-Link".
    const NAME: &'static str;

    /// What an answer travelling back is called in this protocol ([`super::PacketId`]'s
    /// `answer`): "ack" for a DS-Link acknowledge (INMOS ch. 6 §6.2.3), "echo" for an
    /// SCI echo (SCI §2.1). By default "answer".
    const ANSWER: &'static str = "answer";

    /// Ticks from a token's arrival to the first tick at which its receiver can act
    /// on it: the engines may hand a token over ([`super::Node::receive`], with its
    /// arrival tick) as late as just before the receiver steps that tick, so their
    /// windows can be this much longer than the smallest link latency (fewer windows,
    /// the same ticks). 0 by default: a receiver may act on a token at its arrival.
    const RECEIVE_DELAY: Tick = 0;

    /// True if a receiver keeps each token until its due tick itself, so that the
    /// engines may hand over every token due in a window at the receiver's first step
    /// in it, rather than each just before the step at its due tick: the receiver can
    /// then run the whole window in one step ([`super::Outbox::window_end`]). False by
    /// default.
    const RECEIVE_AHEAD: bool = false;

    /// Checks the invariant of the link direction A→B given both ends' counters and
    /// the tokens the engine holds in flight in each direction.
    fn check_direction(
        a: &Self::Counters,
        b: &Self::Counters,
        in_flight_ab: u64,
        in_flight_ba: u64,
    ) -> Result<(), Violation>;

    /// Bytes the sharded engine's channel of one link direction takes when it can
    /// hold `capacity` tokens and is as full as `fill` says: the queue's slots (it grows
    /// them as it fills, [`crate::memory::push_bounded`]; the actors engine allocates
    /// all `capacity` up front), and any heap memory the tokens in it own. By default
    /// only the slots (tokens that own no heap memory).
    fn wire_bytes(capacity: usize, fill: crate::memory::Fill) -> u64 {
        fill.entries(capacity as u64)
            * std::mem::size_of::<(crate::time::Tick, Self::Token)>() as u64
    }

    /// True if the sender `tx` can never again send to the receiver `rx` of the same
    /// link direction unless `rx` first passes on something it holds: no credit at the
    /// sender, none on the way back, none owed, and no room for more. A wait-for cycle
    /// whose every link is blocked for good is a permanent (partial) deadlock.
    fn blocked_for_good(tx: &Self::Counters, rx: &Self::Counters) -> bool;

    /// How an observer sees `token` ([`super::view`]): its kind, time on the wire,
    /// value and the packet it starts or ends. By default an opaque one-tick token, so
    /// a protocol that says nothing shows no packets.
    fn view(_token: &Self::Token) -> super::view::TokenView {
        super::view::TokenView::OPAQUE
    }

    /// How an observer sees each tick of `token` on the wire: `f(offset, view)` for
    /// each, `offset` ticks after the token's own tick. A protocol whose wire event
    /// carries several consecutive ticks of its link (an SCI run of symbols) gives one
    /// view per tick; by default a token is one [`LinkProtocol::view`] at offset 0.
    fn views(token: &Self::Token, mut f: impl FnMut(Tick, super::view::TokenView)) {
        f(0, Self::view(token));
    }

    /// True if losing `token` on a dead link loses its packet for good, so that the
    /// packet no longer counts as in flight: by default, if it is the last token of a
    /// packet ([`super::view::TokenView::ends`]), which then never reaches its terminal.
    fn loses_packet(token: &Self::Token) -> bool {
        Self::view(token).ends
    }

    /// Tokens the port has sent since reset (every kind: a DS-Link's data, terminators
    /// and FCTs, an SCI node's symbols, a fabric port's cells), as its counters hold
    /// them: what a waveform of the port must show.
    fn sent(counters: &Self::Counters) -> u64;

    /// The values of `counters` a timeline draws as counters (a DS-Link port's credit
    /// and buffered tokens), pushed onto `out`. None by default.
    fn gauges(_counters: &Self::Counters, _out: &mut Vec<super::view::Gauge>) {}

    /// How tokens travel as levels on the wires, bit by bit, if the protocol defines
    /// it (the DS-Link's data-strobe lines); `None` by default, and a waveform then
    /// shows each token's kind and value only.
    fn line_code() -> Option<Box<dyn super::view::LineCode>> {
        None
    }
}

/// Conservation on one link direction A→B whose wire events are runs of one or more
/// units (an SCI run of symbols, a fabric run of cells): the runs A sent and B has not
/// received must be exactly what the engine holds in flight, and the units between them
/// at least one a run, and at most `most` a run if there is a bound (none on the wire if
/// no run is). `sent` and `received` are (units, runs); `noun` names the units.
pub(crate) fn conserved_runs(
    sent: (u64, u64),
    received: (u64, u64),
    in_flight: u64,
    most: Option<u64>,
    noun: &str,
) -> Result<(), Violation> {
    let runs = conserved(sent.1, received.1, in_flight, &format!("runs of {noun}"))?;
    let units = sent.0.checked_sub(received.0).ok_or_else(|| {
        Violation(format!(
            "{} {noun} received but only {} sent (duplication)",
            received.0, sent.0
        ))
    })?;
    let most = most.map_or(u64::MAX, |m| runs.saturating_mul(m));
    if units < runs || units > most || (runs == 0 && units != 0) {
        return Err(Violation(format!(
            "{units} {noun} sent and not received, but {runs} runs of them on the wire \
             ({noun} lost or duplicated)"
        )));
    }
    Ok(())
}

/// Conservation on one link direction A→B: what A sent and B has not received must be
/// exactly what the engine holds in flight. Returns that count; `noun` names the tokens
/// in messages ("symbols", "balls").
pub(crate) fn conserved(
    sent: u64,
    received: u64,
    in_flight: u64,
    noun: &str,
) -> Result<u64, Violation> {
    let on_wire = sent.checked_sub(received).ok_or_else(|| {
        Violation(format!(
            "{received} {noun} received but only {sent} sent (duplication)"
        ))
    })?;
    if on_wire != in_flight {
        return Err(Violation(format!(
            "{on_wire} {noun} sent and not received, but {in_flight} on the wire ({noun} lost or duplicated)"
        )));
    }
    Ok(on_wire)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_conserved_exactly_and_their_units_within_their_bounds() {
        // 10 units sent in 3 runs, 4 received in 1: 2 runs of 6 units on the wire.
        let ok = |most| conserved_runs((10, 3), (4, 1), 2, most, "cells");
        assert_eq!(ok(None), Ok(()));
        assert_eq!(ok(Some(3)), Ok(()));
        assert!(
            ok(Some(2)).is_err(),
            "6 units cannot be 2 runs of at most 2"
        );
        let runs =
            |sent, received, in_flight| conserved_runs(sent, received, in_flight, None, "cells");
        assert!(runs((10, 3), (4, 1), 1).is_err(), "a run lost");
        assert!(runs((5, 3), (4, 1), 2).is_err(), "1 unit cannot be 2 runs");
        assert!(runs((10, 3), (11, 1), 2).is_err(), "a unit duplicated");
        assert!(
            runs((10, 3), (4, 3), 0).is_err(),
            "units on the wire in no run"
        );
        assert_eq!(runs((10, 3), (10, 3), 0), Ok(()));
    }
}
