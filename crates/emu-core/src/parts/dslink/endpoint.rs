//! A DS-Link endpoint at token level: one transmitter and one receiver with their
//! credit flow control (INMOS ch. 6 §6.1-6.2).
//!
//! Rules modelled, each with its source:
//! - Data tokens take 10 bit periods, EOP/EOM/FCT 4 (INMOS ch. 6 §6.1.1). One tick is one bit
//!   period, so a token started at tick t has left the transmitter at t + bits.
//! - The receiver grants credit with flow-control tokens, one FCT per `batch` (8)
//!   tokens of buffer space, and never grants more than its free space: the total
//!   credit issued never exceeds the buffer capacity plus the tokens already passed on
//!   (INMOS ch. 6 §6.2.1, "input.cap.0 + #0.id ≥ #(1.ot⌈F) × bsize"). At reset it grants
//!   ⌊capacity / batch⌋ batches; thereafter one FCT whenever `batch` more tokens of
//!   space are free and ungranted.
//! - Only data, EOP and EOM consume credit (the set D of INMOS ch. 6 §6.2.1).
//! - FCTs share the wire with the data of the same direction (INMOS ch. 6 §6.1.1: "The inbound
//!   acknowledge packets require outbound flow control tokens"); an owed FCT is sent
//!   before the next data token.
//! - An idle transmitter sends null tokens (8 bits, ESC+FCT) back to back; a token that
//!   becomes ready while a null is going out waits for the null to finish. Nulls carry
//!   nothing, so they are not emitted as events: the waiting is computed from the tick
//!   the link went idle.
//! - A token that arrives with no credit outstanding, or into a full buffer, is a
//!   flow-control violation.

use super::PortCounters;
use super::token::{NULL_TOKEN_BITS, Token};
use crate::memory::push_bounded;
use crate::model::{ModelError, PortId};

use crate::time::Tick;
use std::collections::VecDeque;

/// Parameters of one DS-Link endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkParams {
    /// Input buffer capacity in tokens (INMOS ch. 6 §6.2.2: 20).
    pub buffer: u32,
    /// Tokens of credit per FCT (INMOS ch. 6 §6.1.1: 8).
    pub batch: u32,
    /// Fault injection: credit granted at reset beyond the buffer, in tokens (rounded
    /// up to whole FCTs). Zero on real hardware.
    pub extra_initial_credit: u32,
}

impl Default for LinkParams {
    fn default() -> Self {
        LinkParams {
            buffer: 20,
            batch: 8,
            extra_initial_credit: 0,
        }
    }
}

/// One end of a DS-Link: transmitter, receiver buffer and credit counters.
#[derive(Clone, Debug)]
pub struct Endpoint {
    params: LinkParams,
    /// Tick at which the token being transmitted (or the last one) ends.
    busy_until: Tick,
    /// Output credit: flow-controlled tokens this end may still send.
    credit: u64,
    /// FCTs decided but not yet transmitted.
    fct_owed: u32,
    /// Received flow-controlled tokens not yet taken by the owner.
    rx: VecDeque<Token>,
    /// Credit granted to the peer (FCTs decided × batch) not yet used by arrivals.
    granted: u64,
    counters: PortCounters,
    /// Bit periods this end's transmitter has spent sending tokens (FCTs included),
    /// for the report's link utilisation.
    wire_bits: u64,
}

impl Endpoint {
    /// A freshly reset endpoint, with its initial credit grant owed to the peer.
    pub fn new(params: LinkParams) -> Endpoint {
        let mut ep = Endpoint {
            params,
            busy_until: 0,
            credit: 0,
            fct_owed: 0,
            // Room for 8 tokens on the first, doubling as tokens arrive up to the
            // buffer (`memory::push_bounded`), so a buffer costs memory only as far as
            // traffic fills it.
            rx: VecDeque::new(),
            granted: 0,
            counters: PortCounters {
                capacity: u64::from(params.buffer),
                batch: u64::from(params.batch),
                ..PortCounters::default()
            },
            wire_bits: 0,
        };
        ep.regrant();
        let extra = params.extra_initial_credit.div_ceil(params.batch.max(1));
        ep.fct_owed += extra;
        ep.granted += u64::from(extra) * u64::from(params.batch);
        ep
    }

    /// Grants whole batches of free, ungranted buffer space (INMOS ch. 6 §6.2.1).
    fn regrant(&mut self) {
        let batch = u64::from(self.params.batch);
        let cap = u64::from(self.params.buffer);
        while batch > 0 && self.rx.len() as u64 + self.granted + batch <= cap {
            self.granted += batch;
            self.fct_owed += 1;
        }
    }

    // ----- receiver -------------------------------------------------------------

    /// Accepts a token that arrived from the peer. FCTs add credit; data, EOP and EOM
    /// enter the input buffer and must have been granted credit.
    pub fn receive(&mut self, port: PortId, token: Token) -> Result<(), ModelError> {
        if !token.kind().is_flow_controlled() {
            self.counters.fct_received += 1;
            self.credit += u64::from(self.params.batch);
            return Ok(());
        }
        self.accept(port, &token)?;
        push_bounded(&mut self.rx, self.params.buffer as usize, token);
        Ok(())
    }

    /// Accepts a flow-controlled token that arrived from the peer into an empty input
    /// buffer and that the owner takes at once: the same as [`Endpoint::receive`] and
    /// then [`Endpoint::rx_pop`], without the token passing through the buffer.
    pub(crate) fn receive_taken(&mut self, port: PortId, token: &Token) -> Result<(), ModelError> {
        debug_assert!(token.kind().is_flow_controlled() && self.rx.is_empty());
        self.accept(port, token)?;
        self.regrant();
        Ok(())
    }

    /// Counts an arriving flow-controlled token against the credit granted and the
    /// buffer's room: a token with no credit outstanding, or into a full buffer, breaks
    /// the protocol (INMOS ch. 6 §6.2.1).
    fn accept(&mut self, port: PortId, token: &Token) -> Result<(), ModelError> {
        self.counters.flow_received += 1;
        if self.granted == 0 {
            return Err(ModelError::FlowControl {
                port,
                what: format!(
                    "a {:?} token arrived with no credit outstanding",
                    token.kind()
                ),
            });
        }
        if self.rx.len() >= self.params.buffer as usize {
            return Err(ModelError::FlowControl {
                port,
                what: format!(
                    "input buffer overflow: {} tokens already buffered (capacity {})",
                    self.rx.len(),
                    self.params.buffer
                ),
            });
        }
        self.granted -= 1;
        Ok(())
    }

    /// Tokens waiting in the input buffer.
    pub(crate) fn rx_len(&self) -> usize {
        self.rx.len()
    }

    /// The `i`-th buffered token (0 = oldest).
    pub(crate) fn rx_get(&self, i: usize) -> Option<&Token> {
        self.rx.get(i)
    }

    /// The `i`-th buffered token (0 = oldest), to update the emulator metadata it
    /// carries (its [`crate::terminal::packet::Journey`]); nothing on the wire changes.
    pub(crate) fn rx_get_mut(&mut self, i: usize) -> Option<&mut Token> {
        self.rx.get_mut(i)
    }

    /// Takes the oldest buffered token, freeing its slot (which may owe the peer an FCT).
    pub(crate) fn rx_pop(&mut self) -> Option<Token> {
        let t = self.rx.pop_front()?;
        self.regrant();
        Some(t)
    }

    // ----- transmitter ----------------------------------------------------------

    /// Tick at which the current (or last) token ends.
    pub fn busy_until(&self) -> Tick {
        self.busy_until
    }

    /// Output credit: tokens this end may still send.
    pub fn credit(&self) -> u64 {
        self.credit
    }

    /// The earliest tick ≥ `now` at which a token that is ready at `now` can start:
    /// when the current token ends, or, if the link has gone idle, when the null token
    /// in progress ends.
    pub fn start_tick(&self, now: Tick) -> Tick {
        if now <= self.busy_until {
            self.busy_until
        } else {
            let idle = now - self.busy_until;
            self.busy_until + idle.div_ceil(NULL_TOKEN_BITS) * NULL_TOKEN_BITS
        }
    }

    /// When the transmitter can next send something, given whether the owner has a
    /// flow-controlled token waiting: `None` if it has nothing it may send.
    pub(crate) fn ready_at(&self, now: Tick, has_data: bool) -> Option<Tick> {
        if self.fct_owed > 0 || (has_data && self.credit > 0) {
            Some(self.start_tick(now))
        } else {
            None
        }
    }

    /// True if, at `now`, the next token to go is an FCT (FCTs go before data).
    pub(crate) fn next_is_fct(&self) -> bool {
        self.fct_owed > 0
    }

    /// Sends an owed FCT starting at `now` (which must be a start tick). Returns the
    /// token and the tick its last bit leaves.
    pub(crate) fn send_fct(&mut self, now: Tick) -> (Token, Tick) {
        debug_assert!(self.fct_owed > 0 && self.start_tick(now) == now);
        self.fct_owed -= 1;
        self.counters.fct_sent += 1;
        let t = Token::fct();
        self.wire_bits += t.bits();
        self.busy_until = now + t.bits();
        (t, self.busy_until)
    }

    /// Sends a flow-controlled token starting at `now`, using one credit. Returns the
    /// tick its last bit leaves.
    pub(crate) fn send_data(&mut self, now: Tick, token: &Token) -> Tick {
        debug_assert!(token.kind().is_flow_controlled());
        debug_assert!(self.credit > 0 && self.start_tick(now) == now && self.fct_owed == 0);
        self.credit -= 1;
        self.counters.flow_sent += 1;
        self.wire_bits += token.bits();
        self.busy_until = now + token.bits();
        self.busy_until
    }

    /// Bit periods the transmitter has been sending tokens since reset: 10 per data
    /// token, 4 per control token (INMOS ch. 6 §6.1.1); null tokens between them are
    /// not counted (the model does not send them).
    pub(crate) fn wire_bits(&self) -> u64 {
        self.wire_bits
    }

    /// Cumulative counters for the global credit check.
    pub fn counters(&self) -> PortCounters {
        PortCounters {
            credit: self.credit,
            occupied: self.rx.len() as u64,
            fct_owed: u64::from(self.fct_owed),
            ..self.counters
        }
    }
}

/// A test peer's end of a link (the C104's and the T9000's differential tests): takes
/// what its receiver holds, one token every `drain` ticks from `next_drain` (0: all at
/// once), as a consumer at the far end would.
#[cfg(test)]
pub(crate) fn drain_peer(ep: &mut Endpoint, drain: Tick, next_drain: &mut Tick, t: Tick) {
    while ep.rx_len() > 0 && t >= *next_drain {
        ep.rx_pop();
        *next_drain = t + drain;
        if drain > 0 {
            break;
        }
    }
}

/// A test peer's transmitter at tick `t`: every token it may start now, an owed FCT
/// before data (INMOS ch. 6 §6.1.1), the data from `queue` while credit lasts. Gives
/// what it sent, each with the tick its last bit left.
#[cfg(test)]
pub(crate) fn send_ready(
    ep: &mut Endpoint,
    queue: &mut VecDeque<Token>,
    t: Tick,
) -> Vec<(Tick, Token)> {
    let mut sent = Vec::new();
    while ep.ready_at(t, !queue.is_empty()) == Some(t) {
        if ep.next_is_fct() {
            let (tok, at) = ep.send_fct(t);
            sent.push((at, tok));
        } else if let Some(tok) = queue.pop_front() {
            let at = ep.send_data(t, &tok);
            sent.push((at, tok));
        }
    }
    sent
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Stamp;
    use crate::parts::dslink::TokenKind;

    fn data() -> Token {
        Token::data(7, Stamp::default())
    }

    fn params(buffer: u32) -> LinkParams {
        LinkParams {
            buffer,
            batch: 8,
            extra_initial_credit: 0,
        }
    }

    #[test]
    fn reset_grants_whole_batches_of_the_buffer() {
        assert_eq!(Endpoint::new(params(20)).fct_owed, 2); // 16 of 20 tokens
        assert_eq!(Endpoint::new(params(8)).fct_owed, 1);
        assert_eq!(Endpoint::new(params(34)).fct_owed, 4);
        assert_eq!(Endpoint::new(params(7)).fct_owed, 0); // INMOS ch. 6 §6.2.1: no data can ever move
    }

    #[test]
    fn an_fct_is_owed_per_eight_tokens_freed_and_never_more_than_the_buffer() {
        let mut rx = Endpoint::new(params(20));
        rx.fct_owed = 0; // pretend the initial two FCTs (16 tokens) went out
        for _ in 0..16 {
            rx.receive(0, data()).unwrap();
        }
        assert_eq!(rx.granted, 0);
        // 4 free but ungranted slots: not a whole batch yet.
        assert_eq!(rx.fct_owed, 0);
        for i in 1..=16u32 {
            rx.rx_pop();
            let expected = match i {
                0..=3 => 0,
                4..=11 => 1,
                _ => 2,
            };
            assert_eq!(rx.fct_owed, expected, "after {i} freed");
            assert!(
                rx.rx.len() as u64 + rx.granted <= 20,
                "credit beyond buffer"
            );
        }
    }

    #[test]
    fn a_token_without_credit_is_a_violation() {
        let mut rx = Endpoint::new(params(8));
        for _ in 0..8 {
            rx.receive(0, data()).unwrap();
        }
        let err = rx.receive(3, data()).unwrap_err();
        assert!(
            matches!(err, ModelError::FlowControl { port: 3, .. }),
            "{err}"
        );
    }

    #[test]
    fn extra_credit_overflows_the_buffer() {
        let mut rx = Endpoint::new(LinkParams {
            buffer: 8,
            batch: 8,
            extra_initial_credit: 1,
        });
        assert_eq!(rx.fct_owed, 2);
        for _ in 0..8 {
            rx.receive(0, data()).unwrap();
        }
        let err = rx.receive(0, data()).unwrap_err();
        assert!(err.to_string().contains("overflow"), "{err}");
    }

    #[test]
    fn fcts_add_credit_and_data_uses_it() {
        let mut tx = Endpoint::new(params(20));
        assert_eq!(tx.ready_at(0, true), Some(0)); // owes its own FCTs
        tx.receive(0, Token::fct()).unwrap();
        assert_eq!(tx.credit(), 8);
        let (t, end) = tx.send_fct(0);
        assert_eq!((t.kind(), end), (TokenKind::Fct, 4));
        let (_, end) = tx.send_fct(4);
        assert_eq!(end, 8);
        assert!(!tx.next_is_fct());
        assert_eq!(tx.send_data(8, &data()), 18);
        assert_eq!(tx.credit(), 7);
        for i in 0..7 {
            tx.send_data(18 + 10 * i, &data());
        }
        assert_eq!(tx.ready_at(88, true), None, "no credit, no FCT owed");
        let c = tx.counters();
        assert_eq!((c.flow_sent, c.fct_sent, c.fct_received), (8, 2, 1));
    }

    #[test]
    fn fct_goes_before_data() {
        let mut ep = Endpoint::new(params(20));
        ep.receive(0, Token::fct()).unwrap();
        assert!(ep.next_is_fct());
        assert_eq!(ep.ready_at(0, true), Some(0));
    }

    #[test]
    fn an_idle_link_finishes_its_null_token_first() {
        let mut ep = Endpoint::new(params(20));
        ep.send_fct(0);
        ep.send_fct(4); // busy until 8, then nulls at 8, 16, 24, …
        assert_eq!(
            ep.start_tick(5),
            8,
            "busy: starts when the current token ends"
        );
        assert_eq!(ep.start_tick(8), 8);
        assert_eq!(ep.start_tick(9), 16, "a null started at 8");
        assert_eq!(ep.start_tick(16), 16);
        assert_eq!(ep.start_tick(17), 24);
    }
}
