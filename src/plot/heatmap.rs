//! Link utilisation as a heat map: one row per transmitting switch, one column per
//! receiving switch, each switch-to-switch link direction a cell coloured by the share
//! of the run its transmitter was busy (the report's `links`). A grid shows as bands
//! next to the diagonal, a hypercube as a cell per dimension in every row, a
//! multistage network as blocks between stages; a hot link stands out in any of them.
//! Links to and from terminals are left out (the per-terminal chart shows those).

use super::{PANEL, PlotError};
use crate::stats::links::LinkUse;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::BTreeMap;

/// The heat map of the switch-to-switch links in `links`, or `None` if there are none
/// (a single crossbar, an SCI ring, a fabric).
pub fn heatmap_svg(title: &str, links: &[LinkUse]) -> Result<Option<String>, PlotError> {
    // A switch transmits on more than one link; a terminal on exactly one.
    let mut degree: BTreeMap<&str, usize> = BTreeMap::new();
    for l in links {
        *degree.entry(l.from.as_str()).or_default() += 1;
    }
    let is_switch = |n: &str| degree.get(n).copied().unwrap_or(0) > 1;
    let mut switches: Vec<&str> = Vec::new();
    for l in links {
        if is_switch(&l.from) && !switches.contains(&l.from.as_str()) {
            switches.push(&l.from);
        }
    }
    switches.sort_by_key(|n| order_key(n, links));
    let index: BTreeMap<&str, usize> = switches.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let cells: Vec<(usize, usize, f64)> = links
        .iter()
        .filter_map(|l| {
            Some((
                *index.get(l.from.as_str())?,
                *index.get(l.to.as_str())?,
                l.busy_pct,
            ))
        })
        .collect();
    if cells.is_empty() {
        return Ok(None);
    }
    let n = switches.len();
    let side = PANEL.0;
    let axes = Axes::new(&switches, side);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (side + 120, side)).into_drawing_area();
        root.fill(&WHITE).map_err(PlotError::from)?;
        let (map, bar) = root.split_horizontally(side);
        let mut c = ChartBuilder::on(&map);
        c.caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(axes.x_area)
            .y_label_area_size(axes.y_area);
        let mut c = c
            .build_cartesian_2d(0.0..n as f64, n as f64..0.0)
            .map_err(PlotError::from)?;
        // No numbers on the axes: the names are drawn at the cells' centres below.
        c.configure_mesh()
            .disable_mesh()
            .x_labels(0)
            .y_labels(0)
            .x_desc("to switch")
            .y_desc("from switch")
            .draw()
            .map_err(PlotError::from)?;
        let font = ("sans-serif", axes.font).into_font();
        for (i, name) in switches.iter().enumerate() {
            let centre = i as f64 + 0.5;
            let (x, y) = c.backend_coord(&(0.0, centre));
            let row = TextStyle::from(font.clone()).pos(Pos::new(HPos::Right, VPos::Center));
            map.draw(&Text::new(name.to_string(), (x - 6, y), row))
                .map_err(PlotError::from)?;
            let (x, y) = c.backend_coord(&(centre, n as f64));
            let column = if axes.x_turned {
                TextStyle::from(font.clone().transform(FontTransform::Rotate270))
                    .pos(Pos::new(HPos::Right, VPos::Center))
            } else {
                TextStyle::from(font.clone()).pos(Pos::new(HPos::Center, VPos::Top))
            };
            map.draw(&Text::new(name.to_string(), (x, y + 6), column))
                .map_err(PlotError::from)?;
        }
        c.draw_series(cells.iter().map(|&(i, j, pct)| {
            let (x, y) = (j as f64, i as f64);
            Rectangle::new([(x, y), (x + 1.0, y + 1.0)], colour(pct / 100.0).filled())
        }))
        .map_err(PlotError::from)?;
        // The colour bar: 0 % at the bottom, 100 % at the top.
        let mut b = ChartBuilder::on(&bar)
            .margin_top(52)
            .margin_bottom(52)
            .margin_right(10)
            .y_label_area_size(0)
            .right_y_label_area_size(60)
            .build_cartesian_2d(0.0..1.0, 0.0..100.0)
            .map_err(PlotError::from)?;
        b.configure_mesh()
            .disable_mesh()
            .disable_x_axis()
            .y_label_style(("sans-serif", 12))
            .axis_desc_style(("sans-serif", 12))
            .y_desc("% of run busy")
            .draw()
            .map_err(PlotError::from)?;
        b.draw_series((0..100).map(|k| {
            let y = f64::from(k);
            Rectangle::new([(0.0, y), (1.0, y + 1.0)], colour(y / 100.0).filled())
        }))
        .map_err(PlotError::from)?;
        root.present().map_err(PlotError::from)?;
    }
    Ok(Some(svg))
}

/// Switches sort by the order their name prefix first appears in the links (a MIN's
/// left switches before its right ones), then by the number in brackets.
pub(crate) fn order_key(name: &str, links: &[LinkUse]) -> (usize, u64, String) {
    let (prefix, number) = match name.split_once('[') {
        Some((p, rest)) => (
            p,
            rest.trim_end_matches(']')
                .parse::<u64>()
                .unwrap_or(u64::MAX),
        ),
        None => (name, u64::MAX),
    };
    let first = links
        .iter()
        .position(|l| l.from.split_once('[').map_or(l.from.as_str(), |s| s.0) == prefix)
        .unwrap_or(usize::MAX);
    (first, number, name.to_string())
}

/// How the axes are labelled: every row and column by name, in a font that fits the
/// cells, the column names turned on their side when they are wider than a column.
struct Axes {
    /// Font size, pixels.
    font: f64,
    /// Column names turned on their side (read from the top down).
    x_turned: bool,
    /// Room for the column names and the axis title, pixels.
    x_area: u32,
    /// Room for the row names and the axis title, pixels.
    y_area: u32,
}

impl Axes {
    /// The labels of `switches` on a square map `side` pixels wide.
    fn new(switches: &[&str], side: u32) -> Axes {
        let n = switches.len().max(1) as f64;
        // The cells' side, near enough: the map less its margins and label room.
        let cell = (f64::from(side) - 160.0).max(n) / n;
        let font = (cell * 0.8).clamp(6.0, 14.0);
        let widest = switches
            .iter()
            .map(|s| super::map::text_width(s, font))
            .fold(0.0, f64::max);
        let x_turned = widest > cell - 4.0;
        let room = (widest + 28.0).ceil() as u32;
        Axes {
            font,
            x_turned,
            x_area: if x_turned { room.max(40) } else { 40 },
            y_area: room.max(60),
        }
    }
}

/// A perceptually even colour for `f` in [0, 1] (viridis, five stops).
pub fn colour(f: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 5] = [
        (68.0, 1.0, 84.0),
        (59.0, 82.0, 139.0),
        (33.0, 145.0, 140.0),
        (94.0, 201.0, 98.0),
        (253.0, 231.0, 37.0),
    ];
    let f = if f.is_finite() {
        f.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let at = f * (STOPS.len() - 1) as f64;
    let k = (at.floor() as usize).min(STOPS.len() - 2);
    let t = at - k as f64;
    let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    let (a, b) = (STOPS[k], STOPS[k + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}
