//! The cases `emu stress` tries: saturating traffic in three shapes, each a plain
//! traffic configuration so that any case can be written out and rerun with `emu`.
//!
//! - **permutation**: a random permutation of the terminals as a `table` pattern,
//!   continuous injection (every source always has a message waiting: the saturating
//!   load of INMOS ch. 7 §7.4.1);
//! - **hotspot**: every source sends to one of one to three random hot terminals
//!   (`table` pattern), continuous injection;
//! - **burst**: a random half of the terminals each queue a burst of 4 to 32 messages
//!   at once to uniformly random destinations (batch injection, INMOS ch. 7 §7.7's k-message
//!   batches).
//!
//! Message sizes are drawn from 8, 32, 64 and 128 bytes, so a message is one to four
//! 32-byte T9000 packets (INMOS ch. 6 §6.1.1). Everything is drawn from a
//! ChaCha8 generator seeded by the case seed: the same seed gives the same case.

use crate::config::TrafficConfig;
use crate::config::traffic::{
    InjectionConfig, MessageConfig, PatternConfig, PhasesConfig, TerminalsConfig,
};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The shape of a case's traffic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseKind {
    /// A random permutation, continuous injection.
    Permutation,
    /// All sources to a few hot terminals, continuous injection.
    Hotspot,
    /// Bursts of queued messages to random destinations.
    Burst,
}

impl CaseKind {
    /// The three kinds, in the order cases cycle through them.
    pub const ALL: [CaseKind; 3] = [CaseKind::Permutation, CaseKind::Hotspot, CaseKind::Burst];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            CaseKind::Permutation => "permutation",
            CaseKind::Hotspot => "hotspot",
            CaseKind::Burst => "burst",
        }
    }
}

/// One case: a traffic configuration and the run seed (which also seeds the
/// terminals' random destinations).
#[derive(Clone, Debug, PartialEq)]
pub struct StressCase {
    /// Position in the search (cases are reported in this order).
    pub index: usize,
    /// The shape of its traffic.
    pub kind: CaseKind,
    /// Run seed.
    pub seed: u64,
    /// The traffic.
    pub traffic: TrafficConfig,
}

/// Message sizes a case draws from, in bytes.
const MESSAGE_BYTES: [u32; 4] = [8, 32, 64, 128];

/// The cases for `seeds` seeds from `first_seed`: every seed gets each kind once, so
/// there are `3 × seeds` cases, ordered seed by seed. Continuous cases inject for
/// `run_us` microseconds of virtual time, all of it measured, and end when every
/// measured message is delivered or `2 × run_us` later (`phases.drain_limit_us`): a
/// hot spot starves some sources for a long time, and a slow run is not a deadlock,
/// so waiting longer for it would only cost time.
pub fn generate(first_seed: u64, seeds: u32, terminals: u32, run_us: f64) -> Vec<StressCase> {
    let mut out = Vec::new();
    for s in 0..u64::from(seeds) {
        let seed = first_seed.wrapping_add(s);
        for kind in CaseKind::ALL {
            out.push(one(out.len(), kind, seed, terminals, run_us));
        }
    }
    out
}

/// The case of `kind` for `seed` on a network of `terminals` terminals.
pub fn one(index: usize, kind: CaseKind, seed: u64, terminals: u32, run_us: f64) -> StressCase {
    // A different stream from the nodes' (which are seeded from (seed, node id)).
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5354_5245_5353_0000 ^ kind as u64);
    let bytes = MESSAGE_BYTES[rng.random_range(0..MESSAGE_BYTES.len())];
    let continuous = PhasesConfig {
        start_us: 0.0,
        warmup_us: 0.0,
        measure_us: run_us,
        drain_limit_us: 2.0 * run_us,
    };
    let (pattern, injection, senders, phases) = match kind {
        CaseKind::Permutation => {
            let mut d: Vec<u32> = (0..terminals).collect();
            d.shuffle(&mut rng);
            (
                PatternConfig::Table { destinations: d },
                InjectionConfig::Continuous,
                Vec::new(),
                continuous,
            )
        }
        CaseKind::Hotspot => {
            let hot: Vec<u32> = (0..rng.random_range(1..=3u32).min(terminals))
                .map(|_| rng.random_range(0..terminals))
                .collect();
            let d = (0..terminals)
                .map(|_| hot[rng.random_range(0..hot.len())])
                .collect();
            (
                PatternConfig::Table { destinations: d },
                InjectionConfig::Continuous,
                Vec::new(),
                continuous,
            )
        }
        CaseKind::Burst => {
            let mut senders: Vec<u32> = (0..terminals).filter(|_| rng.random_bool(0.5)).collect();
            if senders.len() < 2 {
                senders = (0..terminals.min(2)).collect();
            }
            (
                PatternConfig::Uniform,
                InjectionConfig::Batch {
                    messages: rng.random_range(4..=32),
                },
                senders,
                PhasesConfig {
                    warmup_us: 0.0,
                    ..PhasesConfig::default()
                },
            )
        }
    };
    StressCase {
        index,
        kind,
        seed,
        traffic: TrafficConfig {
            description: format!(
                "emu stress case {index}: {} traffic, seed {seed}",
                kind.name()
            ),
            pattern,
            injection,
            message: MessageConfig { bytes },
            phases,
            terminals: TerminalsConfig {
                senders: (!senders.is_empty()).then_some(senders),
                saturated: Vec::new(),
            },
            request_response: false,
        },
    }
}
