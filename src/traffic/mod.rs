//! Traffic (stub).
use crate::time::Tick;
/// Destination rule.
#[derive(Clone, Debug)]
pub enum Destination {
    /// Uniform over others.
    Uniform,
    /// Always this one.
    Fixed(u32),
}
/// Injection.
#[derive(Clone, Debug)]
pub enum Injection {
    /// Continuous.
    Continuous,
    /// Bernoulli with per-tick probability.
    Bernoulli(f64),
    /// Batch of k.
    Batch(u32),
}
#[allow(dead_code)]
fn _t(_: Tick) {}
