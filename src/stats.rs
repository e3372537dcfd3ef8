//! The report types of [`emu_core::stats`], and the progress bars the command line
//! draws while a run or a batch of runs goes on (kept out of the core library: they
//! write to the terminal).

pub use emu_core::stats::*;

pub mod job_progress;
pub mod progress;

pub use progress::Progress;
