//! A latency percentile distribution as HdrHistogram's plotter draws it: latency against
//! percentile on a log axis of 1/(1 − p), so that 90 %, 99 %, 99.9 % … are equally
//! spaced and the tail is as visible as the median. The points are the histogram's own
//! quantile iteration (the rows of the `.hgrm` export, [`crate::stats::hgrm`]).

use super::{COLOURS, LIGHT, PANEL, PlotError, frame, short};
use crate::terminal::Metric;
use plotters::prelude::*;

/// Steps per half-distance to 100 %, as in the `.hgrm` export.
const TICKS_PER_HALF_DISTANCE: u32 = 5;

/// The percentile distribution of `metric` (values in ticks), drawn in `unit_ticks`
/// ticks per `unit` ("header times", …).
pub fn percentile_svg(
    title: &str,
    metric: &Metric,
    unit_ticks: f64,
    unit: &str,
) -> Result<String, PlotError> {
    let h = metric.histogram();
    let points: Vec<(f64, f64)> = if h.is_empty() {
        Vec::new()
    } else {
        h.iter_quantiles(TICKS_PER_HALF_DISTANCE)
            .map(|v| (v.quantile_iterated_to(), v.value_iterated_to() as f64))
            .filter(|(q, _)| *q < 1.0)
            .map(|(q, v)| {
                (
                    1.0 / (1.0 - q),
                    v.min(metric.max as f64) / unit_ticks.max(1e-300),
                )
            })
            .collect()
    };
    let x_max = points
        .iter()
        .map(|p| p.0)
        .fold(10.0f64, f64::max)
        .log10()
        .ceil();
    let x_max = 10f64.powf(x_max.max(1.0));
    let y_max = points.iter().map(|p| p.1).fold(0.0, f64::max).max(1.0) * 1.1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, PANEL).into_drawing_area();
        root.fill(&WHITE).map_err(PlotError::from)?;
        let mut c = frame(&root, Some(title))
            .build_cartesian_2d((1.0..x_max).log_scale(), 0.0..y_max)
            .map_err(PlotError::from)?;
        c.configure_mesh()
            .light_line_style(LIGHT)
            .x_label_formatter(&|x| percentile_label(*x))
            .y_label_formatter(&|v| short(*v))
            .x_desc("percentile")
            .y_desc(format!("latency ({unit})"))
            .draw()
            .map_err(PlotError::from)?;
        c.draw_series(LineSeries::new(
            points.iter().copied(),
            COLOURS[0].stroke_width(2),
        ))
        .map_err(PlotError::from)?;
        root.present().map_err(PlotError::from)?;
    }
    Ok(svg)
}

/// The percentile at 1/(1 − p) = `x`: 1 → "0%", 10 → "90%", 1000 → "99.9%".
pub fn percentile_label(x: f64) -> String {
    let p = (1.0 - 1.0 / x) * 100.0;
    format!("{}%", short(p))
}
