//! Deadlock: explaining it when it happens (the wait-for cycle of a stuck network).

pub mod waitfor;

pub use waitfor::{CycleStep, Place, find_cycle};
