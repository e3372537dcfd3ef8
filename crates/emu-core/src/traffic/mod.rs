//! Traffic: destination patterns and injection processes (docs/architecture.md
//! "Layers"). Pure, synchronous functions of a terminal's label and its own RNG.

pub mod external;
pub mod injection;
pub mod pattern;
pub mod trace;

pub use external::Feed;
pub use injection::Injection;
pub use pattern::Destination;
