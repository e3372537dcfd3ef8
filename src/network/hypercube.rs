//! Binary n-cube of C104s with one T9000 per switch (002_90368e98637f104c.txt §7.3.1):
//! switch i is linked to switch j in dimension k when i and j differ only in bit k.
//!
//! Deterministic: port k of a switch is its dimension-k link, port n its terminal
//! link; routing is e-cube, highest dimension first.
//!
//! Universal (002 §7.5): the links are doubled into two parallel cubes, ports k and
//! n + k, the terminal is port 2n and its link generates the random header
//! ([`crate::routing::universal`]).

use super::build::Parts;
use crate::routing::{ecube, universal};

/// Adds the switches, processors and links of an `n`-cube; returns the switch count.
pub(super) fn build(parts: &mut Parts, n: u32, universal: bool) -> usize {
    let size = 1u32 << n;
    let (terminal_port, ports, networks) = if universal {
        (universal::terminal_port(n), 2 * n as usize + 1, 2)
    } else {
        (n as usize, n as usize + 1, 1)
    };
    for s in 0..size {
        if universal {
            let id = parts.switch(format!("c104[{s}]"), ports, universal::table(n, s));
            parts.random_headers(id, terminal_port, universal::random_range(n));
        } else {
            parts.switch(
                format!("c104[{s}]"),
                ports,
                ecube::table(n, s, terminal_port),
            );
        }
    }
    for s in 0..size {
        let p = parts.processor(s);
        parts.link(s as usize, terminal_port, p, 0);
    }
    for net in 0..networks {
        for s in 0..size {
            for k in 0..n {
                let t = s ^ (1 << k);
                if s < t {
                    let port = (net * n + k) as usize;
                    parts.link(s as usize, port, t as usize, port);
                }
            }
        }
    }
    size as usize
}
