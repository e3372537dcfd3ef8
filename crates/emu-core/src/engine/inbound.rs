//! The receiving end of a bounded link channel as an engine reads it: tokens are
//! taken off the channel one at a time to look at their arrival tick, and a token
//! that is not yet due waits in a one-token slot until it is.

use crate::model::LinkProtocol;
use crate::time::Tick;
use async_channel::Receiver;

/// A token on a wire with its arrival tick.
pub(super) type Wire<P> = (Tick, <P as LinkProtocol>::Token);

/// A channel's receiver with a look-ahead slot.
pub(super) struct Inbound<P: LinkProtocol> {
    rx: Receiver<Wire<P>>,
    slot: Option<Wire<P>>,
}

impl<P: LinkProtocol> Inbound<P> {
    /// Reads from `rx`.
    pub fn new(rx: Receiver<Wire<P>>) -> Inbound<P> {
        Inbound { rx, slot: None }
    }

    /// Arrival tick of the next token, if any.
    pub fn peek(&mut self) -> Option<Tick> {
        if self.slot.is_none() {
            self.slot = self.rx.try_recv().ok();
        }
        self.slot.as_ref().map(|(t, _)| *t)
    }

    /// Takes the next token, with its arrival tick, if it has arrived by tick `t`.
    pub(crate) fn pop_due_wire(&mut self, t: Tick) -> Option<Wire<P>> {
        match self.peek() {
            Some(a) if a <= t => self.slot.take(),
            _ => None,
        }
    }

    /// Tokens in flight on this channel as the receiver sees them: the slot, if full
    /// (the sender's side of the channel is counted by the caller).
    pub fn held(&self) -> u64 {
        u64::from(self.slot.is_some())
    }
}
