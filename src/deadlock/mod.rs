//! Deadlock: explaining it when it happens (the wait-for cycle of a stuck network),
//! and searching for it ([`stress`]).

pub mod stress;
pub mod waitfor;

pub use waitfor::{CycleStep, Place, find_cycle};
