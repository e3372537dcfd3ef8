//! Link utilisation as a heat map: one row per transmitting switch, one column per
//! receiving switch, each switch-to-switch link direction a cell coloured by the share
//! of the run its transmitter was busy (the report's `links`). A grid shows as bands
//! next to the diagonal, a hypercube as a cell per dimension in every row, a
//! multistage network as blocks between stages; a hot link stands out in any of them.
//! Links to and from terminals are left out (the per-terminal chart shows those).

use super::{PANEL, PlotError, frame};
use crate::stats::links::LinkUse;
use plotters::prelude::*;
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
    let mut svg = String::new();
    {
        let side = PANEL.0;
        let root = SVGBackend::with_string(&mut svg, (side + 120, side)).into_drawing_area();
        root.fill(&WHITE).map_err(PlotError::from)?;
        let (map, bar) = root.split_horizontally(side);
        let mut c = frame(&map, Some(title))
            .build_cartesian_2d(0.0..n as f64, n as f64..0.0)
            .map_err(PlotError::from)?;
        c.configure_mesh()
            .disable_mesh()
            .x_label_formatter(&|x| label(&switches, *x))
            .y_label_formatter(&|y| label(&switches, *y))
            .x_desc("to switch")
            .y_desc("from switch")
            .draw()
            .map_err(PlotError::from)?;
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

/// The switch name at axis position `x` (only at whole positions).
fn label(switches: &[&str], x: f64) -> String {
    if x.fract() != 0.0 {
        return String::new();
    }
    switches
        .get(x as usize)
        .map_or(String::new(), |s| s.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn link(from: &str, to: &str, busy: f64) -> LinkUse {
        LinkUse {
            from: from.into(),
            from_port: 0,
            to: to.into(),
            to_port: 0,
            busy_pct: busy,
        }
    }

    #[test]
    fn switch_links_become_cells_and_terminal_links_do_not() {
        let links = vec![
            link("c104[1]", "c104[0]", 50.0),
            link("c104[0]", "c104[1]", 100.0),
            link("c104[0]", "t9000[0]", 10.0),
            link("t9000[0]", "c104[0]", 10.0),
            link("c104[1]", "t9000[1]", 10.0),
            link("t9000[1]", "c104[1]", 10.0),
        ];
        let svg = heatmap_svg("h", &links).unwrap().unwrap();
        let hot = colour(1.0);
        let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", hot.0, hot.1, hot.2);
        assert!(
            svg.contains(&fill),
            "the 100 % cell is drawn in the top colour"
        );
        assert!(!svg.contains("t9000"), "no terminal on an axis");
        assert_eq!(heatmap_svg("h", &links[2..]).unwrap(), None);
    }

    #[test]
    fn the_colour_scale_runs_from_dark_to_bright() {
        assert_eq!(colour(0.0), RGBColor(68, 1, 84));
        assert_eq!(colour(1.0), RGBColor(253, 231, 37));
        assert_eq!(colour(f64::NAN), colour(0.0));
        let lum = |c: RGBColor| {
            0.2126 * f64::from(c.0) + 0.7152 * f64::from(c.1) + 0.0722 * f64::from(c.2)
        };
        assert!(
            (0..10)
                .all(|k| lum(colour(f64::from(k) / 10.0)) < lum(colour(f64::from(k + 1) / 10.0)))
        );
    }
}
