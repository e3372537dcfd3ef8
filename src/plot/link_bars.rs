//! Link utilisation as bars, for networks without switch-to-switch links to draw as a
//! heat map (an SCI ring, whose nodes each send on one link; a switch fabric, one
//! switch between adapters): one bar per link direction, its height the share of the
//! run its transmitter was busy. Bars go in the order of their transmitters (the
//! heat map's order of names, then port), so a fabric shows its adapters' ingress
//! links, then the switch's credit links back, then its egress links; directions a
//! switch sends on (a node sending on more than one link) are coloured apart.

use super::heatmap::order_key;
use super::{COLOURS, LIGHT, PANEL, PlotError, frame, legend, short};
use crate::stats::links::LinkUse;
use plotters::prelude::*;
use std::collections::BTreeMap;

/// Most directions whose transmitter is named under its bar; past this the axis counts
/// directions instead.
const NAMED: usize = 16;

/// The bar chart of every direction in `links`, or `None` if there are none.
pub fn link_bars_svg(title: &str, links: &[LinkUse]) -> Result<Option<String>, PlotError> {
    if links.is_empty() {
        return Ok(None);
    }
    let mut degree: BTreeMap<&str, usize> = BTreeMap::new();
    for l in links {
        *degree.entry(l.from.as_str()).or_default() += 1;
    }
    let from_switch = |l: &LinkUse| degree.get(l.from.as_str()).copied().unwrap_or(0) > 1;
    let mut bars: Vec<&LinkUse> = links.iter().collect();
    bars.sort_by_key(|l| (order_key(&l.from, links), l.from_port));
    let n = bars.len();
    let y_max = bars.iter().fold(1.0f64, |a, l| a.max(l.busy_pct)) * 1.25;
    let name = |x: f64| -> String {
        let i = x.round();
        if i < 0.0 || i >= n as f64 || (x - i).abs() > 1e-9 {
            return String::new();
        }
        let l = bars[i as usize];
        if n <= NAMED {
            format!("{}:{}", l.from, l.from_port)
        } else {
            format!("{i}")
        }
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, PANEL).into_drawing_area();
        root.fill(&WHITE).map_err(PlotError::from)?;
        let mut c = frame(&root, Some(title))
            .build_cartesian_2d(-0.5..(n as f64 - 0.5), 0.0..y_max)
            .map_err(PlotError::from)?;
        c.configure_mesh()
            .light_line_style(LIGHT)
            .disable_x_mesh()
            .x_labels(n.min(NAMED))
            .x_label_formatter(&|x| name(*x))
            .y_label_formatter(&|v| short(*v))
            .x_desc(if n <= NAMED {
                "transmitter (node:port)"
            } else {
                "link direction, by transmitter (node, then port)"
            })
            .y_desc("% of the run busy")
            .draw()
            .map_err(PlotError::from)?;
        for (switch, colour, label) in [
            (false, COLOURS[0], "sent by a node with one link"),
            (true, COLOURS[1], "sent by a switch"),
        ] {
            let mine: Vec<(usize, f64)> = bars
                .iter()
                .enumerate()
                .filter(|(_, l)| from_switch(l) == switch)
                .map(|(k, l)| (k, l.busy_pct))
                .collect();
            if mine.is_empty() {
                continue;
            }
            c.draw_series(mine.into_iter().map(|(k, busy)| {
                let x = k as f64;
                Rectangle::new([(x - 0.4, 0.0), (x + 0.4, busy)], colour.filled())
            }))
            .map_err(PlotError::from)?
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        }
        legend(&mut c, SeriesLabelPosition::UpperRight)?;
        root.present().map_err(PlotError::from)?;
    }
    Ok(Some(svg))
}
