//! How a run's throughput is shared: each terminal's delivered, offered and sent
//! throughput, the spread of one measure over terminals (Jain's index, the coefficient
//! of variation and the extremes; [`super::fairness`] uses it) and the starved sources.

use serde::Serialize;

/// Throughput of each terminal in label order, % of link data capacity over the
/// report's throughput span.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TerminalShares {
    /// Payload delivered to each terminal.
    pub delivered_pct: Vec<f64>,
    /// Payload created at each terminal (its offered load).
    pub offered_pct: Vec<f64>,
    /// Payload of each terminal's own messages that left its source queue for the
    /// network: what it got to send, whatever it offered.
    pub sent_pct: Vec<f64>,
}

/// A source that sent less than this fraction of the mean per-source throughput over
/// the measurement window is starved.
pub const STARVED_BELOW_MEAN: f64 = 0.1;

/// Sources that got (almost) nothing through: each sender's share of what left the
/// sources, and those below [`STARVED_BELOW_MEAN`] of the mean.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Starvation {
    /// Sources counted: the traffic's senders, or where the plan does not say, the
    /// terminals that offered or sent anything.
    pub sources: usize,
    /// Mean of their sent throughput, % of link data capacity.
    pub mean_sent_pct: f64,
    /// The bound: a source below this share of the mean is starved.
    pub bound_of_mean: f64,
    /// The starved sources, least served first: (terminal, sent %).
    pub starved: Vec<(usize, f64)>,
}

/// Which sources are starved. `senders` marks the traffic's senders by label; empty
/// when the plan does not say.
pub fn starvation(shares: &TerminalShares, senders: &[bool]) -> Starvation {
    let sources: Vec<(usize, f64)> = shares
        .sent_pct
        .iter()
        .zip(&shares.offered_pct)
        .enumerate()
        .filter(|&(t, (s, o))| match senders.get(t) {
            Some(&sends) => sends,
            None => *s > 0.0 || *o > 0.0,
        })
        .map(|(t, (s, _))| (t, *s))
        .collect();
    let mean = if sources.is_empty() {
        0.0
    } else {
        sources.iter().map(|s| s.1).sum::<f64>() / sources.len() as f64
    };
    let mut starved: Vec<(usize, f64)> = sources
        .iter()
        .copied()
        .filter(|s| s.1 < STARVED_BELOW_MEAN * mean)
        .collect();
    starved.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    Starvation {
        sources: sources.len(),
        mean_sent_pct: mean,
        bound_of_mean: STARVED_BELOW_MEAN,
        starved,
    }
}

/// The spread of one measure over terminals.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Spread {
    /// Terminals counted.
    pub count: usize,
    /// Jain's fairness index (Σx)² / (n·Σx²): 1 when every terminal gets the same, 1/n
    /// when one gets everything; `null` if all are 0.
    pub jain: Option<f64>,
    /// Coefficient of variation: population standard deviation over the mean; `null`
    /// for a zero mean.
    pub cov: Option<f64>,
    /// The terminal with the least (the first of equals).
    pub min_terminal: Option<usize>,
    /// The least value: `min_terminal`'s.
    pub min: f64,
    /// The terminal with the most (the first of equals).
    pub max_terminal: Option<usize>,
    /// The most: `max_terminal`'s.
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
    fn a_sender_below_a_tenth_of_the_mean_is_starved_and_a_non_sender_is_not() {
        let shares = TerminalShares {
            delivered_pct: vec![0.0; 5],
            offered_pct: vec![20.0, 20.0, 0.0, 20.0, 0.0],
            // Mean over the four senders (0, 1, 2, 3): 10; the bound is 1.
            sent_pct: vec![19.5, 19.6, 0.0, 0.9, 0.0],
        };
        let senders = [true, true, true, true, false];
        let s = starvation(&shares, &senders);
        assert_eq!(s.sources, 4);
        assert!((s.mean_sent_pct - 10.0).abs() < 1e-12);
        assert_eq!(s.starved, vec![(2, 0.0), (3, 0.9)], "least served first");
        // Without the plan's senders, a terminal that neither offered nor sent is
        // not a source: terminal 2 and 4 drop out, and 3 (0.9 of a mean of 13.3) stays.
        let s = starvation(&shares, &[]);
        assert_eq!(s.sources, 3);
        assert_eq!(s.starved, vec![(3, 0.9)]);
        // Exactly at the bound is not starved.
        let even = TerminalShares {
            delivered_pct: vec![0.0; 2],
            offered_pct: vec![1.0; 2],
            sent_pct: vec![1.0, 1.0],
        };
        assert!(starvation(&even, &[true, true]).starved.is_empty());
    }
}
