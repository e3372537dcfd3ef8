//! The one vocabulary for a number a topology or traffic file gives: every key of every
//! family is checked against a range written here or beside its key, and a value
//! outside it is refused with the range in the message ("300: give 1 to 256 ports"),
//! never clamped or wrapped.

use super::ConfigError;

/// A whole number `value` of `key` in `lo..=hi` `unit`s.
pub(crate) fn whole(
    key: &'static str,
    value: u64,
    lo: u64,
    hi: u64,
    unit: &str,
) -> Result<u64, ConfigError> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(ConfigError::new(
            key,
            format!("{value}: give {} to {} {unit}", group(lo), group(hi)),
        ))
    }
}

/// Whether the lower end of a range of reals is in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Low {
    /// `lo` itself is allowed: [lo, hi].
    Closed,
    /// Only values above `lo`: (lo, hi].
    Open,
}

/// A real `value` of `key` in `[lo, hi]` (or `(lo, hi]`) `unit`s; NaN and infinities
/// are refused.
pub(crate) fn real(
    key: &'static str,
    value: f64,
    low: Low,
    lo: f64,
    hi: f64,
    unit: &str,
) -> Result<f64, ConfigError> {
    let above = match low {
        Low::Closed => value >= lo,
        Low::Open => value > lo,
    };
    if value.is_finite() && above && value <= hi {
        return Ok(value);
    }
    let range = match low {
        Low::Closed => format!("{lo} to {hi}"),
        Low::Open => format!("more than {lo} and at most {hi}"),
    };
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    Err(ConfigError::new(
        key,
        format!("{}: give {range}{unit}", crate::text::number(value)),
    ))
}

/// `n` with thousands separators, as ranges in messages are written.
fn group(n: u64) -> String {
    crate::text::group(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_outside_its_range_is_refused_with_the_range() {
        assert_eq!(whole("network.ports", 16, 1, 256, "ports"), Ok(16));
        let e = whole("network.ports", 300, 1, 256, "ports").unwrap_err();
        assert_eq!(
            (e.key, e.message.as_str()),
            ("network.ports", "300: give 1 to 256 ports")
        );
        let e = whole("network.voq_cap", 0, 1, 100_000_000, "packets").unwrap_err();
        assert_eq!(e.message, "0: give 1 to 100,000,000 packets");
        assert_eq!(real("k", 1.0, Low::Open, 0.0, 1.0, ""), Ok(1.0));
        let e = real("k", 0.0, Low::Open, 0.0, 1.0, "").unwrap_err();
        assert_eq!(e.message, "0: give more than 0 and at most 1");
        for bad in [f64::NAN, f64::INFINITY, -1.0, 1e6] {
            assert!(
                real("k", bad, Low::Closed, 0.0, 1000.0, "Gb/s").is_err(),
                "{bad}"
            );
        }
        let e = real("k", 1e6, Low::Closed, 0.0, 1000.0, "Gb/s").unwrap_err();
        assert_eq!(e.message, "1000000: give 0 to 1000 Gb/s");
    }
}
