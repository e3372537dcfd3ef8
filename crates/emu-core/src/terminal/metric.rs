//! One latency metric: an HDR histogram plus exact count, sum and extremes.

use hdrhistogram::Histogram;
use std::borrow::Cow;

/// Significant decimal digits the histograms keep (values are exact to 0.1 %).
pub const SIGNIFICANT_DIGITS: u8 = 3;

/// Significant decimal digits of the coarse histograms a journey's breakdown uses
/// (exact to 1 %, one eighth of the memory).
pub const COARSE_DIGITS: u8 = 2;

/// A distribution of tick values. The histogram gives percentiles (to 3 significant
/// digits); the mean, minimum and maximum are kept exactly.
///
/// The histogram is made on the first recorded value: a terminal holds ten metrics and
/// most of a large, lightly loaded network's terminals record in few of them (an SCI
/// source's, a DS-Link terminal never), so building them all up front cost most of such
/// a run's time and memory. Made late or early, the histogram is the same: an
/// auto-resizing one whose range is what its largest value needs.
#[derive(Clone, Debug)]
pub struct Metric {
    /// The HDR histogram of recorded values, in ticks; `None` until the first.
    hist: Option<Box<Histogram<u64>>>,
    /// Its significant decimal digits ([`SIGNIFICANT_DIGITS`] or [`COARSE_DIGITS`]).
    digits: u8,
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
        Metric {
            hist: None,
            digits,
            sum: 0,
            min: u64::MAX,
            max: 0,
        }
    }

    /// An empty auto-resizing histogram of `digits` significant digits.
    fn empty_histogram(digits: u8) -> Histogram<u64> {
        // 2 or 3 significant digits with auto-resize cannot fail to construct.
        let mut hist = Histogram::<u64>::new(digits).expect("valid sigfig");
        hist.auto(true);
        hist
    }

    /// The histogram, made now if it is not made yet.
    fn histogram_mut(&mut self) -> &mut Histogram<u64> {
        let digits = self.digits;
        self.hist
            .get_or_insert_with(|| Box::new(Metric::empty_histogram(digits)))
    }

    /// The histogram of recorded values, in ticks (an empty one, made for the
    /// caller, if nothing was recorded).
    pub fn histogram(&self) -> Cow<'_, Histogram<u64>> {
        match &self.hist {
            Some(hist) => Cow::Borrowed(hist),
            None => Cow::Owned(Metric::empty_histogram(self.digits)),
        }
    }

    /// Records one value.
    pub fn record(&mut self, v: u64) {
        let hist = self.histogram_mut();
        // `record` grows an auto-resizing histogram; it can only fail beyond u64 range.
        if hist.record(v).is_err() {
            hist.saturating_record(v);
        }
        self.sum += u128::from(v);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    /// Number of values recorded.
    pub fn count(&self) -> u64 {
        self.hist.as_ref().map_or(0, |hist| hist.len())
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
        match &self.hist {
            Some(hist) if !hist.is_empty() => hist.value_at_quantile(q),
            _ => 0,
        }
    }

    /// Adds all of `other`'s values into `self`.
    pub fn merge(&mut self, other: &Metric) {
        if let Some(theirs) = &other.hist {
            // Both histograms auto-resize, so adding cannot run out of range.
            self.histogram_mut()
                .add(&**theirs)
                .expect("auto-resizing histograms merge");
        }
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

    /// Everything the reports read from a histogram: layout, count, extremes,
    /// quantile iteration (the `.hgrm` rows and plots), stdev and counts below values.
    fn exported(h: &Histogram<u64>) -> Vec<String> {
        let mut out = vec![format!(
            "{} {} {} {} {}",
            h.buckets(),
            h.len(),
            h.max(),
            h.min_nz(),
            h.stdev()
        )];
        if !h.is_empty() {
            for v in h.iter_quantiles(5) {
                out.push(format!(
                    "{} {} {}",
                    v.value_iterated_to(),
                    v.quantile_iterated_to(),
                    v.count_since_last_iteration()
                ));
            }
            for q in [0.0, 0.5, 0.9, 0.99, 0.999, 1.0] {
                let at = h.value_at_quantile(q);
                out.push(format!("{q} {at} {}", h.count_between(0, at)));
            }
        }
        out
    }

    proptest::proptest! {
        /// A total merged from metrics that made their histograms on first use exports
        /// exactly what the former eager construction did: a histogram per terminal
        /// made up front, each added into a total made up front.
        #[test]
        fn late_histograms_export_what_eager_ones_did(
            terminals in proptest::collection::vec(
                proptest::collection::vec(0u64..5_000_000, 0..40), 0..6),
            coarse in proptest::bool::ANY,
        ) {
            let digits = if coarse { COARSE_DIGITS } else { SIGNIFICANT_DIGITS };
            let eager_new = || Metric::empty_histogram(digits);
            let fresh = || if coarse { Metric::coarse() } else { Metric::new() };
            let mut eager_total = eager_new();
            let mut total = fresh();
            for values in &terminals {
                let mut eager = eager_new();
                let mut metric = fresh();
                for &v in values {
                    eager.record(v).expect("auto-resizing");
                    metric.record(v);
                }
                proptest::prop_assert_eq!(exported(&eager), exported(&metric.histogram()));
                eager_total.add(&eager).expect("auto-resizing");
                total.merge(&metric);
            }
            proptest::prop_assert_eq!(exported(&eager_total), exported(&total.histogram()));
            proptest::prop_assert_eq!(eager_total.len(), total.count());
        }
    }
}
