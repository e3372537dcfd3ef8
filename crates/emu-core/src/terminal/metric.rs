//! One latency metric: its values as a list or as counts laid out like an HDR
//! histogram's, plus the exact sum and extremes.

use hdrhistogram::Histogram;

/// Significant decimal digits the histograms keep (values are exact to 0.1 %).
pub const SIGNIFICANT_DIGITS: u8 = 3;

/// Significant decimal digits of the coarse histograms a journey's breakdown uses
/// (exact to 1 %, one eighth of the memory).
pub const COARSE_DIGITS: u8 = 2;

/// A distribution of tick values. The histogram gives percentiles (to 3 significant
/// digits); the mean, minimum and maximum are kept exactly.
///
/// Values are kept as a plain list until there are more of them than a quarter of the
/// smallest histogram's memory holds ([`Metric::LIST_BYTES`]), and only then counted
/// in an array laid out as an HDR histogram's: a terminal holds up to ten metrics and
/// most of a large, lightly loaded network's terminals record few values in them (an
/// SCI source's, a DS-Link terminal's journeys, none), so an array each, 16 KB at its
/// smallest, was most of such a run's memory.
///
/// The array has the same length and the same bucket of each value as the
/// auto-resizing HDR histogram the values would have filled one by one, so recording
/// a value is a few instructions (its bucket's index, one count added), and the HDR
/// histogram is made from the counts only when the metric is read
/// ([`Metric::histogram`]): recording a value n times fills a histogram as n single
/// records do, whatever the order, so a list or counts, what the metric exports is
/// what that histogram would have held.
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
    /// The values counted per HDR bucket (boxed, so that a metric of few values stays
    /// small: a network of 65,536 terminals holds ten each).
    Counted(Box<Counts>),
}

/// A metric's values once counted: one count per bucket of the HDR histogram of
/// `digits` significant digits and lowest discernible value 1 (hdrhistogram 7's
/// layout: bucket 0 holds 0..2·2^h one value each; bucket b ≥ 1 holds 2^(h+b)..
/// 2^(h+b+1) in 2^h sub-buckets of 2^b values, where 2^(h+1) is the smallest power of
/// two at or above 2·10^digits).
#[derive(Clone, Debug)]
struct Counts {
    /// Values recorded per bucket index; as long as the auto-resizing HDR histogram
    /// holding the same values (whole buckets, up to the largest value's).
    counts: Vec<u64>,
    /// h: log2 of half a bucket's sub-buckets (10 at 3 digits, 7 at 2).
    half: u32,
    /// Values recorded.
    len: u64,
    /// The smallest value recorded at or above 2·2^h, minus one (u64::MAX when there is
    /// none): the HDR histogram made from the counts records it exactly, as it was. A
    /// smaller value needs no note: bucket 0 holds one value per count, so its count's
    /// index is the value itself.
    below_min_large: u64,
}

impl Counts {
    /// No values, in the layout of `digits` significant digits (2 or 3).
    fn new(digits: u8) -> Counts {
        // hdrhistogram: sub-buckets = the power of two at or above 2·10^digits.
        let largest = 2 * 10u64.pow(u32::from(digits));
        let half = largest.next_power_of_two().trailing_zeros() - 1;
        Counts {
            // A new auto-resizing histogram covers bucket 0: 2·2^h counts.
            counts: vec![0; 2 << half],
            half,
            len: 0,
            below_min_large: u64::MAX,
        }
    }

    /// Values below this (2·2^h) are their own index: bucket 0 holds one value each.
    #[inline]
    fn exact(&self) -> u64 {
        2 << self.half
    }

    /// Index of `v`'s bucket (hdrhistogram's `index_for` with unit magnitude 0).
    #[inline]
    fn index(&self, v: u64) -> usize {
        let h = self.half;
        // Buckets above 0: how many times v is past bucket 0's 2·2^h values.
        let bucket = 63 - h - (v | ((2 << h) - 1)).leading_zeros();
        ((u64::from(bucket) << h) + (v >> bucket)) as usize
    }

    /// The smallest value of the bucket at `index` (hdrhistogram's `value_for`).
    fn lowest(&self, index: usize) -> u64 {
        let h = self.half;
        let i = index as u64;
        if i < 2 << h {
            i
        } else {
            let bucket = (i >> h) - 1;
            (i - (bucket << h)) << bucket
        }
    }

    /// Records `v` once: a value of bucket 0 (most latencies, in ticks or cycles) is
    /// its own index and always has its count; a larger one takes
    /// [`Counts::record_large`].
    #[inline]
    fn record(&mut self, v: u64) {
        self.len += 1;
        if v < self.exact() {
            // The counts cover bucket 0 from the start (`Counts::new`).
            if let Some(c) = self.counts.get_mut(v as usize) {
                *c += 1;
                return;
            }
        }
        self.record_large(v);
    }

    /// [`Counts::record`] of a value past bucket 0: its bucket's index, computed, the
    /// counts grown to it if needed, and the smallest such value noted.
    #[inline(never)]
    fn record_large(&mut self, v: u64) {
        let i = self.index(v);
        match self.counts.get_mut(i) {
            Some(c) => *c += 1,
            None => self.grow_to(i, 1),
        }
        self.below_min_large = self.below_min_large.min(v.wrapping_sub(1));
    }

    /// Grows the counts to whole buckets up to `index`'s, as the HDR histogram's
    /// `resize` does, and counts `n` at `index`.
    #[cold]
    fn grow_to(&mut self, index: usize, n: u64) {
        let bucket_len = 1usize << self.half;
        let len = (index / bucket_len + 1) * bucket_len;
        self.counts.resize(len, 0);
        self.counts[index] += n;
    }

    /// Adds `other`'s counts into these (both of the same digits).
    fn add(&mut self, other: &Counts) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (ours, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *ours += theirs;
        }
        self.len += other.len;
        self.below_min_large = self.below_min_large.min(other.below_min_large);
    }

    /// The HDR histogram of `digits` significant digits holding these values, whose
    /// largest is `max`: each bucket's count recorded at once, at the bucket's lowest
    /// value but for the bucket of the smallest value past bucket 0, recorded at that
    /// value (so the smallest non-zero value is exact, in bucket 0 or not; a bucket
    /// that holds neither extreme may be recorded at any of its values), and
    /// one count of the largest bucket's, recorded at `max` (so that the histogram's
    /// own extremes are exact too, and so its minimum and maximum, even at the top of
    /// the u64 range where those are special cases).
    fn histogram(&self, digits: u8, max: u64) -> Histogram<u64> {
        let mut hist = Metric::empty_histogram(digits);
        let min_nz = self
            .below_min_large
            .checked_add(1)
            .map(|v| (self.index(v), v));
        let mut top = true;
        // From the top down, so that the histogram resizes once, to its final size.
        for (i, &n) in self.counts.iter().enumerate().rev() {
            if n == 0 {
                continue;
            }
            let v = match min_nz {
                Some((at, v)) if at == i => v,
                _ => self.lowest(i),
            };
            if std::mem::take(&mut top) {
                debug_assert_eq!(self.index(max), i, "the largest value is in the top bucket");
                Metric::record_into(&mut hist, max, 1);
                if n > 1 {
                    Metric::record_into(&mut hist, v, n - 1);
                }
            } else {
                Metric::record_into(&mut hist, v, n);
            }
        }
        hist
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

    /// Bytes a metric's list of values may take before they are counted: a quarter of
    /// the smallest counts at [`COARSE_DIGITS`] (2 KB; at [`SIGNIFICANT_DIGITS`] they
    /// are 16 KB).
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

    /// Values the list holds before they are counted.
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

    /// The counts, made now from the list if the values are still in one.
    fn counts_mut(&mut self) -> &mut Counts {
        if let Values::List(values) = &self.values {
            let mut counts = Counts::new(self.digits);
            for &v in values {
                counts.record(v);
            }
            self.values = Values::Counted(Box::new(counts));
        }
        match &mut self.values {
            Values::Counted(counts) => counts,
            Values::List(_) => unreachable!("the list was just counted"),
        }
    }

    /// The HDR histogram of the recorded values, in ticks, made for the caller from
    /// the list or the counts: read it once for several percentiles.
    pub fn histogram(&self) -> Histogram<u64> {
        match &self.values {
            Values::Counted(counts) => counts.histogram(self.digits, self.max),
            Values::List(values) => Metric::histogram_of(values, self.digits),
        }
    }

    /// Counts `v`, or puts it in the list while the values are still in one.
    #[inline]
    fn push(&mut self, v: u64) {
        match &mut self.values {
            Values::Counted(counts) => counts.record(v),
            Values::List(_) => self.push_listed(v),
        }
    }

    /// Puts `v` in the list, or counts the list and `v` once the list is full (apart
    /// from [`Metric::push`], so that what every record runs stays a few instructions).
    #[inline(never)]
    fn push_listed(&mut self, v: u64) {
        match &mut self.values {
            Values::List(values) if values.len() < Metric::list_limit() => values.push(v),
            _ => self.counts_mut().record(v),
        }
    }

    /// Records one value.
    #[inline]
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
            Values::Counted(counts) => counts.len,
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

    /// Value at quantile `q` (0..=1) from the histogram, or 0 when empty (each call
    /// makes the histogram: for several quantiles, read [`Metric::histogram`] once).
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
            Values::Counted(theirs) => self.counts_mut().add(theirs),
        }
        self.sum += other.sum;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// Bytes this metric holds beside its own struct: its list or its counts.
    #[cfg(test)]
    fn heap_bytes(&self) -> u64 {
        match &self.values {
            Values::List(values) => (values.capacity() * std::mem::size_of::<u64>()) as u64,
            Values::Counted(counts) => {
                (std::mem::size_of::<Counts>() + counts.counts.capacity() * 8) as u64
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_metric_of_few_values_stays_small() {
        // The memory estimate counts ten per terminal: the counted values' length and
        // smallest value live in their box, not here.
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
    fn few_values_stay_a_list_and_more_are_counted() {
        let mut m = Metric::new();
        for v in 0..Metric::list_limit() as u64 {
            m.record(1000 + v);
        }
        assert!(matches!(m.values, Values::List(_)));
        assert!(m.heap_bytes() <= Metric::LIST_BYTES, "{}", m.heap_bytes());
        m.record(5);
        assert!(matches!(m.values, Values::Counted(_)));
        assert!(
            m.heap_bytes() >= 16 * 1024,
            "3-digit counts are 16 KB at least"
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

    /// Values at the edges of the buckets of both layouts, and the extremes.
    fn edge_values() -> Vec<u64> {
        let mut values: Vec<u64> = (0..5000).collect();
        for shift in 8..64 {
            let p = 1u64 << shift;
            values.extend([p - 1, p, p + 1, p + p / 3]);
        }
        values.extend([u64::MAX - 1, u64::MAX]);
        values.sort_unstable();
        values.dedup();
        values
    }

    #[test]
    fn counts_take_the_hdr_histograms_buckets_and_length() {
        for digits in [COARSE_DIGITS, SIGNIFICANT_DIGITS] {
            let empty = Counts::new(digits);
            assert_eq!(
                empty.counts.len(),
                Metric::empty_histogram(digits).distinct_values()
            );
            let mut last = 0;
            for v in edge_values() {
                let mut counts = Counts::new(digits);
                let mut hist = Metric::empty_histogram(digits);
                counts.record(v);
                Metric::record_into(&mut hist, v, 1);
                let i = counts.index(v);
                assert!(i >= last, "{digits} digits: index of {v} went down");
                last = i;
                assert_eq!(counts.lowest(i), hist.lowest_equivalent(v), "{v}");
                assert_eq!(counts.counts.len(), hist.distinct_values(), "{v}");
                assert_eq!(counts.counts[i], 1);
                assert_eq!(counts.histogram(digits, v), hist, "{digits} digits: {v}");
            }
        }
    }

    /// A value and how many times in a row it is recorded: small (exact in the
    /// histogram), a latency's range, any u64, or the very top of the range.
    fn runs() -> impl proptest::strategy::Strategy<Value = Vec<(u64, u8)>> {
        proptest::collection::vec(
            (
                proptest::prop_oneof![
                    Just(0u64),
                    0u64..3000,
                    0u64..50_000_000,
                    proptest::num::u64::ANY,
                    (u64::MAX - 3)..=u64::MAX,
                ],
                1u8..6,
            ),
            0..80,
        )
    }

    use proptest::strategy::Just;

    proptest::proptest! {
        /// Counted metrics, and totals merged from them in any grouping, hold exactly
        /// the histogram that recording the same values one by one into a plain HDR
        /// histogram gives: equal counts, layout, extremes, quantiles and iteration.
        #[test]
        fn counted_values_make_the_plain_histogram(
            terminals in proptest::collection::vec(runs(), 1..5),
            coarse in proptest::bool::ANY,
            fold_first in proptest::bool::ANY,
        ) {
            let digits = if coarse { COARSE_DIGITS } else { SIGNIFICANT_DIGITS };
            let fresh = || if coarse { Metric::coarse() } else { Metric::new() };
            let mut plain_total = Metric::empty_histogram(digits);
            let mut total = fresh();
            if fold_first {
                // A total already counted before anything is merged into it.
                for v in 0..=Metric::list_limit() as u64 {
                    total.record(v);
                    Metric::record_into(&mut plain_total, v, 1);
                }
            }
            for runs in &terminals {
                let mut plain = Metric::empty_histogram(digits);
                let mut metric = fresh();
                for &(v, n) in runs {
                    for _ in 0..n {
                        Metric::record_into(&mut plain, v, 1);
                        metric.record(v);
                    }
                }
                let made = metric.histogram();
                proptest::prop_assert!(made == plain);
                proptest::prop_assert_eq!(made.distinct_values(), plain.distinct_values());
                proptest::prop_assert_eq!(made.high(), plain.high());
                proptest::prop_assert_eq!(exported(&made), exported(&plain));
                proptest::prop_assert_eq!(metric.count(), plain.len());
                for q in [0.0, 0.25, 0.5, 0.99, 0.999, 1.0] {
                    let plain_q = if plain.is_empty() { 0 } else { plain.value_at_quantile(q) };
                    proptest::prop_assert_eq!(plain_q, metric.quantile(q));
                }
                plain_total.add(&plain).expect("auto-resizing");
                total.merge(&metric);
            }
            let made = total.histogram();
            proptest::prop_assert!(made == plain_total);
            proptest::prop_assert_eq!(exported(&made), exported(&plain_total));
            proptest::prop_assert_eq!(total.count(), plain_total.len());
        }
    }
}
