//! Parsing a `--load FROM:TO:STEP` range of offered loads.

/// Why a `--load` range is not one.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LoadsError {
    /// A field is not a number.
    #[error("\"{0}\" is not a number")]
    NotANumber(String),
    /// The step is zero, negative or not finite.
    #[error("step {0} must be positive")]
    Step(f64),
    /// `TO` is below `FROM` (or one of them is not a number).
    #[error("{to} is below {from}")]
    Descending {
        /// The first load.
        from: f64,
        /// The last load.
        to: f64,
    },
    /// The range holds more than 10,000 loads.
    #[error("{0} loads is too many (at most 10000)")]
    TooMany(usize),
    /// Neither `FROM:TO:STEP` nor one load.
    #[error("give FROM:TO:STEP (e.g. 0.05:1.0:0.05) or one load")]
    Malformed,
    /// A load outside (0, 1].
    #[error("load {0} is not a fraction of link capacity in (0, 1]")]
    OutOfRange(f64),
}

/// The loads `from, from + step, …` up to `to` (inclusive, within rounding), each a
/// fraction of link data capacity in (0, 1]. `spec` is `FROM:TO:STEP` or one load.
pub fn parse_loads(spec: &str) -> Result<Vec<f64>, LoadsError> {
    let num = |s: &str| -> Result<f64, LoadsError> {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| LoadsError::NotANumber(s.to_string()))
    };
    let parts: Vec<&str> = spec.split(':').collect();
    let loads = match parts.as_slice() {
        [one] => vec![num(one)?],
        [from, to, step] => {
            let (from, to, step) = (num(from)?, num(to)?, num(step)?);
            if !(step > 0.0 && step.is_finite()) {
                return Err(LoadsError::Step(step));
            }
            if to.is_nan() || from.is_nan() || to < from {
                return Err(LoadsError::Descending { from, to });
            }
            let count = ((to - from) / step + 1e-9).floor() as usize + 1;
            if count > 10_000 {
                return Err(LoadsError::TooMany(count));
            }
            (0..count)
                .map(|i| ((from + i as f64 * step) * 1e9).round() / 1e9)
                .collect()
        }
        _ => return Err(LoadsError::Malformed),
    };
    if let Some(bad) = loads.iter().find(|&&l| !(l > 0.0 && l <= 1.0)) {
        return Err(LoadsError::OutOfRange(*bad));
    }
    Ok(loads)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_inclusive_and_free_of_float_drift() {
        let l = parse_loads("0.05:1.0:0.05").unwrap();
        assert_eq!(l.len(), 20);
        assert_eq!(l[0], 0.05);
        assert_eq!(l[2], 0.15);
        assert_eq!(l[19], 1.0);
        assert_eq!(parse_loads("0.5").unwrap(), vec![0.5]);
        assert_eq!(parse_loads("0.1:0.35:0.1").unwrap(), vec![0.1, 0.2, 0.3]);
    }

    #[test]
    fn bad_ranges_say_why() {
        for bad in [
            "",
            "x",
            "0.1:0.2",
            "0.1:0.2:0",
            "0.5:0.1:0.1",
            "0:0.5:0.1",
            "0.5:1.5:0.5",
        ] {
            assert!(parse_loads(bad).is_err(), "{bad:?}");
        }
        let e = parse_loads("0.5:0.1:0.1").unwrap_err();
        assert_eq!(e.to_string(), "0.1 is below 0.5");
        let e = parse_loads("0.5:x:0.1").unwrap_err();
        assert_eq!(e.to_string(), "\"x\" is not a number");
    }
}
