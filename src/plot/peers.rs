//! Simulators side by side (the guide's page "Beside BookSim 2 and CAMINOS"): each
//! simulator's accepted rate (top) and mean message latency on a log axis (bottom)
//! against offered load, each point the mean over its seeds with a bar from the least
//! to the greatest seed's value, and the offered rate as a grey diagonal in the top
//! panel.

use super::sweep::load_range;
use super::{
    COLOURS, Chart, LIGHT, PlotError, frame, legend, line_with_bars, log_range, offered_line,
    short, two_panels,
};
use plotters::prelude::*;

/// One measure over the seeds of one load: the least, the mean and the greatest value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The least seed's value.
    pub min: f64,
    /// The mean over the seeds.
    pub mean: f64,
    /// The greatest seed's value.
    pub max: f64,
}

impl Spread {
    /// The spread of `values` (`None` if there are none).
    pub fn of(values: &[f64]) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        Some(Spread { min, mean, max })
    }
}

/// One offered load of one simulator: the load (fraction of a link's tokens offered),
/// the accepted rate in the same unit and the mean message latency in token times,
/// each over the seeds that gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct PeerPoint {
    /// Offered load, fraction of a link's tokens.
    pub load: f64,
    /// Accepted rate, fraction of a link's tokens.
    pub accepted: Option<Spread>,
    /// Mean message latency, token times.
    pub latency: Option<Spread>,
}

/// One simulator's curve: its name as the legend prints it and its points by load.
#[derive(Clone, Debug, PartialEq)]
pub struct PeerCurve {
    /// The simulator, e.g. "BookSim 2".
    pub name: String,
    /// Its points, in load order.
    pub points: Vec<PeerPoint>,
}

/// The picture of `curves`, headed by `title`.
pub fn peers_svg(title: &str, curves: &[PeerCurve]) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let (root, top, bottom) = two_panels(&mut svg, title)?;
        let all = || curves.iter().flat_map(|c| c.points.iter());
        let loads = load_range(all().map(|p| p.load));

        let top_y = all()
            .flat_map(|p| [Some(p.load), p.accepted.map(|a| a.max)])
            .flatten()
            .filter(|v| v.is_finite())
            .fold(0.1, f64::max)
            * 1.1;
        let mut c = frame(&top, None)
            .build_cartesian_2d(loads.clone(), 0.0..top_y)
            .map_err(PlotError::from)?;
        c.configure_mesh()
            .light_line_style(LIGHT)
            .x_label_formatter(&|v| short(*v))
            .y_label_formatter(&|v| short(*v))
            .x_desc("offered load (fraction of a link's tokens)")
            .y_desc("accepted (fraction of a link's tokens)")
            .draw()
            .map_err(PlotError::from)?;
        let (lo, hi) = (loads.start, loads.end);
        offered_line(&mut c, [(lo, lo), (hi, hi)])?;
        for (k, curve) in curves.iter().enumerate() {
            series(&mut c, curve, |p| p.accepted, COLOURS[k % COLOURS.len()])?;
        }
        legend(&mut c, SeriesLabelPosition::UpperLeft)?;

        let range = log_range(all().filter_map(|p| p.latency).flat_map(|s| [s.min, s.max]));
        let mut c = frame(&bottom, None)
            .build_cartesian_2d(loads, range.log_scale())
            .map_err(PlotError::from)?;
        c.configure_mesh()
            .light_line_style(LIGHT)
            .x_label_formatter(&|v| short(*v))
            .y_label_formatter(&|v| short(*v))
            .x_desc("offered load; bars: least to greatest over the seeds")
            .y_desc("mean message latency (token times)")
            .draw()
            .map_err(PlotError::from)?;
        for (k, curve) in curves.iter().enumerate() {
            series(&mut c, curve, |p| p.latency, COLOURS[k % COLOURS.len()])?;
        }
        legend(&mut c, SeriesLabelPosition::UpperLeft)?;
        root.present().map_err(PlotError::from)?;
    }
    Ok(svg)
}

/// One simulator's measure as a line with markers and seed bars.
fn series<Y>(
    c: &mut Chart<'_, '_, Y>,
    curve: &PeerCurve,
    of: impl Fn(&PeerPoint) -> Option<Spread>,
    colour: RGBColor,
) -> Result<(), PlotError>
where
    Y: Ranged<ValueType = f64>,
{
    let points: Vec<(f64, f64, f64, f64)> = curve
        .points
        .iter()
        .filter_map(|p| of(p).map(|s| (p.load, s.min, s.mean, s.max)))
        .filter(|&(_, _, mean, _)| mean.is_finite() && mean > 0.0)
        .collect();
    line_with_bars(c, &points, colour, &curve.name)
}
