//! Routing functions, expressed as the tables the hardware uses.
//!
//! The C104 routes by *interval labelling*: each terminal has a label, each output
//! link of a switch is given an interval of labels, and a header is sent out of the
//! link whose interval contains it (INMOS ch. 7 §7.1; chapter 3 of the
//! same book). A header whose interval is marked for deletion is discarded and the
//! packet is routed again on the header that follows (used by universal routing).

pub mod dimension_order;
pub mod ecube;
mod interval;
pub mod min;
pub mod mode;
pub mod table;
pub mod universal;
pub mod view;

pub use interval::{IntervalError, IntervalTable, RouteAction};
pub use view::{LabelRouting, Routing};
