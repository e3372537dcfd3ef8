//! Parsing a `--load FROM:TO:STEP` range of offered loads.

/// The loads `from, from + step, …` up to `to` (inclusive, within rounding), each a
/// fraction of link data capacity in (0, 1]. `spec` is `FROM:TO:STEP` or one load.
pub fn parse_loads(spec: &str) -> Result<Vec<f64>, String> {
    let num = |s: &str| -> Result<f64, String> {
        s.trim()
            .parse::<f64>()
            .map_err(|_| format!("\"{s}\" is not a number"))
    };
    let parts: Vec<&str> = spec.split(':').collect();
    let loads = match parts.as_slice() {
        [one] => vec![num(one)?],
        [from, to, step] => {
            let (from, to, step) = (num(from)?, num(to)?, num(step)?);
            if !(step > 0.0 && step.is_finite()) {
                return Err(format!("step {step} must be positive"));
            }
            if to.is_nan() || from.is_nan() || to < from {
                return Err(format!("{to} is below {from}"));
            }
            let count = ((to - from) / step + 1e-9).floor() as usize + 1;
            if count > 10_000 {
                return Err(format!("{count} loads is too many (at most 10000)"));
            }
            (0..count)
                .map(|i| ((from + i as f64 * step) * 1e9).round() / 1e9)
                .collect()
        }
        _ => return Err("give FROM:TO:STEP (e.g. 0.05:1.0:0.05) or one load".into()),
    };
    if let Some(bad) = loads.iter().find(|&&l| !(l > 0.0 && l <= 1.0)) {
        return Err(format!(
            "load {bad} is not a fraction of link capacity in (0, 1]"
        ));
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
    }
}
