//! The traffic an input adapter generates (Gramsamer §2.4-2.5, App. D): N independent
//! generators, one per input, each conducting its experiment once per packet cycle.
//!
//! - **Bernoulli**: a packet with probability L each cycle, each to a new destination.
//! - **Bursty on/off** (Fig. 2.9, App. D): in the ON state one packet per cycle, all to
//!   the destination drawn when the burst began; ON lasts a geometric number n ≥ 1 of
//!   cycles with p10 = 1/BS (D.4/D.8), OFF a geometric number n ≥ 0 with
//!   p01 = 1/(BS(1/L − 1) + 1) (D.7), so that the mean load is L (D.5 with D.6 read as
//!   BS/(BS + 1/p01 − 1): the printed D.6 has a sign misprint). Leaving OFF after zero
//!   cycles is drawn in the cycle the burst ends (App. D: "it may be necessary to
//!   immediately leave this state"). BS = 1 is the Bernoulli process.
//! - **Bimodal** (§2.5.1, "Bimodal Traffic"): the on/off process with frames for bursts:
//!   each burst is a frame of exactly `short` or `long` packets (long with probability
//!   q), one per cycle to one destination; OFF as for bursty with the mean frame
//!   F = (1 − q)·short + q·long for BS, p01 = 1/(F(1/L − 1) + 1), so the load is L.
//!   A run starts in the stationary state: ON with probability L, in a frame drawn by
//!   length (long with probability q·long/F) at a uniform position in it.
//! - **Batch**: k packets at the start.
//! - **Trace**: packets at the cycles a trace file gives.
//!
//! Destinations: uniform over all N outputs (input i and output i are different ports of
//! a fabric, and the document excludes none), or non-uniform with the favoured output
//! i = o chosen with probability w + (1 − w)/N (Eq. 2.2), or a fixed output.

use rand::RngExt;
use rand::distr::Bernoulli;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// When an input creates packets.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Arrivals {
    /// Never.
    None,
    /// A packet with this probability every cycle (the load L).
    Bernoulli(f64),
    /// On/off bursts (App. D): leave ON with `p10`, leave OFF with `p01`.
    Bursty {
        /// Probability of ending a burst after each packet (1/BS).
        p10: f64,
        /// Probability of starting a burst (per OFF cycle, and at once after a burst).
        p01: f64,
    },
    /// Bimodal frames (Gramsamer §2.5.1): bursts of exactly `short` or `long` packets.
    Bimodal {
        /// Packets in a short frame (≥ 1).
        short: u32,
        /// Packets in a long frame (≥ 1).
        long: u32,
        /// Probability that a frame is long.
        long_share: f64,
        /// Probability of starting a frame (per OFF cycle, and at once after a frame).
        p01: f64,
    },
    /// `k` packets at the start cycle.
    Batch(u32),
    /// The packets of a trace for this input: (cycle, output, packets), cycles ascending.
    Trace(Arc<[TraceEvent]>),
}

impl Arrivals {
    /// Bytes the arrivals hold or queue at the start: a trace's events, a batch's
    /// packets (a waiting packet is two words in its VOQ).
    pub(crate) fn memory(&self) -> u64 {
        match self {
            Arrivals::Trace(events) => {
                events.len() as u64 * std::mem::size_of::<TraceEvent>() as u64
            }
            &Arrivals::Batch(k) => u64::from(k) * 16,
            _ => 0,
        }
    }

    /// The on/off process of burst size `bs` (≥ 1) at load `load` (0 < L ≤ 1), App. D.
    pub fn bursty(bs: f64, load: f64) -> Arrivals {
        Arrivals::Bursty {
            p10: 1.0 / bs,
            p01: 1.0 / (bs * (1.0 / load - 1.0) + 1.0),
        }
    }
}

impl Arrivals {
    /// Bimodal frames of `short` and `long` packets, the long ones a share `long_share`
    /// of the frames, at load `load` (0 < L ≤ 1): the off periods are those of the on/off
    /// process whose mean burst is the mean frame.
    pub fn bimodal(short: u32, long: u32, long_share: f64, load: f64) -> Arrivals {
        let mean = Arrivals::mean_frame(short, long, long_share);
        Arrivals::Bimodal {
            short,
            long,
            long_share,
            p01: 1.0 / (mean * (1.0 / load - 1.0) + 1.0),
        }
    }

    /// The mean frame length in packets.
    pub fn mean_frame(short: u32, long: u32, long_share: f64) -> f64 {
        (1.0 - long_share) * f64::from(short) + long_share * f64::from(long)
    }
}

/// One line of a trace, for one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// Packet cycle (from the run's start) the packets enter the VOQ.
    pub cycle: u64,
    /// The output they are for.
    pub output: u16,
    /// How many packets (a message of several packets).
    pub packets: u32,
}

/// How destinations are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Destinations {
    /// Uniform over all N outputs.
    Uniform,
    /// Output i = this input with probability w + (1 − w)/N, else uniform over the others
    /// (Gramsamer Eq. 2.2).
    NonUniform {
        /// The unbalance w (0 uniform, 1 directed).
        w: f64,
    },
    /// Always this output.
    Fixed(u16),
}

/// One input's generator state.
#[derive(Clone, Debug)]
pub struct Source {
    arrivals: Arrivals,
    destinations: Destinations,
    input: u16,
    outputs: u16,
    /// Bursty and bimodal: in a burst, to this output.
    burst: Option<u16>,
    /// Bimodal: packets of the current frame still to send.
    left: u32,
    /// Trace: next event.
    next_event: usize,
    started: bool,
    /// The process's coins, made once (each draws as `random_bool` of its probability
    /// would, from the same random numbers).
    coins: Coins,
}

/// The Bernoulli draws of a source, by what they decide.
#[derive(Clone, Copy, Debug)]
struct Coins {
    /// A Bernoulli source's packet (L).
    packet: Bernoulli,
    /// Leaving ON after a packet (bursty: p10).
    off: Bernoulli,
    /// Leaving OFF (bursty, bimodal: p01).
    on: Bernoulli,
    /// A long frame (bimodal: q).
    long: Bernoulli,
    /// The favoured output (non-uniform: w).
    own: Bernoulli,
}

/// A coin of probability `p` clamped to [0, 1] (NaN: never).
fn coin(p: f64) -> Bernoulli {
    let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
    match Bernoulli::new(p) {
        Ok(b) => b,
        Err(_) => unreachable!("{p} is in [0, 1]"),
    }
}

impl Source {
    /// The generator of input `input` of an `outputs`-port fabric.
    pub fn new(arrivals: Arrivals, destinations: Destinations, input: u16, outputs: u16) -> Source {
        let (packet, off, on, long) = match arrivals {
            Arrivals::Bernoulli(p) => (p, 0.0, 0.0, 0.0),
            Arrivals::Bursty { p10, p01 } => (0.0, p10, p01, 0.0),
            Arrivals::Bimodal {
                long_share, p01, ..
            } => (0.0, 0.0, p01, long_share),
            _ => (0.0, 0.0, 0.0, 0.0),
        };
        let own = match destinations {
            Destinations::NonUniform { w } => w,
            _ => 0.0,
        };
        Source {
            arrivals,
            destinations,
            input,
            outputs,
            burst: None,
            left: 0,
            next_event: 0,
            started: false,
            coins: Coins {
                packet: coin(packet),
                off: coin(off),
                on: coin(on),
                long: coin(long),
                own: coin(own),
            },
        }
    }

    /// A destination drawn from the pattern.
    #[inline]
    fn destination(&self, rng: &mut ChaCha8Rng) -> u16 {
        match self.destinations {
            Destinations::Fixed(o) => o,
            Destinations::Uniform => rng.random_range(0..self.outputs),
            Destinations::NonUniform { .. } => {
                if rng.sample(self.coins.own) {
                    self.input
                } else {
                    rng.random_range(0..self.outputs)
                }
            }
        }
    }

    /// The packets created at cycle `cycle` (counted from the start): calls `create(output)`
    /// once per packet, in creation order.
    #[inline]
    pub fn cycle(&mut self, cycle: u64, rng: &mut ChaCha8Rng, mut create: impl FnMut(u16)) {
        let first = !self.started;
        self.started = true;
        match &self.arrivals {
            Arrivals::None => {}
            Arrivals::Bernoulli(_) => {
                if rng.sample(self.coins.packet) {
                    create(self.destination(rng));
                }
            }
            &Arrivals::Bursty { p10, p01 } => {
                let coins = self.coins;
                // The state of this cycle; transitions take effect from the next one.
                if first {
                    // Start in the stationary state: ON with probability L.
                    let load = p01 / (p01 + p10 * (1.0 - p01));
                    if rng.random_bool(load.clamp(0.0, 1.0)) {
                        self.burst = Some(self.destination(rng));
                    }
                }
                if let Some(o) = self.burst {
                    create(o);
                    if rng.sample(coins.off) {
                        // The burst ends; the OFF period may last zero cycles.
                        self.burst = rng.sample(coins.on).then(|| self.destination(rng));
                    }
                } else if rng.sample(coins.on) {
                    self.burst = Some(self.destination(rng));
                }
            }
            &Arrivals::Bimodal {
                short,
                long,
                long_share,
                p01,
            } => {
                let q = long_share.clamp(0.0, 1.0);
                let coins = self.coins;
                if first {
                    // The stationary state: ON with probability L, in a frame chosen by
                    // length, at a uniform position in it.
                    let mean = Arrivals::mean_frame(short, long, q);
                    let load = mean / (mean + (1.0 - p01) / p01);
                    if rng.random_bool(load.clamp(0.0, 1.0)) {
                        let by_length = q * f64::from(long) / mean;
                        let len = if rng.random_bool(by_length.clamp(0.0, 1.0)) {
                            long
                        } else {
                            short
                        };
                        self.left = rng.random_range(1..=len.max(1));
                        self.burst = Some(self.destination(rng));
                    }
                }
                let frame =
                    |rng: &mut ChaCha8Rng| if rng.sample(coins.long) { long } else { short }.max(1);
                if let Some(o) = self.burst {
                    create(o);
                    self.left -= 1;
                    if self.left == 0 {
                        // The frame ends; the OFF period may last zero cycles.
                        self.burst = None;
                        if rng.sample(coins.on) {
                            self.left = frame(rng);
                            self.burst = Some(self.destination(rng));
                        }
                    }
                } else if rng.sample(coins.on) {
                    self.left = frame(rng);
                    self.burst = Some(self.destination(rng));
                }
            }
            &Arrivals::Batch(k) => {
                if first {
                    for _ in 0..k {
                        create(self.destination(rng));
                    }
                }
            }
            Arrivals::Trace(events) => {
                while let Some(e) = events.get(self.next_event) {
                    if e.cycle > cycle {
                        break;
                    }
                    for _ in 0..e.packets {
                        create(e.output);
                    }
                    self.next_event += 1;
                }
            }
        }
    }

    /// True if the process creates at most one packet a cycle (all but a batch and a
    /// trace).
    #[inline]
    pub(crate) fn at_most_one(&self) -> bool {
        matches!(
            self.arrivals,
            Arrivals::None
                | Arrivals::Bernoulli(_)
                | Arrivals::Bursty { .. }
                | Arrivals::Bimodal { .. }
        )
    }

    /// Packets of a trace not created yet: at the end of a run, those whose cycle it
    /// did not reach.
    pub(crate) fn unplayed(&self) -> u64 {
        match &self.arrivals {
            Arrivals::Trace(events) => events
                .get(self.next_event..)
                .unwrap_or_default()
                .iter()
                .map(|e| u64::from(e.packets))
                .sum(),
            _ => 0,
        }
    }

    /// The next cycle after `cycle` at which the generator may create packets on its
    /// own, if any (so the adapter knows when it must run).
    pub(crate) fn next_cycle(&self, cycle: u64) -> Option<u64> {
        match &self.arrivals {
            Arrivals::None => None,
            Arrivals::Bernoulli(p) => (*p > 0.0).then_some(cycle + 1),
            Arrivals::Bursty { .. } | Arrivals::Bimodal { .. } => Some(cycle + 1),
            Arrivals::Batch(_) => (!self.started).then_some(cycle),
            Arrivals::Trace(events) => events.get(self.next_event).map(|e| e.cycle.max(cycle + 1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn run(src: &mut Source, cycles: u64, seed: u64) -> Vec<(u64, u16)> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        for c in 0..cycles {
            src.cycle(c, &mut rng, |o| out.push((c, o)));
        }
        out
    }

    #[test]
    fn bursty_keeps_its_load_and_mean_burst_size() {
        for (bs, load) in [(10.0, 0.98), (30.0, 0.5), (1.0, 0.3)] {
            let mut s = Source::new(Arrivals::bursty(bs, load), Destinations::Uniform, 0, 16);
            let cycles = 400_000;
            let out = run(&mut s, cycles, 7);
            let rate = out.len() as f64 / cycles as f64;
            assert!((rate - load).abs() < 0.02, "BS {bs} L {load}: rate {rate}");
            // Bursts: maximal runs of consecutive cycles to one destination are at
            // least as long as the bursts; count burst starts by destination changes
            // or gaps, which undercounts only when a new burst draws the same output.
            let mut bursts = 1;
            for w in out.windows(2) {
                if w[1].0 != w[0].0 + 1 || w[1].1 != w[0].1 {
                    bursts += 1;
                }
            }
            let mean = out.len() as f64 / f64::from(bursts);
            let expect = bs * 1.0; // back-to-back bursts to one output merge: ≥ BS
            assert!(mean >= expect * 0.95, "BS {bs}: mean run {mean}");
            assert!(mean <= expect * 1.25, "BS {bs}: mean run {mean}");
        }
    }

    #[test]
    fn burst_size_one_is_bernoulli() {
        let Arrivals::Bursty { p10, p01 } = Arrivals::bursty(1.0, 0.4) else {
            unreachable!()
        };
        assert_eq!(p10, 1.0);
        assert!((p01 - 0.4).abs() < 1e-12);
    }

    #[test]
    fn non_uniform_favours_its_own_output_as_eq_2_2_says() {
        let n = 8u16;
        let w = 0.6;
        let mut s = Source::new(
            Arrivals::Bernoulli(1.0),
            Destinations::NonUniform { w },
            3,
            n,
        );
        let out = run(&mut s, 200_000, 1);
        let own = out.iter().filter(|&&(_, o)| o == 3).count() as f64 / out.len() as f64;
        let expect = w + (1.0 - w) / f64::from(n);
        assert!((own - expect).abs() < 0.01, "{own} vs {expect}");
    }

    #[test]
    fn a_trace_creates_its_packets_at_their_cycles() {
        let events: Arc<[TraceEvent]> = vec![
            TraceEvent {
                cycle: 2,
                output: 1,
                packets: 1,
            },
            TraceEvent {
                cycle: 2,
                output: 3,
                packets: 5,
            },
            TraceEvent {
                cycle: 9,
                output: 0,
                packets: 1,
            },
        ]
        .into();
        let mut s = Source::new(Arrivals::Trace(events), Destinations::Uniform, 0, 4);
        let out = run(&mut s, 12, 1);
        assert_eq!(out.len(), 7);
        assert_eq!(out[0], (2, 1));
        assert!(out[1..6].iter().all(|&e| e == (2, 3)));
        assert_eq!(out[6], (9, 0));
        assert_eq!(s.next_cycle(12), None);
    }

    #[test]
    fn bimodal_frames_have_two_lengths_and_keep_the_load() {
        // Frames of 3 and 7 packets, half of them long, at 60 %: runs to one output
        // separated by idle cycles are whole frames (or frames back to back).
        let load = 0.6;
        let mut s = Source::new(
            Arrivals::bimodal(3, 7, 0.5, load),
            Destinations::Uniform,
            0,
            64,
        );
        let cycles = 400_000;
        let out = run(&mut s, cycles, 5);
        let rate = out.len() as f64 / cycles as f64;
        assert!((rate - load).abs() < 0.01, "rate {rate}");
        // Frame lengths from the runs that an idle cycle ends on both sides and that
        // keep one output (a new frame to another output splits a run).
        let mut lengths = std::collections::BTreeMap::<u64, u64>::new();
        let mut start = 0;
        for k in 1..=out.len() {
            let ends = k == out.len() || out[k].0 != out[k - 1].0 + 1 || out[k].1 != out[k - 1].1;
            if ends {
                if start > 0 && k < out.len() && out[start].0 > out[start - 1].0 + 1 {
                    *lengths.entry((k - start) as u64).or_default() += 1;
                }
                start = k;
            }
        }
        let short = lengths.get(&3).copied().unwrap_or(0);
        let long = lengths.get(&7).copied().unwrap_or(0);
        let all: u64 = lengths.values().sum();
        // Two frames back to back to the same output (1/64) make longer runs.
        assert!(short + long > all * 95 / 100, "{lengths:?}");
        let share = long as f64 / (short + long) as f64;
        assert!((share - 0.5).abs() < 0.03, "long share {share}");
        assert!((Arrivals::mean_frame(10, 30, 0.5) - 20.0).abs() < 1e-12);
    }
}
