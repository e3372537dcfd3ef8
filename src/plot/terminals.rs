//! Throughput per terminal as a bar chart: what each terminal received (bars) against
//! what it offered (dots), % of link data capacity; unfairness shows as uneven bars.

use super::{COLOURS, LIGHT, PANEL, PlotError, frame, legend, short};
use crate::stats::shares::TerminalShares;
use plotters::prelude::*;

/// The per-terminal throughput chart.
pub fn terminals_svg(title: &str, shares: &TerminalShares) -> Result<String, PlotError> {
    let n = shares.delivered_pct.len();
    let y_max = shares
        .delivered_pct
        .iter()
        .chain(&shares.offered_pct)
        .fold(1.0f64, |a, &b| a.max(b))
        * 1.25; // room above the bars for the legend
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
            .x_desc("terminal")
            .y_desc("% of link data capacity")
            .draw()
            .map_err(PlotError::from)?;
        c.draw_series(shares.delivered_pct.iter().enumerate().map(|(t, &d)| {
            let x = t as f64;
            Rectangle::new([(x - 0.4, 0.0), (x + 0.4, d)], COLOURS[0].filled())
        }))
        .map_err(PlotError::from)?
        .label("delivered")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], COLOURS[0].filled()));
        let dot = (800 / n.max(1)).clamp(1, 4) as i32;
        c.draw_series(
            shares
                .offered_pct
                .iter()
                .enumerate()
                .map(|(t, &o)| Circle::new((t as f64, o), dot, COLOURS[1].filled())),
        )
        .map_err(PlotError::from)?
        .label("offered")
        .legend(|(x, y)| Circle::new((x + 6, y), 4, COLOURS[1].filled()));
        legend(&mut c, SeriesLabelPosition::UpperRight)?;
        root.present().map_err(PlotError::from)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bar_per_terminal() {
        let shares = TerminalShares {
            delivered_pct: vec![10.0, 20.0, 0.0],
            offered_pct: vec![10.0, 25.0, 5.0],
            sent_pct: vec![10.0, 25.0, 5.0],
        };
        let svg = terminals_svg("t", &shares).unwrap();
        // Three bars and the legend's swatch, on a white background.
        let rects = svg.matches("<rect").count();
        assert!(rects >= 4, "{rects} rects");
        assert!(svg.contains("offered") && svg.contains("delivered"));
    }
}
