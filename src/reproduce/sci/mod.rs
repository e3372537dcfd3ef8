//! The SCI ring experiments (SCI §4): each runs the SCI node of [`crate::parts::sci`] on
//! rings built by [`crate::network::sci_ring`] through the reference engine, and lays
//! the paper's printed numbers (or, where it prints none, its stated findings) next to
//! the emulator's. One file per figure group.

pub mod buffers;
pub mod bus;
pub mod flow_control_cost;
pub mod hot_sender;
pub mod latency_breakdown;
pub mod request_response;
pub mod ring;
pub mod starvation;
pub mod uniform;
