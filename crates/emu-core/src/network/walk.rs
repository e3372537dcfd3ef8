//! Following a packet's headers through a plan's routing tables, without running
//! anything: which switches it crosses, where headers are deleted and which terminal
//! it reaches. Used to check that every family's tables route every
//! source–destination pair to the right terminal (INMOS ch. 7 §7.1:
//! interval labelling, random header generation and deletion per link).

use super::{End, Network, NodeId};
use crate::model::LinkProtocol;
use crate::model::PortId;
use crate::routing::{RouteAction, Routing};
use crate::time::Tick;

/// Why a packet could not be followed to a terminal: a table routes it nowhere, off
/// the network, in a loop, or to a part with no routing view.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WalkError(pub String);

/// Where a packet went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// The switches it crossed, in order.
    pub switches: Vec<NodeId>,
    /// The port it entered each of them by.
    pub entered: Vec<PortId>,
    /// The latencies of the links it crossed, added up (source link and last link
    /// included).
    pub wire: Tick,
    /// The switches at which a header was deleted.
    pub deleted_at: Vec<NodeId>,
    /// The terminal (label) it reached.
    pub terminal: u32,
}

/// Walks packets through one plan.
pub struct Walker<'a, P: LinkProtocol> {
    net: &'a Network<P>,
    peer: Vec<Vec<Option<End>>>,
    /// Latency of the link at each node's port (0 where none).
    latency: Vec<Vec<Tick>>,
    terminal_of: Vec<Option<u32>>,
}

impl<'a, P: LinkProtocol> Walker<'a, P> {
    /// Prepares to walk `net`.
    pub fn new(net: &'a Network<P>) -> Walker<'a, P> {
        let mut peer: Vec<Vec<Option<End>>> =
            net.nodes().iter().map(|n| vec![None; n.ports()]).collect();
        let mut latency: Vec<Vec<Tick>> = net.nodes().iter().map(|n| vec![0; n.ports()]).collect();
        for l in net.links() {
            peer[l.a.node][l.a.port] = Some(l.b);
            peer[l.b.node][l.b.port] = Some(l.a);
            latency[l.a.node][l.a.port] = l.latency;
            latency[l.b.node][l.b.port] = l.latency;
        }
        let mut terminal_of = vec![None; net.nodes().len()];
        for (label, &node) in net.terminals().iter().enumerate() {
            terminal_of[node] = Some(label as u32);
        }
        Walker {
            net,
            peer,
            latency,
            terminal_of,
        }
    }

    /// Follows a packet from terminal `src` with header `dst`. A link that generates
    /// random headers prepends `random` (which must be in its range); a
    /// [`RouteAction::Group`] takes port `first + pick(count)`.
    pub fn route(
        &self,
        src: u32,
        dst: u32,
        random: Option<u32>,
        pick: &mut dyn FnMut(PortId) -> PortId,
    ) -> Result<Route, WalkError> {
        let start = *self
            .net
            .terminals
            .get(src as usize)
            .ok_or_else(|| WalkError(format!("no terminal {src}")))?;
        let mut at = self.peer[start][0].ok_or_else(|| WalkError("terminal not linked".into()))?;
        let mut headers = vec![dst];
        let mut route = Route {
            switches: Vec::new(),
            entered: Vec::new(),
            wire: self.latency[start][0],
            deleted_at: Vec::new(),
            terminal: 0,
        };
        for _ in 0..=self.net.nodes().len() * 2 {
            let p = match self.net.nodes()[at.node].part.routing() {
                Routing::Labels(p) => p,
                Routing::Sink => {
                    route.terminal = self.terminal_of[at.node]
                        .ok_or_else(|| WalkError("not a terminal".into()))?;
                    if headers.len() != 1 {
                        return Err(WalkError(format!("arrived with headers {headers:?}")));
                    }
                    return Ok(route);
                }
                Routing::Opaque => {
                    return Err(WalkError(format!(
                        "{} forwards packets but offers no routing view",
                        self.name(at.node)
                    )));
                }
            };
            route.switches.push(at.node);
            route.entered.push(at.port);
            if let Some((lo, hi)) = p.generates(at.port) {
                let r = random.ok_or_else(|| {
                    WalkError("a random header is generated, and no label given".into())
                })?;
                if !(lo..hi).contains(&r) {
                    return Err(WalkError(format!(
                        "random label {r} is outside [{lo}, {hi})"
                    )));
                }
                headers.insert(0, r);
            }
            let out = loop {
                let h = *headers
                    .first()
                    .ok_or_else(|| WalkError("no header left".into()))?;
                match p.lookup(h) {
                    None => {
                        return Err(WalkError(format!(
                            "{}: no interval for {h}",
                            self.name(at.node)
                        )));
                    }
                    Some(RouteAction::Delete) => {
                        headers.remove(0);
                        route.deleted_at.push(at.node);
                    }
                    Some(RouteAction::Output(o)) => break o,
                    Some(RouteAction::Group { first, count }) => break first + pick(count),
                }
            };
            route.wire += self.latency[at.node].get(out).copied().unwrap_or(0);
            at = self.peer[at.node][out].ok_or_else(|| {
                WalkError(format!("{} port {out} is not linked", self.name(at.node)))
            })?;
        }
        Err(WalkError("the route loops".into()))
    }

    fn name(&self, node: NodeId) -> &str {
        &self.net.nodes()[node].name
    }
}
