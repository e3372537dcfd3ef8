//! Virtual time.
//!
//! One [`Tick`] is the smallest unit of time the emulator knows. For DS-Link/C104
//! networks it is one bit period of the link (10 ns at 100 Mbit/s), so a data token
//! lasts exactly 10 ticks and a control token 4 ticks (INMOS ch. 6 §6.1;
//! docs/architecture.md "Time"). Every delay in a plan is a whole number of ticks.

use serde::Serialize;

/// The longest span of virtual time one setting may ask for, in microseconds: a run
/// phase (`phases.*_us`) or `--deadlock-window-us`. 10^9 µs is about 17 minutes of
/// virtual time, far beyond any run, and keeps a run's ticks well inside 64 bits.
pub const MAX_DURATION_US: f64 = 1e9;

/// A point in (or span of) virtual time, in ticks.
pub type Tick = u64;

/// The length of one tick in the real world, used only for reporting.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TimeBase {
    /// Nanoseconds per tick (10.0 for a 100 Mbit/s DS-Link).
    pub tick_ns: f64,
}

impl TimeBase {
    /// Converts ticks to microseconds.
    pub fn ticks_to_us(&self, ticks: f64) -> f64 {
        ticks * self.tick_ns / 1000.0
    }
}
