//! A spinning barrier for the sharded engine's workers, which meet twice per window.
//! Windows can be a few microseconds of work, so sleeping on a futex (as
//! `std::sync::Barrier` does) would cost more than the window; workers spin briefly
//! and then yield the CPU, so an oversubscribed machine still makes progress.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Spins before a waiting worker starts yielding its CPU.
const SPINS_BEFORE_YIELD: u32 = 2_000;

/// A reusable barrier for a fixed number of threads.
#[derive(Debug)]
pub(super) struct SpinBarrier {
    parties: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
    /// Set when a party panicked: it will never arrive, so nobody may wait for it.
    poisoned: AtomicBool,
}

/// A party panicked and will never arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Poisoned;

/// Poisons the barrier if dropped while its thread is panicking.
pub(super) struct PanicGuard<'a>(&'a SpinBarrier);

impl Drop for PanicGuard<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.poisoned.store(true, Ordering::Release);
        }
    }
}

impl SpinBarrier {
    /// A barrier for `parties` threads.
    pub fn new(parties: usize) -> SpinBarrier {
        SpinBarrier {
            parties: parties.max(1),
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            poisoned: AtomicBool::new(false),
        }
    }

    /// A guard to hold while a party works: if the party panics, the others stop
    /// waiting for it instead of spinning forever.
    pub fn poison_on_panic(&self) -> PanicGuard<'_> {
        PanicGuard(self)
    }

    /// Blocks until all parties have called `wait` for this generation. Everything a
    /// thread wrote before `wait` is visible to every thread after it.
    /// Fails if a party panicked.
    pub fn wait(&self) -> Result<(), Poisoned> {
        if self.parties == 1 {
            return Ok(());
        }
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.parties {
            // Last to arrive: reset for the next round, then release the others. The
            // reset happens before the release, and nobody can arrive for the next
            // round before seeing the release.
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::AcqRel);
            return Ok(());
        }
        let mut spins = 0u32;
        while self.generation.load(Ordering::Acquire) == generation {
            if self.poisoned.load(Ordering::Acquire) {
                return Err(Poisoned);
            }
            if spins < SPINS_BEFORE_YIELD {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn no_thread_passes_a_round_before_all_have_arrived() {
        let threads = 3;
        let rounds = 2_000u64;
        let barrier = SpinBarrier::new(threads);
        let counter = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    for r in 0..rounds {
                        counter.fetch_add(1, Ordering::SeqCst);
                        barrier.wait().unwrap();
                        // Every thread has added its 1 for round r, none yet for r + 1.
                        assert_eq!(counter.load(Ordering::SeqCst), (r + 1) * threads as u64);
                        barrier.wait().unwrap();
                    }
                });
            }
        });
    }

    #[test]
    fn a_panicking_party_releases_the_others() {
        let barrier = SpinBarrier::new(2);
        std::thread::scope(|s| {
            let h = s.spawn(|| {
                let _guard = barrier.poison_on_panic();
                panic!("worker failed");
            });
            assert_eq!(barrier.wait(), Err(Poisoned));
            assert!(h.join().is_err());
        });
    }
}
