//! The indirect multistage networks of INMOS ch. 7 §7.2-7.3.3 (Figures
//! 7.1-7.4); the shape and the routing tables are described in
//! [`crate::routing::min`].
//!
//! Node order: left switches `left[0..B]`, then right switches `right[0..R]` (or, for
//! 1024 terminals, each centre network's four left and two right switches,
//! `centre[c].left[i]` and `centre[c].right[h]`), then the T9000s in label order.

use super::build::Parts;
use crate::config::topology::RoutingMode;
use crate::routing::min::{Min, SIDE};

/// Adds the switches, processors and links of `shape`; returns the switch count.
pub(super) fn build(parts: &mut Parts, shape: Min) -> usize {
    let b = shape.left();
    let universal = shape.routing == RoutingMode::Universal;
    let mut left = Vec::new();
    for l in 0..b {
        let generating = if universal { 0..SIDE as usize } else { 0..0 };
        let id = parts.generating_switch(
            format!("left[{l}]"),
            32,
            || shape.left_table(l),
            generating,
            shape.random_range(),
        );
        left.push(id);
    }
    let mut switches = b as usize;
    if !shape.nested() {
        let m = shape.parallel();
        let table = shape.right_table();
        let right: Vec<_> = (0..shape.right())
            .map(|r| parts.switch(format!("right[{r}]"), 32, || table.clone()))
            .collect();
        switches += right.len();
        for (l, &lid) in left.iter().enumerate() {
            for j in 0..SIDE {
                let (r, q) = (j / m, j % m);
                parts.link(
                    lid,
                    (SIDE + j) as usize,
                    right[r as usize],
                    (l as u32 * m + q) as usize,
                );
            }
        }
    } else {
        let right_table = shape.centre_right_table();
        for c in 0..shape.right() {
            let inner: Vec<_> = (0..4)
                .map(|i| {
                    parts.switch(format!("centre[{c}].left[{i}]"), 32, || {
                        shape.centre_left_table(i)
                    })
                })
                .collect();
            let outer: Vec<_> = (0..2)
                .map(|h| {
                    parts.switch(format!("centre[{c}].right[{h}]"), 32, || {
                        right_table.clone()
                    })
                })
                .collect();
            switches += 6;
            for (l, &lid) in left.iter().enumerate() {
                let l = l as u32;
                parts.link(
                    lid,
                    (SIDE + c) as usize,
                    inner[(l / SIDE) as usize],
                    (l % SIDE) as usize,
                );
            }
            for (i, &iid) in inner.iter().enumerate() {
                for j in 0..SIDE {
                    let (h, q) = (j / 8, j % 8);
                    parts.link(
                        iid,
                        (SIDE + j) as usize,
                        outer[h as usize],
                        (i as u32 * 8 + q) as usize,
                    );
                }
            }
        }
    }
    for t in 0..shape.terminals {
        let p = parts.processor(t);
        parts.link(left[(t / SIDE) as usize], (t % SIDE) as usize, p, 0);
    }
    switches
}
