//! A spinning barrier for the sharded engine's workers, which meet twice per window.
//! Windows can be a few microseconds of work, so sleeping on a futex (as
//! `std::sync::Barrier` does) would cost more than the window; workers spin briefly
//! and then yield the CPU, so an oversubscribed machine still makes progress.

#[cfg(emu_loom)]
use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
#[cfg(not(emu_loom))]
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
            self.0.poison();
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

    /// Releases every waiting party with [`Poisoned`], now and at every later wait:
    /// for a party that will never arrive (it panicked, or its thread never started).
    pub fn poison(&self) {
        self.poisoned.store(true, Ordering::Release);
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
            // Under loom every spin yields, so that the model checker runs the others.
            #[cfg(emu_loom)]
            loom::thread::yield_now();
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

/// The barrier model-checked by loom: every interleaving of the parties' atomic
/// operations (`RUSTFLAGS="--cfg emu_loom" cargo test --release --lib loom_`).
#[cfg(all(test, emu_loom))]
mod loom_tests {
    use super::*;
    use loom::sync::Arc;
    use loom::sync::atomic::AtomicUsize as Counter;

    /// Two parties, two rounds each: nobody leaves a round before both have arrived,
    /// whatever the interleaving, and the barrier is reusable (the reset of `arrived`
    /// cannot race with an early arrival for the next round).
    #[test]
    fn loom_no_party_passes_a_round_early() {
        loom::model(|| {
            let barrier = Arc::new(SpinBarrier::new(2));
            let counter = Arc::new(Counter::new(0));
            let other = {
                let (barrier, counter) = (barrier.clone(), counter.clone());
                loom::thread::spawn(move || {
                    for round in 1..=2 {
                        counter.fetch_add(1, Ordering::SeqCst);
                        barrier.wait().expect("not poisoned");
                        assert!(counter.load(Ordering::SeqCst) >= 2 * round);
                    }
                })
            };
            for round in 1..=2 {
                counter.fetch_add(1, Ordering::SeqCst);
                barrier.wait().expect("not poisoned");
                assert!(counter.load(Ordering::SeqCst) >= 2 * round);
            }
            other.join().expect("the other party");
        });
    }

    /// A party that never arrives but poisons the barrier (a panicked worker, a thread
    /// the system refused) releases the waiting one in every interleaving.
    #[test]
    fn loom_poison_releases_a_waiting_party() {
        loom::model(|| {
            let barrier = Arc::new(SpinBarrier::new(2));
            let other = {
                let barrier = barrier.clone();
                loom::thread::spawn(move || barrier.poison())
            };
            assert_eq!(barrier.wait(), Err(Poisoned));
            other.join().expect("the poisoning party");
        });
    }
}

#[cfg(all(test, not(emu_loom)))]
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
