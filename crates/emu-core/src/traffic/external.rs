//! Traffic fed from outside the core: a program pushes each message (source terminal,
//! destination terminal, bytes, creation tick) instead of a generator drawing them,
//! and reads back what arrived (co-simulation: [`crate::api::Network`]).
//!
//! A [`Feed`] is shared by every terminal of one network and by the program that
//! feeds it. Each source terminal takes its pushed messages at their creation ticks,
//! in the order they were pushed, and each destination terminal records the messages
//! it delivers. Nothing here is random: the same pushes give the same deliveries.
//!
//! The injection carries a handle of the feed ([`crate::traffic::Injection::External`]),
//! which every terminal built from the plan clones: there is no table of feeds, and a
//! feed lives as long as its network or its program holds it.

use crate::time::Tick;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

/// A message a program pushed, waiting for its creation tick at its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pushed {
    /// Destination terminal.
    pub dst: u32,
    /// Payload bytes.
    pub bytes: u32,
    /// The tick the source creates it at.
    pub created: Tick,
}

/// A message a destination terminal delivered: when its last missing packet arrived,
/// with the journey of that packet (docs/architecture.md; book/src/journeys.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// Source terminal.
    pub src: u32,
    /// Destination terminal.
    pub dst: u32,
    /// The message's sequence number at its source: 0, 1, 2, … in the order its
    /// messages were pushed.
    pub seq: u32,
    /// Tick it was created at its source.
    pub created: Tick,
    /// Tick the completing packet's first token started on the source's link.
    pub injected: Tick,
    /// Tick its last missing packet arrived.
    pub delivered: Tick,
    /// Ticks the completing packet's header waited at switch inputs (its journey:
    /// book/src/journeys.md).
    pub input_wait: u32,
    /// Ticks its first token waited at switch outputs.
    pub output_wait: u32,
    /// Switches it crossed.
    pub hops: u16,
    /// Ticks the completing packet's tokens took to cross the last link.
    pub transfer: Tick,
}

/// Why a push was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FeedError {
    /// The source is not a terminal of the network.
    #[error("source {src} is not a terminal: give 0 to {}", terminals.saturating_sub(1))]
    NoSuchSource {
        /// The source given.
        src: u32,
        /// Terminals in the network.
        terminals: u32,
    },
    /// A source creates its messages in the order they are pushed, so a message may
    /// not be created before the one pushed before it from the same source.
    #[error(
        "terminal {src} creates its messages in the order they are sent: tick {created} is before tick {last}, when its last message is created"
    )]
    OutOfOrder {
        /// The source.
        src: u32,
        /// The creation tick given.
        created: Tick,
        /// The creation tick of the source's last pushed message.
        last: Tick,
    },
}

#[derive(Debug, Default)]
struct Exchange {
    /// Per source terminal, its pushed messages not yet created, in creation order.
    pending: Vec<VecDeque<Pushed>>,
    /// Per source terminal, the creation tick of its last pushed message.
    last: Vec<Option<Tick>>,
    /// Messages delivered since the program last took them.
    delivered: Vec<Delivery>,
}

/// Messages pushed into a network's terminals and the messages they delivered: the
/// source and sink of [`crate::traffic::Injection::External`]. Clones share one
/// exchange.
#[derive(Clone, Debug)]
pub struct Feed(Arc<Mutex<Exchange>>);

impl PartialEq for Feed {
    /// Two feeds are equal when they are the same exchange.
    fn eq(&self, other: &Feed) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Feed {
    /// An empty feed for a network of `terminals` terminals.
    pub fn new(terminals: u32) -> Feed {
        Feed(Arc::new(Mutex::new(Exchange {
            pending: vec![VecDeque::new(); terminals as usize],
            last: vec![None; terminals as usize],
            delivered: Vec::new(),
        })))
    }

    fn lock(&self) -> MutexGuard<'_, Exchange> {
        // A poisoned lock means a node panicked while holding it; the engine reports
        // that panic, and the exchange is still consistent for reading.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues `m` at terminal `src`, to be created at `m.created`: not before the
    /// last message pushed at `src`. The caller wakes the source's node at that tick.
    pub fn push(&self, src: u32, m: Pushed) -> Result<(), FeedError> {
        let mut x = self.lock();
        let terminals = x.pending.len() as u32;
        let last = x
            .last
            .get_mut(src as usize)
            .ok_or(FeedError::NoSuchSource { src, terminals })?;
        if let Some(last) = *last
            && m.created < last
        {
            return Err(FeedError::OutOfOrder {
                src,
                created: m.created,
                last,
            });
        }
        *last = Some(m.created);
        x.pending[src as usize].push_back(m);
        Ok(())
    }

    /// Takes the next message terminal `src` creates at or before `now`, if any.
    pub(crate) fn pop_due(&self, src: u32, now: Tick) -> Option<Pushed> {
        let mut x = self.lock();
        let q = x.pending.get_mut(src as usize)?;
        match q.front() {
            Some(m) if m.created <= now => q.pop_front(),
            _ => None,
        }
    }

    /// The creation tick of terminal `src`'s next pushed message, if any.
    pub(crate) fn next_due(&self, src: u32) -> Option<Tick> {
        self.lock()
            .pending
            .get(src as usize)
            .and_then(|q| q.front())
            .map(|m| m.created)
    }

    /// Records a message its destination delivered.
    pub(crate) fn delivered(&self, d: Delivery) {
        self.lock().delivered.push(d);
    }

    /// Takes the messages delivered since the last call, ordered by delivery tick,
    /// then source and sequence number (an order that does not depend on which node
    /// ran first).
    pub fn take_delivered(&self) -> Vec<Delivery> {
        let mut out = std::mem::take(&mut self.lock().delivered);
        out.sort_by_key(|d| (d.delivered, d.src, d.seq));
        out
    }

    /// Messages pushed and not yet created, over every source.
    pub fn pending(&self) -> usize {
        self.lock().pending.iter().map(VecDeque::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(dst: u32, created: Tick) -> Pushed {
        Pushed {
            dst,
            bytes: 8,
            created,
        }
    }

    #[test]
    fn a_source_takes_its_messages_in_push_order_at_their_ticks() {
        let f = Feed::new(2);
        f.push(0, m(1, 5)).unwrap();
        f.push(0, m(1, 5)).unwrap();
        f.push(0, m(1, 9)).unwrap();
        assert_eq!(f.next_due(0), Some(5));
        assert_eq!(f.next_due(1), None);
        assert_eq!(f.pop_due(0, 4), None, "not yet");
        assert_eq!(f.pop_due(0, 5), Some(m(1, 5)));
        assert_eq!(f.pop_due(0, 7), Some(m(1, 5)));
        assert_eq!(f.pop_due(0, 7), None);
        assert_eq!(f.pending(), 1);
        assert_eq!(f.pop_due(0, 9), Some(m(1, 9)));
        assert_eq!(f.pop_due(7, 9), None, "no such terminal");
    }

    #[test]
    fn pushes_out_of_order_or_to_no_terminal_are_refused() {
        let f = Feed::new(2);
        f.push(1, m(0, 10)).unwrap();
        assert_eq!(
            f.push(1, m(0, 9)),
            Err(FeedError::OutOfOrder {
                src: 1,
                created: 9,
                last: 10
            })
        );
        let e = f.push(2, m(0, 10)).unwrap_err();
        assert_eq!(e.to_string(), "source 2 is not a terminal: give 0 to 1");
        assert_eq!(f.pending(), 1, "nothing refused was queued");
    }

    #[test]
    fn deliveries_come_out_in_tick_then_source_order_once() {
        let f = Feed::new(3);
        let d = |src, seq, delivered| Delivery {
            src,
            dst: 0,
            seq,
            created: 0,
            injected: 0,
            delivered,
            input_wait: 0,
            output_wait: 0,
            hops: 0,
            transfer: 0,
        };
        f.delivered(d(2, 0, 30));
        f.delivered(d(1, 1, 30));
        f.delivered(d(1, 0, 20));
        let got: Vec<(Tick, u32, u32)> = f
            .take_delivered()
            .iter()
            .map(|d| (d.delivered, d.src, d.seq))
            .collect();
        assert_eq!(got, vec![(20, 1, 0), (30, 1, 1), (30, 2, 0)]);
        assert!(f.take_delivered().is_empty());
        assert!(f.clone() == f && Feed::new(3) != f);
    }
}
