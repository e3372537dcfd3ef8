//! One latency metric: its values as a list or an HDR histogram, plus the exact sum
//! and extremes.

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
/// Values are kept as a plain list until there are more of them than a quarter of the
/// smallest histogram's memory holds ([`Metric::LIST_BYTES`]), and only then moved into
/// an HDR histogram: a terminal holds up to ten metrics and most of a large, lightly
/// loaded network's terminals record few values in them (an SCI source's, a DS-Link
/// terminal's journeys, none), so a histogram each, 16 KB at its smallest, was most of
/// such a run's memory. A list or a histogram, what the metric exports is the same: the
/// histogram made from a list (for a percentile, or when merged into a total) is the
/// auto-resizing one the values would have filled one by one.
///
/// Once in a histogram, a value recorded again straight after itself is only counted
/// (`Filled::repeat`) and goes into the histogram with its count when another value
/// comes or the metric is read: a journey's part is often the same for message after
/// message (a fabric's link takes its data path's cycles every time), and recording a
/// value n times at once fills the histogram as n single records do.
#[derive(Clone, Debug)]
pub struct Metric {
    /// The recorded values, in ticks.
    values: Values,
    /// Its histogram's significant decimal digits ([`SIGNIFICANT_DIGITS`] or
    /// [`COARSE_DIGITS`]).
    digits: u8,
    /// Exact sum of recorded values.
    pub sum: u128,
    /// Exact smallest recorded value (u64::MAX when empty).
    pub min: u64,
    /// Exact largest recorded value (0 when empty).
    pub max: u64,
}

/// Where a [`Metric`] keeps its values.
#[derive(Clone, Debug)]
enum Values {
    /// Each value, in the order recorded (at most [`Metric::list_limit`] of them).
    List(Vec<u64>),
    /// The HDR histogram of the values (boxed with its repeat count, so that a metric
    /// of few values stays small: a network of 65,536 terminals holds ten each).
    Histogram(Box<Filled>),
}

/// A metric's values once they are in a histogram.
#[derive(Clone, Debug)]
struct Filled {
    /// Every value recorded but those of `repeat`.
    hist: Histogram<u64>,
    /// The last value recorded and how many times in a row it came that `hist` does
    /// not hold yet (a count of 0: none).
    repeat: (u64, u64),
}

impl Filled {
    /// Moves the repeated value still only counted into the histogram.
    fn settle(&mut self) {
        let (v, n) = std::mem::take(&mut self.repeat);
        if n > 0 {
            Metric::record_into(&mut self.hist, v, n);
        }
    }

    /// Records `v` once: counted if it repeats the last value, else the run before it
    /// is settled.
    #[inline]
    fn record(&mut self, v: u64) {
        match &mut self.repeat {
            (last, n) if *n > 0 && *last == v => *n += 1,
            _ => {
                self.settle();
                self.repeat = (v, 1);
            }
        }
    }
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

    /// Bytes a metric's list of values may take before they move into a histogram: a
    /// quarter of the smallest histogram at [`COARSE_DIGITS`] (2 KB; at
    /// [`SIGNIFICANT_DIGITS`] it is 16 KB).
    pub const LIST_BYTES: u64 = 512;

    fn with_digits(digits: u8) -> Metric {
        Metric {
            values: Values::List(Vec::new()),
            digits,
            sum: 0,
            min: u64::MAX,
            max: 0,
        }
    }

    /// Values the list holds before they move into a histogram.
    const fn list_limit() -> usize {
        (Metric::LIST_BYTES / std::mem::size_of::<u64>() as u64) as usize
    }

    /// An empty auto-resizing histogram of `digits` significant digits.
    fn empty_histogram(digits: u8) -> Histogram<u64> {
        // 2 or 3 significant digits with auto-resize cannot fail to construct.
        let mut hist = Histogram::<u64>::new(digits).expect("valid sigfig");
        hist.auto(true);
        hist
    }

    /// `values` recorded into a new histogram of `digits` significant digits.
    fn histogram_of(values: &[u64], digits: u8) -> Histogram<u64> {
        let mut hist = Metric::empty_histogram(digits);
        for &v in values {
            Metric::record_into(&mut hist, v, 1);
        }
        hist
    }

    /// Records `v` into `hist` `n` times, growing it as needed.
    fn record_into(hist: &mut Histogram<u64>, v: u64, n: u64) {
        // `record_n` grows an auto-resizing histogram; it can only fail beyond u64 range.
        if hist.record_n(v, n).is_err() {
            hist.saturating_record_n(v, n);
        }
    }

    /// The histogram, made now from the list if the values are still in one.
    fn filled_mut(&mut self) -> &mut Filled {
        if let Values::List(values) = &self.values {
            let hist = Metric::histogram_of(values, self.digits);
            self.values = Values::Histogram(Box::new(Filled {
                hist,
                repeat: (0, 0),
            }));
        }
        match &mut self.values {
            Values::Histogram(filled) => filled,
            Values::List(_) => unreachable!("the list was just moved into a histogram"),
        }
    }

    /// The histogram of recorded values, in ticks (made for the caller from the list
    /// if the values are still in one, or if a repeated value is still only counted).
    pub fn histogram(&self) -> Cow<'_, Histogram<u64>> {
        match &self.values {
            Values::Histogram(filled) => match filled.repeat {
                (_, 0) => Cow::Borrowed(&filled.hist),
                (v, n) => {
                    let mut hist = filled.hist.clone();
                    Metric::record_into(&mut hist, v, n);
                    Cow::Owned(hist)
                }
            },
            Values::List(values) => Cow::Owned(Metric::histogram_of(values, self.digits)),
        }
    }

    /// Puts `v` in the list, or in the histogram once the list is full.
    #[inline]
    fn push(&mut self, v: u64) {
        match &mut self.values {
            Values::Histogram(filled) => filled.record(v),
            Values::List(values) if values.len() < Metric::list_limit() => values.push(v),
            Values::List(_) => self.filled_mut().record(v),
        }
    }

    /// Records one value.
    pub fn record(&mut self, v: u64) {
        self.push(v);
        self.sum += u128::from(v);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    /// Number of values recorded.
    pub fn count(&self) -> u64 {
        match &self.values {
            Values::List(values) => values.len() as u64,
            Values::Histogram(filled) => filled.hist.len() + filled.repeat.1,
        }
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
            return 0;
        }
        self.histogram().value_at_quantile(q)
    }

    /// Adds all of `other`'s values into `self`.
    pub fn merge(&mut self, other: &Metric) {
        match &other.values {
            Values::List(values) => {
                for &v in values {
                    self.push(v);
                }
            }
            Values::Histogram(theirs) => {
                let ours = self.filled_mut();
                ours.settle();
                // Both histograms auto-resize, so adding cannot run out of range.
                ours.hist
                    .add(&theirs.hist)
                    .expect("auto-resizing histograms merge");
                let (v, n) = theirs.repeat;
                if n > 0 {
                    Metric::record_into(&mut ours.hist, v, n);
                }
            }
        }
        self.sum += other.sum;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// Bytes this metric holds beside its own struct: its list or its histogram.
    #[cfg(test)]
    fn heap_bytes(&self) -> u64 {
        match &self.values {
            Values::List(values) => (values.capacity() * std::mem::size_of::<u64>()) as u64,
            Values::Histogram(filled) => {
                (std::mem::size_of::<Filled>() + filled.hist.distinct_values() * 8) as u64
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_metric_of_few_values_stays_small() {
        // The memory estimate counts ten per terminal: the repeat count lives in the
        // histogram's box, not here.
        assert_eq!(std::mem::size_of::<Metric>(), 64);
    }

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

    #[test]
    fn few_values_stay_a_list_and_more_move_into_a_histogram() {
        let mut m = Metric::new();
        for v in 0..Metric::list_limit() as u64 {
            m.record(1000 + v);
        }
        assert!(matches!(m.values, Values::List(_)));
        assert!(m.heap_bytes() <= Metric::LIST_BYTES, "{}", m.heap_bytes());
        m.record(5);
        assert!(matches!(m.values, Values::Histogram(_)));
        assert!(
            m.heap_bytes() >= 16 * 1024,
            "a 3-digit histogram is 16 KB at least"
        );
        assert_eq!(m.count(), Metric::list_limit() as u64 + 1);
        assert_eq!((m.min, m.max), (5, 1063));
        let mut small = Metric::coarse();
        small.record(7);
        assert!(
            small.heap_bytes() <= 64,
            "one value: {} bytes",
            small.heap_bytes()
        );
        m.merge(&small);
        assert_eq!(m.count(), Metric::list_limit() as u64 + 2);
        assert_eq!(m.quantile(0.0), 5);
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
        /// Metrics that keep few values as a list and more in a histogram, and the
        /// total merged from them, export exactly what eager construction did: a
        /// histogram per terminal made up front, each added into a total made up front.
        /// The terminals' counts cross the list's limit (64 values) both ways, and half
        /// their values come from four, so that runs of one value are common.
        #[test]
        fn listed_values_export_what_eager_histograms_did(
            terminals in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::prop_oneof![0u64..5_000_000, 30u64..34], 0..150), 0..6),
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
                for q in [0.0, 0.5, 0.99, 1.0] {
                    let eager_q = if eager.is_empty() { 0 } else { eager.value_at_quantile(q) };
                    proptest::prop_assert_eq!(eager_q, metric.quantile(q));
                }
                eager_total.add(&eager).expect("auto-resizing");
                total.merge(&metric);
            }
            proptest::prop_assert_eq!(exported(&eager_total), exported(&total.histogram()));
            proptest::prop_assert_eq!(eager_total.len(), total.count());
        }
    }
}
