//! Terminal (stub).
use crate::time::Tick;
use crate::traffic::{Destination, Injection};
/// Parameters of one terminal.
#[derive(Clone, Debug)]
pub struct TerminalParams {
    /// Own label.
    pub label: u32,
    /// Number of terminals.
    pub terminals: u32,
    /// Whether it sends.
    pub sends: bool,
    /// Destination rule.
    pub destination: Destination,
    /// Injection process.
    pub injection: Injection,
    /// Message bytes.
    pub message_bytes: u32,
    /// Injection start.
    pub start: Tick,
    /// Measurement window [from, to).
    pub window: (Tick, Tick),
    /// RNG seed.
    pub seed: u64,
}
