//! Why an experiment could not be run to the end (as opposed to a row that misses its
//! tolerance, which is a result).

use crate::engine::EngineError;
use crate::network::{BuildError, PlanError};
use crate::session::CaseError;

/// Why an experiment broke. Printed after `error: NAME: run failed: `.
#[derive(Debug, thiserror::Error)]
pub enum ReproduceError {
    /// A shipped case did not load.
    #[error(transparent)]
    Case(#[from] CaseError),
    /// A configuration written by the experiment did not parse.
    #[error(transparent)]
    Toml(#[from] toml::de::Error),
    /// A plan built by the experiment did not validate.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// A set-up was miswired (a bug of the experiment).
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A run failed (deadlock, flow-control violation, …).
    #[error("{run}: {source}")]
    Engine {
        /// Which run: the network's name, or topology and traffic.
        run: String,
        /// What the engine reported (boxed: it is large, and rare).
        source: Box<EngineError>,
    },
    /// A batch run did not deliver all its messages.
    #[error("a batch of {messages} messages was not all delivered")]
    BatchUndelivered {
        /// Messages queued by each sender.
        messages: u32,
    },
    /// A run of single packets did not deliver them all.
    #[error("not every packet was delivered")]
    PacketsUndelivered,
    /// A different number of packets reached the output than were sent to it.
    #[error("{arrived} packets reached the output, not {expected}")]
    PacketCount {
        /// Packets that arrived.
        arrived: u64,
        /// Packets sent.
        expected: u32,
    },
    /// A run offered no traffic in its measurement window.
    #[error("the {run} run offered no traffic")]
    NothingOffered {
        /// Which run.
        run: &'static str,
    },
    /// A run ended with measured messages undelivered.
    #[error("{run}: not every message delivered")]
    MessagesUndelivered {
        /// Which run: topology, traffic and variant.
        run: String,
    },
    /// A switch-fabric set-up written by the experiment did not validate (a bug of the
    /// experiment).
    #[error("fabric set-up: {0}")]
    FabricSetup(String),
    /// The analytical model could not be solved for a point.
    #[error("the SCI App. A model: {0}")]
    Model(String),
    /// The experiment ran its share of a grid's points for a shard
    /// (`fabric::grid::share`) and stopped there: the merge runs it to the end.
    #[error("the experiment's grid is run in shards: merge them to see its report")]
    Shared,
    /// A grid point failed in a shard, or a merge lacks points (the message as the
    /// shard wrote it).
    #[error("{0}")]
    Point(String),
    /// A run has no completion time.
    #[error("{run}: no completion time")]
    NoCompletion {
        /// Which run: topology and traffic.
        run: String,
    },
}
