//! The latency part of a report: one [`Metric`] summarised in ticks, microseconds and
//! header times, plus a percentile list.
//!
//! Percentiles come from the HDR histogram (3 significant digits) and are clamped to
//! the exact minimum and maximum, so that p99 ≤ max always holds. An empty metric
//! gives zeros everywhere, never NaN.

use serde::Serialize;

use crate::terminal::Metric;

/// The quantiles listed in [`LatencySummary::percentiles`].
pub const LIST_QUANTILES: [f64; 15] = [
    0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999, 1.0,
];

/// The headline statistics of one metric, in ticks. Mean, min and max are exact.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TickStats {
    /// Exact mean.
    pub mean: f64,
    /// Exact minimum (0 when empty).
    pub min: u64,
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// 99.9th percentile.
    pub p99_9: u64,
    /// Exact maximum.
    pub max: u64,
}

/// The same statistics as [`TickStats`] in another unit (µs, header times).
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ScaledStats {
    /// Mean.
    pub mean: f64,
    /// Minimum.
    pub min: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// 99.9th percentile.
    pub p99_9: f64,
    /// Maximum.
    pub max: f64,
}

/// One point of the percentile list.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PercentilePoint {
    /// Quantile, 0..=1.
    pub quantile: f64,
    /// Value at that quantile, in ticks.
    pub ticks: u64,
    /// Recorded values at or below `ticks` (to histogram resolution).
    pub count_at_or_below: u64,
}

/// One latency metric summarised for the report.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LatencySummary {
    /// Number of values recorded.
    pub count: u64,
    /// In ticks.
    pub ticks: TickStats,
    /// In microseconds.
    pub us: ScaledStats,
    /// In the family's delay unit (`run.delay_unit`: C104 header times, SCI cycles,
    /// fabric packet cycles; 0 when the unit is 0 ticks).
    pub delay_units: ScaledStats,
    /// Value at each of the quantiles [`LIST_QUANTILES`]: 0 to 1 in tenths, then 0.95,
    /// 0.99, 0.999 and 0.9999.
    pub percentiles: Vec<PercentilePoint>,
}

impl LatencySummary {
    /// Summarises `m`; `tick_ns` is the length of a tick, `header_time` of a header
    /// time in ticks.
    pub fn new(m: &Metric, tick_ns: f64, header_time: u64) -> LatencySummary {
        let count = m.count();
        let (min, max) = if count == 0 { (0, 0) } else { (m.min, m.max) };
        // One histogram for every percentile (the metric makes one on each call).
        let hist = (count > 0).then(|| m.histogram());
        let at = |q: f64| {
            hist.as_ref()
                .map_or(0, |h| h.value_at_quantile(q).clamp(min, max))
        };
        let ticks = TickStats {
            mean: m.mean(),
            min,
            p50: at(0.5),
            p90: at(0.9),
            p99: at(0.99),
            p99_9: at(0.999),
            max,
        };
        let us = ticks.scaled(|t| t * tick_ns / 1000.0);
        let delay_units = ticks.scaled(|t| {
            if header_time == 0 {
                0.0
            } else {
                t / header_time as f64
            }
        });
        let percentiles = LIST_QUANTILES
            .iter()
            .map(|&quantile| {
                let ticks = at(quantile);
                let below = hist.as_ref().map_or(0, |h| h.count_between(0, ticks));
                PercentilePoint {
                    quantile,
                    ticks,
                    count_at_or_below: below,
                }
            })
            .collect();
        LatencySummary {
            count,
            ticks,
            us,
            delay_units,
            percentiles,
        }
    }
}

impl TickStats {
    /// Converts every field with `f` (ticks → another unit).
    fn scaled(&self, f: impl Fn(f64) -> f64) -> ScaledStats {
        ScaledStats {
            mean: f(self.mean),
            min: f(self.min as f64),
            p50: f(self.p50 as f64),
            p90: f(self.p90 as f64),
            p99: f(self.p99 as f64),
            p99_9: f(self.p99_9 as f64),
            max: f(self.max as f64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_mean_and_extremes_and_units() {
        let mut m = Metric::new();
        for v in [100, 200, 300, 400] {
            m.record(v);
        }
        let s = LatencySummary::new(&m, 10.0, 50);
        assert_eq!(s.count, 4);
        assert_eq!(s.ticks.mean, 250.0);
        assert_eq!((s.ticks.min, s.ticks.max), (100, 400));
        assert_eq!(s.ticks.p50, 200);
        assert_eq!(s.ticks.p99, 400);
        assert_eq!(s.us.mean, 2.5);
        assert_eq!(s.us.max, 4.0);
        assert_eq!(s.delay_units.mean, 5.0);
        assert_eq!(s.delay_units.max, 8.0);
        assert_eq!(s.percentiles.len(), LIST_QUANTILES.len());
        assert_eq!(s.percentiles[0].ticks, 100);
        assert_eq!(s.percentiles[0].count_at_or_below, 1);
        let last = s.percentiles.last().unwrap();
        assert_eq!((last.ticks, last.count_at_or_below), (400, 4));
    }

    #[test]
    fn percentiles_never_exceed_the_exact_max() {
        let mut m = Metric::new();
        m.record(123_457); // histogram bucket is wider than 1 here
        let s = LatencySummary::new(&m, 10.0, 50);
        assert_eq!(s.ticks.p50, 123_457);
        assert_eq!(s.ticks.p99_9, 123_457);
        assert_eq!(s.percentiles.last().unwrap().count_at_or_below, 1);
    }

    #[test]
    fn empty_metric_is_all_zero() {
        let s = LatencySummary::new(&Metric::new(), 10.0, 0);
        assert_eq!(s.count, 0);
        assert_eq!(s.ticks.mean, 0.0);
        assert_eq!((s.ticks.min, s.ticks.max, s.ticks.p99), (0, 0, 0));
        assert_eq!(s.delay_units.mean, 0.0);
        assert!(
            s.percentiles
                .iter()
                .all(|p| p.ticks == 0 && p.count_at_or_below == 0)
        );
    }
}
