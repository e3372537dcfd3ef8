//! Student-t confidence intervals of a mean over independent replications (the method
//! of Gramsamer §2.4: "half-sided confidence interval of 3% of the system delay at a
//! confidence level of 90%", Student-t for up to 30 replications).
//!
//! Quantiles come from the standard table for 1 to 30 degrees of freedom and from the
//! Cornish-Fisher expansion beyond (error below 10⁻³ from 30 on).

use serde::Serialize;

/// Two-sided confidence levels the table holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum Level {
    /// 90 % (the 0.95 quantile).
    P90,
    /// 95 % (the 0.975 quantile).
    P95,
}

impl Level {}

/// t_{0.95}(df), df = 1..=30.
const T95: [f64; 30] = [
    6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812, 1.796, 1.782, 1.771,
    1.761, 1.753, 1.746, 1.740, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708, 1.706,
    1.703, 1.701, 1.699, 1.697,
];
/// t_{0.975}(df), df = 1..=30.
const T975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// The quantile of Student's t for a two-sided interval at `level` with `df` ≥ 1 degrees
/// of freedom.
pub(crate) fn student_t(level: Level, df: usize) -> f64 {
    let (table, z): (&[f64; 30], f64) = match level {
        Level::P90 => (&T95, 1.644_853_6),
        Level::P95 => (&T975, 1.959_964),
    };
    if (1..=30).contains(&df) {
        return table[df - 1];
    }
    // Cornish-Fisher: t ≈ z + (z³ + z)/4ν + (5z⁵ + 16z³ + 3z)/96ν².
    let v = df.max(1) as f64;
    z + (z.powi(3) + z) / (4.0 * v)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
}

/// A mean with its Student-t half-widths.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Number of values.
    pub n: usize,
    /// Their mean.
    pub mean: f64,
    /// Half-width of the 90 % interval (0 for fewer than two values).
    pub half_width_90: f64,
    /// Half-width of the 95 % interval.
    pub half_width_95: f64,
}

impl Interval {
    /// The interval of the mean of `values`.
    pub fn of(values: &[f64]) -> Interval {
        let n = values.len();
        let mean = if n == 0 {
            0.0
        } else {
            values.iter().sum::<f64>() / n as f64
        };
        let (h90, h95) = if n < 2 {
            (0.0, 0.0)
        } else {
            let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let se = (var / n as f64).sqrt();
            (
                student_t(Level::P90, n - 1) * se,
                student_t(Level::P95, n - 1) * se,
            )
        };
        Interval {
            n,
            mean,
            half_width_90: h90,
            half_width_95: h95,
        }
    }

    /// The 90 % half-width as a fraction of the mean (infinite for a zero mean with a
    /// non-zero width, 0 for an exact zero).
    pub fn relative_90(&self) -> f64 {
        if self.mean == 0.0 {
            if self.half_width_90 == 0.0 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (self.half_width_90 / self.mean).abs()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_the_printed_table_and_the_normal_limit() {
        assert_eq!(student_t(Level::P90, 8), 1.860);
        assert_eq!(student_t(Level::P90, 9), 1.833);
        assert_eq!(student_t(Level::P95, 9), 2.262);
        assert_eq!(student_t(Level::P90, 29), 1.699);
        // Beyond the table: t(0.95, 40) = 1.684, t(0.975, 60) = 2.000, t(0.95, 120) = 1.658.
        assert!((student_t(Level::P90, 40) - 1.684).abs() < 1e-3);
        assert!((student_t(Level::P95, 60) - 2.000).abs() < 1e-3);
        assert!((student_t(Level::P90, 120) - 1.658).abs() < 1e-3);
        // Continuity at the table's end.
        assert!((student_t(Level::P95, 31) - 2.040).abs() < 1e-3);
    }

    #[test]
    fn the_interval_of_the_documents_worked_example() {
        // Gramsamer §7.6.3: differences with mean −3.56, variance 31.78, nine values:
        // 90 % interval −3.56 ∓ 1.860 · 1.88.
        let x = [-5.0, -4.0, 5.0, -8.0, -2.0, 3.0, -14.0, -5.0, -2.0];
        let i = Interval::of(&x);
        assert!((i.mean + 3.556).abs() < 1e-3);
        assert!((i.half_width_90 - 1.860 * (31.78f64 / 9.0).sqrt()).abs() < 0.01);
        assert!(i.half_width_95 > i.half_width_90);
        assert_eq!(Interval::of(&[4.0]).half_width_90, 0.0);
    }
}
