//! Driving parts by hand, for unit tests of protocol rules: tokens arrive at given ticks,
//! the part is stepped tick by tick, and what it sends is recorded with its departure
//! tick. [`Driver`] drives one part; [`Pair`] joins two parts back to back by a link.
//!
//! Both follow the engine contract (docs/architecture.md "The engine contract"): at each
//! tick a part first receives every token due, in port order and FIFO per port, then
//! steps once. Unlike an engine they may step a part at ticks it did not ask for, which
//! the contract allows (a step with nothing due changes nothing).
//!
//! ```
//! use emu_core::model::testkit::Driver;
//! use emu_core::parts::relay::{Ball, RelayNode, RelayParams};
//!
//! // A relay that holds a ball for exactly 3 ticks, then passes it on port 1.
//! let mut d = Driver::new(RelayNode::new(RelayParams {
//!     seed_balls: 0, hops: 5, max_think: 1, capacity: 4, first_id: 0, seed: 1,
//! }));
//! d.arrive(10, 0, Ball { id: 7, born: 0, hops_left: 5 });
//! d.run_until(20)?;
//! let sent = d.expect_sent(1, 11, "ball 7", |b| b.id == 7 && b.hops_left == 4);
//! assert_eq!(sent.port, 1);
//! # Ok::<(), emu_core::model::ModelError>(())
//! ```

use super::{Emit, LinkProtocol, ModelError, Node, Outbox, PortId};
use crate::time::Tick;
use std::fmt::Debug;

/// One part driven by hand.
pub struct Driver<P: LinkProtocol, N: Node<P>> {
    node: N,
    now: Tick,
    /// Tokens still to arrive: (tick, port, order of scheduling, token).
    pending: Vec<(Tick, PortId, usize, P::Token)>,
    scheduled: usize,
    out: Outbox<P::Token>,
    sent: Vec<Emit<P::Token>>,
}

impl<P: LinkProtocol, N: Node<P>> Driver<P, N> {
    /// Drives `node` from tick 0.
    pub fn new(node: N) -> Self {
        Driver {
            node,
            now: 0,
            pending: Vec::new(),
            scheduled: 0,
            out: Outbox::default(),
            sent: Vec::new(),
        }
    }

    /// The part.
    pub fn node(&self) -> &N {
        &self.node
    }

    /// The part, to change or inspect.
    pub fn node_mut(&mut self) -> &mut N {
        &mut self.node
    }

    /// The next tick the driver will step.
    pub fn now(&self) -> Tick {
        self.now
    }

    /// `token` arrives on `port` at tick `at` (delivered at the first step at or after it).
    pub fn arrive(&mut self, at: Tick, port: PortId, token: P::Token) {
        self.pending.push((at, port, self.scheduled, token));
        self.scheduled += 1;
    }

    /// Delivers every token due by `t` (port order, FIFO per port), then steps once at
    /// `t`. Ticks before `t` that were never stepped are skipped.
    pub(crate) fn step_at(&mut self, t: Tick) -> Result<Option<Tick>, ModelError> {
        self.pending
            .sort_by_key(|&(at, port, order, _)| (at > t, port, at, order));
        let due = self.pending.iter().take_while(|&&(at, ..)| at <= t).count();
        for (_, port, _, token) in self.pending.drain(..due) {
            self.node.receive(t, port, token)?;
        }
        let next = self.node.step(t, &mut self.out)?;
        self.sent.append(&mut self.out.emits);
        self.now = t + 1;
        Ok(next)
    }

    /// Steps every tick from [`Driver::now`] up to `until` (exclusive).
    pub fn run_until(&mut self, until: Tick) -> Result<(), ModelError> {
        while self.now < until {
            self.step_at(self.now)?;
        }
        Ok(())
    }

    /// Every token sent so far, in order, with its port and the tick its last bit left.
    pub fn sent(&self) -> &[Emit<P::Token>] {
        &self.sent
    }

    /// The tokens sent on `port` that satisfy `pred`, in order.
    pub fn sent_on(&self, port: PortId, pred: impl Fn(&P::Token) -> bool) -> Vec<Emit<P::Token>> {
        self.sent
            .iter()
            .filter(|e| e.port == port && pred(&e.token))
            .cloned()
            .collect()
    }

    /// Forgets what was sent so far.
    pub fn clear_sent(&mut self) {
        self.sent.clear();
    }

    /// The progress counters the part reported so far.
    pub fn activity(&self) -> super::Activity {
        self.out.activity
    }

    /// The first token sent on `port` whose last bit left at tick `at` and that
    /// satisfies `pred`. Panics, listing what was sent on the port, if there is none.
    pub fn expect_sent(
        &self,
        port: PortId,
        at: Tick,
        what: &str,
        pred: impl Fn(&P::Token) -> bool,
    ) -> Emit<P::Token> {
        match self
            .sent
            .iter()
            .find(|e| e.port == port && e.at == at && pred(&e.token))
        {
            Some(e) => e.clone(),
            None => panic!(
                "expected {what} to leave port {port} at tick {at}; sent on port {port}: {:?}",
                self.sent
                    .iter()
                    .filter(|e| e.port == port)
                    .map(|e| (e.at, e.token.clone()))
                    .collect::<Vec<_>>()
            ),
        }
    }
}

/// Two parts joined back to back by one link of `latency` ticks each way: port `ports.0`
/// of `a` to port `ports.1` of `b`. Both are stepped at every tick.
pub struct Pair<P: LinkProtocol, A: Node<P>, B: Node<P>> {
    /// The first part.
    pub a: Driver<P, A>,
    /// The second part.
    pub b: Driver<P, B>,
    ports: (PortId, PortId),
    latency: Tick,
}

impl<P: LinkProtocol, A: Node<P>, B: Node<P>> Pair<P, A, B>
where
    P::Token: Debug,
{
    /// Joins `a` and `b` (see the type's documentation).
    pub fn new(a: A, b: B, ports: (PortId, PortId), latency: Tick) -> Self {
        Pair {
            a: Driver::new(a),
            b: Driver::new(b),
            ports,
            latency,
        }
    }

    /// Steps both parts at every tick up to `until` (exclusive); what one sends on the
    /// joined port arrives at the other `latency` ticks after its last bit left.
    pub fn run_until(&mut self, until: Tick) -> Result<(), ModelError> {
        while self.a.now < until {
            let t = self.a.now;
            let (sa, sb) = (self.a.sent.len(), self.b.sent.len());
            self.a.step_at(t)?;
            self.b.step_at(t)?;
            for k in sa..self.a.sent.len() {
                let e = self.a.sent[k].clone();
                if e.port == self.ports.0 {
                    self.b.arrive(e.at + self.latency, self.ports.1, e.token);
                }
            }
            for k in sb..self.b.sent.len() {
                let e = self.b.sent[k].clone();
                if e.port == self.ports.1 {
                    self.a.arrive(e.at + self.latency, self.ports.0, e.token);
                }
            }
        }
        Ok(())
    }
}
