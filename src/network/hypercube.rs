//! Binary n-cube of C104s with one T9000 per switch (002_90368e98637f104c.txt §7.3.1):
//! switch i is linked to switch j in dimension k when i and j differ only in bit k.
//! Port k of a switch is its dimension-k link, port n its terminal link; routing is
//! e-cube, highest dimension first.

use super::build::Parts;
use crate::routing::ecube;

/// Adds the switches, processors and links of an `n`-cube; returns the switch count.
pub(super) fn build(parts: &mut Parts, n: u32) -> usize {
    let size = 1u32 << n;
    let terminal_port = n as usize;
    for s in 0..size {
        parts.switch(
            format!("c104[{s}]"),
            n as usize + 1,
            ecube::table(n, s, terminal_port),
        );
    }
    for s in 0..size {
        let p = parts.processor(s);
        parts.link(s as usize, terminal_port, p, 0);
    }
    for s in 0..size {
        for k in 0..n {
            let t = s ^ (1 << k);
            if s < t {
                parts.link(s as usize, k as usize, t as usize, k as usize);
            }
        }
    }
    size as usize
}
