//! Link faults in the plan: which links go down when, and after how many tokens each
//! link direction suffers its first parity error (docs/architecture.md "Link faults").
//!
//! The plan knows nothing of any link protocol: a fault kills a link of the plan, and
//! the engines discard the tokens that would cross it (`engine::faults`). A family
//! gets link faults by reading its own configuration keys into a [`FaultPlan`] and
//! handing it to [`Network::with_faults`]; every family reads the same keys
//! (`faults.link_down`, `faults.token_error_rate`) with `link_faults`.
//!
//! What a dead link is, is emu's decision: the INMOS documents describe no disconnect
//! detection and do not say what a link does after a parity error, so a dead link is a
//! cut cable, dead in both directions from its tick, and the parts are not told.

use super::build::mix_seed;
use super::{End, Network};
use crate::model::LinkProtocol;
use crate::time::Tick;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The stream number that keeps the parity-error generators apart from the nodes'
/// (nodes use their id; this is mixed in first, then the direction's index).
const PARITY_STREAM: u64 = 0xFA17_0000_0000_0001;

/// Never: no scheduled death, no parity error.
pub const NEVER: u64 = u64::MAX;

/// The link faults of a run, fixed when the network is built, so that the same seed
/// gives the same faults on every engine and thread count.
#[derive(Clone, Debug, PartialEq)]
pub struct FaultPlan {
    /// Per link: the tick from which it is dead ([`NEVER`]: not scheduled).
    down: Vec<Tick>,
    /// Per link direction (index into [`Network::directions`]): tokens that arrive
    /// intact before the first one with a parity error ([`NEVER`]: none).
    intact: Vec<u64>,
    /// The probability of a parity error per token (`faults.token_error_rate`).
    rate: f64,
    /// Scheduled deaths as given: (link, tick), in the order given.
    scheduled: Vec<(usize, Tick)>,
}

impl FaultPlan {
    /// The faults of a network of `links` links: each `(link, tick)` of `down` goes
    /// down at that tick (the earliest, if a link is named twice); every token has
    /// probability `rate` (0 ≤ rate ≤ 1, checked by the caller) of a parity error.
    /// For each direction the number of intact tokens before its first error is drawn
    /// once, from a geometric distribution, by a ChaCha8 generator seeded from the run
    /// `seed` and the direction's index (emu's decision: faults are part of the plan).
    pub fn new(links: usize, down: &[(usize, Tick)], rate: f64, seed: u64) -> FaultPlan {
        let mut dead = vec![NEVER; links];
        for &(l, t) in down {
            if let Some(d) = dead.get_mut(l) {
                *d = (*d).min(t);
            }
        }
        let stream = mix_seed(seed, PARITY_STREAM);
        let intact = (0..2 * links)
            .map(|d| intact_tokens(rate, mix_seed(stream, d as u64)))
            .collect();
        FaultPlan {
            down: dead,
            intact,
            rate,
            scheduled: down.to_vec(),
        }
    }

    /// The plan with direction `dir`'s first parity error on its token `intact + 1`
    /// instead of the drawn one: for tests that need an error at a known token.
    pub fn with_intact(mut self, dir: usize, intact: u64) -> FaultPlan {
        if let Some(d) = self.intact.get_mut(dir) {
            *d = intact;
        }
        self
    }

    /// The tick from which link `link` is scheduled dead ([`NEVER`]: not scheduled).
    pub fn down(&self, link: usize) -> Tick {
        self.down.get(link).copied().unwrap_or(NEVER)
    }

    /// Tokens that arrive intact on direction `dir` before its first parity error
    /// ([`NEVER`]: none ever).
    pub fn intact(&self, dir: usize) -> u64 {
        self.intact.get(dir).copied().unwrap_or(NEVER)
    }

    /// The probability of a parity error per token.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The scheduled deaths as given: (link, tick).
    pub fn scheduled(&self) -> &[(usize, Tick)] {
        &self.scheduled
    }
}

/// Tokens before the first error when each has probability `rate` of one: the number
/// of failures before the first success of Bernoulli trials, by inversion
/// (⌊ln U / ln(1 − rate)⌋ for U uniform in (0, 1]).
fn intact_tokens(rate: f64, seed: u64) -> u64 {
    if rate <= 0.0 || rate.is_nan() {
        return NEVER;
    }
    if rate >= 1.0 {
        return 0;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let u = 1.0 - rng.random::<f64>(); // in (0, 1]
    let k = (u.ln() / (-rate).ln_1p()).floor();
    if k >= (NEVER - 1) as f64 {
        NEVER - 1
    } else {
        k as u64
    }
}

/// Why a link name does not name a link.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LinkNameError {
    /// Not `NODE:PORT`.
    #[error(
        "\"{0}\" is not a link: give NODE:PORT, a node name as the report writes it and one of its ports, e.g. \"c104[3]:2\""
    )]
    Form(String),
    /// No node has that name.
    #[error(
        "no node is called \"{name}\" (nodes are named as the report names them, e.g. {example})"
    )]
    NoNode {
        /// The name given.
        name: String,
        /// A name that exists.
        example: String,
    },
    /// The port is not one of the node's.
    #[error("{name} has ports {}, not {port}", crate::text::indices(*.ports as u64))]
    NoPort {
        /// The node.
        name: String,
        /// Its port count.
        ports: usize,
        /// The port given.
        port: String,
    },
    /// Nothing is attached to the port.
    #[error("nothing is attached to {name} port {port}: there is no link to take down")]
    Unlinked {
        /// The node.
        name: String,
        /// The port.
        port: usize,
    },
}

impl<P: LinkProtocol> Network<P> {
    /// The index of the link attached to `NODE:PORT` (either end may be named, as the
    /// report names nodes, e.g. `c104[3]:2`).
    pub fn link_named(&self, text: &str) -> Result<usize, LinkNameError> {
        let (name, port) = text
            .trim()
            .rsplit_once(':')
            .ok_or_else(|| LinkNameError::Form(text.to_string()))?;
        let node = self
            .nodes()
            .iter()
            .position(|n| n.name == name)
            .ok_or_else(|| LinkNameError::NoNode {
                name: name.to_string(),
                example: self
                    .nodes()
                    .first()
                    .map_or_else(|| "c104[0]".to_string(), |n| n.name.clone()),
            })?;
        let ports = self.nodes()[node].ports();
        let p: usize = port
            .trim()
            .parse()
            .ok()
            .filter(|&p| p < ports)
            .ok_or_else(|| LinkNameError::NoPort {
                name: name.to_string(),
                ports,
                port: port.to_string(),
            })?;
        let end = End { node, port: p };
        self.links()
            .iter()
            .position(|l| l.a == end || l.b == end)
            .ok_or(LinkNameError::Unlinked {
                name: name.to_string(),
                port: p,
            })
    }
}

/// Refuses the `[faults]` keys that are DS-Link flow-control faults (a misprogrammed
/// credit, a buffer below the FCT batch) on a family whose links have no such credit
/// (SCI rings, fabrics): the link-fault keys apply to every family.
pub(super) fn refuse_dslink_faults(
    faults: &crate::parts::dslink::config::FaultConfig,
    family: &str,
) -> Result<(), super::BuildError> {
    let key = if faults.extra_initial_credit != 0 {
        "faults.extra_initial_credit"
    } else if faults.allow_buffer_below_batch {
        "faults.allow_buffer_below_batch"
    } else {
        return Ok(());
    };
    Err(super::build::topo_err(
        key,
        format!(
            "this fault is of DS-Link flow control (FCT credit, INMOS ch. 6 §6.2.1), which {family} \
             does not have: remove the key (faults.link_down and faults.token_error_rate apply)"
        ),
    ))
}

/// Adds the link faults of `[faults]` (`link_down`, `token_error_rate`) to the plan,
/// once the nodes have their names; none configured (no entry, rate 0) leaves the
/// plan without faults, so that its runs are those of a file without the keys.
pub(super) fn link_faults<P: LinkProtocol>(
    net: Network<P>,
    faults: &crate::parts::dslink::config::FaultConfig,
    seed: u64,
) -> Result<Network<P>, super::BuildError> {
    let rate = faults.token_error_rate;
    if !(0.0..=1.0).contains(&rate) {
        return Err(super::build::topo_err(
            "faults.token_error_rate",
            format!(
                "{rate} is not a probability: give a number from 0 to 1 (the chance that a token arriving on a link has a parity error)"
            ),
        ));
    }
    if faults.link_down.is_empty() && rate == 0.0 {
        return Ok(net);
    }
    let tick_ns = net.time().tick_ns;
    let last = net.run().hard_stop;
    let mut down = Vec::with_capacity(faults.link_down.len());
    for (i, d) in faults.link_down.iter().enumerate() {
        let key = |k: &str| format!("faults.link_down[{i}].{k}");
        let link = net
            .link_named(&d.link)
            .map_err(|e| super::build::topo_err(&key("link"), e.to_string()))?;
        if let Some(first) = down.iter().position(|&(l, _)| l == link) {
            return Err(super::build::topo_err(
                &key("link"),
                format!(
                    "{} is the link faults.link_down[{first}] already names (a link may be \
                     named by either end): give each link once",
                    crate::text::excerpt(&d.link)
                ),
            ));
        }
        let last_us = last as f64 * tick_ns / 1000.0;
        if !(d.at_us >= 0.0 && d.at_us <= last_us) {
            return Err(super::build::topo_err(
                &key("at_us"),
                format!(
                    "{} µs is not a time of the run: give 0 to {} µs (the run's hard stop)",
                    crate::text::number(d.at_us),
                    crate::text::decimal(last_us)
                ),
            ));
        }
        // The first tick at or after the time given.
        let tick = ((d.at_us * 1000.0 / tick_ns).ceil() as Tick).min(last);
        down.push((link, tick));
    }
    let plan = crate::network::FaultPlan::new(net.links().len(), &down, rate, seed);
    Ok(net.with_faults(plan))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_geometric_draw_has_its_mean_and_its_extremes() {
        assert_eq!(intact_tokens(0.0, 1), NEVER);
        assert_eq!(intact_tokens(1.0, 1), 0, "rate 1: the first token errs");
        let n = 20_000;
        let mean = (0..n).map(|s| intact_tokens(0.01, s) as f64).sum::<f64>() / n as f64;
        // E[failures before the first success] = (1 − p) / p = 99.
        assert!((mean - 99.0).abs() < 3.0, "mean {mean}");
    }

    #[test]
    fn the_plan_is_a_function_of_the_seed() {
        let a = FaultPlan::new(8, &[(3, 500), (3, 200)], 0.001, 7);
        assert_eq!(a, FaultPlan::new(8, &[(3, 500), (3, 200)], 0.001, 7));
        assert_ne!(a, FaultPlan::new(8, &[(3, 500), (3, 200)], 0.001, 8));
        assert_eq!(a.down(3), 200, "the earliest of two");
        assert_eq!(a.down(2), NEVER);
        assert_ne!(a.intact(0), a.intact(1), "each direction draws its own");
    }
}
