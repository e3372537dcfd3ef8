//! A network drawn in its layout (`emu::plot::map`): each link direction's lane on its
//! right, wrap-around links as arcs, and SVG coordinates and text written safely.

use emu::network::Network;
use emu::plot::escape;
use emu::plot::layout::Point;
use emu::plot::map::{Curve, Map, distance, num, right_of};

/// `a − b`.
fn sub(a: Point, b: Point) -> Point {
    Point {
        x: a.x - b.x,
        y: a.y - b.y,
    }
}

fn torus() -> (Network, Map) {
    let case = emu::session::Case::load("torus4-single", "uniform", &[], 1).expect("loads");
    let map = Map::new(&case.net, 0.0);
    (case.net, map)
}

#[test]
fn a_link_s_two_directions_run_either_side_of_it_each_on_its_right() {
    let (net, map) = torus();
    for l in net.links() {
        let (_, ab) = map.lane(l.a).expect("a lane");
        let (_, ba) = map.lane(l.b).expect("a lane");
        // Each lane starts at its sender and lies to the right of its travel.
        let (pa, pb) = (map.pos[l.a.node], map.pos[l.b.node]);
        assert!((ab.p[0].x - pa.x).hypot(ab.p[0].y - pa.y) < 5.0);
        assert!((ba.p[0].x - pb.x).hypot(ba.p[0].y - pb.y) < 5.0);
        let right = right_of(sub(pb, pa));
        let side = |c: &Curve| {
            let m = sub(
                c.at(0.5),
                map.links
                    .iter()
                    .find(|x| x.0 == l.a)
                    .expect("link")
                    .2
                    .at(0.5),
            );
            m.x * right.x + m.y * right.y
        };
        assert!(side(&ab) > 0.0 && side(&ba) < 0.0, "{l:?}");
        assert_eq!(map.peer(l.a), Some(l.b));
    }
}

#[test]
fn wrap_links_are_arcs_and_neighbour_links_straight() {
    let (net, map) = torus();
    for (l, (_, _, c)) in net.links().iter().zip(&map.links) {
        let (a, b) = (map.pos[l.a.node], map.pos[l.b.node]);
        let chord = (a.x - b.x).hypot(a.y - b.y);
        let mid = c.at(0.5);
        let off = distance(mid, &[a, b]);
        if chord > 1.5 * map.scale {
            assert!(off > 0.2 * map.scale, "a wrap link bulges: {l:?}");
        } else {
            assert!(off < 1e-6, "a neighbour link is straight: {l:?}");
        }
    }
}

#[test]
fn coordinates_and_text_are_written_safely() {
    assert_eq!(num(-0.04), "0.0");
    assert_eq!(num(f64::NAN), "0.0");
    assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
}
