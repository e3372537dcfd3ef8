//! k-ary n-cubes and n-dimensional meshes of C104s, one T9000 per switch: the 2-D
//! grid of INMOS ch. 7 §7.3.2 ("Each switch uses one link in each
//! direction (+x, −x, +y, −y) and there is one terminal at each switch. The links at
//! the edges of the grid are not used"), the torus and the general k-ary n-cube.
//! Switch s sits at the base-k digits of s; its `+` link in dimension j goes to the `−`
//! port of the next switch along j (wrapping round if the network has wrap-around
//! links), once per link class. Routing is in [`crate::routing::dimension_order`].

use super::build::Parts;
use crate::config::topology::Wrap;
use crate::routing::dimension_order::{Kary, TERMINAL_PORT};

/// Adds the switches, processors and links of `shape`; returns the switch count.
pub(super) fn build(parts: &mut Parts, shape: Kary) -> usize {
    let size = shape.switches();
    let ports = shape.ports();
    for s in 0..size {
        if shape.universal {
            parts.generating_switch(
                format!("c104[{s}]"),
                ports,
                || shape.table(s),
                [TERMINAL_PORT],
                shape.random_range(),
            );
        } else {
            parts.switch(format!("c104[{s}]"), ports, || shape.table(s));
        }
    }
    for s in 0..size {
        let p = parts.processor(s);
        parts.link(s as usize, TERMINAL_PORT, p, 0);
    }
    let k = shape.k;
    for s in 0..size {
        for j in 0..shape.n {
            let stride = k.pow(j);
            let c = shape.coord(s, j);
            let t = if c + 1 < k {
                s + stride
            } else if shape.wrap != Wrap::None {
                s - c * stride
            } else {
                continue;
            };
            for class in 0..shape.classes() {
                parts.link(
                    s as usize,
                    shape.port(j, true, class),
                    t as usize,
                    shape.port(j, false, class),
                );
            }
            if shape.universal && j == 0 {
                parts.link(
                    s as usize,
                    shape.extra_port(true),
                    t as usize,
                    shape.extra_port(false),
                );
            }
        }
    }
    size as usize
}
