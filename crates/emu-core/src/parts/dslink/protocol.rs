//! The DS-Link as a link protocol ([`LinkProtocol`]): the token, the per-port counters,
//! the credit invariant of INMOS ch. 6 §6.2.1 and the rule that tells a permanent wait.

use super::token::{CONTROL_TOKEN_BITS, Token};
use crate::model::{LinkProtocol, Violation};
use crate::time::Tick;

/// The DS-Link token protocol (INMOS ch. 6 §6.1-6.2): data tokens and EOP/EOM/FCT
/// control tokens, credit in FCTs of one batch each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DsLink;

impl LinkProtocol for DsLink {
    type Token = Token;
    type Counters = PortCounters;
    const NAME: &'static str = "DS-Link";
    /// A DS-Link answer is an acknowledge packet (INMOS ch. 6 §6.2.3).
    const ANSWER: &'static str = "ack";

    fn check_direction(
        a: &PortCounters,
        b: &PortCounters,
        in_flight_ab: u64,
        in_flight_ba: u64,
    ) -> Result<(), Violation> {
        check_direction(a, b, in_flight_ab, in_flight_ba)
    }

    /// The slots, and the packet information of every packet whose first token is on
    /// the wire (a packet is at least two tokens).
    fn wire_bytes(capacity: usize, fill: crate::memory::Fill) -> u64 {
        let slots = fill.entries(capacity as u64) * std::mem::size_of::<(Tick, Token)>() as u64;
        slots + fill.packets(capacity as u64 / 2 + 1) * super::token::PACKET_INFO_BYTES
    }

    fn sent(c: &PortCounters) -> u64 {
        c.flow_sent + c.fct_sent
    }

    fn view(token: &Token) -> crate::model::TokenView {
        super::signal::view(token)
    }

    fn gauges(counters: &PortCounters, out: &mut Vec<crate::model::Gauge>) {
        super::signal::gauges(counters, out);
    }

    fn line_code() -> Option<Box<dyn crate::model::LineCode>> {
        Some(super::signal::line_code())
    }

    /// The sender has no credit, no FCT is on the way back or owed, and the receiver's
    /// buffer, with the tokens already on the wire, has no room for another batch, so
    /// it cannot grant one until it passes a token on (INMOS ch. 6 §6.2.1).
    fn blocked_for_good(tx: &PortCounters, rx: &PortCounters) -> bool {
        let fct_in_flight = rx.fct_sent.saturating_sub(tx.fct_received);
        let data_in_flight = tx.flow_sent.saturating_sub(rx.flow_received);
        tx.credit == 0
            && fct_in_flight == 0
            && rx.fct_owed == 0
            && rx.occupied + data_in_flight + rx.batch > rx.capacity
    }
}

/// Most tokens one direction of a DS-Link of `latency` ticks can hold at once: what
/// the wire holds (a token per control-token time) plus one being sent. The engines'
/// channel for the direction holds this plus the receiver's buffer.
pub fn wire_capacity(latency: Tick) -> usize {
    (latency / CONTROL_TOKEN_BITS) as usize + 2
}

/// Cumulative counters of one DS-Link endpoint, for the global credit check.
///
/// For a link direction A→B, with in-flight counts taken from the engine's channel:
/// A's credit + data tokens in flight A→B + 8 × FCTs in flight B→A + tokens in B's
/// buffer ≤ B's capacity (INMOS ch. 6 §6.2.1 "input.cap.0 + #0.id ≥ #(1.ot⌈F) × bsize").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortCounters {
    /// Flow-controlled tokens sent.
    pub flow_sent: u64,
    /// FCTs sent.
    pub fct_sent: u64,
    /// Flow-controlled tokens received.
    pub flow_received: u64,
    /// FCTs received.
    pub fct_received: u64,
    /// Tokens this end may still send (output credit).
    pub credit: u64,
    /// Tokens held in this end's input buffer.
    pub occupied: u64,
    /// This end's input buffer capacity in tokens.
    pub capacity: u64,
    /// Tokens of credit per FCT.
    pub batch: u64,
    /// FCTs this end has decided to send but not yet sent: credit already granted for
    /// free buffer space (INMOS ch. 6 §6.2.1), still to go on the wire.
    pub fct_owed: u64,
}

/// Checks the credit invariant of one link direction A→B (INMOS ch. 6 §6.2.1): A's credit, the
/// flow-controlled tokens in flight from A to B, the credit carried by FCTs in flight
/// from B to A and B's buffered tokens together never exceed B's capacity; and the
/// tokens the engine holds in flight are exactly the ones the two ends disagree on.
/// `in_flight_ab` / `in_flight_ba` are the tokens (data and FCT) the engine holds in
/// flight in each direction. Returns a description of the first violation.
fn check_direction(
    a: &PortCounters,
    b: &PortCounters,
    in_flight_ab: u64,
    in_flight_ba: u64,
) -> Result<(), Violation> {
    let data_ab = a.flow_sent.checked_sub(b.flow_received).ok_or_else(|| {
        Violation(format!(
            "{} tokens received but only {} sent (duplication)",
            b.flow_received, a.flow_sent
        ))
    })?;
    let fct_ab = a
        .fct_sent
        .checked_sub(b.fct_received)
        .ok_or_else(|| Violation("more FCTs received than sent".into()))?;
    let data_ba = b
        .flow_sent
        .checked_sub(a.flow_received)
        .ok_or_else(|| Violation("more tokens received than sent (reverse)".into()))?;
    let fct_ba = b.fct_sent.checked_sub(a.fct_received).ok_or_else(|| {
        Violation(format!(
            "{} FCTs received but only {} sent (duplication)",
            a.fct_received, b.fct_sent
        ))
    })?;
    if data_ab + fct_ab != in_flight_ab {
        return Err(Violation(format!(
            "{} tokens sent and not received, but {} in flight on the wire (tokens lost or duplicated)",
            data_ab + fct_ab,
            in_flight_ab
        )));
    }
    if data_ba + fct_ba != in_flight_ba {
        return Err(Violation(format!(
            "{} tokens sent and not received in the reverse direction, but {} in flight",
            data_ba + fct_ba,
            in_flight_ba
        )));
    }
    let committed = a.credit + data_ab + fct_ba * b.batch + b.occupied;
    if committed > b.capacity {
        return Err(Violation(format!(
            "credit {} + tokens in flight {} + credit in flight {} + buffered {} = {} exceeds the receiver's buffer of {}",
            a.credit,
            data_ab,
            fct_ba * b.batch,
            b.occupied,
            committed,
            b.capacity
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_direction_check_sees_loss_and_excess_credit() {
        let a = PortCounters {
            flow_sent: 10,
            credit: 6,
            capacity: 20,
            batch: 8,
            ..Default::default()
        };
        let b = PortCounters {
            flow_received: 8,
            occupied: 8,
            fct_sent: 3,
            capacity: 20,
            batch: 8,
            ..Default::default()
        };
        let a_rcv = PortCounters {
            fct_received: 3,
            ..a
        };
        // 2 tokens in flight, credit 6 + 2 + 8 buffered = 16 ≤ 20
        check_direction(&a_rcv, &b, 2, 0).unwrap();
        assert!(
            check_direction(&a_rcv, &b, 1, 0)
                .unwrap_err()
                .0
                .contains("lost")
        );
        let greedy = PortCounters {
            credit: 11,
            ..a_rcv
        };
        assert!(
            check_direction(&greedy, &b, 2, 0)
                .unwrap_err()
                .0
                .contains("exceeds")
        );
    }
}
