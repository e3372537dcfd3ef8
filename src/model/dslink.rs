//! DS-Link endpoint (stub).
use crate::time::Tick;
/// Parameters of one DS-Link endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkParams {
    /// Input buffer capacity in tokens.
    pub buffer: u32,
    /// Tokens of credit per FCT.
    pub batch: u32,
    /// Fault injection: extra credit granted at start-up, in tokens.
    pub extra_initial_credit: u32,
}
#[allow(dead_code)]
fn _t(_: Tick) {}
