//! The DS-Link (INMOS ch. 6 §6.1-6.2): the token protocol every INMOS part speaks, and
//! the link endpoint each of them owns.
//!
//! - [`token`]: data tokens (10 bits) and control tokens (EOP, EOM, FCT: 4 bits);
//! - [`endpoint`]: one end of a link, with its transmitter, input buffer and credit;
//! - [`protocol`]: the DS-Link as the network's [`crate::model::LinkProtocol`].

pub mod config;
pub mod endpoint;
pub mod protocol;
pub mod signal;
pub mod token;

pub use endpoint::{Endpoint, LinkParams};
pub use protocol::{DsLink, PortCounters, wire_capacity};
pub use token::{Token, TokenKind};

/// What a DS-Link part sends during one step.
pub type Outbox = crate::model::Outbox<Token>;
/// One DS-Link token handed to the engine.
pub type Emit = crate::model::Emit<Token>;
