//! Injection processes: when a terminal creates messages.

use crate::time::Tick;
use rand::RngExt;

/// When a terminal creates messages.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Injection {
    /// A new message whenever the source queue is empty (INMOS ch. 7 §7.4.1).
    Continuous,
    /// Bernoulli arrivals: a message each tick with probability `p`.
    Bernoulli(f64),
    /// `k` messages queued at the start.
    Batch(u32),
    /// The messages a program pushes into this feed, each created at the tick it gives
    /// ([`super::external`]).
    External(super::external::Feed),
}

/// Ticks until the next Bernoulli(p) arrival (≥ 1): the geometric distribution,
/// sampled by inversion so a terminal wakes only when a message is due rather than
/// drawing a coin every tick.
pub(crate) fn geometric_gap(p: f64, rng: &mut impl rand::Rng) -> Tick {
    if p >= 1.0 {
        return 1;
    }
    // u in (0, 1]: 1 - [0, 1).
    let u: f64 = 1.0 - rng.random::<f64>();
    let g = (u.ln() / (1.0 - p).ln()).floor();
    if g.is_finite() && g < 1e15 {
        1 + g as Tick
    } else {
        Tick::MAX / 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn geometric_gaps_have_mean_one_over_p() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for p in [0.5, 0.01, 0.001] {
            let n = 20_000;
            let sum: u64 = (0..n).map(|_| geometric_gap(p, &mut rng)).sum();
            let mean = sum as f64 / n as f64;
            // sd of the mean = sqrt(1-p)/p/sqrt(n) ≤ 0.71 % of 1/p; allow 4 %.
            assert!((mean * p - 1.0).abs() < 0.04, "p={p}: mean {mean}");
        }
        assert_eq!(geometric_gap(1.0, &mut rng), 1);
    }
}
