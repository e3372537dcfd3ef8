//! Link utilisation drawn on the network in its natural layout ([`super::layout`]):
//! every link direction a lane beside the link's route, on the right-hand side of
//! its direction of travel, coloured by the share of the run its transmitter was busy
//! (the report's `links`, the heat map's colour scale), so both directions of every
//! link, terminal links included, show where they are in the network. A colour bar
//! on the right. A direction the report does not cover is drawn light grey.
//!
//! Networks with no natural layout (a netlist: [`Geometry::Free`]) get `None`: their
//! switch × switch matrix ([`super::heatmap`]) reads better than a force layout.

use super::PlotError;
use super::escape;
use super::heatmap::colour;
use super::map::{Map, Svg, draw_names, draw_nodes, num};
use crate::model::LinkProtocol;
use crate::network::{End, Geometry, Network};
use crate::stats::links::LinkUse;
use std::collections::BTreeMap;

/// Height of the title band, pixels.
const TOP: f64 = 48.0;
/// Width of the colour bar's column, pixels.
const BAR: f64 = 110.0;

/// The utilisation of every link direction of `net` in `links`, drawn on the network
/// (see the module documentation), titled `title`; `None` for a network without a
/// natural layout. Errors if `links` names a node or port `net` does not have.
pub fn links_map_svg<P: LinkProtocol>(
    title: &str,
    net: &Network<P>,
    links: &[LinkUse],
) -> Result<Option<String>, PlotError> {
    if net.geometry() == Geometry::Free {
        return Ok(None);
    }
    let ids: BTreeMap<&str, usize> = net
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_str(), i))
        .collect();
    let map = Map::new(net, TOP);
    let mut busy: BTreeMap<End, &LinkUse> = BTreeMap::new();
    for l in links {
        let node = *ids.get(l.from.as_str()).ok_or_else(|| {
            PlotError(format!(
                "link from {}: no such node in {}",
                l.from,
                net.name()
            ))
        })?;
        let from = End {
            node,
            port: l.from_port,
        };
        if map.lane(from).is_none() {
            return Err(PlotError(format!(
                "link from {} port {}: not a linked port of {}",
                l.from,
                l.from_port,
                net.name()
            )));
        }
        busy.insert(from, l);
    }
    let width = map.size.0 + BAR;
    let height = (map.size.1 + TOP).max(TOP + 300.0);
    let mut svg = Svg::new(width, height);
    svg.text(16.0, 21.0, 16.0, "start", "", title);
    svg.text(
        16.0,
        39.0,
        12.0,
        "start",
        "fill=\"#555555\"",
        "each link direction is a lane on the right-hand side of its direction of travel",
    );
    let stroke = (map.lane * 0.95).max(1.0);
    svg.raw("<g class=\"lanes\" fill=\"none\">");
    for (a, b, _) in &map.links {
        for (from, to) in [(*a, *b), (*b, *a)] {
            let Some((_, lane)) = map.lane(from) else {
                continue;
            };
            let (stroke_colour, tip) = match busy.get(&from) {
                Some(l) => {
                    let c = colour(l.busy_pct / 100.0);
                    (
                        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2),
                        format!("{}% busy", super::short(l.busy_pct)),
                    )
                }
                None => ("#DDDDDD".to_string(), "not measured".to_string()),
            };
            svg.raw(&format!(
                "<path class=\"lane\" d=\"{}\" stroke=\"{stroke_colour}\" stroke-width=\"{}\"><title>{}</title></path>",
                lane.path(),
                num(stroke),
                escape(&format!(
                    "{}:{} → {}:{}: {tip}",
                    map.names[from.node], from.port, map.names[to.node], to.port
                ))
            ));
        }
    }
    svg.raw("</g>");
    draw_nodes(&mut svg, &map, |_| None);
    draw_names(&mut svg, &map, &[]);
    colour_bar(
        &mut svg,
        map.size.0 + 20.0,
        TOP + 30.0,
        (height - TOP - 90.0).min(400.0),
    );
    Ok(Some(svg.finish()))
}

/// The colour scale, 0 % at the bottom and 100 % at the top, `h` pixels high with
/// its top left corner at (x, y).
fn colour_bar(svg: &mut Svg, x: f64, y: f64, h: f64) {
    let steps = 50;
    svg.raw("<g class=\"colour-bar\">");
    for k in 0..steps {
        let f = f64::from(k) / f64::from(steps);
        let c = colour(f + 0.5 / f64::from(steps));
        let top = y + h * (1.0 - f - 1.0 / f64::from(steps));
        svg.raw(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"18\" height=\"{}\" fill=\"#{:02X}{:02X}{:02X}\"/>",
            num(x),
            num(top),
            num(h / f64::from(steps) + 0.5),
            c.0,
            c.1,
            c.2
        ));
    }
    for pct in [0, 25, 50, 75, 100] {
        let ty = y + h * (1.0 - f64::from(pct) / 100.0);
        svg.text(x + 24.0, ty + 4.0, 11.0, "start", "", &format!("{pct}%"));
    }
    svg.text(x, y - 12.0, 11.0, "start", "", "% of run busy");
    svg.raw("</g>");
}
