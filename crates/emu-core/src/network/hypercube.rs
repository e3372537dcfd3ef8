//! Binary n-cube of C104s with one T9000 per switch (INMOS ch. 7 §7.3.1):
//! switch i is linked to switch j in dimension k when i and j differ only in bit k.
//!
//! Deterministic: port k of a switch is its dimension-k link, port n its terminal
//! link; routing is e-cube, highest dimension first.
//!
//! Universal (INMOS ch. 7 §7.5): the links are doubled into two parallel cubes, ports k and
//! n + k, the terminal is port 2n and its link generates the random header
//! ([`crate::routing::universal`]). With `network.link_sets = 1` both journeys share
//! one cube, ports 0..n, terminal n: the variant whose channel dependencies have
//! cycles (`emu check`).

use super::build::Parts;
use crate::routing::{ecube, universal};

/// Adds the switches, processors and links of an `n`-cube; returns the switch count.
pub(super) fn build(parts: &mut Parts, n: u32, universal: bool, sets: u32) -> usize {
    let size = 1u32 << n;
    let networks = if universal { sets } else { 1 };
    let terminal_port = (networks * n) as usize;
    let ports = terminal_port + 1;
    for s in 0..size {
        if universal {
            parts.generating_switch(
                format!("c104[{s}]"),
                ports,
                || universal::table_on(n, s, sets),
                [terminal_port],
                universal::random_range(n),
            );
        } else {
            parts.switch(format!("c104[{s}]"), ports, || {
                ecube::table(n, s, terminal_port)
            });
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
