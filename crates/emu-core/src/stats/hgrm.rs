//! Latency distributions in HdrHistogram's percentile-distribution format (`.hgrm`), the
//! text its own tools print (`outputPercentileDistribution`) and its online plotter reads:
//! a header line, one row per percentile step (value, percentile, cumulative count,
//! 1/(1 − percentile)), then the mean, standard deviation, maximum, count and bucket
//! layout as `#[…]` lines.
//!
//! Rows follow the histogram's quantile iteration with 5 steps per half-distance to 100 %
//! (the tools' default); values are in microseconds with three decimals.

use crate::terminal::Metric;
use std::fmt::Write as _;

/// Steps per half-distance to the 100th percentile (HdrHistogram's default).
const TICKS_PER_HALF_DISTANCE: u32 = 5;

/// `metric` (values in ticks of `tick_ns` ns) as an `.hgrm` text, values in µs.
pub fn hgrm(metric: &Metric, tick_ns: f64) -> String {
    let scale = tick_ns / 1000.0;
    let h = metric.histogram();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>12} {:>14} {:>10} {:>14}\n",
        "Value", "Percentile", "TotalCount", "1/(1-Percentile)"
    );
    let mut total = 0u64;
    if !h.is_empty() {
        for v in h.iter_quantiles(TICKS_PER_HALF_DISTANCE) {
            total += v.count_since_last_iteration();
            let q = v.quantile_iterated_to();
            let value = v.value_iterated_to() as f64 * scale;
            if q < 1.0 {
                let _ = writeln!(
                    out,
                    "{value:12.3} {q:2.12} {total:10} {:14.2}",
                    1.0 / (1.0 - q)
                );
            } else {
                let _ = writeln!(out, "{value:12.3} {q:2.12} {total:10}");
            }
        }
    }
    let _ = writeln!(
        out,
        "#[Mean    = {:12.3}, StdDeviation   = {:12.3}]",
        metric.mean() * scale,
        h.stdev() * scale
    );
    let _ = writeln!(
        out,
        "#[Max     = {:12.3}, Total count    = {:12}]",
        if !h.is_empty() {
            metric.max as f64 * scale
        } else {
            0.0
        },
        h.len()
    );
    let _ = writeln!(
        out,
        "#[Buckets = {:12}, SubBuckets     = {:12}]",
        h.buckets(),
        // HdrHistogram's sub-bucket count for this precision: the power of two at or
        // above 2·10^digits (2048 for 3 significant digits); the crate keeps it private.
        (2 * 10u32.pow(u32::from(crate::terminal::metric::SIGNIFICANT_DIGITS))).next_power_of_two()
    );
    out
}

/// One data row of an `.hgrm` text: (value, percentile, total count).
pub fn parse_row(line: &str) -> Option<(f64, f64, u64)> {
    let mut it = line.split_whitespace();
    let value = it.next()?.parse().ok()?;
    let q = it.next()?.parse().ok()?;
    let total = it.next()?.parse().ok()?;
    Some((value, q, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_parses_back_to_the_distribution() {
        let mut m = Metric::new();
        for v in 1..=10_000u64 {
            m.record(v * 10);
        }
        let text = hgrm(&m, 10.0); // 10 ns ticks: values 0.1 .. 1000 µs
        let rows: Vec<(f64, f64, u64)> = text.lines().filter_map(parse_row).collect();
        assert!(rows.len() > 50, "{} rows", rows.len());
        // Percentiles and counts never decrease; the last row is 100 % with every value.
        for w in rows.windows(2) {
            assert!(w[1].1 >= w[0].1 && w[1].2 >= w[0].2 && w[1].0 >= w[0].0);
        }
        let last = rows[rows.len() - 1];
        assert_eq!((last.1, last.2), (1.0, 10_000));
        assert!((last.0 - 1000.0).abs() < 1.0, "max {}", last.0);
        // The median row is near 500 µs (3 significant digits).
        let median = rows.iter().find(|r| r.1 >= 0.5).expect("a median row");
        assert!((median.0 - 500.0).abs() < 1.0, "median {}", median.0);
        assert!(text.contains("#[Mean    =      500.050"), "{text}");
        assert!(text.contains("Total count    =        10000]"));
        assert!(text.starts_with("       Value     Percentile TotalCount 1/(1-Percentile)"));
        assert!(text.contains("SubBuckets     =         2048]"), "{text}");
    }

    #[test]
    fn an_empty_metric_gives_the_header_and_zero_totals() {
        let text = hgrm(&Metric::new(), 10.0);
        assert_eq!(text.lines().filter_map(parse_row).count(), 0);
        assert!(text.contains("Total count    =            0]"));
    }
}
