//! The switch-fabric reproductions of Gramsamer ch. 7: reception-scheduler strategies
//! against the Reference (Table 7.6), the machinery that replicates a configuration to the
//! document's precision, and one fabric run as the chapter sets it up.

pub mod analytic;
pub mod bimodal;
pub mod buffers;
pub mod columns;
pub mod credit_fifo;
pub mod design_point;
pub mod dynamics;
pub mod fc_events;
pub mod grid;
pub mod link_length;
pub mod memo;
pub mod memory;
pub mod non_uniform;
pub mod oqs_fairness;
pub mod parallel_departures;
pub mod point;
pub mod runner;
