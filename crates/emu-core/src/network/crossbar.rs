//! A single C104 with a T9000 on each of its first N links: the one-stage crossbar
//! network (Proteus, the crossbar network model; INMOS ch. 7 §7.1: "a 32-way
//! crossbar switch, in which all of the 32 inputs can be routed simultaneously").
//! Terminal i is on port i and label i routes to port i.

use super::build::Parts;
use crate::routing::{RouteAction, table};

/// Adds the switch, the `n` processors and their links; returns 1.
pub(super) fn build(parts: &mut Parts, n: u32) -> usize {
    let sw = parts.switch("c104[0]".into(), n as usize, || {
        table::from_fn(n, |d| RouteAction::Output(d as usize))
    });
    for t in 0..n {
        let p = parts.processor(t);
        parts.link(sw, t as usize, p, 0);
    }
    1
}
