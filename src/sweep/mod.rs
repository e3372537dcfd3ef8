//! Load sweeps: one run per (offered load, seed), spread over the cores, summarised as
//! a throughput/latency table and CSV, with the saturation point (INMOS ch. 7
//! §7.4: "Once the continuous throughput of the network has been determined, the load
//! may be adjusted to take advantage of the throughput").
//!
//! Every run is an ordinary single-threaded run of the plan built for that load and
//! seed, so each point is reproducible on its own with `emu` (any engine, any thread count).

pub mod loads;
pub mod point;
pub mod shard;
pub mod spec;
pub mod table;

pub use loads::{LoadsError, parse_loads};
pub use point::{Measures, Point, PointError, run_point};
pub use shard::{Header, MergeError, Merged, Shard, merge};
pub use spec::{Job, SeedOverflow, SpecError, SweepSpec};
pub use table::{Row, Saturation, rows, saturation};
