//! How a run's throughput is shared: each terminal's delivered and offered throughput,
//! and the spread of the delivered throughput over the terminals (Jain's index, the
//! coefficient of variation and the extremes).

use serde::Serialize;

/// Throughput of each terminal in label order, % of link data capacity over the
/// report's throughput span.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TerminalShares {
    /// Payload delivered to each terminal.
    pub delivered_pct: Vec<f64>,
    /// Payload created at each terminal (its offered load).
    pub offered_pct: Vec<f64>,
}

/// The spread of one measure over terminals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// Terminals counted.
    pub count: usize,
    /// Jain's fairness index (Σx)² / (n·Σx²): 1 when every terminal gets the same, 1/n
    /// when one gets everything; `null` if all are 0.
    pub jain: Option<f64>,
    /// Coefficient of variation: population standard deviation over the mean; `null`
    /// for a zero mean.
    pub cov: Option<f64>,
    /// The terminal with the least (the first of equals), and its value.
    pub min_terminal: Option<usize>,
    /// Its value.
    pub min: f64,
    /// The terminal with the most (the first of equals).
    pub max_terminal: Option<usize>,
    /// Its value.
    pub max: f64,
}

/// The spread of `values`, each a (terminal, value) pair.
pub fn spread(values: &[(usize, f64)]) -> Spread {
    let n = values.len() as f64;
    let sum: f64 = values.iter().map(|v| v.1).sum();
    let squares: f64 = values.iter().map(|v| v.1 * v.1).sum();
    let jain = (squares > 0.0).then(|| sum * sum / (n * squares));
    let mean = if values.is_empty() { 0.0 } else { sum / n };
    let cov = (mean != 0.0).then(|| {
        let var = values.iter().map(|v| (v.1 - mean).powi(2)).sum::<f64>() / n;
        var.sqrt() / mean
    });
    let min = values
        .iter()
        .fold(None::<(usize, f64)>, |best, &v| match best {
            Some(b) if b.1 <= v.1 => Some(b),
            _ => Some(v),
        });
    let max = values
        .iter()
        .fold(None::<(usize, f64)>, |best, &v| match best {
            Some(b) if b.1 >= v.1 => Some(b),
            _ => Some(v),
        });
    Spread {
        count: values.len(),
        jain,
        cov,
        min_terminal: min.map(|m| m.0),
        min: min.map_or(0.0, |m| m.1),
        max_terminal: max.map(|m| m.0),
        max: max.map_or(0.0, |m| m.1),
    }
}

/// The spread of delivered throughput over the terminals that took part (offered or
/// received anything).
pub fn fairness(shares: &TerminalShares) -> Spread {
    let values: Vec<(usize, f64)> = shares
        .delivered_pct
        .iter()
        .zip(&shares.offered_pct)
        .enumerate()
        .filter(|(_, (d, o))| **d > 0.0 || **o > 0.0)
        .map(|(t, (d, _))| (t, *d))
        .collect();
    spread(&values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_shares_are_fair_and_a_monopoly_is_one_over_n() {
        let s = spread(&[(0, 2.0), (1, 2.0), (2, 2.0), (3, 2.0)]);
        assert_eq!((s.jain, s.cov), (Some(1.0), Some(0.0)));
        assert_eq!((s.min_terminal, s.max_terminal), (Some(0), Some(0)));
        let s = spread(&[(0, 0.0), (1, 8.0), (2, 0.0), (3, 0.0)]);
        assert_eq!(s.jain, Some(0.25));
        assert!((s.cov.unwrap() - 3f64.sqrt()).abs() < 1e-12);
        assert_eq!(
            (s.min_terminal, s.min, s.max_terminal, s.max),
            (Some(0), 0.0, Some(1), 8.0)
        );
        let none = spread(&[]);
        assert_eq!((none.jain, none.cov, none.min_terminal), (None, None, None));
    }

    #[test]
    fn idle_terminals_are_left_out_of_fairness() {
        let shares = TerminalShares {
            delivered_pct: vec![10.0, 0.0, 20.0, 0.0],
            offered_pct: vec![10.0, 0.0, 0.0, 5.0],
        };
        let f = fairness(&shares);
        assert_eq!(f.count, 3, "terminal 1 neither sent nor received");
        assert_eq!((f.min_terminal, f.max_terminal), (Some(3), Some(2)));
    }
}
