//! A protocol-free test part: relay nodes on a ring pass balls to the next node after a
//! random think time, on their own tiny link protocol ([`Relay`]). Nothing here is
//! hardware; the part exists to prove that the engines depend on no hardware protocol
//! (the engines test runs it on every engine and thread count), and as the smallest
//! example of a part in its own folder (docs/architecture.md "Adding a part"). [`crate::network::relay_ring`] builds a
//! ring of them.
//!
//! Rules: a ball that arrives is held for a think time drawn uniformly from
//! `1..=max_think` ticks by the node's own generator, then sent on port 1 (to the next
//! node), one ball per tick per port. A ball is retired where its hop count runs out,
//! and its age is recorded as a "message latency" in the node's terminal statistics.
//! Node `seed_balls` puts that many balls into play at tick 0.

pub mod config;
mod protocol;

pub use protocol::{Ball, Relay, RelayCounters};

use crate::ids::PortId;
use crate::model::{Activity, ModelError, Node, Outbox, Wait};
use crate::parts::Part;
use crate::routing::Routing;
use crate::terminal::TerminalStats;
use crate::time::Tick;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Parameters of one relay node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelayParams {
    /// Balls this node puts into play at tick 0.
    pub seed_balls: u32,
    /// Hops every ball makes before it is retired.
    pub hops: u32,
    /// Longest think time, in ticks (≥ 1).
    pub max_think: Tick,
    /// Most balls the node can hold.
    pub capacity: u32,
    /// First ball id of this node's own balls.
    pub first_id: u32,
    /// Seed of the node's generator.
    pub seed: u64,
}

/// One relay node: port 0 receives from the previous node, port 1 sends to the next.
#[derive(Clone, Debug)]
pub struct RelayNode {
    p: RelayParams,
    rng: ChaCha8Rng,
    /// Balls thinking, by the tick they are ready (then by arrival order).
    thinking: BinaryHeap<Reverse<(Tick, u64, Ball)>>,
    arrivals: u64,
    /// The tick port 1 is free to send again.
    free_at: Tick,
    seeded: bool,
    counters: [RelayCounters; 2],
    stats: TerminalStats,
    activity: Activity,
}

impl RelayNode {
    /// A reset relay node.
    pub fn new(p: RelayParams) -> RelayNode {
        let rng = ChaCha8Rng::seed_from_u64(p.seed);
        let capacity = u64::from(p.capacity);
        RelayNode {
            p,
            rng,
            thinking: BinaryHeap::new(),
            arrivals: 0,
            free_at: 0,
            seeded: false,
            counters: [RelayCounters {
                capacity,
                ..RelayCounters::default()
            }; 2],
            stats: TerminalStats::default(),
            activity: Activity::default(),
        }
    }

    fn think(&mut self, now: Tick, ball: Ball) {
        let ready = now + self.rng.random_range(1..=self.p.max_think.max(1));
        self.arrivals += 1;
        self.thinking.push(Reverse((ready, self.arrivals, ball)));
    }

    fn held(&self) -> u64 {
        self.thinking.len() as u64
    }
}

impl Node<Relay> for RelayNode {
    fn receive(&mut self, now: Tick, port: PortId, ball: Ball) -> Result<(), ModelError> {
        self.counters[port.min(1)].received += 1;
        if self.held() >= u64::from(self.p.capacity) {
            return Err(ModelError::FlowControl {
                port,
                what: format!("a ball arrived while {} are held", self.held()),
            });
        }
        if ball.hops_left == 0 {
            return Err(ModelError::Protocol {
                port,
                what: format!("ball {} arrived with no hops left", ball.id),
            });
        }
        let ball = Ball {
            hops_left: ball.hops_left - 1,
            ..ball
        };
        if ball.hops_left == 0 {
            self.stats.message_latency.record(now - ball.born);
            self.stats.counters.delivered += 1;
            self.stats.counters.measured_delivered += 1;
            self.stats.counters.last_delivery = now;
            self.activity.packets_ejected += 1;
            self.activity.obligations_closed += 1;
            self.activity.messages_delivered += 1;
        } else {
            self.think(now, ball);
        }
        Ok(())
    }

    fn step(&mut self, now: Tick, out: &mut Outbox<Ball>) -> Result<Option<Tick>, ModelError> {
        if !self.seeded {
            self.seeded = true;
            for k in 0..self.p.seed_balls {
                let ball = Ball {
                    id: self.p.first_id + k,
                    born: now,
                    hops_left: self.p.hops,
                };
                self.think(now, ball);
                self.stats.counters.created += 1;
                self.activity.messages_created += 1;
                self.stats.counters.measured_created += 1;
                self.activity.packets_injected += 1;
                self.activity.obligations_opened += 1;
            }
        }
        while let Some(&Reverse((ready, _, ball))) = self.thinking.peek() {
            if ready > now || self.free_at > now {
                break;
            }
            self.thinking.pop();
            out.send(1, ball, now);
            self.free_at = now + 1;
            self.counters[1].sent += 1;
            self.activity.tokens_moved += 1;
        }
        out.activity.add(&self.activity);
        self.activity = Activity::default();
        let next = self
            .thinking
            .peek()
            .map(|&Reverse((ready, _, _))| ready.max(self.free_at).max(now + 1));
        Ok(next)
    }

    fn port_counters(&self, port: PortId) -> RelayCounters {
        RelayCounters {
            held: self.held(),
            ..self.counters[port.min(1)]
        }
    }

    fn waits(&self) -> Vec<Wait> {
        Vec::new()
    }

    fn terminal_stats(&self) -> Option<&TerminalStats> {
        Some(&self.stats)
    }

    fn into_terminal_stats(self: Box<Self>) -> Option<TerminalStats> {
        Some(self.stats)
    }
}

impl Part<Relay> for RelayParams {
    fn kind(&self) -> &'static str {
        "relay"
    }

    /// Two: port 0 from the previous node, port 1 to the next.
    fn ports(&self) -> usize {
        2
    }

    fn receive_capacity(&self, _port: PortId) -> usize {
        self.capacity as usize
    }

    fn instantiate(&self) -> Box<dyn Node<Relay>> {
        Box::new(RelayNode::new(self.clone()))
    }

    /// A relay forwards every ball to the next node whatever it carries: there is no
    /// header to follow, so it offers no routing view.
    fn routing(&self) -> Routing<'_> {
        Routing::Opaque
    }

    /// The relay with its balls thinking (every ball of its capacity, full).
    fn memory_bound(&self, fill: crate::memory::Fill) -> u64 {
        std::mem::size_of::<RelayNode>() as u64
            + fill.entries(u64::from(self.capacity))
                * std::mem::size_of::<(Tick, u64, Ball)>() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testkit::Driver;

    fn relay(seed_balls: u32, max_think: Tick, capacity: u32) -> RelayNode {
        RelayNode::new(RelayParams {
            seed_balls,
            hops: 3,
            max_think,
            capacity,
            first_id: 100,
            seed: 9,
        })
    }

    #[test]
    fn seeded_balls_leave_one_per_tick_after_their_think_time() {
        let mut d = Driver::new(relay(3, 1, 8));
        d.run_until(10).unwrap();
        let ticks: Vec<Tick> = d.sent_on(1, |_| true).iter().map(|e| e.at).collect();
        assert_eq!(ticks, vec![1, 2, 3], "ready at 1, one per tick on port 1");
        assert_eq!(d.activity().obligations_opened, 3);
        assert_eq!(d.activity().tokens_moved, 3);
    }

    #[test]
    fn a_ball_is_retired_where_its_hops_run_out_and_its_age_recorded() {
        let mut d = Driver::new(relay(0, 4, 8));
        d.arrive(
            50,
            0,
            Ball {
                id: 1,
                born: 20,
                hops_left: 1,
            },
        );
        d.arrive(
            60,
            0,
            Ball {
                id: 2,
                born: 20,
                hops_left: 2,
            },
        );
        d.run_until(80).unwrap();
        let stats = d.node().terminal_stats().expect("a relay keeps statistics");
        assert_eq!(stats.counters.delivered, 1);
        assert_eq!(stats.message_latency.max, 30);
        let sent = d.sent_on(1, |b| b.id == 2);
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].token.hops_left, 1);
        assert!(
            (61..=64).contains(&sent[0].at),
            "think time 1..=4: {}",
            sent[0].at
        );
    }

    #[test]
    fn a_ball_beyond_the_holding_limit_is_a_flow_control_error() {
        let mut d = Driver::new(relay(0, 100, 1));
        d.arrive(
            5,
            0,
            Ball {
                id: 1,
                born: 0,
                hops_left: 9,
            },
        );
        d.arrive(
            5,
            0,
            Ball {
                id: 2,
                born: 0,
                hops_left: 9,
            },
        );
        let e = d.run_until(10).expect_err("two balls, room for one");
        assert!(matches!(e, ModelError::FlowControl { port: 0, .. }), "{e}");
    }
}
