//! Where the pictures put a network's nodes (`emu::plot::layout`): Gray-coded
//! hypercubes, k-ary cubes, tori, multistage networks, crossbars, netlists and rings.

use emu::network::Network;
use emu::plot::layout::{
    BESIDE, Layout, Point, cube_point, gray_rank, kary_point, layout, on_circle, ring_radius,
};

#[test]
fn gray_rank_inverts_the_gray_code() {
    for i in 0..64u64 {
        assert_eq!(gray_rank(i ^ (i >> 1)), i);
    }
}

#[test]
fn neighbouring_gray_columns_are_cube_neighbours() {
    for s in 0..64u64 {
        for t in 0..64u64 {
            let (a, b) = (cube_point(s, 6), cube_point(t, 6));
            let d = (a.x - b.x).abs() + (a.y - b.y).abs();
            if d == 1.0 {
                assert_eq!((s ^ t).count_ones(), 1, "{s} {t}");
            }
        }
    }
    // 6 dimensions: an 8 × 8 square.
    let max = (0..64)
        .map(|s| cube_point(s, 6))
        .fold((0.0f64, 0.0f64), |m, p| (m.0.max(p.x), m.1.max(p.y)));
    assert_eq!(max, (7.0, 7.0));
}

#[test]
fn a_kary_cube_puts_even_dimensions_across_and_odd_ones_down() {
    assert_eq!(kary_point(0, 4, 2), Point { x: 0.0, y: 0.0 });
    assert_eq!(kary_point(3, 4, 2), Point { x: 3.0, y: 0.0 });
    assert_eq!(kary_point(4 * 2 + 1, 4, 2), Point { x: 1.0, y: 2.0 });
    // The third dimension repeats the grid one spacing further right.
    assert_eq!(kary_point(16, 4, 3), Point { x: 5.0, y: 0.0 });
}

fn plan(topology: &str) -> (Network, Layout) {
    let case = emu::session::Case::load(topology, "uniform", &[], 1)
        .unwrap_or_else(|e| panic!("{topology}: {e}"));
    let l = layout(&case.net);
    (case.net, l)
}

fn dist(a: Point, b: Point) -> f64 {
    (a.x - b.x).hypot(a.y - b.y)
}

#[test]
fn a_torus_is_a_grid_with_each_terminal_beside_its_switch() {
    let (net, l) = plan("torus4-single");
    for s in 0..16 {
        assert_eq!(
            l.pos[s],
            Point {
                x: (s % 4) as f64,
                y: (s / 4) as f64
            }
        );
        assert!(!l.leaf[s]);
    }
    for (label, &t) in net.terminals().iter().enumerate() {
        assert!(l.leaf[t], "terminal {label} hangs beside its switch");
        let d = dist(l.pos[t], l.pos[label]);
        assert!((d - BESIDE).abs() < 1e-9, "{d}");
        // Below and right of it, clear of the grid's lines.
        assert!(l.pos[t].x > l.pos[label].x && l.pos[t].y > l.pos[label].y);
    }
}

#[test]
fn a_multistage_network_is_in_columns_terminals_first() {
    let (net, l) = plan("min64");
    let xs: std::collections::BTreeSet<i64> = l
        .pos
        .iter()
        .map(|p| (p.x * 1000.0).round() as i64)
        .collect();
    assert_eq!(xs.len(), 3, "terminals, left switches, right switches");
    let first = l.pos[net.terminals()[0]].x;
    assert!(
        net.terminals()
            .iter()
            .all(|&t| l.pos[t].x == first && l.leaf[t])
    );
    assert!(l.pos.iter().all(|p| p.x >= first));
    // Terminals in label order down the column.
    assert!(
        net.terminals()
            .windows(2)
            .all(|w| l.pos[w[0]].y < l.pos[w[1]].y)
    );
}

#[test]
fn a_crossbar_is_its_switch_with_the_terminals_round_it() {
    let (net, l) = plan("crossbar32");
    let hub = l.pos[0];
    let r: Vec<f64> = net
        .terminals()
        .iter()
        .map(|&t| dist(l.pos[t], hub))
        .collect();
    assert!(
        r.iter().all(|d| (d - r[0]).abs() < 1e-9 && *d >= 1.5),
        "{r:?}"
    );
}

#[test]
fn a_netlist_lays_out_the_same_way_every_time_with_links_near_one_spacing() {
    let (net, a) = plan("netlist-tree");
    let (_, b) = plan("netlist-tree");
    assert_eq!(a, b);
    for link in net.links() {
        let (x, y) = (link.a.node, link.b.node);
        if !a.leaf[x] && !a.leaf[y] {
            let d = dist(a.pos[x], a.pos[y]);
            assert!((0.99..4.0).contains(&d), "{d}");
        }
    }
}

#[test]
fn ring_points_are_one_spacing_apart() {
    let m = 16;
    let r = ring_radius(m);
    for i in 0..m {
        let d = dist(on_circle(i, m, r), on_circle((i + 1) % m, m, r));
        assert!((d - 1.0).abs() < 0.01, "{d}");
    }
    assert!(on_circle(0, m, r).y < 0.0, "node 0 at the top");
}
