//! The routing choices a topology file makes: how packets choose their path and how a
//! torus wraps round (INMOS ch. 7 §7.2, §7.5). `config::topology` re-exports them.

use serde::{Deserialize, Serialize};

/// How packets choose their path (INMOS ch. 7 §7.5).
#[derive(
    Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RoutingMode {
    /// The same route every time between a source and a destination.
    #[default]
    Deterministic,
    /// Via a random intermediate: a random header generated on the terminal link and
    /// deleted where the random phase ends (INMOS ch. 7 §7.1, §7.5).
    Universal,
    /// Grouped adaptive routing: a packet takes any free link of a group of
    /// consecutive outputs (INMOS ch. 7 §7.5, last paragraph). MIN only.
    Adaptive,
}

/// Wrap-around links of a torus or k-ary n-cube (INMOS ch. 7 §7.3.2: "the number of links
/// used to 'wrap around' must be doubled to avoid the possibility of deadlock").
#[derive(
    Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Wrap {
    /// No wrap-around links: a mesh.
    None,
    /// One set of ring links: dimension-order routing has cyclic channel dependencies
    /// and can deadlock.
    Single,
    /// Two sets of ring links, with a dateline: a packet uses the second set until it
    /// has crossed the wrap-around link and the first after, so no cycle (deadlock-free).
    #[default]
    Doubled,
}
