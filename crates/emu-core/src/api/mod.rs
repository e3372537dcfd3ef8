//! One run from outside, in a few types: say where the two files come from
//! ([`Input`]), how to run ([`RunOptions`]), and [`run`] gives a [`Report`] whose
//! [`Outcome`] says how the run ended (a deadlock is an outcome, not an error) or an
//! [`Error`] whose [`ErrorKind`] and [`Location`](crate::config::Location) say what
//! in the input was wrong. Any family, any link protocol, no generics: the crate root's
//! documentation shows it, and `examples/embed.rs` is a whole program.

mod check;
mod error;
mod network;
mod options;
mod report;
mod run;

pub use crate::config::Input;
pub use check::{Checked, check};
pub use error::{Error, ErrorKind};
pub use network::{Delivered, MessageId, Network};
pub use options::{MAX_THREADS, OnProgress, Progress, ProgressHook, RunOptions};
pub use report::{Outcome, Report, failure_json, reproduce_command};
pub use run::{Planned, default_threads, load, planned, run, run_case, run_typed};
