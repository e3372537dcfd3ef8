//! One latency metric: an HDR histogram plus exact count, sum and extremes.

use hdrhistogram::Histogram;

/// Significant decimal digits the histograms keep (values are exact to 0.1 %).
pub const SIGNIFICANT_DIGITS: u8 = 3;

/// Significant decimal digits of the coarse histograms a journey's breakdown uses
/// (exact to 1 %, one eighth of the memory).
pub const COARSE_DIGITS: u8 = 2;

/// A distribution of tick values. The histogram gives percentiles (to 3 significant
/// digits); the mean, minimum and maximum are kept exactly.
#[derive(Clone, Debug)]
pub struct Metric {
    /// The HDR histogram of recorded values, in ticks.
    pub hist: Histogram<u64>,
    /// Exact sum of recorded values.
    pub sum: u128,
    /// Exact smallest recorded value (u64::MAX when empty).
    pub min: u64,
    /// Exact largest recorded value (0 when empty).
    pub max: u64,
}

impl Default for Metric {
    fn default() -> Self {
        Self::new()
    }
}

impl Metric {
    /// An empty metric.
    pub fn new() -> Metric {
        Metric::with_digits(SIGNIFICANT_DIGITS)
    }

    /// An empty metric whose percentiles keep [`COARSE_DIGITS`] significant digits;
    /// its mean, minimum and maximum are still exact.
    pub fn coarse() -> Metric {
        Metric::with_digits(COARSE_DIGITS)
    }

    fn with_digits(digits: u8) -> Metric {
        // 2 or 3 significant digits with auto-resize cannot fail to construct.
        let mut hist = Histogram::<u64>::new(digits).expect("valid sigfig");
        hist.auto(true);
        Metric {
            hist,
            sum: 0,
            min: u64::MAX,
            max: 0,
        }
    }

    /// Records one value.
    pub fn record(&mut self, v: u64) {
        // `record` grows an auto-resizing histogram; it can only fail beyond u64 range.
        if self.hist.record(v).is_err() {
            self.hist.saturating_record(v);
        }
        self.sum += u128::from(v);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    /// Number of values recorded.
    pub fn count(&self) -> u64 {
        self.hist.len()
    }

    /// Exact mean, or 0 when empty.
    pub fn mean(&self) -> f64 {
        let n = self.count();
        if n == 0 {
            0.0
        } else {
            self.sum as f64 / n as f64
        }
    }

    /// Value at quantile `q` (0..=1) from the histogram, or 0 when empty.
    pub fn quantile(&self, q: f64) -> u64 {
        if self.count() == 0 {
            0
        } else {
            self.hist.value_at_quantile(q)
        }
    }

    /// Adds all of `other`'s values into `self`.
    pub fn merge(&mut self, other: &Metric) {
        // Both histograms auto-resize, so adding cannot run out of range.
        self.hist
            .add(&other.hist)
            .expect("auto-resizing histograms merge");
        self.sum += other.sum;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_extremes_are_exact_and_merge_adds() {
        let mut a = Metric::new();
        for v in [10, 20, 30] {
            a.record(v);
        }
        let mut b = Metric::new();
        b.record(1000);
        a.merge(&b);
        assert_eq!(a.count(), 4);
        assert_eq!(a.mean(), 265.0);
        assert_eq!(a.min, 10);
        assert_eq!(a.max, 1000);
        assert_eq!(a.quantile(1.0), 1000);
        let mut big = Metric::new();
        for v in 1..=10_000u64 {
            big.record(v * 10);
        }
        let p99 = big.quantile(0.99);
        assert!((98_900..=99_100).contains(&p99), "p99 {p99}");
    }
}
