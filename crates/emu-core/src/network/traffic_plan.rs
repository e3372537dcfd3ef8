//! The parts of a traffic file every family reads the same way: run phases, the
//! senders, and each terminal's destination. Each check names the key it is about.

use super::build::BuildError;
use super::pattern::{Family, resolve};
use crate::config::TrafficConfig;
use crate::config::traffic::{InjectionConfig, PatternConfig};
use crate::time::{MAX_DURATION_US, Tick};
use crate::traffic::Destination;

/// A traffic-file error at `key`.
pub(super) fn traffic_err(key: &str, message: impl Into<String>) -> BuildError {
    BuildError {
        file: crate::config::FileKind::Traffic,
        key: key.into(),
        message: message.into(),
    }
}

/// `us` microseconds in ticks of `tick_ns`, or an error at `key`: a duration is at
/// most [`MAX_DURATION_US`].
pub(super) fn us_to_ticks(key: &str, us: f64, tick_ns: f64) -> Result<Tick, BuildError> {
    if !us.is_finite() || us < 0.0 {
        return Err(traffic_err(
            key,
            format!("{us} is not a duration: give microseconds ≥ 0"),
        ));
    }
    if us > MAX_DURATION_US {
        return Err(traffic_err(
            key,
            format!(
                "{us:e} µs is too long: give at most {MAX_DURATION_US:e} µs (about 17 minutes of virtual time)"
            ),
        ));
    }
    let t = (us * 1000.0 / tick_ns).round();
    if t > 1e15 {
        return Err(traffic_err(key, format!("{us} µs is too long")));
    }
    Ok(t as Tick)
}

/// The `[phases]` of a traffic file in ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Phases {
    /// Sources start.
    pub start: Tick,
    /// Messages created in `[from, to)` are measured; batch runs: `(start, Tick::MAX)`.
    pub window: (Tick, Tick),
    /// How long after the window (batch runs: after the start) the run may go on.
    pub drain: Tick,
    /// A batch run.
    pub batch: bool,
}

/// Reads `[phases]` in ticks of `tick_ns`.
pub(super) fn phases(tr: &TrafficConfig, tick_ns: f64) -> Result<Phases, BuildError> {
    let start = us_to_ticks("phases.start_us", tr.phases.start_us, tick_ns)?;
    let warmup = us_to_ticks("phases.warmup_us", tr.phases.warmup_us, tick_ns)?;
    let measure = us_to_ticks("phases.measure_us", tr.phases.measure_us, tick_ns)?;
    let drain = us_to_ticks("phases.drain_limit_us", tr.phases.drain_limit_us, tick_ns)?;
    Ok(Phases {
        start,
        window: (start + warmup, start + warmup + measure),
        drain,
        batch: false,
    })
}

impl Phases {
    /// The phases of a run whose injection is `batch` or not; an empty window is an error
    /// for a run that is not a batch.
    pub(super) fn with_batch(self, batch: bool) -> Result<Phases, BuildError> {
        if batch {
            return Ok(Phases {
                window: (self.start, Tick::MAX),
                batch,
                ..self
            });
        }
        if self.window.1 == self.window.0 {
            return Err(traffic_err(
                "phases.measure_us",
                "the measurement window must be longer than zero",
            ));
        }
        Ok(self)
    }
}

/// The offered load of a rate injection, checked to lie in (0, 1].
pub(super) fn rate_load(injection: &InjectionConfig) -> Result<Option<f64>, BuildError> {
    match *injection {
        InjectionConfig::Rate { load } if !(load > 0.0 && load <= 1.0) => Err(traffic_err(
            "injection.load",
            format!(
                "{}: give a fraction of link capacity in (0, 1]",
                crate::text::number(load)
            ),
        )),
        InjectionConfig::Rate { load } => Ok(Some(load)),
        _ => Ok(None),
    }
}

/// Which of `terminals` terminals send, from `terminals.senders` (no key: all; an
/// empty list is an error, not "all").
pub(super) fn senders(tr: &TrafficConfig, terminals: u32) -> Result<Vec<bool>, BuildError> {
    match &tr.terminals.senders {
        None => Ok(vec![true; terminals as usize]),
        Some(list) => terminal_set(
            "terminals.senders",
            list,
            terminals,
            "an empty list sends nothing; leave the key out to make every terminal a sender",
        ),
    }
}

/// Which of `terminals` terminals are hot senders, from `terminals.saturated`: a hot
/// sender is also a sender. Not in a `batch` run, which would never end.
pub(super) fn saturated(
    tr: &TrafficConfig,
    terminals: u32,
    batch: bool,
) -> Result<Vec<bool>, BuildError> {
    let key = "terminals.saturated";
    if batch && !tr.terminals.saturated.is_empty() {
        return Err(traffic_err(
            key,
            "a batch run ends when every message is delivered, and a saturated terminal \
             never stops sending: use continuous or rate injection",
        ));
    }
    if tr.terminals.saturated.is_empty() {
        return Ok(vec![false; terminals as usize]);
    }
    terminal_set(key, &tr.terminals.saturated, terminals, "")
}

/// A list of terminals as a set over `0..terminals`: every entry a terminal, none
/// listed twice (a repeat would be counted as another terminal in the run header), and
/// not empty (`empty` says why).
fn terminal_set(
    key: &'static str,
    list: &[u32],
    terminals: u32,
    empty: &str,
) -> Result<Vec<bool>, BuildError> {
    if list.is_empty() {
        return Err(traffic_err(key, empty.to_string()));
    }
    let mut set = vec![false; terminals as usize];
    for &s in list {
        let slot = set.get_mut(s as usize).ok_or_else(|| {
            traffic_err(
                key,
                format!(
                    "{s} is not a terminal ({})",
                    crate::text::indices(terminals.into())
                ),
            )
        })?;
        if *slot {
            return Err(traffic_err(
                key,
                format!("terminal {s} is listed twice: give each terminal once"),
            ));
        }
        *slot = true;
    }
    Ok(set)
}

pub use crate::config::limits::MAX_BATCH_MESSAGES;

/// Checks a batch of `messages` per terminal on `terminals` terminals: at least one,
/// and no more than [`MAX_BATCH_MESSAGES`] in all (refused before anything is
/// allocated, naming the memory the batch would take).
pub(crate) fn batch_messages(messages: u32, terminals: u32) -> Result<u32, BuildError> {
    if messages == 0 {
        return Err(traffic_err("injection.messages", "must be at least 1"));
    }
    let total = u64::from(messages) * u64::from(terminals);
    if total > MAX_BATCH_MESSAGES {
        let bytes = total * std::mem::size_of::<crate::terminal::Message>() as u64;
        return Err(traffic_err(
            "injection.messages",
            format!(
                "{messages} per terminal × {terminals} terminals = {total} messages queued at once \
                 would take about {:.1} GiB; give at most {MAX_BATCH_MESSAGES} in all",
                bytes as f64 / f64::from(1u32 << 30)
            ),
        ));
    }
    Ok(messages)
}

/// Each terminal's destination under the file's pattern on a `family` network.
pub(super) fn destinations(
    tr: &TrafficConfig,
    family: Family,
    terminals: u32,
) -> Result<Vec<Destination>, BuildError> {
    let key = pattern_key(&tr.pattern);
    (0..terminals)
        .map(|src| resolve(&tr.pattern, family, terminals, src))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|m| traffic_err(key, m))
}

/// The (source, destination) pairs of permutation traffic: every sending terminal has
/// a fixed destination (itself included: its messages go out and back) and no two
/// share one. Empty for any other
/// traffic (random destinations, or several sources per destination, whose flows a
/// destination's statistics cannot tell apart).
pub(super) fn permutation_flows(destinations: &[Destination], senders: &[bool]) -> Vec<(u32, u32)> {
    let mut flows = Vec::new();
    let mut taken = vec![false; destinations.len()];
    for (src, (d, &sends)) in destinations.iter().zip(senders).enumerate() {
        if !sends {
            continue;
        }
        let Destination::Fixed(dst) = *d else {
            return Vec::new();
        };
        match taken.get_mut(dst as usize) {
            Some(t) if !*t => *t = true,
            _ => return Vec::new(),
        }
        flows.push((src as u32, dst));
    }
    flows
}

fn pattern_key(p: &PatternConfig) -> &'static str {
    match p {
        PatternConfig::Shuffle { .. } => "pattern.rotate",
        PatternConfig::Fixed { .. } => "pattern.destination",
        PatternConfig::Table { .. } => "pattern.destinations",
        PatternConfig::Starved { .. } => "pattern.node",
        _ => "pattern.kind",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_bounded_in_all_not_per_terminal() {
        assert!(batch_messages(0, 4).is_err());
        assert_eq!(batch_messages(1000, 1024).ok(), Some(1000));
        let e = batch_messages(10_000_000, 64).unwrap_err().to_string();
        assert!(e.contains("640000000 messages") && e.contains("GiB"), "{e}");
        assert!(batch_messages(u32::MAX, u32::MAX).is_err(), "no overflow");
    }
}
