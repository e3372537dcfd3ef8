//! Deadlock: explaining it when it happens (the wait-for cycle of a stuck network),
//! and proving it impossible beforehand (the channel dependency graph, `emu check`).

pub mod cdg;
pub mod check_cli;
pub mod waitfor;

pub use waitfor::{CycleStep, Place, find_cycle};
