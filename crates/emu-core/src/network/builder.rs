//! The one way to make a [`Network`]: add nodes and links, name the terminals, and
//! finish with the family's time base, units and run phases. `finish` checks the wiring,
//! so no plan an engine runs has a dangling or doubly used port or a zero-latency link
//! (the engine contract needs latency ≥ 1: docs/architecture.md "The engine contract").

use super::{End, Link, Network, NodeId, NodeSpec, RunPlan, Units};
use crate::model::LinkProtocol;
use crate::parts::Part;
use crate::time::{Tick, TimeBase};

/// A wiring mistake in a plan: a family builder's bug, never a user's input error (the
/// families validate their input first).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// A link names a node or port that does not exist.
    #[error("link {link}: {end:?} is not a port of the plan")]
    NoSuchPort {
        /// Index of the link.
        link: usize,
        /// The end that does not exist.
        end: End,
    },
    /// Two links use one port.
    #[error("link {link}: {end:?} is already linked")]
    PortTaken {
        /// Index of the second link.
        link: usize,
        /// The port.
        end: End,
    },
    /// A link has no delay: a token sent at tick t would arrive at t.
    #[error("link {link}: latency 0; every link takes at least one tick")]
    ZeroLatency {
        /// Index of the link.
        link: usize,
    },
    /// A node number is not in the plan.
    #[error("node {node} is not in the plan")]
    NoSuchNode {
        /// The node.
        node: NodeId,
    },
    /// A replacement part does not have the ports of the part it replaces.
    #[error("node {node}: the replacement has {got} ports, the part it replaces {want}")]
    PortsDiffer {
        /// The node.
        node: NodeId,
        /// Ports of the part in the plan.
        want: usize,
        /// Ports of the replacement.
        got: usize,
    },
    /// A terminal names a node that does not exist.
    #[error("terminal {label}: node {node} is not in the plan")]
    NoSuchTerminal {
        /// The terminal's label.
        label: usize,
        /// The node.
        node: NodeId,
    },
}

/// A plan under construction.
#[derive(Debug)]
pub struct Builder<P: LinkProtocol> {
    nodes: Vec<NodeSpec<P>>,
    links: Vec<Link>,
    terminals: Vec<NodeId>,
}

impl<P: LinkProtocol> Default for Builder<P> {
    fn default() -> Self {
        Builder {
            nodes: Vec::new(),
            links: Vec::new(),
            terminals: Vec::new(),
        }
    }
}

impl<P: LinkProtocol> Builder<P> {
    /// An empty plan.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id the next node will get.
    pub(crate) fn next_id(&self) -> NodeId {
        self.nodes.len()
    }

    /// Adds a node named `name` of part `part`; returns its id.
    pub fn node(&mut self, name: impl Into<String>, part: impl Part<P> + 'static) -> NodeId {
        self.nodes.push(NodeSpec::new(name, part));
        self.nodes.len() - 1
    }

    /// Makes `node` the host of the next terminal label (0, 1, … in call order).
    pub fn terminal(&mut self, node: NodeId) {
        self.terminals.push(node);
    }

    /// Terminals named so far.
    pub fn terminal_count(&self) -> usize {
        self.terminals.len()
    }

    /// Joins port `a` and port `b` with a link of `latency` ticks each way whose wire
    /// holds at most `in_flight` tokens in each direction.
    pub fn link(&mut self, a: End, b: End, latency: Tick, in_flight: usize) {
        self.links.push(Link::new(a, b, latency, in_flight));
    }

    /// The plan, named `name`, with one tick lasting `time`, `switches` switches (for
    /// reports), the family's `units` and the run phases `run`.
    pub fn finish(
        self,
        name: impl Into<String>,
        time: TimeBase,
        switches: usize,
        units: Units,
        run: RunPlan,
    ) -> Result<Network<P>, PlanError> {
        let mut used: Vec<Vec<bool>> = self.nodes.iter().map(|n| vec![false; n.ports()]).collect();
        for (i, l) in self.links.iter().enumerate() {
            if l.latency == 0 {
                return Err(PlanError::ZeroLatency { link: i });
            }
            for end in [l.a, l.b] {
                let slot = used
                    .get_mut(end.node)
                    .and_then(|ports| ports.get_mut(end.port))
                    .ok_or(PlanError::NoSuchPort { link: i, end })?;
                if *slot {
                    return Err(PlanError::PortTaken { link: i, end });
                }
                *slot = true;
            }
        }
        if let Some((label, &node)) = self
            .terminals
            .iter()
            .enumerate()
            .find(|&(_, &n)| n >= self.nodes.len())
        {
            return Err(PlanError::NoSuchTerminal { label, node });
        }
        Ok(Network {
            name: name.into(),
            time,
            nodes: self.nodes,
            links: self.links,
            terminals: self.terminals,
            switches,
            units,
            run,
            flows: Vec::new(),
            senders: Vec::new(),
            faults: None,
            geometry: super::Geometry::Free,
            warnings: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::DelayUnit;
    use crate::parts::relay::{Relay, RelayParams};

    fn relay() -> RelayParams {
        RelayParams {
            seed_balls: 0,
            hops: 1,
            max_think: 1,
            capacity: 1,
            first_id: 0,
            seed: 0,
        }
    }

    fn finish(b: Builder<Relay>) -> Result<Network<Relay>, PlanError> {
        let units = Units::plain(DelayUnit {
            name: "ticks",
            ticks: 1,
        });
        let run = RunPlan {
            start: 0,
            window: (0, 1),
            batch: false,
            end_after: 1,
            hard_stop: 1,
            deadlock_window: 1,
            silence: crate::network::Silence::NONE,
        };
        b.finish("t", TimeBase { tick_ns: 1.0 }, 0, units, run)
    }

    fn end(node: NodeId, port: usize) -> End {
        End { node, port }
    }

    #[test]
    fn finish_rejects_dangling_shared_and_instant_links() {
        let two = || {
            let mut b = Builder::<Relay>::new();
            b.node("a", relay());
            b.node("b", relay());
            b
        };
        let mut b = two();
        b.link(end(0, 1), end(1, 0), 3, 1);
        let net = finish(b).expect("a good plan");
        assert_eq!((net.nodes().len(), net.links().len()), (2, 1));
        let mut b = two();
        b.link(end(0, 1), end(1, 2), 3, 1);
        assert!(matches!(finish(b), Err(PlanError::NoSuchPort { .. })));
        let mut b = two();
        b.link(end(0, 1), end(1, 0), 3, 1);
        b.link(end(0, 1), end(1, 1), 3, 1);
        assert!(matches!(
            finish(b),
            Err(PlanError::PortTaken { link: 1, .. })
        ));
        let mut b = two();
        b.link(end(0, 1), end(1, 0), 0, 1);
        assert!(matches!(finish(b), Err(PlanError::ZeroLatency { link: 0 })));
        let mut b = two();
        b.terminal(5);
        assert!(matches!(finish(b), Err(PlanError::NoSuchTerminal { .. })));
    }
}
