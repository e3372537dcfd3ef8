//! Fairness as the source documents mean it: how the network shares itself among the
//! sources that ask for it, not how much traffic each source happened to ask for.
//!
//! - A source that asks a set amount (a rate, a batch, a trace) is served fairly when
//!   it is given what it asked: SCI §4.2-§4.3 judge flow control by whether a node
//!   "achieves" its arrivals or is "driven back down", and SCI §5 by "providing all
//!   nodes with their approximate fair share"; Gramsamer §7.2.5 calls a flow fairly
//!   served when it receives "its share of link bandwidth" and does not queue up
//!   (max-min fairness). So each such source's measure is *given / asked*, and the
//!   source held back most is the one with the lowest.
//! - Sources that always have a message waiting (continuous injection, or the
//!   traffic's `terminals.saturated`, the hot sender of SCI §4.3) ask for all they can
//!   get, so given / asked says nothing about them; among themselves, fairness is how
//!   evenly they share what the network gives them (Gramsamer §7.2.5, Fig. 7.8: each
//!   of three saturating flows "should achieve exactly 33 %"). Their measure is Jain's
//!   index over their throughputs, emu's choice of a single number for that evenness
//!   (neither document names one), with the coefficient of variation and the extremes.
//!
//! *Given* is what the network did for the source in the measurement window: on
//! networks whose sources learn their messages' fate (SCI rings, SCI §2.1: the echo),
//! the payload of its own messages delivered; elsewhere, the payload of its own
//! messages that left its source queue for the network (a lossless network delivers
//! all it takes). *Asked* is the payload it created in the window. Both are % of link
//! data capacity, as the report's `terminals`.

use serde::Serialize;

use super::shares::{Spread, spread};

/// How the network shares itself among its sources: what each was given against what
/// it asked, the sources that ask a set amount, and the saturated ones among
/// themselves.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Fairness {
    /// Every source in label order: what it asked and what it was given.
    pub sources: Vec<SourceShare>,
    /// The sources that ask a set amount (rate, batch, trace): how much of it they got.
    pub rate: RateFairness,
    /// The saturated sources (always a message waiting): how evenly they share what
    /// they are given. Jain's index and the extremes of their `given_pct`.
    pub saturated: Spread,
}

/// One source: what it asked and what it was given.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SourceShare {
    /// Terminal (node, input port) number.
    pub terminal: usize,
    /// True if it always has a message waiting (continuous injection, or listed in
    /// the traffic's `terminals.saturated`): it asks for all it can get.
    pub saturated: bool,
    /// Payload it created in the window, % of link data capacity. For a saturated
    /// source this only follows what it was given.
    pub asked_pct: f64,
    /// Payload of its own messages delivered in the window (SCI rings) or sent into
    /// the network in it (every other family), % of link data capacity.
    pub given_pct: f64,
    /// `given_pct / asked_pct`: 1 when it got all it asked; `null` for a saturated
    /// source or one that asked nothing. Above 1 when messages created before the
    /// window went through in it.
    pub given_of_asked: Option<f64>,
}

/// The sources that ask a set amount.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RateFairness {
    /// Sources counted (those that asked anything).
    pub count: usize,
    /// All they were given over all they asked; `null` when none asked anything.
    pub given_of_asked: Option<f64>,
    /// Jain's index (Σx)² / (n·Σx²) over their `given_of_asked`: 1 when every source
    /// got the same fraction of what it asked; `null` when none got anything.
    pub jain: Option<f64>,
    /// The source held back most: the lowest `given_of_asked` (the first of equals).
    pub least_terminal: Option<usize>,
    /// `least_terminal`'s `given_of_asked` (0 when there is none).
    pub least_given_of_asked: f64,
}

/// The fairness of `sources`, each a (terminal, saturated, asked %, given %) tuple in
/// label order.
pub fn fairness(sources: &[(usize, bool, f64, f64)]) -> Fairness {
    let sources: Vec<SourceShare> = sources
        .iter()
        .map(|&(terminal, saturated, asked, given)| SourceShare {
            terminal,
            saturated,
            asked_pct: asked,
            given_pct: given,
            given_of_asked: (!saturated && asked > 0.0).then(|| given / asked),
        })
        .collect();
    let ratios: Vec<(usize, f64)> = sources
        .iter()
        .filter_map(|s| s.given_of_asked.map(|r| (s.terminal, r)))
        .collect();
    let asked: f64 = sources
        .iter()
        .filter(|s| s.given_of_asked.is_some())
        .map(|s| s.asked_pct)
        .sum();
    let given: f64 = sources
        .iter()
        .filter(|s| s.given_of_asked.is_some())
        .map(|s| s.given_pct)
        .sum();
    let r = spread(&ratios);
    let rate = RateFairness {
        count: ratios.len(),
        given_of_asked: (asked > 0.0).then(|| given / asked),
        jain: r.jain,
        least_terminal: r.min_terminal,
        least_given_of_asked: r.min,
    };
    let saturated: Vec<(usize, f64)> = sources
        .iter()
        .filter(|s| s.saturated)
        .map(|s| (s.terminal, s.given_pct))
        .collect();
    Fairness {
        saturated: spread(&saturated),
        rate,
        sources,
    }
}

impl Fairness {
    /// The text report's fairness line, or `None` when there is no source. `num`
    /// writes a % of link data capacity as a number in the report's unit, `unit`;
    /// `what` names a terminal ("terminal", or "node" on an SCI ring).
    pub(crate) fn line(
        &self,
        what: &str,
        num: impl Fn(f64) -> String,
        unit: &str,
    ) -> Option<String> {
        use super::format::fixed;
        let mut parts = Vec::new();
        let r = &self.rate;
        if let (Some(all), Some(least)) = (r.given_of_asked, r.least_terminal) {
            let s = self.sources.iter().find(|s| s.terminal == least);
            let (asked, given) = s.map_or((0.0, 0.0), |s| (s.asked_pct, s.given_pct));
            parts.push(format!(
                "{} rate source{} got {} % of what they asked (Jain {}) · least served {what} {least}: {} % ({} of {} {unit})",
                r.count,
                if r.count == 1 { "" } else { "s" },
                fixed(100.0 * all, 1),
                r.jain.map_or("-".to_string(), |j| fixed(j, 3)),
                fixed(100.0 * r.least_given_of_asked, 1),
                num(given),
                num(asked),
            ));
        }
        let s = &self.saturated;
        if let (Some(lo), Some(hi)) = (s.min_terminal, s.max_terminal) {
            parts.push(if s.count == 1 {
                format!("1 saturated source: {what} {lo} got {} {unit}", num(s.min))
            } else {
                format!(
                    "{} saturated sources: Jain {} · COV {} · least {what} {lo} ({} {unit}), most {what} {hi} ({} {unit})",
                    s.count,
                    s.jain.map_or("-".to_string(), |j| fixed(j, 3)),
                    s.cov.map_or("-".to_string(), |c| fixed(c, 3)),
                    num(s.min),
                    num(s.max),
                )
            });
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_source_that_asked_least_but_got_it_all_is_not_held_back() {
        // The hot-sender picture: node 0 saturated takes 30 %; node 2 asked least and
        // got all of it; node 1 asked more and got 90 % of it.
        let f = fairness(&[
            (0, true, 30.0, 30.0),
            (1, false, 5.0, 4.5),
            (2, false, 3.0, 3.0),
            (3, false, 4.0, 4.0),
        ]);
        assert_eq!(f.rate.count, 3);
        assert_eq!(f.rate.least_terminal, Some(1));
        assert!((f.rate.least_given_of_asked - 0.9).abs() < 1e-12);
        assert!((f.rate.given_of_asked.unwrap() - 11.5 / 12.0).abs() < 1e-12);
        assert_eq!(f.sources[0].given_of_asked, None, "saturated asks all");
        assert_eq!(f.sources[2].given_of_asked, Some(1.0));
        assert_eq!((f.saturated.count, f.saturated.jain), (1, Some(1.0)));
        assert_eq!(f.saturated.min_terminal, Some(0));
        let line = f.line("node", |p| p.to_string(), "%").unwrap();
        assert!(
            line.contains("least served node 1: 90.0 % (4.5 of 5 %)"),
            "{line}"
        );
        assert!(
            line.contains("1 saturated source: node 0 got 30 %"),
            "{line}"
        );
    }

    #[test]
    fn saturated_sources_are_judged_by_how_evenly_they_share() {
        let f = fairness(&[(0, true, 10.0, 10.0), (1, true, 30.0, 30.0)]);
        assert_eq!(f.rate.count, 0);
        assert_eq!((f.rate.given_of_asked, f.rate.least_terminal), (None, None));
        // (10 + 30)² / (2 · (100 + 900)) = 0.8.
        assert!((f.saturated.jain.unwrap() - 0.8).abs() < 1e-12);
        assert_eq!(
            (f.saturated.min_terminal, f.saturated.max_terminal),
            (Some(0), Some(1))
        );
        let line = f.line("terminal", |p| p.to_string(), "%").unwrap();
        assert!(
            line.starts_with("2 saturated sources: Jain 0.800"),
            "{line}"
        );
        assert!(!line.contains("rate source"), "{line}");
    }

    #[test]
    fn no_source_has_no_line_and_a_source_that_asked_nothing_is_not_counted() {
        let none = fairness(&[]);
        assert_eq!(none.line("terminal", |p| p.to_string(), "%"), None);
        assert_eq!(none.saturated.jain, None);
        let idle = fairness(&[(0, false, 0.0, 0.0), (1, false, 2.0, 1.0)]);
        assert_eq!(idle.rate.count, 1);
        assert_eq!(idle.rate.least_terminal, Some(1));
        assert_eq!(idle.sources[0].given_of_asked, None);
        let starved = fairness(&[(0, false, 2.0, 0.0)]);
        assert_eq!(starved.rate.given_of_asked, Some(0.0));
        assert_eq!(starved.rate.jain, None, "nobody got anything");
    }
}
