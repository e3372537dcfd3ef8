//! The traffic generator as it was before the hot paths were rewritten.

use crate::parts::fabric::source::{Arrivals, Destinations};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

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
}

impl Source {
    /// The generator of input `input` of an `outputs`-port fabric.
    pub fn new(arrivals: Arrivals, destinations: Destinations, input: u16, outputs: u16) -> Source {
        Source {
            arrivals,
            destinations,
            input,
            outputs,
            burst: None,
            left: 0,
            next_event: 0,
            started: false,
        }
    }

    /// A destination drawn from the pattern.
    fn destination(&self, rng: &mut ChaCha8Rng) -> u16 {
        match self.destinations {
            Destinations::Fixed(o) => o,
            Destinations::Uniform => rng.random_range(0..self.outputs),
            Destinations::NonUniform { w } => {
                if rng.random_bool(w.clamp(0.0, 1.0)) {
                    self.input
                } else {
                    rng.random_range(0..self.outputs)
                }
            }
        }
    }

    /// The packets created at cycle `cycle` (counted from the start): calls `create(output)`
    /// once per packet, in creation order.
    pub fn cycle(&mut self, cycle: u64, rng: &mut ChaCha8Rng, mut create: impl FnMut(u16)) {
        let first = !self.started;
        self.started = true;
        match &self.arrivals {
            Arrivals::None => {}
            &Arrivals::Bernoulli(p) => {
                if rng.random_bool(p.clamp(0.0, 1.0)) {
                    create(self.destination(rng));
                }
            }
            &Arrivals::Bursty { p10, p01 } => {
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
                    if rng.random_bool(p10.clamp(0.0, 1.0)) {
                        // The burst ends; the OFF period may last zero cycles.
                        self.burst = rng
                            .random_bool(p01.clamp(0.0, 1.0))
                            .then(|| self.destination(rng));
                    }
                } else if rng.random_bool(p01.clamp(0.0, 1.0)) {
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
                    |rng: &mut ChaCha8Rng| if rng.random_bool(q) { long } else { short }.max(1);
                if let Some(o) = self.burst {
                    create(o);
                    self.left -= 1;
                    if self.left == 0 {
                        // The frame ends; the OFF period may last zero cycles.
                        self.burst = None;
                        if rng.random_bool(p01.clamp(0.0, 1.0)) {
                            self.left = frame(rng);
                            self.burst = Some(self.destination(rng));
                        }
                    }
                } else if rng.random_bool(p01.clamp(0.0, 1.0)) {
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
