//! The hardware parts, one folder per family, and what a part is to the plan.
//!
//! A *part* is a hardware node kind as the plan sees it: its ports, the receive buffer
//! behind each port, how to instantiate its reset state machine ([`crate::model::Node`])
//! and, if it forwards packets, its routing view. Parts of a network share one link
//! protocol ([`crate::model::LinkProtocol`]) and may otherwise be mixed.
//!
//! | folder | part | link protocol |
//! |---|---|---|
//! | [`dslink`] | the DS-Link endpoint every INMOS part owns | [`dslink::DsLink`] |
//! | [`c104`] | IMS C104 routing switch | DS-Link |
//! | [`t9000`] | T9000: virtual channel processor + terminal process | DS-Link |
//! | [`sci`] | SCI ring node: stripper, ring buffer, go bits, echoes | [`sci::Sci`] |
//! | [`fabric`] | switch adapter (VOQs, data-path scheduler, output adapter) and switch core (crosspoint queues, output and reception schedulers) | [`fabric::Fabric`] |
//! | [`relay`] | a protocol-free test part: balls passed round a ring | [`relay::Relay`] |
//!
//! Adding a part is a new folder here with its state machine, its parameters (which
//! implement [`Part`]), its configuration section and its tests, plus one line in the
//! list above and one `pub mod` line below; a network family that places it registers
//! in [`crate::network`] (docs/architecture.md "Adding a part").

pub(crate) mod bounds;
pub mod c104;
pub mod dslink;
pub mod fabric;
pub mod relay;
pub mod sci;
pub mod t9000;

use crate::ids::PortId;
use crate::memory::Fill;
use crate::model::{LinkProtocol, Node};
use crate::routing::Routing;
use crate::time::Tick;
use std::fmt::Debug;

/// A value in a part's section of a topology file is out of range; `key` is its dotted
/// path (e.g. `c104.header_time_ns`), so the front end can point at the file line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {message}")]
pub struct ConfigError {
    /// Dotted key path.
    pub key: &'static str,
    /// What is wrong, and what would be right.
    pub message: String,
}

impl ConfigError {
    /// An error about `key`.
    pub fn new(key: &'static str, message: impl Into<String>) -> ConfigError {
        ConfigError {
            key,
            message: message.into(),
        }
    }
}

/// A validated part: everything needed to put one node of this kind into a plan and
/// to run it. Implemented by each part's parameter type.
pub trait Part<P: LinkProtocol>: Send + Sync + Debug {
    /// The part's name in messages and reports, e.g. "c104".
    fn kind(&self) -> &'static str;

    /// Number of ports (link attachments), numbered from 0.
    fn ports(&self) -> usize;

    /// Tokens the receiver behind `port` can buffer: with what the wire holds, the
    /// capacity of the engines' channel into that port.
    fn receive_capacity(&self, port: PortId) -> usize;

    /// A freshly reset state machine.
    fn instantiate(&self) -> Box<dyn Node<P>>;

    /// How the part forwards packets, for the table walker and `emu check`.
    fn routing(&self) -> Routing<'_>;

    /// Bytes of memory one node of this part holds with its buffers and statistics as
    /// full as `fill` says: its state, buffers and latency histograms, but not a source
    /// queue that grows because more is offered than the link carries.
    /// [`crate::network::Network::memory_need`] adds these up to refuse a network too
    /// large for the machine before building it.
    fn memory_bound(&self, fill: Fill) -> u64;

    /// Ticks from a packet's first token starting on the link into `input` to its first
    /// token starting out of this part, less the link's latency and the waits its
    /// journey counts: the part's share of a packet's uncontended latency (Proteus
    /// §Message Timing). `None` for parts that do not forward packets
    /// or keep no journey; the `--check` of journeys then checks no path through them.
    fn transit(&self, input: PortId) -> Option<Tick> {
        let _ = input;
        None
    }

    /// True if `port` has a transmitter: the direction of its link that leaves here
    /// exists on the hardware. False for a port that only receives (an SCI node's input
    /// from upstream, SCI §2.1; a fabric adapter's egress link, Gramsamer §2.1), whose
    /// reverse direction the report's link utilisation leaves out. True by default.
    fn transmits(&self, port: PortId) -> bool {
        let _ = port;
        true
    }
}
