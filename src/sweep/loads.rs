//! Parsing a `--load FROM:TO:STEP` range of offered loads. A range gives at least
//! one load and at most [`MAX_LOADS`]: a step so small that the count is absurd (or
//! would wrap to nothing) is refused, never swept as zero loads.

/// Most loads one sweep takes.
pub const MAX_LOADS: usize = 10_000;

/// Why a `--load` range is not one.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LoadsError {
    /// A field is not a number.
    #[error("\"{0}\" is not a number")]
    NotANumber(String),
    /// The step is zero, negative or not finite.
    #[error("step {}: give a step more than 0", emu_core::text::number(*.0))]
    Step(f64),
    /// `TO` is below `FROM` (or one of them is not a number).
    #[error("{} is below {}", emu_core::text::number(*.to), emu_core::text::number(*.from))]
    Descending {
        /// The first load.
        from: f64,
        /// The last load.
        to: f64,
    },
    /// The range holds more than [`MAX_LOADS`] loads (`count`, as a real number: a tiny
    /// step gives more than any integer holds).
    #[error(
        "{} loads from {} to {} in steps of {} is too many: give a step that makes at most {} loads",
        count_words(*.count),
        emu_core::text::number(*.from),
        emu_core::text::number(*.to),
        emu_core::text::number(*.step),
        emu_core::text::group(MAX_LOADS as u64)
    )]
    TooMany {
        /// Loads the range would hold.
        count: f64,
        /// The first load.
        from: f64,
        /// The last load.
        to: f64,
        /// The step.
        step: f64,
    },
    /// Neither `FROM:TO:STEP` nor one load.
    #[error("give FROM:TO:STEP (e.g. 0.05:1.0:0.05) or one load")]
    Malformed,
    /// A load outside (0, 1].
    #[error(
        "load {} is not a fraction of link capacity: give more than 0 and at most 1",
        emu_core::text::number(*.0)
    )]
    OutOfRange(f64),
}

/// A count that may be beyond any integer, for a message: "12,001", "about 4e299".
fn count_words(count: f64) -> String {
    if count < 1e15 {
        emu_core::text::group(count as u64)
    } else {
        format!("about {count:.0e}")
    }
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
            let count = ((to - from) / step + 1e-9).floor() + 1.0;
            if count.is_nan() || count > MAX_LOADS as f64 {
                return Err(LoadsError::TooMany {
                    count,
                    from,
                    to,
                    step,
                });
            }
            let count = count as usize;
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
