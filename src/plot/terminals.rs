//! Throughput per source as a bar chart: what each source was given (bars) beside what
//! it asked (dots), % of link data capacity, from the report's `fairness.sources`. A
//! rate source held back shows as a bar below its dot; a saturated source (always a
//! message waiting) asks for all it can get, so it has no dot and its bar has its own
//! colour: uneven saturated bars are unfairness among them. The legend says, in the
//! family's words, what a bar and a dot measure.

use super::{COLOURS, LIGHT, PANEL, PlotError, frame, legend, short};
use crate::stats::Report;
use crate::stats::fairness::SourceShare;
use plotters::prelude::*;

/// What a bar measures on the report's family: the "given" of `fairness.sources`.
pub fn given_label(report: &Report) -> &'static str {
    if report.nodes.is_some() {
        "given: its own packets delivered"
    } else if report.family.get("fabric").is_some() {
        "given: packets its adapter dispatched"
    } else {
        "given: its messages sent into the network"
    }
}

/// The per-source throughput chart of `report` (one slot per terminal; terminals that
/// are not sources stay empty).
pub fn terminals_svg(title: &str, report: &Report) -> Result<String, PlotError> {
    let n = report.terminals.offered_pct.len();
    let sources = &report.fairness.sources;
    let y_max = sources
        .iter()
        .flat_map(|s| [s.given_pct, s.asked_pct])
        .fold(1.0f64, f64::max)
        * 1.35; // room above the bars for the legend
    let rate: Vec<&SourceShare> = sources.iter().filter(|s| !s.saturated).collect();
    let saturated: Vec<&SourceShare> = sources.iter().filter(|s| s.saturated).collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, PANEL).into_drawing_area();
        root.fill(&WHITE).map_err(PlotError::from)?;
        let mut c = frame(&root, Some(title))
            .build_cartesian_2d(-0.5..(n.max(1) as f64 - 0.5), 0.0..y_max)
            .map_err(PlotError::from)?;
        c.configure_mesh()
            .light_line_style(LIGHT)
            .disable_x_mesh()
            .x_label_formatter(&|x| format!("{}", x.round()))
            .y_label_formatter(&|v| short(*v))
            .x_desc(if report.nodes.is_some() {
                "source node"
            } else {
                "source terminal"
            })
            .y_desc("% of link data capacity")
            .draw()
            .map_err(PlotError::from)?;
        let bar = |s: &SourceShare, colour: RGBColor| {
            let x = s.terminal as f64;
            Rectangle::new([(x - 0.4, 0.0), (x + 0.4, s.given_pct)], colour.filled())
        };
        if !rate.is_empty() {
            c.draw_series(rate.iter().map(|s| bar(s, COLOURS[0])))
                .map_err(PlotError::from)?
                .label(format!("{} (rate source)", given_label(report)))
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], COLOURS[0].filled())
                });
        }
        if !saturated.is_empty() {
            c.draw_series(saturated.iter().map(|s| bar(s, COLOURS[2])))
                .map_err(PlotError::from)?
                .label(format!(
                    "{} (saturated source: asks all it can get)",
                    given_label(report)
                ))
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], COLOURS[2].filled())
                });
        }
        if !rate.is_empty() {
            let dot = (800 / n.max(1)).clamp(1, 4) as i32;
            c.draw_series(
                rate.iter().map(|s| {
                    Circle::new((s.terminal as f64, s.asked_pct), dot, COLOURS[1].filled())
                }),
            )
            .map_err(PlotError::from)?
            .label("asked: payload it created (rate source)")
            .legend(|(x, y)| Circle::new((x + 6, y), 4, COLOURS[1].filled()));
        }
        if !sources.is_empty() {
            legend(&mut c, SeriesLabelPosition::UpperRight)?;
        }
        root.present().map_err(PlotError::from)?;
    }
    Ok(svg)
}
