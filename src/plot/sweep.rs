//! A sweep's picture: delivered throughput against offered load (top) and mean and 99th
//! percentile delay against offered load on a log axis (bottom), each point the mean
//! over the seeds with its 90 % Student-t interval as an error bar, and the saturation
//! load (first load that falls behind, see [`crate::sweep::table::saturation`]) as a
//! dashed vertical line in both.

use super::{
    COLOURS, Chart, LIGHT, PlotError, frame, legend, line_with_bars, log_range, offered_line,
    short, two_panels,
};
use crate::stats::confidence::Interval;
use crate::sweep::table::{Row, Saturation};
use plotters::prelude::*;

/// The sweep's SVG. `title` heads it; `delay_unit` labels the delay axis.
pub fn sweep_svg(
    title: &str,
    rows: &[Row],
    sat: &Saturation,
    delay_unit: &str,
) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let (root, top, bottom) = two_panels(&mut svg, title)?;
        let loads = load_range(rows.iter().map(|r| r.load));
        let ok: Vec<&Row> = rows
            .iter()
            .filter(|r| !r.throughput.mean.is_nan())
            .collect();

        // Throughput.
        let top_y = ok
            .iter()
            .map(|r| r.offered_pct.max(r.throughput.mean + bar(&r.throughput)))
            .fold(1.0, f64::max)
            * 1.1;
        let mut c = frame(&top, None)
            .build_cartesian_2d(loads.clone(), 0.0..top_y)
            .map_err(PlotError::from)?;
        c.configure_mesh()
            .light_line_style(LIGHT)
            .x_label_formatter(&|v| short(*v))
            .x_desc("offered load (fraction of link data capacity)")
            .y_desc("% of link data capacity")
            .draw()
            .map_err(PlotError::from)?;
        offered_line(&mut c, ok.iter().map(|r| (r.load, r.offered_pct)))?;
        series(
            &mut c,
            &ok,
            |r| &r.throughput,
            COLOURS[0],
            "delivered throughput",
        )?;
        if let Some(l) = sat.load {
            saturation_line(&mut c, l, 0.0, top_y)?;
        }
        legend(&mut c, SeriesLabelPosition::UpperLeft)?;

        // Delay.
        let range = log_range(ok.iter().flat_map(|r| {
            [&r.mean_delay, &r.p99_delay]
                .into_iter()
                .flat_map(|i| [i.mean - bar(i), i.mean, i.mean + bar(i)])
        }));
        let (lo, hi) = (range.start, range.end);
        let mut c = frame(&bottom, None)
            .build_cartesian_2d(loads, range.log_scale())
            .map_err(PlotError::from)?;
        c.configure_mesh()
            .light_line_style(LIGHT)
            .x_label_formatter(&|v| short(*v))
            .y_label_formatter(&|v| short(*v))
            .x_desc("offered load (fraction of link data capacity); bars: 90 % confidence interval of the mean over seeds")
            .y_desc(format!("delay ({delay_unit})"))
            .draw()
            .map_err(PlotError::from)?;
        series(&mut c, &ok, |r| &r.mean_delay, COLOURS[1], "mean delay")?;
        series(&mut c, &ok, |r| &r.p99_delay, COLOURS[2], "99th percentile")?;
        if let Some(l) = sat.load {
            saturation_line(&mut c, l, lo, hi)?;
        }
        legend(&mut c, SeriesLabelPosition::UpperLeft)?;
        root.present().map_err(PlotError::from)?;
    }
    Ok(svg)
}

/// The load axis: the loads asked for, with a margin either side of a tenth of their
/// span (of the load, for a single load) so that the first and last points and their
/// error bars sit inside the plot; never below 0.
pub fn load_range(loads: impl IntoIterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = loads
        .into_iter()
        .filter(|l| l.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), l| {
            (lo.min(l), hi.max(l))
        });
    if lo > hi {
        return 0.0..1.0;
    }
    let span = hi - lo;
    let pad = if span > 0.0 {
        span * 0.1
    } else {
        (hi.abs() * 0.1).max(0.01)
    };
    (lo - pad).max(0.0)..hi + pad
}

/// The 90 % half-width to draw (0 for one run).
fn bar(i: &Interval) -> f64 {
    if i.n < 2 || i.half_width_90.is_nan() {
        0.0
    } else {
        i.half_width_90
    }
}

/// One measure as a line with markers and 90 % error bars.
fn series<Y>(
    c: &mut Chart<'_, '_, Y>,
    rows: &[&Row],
    of: impl Fn(&Row) -> &Interval,
    colour: RGBColor,
    label: &str,
) -> Result<(), PlotError>
where
    Y: Ranged<ValueType = f64>,
{
    let points: Vec<(f64, f64, f64, f64)> = rows
        .iter()
        .map(|r| {
            let i = of(r);
            (r.load, i.mean - bar(i), i.mean, i.mean + bar(i))
        })
        .collect();
    line_with_bars(c, &points, colour, label)
}

/// The dashed saturation line at `load` from `lo` to `hi`.
fn saturation_line<Y>(
    c: &mut Chart<'_, '_, Y>,
    load: f64,
    lo: f64,
    hi: f64,
) -> Result<(), PlotError>
where
    Y: Ranged<ValueType = f64>,
{
    let steps = 40;
    let red = RGBColor(200, 0, 0);
    c.draw_series((0..steps).step_by(2).map(|k| {
        // Even steps on the axis: geometric on a log axis (lo > 0), arithmetic otherwise.
        let y = |k: i32| {
            let f = f64::from(k) / f64::from(steps);
            if lo > 0.0 {
                lo * (hi / lo).powf(f)
            } else {
                lo + (hi - lo) * f
            }
        };
        PathElement::new(vec![(load, y(k)), (load, y(k + 1))], red.stroke_width(2))
    }))
    .map_err(PlotError::from)?
    .label(format!("saturation at load {load}"))
    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], red.stroke_width(2)));
    Ok(())
}
