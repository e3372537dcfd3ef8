//! Pictures of results, as self-contained SVG (text is left to the viewer's
//! sans-serif font: no font files are read): a sweep's load–throughput and load–delay
//! curves with confidence bars, a run's latency percentile distributions, its
//! per-terminal throughput and its link utilisation (each link direction coloured on
//! the network in its natural layout, [`links_map`]; for a netlist a heat map of the
//! switch-to-switch links, [`heatmap`]), and a deadlock drawn on the network
//! ([`deadlock`]). The charts use plotters' SVG backend; the network pictures
//! ([`layout`] places the nodes) are written directly.
//!
//! Every function returns the SVG text; the same input always gives the same bytes, so
//! a merged sweep's plot is identical to the single process's.

pub mod deadlock;
pub mod heatmap;
pub mod layout;
pub mod link_bars;
pub mod links_map;
pub mod map;
pub mod peers;
pub mod percentiles;
pub mod run;
pub mod sweep;
pub mod terminals;

/// `text` with `&`, `<`, `>`, `"` and `'` replaced by their character references, safe
/// inside an element and inside a quoted attribute, of an SVG picture or an HTML page.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Why a picture could not be drawn (a drawing-backend failure; the inputs are
/// validated before).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("cannot draw the plot: {0}")]
pub struct PlotError(pub String);

impl PlotError {
    fn from<E: std::fmt::Debug>(e: E) -> PlotError {
        PlotError(format!("{e:?}"))
    }
}

/// Plot size in pixels (width, height) of one panel.
pub const PANEL: (u32, u32) = (800, 420);

/// The colours of series, in order (Okabe–Ito, readable by colour-blind viewers).
pub const COLOURS: [plotters::style::RGBColor; 4] = [
    plotters::style::RGBColor(0, 114, 178),
    plotters::style::RGBColor(213, 94, 0),
    plotters::style::RGBColor(0, 158, 115),
    plotters::style::RGBColor(204, 121, 167),
];

/// The minor grid's colour: barely there.
pub const LIGHT: plotters::style::RGBColor = plotters::style::RGBColor(242, 242, 242);

/// An axis label without needless decimals: 1000, 2.5, 0.01.
pub(crate) fn short(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The frame every chart here uses: a caption (if any), a 12-pixel margin and room for
/// the axis labels.
pub(crate) fn frame<'a, 'b>(
    area: &'a plotters::prelude::DrawingArea<
        plotters::prelude::SVGBackend<'b>,
        plotters::coord::Shift,
    >,
    title: Option<&str>,
) -> plotters::prelude::ChartBuilder<'a, 'b, plotters::prelude::SVGBackend<'b>> {
    let mut b = plotters::prelude::ChartBuilder::on(area);
    if let Some(t) = title {
        b.caption(t, ("sans-serif", 18));
    }
    b.margin(12).x_label_area_size(40).y_label_area_size(60);
    b
}

/// Draws the series' legend boxed at `pos`.
pub(crate) fn legend<'a, 'b: 'a, X, Y>(
    c: &mut plotters::prelude::ChartContext<
        'a,
        plotters::prelude::SVGBackend<'b>,
        plotters::prelude::Cartesian2d<X, Y>,
    >,
    pos: plotters::prelude::SeriesLabelPosition,
) -> Result<(), PlotError>
where
    X: plotters::prelude::Ranged,
    Y: plotters::prelude::Ranged,
{
    use plotters::prelude::*;
    c.configure_series_labels()
        .position(pos)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(PlotError::from)
}

/// A drawing area of an SVG picture.
pub(crate) type Area<'a> =
    plotters::prelude::DrawingArea<plotters::prelude::SVGBackend<'a>, plotters::coord::Shift>;

/// A white picture of two panels one above the other, written into `svg`, headed by
/// `title`: the whole (to present when drawn) and the top and bottom panels.
pub(crate) fn two_panels<'a>(
    svg: &'a mut String,
    title: &str,
) -> Result<(Area<'a>, Area<'a>, Area<'a>), PlotError> {
    use plotters::prelude::*;
    let root = SVGBackend::with_string(svg, (PANEL.0, PANEL.1 * 2)).into_drawing_area();
    root.fill(&WHITE).map_err(PlotError::from)?;
    let root = root
        .titled(title, ("sans-serif", 18))
        .map_err(PlotError::from)?;
    let (top, bottom) = root.split_vertically(PANEL.1 - 20);
    Ok((root, top, bottom))
}

/// A chart of f64 against `Y` on the SVG backend, as the pictures here draw them.
pub(crate) type Chart<'a, 'b, Y> = plotters::prelude::ChartContext<
    'a,
    plotters::prelude::SVGBackend<'b>,
    plotters::prelude::Cartesian2d<plotters::coord::types::RangedCoordf64, Y>,
>;

/// One measure as a line with round markers and vertical bars: each point is `(x, low,
/// value, high)`, the line and markers through `value`, a bar from `low` to `high` where
/// `high > low`; `label` names it in the legend.
pub(crate) fn line_with_bars<Y>(
    c: &mut Chart<'_, '_, Y>,
    points: &[(f64, f64, f64, f64)],
    colour: plotters::style::RGBColor,
    label: &str,
) -> Result<(), PlotError>
where
    Y: plotters::prelude::Ranged<ValueType = f64>,
{
    use plotters::prelude::*;
    c.draw_series(LineSeries::new(
        points.iter().map(|&(x, _, v, _)| (x, v)),
        colour.stroke_width(2),
    ))
    .map_err(PlotError::from)?
    .label(label)
    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
    c.draw_series(
        points
            .iter()
            .map(|&(x, _, v, _)| Circle::new((x, v), 3, colour.filled())),
    )
    .map_err(PlotError::from)?;
    c.draw_series(
        points
            .iter()
            .filter(|&&(_, lo, _, hi)| hi > lo)
            .map(|&(x, lo, v, hi)| ErrorBar::new_vertical(x, lo, v, hi, colour.stroke_width(1), 8)),
    )
    .map_err(PlotError::from)?;
    Ok(())
}

/// The offered load as a thin grey line through `points`, named "offered" in the
/// legend: the reference a delivered or accepted curve is read against.
pub(crate) fn offered_line<Y>(
    c: &mut Chart<'_, '_, Y>,
    points: impl IntoIterator<Item = (f64, f64)>,
) -> Result<(), PlotError>
where
    Y: plotters::prelude::Ranged<ValueType = f64>,
{
    use plotters::prelude::*;
    c.draw_series(LineSeries::new(
        points,
        ShapeStyle::from(&BLACK.mix(0.4)).stroke_width(1),
    ))
    .map_err(PlotError::from)?
    .label("offered")
    .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.4)));
    Ok(())
}

/// Most decades a log axis spans: values further below the largest are drawn at the
/// axis's foot. Without a bound, a value near the smallest `f64` (from a hand-made
/// shard file) made the range's ratio infinite and the plotting library's tick loop
/// endless.
const MAX_DECADES: i32 = 12;

/// A log-axis range around the positive, finite values of `v` (a decade either side
/// rounded out, at most twelve decades), or 1..10 if there are none.
pub fn log_range(v: impl IntoIterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = v
        .into_iter()
        .filter(|x| x.is_finite() && *x > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
    if hi == 0.0 {
        return 1.0..10.0;
    }
    let hi_decade = hi.log10().ceil().min(300.0);
    let lo_decade = lo.log10().floor().max(hi_decade - f64::from(MAX_DECADES));
    let lo = 10f64.powf(lo_decade);
    let hi = 10f64.powf(hi_decade);
    lo..if hi > lo { hi } else { lo * 10.0 }
}
