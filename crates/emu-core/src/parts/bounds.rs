//! The one vocabulary for a number a topology or traffic file gives: every key of every
//! family is checked against a range written here or beside its key, and a value
//! outside it is refused with the range in the message ("300: give 1 to 256 ports"),
//! never clamped or wrapped.

use super::ConfigError;
use crate::text::whole_range;

/// A whole-number range of a key, declared once where the validator, its refusal and
/// the reference's words all read it (the bounds of a kind of network of C104s live in
/// its file of `network::kinds`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The smallest value it takes.
    pub min: u64,
    /// The largest value it takes.
    pub max: u64,
    /// How a refusal words what to give.
    pub give: Give,
}

/// How a [`Bound`]'s refusal words the range to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Give {
    /// In the reference's words: "give a whole number from 2 to 4,096".
    Reference,
    /// Naming what the value counts: "give 2 to 256 switches per side" (`""`: no unit,
    /// "give 1 to 32").
    Counting(&'static str),
    /// As a Rust range, then the unit if any: "give 2..=4096 nodes" (the front end
    /// words it "give 2 to 4096 nodes").
    Span(&'static str),
}

impl Bound {
    /// `min` to `max`, refused in the reference's words.
    pub const fn whole(min: u64, max: u64) -> Bound {
        Bound {
            min,
            max,
            give: Give::Reference,
        }
    }

    /// `min` to `max` of `unit`, refused naming the unit (`""`: no unit).
    pub const fn counting(min: u64, max: u64, unit: &'static str) -> Bound {
        Bound {
            min,
            max,
            give: Give::Counting(unit),
        }
    }

    /// `min` to `max` of `unit`, refused as a Rust range (`""`: no unit).
    pub const fn span(min: u64, max: u64, unit: &'static str) -> Bound {
        Bound {
            min,
            max,
            give: Give::Span(unit),
        }
    }

    /// Whether `value` is in the range.
    pub fn contains(self, value: u64) -> bool {
        (self.min..=self.max).contains(&value)
    }

    /// What the key takes, as the reference and a type error say it: "a whole number
    /// from 2 to 4,096".
    pub fn takes(self) -> String {
        whole_range(self.min, self.max)
    }

    /// What a refusal says to give, in the bound's own style: "2 to 6 switches per
    /// side".
    pub fn give(self) -> String {
        match self.give {
            Give::Reference => self.takes(),
            Give::Counting("") => format!("{} to {}", group(self.min), group(self.max)),
            Give::Counting(unit) => format!("{} to {} {unit}", group(self.min), group(self.max)),
            Give::Span("") => format!("{}..={}", self.min, self.max),
            Give::Span(unit) => format!("{}..={} {unit}", self.min, self.max),
        }
    }

    /// The refusal of `value`: the value, `lead`, what to give, `why` ("7: give 2 to 6
    /// switches per side").
    pub fn refusal(self, value: u64, lead: &str, why: &str) -> String {
        format!("{value}: {lead}give {}{why}", self.give())
    }

    /// `value` of `key` if the range holds it, else its refusal.
    pub(crate) fn check(self, key: &'static str, value: u64) -> Result<u64, ConfigError> {
        if self.contains(value) {
            Ok(value)
        } else {
            Err(ConfigError::new(key, self.refusal(value, "", "")))
        }
    }
}

/// Whether the lower end of a range of reals is in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Low {
    /// `lo` itself is allowed: [lo, hi].
    Closed,
    /// Only values above `lo`: (lo, hi].
    Open,
}

/// A range of reals of a key, declared once where the validator, its refusal and the
/// reference's words all read it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reals {
    /// Whether `lo` itself is in the range.
    pub low: Low,
    /// The lower end.
    pub lo: f64,
    /// The largest value it takes.
    pub hi: f64,
    /// What the value counts, for messages ("Gb/s").
    pub unit: &'static str,
}

impl Reals {
    /// `lo` to `hi` of `unit`, both ends included.
    pub const fn closed(lo: f64, hi: f64, unit: &'static str) -> Reals {
        Reals {
            low: Low::Closed,
            lo,
            hi,
            unit,
        }
    }

    /// What the key takes, as the reference and a type error say it: "Gb/s from 0.001
    /// to 10,000".
    pub fn takes(self) -> String {
        let show = |x: f64| {
            if x.fract() == 0.0 && (0.0..1e15).contains(&x) {
                group(x as u64)
            } else {
                crate::text::number(x)
            }
        };
        let from = match self.low {
            Low::Closed => "from",
            Low::Open => "above",
        };
        format!(
            "{} {from} {} to {}",
            self.unit,
            show(self.lo),
            show(self.hi)
        )
    }

    /// `value` of `key` if the range holds it (NaN and infinities never), else its
    /// refusal.
    pub(crate) fn check(self, key: &'static str, value: f64) -> Result<f64, ConfigError> {
        real(key, value, self.low, self.lo, self.hi, self.unit)
    }
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
        let ports = Bound::counting(1, 256, "ports");
        assert_eq!(ports.check("network.ports", 16), Ok(16));
        let e = ports.check("network.ports", 300).unwrap_err();
        assert_eq!(
            (e.key, e.message.as_str()),
            ("network.ports", "300: give 1 to 256 ports")
        );
        let e = Bound::counting(1, 100_000_000, "packets")
            .check("network.voq_cap", 0)
            .unwrap_err();
        assert_eq!(e.message, "0: give 1 to 100,000,000 packets");
        let gbps = Reals::closed(0.001, 10_000.0, "Gb/s");
        assert_eq!(gbps.takes(), "Gb/s from 0.001 to 10,000");
        assert_eq!(gbps.check("k", 10_000.0), Ok(10_000.0));
        assert_eq!(
            gbps.check("k", 0.0).unwrap_err().message,
            "0: give 0.001 to 10000 Gb/s"
        );
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

    #[test]
    fn a_bound_checks_a_value_and_words_its_refusal_in_its_own_style() {
        let nodes = Bound::span(2, 4096, "nodes");
        assert_eq!(nodes.check("network.nodes", 4096), Ok(4096));
        let e = nodes.check("network.nodes", 5000).unwrap_err();
        assert_eq!(
            (e.key, e.message.as_str()),
            ("network.nodes", "5000: give 2..=4096 nodes")
        );
        assert_eq!(
            Bound::span(1, 1_000_000, "").refusal(0, "", ""),
            "0: give 1..=1000000"
        );
        assert_eq!(
            Bound::counting(0, 65_535, "active buffers").refusal(70_000, "", ""),
            "70000: give 0 to 65,535 active buffers"
        );
        assert_eq!(nodes.takes(), "a whole number from 2 to 4,096");
    }
}
