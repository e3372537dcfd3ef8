//! A network drawn in its layout ([`super::layout`]), as SVG written directly (not
//! through plotters: the pictures need curves, arrowheads and tooltips, and tests
//! count their marked elements): every link's route (straight, or an arc where a
//! straight line would cross another node: a torus's wrap-around links, a
//! hypercube's long dimensions), a lane per link direction beside it, and the
//! nodes. The deadlock picture and the link heat map draw on it.

use super::layout::{Layout, Point, layout};
use super::{PlotError, escape};
use crate::model::LinkProtocol;
use crate::network::{End, Geometry, Network};
use std::collections::BTreeMap;
use std::fmt::Write;

/// A cubic Bézier curve in pixels: a link's route, or one of its lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    /// Start, the two control points, end.
    pub p: [Point; 4],
}

impl Curve {
    fn straight(a: Point, b: Point) -> Curve {
        let d = sub(b, a);
        Curve {
            p: [a, add(a, mul(d, 1.0 / 3.0)), add(a, mul(d, 2.0 / 3.0)), b],
        }
    }

    /// The point at `t` in [0, 1].
    pub fn at(&self, t: f64) -> Point {
        let u = 1.0 - t;
        let w = [u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t];
        self.p
            .iter()
            .zip(w)
            .fold(pt(0.0, 0.0), |a, (p, w)| add(a, mul(*p, w)))
    }

    /// The unit tangent at `t`.
    pub fn tangent(&self, t: f64) -> Point {
        let u = 1.0 - t;
        let [p0, p1, p2, p3] = self.p;
        let d = add(
            add(mul(sub(p1, p0), 3.0 * u * u), mul(sub(p2, p1), 6.0 * u * t)),
            mul(sub(p3, p2), 3.0 * t * t),
        );
        unit(d).unwrap_or_else(|| unit(sub(p3, p0)).unwrap_or(pt(1.0, 0.0)))
    }

    /// The curve moved by `d` pixels to the right of its chord (left if negative).
    pub fn offset(&self, d: f64) -> Curve {
        let n = right_of(sub(self.p[3], self.p[0]));
        let m = mul(n, d);
        Curve {
            p: self.p.map(|p| add(p, m)),
        }
    }

    /// The SVG path data.
    pub fn path(&self) -> String {
        let [a, b, c, d] = self.p;
        format!(
            "M{} {} C{} {} {} {} {} {}",
            num(a.x),
            num(a.y),
            num(b.x),
            num(b.y),
            num(c.x),
            num(c.y),
            num(d.x),
            num(d.y)
        )
    }
}

pub(crate) fn pt(x: f64, y: f64) -> Point {
    Point { x, y }
}
fn add(a: Point, b: Point) -> Point {
    pt(a.x + b.x, a.y + b.y)
}
fn sub(a: Point, b: Point) -> Point {
    pt(a.x - b.x, a.y - b.y)
}
fn mul(a: Point, f: f64) -> Point {
    pt(a.x * f, a.y * f)
}
fn unit(a: Point) -> Option<Point> {
    let l = a.x.hypot(a.y);
    (l > 1e-12).then(|| mul(a, 1.0 / l))
}
/// The unit normal to the right of `d` on the screen (y down).
pub fn right_of(d: Point) -> Point {
    unit(pt(-d.y, d.x)).unwrap_or(pt(0.0, 1.0))
}

/// A coordinate as SVG text: one decimal, no `-0`.
pub fn num(v: f64) -> String {
    let s = format!("{:.1}", if v.is_finite() { v } else { 0.0 });
    if s == "-0.0" { "0.0".into() } else { s }
}

/// Closest distance from `p` to the polyline through `pts`.
pub fn distance(p: Point, pts: &[Point]) -> f64 {
    pts.windows(2)
        .map(|w| {
            let (a, b) = (w[0], w[1]);
            let ab = sub(b, a);
            let l2 = ab.x * ab.x + ab.y * ab.y;
            let t = if l2 > 0.0 {
                (((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / l2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let q = add(a, mul(ab, t));
            (p.x - q.x).hypot(p.y - q.y)
        })
        .fold(f64::INFINITY, f64::min)
}

/// How close (in spacings) a link may pass to a node it does not join.
const CLEAR: f64 = 0.15;
/// The heights (in spacings) an arc tries, in order, until it clears every node.
const BULGES: [f64; 5] = [0.35, 0.6, 0.9, 1.3, 1.8];

/// The route of the link from `a` to `b` in layout units: straight if that passes no
/// other node, else the flattest arc that does, bulging away from `centre` if that
/// is as flat as towards it.
fn route(a: usize, b: usize, lay: &Layout, centre: Point) -> Curve {
    let (pa, pb) = (lay.pos[a], lay.pos[b]);
    let straight = Curve::straight(pa, pb);
    let clear = |c: &Curve| {
        let pts: Vec<Point> = (0..=16).map(|k| c.at(f64::from(k) / 16.0)).collect();
        let (lo, hi) = pts.iter().fold(
            (
                pt(f64::INFINITY, f64::INFINITY),
                pt(f64::NEG_INFINITY, f64::NEG_INFINITY),
            ),
            |(lo, hi), p| {
                (
                    pt(lo.x.min(p.x), lo.y.min(p.y)),
                    pt(hi.x.max(p.x), hi.y.max(p.y)),
                )
            },
        );
        lay.pos.iter().enumerate().all(|(i, p)| {
            i == a
                || i == b
                || p.x < lo.x - CLEAR
                || p.x > hi.x + CLEAR
                || p.y < lo.y - CLEAR
                || p.y > hi.y + CLEAR
                || distance(*p, &pts) >= CLEAR
        })
    };
    if clear(&straight) {
        return straight;
    }
    let n = right_of(sub(pb, pa));
    let mid = mul(add(pa, pb), 0.5);
    let outward = if (mid.x + n.x - centre.x).hypot(mid.y + n.y - centre.y)
        >= (mid.x - n.x - centre.x).hypot(mid.y - n.y - centre.y)
    {
        n
    } else {
        mul(n, -1.0)
    };
    let arc = |h: f64| Curve {
        p: [pa, add(pa, mul(outward, h)), add(pb, mul(outward, h)), pb],
    };
    // The flattest arc that clears, outward first at each height.
    BULGES
        .iter()
        .flat_map(|&h| [arc(h), arc(-h)])
        .find(clear)
        .unwrap_or_else(|| arc(BULGES[BULGES.len() - 1]))
}

/// Largest drawing area for the network, in pixels, and the most pixels per spacing.
const MAX_W: f64 = 900.0;
const MAX_H: f64 = 760.0;
const MAX_SCALE: f64 = 110.0;
/// Room round the network for labels and arcs (more on the left, where the names of
/// the first column of switches end).
const MARGIN: f64 = 46.0;
const MARGIN_LEFT: f64 = 72.0;

/// A network laid out and routed, in pixels.
pub struct Map {
    /// Node positions, pixels.
    pub pos: Vec<Point>,
    /// True for nodes drawn beside their neighbour (terminals).
    pub leaf: Vec<bool>,
    /// Node names.
    pub names: Vec<String>,
    /// Each link's ends and route, in link order.
    pub links: Vec<(End, End, Curve)>,
    /// For each link end, its link and whether it is the link's first end.
    ends: BTreeMap<End, (usize, bool)>,
    /// Which of the links between the same two nodes each link is, and how many there are.
    parallel: Vec<(usize, usize)>,
    /// Pixels per spacing.
    pub scale: f64,
    /// Width and height of the network's area, pixels (it starts at y = `top`).
    pub size: (f64, f64),
    /// Radius of a switch's dot.
    pub node_r: f64,
    /// Distance between two lanes.
    pub lane: f64,
    /// For a ring or a star, the middle of the picture, pixels: names go outward
    /// from it.
    pub radial: Option<Point>,
}

impl Map {
    /// Lays out and routes `net`, the drawing starting `top` pixels down.
    pub fn new<P: LinkProtocol>(net: &Network<P>, top: f64) -> Map {
        let lay = layout(net);
        let hubs: Vec<Point> = lay
            .pos
            .iter()
            .zip(&lay.leaf)
            .filter(|(_, l)| !**l)
            .map(|(p, _)| *p)
            .collect();
        let centre = if hubs.is_empty() {
            pt(0.0, 0.0)
        } else {
            mul(
                hubs.iter().fold(pt(0.0, 0.0), |a, p| add(a, *p)),
                1.0 / hubs.len() as f64,
            )
        };
        let routes: Vec<Curve> = net
            .links()
            .iter()
            .map(|l| route(l.a.node, l.b.node, &lay, centre))
            .collect();
        // The extent of nodes and routes.
        let mut lo = pt(f64::INFINITY, f64::INFINITY);
        let mut hi = pt(f64::NEG_INFINITY, f64::NEG_INFINITY);
        let mut grow = |p: Point| {
            lo = pt(lo.x.min(p.x), lo.y.min(p.y));
            hi = pt(hi.x.max(p.x), hi.y.max(p.y));
        };
        lay.pos.iter().for_each(|p| grow(*p));
        for r in &routes {
            for k in 0..=8 {
                grow(r.at(f64::from(k) / 8.0));
            }
        }
        if !lo.x.is_finite() {
            lo = pt(0.0, 0.0);
            hi = pt(0.0, 0.0);
        }
        let (w, h) = (hi.x - lo.x, hi.y - lo.y);
        let scale = (MAX_W / w.max(1e-9))
            .min(MAX_H / h.max(1e-9))
            .min(MAX_SCALE);
        let to_px = |p: Point| {
            pt(
                MARGIN_LEFT + (p.x - lo.x) * scale,
                top + MARGIN + (p.y - lo.y) * scale,
            )
        };
        let pos: Vec<Point> = lay.pos.iter().map(|p| to_px(*p)).collect();
        let links: Vec<(End, End, Curve)> = net
            .links()
            .iter()
            .zip(&routes)
            .map(|(l, r)| (l.a, l.b, Curve { p: r.p.map(to_px) }))
            .collect();
        let mut ends = BTreeMap::new();
        let mut groups: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for (i, (a, b, _)) in links.iter().enumerate() {
            ends.insert(*a, (i, true));
            ends.insert(*b, (i, false));
            groups
                .entry((a.node.min(b.node), a.node.max(b.node)))
                .or_default()
                .push(i);
        }
        let mut parallel = vec![(0, 1); links.len()];
        for g in groups.values() {
            for (k, &i) in g.iter().enumerate() {
                parallel[i] = (k, g.len());
            }
        }
        Map {
            pos,
            leaf: lay.leaf,
            names: net.nodes().iter().map(|n| n.name.clone()).collect(),
            links,
            ends,
            parallel,
            scale,
            size: (w * scale + MARGIN_LEFT + MARGIN, h * scale + 2.0 * MARGIN),
            node_r: (scale * 0.11).clamp(2.5, 11.0),
            lane: (scale * 0.035).clamp(1.2, 3.5),
            radial: matches!(
                net.geometry(),
                Geometry::Ring { .. } | Geometry::Star { .. }
            )
            .then(|| to_px(centre)),
        }
    }

    /// The lane of the link direction sent from `from`: the link's route moved to the
    /// right of the direction of travel (parallel links side by side), pointing from
    /// sender to receiver; `None` if `from` is not a linked port.
    pub fn lane(&self, from: End) -> Option<(usize, Curve)> {
        let &(i, first) = self.ends.get(&from)?;
        let (k, m) = self.parallel[i];
        let c = self.links[i].2;
        // Lanes of a link's directions either side of the route, parallel links'
        // pairs of lanes side by side.
        let base = (k as f64 - (m as f64 - 1.0) / 2.0) * 2.0 * self.lane;
        let half = self.lane / 2.0;
        Some(if first {
            (i, c.offset(base + half))
        } else {
            let rev = Curve {
                p: [c.p[3], c.p[2], c.p[1], c.p[0]],
            };
            // `rev`'s right is the route's left: a base offset to the route's right
            // is one to `rev`'s left.
            (i, rev.offset(half - base))
        })
    }

    /// The link end at the other side of `from`'s link.
    pub fn peer(&self, from: End) -> Option<End> {
        let &(i, first) = self.ends.get(&from)?;
        let (a, b, _) = self.links[i];
        Some(if first { b } else { a })
    }
}

/// An SVG document being written.
pub(crate) struct Svg {
    /// The text so far.
    pub text: String,
}

impl Svg {
    /// A document of `w` × `h` pixels on white.
    pub fn new(w: f64, h: f64) -> Svg {
        let (w, h) = (w.ceil(), h.ceil());
        let mut text = String::new();
        let _ = writeln!(
            text,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">"
        );
        let _ = writeln!(
            text,
            "<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#FFFFFF\"/>"
        );
        Svg { text }
    }

    /// Appends raw SVG.
    pub fn raw(&mut self, s: &str) {
        self.text.push_str(s);
        self.text.push('\n');
    }

    /// Text at (x, y), `anchor` start, middle or end.
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, attrs: &str, s: &str) {
        let _ = writeln!(
            self.text,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\"{}{attrs}>{}</text>",
            num(x),
            num(y),
            num(size),
            if attrs.is_empty() { "" } else { " " },
            escape(s)
        );
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        self.text.push_str("</svg>\n");
        self.text
    }
}

/// Draws every link of `map` as one thin line of `colour` with the link's two ends as
/// its tooltip.
pub(crate) fn draw_links(svg: &mut Svg, map: &Map, colour: &str, width: f64) {
    svg.raw("<g class=\"links\" fill=\"none\">");
    for (a, b, c) in &map.links {
        svg.raw(&format!(
            "<path d=\"{}\" stroke=\"{colour}\" stroke-width=\"{}\"><title>{}</title></path>",
            c.path(),
            num(width),
            escape(&format!(
                "{} port {} – {} port {}",
                map.names[a.node], a.port, map.names[b.node], b.port
            ))
        ));
    }
    svg.raw("</g>");
}

/// Draws the nodes: switches as dots, terminals smaller; `ring(node)` gives a
/// node's outline colour and width if it is to stand out.
pub(crate) fn draw_nodes(
    svg: &mut Svg,
    map: &Map,
    ring: impl Fn(usize) -> Option<(&'static str, f64)>,
) {
    svg.raw("<g class=\"nodes\">");
    for (i, p) in map.pos.iter().enumerate() {
        let r = if map.leaf[i] {
            map.node_r * 0.55
        } else {
            map.node_r
        };
        let (stroke, w) = ring(i).unwrap_or(("#555555", 0.8));
        let fill = if map.leaf[i] { "#FFFFFF" } else { "#D9D9D9" };
        svg.raw(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"><title>{}</title></circle>",
            num(p.x),
            num(p.y),
            num(r),
            num(w),
            escape(&map.names[i])
        ));
    }
    svg.raw("</g>");
}

/// Where node `i`'s name is written, if it is (see [`draw_names`]): the text's
/// anchor point, its anchor (start, middle, end) and font size.
pub(crate) fn name_at(map: &Map, i: usize, always: &[usize]) -> Option<(Point, &'static str, f64)> {
    let hubs = map.leaf.iter().filter(|l| !**l).count();
    let size = (map.scale * 0.16).clamp(9.0, 12.0);
    if !always.contains(&i) && (map.leaf[i] || hubs > 64 || map.scale < 40.0) {
        return None;
    }
    let p = map.pos[i];
    Some(match map.radial.and_then(|c| unit(sub(p, c))) {
        // Round a ring, outward from the middle.
        Some(u) => {
            let at = add(p, mul(u, map.node_r + 6.0));
            let anchor = if u.x > 0.3 {
                "start"
            } else if u.x < -0.3 {
                "end"
            } else {
                "middle"
            };
            (
                pt(at.x, at.y + size * 0.35 + u.y * size * 0.3),
                anchor,
                size,
            )
        }
        // On a grid, above and left of the node, clear of its links.
        None => (
            pt(p.x - map.node_r * 0.7, p.y - map.node_r - 3.0),
            "end",
            size,
        ),
    })
}

/// The box (top left, bottom right) node `i`'s name covers, if it is written.
pub(crate) fn name_box(map: &Map, i: usize, always: &[usize]) -> Option<(Point, Point)> {
    let (at, anchor, size) = name_at(map, i, always)?;
    let w = text_width(&map.names[i], size);
    let left = match anchor {
        "start" => at.x,
        "middle" => at.x - w / 2.0,
        _ => at.x - w,
    };
    Some((pt(left, at.y - size), pt(left + w, at.y + size * 0.25)))
}

/// Names the switches beside their dots (above and left of each on a grid, outward
/// round a ring), in grey, if there are few enough to read; `always` names are
/// written whatever the count, in bold black.
pub(crate) fn draw_names(svg: &mut Svg, map: &Map, always: &[usize]) {
    svg.raw("<g class=\"names\">");
    for i in 0..map.pos.len() {
        let Some((at, anchor, size)) = name_at(map, i, always) else {
            continue;
        };
        let attrs = if always.contains(&i) {
            "fill=\"#000000\" font-weight=\"bold\""
        } else {
            "fill=\"#777777\""
        };
        svg.text(at.x, at.y, size, anchor, attrs, &map.names[i]);
    }
    svg.raw("</g>");
}

/// An arrowhead of `size` pixels at `t` along `c`, pointing along it.
pub(crate) fn arrowhead(c: &Curve, t: f64, size: f64, colour: &str) -> String {
    let p = c.at(t);
    let u = c.tangent(t);
    let n = right_of(u);
    let tip = add(p, mul(u, size));
    let l = add(sub(p, mul(u, size * 0.6)), mul(n, size * 0.6));
    let r = sub(sub(p, mul(u, size * 0.6)), mul(n, size * 0.6));
    format!(
        "<polygon points=\"{},{} {},{} {},{}\" fill=\"{colour}\"/>",
        num(tip.x),
        num(tip.y),
        num(l.x),
        num(l.y),
        num(r.x),
        num(r.y)
    )
}

/// Checks that `end` is a port of `net` (for inputs that name places).
pub(crate) fn check_end<P: LinkProtocol>(net: &Network<P>, end: End) -> Result<(), PlotError> {
    match net.nodes().get(end.node) {
        Some(n) if end.port < n.ports() => Ok(()),
        _ => Err(PlotError(format!(
            "node {} port {} is not in the network {}",
            end.node,
            end.port,
            net.name()
        ))),
    }
}

/// Rough width in pixels of `s` in a sans-serif font of `size` pixels (for laying out
/// legends; a little generous).
pub(crate) fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.56
}
