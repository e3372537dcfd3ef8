//! A deadlock drawn: the network in its layout ([`super::layout`]) with every link
//! light grey, and the cycle's link directions highlighted in order, numbered 1…k,
//! each with an arrow in the direction of waiting (the sender waits for room at the
//! receiver). A legend under the network lists the cycle's places as the text report
//! does (`emu::deadlock::waitfor::render`): each blocked packet, the node and port
//! where it holds, and what it waits for, the lines that cross a link marked with the
//! link's number.
//!
//! [`deadlock_svg`] draws a run's wait-for cycle (`deadlock.svg` under `--plot`),
//! [`cdg_cycle_svg`] the cycle of channels `emu check` finds (`cdg-cycle.svg` under
//! `emu check --plot`).
//!
//! Every highlighted direction is an SVG element of class `cycle-link`, every badge of
//! class `cycle-number`, so that tests and readers of the file can count them.

use super::PlotError;
use super::map::{
    Map, Svg, arrowhead, check_end, draw_links, draw_names, draw_nodes, num, text_width,
};
use crate::deadlock::check::CycleChannel;
use crate::deadlock::waitfor::{self, CycleStep, Place};
use crate::engine::StuckNode;
use crate::model::LinkProtocol;
use crate::network::{End, Network};

/// The colour of the cycle (Okabe–Ito vermilion).
const CYCLE: &str = "#D55E00";
/// The outline of nodes holding packets outside the cycle (Okabe–Ito orange).
pub const STUCK: &str = "#E69F00";
/// Grey of the links that are not in the cycle.
const GREY: &str = "#CCCCCC";
/// Font size of the legend, pixels.
const FONT: f64 = 12.0;
/// Height of one legend line, pixels.
const LINE: f64 = 18.0;
/// Height of the title band, pixels.
const TOP: f64 = 30.0;

/// The wait-for cycle of a deadlocked run drawn on `net` (see the module
/// documentation), titled `title`; nodes in `stuck` that hold packets outside the
/// cycle are ringed in orange. An empty `cycle` (the waits closed none) draws the stuck
/// nodes alone. Errors if the cycle names a place that is not a linked port of `net`.
pub fn deadlock_svg<P: LinkProtocol>(
    title: &str,
    net: &Network<P>,
    cycle: &[CycleStep],
    stuck: &[StuckNode],
) -> Result<String, PlotError> {
    let mut hops = Vec::new();
    let mut legend = Vec::new();
    let mut on_cycle: Vec<usize> = Vec::new();
    for (step, line) in cycle.iter().zip(waitfor::render(cycle)) {
        let (node, port) = match step.place {
            Place::Input { node, port } | Place::Output { node, port } => (node, port),
            _ => {
                return Err(PlotError(format!(
                    "{}: a place of an unknown kind",
                    step.node_name
                )));
            }
        };
        check_end(net, End { node, port })?;
        if !on_cycle.contains(&node) {
            on_cycle.push(node);
        }
        let crosses = match (step.place, step.next) {
            (Place::Output { node, port }, Place::Input { node: n2, port: p2 }) if node != n2 => {
                Some((End { node, port }, End { node: n2, port: p2 }))
            }
            _ => None,
        };
        match crosses {
            Some(hop) => {
                hops.push(hop);
                legend.push((Some(hops.len()), line));
            }
            None => legend.push((None, line)),
        }
    }
    let links = hops.len();
    let head = if cycle.is_empty() {
        "no wait-for cycle among the stuck nodes (a packet waits for something outside them)"
            .to_string()
    } else {
        format!(
            "wait-for cycle: {} places, {links} link{}, each waiting for the next (arrows: who waits for whom)",
            cycle.len(),
            if links == 1 { "" } else { "s" }
        )
    };
    let others: Vec<usize> = stuck
        .iter()
        .map(|s| s.node)
        .filter(|n| !on_cycle.contains(n))
        .collect();
    let mut notes = vec![head];
    if !others.is_empty() {
        notes.push(format!(
            "{} other node{} hold{} stuck packets (ringed in orange)",
            others.len(),
            if others.len() == 1 { "" } else { "s" },
            if others.len() == 1 { "s" } else { "" }
        ));
    }
    draw_cycle(title, net, &hops, &notes, &legend, &on_cycle, &others)
}

/// The cycle of channels `emu check` found (`emu::deadlock::check::CheckReport`'s
/// `cycle`) drawn on `net` as [`deadlock_svg`] draws a wait-for cycle, titled
/// `title`. Errors if a channel is not a link direction of `net`.
pub fn cdg_cycle_svg<P: LinkProtocol>(
    title: &str,
    net: &Network<P>,
    cycle: &[CycleChannel],
) -> Result<String, PlotError> {
    let directions = net.directions();
    let mut hops = Vec::new();
    let mut legend = Vec::new();
    let mut on_cycle = Vec::new();
    for (i, c) in cycle.iter().enumerate() {
        let d = directions.get(c.channel).ok_or_else(|| {
            PlotError(format!(
                "channel {} is not a link direction of {}",
                c.channel,
                net.name()
            ))
        })?;
        for n in [d.from.node, d.to.node] {
            if !on_cycle.contains(&n) {
                on_cycle.push(n);
            }
        }
        hops.push((d.from, d.to));
        legend.push((
            Some(i + 1),
            format!(
                "{}: {}",
                c.channel_text(),
                c.waits_text(i + 1 == cycle.len())
            ),
        ));
    }
    let notes = vec![format!(
        "channel dependency cycle: {} channel{}, each a packet on it may wait for the next (arrows: who waits for whom)",
        cycle.len(),
        if cycle.len() == 1 { "" } else { "s" }
    )];
    draw_cycle(title, net, &hops, &notes, &legend, &on_cycle, &[])
}

/// Draws `net` with the link directions `hops` (sender, receiver) highlighted and
/// numbered in order, `notes` and the `legend` lines (each with the number of the hop
/// it crosses, if any) under it, `on_cycle` nodes ringed in the cycle's colour and
/// `others` in orange.
fn draw_cycle<P: LinkProtocol>(
    title: &str,
    net: &Network<P>,
    hops: &[(End, End)],
    notes: &[String],
    legend: &[(Option<usize>, String)],
    on_cycle: &[usize],
    others: &[usize],
) -> Result<String, PlotError> {
    let map = Map::new(net, TOP);
    let mut lanes = Vec::with_capacity(hops.len());
    for &(from, to) in hops {
        check_end(net, from)?;
        check_end(net, to)?;
        let lane = map
            .lane(from)
            .filter(|_| map.peer(from) == Some(to))
            .ok_or_else(|| {
                PlotError(format!(
                    "{} port {} → {} port {} is not a link of {}",
                    map.names[from.node],
                    from.port,
                    map.names[to.node],
                    to.port,
                    net.name()
                ))
            })?;
        lanes.push(lane.1);
    }
    let badge = (FONT * 0.75).max(map.node_r * 0.8);
    let text_w = legend
        .iter()
        .map(|(_, l)| l.as_str())
        .chain(notes.iter().map(String::as_str))
        .chain([title])
        .map(|l| text_width(l, FONT))
        .fold(0.0, f64::max)
        + 3.0 * badge
        + 40.0;
    let width = map.size.0.max(text_w).max(400.0);
    let legend_top = TOP + map.size.1 + 6.0;
    let height = legend_top + LINE * (notes.len() + legend.len()) as f64 + 16.0;
    let mut svg = Svg::new(width, height);
    svg.text(16.0, 21.0, 16.0, "start", "", title);
    draw_links(&mut svg, &map, GREY, 1.2);
    // The cycle: thick lanes with an arrow, then the numbers on top of everything.
    let stroke = (map.lane * 1.3).max(2.5);
    svg.raw("<g class=\"cycle\" fill=\"none\">");
    for (k, (lane, &(from, to))) in lanes.iter().zip(hops).enumerate() {
        svg.raw(&format!(
            "<path class=\"cycle-link\" d=\"{}\" stroke=\"{CYCLE}\" stroke-width=\"{}\" stroke-linecap=\"round\"><title>{}: {} port {} → {} port {}</title></path>",
            lane.path(),
            num(stroke),
            k + 1,
            super::escape(&map.names[from.node]),
            from.port,
            super::escape(&map.names[to.node]),
            to.port
        ));
        svg.raw(&arrowhead(lane, 0.62, (stroke * 2.4).max(7.0), CYCLE));
    }
    svg.raw("</g>");
    draw_nodes(&mut svg, &map, |i| {
        if on_cycle.contains(&i) {
            Some((CYCLE, 2.5))
        } else if others.contains(&i) {
            Some((STUCK, 2.5))
        } else {
            None
        }
    });
    draw_names(&mut svg, &map, on_cycle);
    svg.raw("<g class=\"numbers\">");
    let mut placed: Vec<super::layout::Point> = Vec::new();
    let names: Vec<_> = (0..map.pos.len())
        .filter_map(|i| super::map::name_box(&map, i, on_cycle))
        .collect();
    let bounds = (
        super::map::pt(badge + 1.0, TOP + badge + 1.0),
        super::map::pt(width - badge - 1.0, legend_top - badge - 1.0),
    );
    // Points along the cycle's lanes: a number beside one lane should not sit on another.
    let along: Vec<Vec<super::layout::Point>> = lanes
        .iter()
        .map(|l| (0..=200).map(|k| l.at(f64::from(k) / 200.0)).collect())
        .collect();
    for (k, lane) in lanes.iter().enumerate() {
        let c = place_badge(lane, badge, bounds, &placed, |c| {
            along
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .flat_map(|(_, ps)| ps)
                .all(|p| (p.x - c.x).hypot(p.y - c.y) > badge + stroke / 2.0 + 1.0)
                && map
                    .pos
                    .iter()
                    .all(|p| (p.x - c.x).hypot(p.y - c.y) > map.node_r + badge)
                && names.iter().all(|(lo, hi)| {
                    c.x < lo.x - badge
                        || c.x > hi.x + badge
                        || c.y < lo.y - badge
                        || c.y > hi.y + badge
                })
        });
        placed.push(c);
        number_badge(&mut svg, c.x, c.y, badge, k + 1);
    }
    svg.raw("</g>");
    // The legend.
    let mut y = legend_top + LINE * 0.7;
    for note in notes {
        svg.text(16.0, y, FONT, "start", "font-weight=\"bold\"", note);
        y += LINE;
    }
    // One line apart, the legend's badges must not be taller than a line.
    let small = badge.min(LINE / 2.0 - 0.5);
    for (hop, line) in legend {
        if let Some(k) = hop {
            number_badge(&mut svg, 16.0 + badge, y - FONT * 0.35, small, *k);
        }
        svg.text(16.0 + 2.0 * badge + 8.0, y, FONT, "start", "", line);
        y += LINE;
    }
    Ok(svg.finish())
}

/// Where the number of `lane` goes: a circle of radius `r` inside `bounds` (top left,
/// bottom right) that overlaps none of the numbers `placed` already. Tried in order:
/// points beside the lane, on its right then its left, each further out, and the first
/// that is also `clear` (covers no node and no name) wins; failing all, the nearest
/// point to the lane's middle, on rings ever further out, that overlaps no number,
/// whatever it covers.
fn place_badge(
    lane: &super::map::Curve,
    r: f64,
    bounds: (super::layout::Point, super::layout::Point),
    placed: &[super::layout::Point],
    clear: impl Fn(&super::layout::Point) -> bool,
) -> super::layout::Point {
    use super::map::pt;
    let inside = |c: &super::layout::Point| {
        c.x >= bounds.0.x && c.x <= bounds.1.x && c.y >= bounds.0.y && c.y <= bounds.1.y
    };
    let apart = |c: &super::layout::Point| {
        placed
            .iter()
            .all(|p| (p.x - c.x).hypot(p.y - c.y) >= 2.0 * r + 2.0)
    };
    let beside = |t: f64, side: f64, out: f64| {
        let p = lane.at(t);
        let n = super::map::right_of(lane.tangent(t));
        let d = side * (r + 2.0) * out;
        pt(p.x + n.x * d, p.y + n.y * d)
    };
    for out in [1.0, 2.2, 3.4] {
        for side in [1.0, -1.0] {
            for t in [0.36, 0.28, 0.45, 0.2, 0.54, 0.12, 0.8, 0.9] {
                let c = beside(t, side, out);
                if inside(&c) && apart(&c) && clear(&c) {
                    return c;
                }
            }
        }
    }
    let mid = lane.at(0.5);
    for ring in 1..=400 {
        let d = f64::from(ring) * r;
        let steps = 8 * ring;
        for k in 0..steps {
            let a = std::f64::consts::TAU * f64::from(k) / f64::from(steps);
            let c = pt(mid.x + d * a.cos(), mid.y + d * a.sin());
            if inside(&c) && apart(&c) {
                return c;
            }
        }
    }
    // Never reached on a picture with room for every number; the first point then.
    beside(0.36, 1.0, 1.0)
}

/// A filled circle of radius `r` at (x, y) with the number `k` in it.
fn number_badge(svg: &mut Svg, x: f64, y: f64, r: f64, k: usize) {
    svg.raw(&format!(
        "<g class=\"cycle-number\"><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{CYCLE}\" stroke=\"#FFFFFF\" stroke-width=\"1\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#FFFFFF\" font-weight=\"bold\">{k}</text></g>",
        num(x),
        num(y),
        num(r),
        num(x),
        num(y + r * 0.4),
        num(r * if k >= 10 { 1.0 } else { 1.2 })
    ));
}
