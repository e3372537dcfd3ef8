//! Shrinking a deadlocking case to the smallest one that still deadlocks: greedy
//! delta debugging in which every candidate is one full deterministic run, accepted
//! only if it still deadlocks and is no larger in any measure.
//!
//! The steps, repeated until none changes anything or the candidate budget is spent:
//!
//! 1. **fewer messages**: continuous injection becomes a batch of K messages per
//!    sender (`injection.kind = "batch"`), K the smallest that still deadlocks
//!    (doubling from 1, then bisection); an existing batch is bisected down;
//! 2. **fewer senders**: `terminals.senders` is reduced by ddmin (drop halves, then
//!    quarters, … then single terminals);
//! 3. **smaller messages**: `message.bytes` is halved while it still deadlocks;
//! 4. **shorter run**: a case that stays continuous has its injection time
//!    (`phases.measure_us`) bisected down.
//!
//! Size is compared as (senders, messages per sender, bytes per message, injection
//! time), continuous injection counting as more messages than any batch.

use super::run::{Found, StressError, Target, Verdict, run_one};
use crate::config::TrafficConfig;
use crate::config::traffic::InjectionConfig;

/// The size of a case, smaller is better; every accepted step is ≤ in each field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Size {
    /// Terminals that send.
    pub senders: u32,
    /// Messages per sender (`None` = continuous injection: unbounded).
    pub messages: Option<u32>,
    /// Payload bytes per message.
    pub bytes: u32,
    /// Injection time of a continuous case, in ns (0 for a batch).
    pub run_ns: u64,
}

impl Size {
    /// The size of `t` on a network of `terminals` terminals.
    pub fn of(t: &TrafficConfig, terminals: u32) -> Size {
        let senders = t.terminals.sender_list(terminals).len() as u32;
        let (messages, run_ns) = match t.injection {
            InjectionConfig::Batch { messages } => (Some(messages), 0),
            _ => (None, (t.phases.measure_us * 1000.0).round() as u64),
        };
        Size {
            senders,
            messages,
            bytes: t.message.bytes,
            run_ns,
        }
    }

    /// True if `self` is no larger than `o` in every measure.
    pub fn within(&self, o: &Size) -> bool {
        let msgs = match (self.messages, o.messages) {
            (_, None) => true,
            (None, Some(_)) => false,
            (Some(a), Some(b)) => a <= b,
        };
        self.senders <= o.senders && msgs && self.bytes <= o.bytes && self.run_ns <= o.run_ns
    }
}

/// The result of shrinking.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The smallest deadlocking traffic found.
    pub traffic: TrafficConfig,
    /// Its run seed (unchanged from the original case).
    pub seed: u64,
    /// Its deadlock.
    pub found: Found,
    /// Its size, and the original's.
    pub size: Size,
    /// The original case's size.
    pub original: Size,
    /// Candidate runs tried.
    pub candidates: usize,
    /// Ticks simulated by the candidates.
    pub ticks: u64,
    /// What each accepted step did, readable.
    pub steps: Vec<String>,
}

struct Shrinker<'a> {
    target: Target<'a>,
    terminals: u32,
    seed: u64,
    best: TrafficConfig,
    found: Found,
    candidates: usize,
    ticks: u64,
    budget: usize,
    steps: Vec<String>,
}

impl Shrinker<'_> {
    /// Runs `t`; if it deadlocks and is no larger, it becomes the best case.
    fn try_accept(&mut self, t: TrafficConfig, what: &str) -> Result<bool, StressError> {
        if self.candidates >= self.budget {
            return Ok(false);
        }
        let now = Size::of(&self.best, self.terminals);
        if !Size::of(&t, self.terminals).within(&now) || t == self.best {
            return Ok(false);
        }
        self.candidates += 1;
        let v = run_one(self.target, &t, self.seed)?;
        self.ticks += v.ticks();
        if let Verdict::Deadlock(f) = v {
            self.best = t;
            self.found = *f;
            self.steps.push(what.to_string());
            return Ok(true);
        }
        Ok(false)
    }

    fn with_batch(&self, k: u32) -> TrafficConfig {
        let mut t = self.best.clone();
        t.injection = InjectionConfig::Batch { messages: k };
        t.phases.start_us = 0.0;
        t.phases.warmup_us = 0.0;
        t
    }

    /// Step 1: fewest messages per sender.
    fn messages(&mut self) -> Result<bool, StressError> {
        let mut changed = false;
        let hi = match self.best.injection {
            InjectionConfig::Batch { messages } => messages,
            _ => {
                // Doubling: the first batch size that deadlocks.
                let mut k = 1;
                loop {
                    if self.try_accept(
                        self.with_batch(k),
                        &format!("batch of {k} messages per sender"),
                    )? {
                        changed = true;
                        break k;
                    }
                    if k >= 256 || self.candidates >= self.budget {
                        return Ok(false);
                    }
                    k *= 2;
                }
            }
        };
        // Bisection between 1 and the smallest batch known to deadlock.
        let (mut lo, mut hi) = (0, hi);
        while hi - lo > 1 && self.candidates < self.budget {
            let mid = lo + (hi - lo) / 2;
            if self.try_accept(
                self.with_batch(mid),
                &format!("batch of {mid} messages per sender"),
            )? {
                hi = mid;
                changed = true;
            } else {
                lo = mid;
            }
        }
        Ok(changed)
    }

    /// Step 2: fewest senders (ddmin over the sender list).
    fn senders(&mut self) -> Result<bool, StressError> {
        let mut changed = false;
        let mut n = 2;
        loop {
            let s = self.current_senders();
            if s.len() <= 1 || self.candidates >= self.budget {
                return Ok(changed);
            }
            let n_eff = n.min(s.len());
            let chunk = s.len().div_ceil(n_eff);
            let mut removed = false;
            for c in 0..n_eff {
                let drop: Vec<u32> = s.iter().skip(c * chunk).take(chunk).copied().collect();
                if drop.is_empty() {
                    continue;
                }
                let keep: Vec<u32> = s.iter().filter(|x| !drop.contains(x)).copied().collect();
                let mut t = self.best.clone();
                t.terminals.senders = Some(keep.clone());
                let what = format!("{} senders", keep.len());
                if self.try_accept(t, &what)? {
                    removed = true;
                    changed = true;
                    n = (n_eff - 1).max(2);
                    break;
                }
            }
            if !removed {
                if n_eff >= s.len() {
                    return Ok(changed);
                }
                n = (2 * n_eff).min(s.len());
            }
        }
    }

    fn current_senders(&self) -> Vec<u32> {
        self.best.terminals.sender_list(self.terminals)
    }

    /// Step 3: smaller messages.
    fn bytes(&mut self) -> Result<bool, StressError> {
        let mut changed = false;
        while self.best.message.bytes > 1 {
            let mut t = self.best.clone();
            t.message.bytes /= 2;
            let what = format!("{}-byte messages", t.message.bytes);
            if !self.try_accept(t, &what)? {
                break;
            }
            changed = true;
        }
        Ok(changed)
    }

    /// Step 4: shorter injection time for a case that stays continuous.
    fn run_time(&mut self) -> Result<bool, StressError> {
        if matches!(self.best.injection, InjectionConfig::Batch { .. }) {
            return Ok(false);
        }
        let mut changed = false;
        // Bisection on whole microseconds between 1 and the current time.
        let (mut lo, mut hi) = (0u64, self.best.phases.measure_us.ceil() as u64);
        while hi - lo > 1 && self.candidates < self.budget {
            let mid = lo + (hi - lo) / 2;
            let mut t = self.best.clone();
            t.phases.measure_us = mid as f64;
            if self.try_accept(t, &format!("injection for {mid} µs"))? {
                hi = mid;
                changed = true;
            } else {
                lo = mid;
            }
        }
        Ok(changed)
    }
}

/// Shrinks the deadlocking `traffic` (run with `seed` on `target`, which has
/// `terminals` terminals and deadlocked as `found`) with at most `budget` candidate
/// runs.
pub fn shrink(
    target: Target,
    terminals: u32,
    traffic: &TrafficConfig,
    seed: u64,
    found: Found,
    budget: usize,
) -> Result<Shrunk, StressError> {
    let mut s = Shrinker {
        target,
        terminals,
        seed,
        best: traffic.clone(),
        found,
        candidates: 0,
        ticks: 0,
        budget,
        steps: Vec::new(),
    };
    loop {
        let mut changed = s.messages()?;
        changed |= s.senders()?;
        changed |= s.bytes()?;
        changed |= s.run_time()?;
        if !changed || s.candidates >= s.budget {
            break;
        }
    }
    Ok(Shrunk {
        size: Size::of(&s.best, terminals),
        original: Size::of(traffic, terminals),
        traffic: s.best,
        seed,
        found: s.found,
        candidates: s.candidates,
        ticks: s.ticks,
        steps: s.steps,
    })
}
