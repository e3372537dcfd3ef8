//! Deadlock: explaining it when it happens (the wait-for cycle of a stuck network),
//! proving it impossible beforehand (the channel dependency graph, `emu check`), and
//! searching for it by running many cases (`emu stress`, the `emu` crate's `stress` module).

pub mod cdg;
pub mod check;
pub mod waitfor;

pub use waitfor::{CycleStep, Place, find_cycle};
