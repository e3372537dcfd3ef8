//! `emu stress`: a search for deadlocks by running many seeds and traffic patterns at
//! saturation, and a shrinker that reduces the first deadlock found to the smallest
//! case that still deadlocks, written out as a traffic file the user can rerun
//! (docs/architecture.md "Deadlock").
//!
//! One job per file: [`case`] generates the cases, [`prepare`](mod@prepare) loads the
//! topology and makes the search, [`run`] runs them over the cores
//! and stops at the first deadlock, [`shrink`](mod@shrink) reduces it, and
//! [`write`](mod@write) turns it into a traffic file and a command line (the
//! command-line front end is the binary's).

pub mod case;
pub mod prepare;
pub mod run;
pub mod shrink;
pub mod starvation;
pub mod write;

pub use case::{CaseKind, StressCase, generate};
pub use prepare::{Ask, Buffers, PrepareError, Prepared, Ring, Search, prepare};
pub use run::{
    Found, SearchResult, StressError, Target, Verdict, run_one, run_watched, search, search_until,
    search_watched,
};
pub use shrink::{Shrunk, Size, shrink};
